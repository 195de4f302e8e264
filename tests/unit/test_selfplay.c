/*
 * test_selfplay.c - one self-play game (selfplay/selfplay_game.c) and the run's settings: a game
 * is a function of its seed; without temperature the most visited move is played; random
 * opening plies carry no search; every searched ply lists its visited moves; the settings text
 * is stable and its comparison names the first differing setting.  Runs, files and resume are
 * tests/cli/selfplay_test.py's.
 */
#include "data/weights.h"
#include "selfplay/selfplay.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* Epaminondas on 5x6 with 20 visits: a game in milliseconds, even under the sanitizers. */
typedef struct {
    Game *game;
    Position start;
    Weights weights;
    SelfplayConfig cfg;
} Setup;

static bool setup(TestContext *t, Setup *s)
{
    Error err = {0};
    s->game = game_new("epaminondas", 5, 6, &err);
    CHECK(t, s->game != NULL);
    if (!s->game)
        return false;
    game_start(s->game, &s->start);
    CHECK(t, weights_default(s->game, &s->weights));
    selfplay_default_config(s->game, &s->cfg);
    s->cfg.visits = 20;
    return true;
}

/* Plays game `index` of the setup's run into *r; false (and a failed check) if it could not. */
static bool play(TestContext *t, const Setup *s, uint64_t index, GameRecord *r)
{
    SelfplayGame *sg = selfplay_game_new(s->game, &s->weights, &s->cfg);
    CHECK(t, sg != NULL);
    bool ok = sg && selfplay_game_play(sg, &s->start, index, selfplay_game_seed(s->cfg.seed, index), r);
    CHECK(t, ok);
    selfplay_game_free(sg);
    return ok;
}

static bool same_game(const GameRecord *a, const GameRecord *b)
{
    if (a->plies != b->plies || a->result != b->result || a->end != b->end || a->num_visits != b->num_visits)
        return false;
    for (int i = 0; i < a->plies; i++)
        if (a->ply[i].move.code != b->ply[i].move.code || a->ply[i].value != b->ply[i].value ||
            a->ply[i].total_visits != b->ply[i].total_visits)
            return false;
    for (size_t i = 0; i < a->num_visits; i++)
        if (a->visit[i].move.code != b->visit[i].move.code || a->visit[i].visits != b->visit[i].visits)
            return false;
    return true;
}

static void test_game_is_a_function_of_its_seed(TestContext *t)
{
    Setup s;
    if (!setup(t, &s))
        return;
    GameRecord a, b, c;
    game_record_init(&a);
    game_record_init(&b);
    game_record_init(&c);
    /* b is played by a player that has played another game first: nothing carries over. */
    SelfplayGame *sg = selfplay_game_new(s.game, &s.weights, &s.cfg);
    CHECK(t, sg != NULL);
    if (sg && play(t, &s, 3, &a) && selfplay_game_play(sg, &s.start, 4, selfplay_game_seed(1, 4), &c) &&
        selfplay_game_play(sg, &s.start, 3, selfplay_game_seed(1, 3), &b)) {
        CHECK(t, same_game(&a, &b));
        CHECK(t, !same_game(&a, &c));
        CHECK_EQ_U64(t, a.index, 3);
        CHECK_EQ_U64(t, a.seed, selfplay_game_seed(1, 3));
        CHECK_STR(t, a.start, "BBBBB/BBBBB/5/5/WWWWW/WWWWW w");
        CHECK(t, a.plies > 0);
        CHECK(t, a.result != STATUS_ONGOING);
    }
    selfplay_game_free(sg);
    game_record_free(&a);
    game_record_free(&b);
    game_record_free(&c);
    game_free(s.game);
}

/* A searched ply: a value, a visit list, fewer listed visits than the total (the root's own
 * first visit is in the total).  Returns whether the played move is the most visited.  (It may
 * not be listed at all: when every visited move is proven to lose, the search prefers one it
 * has not tried.) */
static bool check_searched_ply(TestContext *t, const GameRecord *r, int i)
{
    const RecordPly *p = &r->ply[i];
    CHECK(t, p->value >= 0);
    CHECK(t, p->value <= RECORD_VALUE_SCALE);
    CHECK(t, p->num_visits > 0);
    uint32_t listed = 0, played = 0, most = 0;
    for (uint32_t k = 0; k < p->num_visits; k++) {
        const RecordVisit *v = &r->visit[p->first_visit + k];
        listed += v->visits;
        most = v->visits > most ? v->visits : most;
        played = v->move.code == p->move.code ? v->visits : played;
    }
    CHECK(t, listed < p->total_visits);
    return played == most;
}

/* Without temperature the search's best move is played: the most visited, except where a proven
 * win is preferred or the most visited is proven to lose (rare at the end of a game). */
static void test_no_temperature_plays_the_most_visited(TestContext *t)
{
    Setup s;
    if (!setup(t, &s))
        return;
    s.cfg.temperature = 0;
    GameRecord r;
    game_record_init(&r);
    int plies = 0, most_visited = 0;
    for (uint64_t index = 0; index < 4; index++) {
        if (!play(t, &s, index, &r))
            continue;
        for (int i = 0; i < r.plies; i++, plies++)
            most_visited += check_searched_ply(t, &r, i);
    }
    CHECK(t, plies > 0);
    CHECK(t, most_visited >= plies * 9 / 10);
    game_record_free(&r);
    game_free(s.game);
}

