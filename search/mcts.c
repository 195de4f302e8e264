/*
 * mcts.c - the search (see mcts.h; the tree's memory is mcts_tree.c).
 *
 * One visit walks from the root along PUCT choices, adding 1 to each node's visit count on the
 * way down and its value on the way up: a visit in flight counts as a loss for the moves on its
 * path, the virtual loss that spreads threads over different lines.  A leaf is evaluated on its
 * first visit and expanded (moves listed, priors scored and sorted) on its second, so the many
 * leaves that are never revisited cost one evaluation and no memory for moves.
 *
 * Threads share the tree.  Fields written while others read are atomic: counts and sums with
 * relaxed adds, a node's state with acquire/release so that whoever sees EXPANDED sees the children.
 */
#include "mcts_internal.h"

#include "core/clock.h"
#include "core/playout.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Transposition tables: the root's solves reach ~18 empties, the leaves' ~12. */
enum { ROOT_SOLVER_BYTES = 8 << 20, LEAF_SOLVER_BYTES = 1 << 20 };

/* Solver nodes a visit of the budget pays for: a visit costs some microseconds, a solver node some
 * tens of nanoseconds, so a search of V visits spends at most ~V visits' time again in its solves
 * (`solve=64,visits=100` then ends like any 100-visit search), while the default solves (12 and
 * 18 empties) stay well inside it. */
#define SOLVER_NODES_PER_VISIT 16384

/* The share of a deadline's time a root solve may take.  On self-play positions a win/loss/draw
 * solve of 18 empties took 3.3 ms at the median and more than 10 ms one time in five (30
 * positions), so at 10 ms a move a fifth of those roots were played with no search at all. */
#define ROOT_SOLVE_TIME_SHARE 0.5

size_t mcts_node_bytes(void) { return sizeof(Node); }

void mcts_default_config(MctsConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->c_puct = 1.5;
    cfg->c_puct_learned = 0.7;
    cfg->fpu_reduction = 0.0;
    cfg->threads = 1;
    cfg->max_nodes = (size_t)1 << 22;
    cfg->seed = 1;
    cfg->noise_alpha = 0.3;
    cfg->contempt = 0.5;
    cfg->solve_empties = 12;
    cfg->root_solve_empties = 18;
    cfg->coarse_share = -1;
}

/* How much of a position the tree keeps for each expanded node: all of its state where that is
 * small (a Reversi board's 32 bytes: one node's room) and no visit needs the positions along
 * its path, which only the repetition checks do. */
static size_t stored_position_bytes(const Game *g)
{
    size_t bytes = g->ops->position_bytes;
    return g->ops->never_repeats && bytes > 0 && bytes <= 64 ? bytes : 0;
}

Mcts *mcts_new(const Game *g, const Weights *w, const MctsConfig *cfg)
{
    /* aligned_alloc, not calloc: the counters threads share sit on their own 64-byte lines
     * (_Alignas), which holds only if the struct itself starts on one. */
    const double start = clock_seconds();
    size_t size = (sizeof(Mcts) + 63) / 64 * 64;
    Mcts *m = aligned_alloc(64, size);
    if (!m)
        return NULL;
    memset(m, 0, size);
    m->game = g;
    m->weights = w;
    m->cfg = *cfg;
    m->c_puct = mcts_exploration(cfg, w);
    m->coarse_share = mcts_coarse_share(cfg, g, w);
    if (m->cfg.max_nodes < 1024)
        m->cfg.max_nodes = 1024;
    if (m->cfg.threads < 1)
        m->cfg.threads = 1;
    m->shared = m->cfg.threads > 1;
    /* An expanded node has ~100 children in the phalanx games; a pool of 16 nodes for each
     * visited one is room enough since most nodes are leaves.  The workers and the result are
     * made here, not per search: each search had malloc'd them afresh, and the first paid their
     * page faults. */
    size_t workers = (size_t)m->cfg.threads + 1;
    m->workers = aligned_alloc(64, workers * sizeof *m->workers);
    m->result = malloc(sizeof *m->result);
    bool ok = m->workers && m->result && mcts_tree_init(&m->tree, m->cfg.max_nodes, m->cfg.max_nodes * 16);
    if (ok)
        memset(m->result, 0, sizeof *m->result);    /* its pages touched now, not in a search */
    for (size_t i = 0; ok && i < workers; i++) {
        memset(&m->workers[i], 0, sizeof m->workers[i]);
        m->workers[i].features = w && g->ops->features ? value_feature_cache_new(g) : NULL;
    }
    if (!ok) {
        free(m->workers);
        free(m->result);
        free(m);
        return NULL;
    }
    for (int i = 1; i < RECIPROCALS; i++)
        m->reciprocal[i] = 1.0 / i / VALUE_ONE;
    m->stored_bytes = stored_position_bytes(g);
    m->tree.position_slots = (uint32_t)((m->stored_bytes + sizeof(Node) - 1) / sizeof(Node));
    m->setup_seconds = clock_seconds() - start;
    return m;
}

double mcts_setup_seconds(const Mcts *m) { return m->setup_seconds; }

double mcts_exploration(const MctsConfig *cfg, const Weights *w)
{
    return w && w->policy ? cfg->c_puct_learned : cfg->c_puct;
}

double mcts_coarse_share(const MctsConfig *cfg, const Game *g, const Weights *w)
{
    if (!w || !w->tables)
        return 0;
    return cfg->coarse_share >= 0 ? cfg->coarse_share : g->ops->coarse_share;
}

