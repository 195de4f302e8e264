/*
 * tune_sparse.h - first-order fitting of large sparse linear models: the pattern evaluation
 * (hundreds of thousands to millions of table entries, a few dozen active per position) and the
 * move priors (a softmax over each position's moves).  Newton's method (tune_fit.c) needs the
 * F x F Hessian and cannot go there.
 *
 * The model: each row r has a dense feature vector f_r (F floats) and K active sparse entries
 * e_r1 .. e_rK; its logit is z_r = w . f_r + sum_k t[e_rk].  Rows form groups:
 * - one row a group (the value): P(win) = sigmoid(z_r), cross-entropy against a target in [0, 1];
 * - several (the policy: a position's moves): softmax of z over the group, cross-entropy against
 *   target probabilities that sum to 1 over the group.
 * Objective: the mean loss over the training groups + (l2_dense/2 |w|^2 + l2_sparse/2 |t|^2) / N.
 *
 * Method: Adam on mini-batches, the learning rate halved whenever an epoch fails to improve the
 * validation loss (the best weights so far are restored then), stopping after `patience` halvings
 * or max_epochs; the result is the weights with the best validation loss.
 *
 * Determinism: the weights come out the same bit for bit whatever the thread count and however
 * many MPI ranks share the data.  A group's batch is a hash of its global index (not of where it
 * is stored), a row's logit is summed in a fixed order, and gradients are summed in 64-bit fixed
 * point (2^-32 units), which is exact in any order and across ranks.  Threads split the sparse
 * gradient by column group (a column's entries never share a table entry with another group's),
 * so no two threads ever write one entry.
 */
#ifndef LEUCTRA_TUNE_SPARSE_H
#define LEUCTRA_TUNE_SPARSE_H

#include "data/mpi_env.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SPARSE_MAX_DENSE = 64, SPARSE_MAX_COLUMNS = 512 };

typedef struct {
    size_t rows;
    int dense;                  /* F: floats per row in features (0: none) */
    const float *features;      /* rows x F */
    int columns;                /* K: sparse entries per row */
    const uint32_t *entries;    /* rows x K, each < the model's num_sparse */
    const double *target;       /* per row */
    /* Groups: rows [group_start[g], group_start[g + 1]); NULL: every row is a group of its own
     * (logistic). */
    const size_t *group_start;
    size_t groups;              /* with group_start */
    /* The global index of this part's first group when the data are spread over ranks. */
    uint64_t first_group;
} SparseData;

typedef struct {
    int dense;
    size_t num_sparse;
    double dense_w[SPARSE_MAX_DENSE];
    float *sparse_w;            /* num_sparse, owned by the caller */
} SparseModel;

typedef struct {
    int epoch;
    double train_loss, validation_loss;     /* means per group; validation NAN without one */
    double learning_rate;
    bool best;                  /* the best validation loss so far */
    double seconds;             /* since the fit began */
} SparseEpoch;

typedef struct {
    double l2_dense, l2_sparse;
    double learning_rate;       /* Adam's step at the start */
    size_t batch_groups;        /* groups a mini-batch, over all ranks */
    int max_epochs;
    int patience;               /* learning-rate halvings without improvement before stopping */
    uint64_t seed;              /* which groups share a batch */
    int threads;
    const MpiEnv *mpi;          /* NULL: one process */
    /* Column c's group (columns of one group may share entries; of two groups never). */
    const uint8_t *column_group;
    void (*on_epoch)(const SparseEpoch *e, void *ctx);
    void *ctx;
} SparseFitOptions;

/* Defaults: l2 1 and 1, rate 0.01, 8192 groups a batch, 40 epochs, patience 3, seed 1. */
SparseFitOptions tune_sparse_fit_defaults(void);

typedef struct {
    int epochs;
    int best_epoch;             /* 0: the start was never beaten */
    double train_loss, validation_loss;     /* at the best weights */
    double seconds;
} SparseFitResult;

/* Fits `model` (its starting weights in place) to `train`, choosing by `validation` (which may
 * have no rows: then every epoch counts as an improvement and max_epochs are run).  The totals
 * over all ranks are used for means.  False when memory runs out (on every rank). */
bool tune_sparse_fit(SparseModel *model, const SparseData *train, const SparseData *validation,
                const SparseFitOptions *opts, SparseFitResult *out);

/* The mean loss of the model on the data (over all ranks); NAN without groups. */
double tune_sparse_loss(const SparseModel *model, const SparseData *data, const SparseFitOptions *opts);

/* For the policy's report: the share of groups where the row of highest logit is the row of
 * highest target (ties to the first), over all ranks. */
double tune_sparse_top1(const SparseModel *model, const SparseData *data, const SparseFitOptions *opts);

#endif
