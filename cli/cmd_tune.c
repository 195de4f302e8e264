/*
 * cmd_tune.c - `leuctra tune`: fits the evaluation weights to self-play records (tuner/tune.h)
 * and writes them, with their provenance, as a weights file.  Reads the options, runs the steps
 * (training/tune_run.c) and hands the summary to the report (cmd_tune_report.c, or the JSON of
 * training/tune_json.c).  Bad input exits 2 with one line; failures (damaged data, I/O) exit 1.
 */
#include "core/network.h"
#include "core/pattern.h"
#include "data/mpi_env.h"
#include "data/weights.h"
#include "records_cli.h"
#include "tune_cli.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const NAME = "tune";

/* --- options ----------------------------------------------------------------------------------- */

/* --data takes one path, or several up to the next option. */
static void read_data_paths(ArgReader *r, const char *first, TuneOptions *o)
{
    o->data[o->num_data++] = first;
    while (r->index < r->argc && r->argv[r->index][0] != '-')
        o->data[o->num_data++] = r->argv[r->index++];
}

/* A note is kept as comment lines: text, tabs and line breaks, nothing that would garble a file
 * shown on a terminal. */
static void check_note(const char *note)
{
    for (const unsigned char *c = (const unsigned char *)note; *c; c++)
        if ((*c < 32 && *c != '\n' && *c != '\t') || *c == 127)
            fail_exit(NAME, EXIT_USAGE, "--note: a control character (byte %d) at offset %td", *c,
                      (const char *)c - note);
    if (strlen(note) > 16384)
        fail_exit(NAME, EXIT_USAGE, "--note: %zu bytes, more than 16384", strlen(note));
}

/* The first option given that belongs to one model only, for the refusal of a mix. */
typedef struct {
    const char *tables_only, *net_only;
} ModelOptions;

static void note_model_option(ModelOptions *m, const char *option, bool net)
{
    const char **first = net ? &m->net_only : &m->tables_only;
    if (!*first)
        *first = option;
}

/* --model net's own options; false when argv[r->index] is none of them. */
static bool read_net_option(ArgReader *r, TuneOptions *o, ModelOptions *m)
{
    const char *text;
    if (arg_value(r, "--model", &text)) {
        if (strcmp(text, "net") != 0 && strcmp(text, "tables") != 0)
            fail_exit(NAME, EXIT_USAGE, "--model must be tables or net, got '%s'", text);
        o->model = strcmp(text, "net") == 0 ? TUNE_MODEL_NET : TUNE_MODEL_TABLES;
        return true;
    }
    if (arg_value(r, "--hidden", &text)) {
        o->net.hidden = (int)arg_integer(NAME, "--hidden", text, NETWORK_MIN_H, NETWORK_MAX_H);
        if (o->net.hidden % 16 != 0)
            fail_exit(NAME, EXIT_USAGE, "--hidden must be a multiple of 16, got %d", o->net.hidden);
        note_model_option(m, "--hidden", true);
    } else if (arg_flag(r, "--new-network")) {
        o->net.new_network = true;
        note_model_option(m, "--new-network", true);
    } else if (arg_value(r, "--inputs", &text)) {
        if (!(o->net.inputs = training_tune_inputs_parse(text)))
            fail_exit(NAME, EXIT_USAGE, "--inputs must be patterns, squares or both, got '%s'", text);
        note_model_option(m, "--inputs", true);
    } else if (arg_value(r, "--value-head", &text)) {
        if (!training_tune_value_head_parse(text, &o->net.fit.value_head))
            fail_exit(NAME, EXIT_USAGE, "--value-head must be auto, keep or drop, got '%s'", text);
        note_model_option(m, "--value-head", true);
    } else if (arg_value(r, "--policy-weight", &text)) {
        o->net.fit.policy_weight = arg_real(NAME, "--policy-weight", text, 0, 100);
        note_model_option(m, "--policy-weight", true);
    } else if (arg_value(r, "--l2-net", &text)) {
        o->net.fit.l2 = arg_real(NAME, "--l2-net", text, 0, 1e6);
        note_model_option(m, "--l2-net", true);
    } else
        return false;
    return true;
}

