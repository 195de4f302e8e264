/*
 * phalanx_heuristic_priors.c - move priors for Epaminondas, Crossings and Igfip: a cheap
 * non-negative score per legal move that PUCT search uses to decide which children to try first
 * (search normalises the scores, so only their ratios matter).
 *
 * The order follows what decides these games.  In Crossings a stone that lands on the far rank
 * makes a tower, which never falls and must be answered at once, so it dwarfs everything; so
 * does an Igfip crossing, which may fall later but must be answered by a crossing first, so the
 * reply cannot take it.  In
 * Epaminondas such a stone only threatens to win at the start of the next turn and can still be
 * captured, so it ranks just below captures: ranked first, search spent its few visits per move
 * on raids that a one-ply reply refutes (docs/BENCHMARKS.md, "Strength").  Then captures, more
 * for more stones taken; then forward, sideways and backward moves.  Larger groups and longer
 * forward steps get a little more, since they are the moves that change a position the most.
 */
#include "phalanx.h"

/* Ratios, not probabilities.  TOWER is ~10x a big capture so search looks at every tower move
 * before any quiet one; BACKWARD is a quarter of FORWARD, not zero: retreating to defend the
 * home rank is sometimes the only move.  FAR_RANK was 64 like TOWER until measured: 4 won 94%
 * instead of 90.5% against greedy and +35 to +110 Elo against 64 in self-play; in Crossings
 * 4 instead of 64 lost 60 Elo. */
#define PRIOR_TOWER 64.0f
#define PRIOR_FAR_RANK 4.0f
#define PRIOR_CAPTURE 6.0f
#define PRIOR_PER_CAPTURED 3.0f
#define PRIOR_FORWARD 2.0f
#define PRIOR_SIDEWAYS 1.0f
#define PRIOR_BACKWARD 0.5f
#define PRIOR_PER_EXTRA_STONE 0.125f   /* group of k: x (1 + 0.125 (k - 1)) */
#define PRIOR_PER_EXTRA_STEP 0.25f     /* forward by j: x (1 + 0.25 (j - 1)) */

static float move_prior(const PhalanxTables *t, const PhalanxPos *p, Move m)
{
    int us = p->side, dir = move_dir(m), k = move_group(m), j = move_dist(m);
    int step = dir_rank[dir] * 16 + dir_file[dir];
    int land = move_rear(m) + (k - 1 + j) * step;
    int forward = dir_rank[dir] * (us == WHITE ? 1 : -1);
    int captured = phalanx_stones_captured(t, p, land, dir);
    float score;
    if (forward > 0 && sq_rank(land) == t->far_rank[us])
        score = (t->answering ? PRIOR_TOWER : PRIOR_FAR_RANK) + PRIOR_PER_CAPTURED * (float)captured;
    else if (captured)
        score = PRIOR_CAPTURE + PRIOR_PER_CAPTURED * (float)captured;
    else if (forward > 0)
        score = PRIOR_FORWARD * (1.0f + PRIOR_PER_EXTRA_STEP * (float)(j - 1));
    else
        score = forward == 0 ? PRIOR_SIDEWAYS : PRIOR_BACKWARD;
    return score * (1.0f + PRIOR_PER_EXTRA_STONE * (float)(k - 1));
}

void phalanx_move_priors(const Game *g, const Position *pos, const Move *moves, int n, float *out)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    for (int i = 0; i < n; i++)
        out[i] = move_prior(t, p, moves[i]);
}
