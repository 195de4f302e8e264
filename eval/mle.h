/*
 * mle.h - the constrained maximum-likelihood estimates behind the generalized SPRT (sprt.h):
 * the multinomial distribution on fixed outcomes a[0..k-1] closest, in likelihood, to an
 * observed one p[0..k-1] among those with a given mean, or with a given t-value.
 *
 * After Michel Van den Bergh, "Maximum likelihood estimation of a multinomial distribution with
 * given expectation value" (support_MLE_multinomial.pdf, proposition 1.1) and "Comments on
 * normalized Elo" (normalized_elo_practical.pdf, section 4.1), as fishtest implements them in
 * server/fishtest/stats/LLRcalc.py (MLE_expected, MLE_t_value).  Pure functions; thread-safe.
 */
#ifndef LEUCTRA_MLE_H
#define LEUCTRA_MLE_H

#include <stdbool.h>

/* The most outcomes any count vector here has (pentanomial). */
enum { MLE_MAX_OUTCOMES = 5 };

/* The root x of sum_i p[i] b[i] / (1 + x b[i]) = 0 between the poles -1/max(b) and
 * -1/min(b).  Needs 2 <= k <= MLE_MAX_OUTCOMES, every p[i] > 0 and b of both signs; false
 * otherwise. */
bool mle_secular_root(const double *b, const double *p, int k, double *x);

/* The distribution q on the outcomes a maximizing sum_i p[i] log q[i] subject to
 * sum_i q[i] a[i] = mean: q[i] = p[i] / (1 + x (a[i] - mean)) with x the secular root.
 * False unless min(a) < mean < max(a) and every p[i] > 0. */
bool mle_expected(const double *a, const double *p, int k, double mean, double *q);

/* The same subject to (mean(q) - ref) / sd(q) = t, by fishtest's fixed-point iteration: start
 * from the uniform distribution, at most 10 rounds, stopping once no probability moves by
 * 1e-9.  Where a round's secular equation has no root (fishtest fails there), the iteration is
 * continued from t = 0 to t in steps of 0.25; false only if that meets a round without a root. */
bool mle_t_value(const double *a, const double *p, int k, double ref, double t, double *q);

#endif
