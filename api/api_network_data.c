/*
 * api_network_data.c - the positions a network fit learns from, for a fit outside the library
 * (leuctra_api.h: lt_network_data_*): records files read by the tuner's reading
 * (tune_read_records, visit lists kept), then tuner/tune_network_data.h's sets, held in the
 * handle for the caller to copy out into its own arrays.  The same arrays the C fit
 * (tuner/tune_network.c) reads, so that a fit in PyTorch learns exactly what it would.
 */
#include "api_network.h"
#include "leuctra_api.h"

#include "core/threads.h"
#include "tuner/tune_network_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct LtNetworkData {
    ApiNetwork a;
    TuneNetworkSet sets[2];
    TuneNetworkDataOptions opts;
    TuneDataStats stats;
};

/* The options of a reading, range-checked as `leuctra tune` checks its flags. */
static bool check_options(int skip_opening, double validation, double lambda, int min_visits, int threads, Error *e)
{
    if (skip_opening < 0 || skip_opening > 100000)
        return error_set(e, "skip_opening must be an integer from 0 to 100000, got %d", skip_opening);
    if (!(validation >= 0 && validation <= 0.9))
        return error_set(e, "validation must be a number from 0 to 0.9, got %g", validation);
    if (!(lambda >= 0 && lambda <= 1))
        return error_set(e, "lambda must be a number from 0 to 1, got %g", lambda);
    if (min_visits < 1 || min_visits > 1 << 30)
        return error_set(e, "min_visits must be an integer from 1 to %d, got %d", 1 << 30, min_visits);
    return threads_check(threads, 0, "threads", e);
}

static bool check_paths(const char *const *paths, int n, Error *e)
{
    if (n < 1 || n > LT_NETWORK_MAX_FILES)
        return error_set(e, "the number of records files must be from 1 to %d, got %d", LT_NETWORK_MAX_FILES, n);
    if (!paths)
        return error_set(e, "no records files");
    for (int i = 0; i < n; i++)
        if (!paths[i] || !*paths[i])
            return error_set(e, "records file %d: no path", i);
    return true;
}

LtNetworkData *lt_network_data_new(const char *const *paths, int num_paths, const char *weights, int inputs,
                                   const char *shapes, int skip_opening, double validation, double lambda,
                                   int min_visits, int threads, char *err, size_t err_len)
{
    Error e;
    LtNetworkData *d = calloc(1, sizeof *d);
    if (!d) {
        error_failed(&e, "out of memory");
        api_network_fail(err, err_len, &e);
        return NULL;
    }
    TuneGames games;
    tune_games_init(&games);
    games.keep_visits = true;       /* the policy targets */
    d->opts = tune_network_data_defaults();
    d->opts.skip_opening = skip_opening;
    d->opts.validation = validation;
    d->opts.lambda = lambda;
    d->opts.min_visits = min_visits;
    d->opts.threads = threads;
    Game *game = NULL;
    bool ok = check_options(skip_opening, validation, lambda, min_visits, threads, &e) &&
              check_paths(paths, num_paths, &e) &&
              tune_read_records(paths, num_paths, threads, &games, &game, &e);
    ok = ok && api_network_load(&d->a, game, weights, &e) && api_network_arch(&d->a, inputs, shapes, NETWORK_MIN_H, &e);
    ok = ok && tune_network_data(d->a.game, &games, &d->a.base, &d->a.arch, &d->opts, &d->sets[0], &d->sets[1],
                                 &d->stats, &e);
    tune_games_free(&games);
    if (!ok) {
        if (!d->a.game)
            game_free(game);        /* read, but never handed over */
        lt_network_data_free(d);
        api_network_fail(err, err_len, &e);
        return NULL;
    }
    return d;
}

void lt_network_data_free(LtNetworkData *d)
{
    if (!d)
        return;
    tune_network_set_free(&d->sets[0]);
    tune_network_set_free(&d->sets[1]);
    api_network_close(&d->a);
    free(d);
}

