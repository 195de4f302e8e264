/*
 * mcts_batch.c - searches whose leaves an evaluator outside the search judges, many leaves at a
 * time across many trees (mcts.h: mcts_search_batched).  A visit walks down as mcts.c's does;
 * where it would evaluate a leaf it stops, with its path's visits counted (the virtual loss that
 * sends the next visit elsewhere), and the leaf waits in the batch.  When the batch is full, or
 * every tree has had its turn, the evaluator judges all of its leaves, and each visit is finished
 * in the order it began: the leaf's priors kept for its expansion (prior_cache.h), its value
 * backed up.  One thread does it all, so the searches are reproducible.
 */
#include "mcts_internal.h"

#include "core/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A visit waiting for its leaf's evaluation. */
typedef struct {
    int tree;
    LeafRequest leaf;
    int depth;
    size_t path;            /* its path in the batch's path arena */
    size_t moves;           /* its moves and priors in the batch's arenas */
    int num_moves;
} Pending;

typedef struct {
    Pending *pending;
    MctsLeaf *leaves;
    uint32_t *paths;        /* batch x MAX_DEPTH */
    Move *moves;            /* batch x MAX_MOVES */
    float *priors;          /* batch x MAX_MOVES */
    int count, capacity;
    bool out_of_memory;     /* a pending position could not be marked in its tree's prior cache */
} Batch;

typedef struct {
    long started, completed;
    bool finished;
} TreeState;

static bool batch_init(Batch *b, int capacity)
{
    b->count = 0;
    b->capacity = capacity;
    b->pending = malloc((size_t)capacity * sizeof *b->pending);
    b->leaves = malloc((size_t)capacity * sizeof *b->leaves);
    b->paths = malloc((size_t)capacity * MAX_DEPTH * sizeof *b->paths);
    b->moves = malloc((size_t)capacity * MAX_MOVES * sizeof *b->moves);
    b->priors = malloc((size_t)capacity * MAX_MOVES * sizeof *b->priors);
    return b->pending && b->leaves && b->paths && b->moves && b->priors;
}

static void batch_free(Batch *b)
{
    free(b->pending);
    free(b->leaves);
    free(b->paths);
    free(b->moves);
    free(b->priors);
}

/* Adds a deferred visit of tree t: its leaf and its worker's path of `depth` nodes (0 for a
 * request of priors alone).  A position whose priors will come is marked in the tree's cache, so
 * that a visit meeting it meanwhile knows it for a collision. */
static void batch_add(Batch *b, Mcts *m, int t, const LeafRequest *leaf, const Worker *w, int depth)
{
    static const float none[1];
    Pending *p = &b->pending[b->count];
    const size_t slot = (size_t)b->count++;
    *p = (Pending){t, *leaf, depth, slot * MAX_DEPTH, slot * MAX_MOVES, 0};
    memcpy(b->paths + p->path, w->path, (size_t)depth * sizeof *w->path);
    p->num_moves = game_gen_moves(m->game, &p->leaf.pos, b->moves + p->moves);
    if ((leaf->kind == LEAF_FRESH || leaf->kind == LEAF_PRIORS) &&
        !prior_cache_put(m->priors, game_hash(m->game, &p->leaf.pos), 0, none))
        b->out_of_memory = true;
}

/* The evaluator's leaves, one per pending visit, and its answer. */
static bool evaluate_batch(Batch *b, MctsEvaluateFn evaluate, void *ctx)
{
    for (int i = 0; i < b->count; i++) {
        Pending *p = &b->pending[i];
        b->leaves[i] = (MctsLeaf){p->tree, &p->leaf.pos, b->moves + p->moves, p->num_moves, 0.5, b->priors + p->moves};
        for (int k = 0; k < p->num_moves; k++)
            b->priors[p->moves + k] = 1.0f;
    }
    return evaluate(b->leaves, b->count, ctx);
}

/* The evaluator's scores as the search's priors: normalised as value_move_priors normalises its
 * own (a score that is not a positive number counts as no chance; none at all: uniform). */
