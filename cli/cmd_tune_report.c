/*
 * cmd_tune_report.c - what `leuctra tune` prints: the report as a table for people or as one
 * JSON object for scripts (the same content; docs/TUNING.md describes it).
 */
#include "training/tune_run.h"
#include "core/pattern.h"
#include "core/utf8.h"

#include <math.h>

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

void tune_print_text(const TuneSummary *s, FILE *out)
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

/* --- JSON -------------------------------------------------------------------------------------- */

/* Paths are bytes: core/utf8.h keeps the JSON valid whatever they hold. */
static void json_string(FILE *out, const char *s) { utf8_put_json(out, s); }

/* A number, or null for NaN and infinities (JSON has neither). */
static void json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.10g", v);
    else
        fputs("null", out);
}

static void json_loss(FILE *out, const char *name, const TuneLoss *before, const TuneLoss *after,
                      const TuneLoss *baseline, bool result)
{
    fprintf(out, "\"%s\":{\"before\":", name);
    json_number(out, result ? before->result : before->target);
    fputs(",\"after\":", out);
    json_number(out, result ? after->result : after->target);
    fputs(",\"baseline\":", out);
    json_number(out, result ? baseline->result : baseline->target);
    fputc('}', out);
}

static void json_data(const TuneSummary *s, FILE *out)
{
    const TuneDataStats *d = &s->data;
    fputs("\"data\":[", out);
    for (int i = 0; i < s->games->num_sources; i++) {
        fputs(i ? ",{\"file\":" : "{\"file\":", out);
        json_string(out, s->games->source[i].name);
        fprintf(out, ",\"games\":%llu}", (unsigned long long)s->games->source[i].games);
    }
    fprintf(out, "],\"variant\":\"%s\",\"board\":\"%dx%d\",", s->game->name, s->game->width, s->game->height);
    fprintf(out, "\"games\":{\"total\":%llu,\"train\":%llu,\"validation\":%llu},", (unsigned long long)d->games,
            (unsigned long long)d->games_train, (unsigned long long)d->games_validation);
    fprintf(out, "\"positions\":{\"read\":%llu,\"opening\":%llu,\"duplicate\":%llu,\"used\":%llu,\"train\":%llu,"
            "\"validation\":%llu,\"valued\":%llu},",
            (unsigned long long)d->positions_read, (unsigned long long)d->positions_opening,
            (unsigned long long)d->positions_duplicate, (unsigned long long)tune_used_positions(s),
            (unsigned long long)d->positions_train, (unsigned long long)d->positions_validation,
            (unsigned long long)d->positions_valued);
    fprintf(out, "\"time\":{\"read_seconds\":%.4f,\"extract_seconds\":%.4f,\"replay_seconds\":%.4f,"
            "\"features_seconds\":%.4f,\"fit_seconds\":%.4f,\"threads\":%d,\"processes\":%d},",
            s->read_seconds, d->seconds, d->seconds_replay, d->seconds_features, s->fit.seconds, s->threads, s->ranks);
}

static void json_fit(const TuneSummary *s, FILE *out)
{
    const TuneFitOptions *f = &s->opts->fit_opts;
    fprintf(out, "\"options\":{\"skip_opening\":%d,\"validation\":%.10g,\"lambda\":%.10g,\"l2\":%.10g,"
            "\"max_iterations\":%d",
            s->opts->data_opts.skip_opening, s->opts->data_opts.validation, s->opts->data_opts.lambda, f->l2,
            f->max_iterations);
    char shapes[64];
    pattern_families_format(s->families, shapes, sizeof shapes);
    if (s->fit.tables)
        fprintf(out, ",\"tables\":true,\"shapes\":\"%s\",\"l2_tables\":%.10g,\"learning_rate\":%.10g,\"batch\":%zu,"
                "\"epochs\":%d,\"patience\":%d",
                shapes, f->l2_tables, f->learning_rate, f->batch, f->max_epochs, f->patience);
    fputs("},", out);
    if (s->fit.tables) {
        fprintf(out, "\"fit\":{\"method\":\"adam\",\"best_epoch\":%d,\"epochs\":[", s->fit.best_epoch);
        for (int i = 0; i < s->fit.num_epochs; i++) {
            const TuneEpoch *e = &s->fit.epoch[i];
            fprintf(out, "%s{\"epoch\":%d,\"train\":", i ? "," : "", e->epoch);
            json_number(out, e->train_loss);
            fputs(",\"validation\":", out);
            json_number(out, e->validation_loss);
            fprintf(out, ",\"learning_rate\":%.10g,\"seconds\":%.4f,\"best\":%s}", e->learning_rate, e->seconds,
                    e->best ? "true" : "false");
        }
        fputs("]},\"log_loss\":{", out);
    } else {
        fprintf(out, "\"fit\":{\"method\":\"newton\",\"iterations\":%d,\"converged\":%s,\"decrement\":",
                s->fit.iterations, s->fit.converged ? "true" : "false");
        json_number(out, s->fit.decrement);
        fputs(",\"objective\":", out);
        json_number(out, s->fit.objective);
        fputs("},\"log_loss\":{", out);
    }
    json_loss(out, "train", &s->train_before, &s->train_after, &s->train_baseline, false);
    fputc(',', out);
    json_loss(out, "validation", &s->valid_before, &s->valid_after, &s->valid_baseline, false);
    fputc(',', out);
    json_loss(out, "train_result", &s->train_before, &s->train_after, &s->train_baseline, true);
    fputc(',', out);
    json_loss(out, "validation_result", &s->valid_before, &s->valid_after, &s->valid_baseline, true);
    fputs("},", out);
}

