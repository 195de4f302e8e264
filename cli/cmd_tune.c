/*
 * cmd_tune.c - `leuctra tune`: fits the evaluation weights to self-play records (tuner/tune.h)
 * and writes them, with their provenance, as a weights file.  Reads the options, runs the steps
 * in order (read, extract, fit, statistics, save) and hands the summary to the report
 * (cmd_tune_report.c) and the provenance (cmd_tune_provenance.c).  Bad input exits 2 with one
 * line; failures (damaged data, I/O) exit 1.
 */
#include "data/mpi_env.h"
#include "data/weights.h"
#include "records_cli.h"
#include "tune_cli.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *const NAME = "tune";

/* Fewer training positions than this many per feature cannot say much about any weight (the
 * usual ten-events-per-variable rule of logistic regression). */
enum { MIN_POSITIONS_PER_FEATURE = 10 };

/* --- options ----------------------------------------------------------------------------------- */

/* --data takes one path, or several up to the next option. */
static void read_data_paths(ArgReader *r, const char *first, TuneOptions *o)
{
    o->data[o->num_data++] = first;
    while (r->index < r->argc && r->argv[r->index][0] != '-')
        o->data[o->num_data++] = r->argv[r->index++];
}

/* One option into *o; false when argv[r->index] is none of tune's. */
static bool read_option(ArgReader *r, TuneOptions *o)
{
    const char *text;
    if (arg_value(r, "--data", &text))
        read_data_paths(r, text, o);
    else if (arg_value(r, "--out", &o->out) || arg_value(r, "--init", &o->init))
        return true;
    else if (arg_value(r, "--skip-opening", &text))
        o->data_opts.skip_opening = (int)arg_integer(NAME, "--skip-opening", text, 0, 100000);
    else if (arg_value(r, "--validation", &text))
        o->data_opts.validation = arg_real(NAME, "--validation", text, 0, 0.9);
    else if (arg_value(r, "--lambda", &text))
        o->data_opts.lambda = arg_real(NAME, "--lambda", text, 0, 1);
    else if (arg_value(r, "--l2", &text))
        o->fit_opts.l2 = arg_real(NAME, "--l2", text, 0, 1e12);
    else if (arg_value(r, "--max-iterations", &text))
        o->fit_opts.max_iterations = (int)arg_integer(NAME, "--max-iterations", text, 0, 100000);
    else if (arg_value(r, "--threads", &text))
        o->data_opts.threads = o->fit_opts.threads = (int)arg_integer(NAME, "--threads", text, 1, 1024);
    else if (arg_flag(r, "--json"))
        o->json = true;
    else
        return false;
    return true;
}

static void read_options(int argc, char **argv, TuneOptions *o)
{
    memset(o, 0, sizeof *o);
    o->data = malloc((size_t)argc * sizeof *o->data);
    if (!o->data)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    o->data_opts = tune_data_defaults();
    o->fit_opts = tune_fit_defaults();
    o->argc = argc;
    o->argv = argv;
    ArgReader r = {argc, argv, 1, NAME};
    while (r.index < argc)
        if (!read_option(&r, o))
            arg_common(&r, &command_tune);
    if (o->num_data == 0)
        fail_exit(NAME, EXIT_USAGE, "no data files (--data FILE...; see leuctra tune --help)");
    if (!o->out)
        fail_exit(NAME, EXIT_USAGE, "--out WEIGHTS is required (see leuctra tune --help)");
}

/* Fails now, not after the fit, when --out's directory cannot take the file or --out names one
 * of the data files (which the weights would replace). */
static void check_out(const TuneOptions *o)
{
    struct stat out, data;
    for (int i = 0; i < o->num_data; i++)
        if (stat(o->out, &out) == 0 && stat(o->data[i], &data) == 0 && out.st_dev == data.st_dev &&
            out.st_ino == data.st_ino)
            fail_exit(NAME, EXIT_USAGE, "--out %s is one of the data files", o->out);
    cli_output_check(NAME, "--out", o->out);
}

/* --- the steps --------------------------------------------------------------------------------- */