static void normalise(float *priors, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (!(priors[i] > 0) || !isfinite(priors[i]))
            priors[i] = 0.0f;
        sum += priors[i];
    }
    for (int i = 0; i < n; i++)
        priors[i] = sum > 0 ? (float)(priors[i] / sum) : 1.0f / (float)n;
}

/* Finishes the pending visits in the order they began; false when memory runs out. */
static bool finish_batch(Batch *b, Mcts *const *trees, TreeState *state)
{
    for (int i = 0; i < b->count; i++) {
        const Pending *p = &b->pending[i];
        Mcts *m = trees[p->tree];
        const MctsLeaf *leaf = &b->leaves[i];
        const bool with_priors = p->leaf.kind == LEAF_FRESH || p->leaf.kind == LEAF_PRIORS;
        if (with_priors && p->num_moves > 0) {
            normalise(leaf->priors, p->num_moves);
            if (!prior_cache_put(m->priors, game_hash(m->game, &p->leaf.pos), p->num_moves, leaf->priors))
                return false;
        }
        if (p->leaf.kind == LEAF_PRIORS)
            continue;       /* no visit ended there: the value goes unused */
        const double v = isfinite(leaf->value) ? fmin(fmax(leaf->value, 0.0), 1.0) : 0.5;
        mcts_backup(m, b->paths + p->path, p->depth, 1.0 - v);
        state[p->tree].completed++;
    }
    b->count = 0;
    return true;
}

/* One visit of tree t: finished at once (a proof, a repetition, a solved or finished game),
 * deferred into the batch, or taken back on a collision or a node whose priors are to be asked
 * for (the request then waits in the batch).  False after one of those. */
static bool visit_or_defer(Batch *b, Mcts *const *trees, int t, TreeState *state)
{
    Mcts *m = trees[t];
    Worker *w = mcts_search_worker(m, 0);
    LeafRequest request = {LEAF_NONE, 0, {{0}}};
    Position pos = m->root_pos;
    int depth = 0;
    w->defer = &request;
    const double value = mcts_descend(m, w, &pos, &depth);
    w->defer = NULL;
    if (request.kind == LEAF_COLLISION || request.kind == LEAF_PRIORS) {
        mcts_take_back(m, w->path, depth);
        if (request.kind == LEAF_PRIORS)
            batch_add(b, m, t, &request, w, 0);
        return false;
    }
    state[t].started++;
    if (request.kind == LEAF_NONE) {
        mcts_backup(m, w->path, depth, value);
        state[t].completed++;
    } else {
        batch_add(b, m, t, &request, w, depth);
    }
    return true;
}

static bool root_proven(const Mcts *m)
{
    return atomic_load_explicit(&m->tree.nodes[0].proven, memory_order_relaxed) != PROVEN_NONE;
}

/* Fills the batch with visits, tree by tree, each until its visits are all under way, it
 * collides, it has per_tree visits waiting, or the batch is full. */
static void fill_batch(Batch *b, Mcts *const *trees, int count, long visits, long per_tree, TreeState *state)
{
    for (int t = 0; t < count && b->count < b->capacity; t++) {
        Mcts *m = trees[t];
        while (!state[t].finished && b->count < b->capacity && state[t].started < visits && !root_proven(m) &&
               state[t].started - state[t].completed < per_tree)
            if (!visit_or_defer(b, trees, t, state))
                break;
    }
}

/* The roots: solved first where the game has a solver (the result is then the solve's), else
 * evaluated (deferred into the batch) and, once evaluated, expanded with root noise, as
 * mcts.c's prepare_root does. */
