/*
 * policy.c - the game-independent half of the learned move priors (policy.h).
 */
#include "policy.h"

#include <math.h>
#include <stdlib.h>

const PolicySet *policy_set_of(const Game *g)
{
    return g->ops->policy ? g->ops->policy(g) : NULL;
}

void policy_priors(const PolicySet *set, const float *weights, const Game *g, const Position *p, const Move *moves,
                   int n, float *out)
{
    enum { CHUNK = 256 };
    uint32_t entries[CHUNK * POLICY_MAX_COLUMNS];
    float top = -INFINITY;
    for (int start = 0; start < n; start += CHUNK) {
        const int count = n - start < CHUNK ? n - start : CHUNK;
        set->move_entries(g, p, moves + start, count, entries);
        for (int i = 0; i < count; i++) {
            float z = 0;
            for (int c = 0; c < set->columns; c++)
                z += weights[entries[i * set->columns + c]];
            out[start + i] = z;
            if (z > top)
                top = z;
        }
    }
    for (int i = 0; i < n; i++)
        out[i] = expf(out[i] - top);
}
