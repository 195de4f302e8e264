/*
 * mcts_tree.h - the search tree's memory: nodes and edges in two pools, shared by the search
 * threads (internal to selfplay/mcts*.c).
 *
 * A node is the statistics of one position (32 bytes).  Its legal moves are edges (12 bytes:
 * move, prior, child), created when the node is visited a second time.  A child node exists only
 * once its edge has been chosen.  PUCT ranks the unvisited edges of a node by prior alone, so the
 * edges are kept as: visited edges first, then the unvisited ones by falling prior, and selection
 * looks at the visited edges and the first unvisited one, never at all ~100 legal moves.  Only a
 * prefix of the edges is put in order (`ordered`); the next best is brought forward when that
 * prefix is used up, since most nodes ever try only a few moves.
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
    NODE_EXPANDED,      /* edges ready (none if the game is over) */
    NODE_FULL           /* out of memory: stays a leaf */
};

typedef struct {
    _Atomic uint32_t visits;        /* visits through this node, in flight included */
    _Atomic uint32_t first_edge;    /* valid once EXPANDED */
    _Atomic int64_t value_sum;      /* for the player who moved into this node, fixed point */
    _Atomic uint16_t num_edges;
    _Atomic uint8_t state;
    _Atomic uint8_t proven;         /* Proven, for the player who moved into this node */
    float prior;
    _Atomic uint16_t ordered;       /* edges [0, ordered) are in their final order */
    atomic_flag ordering;           /* held by the thread that extends the ordered prefix */
    _Atomic uint8_t proven_plies;   /* with `proven`: plies to the game's end, 255 at most */
} Node;

typedef struct {
    Move move;
    float prior;
    _Atomic uint32_t child;         /* node index; 0 = none yet (the root is never a child) */
} Edge;

_Static_assert(sizeof(Node) == 32, "a node is 32 bytes");
_Static_assert(sizeof(Edge) == 12, "an edge is 12 bytes");

typedef struct {
    Node *nodes;                    /* nodes[0] is the root */
    Edge *edges;
    size_t node_capacity, edge_capacity;
    /* Edge slots before each expanded node's edges that hold a copy of its position (0: none;
     * the search sets it before the first expansion). */
    uint32_t position_slots;
    /* Bumped by every thread, so each on its own cache line: next to the pool pointers, which
     * every node access reads, each bump made the other threads' next reads miss. */
    _Alignas(64) _Atomic size_t nodes_used;    /* claimed: it runs past the capacity once full */
    _Alignas(64) _Atomic size_t edges_used;
    _Alignas(64) _Atomic size_t nodes_lost;    /* made by a thread that then lost the edge to another */
    _Alignas(64) char end;          /* nothing after shares nodes_lost's line */
} Tree;

/* Values are win probabilities in [0, 1], summed in fixed point so that a sum is one atomic add
 * (2^-20 resolution; 2^43 visits before overflow). */
#define VALUE_ONE ((int64_t)1 << 20)

bool mcts_tree_init(Tree *t, size_t node_capacity, size_t edge_capacity);
void mcts_tree_free(Tree *t);
void mcts_tree_reset(Tree *t);           /* a lone fresh root */
void mcts_node_init(Node *n, float prior);
/* A fresh node's index, or 0 when the pool is full. */
uint32_t mcts_tree_new_node(Tree *t, float prior);
/* The nodes in the tree: at most the capacity, the nodes that lost a race left out. */
size_t mcts_tree_nodes_in_use(const Tree *t);
/* Room for n edges (and the position slots before them); false when the pool is full. */
bool mcts_tree_reserve_edges(Tree *t, uint32_t n, uint32_t *first);
/* Replaces the tree by the subtree under node `from` (which becomes the root). */
bool mcts_tree_keep_subtree(Tree *t, uint32_t from);

static inline bool node_expanded(const Node *n)
{
    return atomic_load_explicit(&n->state, memory_order_acquire) == NODE_EXPANDED;
}

/* An expanded node's copy of its position, in the position slots before its edges. */
static inline unsigned char *node_position(const Tree *t, const Node *n)
{
    return (unsigned char *)&t->edges[atomic_load_explicit(&n->first_edge, memory_order_relaxed) - t->position_slots];
}

static inline double node_mean(const Node *n)
{
    uint32_t v = atomic_load_explicit(&n->visits, memory_order_relaxed);
    return v ? (double)atomic_load_explicit(&n->value_sum, memory_order_relaxed) / (double)VALUE_ONE / v : 0.5;
}

#endif