_Noreturn static void fail_tune(const TuneError *e)
{
    if (e->from_records)
        records_fail(NAME, &e->records);
    fail_exit(NAME, e->bad_input ? EXIT_USAGE : EXIT_FAILURE_RUN, "%s", e->msg);
}

/* A failure that every process meets alike (the same options, the same sums): rank 0 says it,
 * the others end with the same status (MPI is finalized at exit on all). */
_Noreturn static void fail_all(const MpiEnv *env, const TuneError *e)
{
    if (env->rank != 0)
        exit(e->bad_input ? EXIT_USAGE : EXIT_FAILURE_RUN);
    fail_tune(e);
}

/* After a step where each process works on its own share (reading, positions): when any failed,
 * the first in rank order, whose data come first, says why (what one process reading all the
 * data would have said) and every process ends with its status.  Collective. */
static void step_done(const MpiEnv *env, bool ok, const TuneError *e)
{
    if (env->size <= 1) {
        if (!ok)
            fail_tune(e);
        return;
    }
    uint64_t *status = malloc((size_t)env->size * sizeof *status);
    if (!status)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    mpi_env_gather_u64(env, ok || e->elsewhere ? 0 : e->bad_input ? EXIT_USAGE : EXIT_FAILURE_RUN, status);
    int first = 0;
    while (first < env->size && status[first] == 0)
        first++;
    int code = first < env->size ? (int)status[first] : 0;
    free(status);
    if (first == env->size)
        return;
    if (env->rank == first)
        fail_tune(e);
    exit(code);
}

static void load_init(const MpiEnv *env, const Game *g, const char *path, Weights *w)
{
    Error err;
    TuneError e = {.bad_input = true};
    if (path && !weights_load(g, path, w, &err))
        snprintf(e.msg, sizeof e.msg, "--init: %s", err.msg);
    else if (!path && !weights_default(g, w))
        snprintf(e.msg, sizeof e.msg, "no shipped weights for %s: give --init", g->name);
    else
        return;
    fail_all(env, &e);
}

static void check_enough(const MpiEnv *env, const TuneSummary *s)
{
    uint64_t need = (uint64_t)MIN_POSITIONS_PER_FEATURE * (uint64_t)s->init.count;
    if (s->data.positions_train < need && env->rank != 0)
        exit(EXIT_USAGE);
    if (s->data.positions_train < need)
        fail_exit(NAME, EXIT_USAGE,
                  "too few positions: %llu for training (of %llu read), at least %llu needed for %d features",
                  (unsigned long long)s->data.positions_train, (unsigned long long)s->data.positions_read,
                  (unsigned long long)need, s->init.count);
}

static void fit_and_measure(const MpiEnv *env, TuneSummary *s, const TuneSet *train, const TuneSet *valid)
{
    const TuneOptions *o = s->opts;
    TuneError err = {0};
    s->train_before = tune_loss(train, &s->init, s->threads);
    s->valid_before = tune_loss(valid, &s->init, s->threads);
    s->train_baseline = tune_baseline_loss(train, train);
    s->valid_baseline = tune_baseline_loss(train, valid);
    if (!tune_fit(train, &s->init, &o->fit_opts, &s->fit, &err))
        fail_all(env, &err);
    s->train_after = tune_loss(train, &s->fit.weights, s->threads);
    s->valid_after = tune_loss(valid, &s->fit.weights, s->threads);
    if (!tune_weight_stats(train, &s->fit.weights, s->threads, s->stat, &err))
        fail_all(env, &err);
}

static void save(TuneSummary *s)
{
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(s->date, sizeof s->date, "%Y-%m-%d %H:%M:%S UTC", &utc);
    char *comments = tune_provenance(s);
    Error err;
    if (!comments)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    if (!weights_save(s->game, &s->fit.weights, comments, s->opts->out, &err))
        fail_exit(NAME, EXIT_FAILURE_RUN, "%s", err.msg);
    free(comments);
}

