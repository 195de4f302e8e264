/*
 * tune.h - the tuner: fits a game's evaluation weights (core/value.h) to self-play records.
 *
 * The model is exactly the engine's evaluation: P(side to move wins) = sigmoid(w . f), where f is
 * the game's feature vector of the position.  The steps, one file each:
 *
 *   tune_games.c    records -> a compact list of games (start, moves, values, result)
 *   tune_read.c     records files -> games, checking that all are of one game and board
 *   tune_plan.c     games -> which positions: replay with the rules engine (moves through the
 *                   notation, tune_notation.c), skip the opening, drop repeated positions
 *                   (tune_dedup.c), split train/validation by game, a row for each position
 *   tune_extract.c  the planned positions' features and targets
 *   tune_sums.c     loss, gradient and Hessian over a set, summed deterministically
 *   tune_fit.c      maximum likelihood with an L2 penalty by Newton's method (GSL Cholesky)
 *   tune_stats.c    log-losses, the baseline, standard errors and identifiability
 *
 * Determinism: every result (which positions, their order, the weights bit for bit) depends only
 * on the inputs and options, never on the thread count.  Work is cut into pieces whose bounds do
 * not depend on the threads (games; fixed blocks of positions), each piece is done sequentially,
 * and the pieces' results are combined in a fixed order.
 *
 * Thread-safe: no global state.  `threads` arguments are OpenMP team sizes; 0 means OpenMP's
 * default.  docs/TUNING.md describes the model, the options and the report for users.
 */
#ifndef LEUCTRA_TUNE_H
#define LEUCTRA_TUNE_H

#include "core/value.h"
#include "data/mpi_env.h"
#include "data/records.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- games (tune_games.c) */

/* One recorded game, compacted: what replaying it needs and nothing else. */
typedef struct {
    uint64_t index, seed;   /* from the record; the train/validation split hashes them */
    size_t first_ply;       /* its moves are TuneGames.move[first_ply .. + plies) */
    int plies;
    uint32_t start;         /* its start position is TuneGames.start[start] */
    int source;             /* the file it came from: TuneGames.source[source] */
    GameStatus result;      /* STATUS_WHITE_WINS, STATUS_BLACK_WINS or STATUS_DRAW */
} TuneGame;

typedef struct {
    char *name;             /* a path, or a name for games made in memory */
    uint64_t games;
} TuneSource;

/* Games in the order they were added (file order, then record order): that order decides which
 * copy of a repeated position is kept.  Read-only outside tuner/. */
typedef struct {
    TuneGame *game;
    size_t count, game_capacity;
    RecordMove *move;       /* every game's moves, one game after the other */
    int32_t *value;         /* the root value of each ply (RecordPly.value) */
    size_t plies, move_capacity, value_capacity;
    /* Visit lists, kept only when keep_visits is set (after tune_games_init, before reading):
     * ply i's is visit[visit_at[i] .. + visit_count[i]). */
    bool keep_visits;
    RecordVisit *visit;
    size_t num_visits, visit_capacity;
    uint64_t *visit_at;
    uint16_t *visit_count;
    size_t visit_at_capacity, visit_count_capacity;
    Position *start;        /* distinct start positions (consecutive games share one) */
    size_t num_starts, start_capacity;
    char last_start[RECORD_MAX_POSITION];   /* the text of start[num_starts - 1] */
    TuneSource *source;
    int num_sources;
    size_t source_capacity;
} TuneGames;

void tune_games_init(TuneGames *games);
void tune_games_free(TuneGames *games);
/* Registers a file (or an in-memory source) by name; its index, or -1 when memory runs out. */
int tune_games_add_source(TuneGames *games, const char *name, Error *err);
/* Appends one record of game g from source `source`.  Refuses a start position that g cannot
 * parse and a result that is not a finished game's. */
bool tune_games_add(TuneGames *games, const Game *g, const GameRecord *record, int source, Error *err);
/* Appends every game and source of src (games of the same Game) to dst, in their order.  With
 * continues_last, src's first source is dst's last one (another piece of the same file). */
