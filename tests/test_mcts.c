/*
 * test_mcts.c - what the search reports about itself (selfplay/mcts.h): the nodes it has in use
 * stay within the node budget however many visits it makes, and count only the nodes in the
 * tree (a node made by a thread that lost the race for an edge is no part of it).
 */
#include "data/weights.h"
#include "selfplay/mcts.h"
#include "test.h"

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
    Setup s;
    if (!setup(t, &s, 14, 12))
        return;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    MctsLimits limits = {300, 0};
    MctsResult *r = calloc(1, sizeof *r);
    Mcts *warm = mcts_new(s.game, &s.weights, &cfg), *m = NULL;
    CHECK(t, r && warm);
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

const TestCase mcts_tests[] = {
    {"first_search_pays_no_setup", test_first_search_pays_no_setup},
    {"nodes_within_budget", test_nodes_within_budget},
    {"nodes_in_use_with_threads", test_nodes_in_use_with_threads},
    {NULL, NULL},
};
