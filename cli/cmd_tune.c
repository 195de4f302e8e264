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
    else if (arg_flag(r, "--tables"))
        o->data_opts.tables = true;
    else if (arg_value(r, "--l2-tables", &text))
        o->fit_opts.l2_tables = arg_real(NAME, "--l2-tables", text, 0, 1e12);
    else if (arg_value(r, "--learning-rate", &text))
        o->fit_opts.learning_rate = arg_real(NAME, "--learning-rate", text, 1e-9, 10);
    else if (arg_value(r, "--batch", &text))
        o->fit_opts.batch = (size_t)arg_integer(NAME, "--batch", text, 1, 1 << 26);
    else if (arg_value(r, "--epochs", &text))
        o->fit_opts.max_epochs = (int)arg_integer(NAME, "--epochs", text, 0, TUNE_MAX_EPOCHS);
    else if (arg_value(r, "--patience", &text))
        o->fit_opts.patience = (int)arg_integer(NAME, "--patience", text, 0, 100);
    else if (arg_flag(r, "--priors"))
        o->priors = true;
    else if (arg_value(r, "--l2-priors", &text))
        o->policy_opts.l2 = arg_real(NAME, "--l2-priors", text, 0, 1e12);
    else if (arg_value(r, "--priors-min-visits", &text))
        o->policy_opts.min_visits = (int)arg_integer(NAME, "--priors-min-visits", text, 1, 1 << 30);
    else if (arg_value(r, "--priors-prune", &text))
        o->policy_opts.prune = arg_real(NAME, "--priors-prune", text, 0, 1);
    else if (arg_value(r, "--priors-positions", &text))
        o->policy_opts.max_positions = (size_t)arg_integer(NAME, "--priors-positions", text, 1, 1L << 40);
    else if (arg_value(r, "--threads", &text))
        o->data_opts.threads = o->fit_opts.threads = (int)arg_integer(NAME, "--threads", text, 1, THREADS_MAX);
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
    o->policy_opts = tune_policy_defaults();
    o->argc = argc;
    o->argv = argv;
    ArgReader r = {argc, argv, 1, NAME, false};
    while (r.index < argc) {
        if (r.operands_only)    /* after "--": data files (their names may start with '-') */
            o->data[o->num_data++] = argv[r.index++];
        else if (!read_option(&r, o))
            arg_common(&r, &command_tune);
    }
    if (o->num_data == 0)
        fail_exit(NAME, EXIT_USAGE, "no data files (--data FILE...; see leuctra tune --help)");
    if (!o->out)
        fail_exit(NAME, EXIT_USAGE, "--out WEIGHTS is required (see leuctra tune --help)");
}

/* Fails now, not after the fit, when --out's directory cannot take the file or --out names a
 * data file or the --init weights (which the new weights would replace). */
