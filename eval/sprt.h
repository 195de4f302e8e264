/*
 * sprt.h - the sequential probability ratio test of fishtest: is the first player at least
 * elo1 stronger (H1) or at most elo0 (H0)?  The generalized log-likelihood ratio of the counts
 * so far, compared with Wald's bounds, decides after each game (or pair) whether to stop.
 *
 * The LLR is fishtest's (LLRcalc.py): the observed multinomial against its maximum-likelihood
 * fits under each hypothesis, with the hypotheses on the expected score (logistic Elo) or on
 * the t-value (normalized Elo); counts of 0 become 1e-3 first, as there.  With pentanomial
 * counts and ELO_NORMALIZED this is exactly fishtest's current SPRT.  docs/STATISTICS.md
 * explains the bounds and how to read the numbers.  Pure functions; thread-safe.
 */
#ifndef LEUCTRA_SPRT_H
#define LEUCTRA_SPRT_H

#include "eval/elo.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    ELO_LOGISTIC,     /* elo0, elo1 as logistic Elo: hypotheses on the expected score */
    ELO_NORMALIZED,   /* as normalized Elo: hypotheses on (score - 1/2) / sigma */
} EloModel;

typedef enum {
    SPRT_CONTINUE,    /* neither bound crossed: play on */
    SPRT_ACCEPT_H0,   /* LLR below the lower bound: not elo1 better (fishtest: "rejected") */
    SPRT_ACCEPT_H1,   /* LLR above the upper bound: elo1 better (fishtest: "accepted") */
} SprtDecision;

typedef struct {
    double elo0, elo1;   /* H0: elo = elo0, H1: elo = elo1, elo0 < elo1, in the model's units */
    double alpha;        /* largest chance of accepting H1 when elo <= elo0 (false positive) */
    double beta;         /* largest chance of accepting H0 when elo >= elo1 (false negative) */
    EloModel model;
} SprtTest;

/* NULL if the test is well formed, else what is wrong with it (a constant string):
 * elo0 < elo1, 0 < alpha, 0 < beta, alpha + beta < 1, all finite. */
const char *sprt_invalid(const SprtTest *test);

/* Wald's bounds: log(beta / (1 - alpha)) and log((1 - beta) / alpha). */
double sprt_lower_bound(const SprtTest *test);
double sprt_upper_bound(const SprtTest *test);

/* The generalized LLR of H1 against H0 for counts of outcomes ordered worst first, 3 of them
 * (losses, draws, wins) or 5 (pentanomial pairs[0..4]); NAN when it cannot be computed (a
 * negative count, a hypothesis outside what the outcomes can express).  A hypothesis in
 * normalized Elo refers to one game; for pairs its t-value is scaled by sqrt(2), as fishtest. */
double sprt_llr(const double *counts, int outcomes, EloModel model, double elo0, double elo1);
double sprt_llr_trinomial(const Trinomial *counts, const SprtTest *test);
double sprt_llr_pentanomial(const Pentanomial *counts, const SprtTest *test);

/* Compares the LLR with the bounds, strictly, as fishtest; NAN continues. */
SprtDecision sprt_decide(const SprtTest *test, double llr);

/* fishtest's dynamic overshoot correction (stat_util.update_SPRT, after Siegmund, Sequential
 * Analysis, corollary 8.33): the LLR jumps past a bound rather than landing on it, which makes
 * the test stricter than designed; tracking the size of its record-setting moves estimates the
 * overshoot and moves each bound inwards by it.  Feed every update, in order: samples is the
 * number of games (trinomial) or pairs (pentanomial) so far, a multiple of batch. */
typedef struct {
    int64_t batch;          /* samples between updates */
    int64_t last_samples;   /* samples at the last update */
    double ref0, m0, sq0;   /* lowest LLR so far; sum and sum of squares of its new-low moves */
    double ref1, m1, sq1;   /* the same for new highs */
    bool valid;             /* false once an update broke the contract: no correction then */
} SprtOvershoot;

void sprt_overshoot_init(SprtOvershoot *o, int64_t batch);
void sprt_overshoot_update(SprtOvershoot *o, int64_t samples, double llr);
/* The corrections, both >= 0: the lower bound rises by *lower, the upper falls by *upper. */
void sprt_overshoot_corrections(const SprtOvershoot *o, double *lower, double *upper);
SprtDecision sprt_decide_corrected(const SprtTest *test, const SprtOvershoot *o, double llr);

#endif
