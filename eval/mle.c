/*
 * mle.c - constrained maximum-likelihood multinomials for the generalized SPRT (mle.h).
 *
 * Both estimates come down to the secular equation f(x) = sum_i p_i b_i / (1 + x b_i) = 0.
 * On the interval between its poles, (-1/max b, -1/min b), every 1 + x b_i is positive, f falls
 * strictly (f' = -sum p_i b_i^2 / (1 + x b_i)^2 < 0) from +infinity to -infinity, so the root
 * exists, is unique and is the only one giving positive probabilities.  fishtest finds it with
 * scipy's brentq; here Newton steps inside a shrinking bracket, falling back to bisection when
 * a step leaves it, converge to the last bit in a few iterations.
 */
#include "eval/mle.h"

#include <math.h>

static void secular_value(const double *b, const double *p, int k, double x, double *f, double *df)
{
    *f = 0;
    *df = 0;
    for (int i = 0; i < k; i++) {
        double d = 1 + x * b[i];
        *f += p[i] * b[i] / d;
        *df -= p[i] * b[i] * b[i] / (d * d);
    }
}

bool mle_secular_root(const double *b, const double *p, int k, double *x)
{
    if (k < 2 || k > MLE_MAX_OUTCOMES)
        return false;
    double bmin = b[0], bmax = b[0];
    for (int i = 0; i < k; i++) {
        if (!(p[i] > 0) || !isfinite(b[i]))
            return false;
        bmin = fmin(bmin, b[i]);
        bmax = fmax(bmax, b[i]);
    }
    if (!(bmin < 0 && bmax > 0))
        return false;
    double lo = -1 / bmax, hi = -1 / bmin;   /* f(lo+) = +inf, f(hi-) = -inf */
    double at = 0;                           /* lo < 0 < hi */
    for (int iter = 0; iter < 400; iter++) {
        double f, df;
        secular_value(b, p, k, at, &f, &df);
        if (f == 0)
            break;
        if (f > 0)
            lo = at;
        else
            hi = at;
        double next = at - f / df;
        if (!(next > lo && next < hi))
            next = lo + (hi - lo) / 2;
        if (next == at || next == lo || next == hi)
            break;   /* the bracket is down to adjacent doubles */
        at = next;
    }
    *x = at;
    return true;
}

bool mle_expected(const double *a, const double *p, int k, double mean, double *q)
{
    double b[MLE_MAX_OUTCOMES], x;
    if (k < 2 || k > MLE_MAX_OUTCOMES)
        return false;
    for (int i = 0; i < k; i++)
        b[i] = a[i] - mean;
    if (!mle_secular_root(b, p, k, &x))
        return false;
    for (int i = 0; i < k; i++)
        q[i] = p[i] / (1 + x * b[i]);
    return true;
}

static void mean_and_sd(const double *a, const double *q, int k, double *mean, double *sd)
{
    double m = 0, v = 0;
    for (int i = 0; i < k; i++)
        m += q[i] * a[i];
    for (int i = 0; i < k; i++)
        v += q[i] * (a[i] - m) * (a[i] - m);
    *mean = m;
    *sd = sqrt(v);
}

/* One round of section 4.1: with mu and sigma those of the current estimate, the stationarity
 * condition of the t-value-constrained likelihood is again a secular equation, in the shifted
 * outcomes b_i = a_i - ref - t sigma (1 + ((a_i - mu) / sigma)^2) / 2. */
static bool t_value_round(const double *a, const double *p, int k, double ref, double t, double *q)
{
    double mu, sigma, b[MLE_MAX_OUTCOMES], x;
    mean_and_sd(a, q, k, &mu, &sigma);
    if (!(sigma > 0))
        return false;
    for (int i = 0; i < k; i++) {
        double z = (mu - a[i]) / sigma;
        b[i] = a[i] - ref - t * sigma * (1 + z * z) / 2;
    }
    if (!mle_secular_root(b, p, k, &x))
        return false;
    for (int i = 0; i < k; i++)
        q[i] = p[i] / (1 + x * b[i]);
    return true;
}

/* Rounds from the estimate in q until no probability moves by 1e-9 or `rounds` are done;
 * false if one has no root. */
static bool t_value_rounds(const double *a, const double *p, int k, double ref, double t, double *q, int rounds)
{
    for (int round = 0; round < rounds; round++) {
        double previous[MLE_MAX_OUTCOMES], moved = 0;
        for (int i = 0; i < k; i++)
            previous[i] = q[i];
        if (!t_value_round(a, p, k, ref, t, q))
            return false;
        for (int i = 0; i < k; i++)
            moved = fmax(moved, fabs(q[i] - previous[i]));
        if (moved < 1e-9)
            break;
    }
    return true;
}

/* The continuation's step in t and its rounds a step: every hypothesis of -1000 to +1000
 * normalized Elo, pairs or games, on counts from 1 to thousands reached its t-value exactly
 * (tests/unit/test_elo.c checks a few). */
static const double CONTINUATION_STEP = 0.25;
enum { CONTINUATION_ROUNDS = 100 };

bool mle_t_value(const double *a, const double *p, int k, double ref, double t, double *q)
{
    if (k < 2 || k > MLE_MAX_OUTCOMES)
        return false;
    for (int i = 0; i < k; i++)
        q[i] = 1.0 / k;
    /* fishtest's limits exactly: they decide the result when the iteration has not settled. */
    if (t_value_rounds(a, p, k, ref, t, q, 10))
        return true;
    /* A round without a root: t is too far from the uniform start's t-value for one round to
     * reach (normalized elo1=300 on pairs is), and fishtest stops with an error.  The same fixed
     * point is followed from t = 0 instead, in steps of t, each started from the last estimate. */
    int steps = (int)ceil(fabs(t) / CONTINUATION_STEP);
    for (int i = 0; i < k; i++)
        q[i] = 1.0 / k;
    for (int step = 1; step <= steps; step++)
        if (!t_value_rounds(a, p, k, ref, t * step / steps, q, CONTINUATION_ROUNDS))
            return false;
    return true;
}