void mcts_free(Mcts *m)
{
    if (!m)
        return;
    mcts_tree_free(&m->tree);
    solver_free(m->root_solver);
    for (int i = 0; i <= m->cfg.threads; i++) {
        value_feature_cache_free(m->workers[i].features);
        solver_free(m->workers[i].solver);
    }
    free(m->workers);
    free(m->result);
    prior_cache_free(m->priors);
    free(m);
}

/* A tree afresh; a batched search's priors go with it (no node is left to expand with them, and
 * a long self-play run would keep every position's). */
static void reset_tree(Mcts *m)
{
    mcts_tree_reset(&m->tree);
    if (m->priors)
        prior_cache_clear(m->priors);
}

void mcts_clear(Mcts *m) { reset_tree(m); }

void mcts_restart(Mcts *m, uint64_t seed)
{
    m->cfg.seed = seed;
    reset_tree(m);
    m->has_root = false;
    mcts_set_history(m, NULL, 0);
    /* A game's moves must not depend on the games this search played before. */
    if (m->root_solver)
        solver_clear(m->root_solver);
}

/* --- tree reuse ------------------------------------------------------------------------------- */

/* The node one or two plies below the root whose position has this hash, or 0. */
static uint32_t find_descendant(Mcts *m, uint64_t hash)
{
    const Game *g = m->game;
    const Tree *t = &m->tree;
    const Node *root = &t->nodes[0];
    if (!node_expanded(root))
        return 0;
    for (uint32_t i = 0; i < root->num_children; i++) {
        const uint32_t index = root->first_child + i;
        const Node *c = &t->nodes[index];
        if (!node_visited(c))
            continue;
        Position child = m->root_pos;
        Undo undo;
        game_make(g, &child, c->move, &undo);
        if (game_hash(g, &child) == hash)
            return index;
        for (uint32_t k = 0; node_expanded(c) && k < c->num_children; k++) {
            const Node *gc = &t->nodes[c->first_child + k];
            if (!node_visited(gc))
                continue;
            Position grandchild = child;
            game_make(g, &grandchild, gc->move, &undo);
            if (game_hash(g, &grandchild) == hash)
                return c->first_child + k;
        }
    }
    return 0;
}

void mcts_set_position(Mcts *m, const Position *pos)
{
    uint64_t hash = game_hash(m->game, pos);
    if (m->has_root && game_hash(m->game, &m->root_pos) == hash)
        return;
    uint32_t keep = m->has_root ? find_descendant(m, hash) : 0;
    if (!keep || !mcts_tree_keep_subtree(&m->tree, keep))
        reset_tree(m);
    m->root_pos = *pos;
    m->has_root = true;
}

void mcts_set_history(Mcts *m, const uint64_t *hashes, int n)
{
    if (n > MAX_HISTORY) {
        hashes += n - MAX_HISTORY;
        n = MAX_HISTORY;
    }
    if (n > 0)
        memcpy(m->history, hashes, (size_t)n * sizeof *hashes);
    m->history_length = n;
    memset(m->history_filter, 0, sizeof m->history_filter);
    for (int i = 0; i < n; i++)
        m->history_filter[hashes[i] >> 58] |= 1ull << (hashes[i] >> 52 & 63);
}

void mcts_set_game(Mcts *m, const GameSoFar *game)
{
    mcts_set_history(m, game->hashes, game->plies);
    mcts_set_position(m, &game->now);
}

static bool in_history(const Mcts *m, uint64_t h)
{
    if (!(m->history_filter[h >> 58] >> (h >> 52 & 63) & 1))
        return false;
    for (int i = m->history_length - 1; i >= 0; i--)
        if (m->history[i] == h)
            return true;
    return false;
}

/* Whether the position at depth d of the visit repeats an earlier one with the same side to move:
 * on the path (every second ply back) or in the game before the root. */
static bool repeats(const Mcts *m, const Worker *w, int d)
{
    uint64_t h = w->path_hash[d];
    for (int i = d - 2; i >= 0; i -= 2)
        if (w->path_hash[i] == h)
            return true;
    return in_history(m, h);
}

/* The opponent's replies to a root move that bring back a position of the game (the root's
 * included) get the highest prior, so that the search tries them first.  The driver scores the
 * third occurrence as a draw, and a won game drifted into one when the one reply that claimed it
 * had too low a prior for PUCT ever to try it (6 of 100 games against greedy). */
static void raise_repeating_replies(const Mcts *m, const Position *pos, const Move *moves, int n, float *priors)
{
    const uint64_t root = game_hash(m->game, &m->root_pos);
    for (int i = 0; i < n; i++) {
        Position after = *pos;
        Undo undo;
        game_make(m->game, &after, moves[i], &undo);
        const uint64_t h = game_hash(m->game, &after);
        if (h == root || in_history(m, h))
            priors[i] = 1.0f;
    }
}

/* --- evaluation and expansion ----------------------------------------------------------------- */

static double proven_value(int proven)
{
    return proven == PROVEN_WIN ? 1.0 : proven == PROVEN_LOSS ? 0.0 : 0.5;
}

/* The result of a finished game for the player who moved into it. */
static int terminal_result(const Game *g, const Position *pos)
{
    GameStatus s = game_status(g, pos);
    if (s == STATUS_DRAW || s == STATUS_ONGOING)
        return PROVEN_DRAW;
    int winner = s == STATUS_WHITE_WINS ? WHITE : BLACK;
    return winner == game_side_to_move(g, pos) ? PROVEN_LOSS : PROVEN_WIN;
}

/* The win probability of the side to move by the evaluation.  Consecutive leaves of a search
 * are near each other in the tree, so the thread's feature cache redoes only the lines that
 * differ from the previous leaf (bit for bit the same features, 25% fewer instructions a visit). */
