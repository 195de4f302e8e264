/*
 * prior_cache.h - the priors an evaluator outside the search gave, kept by position until the
 * search expands that position (mcts_batch.c).  An evaluator answers for a leaf's value and its
 * moves' priors at once, on the leaf's first visit; the search lists the moves on the second
 * visit, when the priors are needed.  Keyed by the position's hash, so that a kept subtree's
 * nodes, which move in memory, still find theirs.
 */
#ifndef LEUCTRA_PRIOR_CACHE_H
#define LEUCTRA_PRIOR_CACHE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct PriorCache PriorCache;

PriorCache *prior_cache_new(void);      /* NULL when memory runs out */
void prior_cache_free(PriorCache *c);
void prior_cache_clear(PriorCache *c);
/* Keeps the n priors of the position with this hash (replacing any); false on no memory. */
bool prior_cache_put(PriorCache *c, uint64_t hash, int n, const float *priors);
/* The n priors kept for the hash into out; false when there are none (or not n of them). */
bool prior_cache_get(const PriorCache *c, uint64_t hash, int n, float *out);
/* Whether anything is kept for the hash: priors, or the mark (no priors, n = 0) of a position
 * whose evaluation is pending. */
bool prior_cache_has(const PriorCache *c, uint64_t hash);

#endif
