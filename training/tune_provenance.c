/*
 * tune_provenance.c - the provenance comments of the weights file a tune run writes:
 * where the weights came from (data, positions, options, losses, standard errors, date, the
 * command line), in lines that stay within the weights format's 1024 characters however long
 * the paths and the command line are.
 */
#include "core/pattern.h"
#include "data/weights.h"
#include "tune_run.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Lines are wrapped at this width: readable, and far below the format's line limit.  A run on
 * thousands of files names the first MAX_LISTED_FILES and counts the rest. */
enum { WRAP_WIDTH = 96, MAX_LISTED_FILES = 64 };

typedef struct {
    char *text;
    size_t len, cap, line_start;
    bool failed;
} Text;

static void text_append(Text *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *grown = realloc(t->text, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->text = grown;
        t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->len += n;
    t->text[t->len] = '\0';
    for (size_t i = t->len - n; i < t->len; i++)
        if (t->text[i] == '\n')
            t->line_start = i + 1;
}

static void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_printf(Text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    text_append(t, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* Adds a word to the current line, starting a continuation line ("  ") when the line would pass
 * WRAP_WIDTH; a word longer than a line is cut.  Control characters become '?'. */
static void text_word(Text *t, const char *word)
{
    size_t n = strlen(word), used = t->len - t->line_start;
    if (used > 2 && used + 1 + n > WRAP_WIDTH)
        text_append(t, "\n  ", 3);
    else if (used > 0)
        text_append(t, " ", 1);
    for (size_t i = 0; i < n; i++) {
        if (t->len - t->line_start >= WRAP_WIDTH)
            text_append(t, "\n  ", 3);
        char c = (unsigned char)word[i] < 32 || word[i] == 127 ? '?' : word[i];
        text_append(t, &c, 1);
    }
}

/* An argument as a shell would need it: bare when safe, else in single quotes. */
static void quoted_arg(const char *arg, char *out, size_t len)
{
    bool plain = *arg != '\0';
    for (const char *c = arg; *c; c++)
        plain = plain && (strchr("_-./=:,+@%", *c) || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
                          (*c >= 'A' && *c <= 'Z'));
    if (plain) {
        snprintf(out, len, "%s", arg);
        return;
    }
    size_t n = 0;
    out[n++] = '\'';
    for (const char *c = arg; *c && n + 6 < len; c++) {
        if (*c == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else {
            out[n++] = *c;
        }
    }
    out[n++] = '\'';
    out[n] = '\0';
}

static void provenance_data(const TuneSummary *s, Text *t)
{
    const TuneDataStats *d = &s->data;
    int shown = s->games->num_sources < MAX_LISTED_FILES ? s->games->num_sources : MAX_LISTED_FILES;
    for (int i = 0; i < shown; i++) {
        text_printf(t, "data:");
        text_word(t, s->games->source[i].name);
        text_printf(t, " (%llu games)\n", (unsigned long long)s->games->source[i].games);
    }
    if (shown < s->games->num_sources)
        text_printf(t, "data: ... and %d more files\n", s->games->num_sources - shown);
    text_printf(t, "positions: %llu read, %llu in openings, %llu repeats, %llu used: %llu train (%llu games), "
                "%llu validation (%llu games)\n",
                (unsigned long long)d->positions_read, (unsigned long long)d->positions_opening,
                (unsigned long long)d->positions_duplicate, (unsigned long long)tune_used_positions(s),
                (unsigned long long)d->positions_train, (unsigned long long)d->games_train,
                (unsigned long long)d->positions_validation, (unsigned long long)d->games_validation);
}

static void provenance_fit(const TuneSummary *s, Text *t)
{
    char id[17], a[32], b[32], c[32];
    weights_id_text(&s->init, id);
    text_printf(t, "start: %s (id %s)%s\n", s->opts->init ? "--init" : "the shipped weights", id,
                s->init.net ? "; its network kept as it is, on top of the refitted weights" : "");
    const TuneFitOptions *fo = &s->opts->fit_opts;
    text_printf(t, "fit: lambda %g, l2 %g, skip-opening %d, validation %g; ", s->opts->data_opts.lambda, fo->l2,
                s->opts->data_opts.skip_opening, s->opts->data_opts.validation);
    char shapes[64] = "";
    if (s->families != PATTERN_BASE) {
        pattern_families_format(s->families, shapes + 2, sizeof shapes - 3);
        shapes[0] = ' ';
        shapes[1] = '(';
        strcat(shapes, ")");
    }
    if (s->fit.tables)
        text_printf(t, "with the tables%s by Adam: l2-tables %g, learning rate %g, batch %zu; %d epochs, kept "
                    "epoch %d\n", shapes, fo->l2_tables, fo->learning_rate, fo->batch, s->fit.num_epochs - 1, s->fit.best_epoch);
    else
        text_printf(t, "%d Newton steps, %s\n", s->fit.iterations, s->fit.converged ? "converged" : "NOT converged");
    text_printf(t, "log-loss train: %s before, %s after (baseline %s)\n", tune_loss_text(s->train_before.target, a),
                tune_loss_text(s->train_after.target, b), tune_loss_text(s->train_baseline.target, c));
    text_printf(t, "log-loss validation: %s before, %s after (baseline %s)\n",
                tune_loss_text(s->valid_before.target, a), tune_loss_text(s->valid_after.target, b),
                tune_loss_text(s->valid_baseline.target, c));
    text_printf(t, "standard errors:");
    for (int j = 0; j < s->init.count; j++) {
        char word[96], se[32] = "n/a";
        if (!isnan(s->stat[j].std_error))
            snprintf(se, sizeof se, "%.3g", s->stat[j].std_error);
        snprintf(word, sizeof word, "%s %s%s", s->game->ops->feature_names[j], se, j + 1 < s->init.count ? "," : "");
        text_word(t, word);
    }
    text_printf(t, "\n");
    for (int j = 0; j < s->init.count; j++)
        if (s->stat[j].identify != TUNE_IDENTIFIED)
            text_printf(t, "not identifiable: %s (%s)\n", s->game->ops->feature_names[j],
                        tune_identify_text(s->stat[j].identify));
}

static void provenance_priors(const TuneSummary *s, Text *t)
{
    const TunePolicyFit *p = &s->policy;
    if (!s->fit_priors && s->init.policy)
        text_printf(t, "priors: the start's, kept (%s)\n", tune_priors_kept(s));
    if (!s->fit_priors)
        return;
    text_printf(t, "priors: %llu positions (%llu train, %llu validation), l2-priors %g, min-visits %d; %d epochs, "
                "kept epoch %d\n", (unsigned long long)(p->positions_train + p->positions_validation),
                (unsigned long long)p->positions_train, (unsigned long long)p->positions_validation,
                s->opts->policy_opts.l2, s->opts->policy_opts.min_visits, p->num_epochs - 1, p->best_epoch);
    text_printf(t, "priors validation: top-1 %.4f before, %.4f after; log-evidence %.4f before, %.4f after\n",
                p->valid_before.top1, p->valid_after.top1, p->valid_before.evidence, p->valid_after.evidence);
}

/* "command: leuctra tune ...": the command typed, or the one the options make. */
static void provenance_command(const TuneSummary *s, Text *t)
{
    int argc = s->opts->argc;
    char **argv = s->opts->argv ? s->opts->argv : training_tune_command(s->opts, &argc);
    if (!argv) {
        t->failed = true;
        return;
    }
    text_printf(t, "command: leuctra");
    for (int i = 0; i < argc; i++) {
        char arg[8192];
        quoted_arg(argv[i], arg, sizeof arg);
        text_word(t, arg);
    }
    text_printf(t, "\n");
    if (!s->opts->argv)
        training_tune_command_free(argv, argc);
}

static void provenance_net(const TuneSummary *s, Text *t)
{
    const TuneNetSummary *n = &s->net;
    const TuneNetworkFit *f = &n->fit;
    const TuneNetworkFitOptions *fo = &s->opts->net.fit;
    char id[17], a[32], b[32], c[32], shapes[80] = "";
    weights_id_text(&s->init, id);
    if (n->inputs & NETWORK_PATTERNS) {     /* the shapes of the pattern inputs */
        memcpy(shapes, " (shapes ", 9);
        pattern_families_format(n->families, shapes + 9, sizeof shapes - 10);
        strcat(shapes, ")");
    }
    text_printf(t, "start: %s (id %s); its linear weights, tables and priors kept, the network's skip path%s\n",
                s->opts->init ? "--init" : "the shipped weights", id,
                n->dropped_network ? "; its network dropped (--new-network)" : "");
    text_printf(t, "network: inputs %s%s, H %d, from %s; lambda %g, skip-opening %d, validation %g\n",
                training_tune_inputs_name(n->inputs), shapes, n->hidden, n->from_network ? "the start's network" : "zero",
                s->opts->data_opts.lambda, s->opts->data_opts.skip_opening, s->opts->data_opts.validation);
    text_printf(t, "network fit: policy weight %g, l2 %g, learning rate %g, batch %zu, min-visits %d; %d epochs, "
                "kept epoch %d; value head %s (--value-head %s)\n", fo->policy_weight, fo->l2, fo->learning_rate,
                fo->batch, s->opts->policy_opts.min_visits, f->num_epochs - 1, f->best_epoch,
                f->value_head_dropped ? "dropped" : "kept", training_tune_value_head_name(fo->value_head));
    if (n->measured) {
        text_printf(t, "network inputs measured (validation loss):");
        for (int i = 0; i < n->num_candidates; i++)
            text_printf(t, " %s %s%s", training_tune_inputs_name(n->candidate[i].inputs),
                        tune_loss_text(n->candidate[i].validation.total, a), i + 1 < n->num_candidates ? "," : "");
        text_printf(t, "; kept %s\n", training_tune_inputs_name(n->inputs));
    }
    text_printf(t, "value log-loss train: %s before, %s after\n", tune_loss_text(f->train_before.value, a),
                tune_loss_text(f->train_after.value, b));
    text_printf(t, "value log-loss validation: %s before, %s after\n", tune_loss_text(f->valid_before.value, a),
                tune_loss_text(f->valid_after.value, b));
    text_printf(t, "policy cross-entropy validation: %s before, %s after\n", tune_loss_text(f->valid_before.policy, a),
                tune_loss_text(f->valid_after.policy, b));
    text_printf(t, "quantized on %zu %s positions: value log-loss %s (float %s), policy %s\n", f->sample_positions,
                f->sample_is_validation ? "validation" : "training", tune_loss_text(f->sample_quantized.value, a),
                tune_loss_text(f->sample_float.value, b), tune_loss_text(f->sample_quantized.policy, c));
}

char *training_tune_provenance(const TuneSummary *s)
{
    Text t = {0};
    if (s->date[0])
        text_printf(&t, "tuned by leuctra %s (tune) on %s\n", LEUCTRA_VERSION, s->date);
    else
        text_printf(&t, "tuned by leuctra %s (tune)\n", LEUCTRA_VERSION);
    if (s->opts->note)
        text_printf(&t, "%s\n", s->opts->note);
    provenance_data(s, &t);
    if (s->opts->model == TUNE_MODEL_NET)
        provenance_net(s, &t);
    else {
        provenance_fit(s, &t);
        provenance_priors(s, &t);
    }
    provenance_command(s, &t);
    if (t.failed) {
        free(t.text);
        return NULL;
    }
    return t.text;
}
