/*
 * eval.c - the weighted-sum evaluation over any game's features (see eval.h).
 */
#include "eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double eval_sigmoid(double logit) { return 1.0 / (1.0 + exp(-logit)); }

EvalFeatureCache *eval_feature_cache_new(const Game *g)
{
    /* the bytes are the game module's; a game without incremental features gets one unused byte */
    size_t size = g->ops->features_cached ? g->ops->feature_cache_size : 0;
    return calloc(1, size ? size : 1);
}

void eval_feature_cache_free(EvalFeatureCache *cache) { free(cache); }

void eval_features_cached(const Game *g, EvalFeatureCache *cache, const Position *p, float *out)
{
    if (g->ops->features_cached)
        g->ops->features_cached(g, (void *)cache, p, out);
    else
        g->ops->features(g, p, out);
}

static double weighted_sum(const Weights *w, const float *f)
{
    double sum = 0;
    for (int i = 0; i < w->count; i++)
        sum += w->w[i] * f[i];
    return sum;
}

double eval_logit(const Game *g, const Weights *w, const Position *p)
{
    float f[MAX_FEATURES];
    eval_features(g, p, f);
    return weighted_sum(w, f);
}

double eval_win_probability(const Game *g, const Weights *w, const Position *p)
{
    return eval_sigmoid(eval_logit(g, w, p));
}

double eval_win_probability_cached(const Game *g, const Weights *w, EvalFeatureCache *cache, const Position *p)
{
    float f[MAX_FEATURES];
    eval_features_cached(g, cache, p, f);
    return eval_sigmoid(weighted_sum(w, f));
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
