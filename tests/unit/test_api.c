/*
 * test_api.c - the C API of libleuctra.so (api/leuctra_api.h) on bad input: every refusal is a
 * status with a one-line message, never a crash (make check runs this under ASan and UBSan,
 * where the Python package's own tests load the optimised library); and a short game through it.
 */
#include "test.h"
#include "api/leuctra_api.h"
#include "core/threads.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

static bool one_line(const char *msg) { return msg[0] && !strchr(msg, '\n'); }

static void test_api_game(TestContext *t)
{
    char err[256], buf[LT_MOVES_TEXT];
    LtGame *g = lt_game_new("crossings", NULL, NULL, err, sizeof err);
    CHECK(t, g != NULL);
    if (g != NULL)
        CHECK(t, lt_game_status(g) == LT_ONGOING && lt_game_side(g) == 0);
    if (!g)
        return;
    int w, h, actions, planes, version;
    unsigned sym;
    lt_game_shape(g, &w, &h, &actions, &planes, &version, &sym);
    CHECK(t, w == 8);
    CHECK(t, h == 8);
    CHECK(t, actions == 2048);
    CHECK(t, planes == 9);
    CHECK(t, version == 1);
    CHECK(t, sym == 3);
    CHECK(t, lt_game_legal_moves(g, buf, sizeof buf) == 60 && strncmp(buf, "a2-a3 ", 6) == 0);
    CHECK(t, lt_game_legal_moves(g, buf, 10) == -1);
    int32_t list[8192], a = -1;
    CHECK(t, lt_game_legal_actions(g, list, 8192) == 60);
    CHECK(t, lt_game_legal_actions(g, list, 5) == -1);
    CHECK(t, lt_game_action_of(g, "a2-a3", &a, err, sizeof err) == LT_OK && a >= 0);
    CHECK(t, lt_game_move_of(g, a, buf, 16, err, sizeof err) == LT_OK && strcmp(buf, "a2-a3") == 0);
    CHECK(t, lt_game_play(g, "a2-a3", err, sizeof err) == LT_OK && lt_game_side(g) == 1);
    CHECK(t, lt_game_play_action(g, 0, err, sizeof err) == LT_ERR_INPUT && one_line(err));  /* Black: row 0 is a1 */
    CHECK(t, lt_game_undo(g, err, sizeof err) == LT_OK && lt_game_undo(g, err, sizeof err) == LT_ERR_INPUT);
    unsigned char p[9 * 64];
    CHECK(t, lt_game_planes(g, p, sizeof p, err, sizeof err) == LT_OK && p[6 * 8] == 1 && p[64 + 0] == 1);
    CHECK(t, lt_game_planes(g, p, 10, err, sizeof err) == LT_ERR_INPUT);
    uint64_t n = 0;
    CHECK(t, lt_game_perft(g, 2, 1, &n, err, sizeof err) == LT_OK && n == 3600);
    CHECK(t, lt_game_perft(g, -1, 1, &n, err, sizeof err) == LT_ERR_INPUT && one_line(err));
    LtGame *c = lt_game_clone(g, err, sizeof err);
    CHECK(t, c != NULL);
    if (c != NULL)
        CHECK(t, lt_game_set_position(c, "bad", err, sizeof err) == LT_ERR_INPUT && one_line(err));
    lt_game_free(c);
    char json[1 << 16];
    CHECK(t, lt_game_analyze(g, 100, 0, NULL, 1, 1, json, sizeof json, err, sizeof err) == LT_OK &&
             strstr(json, "\"best\": \"") != NULL);
    CHECK(t, lt_game_analyze(g, 100, 0, NULL, 1, 1, json, 20, err, sizeof err) == LT_ERR_INPUT);
    CHECK(t, lt_game_analyze(g, 10, 0, "/nonexistent.lwt", 1, 1, json, sizeof json, err, sizeof err) == LT_ERR_INPUT &&
             one_line(err));
    CHECK(t, lt_game_analyze(g, -1, 0, NULL, 1, 1, json, sizeof json, err, sizeof err) == LT_ERR_INPUT);
    lt_game_free(g);
}

