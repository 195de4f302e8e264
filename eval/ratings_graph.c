/*
 * ratings_graph.c - sorting players by whether the games pin down their rating relative to the
 * anchor (ratings_graph.h).
 *
 * Draw an arrow u -> v when u scored against v (won or drew at least one game).  The
 * Bradley-Terry likelihood has a finite maximum exactly when this graph is strongly connected
 * (Zermelo 1929; Ford 1957; Hunter 2004, "MM algorithms for generalized Bradley-Terry models",
 * assumption 1): otherwise some group scored nothing against the rest, and pushing the rest up
 * without bound always raises the likelihood.  When it is not, the supremum is approached by
 * spreading the strongly connected groups infinitely far apart in an order that respects every
 * arrow, each group keeping the estimate from its own games.  Relative to the anchor's group:
 *   - players with arrows to it but none from it (they reach it, it cannot reach them) sit
 *     above it in every such order: +infinity;
 *   - players it reaches but who cannot reach it sit below: -infinity;
 *   - players linked by games but reachable neither way can sit anywhere: undetermined;
 *   - players with no games linking them to it at all: unlinked.
 * Three breadth-first searches from the anchor sort them: along arrows, against arrows, and
 * along games regardless of result.
 */
#include "eval/ratings_graph.h"

#include <stdlib.h>

typedef enum { ALONG_GAMES, ALONG_ARROWS, AGAINST_ARROWS } Walk;

/* Every player's pairs with games, in compressed-row form. */
typedef struct {
    int *first;    /* players + 1 offsets into pair */
    int *pair;     /* pair indexes */
} Incidence;

static int64_t pair_games(const PairTotals *p)
{
    return p->wins_a + p->draws + p->wins_b;
}

static bool build_incidence(const ResultTable *t, Incidence *inc)
{
    int n = results_num_players(t), pairs = results_num_pairs(t);
    inc->first = calloc((size_t)n + 1, sizeof *inc->first);
    inc->pair = malloc(2 * (size_t)pairs * sizeof *inc->pair + 1);
    if (!inc->first || !inc->pair)
        return false;
    for (int i = 0; i < pairs; i++) {
        const PairTotals *p = results_pair(t, i);
        if (pair_games(p) > 0) {
            inc->first[p->a + 1]++;
            inc->first[p->b + 1]++;
        }
    }
    for (int v = 0; v < n; v++)
        inc->first[v + 1] += inc->first[v];
    int *fill = malloc((size_t)n * sizeof *fill + 1);
    if (!fill)
        return false;
    for (int v = 0; v < n; v++)
        fill[v] = inc->first[v];
    for (int i = 0; i < pairs; i++) {
        const PairTotals *p = results_pair(t, i);
        if (pair_games(p) > 0) {
            inc->pair[fill[p->a]++] = i;
            inc->pair[fill[p->b]++] = i;
        }
    }
    free(fill);
    return true;
}

/* Did u score against its opponent in pair p?  Virtual draws score for both. */
static bool scored(const PairTotals *p, int u, bool any_game_scores)
{
    return any_game_scores || p->draws > 0 || (u == p->a ? p->wins_a : p->wins_b) > 0;
}

/* Marks reached[v] for every player the walk reaches from `from`; queue has room for all. */
static void search(const ResultTable *t, const Incidence *inc, int from, Walk walk, bool any_game_scores,
                   bool *reached, int *queue)
{
    int head = 0, tail = 0;
    reached[from] = true;
    queue[tail++] = from;
    while (head < tail) {
        int u = queue[head++];
        for (int k = inc->first[u]; k < inc->first[u + 1]; k++) {
            const PairTotals *p = results_pair(t, inc->pair[k]);
            int v = u == p->a ? p->b : p->a;
            bool follow = walk == ALONG_GAMES || scored(p, walk == ALONG_ARROWS ? u : v, any_game_scores);
            if (follow && !reached[v]) {
                reached[v] = true;
                queue[tail++] = v;
            }
        }
    }
}

static RatingStatus status_of(bool linked, bool below_or_level, bool above_or_level)
{
    if (!linked)
        return RATING_UNLINKED;
    if (below_or_level && above_or_level)
        return RATING_FINITE;
    if (above_or_level)
        return RATING_ABOVE;
    if (below_or_level)
        return RATING_BELOW;
    return RATING_UNDETERMINED;
}

bool ratings_classify(const ResultTable *t, int anchor, bool any_game_scores, RatingStatus *status)
{
    int n = results_num_players(t);
    Incidence inc = {NULL, NULL};
    bool *reached = calloc(3 * (size_t)n, sizeof *reached);
    int *queue = malloc((size_t)n * sizeof *queue);
    bool ok = reached && queue && build_incidence(t, &inc);
    if (ok) {
        bool *linked = reached, *reached_from = reached + n, *reaches = reached + 2 * n;
        search(t, &inc, anchor, ALONG_GAMES, any_game_scores, linked, queue);
        search(t, &inc, anchor, ALONG_ARROWS, any_game_scores, reached_from, queue);  /* anchor scored ... v */
        search(t, &inc, anchor, AGAINST_ARROWS, any_game_scores, reaches, queue);     /* v scored ... anchor */
        for (int v = 0; v < n; v++)
            status[v] = status_of(linked[v], reached_from[v], reaches[v]);
    }
    free(inc.first);
    free(inc.pair);
    free(reached);
    free(queue);
    return ok;
}
