/*
 * policy.h - learned move priors: each legal move is described by a few active entries of a
 * game's move-feature space (its square or kind, what it captures or flips, what it leaves the
 * opponent...), and its prior is exp(sum of those entries' weights), normalised over the moves
 * by the search: a softmax over move features, the generalised Bradley-Terry model of Coulom
 * (2007) with one "team" of features per move.  The tuner fits the weights to the visit
 * distributions that self-play records store (tuner/tune_policy.c); without weights the game's
 * heuristic priors (GameOps.move_priors) serve.
 *
 * A PolicySet belongs to the Game and is read-only; its id names the feature space, so that a
 * weights file made for another one is refused.
 */
#ifndef LEUCTRA_POLICY_H
#define LEUCTRA_POLICY_H

#include "game.h"

#include <stdint.h>

enum { POLICY_MAX_COLUMNS = 16 };

typedef struct PolicySet {
    int columns;                /* active entries per move, one from each column's range */
    uint32_t size;              /* weights in all */
    uint64_t id;
    const char *const *column_names;    /* what each column describes, for reports */
    const uint32_t *column_offset;      /* where each column's range starts; column_offset[columns] = size */
    /* The entries of each move: out[i * columns + c]. */
    void (*move_entries)(const Game *g, const Position *p, const Move *moves, int n, uint32_t *out);
} PolicySet;

/* The game's move-feature space, or NULL when it has none. */
const PolicySet *policy_set_of(const Game *g);

/* Priors exp(logit) for the moves, scaled so that the largest is 1 (any scale serves the search,
 * which normalises; this one cannot overflow).  `weights` has set->size entries. */
void policy_priors(const PolicySet *set, const float *weights, const Game *g, const Position *p, const Move *moves,
                   int n, float *out);

#endif