static double evaluate(const Mcts *m, Worker *w, const Position *pos)
{
    return value_search(m->game, m->weights, w->features, pos, m->coarse_share);
}

/* The value of an unfinished position for the player who moved into it; in a batched search,
 * NAN with the leaf deferred to the evaluator (a collision already found stays one). */
static double leaf_value(const Mcts *m, Worker *w, const Position *pos)
{
    const Game *g = m->game;
    if (w->defer) {
        if (w->defer->kind != LEAF_COLLISION && w->defer->kind != LEAF_PRIORS)
            *w->defer = (LeafRequest){LEAF_AGAIN, 0, *pos};
        return NAN;
    }
    if (m->cfg.playouts || !g->ops->features || !m->weights) {
        Position copy = *pos;
        int mover = game_side_to_move(g, pos);
        PlayoutResult r = playout_random(g, &copy, &w->rng, 1000, w->moves);
        if (r.status == STATUS_DRAW || r.status == STATUS_ONGOING)
            return 0.5;
        return (r.status == STATUS_WHITE_WINS) == (mover == WHITE) ? 0.0 : 1.0;
    }
    return 1.0 - evaluate(m, w, pos);
}

/* A proven leaf: the game is over (0 plies to its end), or solved (its empty squares stand in for
 * the plies left). */
static void set_proven(Node *node, int result, int plies);

static double prove_leaf(Node *node, int result, int plies)
{
    set_proven(node, result, plies);
    atomic_store_explicit(&node->state, NODE_EXPANDED, memory_order_release);
    return proven_value(result);
}

/* The solver's result for the player who moved into pos, or PROVEN_NONE when pos is not for it. */
/* The limits of a solve now: false when the search has nothing left to give it. */
static bool solve_limits(Mcts *m, SolveLimits *out)
{
    const int64_t nodes = atomic_load_explicit(&m->solver_nodes_left, memory_order_relaxed);
    const double seconds = m->deadline > 0 ? m->deadline - clock_seconds() : 0;
    if (nodes <= 0 || (m->deadline > 0 && seconds <= 0))
        return false;
    *out = (SolveLimits){m->stop, seconds, nodes == INT64_MAX ? 0 : (uint64_t)nodes};
    return true;
}

/* A win/loss/draw solve within the search's limits, with time_share of the time left to its
 * deadline: stopped when they run out (its result then means nothing). */
static SolveResult limited_solve(Mcts *m, Solver *s, const Position *pos, double time_share)
{
    SolveLimits limits;
    if (!solve_limits(m, &limits))
        return (SolveResult){.stopped = true};
    limits.seconds *= time_share;
    const SolveResult r = solver_run(s, pos, SOLVE_WLD, &limits);
    if (limits.max_nodes > 0)
        atomic_fetch_sub_explicit(&m->solver_nodes_left, (int64_t)r.nodes, memory_order_relaxed);
    return r;
}

/* The solver's result for the player who moved into pos, or PROVEN_NONE when pos is not for it
 * or the search's limits stopped the solve. */
static int solved_result(Mcts *m, Worker *w, const Position *pos)
{
    if (!w->solver || solve_empties(m->game, pos) > m->cfg.solve_empties)
        return PROVEN_NONE;
    const SolveResult r = limited_solve(m, w->solver, pos, 1.0);
    if (r.stopped)
        return PROVEN_NONE;
    return r.score > 0 ? PROVEN_LOSS : r.score < 0 ? PROVEN_WIN : PROVEN_DRAW;
}

/* First visit of a node: a finished game is proven, an endgame the solver takes is solved
 * (but never the root, which needs moves to choose from), anything else evaluated. */
double mcts_evaluate_fresh(Mcts *m, Worker *w, Node *node, const Position *pos, bool root)
{
    if (game_status(m->game, pos) != STATUS_ONGOING)
        return prove_leaf(node, terminal_result(m->game, pos), 0);
    const int solved = root ? PROVEN_NONE : solved_result(m, w, pos);
    if (solved != PROVEN_NONE)
        return prove_leaf(node, solved, solve_empties(m->game, pos));
    uint8_t fresh = NODE_FRESH;
    atomic_compare_exchange_strong(&node->state, &fresh, NODE_EVALUATED);
    const double value = leaf_value(m, w, pos);
    if (w->defer)
        *w->defer = (LeafRequest){LEAF_FRESH, (uint32_t)(node - m->tree.nodes), *pos};
    return value;
}

/* The priors of the n moves of pos: the evaluation's, or in a batched search the evaluator's,
 * kept when it evaluated pos; false when they are not there yet: pos's evaluation is pending in
 * the batch (a collision), or pos was never evaluated (its priors are to be asked for). */
static bool move_priors(const Mcts *m, Worker *w, const Position *pos, int n)
{
    if (!w->defer) {
        value_move_priors_cached(m->game, m->weights, w->features, pos, w->moves, n, w->priors);
        return true;
    }
    const uint64_t hash = game_hash(m->game, pos);
    if (prior_cache_get(m->priors, hash, n, w->priors))
        return true;
    if (prior_cache_has(m->priors, hash))
        w->defer->kind = LEAF_COLLISION;
    else
        *w->defer = (LeafRequest){LEAF_PRIORS, 0, *pos};
    return false;
}

/* Brings the highest-prior child of children[from, n) to position `from`.  Only unvisited
 * children are moved, and those differ only in their move and prior. */