/* The options of the tables' fit that --model net does not take, noted as they are read. */
static void note_tables_option(const ArgReader *r, ModelOptions *m)
{
    static const char *const only[] = {"--l2", "--max-iterations", "--tables", "--shapes", "--linear-only",
                                       "--no-priors", "--l2-tables", "--priors", "--l2-priors", "--priors-prune",
                                       "--priors-positions"};
    const char *arg = r->argv[r->index];
    const size_t n = strcspn(arg, "=");     /* "--l2=3" as "--l2 3" */
    for (size_t i = 0; !r->operands_only && i < sizeof only / sizeof only[0]; i++)
        if (strlen(only[i]) == n && strncmp(arg, only[i], n) == 0)
            note_model_option(m, only[i], false);
}

/* One option into *o; false when argv[r->index] is none of tune's. */
static bool read_option(ArgReader *r, TuneOptions *o, ModelOptions *m)
{
    const char *text;
    note_tables_option(r, m);
    if (read_net_option(r, o, m))
        return true;
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
        o->tables = true;
    else if (arg_value(r, "--shapes", &text)) {
        Error err;
        if (!pattern_families_parse(text, &o->shapes, &err))
            fail_exit(NAME, EXIT_USAGE, "--shapes: %s", err.msg);
    }
    else if (arg_flag(r, "--linear-only"))
        o->linear_only = true;
    else if (arg_flag(r, "--no-priors"))
        o->no_priors = true;
    else if (arg_value(r, "--l2-tables", &text))
        o->fit_opts.l2_tables = arg_real(NAME, "--l2-tables", text, 0, 1e12);
    else if (arg_value(r, "--learning-rate", &text))
        o->net.fit.learning_rate = o->fit_opts.learning_rate = arg_real(NAME, "--learning-rate", text, 1e-9, 10);
    else if (arg_value(r, "--batch", &text))
        o->net.fit.batch = o->fit_opts.batch = (size_t)arg_integer(NAME, "--batch", text, 1, 1 << 26);
    else if (arg_value(r, "--epochs", &text))
        o->net.fit.max_epochs = o->fit_opts.max_epochs = (int)arg_integer(NAME, "--epochs", text, 0, TUNE_MAX_EPOCHS);
    else if (arg_value(r, "--patience", &text))
        o->net.fit.patience = o->fit_opts.patience = (int)arg_integer(NAME, "--patience", text, 0, 100);
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
        o->data_opts.threads = o->fit_opts.threads = arg_threads(NAME, "--threads", text);
    else if (arg_flag(r, "--json"))
        o->json = true;
    else if (arg_value(r, "--note", &o->note))
        check_note(o->note);
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
    o->net = training_tune_net_defaults();
    o->argc = argc;
    o->argv = argv;
    ArgReader r = {argc, argv, 1, NAME, false};
    ModelOptions m = {NULL, NULL};
    while (r.index < argc) {
        if (r.operands_only)    /* after "--": data files (their names may start with '-') */
            o->data[o->num_data++] = argv[r.index++];
        else if (!read_option(&r, o, &m))
            arg_common(&r, &command_tune);
    }
    if (o->model == TUNE_MODEL_NET && m.tables_only)
        fail_exit(NAME, EXIT_USAGE, "--model net fits a network and keeps the start's weights, tables and priors as "
                  "they are: it takes no %s", m.tables_only);
    if (o->model == TUNE_MODEL_TABLES && m.net_only)
        fail_exit(NAME, EXIT_USAGE, "%s is an option of --model net", m.net_only);
    if (o->num_data == 0)
        fail_exit(NAME, EXIT_USAGE, "no data files (--data FILE...; see leuctra tune --help)");
    if (!o->out)
        fail_exit(NAME, EXIT_USAGE, "--out WEIGHTS is required (see leuctra tune --help)");
    if (o->linear_only && (o->tables || o->priors || o->shapes))
        fail_exit(NAME, EXIT_USAGE, "--linear-only keeps the tables and priors: it takes no --tables, --shapes or --priors");
    if (o->no_priors && o->priors)
        fail_exit(NAME, EXIT_USAGE, "--no-priors and --priors contradict each other");
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

/* --- the run ------------------------------------------------------------------------------------ */

/* What the run chose to fit that the user may not have asked for, on stderr. */
static void note_choices(const TuneSummary *s)
{
    if (s->priors_kept[0])
        fprintf(stderr, "leuctra tune: note: the start's learned priors are kept as they are: %s\n", s->priors_kept);
}

/* The provenance's date from SOURCE_DATE_EPOCH (reproducible-builds.org) where it is set, so that
 * two fits of the same data write the same bytes (tests/cli/mpi_test.sh compares mpirun's file with
 * one process's); NULL: now. */
static const char *source_date(char *buf, size_t len)
{
    const char *v = getenv("SOURCE_DATE_EPOCH");
    if (!v || !*v)
        return NULL;
    char *end;
    errno = 0;
    long long seconds = strtoll(v, &end, 10);
    if (*end || seconds < 0 || errno || (long long)(time_t)seconds != seconds)
        fail_exit(NAME, EXIT_USAGE, "SOURCE_DATE_EPOCH '%s' is not a number of seconds since 1970", v);
    time_t t = (time_t)seconds;
    struct tm utc;
    if (!gmtime_r(&t, &utc))
        fail_exit(NAME, EXIT_USAGE, "SOURCE_DATE_EPOCH '%s' is not a date", v);
    strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &utc);
    return buf;
}

