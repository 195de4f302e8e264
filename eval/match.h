/*
 * match.h - the match runner behind `leuctra match` (cli/cmd_match.c reads the options,
 * eval/match_run.c runs the steps that eval/match_*.c hold, cli/cmd_match_report.c prints the
 * result): the options, the table of games and its totals, the pair-order SPRT, the concurrent
 * game loop, the records and results files and the opening generator.  docs/MATCHES.md
 * describes the command.
 *
 * Game k of a run belongs to matchup k / games (a pair of players, the first of them first);
 * within it, game i = k % games has the first player White when i is even, and games 2j and
 * 2j+1 start from opening j (of the suite, cycling, or j's random plies).
 */
#ifndef LEUCTRA_MATCH_H
#define LEUCTRA_MATCH_H

#include "core/game.h"
#include "data/mpi_env.h"
#include "data/openings.h"
#include "data/records.h"
#include "eval/results.h"
#include "eval/sprt.h"
#include "selfplay/driver.h"
#include "selfplay/external_process.h"
#include "search/time_control.h"

#include <stdbool.h>
#include <stdint.h>

enum { MATCH_MAX_PLAYERS = 64 };

typedef struct MatchSprt MatchSprt;

/* What a match reports after each game it finishes (match_play.c), one call at a time; the
 * command prints it (library code prints nothing). */
typedef struct {
    int done, todo;             /* games finished by this run, and the games it set out to play */
    double seconds;             /* since its first game began */
    const MatchSprt *sprt;      /* the SPRT so far, or NULL without one */
} MatchProgress;
typedef void (*MatchProgressFn)(const MatchProgress *progress, void *ctx);

typedef struct {
    const char *spec[MATCH_MAX_PLAYERS];
    /* An mcts player's search set-up, used instead of spec[i] where not NULL (a program that
     * knows its players' visits and weights: `train`'s gates and ladder); the records' settings
     * then name it by player_search_spec's text. */
    const SearchSetup *setup[MATCH_MAX_PLAYERS];
    char name[MATCH_MAX_PLAYERS][RESULTS_NAME_MAX + 1];   /* in the results file */
    int players;
    const char *tournament;     /* NULL (two players), "gauntlet" or "round-robin" */
    int games;                  /* per matchup */
    int concurrency, max_plies, opening_plies;
    int resign_moves;           /* --resign movecount (0: off) */
    double resign_value;        /* --resign value: the loser's win probability at most this */
    double time_margin;         /* --timemargin: seconds a clocked move may overrun its clock */
    bool repetition, resume;
    MatchProgressFn progress;   /* may be NULL */
    void *progress_ctx;
    PlayerOutput player_output; /* external engines' notes (incidents, summaries); --debug's
                                   transcript is set by match_run from debug_path */
    uint64_t seed;
    const char *openings_path, *out_path, *results_path;
    const char *pgn_path;       /* --pgn: the games as text, made from the records file at the end */
    const char *debug_path;     /* --debug: the transcript of every engine's lines */
    TimeControl tc[MATCH_MAX_PLAYERS];  /* each player's clock (match_inspect_players), for the files */
    bool timed;                 /* a player's moves depend on time: the records keep every move's
                                   time (without, they are left out, so that a match of visits
                                   alone writes the same file every time) */
    bool sprt_on;
    SprtTest sprt;
    int make_openings;          /* > 0: generate this many openings instead of playing */
    int make_visits;            /* the evaluating search of the generator */
    double make_low, make_high; /* kept when the side to move's value is inside */
    /* Several processes (mpirun; match_mpi.c): each plays its share of the game pairs (and of
     * the generator's evaluations), and process 0 gathers the results and writes the files, the
     * same bytes as one process.  Every process calls match_run (or match_make_openings) alike.
     * NULL or one rank: this process plays everything. */
    const MpiEnv *mpi;
} MatchOptions;

typedef struct {
    int first, second;          /* player indices */
} Matchup;

/* One side's time in one game, from its record. */
typedef struct {
    int moves;                  /* moves with a time */
    float seconds, max_seconds; /* their total and the longest */
    float clock_left;           /* the clock at the end (negative: lost on time); NAN without one */
} SideTime;

