/*
 * tune_sparse.c - Adam on mini-batches for the sparse linear models of tune_sparse.h, with
 * sums in fixed point so that the weights never depend on the thread or rank count.
 *
 * One step: the batch's groups are split over the threads for the forward pass (each row's
 * logit, then each group's loss and d loss / d logit per row); then every thread walks all the
 * batch's rows but adds only into the columns it owns (a fixed split of the column groups), so
 * the sparse gradient needs no atomics and no per-thread copies; under MPI the fixed-point
 * gradient is summed over the ranks (exact); then the Adam update runs over every weight and
 * clears the gradient for the next batch.
 */
#include "tune_sparse.h"

#include "core/clock.h"
#include "core/threads.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Gradients in units of 2^-32: a row adds at most |f| x 2^32, a batch of 2^16 rows with
 * features below 2^14 stays far inside int64. */
#define GRADIENT_ONE 4294967296.0
/* Losses in units of 2^-24: 2^24 x 20 nats x 2^28 groups fits. */
#define LOSS_ONE 16777216.0

static const double BETA1 = 0.9, BETA2 = 0.999, EPSILON = 1e-8;

SparseFitOptions tune_sparse_fit_defaults(void)
{
    return (SparseFitOptions){.l2_dense = 1.0, .l2_sparse = 1.0, .learning_rate = 0.01, .batch_groups = 8192,
                              .max_epochs = 40, .patience = 3, .seed = 1};
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static size_t group_count(const SparseData *d)
{
    return d->group_start ? d->groups : d->rows;
}

static size_t group_begin(const SparseData *d, size_t g)
{
    return d->group_start ? d->group_start[g] : g;
}

static size_t group_end(const SparseData *d, size_t g)
{
    return d->group_start ? d->group_start[g + 1] : g + 1;
}

static int mpi_size(const SparseFitOptions *o)
{
    return o->mpi ? o->mpi->size : 1;
}

/* Sums int64 values over the ranks in place (two's complement: u64 sums are exact). */
static void sum_over_ranks(const SparseFitOptions *o, int64_t *v, size_t n)
{
    if (mpi_size(o) <= 1)
        return;
    enum { PIECE = 1 << 24 };
    for (size_t at = 0; at < n; at += PIECE)
        mpi_env_sum_u64(o->mpi, (uint64_t *)(v + at), (int)(n - at < PIECE ? n - at : PIECE));
}

/* ---------------------------------------------------------------- the model on one group */

static double row_logit(const SparseModel *m, const SparseData *d, size_t r)
{
    double z = 0;
    const float *f = d->features + r * (size_t)d->dense;
    for (int j = 0; j < d->dense; j++)
        z += m->dense_w[j] * f[j];
    const uint32_t *e = d->entries + r * (size_t)d->columns;
    float tables = 0;
    for (int k = 0; k < d->columns; k++)
        tables += m->sparse_w[e[k]];
    return z + tables;
}

/* The group's loss; dz[i] = d loss / d z for its i-th row.  dz has room for the group. */
static double group_loss(const SparseModel *m, const SparseData *d, size_t g, double *dz)
{
    const size_t begin = group_begin(d, g), end = group_end(d, g);
    if (!d->group_start) {
        const double z = row_logit(m, d, begin), y = d->target[begin];
        const double e = exp(-fabs(z));
        const double softplus = (z > 0 ? z : 0) + log1p(e), p = z >= 0 ? 1 / (1 + e) : e / (1 + e);
        dz[0] = p - y;
        return softplus - y * z;
    }
    double zmax = -INFINITY, *z = dz;
    const size_t n = end - begin;
    for (size_t i = 0; i < n; i++) {
        z[i] = row_logit(m, d, begin + i);
        if (z[i] > zmax)
            zmax = z[i];
    }
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += exp(z[i] - zmax);
    const double log_sum = zmax + log(sum);
    double loss = 0;
    for (size_t i = 0; i < n; i++) {
        const double log_p = z[i] - log_sum, t = d->target[begin + i];
        if (t > 0)
            loss -= t * log_p;
        z[i] = exp(log_p) - t;
    }
    return loss;
}

/* ---------------------------------------------------------------- batches */

typedef struct {
    size_t *order;              /* local groups sorted by batch */
    size_t *batch_start;        /* num_batches + 1 */
    size_t num_batches;
} Batches;

static bool batches_init(Batches *b, const SparseData *d, size_t num_batches)
{
    b->num_batches = num_batches;
    b->order = malloc((group_count(d) + 1) * sizeof *b->order);
    b->batch_start = calloc(num_batches + 1, sizeof *b->batch_start);
    return b->order && b->batch_start;
}

static void batches_free(Batches *b)
{
    free(b->order);
    free(b->batch_start);
}

/* A counting sort of the local groups by their batch this epoch, a hash of the global index. */
static void batches_shuffle(Batches *b, const SparseData *d, uint64_t seed, int epoch)
{
    const size_t n = group_count(d), k = b->num_batches;
    memset(b->batch_start, 0, (k + 1) * sizeof *b->batch_start);
    const uint64_t salt = mix64(seed ^ mix64((uint64_t)epoch));
    for (size_t g = 0; g < n; g++)
        b->batch_start[mix64(salt ^ (d->first_group + g)) % k + 1]++;
    for (size_t i = 0; i < k; i++)
        b->batch_start[i + 1] += b->batch_start[i];
    size_t *fill = malloc(k * sizeof *fill);
    if (!fill) {    /* fall back to storage order: still deterministic, only less shuffled */
        for (size_t g = 0; g < n; g++)
            b->order[g] = g;
        for (size_t i = 0; i <= k; i++)
            b->batch_start[i] = i == k ? n : n * i / k;
        return;
    }
    memcpy(fill, b->batch_start, k * sizeof *fill);
    for (size_t g = 0; g < n; g++)
        b->order[fill[mix64(salt ^ (d->first_group + g)) % k]++] = g;
    free(fill);
}

/* ---------------------------------------------------------------- the fit */

typedef struct {
    SparseModel *model;
    const SparseData *train;
    const SparseFitOptions *opts;
    int threads;
    /* Column ownership: thread t adds the gradient of columns owned[t][0 .. owned_count[t]). */
    int owned[64][SPARSE_MAX_COLUMNS];
    int owned_count[64];
    int64_t *gradient;          /* num_sparse + dense + 2 (loss, groups), fixed point */
    double *dz;                 /* per train row of the batch, by row index */
    float *m1, *m2;             /* Adam moments of the sparse weights */
    double dm1[SPARSE_MAX_DENSE], dm2[SPARSE_MAX_DENSE];
    long step;
    double total_groups;
} Fit;

/* Column groups to threads, each group whole, the biggest groups first to the least loaded. */
static void split_columns(Fit *f)
{
    const int k = f->train->columns;
    int load[64] = {0};
    bool done[SPARSE_MAX_COLUMNS] = {false};
    memset(f->owned_count, 0, sizeof f->owned_count);
    for (int c = 0; c < k; c++) {
        if (done[c])
            continue;
        const int group = f->opts->column_group ? f->opts->column_group[c] : c;
        int t = 0;
        for (int i = 1; i < f->threads; i++)
            if (load[i] < load[t])
                t = i;
        for (int c2 = c; c2 < k; c2++)
            if (!done[c2] && (f->opts->column_group ? f->opts->column_group[c2] : c2) == group) {
                f->owned[t][f->owned_count[t]++] = c2;
                done[c2] = true;
                load[t]++;
            }
    }
}

/* Forward pass of one batch: dz for its rows, the dense gradient and the loss into f->gradient. */
static void batch_forward(Fit *f, const size_t *groups, size_t n)
{
    const SparseData *d = f->train;
    const int dense = d->dense;
    int64_t *dense_grad = f->gradient + f->model->num_sparse;
#pragma omp parallel num_threads(f->threads)
    {
        int64_t local[SPARSE_MAX_DENSE + 1] = {0};
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++) {
            const size_t g = groups[i], begin = group_begin(d, g), end = group_end(d, g);
            const double loss = group_loss(f->model, d, g, f->dz + begin);
            local[dense] += llround(loss * LOSS_ONE);
            for (size_t r = begin; r < end; r++) {
                const float *x = d->features + r * (size_t)dense;
                for (int j = 0; j < dense; j++)
                    local[j] += llround(f->dz[r] * x[j] * GRADIENT_ONE);
            }
        }
#pragma omp critical
        for (int j = 0; j <= dense; j++)
            dense_grad[j] += local[j];
    }
    dense_grad[dense + 1] += (int64_t)n;
}