int lt_network_data_info(const LtNetworkData *d, char *json, size_t json_len)
{
    char arch[1024];
    const TuneDataStats *s = &d->stats;
    const size_t need = api_network_json(&d->a, &d->a.arch, arch, sizeof arch);
    if (need >= sizeof arch)
        return LT_ERR_FAILED;
    const size_t n = (size_t)snprintf(
        json, json_len,
        "{%s, \"games\": %llu, \"games_train\": %llu, \"games_validation\": %llu, \"positions_read\": %llu, "
        "\"positions_train\": %llu, \"positions_validation\": %llu, \"policy_train\": %zu, \"policy_validation\": %zu, "
        "\"skip_opening\": %d, \"validation\": %.17g, \"lambda\": %.17g, \"min_visits\": %d}",
        arch, (unsigned long long)s->games, (unsigned long long)s->games_train,
        (unsigned long long)s->games_validation, (unsigned long long)s->positions_read,
        (unsigned long long)s->positions_train, (unsigned long long)s->positions_validation,
        d->sets[0].with_policy, d->sets[1].with_policy, d->opts.skip_opening, d->opts.validation, d->opts.lambda,
        d->opts.min_visits);
    return n < json_len ? LT_OK : LT_ERR_INPUT;
}

/* Set `set` of d, or NULL with err filled. */
static const TuneNetworkSet *set_of(const LtNetworkData *d, int set, char *err, size_t err_len)
{
    if (set == 0 || set == 1)
        return &d->sets[set];
    Error e;
    error_set(&e, "set must be 0 (training) or 1 (validation), got %d", set);
    api_network_fail(err, err_len, &e);
    return NULL;
}

int lt_network_data_size(const LtNetworkData *d, int set, int64_t *positions, int64_t *inputs, int64_t *moves,
                         int64_t *samples, char *err, size_t err_len)
{
    const TuneNetworkSet *s = set_of(d, set, err, err_len);
    if (!s)
        return LT_ERR_INPUT;
    *positions = (int64_t)s->count;
    *inputs = (int64_t)s->input_start[s->count];
    *moves = (int64_t)s->move_start[s->count];
    *samples = (int64_t)s->num_sample;
    return LT_OK;
}

/* n items of `size` bytes into out, where the caller asked for them. */
static void copy_out(void *out, const void *from, size_t n, size_t size)
{
    if (out && n)
        memcpy(out, from, n * size);
}

int lt_network_data_fetch(const LtNetworkData *d, int set, uint64_t *input_start, uint32_t *input, uint8_t *bucket,
                          double *skip_value, double *target, float *result, uint64_t *move_start, uint32_t *action,
                          float *skip_prior, float *share, char *err, size_t err_len)
{
    const TuneNetworkSet *s = set_of(d, set, err, err_len);
    if (!s)
        return LT_ERR_INPUT;
    const size_t n = s->count, inputs = s->input_start[n], moves = s->move_start[n];
    copy_out(input_start, s->input_start, n + 1, sizeof *s->input_start);
    copy_out(input, s->input, inputs, sizeof *s->input);
    copy_out(bucket, s->bucket, n, sizeof *s->bucket);
    copy_out(skip_value, s->skip_value, n, sizeof *s->skip_value);
    copy_out(target, s->target, n, sizeof *s->target);
    copy_out(result, s->result, n, sizeof *s->result);
    copy_out(move_start, s->move_start, n + 1, sizeof *s->move_start);
    copy_out(action, s->action, moves, sizeof *s->action);
    copy_out(skip_prior, s->skip_prior, moves, sizeof *s->skip_prior);
    copy_out(share, s->share, moves, sizeof *s->share);
    return LT_OK;
}

int lt_network_data_sample(const LtNetworkData *d, int set, int64_t k, int64_t *row, char *buf, size_t len,
                           char *err, size_t err_len)
{
    const TuneNetworkSet *s = set_of(d, set, err, err_len);
    if (!s)
        return LT_ERR_INPUT;
    Error e;
    if (k < 0 || (uint64_t)k >= s->num_sample) {
        error_set(&e, "sample position %lld: the set keeps %zu (0 to %lld)", (long long)k, s->num_sample,
                  (long long)s->num_sample - 1);
        return api_network_fail(err, err_len, &e);
    }
    char text[512];
    game_format_position(d->a.game, &s->sample[k], text, sizeof text);
    if (!buf || strlen(text) >= len) {
        error_set(&e, "the position buffer is too small (%zu bytes; %zu needed)", len, strlen(text) + 1);
        return api_network_fail(err, err_len, &e);
    }
    memcpy(buf, text, strlen(text) + 1);
    *row = (int64_t)s->sample_row[k];
    return LT_OK;
}
