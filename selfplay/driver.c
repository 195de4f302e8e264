/*
 * driver.c - one game between two players (see driver.h).
 */
#include "driver.h"

#include "core/clock.h"
#include "core/rng.h"

#include <math.h>
#include <stdlib.h>

DrawPolicy driver_draw_policy_default(void)
{
    DrawPolicy p = {600, true, 0, 0, 0};
    return p;
}

const char *driver_end_reason_name(EndReason r)
{
    switch (r) {
    case END_PLY_LIMIT: return "ply-limit";
    case END_REPETITION: return "repetition";
    case END_NO_MOVE_CHOSEN: return "no-move";
    case END_RESIGN: return "resign";
    case END_TIME_FORFEIT: return "time";
    default: return "rules";
    }
}

RecordEnd driver_end_reason_record(EndReason r)
{
    switch (r) {
    case END_PLY_LIMIT: return RECORD_END_PLY_LIMIT;
    case END_REPETITION: return RECORD_END_REPETITION;
    case END_NO_MOVE_CHOSEN: return RECORD_END_NO_MOVE;
    case END_RESIGN: return RECORD_END_RESIGN;
    case END_TIME_FORFEIT: return RECORD_END_TIME;
    default: return RECORD_END_RULES;
    }
}

EndReason driver_end_reason_of_record(RecordEnd e)
{
    switch (e) {
    case RECORD_END_PLY_LIMIT: return END_PLY_LIMIT;
    case RECORD_END_REPETITION: return END_REPETITION;
    case RECORD_END_NO_MOVE: return END_NO_MOVE_CHOSEN;
    case RECORD_END_RESIGN: return END_RESIGN;
    case RECORD_END_TIME: return END_TIME_FORFEIT;
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

/* The clocks of a game: one per side whose player has a time control. */
typedef struct {
    GameClock clock[2];
    bool on[2];
} Clocks;

static void clocks_start(Clocks *c, Player *players[2])
{
    for (int side = 0; side < 2; side++) {
        c->on[side] = time_control_on(&players[side]->tc);
        game_clock_start(&c->clock[side], &players[side]->tc);
    }
}

/* Asks the mover for its move, timed; false when it lost on time (the move is not to be made). */
static bool timed_choose(Player *p, const GameSoFar *h, Clocks *c, int mover, double margin, Move *m,
                         MoveInfo *info)
{
    ClockReading reading;
    *info = MOVE_INFO_INIT;
    if (c->on[mover]) {
        reading = time_control_clock_reading(c->clock, c->on, mover);
        info->clock = &reading;
    }
    double start = clock_seconds();
    *m = p->choose(p, h, info);
    info->seconds = clock_seconds() - start;
    info->clock = NULL;
    if (!c->on[mover])
        return true;
    bool in_time = game_clock_charge(&c->clock[mover], info->seconds, margin);
    info->clock_left = c->clock[mover].left;
    return in_time;
}

bool driver_play_game(const Game *g, const Position *start, Player *players[2], const DrawPolicy *policy, uint64_t seed,
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
    Clocks clocks;
    clocks_start(&clocks, players);
    ResignStreak streak = {WHITE, 0};
    bool ok = true;
    while (!adjudicated(g, &h, policy, &streak, cap, out)) {
        int mover = game_side_to_move(g, &h.now);
        MoveInfo info;
        Move m;
        bool in_time = timed_choose(players[mover], &h, &clocks, mover, policy->time_margin, &m, &info);
        if (!in_time || m == MOVE_NONE || !is_legal(g, &h.now, m, scratch)) {
            out->result = mover == WHITE ? STATUS_BLACK_WINS : STATUS_WHITE_WINS;
            out->reason = in_time ? END_NO_MOVE_CHOSEN : END_TIME_FORFEIT;
            break;
        }
        if (observe)
            observe(observe_ctx, &h.now, m, &info);
        resign_observe(policy, &streak, mover, info.value);
        if (!(ok = game_so_far_play(&h, g, m)))
            break;
    }
    free(scratch);
    for (int side = 0; side < 2; side++)
        out->clock_left[side] = clocks.on[side] ? clocks.clock[side].left : NAN;
    out->plies = h.plies;
    out->moves = h.moves;       /* handed over; the hashes go */
    free(h.hashes);
    if (!ok)
        game_result_free(out);
    return ok;
}
