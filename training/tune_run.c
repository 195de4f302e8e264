/*
 * tune_run.c - the steps of a tune run, in order (tune_run.h: training_tune_run): the game from the first
 * data file, the start weights, what to fit, the games read (each process its share), the
 * positions, the fit of the linear weights and tables, the move priors, and the weights file
 * with its provenance.  `leuctra tune` and `leuctra train` both run it; each step returns its
 * error, so that the caller decides how to end.
 *
 * What is fitted follows the start weights: a table file's tables and priors are refitted with
 * the linear weights unless told otherwise (--linear-only, --no-priors).  Refitting the linear
 * weights alone against tables held fixed had made the README's training commands weaker than
 * the weights they started from (-76 Elo), with nothing said.
 */
#include "tune_run.h"

#include "core/pattern.h"
#include "core/threads.h"
#include "data/weights.h"
#include "search/search_setup.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Fewer training positions than this many per feature cannot say much about any weight (the
 * usual ten-events-per-variable rule of logistic regression). */
enum { MIN_POSITIONS_PER_FEATURE = 10 };

/* A failure that every process meets alike (the same options, the same sums): rank 0 says it. */
static bool fail_alike(const MpiEnv *env, Error *err)
{
    err->elsewhere = env->rank != 0;
    return false;
}

/* The game of the first data file, the start weights for it, and what to fit: the start's tables
 * and priors unless the options keep them, plus any the options add. */
static bool prepare(const TuneOptions *o, const MpiEnv *env, TuneWork *w, Error *err)
{
    TuneSummary *s = &w->summary;
    if (!tune_check_headers(o->data, o->num_data, &w->game, err))
        return fail_alike(env, err);
    Error e;
    if (!search_load_evaluation(w->game, o->init, &s->init, &e)) {
        if (o->init)
            error_set(err, "--init: %s", e.msg);
        else
            error_set(err, "no shipped weights for %s: give --init", w->game->name);
    } else {
        s->fit_tables = o->tables || o->shapes || (s->init.tables && !o->linear_only);
        s->families = o->shapes ? o->shapes : s->init.tables ? s->init.pattern_families : PATTERN_BASE;
        s->fit_priors = o->priors || (s->init.policy && !o->linear_only && !o->no_priors);
        return true;
    }
    return fail_alike(env, err);
}

/* A table file under a .txt name would look like text weights and read as binary: refused
 * before the fit, which may take minutes, rather than a surprise after it. */
static bool check_out_kind(const TuneOptions *o, const MpiEnv *env, const TuneWork *w, Error *err)
{
    const TuneSummary *s = &w->summary;
    size_t n = strlen(o->out);
    if (n < 4 || strcmp(o->out + n - 4, ".txt") != 0)
        return true;
    const char *holds = "which only a table file holds: name it .lwt";
    if (s->fit_tables || s->fit_priors || s->init.tables || s->init.policy)
        error_set(err, "--out %s: the weights will have %s, %s (or --linear-only from text weights: "
                       "--init data/weights/%s.txt)", o->out, s->fit_tables || s->init.tables ? "pattern tables"
                       : "learned priors", holds, w->game->name);
    else
        return true;
    return fail_alike(env, err);
}

static bool check_enough(const MpiEnv *env, const TuneSummary *s, Error *err)
{
    uint64_t need = (uint64_t)MIN_POSITIONS_PER_FEATURE * (uint64_t)s->init.count;
    if (s->data.positions_train >= need)
        return true;
    error_set(err, "too few positions: %llu for training (of %llu read), at least %llu needed for %d "
                   "features", (unsigned long long)s->data.positions_train, (unsigned long long)s->data.positions_read,
                   (unsigned long long)need, s->init.count);
    return fail_alike(env, err);
}

/* Both sets' fixed table part of the log-odds under wt (no tables: none). */
static bool set_offsets(const MpiEnv *env, TuneWork *w, const Weights *wt, Error *err)
{
    const TuneSummary *s = &w->summary;
    if (tune_set_offsets(&w->train, w->game, wt, s->threads, err) &&
        tune_set_offsets(&w->valid, w->game, wt, s->threads, err))
        return true;
    return fail_alike(env, err);
}

/* The fit: the tables and the linear weights together, or the linear weights by Newton with
 * any tables of the start held fixed (--linear-only). */