typedef struct {
    bool done;                  /* played (now or in the resumed file) */
    bool resumed;               /* ... read back from the records (--resume), not played now */
    bool counted;               /* part of the reported result (see match_mark_counted) */
    GameStatus result;
    EndReason reason;
    int plies;
    SideTime time[2];           /* [WHITE], [BLACK] */
} MatchGame;

/* The pair-order SPRT: pairs are added strictly in order, each once both its games are done,
 * so the decision is the same whatever the timing of the games. */
struct MatchSprt {
    SprtTest test;
    Pentanomial counts;
    int next_pair;              /* pairs 0 .. next_pair - 1 are counted */
    double llr;
    SprtDecision decision;
};

typedef struct {
    const Game *game;
    const Position *start;
    const MatchOptions *options;
    const MpiEnv *mpi;          /* the options' processes, or one (never NULL) */
    const OpeningSuite *suite;  /* count 0: random opening plies */
    const Matchup *matchup;
    int num_matchups;
    int total;                  /* num_matchups * options->games */
    /* The games that make the match: [0, limit), all of them unless a decided SPRT stopped it
     * (match_keep_decided); the files and the report hold these alone. */
    int limit;
    MatchGame *games;           /* total entries; under MPI on process 0 all, elsewhere its own */
    RecordsWriter *writer;      /* NULL: no records file */
    char *shard;                /* under MPI, the records file this process writes beside --out */
    MatchSprt *sprt;            /* NULL: no SPRT */
    int resumed;                /* games of the match read back from the records files (--resume) */
    int removed_temps;          /* their temporary files that a stopped run left, removed (--resume) */
    long incidents[MATCH_MAX_PLAYERS];  /* external engines' crashes, hangs, illegal moves ... */
    int played;                 /* games of the match played by this run (on every process) */
    uint64_t *played_by;        /* under MPI, on process 0: the games each process played now
                                 * (those beyond a decided SPRT's pairs included); else NULL */
    IoLog *io_log;              /* NULL, or the --debug transcript */
} MatchRun;

/* --- match_games.c */
bool match_first_is_white(const MatchRun *run, int k);
/* Game k's entry from its record: result, end, plies and each side's time. */
MatchGame match_game_of_record(const MatchRun *run, const GameRecord *r);
/* +1 the first player of k's matchup won, 0 a draw, -1 lost. */
int match_first_score(const MatchRun *run, int k);

/* The counted games of one matchup, from its first player's side (see match_mark_counted). */
/* A player's time over the counted games of a matchup. */
typedef struct {
    long moves;                 /* timed moves */
    double seconds, max_seconds;
    int clocked;                /* games it played on a clock */
    double clock_left;          /* the sum of its clock at their ends */
    int forfeits;               /* games it lost on time */
} TimeTotals;

typedef struct {
    Trinomial games;
    Pentanomial pairs;          /* a pair counts when both its games do */
    int counted, adjudicated, resigned;   /* adjudicated: draws; resigned: losses by --resign */
    long plies;
    TimeTotals time[2];         /* the first player's, the second's */
} MatchTotals;

MatchTotals match_totals(const MatchRun *run, int m);
/* Every counted game as a results table (eval/results.h), the players in the options' order, for
 * the ratings of a tournament; NULL when memory runs out. */
ResultTable *match_results_table(const MatchRun *run);

/* --- match_run.c: the whole match (not --make-openings).  The finished run goes to `report`
 * (with the seconds it took and report_ctx) before its tables are freed.  False with *err when
 * the match cannot be played to its end (err->failure false: its inputs are wrong). */
typedef void (*MatchReportFn)(const MatchRun *run, double seconds, void *report_ctx);
bool match_run(const Game *g, const Position *start, const MatchOptions *o, const OpeningSuite *suite,
               MatchReportFn report, void *report_ctx, Error *err);

/* --- match_play.c: plays every game not yet done, options->concurrency at a time; false with
 * *err on the first failure (the games in flight then finish, no new one starts). */
bool match_play(MatchRun *run, Error *err);

