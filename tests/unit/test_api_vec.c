/*
 * test_api_vec.c - the C API's batched games (leuctra_api.h's lt_vec_* calls) where only C can
 * reach: output buffers of the wrong size or alignment, NULL arguments, a legal list that does
 * not fit, and a step refused with nothing played.  `make check` runs them under ASan and UBSan;
 * tests/python/vec_test.py checks the games themselves against leuctra.Game.
 */
#include "test.h"
#include "api/leuctra_api.h"

#include <stdlib.h>

static bool one_line(const char *msg) { return msg[0] && !strchr(msg, '\n'); }

static LtVec *vec_of(const char *variant, int n, int count, const char *const *names, const char *const *values,
                     char *err, size_t err_len)
{
    return lt_vec_new(variant, NULL, n, 7, count, names, values, err, err_len);
}

static void test_vec_options(TestContext *t)
{
    char err[256];
    static const char *bad[][2] = {
        {"threads", "1025"}, {"threads", "-1"}, {"max_plies", "0"}, {"max_plies", "1e3"}, {"repetition", "yes"},
        {"random_opening", "-1"}, {"opponent", "engine:/bin/true"}, {"opponent", "mcts:threads=2"},
        {"opponent", "mcts:time=0.1"}, {"opponent", "mcts:visits=0"}, {"agent_colour", "white"}, {"colour", "x"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        LtVec *v = vec_of("crossings", 2, 1, &bad[i][0], &bad[i][1], err, sizeof err);
        CHECK(t, v == NULL);
        if (v == NULL)
            CHECK(t, one_line(err));
        lt_vec_free(v);
    }
    const char *twice[] = {"threads", "threads"}, *ones[] = {"1", "1"};
    CHECK(t, vec_of("crossings", 2, 2, twice, ones, err, sizeof err) == NULL && strstr(err, "twice") != NULL);
    const char *names[] = {"max_plies", "random_opening"}, *values[] = {"4", "4"};
    CHECK(t, vec_of("crossings", 2, 2, names, values, err, sizeof err) == NULL && strstr(err, "random_opening") != NULL);
    CHECK(t, vec_of("crossings", 2, 1, NULL, values, err, sizeof err) == NULL);
    CHECK(t, vec_of("crossings", 0, 0, NULL, NULL, err, sizeof err) == NULL && strstr(err, "n must be") != NULL);
    CHECK(t, vec_of("crossings", LT_VEC_MAX_GAMES + 1, 0, NULL, NULL, err, sizeof err) == NULL);
    CHECK(t, vec_of("chess", 1, 0, NULL, NULL, err, sizeof err) == NULL && one_line(err));
    CHECK(t, lt_vec_new("crossings", "8x", 1, 0, 0, NULL, NULL, err, sizeof err) == NULL && one_line(err));
    CHECK(t, vec_of("crossings", 0, 0, NULL, NULL, NULL, 0) == NULL);     /* no message buffer: no crash */
}

/* Sizes and alignment are checked against the shape; a binding writes the present state. */
static void test_vec_bind(TestContext *t)
{
    char err[256];
    LtVec *v = vec_of("crossings", 3, 0, NULL, NULL, err, sizeof err);
    CHECK(t, v != NULL);
    if (!v)
        return;
    int n, w, h, a, c, version;
    unsigned sym;
    lt_vec_shape(v, &n, &w, &h, &a, &c, &version, &sym);
    CHECK(t, n == 3);
    CHECK(t, w == 8);
    CHECK(t, h == 8);
    CHECK(t, a == 2048);
    CHECK(t, c == 9);
    CHECK(t, strcmp(lt_vec_variant(v), "crossings") == 0);
    static uint8_t mask[3 * 2048], planes[3 * 9 * 64 + 1];
    static int64_t start[4];
    int32_t count[3], legal[400];
    CHECK(t, lt_vec_bind(v, "nothing", mask, sizeof mask, err, sizeof err) == LT_ERR_INPUT && one_line(err));
    CHECK(t, lt_vec_bind(v, NULL, mask, sizeof mask, err, sizeof err) == LT_ERR_INPUT);
    CHECK(t, lt_vec_bind(v, "mask", mask, sizeof mask - 1, err, sizeof err) == LT_ERR_INPUT &&
             strstr(err, "6144") != NULL);
    CHECK(t, lt_vec_bind(v, "planes", planes + 1, sizeof planes - 1, err, sizeof err) == LT_OK);  /* bytes: any alignment */
    CHECK(t, lt_vec_bind(v, "legal_start", (char *)start + 4, 3 * 8, err, sizeof err) == LT_ERR_INPUT &&
             strstr(err, "misaligned") != NULL);
    CHECK(t, lt_vec_bind(v, "legal", legal, 6, err, sizeof err) == LT_ERR_INPUT);
    CHECK(t, lt_vec_bind(v, "done", NULL, 3, err, sizeof err) == LT_ERR_INPUT);
    CHECK(t, lt_vec_bind(v, "done", NULL, 0, err, sizeof err) == LT_OK);
    memset(mask, 7, sizeof mask);
    CHECK(t, lt_vec_bind(v, "mask", mask, sizeof mask, err, sizeof err) == LT_OK);
    CHECK(t, lt_vec_bind(v, "legal_count", count, sizeof count, err, sizeof err) == LT_OK && count[2] == 60);
    int ones = 0;
    for (size_t i = 0; i < sizeof mask; i++)
        ones += mask[i];
    CHECK(t, ones == 180);      /* the 7s cleared, each game's 60 legal actions set */
    CHECK(t, lt_vec_bind(v, "legal_start", start, 3 * 8, err, sizeof err) == LT_OK && start[2] == 120);
    /* 100 entries do not hold 180 actions: left unwritten, the total said */
    legal[0] = -5;
    int64_t total = 0;
    CHECK(t, lt_vec_bind(v, "legal", legal, 100 * 4, err, sizeof err) == LT_OK && legal[0] == -5);
    CHECK(t, lt_vec_reset(v, 0, 0, &total, err, sizeof err) == LT_OK && total == 180 && legal[0] == -5);
    CHECK(t, lt_vec_bind(v, "legal", legal, sizeof legal, err, sizeof err) == LT_OK && legal[0] == 48 &&
             legal[60] == 48 && legal[179] > legal[178]);
    lt_vec_free(v);
}

/* An illegal action refuses the whole step: nothing is played in any game. */
static void test_vec_refused_step(TestContext *t)
{
    char err[256], before[400], after[400];
    LtVec *v = vec_of("reversi", 4, 0, NULL, NULL, err, sizeof err);
    CHECK(t, v != NULL);
    if (!v)
        return;
    int32_t legal[64], actions[4];
    int64_t total = 0;
    CHECK(t, lt_vec_bind(v, "legal", legal, sizeof legal, err, sizeof err) == LT_OK);
    for (int i = 0; i < 4; i++)
        actions[i] = legal[4 * i];      /* four legal moves each at the start */
    actions[2] = 64;                    /* pass: not legal at the start */
    CHECK(t, lt_vec_position(v, 0, before, sizeof before, err, sizeof err) == LT_OK);
    CHECK(t, lt_vec_step(v, actions, 4, &total, err, sizeof err) == LT_ERR_INPUT &&
             strcmp(err, "step: game 2: action 64 is not one of its 4 legal actions (nothing was played)") == 0);
    CHECK(t, lt_vec_position(v, 0, after, sizeof after, err, sizeof err) == LT_OK && strcmp(before, after) == 0);
    actions[2] = -1;
    CHECK(t, lt_vec_step(v, actions, 4, &total, err, sizeof err) == LT_ERR_INPUT && strstr(err, "game 2") != NULL);
    CHECK(t, lt_vec_step(v, actions, 3, &total, err, sizeof err) == LT_ERR_INPUT && strstr(err, "3 actions") != NULL);
    CHECK(t, lt_vec_step(v, NULL, 4, &total, err, sizeof err) == LT_ERR_INPUT);
    actions[2] = legal[8];
    CHECK(t, lt_vec_step(v, actions, 4, &total, err, sizeof err) == LT_OK && total > 0);
    CHECK(t, lt_vec_position(v, 0, after, sizeof after, err, sizeof err) == LT_OK && strcmp(before, after) != 0);
    CHECK(t, lt_vec_position(v, 4, after, sizeof after, err, sizeof err) == LT_ERR_INPUT && one_line(err));
    CHECK(t, lt_vec_game(v, -1, err, sizeof err) == NULL && one_line(err));
    LtGame *g = lt_vec_game(v, 0, err, sizeof err);
    char text[400];
    CHECK(t, g != NULL);
    if (g != NULL)
        CHECK(t, lt_game_position(g, text, sizeof text) == LT_OK && strcmp(text, after) == 0);
    lt_game_free(g);
    lt_vec_free(v);
}

const TestCase api_vec_tests[] = {
    {"vec_options", test_vec_options},
    {"vec_bind", test_vec_bind},
    {"vec_refused_step", test_vec_refused_step},
    TEST_END,
};
