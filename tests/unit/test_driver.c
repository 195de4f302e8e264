/*
 * test_driver.c - the game driver's adjudication (selfplay/driver.h) with scripted players that
 * play their first legal move and report a value chosen by the test: resign adjudication when
 * both players agree, and not when one disagrees, reports no value, or the option is off; the
 * ply limit; game clocks (a player that overruns its clock loses on time, one within the margin
 * does not, and only clocked players are handed the clocks).
 */
#include "selfplay/driver.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

/* A player that plays its first legal move and reports values[ply % period]. */
typedef struct {
    const double *values;
    int period;
    int calls;
    Move moves[MAX_MOVES];
    double sleep;               /* seconds each move takes */
    int readings;               /* moves that were handed the clocks */
    ClockReading first;         /* the first reading */
} Script;

static Move script_choose(Player *p, const GameSoFar *game, MoveInfo *info)
{
    Script *s = p->ctx;
    if (info->clock && s->readings++ == 0)
        s->first = *info->clock;
    if (s->sleep > 0) {
        struct timespec nap = {(time_t)s->sleep, (long)((s->sleep - floor(s->sleep)) * 1e9)};
        while (nanosleep(&nap, &nap) != 0) {
        }
    }
    info->value = s->values[s->calls++ % s->period];
    return game_gen_moves(p->game, &game->now, s->moves) > 0 ? s->moves[0] : MOVE_NONE;
}

static void script_new_game(Player *p, uint64_t seed)
{
    (void)seed;
    ((Script *)p->ctx)->calls = 0;
}

static void script_destroy(Player *p) { (void)p; }

static void make_script(Player *p, Script *s, const Game *g, const double *values, int period)
{
    *s = (Script){values, period, 0, {0}, 0, 0, {{0, 0}, {0, 0}, 0}};
    *p = (Player){.name = "script", .game = g, .choose = script_choose, .new_game = script_new_game,
                  .destroy = script_destroy, .ctx = s};
}

/* One game between scripted White and Black with the given policy. */
static GameResult play_scripted(const Game *g, const double *white, int nw, const double *black, int nb,
                                const DrawPolicy *policy)
{
    static _Thread_local Script sw, sb;   /* Script holds a move buffer too big for the stack */
    Player pw, pb;
    make_script(&pw, &sw, g, white, nw);
    make_script(&pb, &sb, g, black, nb);
    Player *seats[2] = {&pw, &pb};
    Position start;
    game_start(g, &start);
    GameResult r = {0};
    if (!driver_play_game(g, &start, seats, policy, 1, NULL, NULL, &r))
        r.plies = -1;
    return r;
}

static void test_resign_when_both_agree(TestContext *t)
{
    Game *g = game_new("epaminondas", 0, 0, NULL);
    DrawPolicy policy = {40, false, 3, 0.05, 0};
    static const double lost[] = {0.01}, won[] = {0.99};
    GameResult r = play_scripted(g, lost, 1, won, 1, &policy);
    CHECK(t, r.reason == END_RESIGN);
    CHECK(t, r.result == STATUS_BLACK_WINS);
    CHECK(t, r.plies == 6);
    CHECK_STR(t, driver_end_reason_name(r.reason), "resign");
    game_result_free(&r);
    r = play_scripted(g, won, 1, lost, 1, &policy);
    CHECK(t, r.reason == END_RESIGN);
    CHECK(t, r.result == STATUS_WHITE_WINS);
    CHECK(t, r.plies == 6);
    game_result_free(&r);
    game_free(g);
}