bool tune_games_append(TuneGames *dst, const TuneGames *src, bool continues_last, Error *err);

/* ---------------------------------------------------------------- reading files (tune_read.c) */

/* Reads every game of the records files into `games` (initialised by the caller), in file order;
 * each file is read in parallel, in one piece per thread cut at chunk boundaries.  *game receives a new Game (free with
 * game_free) for the first file's variant and board; every other file must have the same.
 * Fails on no files, a file that is not a readable records file, a damaged chunk (the reader's
 * message names the file and offset) and a file with no games; the first failing file in the
 * order given is the one reported. */
bool tune_read_records(const char *const *paths, int num_paths, int threads, TuneGames *games, Game **game,
                       Error *err);
/* The files' headers alone, as tune_read_records checks them: *game for the first file's variant
 * and board (free with game_free), every other file of the same. */
bool tune_check_headers(const char *const *paths, int num_paths, Game **game, Error *err);
/* Share `rank` of `ranks` of the same games: the numbered games (all files, in order) cut into
 * `ranks` contiguous ranges at chunk boundaries; share r holds the chunks whose first game is in
 * range r, in order, so the shares joined in rank order are what tune_read_records reads.  Each
 * source's game count is the whole file's.  One share of one is tune_read_records. */
bool tune_read_share(const char *const *paths, int num_paths, int threads, int rank, int ranks, TuneGames *games,
                     Game **game, Error *err);

/* ---------------------------------------------------------------- positions (tune_extract.c) */

/* Positions with their features (as the engine computes them, float) and targets (double). */
typedef struct {
    int num_features;
    size_t count;
    float *features;        /* count rows of num_features */
    /* With pattern tables (TuneDataOptions.tables): each row's canonical table entries
     * (pattern_canonical_entries: num_entries per row); 0 and NULL without. */
    int num_entries;
    uint32_t *entries;
    unsigned families;      /* the pattern set the entries are of (core/pattern.h) */
    /* A fixed part of each row's log-odds (the tables' sum under some weights, tune_set_offsets)
     * that every sum adds to w . f; NULL: none. */
    double *offset;
    double *target;         /* what the fit predicts: lambda x result + (1 - lambda) x value */
    double *result;         /* the game's result alone, for the side to move: 1, 0.5 or 0 */
    /* A set spread over processes (tune_mpi.c) holds rows first_row .. first_row + count - 1 of
     * `total` here, whole blocks of positions, and every sum over it covers all `total` rows.
     * mpi NULL: the whole set is here (total and first_row unused). */
    const MpiEnv *mpi;
    uint64_t total;
    size_t first_row;
} TuneSet;

/* Room for `count` positions (contents undefined), all of them here; false when memory runs out
 * (tune_set.c). */
bool tune_set_alloc(TuneSet *set, int num_features, int num_entries, size_t count);
void tune_set_free(TuneSet *set);
/* The positions of the whole set, over every process that holds a part. */
static inline uint64_t tune_set_total(const TuneSet *set) { return set->mpi ? set->total : set->count; }

typedef struct {
    int skip_opening;       /* the first plies of every game left out */
    double validation;      /* the fraction of games held out for validation, in [0, 1) */
    double lambda;          /* the result's share of the target, in [0, 1] */
    int threads;
    /* Several processes, each with its share of the games (tune_read_share, in rank order):
     * repeats are found across all of them and the sets spread over them (tune_mpi.c), so that
     * every sum equals the one-process sum bit for bit.  NULL or one rank: this process only. */
    const MpiEnv *mpi;
    bool tables;            /* also each position's pattern table entries (the game has tables) */
    unsigned families;      /* of the set of those tables (core/pattern.h; 0: the base set) */
} TuneDataOptions;

/* Defaults: skip 0, validation 0.1, lambda 0.5 (half the search's root value: measured
 * stronger than the result alone, docs/TUNING.md), no tables, threads 0, one process. */
TuneDataOptions tune_data_defaults(void);

