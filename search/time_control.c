/*
 * time_control.c - time controls, game clocks, move budgets and the early stop (see
 * time_control.h).
 */
#include "time_control.h"

#include "core/clock.h"
#include "core/number.h"
#include "core/solve.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* --- time controls ----------------------------------------------------------------------------- */

/* The n bytes at s as a whole number from min to max. */
static bool read_count(const char *s, size_t n, long long min, long long max, long long *out)
{
    char text[32];
    if (n == 0 || n >= sizeof text)
        return false;
    memcpy(text, s, n);
    text[n] = '\0';
    return number_read_integer(text, min, max, out) == NUMBER_OK;
}

/* Seconds written as a decimal or as M:SS (minutes, then seconds below 60). */
static bool read_seconds(const char *s, size_t n, double *out)
{
    const char *colon = memchr(s, ':', n);
    long long minutes = 0;
    double seconds;
    if (colon) {
        size_t k = (size_t)(colon - s);
        if (!read_count(s, k, 0, 100000, &minutes) || k + 1 == n)
            return false;
        n -= k + 1;
        s = colon + 1;
    }
    if (number_parse_decimal(s, n, &seconds) != NUMBER_OK || seconds < 0 || (colon && seconds >= 60))
        return false;
    *out = (double)minutes * 60 + seconds;
    return true;
}

/* MOVES/ SECONDS +INC, each part checked. */
static bool read_time_control(const char *text, TimeControl *tc)
{
    const char *slash = strchr(text, '/'), *body = slash ? slash + 1 : text;
    long long moves = 0;
    if (slash && !read_count(text, (size_t)(slash - text), 1, 10000, &moves))
        return false;
    tc->moves = (int)moves;
    const char *plus = strchr(body, '+');
    size_t base_len = plus ? (size_t)(plus - body) : strlen(body);
    tc->increment = 0;
    return read_seconds(body, base_len, &tc->seconds) && tc->seconds > 0 && tc->seconds <= 1e6 &&
           (!plus || (read_seconds(plus + 1, strlen(plus + 1), &tc->increment) && tc->increment <= 1e4));
}

bool time_control_parse(const char *text, TimeControl *out, Error *err)
{
    TimeControl tc;
    if (read_time_control(text, &tc)) {
        *out = tc;
        return true;
    }
    error_set(err, "time control '%.40s': expected SECONDS[+INC] or MOVES/SECONDS[+INC] (e.g. 10+0.1, 40/60+0.5; "
              "SECONDS > 0, also M:SS)", text);
    return false;
}

void time_control_format(const TimeControl *tc, char *buf, size_t len)
{
    if (!time_control_on(tc)) {
        snprintf(buf, len, "-");
        return;
    }
    int n = tc->moves ? snprintf(buf, len, "%d/", tc->moves) : 0;
    if (n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "%g", tc->seconds);
    if (tc->increment > 0 && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "+%g", tc->increment);
}

/* --- game clocks ------------------------------------------------------------------------------- */

void game_clock_start(GameClock *c, const TimeControl *tc)
{
    c->tc = *tc;
    c->left = tc->seconds;
    c->moves = 0;
}

int game_clock_moves_to_go(const GameClock *c)
{
    return c->tc.moves ? c->tc.moves - c->moves % c->tc.moves : 0;
}

bool game_clock_charge(GameClock *c, double used, double margin)
{
    c->left -= used;
    if (c->left < -margin)
        return false;
    if (c->left < 0)
        c->left = 0;
    c->left += c->tc.increment;
    c->moves++;
    if (c->tc.moves && c->moves % c->tc.moves == 0)
        c->left += c->tc.seconds;
    return true;
}

ClockReading time_control_clock_reading(const GameClock clocks[2], const bool on[2], int mover)
{
    ClockReading r = {{0, 0}, {0, 0}, game_clock_moves_to_go(&clocks[mover])};
    for (int side = 0; side < 2; side++) {
        const GameClock *c = on[side] ? &clocks[side] : &clocks[mover];
        r.left[side] = c->left;
        r.increment[side] = c->tc.increment;
    }
    return r;
}

/* --- budgets ----------------------------------------------------------------------------------- */

/* A phalanx game's typical length in plies on its default board, and the fewest moves a side is
 * ever budgeted for: 40 games each of mcts 1,000 visits against itself from the shipped suites
 * (2026-12, docs/BENCHMARKS.md "Clocks") lasted 9-67 plies in Crossings (median 29) and 32-600
 * in Epaminondas (median 146); Igfip lies between.  Long tails, so generous floors: a side that
 * plays on past the typical length lives on its increment and a tenth of what it has left. */
typedef struct {
    Variant variant;
    int plies, floor;
} TypicalLength;

