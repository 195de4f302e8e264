/*
 * train_ladder.c - the ladder of a training run (train_run.h): every promoted generation plays
 * the fixed anchors, gen0 and the shipped weights, so that its strength is measured against
 * the same players from the first generation to the last (a gate only says that a generation
 * beat the one before it).  Then the table (DIR/ladder.txt: each generation's score and Elo
 * against each anchor, with the 95% interval), the ratings of every generation from all the
 * games of the run (DIR/ratings.svg) and the chart of the fits and gates (DIR/training.svg).
 */
#include "train_run.h"
#include "train_chart.h"
#include "train_output.h"

#include "eval/elo.h"
#include "eval/ratings.h"
#include "pictures/charts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_ANCHORS = 2 };

/* The anchors a generation is measured against: gen0 and, where weights are shipped for the
 * board and the run did not start from them, the shipped weights. */
static int anchors(const TrainRun *run, const char *names[MAX_ANCHORS])
{
    int n = 0;
    names[n++] = "gen0";
    if (run->has_shipped && strcmp(run->o->start, "shipped") != 0)
        names[n++] = "shipped";
    return n;
}

/* An anchor as a player of the ladder: the shipped weights, or gen0's. */
static void anchor_player(const TrainRun *run, const char *anchor, SearchSetup *setup)
{
    if (strcmp(anchor, "shipped") == 0) {
        training_player(run->o->ladder_visits, NULL, setup);
        return;
    }
    char rel[64], path[TRAIN_PATH];
    training_weights_of(run, 0, rel, sizeof rel);
    training_path(run, path, "%s", rel);
    training_player(run->o->ladder_visits, path, setup);
}

/* Generation k against one anchor, unless its results are in the folder. */
static bool ladder_match(TrainRun *run, int k, const char *anchor, int index, Error *err)
{
    char rel[128], records[TRAIN_PATH], results[TRAIN_PATH], weights[64], path[TRAIN_PATH];
    snprintf(rel, sizeof rel, "ladder/gen%d-%s.txt", k, anchor);
    if (training_exists(run, rel))
        return true;
    training_path(run, results, "%s", rel);
    training_path(run, records, "ladder/gen%d-%s.lrec", k, anchor);
    training_weights_of(run, k, weights, sizeof weights);
    training_path(run, path, "%s", weights);
    SearchSetup setup_k, setup_a;
    training_player(run->o->ladder_visits, path, &setup_k);
    anchor_player(run, anchor, &setup_a);
    char name_k[32];
    snprintf(name_k, sizeof name_k, "gen%d", k);
    if (!training_log(run, err, "ladder: gen%d against %s, %ld games at %ld visits", k, anchor, run->o->ladder_games,
                      run->o->ladder_visits))
        return false;
    const SearchSetup *const setup[2] = {&setup_k, &setup_a};
    const char *const name[2] = {name_k, anchor};
    TrainMatchResult r;
    char took[32];
    /* The seeds of the gates are seed + K; the ladder's are apart from them. */
    if (!training_match(run, setup, name, run->o->ladder_games,
                        run->o->seed + 100003 * (uint64_t)(index + 1) + (uint64_t)k, NULL, records, results, &r, err))
        return false;
    training_duration_text(r.seconds, took, sizeof took);
    return training_log(run, err, "ladder: gen%d against %s done in %s%s", k, anchor, took, r.shares);
}

/* The results files of the run in a fixed order: the ladder's, and with gates the gates' too;
 * *out holds *count of them, malloc'd (free_files). */
static bool result_files(const TrainRun *run, bool gates, char ***out, int *count, Error *err)
{
    const char *names[MAX_ANCHORS];
    const int num_anchors = anchors(run, names);
    char **files = calloc((size_t)(run->done * (1 + num_anchors) + 1), sizeof *files);
    bool ok = files != NULL;
    int n = 0;
    char path[TRAIN_PATH];
    for (int k = 1; ok && k <= run->done; k++) {
        training_path(run, path, "gen%d/match.txt", k);
        if (gates && access(path, F_OK) == 0)
            ok = (files[n++] = strdup(path)) != NULL;
        for (int a = 0; ok && a < num_anchors; a++) {
            training_path(run, path, "ladder/gen%d-%s.txt", k, names[a]);
            if (access(path, F_OK) == 0)
                ok = (files[n++] = strdup(path)) != NULL;
        }
    }
    *out = files;
    *count = n;
    return ok || error_failed(err, "out of memory");
}