static void test_no_resign_without_agreement(TestContext *t)
{
    Game *g = game_new("epaminondas", 0, 0, NULL);
    DrawPolicy policy = {30, false, 3, 0.05, 0};
    static const double lost[] = {0.01}, won[] = {0.99}, unsure[] = {0.5}, none[] = {NAN};
    static const double lapse[] = {0.99, 0.99, 0.5};   /* Black agrees twice, then doubts */
    const struct {
        const double *white, *black;
        int nb;
    } cases[] = {{lost, unsure, 1}, {lost, none, 1}, {lost, lapse, 3}, {lost, lost, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GameResult r = play_scripted(g, cases[i].white, 1, cases[i].black, cases[i].nb, &policy);
        CHECK(t, r.reason != END_RESIGN);
        game_result_free(&r);
    }
    DrawPolicy off = {30, false, 0, 0.05, 0};
    GameResult r = play_scripted(g, lost, 1, won, 1, &off);
    CHECK(t, r.reason != END_RESIGN);
    game_result_free(&r);
    game_free(g);
}

/* Four agreeing plies, then White doubts at ply 4 (its third move): the count starts again
 * with Black's ply 5, so with N = 3 the adjudication comes after ply 10, 11 plies in all. */
static void test_resign_count_restarts(TestContext *t)
{
    Game *g = game_new("epaminondas", 0, 0, NULL);
    DrawPolicy policy = {40, false, 3, 0.05, 0};
    static const double white[] = {0.01, 0.01, 0.3, 0.01, 0.01, 0.01, 0.01, 0.01}, won[] = {0.99};
    GameResult r = play_scripted(g, white, 8, won, 1, &policy);
    CHECK(t, r.reason == END_RESIGN);
    CHECK(t, r.result == STATUS_BLACK_WINS);
    CHECK(t, r.plies == 11);
    game_result_free(&r);
    game_free(g);
}

static void test_ply_limit(TestContext *t)
{
    Game *g = game_new("epaminondas", 0, 0, NULL);
    DrawPolicy policy = {7, false, 0, 0, 0};
    static const double none[] = {NAN};
    GameResult r = play_scripted(g, none, 1, none, 1, &policy);
    CHECK(t, r.reason == END_PLY_LIMIT);
    CHECK(t, r.result == STATUS_DRAW);
    CHECK(t, r.plies == 7);
    game_result_free(&r);
    game_free(g);
}

/* White on a 0.02 s clock takes 0.1 s a move: it loses on time at once (sleeping takes at least
 * the time asked, so no machine is fast enough to save it); Black, with no clock, is never handed
 * one. */
static void test_time_forfeit(TestContext *t)
{
    Game *g = game_new("crossings", 0, 0, NULL);
    DrawPolicy policy = {20, false, 0, 0, 0};
    static const double none[] = {NAN};
    Player white, black;
    Script ws, bs;
    make_script(&white, &ws, g, none, 1);
    make_script(&black, &bs, g, none, 1);
    ws.sleep = 0.1;
    white.tc = (TimeControl){0.02, 0.01, 0};
    Player *players[2] = {&white, &black};
    Position start;
    game_start(g, &start);
    GameResult r;
    CHECK(t, driver_play_game(g, &start, players, &policy, 1, NULL, NULL, &r));
    CHECK(t, r.reason == END_TIME_FORFEIT);
    CHECK(t, r.result == STATUS_BLACK_WINS);
    CHECK(t, r.plies == 0);
    CHECK(t, r.clock_left[WHITE] < 0);
    CHECK(t, isnan(r.clock_left[BLACK]));
    CHECK(t, ws.readings == 1);
    CHECK(t, ws.first.left[WHITE] == 0.02);
    CHECK(t, ws.first.increment[WHITE] == 0.01);
    CHECK(t, ws.first.left[BLACK] == 0.02);
    CHECK(t, ws.first.moves_to_go == 0);   /* no clock: read as the mover's */
    CHECK(t, bs.readings == 0);
    CHECK(t, strcmp(driver_end_reason_name(r.reason), "time") == 0);
    CHECK(t, driver_end_reason_record(r.reason) == RECORD_END_TIME);
    game_result_free(&r);

    /* The same overrun within a margin of 10 s is forgiven: the clock stops at 0, then gains the
     * increment, and the game goes to its ply limit. */
    policy.time_margin = 10;
    ws.sleep = 0.03;
    policy.max_plies = 4;
    CHECK(t, driver_play_game(g, &start, players, &policy, 1, NULL, NULL, &r));
    CHECK(t, r.reason == END_PLY_LIMIT);
    CHECK(t, r.plies == 4);
    CHECK(t, fabs(r.clock_left[WHITE] - 0.01) < 1e-9);
    game_result_free(&r);
    game_free(g);
}

const TestCase driver_tests[] = {
    {"resign_when_both_agree", test_resign_when_both_agree},
    {"no_resign_without_agreement", test_no_resign_without_agreement},
    {"resign_count_restarts", test_resign_count_restarts},
    {"ply_limit", test_ply_limit},
    {"time_forfeit", test_time_forfeit},
    TEST_END,
};
