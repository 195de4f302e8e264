/*
 * test_time_control.c - time controls, game clocks, move budgets and the early stop
 * (search/time_control.h): the written forms read back, bad ones refused; periods and
 * increments on the clock; a budget that cannot flag even when every move takes its maximum;
 * the phase estimate; and each rule of the early stop on hand-made search results.
 */
#include "search/time_control.h"
#include "core/clock.h"
#include "test.h"

#include <math.h>

static void test_parse(TestContext *t)
{
    struct { const char *text; double seconds, increment; int moves; const char *back; } good[] = {
        {"10+0.1", 10, 0.1, 0, "10+0.1"}, {"40/60+0.5", 60, 0.5, 40, "40/60+0.5"}, {"60", 60, 0, 0, "60"},
        {"1:30+1", 90, 1, 0, "90+1"}, {"40/10", 10, 0, 40, "40/10"}, {"0.5+0", 0.5, 0, 0, "0.5"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        TimeControl tc;
        Error err;
        char back[48];
        CHECK(t, time_control_parse(good[i].text, &tc, &err));
        CHECK(t, tc.seconds == good[i].seconds);
        CHECK(t, tc.increment == good[i].increment);
        CHECK(t, tc.moves == good[i].moves);
        time_control_format(&tc, back, sizeof back);
        CHECK_STR(t, back, good[i].back);
    }
    const char *bad[] = {"", "abc", "0", "10+", "/10", "40/", "1:75", "-5", "10+-1", "0/10", "10+0.1x", "1e999",
                         "40/10/5", ":30"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TimeControl tc;
        Error err = {0};
        CHECK(t, !time_control_parse(bad[i], &tc, &err) && strstr(err.msg, "time control"));
    }
    TimeControl none = {0, 0, 0};
    char text[8];
    time_control_format(&none, text, sizeof text);
    CHECK_STR(t, text, "-");
    CHECK(t, !time_control_on(&none));
}

static void test_clock(TestContext *t)
{
    GameClock c;
    game_clock_start(&c, &(TimeControl){10, 1, 2});
    CHECK(t, c.left == 10);
    CHECK(t, game_clock_moves_to_go(&c) == 2);
    CHECK(t, game_clock_charge(&c, 3, 0) && c.left == 8 && game_clock_moves_to_go(&c) == 1);
    CHECK(t, game_clock_charge(&c, 3, 0) && c.left == 16 && game_clock_moves_to_go(&c) == 2);  /* a new period */
    CHECK(t, !game_clock_charge(&c, 20, 0) && c.left < 0);
    game_clock_start(&c, &(TimeControl){1, 0.5, 0});
    CHECK(t, game_clock_charge(&c, 1.5, 1) && c.left == 0.5 && game_clock_moves_to_go(&c) == 0);  /* forgiven */
    CHECK(t, !game_clock_charge(&c, 1.6, 1));
    GameClock two[2];
    game_clock_start(&two[WHITE], &(TimeControl){5, 0.1, 0});
    game_clock_start(&two[BLACK], &(TimeControl){0, 0, 0});
    ClockReading r = time_control_clock_reading(two, (const bool[2]){true, false}, WHITE);
    CHECK(t, r.left[WHITE] == 5);
    CHECK(t, r.left[BLACK] == 5);
    CHECK(t, r.increment[BLACK] == 0.1);
    CHECK(t, r.moves_to_go == 0);
}

/* A clock that every move drains by its maximum never runs out; one drained by the target lasts
 * the horizon with time to spare, and uses most of it. */
static void test_budget(TestContext *t)
{
    const double incs[] = {0, 0.01, 0.1, 2};
    const int horizons[] = {1, 2, 10, 40};
    for (size_t i = 0; i < 4; i++) {
        for (size_t h = 0; h < 4; h++) {
            ClockReading r = {{10, 10}, {incs[i], incs[i]}, 0};
            for (int move = 0; move < 300; move++) {
                TimeBudget b = time_control_budget(&r, BLACK, horizons[h], TIME_DEFAULT_OVERHEAD);
                CHECK(t, b.target > 0);
                CHECK(t, b.target <= b.max);
                CHECK(t, b.max < r.left[BLACK]);
                r.left[BLACK] += incs[i] - b.max;
                if (r.left[BLACK] <= 0) {
                    CHECK(t, r.left[BLACK] > 0);
                    break;
                }
            }
        }
    }
    ClockReading r = {{60, 60}, {0.5, 0.5}, 0};
    double used = 0;
    for (int moves_left = 30; moves_left > 0; moves_left--) {
        TimeBudget b = time_control_budget(&r, WHITE, moves_left, TIME_DEFAULT_OVERHEAD);
        used += b.target;
        r.left[WHITE] += 0.5 - b.target;
        CHECK(t, r.left[WHITE] > 0);
    }
    CHECK(t, used > 0.9 * (60 + 30 * 0.5));
    /* With moves to go, the share is of the period's time. */
    ClockReading period = {{10, 10}, {0, 0}, 5};
    TimeBudget b = time_control_budget(&period, WHITE, 40, 0);
    CHECK(t, fabs(b.target - 10 * 0.98 / 5) < 1e-9);
    period.moves_to_go = 1;
    b = time_control_budget(&period, WHITE, 40, 0);
    CHECK(t, b.max < 10);
    CHECK(t, b.max >= 0.7 * 10);
}

static void test_moves_left(TestContext *t)
{
    Game *reversi = game_new("reversi", 0, 0, NULL), *crossings = game_new("crossings", 0, 0, NULL);
    Position p;
    game_start(reversi, &p);
    CHECK(t, time_control_moves_left(reversi, &p, 0) == 24);
    game_start(crossings, &p);
    CHECK(t, time_control_moves_left(crossings, &p, 0) == 14);
    CHECK(t, time_control_moves_left(crossings, &p, 300) == 8);     /* never below the floor */
    game_free(reversi);
    game_free(crossings);
}

/* A result with the given visits and values of the two most visited root moves. */
static MctsResult result_of(int moves, long best_visits, double best_value, long second_visits, double second_value,
                            long visits, double seconds)
{
    MctsResult r;
    memset(&r, 0, sizeof r);
    r.num_stats = moves;
    r.stats[0] = (MoveStat){.move = 1, .visits = best_visits, .prior = 0.5, .value = best_value};
    r.stats[1] = (MoveStat){.move = 2, .visits = second_visits, .prior = 0.5, .value = second_value};
    r.visits = visits;
    r.seconds = seconds;
    return r;
}

/* A timer for a move that began `ago` seconds ago; returns whether the check stops it. */
static bool stops(TimeBudget budget, double ago, const MctsResult *r)
{
    atomic_bool stop;
    MoveTimer timer;
    time_control_timer_start(&timer, budget, clock_seconds() - ago, &stop);
    time_control_timer_check(r, &timer);
    return atomic_load(&stop);
}

static void test_early_stop(TestContext *t)
{
    TimeBudget b = {10, 30};
    MctsResult one = result_of(1, 100, 0.5, 0, NAN, 100, 0.1);
    CHECK(t, stops(b, 0.1, &one));                          /* one legal move: at once */
    MctsResult close = result_of(30, 1000, 0.55, 900, 0.5, 2000, 1);
    CHECK(t, !stops(b, 1, &close));                         /* early, and the moves are close */
    CHECK(t, !stops(b, 6, &close));                         /* 60% in, 100 ahead, ~10,000 still to come */
    MctsResult ahead = result_of(30, 20000, 0.55, 1000, 0.5, 21000, 6);
    CHECK(t, stops(b, 6, &ahead));                          /* 19,000 ahead, ~14,000 still to come */
    CHECK(t, !stops(b, 2, &ahead));                         /* before half the target: the rate is not trusted */
    CHECK(t, stops(b, 11, &close));                         /* past the target, most visited = best valued */
    MctsResult doubt = result_of(30, 1000, 0.5, 900, 0.6, 2000, 11);
    CHECK(t, !stops(b, 11, &doubt));                        /* past the target but changing its mind */
    CHECK(t, stops(b, 31, &doubt));                         /* past the max */
    MctsLimits limits;
    MoveTimer timer;
    atomic_bool stop;
    time_control_timer_start(&timer, b, clock_seconds() - 5, &stop);
    limits = time_control_timer_limits(&timer, 123);
    CHECK(t, limits.visits == 123);
    CHECK(t, limits.seconds > 24);
    CHECK(t, limits.seconds <= 25);
}

const TestCase time_control_tests[] = {
    {"parse", test_parse},
    {"clock", test_clock},
    {"budget", test_budget},
    {"moves_left", test_moves_left},
    {"early_stop", test_early_stop},
    TEST_END,
};
