/*
 * value.h - the evaluation, everything a search asks of the weights about a position: its static
 * value (a weighted sum of a game's named features, plus the pattern tables' entries where the
 * weights have tables, pattern.h, turned into the probability that the side to move wins by a
 * logistic curve) and the priors of its moves (the learned ones of policy.h where the weights
 * have them, else the game's heuristic ones).  The feature vector and the pattern entries are
 * also the tuner's trace: the tuner fits exactly the model the engine evaluates, with no second
 * copy.  A network (network.h) may add to both.  (eval/ is another thing: the strength of whole
 * engines.)  Loading and saving weights is data/weights.h's.
 */
#ifndef LEUCTRA_VALUE_H
#define LEUCTRA_VALUE_H

#include "game.h"

/* Weights for one game: the linear weights in the order of the game's feature_names, and
 * optionally pattern tables and move-prior weights.  The tables and the priors are heap memory
 * that belongs to whoever loaded the weights (weights_load, weights_default, the tuner) and is
 * released with weights_dispose; a copy of the struct made with `=` borrows them. */
typedef struct {
    Variant variant;
    int count;
    double w[MAX_FEATURES];
    /* Pattern tables for the game's PatternSet of pattern_families (core/pattern.h; 0: the base
     * set), raw layout, num_phases x raw_phase_size floats, or NULL; pattern_id is the set's id
     * they were made for. */
    float *tables;
    size_t num_tables;
    uint64_t pattern_id;
    unsigned pattern_families;
    /* Learned move priors (core/policy.h: the game's PolicySet, size floats), or NULL for the
     * game's heuristic priors; policy_id is the set's id. */
    float *policy;
    uint32_t num_policy;
    uint64_t policy_id;
    /* A network (core/network.h) whose output adds to the logits of all the above (its skip
     * path), or NULL. */
    struct Network *net;
} Weights;

/* Frees the tables, priors and network of weights this code owns; leaves linear weights alone. */
void weights_dispose(Weights *w);
/* A deep copy: dst gets its own copies of src's tables, priors and network (dst's own are not freed).
 * False when memory runs out; dst then has src's linear weights and nothing else. */
bool weights_copy(Weights *dst, const Weights *src);
/* Frees w's network, if any, and leaves the rest: the weights then evaluate as their skip path. */
void weights_drop_network(Weights *w);
/* Gives w (which owns its tables) the tables of set ps from canonical values
 * (num_phases x canonical_phase_size), replacing any it had.  False when memory runs out. */
struct PatternSet;
bool weights_set_tables(Weights *w, const struct PatternSet *ps, const float *canonical);

/* The game's feature vector (game->ops->num_features entries). */
static inline void value_features(const Game *g, const Position *p, float *out) { g->ops->features(g, p, out); }

/* The same vector, bit for bit, for positions met one after the other (the plies of a game):
 * games that support it redo only the work that the difference from the cache's previous
 * position calls for, several times cheaper than value_features when consecutive positions
 * differ by a move.  Any position may follow any other (the first of a new game just costs
 * more), so a cache serves a whole run of games.  Not shared: one cache per thread. */
typedef struct ValueFeatureCache ValueFeatureCache;
ValueFeatureCache *value_feature_cache_new(const Game *g);     /* NULL when memory runs out */
void value_feature_cache_free(ValueFeatureCache *cache);
void value_features_cached(const Game *g, ValueFeatureCache *cache, const Position *p, float *out);

/* Sum of weight x feature: the log-odds that the side to move wins. */
double value_logit(const Game *g, const Weights *w, const Position *p);

/* The same, bit for bit, through a feature cache (for positions met one after another). */
double value_logit_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p);

/* The win probability of the side to move, in (0, 1). */
double value_win_probability(const Game *g, const Weights *w, const Position *p);
/* The same, bit for bit, through a feature cache (for positions met one after another). */
double value_win_probability_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p);

double value_sigmoid(double logit);

/* The value a search gives a leaf: the side to move's win probability, with share `coarse` of it
 * from the linear features alone (the pattern tables left out; the same as the full value for
 * weights without tables).  The tables judge the position finely, but they can hold a won game
 * at the same 0.97 whatever the winner does: Epaminondas' tables value stones kept at home, which
 * a winner who must cross no longer needs, and a search led by them alone shuffles until the ply
 * limit.  The linear part (material, advancement, reach of the far rank) still rises as the win
 * comes nearer, and the search follows it home.  cache may be NULL (features computed anew). */
double value_search(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p, double coarse);

/* The priors of the n legal moves of p, normalised to sum 1: the weights' learned priors where
 * they have them for this game's feature space, else the game's heuristic ones, else uniform;
 * where the weights have a network, its logits added to theirs.  w may be NULL (heuristic
 * priors); cache as value_search's (the network reuses its work through it). */
void value_move_priors(const Game *g, const Weights *w, const Position *p, const Move *moves, int n, float *out);
void value_move_priors_cached(const Game *g, const Weights *w, ValueFeatureCache *cache, const Position *p,
                              const Move *moves, int n, float *out);

/* Every weight 0: a valid but uninformed evaluation.  Shipped weights come from data/weights.h. */
void weights_zero(const Game *g, Weights *w);

/* Index of a feature by name, or -1. */
int value_feature_index(const Game *g, const char *name);

#endif
