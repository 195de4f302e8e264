/*
 * value.c - the evaluation function: the weighted sum over any game's features and its win
 * probability (see value.h).
 */
#include "value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double value_sigmoid(double logit) { return 1.0 / (1.0 + exp(-logit)); }

ValueFeatureCache *value_feature_cache_new(const Game *g)
{
    /* the bytes are the game module's; a game without incremental features gets one unused byte */
    size_t size = g->ops->features_cached ? g->ops->feature_cache_size : 0;
    return calloc(1, size ? size : 1);
}

void value_feature_cache_free(ValueFeatureCache *cache) { free(cache); }

void value_features_cached(const Game *g, ValueFeatureCache *cache, const Position *p, float *out)
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

double value_logit(const Game *g, const Weights *w, const Position *p)
{
    float f[MAX_FEATURES];
    value_features(g, p, f);
    return weighted_sum(w, f);
}

double value_win_probability(const Game *g, const Weights *w, const Position *p)
{
    return value_sigmoid(value_logit(g, w, p));
}

double value_win_probability_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p)
{
    float f[MAX_FEATURES];
    value_features_cached(g, cache, p, f);
    return value_sigmoid(weighted_sum(w, f));
}

void weights_zero(const Game *g, Weights *w)
{
    memset(w, 0, sizeof *w);
    w->variant = g->variant;
    w->count = g->ops->num_features;
}

int value_feature_index(const Game *g, const char *name)
{
    for (int i = 0; i < g->ops->num_features; i++)
        if (strcmp(g->ops->feature_names[i], name) == 0)
            return i;
    return -1;
}
