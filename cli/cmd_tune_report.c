/*
 * cmd_tune_report.c - what `leuctra tune` prints for people: the report as a table (the same
 * content as the JSON object of training/tune_json.c; docs/TUNING.md describes both).
 */
#include "tune_cli.h"
#include "core/pattern.h"

#include <math.h>
#include <string.h>

static double percent(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0; }

/* --- the table --------------------------------------------------------------------------------- */

static void print_loss_row(FILE *out, const char *name, double before, double after, double baseline)
{
    char a[32], b[32], c[32];
    fprintf(out, "  %-24s %9s %9s %9s\n", name, tune_loss_text(before, a), tune_loss_text(after, b),
            tune_loss_text(baseline, c));
}

static void print_losses(const TuneSummary *s, FILE *out)
{
    fprintf(out, "log-loss (nats/position)     before     after  baseline\n");
    print_loss_row(out, "train", s->train_before.target, s->train_after.target, s->train_baseline.target);
    print_loss_row(out, "validation", s->valid_before.target, s->valid_after.target, s->valid_baseline.target);
    if (s->opts->data_opts.lambda < 1) {
        print_loss_row(out, "train, result only", s->train_before.result, s->train_after.result,
                       s->train_baseline.result);
        print_loss_row(out, "validation, result only", s->valid_before.result, s->valid_after.result,
                       s->valid_baseline.result);
    }
}

static void print_epochs(const TuneSummary *s, FILE *out)
{
    fprintf(out, "epoch     train  validation      rate   seconds\n");
    for (int i = 0; i < s->fit.num_epochs; i++) {
        const TuneEpoch *e = &s->fit.epoch[i];
        char a[32], b[32];
        fprintf(out, "  %3d  %8s  %10s  %8.2g  %8.1f%s\n", e->epoch, tune_loss_text(e->train_loss, a),
                tune_loss_text(e->validation_loss, b), e->learning_rate, e->seconds,
                e->epoch == s->fit.best_epoch ? "   kept" : "");
    }
}

static void print_priors(const TuneSummary *s, FILE *out)
{
    const TunePolicyFit *p = &s->policy;
    fprintf(out, "priors      %llu positions (%llu train, %llu validation), %u weights, %d epoch%s (best %d), %.2f s\n",
            (unsigned long long)(p->positions_train + p->positions_validation), (unsigned long long)p->positions_train,
            (unsigned long long)p->positions_validation, p->size, p->num_epochs - 1, p->num_epochs == 2 ? "" : "s",
            p->best_epoch, p->seconds);
    fprintf(out, "priors (per position)        before     after\n");
    const struct { const char *name; double before, after; } rows[] = {
        {"cross-entropy, train", p->train_before.loss, p->train_after.loss},
        {"cross-entropy, validation", p->valid_before.loss, p->valid_after.loss},
        {"top-1, train", p->train_before.top1, p->train_after.top1},
        {"top-1, validation", p->valid_before.top1, p->valid_after.top1},
        {"log-evidence, train", p->train_before.evidence, p->train_after.evidence},
        {"log-evidence, validation", p->valid_before.evidence, p->valid_after.evidence},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char a[32], b[32];
        fprintf(out, "  %-25s %9s %9s\n", rows[i].name, tune_loss_text(rows[i].before, a), tune_loss_text(rows[i].after, b));
    }
}

static void print_weights(const TuneSummary *s, FILE *out)
{
    fprintf(out, "weights                before      after  std.error   feature mean / sd\n");
    for (int j = 0; j < s->init.count; j++) {
        const TuneWeightStat *st = &s->stat[j];
        char se[32];
        if (isnan(st->std_error))
            snprintf(se, sizeof se, "-");
        else
            snprintf(se, sizeof se, "%.4f", st->std_error);
        fprintf(out, "  %-18s %9.4f  %9.4f  %9s   %8.4f / %.4f", s->game->ops->feature_names[j], s->init.w[j],
                s->fit.weights.w[j], se, st->mean, st->sd);
        if (st->identify != TUNE_IDENTIFIED)
            fprintf(out, "   NOT IDENTIFIABLE: %s", tune_identify_text(st->identify));
        fputc('\n', out);
    }
}