/* --- match_run.c: what a match needs to know of its players before it plays (each is made once
 * and freed): their clocks and search threads.  False with *err (input) for a bad spec. */
typedef struct {
    TimeControl tc;
    int threads;
    bool timed;
} MatchPlayerInfo;
bool match_inspect_players(const Game *g, const MatchOptions *o, MatchPlayerInfo *info, Error *err);

/* --- match_players.c: player i of the options, made from its set-up or its spec (with `out`
 * for an external engine's output); NULL with *err.  Its spec as the records name it. */
Player *match_player_create(const Game *g, const MatchOptions *o, int i, const PlayerOutput *out, Error *err);
void match_player_spec(const MatchOptions *o, int i, char *buf, size_t len);

/* --- match_openings.c */
Position match_opening(const MatchRun *run, int k);
/* Writes a suite of options->make_openings balanced openings to options->out_path; false with
 * *err on failure. */
bool match_make_openings(const Game *g, const Position *start, const MatchOptions *o, Error *err);

/* --- match_sprt.c */
void match_sprt_init(MatchSprt *s, const SprtTest *test);
/* Counts every complete pair in order while undecided; true when a decision was just made. */
bool match_sprt_advance(MatchSprt *s, const MatchRun *run);
/* After the games: run->limit (a decided SPRT's pairs, else every game), the games beyond it
 * left out as if never played (games in flight when the test stopped, or another process's
 * ahead of it), and run->played and run->resumed counted among the games kept. */
void match_keep_decided(MatchRun *run);
/* Marks the games the report counts: those kept (match_keep_decided). */
void match_mark_counted(MatchRun *run);
const char *match_sprt_decision_name(SprtDecision d);

/* --- match_files.c */
/* Opens (creates or, with --resume, resumes) the records file this process writes: --out, or
 * under MPI its shard beside it (run->shard); NULL with *err. */
RecordsWriter *match_open_records(MatchRun *run, Error *err);
/* --resume: marks the games that the records files hold as done (--out, and under MPI every
 * process's shard, so that every process knows them all); after every process opened its own. */
bool match_read_resumed(MatchRun *run, Error *err);
/* Closes this process's file; one process makes --out canonical with the games [0, limit). */
bool match_close_records(MatchRun *run, RecordsWriter *w, Error *err);
/* Under MPI, process 0: --out (when resumed) and every shard merged into --out, the games
 * [0, limit) alone, canonical (the file one process writes); then the shards are removed. */
bool match_merge_shards(MatchRun *run, Error *err);
bool match_write_results(const MatchRun *run, Error *err);

/* --- match_mpi.c: the games of a match over several processes.  Game pair p of the run (pairs
 * numbered matchup after matchup) is played by process p mod R, both its games; every finished
 * game goes to process 0, which keeps the table and the SPRT and tells the others when to stop. */
typedef struct MatchExchange MatchExchange;
/* Whether this process plays game k. */
bool match_plays_here(const MatchRun *run, int k);
/* For match_play with several processes: the exchange, or NULL (*err) when memory runs out. */
MatchExchange *match_exchange_new(MatchRun *run, int todo, double t0, Error *err);
void match_exchange_free(MatchExchange *x);
/* Game k (run->games[k], just played here) to process 0, or there into the table with whatever
 * the others sent; the SPRT advanced.  Call inside the loop's one critical section.  True when
 * this process should start no new game. */
bool match_exchange_game(MatchExchange *x, int k);
/* The games finished so far, over all processes, as process 0 knows them (progress). */
int match_exchange_done(const MatchExchange *x);
/* After this process's loop: its end (ok: no failure here) to process 0, which takes the rest
 * of every process's games; every process returns once all have ended.  Incidents and removed
 * temporary files are summed on process 0.  A failure is agreed afterwards (mpi_env_agree). */
void match_exchange_finish(MatchExchange *x, bool ok);

/* --- match_pgn.c: the games of the records file as text, in game order (docs/MATCHES.md): one
 * block a game, its tags (players, variant, opening, result, reason, clocks) and its moves with
 * each move's value, visits, time and clock as a comment.  Written whole or not at all. */
bool match_write_pgn(const MatchRun *run, Error *err);

#endif
