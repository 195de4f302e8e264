/*
 * train_cli.h - what the files of `leuctra train` share: the run's settings, its folder and the
 * state it reads back from it, and the steps of a generation.
 *
 *   cmd_train.c      the options, the settings file that a resumed run must agree with, the
 *                    budget, the generation loop
 *   train_steps.c    one generation's steps: self-play of the best weights, the fit of the whole
 *                    model on a window of recent games, the gate against the best
 *   train_ladder.c   every promoted generation against fixed anchors (gen0 and the shipped
 *                    weights), the ratings with their intervals, the ladder table and the charts
 *
 * The folder is the state.  Every step ends by writing its own file whole (a temporary file
 * renamed into place), and a step whose file exists is done (so a new run begins only in a new
 * or empty folder, never among files it did not write): a run killed at any moment and
 * resumed (--resume) redoes only the step that was in progress, and since every step is
 * deterministic (seeded self-play, a fit that is the same bits for any thread count, matches
 * of fixed-visit players), the folder ends byte for byte as an uninterrupted run leaves it.
 * Self-play and the matches append their games crash-safely and resume mid-step.
 *
 *   DIR/settings               what decides the run's results (written first: the folder's mark)
 *   DIR/openings.txt           the gate's and the ladder's opening suite
 *   DIR/gen0/weights.{txt,lwt} the start
 *   DIR/genK/selfplay.lrec     generation K's self-play of the best weights so far
 *   DIR/genK/selfplay.done     ... finished
 *   DIR/genK/weights.{txt,lwt} the candidate, fitted to the window's games
 *   DIR/genK/tune.json         the fit's report (written last: the fit's mark)
 *   DIR/genK/match.lrec, match.txt, match.json   the gate: candidate against the best
 *   DIR/genK/verdict           promoted, rejected or undecided (the gate's mark)
 *   DIR/ladder/genK-ANCHOR.lrec, .txt            the ladder's games
 *   DIR/ladder.txt, ratings.svg, training.svg    the ladder and the charts
 *   DIR/genK/ladder.done       ... drawn with generation K (the mark of its last step)
 *   DIR/train.log              a line per step, appended
 *   DIR/elapsed                seconds the run has taken so far, over all its resumptions
 */
#ifndef LEUCTRA_TRAIN_RUN_H
#define LEUCTRA_TRAIN_RUN_H

#include "cli/cli.h"
#include "data/mpi_env.h"
#include "eval/match.h"
#include "eval/sprt.h"
#include "search/search_setup.h"

#include <stdbool.h>
#include <stdint.h>

/* TRAIN_WINDOW_MAX: --window-max's default.  A fit holds ~1 KB a position besides its priors'
 * (a million at most): 18 generations of 5,000 Crossings games, 2.1 M positions, took 7.5 GB. */
enum { TRAIN_PATH = 4096, TRAIN_MAX_GENERATIONS = 1000, TRAIN_WINDOW_MAX = 20 };

typedef struct {
    GameOptions game;
    const char *dir;
    /* The budget: no generation starts once either is spent (0: none).  Not settings: a resumed
     * run may raise them. */
    int generations;
    double hours;
    bool resume;
    int threads;                /* games or positions at once (default: every core) */
    bool quiet;
    /* The settings (DIR/settings, cmd_train.c), which a resumed run must repeat. */
    const char *start;          /* "zero", "shipped" or a weights file */
    long games, visits;         /* self-play per generation */
    int window;                 /* generations of self-play the fit reads */
    int window_max;             /* ... widened back over the best's own games up to this many */
    long gate_games, gate_visits;
    SprtTest sprt;
    long ladder_games, ladder_visits;   /* ladder_games 0: no ladder */
    const char *openings;       /* a suite file; NULL: made for the run (train_make_openings) */
    int make_openings;          /* ... with this many openings */
    uint64_t seed;
    bool linear_only;           /* fit the linear weights alone (else tables and priors too) */
    unsigned shapes;            /* --shapes: the tables' families (core/pattern.h; 0: the start's) */
    double l2_tables;           /* --l2-tables: the fit's penalty on each table entry (0: tune's) */
    double lambda;              /* --lambda: the game result's share of the fit's targets (the
                                 * settings name it where it is not 1, as before the option) */
    int priors_generations;     /* --priors-generations: the fits that refit the learned priors,
                                 * gens 1..N; later ones keep the best's (0: every fit) */
} TrainOptions;