static void test_api_refusals(TestContext *t)
{
    char err[256];
    static const char *bad[][3] = {
        {"chess", NULL, NULL}, {"epaminondas", "2x2", NULL}, {"epaminondas", "8x", NULL},
        {"epaminondas", NULL, "BBB/3/3 w"}, {"reversi", "9x9", NULL}, {"epaminondas", "5x5", "BBB/3/3/3/WWW w"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        LtGame *g = lt_game_new(bad[i][0], bad[i][1], bad[i][2], err, sizeof err);
        CHECK(t, g == NULL);
        if (g == NULL)
            CHECK(t, one_line(err));
        lt_game_free(g);
    }
    LtGame *g = lt_game_new(NULL, NULL, "start", NULL, 0);
    CHECK(t, g != NULL);
    CHECK(t, lt_game_play(g, NULL, err, sizeof err) == LT_ERR_INPUT);
    CHECK(t, lt_game_play(g, "a1-a9", NULL, 0) == LT_ERR_INPUT);     /* no message buffer: still no crash */
    char text[16];
    CHECK(t, lt_game_move_of(g, 1 << 30, text, sizeof text, err, sizeof err) == LT_ERR_INPUT && one_line(err));
    CHECK(t, lt_game_move_of(g, -5, text, sizeof text, err, sizeof err) == LT_ERR_INPUT);
    lt_game_free(g);
    CHECK(t, lt_records_open("/nonexistent.lrec", 0, err, sizeof err) == NULL && one_line(err));
    CHECK(t, lt_records_open(NULL, 1, err, sizeof err) == NULL);
    CHECK(t, lt_api_version() >= 1);
    CHECK(t, strcmp(lt_version(), LEUCTRA_VERSION) == 0);
}

/* One cap and one wording for thread counts (core/threads.h): perft with 100000 threads crashed
 * inside libgomp; a count far past the processors gets a note the caller shows. */
static void test_api_threads(TestContext *t)
{
    char err[256], json[1 << 16], note[200];
    uint64_t n = 0;
    LtGame *g = lt_game_new("reversi", NULL, NULL, err, sizeof err);
    CHECK(t, g != NULL);
    if (!g)
        return;
    CHECK(t, lt_game_perft(g, 3, 100000, &n, err, sizeof err) == LT_ERR_INPUT &&
             strcmp(err, "threads must be an integer from 0 to 1024, got 100000") == 0);
    CHECK(t, lt_game_perft(g, 3, -1, &n, err, sizeof err) == LT_ERR_INPUT && strstr(err, "threads") != NULL);
    CHECK(t, lt_game_perft(g, 31, 1, &n, err, sizeof err) == LT_ERR_INPUT &&
             strcmp(err, "depth must be an integer from 0 to 30, got 31") == 0);
    CHECK(t, lt_game_perft(g, 3, 0, &n, err, sizeof err) == LT_OK && n == 56);
    CHECK(t, lt_game_analyze(g, 5, 0, NULL, 1, 1025, json, sizeof json, err, sizeof err) == LT_ERR_INPUT &&
             strcmp(err, "threads must be an integer from 0 to 1024, got 1025") == 0);
    CHECK(t, lt_game_analyze(g, LT_ANALYZE_MAX_VISITS + 1, 0, NULL, 1, 1, json, sizeof json, err, sizeof err) ==
             LT_ERR_INPUT && strstr(err, "visits must be an integer from 0 to 1000000000000") != NULL);
    CHECK(t, lt_game_analyze(g, 5, NAN, NULL, 1, 1, json, sizeof json, err, sizeof err) == LT_ERR_INPUT &&
             strstr(err, "seconds") != NULL);
    CHECK(t, lt_game_analyze(g, 5, 2e6, NULL, 1, 1, json, sizeof json, err, sizeof err) == LT_ERR_INPUT);
    lt_game_free(g);
    Error e;
    CHECK(t, threads_check(1024, 1, "--threads", &e) && !threads_check(0, 1, "--threads", &e) &&
             strcmp(e.msg, "--threads must be an integer from 1 to 1024, got 0") == 0);
    CHECK(t, lt_threads_max() == THREADS_MAX);
    CHECK(t, threads_or_default(100000) == THREADS_MAX);
    int procs = omp_get_num_procs();
    CHECK(t, lt_threads_note(1, note, sizeof note) == 0);
    CHECK(t, note[0] == '\0');
    CHECK(t, lt_threads_note(4 * procs, note, sizeof note) == 0);
    CHECK(t, lt_threads_note(4 * procs + 1, note, sizeof note) == 1 && strstr(note, "threads on") != NULL &&
             one_line(note));
}

const TestCase api_tests[] = {
    {"api_game", test_api_game},
    {"api_refusals", test_api_refusals},
    {"api_threads", test_api_threads},
    TEST_END,
};
