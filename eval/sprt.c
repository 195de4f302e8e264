/*
 * sprt.c - fishtest's generalized log-likelihood ratio, Wald's bounds and the stop decision
 * (sprt.h; docs/STATISTICS.md).
 *
 * The counts become an empirical distribution p on the per-game scores of the outcomes
 * (0, 1/2, 1, or a pair's mean 0, 1/4, ..., 1).  Under each hypothesis the most likely
 * distribution q_j consistent with it is found (mle.h), and
 *     LLR = N sum_i p_i (log q1_i - log q0_i),
 * N the number of games or pairs: the log of the ratio of the two maximized likelihoods.
 */
#include "eval/sprt.h"

#include "eval/mle.h"

#include <math.h>
#include <stddef.h>

/* fishtest's LLRcalc.regularize: a count of 0 becomes 1e-3, so every outcome keeps a positive
 * probability and every logarithm a finite value; its effect vanishes as counts grow. */
static const double EMPTY_COUNT = 1e-3;

const char *sprt_invalid(const SprtTest *t)
{
    if (!isfinite(t->elo0) || !isfinite(t->elo1) || !(t->elo0 < t->elo1))
        return "elo0 must be below elo1";
    if (!(t->alpha > 0 && t->beta > 0 && t->alpha + t->beta < 1))
        return "alpha and beta must be positive with alpha + beta below 1";
    return NULL;
}

double sprt_lower_bound(const SprtTest *t)
{
    return log(t->beta / (1 - t->alpha));
}

double sprt_upper_bound(const SprtTest *t)
{
    return log((1 - t->beta) / t->alpha);
}

/* Counts, worst outcome first, as fishtest's results_to_pdf: outcomes a_i = i / (k - 1) and
 * probabilities p_i; returns the (regularized) number of samples, or NAN for bad counts. */
static double empirical(const double *counts, int k, double *a, double *p)
{
    double n = 0;
    for (int i = 0; i < k; i++) {
        if (!(counts[i] >= 0) || !isfinite(counts[i]))
            return NAN;
        p[i] = counts[i] == 0 ? EMPTY_COUNT : counts[i];
        n += p[i];
        a[i] = (double)i / (k - 1);
    }
    for (int i = 0; i < k; i++)
        p[i] /= n;
    return n;
}

static bool fit_hypothesis(const double *a, const double *p, int k, EloModel model, double elo, double *q)
{
    if (model == ELO_LOGISTIC)
        return mle_expected(a, p, k, elo_to_score(elo), q);
    /* The t-value of a pair's mean score is sqrt(2) times a game's, if the games of a pair were
     * independent: normalized Elo is defined per game, the pentanomial sample is per pair. */
    double t = elo / NELO_PER_T * (k == 5 ? sqrt(2.0) : 1.0);
    return mle_t_value(a, p, k, 0.5, t, q);
}

double sprt_llr(const double *counts, int outcomes, EloModel model, double elo0, double elo1)
{
    double a[MLE_MAX_OUTCOMES], p[MLE_MAX_OUTCOMES], q0[MLE_MAX_OUTCOMES], q1[MLE_MAX_OUTCOMES];
    if (outcomes != 3 && outcomes != 5)
        return NAN;
    double n = empirical(counts, outcomes, a, p);
    if (isnan(n) || !fit_hypothesis(a, p, outcomes, model, elo0, q0) ||
        !fit_hypothesis(a, p, outcomes, model, elo1, q1))
        return NAN;
    double per_sample = 0;
    for (int i = 0; i < outcomes; i++)
        per_sample += p[i] * (log(q1[i]) - log(q0[i]));
    return n * per_sample;
}

double sprt_llr_trinomial(const Trinomial *c, const SprtTest *t)
{
    double counts[3] = {(double)c->losses, (double)c->draws, (double)c->wins};
    return sprt_llr(counts, 3, t->model, t->elo0, t->elo1);
}

double sprt_llr_pentanomial(const Pentanomial *c, const SprtTest *t)
{
    double counts[5];
    for (int i = 0; i < 5; i++)
        counts[i] = (double)c->pairs[i];
    return sprt_llr(counts, 5, t->model, t->elo0, t->elo1);
}

static SprtDecision decide_between(double llr, double lower, double upper)
{
    if (llr < lower)
        return SPRT_ACCEPT_H0;
    if (llr > upper)
        return SPRT_ACCEPT_H1;
    return SPRT_CONTINUE;
}

SprtDecision sprt_decide(const SprtTest *t, double llr)
{
    return decide_between(llr, sprt_lower_bound(t), sprt_upper_bound(t));
}

/* --- dynamic overshoot, transcribed from fishtest's stat_util.update_SPRT ------------------- */

void sprt_overshoot_init(SprtOvershoot *o, int64_t batch)
{
    *o = (SprtOvershoot){.batch = batch > 0 ? batch : 1, .valid = true};
}

void sprt_overshoot_update(SprtOvershoot *o, int64_t samples, double llr)
{
    if (!o->valid)
        return;
    if (samples % o->batch != 0 || samples < o->last_samples || isnan(llr)) {
        o->valid = false;   /* lost or partial updates: the estimate would be biased */
        return;
    }
    if (samples == o->last_samples + o->batch) {
        if (llr < o->ref0) {
            double delta = llr - o->ref0;
            o->m0 += delta;
            o->sq0 += delta * delta;
            o->ref0 = llr;
        }
        if (llr > o->ref1) {
            double delta = llr - o->ref1;
            o->m1 += delta;
            o->sq1 += delta * delta;
            o->ref1 = llr;
        }
    } else if (samples != o->last_samples) {
        o->ref0 = llr;   /* skipped updates: restart the records from here, as fishtest */
        o->ref1 = llr;
    }
    o->last_samples = samples;
}

void sprt_overshoot_corrections(const SprtOvershoot *o, double *lower, double *upper)
{
    *lower = o->valid && o->m0 != 0 ? -o->sq0 / o->m0 / 2 : 0;
    *upper = o->valid && o->m1 != 0 ? o->sq1 / o->m1 / 2 : 0;
}

SprtDecision sprt_decide_corrected(const SprtTest *t, const SprtOvershoot *o, double llr)
{
    double lower, upper;
    sprt_overshoot_corrections(o, &lower, &upper);
    return decide_between(llr, sprt_lower_bound(t) + lower, sprt_upper_bound(t) - upper);
}