typedef struct {
    uint64_t games, games_train, games_validation;
    uint64_t positions_read;        /* one before every recorded move */
    uint64_t positions_opening;     /* left out by skip_opening */
    uint64_t positions_duplicate;   /* left out as repeats of an earlier position (same hash) */
    uint64_t positions_train, positions_validation;
    uint64_t positions_valued;      /* used positions whose ply has a search value */
    double seconds;                 /* wall time of the extraction, all passes */
    double seconds_replay;          /* of which checking and converting the moves */
    double seconds_features;        /* of which computing the features and targets */
    double seconds_exchange;        /* of which exchanging hashes and rows between processes */
} TuneDataStats;

/* True when the game with this index and seed belongs to the validation set: a hash of both,
 * so a game lands on the same side whatever else is in the data. */
bool tune_in_validation(uint64_t index, uint64_t seed, double fraction);

/* Which positions of the games a fit uses and where each goes (tune_plan.c, the first passes of
 * every fit that reads positions from games): the moves converted by the rules, repeats marked,
 * the games split between training and validation, every kept position given its row in its
 * set.  Read-only outside tune_plan.c. */
typedef struct {
    const Game *g;
    const TuneGames *games;
    TuneDataOptions opts;       /* threads and skip_opening as given: 0 threads is OpenMP's default */
    size_t *first_candidate;    /* per game, and one past the last: positions past the opening */
    uint64_t *hash;             /* per candidate */
    Move *moves;                /* per ply: the core moves */
    uint8_t *failed;            /* per game: a move did not convert */
    uint8_t *keep;              /* per candidate: the first occurrence of its position */
    uint8_t *validation;        /* per game: 1 held out */
    size_t *first_row;          /* per game: the row of its first kept position in its set */
} TunePlan;

/* The plan of the games (stats gets the counts of what went where, seconds_replay and
 * seconds_exchange); free with tune_plan_free, also after a failure.  A move that is illegal
 * where it was played fails with the file, game and ply.  Over several processes (opts->mpi)
 * collective, and a failure fails on every process. */
bool tune_plan(const Game *g, const TuneGames *games, const TuneDataOptions *opts, TunePlan *plan,
               TuneDataStats *stats, Error *err);
void tune_plan_free(TunePlan *plan);

/* Called for each kept position of a game, in order: the position, its game, the index of its
 * ply among all plies (TuneGames.value[ply]), its set (1: validation) and its row there. */
typedef void (*TunePlanVisit)(void *ctx, const Position *pos, size_t game, size_t ply, int validation, size_t row);
/* Replays game i with the converted moves, calling visit for each kept position. */
void tune_plan_game(const TunePlan *plan, size_t i, TunePlanVisit visit, void *ctx);

/* A kept position's value target: lambda x the game's result for the side to move (*result: 1,
 * 0.5 or 0) + (1 - lambda) x the search's root value at that ply (the result alone without). */
double tune_plan_target(const TunePlan *plan, size_t game, size_t ply, const Position *pos, double *result);

/* Replays every game with the rules engine and builds the training and validation sets (both
 * allocated here; free with tune_set_free).  A move that is illegal where it was played fails
 * the whole extraction with the file, game and ply. */
bool tune_extract(const Game *g, const TuneGames *games, const TuneDataOptions *opts, TuneSet *train,
                  TuneSet *validation, TuneDataStats *stats, Error *err);

/* The notation of a stored move, as record_move_format writes it but several times faster
 * (tune_notation.c); false for a code that names no move. */
bool tune_move_notation(RecordMove m, char out[RECORD_MOVE_TEXT]);

/* keep[i] = 1 for the first occurrence of each value in hash[0 .. n), 0 for every later one
 * (tune_dedup.c).  False when memory runs out. */
bool tune_dedup(const uint64_t *hash, size_t n, uint8_t *keep, int threads);

/* ---------------------------------------------------------------- several processes (tune_mpi.c) */

/* Whether `ok` holds on every rank (collective).  A rank where it holds but not everywhere gets
 * *err saying that another process failed (err->elsewhere). */
