/*
 * test_mcts.c - what the search reports about itself (selfplay/mcts.h): the nodes it has in use
 * stay within the node budget however many visits it makes, and count only the nodes in the
 * tree (a node made by a thread that lost the race for an edge is no part of it).
 */
#include "data/weights.h"
#include "selfplay/mcts.h"
#include "test.h"

typedef struct {
    Game *game;
    Position start;
    Weights weights;
} Setup;

static bool setup(TestContext *t, Setup *s, int width, int height)
{
    Error err = {{0}};
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
    game_free(s.game);
}

const TestCase mcts_tests[] = {
    {"nodes_within_budget", test_nodes_within_budget},
    {"nodes_in_use_with_threads", test_nodes_in_use_with_threads},
    {NULL, NULL},
};