static void free_files(char **files, int n)
{
    for (int i = 0; files && i < n; i++)
        free(files[i]);
    free(files);
}

/* The games of generation k against one anchor, from the anchor's side turned to k's. */
static bool score_against(const ResultTable *t, int k, const char *anchor, Trinomial *out)
{
    char name[32];
    snprintf(name, sizeof name, "gen%d", k);
    const int a = results_find(t, name), b = results_find(t, anchor);
    *out = (Trinomial){0};
    if (a < 0 || b < 0)
        return false;
    for (int i = 0; i < results_num_pairs(t); i++) {
        const PairTotals *p = results_pair(t, i);
        if (p->a == a && p->b == b)
            *out = (Trinomial){p->wins_a, p->draws, p->wins_b};
        else if (p->a == b && p->b == a)
            *out = (Trinomial){p->wins_b, p->draws, p->wins_a};
    }
    return out->wins + out->draws + out->losses > 0;
}

/* Generation k's rating from every game of the run, "+1234 [+1190, +1278]" or "-". */
static void rating_text(const ResultTable *all, const Ratings *r, int k, char *cell, size_t len)
{
    char name[32];
    snprintf(name, sizeof name, "gen%d", k);
    const int i = all && r ? results_find(all, name) : -1;
    if (i < 0 || r->rating[i].status != RATING_FINITE)
        snprintf(cell, len, "-");
    else
        snprintf(cell, len, "%+.0f [%+.0f, %+.0f]", r->rating[i].elo, r->rating[i].elo - r->rating[i].error,
                 r->rating[i].elo + r->rating[i].error);
}

/* The table's row of generation k, appended at text + *n. */
static void table_row(const TrainRun *run, int k, const ResultTable *ladder, const ResultTable *all, const Ratings *r,
                      char *text, size_t cap, size_t *n)
{
    const char *names[MAX_ANCHORS];
    const int num_anchors = anchors(run, names);
    *n += (size_t)snprintf(text + *n, cap - *n, "gen%-5d %-9s", k, "promoted");
    for (int a = 0; a < num_anchors; a++) {
        Trinomial c;
        char cell[64] = "-";
        if (ladder && score_against(ladder, k, names[a], &c))
            training_score_text(&c, cell, sizeof cell);
        *n += (size_t)snprintf(text + *n, cap - *n, "  %-36s", cell);
    }
    char rating[64];
    rating_text(all, r, k, rating, sizeof rating);
    *n += (size_t)snprintf(text + *n, cap - *n, "  %s\n", rating);
}

/* DIR/ladder.txt: per promoted generation, against each anchor, the games' score and Elo; and
 * its rating from every game of the run (gates and ladder), which a run from zero needs: its
 * generations soon win every game against gen0, while the gates' games chain each one to the
 * one before it.  The table goes to the output's print too. */
static bool write_table(TrainRun *run, const ResultTable *ladder, const ResultTable *all, const Ratings *r, Error *err)
{
    const char *names[MAX_ANCHORS];
    const int num_anchors = anchors(run, names);
    size_t cap = 4096 + (size_t)run->done * 256;
    char *text = malloc(cap);
    if (!text)
        return error_failed(err, "out of memory");
    size_t n = (size_t)snprintf(text, cap, "# the ladder of %s: each promoted generation against the fixed anchors, "
                                "%ld games at %ld visits each; Elo with its 95%% interval\n", run->o->dir,
                                run->o->ladder_games, run->o->ladder_visits);
    n += (size_t)snprintf(text + n, cap - n, "%-8s %-9s", "gen", "verdict");
    for (int a = 0; a < num_anchors; a++)
        n += (size_t)snprintf(text + n, cap - n, "  %-36s", names[a]);
    n += (size_t)snprintf(text + n, cap - n, "  %s\n", "all games, gen0 at 0");
    bool ok = true;
    for (int k = 1; ok && k <= run->done; k++) {
        const char *verdict;
        ok = training_verdict(run, k, &verdict, err);
        if (ok && verdict && strcmp(verdict, "promoted") == 0)
            table_row(run, k, ladder, all, r, text, cap, &n);
    }
    ok = ok && training_write_text(run, "ladder.txt", text, err);
    if (ok && run->out->print && run->env->rank == 0)
        run->out->print(text, run->out->ctx);
    free(text);
    return ok;
}

