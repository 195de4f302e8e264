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

/* A game being played (driver.h): the game so far, the adjudication's state and, once it has
 * ended, how. */
struct DriverGame {
    const Game *game;
    const DrawPolicy *policy;
    Player *players[2];
    MoveObserver observe;
    void *observe_ctx;
    int cap;                /* the ply limit (or a bound where the policy has none) */
    GameSoFar played;
    Move *scratch;
    Clocks clocks;
    ResignStreak streak;
    bool ended;
    GameResult result;      /* once ended: result and reason */
};

DriverGame *driver_game_begin(const Game *g, const Position *start, Player *players[2], const DrawPolicy *policy,
                              uint64_t seed, MoveObserver observe, void *observe_ctx)
{
    DriverGame *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    *d = (DriverGame){.game = g, .policy = policy, .players = {players[0], players[1]}, .observe = observe,
                      .observe_ctx = observe_ctx, .cap = policy->max_plies > 0 ? policy->max_plies : 4096};
    d->scratch = malloc(MAX_MOVES * sizeof *d->scratch);
    d->streak = (ResignStreak){WHITE, 0};
    if (!d->scratch || !game_so_far_begin(&d->played, g, start)) {
        free(d->scratch);
        game_so_far_free(&d->played);
        free(d);
        return NULL;
    }
    for (int c = 0; c < 2; c++)
        players[c]->new_game(players[c], rng_seed(seed, (uint64_t)c).s[0]);
    clocks_start(&d->clocks, players);
    return d;
}

const GameSoFar *driver_game_so_far(const DriverGame *d) { return &d->played; }

bool driver_game_ended(DriverGame *d)
{
    if (!d->ended)
        d->ended = adjudicated(d->game, &d->played, d->policy, &d->streak, d->cap, &d->result);
    return d->ended;
}

bool driver_game_step(DriverGame *d)
{
    const Game *g = d->game;
    int mover = game_side_to_move(g, &d->played.now);
    MoveInfo info;
    Move m;
    bool in_time = timed_choose(d->players[mover], &d->played, &d->clocks, mover, d->policy->time_margin, &m, &info);
    if (!in_time || m == MOVE_NONE || !is_legal(g, &d->played.now, m, d->scratch)) {
        d->result.result = mover == WHITE ? STATUS_BLACK_WINS : STATUS_WHITE_WINS;
        d->result.reason = in_time ? END_NO_MOVE_CHOSEN : END_TIME_FORFEIT;
        d->ended = true;
        return true;
    }
    if (d->observe)
        d->observe(d->observe_ctx, &d->played.now, m, &info);
    resign_observe(d->policy, &d->streak, mover, info.value);
    return game_so_far_play(&d->played, g, m);
}

void driver_game_finish(DriverGame *d, GameResult *out)
{
    *out = d->result;
    for (int side = 0; side < 2; side++)
        out->clock_left[side] = d->clocks.on[side] ? d->clocks.clock[side].left : NAN;
    out->plies = d->played.plies;
    out->moves = d->played.moves;       /* handed over; the hashes go */
    free(d->played.hashes);
    free(d->scratch);
    free(d);
}

void driver_game_abandon(DriverGame *d)
{
    if (!d)
        return;
    game_so_far_free(&d->played);
    free(d->scratch);
    free(d);
}

bool driver_play_game(const Game *g, const Position *start, Player *players[2], const DrawPolicy *policy, uint64_t seed,
               MoveObserver observe, void *observe_ctx, GameResult *out)
{
    out->moves = NULL;
    DriverGame *d = driver_game_begin(g, start, players, policy, seed, observe, observe_ctx);
    if (!d)
        return false;
    while (!driver_game_ended(d))
        if (!driver_game_step(d)) {
            driver_game_abandon(d);
            return false;
        }
    driver_game_finish(d, out);
    return true;
}