/* --- --model net ------------------------------------------------------------------------------- */

static void print_net_loss_row(FILE *out, const char *name, double before, double after)
{
    char a[32], b[32];
    fprintf(out, "  %-28s %9s %9s\n", name, tune_loss_text(before, a), tune_loss_text(after, b));
}

static void print_net_epochs(const TuneNetworkFit *f, FILE *out)
{
    fprintf(out, "epoch   value train  validation   policy train  validation      rate   seconds\n");
    for (int i = 0; i < f->num_epochs; i++) {
        const TuneNetworkEpoch *e = &f->epoch[i];
        char a[32], b[32], c[32], d[32];
        fprintf(out, "  %3d  %11s  %10s  %13s  %10s  %8.2g  %8.1f%s\n", e->epoch, tune_loss_text(e->train.value, a),
                tune_loss_text(e->validation.value, b), tune_loss_text(e->train.policy, c),
                tune_loss_text(e->validation.policy, d), e->learning_rate, e->seconds,
                e->epoch == f->best_epoch ? "   kept" : "");
    }
}

static void print_net(const TuneSummary *s, FILE *out)
{
    const TuneNetSummary *n = &s->net;
    const TuneNetworkFit *f = &n->fit;
    const TuneNetworkFitOptions *fo = &s->opts->net.fit;
    char shapes[80] = "", a[32], b[32];
    if (n->inputs & NETWORK_PATTERNS) {     /* the shapes of the pattern inputs */
        memcpy(shapes, " (shapes ", 9);
        pattern_families_format(n->families, shapes + 9, sizeof shapes - 10);
        strcat(shapes, ")");
    }
    fprintf(out, "network     inputs %s%s, H %d, from %s; %llu train and %llu validation positions with a "
            "policy target\n", training_tune_inputs_name(n->inputs), shapes, n->hidden,
            n->from_network ? "the start's network" : "zero", (unsigned long long)n->policy_train,
            (unsigned long long)n->policy_validation);
    for (int i = 0; n->measured && i < n->num_candidates; i++) {
        const TuneNetCandidate *c = &n->candidate[i];
        fprintf(out, "inputs      %-8s validation loss %s (value %s), %d epochs (best %d), %.2f s%s\n",
                training_tune_inputs_name(c->inputs), tune_loss_text(c->validation.total, a),
                tune_loss_text(c->validation.value, b), c->epochs, c->best_epoch, c->seconds,
                c->inputs == n->inputs ? "   kept" : "");
    }
    fprintf(out, "fit         %d epoch%s (best %d), %.2f s; lambda %g, policy weight %g, l2 %g, rate %g, batch %zu\n",
            f->num_epochs - 1, f->num_epochs == 2 ? "" : "s", f->best_epoch, f->seconds, s->opts->data_opts.lambda,
            fo->policy_weight, fo->l2, fo->learning_rate, fo->batch);
    print_net_epochs(f, out);
    fprintf(out, "network losses (per position)     before     after\n");
    print_net_loss_row(out, "value log-loss, train", f->train_before.value, f->train_after.value);
    print_net_loss_row(out, "value log-loss, validation", f->valid_before.value, f->valid_after.value);
    print_net_loss_row(out, "policy, train", f->train_before.policy, f->train_after.policy);
    print_net_loss_row(out, "policy, validation", f->valid_before.policy, f->valid_after.policy);
    fprintf(out, "value head  %s: validation value log-loss %s with it, %s without ",
            f->value_head_dropped ? "dropped, the network gives priors only" : "kept",
            tune_loss_text(f->value_with, a), tune_loss_text(f->value_without, b));
    if (fo->value_head == TUNE_VALUE_HEAD_AUTO)
        fprintf(out, "(kept where it saves %g)\n", TUNE_NETWORK_VALUE_GAIN);
    else
        fprintf(out, "(--value-head %s)\n", training_tune_value_head_name(fo->value_head));
    fprintf(out, "quantized   on %zu %s positions: value log-loss %s (float %s)", f->sample_positions,
            f->sample_is_validation ? "validation" : "training", tune_loss_text(f->sample_quantized.value, a),
            tune_loss_text(f->sample_float.value, b));
    fprintf(out, ", policy %s (float %s)\n", tune_loss_text(f->sample_quantized.policy, a),
            tune_loss_text(f->sample_float.policy, b));
}