static bool fit_and_measure(const TuneOptions *o, const MpiEnv *env, TuneWork *w, Error *err)
{
    TuneSummary *s = &w->summary;
    s->init_tables_fixed = !s->fit_tables && s->init.tables;
    if (!set_offsets(env, w, s->fit_tables || s->init_tables_fixed ? &s->init : &(Weights){0}, err))
        return false;
    s->train_before = tune_loss(&w->train, &s->init, s->threads);
    s->valid_before = tune_loss(&w->valid, &s->init, s->threads);
    s->train_baseline = tune_baseline_loss(&w->train, &w->train);
    s->valid_baseline = tune_baseline_loss(&w->train, &w->valid);
    bool ok = s->fit_tables ? tune_fit_tables(w->game, &w->train, &w->valid, &s->init, &o->fit_opts, &s->fit, err)
                            : tune_fit(&w->train, &s->init, &o->fit_opts, &s->fit, err);
    if (!ok)
        return fail_alike(env, err);
    if (s->fit_tables && !set_offsets(env, w, &s->fit.weights, err))
        return false;
    s->train_after = tune_loss(&w->train, &s->fit.weights, s->threads);
    s->valid_after = tune_loss(&w->valid, &s->fit.weights, s->threads);
    return tune_weight_stats(&w->train, &s->fit.weights, s->threads, s->stat, err) || fail_alike(env, err);
}

/* The move priors fitted to the games' visit lists, into the weights to save.  Where the run
 * refits a table file's priors without being asked (--priors) and the data cannot fit them (no
 * search made enough visits), the start's priors are kept, and the report says so. */
static bool fit_priors(const TuneOptions *o, const MpiEnv *env, TuneWork *w, Error *err)
{
    TuneSummary *s = &w->summary;
    if (!s->fit_priors)
        return true;
    TunePolicyOptions po = o->policy_opts;
    po.skip_opening = o->data_opts.skip_opening;
    po.validation = o->data_opts.validation;
    po.threads = o->data_opts.threads;
    po.mpi = env;
    /* under mpirun every rank gets the same answer and error, and so decides alike */
    if (!tune_fit_policy(w->game, &w->games, &s->init, &po, &s->policy, err)) {
        if (o->priors || err->failure)
            return fail_alike(env, err);
        s->fit_priors = false;
        snprintf(s->priors_kept, sizeof s->priors_kept, "%s", err->msg);
        *err = (Error){0};
        return true;
    }
    Weights *wt = &s->fit.weights;
    free(wt->policy);
    wt->policy = s->policy.weights;
    wt->num_policy = s->policy.size;
    wt->policy_id = s->policy.id;
    s->policy.weights = NULL;     /* the weights own them now */
    return true;
}

bool training_tune_run(const TuneOptions *o, const MpiEnv *env, TuneWork *w, Error *err)
{
    if (o->model == TUNE_MODEL_NET)
        return training_tune_run_net(o, env, w, err);
    memset(w, 0, sizeof *w);
    tune_games_init(&w->games);
    TuneSummary *s = &w->summary;
    *s = (TuneSummary){.opts = o, .threads = threads_or_default(o->data_opts.threads), .ranks = env->size};
    if (!prepare(o, env, w, err) || !check_out_kind(o, env, w, err))
        return false;
    TuneDataOptions data_opts = o->data_opts;
    /* The tables' indices are needed whenever tables take part: fitted, or the start's held fixed,
     * whose sum is then each position's fixed offset; without it the linear weights would be
     * fitted as if there were no tables, and saved beside them, which then count twice. */
    data_opts.tables = s->fit_tables || s->init.tables;
    data_opts.families = s->families;
    data_opts.mpi = env;
    w->games.keep_visits = s->fit_priors;
    double t0 = omp_get_wtime();
    Game *read_game = NULL;
    bool ok = tune_read_share(o->data, o->num_data, o->data_opts.threads, env->rank, env->size, &w->games, &read_game,
                              err);
    game_free(read_game);   /* the same game as w->game: the headers were checked */
    if (!training_tune_agree(env, ok, err))
        return false;
    s->read_seconds = omp_get_wtime() - t0;
    s->game = w->game;
    s->games = &w->games;
    ok = tune_extract(w->game, &w->games, &data_opts, &w->train, &w->valid, &s->data, err);
    if (!training_tune_agree(env, ok, err) || !check_enough(env, s, err) || !fit_and_measure(o, env, w, err) ||
        !fit_priors(o, env, w, err))
        return false;
    return env->rank != 0 || training_tune_save(o, s, err);
}

void training_tune_free(TuneWork *w)
{
    weights_dispose(&w->summary.fit.weights);
    weights_dispose(&w->summary.init);
    free(w->summary.policy.weights);
    tune_set_free(&w->train);
    tune_set_free(&w->valid);
    tune_games_free(&w->games);
    game_free(w->game);
    memset(w, 0, sizeof *w);
}
