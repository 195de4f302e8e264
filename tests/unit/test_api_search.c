/*
 * test_api_search.c - searches and self-play whose leaves the caller's evaluator judges (the C
 * API's lt_search_batched and lt_selfplay, api/api_evaluate.c's bridge, selfplay_lockstep.c):
 * with leuctra's own evaluation passed through the evaluator, a search is lt_game_search's and
 * a self-play file `leuctra selfplay`'s, byte for byte; an evaluator that fails or answers out
 * of range stops the search with its status and one line; options a search through an evaluator
 * cannot take are refused.  tests/python/callback_test.py does the same through Python.
 */
#include "test.h"
#include "api/api_internal.h"
#include "data/weights.h"
#include "selfplay/selfplay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool one_line(const char *msg) { return msg[0] && !strchr(msg, '\n'); }

/* An evaluator that answers as leuctra's own evaluation, counting its calls and leaves. */
typedef struct {
    int calls, leaves;
} Counts;

static int evaluate_own(void *ctx, int n, const uint8_t *planes, const int32_t *legal_start, const int32_t *legal,
                        double *values, float *policy, const LtLeaves *leaves)
{
    (void)planes, (void)legal_start, (void)legal;
    Counts *c = ctx;
    if (c)
        c->calls++, c->leaves += n;
    return lt_leaves_evaluate(leaves, values, policy, NULL, 0);
}

/* A search result's JSON without its times (the one thing two equal searches differ in). */
static void drop_times(char *json)
{
    static const char *const keys[] = {"\"seconds\": ", "\"setup_seconds\": "};
    for (size_t k = 0; k < 2; k++)
        for (char *at = strstr(json, keys[k]); at; at = strstr(at + 1, keys[k])) {
            char *value = at + strlen(keys[k]), *end = value + strcspn(value, ",}");
            memmove(value, end, strlen(end) + 1);
        }
}

/* Crossings games some plies in (one of them with moves to repeat), as LtGames. */
static int make_games(LtGame **games, int n)
{
    static const char *const lines[] = {"", "a2-a3", "a2-a3 a7-a6", "b2-b3 b7-b6 b3-b2 b6-b7"};
    char err[256];
    for (int i = 0; i < n; i++) {
        games[i] = lt_game_new("crossings", NULL, NULL, err, sizeof err);
        char moves[64];
        snprintf(moves, sizeof moves, "%s", lines[i % 4]);
        for (char *m = strtok(moves, " "); games[i] && m; m = strtok(NULL, " "))
            if (lt_game_play(games[i], m, err, sizeof err) != LT_OK)
                return i;
    }
    return n;
}

/* With batch 1, and with one leaf of each game per call, each search through the evaluator is
 * lt_game_search's: the same JSON but for the times (best, value, pv, every move's visits,
 * prior and value, nodes). */