static void promote_best(Node *children, uint32_t from, uint32_t n)
{
    uint32_t best = from;
    for (uint32_t i = from + 1; i < n; i++)
        if (children[i].prior > children[best].prior)
            best = i;
    if (best != from) {
        const Move move = children[from].move;
        const float prior = children[from].prior;
        children[from].move = children[best].move;
        children[from].prior = children[best].prior;
        children[best].move = move;
        children[best].prior = prior;
    }
}

/* How many children a fresh expansion puts in order: enough for most nodes' whole life. */
enum { FIRST_ORDERED = 4 };

/* Lists the node's moves as children, the best few by prior in order.  False if another thread
 * is at it or memory is out; the caller then treats the node as a leaf. */
bool mcts_expand(Mcts *m, Worker *w, Node *node, const Position *pos, int depth)
{
    uint8_t expected = NODE_EVALUATED;
    if (!atomic_compare_exchange_strong(&node->state, &expected, NODE_EXPANDING))
        return false;
    int n = game_gen_moves(m->game, pos, w->moves);
    if (n > 0 && n <= 65535 && !move_priors(m, w, pos, n)) {
        atomic_store_explicit(&node->state, NODE_EVALUATED, memory_order_release);
        return false;
    }
    uint32_t first;
    if (n == 0 || n > 65535 || !mcts_tree_reserve_children(&m->tree, (uint32_t)n, &first)) {
        atomic_store_explicit(&node->state, NODE_FULL, memory_order_release);
        return false;
    }
    if (depth == 1 && !m->game->ops->never_repeats)
        raise_repeating_replies(m, pos, w->moves, n, w->priors);
    Node *children = &m->tree.nodes[first];
    if (m->stored_bytes)
        memcpy((unsigned char *)&children[-(ptrdiff_t)m->tree.position_slots], pos, m->stored_bytes);
    for (int i = 0; i < n; i++) {
        children[i].move = w->moves[i];
        children[i].prior = w->priors[i];
    }
    uint32_t ordered = n < FIRST_ORDERED ? (uint32_t)n : FIRST_ORDERED;
    for (uint32_t i = 0; i < ordered; i++)
        promote_best(children, i, (uint32_t)n);
    atomic_store_explicit(&node->ordered, (uint16_t)ordered, memory_order_relaxed);
    atomic_store_explicit(&node->first_child, first, memory_order_relaxed);
    atomic_store_explicit(&node->num_children, (uint16_t)n, memory_order_relaxed);
    atomic_store_explicit(&node->state, NODE_EXPANDED, memory_order_release);
    return true;
}

/* --- selection -------------------------------------------------------------------------------- */

/* Extends the node's ordered prefix by one child unless another thread is doing so; returns the
 * length of the prefix that may be read. */
static uint32_t extend_ordered(Node *node, Node *children, uint32_t ordered)
{
    if (ordered >= node->num_children || atomic_flag_test_and_set_explicit(&node->ordering, memory_order_acquire))
        return ordered;
    ordered = atomic_load_explicit(&node->ordered, memory_order_acquire);
    if (ordered < node->num_children) {
        promote_best(children, ordered, node->num_children);
        atomic_store_explicit(&node->ordered, (uint16_t)++ordered, memory_order_release);
    }
    atomic_flag_clear_explicit(&node->ordering, memory_order_release);
    return ordered;
}

/* A visited child's PUCT score: its mean value plus its share of the exploration,
 * explore_prior / (1 + visits).  Both divisions are products with a table's reciprocals where
 * the count is small, as most children's are: the divider was what the selection loop waited
 * on (1.10x visits/s in Reversi, whose deep trees score ~130 children a visit).  The table holds
 * 1 / n / VALUE_ONE and explore_prior comes in VALUE_ONE times too large, so that the value
 * sum's fixed point costs no multiply of its own: a power of two moves no rounding, and the
 * score is the same double as sum / VALUE_ONE / visits + explore_prior / (1 + visits) with each
 * division a product by the rounded reciprocal. */
static inline double puct_score(const Mcts *m, const Node *c, uint32_t visits, double scaled_explore_prior)
{
    const double sum = (double)atomic_load_explicit(&c->value_sum, memory_order_relaxed);
    if (visits + 1 >= RECIPROCALS)
        return sum / (double)VALUE_ONE / visits + scaled_explore_prior / (double)VALUE_ONE / (1.0 + visits);
    const double *inverse = m->reciprocal;
    return sum * inverse[visits] + scaled_explore_prior * inverse[visits + 1];
}

/* PUCT over the visited children and the first unvisited one (the best of the unvisited, since
 * they differ only in prior).  A proven win is taken at once; proven losses only when all are.
 * The loop is what a visit spends most of its instructions on (Reversi's narrow trees: ~17
 * plies and ~130 children scored a visit), so the rare cases, proofs and the ordered prefix
 * used up, are kept out of its way. */
static Node *select_child(const Mcts *m, Node *parent)
{
    Node *const children = node_children(&m->tree, parent);
    uint32_t ordered = atomic_load_explicit(&parent->ordered, memory_order_acquire);
    const double explore = m->c_puct * sqrt((double)atomic_load_explicit(&parent->visits, memory_order_relaxed));
    const double scaled_explore = explore * (double)VALUE_ONE;
    double best_score = -INFINITY;
    Node *best = children, *end = children + ordered;
    for (Node *c = children;; c++) {
        if (c == end) {
            ordered = extend_ordered(parent, children, ordered);
            if (children + ordered == end)
                break;
            end = children + ordered;
        }
        const uint32_t visits = atomic_load_explicit(&c->visits, memory_order_relaxed);
        if (!visits) {
            const double fpu = 1.0 - node_mean(parent) - m->cfg.fpu_reduction;
            if (fpu + explore * c->prior > best_score)
                best = c;
            break;
        }
        double score = puct_score(m, c, visits, scaled_explore * c->prior);
        const int proven = atomic_load_explicit(&c->proven, memory_order_relaxed);
        if (__builtin_expect(proven != PROVEN_NONE, 0)) {
            if (proven == PROVEN_WIN)
                return c;
            if (proven == PROVEN_LOSS)
                score = -1e9 + visits;
        }
        if (score > best_score) {
            best_score = score;
            best = c;
        }
    }
    return best;
}

