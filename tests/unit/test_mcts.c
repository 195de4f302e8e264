/*
 * test_mcts.c - what the search reports about itself (search/mcts.h): the nodes it has in use
 * stay within the node budget however many visits it makes, and count only the nodes in the
 * tree (a node made by a thread that lost the race for an edge is no part of it); proofs carry
 * their length; the opponent's replies that repeat the game are searched first; the coarse share
 * of the leaf values is the game's where the weights have tables; a tree kept from the last
 * move searches the right positions (Reversi keeps each expanded node's position in the tree); a
 * search whose leaves an evaluator outside it judges, in batches of one, is mcts_search's.
 */
#include "core/game_so_far.h"
#include "core/value.h"
#include "data/weights.h"
#include "search/mcts.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>

typedef struct {
    Game *game;
    Position start;
    Weights weights;
} Setup;

static bool setup(TestContext *t, Setup *s, int width, int height)
{
    Error err = {0};
    s->game = game_new("epaminondas", width, height, &err);
    CHECK(t, s->game != NULL);
    if (!s->game)
        return false;
    game_start(s->game, &s->start);
    CHECK(t, weights_default(s->game, &s->weights));
    return true;
}

static MctsResult search(TestContext *t, const Setup *s, const MctsConfig *cfg, long visits)
{
    MctsResult r = {0};
    Mcts *m = mcts_new(s->game, &s->weights, cfg);
    CHECK(t, m != NULL);
    if (!m)
        return r;
    mcts_set_position(m, &s->start);
    MctsLimits limits = {visits, 0};
    r = mcts_search(m, &limits, NULL, NULL, 0, NULL);
    mcts_free(m);
    return r;
}

/* The tree fills its budget long before the visits end; the nodes reported are those it holds. */
static void test_nodes_within_budget(TestContext *t)
{
    Setup s;
    if (!setup(t, &s, 8, 8))
        return;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    cfg.max_nodes = 1024;
    for (int threads = 1; threads <= 2; threads++) {
        cfg.threads = threads;
        MctsResult r = search(t, &s, &cfg, 6000);
        CHECK(t, r.visits == 6000);
        if (r.nodes > 1024 || r.nodes < 512) {
            fprintf(stderr, "  %d thread(s): %zu nodes in use of a budget of 1024\n", threads, r.nodes);
            t->failures++;
        }
    }
    weights_dispose(&s.weights);
    game_free(s.game);
}

/* Each visit adds at most one node to the tree, so a search from a fresh root holds at most
 * visits + 1 (the root): with threads, the nodes that lost a race are not counted. */
static void test_nodes_in_use_with_threads(TestContext *t)
{
    Setup s;
    if (!setup(t, &s, 8, 8))
        return;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    cfg.max_nodes = 1 << 16;
    cfg.threads = 4;
    for (int run = 0; run < 3; run++) {
        cfg.seed = (uint64_t)run + 1;
        MctsResult r = search(t, &s, &cfg, 20000);
        if (r.nodes > (size_t)r.tree_visits + 1) {
            fprintf(stderr, "  run %d: %zu nodes for %ld root visits\n", run, r.nodes, r.tree_visits);
            t->failures++;
        }
    }
    weights_dispose(&s.weights);
    game_free(s.game);
}

static long minor_faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/* The setup a search needs is mcts_new's: a new tree's first search of a few hundred visits
 * takes no more page faults than its next one (the pools' first pages are touched, the
 * workers made, before the clock of any search starts).  A search on another tree first warms
 * this thread's stack and heap, so only the new tree's own memory is measured. */
static void test_first_search_pays_no_setup(TestContext *t)
{
#if defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer faults in the shadow of whatever memory a thread first touches (its stack,
     * the allocator's fresh pages), which the search does not control: 7 faults against 2 on some
     * kernels, and none on others.  The count means something only in a plain build. */
    (void)t;
    fprintf(stderr, "  skipped under AddressSanitizer (its shadow memory faults)\n");
    return;
#endif
    Setup s;
    if (!setup(t, &s, 14, 12))
        return;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    MctsLimits limits = {300, 0};
    MctsResult *r = calloc(1, sizeof *r);
    Mcts *warm = mcts_new(s.game, &s.weights, &cfg), *m = NULL;
    CHECK(t, r);
    if (r)
        CHECK(t, warm);
    if (warm) {
        mcts_set_position(warm, &s.start);
        *r = mcts_search(warm, &limits, NULL, NULL, 0, NULL);
        m = mcts_new(s.game, &s.weights, &cfg);
        CHECK(t, m != NULL);
    }
    if (!r || !m) {
        free(r);
        mcts_free(warm);
        weights_dispose(&s.weights);
        game_free(s.game);
        return;
    }
    long faults[2];
    for (int k = 0; k < 2; k++) {
        mcts_restart(m, 1);
        mcts_set_position(m, &s.start);
        long before = minor_faults();
        *r = mcts_search(m, &limits, NULL, NULL, 0, NULL);
        faults[k] = minor_faults() - before;
        CHECK(t, r->visits == 300);
    }
    if (faults[0] > faults[1] + 1) {
        fprintf(stderr, "  the first search took %ld page faults, the second %ld\n", faults[0], faults[1]);
        t->failures++;
    }
    mcts_free(m);
    mcts_free(warm);
    free(r);
    weights_dispose(&s.weights);
    game_free(s.game);
}

