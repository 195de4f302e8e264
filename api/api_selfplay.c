/*
 * api_selfplay.c - lt_selfplay (leuctra_api.h): a self-play run whose leaves the caller's
 * evaluator judges, written as `leuctra selfplay` writes its records (selfplay/selfplay.h: the
 * run, with SelfplayRun.evaluator, plays its games in step: selfplay_lockstep.c).  The options
 * are read here, as the command's flags are, with the same ranges; the settings text says that
 * the evaluator is external and what the caller calls it.
 */
#include "api_internal.h"
#include "core/number.h"
#include "data/records.h"
#include "data/weights.h"
#include "search/search_setup.h"
#include "selfplay/selfplay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { DEFAULT_AT_ONCE = 64, MAX_EVALUATOR_NAME = 200 };

typedef struct {
    SelfplayConfig config;
    SearchSetup search;         /* visits, seed, cpuct, weights: read as every search option */
    int batch, at_once;         /* 0: not given */
    bool resume;
    const char *evaluator;
} Options;

static bool read_integer(const char *name, const char *text, long long min, long long max, int *out, Error *e)
{
    long long v;
    const NumberStatus st = number_read_integer(text, min, max, &v);
    if (st != NUMBER_OK)
        return error_set(e, "%s must be an integer from %lld to %lld, got '%.40s' (%s)", name, min, max, text,
                         number_problem(st));
    *out = (int)v;
    return true;
}

static bool read_real(const char *name, const char *text, double min, double max, double *out, Error *e)
{
    double v;
    const NumberStatus st = number_read_decimal(text, &v);
    if (st != NUMBER_OK || !(v >= min && v <= max))
        return error_set(e, "%s must be a number from %g to %g, got '%.40s'%s%s%s", name, min, max, text,
                         st != NUMBER_OK ? " (" : "", st != NUMBER_OK ? number_problem(st) : "",
                         st != NUMBER_OK ? ")" : "");
    *out = v;
    return true;
}

static bool read_flag(const char *name, const char *text, bool *out, Error *e)
{
    if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
        return *out = true, true;
    if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
        return *out = false, true;
    return error_set(e, "%s must be true or false, got '%.40s'", name, text);
}

static bool set_option(Options *o, const char *name, const char *text, Error *e)
{
    SelfplayConfig *c = &o->config;
    if (strcmp(name, "visits") == 0 || strcmp(name, "seed") == 0 || strcmp(name, "cpuct") == 0 ||
        strcmp(name, "weights") == 0)
        return search_setup_set(&o->search, name, text, SEARCH_IN_API, "", e);
    if (strcmp(name, "temperature") == 0)
        return read_real(name, text, 0, 100, &c->temperature, e);
    if (strcmp(name, "temperature_plies") == 0)
        return read_integer(name, text, 0, 100000, &c->temperature_plies, e);
    if (strcmp(name, "noise") == 0)
        return read_real(name, text, 0, 1, &c->noise, e);
    if (strcmp(name, "noise_alpha") == 0)
        return read_real(name, text, 0.001, 100, &c->noise_alpha, e);
    if (strcmp(name, "random_opening") == 0)
        return read_integer(name, text, 0, 100000, &c->random_opening, e);
    if (strcmp(name, "max_plies") == 0)
        return read_integer(name, text, 0, 100000, &c->draw.max_plies, e);
    if (strcmp(name, "repetition") == 0)
        return read_flag(name, text, &c->draw.repetition, e);
    if (strcmp(name, "batch") == 0)
        return read_integer(name, text, 1, LT_SEARCH_MAX_BATCH, &o->batch, e);
    if (strcmp(name, "games_at_once") == 0)
        return read_integer(name, text, 1, LT_SEARCH_MAX_GAMES, &o->at_once, e);
    if (strcmp(name, "resume") == 0)
        return read_flag(name, text, &o->resume, e);
    if (strcmp(name, "evaluator") == 0) {
        o->evaluator = text;
        if (strlen(text) > MAX_EVALUATOR_NAME || strpbrk(text, "\n\r"))
            return error_set(e, "evaluator: a name of one line, at most %d bytes", MAX_EVALUATOR_NAME);
        return true;
    }
    return error_set(e, "unknown option '%.40s' (options: visits, seed, cpuct, weights, temperature, "
                        "temperature_plies, noise, noise_alpha, random_opening, max_plies, repetition, batch, "
                        "games_at_once, evaluator, resume)", name);
}

/* The options over the defaults for game g. */
static bool read_options(const Game *g, long games, int count, const char *const *names, const char *const *values,
                         Options *o, Error *e)
{
    memset(o, 0, sizeof *o);
    selfplay_default_config(g, &o->config);
    search_setup_default(&o->search);
    o->search.limits.visits = o->config.visits;
    o->search.mcts.seed = o->config.seed;
    o->search.mcts.c_puct = o->config.c_puct;
    o->evaluator = "external";
    if (count < 0 || (count > 0 && (!names || !values)))
        return error_set(e, "selfplay: %d options without their names and values", count);
    for (int i = 0; i < count; i++) {
        if (!names[i] || !values[i])
            return error_set(e, "selfplay: an option without a name or a value");
        for (int j = 0; j < i; j++)
            if (strcmp(names[j], names[i]) == 0)
                return error_set(e, "option '%.40s' given twice", names[i]);
        if (!set_option(o, names[i], values[i], e))
            return false;
    }
    o->config.visits = o->search.limits.visits;
    o->config.seed = o->search.mcts.seed;
    o->config.c_puct = o->search.mcts.c_puct;
    if (o->config.visits <= 0)
        return error_set(e, "visits: self-play searches a number of visits, got 0");
    if (!o->at_once)
        o->at_once = games < DEFAULT_AT_ONCE ? (int)games : DEFAULT_AT_ONCE;
    if (!o->batch)
        o->batch = o->at_once;
    return true;
}