/* --- counts and sums --------------------------------------------------------------------------- */

/* Threads add to a node's visits and value with atomic adds.  A search on one thread adds with a
 * plain load and store instead (still atomic accesses, for whoever reads the tree meanwhile):
 * on one thread the locked adds along each visit's path took a third of the selection loop's
 * time (perf, Reversi at 200,000 visits), each one a stall on its node's cache line. */
static inline uint32_t add_visit(const Mcts *m, Node *node)
{
    if (m->shared)
        return atomic_fetch_add_explicit(&node->visits, 1, memory_order_relaxed);
    const uint32_t visits = atomic_load_explicit(&node->visits, memory_order_relaxed);
    atomic_store_explicit(&node->visits, visits + 1, memory_order_relaxed);
    return visits;
}

static inline void add_value(const Mcts *m, Node *node, int64_t value)
{
    if (m->shared)
        atomic_fetch_add_explicit(&node->value_sum, value, memory_order_relaxed);
    else
        atomic_store_explicit(&node->value_sum, atomic_load_explicit(&node->value_sum, memory_order_relaxed) + value,
                              memory_order_relaxed);
}

/* llround(value * VALUE_ONE), the same integer (halves away from zero) without the library call,
 * which the compiler does not inline and the backup made once a node of every visit. */
static inline int64_t fixed_point(double value)
{
    const double x = value * VALUE_ONE, magnitude = fabs(x);
    int64_t whole = (int64_t)magnitude;
    whole += magnitude - (double)whole >= 0.5;     /* exact: the fraction of a double is */
    return x < 0 ? -whole : whole;
}

/* Enters a child: false when it is the child's first visit and the node budget is spent (the
 * caller then stops at the parent).  Two threads may race into a fresh child: both count a new
 * node, and the one that comes second counts it lost. */
static bool enter_child(Mcts *m, Node *c)
{
    const bool fresh = !node_visited(c);
    if (fresh && !mcts_tree_claim_node(&m->tree, m->shared))
        return false;
    if (add_visit(m, c) > 0 && fresh)
        atomic_fetch_add_explicit(&m->tree.nodes_lost, 1, memory_order_relaxed);
    return true;
}

/* --- backup and proofs ------------------------------------------------------------------------ */

static void set_proven(Node *node, int result, int plies)
{
    atomic_store(&node->proven_plies, (uint8_t)(plies < 255 ? plies : 255));
    atomic_store(&node->proven, (uint8_t)result);
}

/* Marks `node` proven if its children decide it: one wins for the side to move here (by the
 * fewest plies of the wins known: a winner ends the game as soon as it can), or every move is
 * decided (a loser holds out the longest).  Returns whether it is proven. */
static bool prove(Mcts *m, Node *node)
{
    if (atomic_load(&node->proven) != PROVEN_NONE)
        return true;
    if (!node_expanded(node))
        return false;
    const Node *children = node_children(&m->tree, node);
    bool all_decided = true, any_draw = false, won = false;
    int win_plies = 255, loss_plies = 0;
    for (uint32_t i = 0; i < node->num_children; i++) {
        const Node *c = &children[i];
        int p = atomic_load(&c->proven), plies = atomic_load(&c->proven_plies);
        if (p == PROVEN_WIN) {
            won = true;
            win_plies = plies < win_plies ? plies : win_plies;
        }
        if (p == PROVEN_LOSS && plies > loss_plies)
            loss_plies = plies;
        all_decided = all_decided && p != PROVEN_NONE;
        any_draw = any_draw || p == PROVEN_DRAW;
    }
    if (won)
        set_proven(node, PROVEN_LOSS, win_plies + 1);
    else if (all_decided)
        set_proven(node, any_draw ? PROVEN_DRAW : PROVEN_WIN, loss_plies + 1);
    return won || all_decided;
}

/* Adds the leaf's value up the path, for the player who moved into each node: value, 1 - value,
 * 1 - (1 - value), ... in doubles.  For a value in [0, 1] the sequence alternates exactly from
 * its second term on (one of 1 - value and 1 - (1 - value) lies in [0.5, 1], where x, 1 - x and
 * 1 - (1 - x) = x are all exact), so three fixed points serve every ply. */
void mcts_backup(Mcts *m, const uint32_t *path, int depth, double value)
{
    const double other = 1.0 - value;
    const int64_t first = fixed_point(value), odd = fixed_point(other), even = fixed_point(1.0 - other);
    for (int i = depth - 1; i >= 0; i--) {
        const int from_leaf = depth - 1 - i;
        add_value(m, &m->tree.nodes[path[i]], from_leaf == 0 ? first : from_leaf % 2 ? odd : even);
    }
    for (int i = depth - 1; i >= 0 && prove(m, &m->tree.nodes[path[i]]); i--)
        ;
}

/* --- one visit -------------------------------------------------------------------------------- */

/* The current node's position where descend deferred the move into it: the stored position of
 * the node it came from, and that one move. */