/* A run in progress: its options, game and where things are. */
typedef struct {
    const TrainOptions *o;
    const MpiEnv *env;
    Game *game;
    Position start;
    char settings_path[TRAIN_PATH], openings_path[TRAIN_PATH];
    bool has_shipped;           /* shipped weights exist for this board: a ladder anchor */
    bool tty;                   /* stderr is a terminal: live progress lines */
    double started;             /* clock_seconds() when this process began the run */
    double elapsed_before;      /* seconds earlier runs of the folder took */
    int best;                   /* the best generation so far */
    int done;                   /* generations finished (a verdict each) */
} TrainRun;

/* --- cmd_train.c ------------------------------------------------------------------------------ */

/* The options that make the run's results, as one `leuctra train DIR ...` command line. */
void train_command_text(const TrainRun *run, char *buf, size_t len);

/* Appends the fit's options that take a number and are set (--l2-tables, --lambda where not 1,
 * --priors-generations) to buf: as the settings' words with dashes "", as options with "--". */
void train_fit_numbers(const TrainOptions *o, const char *dashes, char *buf, size_t len);

/* DIR/rel into buf (fails on a path too long). */
void train_path(const TrainRun *run, char *buf, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether DIR/rel exists (a step's mark), the same answer on every rank. */
bool train_exists(const TrainRun *run, const char *rel);
/* Writes DIR/rel whole with `text` (rank 0; the others wait). */
void train_write_text(const TrainRun *run, const char *rel, const char *text);
/* One line to DIR/train.log (and, unless quiet, to stdout), rank 0 only. */
void train_log(const TrainRun *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The weights file of generation k, relative to DIR ("genK/weights.lwt" or ".txt"). */
void train_weights_of(const TrainRun *run, int k, char *rel, size_t len);
/* Seconds the run has taken, this process's part included; saved to DIR/elapsed after every step,
 * so that --hours counts the time of runs that were killed. */
double train_elapsed(const TrainRun *run);
void train_save_elapsed(const TrainRun *run);
/* One run a folder: a lock on DIR/lock, held until the process ends; a second run stops with one
 * line. */
void train_lock(const TrainRun *run);
/* Removes the temporary files ("NAME.tmp.XXXXXX") that a run killed while writing a file whole left
 * in the folder (under the lock, no other writer owns them); returns how many. */
int train_remove_stale_temps(const TrainRun *run);
/* "+W =D -L  Elo [lower, upper]" of a score at 95%, never an infinite Elo: a perfect score says
 * "won every game", a score whose interval reaches 0 or 1 gives its one finite bound. */
void train_score_text(const Trinomial *c, char *buf, size_t len);

/* --- train_steps.c ---------------------------------------------------------------------------- */

/* Generation k's steps that are not done yet, in order; its verdict at the end.  Fails with one
 * line (the folder keeps what was finished). */
void train_generation(TrainRun *run, int k);
/* The verdict of a finished generation: "promoted", "rejected" or "undecided"; NULL when the
 * generation is not finished. */
const char *train_verdict(const TrainRun *run, int k);

/* What a match of the run came to. */
typedef struct {
    MatchTotals totals;         /* the first player's */
    SprtDecision decision;      /* SPRT_CONTINUE without a test */
    double llr;
    bool reported;
} TrainMatchResult;

/* A player of the run's matches: a search of `visits` visits a move with the weights file at
 * `weights` (NULL: the shipped weights), the rest as players' defaults. */
void train_player(long visits, const char *weights, SearchSetup *setup);
/* A match of two players of the run (rank 0): the folder's suite, the run's threads, crash-safe
 * records (resumed where a killed run left them) and a results file for the ratings; sprt may
 * be NULL.  Fails with one line. */
void train_match(const TrainRun *run, const SearchSetup *const setup[2], const char *const name[2], long games,
                 uint64_t seed, const SprtTest *sprt, const char *records, const char *results,
                 TrainMatchResult *out);

/* --- train_ladder.c --------------------------------------------------------------------------- */

/* The ladder games of every promoted generation that lacks them, then the ladder table, the
 * ratings and the charts, from every result so far. */
void train_ladder(TrainRun *run);
/* The ladder step of the last finished generation (run->done): train_ladder, then its mark
 * DIR/genK/ladder.done; nothing where the mark is there. */
void train_ladder_step(TrainRun *run);

#endif
