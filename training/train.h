/*
 * train.h - the training loop as one job in one folder, as the library runs it (`leuctra train`
 * reads its options and prints what it says; a Python or MPI driver can run it alike).
 * Generations until a budget: self-play of the best weights so far, a fit of the whole model on
 * a window of recent games, an SPRT gate against the best, promotion, and a ladder of the
 * promoted generations against fixed anchors.
 *
 * The folder is the state.  Every step ends by writing its own file whole (a temporary file
 * renamed into place), and a step whose file exists is done (so a new run begins only in a new
 * or empty folder, never among files it did not write): a run killed at any moment and
 * resumed (TrainOptions.resume) redoes only the step that was in progress, and since every step
 * is deterministic (seeded self-play, a fit that is the same bits for any thread count, matches
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
 *   DIR/lock                   held while a run is in the folder
 *
 * Under mpirun every step spreads over the processes (data/mpi_env.h): the openings' candidates,
 * the self-play, the fit (tables and priors) and the gate's and ladder's game pairs; process 0
 * merges the shards and writes the files, and every process runs training_run alike.  The folder
 * is the one-process folder byte for byte, timings aside.
 */
#ifndef LEUCTRA_TRAIN_H
#define LEUCTRA_TRAIN_H

#include "core/game.h"
#include "data/mpi_env.h"
#include "eval/match.h"
#include "eval/sprt.h"
#include "selfplay/selfplay.h"
#include "tuner/tune_network.h"

#include <stdbool.h>
#include <stdint.h>

/* TRAIN_WINDOW_MAX: window_max's default.  A fit holds ~1 KB a position besides its priors'
 * (a million at most): 18 generations of 5,000 Crossings games, 2.1 M positions, took 7.5 GB.
 * A folder's name is at most TRAIN_PATH - 64 bytes, so that every path in it fits. */
enum { TRAIN_PATH = 4096, TRAIN_MAX_GENERATIONS = 1000, TRAIN_WINDOW_MAX = 20 };

typedef struct {
    const char *dir;
    /* The budget: no generation starts once either is spent (0: none).  Not settings: a resumed
     * run may raise them. */
    int generations;
    double hours;
    bool resume;                /* continue DIR's run (in a new or empty DIR: begin it) */
    int threads;                /* games or positions at once (default: every core) */
    /* The settings (DIR/settings), which a resumed run must repeat. */
    const char *start;          /* "zero", "shipped" or a weights file */
    long games, visits;         /* self-play per generation */
    int window;                 /* generations of self-play the fit reads */
    int window_max;             /* ... widened back over the best's own games up to this many
                                 * (0: TRAIN_WINDOW_MAX, or window where that is more) */
    long gate_games, gate_visits;
    SprtTest sprt;
    long ladder_games, ladder_visits;   /* ladder_games 0: no ladder */
    const char *openings;       /* a suite file; NULL: made for the run */
    int make_openings;          /* ... with this many openings */
    uint64_t seed;
    bool linear_only;           /* fit the linear weights alone (else tables and priors too) */
    unsigned shapes;            /* the tables' families (core/pattern.h; 0: the start's) */
    double l2_tables;           /* the fit's penalty on each table entry (0: tune's) */
    double lambda;              /* the game result's share of the fit's targets (the settings
                                 * name it where it is not 1, as before it was an option) */
    int priors_generations;     /* the fits that refit the learned priors, gens 1..N; later
                                 * ones keep the best's (0: every fit) */
    bool net;                   /* fit a network on top of the start weights (tune --model net),
                                 * each fit going on from the best's network */
    int hidden;                 /* its width (0: tune's default) */
    unsigned inputs;            /* its input set (core/network.h; 0: measured by the first fit) */
    TuneValueHead value_head;   /* whether its fits keep a value head (tuner/tune_network.h) */
} TrainOptions;

/* What the run has to say besides its files, for the caller to show (the library prints
 * nothing).  Each is called on process 0 only; any may be NULL (not shown); ctx is handed to
 * each. */
typedef struct {
    /* A line of the log (DIR/train.log has them all) or the ladder's table, with its newline. */
    void (*print)(const char *text, void *ctx);
    /* Live progress: generation k's self-play, a match's games; then the end of either. */
    void (*selfplay_progress)(int generation, const SelfplayProgress *progress, void *ctx);
    void (*match_progress)(const MatchProgress *progress, void *ctx);
    void (*progress_end)(void *ctx);
    /* An external engine's one-line note (MatchOptions.player_output). */
    void (*note)(const char *line, void *ctx);
    void *ctx;
} TrainOutput;

/* "1m05s", "2h03m": a step's time as the log gives it. */
void training_duration_text(double seconds, char *buf, size_t len);

/* train's defaults: the shipped start, 2000 games at 400 visits, a window of 3, a gate of 400
 * games at 400 visits (SPRT elo0 0, elo1 10), a ladder of 100 games at 400 visits, 1000 made
 * openings, seed 1, lambda 0.5, every core. */
void training_defaults(TrainOptions *o);

/* The options checked together (a budget, a folder, a window_max not below window, a fit that
 * takes what it is given, the SPRT), window_max's default filled in; false with *err (input). */
bool training_check_options(TrainOptions *o, Error *err);

/* The run: the folder made or checked (a resumed run must have the settings it began with),
 * then generations until the budget, each one's steps that are not done yet, and the ladder.
 * g and start: the game and position of the run.  False with *err at the first step that fails
 * (the folder keeps what was finished: resume it); under mpirun a fit's error is said by the
 * process whose error it is, err->elsewhere on the others. */
bool training_run(const TrainOptions *o, const Game *g, const Position *start, const MpiEnv *env,
                  const TrainOutput *out, Error *err);

#endif
