/*
 * api_search.c - lt_search_batched (leuctra_api.h): searches of many games at once whose leaves
 * the caller's evaluator judges in batches (search/mcts.h: mcts_search_batched, through
 * api_evaluate.c's bridge), with the options of the one search table, and their results in the
 * dataset export's layout (each game's legal actions ascending, with their visits) and as JSON.
 */
#include "api_internal.h"
#include "core/tensors.h"
#include "search/search_json.h"
#include "search/search_setup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The games: handles of one variant and board. */
static int check_games(LtGame *const *games, int n, char *err, size_t err_len)
{
    if (n < 1 || n > LT_SEARCH_MAX_GAMES || !games)
        return api_fail(err, err_len, LT_ERR_INPUT, "search: the number of games must be from 1 to %d, got %d",
                    LT_SEARCH_MAX_GAMES, n);
    for (int i = 0; i < n; i++) {
        if (!games[i])
            return api_fail(err, err_len, LT_ERR_INPUT, "search: game %d is no game", i);
        const Game *a = api_game_rules(games[0]), *b = api_game_rules(games[i]);
        if (strcmp(a->name, b->name) != 0 || a->width != b->width || a->height != b->height)
            return api_fail(err, err_len, LT_ERR_INPUT, "search: game %d is %s on %dx%d, game 0 %s on %dx%d: one "
                        "variant and board for all", i, b->name, b->width, b->height, a->name, a->width, a->height);
    }
    return LT_OK;
}

/* The set-up from the options, for a search through an evaluator: one thread, visits alone. */
static int read_setup(int count, const char *const *names, const char *const *values, long visits_default,
                      SearchSetup *s, char *err, size_t err_len)
{
    search_setup_default(s);
    s->limits.visits = visits_default;
    Error e;
    if (count < 0 || (count > 0 && (!names || !values)))
        return api_fail(err, err_len, LT_ERR_INPUT, "search: %d options without their names and values", count);
    for (int i = 0; i < count; i++) {
        if (!names[i] || !values[i])
            return api_fail(err, err_len, LT_ERR_INPUT, "search: an option without a name or a value");
        if (!search_setup_set(s, names[i], values[i], SEARCH_IN_API, "", &e))
            return api_fail(err, err_len, LT_ERR_INPUT, "%s", e.msg);
    }
    if (s->mcts.threads > 1)
        return api_fail(err, err_len, LT_ERR_INPUT, "threads: a search through an evaluator runs on one thread, got %d",
                    s->mcts.threads);
    if (s->limits.seconds > 0 || s->limits.visits <= 0)
        return api_fail(err, err_len, LT_ERR_INPUT, "time: a search through an evaluator stops at its visits alone");
    if (s->mcts.playouts)
        return api_fail(err, err_len, LT_ERR_INPUT, "playouts: the evaluator judges the leaves of this search");
    MctsConfig defaults;
    mcts_default_config(&defaults);
    if (s->mcts.max_nodes == defaults.max_nodes && search_node_budget(s->limits.visits) < defaults.max_nodes)
        s->mcts.max_nodes = search_node_budget(s->limits.visits);
    s->mcts.c_puct = s->mcts.c_puct_learned;    /* the evaluator's priors are learned ones */
    return LT_OK;
}

/* The searches of one call: a tree per game, the games' positions as they were when the search
 * began (what the results describe, whatever an evaluator does to the handles meanwhile), the
 * results and the evaluator's bridge. */
typedef struct {
    const Game *game;
    Mcts **trees;
    Position *roots;
    MctsResult *results;
    ApiEvaluator *evaluator;
    int n;
} Searches;

/* Game i's root: its legal actions ascending with their visits, into actions/visits from `at`. */
static void root_visits(const Game *g, const Position *root, const MctsResult *r, int32_t *actions, int32_t *visits,
                        size_t at, int n)
{
    Move moves[MAX_MOVES];
    int ids[MAX_MOVES];
    game_legal_actions(g, root, moves, ids);
    for (int k = 0; k < n; k++) {
        long v = 0;
        for (int j = 0; j < r->num_stats; j++)
            if (r->stats[j].move == moves[k])
                v = r->stats[j].visits;
        int j = k;      /* insertion sort by action, as lt_game_legal_actions sorts */
        for (; j > 0 && actions[at + j - 1] > ids[k]; j--) {
            actions[at + j] = actions[at + j - 1];
            visits[at + j] = visits[at + j - 1];
        }
        actions[at + j] = ids[k];
        visits[at + j] = v > INT32_MAX ? INT32_MAX : (int32_t)v;
    }
}