static const Position *settle(const Mcts *m, Position *pos, const Node *from, Move *pending)
{
    if (*pending != MOVE_NONE) {
        Undo undo;
        memcpy(pos, node_position(&m->tree, from), m->stored_bytes);
        game_make(m->game, pos, *pending, &undo);
        *pending = MOVE_NONE;
    }
    return pos;
}

/* Walks down to a leaf; returns the leaf's value for the player who moved into it.  Where the tree
 * keeps positions, the moves on the way down are not made: each expanded node holds its own
 * position, so the leaf's is its parent's and one move (17 makes a visit became one in Reversi). */
double mcts_descend(Mcts *m, Worker *w, Position *pos, int *depth)
{
    Tree *t = &m->tree;
    Node *node = &t->nodes[0], *from = node;
    Move pending = MOVE_NONE;
    const bool can_repeat = !m->game->ops->never_repeats;
    add_visit(m, node);
    if (can_repeat)
        w->path_hash[*depth] = game_hash(m->game, pos);
    w->path[(*depth)++] = 0;
    for (;;) {
        /* The player who moved into depth d is the root side when d is odd. */
        if (*depth > 1 && can_repeat && repeats(m, w, *depth - 1))
            return (*depth - 1) % 2 ? 0.5 - m->cfg.contempt : 0.5 + m->cfg.contempt;
        int proven = atomic_load_explicit(&node->proven, memory_order_relaxed);
        if (proven != PROVEN_NONE)
            return proven_value(proven);
        uint8_t state = atomic_load_explicit(&node->state, memory_order_acquire);
        if (state == NODE_FRESH)
            return mcts_evaluate_fresh(m, w, node, settle(m, pos, from, &pending), *depth == 1);
        if (state != NODE_EXPANDED &&
            !(state == NODE_EVALUATED && mcts_expand(m, w, node, settle(m, pos, from, &pending), *depth - 1)))
            return leaf_value(m, w, settle(m, pos, from, &pending));
        if (*depth >= MAX_DEPTH)
            return leaf_value(m, w, settle(m, pos, from, &pending));
        Node *child = select_child(m, node);
        if (!enter_child(m, child))
            return leaf_value(m, w, settle(m, pos, from, &pending));
        if (m->stored_bytes) {
            from = node;
            pending = child->move;
        } else {
            Undo undo;
            game_make(m->game, pos, child->move, &undo);
        }
        node = child;
        if (can_repeat)
            w->path_hash[*depth] = game_hash(m->game, pos);
        w->path[(*depth)++] = (uint32_t)(child - t->nodes);
    }
}

void mcts_take_back(Mcts *m, const uint32_t *path, int depth)
{
    for (int i = 0; i < depth; i++) {
        Node *node = &m->tree.nodes[path[i]];
        atomic_store_explicit(&node->visits, atomic_load_explicit(&node->visits, memory_order_relaxed) - 1,
                              memory_order_relaxed);
    }
}

static void visit(Mcts *m, Worker *w)
{
    Position pos = m->root_pos;
    int depth = 0;
    double value = mcts_descend(m, w, &pos, &depth);
    mcts_backup(m, w->path, depth, value);
}

/* --- root noise ------------------------------------------------------------------------------- */

/* Gamma(alpha, 1) by Marsaglia and Tsang, boosted for alpha < 1. */
static double sample_gamma(Rng *rng, double alpha)
{
    if (alpha < 1.0)
        return sample_gamma(rng, alpha + 1.0) * pow(rng_double(rng) + 1e-300, 1.0 / alpha);
    double d = alpha - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            double u1 = rng_double(rng) + 1e-300, u2 = rng_double(rng);
            x = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
            v = 1.0 + c * x;
        } while (v <= 0);
        v = v * v * v;
        if (log(rng_double(rng) + 1e-300) < 0.5 * x * x + d - d * v + d * log(v))
            return d * v;
    }
}

/* Mixes Dirichlet noise into the root's priors (before threads start).  Noise is for self-play
 * roots with few visits, so the quadratic reordering is cheap. */
void mcts_add_root_noise(Mcts *m, Rng *rng)
{
    Node *root = &m->tree.nodes[0];
    if (!node_expanded(root) || root->num_children < 2 || m->cfg.root_noise <= 0)
        return;
    Node *children = node_children(&m->tree, root);
    uint32_t n = root->num_children;
    double *noise = malloc(n * sizeof *noise), sum = 0;
    if (!noise)
        return;
    for (uint32_t i = 0; i < n; i++)
        sum += noise[i] = sample_gamma(rng, m->cfg.noise_alpha);
    for (uint32_t i = 0; i < n; i++)
        children[i].prior = (float)((1.0 - m->cfg.root_noise) * children[i].prior + m->cfg.root_noise * noise[i] / sum);
    free(noise);
    /* Visited children stay in front; the unvisited ones are reordered by their new priors. */
    uint32_t visited = 0;
    while (visited < n && node_visited(&children[visited]))
        visited++;
    for (uint32_t i = visited; i < n; i++)
        promote_best(children, i, n);
    atomic_store(&root->ordered, (uint16_t)n);
}

/* --- results ---------------------------------------------------------------------------------- */

static int flip_proven(int p)
{
    return p == PROVEN_WIN ? PROVEN_LOSS : p == PROVEN_LOSS ? PROVEN_WIN : p;
}

/* Order of moves for the report and for play: proven wins, the fastest first, then by visits
 * (then value); proven losses last, the slowest first. */
