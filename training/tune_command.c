/*
 * tune_command.c - the fit's command line built from its options (tune_run.h:
 * training_tune_command), for the provenance of a fit that a program made rather than a person
 * typed: train's every generation.  The words follow the options, so the record cannot drift
 * from what was run.
 */
#include "tune_run.h"

#include "core/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char **words;
    int count, cap;
    bool failed;
} Words;

static void add(Words *w, const char *word)
{
    char *copy = w->failed || w->count == w->cap ? NULL : strdup(word);
    if (!copy) {
        w->failed = true;
        return;
    }
    w->words[w->count++] = copy;
}

static void add_number(Words *w, const char *option, double value)
{
    char text[32];
    snprintf(text, sizeof text, "%g", value);
    add(w, option);
    add(w, text);
}

/* A path as the command names it: relative to the folder it lies in, where one is given. */
static void add_path(Words *w, const TuneOptions *o, const char *path)
{
    size_t n = o->folder ? strlen(o->folder) : 0;
    add(w, n && strncmp(path, o->folder, n) == 0 && path[n] == '/' ? path + n + 1 : path);
}

/* A network's options, where not tune's defaults. */
static void add_net(Words *w, const TuneOptions *o)
{
    const TuneNetOptions *n = &o->net, d = training_tune_net_defaults();
    add(w, "--model");
    add(w, "net");
    if (n->hidden)
        add_number(w, "--hidden", n->hidden);
    if (n->inputs) {
        add(w, "--inputs");
        add(w, training_tune_inputs_name(n->inputs));
    }
    if (n->fit.value_head != d.fit.value_head) {
        add(w, "--value-head");
        add(w, training_tune_value_head_name(n->fit.value_head));
    }
    if (n->fit.policy_weight != d.fit.policy_weight)
        add_number(w, "--policy-weight", n->fit.policy_weight);
    if (n->fit.l2 != d.fit.l2)
        add_number(w, "--l2-net", n->fit.l2);
    if (n->fit.learning_rate != d.fit.learning_rate)
        add_number(w, "--learning-rate", n->fit.learning_rate);
    if (n->fit.batch != d.fit.batch)
        add_number(w, "--batch", (double)n->fit.batch);
    if (n->fit.max_epochs != d.fit.max_epochs)
        add_number(w, "--epochs", n->fit.max_epochs);
    if (n->fit.patience != d.fit.patience)
        add_number(w, "--patience", n->fit.patience);
    if (o->policy_opts.min_visits != tune_policy_defaults().min_visits)
        add_number(w, "--priors-min-visits", o->policy_opts.min_visits);
}

/* What is fitted besides the linear weights, as the options say it. */
static void add_fit(Words *w, const TuneOptions *o)
{
    if (o->model == TUNE_MODEL_NET) {
        add_net(w, o);
        return;
    }
    if (o->linear_only) {
        add(w, "--linear-only");
        return;
    }
    if (o->tables)
        add(w, "--tables");
    if (o->shapes) {
        char shapes[64];
        pattern_families_format(o->shapes, shapes, sizeof shapes);
        add(w, "--shapes");
        add(w, shapes);
    }
    if (o->fit_opts.l2_tables != tune_fit_defaults().l2_tables)
        add_number(w, "--l2-tables", o->fit_opts.l2_tables);
    if (o->no_priors)
        add(w, "--no-priors");
    else if (o->priors)
        add(w, "--priors");
}

char **training_tune_command(const TuneOptions *o, int *argc)
{
    Words w = {.cap = o->num_data + 48};
    w.words = calloc((size_t)w.cap, sizeof *w.words);
    w.failed = !w.words;
    add(&w, "tune");
    add(&w, "--data");
    for (int i = 0; i < o->num_data; i++)
        add_path(&w, o, o->data[i]);
    if (o->init) {
        add(&w, "--init");
        add_path(&w, o, o->init);
    }
    add(&w, "--out");
    add_path(&w, o, o->out);
    add_number(&w, "--lambda", o->data_opts.lambda);    /* named even where it is tune's default */
    add_fit(&w, o);
    if (w.failed) {
        training_tune_command_free(w.words, w.count);
        return NULL;
    }
    *argc = w.count;
    return w.words;
}

void training_tune_command_free(char **words, int argc)
{
    for (int i = 0; words && i < argc; i++)
        free(words[i]);
    free(words);
}