static int run_tune(int argc, char **argv)
{
    TuneOptions o;
    read_options(argc, argv, &o);
    check_out(&o);
    /* GSL's default error handler aborts the program; the tuner checks every return code instead.
     * It is GSL's one process-wide setting, made here before any thread starts. */
    gsl_set_error_handler_off();
    MpiEnv env = mpi_env_start();
    o.data_opts.mpi = &env;
    TuneSummary s = {.opts = &o, .threads = o.data_opts.threads ? o.data_opts.threads : omp_get_max_threads(),
                     .ranks = env.size};
    TuneGames games;
    tune_games_init(&games);
    Game *g = NULL;
    TuneError err = {0};
    double t0 = omp_get_wtime();
    bool ok = tune_read_share(o.data, o.num_data, o.data_opts.threads, env.rank, env.size, &games, &g, &err);
    step_done(&env, ok, &err);
    s.read_seconds = omp_get_wtime() - t0;
    s.game = g;
    s.games = &games;
    load_init(&env, g, o.init, &s.init);
    TuneSet train, valid;
    step_done(&env, tune_extract(g, &games, &o.data_opts, &train, &valid, &s.data, &err), &err);
    check_enough(&env, &s);
    fit_and_measure(&env, &s, &train, &valid);
    if (env.rank == 0) {
        save(&s);
        if (o.json)
            tune_print_json(&s, stdout);
        else
            tune_print_text(&s, stdout);
    }
    mpi_env_stop(&env);
    tune_set_free(&train);
    tune_set_free(&valid);
    tune_games_free(&games);
    game_free(g);
    free(o.data);
    return 0;
}

const Command command_tune = {
    "tune", run_tune, "fit the evaluation weights to self-play records",
    "usage: leuctra tune --data FILE... --out WEIGHTS [--init WEIGHTS] [--skip-opening N]\n"
    "                    [--validation F] [--l2 X] [--lambda X] [--threads N]\n"
    "                    [--max-iterations N] [--json]\n\n"
    "Fits the weights of the evaluation, P(side to move wins) = sigmoid(w . features), to the\n"
    "positions of self-play records (docs/TUNING.md).  Every game is replayed with the rules;\n"
    "each position's target is lambda x the game's result for the side to move (1 win, 0.5\n"
    "draw, 0 loss) + (1 - lambda) x the search's root value (the result alone where a ply has\n"
    "none).  A position met again (same hash) counts only where it first appears.  Whole games\n"
    "are held out for validation.  The fit maximises the likelihood (cross-entropy) with an L2\n"
    "penalty by Newton's method; the report gives log-losses before and after, each weight with\n"
    "its standard error, and the weights the data cannot identify.  The same data and options\n"
    "give the same weights, bit for bit, whatever --threads is.\n\n"
    "  --data FILE...        records files, all of one game and board (docs/FORMAT.md)\n"
    "  --out WEIGHTS         the weights file to write (atomically, with provenance comments)\n"
    "  --init WEIGHTS        the starting weights (default: the shipped ones)\n"
    "  --skip-opening N      leave out the first N plies of every game (default 0)\n"
    "  --validation F        the fraction of games held out, chosen by a hash of each game's\n"
    "                        index and seed (default 0.1)\n"
    "  --l2 X                penalty X/2 x sum of w^2 added to the summed log-loss: a Gaussian\n"
    "                        prior of variance 1/X on each weight (default 1)\n"
    "  --lambda X            the result's share of the target, 0 to 1 (default 1)\n"
    "  --threads N           threads (default: every core)\n"
    "  --max-iterations N    Newton steps at most (default 50)\n"
    "  --json                the report as one JSON object\n\n"
    "Under mpirun (a build made with `make MPI=1`; docs/CLUSTER.md) each process reads and\n"
    "replays its own contiguous part of the games, repeats are found across all of them, and\n"
    "the sums of every step are combined in the one-process order: the weights and the report\n"
    "are those of one process, bit for bit; process 0 writes them.\n\n"
    "example: leuctra tune --data run1.lrec run2.lrec --out tuned.txt --skip-opening 4\n"
    "         mpirun -np 4 build-mpi/leuctra tune --data big.lrec --out tuned.txt --threads 8\n",
};
