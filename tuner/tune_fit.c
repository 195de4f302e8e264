/*
 * tune_fit.c - maximum likelihood for the logistic evaluation by Newton's method (IRLS).
 *
 * Objective: J(w) = sum over positions of the cross-entropy between the soft target y and
 * p = sigmoid(w . f), plus l2/2 |w|^2.  Its gradient is sum (p - y) f + l2 w and its Hessian, exact,
 * sum p (1 - p) f f^T + l2 I: at most 48 x 48, so each step solves it directly (GSL Cholesky)
 * and the cost is all in the sums over positions (tune_sums.c, deterministic).
 *
 * Each step d solves H d = -g; a step-halving line search takes the largest t in 1, 1/2, 1/4 ...
 * with J(w + t d) <= J(w) + 1e-4 t g.d (Armijo).  The fit stops when the Newton decrement
 * g.H^-1.g = -g.d falls below the tolerance: it is the squared distance to the optimum measured in
 * standard errors (H is the information), so the default 1e-8 means "within 1e-4 SE", whatever
 * the number of positions.
 */
#include "tune_sums.h"
#include "core/threads.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <omp.h>
#include <string.h>

/* Added to the unit diagonal of the scaled Hessian before Cholesky.  A direction the data do not
 * determine (a feature that is always 0 with l2 = 0, two identical features) would make H
 * singular; this keeps it positive definite well above rounding (about F^2 x 1e-16) and far
 * below any curvature the data do show, so it changes no step that the data determine. */
static const double CHOLESKY_RIDGE = 1e-9;
static const double ARMIJO = 1e-4;
enum { MAX_HALVINGS = 40 };

TuneFitOptions tune_fit_defaults(void) { return (TuneFitOptions){1.0, 50, 1e-8, 0, 100.0, 0.01, 8192, 30, 3}; }

typedef struct {
    const TuneSet *set;
    const TuneFitOptions *opts;
    int n;                  /* features */
} Problem;

/* J at w from the loss sum; NAN when memory runs out. */
static double objective(const Problem *pb, const double *w)
{
    TuneSums s;
    if (!tune_sums(pb->set, w, SUM_LOSS, pb->opts->threads, &s))
        return NAN;
    double norm = 0;
    for (int j = 0; j < pb->n; j++)
        norm += w[j] * w[j];
    return s.loss + 0.5 * pb->opts->l2 * norm;
}

/* The penalised gradient and Hessian at w (Hessian packed), and J. */
static bool derivatives(const Problem *pb, const double *w, double *grad, double *hess, double *j_out)
{
    TuneSums s;
    if (!tune_sums(pb->set, w, SUM_LOSS | SUM_GRADIENT | SUM_HESSIAN, pb->opts->threads, &s))
        return false;
    double norm = 0, l2 = pb->opts->l2;
    for (int j = 0; j < pb->n; j++) {
        grad[j] = s.gradient[j] + l2 * w[j];
        norm += w[j] * w[j];
    }
    memcpy(hess, s.hessian, sizeof s.hessian);
    for (int j = 0; j < pb->n; j++)
        hess[packed_index(pb->n, j, j)] += l2;
    *j_out = s.loss + 0.5 * l2 * norm;
    return true;
}

/* Solves H d = -g.  H is scaled to a unit diagonal first (the features' scales differ), and a
 * tiny ridge added (CHOLESKY_RIDGE), so that the factorisation cannot fail. */
static bool newton_step(int n, const double *hess, const double *grad, double *step)
{
    double a[MAX_FEATURES * MAX_FEATURES], scale[MAX_FEATURES], b[MAX_FEATURES], x[MAX_FEATURES];
    for (int j = 0; j < n; j++) {
        double d = hess[packed_index(n, j, j)];
        scale[j] = d > 0 ? 1 / sqrt(d) : 1;
    }
    for (int j = 0; j < n; j++) {
        for (int k = j; k < n; k++)
            a[j * n + k] = a[k * n + j] = hess[packed_index(n, j, k)] * scale[j] * scale[k];
        a[j * n + j] += CHOLESKY_RIDGE;
        b[j] = -grad[j] * scale[j];
    }
    gsl_matrix_view m = gsl_matrix_view_array(a, (size_t)n, (size_t)n);
    gsl_vector_view rhs = gsl_vector_view_array(b, (size_t)n), sol = gsl_vector_view_array(x, (size_t)n);
    if (gsl_linalg_cholesky_decomp1(&m.matrix) != GSL_SUCCESS ||
        gsl_linalg_cholesky_solve(&m.matrix, &rhs.vector, &sol.vector) != GSL_SUCCESS)
        return false;
    for (int j = 0; j < n; j++)
        step[j] = x[j] * scale[j];
    return true;
}

/* Halves t until J(w + t d) makes the Armijo decrease; moves w there.  False when no t does
 * (the step is below what the sums can resolve). */
static bool line_search(const Problem *pb, double *w, const double *d, double j0, double slope, double *j_out)
{
    double trial[MAX_FEATURES], t = 1;
    for (int h = 0; h < MAX_HALVINGS; h++, t *= 0.5) {
        for (int j = 0; j < pb->n; j++)
            trial[j] = w[j] + t * d[j];
        double jt = objective(pb, trial);
        if (jt <= j0 + ARMIJO * t * slope) {
            memcpy(w, trial, (size_t)pb->n * sizeof *w);
            *j_out = jt;
            return true;
        }
    }
    return false;
}

static bool check_inputs(const TuneSet *train, const Weights *init, Error *err)
{
    if (tune_set_total(train) == 0)
        return error_set(err, "no training positions");
    if (init->count != train->num_features || init->count > MAX_FEATURES)
        return error_set(err, "the weights have %d features, the positions %d", init->count,
                              train->num_features);
    return true;
}

/* Newton iterations from out->weights; fills the iteration count, decrement and objective. */
static bool iterate(const Problem *pb, TuneFit *out, Error *err)
{
    double *w = out->weights.w, grad[MAX_FEATURES], hess[PACKED_MAX], step[MAX_FEATURES], j;
    out->decrement = INFINITY;
    for (out->iterations = 0;; out->iterations++) {
        if (!derivatives(pb, w, grad, hess, &j))
            return error_failed(err, "out of memory summing over %llu positions",
                                  (unsigned long long)tune_set_total(pb->set));
        out->objective = j / (double)tune_set_total(pb->set);
        if (!isfinite(j))
            return error_set(err, "the loss is not finite at the %s weights",
                                  out->iterations ? "current" : "start");
        if (!newton_step(pb->n, hess, grad, step))
            return error_failed(err, "the Hessian could not be factorised (GSL Cholesky)");
        double slope = 0;
        for (int k = 0; k < pb->n; k++)
            slope += grad[k] * step[k];
        out->decrement = -slope;
        out->converged = out->decrement <= pb->opts->tolerance;
        if (out->converged || out->iterations >= pb->opts->max_iterations || !line_search(pb, w, step, j, slope, &j))
            return true;
    }
}

bool tune_fit(const TuneSet *train, const Weights *init, const TuneFitOptions *opts, TuneFit *out, Error *err)
{
    double t0 = omp_get_wtime();
    memset(out, 0, sizeof *out);
    if (!check_inputs(train, init, err))
        return false;
    if (!weights_copy(&out->weights, init))
        return error_failed(err, "out of memory copying the start weights");
    TuneFitOptions o = *opts;
    o.threads = threads_or_default(o.threads);
    Problem pb = {train, &o, init->count};
    bool ok = iterate(&pb, out, err);
    out->seconds = omp_get_wtime() - t0;
    return ok;
}