/* A search of `visits` from `position` after `moves` (the game so far), one thread; the pv's
 * second move as text into second[16] ("" if the pv is shorter). */
static MctsResult search_game(TestContext *t, const char *variant, const char *position, const char *const *moves,
                              long visits, char *second)
{
    MctsResult r = {0};
    Position start;
    Game *g = test_open_position(t, variant, position, &start);
    Weights w = {0};
    GameSoFar game = GAME_SO_FAR_EMPTY;
    Mcts *m = NULL;
    if (g && weights_default(g, &w) && game_so_far_begin(&game, g, &start)) {
        for (int i = 0; moves && moves[i]; i++) {
            Move move;
            Error err;
            CHECK(t, game_parse_move(g, &game.now, moves[i], &move, &err) && game_so_far_play(&game, g, move));
        }
        MctsConfig cfg;
        mcts_default_config(&cfg);
        m = mcts_new(g, &w, &cfg);
    }
    CHECK(t, m != NULL);
    second[0] = '\0';
    if (m) {
        mcts_set_game(m, &game);
        r = mcts_search(m, &(MctsLimits){visits, 0}, NULL, NULL, 0, NULL);
        Position after = game.now;
        Undo undo;
        if (r.pv_length >= 2) {
            game_make(g, &after, r.pv[0], &undo);
            game_format_move(g, &after, r.pv[1], second, 16);
        }
    }
    mcts_free(m);
    game_so_far_free(&game);
    weights_dispose(&w);
    game_free(g);
    return r;
}

/* A proven result says how many plies it takes: a Crossings tower made now wins at once (the
 * opponent cannot answer it); a tower the opponent makes next move cannot be answered either. */
static void test_proof_lengths(TestContext *t)
{
    char second[16];
    MctsResult r = search_game(t, "crossings", "8/1W6/8/8/8/8/8/B7 w", NULL, 1000, second);
    CHECK(t, r.proven == PROVEN_WIN);
    CHECK(t, r.proven_plies == 1);
    CHECK(t, r.num_stats > 0);
    if (r.num_stats > 0) {
        CHECK(t, r.stats[0].proven == PROVEN_WIN);
        CHECK(t, r.stats[0].proven_plies == 1);
    }
    r = search_game(t, "crossings", "8/8/8/1W6/8/8/2B5/8 w", NULL, 20000, second);
    CHECK(t, r.proven == PROVEN_LOSS);
    CHECK(t, r.proven_plies == 2);
}

/* One white and one black stone in corridors: after a1-b1 b5-b4 White's only move is b1-a1, and
 * Black's backward reply b4-b5 brings back the start, a repetition (a draw, a loss for White at
 * the default contempt).  Its prior is a quarter of the forward reply's, yet it is searched
 * first: the third visit already follows it. */
static void test_repeating_reply_first(TestContext *t)
{
    static const char *const moves[] = {"a1-b1", "b5-b4", NULL};
    char second[16];
    MctsResult r = search_game(t, "epaminondas", "xBx/x1x/x1x/xxx/W1x w", moves, 3, second);
    CHECK(t, r.pv_length == 2);
    CHECK_STR(t, second, "b4-b5");
}

/* The coarse share is the game's where the weights have tables, nothing without them, and a
 * leaf's value is the blend value_search documents. */
static void test_coarse_share(TestContext *t)
{
    MctsConfig cfg;
    mcts_default_config(&cfg);
    const char *variants[] = {"crossings", "reversi", "epaminondas"};
    const double shares[] = {0.3, 0, 0.3};
    for (int i = 0; i < 3; i++) {
        Game *g = game_new(variants[i], i == 2 ? 8 : 0, i == 2 ? 8 : 0, NULL);
        Weights w;
        CHECK(t, g);
        if (g)
            CHECK(t, weights_default(g, &w));
        if (!g)
            continue;
        /* Epaminondas on 8x8 ships linear weights only. */
        CHECK(t, mcts_coarse_share(&cfg, g, &w) == (w.tables ? shares[i] : 0));
        Position p;
        game_start(g, &p);
        double full = value_win_probability(g, &w, &p);
        CHECK(t, value_search(g, &w, NULL, &p, 0) == full);
        Weights linear = w;
        linear.tables = NULL;
        double blend = 0.75 * full + 0.25 * value_win_probability(g, &linear, &p);
        CHECK(t, fabs(value_search(g, &w, NULL, &p, 0.25) - (w.tables ? blend : full)) < 1e-12);
        MctsConfig set = cfg;
        set.coarse_share = 0.5;
        CHECK(t, mcts_coarse_share(&set, g, &w) == (w.tables ? 0.5 : 0));
        weights_dispose(&w);
        game_free(g);
    }
}

