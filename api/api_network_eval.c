/*
 * api_network_eval.c - a weights file's network evaluated as the search reads it (integers), for
 * the checks of a network trained outside the library (leuctra_api.h: lt_network_eval_*): many
 * positions a call, each with its inputs, bucket, value logits and every legal move's prior
 * logits, into growing buffers the caller then copies out, as api_records.c's rows.
 */
#include "api_network.h"
#include "leuctra_api.h"

#include "tuner/tune_network_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing array of n items of `size` bytes. */
typedef struct {
    void *items;
    size_t count, capacity, size;
} Column;

enum { C_INPUT_START, C_INPUT, C_BUCKET, C_VALUE, C_SKIP_VALUE, C_MOVE_START, C_ACTION, C_PRIOR, C_SKIP_PRIOR,
       NUM_COLUMNS };

struct LtNetworkEval {
    ApiNetwork a;
    Weights skip;               /* the base weights without their network (borrowed) */
    Column col[NUM_COLUMNS];
    uint32_t active[NETWORK_MAX_ACTIVE];
    Move moves[MAX_MOVES];
    float priors[MAX_MOVES], logits[MAX_MOVES];
};

static bool column_add(Column *c, const void *items, size_t n)
{
    if (c->count + n > c->capacity) {
        size_t cap = c->capacity ? c->capacity : 1024;
        while (cap < c->count + n)
            cap *= 2;
        void *p = realloc(c->items, cap * c->size);
        if (!p)
            return false;
        c->items = p;
        c->capacity = cap;
    }
    if (n)
        memcpy((char *)c->items + c->count * c->size, items, n * c->size);
    c->count += n;
    return true;
}

LtNetworkEval *lt_network_eval_new(const char *variant, const char *size, const char *weights, char *err,
                                   size_t err_len)
{
    Error e;
    LtNetworkEval *v = calloc(1, sizeof *v);
    if (!v) {
        error_failed(&e, "out of memory");
        api_network_fail(err, err_len, &e);
        return NULL;
    }
    static const size_t sizes[NUM_COLUMNS] = {8, 4, 1, 8, 8, 8, 4, 4, 4};
    for (int i = 0; i < NUM_COLUMNS; i++)
        v->col[i].size = sizes[i];
    bool ok = api_network_load(&v->a, api_network_game(variant, size, &e), weights, &e);
    if (ok && !v->a.base.net)
        ok = error_set(&e, "%s has no network", weights && *weights ? weights : "the shipped weights");
    if (!ok) {
        api_network_fail(err, err_len, &e);
        lt_network_eval_free(v);
        return NULL;
    }
    v->skip = v->a.base;
    v->skip.net = NULL;
    return v;
}

void lt_network_eval_free(LtNetworkEval *v)
{
    if (!v)
        return;
    for (int i = 0; i < NUM_COLUMNS; i++)
        free(v->col[i].items);
    api_network_close(&v->a);
    free(v);
}

int lt_network_eval_info(const LtNetworkEval *v, char *json, size_t json_len)
{
    char arch[1024];
    const Network *net = v->a.base.net;
    if (api_network_json(&v->a, net, arch, sizeof arch) >= sizeof arch)
        return LT_ERR_FAILED;
    const size_t n = (size_t)snprintf(json, json_len,
                                      "{%s, \"hidden\": %d, \"shift1\": %d, \"shift2\": %d, \"scale_v\": %.9g, "
                                      "\"scale_e\": %.9g}",
                                      arch, net->h, net->shift1, net->shift2, (double)net->scale_v,
                                      (double)net->scale_e);
    return n < json_len ? LT_OK : LT_ERR_INPUT;
}

