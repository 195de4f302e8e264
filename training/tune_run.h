/*
 * tune_run.h - a tune run as the library runs it, for `leuctra tune` and for every fit of
 * `leuctra train`: the options, the run's steps (tune_run.c), the summary of a run that the
 * command's report prints (cli/cmd_tune_report.c) and that the weights file's provenance
 * comments record (tune_provenance.c), the fit's command line built from the options
 * (tune_command.c) and the report as JSON (tune_json.c).  `--model net` fits a network on top
 * of the start weights instead (tune_run_net.c, docs/NETWORK.md).
 */
#ifndef LEUCTRA_TUNE_RUN_H
#define LEUCTRA_TUNE_RUN_H

#include "data/mpi_env.h"
#include "tuner/tune.h"
#include "tuner/tune_network.h"

#include <math.h>
#include <stdio.h>

/* What a run fits: the linear weights with the tables and priors (tune's own), or a network on
 * top of the start weights, which it keeps as they are (its skip path). */
typedef enum { TUNE_MODEL_TABLES, TUNE_MODEL_NET } TuneModel;

/* The network's width when neither the options nor the start's network say (docs/NETWORK.md). */
enum { TUNE_NET_HIDDEN = 64 };

/* --model net's options. */
typedef struct {
    int hidden;                 /* H; 0: the start's network's, else TUNE_NET_HIDDEN */
    unsigned inputs;            /* NETWORK_PATTERNS | NETWORK_SQUARES; 0: the start's network's, else
                                   each input set measured and the best kept */
    bool new_network;           /* the start's network dropped: a network from zero on the rest */
    TuneNetworkFitOptions fit;
} TuneNetOptions;

/* tune_network_fit_defaults() with hidden and inputs 0. */
TuneNetOptions training_tune_net_defaults(void);

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
    TuneModel model;
    TuneNetOptions net;         /* with TUNE_MODEL_NET (its policy target's min visits are
                                   policy_opts.min_visits) */
} TuneOptions;

/* One input set's fit when the run measures them. */
typedef struct {
    unsigned inputs;
    TuneNetworkLoss train, validation;  /* after its fit */
    int best_epoch, epochs;
    double seconds;
} TuneNetCandidate;

/* What a --model net run did. */
typedef struct {
    bool from_network;          /* the fit started from the start weights' network (else from zero) */
    bool dropped_network;       /* --new-network dropped the start weights' network */
    unsigned families;          /* the pattern inputs' shapes */
    int hidden;
    unsigned inputs;            /* the input set kept */
    bool measured;              /* several input sets fitted, the best kept */
    int num_candidates;
    TuneNetCandidate candidate[3];
    TuneNetworkFit fit;         /* the kept one's */
    uint64_t policy_train, policy_validation;   /* positions with a policy target */
} TuneNetSummary;

/* "patterns", "squares" or "both". */
const char *training_tune_inputs_name(unsigned inputs);
/* "auto", "keep" or "drop". */
const char *training_tune_value_head_name(TuneValueHead v);
/* The inverses, for the command lines: 0 or false for a name that is none of them. */
unsigned training_tune_inputs_parse(const char *name);
bool training_tune_value_head_parse(const char *name, TuneValueHead *v);
/* Whether a network fit can go on from `net` (a start's network) with the width and input set a
 * run names (0: not named): else false and the one message tune and train give. */
struct Network;
bool training_tune_net_continues(int hidden, unsigned inputs, const struct Network *net, Error *err);

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
    char priors_kept[600];      /* or why the data could not refit them ("" when they were) */
    bool init_tables_fixed;     /* the start weights' tables kept as they are (--linear-only) */
    TuneFit fit;
    TuneLoss train_before, train_after, train_baseline;
    TuneLoss valid_before, valid_after, valid_baseline;
    TuneWeightStat stat[MAX_FEATURES];
    TunePolicyFit policy;       /* with --priors */
    TuneNetSummary net;         /* with --model net (train_* and valid_*: the value's log-loss) */
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
/* The steps of a --model net run (tune_run_net.c), which training_tune_run takes: the start
 * weights, the games with their visit lists, the positions, the fit of each input set measured,
 * and the start weights with the best network written.  Under mpirun each process reads its share
 * of the games, every process gets all the positions and fits them alike, and rank 0 writes. */
bool training_tune_run_net(const TuneOptions *o, const MpiEnv *env, TuneWork *w, Error *err);

/* After a step where each process works on its own share: true when every process succeeded.
 * Otherwise the first failing process in rank order (whose data come first: what one process
 * reading all the data would have said) keeps its error, and the others get one that says another
 * process failed, with its kind (err->elsewhere).  Collective; one process: ok. */
bool training_tune_agree(const MpiEnv *env, bool ok, Error *err);
/* Writes the fit's weights with their provenance to o->out (tune_run.c). */
bool training_tune_save(const TuneOptions *o, TuneSummary *s, Error *err);

/* Why a run that holds learned priors did not refit them (s->fit_priors false). */
static inline const char *tune_priors_kept(const TuneSummary *s)
{
    return s->priors_kept[0] ? s->priors_kept : "--linear-only or --no-priors";
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
