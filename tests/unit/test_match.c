/*
 * test_match.c - the match runner as a library (eval/match.h): it plays a small match and hands
 * the result to the report callback, and when a step fails it returns the error (never exits
 * the process, which only the command line may do): a records path that is a folder, a player
 * that cannot be made inside the game loop, openings it cannot find.
 */
#include "eval/match.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int calls;
    int wins, draws, losses;
} Report;

static void count_report(const MatchRun *run, double seconds, void *ctx)
{
    (void)seconds;
    Report *r = ctx;
    MatchTotals t = match_totals(run, 0);
    r->calls++;
    r->wins = t.games.wins;
    r->draws = t.games.draws;
    r->losses = t.games.losses;
}

static MatchOptions small_match(const char *first, const char *second)
{
    MatchOptions o = {.games = 4, .concurrency = 2, .max_plies = 60, .opening_plies = 2, .repetition = true,
                      .seed = 7, .make_visits = 20, .make_low = 0.4, .make_high = 0.6};
    o.spec[0] = first;
    o.spec[1] = second;
    snprintf(o.name[0], sizeof o.name[0], "%s", first);
    snprintf(o.name[1], sizeof o.name[1], "%s", second);
    o.players = 2;
    return o;
}

static void test_match_plays_and_reports(TestContext *t)
{
    Game *g = game_new("crossings", 0, 0, NULL);
    Position start;
    game_start(g, &start);
    OpeningSuite suite;
    openings_init(&suite);
    MatchOptions o = small_match("greedy", "random");
    Report r = {0};
    Error err = {0};
    CHECK(t, match_run(g, &start, &o, &suite, count_report, &r, &err));
    CHECK(t, r.calls == 1);
    CHECK(t, r.wins + r.draws + r.losses == 4);
    game_free(g);
}

static void test_match_returns_errors(TestContext *t)
{
    Game *g = game_new("crossings", 0, 0, NULL);
    Position start;
    game_start(g, &start);
    OpeningSuite suite;
    openings_init(&suite);
    Report r = {0};
    Error err = {0};
    /* The records file is a folder: bad input, reported before any game. */
    MatchOptions o = small_match("greedy", "random");
    o.out_path = "/";
    CHECK(t, !match_run(g, &start, &o, &suite, count_report, &r, &err));
    CHECK(t, !err.failure);
    if (!err.failure) {
        CHECK(t, err.msg[0]);
        if (err.msg[0])
            CHECK(t, r.calls == 0);
    }
    /* A player that fails inside the game loop (its weights file is gone): the run fails. */
    o = small_match("greedy", "greedy:weights=/nonexistent/w.txt");
    err = (Error){0};
    CHECK(t, !match_run(g, &start, &o, &suite, count_report, &r, &err));
    CHECK(t, err.failure);
    if (err.failure) {
        CHECK(t, strstr(err.msg, "/nonexistent/w.txt"));
        CHECK(t, r.calls == 0);
    }
    /* More balanced openings than two plies of a 3x5 board can give. */
    game_free(g);
    g = game_new("crossings", 3, 5, NULL);
    game_start(g, &start);
    char path[] = "/tmp/leuctra-openings-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    o = small_match("greedy", "random");
    o.make_openings = 100;
    o.make_visits = 2;
    o.out_path = path;
    err = (Error){0};
    CHECK(t, !match_make_openings(g, &start, &o, &err));
    CHECK(t, err.failure);
    if (err.failure)
        CHECK(t, strstr(err.msg, "balanced openings"));
    unlink(path);
    game_free(g);
}

/* The whole of a small file, malloc'd (NULL when it cannot be read). */
static char *read_all(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    char *bytes = in ? malloc(1 << 20) : NULL;
    *len = bytes ? fread(bytes, 1, 1 << 20, in) : 0;
    if (in)
        fclose(in);
    return bytes;
}

/* A program's players as search set-ups: their spec text names visits and every option that is
 * not the default (the weights last), and the match they play writes the same records, byte for
 * byte, as the match of those spec strings. */
static void test_match_players_from_setups(TestContext *t)
{
    SearchSetup a, b;
    search_setup_default(&a);
    a.limits.visits = 20;
    search_setup_default(&b);
    b.limits.visits = 10;
    b.mcts.c_puct = b.mcts.c_puct_learned = 1.1;
    b.mcts.seed = 5;
    b.seed_given = true;
    char spec_a[256], spec_b[256];
    player_search_spec(&a, spec_a, sizeof spec_a);
    player_search_spec(&b, spec_b, sizeof spec_b);
    CHECK(t, strcmp(spec_a, "mcts:visits=20") == 0);
    CHECK(t, strcmp(spec_b, "mcts:visits=10,cpuct=1.1,seed=5") == 0);
    snprintf(a.eval_path, sizeof a.eval_path, "run/gen1/weights.lwt");
    player_search_spec(&a, spec_a, sizeof spec_a);
    CHECK(t, strcmp(spec_a, "mcts:visits=20,weights=run/gen1/weights.lwt") == 0);
    a.eval_path[0] = '\0';
    player_search_spec(&a, spec_a, sizeof spec_a);
    Game *g = game_new("crossings", 5, 6, NULL);
    Position start;
    game_start(g, &start);
    OpeningSuite suite;
    openings_init(&suite);
    char dir[] = "/tmp/leuctra-match-setups-XXXXXX", path[2][64];
    CHECK(t, mkdtemp(dir) != NULL);
    for (int k = 0; k < 2; k++) {
        snprintf(path[k], sizeof path[k], "%s/%s.lrec", dir, k ? "setups" : "specs");
        MatchOptions o = small_match(spec_a, spec_b);
        if (k) {
            o.spec[0] = o.spec[1] = NULL;
            o.setup[0] = &a;
            o.setup[1] = &b;
        }
        o.out_path = path[k];
        Report r = {0};
        Error err = {0};
        CHECK(t, match_run(g, &start, &o, &suite, count_report, &r, &err));
    }
    size_t n[2];
    char *bytes[2] = {read_all(path[0], &n[0]), read_all(path[1], &n[1])};
    CHECK(t, bytes[0]);
    if (bytes[0]) {
        CHECK(t, bytes[1]);
        if (bytes[1]) {
            CHECK(t, n[0] > 0);
            if (n[0] > 0) {
                CHECK(t, n[0] == n[1]);
                if (n[0] == n[1])
                    CHECK(t, memcmp(bytes[0], bytes[1], n[0]) == 0);
            }
        }
    }
    free(bytes[0]);
    free(bytes[1]);
    unlink(path[0]);
    unlink(path[1]);
    rmdir(dir);
    /* A set-up with no limit at all is refused, not searched forever. */
    a.limits.visits = 0;
    Error err = {0};
    CHECK(t, player_create_search(g, &a, &err) == NULL && strstr(err.msg, "limit"));
    game_free(g);
}

const TestCase match_tests[] = {
    {"plays_and_reports", test_match_plays_and_reports},
    {"returns_errors", test_match_returns_errors},
    {"players_from_setups", test_match_players_from_setups},
    {NULL, NULL},
};
