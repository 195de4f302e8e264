/*
 * tune_stats.c - what the tuner reports about a fit: mean log-losses (and the baseline of always
 * predicting the mean), each weight's standard error, and which weights the data cannot identify.
 *
 * Standard errors are the square roots of the diagonal of the inverse Fisher information
 * I = sum p (1 - p) f f^T, the Hessian of the unpenalised log-likelihood at the fitted weights.
 * To judge singularity on one scale for every feature, I is first scaled to a unit diagonal
 * (C = S I S, S = diag(1/sqrt(I_jj))), whose eigenvalues lie in [0, F]; an eigenvalue below
 * NULL_EIGENVALUE marks a direction the data do not determine, and a feature whose unit vector
 * has more than NULL_SHARE of its length in such directions is flagged collinear.
 */
#include "tune_sums.h"

#include <gsl/gsl_eigen.h>
#include <math.h>

/* An eigenvalue of the scaled information below this is a near-null direction: it would multiply
 * the standard errors along it by more than 10^4 over those of uncorrelated features, and it is
 * still far above rounding (about F x 1e-16) for exactly dependent features. */
static const double NULL_EIGENVALUE = 1e-8;
/* A feature with more than this share of its squared length in near-null directions (a component
 * above 0.1) is not identifiable. */
static const double NULL_SHARE = 0.01;
/* Variance this small relative to the feature's square mean is no variance (rounding only). */
static const double NO_VARIANCE = 1e-10;

const char *tune_identify_text(TuneIdentify id)
{
    static const char *const text[] = {"", "always 0", "constant", "collinear"};
    return text[id];
}

TuneLoss tune_loss(const TuneSet *set, const Weights *w, int threads)
{
    TuneSums s;
    uint64_t n = tune_set_total(set);
    if (n == 0 || !tune_sums(set, w->w, SUM_LOSS, threads, &s))
        return (TuneLoss){NAN, NAN};
    return (TuneLoss){s.loss / (double)n, s.result_loss / (double)n};
}

/* Mean cross-entropy of the constant prediction p against n targets that sum to `sum`:
 * -(sum log p + (n - sum) log(1 - p)) / n, from the block sums (tune_sums.h), so that it is the
 * same whatever the threads or processes. */
static double constant_loss(double sum, uint64_t n, double p)
{
    return -(sum * log(p) + ((double)n - sum) * log1p(-p)) / (double)n;
}

static double clamped_mean(double sum, uint64_t n)
{
    double p = n ? sum / (double)n : 0.5;
    return p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
}

TuneLoss tune_baseline_loss(const TuneSet *train, const TuneSet *set)
{
    TuneSums t, s;
    const double zero[MAX_FEATURES] = {0};
    uint64_t n = tune_set_total(set), m = tune_set_total(train);
    if (n == 0 || !tune_sums(train, zero, SUM_TARGETS, 0, &t) || !tune_sums(set, zero, SUM_TARGETS, 0, &s))
        return (TuneLoss){NAN, NAN};
    return (TuneLoss){constant_loss(s.target_sum, n, clamped_mean(t.target_sum, m)),
                      constant_loss(s.result_sum, n, clamped_mean(t.result_sum, m))};
}

/* Means, standard deviations and the no-variance flags. */
static void moments(const TuneSums *s, uint64_t count, int n, TuneWeightStat *out)
{
    for (int j = 0; j < n; j++) {
        double mean = s->sum[j] / (double)count, var = s->sum_sq[j] / (double)count - mean * mean;
        out[j].mean = mean;
        out[j].sd = var > 0 ? sqrt(var) : 0;
        if (s->sum_sq[j] == 0)
            out[j].identify = TUNE_ALWAYS_ZERO;
        else if (var <= NO_VARIANCE * mean * mean)
            out[j].identify = TUNE_CONSTANT;
    }
}

/* The scaled information, its eigen-decomposition, the null shares and the standard errors. */
static bool information(const TuneSums *s, int n, TuneWeightStat *out)
{
    double c[MAX_FEATURES * MAX_FEATURES], scale[MAX_FEATURES], eval[MAX_FEATURES], evec[MAX_FEATURES * MAX_FEATURES];
    for (int j = 0; j < n; j++) {
        double d = s->hessian[packed_index(n, j, j)];
        scale[j] = d > 0 ? 1 / sqrt(d) : 0;
    }
    for (int j = 0; j < n; j++)
        for (int k = j; k < n; k++)
            c[j * n + k] = c[k * n + j] = s->hessian[packed_index(n, j, k)] * scale[j] * scale[k];
    gsl_matrix_view cm = gsl_matrix_view_array(c, (size_t)n, (size_t)n);
    gsl_matrix_view vm = gsl_matrix_view_array(evec, (size_t)n, (size_t)n);
    gsl_vector_view ev = gsl_vector_view_array(eval, (size_t)n);
    gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc((size_t)n);
    if (!ws || gsl_eigen_symmv(&cm.matrix, &ev.vector, &vm.matrix, ws) != 0) {
        gsl_eigen_symmv_free(ws);
        return false;
    }
    gsl_eigen_symmv_free(ws);
    for (int j = 0; j < n; j++) {
        double null_share = 0, variance = 0;
        for (int k = 0; k < n; k++) {
            double v = evec[j * n + k];     /* row j of the eigenvector matrix: feature j's components */
            if (eval[k] < NULL_EIGENVALUE)
                null_share += v * v;
            else
                variance += v * v / eval[k];
        }
        out[j].null_share = null_share > 1 ? 1 : null_share;
        if (out[j].identify == TUNE_IDENTIFIED && null_share > NULL_SHARE)
            out[j].identify = TUNE_COLLINEAR;
        out[j].std_error = out[j].identify == TUNE_IDENTIFIED ? scale[j] * sqrt(variance) : NAN;
    }
    return true;
}

bool tune_weight_stats(const TuneSet *train, const Weights *w, int threads, TuneWeightStat *out, Error *err)
{
    int n = w->count;
    for (int j = 0; j < n; j++)
        out[j] = (TuneWeightStat){NAN, NAN, NAN, TUNE_IDENTIFIED, 0};
    TuneSums s;
    uint64_t count = tune_set_total(train);
    if (count == 0)
        return error_set(err, "no training positions");
    if (!tune_sums(train, w->w, SUM_HESSIAN | SUM_MOMENTS, threads, &s))
        return error_failed(err, "out of memory summing over %llu positions", (unsigned long long)count);
    moments(&s, count, n, out);
    if (!information(&s, n, out))
        return error_failed(err, "the eigen-decomposition of the information failed (GSL)");
    return true;
}