/* Whether moves[0..n) are legal one after the other from pos. */
static bool legal_line(const Game *g, Position pos, const Move *moves, int n)
{
    Move legal[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int count = game_gen_moves(g, &pos, legal), k = 0;
        while (k < count && legal[k] != moves[i])
            k++;
        if (k == count)
            return false;
        Undo undo;
        game_make(g, &pos, moves[i], &undo);
    }
    return true;
}

/* Two plies on, the search goes on in the subtree it kept.  Reversi's nodes hold their positions,
 * copied with the subtree: wrong copies would list moves of other positions, which the principal
 * variation and the root's moves would then show. */
static void test_kept_tree_positions(TestContext *t)
{
    Game *g = game_new("reversi", 0, 0, NULL);
    Weights w;
    CHECK(t, g);
    if (g)
        CHECK(t, weights_default(g, &w));
    if (!g)
        return;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    Mcts *m = mcts_new(g, &w, &cfg);
    CHECK(t, m != NULL);
    Position pos;
    game_start(g, &pos);
    MctsLimits limits = {4000, 0};
    for (int move = 0; m && move < 6; move++) {
        mcts_set_position(m, &pos);
        MctsResult r = mcts_search(m, &limits, NULL, NULL, 0, NULL);
        CHECK(t, r.pv_length > 4);
        CHECK(t, legal_line(g, pos, r.pv, r.pv_length));
        for (int i = 0; i < r.num_stats; i++)
            CHECK(t, legal_line(g, pos, &r.stats[i].move, 1));
        if (move > 0)
            CHECK(t, r.tree_visits > limits.visits);     /* the kept subtree's visits count */
        for (int ply = 0; ply < 2 && r.pv_length >= 2; ply++) {
            Undo undo;
            game_make(g, &pos, r.pv[ply], &undo);
        }
    }
    mcts_free(m);
    weights_dispose(&w);
    game_free(g);
}

/* --- searches whose leaves an evaluator judges (mcts_search_batched) --------------------------- */

/* The evaluation of the trees' weights, as the evaluator outside the search gives it. */
typedef struct {
    const Game *game;
    const Weights *weights;
    double coarse;
    long calls, leaves;
} OwnEvaluator;

static bool evaluate_own(MctsLeaf *leaves, int n, void *ctx)
{
    OwnEvaluator *e = ctx;
    e->calls++;
    e->leaves += n;
    for (int i = 0; i < n; i++) {
        leaves[i].value = value_search(e->game, e->weights, NULL, leaves[i].position, e->coarse);
        value_move_priors(e->game, e->weights, leaves[i].position, leaves[i].moves, leaves[i].num_moves,
                          leaves[i].priors);
    }
    return true;
}

static bool same_result(const MctsResult *a, const MctsResult *b)
{
    bool same = a->best == b->best && a->num_stats == b->num_stats && a->visits == b->visits && a->value == b->value;
    for (int i = 0; same && i < a->num_stats; i++)
        same = a->stats[i].move == b->stats[i].move && a->stats[i].visits == b->stats[i].visits;
    return same;
}

/* With batches of one and the trees' own evaluation through the evaluator, each game's search is
 * mcts_search's on one thread, visit for visit; in Reversi too, whose endgames the search solves
 * itself, and from a game with a past (its repetitions count the same).  (An evaluator that
 * leaves out the coarse share, say, makes every search differ.) */
