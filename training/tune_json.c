/*
 * tune_json.c - a tune run's report as one JSON object (tune_run.h: training_tune_json), for
 * scripts (`leuctra tune --json`) and for train's DIR/genK/tune.json: the data, the options, the
 * fit epoch by epoch, the losses, every weight with its standard error, the priors.
 */
#include "tune_run.h"

#include "core/pattern.h"
#include "core/utf8.h"

#include <math.h>

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

/* --- --model net ------------------------------------------------------------------------------- */

static void json_net_loss(FILE *out, const TuneNetworkLoss *l)
{
    fputs("{\"value\":", out);
    json_number(out, l->value);
    fputs(",\"policy\":", out);
    json_number(out, l->policy);
    fputs(",\"total\":", out);
    json_number(out, l->total);
    fputc('}', out);
}

static void json_net_options(const TuneSummary *s, FILE *out)
{
    const TuneOptions *o = s->opts;
    const TuneNetworkFitOptions *f = &o->net.fit;
    char shapes[64];
    pattern_families_format(s->net.families, shapes, sizeof shapes);
    fprintf(out, "\"options\":{\"model\":\"net\",\"skip_opening\":%d,\"validation\":%.10g,\"lambda\":%.10g,"
            "\"hidden\":%d,\"inputs\":\"%s\",\"inputs_measured\":%s,\"shapes\":\"%s\",\"value_head\":\"%s\","
            "\"policy_weight\":%.10g,\"l2_net\":%.10g,\"learning_rate\":%.10g,\"batch\":%zu,\"epochs\":%d,"
            "\"patience\":%d,\"min_visits\":%d},",
            o->data_opts.skip_opening, o->data_opts.validation, o->data_opts.lambda, s->net.hidden,
            training_tune_inputs_name(s->net.inputs), s->net.measured ? "true" : "false", shapes,
            training_tune_value_head_name(f->value_head), f->policy_weight, f->l2,
            f->learning_rate, f->batch, f->max_epochs, f->patience, o->policy_opts.min_visits);
}

static void json_net_epochs(const TuneNetworkFit *fit, FILE *out)
{
    fprintf(out, "\"fit\":{\"best_epoch\":%d,\"epochs\":[", fit->best_epoch);
    for (int i = 0; i < fit->num_epochs; i++) {
        const TuneNetworkEpoch *e = &fit->epoch[i];
        fprintf(out, "%s{\"epoch\":%d,\"train\":", i ? "," : "", e->epoch);
        json_net_loss(out, &e->train);
        fputs(",\"validation\":", out);
        json_net_loss(out, &e->validation);
        fprintf(out, ",\"learning_rate\":%.10g,\"seconds\":%.4f,\"best\":%s}", e->learning_rate, e->seconds,
                e->best ? "true" : "false");
    }
    fputs("]},", out);
}

static void json_net_before_after(FILE *out, const char *name, const TuneNetworkLoss *before,
                                  const TuneNetworkLoss *after)
{
    fprintf(out, "\"%s\":{\"before\":", name);
    json_net_loss(out, before);
    fputs(",\"after\":", out);
    json_net_loss(out, after);
    fputc('}', out);
}

static void json_net(const TuneSummary *s, FILE *out)
{
    const TuneNetSummary *n = &s->net;
    const TuneNetworkFit *f = &n->fit;
    fprintf(out, "\"network\":{\"inputs\":\"%s\",\"hidden\":%d,\"start\":\"%s\",\"value_head\":\"%s\","
            "\"value_loss_with_head\":%.6f,\"value_loss_without_head\":%.6f,\"positions_policy\":{\"train\":%llu,\"validation\":%llu},"
            "\"candidates\":[",
            training_tune_inputs_name(n->inputs), n->hidden, n->from_network ? "network" : "zero",
            f->value_head_dropped ? "dropped" : "kept", isfinite(f->value_with) ? f->value_with : 0.0,
            isfinite(f->value_without) ? f->value_without : 0.0,
            (unsigned long long)n->policy_train, (unsigned long long)n->policy_validation);
    for (int i = 0; i < n->num_candidates; i++) {
        const TuneNetCandidate *c = &n->candidate[i];
        fprintf(out, "%s{\"inputs\":\"%s\",\"train\":", i ? "," : "", training_tune_inputs_name(c->inputs));
        json_net_loss(out, &c->train);
        fputs(",\"validation\":", out);
        json_net_loss(out, &c->validation);
        fprintf(out, ",\"best_epoch\":%d,\"epochs\":%d,\"seconds\":%.4f,\"kept\":%s}", c->best_epoch, c->epochs,
                c->seconds, c->inputs == n->inputs ? "true" : "false");
    }
    fputs("],", out);
    json_net_epochs(f, out);
    fputs("\"loss\":{", out);
    json_net_before_after(out, "train", &f->train_before, &f->train_after);
    fputc(',', out);
    json_net_before_after(out, "validation", &f->valid_before, &f->valid_after);
    fprintf(out, ",\"quantized\":{\"positions\":%zu,\"set\":\"%s\",\"float\":", f->sample_positions,
            f->sample_is_validation ? "validation" : "train");
    json_net_loss(out, &f->sample_float);
    fputs(",\"quantized\":", out);
    json_net_loss(out, &f->sample_quantized);
    fputs("}}},\"log_loss\":{", out);
    const TuneLoss none = {NAN, NAN};
    json_loss(out, "train", &s->train_before, &s->train_after, &none, false);
    fputc(',', out);
    json_loss(out, "validation", &s->valid_before, &s->valid_after, &none, false);
    fputs("},", out);
}

void training_tune_json(const TuneSummary *s, FILE *out)
{
    fputc('{', out);
    json_data(s, out);
    if (s->opts->model == TUNE_MODEL_NET) {
        json_net_options(s, out);
        json_net(s, out);
        fputs("\"out\":", out);
        json_string(out, s->opts->out);
        fputs("}\n", out);
        return;
    }
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
