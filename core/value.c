/*
 * value.c - the evaluation (see value.h): the weighted sum over any game's features and tables,
 * its win probability, and the moves' priors.
 */
#include "value.h"

#include "network.h"
#include "pattern.h"
#include "policy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double value_sigmoid(double logit) { return 1.0 / (1.0 + exp(-logit)); }

/* A thread's caches: the network's scratch (made on its first use) and the game module's bytes
 * for its incremental features. */
struct ValueFeatureCache {
    NetworkScratch *network;
    _Alignas(16) unsigned char game[];
};

ValueFeatureCache *value_feature_cache_new(const Game *g)
{
    /* a game without incremental features gets no bytes of its own */
    size_t size = g->ops->features_cached ? g->ops->feature_cache_size : 0;
    return calloc(1, sizeof(ValueFeatureCache) + size);
}

void value_feature_cache_free(ValueFeatureCache *cache)
{
    if (cache)
        network_scratch_free(cache->network);
    free(cache);
}

void value_features_cached(const Game *g, ValueFeatureCache *cache, const Position *p, float *out)
{
    if (g->ops->features_cached)
        g->ops->features_cached(g, (void *)cache->game, p, out);
    else
        g->ops->features(g, p, out);
}

/* The network's scratch of a cache, made on first use (NULL: no cache, or no memory: the
 * network then sums its inputs afresh). */
static NetworkScratch *network_scratch(ValueFeatureCache *cache, const Network *net)
{
    if (cache && !cache->network)
        cache->network = network_scratch_new(net);
    return cache ? cache->network : NULL;
}

/* The network's part of the value logit: 0 without one, or with one that corrects the priors
 * alone (then a leaf costs no evaluation of it). */
static double network_sum(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p)
{
    return w->net && !w->net->priors_only ? network_value(w->net, g, network_scratch(cache, w->net), p) : 0;
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
    const double linear = weighted_sum(w, f);
    const double full = value_sigmoid(linear + table_sum(g, w, p) + network_sum(g, w, cache, p));
    if (!w->tables || coarse <= 0)
        return full;
    return (1.0 - coarse) * full + coarse * value_sigmoid(linear);
}

double value_logit(const Game *g, const Weights *w, const Position *p)
{
    float f[MAX_FEATURES];
    value_features(g, p, f);
    return weighted_sum(w, f) + table_sum(g, w, p) + network_sum(g, w, NULL, p);
}

double value_logit_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p)
{
    float f[MAX_FEATURES];
    value_features_cached(g, cache, p, f);
    return weighted_sum(w, f) + table_sum(g, w, p) + network_sum(g, w, cache, p);
}

double value_win_probability(const Game *g, const Weights *w, const Position *p)
{
    return value_sigmoid(value_logit(g, w, p));
}

double value_win_probability_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p)
{
    float f[MAX_FEATURES];
    value_features_cached(g, cache, p, f);
    return value_sigmoid(weighted_sum(w, f) + table_sum(g, w, p) + network_sum(g, w, cache, p));
}

/* The network's logits added to the priors' own (their logs), and the softmax of the sums. */
static void add_network_logits(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p,
                               const Move *moves, int n, float *out)
{
    float logits[MAX_MOVES];
    network_priors(w->net, g, network_scratch(cache, w->net), p, moves, n, logits);
    double top = -INFINITY;
    for (int i = 0; i < n; i++) {
        logits[i] = out[i] > 0 ? (float)(log(out[i]) + logits[i]) : -INFINITY;
        top = logits[i] > top ? logits[i] : top;
    }
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += out[i] = isfinite(logits[i]) ? (float)exp(logits[i] - top) : 0.0f;
    for (int i = 0; i < n; i++)
        out[i] = (float)(out[i] / sum);
}

void value_move_priors(const Game *g, const Weights *w, const Position *p, const Move *moves, int n, float *out)
{
    value_move_priors_cached(g, w, NULL, p, moves, n, out);
}

void value_move_priors_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p,
                              const Move *moves, int n, float *out)
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
    if (w && w->net && n > 0)
        add_network_logits(g, w, cache, p, moves, n, out);
}

void weights_dispose(Weights *w)
{
    free(w->tables);
    free(w->policy);
    weights_drop_network(w);
    w->tables = NULL;
    w->policy = NULL;
    w->num_tables = 0;
    w->num_policy = 0;
}

void weights_drop_network(Weights *w)
{
    if (w->net) {
        network_free(w->net);
        free(w->net);
    }
    w->net = NULL;
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
    dst->net = src->net ? malloc(sizeof *dst->net) : NULL;
    if (dst->net && !network_copy(dst->net, src->net)) {
        free(dst->net);
        dst->net = NULL;
    }
    if ((src->tables && !dst->tables) || (src->policy && !dst->policy) || (src->net && !dst->net)) {
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
