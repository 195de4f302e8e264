/*
 * cmd_chart.c - `leuctra chart training DIR`: a training loop's folder (scripts/
 * training_loop.sh) drawn as one SVG chart: per generation the tuner's log-losses before and
 * after (genK/tune.json) and the Elo against gen0 with its interval, rated from every
 * genK/match.txt as `leuctra ratings --anchor gen0` rates them, marked by genK/verdict.
 * The layout is pictures/charts.c's; this file reads and checks the folder.
 */
#include "ratings_cli.h"
#include "core/utf8.h"
#include "data/json_read.h"
#include "pictures/charts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const NAME = "chart training";

/* tune.json is a few KiB; anything much larger is not one. */
enum { MAX_TUNE_JSON = 1 << 22, MAX_GENERATIONS = 10000 };

typedef struct {
    const char *dir, *out;
    double confidence;
    double prior;           /* virtual draws per pair, as ratings --prior */
} ChartOptions;

/* One generation as read from its folder; the strings are owned here. */
typedef struct {
    ChartGeneration chart;
    char name[32];          /* "genK", as the loop names the players */
    char match[4200];       /* genK/match.txt */
} Generation;

static void read_options(int argc, char **argv, ChartOptions *o)
{
    ArgReader r = {argc, argv, 1, NAME, false};
    const char *text;
    while (r.index < argc) {
        if (arg_value(&r, "-o", &o->out) || arg_value(&r, "--out", &o->out))
            continue;
        if (arg_value(&r, "--confidence", &text))
            o->confidence = arg_real(NAME, "--confidence", text, 0.5, 0.999999);
        else if (arg_value(&r, "--prior", &text))
            o->prior = arg_real(NAME, "--prior", text, 0, 1e6);
        else if (arg_operand(&r) && !o->dir)
            o->dir = argv[r.index++];
        else if (r.index < argc && (r.operands_only || argv[r.index][0] != '-'))
            fail_exit(NAME, EXIT_USAGE, "one DIR only, got '%s' too", argv[r.index]);
        else
            arg_common(&r, &command_chart);
    }
    if (!o->dir)
        fail_exit(NAME, EXIT_USAGE, "missing DIR, the training loop's folder (see leuctra chart --help)");
    struct stat st;
    if (stat(o->dir, &st) != 0)
        fail_exit(NAME, EXIT_USAGE, "%s: %s", o->dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        fail_exit(NAME, EXIT_USAGE, "%s: not a folder (expected the training loop's output folder)", o->dir);
    if (o->out)
        cli_output_check(NAME, "-o", o->out);
}

/* The whole of a small text file, or NULL with errno set. */
static char *read_text(const char *path, size_t max)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return NULL;
    char *text = malloc(max + 1);
    size_t n = text ? fread(text, 1, max + 1, in) : 0;
    bool ok = text && !ferror(in) && n <= max;
    fclose(in);
    if (!ok) {
        free(text);
        errno = errno ? errno : EFBIG;
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* A log-loss in nats per position: null (none), or a number from 0 to 745, since no double
 * probability above 0 loses more (-log 4.9e-324 = 744.4); anything else would only stretch the
 * axis out of sight. */
enum { MAX_LOG_LOSS = 745 };

static double tune_loss(const char *path, const char *text, const char *set, const char *when)
{
    const char *keys[3] = {"log_loss", set, when};
    double v;
    int line;
    Error err;
    if (!json_number_at(text, path, keys, 3, &v, &line, &err)) {
        bool missing = strncmp(err.msg + strlen(path), ": no ", 5) == 0;
        fail_exit(NAME, EXIT_USAGE, "%s%s", err.msg, missing ? " (not the output of leuctra tune --json?)" : "");
    }
    if (!isnan(v) && (v < 0 || v > MAX_LOG_LOSS))
        fail_exit(NAME, EXIT_USAGE, "%s:%d: log_loss.%s.%s is %g, not a log-loss (0 to %d, or null)", path, line, set,
                  when, v, MAX_LOG_LOSS);
    return v;
}

static void read_tune(const char *dir, int k, ChartGeneration *g)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/gen%d/tune.json", dir, k);
    errno = 0;
    char *text = read_text(path, MAX_TUNE_JSON);
    if (!text)
        fail_exit(NAME, EXIT_USAGE, "%s: %s", path, strerror(errno));
    g->train_before = tune_loss(path, text, "train", "before");
    g->train_after = tune_loss(path, text, "train", "after");
    g->valid_before = tune_loss(path, text, "validation", "before");
    g->valid_after = tune_loss(path, text, "validation", "after");
    free(text);
}

/* genK/verdict's word; NULL when there is no verdict file (the generation is not finished). */
static const char *read_verdict(const char *dir, int k)
{
    static const char *const verdicts[] = {"promoted", "rejected", "undecided"};
    char path[4200], word[32] = "";
    snprintf(path, sizeof path, "%s/gen%d/verdict", dir, k);
    FILE *in = fopen(path, "r");
    if (!in)
        return NULL;
    int got = fscanf(in, "%31s", word);
    fclose(in);
    for (int i = 0; got == 1 && i < 3; i++)
        if (strcmp(utf8_skip_bom(word), verdicts[i]) == 0)
            return verdicts[i];
    fail_exit(NAME, EXIT_USAGE, "%s: expected promoted, rejected or undecided, got '%s'", path, word);
}

/* gen0 and every finished generation after it (those with a verdict), in order. */
static Generation *read_generations(const char *dir, int *count)
{
    Generation *gens = calloc(1, sizeof *gens);
    if (!gens)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    int n = 1;
    const char *verdict;
    snprintf(gens[0].name, sizeof gens[0].name, "gen0");
    while (n < MAX_GENERATIONS && (verdict = read_verdict(dir, n)) != NULL) {
        Generation *grown = realloc(gens, (size_t)(n + 1) * sizeof *gens);
        if (!grown)
            fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
        gens = grown;
        memset(&gens[n], 0, sizeof gens[n]);
        gens[n].chart.verdict = verdict;
        snprintf(gens[n].name, sizeof gens[n].name, "gen%d", n);
        snprintf(gens[n].match, sizeof gens[n].match, "%s/gen%d/match.txt", dir, n);
        read_tune(dir, n, &gens[n].chart);
        n++;
    }
    if (n == 1)
        fail_exit(NAME, EXIT_USAGE, "%s: no finished generation (no %s/gen1/verdict)", dir, dir);
    gens[0].chart.train_before = gens[0].chart.train_after = NAN;
    gens[0].chart.valid_before = gens[0].chart.valid_after = NAN;
    *count = n;
    return gens;
}

/* Every generation's Elo against gen0, from all the match results together. */
static void rate(Generation *gens, int n, const ChartOptions *opt)
{
    const char **files = malloc((size_t)n * sizeof *files);
    if (!files)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    for (int k = 1; k < n; k++)
        files[k - 1] = gens[k].match;
    ResultTable *t = ratings_read_files(NAME, files, n - 1);
    int anchor = results_find(t, "gen0");
    if (anchor < 0)
        fail_exit(NAME, EXIT_USAGE, "gen0 plays in none of the match results");
    RatingsOptions o = {.anchor = anchor, .confidence = opt->confidence, .prior_draws = opt->prior};
    Ratings r;
    ratings_fit_or_fail(NAME, t, &o, &r);
    for (int k = 0; k < n; k++) {
        int player = results_find(t, gens[k].name);
        gens[k].chart.rating = player >= 0 ? ratings_chart_entry(t, &r, player, anchor)
                                           : (ChartRating){gens[k].name, NAN, NAN, RATING_UNLINKED, false};
        gens[k].chart.rating.name = gens[k].name;   /* the table is freed below */
    }
    ratings_free(&r);
    results_free(t);
    free(files);
}

/* -o must not be one of the files the chart is drawn from (each genK's tune.json, verdict and
 * match.txt), which it would replace. */
static void check_out_apart(const ChartOptions *o, const Generation *gens, int n)
{
    if (!o->out)
        return;
    FileRole *files = malloc((size_t)(3 * n + 1) * sizeof *files);
    char **names = calloc((size_t)(2 * n + 1), sizeof *names);
    if (!files || !names)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    int count = 0;
    files[count++] = (FileRole){"-o", o->out, true, false};
    for (int k = 1; k < n; k++) {
        if (asprintf(&names[2 * k], "%s/gen%d/tune.json", o->dir, k) < 0 ||
            asprintf(&names[2 * k + 1], "%s/gen%d/verdict", o->dir, k) < 0)
            fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
        files[count++] = (FileRole){"", names[2 * k], false, false};
        files[count++] = (FileRole){"", names[2 * k + 1], false, false};
        files[count++] = (FileRole){"", gens[k].match, false, false};
    }
    cli_files_distinct(NAME, files, count);
    for (int i = 0; i < 2 * n + 1; i++)
        free(names[i]);
    free(names);
    free(files);
}

static void write_chart(const ChartOptions *o, const Generation *gens, int n)
{
    check_out_apart(o, gens, n);
    ChartGeneration *chart = malloc((size_t)n * sizeof *chart);
    if (!chart)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    int best = 0;
    for (int k = 0; k < n; k++) {
        chart[k] = gens[k].chart;
        best = gens[k].chart.verdict && strcmp(gens[k].chart.verdict, "promoted") == 0 ? k : best;
    }
    char title[600];
    snprintf(title, sizeof title, "training loop %.500s: %d generation%s, best gen%d", o->dir, n - 1,
             n == 2 ? "" : "s", best);
    CliOutput out;
    if (!chart_training(cli_output_open(NAME, o->out ? o->out : "-", &out), title, chart, n, o->confidence)) {
        cli_output_discard(&out);
        fail_exit(NAME, EXIT_FAILURE_RUN, "cannot write %s: %s", o->out ? o->out : "stdout", strerror(errno));
    }
    cli_output_commit(NAME, &out);
    free(chart);
}

static int run_chart(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
        fputs(command_chart.usage, stdout);
        return 0;
    }
    if (argc < 2 || strcmp(argv[1], "training") != 0)
        fail_exit("chart", EXIT_USAGE, "expected 'training' (see leuctra chart --help)");
    ChartOptions o = {NULL, NULL, 0.95, 0};
    read_options(argc - 1, argv + 1, &o);
    int n;
    Generation *gens = read_generations(o.dir, &n);
    rate(gens, n, &o);
    write_chart(&o, gens, n);
    free(gens);
    return 0;
}

