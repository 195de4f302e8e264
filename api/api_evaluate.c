/*
 * api_evaluate.c - the bridge between the caller's evaluator (leuctra_api.h's LtEvaluateFn: planes
 * and legal actions ascending, the layout a network and the dataset export use) and the search's
 * (mcts.h's MctsEvaluateFn: positions and moves in the game's order), and the lt_leaves_* calls
 * an evaluator may make while it runs.
 *
 * Each batch: the leaves' planes written side by side, each leaf's actions sorted with the
 * permutation back to its moves kept, the outputs filled with NaN (an entry the evaluator left
 * unwritten is then caught), the call, and the answer checked (a value from 0 to 1, scores
 * finite and >= 0) and put back in move order.  The buffers grow to the largest batch and stay.
 */
#include "api_internal.h"
#include "core/tensors.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct LtLeaves {
    const Game *game;
    const Weights *weights;     /* NULL until loaded from holder (api_evaluator_new) */
    double coarse;
    LtGame *holder;
    const char *path;
    const MctsConfig *cfg;
    const MctsLeaf *leaves;
    int n;
    const int32_t *legal_start;
    const int32_t *order;       /* order[j]: the move (within its leaf) of legal entry j */
};

struct ApiEvaluator {
    const Game *game;
    LtEvaluateFn evaluate;
    void *ctx;
    size_t plane_bytes;         /* of one leaf */
    uint8_t *planes;
    int32_t *legal_start;
    double *values;
    int leaf_capacity;
    int32_t *legal, *order;
    float *policy;
    size_t entry_capacity;
    int actions[MAX_MOVES];     /* one leaf's, in its moves' order */
    uint64_t *seen;             /* a bit per action, all clear between leaves */
    int *before;                /* for each word of seen, the bits set in the words before it */
    LtLeaves leaves;
    int status;                 /* LT_OK until the evaluator stops a search */
    char msg[ERROR_LEN];
};

ApiEvaluator *api_evaluator_new(const Game *g, const Weights *w, double coarse, LtGame *holder, const char *path,
                                const MctsConfig *cfg, LtEvaluateFn evaluate, void *ctx)
{
    ApiEvaluator *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->game = g;
    e->evaluate = evaluate;
    e->ctx = ctx;
    e->plane_bytes = (size_t)PLANES_COUNT * (size_t)g->width * (size_t)g->height;
    e->leaves = (LtLeaves){g, w, coarse, holder, path, cfg, NULL, 0, NULL, NULL};
    const size_t words = (size_t)game_num_actions(g) / 64 + 1;
    e->seen = calloc(words, sizeof *e->seen);
    e->before = malloc(words * sizeof *e->before);
    if (!e->seen || !e->before) {
        api_evaluator_free(e);
        return NULL;
    }
    return e;
}

void api_evaluator_free(ApiEvaluator *e)
{
    if (!e)
        return;
    free(e->planes);
    free(e->legal_start);
    free(e->values);
    free(e->legal);
    free(e->order);
    free(e->policy);
    free(e->seen);
    free(e->before);
    free(e);
}