static void json_weights(const TuneSummary *s, FILE *out)
{
    fputs("\"weights\":[", out);
    for (int j = 0; j < s->init.count; j++) {
        const TuneWeightStat *st = &s->stat[j];
        fprintf(out, "%s{\"name\":\"%s\",\"before\":", j ? "," : "", s->game->ops->feature_names[j]);
        json_number(out, s->init.w[j]);
        fputs(",\"after\":", out);
        json_number(out, s->fit.weights.w[j]);
        fputs(",\"std_error\":", out);
        json_number(out, st->std_error);
        fprintf(out, ",\"identifiable\":%s,\"reason\":\"%s\",\"mean\":",
                st->identify == TUNE_IDENTIFIED ? "true" : "false", tune_identify_text(st->identify));
        json_number(out, st->mean);
        fputs(",\"sd\":", out);
        json_number(out, st->sd);
        fputc('}', out);
    }
    fputs("],", out);
}

static void json_policy_score(FILE *out, const TunePolicyScore *score)
{
    fputs("{\"cross_entropy\":", out);
    json_number(out, score->loss);
    fputs(",\"top1\":", out);
    json_number(out, score->top1);
    fputs(",\"log_evidence\":", out);
    json_number(out, score->evidence);
    fputc('}', out);
}

static void json_score(FILE *out, const char *name, const TunePolicyScore *before, const TunePolicyScore *after)
{
    fprintf(out, "\"%s\":{\"before\":", name);
    json_policy_score(out, before);
    fputs(",\"after\":", out);
    json_policy_score(out, after);
    fputc('}', out);
}

static void json_priors(const TuneSummary *s, FILE *out)
{
    const TunePolicyFit *p = &s->policy;
    fprintf(out, "\"priors\":{\"positions_train\":%llu,\"positions_validation\":%llu,\"weights\":%u,"
            "\"best_epoch\":%d,\"seconds\":%.4f,",
            (unsigned long long)p->positions_train, (unsigned long long)p->positions_validation, p->size, p->best_epoch,
            p->seconds);
    json_score(out, "train", &p->train_before, &p->train_after);
    fputc(',', out);
    json_score(out, "validation", &p->valid_before, &p->valid_after);
    fputs(",\"epochs\":[", out);
    for (int i = 0; i < p->num_epochs; i++) {
        const TuneEpoch *e = &p->epoch[i];
        fprintf(out, "%s{\"epoch\":%d,\"train\":", i ? "," : "", e->epoch);
        json_number(out, e->train_loss);
        fputs(",\"validation\":", out);
        json_number(out, e->validation_loss);
        fprintf(out, ",\"learning_rate\":%.10g,\"best\":%s}", e->learning_rate, e->best ? "true" : "false");
    }
    fputs("]},", out);
}

void tune_print_json(const TuneSummary *s, FILE *out)
{
    fputc('{', out);
    json_data(s, out);
    json_fit(s, out);
    json_weights(s, out);
    if (s->fit_priors)
        json_priors(s, out);
    else if (s->init.policy) {
        fputs("\"priors_kept\":", out);
        json_string(out, tune_priors_kept(s));
        fputc(',', out);
    }
    fputs("\"out\":", out);
    json_string(out, s->opts->out);
    fputs("}\n", out);
}
