/*
 * train_run.c - the training run as one job (train.h): the options checked, the folder made or
 * checked (a resumed run must have the settings it was started with), the opening suite, the
 * state an earlier run left, and the generations until the budget is spent.
 */
#include "train_run.h"
#include "train_output.h"
#include "tune_run.h"

#include "core/clock.h"
#include "core/threads.h"
#include "data/openings.h"
#include "data/weights.h"
#include "search/search_setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void training_defaults(TrainOptions *o)
{
    *o = (TrainOptions){.start = "shipped", .games = 2000, .visits = 400, .window = 3, .lambda = 0.5,
                        .gate_games = 400, .gate_visits = 400, .sprt = {0, 10, 0.05, 0.05, ELO_NORMALIZED},
                        .ladder_games = 100, .ladder_visits = 400, .make_openings = 1000, .seed = 1,
                        .threads = threads_default()};
}

bool training_check_options(TrainOptions *o, Error *err)
{
    if (!o->dir || !*o->dir)
        return error_set(err, "no folder for the run");
    if (o->net && (o->linear_only || o->shapes || o->l2_tables || o->priors_generations))
        return error_set(err, "--model net fits a network and keeps the start's weights, tables and priors: it "
                         "takes no %s", o->linear_only ? "--linear-only" : o->shapes ? "--shapes" : o->l2_tables ?
                         "--l2-tables" : "--priors-generations");
    if (!o->net && (o->hidden || o->inputs || o->value_head != TUNE_VALUE_HEAD_AUTO))
        return error_set(err, "%s is an option of --model net", o->hidden ? "--hidden" : o->inputs ? "--inputs"
                         : "--value-head");
    if (o->linear_only && (o->shapes || o->l2_tables || o->priors_generations))
        return error_set(err, "--linear-only fits no tables or priors: it takes no %s",
                         o->shapes ? "--shapes" : o->l2_tables ? "--l2-tables" : "--priors-generations");
    if (o->window_max && o->window_max < o->window)
        return error_set(err, "--window-max %d is less than --window %d", o->window_max, o->window);
    if (!o->window_max)
        o->window_max = o->window > TRAIN_WINDOW_MAX ? o->window : TRAIN_WINDOW_MAX;
    if (!o->generations && !o->hours)
        return error_set(err, "no budget: give --generations N or --hours H (or both)");
    if (strlen(o->dir) > TRAIN_PATH - 64)
        return error_set(err, "DIR is longer than %d bytes", TRAIN_PATH - 64);
    const char *sprt_problem = sprt_invalid(&o->sprt);
    if (sprt_problem)
        return error_set(err, "--sprt: %s", sprt_problem);
    return true;
}

/* --- the folder -------------------------------------------------------------------------------- */

/* The start weights: all-zero linear weights (an engine that knows nothing), the shipped ones,
 * or a file's. */
static bool load_start(const TrainRun *run, Weights *w, Error *err)
{
    const char *start = run->o->start;
    if (strcmp(start, "zero") == 0) {
        weights_zero(run->game, w);
        return true;
    }
    Error e;
    if (search_load_evaluation(run->game, start, w, &e))
        return true;
    *w = (Weights){0};      /* unspecified after a failed load: nothing to dispose */
    return error_set(err, "--start %s: %s", start,
                     strcmp(start, "shipped") == 0 ? "no shipped weights for this board" : e.msg);
}

/* With --model net every generation's fit goes on from the start's network, if it has one: a
 * width or input set that differs is refused here, before any self-play, not at gen 1's fit. */
static bool check_start_network(const TrainRun *run, const Weights *w, Error *err)
{
    const TrainOptions *o = run->o;
    return !o->net || !w->net || training_tune_net_continues(o->hidden, o->inputs, w->net, err);
}

/* DIR/gen0: the start weights, saved with a note of where they came from (unless they are there:
 * the settings are written first, and a run stopped before this step does it on resume). */
