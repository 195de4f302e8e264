/*
 * tune_network_data.h - what a fit of the network (docs/NETWORK.md) learns from: the positions of
 * self-play records, each with the network's inputs and everything the float model adds them to,
 * in plain arrays, the same for every fit that reads them (tuner/tune_network.c's in C, and one
 * in another language through the library's API).
 *
 * Positions are the tuner's (tune.h: tune_plan): every ply past the opening, repeats kept where
 * they first appear, whole games held out for validation by the same hash as every other fit.
 * For each position:
 *
 *   - its active inputs under the network's input set (network_active_inputs: ascending, an
 *     input that two pattern instances read listed twice) and its value bucket;
 *   - the skip path: the base weights' own value logit (linear weights + tables) and, per legal
 *     move, the log of the base weights' own prior (learned or heuristic), the logits the
 *     network adds to; the base weights' network, if they have one, takes no part;
 *   - the value target: lambda x the game's result for the side to move + (1 - lambda) x the
 *     search's root value, as the tuner's (tune_plan_target);
 *   - where the ply has a visit list summing to at least min_visits and the position two legal
 *     moves or more: each legal move's action (game_action_of) and its share of the visits (the
 *     policy target), in the order game_gen_moves gives the moves.
 *
 * Variable-length parts are compressed rows (CSR): position i's inputs are
 * input[input_start[i] .. input_start[i + 1]), its moves action/skip_prior/share[move_start[i] ..
 * move_start[i + 1]) (none without a policy target).  A few positions are also kept whole (the
 * sample), for what needs the positions themselves: the quantization's range and the integer
 * network's losses.
 *
 * Deterministic: the arrays depend only on the games, the weights and the options, never on the
 * thread count (rows are planned before any is filled; each game is filled by one thread), nor
 * on the process count: over several processes (opts->mpi) each reads its own share of the games
 * (tune_read_share) and the sets are then gathered, so that every process holds the whole sets,
 * row for row the one-process ones (tune_network_mpi.c).  No printing, no exits: errors come back
 * in an Error.
 */
#ifndef LEUCTRA_TUNE_NETWORK_DATA_H
#define LEUCTRA_TUNE_NETWORK_DATA_H

#include "core/network.h"
#include "tune.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int skip_opening;           /* the first plies of every game left out */
    double validation;          /* the fraction of games held out, in [0, 1) */
    double lambda;              /* the result's share of the value target, in [0, 1] */
    int min_visits;             /* a ply's visits must sum to this for a policy target (>= 1) */
    size_t max_sample;          /* positions of each set kept whole, at most */
    int threads;                /* 0: OpenMP's default */
    /* Several processes, each with its share of the games (tune_read_share, in rank order): the
     * repeats are found across all of them and every process gets the whole sets.  NULL or one
     * rank: this process only. */
    const MpiEnv *mpi;
} TuneNetworkDataOptions;

/* Defaults: skip 0, validation 0.1, lambda 0.5 (tune_data_defaults'), min_visits 50
 * (tune_policy_defaults'), a sample of 20,000, threads 0, one process. */
TuneNetworkDataOptions tune_network_data_defaults(void);

/* The log prior of a move the base weights give no chance: e^-69 is 1e-30, nothing next to any
 * other move, yet finite (a move the search then visited costs a finite loss). */
#define TUNE_NETWORK_LOG_PRIOR_FLOOR (-69.0f)

typedef struct {
    size_t count;               /* positions */
    int num_inputs;             /* every input is below it */
    uint64_t *input_start;      /* count + 1 */
    uint32_t *input;            /* input_start[count] */
    uint8_t *bucket;            /* count */
    double *skip_value;         /* count: the base weights' value logit */
    double *target;             /* count: the blended value target, in [0, 1] */
    float *result;              /* count: the game's result for the side to move, 1, 0.5 or 0 */
    uint64_t *move_start;       /* count + 1 */
    uint32_t *action;           /* move_start[count] */
    float *skip_prior;          /* ... the log of the base weights' prior, at least the floor */
    float *share;               /* ... the move's share of the visits (summing to 1 by position) */
    size_t with_policy;         /* positions that have moves */
    size_t num_sample;          /* positions kept whole: */
    uint64_t *sample_row;       /* their rows, ascending */
    Position *sample;           /* and the positions */
    bool borrowed;              /* all but input_start and input belong to another set */
} TuneNetworkSet;

/* Reads the games' positions for a network of the architecture of `arch` (its input set, pattern
 * set and buckets; its weights are not used) on top of `base` (the skip path: its linear
 * weights, tables and priors).  The games must be of game g; with games->keep_visits false there
 * are no policy targets.  Both sets are allocated here (free them with tune_network_set_free, also
 * after a failure); stats gets the counts of tune_extract's.  Fails on a move that is not legal
 * where it was played (the file, game and ply), a visit list naming an illegal move, a network
 * that does not fit g, or no memory.  Over several processes collective: every process returns
 * the same answer; on failure a process whose own games failed keeps its error, the others get
 * "stopped: another process failed" (err->elsewhere). */
bool tune_network_data(const Game *g, const TuneGames *games, const Weights *base, const Network *arch,
                       const TuneNetworkDataOptions *opts, TuneNetworkSet *train, TuneNetworkSet *validation,
                       TuneDataStats *stats, Error *err);

void tune_network_set_free(TuneNetworkSet *set);

/* The same positions with only the inputs in [first, end), renumbered from 0: the pattern part
 * [0, P) or the square part [P, P + S) of a set read for both (network.h: pattern inputs come
 * first), so one reading serves every input set.  dst borrows src's other arrays (src must
 * outlive it).  False when memory runs out. */
bool tune_network_set_select(const TuneNetworkSet *src, uint32_t first, uint32_t end, TuneNetworkSet *dst);

#endif
