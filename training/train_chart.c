/*
 * train_chart.c - a training folder's chart (train_chart.h): the generations read from their
 * files, rated from every gate's results, and drawn (pictures/charts.h: chart_training).
 */
#include "train_chart.h"
#include "train_output.h"

#include "core/utf8.h"
#include "data/json_read.h"
#include "eval/ratings.h"
#include "pictures/charts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tune.json is a few KiB; anything much larger is not one. */
enum { MAX_TUNE_JSON = 1 << 22, MAX_GENERATIONS = 10000 };

/* A log-loss in nats per position: null (none), or a number from 0 to 745, since no double
 * probability above 0 loses more (-log 4.9e-324 = 744.4); anything else would only stretch the
 * axis out of sight. */
enum { MAX_LOG_LOSS = 745 };

/* One generation as read from its folder; the strings are owned here. */
typedef struct {
    ChartGeneration chart;
    char name[32];          /* "genK", as the loop names the players */
    char match[4200];       /* genK/match.txt */
} Generation;

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

static bool read_loss(const char *path, const char *text, const char *set, const char *when, double *out, Error *err)
{
    const char *keys[3] = {"log_loss", set, when};
    int line;
    Error e;
    if (!json_number_at(text, path, keys, 3, out, &line, &e)) {
        bool missing = strncmp(e.msg + strlen(path), ": no ", 5) == 0;
        return error_set(err, "%s%s", e.msg, missing ? " (not the output of leuctra tune --json?)" : "");
    }
    if (!isnan(*out) && (*out < 0 || *out > MAX_LOG_LOSS))
        return error_set(err, "%s:%d: log_loss.%s.%s is %g, not a log-loss (0 to %d, or null)", path, line, set, when,
                         *out, MAX_LOG_LOSS);
    return true;
}

static bool read_tune(const char *dir, int k, ChartGeneration *g, Error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/gen%d/tune.json", dir, k);
    errno = 0;
    char *text = read_text(path, MAX_TUNE_JSON);
    if (!text)
        return error_set(err, "%s: %s", path, strerror(errno));
    bool ok = read_loss(path, text, "train", "before", &g->train_before, err) &&
              read_loss(path, text, "train", "after", &g->train_after, err) &&
              read_loss(path, text, "validation", "before", &g->valid_before, err) &&
              read_loss(path, text, "validation", "after", &g->valid_after, err);
    free(text);
    return ok;
}

/* genK/verdict's word into *verdict; NULL when there is no verdict file (the generation is not
 * finished).  False with *err for a file that holds no verdict. */
static bool read_verdict(const char *dir, int k, const char **verdict, Error *err)
{
    static const char *const verdicts[] = {"promoted", "rejected", "undecided"};
    char path[4200], word[32] = "";
    snprintf(path, sizeof path, "%s/gen%d/verdict", dir, k);
    *verdict = NULL;
    FILE *in = fopen(path, "r");
    if (!in)
        return true;
    int got = fscanf(in, "%31s", word);
    fclose(in);
    for (int i = 0; got == 1 && i < 3; i++)
        if (strcmp(utf8_skip_bom(word), verdicts[i]) == 0) {
            *verdict = verdicts[i];
            return true;
        }
    return error_set(err, "%s: expected promoted, rejected or undecided, got '%s'", path, word);
}

/* Room for generation n (the array grown by one). */
static bool grow(Generation **gens, int n, Error *err)
{
    Generation *grown = realloc(*gens, (size_t)(n + 1) * sizeof **gens);
    if (!grown)
        return error_failed(err, "out of memory");
    *gens = grown;
    memset(&grown[n], 0, sizeof grown[n]);
    return true;
}

/* gen0 and every finished generation after it (those with a verdict), in order; NULL with *err. */
static Generation *read_generations(const char *dir, int *count, Error *err)
{
    Generation *gens = NULL;
    if (!grow(&gens, 0, err))
        return NULL;
    int n = 1;
    const char *verdict = NULL;
    snprintf(gens[0].name, sizeof gens[0].name, "gen0");
    bool ok = true;
    while (n < MAX_GENERATIONS && (ok = read_verdict(dir, n, &verdict, err)) && verdict && (ok = grow(&gens, n, err))) {
        gens[n].chart.verdict = verdict;
        snprintf(gens[n].name, sizeof gens[n].name, "gen%d", n);
        snprintf(gens[n].match, sizeof gens[n].match, "%s/gen%d/match.txt", dir, n);
        if (!(ok = read_tune(dir, n, &gens[n].chart, err)))
            break;
        n++;
    }
    if (ok && n == 1)
        ok = error_set(err, "%s: no finished generation (no %s/gen1/verdict)", dir, dir);
    if (!ok) {
        free(gens);
        return NULL;
    }
    gens[0].chart.train_before = gens[0].chart.train_after = NAN;
    gens[0].chart.valid_before = gens[0].chart.valid_after = NAN;
    *count = n;
    return gens;
}

