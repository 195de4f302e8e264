/*
 * mcts_tree.c - the node and edge pools of the search tree (see mcts_tree.h): allocation by
 * atomic bumps, and keeping the subtree of the moves played between searches.
 */
#include "mcts_tree.h"

#include <stdlib.h>

/* malloc, not calloc-and-touch: pages are only committed as the tree grows into them. */
bool tree_init(Tree *t, size_t node_capacity, size_t edge_capacity)
{
    t->nodes = malloc(node_capacity * sizeof *t->nodes);
    t->edges = malloc(edge_capacity * sizeof *t->edges);
    t->node_capacity = node_capacity;
    t->edge_capacity = edge_capacity;
    if (!t->nodes || !t->edges) {
        tree_free(t);
        return false;
    }
    tree_reset(t);
    return true;
}

void tree_free(Tree *t)
{
    free(t->nodes);
    free(t->edges);
    t->nodes = NULL;
    t->edges = NULL;
}

void node_init(Node *n, float prior)
{
    atomic_init(&n->visits, 0);
    atomic_init(&n->first_edge, 0);
    atomic_init(&n->value_sum, 0);
    atomic_init(&n->num_edges, 0);
    atomic_init(&n->state, NODE_FRESH);
    atomic_init(&n->proven, 0);
    n->prior = prior;
    atomic_init(&n->ordered, 0);
    atomic_flag_clear(&n->ordering);
    n->unused = 0;
}

void tree_reset(Tree *t)
{
    node_init(&t->nodes[0], 1.0f);
    atomic_store(&t->nodes_used, 1);
    atomic_store(&t->edges_used, 0);
}

uint32_t tree_new_node(Tree *t, float prior)
{
    size_t index = atomic_fetch_add_explicit(&t->nodes_used, 1, memory_order_relaxed);
    if (index >= t->node_capacity)
        return 0;
    node_init(&t->nodes[index], prior);
    return (uint32_t)index;
}

bool tree_reserve_edges(Tree *t, uint32_t n, uint32_t *first)
{
    size_t cur = atomic_load_explicit(&t->edges_used, memory_order_relaxed);
    do {
        if (cur + n > t->edge_capacity)
            return false;
    } while (!atomic_compare_exchange_weak(&t->edges_used, &cur, cur + n));
    *first = (uint32_t)cur;
    return true;
}

/* Copies the subtree breadth first into fresh pools: node i's edges are copied when node i is
 * reached, and each copied edge's child is appended to the queue. */
bool tree_keep_subtree(Tree *t, uint32_t from)
{
    Tree fresh;
    if (!tree_init(&fresh, t->node_capacity, t->edge_capacity))
        return false;
    uint32_t *origin = malloc(t->node_capacity * sizeof *origin);
    if (!origin) {
        tree_free(&fresh);
        return false;
    }
    fresh.nodes[0] = t->nodes[from];
    origin[0] = from;
    size_t nodes = 1, edges = 0;
    for (size_t i = 0; i < nodes; i++) {
        const Node *old = &t->nodes[origin[i]];
        if (!node_expanded(old)) {
            /* out of memory (FULL) last time: the new tree may have room */
            atomic_store(&fresh.nodes[i].state, old->visits ? NODE_EVALUATED : NODE_FRESH);
            continue;
        }
        uint32_t n = old->num_edges;
        atomic_store(&fresh.nodes[i].first_edge, (uint32_t)edges);
        for (uint32_t e = 0; e < n; e++) {
            const Edge *oe = &t->edges[old->first_edge + e];
            Edge *ne = &fresh.edges[edges + e];
            ne->move = oe->move;
            ne->prior = oe->prior;
            uint32_t child = atomic_load(&oe->child);
            atomic_init(&ne->child, child ? (uint32_t)nodes : 0);
            if (child) {
                fresh.nodes[nodes] = t->nodes[child];
                origin[nodes++] = child;
            }
        }
        edges += n;
    }
    free(origin);
    atomic_store(&fresh.nodes_used, nodes);
    atomic_store(&fresh.edges_used, edges);
    tree_free(t);
    *t = fresh;
    return true;
}
