/*
 * mcts_tree.h - the search tree's memory: one pool of 32-byte nodes shared by the search threads
 * (internal to search/mcts*.c).
 *
 * A node is one move of its parent: the move and its prior, and the statistics of the position
 * it leads to.  An expanded node's children lie side by side in the pool, one node for each
 * legal move, made when the node is visited a second time.  So the walk down the tree reads,
 * at each ply, one run of adjacent nodes that holds everything selection needs (each child's
 * prior, visits, value and proof, and where its own children are): one wait on memory a ply,
 * where a node with a separate list of moves pointing at nodes made elsewhere took two, one of
 * them on a dozen scattered lines.  The price is a full node for each legal move, visited or not
 * (32 bytes where an edge was 12: the tree takes about 1.5x the memory in Reversi, 2.4x in the
 * phalanx games).
 *
 * A child is a node of the tree once it is first visited; the root is the pool's first node.
 * PUCT ranks the unvisited children by prior alone, so the children are kept as: visited ones
 * first, then the unvisited ones by falling prior, and selection looks at the visited children
 * and the first unvisited one, never at all ~100 legal moves.  Only a prefix of the children is
 * put in order (`ordered`); the next best is brought forward when that prefix is used up, since
 * most nodes ever try only a few moves.
 */
#ifndef LEUCTRA_MCTS_TREE_H
#define LEUCTRA_MCTS_TREE_H

#include "core/game.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

enum {
    NODE_FRESH,         /* never evaluated */
    NODE_EVALUATED,     /* evaluated once as a leaf; the next visit expands it */
    NODE_EXPANDING,     /* a thread is listing its moves */
    NODE_EXPANDED,      /* children ready (none if the game is over) */
    NODE_FULL           /* out of memory: stays a leaf */
};

typedef struct {
    _Atomic uint32_t visits;        /* visits through this node, in flight included */
    _Atomic uint32_t first_child;   /* valid once EXPANDED */
    _Atomic int64_t value_sum;      /* for the player who moved into this node, fixed point */
    /* The move into this node and its prior: set when the parent expands, and swapped between
     * unvisited children while the parent's ordered prefix grows past them. */
    Move move;
    float prior;
    _Atomic uint16_t num_children;
    _Atomic uint16_t ordered;       /* children [0, ordered) are in their final order */
    _Atomic uint8_t state;
    _Atomic uint8_t proven;         /* Proven, for the player who moved into this node */
    _Atomic uint8_t proven_plies;   /* with `proven`: plies to the game's end, 255 at most */
    atomic_flag ordering;           /* held by the thread that extends the ordered prefix */
} Node;

_Static_assert(sizeof(Node) == 32, "a node is 32 bytes");

typedef struct {
    Node *nodes;                    /* nodes[0] is the root */
    size_t capacity;                /* nodes the pool holds, visited or not */
    size_t node_budget;             /* visited nodes at most (the search's max_nodes) */
    /* Pool slots before each expanded node's children that hold a copy of its position (0:
     * none; the search sets it before the first expansion). */
    uint32_t position_slots;
    /* Bumped by every thread, so each on its own cache line: next to the pool pointer, which
     * every node access reads, each bump made the other threads' next reads miss. */
    _Alignas(64) _Atomic size_t used;           /* pool slots handed out */
    _Alignas(64) _Atomic size_t nodes_made;     /* visited nodes claimed: runs past the budget once full */
    _Alignas(64) _Atomic size_t nodes_lost;     /* claimed by a thread that another beat to the node */
    _Alignas(64) char end;          /* nothing after shares nodes_lost's line */
} Tree;

/* Values are win probabilities in [0, 1], summed in fixed point so that a sum is one atomic add
 * (2^-20 resolution; 2^43 visits before overflow). */
#define VALUE_ONE ((int64_t)1 << 20)

bool mcts_tree_init(Tree *t, size_t node_budget, size_t capacity);
void mcts_tree_free(Tree *t);
void mcts_tree_reset(Tree *t);           /* a lone fresh root */
/* Counts one more visited node against the budget: false when the budget is spent (`shared`:
 * other threads may claim at the same time). */
bool mcts_tree_claim_node(Tree *t, bool shared);
/* The nodes in the tree: at most the budget, the nodes that lost a race left out. */
size_t mcts_tree_nodes_in_use(const Tree *t);
/* Room for n children (and the position slots before them), zeroed: false when the pool is
 * full. */
bool mcts_tree_reserve_children(Tree *t, uint32_t n, uint32_t *first);
/* Replaces the tree by the subtree under node `from` (which becomes the root). */
bool mcts_tree_keep_subtree(Tree *t, uint32_t from);

static inline bool node_expanded(const Node *n)
{
    return atomic_load_explicit(&n->state, memory_order_acquire) == NODE_EXPANDED;
}

/* Whether a child has been entered: visits only grow, and the visited children of a node are
 * always a prefix of its children. */
static inline bool node_visited(const Node *n)
{
    return atomic_load_explicit(&n->visits, memory_order_acquire) > 0;
}

static inline Node *node_children(const Tree *t, const Node *n)
{
    return &t->nodes[atomic_load_explicit(&n->first_child, memory_order_relaxed)];
}

/* An expanded node's copy of its position, in the position slots before its children. */
static inline unsigned char *node_position(const Tree *t, const Node *n)
{
    return (unsigned char *)&t->nodes[atomic_load_explicit(&n->first_child, memory_order_relaxed) - t->position_slots];
}

static inline double node_mean(const Node *n)
{
    uint32_t v = atomic_load_explicit(&n->visits, memory_order_relaxed);
    return v ? (double)atomic_load_explicit(&n->value_sum, memory_order_relaxed) / (double)VALUE_ONE / v : 0.5;
}

#endif
