/*
 * eval.c - the weighted-sum evaluation over any game's features (see eval.h).
 */
#include "eval.h"

#include <math.h>
#include <string.h>

double eval_sigmoid(double logit) { return 1.0 / (1.0 + exp(-logit)); }

double eval_logit(const Game *g, const Weights *w, const Position *p)
{
    float f[MAX_FEATURES];
    eval_features(g, p, f);
    double sum = 0;
    for (int i = 0; i < w->count; i++)
        sum += w->w[i] * f[i];
    return sum;
}

double eval_win_probability(const Game *g, const Weights *w, const Position *p)
{
    return eval_sigmoid(eval_logit(g, w, p));
}

void weights_zero(const Game *g, Weights *w)
{
    memset(w, 0, sizeof *w);
    w->variant = g->variant;
    w->count = g->ops->num_features;
}

int eval_feature_index(const Game *g, const char *name)
{
    for (int i = 0; i < g->ops->num_features; i++)
        if (strcmp(g->ops->feature_names[i], name) == 0)
            return i;
    return -1;
}
