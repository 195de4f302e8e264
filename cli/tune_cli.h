/*
 * tune_cli.h - what the files of `leuctra tune` share: its options, the summary of a run that
 * the report prints (cli/cmd_tune_report.c) and that the weights file's provenance comments
 * record (cli/cmd_tune_provenance.c).
 */
#ifndef LEUCTRA_TUNE_CLI_H
#define LEUCTRA_TUNE_CLI_H

#include "cli.h"
#include "tuner/tune.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    const char **data;          /* the records files, in the order given */
    int num_data;
    const char *out, *init;     /* init NULL: the shipped weights */
    TuneDataOptions data_opts;
    TuneFitOptions fit_opts;
    bool priors;                /* also fit the learned move priors */
    TunePolicyOptions policy_opts;
    bool json;
    int argc;                   /* the command line, for the provenance */
    char **argv;
} TuneOptions;

typedef struct {
    const TuneOptions *opts;
    const Game *game;
    const TuneGames *games;
    int threads;                /* the threads actually used (per process) */
    int ranks;                  /* processes (mpirun); 1 for a plain run */
    double read_seconds;
    TuneDataStats data;
    Weights init;
    bool init_tables_fixed;     /* the start weights' tables kept as they are (no --tables) */
    TuneFit fit;
    TuneLoss train_before, train_after, train_baseline;
    TuneLoss valid_before, valid_after, valid_baseline;
    TuneWeightStat stat[MAX_FEATURES];
    TunePolicyFit policy;       /* with --priors */
    char date[40];              /* UTC, when the fit finished */
} TuneSummary;

static inline uint64_t tune_used_positions(const TuneSummary *s)
{
    return s->data.positions_train + s->data.positions_validation;
}

/* "0.6512", or "-" for the loss of an empty set (NAN); buf holds at least 32 bytes. */
static inline const char *tune_loss_text(double loss, char *buf)
{
    if (isnan(loss))
        return "-";
    snprintf(buf, 32, "%.4f", loss);
    return buf;
}

/* The report on stdout: a table for people, or one JSON object (--json). */
void tune_print_text(const TuneSummary *s, FILE *out);
void tune_print_json(const TuneSummary *s, FILE *out);

/* The provenance comments for the weights file (malloc'd; NULL when memory runs out): data,
 * positions, losses before and after, standard errors, the date and the whole command line,
 * in lines short enough for the weights format (docs/WEIGHTS.md: 1024 characters). */
char *tune_provenance(const TuneSummary *s);

#endif
