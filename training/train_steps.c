/*
 * train_steps.c - one generation of a training run (train_run.h): self-play of the best weights
 * so far, the fit of the whole model on the window's games, then the gate (train_gate.c).  A
 * step whose mark is in the folder is done and skipped; one that was under way resumes (the
 * self-play and the gate append their games crash-safely) or is run again (the fit, which is
 * deterministic).
 */
#include "train_run.h"
#include "train_output.h"
#include "tune_run.h"

#include "core/clock.h"
#include "data/weights.h"
#include "selfplay/selfplay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool load_weights(const TrainRun *run, const char *rel, Weights *w, Error *err)
{
    char path[TRAIN_PATH];
    training_path(run, path, "%s", rel);
    Error e;
    if (weights_load(run->game, path, w, &e))
        return true;
    *w = (Weights){0};      /* unspecified after a failed load: nothing to dispose */
    return error_failed(err, "%s", e.msg);
}

static bool best_has_priors(const TrainRun *run, const char *best_rel, bool *has, Error *err)
{
    Weights w;
    if (!load_weights(run, best_rel, &w, err))
        return false;
    *has = w.policy != NULL;
    weights_dispose(&w);
    return true;
}

/* --- self-play ---------------------------------------------------------------------------------- */

/* Self-play's progress handed on to the output with the generation it belongs to. */
typedef struct {
    const TrainOutput *out;
    int generation;
} SelfplayLine;

static void selfplay_progress(const SelfplayProgress *p, void *ctx)
{
    const SelfplayLine *line = ctx;
    line->out->selfplay_progress(line->generation, p, line->out->ctx);
}

/* The self-play run of generation k into `out`, each process its share; the counts in *done. */
static bool play_games(TrainRun *run, int k, const Weights *w, const char *out, SelfplayProgress *done, Error *err)
{
    const TrainOptions *o = run->o;
    SelfplayConfig cfg;
    selfplay_default_config(run->game, &cfg);
    cfg.visits = o->visits;
    cfg.seed = o->seed + (uint64_t)k;
    char command[128];
    snprintf(command, sizeof command, "leuctra train (generation %d, self-play of gen%d)", k, run->best);
    char *settings = selfplay_settings_text(run->game, &run->start, w, &cfg, command);
    if (!settings)
        return error_failed(err, "out of memory");
    SelfplayLine line = {run->out, k};
    SelfplayRun sr = {.game = run->game, .start = &run->start, .weights = w, .config = &cfg, .settings = settings,
                      .path = out, .games = (uint64_t)o->games, .threads = o->threads, .resume = true,
                      .progress = run->out->selfplay_progress ? selfplay_progress : NULL, .progress_ctx = &line};
    bool all_ok, ok = training_log(run, err, "gen %d: self-play of gen%d, %ld games at %ld visits", k, run->best,
                                   o->games, o->visits) &&
                      selfplay_mpi_run(run->env, &sr, done, &all_ok, err);
    if (run->out->progress_end && run->env->rank == 0)
        run->out->progress_end(run->out->ctx);
    free(settings);
    if (ok && !all_ok)
        return error_failed(err, "another process failed (its message is above): run again with --resume");
    return ok;
}

static bool step_selfplay(TrainRun *run, int k, Error *err)
{
    char mark[64];
    snprintf(mark, sizeof mark, "gen%d/selfplay.done", k);
    if (training_exists(run, mark))
        return true;
    char best_rel[64], out[TRAIN_PATH];
    training_weights_of(run, run->best, best_rel, sizeof best_rel);
    training_path(run, out, "gen%d/selfplay.lrec", k);
    Weights w;
    if (!load_weights(run, best_rel, &w, err))
        return false;
    SelfplayProgress done = {0};
    bool ok = play_games(run, k, &w, out, &done, err);
    weights_dispose(&w);
    if (!ok)
        return false;
    char took[32], text[256], shares[512];
    training_duration_text(done.seconds, took, sizeof took);
    /* process 0's counts are the whole run's, the others' their own (selfplay_mpi_run) */
    uint64_t *played = training_gather_counts(run, done.played);
    for (int r = 1; played && r < run->env->size; r++)
        played[0] -= played[r];
    training_shares_text(run->env, played, "games played", NULL, NULL, shares, sizeof shares);
    free(played);
    /* the mark holds nothing that depends on the machine: a resumed run writes the same bytes */
    snprintf(text, sizeof text, "%llu games\n", (unsigned long long)(done.present + done.played));
    return training_write_text(run, mark, text, err) &&
           training_log(run, err, "gen %d: self-play done: %llu games, %llu positions played now in %s%s", k,
                        (unsigned long long)(done.present + done.played), (unsigned long long)done.plies, took,
                        shares);
}