const Command command_chart = {
    "chart", run_chart, "draw a training loop's losses and Elo per generation as SVG",
    "usage: leuctra chart training DIR [-o FILE.svg] [--confidence C] [--prior D]\n\n"
    "Draws the folder of scripts/training_loop.sh as one SVG chart (stdout without -o):\n"
    "  above, the tuner's log-loss of each generation on its self-play games, training and\n"
    "  validation positions, before (the best weights so far, dashed) and after (the candidate,\n"
    "  solid), from DIR/genK/tune.json (leuctra tune --json);\n"
    "  below, each generation's Elo against gen0 with its interval, rated from every\n"
    "  DIR/genK/match.txt together as `leuctra ratings --anchor gen0` rates them, marked by\n"
    "  DIR/genK/verdict: promoted (green dot), rejected (red cross), undecided (grey ring).\n"
    "Generations without a verdict file (not finished yet) are left out.  Other charts:\n"
    "leuctra ratings --svg and leuctra records info --svg (docs/PICTURES.md).\n\n"
    "  -o, --out FILE   the chart's file (written whole or not at all; '-': stdout, the\n"
    "                   default)\n"
    "  --confidence C   level of the Elo intervals (default 0.95)\n"
    "  --prior D        virtual draws per pair, as leuctra ratings --prior (default 0;\n"
    "                   scripts/training_loop.sh uses 2)\n\n"
    "example: leuctra chart training training-out -o training-out/training.svg\n",
};