/* The legal moves of p with their actions and prior logits into the columns. */
static bool add_moves(LtNetworkEval *v, const Position *p)
{
    const Game *g = v->a.game;
    const Network *net = v->a.base.net;
    const int n = game_gen_moves(g, p, v->moves);
    value_move_priors(g, &v->skip, p, v->moves, n, v->priors);
    network_priors(net, g, NULL, p, v->moves, n, v->logits);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        const float lp = v->priors[i] > 0 ? (float)log(v->priors[i]) : TUNE_NETWORK_LOG_PRIOR_FLOOR;
        const float skip = lp > TUNE_NETWORK_LOG_PRIOR_FLOOR ? lp : TUNE_NETWORK_LOG_PRIOR_FLOOR;
        const float prior = skip + v->logits[i];
        const uint32_t action = (uint32_t)game_action_of(g, p, v->moves[i]);
        ok = column_add(&v->col[C_ACTION], &action, 1) && column_add(&v->col[C_PRIOR], &prior, 1) &&
             column_add(&v->col[C_SKIP_PRIOR], &skip, 1);
    }
    const uint64_t end = v->col[C_ACTION].count;
    return ok && column_add(&v->col[C_MOVE_START], &end, 1);
}

/* One position into the columns; false when memory runs out. */
static bool add_position(LtNetworkEval *v, const Position *p)
{
    const Game *g = v->a.game;
    const Network *net = v->a.base.net;
    const int n = network_active_inputs(net, g, p, v->active);
    const uint64_t end = v->col[C_INPUT].count + (uint64_t)n;
    const uint8_t bucket = (uint8_t)network_bucket(net, g, p);
    const double value = value_logit(g, &v->a.base, p), skip = value_logit(g, &v->skip, p);
    return column_add(&v->col[C_INPUT], v->active, (size_t)n) && column_add(&v->col[C_INPUT_START], &end, 1) &&
           column_add(&v->col[C_BUCKET], &bucket, 1) && column_add(&v->col[C_VALUE], &value, 1) &&
           column_add(&v->col[C_SKIP_VALUE], &skip, 1) && add_moves(v, p);
}

int lt_network_eval_run(LtNetworkEval *v, const char *const *positions, int n, int64_t *inputs, int64_t *moves,
                        char *err, size_t err_len)
{
    Error e;
    for (int i = 0; i < NUM_COLUMNS; i++)
        v->col[i].count = 0;
    *inputs = *moves = 0;
    if (n < 0 || n > LT_NETWORK_MAX_POSITIONS)
        return error_set(&e, "the number of positions must be from 0 to %d, got %d", LT_NETWORK_MAX_POSITIONS, n),
               api_network_fail(err, err_len, &e);
    if (n > 0 && !positions)
        return error_set(&e, "%d positions, and no array of them", n), api_network_fail(err, err_len, &e);
    const uint64_t zero = 0;
    bool ok = column_add(&v->col[C_INPUT_START], &zero, 1) && column_add(&v->col[C_MOVE_START], &zero, 1);
    for (int i = 0; ok && i < n; i++) {
        Position p;
        Error why;
        if (!positions[i] || !game_parse_position(v->a.game, positions[i], &p, &why)) {
            for (int k = 0; k < NUM_COLUMNS; k++)
                v->col[k].count = 0;
            error_set(&e, "position %d: %s", i, positions[i] ? why.msg : "missing (NULL)");
            return api_network_fail(err, err_len, &e);
        }
        ok = add_position(v, &p);
    }
    if (!ok) {
        for (int k = 0; k < NUM_COLUMNS; k++)
            v->col[k].count = 0;
        return error_failed(&e, "out of memory for the evaluations"), api_network_fail(err, err_len, &e);
    }
    *inputs = (int64_t)v->col[C_INPUT].count;
    *moves = (int64_t)v->col[C_ACTION].count;
    return LT_OK;
}

void lt_network_eval_fetch(const LtNetworkEval *v, uint64_t *input_start, uint32_t *input, uint8_t *bucket,
                           double *value, double *skip_value, uint64_t *move_start, uint32_t *action, float *prior,
                           float *skip_prior)
{
    void *out[NUM_COLUMNS] = {input_start, input, bucket, value, skip_value, move_start, action, prior, skip_prior};
    for (int i = 0; i < NUM_COLUMNS; i++)
        if (out[i] && v->col[i].count)
            memcpy(out[i], v->col[i].items, v->col[i].count * v->col[i].size);
}
