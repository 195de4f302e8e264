/*
 * mcts_internal.h - what the search's files share and nothing else includes: the search's state
 * (Mcts, each thread's Worker), the leaf a batched search defers to its evaluator, and the steps
 * of a visit that mcts.c makes and mcts_batch.c drives in batches.
 */
#ifndef LEUCTRA_MCTS_INTERNAL_H
#define LEUCTRA_MCTS_INTERNAL_H

#include "mcts.h"
#include "mcts_tree.h"
#include "prior_cache.h"

#include "core/rng.h"
#include "core/solve.h"

enum { MAX_DEPTH = 1024, MAX_HISTORY = 4096, RECIPROCALS = 1024 };

/* A batched search (mcts_batch.c) defers the leaves that need an evaluation: a visit ends at one
 * (a fresh node, or a node evaluated again because it cannot be expanded) or runs into a node
 * whose evaluation is still pending in the batch (a collision: the visit is taken back).  Or it
 * reaches a node to expand whose priors the evaluator never gave (LEAF_PRIORS: a kept node that
 * only repetitions had reached, so it was never evaluated itself): they are asked for, and the
 * visit is taken back to go the same way once they are there, as a search without a batch,
 * which makes its priors at once, goes. */
typedef enum { LEAF_NONE, LEAF_FRESH, LEAF_AGAIN, LEAF_COLLISION, LEAF_PRIORS } LeafKind;
typedef struct {
    LeafKind kind;
    uint32_t node;          /* LEAF_FRESH: the node to mark evaluated */
    Position pos;           /* the position to evaluate */
} LeafRequest;


/* One search thread's own state, made with the search and kept (mcts_new does the setup every
 * search would otherwise pay for at its start).  On its own cache lines: the next worker's
 * first fields are written every visit. */
typedef struct {
    _Alignas(64) Rng rng;
    ValueFeatureCache *features;    /* this thread's incremental features (NULL: computed in full) */
    Solver *solver;                 /* this thread's leaf solver, made on first use (NULL: none yet) */
    Move moves[MAX_MOVES];
    float priors[MAX_MOVES];
    uint32_t path[MAX_DEPTH];
    uint64_t path_hash[MAX_DEPTH];  /* position hash at each depth of the current visit */
    LeafRequest *defer;             /* a batched search's: leaves are deferred here (NULL: evaluated) */
} Worker;

struct Mcts {
    const Game *game;
    const Weights *weights;
    MctsConfig cfg;
    bool shared;                    /* more than one search thread: the tree's counts take atomic adds */
    double c_puct;                  /* mcts_exploration: the constant these weights are searched with */
    double coarse_share;            /* mcts_coarse_share: of the leaf values, from the linear part */
    size_t stored_bytes;            /* of each expanded node's position kept in the tree (0: none) */
    Position root_pos;
    bool has_root;
    Tree tree;
    uint64_t history[MAX_HISTORY];  /* hashes of the game's earlier positions */
    int history_length;
    uint64_t history_filter[64];    /* 4096-bit filter of `history`: most lookups stop here */
    /* Per-search state, shared by the threads. */
    /* Written by every thread: each on its own cache line, and claimed in batches. */
    _Alignas(64) _Atomic long started;  /* visit slots claimed in this search */
    _Alignas(64) _Atomic long completed;    /* visits finished */
    _Alignas(64) char padding;
    atomic_bool done;
    double start_time;
    /* What the solves of this search may spend: its stop flag, deadline (0: none) and solver
     * nodes (a visit budget buys SOLVER_NODES_PER_VISIT each; INT64_MAX without one). */
    const atomic_bool *stop;
    double deadline;
    _Atomic int64_t solver_nodes_left;
    /* The exact solver of the root, made on first use (the leaves' are the workers'). */
    Solver *root_solver;
    Worker *workers;                /* [0] prepares the root, [1 + t] is search thread t's */
    MctsResult *result;             /* the result being collected (one at a time: thread 0's) */
    double setup_seconds;           /* mcts_new's time */
    PriorCache *priors;             /* a batched search's: the evaluator's priors by position (NULL: none) */
    double reciprocal[RECIPROCALS]; /* 1 / n / VALUE_ONE, for puct_score */
};

/* mcts.c: one visit's walk to a leaf (its value for the player who moved into it, or NAN with the
 * worker's deferred leaf filled), the backup of a value along the path, taking a deferred visit
 * back, and the root's preparation and end. */
double mcts_descend(Mcts *m, Worker *w, Position *pos, int *depth);
void mcts_backup(Mcts *m, const uint32_t *path, int depth, double value);
void mcts_take_back(Mcts *m, const uint32_t *path, int depth);
double mcts_evaluate_fresh(Mcts *m, Worker *w, Node *node, const Position *pos, bool root);
bool mcts_expand(Mcts *m, Worker *w, Node *node, const Position *pos, int depth);
void mcts_add_root_noise(Mcts *m, Rng *rng);
bool mcts_solve_root(Mcts *m, MctsResult *out);
void mcts_reopen_solved_root(Mcts *m);
void mcts_begin_search(Mcts *m, const MctsLimits *limits, const atomic_bool *stop);
void mcts_collect_result(const Mcts *m, MctsResult *r, bool all_children);
/* Search thread t's worker, with its leaf solver where the game has one. */
Worker *mcts_search_worker(Mcts *m, int thread);

#endif
