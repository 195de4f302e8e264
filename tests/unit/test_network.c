/*
 * test_network.c - the network (core/network.h, docs/NETWORK.md): the AVX2 path and the plain
 * one give the same integers on every game, an incremental accumulator the same bits as a fresh
 * one, the integers stay near the float model they quantize, and a network of zero heads adds
 * nothing.
 */
#include "core/network.h"
#include "core/tensors.h"
#include "core/value.h"
#include "data/weights.h"
#include "test.h"

#include <unistd.h>

#include <math.h>
#include <stdlib.h>

static void randomize(Network *net, uint64_t seed) { network_randomize(net, seed, true); }

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
        CHECK(t, worst <= 0.05 * (1 + spread));
        CHECK(t, spread > 0.01);
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
    CHECK(t, g);
    if (g)
        CHECK(t, network_init(&net, g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
    Position p;
    game_start(g, &p);
    Move moves[MAX_MOVES];
    float logits[MAX_MOVES];
    int n = game_gen_moves(g, &p, moves);
    network_priors(&net, g, NULL, &p, moves, n, logits);
    CHECK(t, network_value(&net, g, NULL, &p) == 0 && n > 0 && logits[0] == 0 && logits[n - 1] == 0);
    network_free(&net);     /* before the refused init, which clears net first */
    CHECK(t, !network_init(&net, g, NETWORK_PATTERNS, 0, 20, &err) && strstr(err.msg, "multiple of 16"));
    game_free(g);
}

/* A file with a network reads back to the same network (identity and values), and one made for
 * another board, or damaged, is refused with one line that says why. */
static void test_file_round_trip(TestContext *t)
{
    Error err;
    Game *g = game_new("crossings", 0, 0, &err), *other = game_new("crossings", 6, 6, &err);
    Weights w, back;
    CHECK(t, g);
    if (g) {
        CHECK(t, other);
        if (other)
            CHECK(t, weights_default(g, &w));
    }
    if (!g || !other)
        return;
    weights_drop_network(&w);       /* the shipped Crossings file has one; this test makes its own */
    w.net = calloc(1, sizeof *w.net);
    CHECK(t, w.net);
    if (w.net)
        CHECK(t, network_init(w.net, g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 32, &err));
    randomize(w.net, 9);
    Position positions[60];
    random_positions(g, 3, positions, 60);
    CHECK(t, network_quantize(w.net, g, positions, 60));
    char path[] = "/tmp/leuctra-network-XXXXXX";
    int fd = mkstemp(path);
    CHECK(t, fd >= 0);
    close(fd);
    CHECK(t, weights_save(g, &w, "a test network", path, &err));
    CHECK(t, weights_load(g, path, &back, &err) && back.net != NULL);
    if (back.net) {
        CHECK(t, weights_id(&back) == weights_id(&w));
        CHECK(t, back.net->shift1 == w.net->shift1);
        CHECK(t, !back.net->priors_only);
        int differ = 0;
        for (int i = 0; i < 60; i++)
            differ += value_win_probability(g, &w, &positions[i]) != value_win_probability(g, &back, &positions[i]);
        CHECK(t, differ == 0);
        weights_dispose(&back);
    }
    /* a network that gives priors only says so in its file, and its value adds nothing */
    Weights priors_only;
    CHECK(t, weights_copy(&priors_only, &w));
    network_drop_value_head(priors_only.net);
    CHECK(t, network_quantize(priors_only.net, g, positions, 60));
    CHECK(t, weights_save(g, &priors_only, NULL, path, &err) && weights_load(g, path, &back, &err));
    CHECK(t, back.net);
    if (back.net) {
        CHECK(t, back.net->priors_only);
        CHECK(t, weights_id(&back) != weights_id(&w));
    }
    Weights alone = back;       /* borrowed, without its network */
    alone.net = NULL;
    CHECK(t, back.net);
    if (back.net)
        CHECK(t, value_logit(g, &back, &positions[7]) == value_logit(g, &alone, &positions[7]));
    weights_dispose(&back);
    weights_dispose(&priors_only);
    Weights none;
    weights_zero(g, &none);
    none.net = w.net;       /* borrowed: a file with a network and nothing else */
    CHECK(t, weights_save(g, &none, NULL, path, &err));
    CHECK(t, !weights_load(other, path, &back, &err) && strstr(err.msg, "network") && !strchr(err.msg, '\n'));
    FILE *f = fopen(path, "r+b");
    if (f) {
        fseek(f, -40, SEEK_END);      /* inside the network's compressed weights */
        fputc(0x5a, f);
        fclose(f);
    }
    CHECK(t, !weights_load(g, path, &back, &err) && strstr(err.msg, "damaged"));
    unlink(path);
    weights_dispose(&w);
    game_free(g);
    game_free(other);
}

const TestCase network_tests[] = {
    {"file_round_trip", test_file_round_trip},
    {"simd_equals_plain", test_simd_equals_plain},
    {"incremental_equals_fresh", test_incremental_equals_fresh},
    {"quantized_near_float", test_quantized_near_float},
    {"zero_network_adds_nothing", test_zero_network_adds_nothing},
    TEST_END,
};
