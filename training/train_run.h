/*
 * train_run.h - what the files of the training run share (train.h is its public face): the run
 * in progress, its folder, and the steps of a generation.
 *
 *   train_run.c       the run: its folder opened or checked, the openings, the state read back,
 *                     the generation loop and the budget
 *   train_settings.c  DIR/settings: the text a run writes, and a resumed run's file checked
 *                     against it; whether a folder may hold a new run
 *   train_folder.c    paths in DIR, the steps' marks, files written whole, the log, the lock, the
 *                     time taken, the run's command line
 *   train_steps.c     one generation's steps: self-play of the best weights, the fit of the whole
 *                     model on a window of recent games, then the gate
 *   train_gate.c      the gate against the best, its verdict; the run's matches
 *   train_ladder.c    every promoted generation against fixed anchors (gen0 and the shipped
 *                     weights), the ratings with their intervals, the ladder table and the charts
 *
 * Every step returns false with an Error at the first failure, on the process where it failed;
 * the others wait in the next collective, as they did when a failure ended the process.
 */
#ifndef LEUCTRA_TRAIN_RUN_H
#define LEUCTRA_TRAIN_RUN_H

#include "train.h"

#include "search/search_setup.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A run in progress: its options, game and where things are. */
typedef struct {
    const TrainOptions *o;
    const MpiEnv *env;
    const TrainOutput *out;
    const Game *game;
    Position start;
    char settings_path[TRAIN_PATH], openings_path[TRAIN_PATH];
    bool has_shipped;           /* shipped weights exist for this board: a ladder anchor */
    double started;             /* clock_seconds() when this process began the run */
    double elapsed_before;      /* seconds earlier runs of the folder took */
    int best;                   /* the best generation so far */
    int done;                   /* generations finished (a verdict each) */
    int lock_fd;                /* DIR/lock, held by process 0 while the run goes on; -1: none */
} TrainRun;

/* --- train_settings.c ------------------------------------------------------------------------ */

/* The settings that decide what the run makes, one key=value a line in a fixed order; start_id:
 * the start weights' id. */
void training_settings_text(const TrainRun *run, const char *start_id, char *buf, size_t len);
/* A resumed run's settings file against the text it would write: false with *err naming the
 * line that is not a run's, or the setting that differs with both values. */
bool training_check_settings(const TrainRun *run, const char *expected, Error *err);
/* Whether DIR holds a run (its settings, with resume) into *started, or is new or empty (a new
 * run begins there); false with *err for anything else. */
bool training_folder_started(const TrainRun *run, bool *started, Error *err);

/* --- train_folder.c -------------------------------------------------------------------------- */

/* The options that make the run's results, as one `leuctra train DIR ...` command line. */
void training_command_text(const TrainRun *run, char *buf, size_t len);
/* Appends the fit's options that take a number and are set (--l2-tables, --lambda where not 1,
 * --priors-generations) to buf: as the settings' words with dashes "", as options with "--". */
void training_fit_numbers(const TrainOptions *o, const char *dashes, char *buf, size_t len);

/* The network's fit (TrainOptions.net) in words: the settings' ("net hidden 16", dashes "") or
 * as options ("--model net --hidden 16", dashes "--"), into buf. */
void training_net_words(const TrainOptions *o, const char *dashes, char *buf, size_t len);
/* DIR/rel into buf (TRAIN_PATH bytes).  It always fits: DIR is at most TRAIN_PATH - 64 bytes
 * (training_check_options) and every rel the run names is shorter than 63. */
void training_path(const TrainRun *run, char *buf, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether DIR/rel exists (a step's mark), the same answer on every rank. */
bool training_exists(const TrainRun *run, const char *rel);
/* Writes DIR/rel whole with `text` (rank 0; the others wait). */
bool training_write_text(const TrainRun *run, const char *rel, const char *text, Error *err);
/* One line to DIR/train.log and to the output's print, rank 0 only. */
bool training_log(const TrainRun *run, Error *err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The weights file of generation k, relative to DIR ("genK/weights.lwt" or ".txt"). */
void training_weights_of(const TrainRun *run, int k, char *rel, size_t len);
/* Seconds the run has taken, this process's part included; saved to DIR/elapsed after every step,
 * so that the hours budget counts the time of runs that were killed. */
double training_elapsed(const TrainRun *run);
bool training_save_elapsed(const TrainRun *run, Error *err);
/* One run a folder: a lock on DIR/lock, held until training_unlock; a second run is refused. */
bool training_lock(TrainRun *run, Error *err);
void training_unlock(TrainRun *run);
/* Removes the temporary files ("NAME.tmp.XXXXXX") that a run killed while writing a file whole left
 * in the folder (under the lock, no other writer owns them); returns how many. */
int training_remove_stale_temps(const TrainRun *run);
/* "+W =D -L  Elo [lower, upper]" of a score at 95%, never an infinite Elo: a perfect score says
 * "won every game", a score whose interval reaches 0 or 1 gives its one finite bound. */
void training_score_text(const Trinomial *c, char *buf, size_t len);

/* --- train_steps.c --------------------------------------------------------------------------- */

/* Generation k's steps that are not done yet, in order; its verdict at the end.  False with *err
 * (the folder keeps what was finished). */
bool training_generation(TrainRun *run, int k, Error *err);

/* --- train_gate.c ---------------------------------------------------------------------------- */

/* Generation k's gate, unless its verdict is there: the candidate against the best, the
 * verdict, DIR/genK/match.json and the log's line. */
bool training_gate(TrainRun *run, int k, Error *err);
/* The verdict of a finished generation into *verdict: "promoted", "rejected" or "undecided";
 * NULL when the generation is not finished.  False with *err for a verdict file that holds
 * none. */
bool training_verdict(const TrainRun *run, int k, const char **verdict, Error *err);

/* What a match of the run came to. */
typedef struct {
    MatchTotals totals;         /* the first player's */
    SprtDecision decision;      /* SPRT_CONTINUE without a test */
    double llr;
    bool reported;
} TrainMatchResult;

/* A player of the run's matches: a search of `visits` visits a move with the weights file at
 * `weights` (NULL: the shipped weights), the rest as players' defaults. */
void training_player(long visits, const char *weights, SearchSetup *setup);
/* A match of two players of the run (rank 0): the folder's suite, the run's threads, crash-safe
 * records (resumed where a killed run left them) and a results file for the ratings; sprt may
 * be NULL. */
bool training_match(const TrainRun *run, const SearchSetup *const setup[2], const char *const name[2], long games,
                    uint64_t seed, const SprtTest *sprt, const char *records, const char *results,
                    TrainMatchResult *out, Error *err);

/* --- train_ladder.c -------------------------------------------------------------------------- */

/* The ladder games of every promoted generation that lacks them, then the ladder table, the
 * ratings and the charts, from every result so far. */
bool training_ladder(TrainRun *run, Error *err);
/* The ladder step of the last finished generation (run->done): training_ladder, then its mark
 * DIR/genK/ladder.done; nothing where the mark is there. */
bool training_ladder_step(TrainRun *run, Error *err);

#endif
