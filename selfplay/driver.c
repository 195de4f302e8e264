/*
 * driver.c - one game between two players (see driver.h).
 */
#include "driver.h"

#include "core/rng.h"

#include <math.h>
#include <stdlib.h>

DrawPolicy draw_policy_default(void)
{
    DrawPolicy p = {600, true, 0, 0};
    return p;
}

const char *end_reason_name(EndReason r)
{
    switch (r) {
    case END_PLY_LIMIT: return "ply-limit";
    case END_REPETITION: return "repetition";
    case END_NO_MOVE_CHOSEN: return "no-move";
    case END_RESIGN: return "resign";
    default: return "rules";
    }
}

RecordEnd end_reason_record(EndReason r)
{
    switch (r) {
    case END_PLY_LIMIT: return RECORD_END_PLY_LIMIT;
    case END_REPETITION: return RECORD_END_REPETITION;
    case END_NO_MOVE_CHOSEN: return RECORD_END_NO_MOVE;
    case END_RESIGN: return RECORD_END_RESIGN;
    default: return RECORD_END_RULES;
    }
}

EndReason end_reason_of_record(RecordEnd e)
{
    switch (e) {
    case RECORD_END_PLY_LIMIT: return END_PLY_LIMIT;
    case RECORD_END_REPETITION: return END_REPETITION;
    case RECORD_END_NO_MOVE: return END_NO_MOVE_CHOSEN;
    case RECORD_END_RESIGN: return END_RESIGN;
    default: return END_RULES;
    }
}

void game_result_free(GameResult *r)
{
    free(r->moves);
    r->moves = NULL;
}

/* The resign adjudication's count: plies in a row whose mover's value agreed that `loser` is
 * lost. */
typedef struct {
    int loser;
    int plies;
} ResignStreak;

static void resign_observe(const DrawPolicy *policy, ResignStreak *s, int mover, double value)
{
    double v = policy->resign_value;
    if (policy->resign_moves <= 0 || isnan(value)) {
        s->plies = 0;
        return;
    }
    bool agrees = s->plies > 0 && (mover == s->loser ? value <= v : value >= 1 - v);
    if (agrees)
        s->plies++;
    else if (value <= v || value >= 1 - v)
        *s = (ResignStreak){value <= v ? mover : !mover, 1};
    else
        s->plies = 0;
}

static bool is_legal(const Game *g, const Position *pos, Move m, Move *scratch)
{
    int n = game_gen_moves(g, pos, scratch);
    for (int i = 0; i < n; i++)
        if (scratch[i] == m)
            return true;
    return false;
}

/* The adjudication of the game so far, before the next move: false to play on, else true with
 * the result and reason in *out. */
static bool adjudicated(const Game *g, const GameSoFar *h, const DrawPolicy *policy, const ResignStreak *streak,
                        int cap, GameResult *out)
{
    if (game_count_moves(g, &h->now) == 0) {
        out->result = game_status(g, &h->now);
        out->reason = END_RULES;
    } else if (policy->repetition && game_so_far_occurrences(h) >= 3) {
        out->result = STATUS_DRAW;
        out->reason = END_REPETITION;
    } else if (policy->resign_moves > 0 && streak->plies >= 2 * policy->resign_moves) {
        out->result = streak->loser == WHITE ? STATUS_BLACK_WINS : STATUS_WHITE_WINS;
        out->reason = END_RESIGN;
    } else if (h->plies >= cap) {
        out->result = STATUS_DRAW;
        out->reason = END_PLY_LIMIT;
    } else {
        return false;
    }
    return true;
}

bool play_game(const Game *g, const Position *start, Player *players[2], const DrawPolicy *policy, uint64_t seed,
               MoveObserver observe, void *observe_ctx, GameResult *out)
{
    const int cap = policy->max_plies > 0 ? policy->max_plies : 4096;
    GameSoFar h = GAME_SO_FAR_EMPTY;
    Move *scratch = malloc(MAX_MOVES * sizeof *scratch);
    out->moves = NULL;
    if (!scratch || !game_so_far_begin(&h, g, start)) {
        free(scratch);
        game_so_far_free(&h);
        return false;
    }
    for (int c = 0; c < 2; c++)
        players[c]->new_game(players[c], rng_seed(seed, (uint64_t)c).s[0]);
    ResignStreak streak = {WHITE, 0};
    bool ok = true;
    while (!adjudicated(g, &h, policy, &streak, cap, out)) {
        int mover = game_side_to_move(g, &h.now);
        MoveInfo info = {.value = NAN};
        Move m = players[mover]->choose(players[mover], &h, &info);
        if (m == MOVE_NONE || !is_legal(g, &h.now, m, scratch)) {
            out->result = mover == WHITE ? STATUS_BLACK_WINS : STATUS_WHITE_WINS;
            out->reason = END_NO_MOVE_CHOSEN;
            break;
        }
        if (observe)
            observe(observe_ctx, &h.now, m, &info);
        resign_observe(policy, &streak, mover, info.value);
        if (!(ok = game_so_far_play(&h, g, m)))
            break;
    }
    free(scratch);
    out->plies = h.plies;
    out->moves = h.moves;       /* handed over; the hashes go */
    free(h.hashes);
    if (!ok)
        game_result_free(out);
    return ok;
}
