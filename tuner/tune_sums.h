/*
 * tune_sums.h - the sums over a set of positions that the fit and the statistics need (the
 * log-loss, its gradient and Hessian, the feature moments), computed in parallel yet identical
 * bit for bit whatever the thread count.  Internal to tuner/.
 *
 * How: the set is cut into blocks of TUNE_BLOCK positions (a constant, never the thread count),
 * each block is summed sequentially by whichever thread takes it, and the block results are then
 * added in block order by one thread.  A set spread over processes (tune_mpi.c) holds whole
 * blocks on each; every process gathers all block results and adds them in the same order.
 */
#ifndef LEUCTRA_TUNE_SUMS_H
#define LEUCTRA_TUNE_SUMS_H

#include "tune.h"

/* Positions per block: large enough that a block's work dwarfs the scheduling, small enough to
 * give every thread several blocks from a few tens of thousands of positions on. */
enum { TUNE_BLOCK = 8192 };

/* What to sum. */
enum { SUM_LOSS = 1, SUM_GRADIENT = 2, SUM_HESSIAN = 4, SUM_MOMENTS = 8, SUM_TARGETS = 16 };

/* The packed upper triangle of a symmetric F x F matrix: row j holds columns j .. F-1. */
enum { PACKED_MAX = MAX_FEATURES * (MAX_FEATURES + 1) / 2 };

typedef struct {
    double loss;                    /* sum of cross-entropies against the soft target */
    double result_loss;             /* ... against the game result alone */
    double gradient[MAX_FEATURES];  /* sum of (p - target) f */
    double hessian[PACKED_MAX];     /* sum of p (1 - p) f f^T, packed */
    double sum[MAX_FEATURES];       /* sum of f */
    double sum_sq[MAX_FEATURES];    /* sum of f^2 */
    double target_sum;              /* sum of the targets */
    double result_sum;              /* sum of the results */
} TuneSums;

/* The sums `what` (SUM_* bits) of the set at weights w; the others are left 0.  False when
 * memory for the block results runs out. */
bool tune_sums(const TuneSet *set, const double *w, int what, int threads, TuneSums *out);

/* The blocks rank r of R holds of a spread set of `total` rows (tune_mpi.c). */
size_t tune_spread_blocks(uint64_t total, int r, int R);
/* Every rank's block results (stride doubles a block; this rank's in `mine`) into `all`, in block
 * order, on every rank.  Collective; false on every rank when it cannot be done. */
bool tune_gather_blocks(const TuneSet *set, const double *mine, size_t stride, double *all);

/* Index of (j, k), j <= k, in a packed triangle of order f. */
static inline int packed_index(int f, int j, int k) { return j * f - j * (j - 1) / 2 + (k - j); }

#endif
