/*
 * tune_run.h - a tune run as the library runs it, for `leuctra tune` and for every fit of
 * `leuctra train`: the options, the run's steps (tune_run.c), the summary of a run that the
 * command's report prints (cli/cmd_tune_report.c) and that the weights file's provenance
 * comments record (tune_provenance.c), the fit's command line built from the options
 * (tune_command.c) and the report as JSON (tune_json.c).
 */
#ifndef LEUCTRA_TUNE_RUN_H
#define LEUCTRA_TUNE_RUN_H

#include "data/mpi_env.h"
#include "tuner/tune.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    const char **data;          /* the records files, in the order given */
    int num_data;
    const char *out, *init;     /* init NULL: the shipped weights */
    TuneDataOptions data_opts;
    TuneFitOptions fit_opts;
    /* What is fitted besides the linear weights: the start's tables and priors (refitted), unless
     * linear_only keeps both as they are or no_priors the priors; tables and priors add them
     * where the start has none. */
    bool tables, priors, linear_only, no_priors;
    unsigned shapes;            /* --shapes: the tables' families (core/pattern.h); 0: the start's */
    TunePolicyOptions policy_opts;
    bool json;
    /* The command line the provenance records: the one typed (`leuctra tune`), or with argv NULL
     * (a program's fit: train) the one the options make (training_tune_command), its paths
     * under `folder` relative to it (NULL: as given). */
    int argc;
    char **argv;
    const char *folder;
    const char *date;           /* the provenance's date; NULL: now, "": none (train: the same bytes
                                   in every run) */
    const char *note;           /* a line for the provenance (NULL: none) */
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
    bool fit_tables, fit_priors;    /* what this run fits besides the linear weights */
    unsigned families;          /* the pattern families of the tables fitted */
    bool priors_kept_by_mpi;    /* the start's priors kept as they are: their fit runs in one process */
    char priors_kept[600];      /* or why the data could not refit them ("" when they were) */
    bool init_tables_fixed;     /* the start weights' tables kept as they are (--linear-only) */
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

/* A tune run's working state: the summary, the games and positions it read, its game. */
typedef struct {
    TuneSummary summary;
    TuneGames games;
    TuneSet train, valid;
    Game *game;
} TuneWork;

/* The steps of a tune run (tune_run.c): the game of the data, the start weights, the games (each
 * process its share under mpirun), the positions, the fit, the priors, and the weights file
 * written by rank 0.  False with *err at the first step that fails; under mpirun every rank
 * returns false, err->elsewhere on all but the one whose error it is.  w is valid either way
 * (the summary for the report) until training_tune_free. */
bool training_tune_run(const TuneOptions *o, const MpiEnv *env, TuneWork *w, Error *err);
void training_tune_free(TuneWork *w);

/* Why a run that holds learned priors did not refit them (s->fit_priors false). */
static inline const char *tune_priors_kept(const TuneSummary *s)
{
    return s->priors_kept[0] ? s->priors_kept : s->priors_kept_by_mpi ? "their fit runs in one process, not under mpirun"
           : "--linear-only or --no-priors";
}

/* The report as one JSON object (tune --json, and train's DIR/genK/tune.json). */
void training_tune_json(const TuneSummary *s, FILE *out);

/* The provenance comments for the weights file (malloc'd; NULL when memory runs out): data,
 * positions, losses before and after, standard errors, the date and the whole command line,
 * in lines short enough for the weights format (docs/WEIGHTS.md: 1024 characters). */
char *training_tune_provenance(const TuneSummary *s);

/* The fit's command line as `leuctra tune` would take it, word by word, from the options (not
 * from a second list of words kept beside them): "tune --data FILE... --init W --out W --lambda
 * X", then --linear-only, or --tables, --shapes, --l2-tables (where not tune's default),
 * --no-priors or --priors as the options ask; paths under o->folder relative to it.  The words
 * are malloc'd (NULL when memory runs out), *argc of them; training_tune_command_free frees
 * them. */
char **training_tune_command(const TuneOptions *o, int *argc);
void training_tune_command_free(char **words, int argc);

#endif
