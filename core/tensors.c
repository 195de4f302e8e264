/*
 * tensors.c - what the tensor views of all games share (core/tensors.h): the legal actions of a
 * position, an action back to its legal move, and the planes under a board symmetry.  Each
 * game's own layout lives in its module (phalanx_tensors.c, reversi_tensors.c).
 */
#include "tensors.h"

const char *const tensor_plane_names[PLANES_COUNT] = {
    "own", "opponent", "obstacle", "own_frozen", "opponent_frozen",
    "must_answer", "symmetry_rule", "white_to_move", "on_board",
};

void game_actions_of(const Game *g, const Position *p, const Move *moves, int n, int *actions)
{
    if (g->ops->actions_of)
        g->ops->actions_of(g, p, moves, n, actions);
    else
        for (int i = 0; i < n; i++)
            actions[i] = game_action_of(g, p, moves[i]);
}

int game_legal_actions(const Game *g, const Position *p, Move *moves, int *actions)
{
    int n = game_gen_moves(g, p, moves);
    game_actions_of(g, p, moves, n, actions);
    return n;
}

bool game_move_of(const Game *g, const Position *p, int action, Move *m, Error *err)
{
    int count = game_num_actions(g);
    if (action < 0 || action >= count) {
        error_set(err, "action %d out of range (this game has actions 0-%d)", action, count - 1);
        return false;
    }
    Move moves[MAX_MOVES];
    int n = game_gen_moves(g, p, moves);
    for (int i = 0; i < n; i++)
        if (game_action_of(g, p, moves[i]) == action) {
            *m = moves[i];
            return true;
        }
    error_set(err, "action %d is no legal move of this position", action);
    return false;
}

void game_transform_planes(const Game *g, int s, const unsigned char *in, unsigned char *out)
{
    int h = g->height, w = g->width, area = h * w;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int ty = y, tx = x;
            symmetry_map(s, h, w, &ty, &tx);
            for (int c = 0; c < PLANES_COUNT; c++)
                out[c * area + ty * w + tx] = in[c * area + y * w + x];
        }
}