static bool prepare_roots(Batch *b, Mcts *const *trees, int count, long visits, TreeState *state,
                          MctsEvaluateFn evaluate, void *ctx, MctsResult *results)
{
    for (int t = 0; t < count; t++) {
        Mcts *m = trees[t];
        const MctsLimits limits = {visits, 0};
        mcts_begin_search(m, &limits, NULL);
        state[t] = (TreeState){0, 0, false};
        if (!m->priors && !(m->priors = prior_cache_new()))
            return false;
        if (mcts_solve_root(m, &results[t])) {
            state[t].finished = true;
            continue;
        }
        mcts_reopen_solved_root(m);
        Worker *w = &m->workers[0];
        w->rng = rng_seed(m->cfg.seed ^ game_hash(m->game, &m->root_pos), 0);
        Node *root = &m->tree.nodes[0];
        const bool fresh = atomic_load(&root->state) == NODE_FRESH;
        /* a kept root that was never evaluated itself needs its priors alone */
        const bool priors_only = !fresh && !node_expanded(root) &&
                                 !prior_cache_has(m->priors, game_hash(m->game, &m->root_pos));
        if ((!fresh && !priors_only) || root->proven != PROVEN_NONE)
            continue;
        if (b->count == b->capacity && (!evaluate_batch(b, evaluate, ctx) || !finish_batch(b, trees, state)))
            return false;
        if (priors_only) {
            const LeafRequest request = {LEAF_PRIORS, 0, m->root_pos};
            batch_add(b, m, t, &request, w, 0);
            continue;
        }
        atomic_fetch_add(&root->visits, 1);
        LeafRequest request = {LEAF_NONE, 0, {{0}}};
        w->defer = &request;
        w->path[0] = 0;
        const double value = mcts_evaluate_fresh(m, w, root, &m->root_pos, true);
        w->defer = NULL;
        if (request.kind == LEAF_NONE)
            mcts_backup(m, w->path, 1, value);
        else
            batch_add(b, m, t, &request, w, 1);
    }
    if (b->out_of_memory || (b->count && (!evaluate_batch(b, evaluate, ctx) || !finish_batch(b, trees, state))))
        return false;
    for (int t = 0; t < count; t++) {
        if (state[t].finished)
            continue;
        Mcts *m = trees[t];
        Worker *w = &m->workers[0];
        LeafRequest request = {LEAF_NONE, 0, {{0}}};
        w->defer = &request;
        if (!node_expanded(&m->tree.nodes[0]) && m->tree.nodes[0].proven == PROVEN_NONE)
            mcts_expand(m, w, &m->tree.nodes[0], &m->root_pos, 0);
        w->defer = NULL;
        mcts_add_root_noise(m, &w->rng);
        state[t].completed = 0;
        mcts_search_worker(m, 0)->rng = rng_seed(m->cfg.seed, 1);
    }
    return true;
}

static void collect(Mcts *const *trees, int count, const TreeState *state, MctsResult *results)
{
    for (int t = 0; t < count; t++) {
        Mcts *m = trees[t];
        if (results[t].solved && state[t].finished && state[t].started == 0)
            continue;
        mcts_collect_result(m, &results[t], true);
        results[t].visits = state[t].completed;
        results[t].seconds = clock_seconds() - m->start_time;
    }
}

bool mcts_search_batched(Mcts *const *trees, int count, long visits, int batch, int per_tree, MctsEvaluateFn evaluate,
                         void *ctx, MctsResult *results)
{
    const long in_flight = per_tree > 0 ? per_tree : batch > 0 ? batch : 1;
    Batch b = {0};
    TreeState *state = calloc((size_t)(count > 0 ? count : 1), sizeof *state);
    for (int t = 0; t < count; t++)
        results[t].solved = false;
    bool ok = state && batch_init(&b, batch > 0 ? batch : 1) && prepare_roots(&b, trees, count, visits, state,
                                                                              evaluate, ctx, results);
    while (ok) {
        fill_batch(&b, trees, count, visits, in_flight, state);
        if (b.count == 0 || (ok = !b.out_of_memory) == false)
            break;
        ok = evaluate_batch(&b, evaluate, ctx) && finish_batch(&b, trees, state);
    }
    if (state)
        collect(trees, count, state, results);
    batch_free(&b);
    free(state);
    return ok;
}
