/*
 * tune_sums.c - the loss, gradient, Hessian and moment sums over a set of positions, in fixed
 * blocks combined in block order so that the result never depends on the thread count (see
 * tune_sums.h).
 */
#include "tune_sums.h"
#include "core/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where each sum lives in one block's compact result vector (its length depends on F). */
typedef struct {
    int features, gradient, hessian, sum, sum_sq, targets, stride;
} Layout;

static Layout layout_for(int f)
{
    Layout l;
    l.features = f;
    l.gradient = 2;
    l.hessian = l.gradient + f;
    l.sum = l.hessian + f * (f + 1) / 2;
    l.sum_sq = l.sum + f;
    l.targets = l.sum_sq + f;
    l.stride = l.targets + 2;
    return l;
}

/* log(1 + e^z) and the sigmoid from one exponential, without overflow for any z. */
static inline void softplus_sigmoid(double z, double *softplus, double *p)
{
    double e = exp(-fabs(z));
    *softplus = (z > 0 ? z : 0) + log1p(e);
    *p = z >= 0 ? 1 / (1 + e) : e / (1 + e);
}

/* Adds c f f^T to the packed triangle h. */
static inline void add_outer(double *h, const double *f, int n, double c)
{
    for (int j = 0; j < n; j++) {
        double cj = c * f[j];
        for (int k = j; k < n; k++)
            h[k - j] += cj * f[k];
        h += n - j;
    }
}

/* One block's sums, in order, into acc (stride doubles, zeroed by the caller). */
static void sum_block(const TuneSet *set, const double *w, int what, size_t begin, size_t end, const Layout *l,
                      double *acc)
{
    int n = l->features;
    for (size_t i = begin; i < end; i++) {
        const float *row = set->features + i * (size_t)n;
        double f[MAX_FEATURES], z = set->offset ? set->offset[i] : 0;
        for (int j = 0; j < n; j++) {
            f[j] = row[j];
            z += w[j] * f[j];
        }
        double softplus, p;
        softplus_sigmoid(z, &softplus, &p);
        /* The cross-entropy -(y log p + (1 - y) log(1 - p)) is softplus(z) - y z. */
        if (what & SUM_LOSS) {
            acc[0] += softplus - set->target[i] * z;
            acc[1] += softplus - set->result[i] * z;
        }
        if (what & SUM_GRADIENT)
            for (int j = 0; j < n; j++)
                acc[l->gradient + j] += (p - set->target[i]) * f[j];
        if (what & SUM_HESSIAN)
            add_outer(acc + l->hessian, f, n, p * (1 - p));
        if (what & SUM_MOMENTS)
            for (int j = 0; j < n; j++) {
                acc[l->sum + j] += f[j];
                acc[l->sum_sq + j] += f[j] * f[j];
            }
        if (what & SUM_TARGETS) {
            acc[l->targets] += set->target[i];
            acc[l->targets + 1] += set->result[i];
        }
    }
}

/* Adds one block's compact vector into the result. */
static void add_block(TuneSums *out, const double *acc, const Layout *l)
{
    int n = l->features, packed = n * (n + 1) / 2;
    out->loss += acc[0];
    out->result_loss += acc[1];
    for (int j = 0; j < n; j++) {
        out->gradient[j] += acc[l->gradient + j];
        out->sum[j] += acc[l->sum + j];
        out->sum_sq[j] += acc[l->sum_sq + j];
    }
    for (int j = 0; j < packed; j++)
        out->hessian[j] += acc[l->hessian + j];
    out->target_sum += acc[l->targets];
    out->result_sum += acc[l->targets + 1];
}

/* The block results of the blocks held here, each summed whole by one thread. */
static void sum_blocks(const TuneSet *set, const double *w, int what, int threads, const Layout *l, size_t blocks,
                       double *acc)
{
    int team = threads_or_default(threads);
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (size_t b = 0; b < blocks; b++) {
        size_t end = (b + 1) * TUNE_BLOCK < set->count ? (b + 1) * TUNE_BLOCK : set->count;
        sum_block(set, w, what, b * TUNE_BLOCK, end, l, acc + b * (size_t)l->stride);
    }
}

/* A spread set: this process's blocks, then every block of every process in block order. */
static bool sum_spread(const TuneSet *set, const double *w, int what, int threads, const Layout *l, TuneSums *out)
{
    size_t mine = (set->count + TUNE_BLOCK - 1) / TUNE_BLOCK;
    size_t blocks = (set->total + TUNE_BLOCK - 1) / TUNE_BLOCK;
    double *acc = calloc((mine ? mine : 1) * (size_t)l->stride, sizeof *acc);
    double *all = calloc((blocks ? blocks : 1) * (size_t)l->stride, sizeof *all);
    if (acc && all)
        sum_blocks(set, w, what, threads, l, mine, acc);
    bool ok = mpi_env_all(set->mpi, acc && all) && tune_gather_blocks(set, acc, (size_t)l->stride, all);
    for (size_t b = 0; ok && b < blocks; b++)
        add_block(out, all + b * (size_t)l->stride, l);
    free(acc);
    free(all);
    return ok;
}

bool tune_sums(const TuneSet *set, const double *w, int what, int threads, TuneSums *out)
{
    memset(out, 0, sizeof *out);
    Layout l = layout_for(set->num_features);
    if (set->mpi && set->mpi->size > 1)
        return sum_spread(set, w, what, threads, &l, out);
    size_t blocks = (set->count + TUNE_BLOCK - 1) / TUNE_BLOCK;
    if (blocks == 0)
        return true;
    double *acc = calloc(blocks * (size_t)l.stride, sizeof *acc);
    if (!acc)
        return false;
    sum_blocks(set, w, what, threads, &l, blocks, &acc[0]);
    for (size_t b = 0; b < blocks; b++)
        add_block(out, acc + b * (size_t)l.stride, &l);
    free(acc);
    return true;
}