static void check_out(const TuneOptions *o)
{
    cli_output_check(NAME, "--out", o->out);
    FileRole *files = malloc((size_t)(o->num_data + 2) * sizeof *files);
    if (!files)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    int n = 0;
    files[n++] = (FileRole){"--out", o->out, true, false};
    if (o->init)
        files[n++] = (FileRole){"--init", o->init, false, false};
    for (int i = 0; i < o->num_data; i++)
        files[n++] = (FileRole){"--data", o->data[i], false, false};
    cli_files_distinct(NAME, files, n);
    free(files);
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

/* A table file under a .txt name would look like text weights and read as binary: refuse it
 * before the fit, which may take minutes, rather than surprise the user after it. */
static void check_out_kind(const MpiEnv *env, const Game *g, const TuneOptions *o, const Weights *init)
{
    size_t n = strlen(o->out);
    if (n < 4 || strcmp(o->out + n - 4, ".txt") != 0)
        return;
    TuneError e = {.bad_input = true};
    const char *holds = "which only a table file holds: name it .lwt";
    if (o->data_opts.tables || o->priors)
        snprintf(e.msg, sizeof e.msg, "--out %s: %s fits %s, %s", o->out, o->data_opts.tables ? "--tables" : "--priors",
                 o->data_opts.tables ? "pattern tables" : "learned priors", holds);
    else if (init->tables || init->policy)
        snprintf(e.msg, sizeof e.msg, "--out %s: the start weights (%s) have pattern tables or learned priors, %s, "
                 "or start from text weights (--init data/weights/%s.txt)", o->out, o->init ? o->init : "the shipped ones",
                 holds, g->name);
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

/* Both sets' fixed table part of the log-odds under w (no tables: none). */
static void set_offsets(const MpiEnv *env, TuneSummary *s, TuneSet *train, TuneSet *valid, const Weights *w)
{
    TuneError err = {.msg = "out of memory for the tables' part of the positions' values"};
    if (!tune_set_offsets(train, s->game, w, s->threads) || !tune_set_offsets(valid, s->game, w, s->threads))
        fail_all(env, &err);
}

/* The fit: the tables and the linear weights together (--tables), or the linear weights by
 * Newton with any tables of the start weights held fixed. */
static void fit_and_measure(const MpiEnv *env, TuneSummary *s, TuneSet *train, TuneSet *valid)
{
    const TuneOptions *o = s->opts;
    TuneError err = {0};
    if (!o->data_opts.tables && s->init.tables)
        s->init_tables_fixed = true;
    set_offsets(env, s, train, valid, o->data_opts.tables || s->init_tables_fixed ? &s->init : &(Weights){0});
    s->train_before = tune_loss(train, &s->init, s->threads);
    s->valid_before = tune_loss(valid, &s->init, s->threads);
    s->train_baseline = tune_baseline_loss(train, train);
    s->valid_baseline = tune_baseline_loss(train, valid);
    bool ok = o->data_opts.tables ? tune_fit_tables(s->game, train, valid, &s->init, &o->fit_opts, &s->fit, &err)
                                  : tune_fit(train, &s->init, &o->fit_opts, &s->fit, &err);
    if (!ok)
        fail_all(env, &err);
    if (o->data_opts.tables)
        set_offsets(env, s, train, valid, &s->fit.weights);
    s->train_after = tune_loss(train, &s->fit.weights, s->threads);
    s->valid_after = tune_loss(valid, &s->fit.weights, s->threads);
    if (!tune_weight_stats(train, &s->fit.weights, s->threads, s->stat, &err))
        fail_all(env, &err);
}

/* --priors: the move priors fitted to the games' visit lists, into the weights to save. */
static void fit_priors(const MpiEnv *env, TuneSummary *s)
{
    const TuneOptions *o = s->opts;
    if (!o->priors)
        return;
    TunePolicyOptions po = o->policy_opts;
    po.skip_opening = o->data_opts.skip_opening;
    po.validation = o->data_opts.validation;
    po.threads = o->data_opts.threads;
    TuneError err = {0};
    if (!tune_fit_policy(s->game, s->games, &s->init, &po, &s->policy, &err))
        fail_all(env, &err);
    Weights *w = &s->fit.weights;
    free(w->policy);
    w->policy = s->policy.weights;
    w->num_policy = s->policy.size;
    w->policy_id = s->policy.id;
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
    TuneSummary s = {.opts = &o, .threads = threads_or_default(o.data_opts.threads),
                     .ranks = env.size};
    if (o.priors && env.size > 1)
        fail_exit(NAME, EXIT_USAGE, "--priors runs in one process, not under mpirun");
    TuneGames games;
    tune_games_init(&games);
    games.keep_visits = o.priors;
    Game *g = NULL;
    TuneError err = {0};
    double t0 = omp_get_wtime();
    bool ok = tune_read_share(o.data, o.num_data, o.data_opts.threads, env.rank, env.size, &games, &g, &err);
    step_done(&env, ok, &err);
    s.read_seconds = omp_get_wtime() - t0;
    s.game = g;
    s.games = &games;
    load_init(&env, g, o.init, &s.init);
    check_out_kind(&env, g, &o, &s.init);
    TuneSet train, valid;
    step_done(&env, tune_extract(g, &games, &o.data_opts, &train, &valid, &s.data, &err), &err);
    check_enough(&env, &s);
    fit_and_measure(&env, &s, &train, &valid);
    fit_priors(&env, &s);
    if (env.rank == 0) {
        save(&s);
        /* --out - puts the weights on stdout, and the report beside them on stderr */
        FILE *report = cli_output_is_stdout(o.out) ? stderr : stdout;
        if (o.json)
            tune_print_json(&s, report);
        else
            tune_print_text(&s, report);
    }
    mpi_env_stop(&env);
    weights_dispose(&s.fit.weights);
    weights_dispose(&s.init);
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
    "                    [--max-iterations N] [--tables [--l2-tables X] [--learning-rate X]\n"
    "                    [--batch N] [--epochs N] [--patience N]] [--priors [--l2-priors X]\n"
    "                    [--priors-min-visits N] [--priors-prune X] [--priors-positions N]] [--json]\n\n"
    "Fits the weights of the evaluation, P(side to move wins) = sigmoid(w . features), to the\n"
    "positions of self-play records (docs/TUNING.md).  Every game is replayed with the rules;\n"
    "each position's target is lambda x the game's result for the side to move (1 win, 0.5\n"
    "draw, 0 loss) + (1 - lambda) x the search's root value (the result alone where a ply has\n"
    "none).  A position met again (same hash) counts only where it first appears.  Whole games\n"
    "are held out for validation.  The fit maximises the likelihood (cross-entropy) with an L2\n"
    "penalty by Newton's method; the report gives log-losses before and after, each weight with\n"
    "its standard error, and the weights the data cannot identify.  The same data and options\n"
    "give the same weights, bit for bit, whatever --threads is.\n\n"
    "  --data FILE...        records files, all of one game and board (docs/FORMAT.md); the\n"
    "                        arguments after '--' are data files too (names starting with '-')\n"
    "  --out WEIGHTS         the weights file to write (atomically, with provenance comments;\n"
    "                        '-': stdout, and the report goes to stderr): a text file when the\n"
    "                        weights have neither tables nor priors, else a binary table file\n"
    "                        (docs/WEIGHTS.md), so a table file whenever the start has them;\n"
    "                        a table file is refused a .txt name\n"
    "  --init WEIGHTS        the starting weights (default: the shipped ones, that is\n"
    "                        data/weights/<variant>.lwt, with pattern tables and learned priors,\n"
    "                        where one is shipped for the board; else <variant>.txt)\n"
    "  --skip-opening N      leave out the first N plies of every game (default 0)\n"
    "  --validation F        the fraction of games held out, chosen by a hash of each game's\n"
    "                        index and seed (default 0.1)\n"
    "  --l2 X                penalty X/2 x sum of w^2 added to the summed log-loss: a Gaussian\n"
    "                        prior of variance 1/X on each weight (default 1)\n"
    "  --lambda X            the result's share of the target, 0 to 1 (default 1)\n"
    "  --threads N           threads (default: every core)\n"
    "  --max-iterations N    Newton steps at most (default 50)\n"
    "  --tables              also fit the game's pattern tables (docs/FEATURES.md): for Reversi\n"
    "                        12 phases x 113,877 canonical entries (1.37 million), for the phalanx\n"
    "                        games 4 phases of entries that depend on the board (7,992 on 14x12,\n"
    "                        4,680 on 8x8), fitted with the linear weights by Adam on mini-batches,\n"
    "                        keeping the epoch with the best validation loss.  Without it, the\n"
    "                        tables and learned priors of the start weights are kept as they are\n"
    "                        and the linear weights refit\n"
    "  --l2-tables X         the penalty on each table entry, as --l2 (default 100)\n"
    "  --learning-rate X     Adam's first step (default 0.01), halved after every epoch that\n"
    "                        does not improve the validation loss\n"
    "  --batch N             positions a mini-batch (default 8192)\n"
    "  --epochs N            passes over the data at most (default 30)\n"
    "  --patience N          halvings without improvement before stopping (default 3)\n"
    "  --priors              also fit learned move priors: a softmax over move features\n"
    "                        fitted to the searches' visit distributions in the records; the\n"
    "                        report gives top-1 and log-evidence on the held-out games\n"
    "  --l2-priors X         the penalty on each prior weight (default 10)\n"
    "  --priors-min-visits N positions whose search made fewer visits are left out (default 50)\n"
    "  --priors-prune X      moves with fewer than X times the visits of the most visited move are\n"
    "                        left out of a position's target, 0 to 1 (default 0: none)\n"
    "  --priors-positions N  at most about N positions, picked by a fixed hash (default 1000000)\n"
    "  --json                the report as one JSON object (with --tables: the train and\n"
    "                        validation log-loss of every epoch)\n\n"
    "Under mpirun (a build made with `make MPI=1`; docs/CLUSTER.md) each process reads and\n"
    "replays its own contiguous part of the games, repeats are found across all of them, and\n"
    "the sums of every step are combined in the one-process order: the weights and the report\n"
    "are those of one process, bit for bit; process 0 writes them.  --priors runs in one process\n"
    "only (not under mpirun).\n\n"
    "example: leuctra tune --data run1.lrec run2.lrec --out tuned.lwt --skip-opening 4\n"
    "         leuctra tune --data reversi.lrec --tables --priors --out reversi.lwt\n"
    "         mpirun -np 4 build-mpi/leuctra tune --data big.lrec --out tuned.lwt --threads 8\n",
};