/* Every generation rated from all the games, anchored at gen0 (*rated false: no games with gen0,
 * or not rank 0). */
static bool rate_all(const TrainRun *run, const ResultTable *t, Ratings *r, bool *rated, Error *err)
{
    const int anchor = t ? results_find(t, "gen0") : -1;
    *rated = false;
    if (anchor < 0 || run->env->rank != 0)
        return true;
    RatingsOptions o = {.anchor = anchor, .confidence = 0.95, .prior_draws = 2};
    Error e;
    if (!ratings_fit(t, &o, r, &e))
        return error_failed(err, "%s", e.msg);
    *rated = true;
    return true;
}

/* DIR/ratings.svg: those ratings drawn. */
static bool write_ratings(TrainRun *run, const ResultTable *t, const Ratings *r, Error *err)
{
    char path[TRAIN_PATH];
    training_path(run, path, "ratings.svg");
    OutputFile out;
    FILE *f = training_output_open(&out, path, err);
    if (!f)
        return false;
    if (!chart_ratings_fit(f, t, r, results_find(t, "gen0"), 0.95)) {
        output_file_discard(&out);
        return error_failed(err, "cannot write %s: %s", path, strerror(errno));
    }
    return training_output_commit(&out, err);
}

/* DIR/training.svg, as `leuctra chart training DIR --prior 2` draws it. */
static bool write_training_chart(TrainRun *run, Error *err)
{
    if (run->env->rank != 0 || run->done == 0)
        return true;
    char out[TRAIN_PATH];
    training_path(run, out, "training.svg");
    TrainingChartOptions chart = {.dir = run->o->dir, .out = out, .confidence = 0.95, .prior = 2};
    return training_chart(&chart, err);
}

/* tables[0]: the ladder's games alone (the same anchors, the same budget); [1] every game; NULL
 * where there are none. */
static bool read_tables(const TrainRun *run, ResultTable *tables[2], Error *err)
{
    tables[0] = tables[1] = NULL;
    for (int gates = 0; gates < 2; gates++) {
        char **files;
        int n;
        bool ok = result_files(run, gates, &files, &n, err) &&
                  (n == 0 || (tables[gates] = results_read_files((const char *const *)files, n, err)) != NULL);
        free_files(files, n);
        if (!ok)
            return false;
    }
    return true;
}

/* The ladder games of every promoted generation that lacks them. */
static bool play_ladder(TrainRun *run, Error *err)
{
    const char *names[MAX_ANCHORS];
    const int num_anchors = anchors(run, names);
    for (int k = 1; run->o->ladder_games > 0 && k <= run->done; k++) {
        const char *verdict;
        if (!training_verdict(run, k, &verdict, err))
            return false;
        for (int a = 0; verdict && strcmp(verdict, "promoted") == 0 && a < num_anchors; a++)
            if (!ladder_match(run, k, names[a], a, err))
                return false;
    }
    return true;
}

bool training_ladder(TrainRun *run, Error *err)
{
    ResultTable *tables[2] = {NULL, NULL};
    Ratings r;
    bool rated = false;
    bool ok = play_ladder(run, err) && read_tables(run, tables, err) && rate_all(run, tables[1], &r, &rated, err) &&
              write_table(run, tables[0], tables[1], rated ? &r : NULL, err) &&
              (!rated || write_ratings(run, tables[1], &r, err));
    if (rated)
        ratings_free(&r);
    results_free(tables[0]);
    results_free(tables[1]);
    return ok && write_training_chart(run, err);
}

bool training_ladder_step(TrainRun *run, Error *err)
{
    char mark[64], text[160];
    snprintf(mark, sizeof mark, "gen%d/ladder.done", run->done);
    if (training_exists(run, mark))
        return true;
    /* the mark is written after the games, ladder.txt and the charts: without it a resumed run
     * does them again (ladder.txt alone cannot say so: the generation before wrote it) */
    snprintf(text, sizeof text, "ladder.txt, ratings.svg and training.svg hold generation %d\n", run->done);
    return training_ladder(run, err) && training_write_text(run, mark, text, err);
}