static int write_summary(const SelfplayProgress *p, char *summary, size_t len, char *err, size_t err_len)
{
    const int n = snprintf(summary, len,
                           "{\"total\": %llu, \"present\": %llu, \"played\": %llu, \"white_wins\": %llu, "
                           "\"black_wins\": %llu, \"draws\": %llu, \"plies\": %llu, \"seconds\": %.3f}",
                           (unsigned long long)p->total, (unsigned long long)p->present,
                           (unsigned long long)p->played, (unsigned long long)p->results[0],
                           (unsigned long long)p->results[1], (unsigned long long)p->results[2],
                           (unsigned long long)p->plies, p->seconds);
    return n >= 0 && (size_t)n < len ? LT_OK : api_fail(err, err_len, LT_ERR_INPUT, "selfplay: the summary buffer is too small");
}

/* The run, once the game, start, options and weights are known. */
static int run_games(const Game *g, const Position *start, const Weights *w, const Options *o, const char *path,
                     long games, LtEvaluateFn evaluate, void *ctx, char *summary, size_t summary_len, char *err,
                     size_t err_len)
{
    const MctsConfig search = selfplay_search_config(&o->config);
    ApiEvaluator *bridge = api_evaluator_new(g, w, mcts_coarse_share(&search, g, w), NULL, "", NULL, evaluate, ctx);
    Error e = {0};
    if (!records_path_check(path, &e))
        return api_evaluator_free(bridge), api_fail(err, err_len, e.failure ? LT_ERR_FAILED : LT_ERR_INPUT, "%s", e.msg);
    if (!o->resume && access(path, F_OK) == 0)     /* as `leuctra selfplay` refuses it: bad input */
        return api_evaluator_free(bridge),
               api_fail(err, err_len, LT_ERR_INPUT, "%s already exists (resume completes it; or choose another name)", path);
    const SelfplayEvaluator evaluator = {api_evaluator_call, bridge, o->batch, o->at_once};
    char *settings = selfplay_settings_text_external(g, start, w, &o->config, o->evaluator,
                                                     selfplay_lockstep_in_flight(&evaluator), NULL);
    if (!bridge || !settings) {
        api_evaluator_free(bridge);
        free(settings);
        return api_fail(err, err_len, LT_ERR_FAILED, "selfplay: out of memory");
    }
    const SelfplayRun run = {.game = g, .start = start, .weights = w, .config = &o->config, .settings = settings,
                             .path = path, .games = (uint64_t)games, .threads = 1, .resume = o->resume,
                             .evaluator = &evaluator};
    SelfplayProgress progress;
    int status = LT_OK;
    if (!selfplay_run(&run, &progress, &e)) {
        status = api_evaluator_error(bridge, err, err_len);
        if (status == LT_OK)
            status = api_fail(err, err_len, e.failure ? LT_ERR_FAILED : LT_ERR_INPUT, "%s", e.msg);
    }
    if (status == LT_OK && summary)
        status = write_summary(&progress, summary, summary_len, err, err_len);
    api_evaluator_free(bridge);
    free(settings);
    return status;
}

int lt_selfplay(const char *variant, const char *size, const char *position, const char *path, long games,
                int count, const char *const *names, const char *const *values, LtEvaluateFn evaluate, void *ctx,
                char *summary, size_t summary_len, char *err, size_t err_len)
{
    if (!path || !*path)
        return api_fail(err, err_len, LT_ERR_INPUT, "selfplay: no records file to write");
    if (games < 1 || games > 100000000)
        return api_fail(err, err_len, LT_ERR_INPUT, "games must be an integer from 1 to 100000000, got %ld", games);
    if (!evaluate)
        return api_fail(err, err_len, LT_ERR_INPUT, "selfplay: no evaluator");
    LtGame *handle = lt_game_new(variant, size, position, err, err_len);
    if (!handle)
        return LT_ERR_INPUT;
    const Game *g = api_game_rules(handle);
    Options o;
    Error e;
    const Weights *w = NULL;
    int status = read_options(g, games, count, names, values, &o, &e) ? LT_OK
                                                                       : api_fail(err, err_len, LT_ERR_INPUT, "%s", e.msg);
    if (status == LT_OK)
        status = api_game_weights(handle, o.search.eval_path, &w, err, err_len);
    if (status == LT_OK)
        status = run_games(g, &api_game_played(handle)->start, w, &o, path, games, evaluate, ctx, summary,
                           summary_len, err, err_len);
    lt_game_free(handle);
    return status;
}