static bool write_gen0(TrainRun *run, const Weights *w, Error *err)
{
    if (training_exists(run, "gen0/weights.txt") || training_exists(run, "gen0/weights.lwt"))
        return true;
    char rel[64], path[TRAIN_PATH], comments[512];
    snprintf(rel, sizeof rel, "gen0/weights.%s", w->tables || w->policy ? "lwt" : "txt");
    training_path(run, path, "%s", rel);
    snprintf(comments, sizeof comments, "generation 0 of leuctra train: the start (--start %.400s)\n", run->o->start);
    Error e;
    if (run->env->rank == 0 && !weights_save(run->game, w, comments, path, &e))
        return error_failed(err, "%s", e.msg);
    mpi_env_all(run->env, true);
    return true;
}

static bool make_folder(const char *path, Error *err)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return error_failed(err, "cannot make %s: %s", path, strerror(errno));
    return true;
}

/* gen0/ and ladder/ in DIR (rank 0; the others wait). */
static bool make_subfolders(const TrainRun *run, Error *err)
{
    if (run->env->rank == 0) {
        char sub[TRAIN_PATH];
        training_path(run, sub, "gen0");
        if (!make_folder(sub, err))
            return false;
        training_path(run, sub, "ladder");
        if (!make_folder(sub, err))
            return false;
    }
    mpi_env_all(run->env, true);
    return true;
}

/* The settings a new run writes, or a resumed one must find; then the log's note of the stale
 * temporary files removed. */
static bool settle_settings(TrainRun *run, const Weights *w, bool started, int stale, Error *err)
{
    char id[17], text[4096];
    weights_id_text(w, id);
    training_settings_text(run, id, text, sizeof text);
    if (started ? !training_check_settings(run, text, err) : !training_write_text(run, "settings", text, err))
        return false;
    return stale <= 0 ||
           training_log(run, err, "removed %d temporary file%s that a stopped run left", stale, stale == 1 ? "" : "s");
}

/* A new run makes its folder and settings first (the settings make it a run); a resumed one
 * must find the settings it would write.  Then gen0, unless it is there. */
static bool open_folder(TrainRun *run, Weights *w, Error *err)
{
    training_path(run, run->settings_path, "settings");
    bool started;
    /* a bad start stops before the folder is touched, and so does a folder a new run may not
     * begin in */
    if (!load_start(run, w, err) || !check_start_network(run, w, err) || !training_folder_started(run, &started, err))
        return false;
    if (run->env->rank == 0 && !make_folder(run->o->dir, err))
        return false;
    mpi_env_all(run->env, true);
    if (!training_lock(run, err))
        return false;
    mpi_env_all(run->env, true);
    /* again under the lock: no run began meanwhile */
    if (!training_folder_started(run, &started, err))
        return false;
    const int stale = training_remove_stale_temps(run);
    return settle_settings(run, w, started, stale, err) && make_subfolders(run, err) && write_gen0(run, w, err);
}