static int compare_stats(const void *a, const void *b)
{
    const MoveStat *x = a, *y = b;
    int rank_x = x->proven == PROVEN_WIN ? 0 : x->proven == PROVEN_LOSS ? 2 : 1;
    int rank_y = y->proven == PROVEN_WIN ? 0 : y->proven == PROVEN_LOSS ? 2 : 1;
    if (rank_x != rank_y)
        return rank_x - rank_y;
    if (rank_x != 1 && x->proven_plies != y->proven_plies)
        return (x->proven_plies < y->proven_plies) == (rank_x == 0) ? -1 : 1;
    if (x->visits != y->visits)
        return x->visits < y->visits ? 1 : -1;
    double vx = isnan(x->value) ? 0 : x->value, vy = isnan(y->value) ? 0 : y->value;
    return (vx < vy) - (vx > vy);
}

static MoveStat child_stat(const Node *c)
{
    MoveStat s = {c->move, 0, c->prior, NAN, PROVEN_NONE, 0};
    if (node_visited(c)) {
        s.visits = c->visits;
        s.value = node_mean(c);
        s.proven = (Proven)c->proven;
        s.proven_plies = s.proven != PROVEN_NONE ? c->proven_plies + 1 : 0;
    }
    return s;
}

/* The child to play or follow: best by compare_stats, or NULL without children.  Only the
 * ordered prefix can hold visited children, and only it is safe to read while threads search. */
static const Node *best_child(const Tree *t, const Node *node)
{
    uint32_t n = node_expanded(node) ? atomic_load_explicit(&node->ordered, memory_order_acquire) : 0;
    if (n == 0)
        return NULL;
    const Node *children = node_children(t, node), *best = &children[0];
    MoveStat best_stat = child_stat(best);
    for (uint32_t i = 1; i < n; i++) {
        MoveStat s = child_stat(&children[i]);
        if (compare_stats(&s, &best_stat) < 0) {
            best = &children[i];
            best_stat = s;
        }
    }
    return best;
}

/* `all_children` is false while threads run: children past the ordered prefix may be moving. */
void mcts_collect_result(const Mcts *m, MctsResult *r, bool all_children)
{
    const Tree *t = &m->tree;
    const Node *root = &t->nodes[0];
    uint32_t n = node_expanded(root) ? (all_children ? root->num_children : atomic_load(&root->ordered)) : 0;
    r->num_stats = 0;
    for (uint32_t i = 0; i < n && r->num_stats < MCTS_MAX_STATS; i++)
        r->stats[r->num_stats++] = child_stat(&node_children(t, root)[i]);
    qsort(r->stats, (size_t)r->num_stats, sizeof r->stats[0], compare_stats);
    r->proven = (Proven)flip_proven(root->proven);
    r->proven_plies = r->proven == PROVEN_NONE ? 0 : r->num_stats && r->stats[0].proven == r->proven
                                                     ? r->stats[0].proven_plies : root->proven_plies;
    r->value = r->proven != PROVEN_NONE ? proven_value(r->proven) : 1.0 - node_mean(root);
    r->tree_visits = root->visits;
    r->nodes = mcts_tree_nodes_in_use(t);
    r->pv_length = 0;
    const Node *c = best_child(t, root);
    r->best = c ? c->move : MOVE_NONE;
    while (c && node_visited(c) && r->pv_length < MCTS_MAX_PV) {
        r->pv[r->pv_length++] = c->move;
        c = best_child(t, c);
    }
}

/* --- the search ------------------------------------------------------------------------------- */

/* Whether visit slot `slot` is past the search's end.  The visit limit is a property of the slot
 * (every slot below it is visited, whichever thread claimed it); a stop request, the time limit
 * or a proven root end the search for all threads through `done`. */
static bool out_of_budget(Mcts *m, const MctsLimits *limits, const atomic_bool *stop, long slot)
{
    if (limits->visits > 0 && slot >= limits->visits)
        return true;
    if (atomic_load_explicit(&m->done, memory_order_relaxed))
        return true;
    bool over = (stop && atomic_load_explicit(stop, memory_order_relaxed)) ||
                atomic_load_explicit(&m->tree.nodes[0].proven, memory_order_relaxed) != PROVEN_NONE ||
                (limits->seconds > 0 && (slot & 15) == 0 && clock_seconds() - m->start_time >= limits->seconds);
    if (over)
        atomic_store(&m->done, true);
    return over;
}

typedef struct {
    const MctsLimits *limits;
    const atomic_bool *stop;
    MctsInfoFn info;
    double interval;
    void *ctx;
} SearchRun;

/* Thread 0 reports, and collects the final result after the threads: one at a time. */
static void report_progress(Mcts *m, const SearchRun *run)
{
    MctsResult *so_far = m->result;
    mcts_collect_result(m, so_far, false);
    so_far->visits = atomic_load(&m->completed);
    so_far->seconds = clock_seconds() - m->start_time;
    run->info(so_far, run->ctx);
}

/* Search thread t's worker, with its leaf solver made on first use in a game that has one (the
 * solvers stay lazy: most searches never need them). */
Worker *mcts_search_worker(Mcts *m, int thread)
{
    Worker *w = &m->workers[1 + thread];
    if (!w->solver && m->cfg.solve_empties > 0 && solve_available(m->game))
        w->solver = solver_new(m->game, LEAF_SOLVER_BYTES);
    return w;
}