bool tune_agree(const MpiEnv *env, bool ok, Error *err);
/* Like tune_agree, but every rank gets the error of the first rank (in rank order) where `ok`
 * is false, as one process reading all the data would have met it first: an error every rank
 * then handles alike (env NULL or one rank: ok as it is).  Collective. */
bool tune_agree_first(const MpiEnv *env, bool ok, Error *err);

/* The counts of every process's share added up, so that the statistics describe all the data
 * (the seconds stay this process's own).  Collective. */
void tune_sum_stats(const MpiEnv *env, TuneDataStats *stats);

/* tune_dedup over the hashes of all ranks, taken in rank order: keep[i] is 1 when this rank's
 * hash[i] occurs on no lower rank and not earlier here.  Collective: every rank calls it.  False
 * (on every rank) when memory runs out or a count is too large for MPI. */
bool tune_dedup_ranks(const MpiEnv *env, const uint64_t *hash, size_t n, uint8_t *keep, int threads);

/* Moves the rows of a set whose parts lie on the ranks in rank order so that each rank holds
 * whole blocks of the sums (tune_sums.h), rank r an equal share in block order, and marks the
 * set as spread (set->mpi).  Collective.  False (on every rank) when memory runs out. */
bool tune_spread(const MpiEnv *env, TuneSet *set);

/* ---------------------------------------------------------------- fitting (tune_fit.c) */

typedef struct {
    double l2;              /* the penalty: objective = sum of log-losses + l2/2 x sum of w^2 */
    int max_iterations;     /* Newton steps at most */
    double tolerance;       /* stop when the Newton decrement g.H^-1.g falls below it */
    int threads;
    /* The tables' fit (tune_fit_tables): the penalty on each table entry, Adam's starting step,
     * positions a mini-batch, epochs at most, and step halvings without a better validation loss
     * before it stops (tuner/tune_sparse.h). */
    double l2_tables;
    double learning_rate;
    size_t batch;
    int max_epochs, patience;
} TuneFitOptions;

/* Defaults: l2 1, 50 iterations, tolerance 1e-8, threads 0; tables: l2 100, rate 0.01, batch
 * 8192, 30 epochs, patience 3. */
TuneFitOptions tune_fit_defaults(void);

/* One epoch of a tables fit, for the report. */
typedef struct {
    int epoch;
    double train_loss, validation_loss, learning_rate, seconds;
    bool best;
} TuneEpoch;

enum { TUNE_MAX_EPOCHS = 1000 };

typedef struct {
    Weights weights;        /* with tables after tune_fit_tables: release with weights_dispose */
    int iterations;
    bool converged;         /* the decrement fell below the tolerance */
    double decrement;       /* the last Newton decrement: squared distance to the optimum in SEs */
    double objective;       /* the penalised objective at the end, per position */
    double seconds;
    /* Tables fits: the epochs run (epoch 0 is the start) and the one whose weights were kept. */
    bool tables;
    int num_epochs, best_epoch;
    TuneEpoch epoch[TUNE_MAX_EPOCHS + 1];
} TuneFit;

/* Fits the weights to `train`, starting at `init` (which also names the game and its features).
 * Fails on an empty set, features that do not match, or a loss that is not finite. */
bool tune_fit(const TuneSet *train, const Weights *init, const TuneFitOptions *opts, TuneFit *out, Error *err);

/* Fits the linear weights and the pattern tables together (tune_tables.c) by Adam on
 * mini-batches, keeping the weights with the best loss on `validation` (sets with entries).
 * Starts from init's weights and its tables where it has some for g's pattern set, else from
 * zero tables.  The same bits whatever the threads and processes.  out->weights owns its tables. */
bool tune_fit_tables(const Game *g, const TuneSet *train, const TuneSet *validation, const Weights *init,
                     const TuneFitOptions *opts, TuneFit *out, Error *err);

/* Sets set->offset to each row's table sum under w's tables (canonical, through the entries),
 * on `threads` threads; frees it (NULL) when w has none.  Fails (err) when the set has no entries
 * for w's tables, or memory runs out. */