static void test_batched_equals_search(TestContext *t)
{
    static const char *const variants[] = {"crossings", "reversi", "epaminondas"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        Error err;
        Game *g = game_new(variants[v], 0, 0, &err);
        Weights w;
        CHECK(t, g);
        if (g)
            CHECK(t, weights_default(g, &w));
        if (!g)
            continue;
        MctsConfig cfg;
        mcts_default_config(&cfg);
        cfg.max_nodes = 1 << 16;
        enum { GAMES = 3 };
        GameSoFar games[GAMES];
        Mcts *plain[GAMES], *batched[GAMES];
        Rng rng = rng_seed(v + 1, 5);
        for (int i = 0; i < GAMES; i++) {
            Position p;
            test_random_position(g, &rng, 10 + 9 * i, &p);
            games[i] = GAME_SO_FAR_EMPTY;
            CHECK(t, game_so_far_begin(&games[i], g, &p));
            plain[i] = mcts_new(g, &w, &cfg);
            batched[i] = mcts_new(g, &w, &cfg);
            mcts_set_game(plain[i], &games[i]);
            mcts_set_game(batched[i], &games[i]);
        }
        OwnEvaluator own = {g, &w, mcts_coarse_share(&cfg, g, &w), 0, 0};
        MctsResult *results = malloc(GAMES * sizeof *results), *want = malloc(sizeof *want);
        CHECK(t, mcts_search_batched(batched, GAMES, 600, 1, 0, evaluate_own, &own, results));
        int differ = 0;
        for (int i = 0; i < GAMES; i++) {
            MctsLimits limits = {600, 0};
            *want = mcts_search(plain[i], &limits, NULL, NULL, 0, NULL);
            differ += !same_result(want, &results[i]);
        }
        if (differ)
            fprintf(stderr, "  %s: %d of %d batched searches differ from mcts_search\n", variants[v], differ, GAMES);
        CHECK(t, differ == 0);
        CHECK(t, own.calls == own.leaves);
        CHECK(t, own.leaves > 0);
        /* one visit of each tree in flight at a time: batches across the trees, and each tree's
         * visits still one after the other, so every result is mcts_search's again */
        OwnEvaluator spread = own;
        spread.calls = spread.leaves = 0;
        for (int i = 0; i < GAMES; i++) {
            mcts_restart(batched[i], cfg.seed);
            mcts_set_game(batched[i], &games[i]);
            mcts_restart(plain[i], cfg.seed);
            mcts_set_game(plain[i], &games[i]);
        }
        CHECK(t, mcts_search_batched(batched, GAMES, 600, 16, 1, evaluate_own, &spread, results));
        differ = 0;
        for (int i = 0; i < GAMES; i++) {
            MctsLimits limits = {600, 0};
            *want = mcts_search(plain[i], &limits, NULL, NULL, 0, NULL);
            differ += !same_result(want, &results[i]);
        }
        if (differ)
            fprintf(stderr, "  %s: %d of %d searches one visit per tree at a time differ\n", variants[v], differ, GAMES);
        CHECK(t, differ == 0);
        CHECK(t, spread.calls * 2 < spread.leaves);
        /* in batches of 16 the leaves of all three trees share the evaluator's calls */
        OwnEvaluator wide = own;
        wide.calls = wide.leaves = 0;
        for (int i = 0; i < GAMES; i++) {
            mcts_restart(batched[i], 1);
            mcts_set_game(batched[i], &games[i]);
        }
        CHECK(t, mcts_search_batched(batched, GAMES, 600, 16, 0, evaluate_own, &wide, results));
        for (int i = 0; i < GAMES; i++)
            CHECK(t, results[i].solved || (results[i].visits == 600 && results[i].best != MOVE_NONE));
        CHECK(t, wide.calls < wide.leaves / 4);
        for (int i = 0; i < GAMES; i++) {
            mcts_free(plain[i]);
            mcts_free(batched[i]);
            game_so_far_free(&games[i]);
        }
        free(results);
        free(want);
        weights_dispose(&w);
        game_free(g);
    }
}

static bool evaluate_fails(MctsLeaf *leaves, int n, void *ctx)
{
    (void)leaves, (void)n;
    return ++*(int *)ctx < 3;
}

/* An evaluator that fails stops the search: false, and no more calls. */
static void test_batched_evaluator_fails(TestContext *t)
{
    Setup s;
    if (!setup(t, &s, 8, 8))
        return;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    cfg.max_nodes = 1 << 14;
    Mcts *m = mcts_new(s.game, &s.weights, &cfg);
    mcts_set_position(m, &s.start);
    int calls = 0;
    MctsResult r;
    CHECK(t, !mcts_search_batched(&m, 1, 500, 4, 0, evaluate_fails, &calls, &r) && calls == 3);
    mcts_free(m);
    weights_dispose(&s.weights);
    game_free(s.game);
}

const TestCase mcts_tests[] = {
    {"batched_equals_search", test_batched_equals_search},
    {"batched_evaluator_fails", test_batched_evaluator_fails},
    {"kept_tree_positions", test_kept_tree_positions},
    {"proof_lengths", test_proof_lengths},
    {"repeating_reply_first", test_repeating_reply_first},
    {"coarse_share", test_coarse_share},
    {"first_search_pays_no_setup", test_first_search_pays_no_setup},
    {"nodes_within_budget", test_nodes_within_budget},
    {"nodes_in_use_with_threads", test_nodes_in_use_with_threads},
    {NULL, NULL},
};