static void search_thread(Mcts *m, const SearchRun *run, int thread)
{
    Worker *w = mcts_search_worker(m, thread);
    w->rng = rng_seed(m->cfg.seed, (uint64_t)thread + 1);
    double next_info = m->start_time + run->interval;
    /* Visit slots are claimed VISIT_BATCH at a time: one shared counter update per batch
     * instead of per visit, which would bounce its cache line between the cores. */
    enum { VISIT_BATCH = 8 };
    bool over = false;
    while (!over) {
        long first = atomic_fetch_add_explicit(&m->started, VISIT_BATCH, memory_order_relaxed), done = 0;
        for (long slot = first; slot < first + VISIT_BATCH; slot++) {
            if ((over = out_of_budget(m, run->limits, run->stop, slot)))
                break;
            visit(m, w);
            done++;
            if (thread == 0 && run->info && (slot & 63) == 0 && clock_seconds() >= next_info) {
                report_progress(m, run);
                next_info = clock_seconds() + run->interval;
            }
        }
        atomic_fetch_add_explicit(&m->completed, done, memory_order_relaxed);
    }
}

/* Evaluates and expands the root before threads start, so root noise has children to act on. */
static void prepare_root(Mcts *m)
{
    Worker *w = &m->workers[0];     /* it solves nothing: its solver stays NULL */
    /* Seeded by the root too: each move of a game gets its own root noise. */
    w->rng = rng_seed(m->cfg.seed ^ game_hash(m->game, &m->root_pos), 0);
    Node *root = &m->tree.nodes[0];
    for (int i = 0; i < 2 && !node_expanded(root) && root->proven == PROVEN_NONE; i++) {
        if (atomic_load(&root->state) == NODE_FRESH) {
            atomic_fetch_add(&root->visits, 1);
            uint32_t path = 0;
            mcts_backup(m, &path, 1, mcts_evaluate_fresh(m, w, root, &m->root_pos, true));
        } else {
            mcts_expand(m, w, root, &m->root_pos, 0);
        }
    }
    mcts_add_root_noise(m, &w->rng);
}

/* The root solved win/loss/draw before any visit, when it is in the solver's reach: true with
 * *out filled when it is won or drawn (the move is then known); false to search (too many
 * empties, out of time, or lost: the search may still find the opponent's mistakes). */
bool mcts_solve_root(Mcts *m, MctsResult *out)
{
    if (m->cfg.root_solve_empties <= 0 || !solve_available(m->game) ||
        solve_empties(m->game, &m->root_pos) > m->cfg.root_solve_empties ||
        game_status(m->game, &m->root_pos) != STATUS_ONGOING)
        return false;
    if (!m->root_solver && !(m->root_solver = solver_new(m->game, ROOT_SOLVER_BYTES)))
        return false;
    /* Under a deadline the solve gets part of the time: one it stops leaves the rest to the
     * search, which would otherwise play a move of no visits. */
    const SolveResult r = limited_solve(m, m->root_solver, &m->root_pos, ROOT_SOLVE_TIME_SHARE);
    if (r.stopped || r.score < 0 || r.best == MOVE_NONE)
        return false;
    const Proven proven = r.score > 0 ? PROVEN_WIN : PROVEN_DRAW;
    memset(out, 0, sizeof *out);
    out->best = r.best;
    out->value = proven_value(proven);
    out->proven = proven;
    out->solved = true;
    out->tree_visits = m->tree.nodes[0].visits;
    out->nodes = mcts_tree_nodes_in_use(&m->tree);
    out->pv_length = 1;
    out->pv[0] = r.best;
    out->num_stats = 1;
    out->proven_plies = solve_empties(m->game, &m->root_pos);
    out->stats[0] = (MoveStat){r.best, 0, 0, out->value, proven, out->proven_plies};
    out->seconds = clock_seconds() - m->start_time;
    return true;
}

/* A kept root that a leaf solve proved has no children, and a search needs moves to choose from:
 * it becomes an evaluated node again, to be expanded by the next visit. */
void mcts_reopen_solved_root(Mcts *m)
{
    Node *root = &m->tree.nodes[0];
    if (!node_expanded(root) || root->num_children > 0 || game_status(m->game, &m->root_pos) != STATUS_ONGOING)
        return;
    atomic_store(&root->proven, PROVEN_NONE);
    atomic_store(&root->state, NODE_EVALUATED);
}

void mcts_begin_search(Mcts *m, const MctsLimits *limits, const atomic_bool *stop)
{
    if (!m->has_root) {
        Position start;
        game_start(m->game, &start);
        mcts_set_position(m, &start);
    }
    m->start_time = clock_seconds();
    atomic_store(&m->started, 0);
    atomic_store(&m->completed, 0);
    atomic_store(&m->done, false);
    m->stop = stop;
    m->deadline = limits->seconds > 0 ? m->start_time + limits->seconds : 0;
    const bool counted = limits->visits > 0 && limits->visits < INT64_MAX / SOLVER_NODES_PER_VISIT;
    atomic_store(&m->solver_nodes_left, counted ? limits->visits * SOLVER_NODES_PER_VISIT : INT64_MAX);
}

MctsResult mcts_search(Mcts *m, const MctsLimits *limits_in, const atomic_bool *stop, MctsInfoFn info,
                       double info_interval, void *info_ctx)
{
    MctsLimits limits = *limits_in;
    if (limits.visits <= 0 && limits.seconds <= 0)
        limits.visits = 800;
    mcts_begin_search(m, &limits, stop);
    MctsResult solved;
    if (mcts_solve_root(m, &solved))
        return solved;
    mcts_reopen_solved_root(m);
    prepare_root(m);
    SearchRun run = {&limits, stop, info, info_interval, info_ctx};
    int threads = m->cfg.threads;
#pragma omp parallel num_threads(threads)
    search_thread(m, &run, omp_get_thread_num());

    MctsResult out;
    mcts_collect_result(m, m->result, true);
    out = *m->result;
    out.visits = atomic_load(&m->completed);
    out.seconds = clock_seconds() - m->start_time;
    return out;
}
