/*
 * tune_network.h - the network's fit (tune_network.c): the float model of docs/NETWORK.md fitted
 * to the positions of tune_network_data.h by Adam on mini-batches.
 *
 * The objective, per position: the value's cross-entropy against its blended target
 * (sigmoid(skip + bv[b] + wv[b] . h2)), plus policy_weight x the priors' cross-entropy against
 * the visit shares (softmax over the legal moves of log skip prior + be[a] + we[a] . h2) where
 * the position has them; the mean over a batch, plus l2/2 x the squares of the weights (not the
 * biases).  Adam updates the dense layers every step and only the rows of W1 and of the action
 * embeddings that the batch touches (lazy Adam: a row's moments move when it is used, with the
 * global step's bias correction).  After every epoch the loss on the validation set decides:
 * a better one keeps the weights, a worse one restores the best and halves the step, and
 * `patience` halvings end the fit, with the best epoch's weights.  The float weights are then
 * quantized (network_quantize over the training set's sample) for the file and the search.
 *
 * Determinism: the weights come out the same bit for bit whatever the thread count.  The batch
 * order is a seeded shuffle; each position's forward and backward pass is computed by one thread
 * alone; every gradient is a sum over the batch's positions in batch order (a W1 row's over the
 * positions that touch it, gathered in order), whichever thread adds it; losses are summed in
 * fixed chunks of positions, the chunks in order.
 *
 * One process, no printing: errors through Error, epochs through a callback.
 */
#ifndef LEUCTRA_TUNE_NETWORK_H
#define LEUCTRA_TUNE_NETWORK_H

#include "tune_network_data.h"

typedef struct {
    double value;               /* mean value cross-entropy per position (nats) */
    double policy;              /* mean policy cross-entropy per position with a policy target */
    double total;               /* the objective without the penalty: value + policy_weight x the
                                   policy's sum over all positions, per position */
} TuneNetworkLoss;

typedef struct {
    int epoch;                  /* 0: the start */
    TuneNetworkLoss train, validation;  /* train: over the epoch's batches as they went */
    double learning_rate, seconds;      /* seconds since the fit began */
    bool best;
} TuneNetworkEpoch;

/* Whether the fitted network keeps its value head: where it pays on the validation positions
 * (auto), always, or never (the network then gives priors only). */
typedef enum { TUNE_VALUE_HEAD_AUTO, TUNE_VALUE_HEAD_KEEP, TUNE_VALUE_HEAD_DROP } TuneValueHead;

typedef struct {
    double policy_weight;       /* the policy's share of the objective */
    double l2;                  /* the penalty on the weights */
    double learning_rate;       /* Adam's step at the start */
    size_t batch;               /* positions a mini-batch */
    int max_epochs;             /* at most TUNE_MAX_EPOCHS */
    int patience;               /* step halvings without improvement before stopping */
    uint64_t seed;              /* the batches' order */
    int threads;                /* 0: OpenMP's default */
    TuneValueHead value_head;   /* auto: kept where it saves TUNE_NETWORK_VALUE_GAIN */
    void (*on_epoch)(const TuneNetworkEpoch *e, void *ctx);
    void *ctx;
} TuneNetworkFitOptions;

/* Defaults: policy weight 1, l2 1e-6, rate 0.002, batch 256, 30 epochs, patience 2, seed 1,
 * threads 0, value head auto. */
TuneNetworkFitOptions tune_network_fit_defaults(void);

typedef struct {
    TuneNetworkLoss train_before, train_after, valid_before, valid_after;   /* the float model */
    /* On the positions kept whole of the validation set (of the training set where none is held
     * out): the float model and the quantized one, so that the quantization's cost shows. */
    size_t sample_positions;
    bool sample_is_validation;
    TuneNetworkLoss sample_float, sample_quantized;
    /* The value head is kept only where it lowers the validation value loss by at least
     * TUNE_NETWORK_VALUE_GAIN (or where the options say keep): else it is dropped
     * (network_drop_value_head), and the search pays no evaluation of the network at a leaf.
     * value_with, value_without: that loss with the fitted head and without it. */
    bool value_head_dropped;
    double value_with, value_without;
    int num_epochs, best_epoch;
    TuneNetworkEpoch epoch[TUNE_MAX_EPOCHS + 1];
    double seconds;
} TuneNetworkFit;

/* The validation value loss (nats a position) a value head must save to be kept.  A network's
 * value costs an evaluation of it at every leaf the search scores, its priors one at every node it
 * expands: on Crossings a value head that saved nothing made the search 1.8x slower a visit and
 * the network -13 Elo at equal time, the same network without it +48 (docs/NETWORK.md). */
#define TUNE_NETWORK_VALUE_GAIN 0.001

/* Fits net (its float weights the start; the architecture the sets were read for) to `train`,
 * choosing by `validation` (which may be empty: then every epoch is kept), and quantizes it.
 * False with *err when memory runs out or the sets do not fit the network (their inputs). */
bool tune_network_fit(const Game *g, Network *net, const TuneNetworkSet *train, const TuneNetworkSet *validation,
                      const TuneNetworkFitOptions *opts, TuneNetworkFit *out, Error *err);

/* The float model's losses on a set (NAN parts for none); threads as the options'. */
TuneNetworkLoss tune_network_loss(const Network *net, const TuneNetworkSet *set, double policy_weight, int threads);

/* The losses of the quantized network (the integers the search reads) on the set's positions
 * kept whole; NAN for none. */
TuneNetworkLoss tune_network_loss_quantized(const Game *g, const Network *net, const TuneNetworkSet *set,
                                           double policy_weight);

/* The float model's losses on the same positions, for comparison. */
TuneNetworkLoss tune_network_loss_sample(const Network *net, const TuneNetworkSet *set, double policy_weight);

#endif