void cli_tune_print_text(const TuneSummary *s, FILE *out)
{
    const TuneDataStats *d = &s->data;
    for (int i = 0; i < s->games->num_sources; i++)
        fprintf(out, "data        %s: %llu games\n", s->games->source[i].name,
                (unsigned long long)s->games->source[i].games);
    fprintf(out, "games       %llu: %llu train, %llu validation\n", (unsigned long long)d->games,
            (unsigned long long)d->games_train, (unsigned long long)d->games_validation);
    fprintf(out, "positions   %llu read: %llu in openings, %llu repeats, %llu used (%llu train, %llu validation); "
            "%.0f%% with a search value\n",
            (unsigned long long)d->positions_read, (unsigned long long)d->positions_opening,
            (unsigned long long)d->positions_duplicate, (unsigned long long)tune_used_positions(s),
            (unsigned long long)d->positions_train, (unsigned long long)d->positions_validation,
            percent(d->positions_valued, tune_used_positions(s)));
    fprintf(out, "time        reading %.2f s; extraction %.2f s (replay %.2f s, features %.2f s): %.0f positions/s; "
            "%d thread%s",
            s->read_seconds, d->seconds, d->seconds_replay, d->seconds_features,
            d->seconds > 0 ? (double)tune_used_positions(s) / d->seconds : 0, s->threads, s->threads == 1 ? "" : "s");
    if (s->ranks > 1)
        fprintf(out, " x %d processes (exchanges %.2f s)", s->ranks, d->seconds_exchange);
    fputc('\n', out);
    if (s->opts->model == TUNE_MODEL_NET) {
        print_net(s, out);
        fprintf(out, "wrote %s\n", cli_output_is_stdout(s->opts->out) ? "stdout" : s->opts->out);
        return;
    }
    const TuneFitOptions *f = &s->opts->fit_opts;
    if (s->fit.tables) {
        char shapes[64];
        pattern_families_format(s->families, shapes, sizeof shapes);
        fprintf(out, "fit         tables and weights: %d epoch%s (best %d), %.2f s; shapes %s, lambda %g, l2 %g, "
                "l2-tables %g, rate %g, batch %zu\n",
                s->fit.num_epochs - 1, s->fit.num_epochs == 2 ? "" : "s", s->fit.best_epoch, s->fit.seconds,
                shapes, s->opts->data_opts.lambda, f->l2, f->l2_tables, f->learning_rate, f->batch);
        print_epochs(s, out);
    } else {
        fprintf(out, "fit         %d Newton step%s, %s (decrement %.2g), %.2f s; lambda %g, l2 %g%s\n", s->fit.iterations,
                s->fit.iterations == 1 ? "" : "s", s->fit.converged ? "converged" : "NOT CONVERGED", s->fit.decrement,
                s->fit.seconds, s->opts->data_opts.lambda, f->l2,
                s->init_tables_fixed ? "; the start's pattern tables held fixed" : "");
    }
    print_losses(s, out);
    print_weights(s, out);
    if (s->fit_priors)
        print_priors(s, out);
    else if (s->init.policy)
        fprintf(out, "priors      the start's, kept: %s\n", tune_priors_kept(s));
    fprintf(out, "wrote %s\n", cli_output_is_stdout(s->opts->out) ? "stdout" : s->opts->out);
}