bool tune_set_offsets(TuneSet *set, const Game *g, const Weights *w, int threads, Error *err);

/* ---------------------------------------------------------------- move priors (tune_policy.c) */

typedef struct {
    int skip_opening;       /* as the data options' */
    double validation;      /* as the data options': the same games are held out */
    int min_visits;         /* positions whose visit list sums to fewer are left out */
    size_t max_positions;   /* at most about this many positions (a fixed hash picks them) */
    double prune;           /* moves with fewer than this share of the top move's visits are left out of the target */
    double l2, learning_rate;
    size_t batch;           /* positions a mini-batch */
    int max_epochs, patience;
    int threads;
    /* Several processes, each with its share of the games (tune_read_share, in rank order): the
     * positions of all of them are fitted and scored, the same bits as one process reading all
     * the games.  NULL or one rank: this process only. */
    const MpiEnv *mpi;
} TunePolicyOptions;

/* Defaults: skip 0, validation 0 (set both from the data options), 50 visits, 1,000,000
 * positions, l2 10, rate 0.02, batch 1024, 20 epochs, patience 2, threads 0. */
TunePolicyOptions tune_policy_defaults(void);

typedef struct {
    double loss;            /* mean cross-entropy against the visit distribution (nats) */
    double top1;            /* share of positions whose highest prior is the most visited move */
    double evidence;        /* mean log-probability of the most visited move */
} TunePolicyScore;

typedef struct {
    float *weights;         /* size entries (malloc'd; the caller frees) */
    uint32_t size;
    uint64_t id;            /* the game's PolicySet id */
    uint64_t positions_train, positions_validation;
    TunePolicyScore train_before, train_after, valid_before, valid_after;
    int num_epochs, best_epoch;
    TuneEpoch epoch[TUNE_MAX_EPOCHS + 1];
    double seconds;
} TunePolicyFit;

/* Fits the game's learned priors to the visit lists of `games` (read with keep_visits), from
 * init's priors where it has some, else from zero (uniform).  Under MPI (opts->mpi) collective:
 * every rank returns the same answer, and on failure the same error (the first rank's in rank
 * order, as one process would meet it). */
bool tune_fit_policy(const Game *g, const TuneGames *games, const Weights *init, const TunePolicyOptions *opts,
                     TunePolicyFit *out, Error *err);

/* ---------------------------------------------------------------- statistics (tune_stats.c) */

typedef struct {
    double target;          /* mean cross-entropy (nats) against the soft target */
    double result;          /* mean cross-entropy against the game result alone */
} TuneLoss;

/* The mean log-loss of `w` on the set; NAN for an empty set. */
TuneLoss tune_loss(const TuneSet *set, const Weights *w, int threads);
/* The log-loss on `set` of always predicting the mean target of `train` (the baseline any model
 * must beat); NAN for an empty set. */
TuneLoss tune_baseline_loss(const TuneSet *train, const TuneSet *set);

typedef enum {
    TUNE_IDENTIFIED,
    TUNE_ALWAYS_ZERO,       /* the feature is 0 in every position: the data say nothing */
    TUNE_CONSTANT,          /* one value everywhere: it acts only as a bias */
    TUNE_COLLINEAR,         /* a near-null direction of the Fisher information (another feature,
                               or a combination of them, carries the same information) */
} TuneIdentify;

const char *tune_identify_text(TuneIdentify id);     /* "", "always 0", "constant", "collinear" */

typedef struct {
    double mean, sd;        /* of the feature over the training positions */
    double std_error;       /* NAN where not identifiable */
    TuneIdentify identify;
    double null_share;      /* the share of its direction lying in near-null directions, 0..1 */
} TuneWeightStat;

/* Per weight: the standard error (the square root of the diagonal of the inverse Fisher
 * information, the Hessian of the unpenalised log-likelihood at `w`) and whether the data
 * identify it.  out has w->count entries.  False only when GSL fails. */
bool tune_weight_stats(const TuneSet *train, const Weights *w, int threads, TuneWeightStat *out, Error *err);

#endif