static bool stop(ApiEvaluator *e, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool stop(ApiEvaluator *e, int status, const char *fmt, ...)
{
    e->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return false;
}

int api_evaluator_error(const ApiEvaluator *e, char *err, size_t err_len)
{
    if (e->status != LT_OK && err && err_len)
        snprintf(err, err_len, "%s", e->msg);
    return e->status;
}

/* Room for n leaves and `entries` legal actions. */
static bool reserve(ApiEvaluator *e, int n, size_t entries)
{
    if (n > e->leaf_capacity) {
        uint8_t *planes = realloc(e->planes, (size_t)n * e->plane_bytes);
        e->planes = planes ? planes : e->planes;
        int32_t *start = realloc(e->legal_start, ((size_t)n + 1) * sizeof *start);
        e->legal_start = start ? start : e->legal_start;
        double *values = realloc(e->values, (size_t)n * sizeof *values);
        e->values = values ? values : e->values;
        if (!planes || !start || !values)
            return false;
        e->leaf_capacity = n;
    }
    if (entries > e->entry_capacity) {
        int32_t *legal = realloc(e->legal, entries * sizeof *legal);
        e->legal = legal ? legal : e->legal;
        int32_t *order = realloc(e->order, entries * sizeof *order);
        e->order = order ? order : e->order;
        float *policy = realloc(e->policy, entries * sizeof *policy);
        e->policy = policy ? policy : e->policy;
        if (!legal || !order || !policy)
            return false;
        e->entry_capacity = entries;
    }
    return true;
}

/* A leaf's actions into legal[at ..], ascending, with the move each came from into order[at ..].
 * The generator lists the moves a line at a time, far from action order, so they are placed
 * through a bit set over the action index, as api_vec.c places a game's: each action's place is
 * the number of set bits before its own (an insertion sort took a third of VecGame's step). */
static void sort_actions(ApiEvaluator *e, const MctsLeaf *leaf, size_t at)
{
    const int n = leaf->num_moves;
    game_actions_of(e->game, leaf->position, leaf->moves, n, e->actions);
    int low = INT32_MAX, high = -1;
    for (int k = 0; k < n; k++) {
        const int w = e->actions[k] >> 6;
        e->seen[w] |= 1ull << (e->actions[k] & 63);
        low = w < low ? w : low;
        high = w > high ? w : high;
    }
    for (int w = low, before = 0; w <= high; w++) {
        e->before[w] = before;
        before += __builtin_popcountll(e->seen[w]);
    }
    for (int k = 0; k < n; k++) {
        const int a = e->actions[k], w = a >> 6;
        const size_t place = at + (size_t)(e->before[w] + __builtin_popcountll(e->seen[w] & ((1ull << (a & 63)) - 1)));
        e->legal[place] = a;        /* an action names one legal move (core/tensors.h): the places differ */
        e->order[place] = k;
    }
    if (high >= low)
        memset(e->seen + low, 0, (size_t)(high - low + 1) * sizeof *e->seen);
}

/* The evaluator's answer for leaf i, checked, into the leaf (priors in the game's move order). */
static bool take_answer(ApiEvaluator *e, MctsLeaf *leaf, int i, int n)
{
    const double v = e->values[i];
    if (!(v >= 0 && v <= 1))
        return stop(e, LT_ERR_INPUT,
                    "evaluate: leaf %d of %d: value %g is no win probability (0 to 1 for the side to move; a "
                    "value v from -1 to 1 is (v + 1) / 2)", i, n, v);
    leaf->value = v;
    for (int32_t j = e->legal_start[i]; j < e->legal_start[i + 1]; j++) {
        const float p = e->policy[j];
        if (!(p >= 0) || !isfinite(p))
            return stop(e, LT_ERR_INPUT,
                        "evaluate: leaf %d of %d: the policy's entry for action %d is %g (scores are finite "
                        "and >= 0)", i, n, (int)e->legal[j], (double)p);
        leaf->priors[e->order[j]] = p;
    }
    return true;
}

bool api_evaluator_call(MctsLeaf *leaves, int n, void *ctx)
{
    ApiEvaluator *e = ctx;
    size_t entries = 0;
    for (int i = 0; i < n; i++)
        entries += (size_t)leaves[i].num_moves;
    if (entries > INT32_MAX || !reserve(e, n, entries ? entries : 1))
        return stop(e, LT_ERR_FAILED, "evaluate: out of memory for a batch of %d leaves", n);
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        game_planes(e->game, leaves[i].position, e->planes + (size_t)i * e->plane_bytes);
        e->legal_start[i] = (int32_t)at;
        sort_actions(e, &leaves[i], at);
        at += (size_t)leaves[i].num_moves;
        e->values[i] = NAN;
    }
    e->legal_start[n] = (int32_t)at;
    for (size_t j = 0; j < at; j++)
        e->policy[j] = NAN;
    e->leaves.leaves = leaves;
    e->leaves.n = n;
    e->leaves.legal_start = e->legal_start;
    e->leaves.order = e->order;
    const int rc = e->evaluate(e->ctx, n, e->planes, e->legal_start, e->legal, e->values, e->policy, &e->leaves);
    e->leaves.leaves = NULL;
    if (rc != 0)
        return stop(e, LT_ERR_FAILED, "evaluate: the evaluator stopped the search (it returned %d)", rc);
    for (int i = 0; i < n; i++)
        if (!take_answer(e, &leaves[i], i, n))
            return false;
    return true;
}

/* --- what an evaluator may ask while it runs ---------------------------------------------------- */

int lt_leaves_position(const LtLeaves *leaves, int i, char *buf, size_t len, char *err, size_t err_len)
{
    if (!leaves->leaves || i < 0 || i >= leaves->n) {
        if (err && err_len)
            snprintf(err, err_len, "leaf %d: the batch has %d leaves (and lives only during the evaluator's call)",
                     i, leaves->leaves ? leaves->n : 0);
        return LT_ERR_INPUT;
    }
    game_format_position(leaves->game, leaves->leaves[i].position, buf, len);
    return LT_OK;
}

int lt_leaves_evaluate(const LtLeaves *leaves, double *values_out, float *policy_out, char *err, size_t err_len)
{
    if (!leaves->leaves) {
        if (err && err_len)
            snprintf(err, err_len, "lt_leaves_evaluate: the leaves live only during the evaluator's call");
        return LT_ERR_INPUT;
    }
    if (!leaves->weights) {
        LtLeaves *mine = (LtLeaves *)leaves;    /* the bridge's own: loaded once, kept for the search */
        const int status = api_game_weights(mine->holder, mine->path, &mine->weights, err, err_len);
        if (status != LT_OK)
            return status;
        mine->coarse = mcts_coarse_share(mine->cfg, mine->game, mine->weights);
    }
    float priors[MAX_MOVES];
    for (int i = 0; i < leaves->n; i++) {
        const MctsLeaf *leaf = &leaves->leaves[i];
        values_out[i] = value_search(leaves->game, leaves->weights, NULL, leaf->position, leaves->coarse);
        value_move_priors(leaves->game, leaves->weights, leaf->position, leaf->moves, leaf->num_moves, priors);
        for (int32_t j = leaves->legal_start[i]; j < leaves->legal_start[i + 1]; j++)
            policy_out[j] = priors[leaves->order[j]];
    }
    return LT_OK;
}
