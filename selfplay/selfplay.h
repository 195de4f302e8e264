/*
 * selfplay.h - self-play datasets: the engine plays itself and every game is written as a game
 * record (data/records.h) with the search's root value and visit distribution for each move.
 *
 * Three layers, one file each:
 *   selfplay_game.c      one game: MCTS every move (tree kept, game history for repetitions),
 *                        root noise, moves sampled by visits for the opening plies, optional
 *                        random opening plies; draws adjudicated by selfplay/driver.c.
 *   selfplay_settings.c  the settings text of a run (the records file's header) and the test
 *                        that a file being resumed was written with the same settings.
 *   selfplay.c           the run: the games a file still lacks, played one per thread on
 *                        OpenMP threads, appended as they finish, then the file canonicalised.
 *   selfplay_lockstep.c  the same run's games played in step where an evaluator outside the
 *                        search judges the leaves (many leaves per call, across the games).
 *
 * Reproducibility is the contract: game i is played from selfplay_game_seed(run seed, i) by a
 * single-threaded search, so it is the same game whichever thread plays it and in whichever run
 * (first or resumed); the canonical file is then a function of the settings and the game count.
 */
#ifndef LEUCTRA_SELFPLAY_H
#define LEUCTRA_SELFPLAY_H

#include "core/game.h"
#include "core/value.h"
#include "data/mpi_env.h"
#include "data/records.h"
#include "selfplay/driver.h"
#include "search/mcts.h"

#include <stdbool.h>
#include <stdint.h>

/* ---------------------------------------------------------------- settings */

typedef struct {
    long visits;            /* search visits per move (new visits; the kept subtree adds to them) */
    double c_puct;          /* PUCT exploration constant, with learned priors too: self-play
                             * explores, since the games of a search at play's sharper 1.0
                             * trained weaker weights (Crossings: +98 Elo against +158 at 1.5;
                             * docs/BENCHMARKS.md) */
    double temperature;     /* moves sampled with probability ~ visits^(1/T); 0 = most visited */
    int temperature_plies;  /* plies (from the start, random ones included) that sample */
    double noise;           /* fraction of Dirichlet noise in the root priors (0 = off) */
    double noise_alpha;     /* its Dirichlet alpha */
    int random_opening;     /* plies of uniformly random moves before any search */
    DrawPolicy draw;        /* ply limit and repetition, as selfplay/driver.c adjudicates them */
    uint64_t seed;          /* the run seed; game i uses selfplay_game_seed(seed, i) */
} SelfplayConfig;

/* The defaults for game g: 800 visits, the search's c_puct (1.5), temperature 1 for
 * selfplay_default_temperature_plies, noise 0.25 with alpha 0.3, no random opening, the driver's
 * draw policy, seed 1. */
void selfplay_default_config(const Game *g, SelfplayConfig *cfg);

/* The search every move of a self-play game makes, from the run's settings: the one place it is
 * made, for selfplay_game.c's searches and for the settings text that the records header holds.
 * One thread (a game must not depend on timing), cfg's c_puct for either kind of prior, root
 * noise, the node budget of search_node_budget (search/search_setup.h: it is a setting, since
 * a full tree changes play); the rest as mcts_default_config.  The seed is
 * each game's own. */
MctsConfig selfplay_search_config(const SelfplayConfig *cfg);

/* 20 plies on the 14x12 board, scaled by the board's area (8 on 8x8, 4 on 5x6): the opening
 * where sampling makes games differ is about as long, in proportion, on every board. */
int selfplay_default_temperature_plies(const Game *g);

/* The seed game `index` of a run is played from. */
uint64_t selfplay_game_seed(uint64_t run_seed, uint64_t index);

/* The settings text of a run: key=value lines holding every setting that decides the games
 * (variant, board, start, search, sampling, noise, draws, seed, weights identity, version) and
 * `command_line` (may be NULL) as a last `command=` line.  Nothing that may differ between runs
 * meant to give the same file (time, thread count, path).  malloc'd; NULL when memory runs out. */
char *selfplay_settings_text(const Game *g, const Position *start, const Weights *w, const SelfplayConfig *cfg,
                             const char *command_line);