static int run_tune(int argc, char **argv)
{
    TuneOptions o;
    read_options(argc, argv, &o);
    char date[40];
    o.date = source_date(date, sizeof date);
    check_out(&o);
    /* GSL's default error handler aborts the program; the tuner checks every return code instead.
     * It is GSL's one process-wide setting, made here before any thread starts. */
    gsl_set_error_handler_off();
    MpiEnv env = mpi_env_start();
    TuneWork work;
    Error err = {0};
    bool ok = training_tune_run(&o, &env, &work, &err);
    if (ok && env.rank == 0) {
        note_choices(&work.summary);
        /* --out - puts the weights on stdout, and the report beside them on stderr */
        FILE *report = cli_output_is_stdout(o.out) ? stderr : stdout;
        if (o.json)
            training_tune_json(&work.summary, report);
        else
            cli_tune_print_text(&work.summary, report);
    }
    /* A failed run's line comes from the process whose error it is (the others, which its
     * failure stopped, say nothing), before MPI stops: see fail_say. */
    if (!ok && !err.elsewhere)
        fail_say(NAME, &err);
    mpi_env_stop(&env);
    training_tune_free(&work);
    free(o.data);
    if (!ok)
        exit(fail_status(&err));
    return 0;
}

const Command command_tune = {
    "tune", run_tune, "fit the evaluation weights to self-play records",
    "usage: leuctra tune --data FILE... --out WEIGHTS [--init WEIGHTS] [--skip-opening N]\n"
    "                    [--validation F] [--l2 X] [--lambda X] [--threads N]\n"
    "                    [--max-iterations N] [--tables] [--shapes LIST] [--priors]\n"
    "                    [--linear-only | --no-priors]\n"
    "                    [--l2-tables X] [--learning-rate X] [--batch N] [--epochs N] [--patience N]\n"
    "                    [--l2-priors X] [--priors-min-visits N] [--priors-prune X]\n"
    "                    [--priors-positions N] [--note TEXT] [--json]\n"
    "       leuctra tune --model net --data FILE... --out WEIGHTS.lwt [--init WEIGHTS]\n"
    "                    [--hidden H] [--new-network] [--inputs patterns|squares|both]\n"
    "                    [--value-head auto|keep|drop] [--policy-weight X]\n"
    "                    [--l2-net X] [--learning-rate X] [--batch N] [--epochs N] [--patience N]\n"
    "                    [--priors-min-visits N] [--skip-opening N] [--validation F] [--lambda X]\n"
    "                    [--threads N] [--note TEXT] [--json]\n\n"
    "Fits the weights of the evaluation, P(side to move wins) = sigmoid(w . features), to the\n"
    "positions of self-play records (docs/TUNING.md).  Every game is replayed with the rules;\n"
    "each position's target is lambda x the game's result for the side to move (1 win, 0.5\n"
    "draw, 0 loss) + (1 - lambda) x the search's root value (the result alone where a ply has\n"
    "none).  A position met again (same hash) counts only where it first appears.  Whole games\n"
    "are held out for validation.  The fit maximises the likelihood (cross-entropy) with an L2\n"
    "penalty by Newton's method; the report gives log-losses before and after, each weight with\n"
    "its standard error, and the weights the data cannot identify.  The same data and options\n"
    "give the same weights, bit for bit, whatever --threads is.\n\n"
    "What is fitted is what the start weights hold: from a table file (the shipped weights of\n"
    "most boards) its pattern tables, learned priors and linear weights are all refitted; from\n"
    "text weights the linear weights alone.  --tables and --priors add tables or priors to start\n"
    "weights that have none; --linear-only refits the linear weights alone and keeps a table\n"
    "file's tables and priors as they are, --no-priors keeps its priors.\n\n"
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
    "  --lambda X            the result's share of the target, 0 to 1 (default 0.5: fits of\n"
    "                        the results alone (1) played 60-100 Elo weaker, docs/TUNING.md)\n"
    "  --threads N           threads (default: every core)\n"
    "  --max-iterations N    Newton steps at most (default 50)\n"
    "  --tables              fit the game's pattern tables (docs/FEATURES.md) from start weights\n"
    "                        that have none (from a table file they are fitted anyway): for\n"
    "                        Reversi 12 phases x 113,877 canonical entries (1.37 million), for the\n"
    "                        phalanx games 4 phases of entries that depend on the board (7,992 on\n"
    "                        14x12, 4,680 on 8x8), fitted with the linear weights by Adam on\n"
    "                        mini-batches, keeping the epoch with the best validation loss\n"
    "  --shapes LIST         the tables' shape families (implies --tables; default: the start's,\n"
    "                        else base): base (the game's own: Reversi's Edax shapes, the phalanx\n"
    "                        games' 4-square segments), and for the phalanx games 2x4 (two ranks\n"
    "                        of four files), 4x2 (two files of four ranks), 3x3, or all; each\n"
    "                        2-D window has a table per distance from home, mirror-shared.\n"
    "                        From a start with base tables those start the new set's base part\n"
    "  --linear-only         refit the linear weights alone (by Newton), keeping the start's\n"
    "                        tables and priors as they are\n"
    "  --no-priors           keep the start's learned priors as they are\n"
    "  --l2-tables X         the penalty on each table entry, as --l2 (default 100)\n"
    "  --learning-rate X     Adam's first step (default 0.01), halved after every epoch that\n"
    "                        does not improve the validation loss\n"
    "  --batch N             positions a mini-batch (default 8192)\n"
    "  --epochs N            passes over the data at most (default 30)\n"
    "  --patience N          halvings without improvement before stopping (default 3)\n"
    "  --priors              fit learned move priors from start weights that have none: a\n"
    "                        softmax over move features fitted to the searches' visit\n"
    "                        distributions in the records; the report gives top-1 and\n"
    "                        log-evidence on the held-out games\n"
    "  --l2-priors X         the penalty on each prior weight (default 10)\n"
    "  --priors-min-visits N positions whose search made fewer visits are left out (default 50)\n"
    "  --priors-prune X      moves with fewer than X times the visits of the most visited move are\n"
    "                        left out of a position's target, 0 to 1 (default 0: none)\n"
    "  --priors-positions N  at most about N positions, picked by a fixed hash (default 1000000)\n"
    "  --model M             tables (default: the fit above) or net: a network (docs/NETWORK.md)\n"
    "                        fitted on top of the start weights, which it keeps as they are (its\n"
    "                        skip path: the network learns a correction to their value and move\n"
    "                        logits); its value target is the same blend, its policy target the\n"
    "                        visit distribution; Adam on mini-batches, the best validation epoch\n"
    "                        kept, the same bits for any --threads; written as a table file with\n"
    "                        the network.  From start weights with a network the fit goes on from\n"
    "                        it; else from zero (it evaluates as the start until the fit moves it).\n"
    "                        Under mpirun the positions are read spread, the fit runs alike on\n"
    "                        every process\n"
    "  --hidden H            --model net: the first layer's width, 16 to 256, a multiple of 16\n"
    "                        (default 64, or the start's network's)\n"
    "  --new-network         --model net: drop the start's network (the shipped Crossings weights\n"
    "                        have one) and fit one from zero on the rest of the start weights\n"
    "  --inputs SET          --model net: patterns (the pattern instances), squares (the input\n"
    "                        planes' set bits) or both (default: each fitted, the best validation\n"
    "                        loss kept, or the start's network's)\n"
    "  --value-head WHAT     --model net: auto (default) keeps the value head where it lowers the\n"
    "                        validation value log-loss by at least 0.001, else drops it; keep or\n"
    "                        drop decide regardless.  A network without one gives priors only and\n"
    "                        costs the search an evaluation per node expanded, not per leaf scored\n"
    "  --policy-weight X     --model net: the policy's share of the loss (default 1)\n"
    "  --l2-net X            --model net: the penalty X/2 x sum of w^2 on the network's weights\n"
    "                        (default 1e-06); --learning-rate, --batch, --epochs and --patience\n"
    "                        apply to it too (defaults 0.002, 256, 30 and 2), --priors-min-visits\n"
    "                        is the visits a position's policy target needs\n"
    "  --note TEXT           a line (or lines) kept in the weights' provenance comments, such\n"
    "                        as how the data were made\n"
    "  --json                the report as one JSON object (with --tables: the train and\n"
    "                        validation log-loss of every epoch)\n\n"
    "The provenance's date is SOURCE_DATE_EPOCH's (seconds since 1970) where the environment\n"
    "sets it, else now.\n"
    "Under mpirun (a build made with `make MPI=1`; docs/CLUSTER.md) each process reads and\n"
    "replays its own contiguous part of the games, repeats are found across all of them, and\n"
    "the sums of every step are combined in the one-process order: the weights and the report\n"
    "are those of one process, bit for bit; process 0 writes them.  The learned priors' fit\n"
    "spreads alike: each process extracts the positions of its games, and the gradients and\n"
    "scores are summed exactly (fixed point) over all of them.  --model net: each process\n"
    "extracts the positions of its games, every process gets them all and runs the same fit\n"
    "(replicated, not spread: the same bits on every process).\n\n"
    "example: leuctra tune --data run1.lrec run2.lrec --out tuned.lwt --skip-opening 4\n"
    "         leuctra tune --data reversi.lrec --tables --priors --out reversi.lwt\n"
    "         leuctra tune --data crossings.lrec --shapes base,2x4 --out crossings-2x4.lwt\n"
    "         mpirun -np 4 build-mpi/leuctra tune --data big.lrec --out tuned.lwt --threads 8\n"
    "         leuctra tune --model net --data crossings.lrec --hidden 64 --out crossings-net.lwt\n",
};
