/*
 * value.c - the evaluation (see value.h): the weighted sum over any game's features and tables,
 * its win probability, and the moves' priors.
 */
#include "value.h"

#include "pattern.h"
#include "policy.h"

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

/* The tables' part of the log-odds: 0 without tables. */
static double table_sum(const Game *g, const Weights *w, const Position *p)
{
    if (!w->tables)
        return 0;
    return pattern_sum(pattern_set_with(g, w->pattern_families), w->tables, g, p);
}

double value_search(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p, double coarse)
{
    float f[MAX_FEATURES];
    if (cache)
        value_features_cached(g, cache, p, f);
    else
        value_features(g, p, f);
    const double linear = weighted_sum(w, f), full = value_sigmoid(linear + table_sum(g, w, p));
    if (!w->tables || coarse <= 0)
        return full;
    return (1.0 - coarse) * full + coarse * value_sigmoid(linear);
}

double value_logit(const Game *g, const Weights *w, const Position *p)
{
    float f[MAX_FEATURES];
    value_features(g, p, f);
    return weighted_sum(w, f) + table_sum(g, w, p);
}

double value_win_probability(const Game *g, const Weights *w, const Position *p)
{
    return value_sigmoid(value_logit(g, w, p));
}

double value_win_probability_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p)
{
    float f[MAX_FEATURES];
    value_features_cached(g, cache, p, f);
    return value_sigmoid(weighted_sum(w, f) + table_sum(g, w, p));
}

void value_move_priors(const Game *g, const Weights *w, const Position *p, const Move *moves, int n, float *out)
{
    const PolicySet *learned = w && w->policy ? policy_set_of(g) : NULL;
    const bool scored = (learned && learned->id == w->policy_id) || g->ops->move_priors;
    if (learned && learned->id == w->policy_id)
        policy_priors(learned, w->policy, g, p, moves, n, out);
    else if (g->ops->move_priors)
        g->ops->move_priors(g, p, moves, n, out);
    /* A score that is not a positive number (an overflowed exp) counts as no chance at all. */
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (!scored || !(out[i] > 0) || !isfinite(out[i]))
            out[i] = scored ? 0.0f : 1.0f;
        sum += out[i];
    }
    for (int i = 0; i < n; i++)
        out[i] = sum > 0 ? (float)(out[i] / sum) : 1.0f / (float)n;
}

void weights_dispose(Weights *w)
{
    free(w->tables);
    free(w->policy);
    w->tables = NULL;
    w->policy = NULL;
    w->num_tables = 0;
    w->num_policy = 0;
}

static float *copy_floats(const float *src, size_t n)
{
    float *out = src ? malloc((n ? n : 1) * sizeof *out) : NULL;
    if (out)
        memcpy(out, src, n * sizeof *out);
    return out;
}

bool weights_copy(Weights *dst, const Weights *src)
{
    *dst = *src;
    dst->tables = copy_floats(src->tables, src->num_tables);
    dst->policy = copy_floats(src->policy, src->num_policy);
    if ((src->tables && !dst->tables) || (src->policy && !dst->policy)) {
        weights_dispose(dst);
        return false;
    }
    return true;
}

bool weights_set_tables(Weights *w, const PatternSet *ps, const float *canonical)
{
    const size_t n = (size_t)ps->num_phases * ps->raw_phase_size;
    float *raw = malloc(n * sizeof *raw);
    if (!raw)
        return false;
    pattern_expand(ps, canonical, raw);
    free(w->tables);
    w->tables = raw;
    w->num_tables = n;
    w->pattern_id = ps->id;
    w->pattern_families = ps->families;
    return true;
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