/* The same for a run whose leaves an outside evaluator judges (SelfplayRun.evaluator): two more
 * lines, "evaluator=external NAME" (the caller's name for its evaluator, one line: a network's
 * file and generation, say, so that a resumed run cannot mix evaluators silently) and
 * "evaluator_in_flight=K" (selfplay_lockstep_in_flight: at 1 each game is a function of its seed
 * and the evaluator alone, beyond it depends on the games beside it). */
char *selfplay_settings_text_external(const Game *g, const Position *start, const Weights *w,
                                      const SelfplayConfig *cfg, const char *evaluator, int in_flight,
                                      const char *command_line);

/* Whether a file's settings and a run's describe the same games: every line equal except
 * `command=`, which records how the file was first made.  On a difference, *why names the first
 * differing setting ("visits: the file has 400, this run 800"). */
bool selfplay_settings_agree(const char *file_settings, const char *run_settings, char *why, size_t why_len);

/* ---------------------------------------------------------------- one game */

/* One thread's self-play player: its search tree, random generator and scratch memory. */
typedef struct SelfplayGame SelfplayGame;

/* NULL when memory runs out.  g, w and cfg must outlive it. */
SelfplayGame *selfplay_game_new(const Game *g, const Weights *w, const SelfplayConfig *cfg);
void selfplay_game_free(SelfplayGame *sg);

/* Plays one game from `start` with the given seed into *record (initialised; its old contents
 * are replaced), index and seed included.  False when memory runs out. */
bool selfplay_game_play(SelfplayGame *sg, const Position *start, uint64_t index, uint64_t seed, GameRecord *record);

/* The same game a move at a time, its searches made by the caller (selfplay_lockstep.c batches
 * many games' searches for an outside evaluator).  selfplay_game_play is exactly: start; while
 * advance says SEARCH, search selfplay_game_tree's tree for the config's visits and hand the
 * result to selfplay_game_searched; then finish. */
typedef enum { SELFPLAY_SEARCH, SELFPLAY_OVER, SELFPLAY_FAILED } SelfplayStep;

/* Begins game `index` from `start` with its seed into *record; false when memory runs out. */
bool selfplay_game_start(SelfplayGame *sg, const Position *start, uint64_t index, uint64_t seed, GameRecord *record);
/* Plays the moves that need no search (random opening plies) and stops at the end of the game
 * (OVER), where a move needs a search (SEARCH: selfplay_game_tree is set to the game so far), or
 * when memory runs out (FAILED; the game is then abandoned by the next start or the free). */
SelfplayStep selfplay_game_advance(SelfplayGame *sg);
Mcts *selfplay_game_tree(SelfplayGame *sg);
/* The search the next move is chosen by (copied). */
void selfplay_game_searched(SelfplayGame *sg, const MctsResult *r);
/* The result and end of a game that advance said is OVER into its record; false when memory ran
 * out during it. */
bool selfplay_game_finish(SelfplayGame *sg);

/* ---------------------------------------------------------------- the run */

typedef struct {
    uint64_t total;         /* games the file is to hold: indices 0 .. total-1 */
    uint64_t present;       /* of these, the games already in the file when the run began */
    uint64_t beyond;        /* games in the file with indices past total-1 (a larger earlier run) */
    uint64_t to_play;       /* the games this run plays */
    uint64_t played;        /* ... of which finished so far */
    uint64_t results[3];    /* of the games played: white wins, black wins, draws */
    uint64_t ends[RECORD_END_COUNT];
    uint64_t plies;         /* positions in the games played */
    double seconds;         /* since the first game began */
    uint64_t removed_bytes; /* resume removed this much of a partial last chunk (a killed write) */
    uint64_t removed_at;    /* ... from this offset */
    uint64_t stale_temps;   /* resume removed temporary files a killed rewrite left */
} SelfplayProgress;

/* Called after every finished game, from the thread that played it, one call at a time. */
typedef void (*SelfplayProgressFn)(const SelfplayProgress *progress, void *ctx);

/* The leaves of a run's searches judged outside the search (selfplay_lockstep.c): games played
 * in step, each move one batched search across them. */
typedef struct {
    MctsEvaluateFn evaluate;
    void *ctx;
    int batch;                  /* leaves per call of evaluate, at most */
    int games_at_once;          /* games played in step */
} SelfplayEvaluator;