/* The results into the caller's outputs. */
static int write_results(const Searches *s, int32_t *legal_start, int32_t *actions, int32_t *visits, size_t capacity,
                         double *root_values, int32_t *best, char *err, size_t err_len)
{
    size_t at = 0;
    for (int i = 0; i < s->n; i++) {
        const Position *root = &s->roots[i];
        const MctsResult *r = &s->results[i];
        const int count = game_count_moves(s->game, root);
        if (legal_start)
            legal_start[i] = (int32_t)at;
        if (actions && visits) {
            if (at + (size_t)count > capacity)
                return api_fail(err, err_len, LT_ERR_INPUT, "search: the actions and visits hold %zu entries, the "
                            "games' legal actions are more", capacity);
            root_visits(s->game, root, r, actions, visits, at, count);
        }
        at += (size_t)count;
        if (root_values)
            root_values[i] = r->value;
        if (best)
            best[i] = r->best == MOVE_NONE ? -1 : game_action_of(s->game, root, r->best);
    }
    if (legal_start)
        legal_start[s->n] = (int32_t)at;
    return LT_OK;
}

/* The results as a JSON list into json. */
static int write_json(const Searches *s, char *json, size_t json_len, char *err, size_t err_len)
{
    size_t at = 0;
    for (int i = 0; i < s->n && at < json_len; i++) {
        at += (size_t)snprintf(json + at, json_len - at, i ? ", " : "[");
        if (at < json_len)
            at += search_result_json(s->game, &s->roots[i], &s->results[i], 0, 0, json + at, json_len - at);
    }
    if (at < json_len)
        at += (size_t)snprintf(json + at, json_len - at, "]");
    if (at >= json_len)
        return api_fail(err, err_len, LT_ERR_INPUT, "search: the JSON buffer of %zu bytes is too small", json_len);
    return LT_OK;
}

static void searches_free(Searches *s)
{
    for (int i = 0; s->trees && i < s->n; i++)
        mcts_free(s->trees[i]);
    free(s->trees);
    free(s->roots);
    free(s->results);
    api_evaluator_free(s->evaluator);
}

/* The trees of the games and the evaluator's bridge. */
static int searches_make(Searches *s, LtGame *const *games, int n, const SearchSetup *setup, LtEvaluateFn evaluate,
                         void *ctx, char *err, size_t err_len)
{
    const Game *g = api_game_rules(games[0]);
    s->game = g;
    s->n = n;
    s->trees = calloc((size_t)n, sizeof *s->trees);
    s->roots = malloc((size_t)n * sizeof *s->roots);
    s->results = malloc((size_t)n * sizeof *s->results);
    s->evaluator = api_evaluator_new(g, NULL, 0, games[0], setup->eval_path, &setup->mcts, evaluate, ctx);
    if (!s->trees || !s->roots || !s->results || !s->evaluator)
        return api_fail(err, err_len, LT_ERR_FAILED, "search: out of memory");
    for (int i = 0; i < n; i++) {
        s->roots[i] = api_game_played(games[i])->now;
        if (!(s->trees[i] = mcts_new(g, NULL, &setup->mcts)))     /* the evaluator judges every leaf */
            return api_fail(err, err_len, LT_ERR_FAILED, "search: cannot allocate the search tree of game %d", i);
        mcts_set_game(s->trees[i], api_game_played(games[i]));
    }
    return LT_OK;
}

int lt_search_batched(LtGame *const *games, int n, int count, const char *const *names, const char *const *values,
                      int batch, LtEvaluateFn evaluate, void *ctx, int32_t *legal_start, int32_t *actions,
                      int32_t *visits, size_t capacity, double *root_values, int32_t *best, char *json,
                      size_t json_len, char *err, size_t err_len)
{
    int status = check_games(games, n, err, err_len);
    if (status != LT_OK)
        return status;
    if (batch < 1 || batch > LT_SEARCH_MAX_BATCH)
        return api_fail(err, err_len, LT_ERR_INPUT, "batch must be an integer from 1 to %d, got %d", LT_SEARCH_MAX_BATCH,
                    batch);
    if (!evaluate)
        return api_fail(err, err_len, LT_ERR_INPUT, "search: no evaluator");
    SearchSetup setup;
    const Weights *w;
    if ((status = read_setup(count, names, values, 1000, &setup, err, err_len)) != LT_OK)
        return status;
    /* a weights file named is checked now; the shipped ones load when an evaluator asks for them */
    if (setup.eval_path[0] && (status = api_game_weights(games[0], setup.eval_path, &w, err, err_len)) != LT_OK)
        return status;
    Searches s = {0};
    status = searches_make(&s, games, n, &setup, evaluate, ctx, err, err_len);
    if (status == LT_OK && !mcts_search_batched(s.trees, n, setup.limits.visits, batch, (batch + n - 1) / n,
                                                api_evaluator_call, s.evaluator, s.results)) {
        status = api_evaluator_error(s.evaluator, err, err_len);
        if (status == LT_OK)
            status = api_fail(err, err_len, LT_ERR_FAILED, "search: out of memory");
    }
    if (status == LT_OK)
        status = write_results(&s, legal_start, actions, visits, capacity, root_values, best, err, err_len);
    if (status == LT_OK && json)
        status = write_json(&s, json, json_len, err, err_len);
    searches_free(&s);
    return status;
}
