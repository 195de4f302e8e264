/*
 * mcts_tree.c - the node and edge pools of the search tree (see mcts_tree.h): allocation by
 * atomic bumps, and keeping the subtree of the moves played between searches.
 */
#include "mcts_tree.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

/* Not calloc-and-touch: pages are only committed as the tree grows into them.  The pools are
 * aligned to 2 MiB and marked for transparent huge pages where the kernel has them: a search of
 * 200,000 visits otherwise takes ~15,000 page faults of 4 KiB, and threads take them in turn.
 * The first 2 MiB of each (the root, and the nodes and edges of the first few thousand visits,
 * which every search uses) are touched here, so that the first search does not pay for them: a
 * huge page's fault zeroes 2 MiB, and a kernel short of free huge pages may compact memory
 * first, a wait that fell inside the first search's time. */
static void *pool_alloc(size_t bytes)
{
    size_t size = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *pool = aligned_alloc(HUGE_PAGE, size ? size : HUGE_PAGE);
#ifdef MADV_HUGEPAGE
    if (pool)
        madvise(pool, size, MADV_HUGEPAGE);   /* advice only: a refusal changes nothing */
#endif
    if (pool)
        memset(pool, 0, bytes < HUGE_PAGE ? bytes : HUGE_PAGE);
    return pool;
}

bool mcts_tree_init(Tree *t, size_t node_capacity, size_t edge_capacity)
{
    t->nodes = pool_alloc(node_capacity * sizeof *t->nodes);
    t->edges = pool_alloc(edge_capacity * sizeof *t->edges);
    t->node_capacity = node_capacity;
    t->edge_capacity = edge_capacity;
    if (!t->nodes || !t->edges) {
        mcts_tree_free(t);
        return false;
    }
    mcts_tree_reset(t);
    return true;
}

void mcts_tree_free(Tree *t)
{
    free(t->nodes);
    free(t->edges);
    t->nodes = NULL;
    t->edges = NULL;
}

void mcts_node_init(Node *n, float prior)
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
    atomic_init(&n->proven_plies, 0);
}

void mcts_tree_reset(Tree *t)
{
    mcts_node_init(&t->nodes[0], 1.0f);
    atomic_store(&t->nodes_used, 1);
    atomic_store(&t->edges_used, 0);
    atomic_store(&t->nodes_lost, 0);
}

/* nodes_used counts every claim, the failed ones past a full pool too (a claim is one atomic
 * add, and a full pool keeps taking them). */
size_t mcts_tree_nodes_in_use(const Tree *t)
{
    size_t used = atomic_load(&t->nodes_used), lost = atomic_load(&t->nodes_lost);
    used = used < t->node_capacity ? used : t->node_capacity;
    return used - (lost < used ? lost : used - 1);
}

uint32_t mcts_tree_new_node(Tree *t, float prior)
{
    size_t index = atomic_fetch_add_explicit(&t->nodes_used, 1, memory_order_relaxed);
    if (index >= t->node_capacity)
        return 0;
    mcts_node_init(&t->nodes[index], prior);
    return (uint32_t)index;
}

bool mcts_tree_reserve_edges(Tree *t, uint32_t n, uint32_t *first)
{
    size_t cur = atomic_load_explicit(&t->edges_used, memory_order_relaxed), need = n + t->position_slots;
    do {
        if (cur + need > t->edge_capacity)
            return false;
    } while (!atomic_compare_exchange_weak(&t->edges_used, &cur, cur + need));
    *first = (uint32_t)(cur + t->position_slots);
    return true;
}

/* Copies the subtree breadth first into scratch arrays the size of what is in use (node i's edges
 * are copied when node i is reached, each copied edge's child appended to the queue), then back
 * to the front of the pools.  The pools themselves are never reallocated: a capacity-sized
 * allocation per move would cost a page-table walk (and under AddressSanitizer a shadow fill) of
 * the whole budget on every move. */
bool mcts_tree_keep_subtree(Tree *t, uint32_t from)
{
    size_t used_nodes = atomic_load(&t->nodes_used), used_edges = atomic_load(&t->edges_used);
    used_nodes = used_nodes < t->node_capacity ? used_nodes : t->node_capacity;
    used_edges = used_edges < t->edge_capacity ? used_edges : t->edge_capacity;
    Node *nodes = malloc(used_nodes * sizeof *nodes + 1);
    Edge *edges = malloc(used_edges * sizeof *edges + 1);
    uint32_t *origin = malloc(used_nodes * sizeof *origin + 1);
    bool ok = nodes && edges && origin;
    if (ok) {
        nodes[0] = t->nodes[from];
        origin[0] = from;
        size_t kept_nodes = 1, kept_edges = 0;
        for (size_t i = 0; i < kept_nodes; i++) {
            const Node *old = &t->nodes[origin[i]];
            if (!node_expanded(old)) {
                /* out of memory (FULL) last time: the kept tree may have room */
                atomic_store(&nodes[i].state, old->visits ? NODE_EVALUATED : NODE_FRESH);
                continue;
            }
            /* A proven leaf is expanded with no edges, and no position slots either. */
            uint32_t n = old->num_edges, slots = n ? t->position_slots : 0;
            memcpy(&edges[kept_edges], &t->edges[old->first_edge - slots], slots * sizeof *edges);
            kept_edges += slots;
            atomic_store(&nodes[i].first_edge, (uint32_t)kept_edges);
            for (uint32_t e = 0; e < n; e++) {
                const Edge *oe = &t->edges[old->first_edge + e];
                Edge *ne = &edges[kept_edges + e];
                ne->move = oe->move;
                ne->prior = oe->prior;
                uint32_t child = atomic_load(&oe->child);
                atomic_init(&ne->child, child ? (uint32_t)kept_nodes : 0);
                if (child) {
                    nodes[kept_nodes] = t->nodes[child];
                    origin[kept_nodes++] = child;
                }
            }
            kept_edges += n;
        }
        memcpy(t->nodes, nodes, kept_nodes * sizeof *nodes);
        memcpy(t->edges, edges, kept_edges * sizeof *edges);
        atomic_store(&t->nodes_used, kept_nodes);
        atomic_store(&t->edges_used, kept_edges);
        atomic_store(&t->nodes_lost, 0);     /* only the nodes reached were copied */
    }
    free(nodes);
    free(edges);
    free(origin);
    return ok;
}
