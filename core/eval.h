/*
 * eval.h - the static evaluation: a weighted sum of a game's named features turned into the
 * probability that the side to move wins (a logistic curve).  The feature vector is also the
 * tuner's trace: the tuner fits exactly the model the engine evaluates, with no second copy.
 */
#ifndef LEUCTRA_EVAL_H
#define LEUCTRA_EVAL_H

#include "game.h"

/* Weights for one game, in the order of the game's feature_names. */
typedef struct {
    Variant variant;
    int count;
    double w[MAX_FEATURES];
} Weights;

/* The game's feature vector (game->ops->num_features entries). */
static inline void eval_features(const Game *g, const Position *p, float *out) { g->ops->features(g, p, out); }

/* Sum of weight x feature: the log-odds that the side to move wins. */
double eval_logit(const Game *g, const Weights *w, const Position *p);

/* The win probability of the side to move, in (0, 1). */
double eval_win_probability(const Game *g, const Weights *w, const Position *p);

double eval_sigmoid(double logit);

/* Every weight 0: a valid but uninformed evaluation.  Shipped weights come from data/weights.h. */
void weights_zero(const Game *g, Weights *w);

/* Index of a feature by name, or -1. */
int eval_feature_index(const Game *g, const char *name);

#endif