typedef struct {
    const Game *game;
    const Position *start;
    const Weights *weights;
    const SelfplayConfig *config;
    const char *settings;       /* the header's settings text (selfplay_settings_text) */
    const char *path;
    uint64_t games;
    int threads;                /* games played at once */
    bool resume;                /* complete an existing file (a missing one is created) */
    SelfplayProgressFn progress;    /* may be NULL */
    void *progress_ctx;
    /* A share of the games, for one of several processes (selfplay_mpi.c): only the indices i
     * with i % stride == offset are this run's (stride 0 or 1: all of them); and games present
     * in another file (`elsewhere`, ascending, distinct) are not played again. */
    uint64_t stride, offset;
    const uint64_t *elsewhere;
    size_t num_elsewhere;
    /* NULL: the weights' own evaluation, a game per thread.  Else the games are played in step
     * on this thread (`threads` is not read), their leaves judged by the evaluator; the weights
     * then decide nothing but the settings text's weights line. */
    const SelfplayEvaluator *evaluator;
} SelfplayRun;

/* Plays the games of indices 0 .. games-1 that the file lacks, appending each as it finishes,
 * then rewrites the file in canonical form.  Without `resume` an existing file is refused
 * (RECORDS_ERR_IO, "already exists"); with it, a file of another board or other settings is
 * refused (RECORDS_ERR_MISMATCH), and so is damage that no killed run leaves.  *final gets the
 * counts (also on failure, for what was played).  False plus *err on any failure; every game
 * appended before it stays in the file, ready for a resume. */
bool selfplay_run(const SelfplayRun *run, SelfplayProgress *final, Error *err);

/* ---------------------------------------------------------------- games in step */

/* Called with each finished game, in the order they finish; false stops the run. */
typedef bool (*SelfplayGameDone)(void *ctx, const GameRecord *record);

typedef enum {
    SELFPLAY_LOCKSTEP_OK,
    SELFPLAY_LOCKSTEP_MEMORY,       /* memory ran out */
    SELFPLAY_LOCKSTEP_EVALUATOR,    /* the evaluator failed (its own error says why) */
    SELFPLAY_LOCKSTEP_STOPPED       /* `done` said stop */
} SelfplayLockstepStatus;

/* Plays games todo[0 .. count-1] of the run, run->evaluator->games_at_once at a time, handing
 * each to `done` as it finishes (selfplay_lockstep.c; selfplay_run calls it for a run with an
 * evaluator).  Game i is seeded as selfplay_run seeds it.  Each search has at most
 * selfplay_lockstep_in_flight visits in flight: where that is 1 (a batch no larger than the
 * games at once) a game's visits go one after another, and the game is the one selfplay_game_play
 * plays with an evaluator that answers as the weights' evaluation, whatever games are beside it. */
SelfplayLockstepStatus selfplay_lockstep(const SelfplayRun *run, const uint64_t *todo, uint64_t count,
                                         SelfplayGameDone done, void *ctx);
/* ceil(batch / games_at_once): the batch shared among the games at once. */
int selfplay_lockstep_in_flight(const SelfplayEvaluator *e);

/* ---------------------------------------------------------------- across processes (MPI) */

/* The shard that rank `rank` of `ranks` writes beside `out`: "OUT.rank0-of-2" ... */
void selfplay_shard_path(const char *out, int rank, int ranks, char *buf, size_t len);
/* False with *err (input) when shards of a run with another number of processes than `ranks`
 * lie beside `out` (a resume with this many would leave their games aside); matches share it. */
bool selfplay_no_foreign_shards(const char *out, int ranks, Error *err);

/* A run split over processes (data/mpi_env.h): with one rank, exactly selfplay_run.  With R
 * ranks, rank r plays the games i with i % R == r into its own crash-safe shard
 * (selfplay_shard_path), resumed like any file; rank 0 hands run->progress the counts of the
 * whole run (other ranks send theirs after every game when run->progress is set) and at the end
 * merges the shards (and run->path itself when resuming a finished file) into run->path, the
 * very file one process writes, then removes them.  *final gets the counts of all ranks on
 * rank 0, this rank's elsewhere.  Every rank returns; false plus *err on a rank that failed, and
 * *all_ok false on every rank when any failed (its shard stays, ready for --resume). */
bool selfplay_mpi_run(const MpiEnv *env, const SelfplayRun *run, SelfplayProgress *final, bool *all_ok,
                      Error *err);

#endif