/* The given suite copied into the folder, checked first (rank 0). */
static bool copy_openings(TrainRun *run, Error *err)
{
    const TrainOptions *o = run->o;
    OpeningSuite suite;
    openings_init(&suite);
    Error e;
    if (!openings_load(&suite, run->game, &run->start, o->openings, &e))
        return error_set(err, "--openings %s", e.msg);
    openings_free(&suite);
    FILE *in = fopen(o->openings, "rb");
    if (!in)
        return error_set(err, "--openings %s: %s", o->openings, strerror(errno));
    OutputFile out;
    FILE *to = training_output_open(&out, run->openings_path, err);
    char buf[65536];
    size_t n;
    while (to && (n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, to);
    fclose(in);
    return to && training_output_commit(&out, err);
}

/* The suite the gates and the ladder play: the given one copied into the folder, or one made
 * for the run (balanced openings, as match --make-openings makes them). */
static bool prepare_openings(TrainRun *run, Error *err)
{
    training_path(run, run->openings_path, "openings.txt");
    if (training_exists(run, "openings.txt"))
        return true;
    const TrainOptions *o = run->o;
    if (o->openings) {
        if (run->env->rank == 0 && !copy_openings(run, err))
            return false;
        mpi_env_all(run->env, true);
        return true;
    }
    if (!training_log(run, err, "making %d balanced openings for the gates and the ladder", o->make_openings))
        return false;
    /* every process evaluates its share of the candidates, process 0 writes the suite */
    MatchOptions mo = {.make_openings = o->make_openings, .out_path = run->openings_path, .opening_plies = 4,
                       .make_visits = 200, .make_low = 0.4, .make_high = 0.6, .seed = o->seed,
                       .concurrency = o->threads, .mpi = run->env};
    if (run->game->variant == VARIANT_REVERSI)
        mo.opening_plies = 8;   /* only 172 balanced positions exist after 4 plies */
    return match_make_openings(run->game, &run->start, &mo, err);
}

/* The generations finished in an earlier run: their verdicts give the best so far. */
static bool read_state(TrainRun *run, Error *err)
{
    run->best = 0;
    run->done = 0;
    const char *verdict;
    while (run->done < TRAIN_MAX_GENERATIONS) {
        if (!training_verdict(run, run->done + 1, &verdict, err))
            return false;
        if (!verdict)
            break;
        run->done++;
        if (strcmp(verdict, "promoted") == 0)
            run->best = run->done;
    }
    char path[TRAIN_PATH];
    training_path(run, path, "elapsed");
    FILE *in = fopen(path, "r");
    if (in) {
        if (fscanf(in, "%lf", &run->elapsed_before) != 1 || !(run->elapsed_before >= 0))
            run->elapsed_before = 0;
        fclose(in);
    }
    return true;
}

/* --- the generations ------------------------------------------------------------------------------ */

/* Whether the budget lets generation k begin: process 0's answer on every process (each has its
 * own clock, and all must begin the same generations). */
static bool budget_allows(const TrainRun *run, int k)
{
    const TrainOptions *o = run->o;
    if (o->generations && k > o->generations)
        return false;
    const bool mine = !o->hours || training_elapsed(run) < o->hours * 3600;
    return mpi_env_all(run->env, run->env->rank == 0 ? mine : true);
}

/* Generation k and its ladder, the elapsed time saved after each step. */
static bool one_generation(TrainRun *run, int k, Error *err)
{
    const char *verdict;
    if (!training_generation(run, k, err) || !training_verdict(run, k, &verdict, err))
        return false;
    run->done = k;
    if (strcmp(verdict, "promoted") == 0)
        run->best = k;
    return training_save_elapsed(run, err) && training_ladder_step(run, err) && training_save_elapsed(run, err);
}

static bool run_generations(TrainRun *run, Error *err)
{
    if (run->done > 0) {
        if (!training_log(run, err, "resumed: %d generation%s with a verdict, best gen%d, %.0f s so far", run->done,
                          run->done == 1 ? "" : "s", run->best, run->elapsed_before))
            return false;
        /* a run stopped after the last verdict, in the ladder: finish it whatever the budget */
        if (!training_ladder_step(run, err) || !training_save_elapsed(run, err))
            return false;
    }
    for (int k = run->done + 1; budget_allows(run, k); k++)
        if (!one_generation(run, k, err))
            return false;
    if (run->done == 0 && !training_ladder(run, err))   /* the table's head and nothing more: no generation yet */
        return false;
    return training_log(run, err, "end of the budget: %d generation%s, best gen%d, %.0f s in all", run->done,
                        run->done == 1 ? "" : "s", run->best, training_elapsed(run));
}

bool training_run(const TrainOptions *options, const Game *g, const Position *start, const MpiEnv *env,
                  const TrainOutput *out, Error *err)
{
    static const TrainOutput silent = {0};
    TrainOptions o = *options;
    if (!training_check_options(&o, err))
        return false;
    TrainRun run = {.o = &o, .env = env, .out = out ? out : &silent, .game = g, .start = *start,
                    .started = clock_seconds(), .lock_fd = -1};
    Weights shipped;
    run.has_shipped = weights_default(g, &shipped);
    if (run.has_shipped)
        weights_dispose(&shipped);
    Weights w = {0};
    bool ok = open_folder(&run, &w, err);
    weights_dispose(&w);
    ok = ok && prepare_openings(&run, err) && read_state(&run, err) && run_generations(&run, err);
    training_unlock(&run);
    return ok;
}