static const TypicalLength typical_lengths[] = {
    {VARIANT_CROSSINGS, 28, 8},
    {VARIANT_EPAMINONDAS, 120, 25},
    {VARIANT_IGFIP, 80, 15},
};

/* Reversi's empties below which the root is solved, and its moves cost next to nothing
 * (mcts.h's default rootsolve is 18; a few moves of margin). */
enum { REVERSI_FREE_EMPTIES = 12, REVERSI_FLOOR = 3 };

int time_control_moves_left(const Game *g, const Position *pos, int plies_played)
{
    if (g->variant == VARIANT_REVERSI) {
        int moves = (solve_empties(g, pos) - REVERSI_FREE_EMPTIES) / 2;
        return moves > REVERSI_FLOOR ? moves : REVERSI_FLOOR;
    }
    TypicalLength t = {g->variant, 60, 15};
    for (size_t i = 0; i < sizeof typical_lengths / sizeof typical_lengths[0]; i++)
        if (typical_lengths[i].variant == g->variant)
            t = typical_lengths[i];
    /* Other boards: a typical length in proportion to the squares (14x12 and 8x8 are the defaults). */
    double area = (double)g->width * g->height, usual = g->variant == VARIANT_CROSSINGS ? 64 : 168;
    int typical = (int)lround(t.plies * area / usual);
    int moves = (typical - plies_played) / 2;
    return moves > t.floor ? moves : t.floor;
}

/* The stretch past the target a move may take, and the share of what is left it may never pass. */
#define BUDGET_STRETCH 3.0
#define BUDGET_MAX_SHARE 0.5
#define BUDGET_LAST_MOVE_SHARE 0.8
/* A reserve in proportion to the clock, on top of the fixed overhead; and a few increments kept
 * back, so that a clock living on its increment never runs down to the overhead: at 10+0.1 it had
 * settled at about 0.2 s, and on a machine at load 10 a move was once held up 0.2 s past its
 * budget and lost on time (2 of 156 Epaminondas games, docs/BENCHMARKS.md). */
#define BUDGET_RESERVE 0.02
#define BUDGET_KEEP_INCREMENTS 3.0
/* The least budget: a search needs a moment to find a move at all (never more than a quarter of
 * what is left, so that even this cannot run a clock out). */
#define BUDGET_LEAST 0.001

TimeBudget time_control_budget(const ClockReading *r, int mover, int moves_left, double overhead)
{
    double left = fmax(r->left[mover], 0), inc = r->increment[mover];
    int horizon = moves_left > 0 ? moves_left : 1;
    if (r->moves_to_go > 0 && r->moves_to_go < horizon)
        horizon = r->moves_to_go;
    /* Short of time, the overhead cannot be kept back in full: half of what is left is usable. */
    double usable = fmax(left - overhead - BUDGET_RESERVE * left - BUDGET_KEEP_INCREMENTS * inc, 0.5 * left);
    double target = (usable + inc * (horizon - 1)) / horizon;
    double max = horizon == 1 ? BUDGET_LAST_MOVE_SHARE * usable
                              : fmin(BUDGET_STRETCH * target, BUDGET_MAX_SHARE * usable);
    double least = fmin(BUDGET_LEAST, 0.25 * left);
    max = fmax(max, least);
    target = fmax(fmin(target, max), least);
    return (TimeBudget){target, max};
}

/* --- the timer of one move --------------------------------------------------------------------- */

void time_control_timer_start(MoveTimer *t, TimeBudget budget, double start, atomic_bool *stop)
{
    t->budget = budget;
    t->start = start;
    t->stop = stop;
    atomic_store(stop, false);
}

MctsLimits time_control_timer_limits(const MoveTimer *t, long visits)
{
    double left = t->budget.max - (clock_seconds() - t->start);
    return (MctsLimits){visits, fmax(left, BUDGET_LEAST)};
}

/* The share of the target after which the visit rate is trusted to predict the rest. */
#define EARLY_STOP_AFTER 0.5

void time_control_timer_check(const MctsResult *so_far, void *timer)
{
    MoveTimer *t = timer;
    double elapsed = clock_seconds() - t->start;
    bool over = elapsed >= t->budget.max || so_far->num_stats < 2;
    if (!over) {
        const MoveStat *best = &so_far->stats[0], *second = &so_far->stats[1];
        if (elapsed >= t->budget.target) {
            /* Past the target only while the most visited move is not the best valued one: the
             * search is changing its mind and the extra time may let it. */
            over = !(second->value > best->value) || best->proven == PROVEN_WIN;
        } else if (elapsed >= EARLY_STOP_AFTER * t->budget.target && so_far->visits > 0) {
            double rate = so_far->visits / fmax(so_far->seconds, 1e-6);
            double still = rate * (t->budget.target - elapsed);
            over = (double)(best->visits - second->visits) > still;
        }
    }
    if (over)
        atomic_store(t->stop, true);
}
