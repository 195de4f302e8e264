/*
 * playout.c - random playouts (see playout.h).
 */
#include "playout.h"

PlayoutResult playout_random(const Game *g, Position *pos, Rng *rng, int max_plies, Move *moves)
{
    if (g->ops->playout)
        return g->ops->playout(g, pos, rng, max_plies);
    return playout_random_listed(g, pos, rng, max_plies, moves);
}

PlayoutResult playout_random_listed(const Game *g, Position *pos, Rng *rng, int max_plies, Move *moves)
{
    PlayoutResult result = {STATUS_DRAW, 0};
    for (; result.plies < max_plies; result.plies++) {
        int n = game_gen_moves(g, pos, moves);
        if (n == 0) {
            result.status = game_status(g, pos);
            return result;
        }
        Undo undo;
        game_make(g, pos, moves[rng_below(rng, (uint32_t)n)], &undo);
    }
    GameStatus s = game_status(g, pos);
    if (s != STATUS_ONGOING)
        result.status = s;
    return result;
}