/* Each thread adds dz into the entries of its own columns, for every row of the batch. */
static void batch_backward(Fit *f, const size_t *groups, size_t n)
{
    const SparseData *d = f->train;
#pragma omp parallel num_threads(f->threads)
    {
        const int t = omp_get_thread_num();
        const int *cols = f->owned[t], count = f->owned_count[t];
        for (size_t i = 0; i < n; i++) {
            const size_t g = groups[i];
            for (size_t r = group_begin(d, g); r < group_end(d, g); r++) {
                const int64_t step = llround(f->dz[r] * GRADIENT_ONE);
                const uint32_t *e = d->entries + r * (size_t)d->columns;
                for (int c = 0; c < count; c++)
                    f->gradient[e[cols[c]]] += step;
            }
        }
    }
}

static void adam_update(Fit *f, double rate)
{
    SparseModel *m = f->model;
    const int64_t *dense_grad = f->gradient + m->num_sparse;
    const double groups = (double)dense_grad[m->dense + 1];
    if (groups <= 0)
        return;
    f->step++;
    const double scale = 1.0 / (GRADIENT_ONE * groups);
    const double c1 = 1 - pow(BETA1, (double)f->step), c2 = 1 - pow(BETA2, (double)f->step);
    const double step = rate * sqrt(c2) / c1;
    const double decay_sparse = f->opts->l2_sparse / f->total_groups, decay_dense = f->opts->l2_dense / f->total_groups;
    const long n = (long)m->num_sparse;
#pragma omp parallel for schedule(static) num_threads(f->threads)
    for (long j = 0; j < n; j++) {
        const double g = (double)f->gradient[j] * scale + decay_sparse * m->sparse_w[j];
        f->gradient[j] = 0;
        const double a = f->m1[j] = (float)(BETA1 * f->m1[j] + (1 - BETA1) * g);
        const double b = f->m2[j] = (float)(BETA2 * f->m2[j] + (1 - BETA2) * g * g);
        m->sparse_w[j] = (float)(m->sparse_w[j] - step * a / (sqrt(b) + EPSILON));
    }
    for (int j = 0; j < m->dense; j++) {
        const double g = (double)f->gradient[m->num_sparse + (size_t)j] * scale + decay_dense * m->dense_w[j];
        f->dm1[j] = BETA1 * f->dm1[j] + (1 - BETA1) * g;
        f->dm2[j] = BETA2 * f->dm2[j] + (1 - BETA2) * g * g;
        m->dense_w[j] -= step * f->dm1[j] / (sqrt(f->dm2[j]) + EPSILON);
    }
    memset(f->gradient + m->num_sparse, 0, (size_t)(m->dense + 2) * sizeof *f->gradient);
}

