/*
 * mcts_tree.c - the node pool of the search tree (see mcts_tree.h): allocation by atomic
 * bumps, and keeping the subtree of the moves played between searches.
 */
#include "mcts_tree.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

/* Not calloc-and-touch: pages are only committed as the tree grows into them.  The pool is
 * aligned to 2 MiB and marked for transparent huge pages where the kernel has them: a search of
 * 200,000 visits otherwise takes ~15,000 page faults of 4 KiB, and threads take them in turn.
 * The first 2 MiB (the root, and the nodes of the first few thousand visits,
 * which every search uses) are touched here, so that the first search does not pay for them: a
 * huge page's fault zeroes 2 MiB, and a kernel short of free huge pages may compact memory
 * first, a wait that fell inside the first search's time. */
static void *pool_alloc(size_t bytes)
{
    /* A pool under one huge page (a small search's: 1,024 nodes of budget take 512 KiB) gets
     * none: a huge page's fault zeroes 2 MiB where a quarter is used, and a batched search of
     * 256 such trees (lt_search_batched) spent three quarters of its time zeroing 512 MiB. */
    if (bytes < HUGE_PAGE)
        return calloc(1, bytes ? bytes : 1);
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

bool mcts_tree_init(Tree *t, size_t node_budget, size_t capacity)
{
    if (capacity > UINT32_MAX)
        capacity = UINT32_MAX;      /* nodes are numbered in 32 bits */
    t->nodes = pool_alloc(capacity * sizeof *t->nodes);
    t->capacity = capacity;
    t->node_budget = node_budget < capacity ? node_budget : capacity;
    if (!t->nodes)
        return false;
    mcts_tree_reset(t);
    return true;
}

void mcts_tree_free(Tree *t)
{
    free(t->nodes);
    t->nodes = NULL;
}

void mcts_tree_reset(Tree *t)
{
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);     /* all zero bytes: a fresh node */
    t->nodes[0].move = MOVE_NONE;
    t->nodes[0].prior = 1.0f;
    atomic_store(&t->used, 1);
    atomic_store(&t->nodes_made, 1);
    atomic_store(&t->nodes_lost, 0);
}

bool mcts_tree_claim_node(Tree *t, bool shared)
{
    size_t made;
    if (shared) {
        made = atomic_fetch_add_explicit(&t->nodes_made, 1, memory_order_relaxed);
    } else {
        made = atomic_load_explicit(&t->nodes_made, memory_order_relaxed);
        atomic_store_explicit(&t->nodes_made, made + 1, memory_order_relaxed);
    }
    return made < t->node_budget;
}

/* nodes_made counts every claim, the failed ones past the budget too (a claim is one atomic
 * add, and a spent budget keeps taking them). */
size_t mcts_tree_nodes_in_use(const Tree *t)
{
    size_t made = atomic_load(&t->nodes_made), lost = atomic_load(&t->nodes_lost);
    made = made < t->node_budget ? made : t->node_budget;
    return made - (lost < made ? lost : made - 1);
}

bool mcts_tree_reserve_children(Tree *t, uint32_t n, uint32_t *first)
{
    size_t cur = atomic_load_explicit(&t->used, memory_order_relaxed), need = n + t->position_slots;
    do {
        if (cur + need > t->capacity)
            return false;
    } while (!atomic_compare_exchange_weak(&t->used, &cur, cur + need));
    *first = (uint32_t)(cur + t->position_slots);
    memset(&t->nodes[*first], 0, n * sizeof *t->nodes);     /* fresh nodes: the pool is reused */
    return true;
}

/* Copies the subtree breadth first into a scratch pool the size of what is in use (an expanded
 * node's position slots and children are copied when the node comes off the queue, and its
 * expanded children go on it), then back to the front of the pool.  The pool itself is never
 * reallocated: a capacity-sized allocation per move would cost a page-table walk (and under
 * AddressSanitizer a shadow fill) of the whole budget on every move. */
bool mcts_tree_keep_subtree(Tree *t, uint32_t from)
{
    size_t used = atomic_load(&t->used);
    used = used < t->capacity ? used : t->capacity;
    Node *nodes = malloc(used * sizeof *nodes);
    uint32_t *queue = malloc(used * sizeof *queue);    /* kept nodes whose children are to copy */
    uint32_t *origin = malloc(used * sizeof *origin);  /* a queued node's index in the old pool */
    bool ok = nodes && queue && origin;
    if (ok) {
        nodes[0] = t->nodes[from];
        origin[0] = from;
        queue[0] = 0;
        size_t kept = 1, queued = 1, visited = 1;
        for (size_t q = 0; q < queued; q++) {
            Node *node = &nodes[queue[q]];
            const Node *old = &t->nodes[origin[queue[q]]];
            if (!node_expanded(old)) {
                /* out of memory (FULL) last time: the kept tree may have room */
                atomic_store(&node->state, old->visits ? NODE_EVALUATED : NODE_FRESH);
                continue;
            }
            /* A proven leaf is expanded with no children, and no position slots either. */
            uint32_t n = old->num_children, slots = n ? t->position_slots : 0;
            memcpy(&nodes[kept], &t->nodes[old->first_child - slots], (slots + n) * sizeof *nodes);
            kept += slots;
            atomic_store(&node->first_child, (uint32_t)kept);
            for (uint32_t c = 0; c < n; c++, kept++) {
                if (!node_visited(&nodes[kept]))
                    continue;
                visited++;
                origin[kept] = old->first_child + c;
                queue[queued++] = (uint32_t)kept;
            }
        }
        memcpy(t->nodes, nodes, kept * sizeof *nodes);
        atomic_store(&t->used, kept);
        atomic_store(&t->nodes_made, visited);
        atomic_store(&t->nodes_lost, 0);     /* only the nodes reached were counted */
    }
    free(nodes);
    free(queue);
    free(origin);
    return ok;
}