/* --- the fit ------------------------------------------------------------------------------------ */

/* The first generation whose self-play the fit of generation k reads: the last --window ones, and
 * further back, up to --window-max in all, every one that the best so far played (all those
 * since its promotion).  While no candidate beats the best its games pile up, and a fit on more
 * of them finds a better model: on Crossings 26 generations of one best's games made a
 * candidate +41 Elo over it, where the fits on 3 had stayed level with it for 26 generations
 * (docs/BENCHMARKS.md). */
static int window_first(const TrainRun *run, int k)
{
    const TrainOptions *o = run->o;
    int first = k - o->window + 1;
    const int widest = run->best + 1 > k - o->window_max + 1 ? run->best + 1 : k - o->window_max + 1;
    if (widest < first)
        first = widest;
    return first > 1 ? first : 1;
}

/* What generation k's fit fits besides the linear weights: tables and priors from start weights
 * without them; priors only where the searches made enough visits to fit them to. */
static bool choose_fit(const TrainRun *run, int k, const char *best_rel, TuneOptions *t, Error *err)
{
    const TrainOptions *o = run->o;
    if (o->linear_only)
        return true;
    if (o->net) {   /* from the best's network where it has one (tune_run_net.c) */
        t->model = TUNE_MODEL_NET;
        t->net = training_tune_net_defaults();
        t->net.hidden = o->hidden;
        t->net.inputs = o->inputs;
        t->net.fit.value_head = o->value_head;
        return true;
    }
    t->tables = true;
    t->priors = o->visits >= t->policy_opts.min_visits;
    t->shapes = o->shapes;
    if (o->l2_tables)
        t->fit_opts.l2_tables = o->l2_tables;
    /* after --priors-generations the best's priors are kept: refitted to the visits of searches
     * they steer, they came to agree with themselves and the searches explored less
     * (docs/TRAINING.md); a best without any still has them fitted */
    bool has = false;
    if (o->priors_generations && k > o->priors_generations && !best_has_priors(run, best_rel, &has, err))
        return false;
    if (has) {
        t->priors = false;
        t->no_priors = true;
    }
    return true;
}

/* DIR/genK/tune.json, the fit's report (rank 0), and the log's line with how the processes
 * shared the games and the positions (`shares`). */
static bool report_fit(TrainRun *run, int k, const char *mark, const TuneSummary *s, double seconds,
                       const char *shares, Error *err)
{
    if (run->env->rank != 0)
        return true;
    char path[TRAIN_PATH];
    training_path(run, path, "%s", mark);
    OutputFile report;
    FILE *f = training_output_open(&report, path, err);
    if (!f)
        return false;
    training_tune_json(s, f);
    if (!training_output_commit(&report, err))
        return false;
    char before[32], after[32], took[32];
    training_duration_text(seconds, took, sizeof took);
    return training_log(run, err, "gen %d: fit done: validation log-loss %s before, %s after in %s%s", k,
                        tune_loss_text(s->valid_before.target, before), tune_loss_text(s->valid_after.target, after),
                        took, shares);
}

/* The fit of generation k as tune runs it, and its report.  An error of the fit's own (not
 * another process's, and not a records file's, which names its file) says whose fit it was. */