/* One epoch over the training batches; the mean training loss seen on the way. */
static double run_epoch(Fit *f, Batches *b, int epoch, double rate)
{
    batches_shuffle(b, f->train, f->opts->seed, epoch);
    int64_t loss = 0, groups = 0;
    for (size_t k = 0; k < b->num_batches; k++) {
        const size_t *batch = b->order + b->batch_start[k];
        const size_t n = b->batch_start[k + 1] - b->batch_start[k];
        batch_forward(f, batch, n);
        batch_backward(f, batch, n);
        sum_over_ranks(f->opts, f->gradient, f->model->num_sparse + (size_t)f->model->dense + 2);
        loss += f->gradient[f->model->num_sparse + (size_t)f->model->dense];
        groups += f->gradient[f->model->num_sparse + (size_t)f->model->dense + 1];
        adam_update(f, rate);
    }
    return groups ? (double)loss / LOSS_ONE / (double)groups : NAN;
}

static size_t largest_group(const SparseData *d)
{
    size_t most = 1;
    for (size_t g = 0; d->group_start && g < d->groups; g++)
        if (group_end(d, g) - group_begin(d, g) > most)
            most = group_end(d, g) - group_begin(d, g);
    return most;
}

double tune_sparse_loss(const SparseModel *model, const SparseData *data, const SparseFitOptions *opts)
{
    const long n = (long)group_count(data);
    const size_t scratch = largest_group(data);
    int64_t loss = 0, failed = 0;
#pragma omp parallel num_threads(threads_or_default(opts->threads))
    {
        double *dz = malloc(scratch * sizeof *dz);
#pragma omp for schedule(static) reduction(+ : loss, failed)
        for (long g = 0; g < n; g++) {
            if (dz)
                loss += llround(group_loss(model, data, (size_t)g, dz) * LOSS_ONE);
            else
                failed++;
        }
        free(dz);
    }
    int64_t sums[3] = {loss, (int64_t)n, failed};
    sum_over_ranks(opts, sums, 3);
    return sums[1] && !sums[2] ? (double)sums[0] / LOSS_ONE / (double)sums[1] : NAN;
}

double tune_sparse_top1(const SparseModel *model, const SparseData *data, const SparseFitOptions *opts)
{
    const long n = (long)group_count(data);
    int64_t hits = 0;
#pragma omp parallel for schedule(static) reduction(+ : hits) num_threads(threads_or_default(opts->threads))
    for (long g = 0; g < n; g++) {
        size_t best_z = group_begin(data, (size_t)g), best_t = best_z;
        double top_z = -INFINITY;
        for (size_t r = group_begin(data, (size_t)g); r < group_end(data, (size_t)g); r++) {
            const double z = row_logit(model, data, r);
            if (z > top_z) {
                top_z = z;
                best_z = r;
            }
            if (data->target[r] > data->target[best_t])
                best_t = r;
        }
        hits += best_z == best_t;
    }
    int64_t sums[2] = {hits, (int64_t)n};
    sum_over_ranks(opts, sums, 2);
    return sums[1] ? (double)sums[0] / (double)sums[1] : NAN;
}