static void test_random_opening_has_no_search(TestContext *t)
{
    Setup s;
    if (!setup(t, &s))
        return;
    s.cfg.random_opening = 3;
    GameRecord r;
    game_record_init(&r);
    if (play(t, &s, 0, &r) && r.plies > 3) {
        for (int i = 0; i < 3; i++)
            CHECK(t, r.ply[i].value == RECORD_NO_VALUE && r.ply[i].num_visits == 0 && r.ply[i].total_visits == 0);
        for (int i = 3; i < r.plies; i++)
            check_searched_ply(t, &r, i);
    }
    game_record_free(&r);
    game_free(s.game);
}

static void test_ply_limit_ends_in_a_draw(TestContext *t)
{
    Setup s;
    if (!setup(t, &s))
        return;
    s.cfg.draw.max_plies = 3;
    GameRecord r;
    game_record_init(&r);
    if (play(t, &s, 0, &r)) {
        CHECK(t, r.plies == 3);
        CHECK(t, r.result == STATUS_DRAW);
        CHECK(t, r.end == RECORD_END_PLY_LIMIT);
    }
    game_record_free(&r);
    game_free(s.game);
}

static void test_settings(TestContext *t)
{
    Setup s;
    if (!setup(t, &s))
        return;
    CHECK(t, selfplay_default_temperature_plies(s.game) == 4);
    char *a = selfplay_settings_text(s.game, &s.start, &s.weights, &s.cfg, "leuctra selfplay --size 5x6");
    char *again = selfplay_settings_text(s.game, &s.start, &s.weights, &s.cfg, "leuctra selfplay --size=5x6");
    s.cfg.noise = 0.1;
    char *b = selfplay_settings_text(s.game, &s.start, &s.weights, &s.cfg, NULL);
    char why[300] = "";
    CHECK(t, a);
    if (a) {
        CHECK(t, again);
        if (again)
            CHECK(t, b);
    }
    if (a && again && b) {
        CHECK(t, strstr(a, "\nvisits=20\n"));
        CHECK(t, strstr(a, "\nnoise=0.25\n"));
        CHECK(t, strstr(a, "\nseed=1\n"));
        CHECK(t, strstr(a, "\ncommand=leuctra selfplay --size 5x6\n") != NULL);
        CHECK(t, selfplay_settings_agree(a, again, why, sizeof why));
        CHECK(t, !selfplay_settings_agree(a, b, why, sizeof why));
        CHECK_STR(t, why, "noise: the file has 0.25, this run 0.1");
        /* a line one side lacks is named as missing, not compared with the line after it */
        CHECK(t, !selfplay_settings_agree("variant=crossings\nvisits=20\n", "visits=20\n", why, sizeof why));
        CHECK_STR(t, why, "variant: the file has crossings, this run no such line");
        CHECK(t, !selfplay_settings_agree("visits=20\n", "variant=crossings\nvisits=20\n", why, sizeof why));
        CHECK_STR(t, why, "variant: the file has no such line, this run crossings");
        CHECK(t, selfplay_settings_agree("a=1\ncommand=x\nb=2\n", "a=1\nb=2\ncommand=y\n", why, sizeof why));
    }
    free(a);
    free(again);
    free(b);
    game_free(s.game);
    Error err = {0};
    Game *big = game_new("epaminondas", 0, 0, &err), *small = game_new("crossings", 0, 0, &err);
    CHECK(t, big);
    if (big)
        CHECK(t, small);
    if (big && small) {
        CHECK(t, selfplay_default_temperature_plies(big) == 20);
        CHECK(t, selfplay_default_temperature_plies(small) == 8);
    }
    game_free(big);
    game_free(small);
}

/* The value of `key=` in a settings text, as a number (NAN when the key is missing). */
static double setting_number(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\n%s=", key);
    const char *at = strstr(text, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : NAN;
}

/* The header describes the search the games were played with: every value it prints is the one
 * selfplay_search_config gives the games' searches (it printed search_threads=1 and the default
 * contempt from code of its own). */
static void test_settings_print_the_search(TestContext *t)
{
    Setup s;
    if (!setup(t, &s))
        return;
    const double cpucts[] = {1.5, 0.7};
    const long visits[] = {20, 3000};
    for (int i = 0; i < 2; i++) {
        s.cfg.c_puct = cpucts[i];
        s.cfg.visits = visits[i];
        const MctsConfig search = selfplay_search_config(&s.cfg);
        char *text = selfplay_settings_text(s.game, &s.start, &s.weights, &s.cfg, NULL);
        CHECK(t, text != NULL);
        if (!text)
            break;
        CHECK(t, setting_number(text, "cpuct") == search.c_puct);
        CHECK(t, setting_number(text, "contempt") == search.contempt);
        CHECK(t, setting_number(text, "search_threads") == search.threads);
        CHECK(t, setting_number(text, "nodes") == (double)search.max_nodes);
        CHECK(t, setting_number(text, "noise") == search.root_noise);
        CHECK(t, setting_number(text, "noise_alpha") == search.noise_alpha);
        CHECK(t, search.c_puct_learned == search.c_puct);
        CHECK(t, search.threads == 1);
        free(text);
    }
    weights_dispose(&s.weights);
    game_free(s.game);
}

const TestCase selfplay_tests[] = {
    {"settings_print_the_search", test_settings_print_the_search},
    {"game_is_a_function_of_its_seed", test_game_is_a_function_of_its_seed},
    {"no_temperature_plays_the_most_visited", test_no_temperature_plays_the_most_visited},
    {"random_opening_has_no_search", test_random_opening_has_no_search},
    {"ply_limit_ends_in_a_draw", test_ply_limit_ends_in_a_draw},
    {"settings", test_settings},
    TEST_END,
};
