/*
 * test_network.c - the network (core/network.h, docs/NETWORK.md): the AVX2 path and the plain
 * one give the same integers on every game, an incremental accumulator the same bits as a fresh
 * one, the integers stay near the float model they quantize, and a network of zero heads adds
 * nothing.
 */
#include "core/network.h"
#include "core/tensors.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* Fills the float weights with small random numbers (uniform in [-scale, scale] by array). */
static void randomize(Network *net, uint64_t seed)
{
    static const float scale[NETWORK_ARRAYS] = {0.02f, 0.1f, 0.3f, 0.1f, 1.0f, 0.2f, 1.0f, 0.2f};
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS];
    Rng rng = rng_seed(seed, 7);
    for (int a = 0, n = network_arrays(net, arrays, lengths); a < n; a++)
        for (size_t i = 0; i < lengths[a]; i++)
            (*arrays[a])[i] = (float)((rng_double(&rng) * 2 - 1) * scale[a]);
}

/* Positions of random games: the start and every ply after it, to `count`. */
static int random_positions(const Game *g, uint64_t seed, Position *out, int count)
{
    Rng rng = rng_seed(seed, 1);
    int n = 0;
    while (n < count) {
        Position p;
        game_start(g, &p);
        Move moves[MAX_MOVES];
        for (int ply = 0; ply < 200 && n < count; ply++) {
            out[n++] = p;
            int k = game_gen_moves(g, &p, moves);
            if (k == 0)
                break;
            Undo u;
            game_make(g, &p, moves[rng_below(&rng, (uint32_t)k)], &u);
        }
    }
    return n;
}

typedef struct {
    const char *variant;
    unsigned inputs;
    int h;
} Case;

static const Case cases[] = {
    {"crossings", NETWORK_PATTERNS | NETWORK_SQUARES, 48}, {"epaminondas", NETWORK_PATTERNS, 32},
    {"igfip", NETWORK_SQUARES, 16}, {"reversi", NETWORK_PATTERNS | NETWORK_SQUARES, 64},
};

enum { POSITIONS = 300 };

static Game *open_network(TestContext *t, const Case *c, Network *net, Position *positions)
{
    Error err;
    Game *g = game_new(c->variant, 0, 0, &err);
    CHECK(t, g != NULL);
    if (!g)
        return NULL;
    CHECK(t, network_init(net, g, c->inputs, 0, c->h, &err));
    randomize(net, 5);
    random_positions(g, 11, positions, POSITIONS);
    CHECK(t, network_quantize(net, g, positions, 50));
    return g;
}

static void test_simd_equals_plain(TestContext *t)
{
    if (!network_simd_available()) {
        fprintf(stderr, "  note: no AVX2 on this CPU; only the plain path ran\n");
        return;
    }
    Position *positions = malloc(POSITIONS * sizeof *positions);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] && positions; c++) {
        Network fast, plain;
        Game *g = open_network(t, &cases[c], &fast, positions);
        if (!g)
            continue;
        CHECK(t, network_copy(&plain, &fast));
        plain.simd = false;
        fast.simd = true;
        NetworkScratch *a = network_scratch_new(&fast), *b = network_scratch_new(&plain);
        int differ = 0;
        for (int i = 0; i < POSITIONS; i++) {
            Move moves[MAX_MOVES];
            float la[MAX_MOVES], lb[MAX_MOVES];
            int n = game_gen_moves(g, &positions[i], moves);
            differ += network_value(&fast, g, a, &positions[i]) != network_value(&plain, g, b, &positions[i]);
            network_priors(&fast, g, a, &positions[i], moves, n, la);
            network_priors(&plain, g, NULL, &positions[i], moves, n, lb);
            for (int k = 0; k < n; k++)
                differ += la[k] != lb[k];
        }
        if (differ)
            fprintf(stderr, "  %s: %d values or priors differ between AVX2 and plain\n", cases[c].variant, differ);
        CHECK(t, differ == 0);
        network_scratch_free(a);
        network_scratch_free(b);
        network_free(&fast);
        network_free(&plain);
        game_free(g);
    }
    free(positions);
}

/* Through one scratch (incremental updates from position to position) and with none (fresh
 * sums): the same values, bit for bit. */
static void test_incremental_equals_fresh(TestContext *t)
{
    Position *positions = malloc(POSITIONS * sizeof *positions);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] && positions; c++) {
        Network net;
        Game *g = open_network(t, &cases[c], &net, positions);
        if (!g)
            continue;
        for (int simd = 0; simd < 2; simd++) {
            net.simd = simd && network_simd_available();
            NetworkScratch *s = network_scratch_new(&net);
            int differ = 0;
            for (int i = 0; i < POSITIONS; i++)
                differ += network_value(&net, g, s, &positions[i]) != network_value(&net, g, NULL, &positions[i]);
            CHECK(t, differ == 0);
            network_scratch_free(s);
        }
        network_free(&net);
        game_free(g);
    }
    free(positions);
}

/* The integers approximate the float model: within a few hundredths of a logit on these sizes. */
static void test_quantized_near_float(TestContext *t)
{
    Position *positions = malloc(POSITIONS * sizeof *positions);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] && positions; c++) {
        Network net;
        Game *g = open_network(t, &cases[c], &net, positions);
        if (!g)
            continue;
        double worst = 0, spread = 0;
        for (int i = 0; i < POSITIONS; i++) {
            double q = network_value(&net, g, NULL, &positions[i]), f = network_value_float(&net, g, &positions[i]);
            worst = fmax(worst, fabs(q - f));
            spread = fmax(spread, fabs(f));
        }
        if (worst > 0.05 * (1 + spread))
            fprintf(stderr, "  %s: quantized value off the float one by %.4f (float values up to %.3f)\n",
                    cases[c].variant, worst, spread);
        CHECK(t, worst <= 0.05 * (1 + spread) && spread > 0.01);
        network_free(&net);
        game_free(g);
    }
    free(positions);
}

static void test_zero_network_adds_nothing(TestContext *t)
{
    Error err;
    Game *g = game_new("crossings", 0, 0, &err);
    Network net;
    CHECK(t, g && network_init(&net, g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
    Position p;
    game_start(g, &p);
    Move moves[MAX_MOVES];
    float logits[MAX_MOVES];
    int n = game_gen_moves(g, &p, moves);
    network_priors(&net, g, NULL, &p, moves, n, logits);
    CHECK(t, network_value(&net, g, NULL, &p) == 0 && n > 0 && logits[0] == 0 && logits[n - 1] == 0);
    CHECK(t, !network_init(&net, g, NETWORK_PATTERNS, 0, 20, &err) && strstr(err.msg, "multiple of 16"));
    network_free(&net);
    game_free(g);
}

const TestCase network_tests[] = {
    {"simd_equals_plain", test_simd_equals_plain},
    {"incremental_equals_fresh", test_incremental_equals_fresh},
    {"quantized_near_float", test_quantized_near_float},
    {"zero_network_adds_nothing", test_zero_network_adds_nothing},
    TEST_END,
};