static void test_search_through_evaluator(TestContext *t)
{
    enum { GAMES = 4 };
    LtGame *games[GAMES];
    CHECK(t, make_games(games, GAMES) == GAMES);
    const char *names[] = {"visits", "seed"}, *values[] = {"300", "5"};
    const size_t json_len = 1 << 20;
    char *want = malloc(json_len), *got = malloc(json_len), err[512];
    static const int batches[] = {1, GAMES};
    for (size_t b = 0; b < 2; b++) {
        Counts counts = {0, 0};
        int32_t start[GAMES + 1], actions[1024], visits[1024], best[GAMES];
        double root_values[GAMES];
        int status = lt_search_batched(games, GAMES, 2, names, values, batches[b], evaluate_own, &counts, start,
                                       actions, visits, 1024, root_values, best, got, json_len, err, sizeof err);
        CHECK(t, status == LT_OK);
        if (status != LT_OK) {
            fprintf(stderr, "  %s\n", err);
            break;
        }
        CHECK(t, b == 0 ? counts.calls == counts.leaves : counts.calls * 2 < counts.leaves);
        /* the JSON list's objects, one by one, against lt_game_search's */
        char *object = got + 1;
        for (int i = 0; i < GAMES; i++) {
            CHECK(t, lt_game_search(games[i], 2, names, values, want, json_len, err, sizeof err) == LT_OK);
            char *end = strstr(object, "]}, {\"best\"");
            size_t len = end ? (size_t)(end - object) + 2 : strlen(object) - 1;
            char saved = object[len];
            object[len] = '\0';
            drop_times(want);
            char *mine = strdup(object);
            drop_times(mine);
            if (strcmp(mine, want) != 0)
                fprintf(stderr, "  batch %d, game %d differs:\n  %.300s\n  %.300s\n", batches[b], i, mine, want);
            CHECK(t, strcmp(mine, want) == 0);
            free(mine);
            object[len] = saved;
            object += len + 2;
            /* the export's layout: ascending actions, visits summing to the search's */
            long sum = 0;
            for (int32_t k = start[i]; k < start[i + 1]; k++) {
                sum += visits[k];
                CHECK(t, k == start[i] || actions[k - 1] < actions[k]);
            }
            CHECK(t, sum == 300);
            if (sum == 300) {
                CHECK(t, best[i] >= 0);
                CHECK(t, root_values[i] > 0);
                CHECK(t, root_values[i] < 1);
            }
        }
    }
    for (int i = 0; i < GAMES; i++)
        lt_game_free(games[i]);
    free(want);
    free(got);
}

/* Evaluators that fail, answer out of range or leave an answer out. */
typedef enum { FAIL_RETURN, FAIL_VALUE, FAIL_NEGATIVE, FAIL_NAN_POLICY, FAIL_UNWRITTEN } Failure;

typedef struct {
    Failure how;
    int calls;
} Bad;

static int evaluate_bad(void *ctx, int n, const uint8_t *planes, const int32_t *legal_start, const int32_t *legal,
                        double *values, float *policy, const LtLeaves *leaves)
{
    Bad *b = ctx;
    b->calls++;
    evaluate_own(NULL, n, planes, legal_start, legal, values, policy, leaves);
    switch (b->how) {
    case FAIL_RETURN: return 7;
    case FAIL_VALUE: values[n - 1] = 1.5; break;
    case FAIL_NEGATIVE: policy[legal_start[n] - 1] = -0.25f; break;
    case FAIL_NAN_POLICY: policy[0] = NAN; break;
    case FAIL_UNWRITTEN: values[0] = NAN; break;
    }
    return 0;
}