static void fit_free(Fit *f)
{
    free(f->gradient);
    free(f->dz);
    free(f->m1);
    free(f->m2);
}

static bool fit_init(Fit *f, SparseModel *model, const SparseData *train, const SparseFitOptions *opts)
{
    memset(f, 0, sizeof *f);
    f->model = model;
    f->train = train;
    f->opts = opts;
    f->threads = threads_or_default(opts->threads);
    if (f->threads > 64)
        f->threads = 64;
    split_columns(f);
    int64_t total[1] = {(int64_t)group_count(train)};
    sum_over_ranks(opts, total, 1);
    f->total_groups = (double)total[0];
    f->gradient = calloc(model->num_sparse + (size_t)model->dense + 2, sizeof *f->gradient);
    f->dz = malloc((train->rows ? train->rows : 1) * sizeof *f->dz);
    f->m1 = calloc(model->num_sparse ? model->num_sparse : 1, sizeof *f->m1);
    f->m2 = calloc(model->num_sparse ? model->num_sparse : 1, sizeof *f->m2);
    return f->gradient && f->dz && f->m1 && f->m2;
}

typedef struct {
    double dense_w[SPARSE_MAX_DENSE];
    float *sparse_w;
} Snapshot;

static void snapshot_take(Snapshot *s, const SparseModel *m)
{
    memcpy(s->dense_w, m->dense_w, sizeof s->dense_w);
    memcpy(s->sparse_w, m->sparse_w, m->num_sparse * sizeof *m->sparse_w);
}

static void snapshot_restore(const Snapshot *s, SparseModel *m)
{
    memcpy(m->dense_w, s->dense_w, sizeof s->dense_w);
    memcpy(m->sparse_w, s->sparse_w, m->num_sparse * sizeof *m->sparse_w);
}

static bool agree(const SparseFitOptions *o, bool ok)
{
    return o->mpi ? mpi_env_all(o->mpi, ok) : ok;
}

bool tune_sparse_fit(SparseModel *model, const SparseData *train, const SparseData *validation,
                const SparseFitOptions *opts, SparseFitResult *out)
{
    const double start = clock_seconds();
    memset(out, 0, sizeof *out);
    Fit f;
    Batches b = {0};
    Snapshot best = {.sparse_w = malloc((model->num_sparse ? model->num_sparse : 1) * sizeof(float))};
    bool ok = fit_init(&f, model, train, opts) && best.sparse_w;
    const size_t batch_groups = opts->batch_groups ? opts->batch_groups : 1;
    const size_t num_batches = f.total_groups > 0 ? (size_t)ceil(f.total_groups / (double)batch_groups) : 1;
    ok = ok && batches_init(&b, train, num_batches);
    if (!agree(opts, ok)) {
        fit_free(&f);
        batches_free(&b);
        free(best.sparse_w);
        return false;
    }
    /* Over all ranks: one rank may hold no validation rows while another holds some, and every
     * rank must make the same collective calls. */
    int64_t validation_groups[1] = {validation ? (int64_t)group_count(validation) : 0};
    sum_over_ranks(opts, validation_groups, 1);
    const bool has_validation = validation_groups[0] > 0;
    double best_loss = has_validation ? tune_sparse_loss(model, validation, opts) : INFINITY;
    out->validation_loss = has_validation ? best_loss : NAN;
    out->train_loss = tune_sparse_loss(model, train, opts);
    snapshot_take(&best, model);
    if (opts->on_epoch) {
        SparseEpoch e = {0, out->train_loss, out->validation_loss, opts->learning_rate, true, clock_seconds() - start};
        opts->on_epoch(&e, opts->ctx);
    }
    double rate = opts->learning_rate;
    int halvings = 0;
    for (int epoch = 1; epoch <= opts->max_epochs; epoch++) {
        const double train_loss = run_epoch(&f, &b, epoch, rate);
        const double loss = has_validation ? tune_sparse_loss(model, validation, opts) : -INFINITY;
        const bool improved = loss < best_loss - 1e-7 * fabs(best_loss) || !has_validation;
        SparseEpoch e = {epoch, train_loss, has_validation ? loss : NAN, rate, improved, clock_seconds() - start};
        out->epochs = epoch;
        if (improved) {
            best_loss = loss;
            snapshot_take(&best, model);
            out->best_epoch = epoch;
            out->train_loss = train_loss;
            out->validation_loss = e.validation_loss;
        } else {
            snapshot_restore(&best, model);
            rate /= 2;
            halvings++;
        }
        if (opts->on_epoch)
            opts->on_epoch(&e, opts->ctx);
        if (halvings > opts->patience)
            break;
    }
    snapshot_restore(&best, model);
    out->seconds = clock_seconds() - start;
    fit_free(&f);
    batches_free(&b);
    free(best.sparse_w);
    return true;
}