/* Every generation's Elo against gen0, from all the match results together. */
static bool rate(Generation *gens, int n, const TrainingChartOptions *opt, Error *err)
{
    const char **files = malloc((size_t)n * sizeof *files);
    if (!files)
        return error_failed(err, "out of memory");
    for (int k = 1; k < n; k++)
        files[k - 1] = gens[k].match;
    ResultTable *t = results_read_files(files, n - 1, err);
    free(files);
    if (!t)
        return false;
    int anchor = results_find(t, "gen0");
    RatingsOptions o = {.anchor = anchor, .confidence = opt->confidence, .prior_draws = opt->prior};
    Ratings r;
    Error e;
    bool ok = anchor >= 0 ? ratings_fit(t, &o, &r, &e) || error_failed(err, "%s", e.msg)
                          : error_set(err, "gen0 plays in none of the match results");
    for (int k = 0; ok && k < n; k++) {
        int player = results_find(t, gens[k].name);
        gens[k].chart.rating = player >= 0 ? chart_rating_entry(t, &r, player, anchor)
                                           : (ChartRating){gens[k].name, NAN, NAN, RATING_UNLINKED, false};
        gens[k].chart.rating.name = gens[k].name;   /* the table is freed below */
    }
    if (ok)
        ratings_free(&r);
    results_free(t);
    return ok;
}

/* The chart's file must not be one of the files it is drawn from (each genK's tune.json,
 * verdict and match.txt), which it would replace. */
static bool out_apart(const TrainingChartOptions *o, const Generation *gens, int n, Error *err)
{
    FileRole *files = malloc((size_t)(3 * n + 1) * sizeof *files);
    char **names = calloc((size_t)(2 * n + 1), sizeof *names);
    bool ok = files && names;
    int count = 0;
    if (ok)
        files[count++] = (FileRole){"-o", o->out, true, false};
    for (int k = 1; ok && k < n; k++) {
        ok = asprintf(&names[2 * k], "%s/gen%d/tune.json", o->dir, k) >= 0 &&
             asprintf(&names[2 * k + 1], "%s/gen%d/verdict", o->dir, k) >= 0;
        if (!ok) {
            names[2 * k] = names[2 * k + 1] = NULL;     /* asprintf leaves them undefined */
            break;
        }
        files[count++] = (FileRole){"", names[2 * k], false, false};
        files[count++] = (FileRole){"", names[2 * k + 1], false, false};
        files[count++] = (FileRole){"", gens[k].match, false, false};
    }
    ok = ok ? output_files_distinct(files, count, err) : error_failed(err, "out of memory");
    for (int i = 0; names && i < 2 * n + 1; i++)
        free(names[i]);
    free(names);
    free(files);
    return ok;
}

static bool write_chart(const TrainingChartOptions *o, const Generation *gens, int n, Error *err)
{
    const char *out = o->out ? o->out : "-";
    if (o->out && !out_apart(o, gens, n, err))
        return false;
    ChartGeneration *chart = malloc((size_t)n * sizeof *chart);
    if (!chart)
        return error_failed(err, "out of memory");
    int best = 0;
    for (int k = 0; k < n; k++) {
        chart[k] = gens[k].chart;
        best = gens[k].chart.verdict && strcmp(gens[k].chart.verdict, "promoted") == 0 ? k : best;
    }
    char title[600];
    snprintf(title, sizeof title, "training loop %.500s: %d generation%s, best gen%d", o->dir, n - 1,
             n == 2 ? "" : "s", best);
    OutputFile file;
    FILE *stream = training_output_open(&file, out, err);
    bool ok = stream != NULL;
    if (ok && !chart_training(stream, title, chart, n, o->confidence)) {
        output_file_discard(&file);
        ok = error_failed(err, "cannot write %s: %s", o->out ? o->out : "stdout", strerror(errno));
    } else if (ok) {
        ok = training_output_commit(&file, err);
    }
    free(chart);
    return ok;
}

bool training_chart(const TrainingChartOptions *o, Error *err)
{
    int n;
    Generation *gens = read_generations(o->dir, &n, err);
    if (!gens)
        return false;
    bool ok = rate(gens, n, o, err) && write_chart(o, gens, n, err);
    free(gens);
    return ok;
}