static bool fit(TrainRun *run, int k, const char *mark, const TuneOptions *t, Error *err)
{
    TuneWork work;
    *err = (Error){0};
    const double t0 = clock_seconds();
    bool ok = training_tune_run(t, run->env, &work, err);
    if (!ok && !err->elsewhere && err->kind == 0) {
        Error e = *err;
        (e.failure ? error_failed : error_set)(err, "gen %d's fit: %s", k, e.msg);
    }
    char shares[1024] = "";
    if (ok) {
        /* the network's positions are gathered whole on every process (tune_run_net.c): only its
         * games are shared out */
        const bool net = t->model == TUNE_MODEL_NET;
        uint64_t *games = training_gather_counts(run, work.games.count);
        uint64_t *rows = net ? NULL : training_gather_counts(run, (uint64_t)(work.train.count + work.valid.count));
        training_shares_text(run->env, games, "games read", rows, net ? NULL : "positions summed", shares,
                             sizeof shares);
        free(games);
        free(rows);
    }
    ok = ok && report_fit(run, k, mark, &work.summary, clock_seconds() - t0, shares, err);
    training_tune_free(&work);
    return ok;
}

static bool step_tune(TrainRun *run, int k, Error *err)
{
    char mark[64];
    snprintf(mark, sizeof mark, "gen%d/tune.json", k);
    if (training_exists(run, mark))
        return true;
    const TrainOptions *o = run->o;
    const int first = window_first(run, k), count = k - first + 1;
    char best_rel[64], out_rel[64], init[TRAIN_PATH], out[TRAIN_PATH], note[TRAIN_PATH + 1024];
    training_weights_of(run, run->best, best_rel, sizeof best_rel);
    const bool text_out = o->linear_only && strstr(best_rel, ".txt");
    snprintf(out_rel, sizeof out_rel, "gen%d/weights.%s", k, text_out ? "txt" : "lwt");
    training_path(run, init, "%s", best_rel);
    training_path(run, out, "%s", out_rel);
    char (*paths)[TRAIN_PATH] = malloc((size_t)count * sizeof *paths);
    const char **data = malloc((size_t)count * sizeof *data);
    bool ok = paths && data;
    for (int j = first; ok && j <= k; j++) {
        training_path(run, paths[j - first], "gen%d/selfplay.lrec", j);
        data[j - first] = paths[j - first];
    }
    /* the provenance's command is the options' (training_tune_command), paths relative to DIR:
     * the same words in every run of the folder */
    TuneOptions t = {.data = data, .num_data = count, .out = out, .init = init,
                     .data_opts = tune_data_defaults(), .fit_opts = tune_fit_defaults(),
                     .policy_opts = tune_policy_defaults(), .folder = o->dir,
                     .linear_only = o->linear_only, .date = ""};
    t.data_opts.threads = t.fit_opts.threads = o->threads;
    t.data_opts.lambda = o->lambda;
    char command[TRAIN_PATH + 512];
    training_command_text(run, command, sizeof command);
    snprintf(note, sizeof note, "generation %d of leuctra train, on the self-play of generations %d-%d\nrun: %s", k,
             first, k, command);
    t.note = note;
    ok = (ok || error_failed(err, "out of memory")) && choose_fit(run, k, best_rel, &t, err) &&
         training_log(run, err, "gen %d: fit of the %s model to the self-play of generations %d-%d", k,
                      o->net ? "network" : o->linear_only ? "linear" : "whole", first, k) &&
         fit(run, k, mark, &t, err);
    free(data);
    free(paths);
    if (ok)
        mpi_env_all(run->env, true);
    return ok;
}

/* --- a generation ------------------------------------------------------------------------------ */

bool training_generation(TrainRun *run, int k, Error *err)
{
    char folder[TRAIN_PATH];
    training_path(run, folder, "gen%d", k);
    if (run->env->rank == 0 && mkdir(folder, 0777) != 0 && errno != EEXIST)
        return error_failed(err, "cannot make %s: %s", folder, strerror(errno));
    mpi_env_all(run->env, true);
    return step_selfplay(run, k, err) && training_save_elapsed(run, err) && step_tune(run, k, err) &&
           training_save_elapsed(run, err) && training_gate(run, k, err);
}