static void test_evaluator_failures(TestContext *t)
{
    LtGame *game;
    CHECK(t, make_games(&game, 1) == 1);
    const char *names[] = {"visits"}, *values[] = {"200"};
    static const struct {
        Failure how;
        int status;
        const char *says;
    } cases[] = {
        {FAIL_RETURN, LT_ERR_FAILED, "returned 7"}, {FAIL_VALUE, LT_ERR_INPUT, "value 1.5"},
        {FAIL_NEGATIVE, LT_ERR_INPUT, "-0.25"}, {FAIL_NAN_POLICY, LT_ERR_INPUT, "nan"},
        {FAIL_UNWRITTEN, LT_ERR_INPUT, "value nan"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Bad bad = {cases[i].how, 0};
        char err[512] = "";
        int status = lt_search_batched(&game, 1, 1, names, values, 8, evaluate_bad, &bad, NULL, NULL, NULL, 0, NULL,
                                       NULL, NULL, 0, err, sizeof err);
        CHECK(t, status == cases[i].status);
        if (status == cases[i].status) {
            CHECK(t, bad.calls == 1);
            if (bad.calls == 1)
                CHECK(t, one_line(err) && strstr(err, cases[i].says));
        }
        if (!strstr(err, cases[i].says))
            fprintf(stderr, "  case %zu: %s\n", i, err);
    }
    lt_game_free(game);
}

/* What a search through an evaluator refuses, with one line each. */
static void test_refused(TestContext *t)
{
    LtGame *games[2];
    char err[512];
    CHECK(t, make_games(games, 1) == 1);
    games[1] = lt_game_new("epaminondas", NULL, NULL, err, sizeof err);
    static const char *const bad[][2] = {
        {"threads", "2"}, {"time", "1"}, {"playouts", "true"}, {"visits", "0"}, {"cpuct", "-1"}, {"colour", "w"},
        {"weights", "/no/such/file.lwt"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        int status = lt_search_batched(games, 1, 1, &bad[i][0], &bad[i][1], 1, evaluate_own, NULL, NULL, NULL, NULL,
                                       0, NULL, NULL, NULL, 0, err, sizeof err);
        CHECK(t, status == LT_ERR_INPUT);
        if (status == LT_ERR_INPUT)
            CHECK(t, one_line(err));
    }
    CHECK(t, lt_search_batched(games, 2, 0, NULL, NULL, 1, evaluate_own, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL,
                               0, err, sizeof err) == LT_ERR_INPUT && strstr(err, "one variant"));
    CHECK(t, lt_search_batched(games, 1, 0, NULL, NULL, 0, evaluate_own, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL,
                               0, err, sizeof err) == LT_ERR_INPUT && strstr(err, "batch"));
    CHECK(t, lt_search_batched(games, 1, 0, NULL, NULL, 1, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, 0, err,
                               sizeof err) == LT_ERR_INPUT);
    CHECK(t, lt_search_batched(games, 0, 0, NULL, NULL, 1, evaluate_own, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL,
                               0, err, sizeof err) == LT_ERR_INPUT);
    int32_t start[2], actions[4], visits[4];
    const char *names[] = {"visits"}, *values[] = {"20"};
    CHECK(t, lt_search_batched(games, 1, 1, names, values, 1, evaluate_own, NULL, start, actions, visits, 4, NULL,
                               NULL, NULL, 0, err, sizeof err) == LT_ERR_INPUT && strstr(err, "hold 4"));
    char small[16];
    CHECK(t, lt_search_batched(games, 1, 1, names, values, 1, evaluate_own, NULL, NULL, NULL, NULL, 0, NULL, NULL,
                               small, sizeof small, err, sizeof err) == LT_ERR_INPUT && strstr(err, "JSON"));
    lt_game_free(games[0]);
    lt_game_free(games[1]);
}

/* --- self-play ------------------------------------------------------------------------------------ */

typedef struct {
    char dir[256];
} TempDir;

static bool temp_dir(TempDir *d)
{
    const char *base = getenv("TMPDIR");
    snprintf(d->dir, sizeof d->dir, "%s/leuctra-api-search-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(d->dir) != NULL;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *bytes = malloc(*len + 1);
    if (bytes && fread(bytes, 1, *len, f) != *len) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    return bytes;
}

/* A run of the settings in s into path: the weights' own (evaluator NULL) or through one. */
/* A self-play run: `games` games of cfg into path, the weights' own (evaluator NULL) or through one. */
static bool run_selfplay(const Game *g, const Position *start, const Weights *w, const SelfplayConfig *cfg,
                         const char *settings, const char *path, uint64_t games, const SelfplayEvaluator *evaluator,
                         Error *err)
{
    const SelfplayRun run = {.game = g, .start = start, .weights = w, .config = cfg, .settings = settings,
                             .path = path, .games = games, .threads = 1, .evaluator = evaluator};
    SelfplayProgress progress;
    return selfplay_run(&run, &progress, err) && progress.played == games;
}

/* Runs of one setting: leuctra selfplay's, and through the evaluator in two shapes; the same bytes. */
static void compare_runs(TestContext *t, const char *dir, const char *variant, int width, int height, long visits,
                         uint64_t seed, uint64_t games)
{
    Error err = {0};
    Game *g = game_new(variant, width, height, &err);
    Weights w;
    CHECK(t, g);
    if (g)
        CHECK(t, weights_default(g, &w));
    if (!g)
        return;
    Position start;
    game_start(g, &start);
    SelfplayConfig cfg;
    selfplay_default_config(g, &cfg);
    cfg.visits = visits;
    cfg.random_opening = 2;
    cfg.seed = seed;
    char *settings = selfplay_settings_text(g, &start, &w, &cfg, NULL);
    char plain[300], through[300];
    snprintf(plain, sizeof plain, "%s/plain.lrec", dir);
    CHECK(t, run_selfplay(g, &start, &w, &cfg, settings, plain, games, NULL, &err));
    size_t want_len = 0, got_len = 0;
    char *want = read_file(plain, &want_len);
    const MctsConfig search = selfplay_search_config(&cfg);
    static const int shapes[][2] = {{1, 3}, {3, 3}};    /* batch, games at once */
    for (size_t k = 0; k < 2; k++) {
        Counts counts = {0, 0};
        ApiEvaluator *bridge = api_evaluator_new(g, &w, mcts_coarse_share(&search, g, &w), NULL, "", NULL, evaluate_own,
                                                 &counts);
        const SelfplayEvaluator evaluator = {api_evaluator_call, bridge, shapes[k][0], shapes[k][1]};
        snprintf(through, sizeof through, "%s/through%zu.lrec", dir, k);
        CHECK(t, run_selfplay(g, &start, &w, &cfg, settings, through, games, &evaluator, &err));
        char *got = read_file(through, &got_len);
        const bool same = want && got && want_len == got_len && memcmp(want, got, want_len) == 0;
        CHECK(t, same);
        if (!same)
            fprintf(stderr, "  %s %dx%d, batch %d, %d games at once: %zu bytes against %zu\n", variant, width, height,
                    shapes[k][0], shapes[k][1], got_len, want_len);
        CHECK(t, k == 0 ? counts.calls == counts.leaves : counts.calls * 2 < counts.leaves);
        free(got);
        api_evaluator_free(bridge);
        unlink(through);
    }
    free(want);
    free(settings);
    unlink(plain);
    weights_dispose(&w);
    game_free(g);
}

/* Self-play whose leaves leuctra's own evaluation judges through the C API's evaluator writes
 * `leuctra selfplay`'s very file (the same settings text given): with one leaf per call, and with
 * one leaf of each game per call (their searches one visit at a time each).  The second run
 * meets a kept node that only repetitions had reached, whose priors the search asks for alone
 * (mcts_internal.h: LEAF_PRIORS) and then goes on as a search without a batch goes. */
static void test_selfplay_through_evaluator(TestContext *t)
{
    TempDir d;
    CHECK(t, temp_dir(&d));
    compare_runs(t, d.dir, "crossings", 8, 8, 40, 11, 6);
    compare_runs(t, d.dir, "crossings", 5, 6, 24, 5, 16);
    rmdir(d.dir);
}

static int evaluate_uniform(void *ctx, int n, const uint8_t *planes, const int32_t *legal_start, const int32_t *legal,
                            double *values, float *policy, const LtLeaves *leaves)
{
    (void)ctx, (void)planes, (void)legal, (void)leaves;
    for (int i = 0; i < n; i++)
        values[i] = 0.5;
    for (int32_t j = 0; j < legal_start[n]; j++)
        policy[j] = 1;
    return 0;
}

/* An evaluator that knows nothing (every value 0.5, uniform priors) shuffles stones back and
 * forth: nodes that only repetitions reached, never evaluated, are kept with the subtree and
 * later expanded (as the root, or deeper) once no repetition stops the visit there.  Their
 * priors are asked for then; the search had stopped with no visits ("out of memory while
 * playing": the player chose no move). */
static void test_selfplay_knowing_nothing(TestContext *t)
{
    TempDir d;
    CHECK(t, temp_dir(&d));
    char path[300], err[512] = "", summary[512] = "";
    snprintf(path, sizeof path, "%s/uniform.lrec", d.dir);
    static const char *const variants[] = {"crossings", "epaminondas"};
    for (size_t v = 0; v < 2; v++) {
        const char *names[] = {"visits", "seed", "random_opening", "batch"}, *values[] = {"24", "2", "2", "1"};
        int status = lt_selfplay(variants[v], "5x6", NULL, path, 16, 4, names, values, evaluate_uniform, NULL, summary,
                                 sizeof summary, err, sizeof err);
        CHECK(t, status == LT_OK);
        if (status == LT_OK)
            CHECK(t, strstr(summary, "\"played\": 16"));
        if (status != LT_OK)
            fprintf(stderr, "  %s: %s\n", variants[v], err);
        unlink(path);
    }
    rmdir(d.dir);
}

/* lt_selfplay: the settings say the evaluator is external and name it, so a resumed run with
 * another name is refused; an evaluator that fails leaves the games it finished, ready to resume. */
static void test_selfplay_api(TestContext *t)
{
    TempDir d;
    CHECK(t, temp_dir(&d));
    char path[300], err[512], summary[512];
    snprintf(path, sizeof path, "%s/api.lrec", d.dir);
    const char *names[] = {"visits", "evaluator", "random_opening", "games_at_once"};
    const char *values[] = {"16", "net-1", "2", "2"};
    CHECK(t, lt_selfplay("crossings", "5x6", NULL, path, 3, 4, names, values, evaluate_own, NULL, summary,
                         sizeof summary, err, sizeof err) == LT_OK);
    CHECK(t, strstr(summary, "\"played\": 3") != NULL);
    size_t len = 0;
    char *bytes = read_file(path, &len);
    CHECK(t, bytes);
    if (bytes)
        CHECK(t, memmem(bytes, len, "evaluator=external net-1\nevaluator_in_flight=1\n", 47) != NULL);
    free(bytes);
    const char *resume_names[] = {"visits", "evaluator", "random_opening", "games_at_once", "resume"};
    const char *other[] = {"16", "net-2", "2", "2", "true"};
    CHECK(t, lt_selfplay("crossings", "5x6", NULL, path, 4, 5, resume_names, other, evaluate_own, NULL, NULL, 0, err,
                         sizeof err) == LT_ERR_INPUT && strstr(err, "evaluator") && one_line(err));
    Bad bad = {FAIL_RETURN, 0};
    char failing[300];
    snprintf(failing, sizeof failing, "%s/fail.lrec", d.dir);
    CHECK(t, lt_selfplay("crossings", "5x6", NULL, failing, 3, 4, names, values, evaluate_bad, &bad, NULL, 0, err,
                         sizeof err) == LT_ERR_FAILED && strstr(err, "returned 7") && bad.calls == 1);
    static const char *const refused[][2] = {
        {"batch", "0"}, {"games_at_once", "5000"}, {"temperature", "-1"}, {"noise", "2"}, {"visits", "0"},
        {"repetition", "maybe"}, {"evaluator", "two\nlines"}, {"colour", "w"}, {"seed", "-3"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        err[0] = '\0';
        CHECK(t, lt_selfplay("crossings", NULL, NULL, failing, 1, 1, &refused[i][0], &refused[i][1], evaluate_own,
                             NULL, NULL, 0, err, sizeof err) == LT_ERR_INPUT && one_line(err));
    }
    CHECK(t, lt_selfplay("crossings", NULL, NULL, failing, 0, 0, NULL, NULL, evaluate_own, NULL, NULL, 0, err,
                         sizeof err) == LT_ERR_INPUT && strstr(err, "games"));
    CHECK(t, lt_selfplay("nosuchgame", NULL, NULL, failing, 1, 0, NULL, NULL, evaluate_own, NULL, NULL, 0, err,
                         sizeof err) == LT_ERR_INPUT);
    unlink(path);
    unlink(failing);
    rmdir(d.dir);
}

const TestCase api_search_tests[] = {
    {"search_through_evaluator", test_search_through_evaluator},
    {"evaluator_failures", test_evaluator_failures},
    {"refused", test_refused},
    {"selfplay_through_evaluator", test_selfplay_through_evaluator},
    {"selfplay_api", test_selfplay_api},
    {"selfplay_knowing_nothing", test_selfplay_knowing_nothing},
    TEST_END,
};
