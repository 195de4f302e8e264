/*
 * driver.c - one game between two players (see driver.h).
 */
#include "driver.h"

#include "core/rng.h"

#include <stdlib.h>

DrawPolicy draw_policy_default(void)
{
    DrawPolicy p = {600, true};
    return p;
}

const char *end_reason_name(EndReason r)
{
    switch (r) {
    case END_PLY_LIMIT: return "ply-limit";
    case END_REPETITION: return "repetition";
    case END_NO_MOVE_CHOSEN: return "no-move";
    default: return "rules";
    }
}

void game_result_free(GameResult *r)
{
    free(r->moves);
    r->moves = NULL;
}

static int occurrences(const uint64_t *history, int n, uint64_t hash)
{
    int count = 0;
    for (int i = n - 1; i >= 0; i--)
        count += history[i] == hash;
    return count;
}

static bool is_legal(const Game *g, const Position *pos, Move m, Move *scratch)
{
    int n = game_gen_moves(g, pos, scratch);
    for (int i = 0; i < n; i++)
        if (scratch[i] == m)
            return true;
    return false;
}

bool play_game(const Game *g, const Position *start, Player *players[2], const DrawPolicy *policy, uint64_t seed,
               MoveObserver observe, void *observe_ctx, GameResult *out)
{
    int cap = policy->max_plies > 0 ? policy->max_plies : 4096;
    uint64_t *history = malloc((size_t)(cap + 1) * sizeof *history);
    Move *scratch = malloc(MAX_MOVES * sizeof *scratch);
    out->moves = malloc((size_t)cap * sizeof *out->moves);
    if (!history || !scratch || !out->moves) {
        free(history);
        free(scratch);
        game_result_free(out);
        return false;
    }
    for (int c = 0; c < 2; c++)
        players[c]->new_game(players[c], rng_seed(seed, (uint64_t)c).s[0]);
    Position pos = *start;
    out->plies = 0;
    out->reason = END_RULES;
    history[0] = game_hash(g, &pos);
    for (;;) {
        if (game_count_moves(g, &pos) == 0) {
            out->result = game_status(g, &pos);
            break;
        }
        if (policy->repetition && occurrences(history, out->plies + 1, history[out->plies]) >= 3) {
            out->result = STATUS_DRAW;
            out->reason = END_REPETITION;
            break;
        }
        if (out->plies >= cap) {
            out->result = STATUS_DRAW;
            out->reason = END_PLY_LIMIT;
            break;
        }
        int mover = game_side_to_move(g, &pos);
        MoveInfo info = {0};
        Move m = players[mover]->choose(players[mover], &pos, &info);
        if (m == MOVE_NONE || !is_legal(g, &pos, m, scratch)) {
            out->result = mover == WHITE ? STATUS_BLACK_WINS : STATUS_WHITE_WINS;
            out->reason = END_NO_MOVE_CHOSEN;
            break;
        }
        if (observe)
            observe(observe_ctx, &pos, m, &info);
        Undo undo;
        game_make(g, &pos, m, &undo);
        out->moves[out->plies++] = m;
        history[out->plies] = game_hash(g, &pos);
    }
    free(history);
    free(scratch);
    return true;
}
