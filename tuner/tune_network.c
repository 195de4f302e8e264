/*
 * tune_network.c - the network's fit (tune_network.h): mini-batches in a seeded order, each
 * position's pass by one thread (tune_network_pass.c), the gradients summed over the batch in
 * batch order, Adam on the dense layers and lazily on the W1 rows and action embeddings the
 * batch touched, the validation loss after every epoch, the best epoch's weights kept, then the
 * quantization.
 *
 * A batch's sparse rows are gathered in one sequential walk: each row the batch touches gets a
 * slot in order of first use and the list of the batch positions that touch it, in batch order
 * (a pattern input read twice by a position is listed twice).  Threads then take whole rows: a
 * row's gradient is its positions' sum in that order, and its Adam step follows at once, so no
 * two threads ever write one row and no row's sum depends on the threads.
 */
#include "tune_network_pass.h"

#include "core/clock.h"
#include "core/rng.h"
#include "core/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double BETA1 = 0.9, BETA2 = 0.999, EPSILON = 1e-8;
enum { NO_SLOT = 0xFFFFFFFFu };

TuneNetworkFitOptions tune_network_fit_defaults(void)
{
    return (TuneNetworkFitOptions){.policy_weight = 1, .l2 = 1e-6, .learning_rate = 0.002, .batch = 256,
                                   .max_epochs = 30, .patience = 2, .seed = 1};
}

/* The rows a batch touches, with the batch's uses of each, grouped by row in batch order. */
typedef struct {
    uint32_t *slot;             /* per row of the layer: its index in `row`, or NO_SLOT */
    uint32_t *row;              /* in order of first use */
    size_t rows;
    uint64_t *start;            /* rows + 1: each row's uses in use[] */
    uint32_t *fill;
    uint32_t *use;              /* the batch position of each use */
    uint32_t *use_move;         /* actions: the batch's move index of each use */
    size_t uses;
    size_t row_cap, start_cap, fill_cap, use_cap, move_cap;
} Gather;

typedef struct {
    float *m, *v;
} Moments;

typedef struct {
    Network *net;
    const TuneNetworkSet *train;
    const TuneNetworkFitOptions *o;
    int threads, h;
    float **w[NETWORK_ARRAYS];
    size_t length[NETWORK_ARRAYS];
    Moments mom[NETWORK_ARRAYS];
    float *grad[NETWORK_ARRAYS];    /* the dense arrays' gradients (NULL for w1, we, be) */
    long step;
    /* the batch */
    size_t batch_cap;
    float *h1, *da, *h2, *dz2;      /* batch x H, batch x H, batch x 32, batch x 32 */
    double *dv, *value_loss, *policy_loss;
    uint64_t *move_at;              /* batch + 1 */
    double *dl;
    size_t dl_cap;
    Gather inputs, actions;
} Fit;

enum { W1, B1, W2, B2, WV, BV, WE, BE };

/* ---------------------------------------------------------------- memory */

static bool gather_init(Gather *g, size_t rows)
{
    memset(g, 0, sizeof *g);
    g->slot = malloc((rows ? rows : 1) * sizeof *g->slot);
    if (g->slot)
        memset(g->slot, 0xFF, (rows ? rows : 1) * sizeof *g->slot);
    return g->slot != NULL;
}

static void gather_free(Gather *g)
{
    free(g->slot);
    free(g->row);
    free(g->start);
    free(g->fill);
    free(g->use);
    free(g->use_move);
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * size);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

/* Room for `rows` touched rows and `uses` uses. */
static bool gather_reserve(Gather *g, size_t rows, size_t uses)
{
    return grow((void **)&g->row, &g->row_cap, rows, sizeof *g->row) &&
           grow((void **)&g->start, &g->start_cap, rows + 1, sizeof *g->start) &&
           grow((void **)&g->fill, &g->fill_cap, rows, sizeof *g->fill) &&
           grow((void **)&g->use, &g->use_cap, uses, sizeof *g->use) &&
           grow((void **)&g->use_move, &g->move_cap, uses, sizeof *g->use_move);
}

static void fit_free(Fit *f)
{
    for (int a = 0; a < NETWORK_ARRAYS; a++) {
        free(f->mom[a].m);
        free(f->mom[a].v);
        free(f->grad[a]);
    }
    free(f->h1);
    free(f->da);
    free(f->h2);
    free(f->dz2);
    free(f->dv);
    free(f->value_loss);
    free(f->policy_loss);
    free(f->move_at);
    free(f->dl);
    gather_free(&f->inputs);
    gather_free(&f->actions);
}

static bool fit_init(Fit *f, Network *net, const TuneNetworkSet *train, const TuneNetworkFitOptions *o)
{
    memset(f, 0, sizeof *f);
    f->net = net;
    f->train = train;
    f->o = o;
    f->threads = threads_or_default(o->threads);
    f->h = net->h;
    network_arrays(net, f->w, f->length);
    bool ok = true;
    for (int a = 0; a < NETWORK_ARRAYS; a++) {
        const size_t n = f->length[a] ? f->length[a] : 1;
        f->mom[a].m = calloc(n, sizeof(float));
        f->mom[a].v = calloc(n, sizeof(float));
        f->grad[a] = a == W1 || a == WE || a == BE ? NULL : calloc(n, sizeof(float));
        ok = ok && f->mom[a].m && f->mom[a].v && (a == W1 || a == WE || a == BE || f->grad[a]);
    }
    const size_t b = o->batch ? o->batch : 1, h = (size_t)net->h;
    f->batch_cap = b;
    f->h1 = malloc(b * h * sizeof *f->h1);
    f->da = malloc(b * h * sizeof *f->da);
    f->h2 = malloc(b * NETWORK_L2 * sizeof *f->h2);
    f->dz2 = malloc(b * NETWORK_L2 * sizeof *f->dz2);
    f->dv = malloc(b * sizeof *f->dv);
    f->value_loss = malloc(b * sizeof *f->value_loss);
    f->policy_loss = malloc(b * sizeof *f->policy_loss);
    f->move_at = malloc((b + 1) * sizeof *f->move_at);
    return ok && f->h1 && f->da && f->h2 && f->dz2 && f->dv && f->value_loss && f->policy_loss && f->move_at &&
           gather_init(&f->inputs, (size_t)net->num_inputs) && gather_init(&f->actions, (size_t)net->num_actions);
}

/* ---------------------------------------------------------------- a batch: the rows it touches */

/* Where each position's moves start among the batch's, and room for what the batch gathers. */
static bool batch_prepare(Fit *f, const size_t *idx, size_t n)
{
    const TuneNetworkSet *s = f->train;
    f->move_at[0] = 0;
    size_t inputs = 0;
    for (size_t p = 0; p < n; p++) {
        f->move_at[p + 1] = f->move_at[p] + (s->move_start[idx[p] + 1] - s->move_start[idx[p]]);
        inputs += s->input_start[idx[p] + 1] - s->input_start[idx[p]];
    }
    const size_t moves = f->move_at[n];
    return grow((void **)&f->dl, &f->dl_cap, moves + 1, sizeof *f->dl) && gather_reserve(&f->inputs, inputs, inputs) &&
           gather_reserve(&f->actions, moves, moves);
}

/* A row's first use gives it the next slot; every use counts. */
static void count_use(Gather *g, uint32_t r)
{
    if (g->slot[r] == NO_SLOT) {
        g->slot[r] = (uint32_t)g->rows;
        g->row[g->rows] = r;
        g->fill[g->rows++] = 0;
    }
    g->fill[g->slot[r]]++;
    g->uses++;
}

/* The counts into starts, and the fills back to 0 for placing the uses. */
static void start_rows(Gather *g)
{
    g->start[0] = 0;
    for (size_t t = 0; t < g->rows; t++) {
        g->start[t + 1] = g->start[t] + g->fill[t];
        g->fill[t] = 0;
    }
}

/* Slots and uses of the W1 rows the batch reads, in batch order (room reserved). */
static void gather_inputs(Fit *f, const size_t *idx, size_t n)
{
    const TuneNetworkSet *s = f->train;
    Gather *g = &f->inputs;
    g->rows = g->uses = 0;
    for (size_t p = 0; p < n; p++)
        for (uint64_t k = s->input_start[idx[p]]; k < s->input_start[idx[p] + 1]; k++)
            count_use(g, s->input[k]);
    start_rows(g);
    for (size_t p = 0; p < n; p++)
        for (uint64_t k = s->input_start[idx[p]]; k < s->input_start[idx[p] + 1]; k++) {
            const uint32_t t = g->slot[s->input[k]];
            g->use[g->start[t] + g->fill[t]++] = (uint32_t)p;
        }
}

/* The same for the action embeddings, each use a move of the batch. */
static void gather_actions(Fit *f, const size_t *idx, size_t n)
{
    const TuneNetworkSet *s = f->train;
    Gather *g = &f->actions;
    g->rows = g->uses = 0;
    for (size_t p = 0; p < n; p++)
        for (uint64_t m = s->move_start[idx[p]]; m < s->move_start[idx[p] + 1]; m++)
            count_use(g, s->action[m]);
    start_rows(g);
    for (size_t p = 0; p < n; p++)
        for (uint64_t m = s->move_start[idx[p]]; m < s->move_start[idx[p] + 1]; m++) {
            const uint32_t t = g->slot[s->action[m]];
            const uint64_t at = g->start[t] + g->fill[t]++;
            g->use[at] = (uint32_t)p;
            g->use_move[at] = (uint32_t)(f->move_at[p] + (m - s->move_start[idx[p]]));
        }
}

/* ---------------------------------------------------------------- Adam */

typedef struct {
    double step;                /* the rate with the bias corrections */
    float scale;                /* 1 / batch */
    float l2;
} AdamStep;

static void adam(float *w, Moments *mom, size_t at, const float *g, size_t n, const AdamStep *s, bool decay)
{
    float *m = mom->m + at, *v = mom->v + at;
    for (size_t i = 0; i < n; i++) {
        const float gi = g[i] * s->scale + (decay ? s->l2 * w[i] : 0.0f);
        m[i] = (float)(BETA1 * m[i] + (1 - BETA1) * gi);
        v[i] = (float)(BETA2 * v[i] + (1 - BETA2) * (double)gi * gi);
        w[i] = (float)(w[i] - s->step * m[i] / (sqrt(v[i]) + EPSILON));
    }
}

/* ---------------------------------------------------------------- a batch: the steps */

/* Position p of the batch through the model: its activations and gradients into the batch's
 * arrays. */
static void batch_pass(Fit *f, const size_t *idx, size_t p)
{
    const size_t h = (size_t)f->h;
    NetworkPass pass = {.h1 = f->h1 + p * h, .da = f->da + p * h, .dl = f->dl + f->move_at[p]};
    tune_network_pass(f->net, f->train, idx[p], f->o->policy_weight, true, &pass);
    memcpy(f->h2 + p * NETWORK_L2, pass.h2, sizeof pass.h2);
    memcpy(f->dz2 + p * NETWORK_L2, pass.dz2, sizeof pass.dz2);
    f->dv[p] = pass.dv;
    f->value_loss[p] = pass.value_loss;
    f->policy_loss[p] = pass.policy_loss;
}

/* The biases' and the value head's gradients, summed over the batch in order, and their steps. */
static void update_small(Fit *f, const size_t *idx, size_t n, const AdamStep *s)
{
    const size_t h = (size_t)f->h;
    static const int small[] = {B1, B2, WV, BV};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        memset(f->grad[small[i]], 0, f->length[small[i]] * sizeof(float));
    float *gb1 = f->grad[B1], *gb2 = f->grad[B2], *gwv = f->grad[WV], *gbv = f->grad[BV];
    for (size_t p = 0; p < n; p++) {
        const float *da = f->da + p * h, *dz2 = f->dz2 + p * NETWORK_L2, *h2 = f->h2 + p * NETWORK_L2;
        const int b = f->train->bucket[idx[p]];
        for (size_t u = 0; u < h; u++)
            gb1[u] += da[u];
        for (int k = 0; k < NETWORK_L2; k++) {
            gb2[k] += dz2[k];
            gwv[(size_t)b * NETWORK_L2 + (size_t)k] += (float)(f->dv[p] * h2[k]);
        }
        gbv[b] += (float)f->dv[p];
    }
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        adam(*f->w[small[i]], &f->mom[small[i]], 0, f->grad[small[i]], f->length[small[i]], s, small[i] == WV);
}

/* Rows j0 .. j1 - 1 of W2: their gradient over the batch in order, then their steps. */
static void update_w2_rows(Fit *f, size_t j0, size_t j1, size_t n, const AdamStep *s)
{
    const size_t h = (size_t)f->h;
    float *g = f->grad[W2] + j0 * NETWORK_L2;
    memset(g, 0, (j1 - j0) * NETWORK_L2 * sizeof *g);
    for (size_t p = 0; p < n; p++) {
        const float *h1 = f->h1 + p * h, *dz2 = f->dz2 + p * NETWORK_L2;
        for (size_t j = j0; j < j1; j++)
            if (h1[j] != 0)
                for (int k = 0; k < NETWORK_L2; k++)
                    g[(j - j0) * NETWORK_L2 + (size_t)k] += h1[j] * dz2[k];
    }
    adam(f->net->w2 + j0 * NETWORK_L2, &f->mom[W2], j0 * NETWORK_L2, g, (j1 - j0) * NETWORK_L2, s, true);
}

/* W1 row t of the gather: its gradient over its uses in order, then its step. */
static void update_input_row(Fit *f, size_t t, const AdamStep *s)
{
    Gather *g = &f->inputs;
    const size_t h = (size_t)f->h;
    float grad[NETWORK_MAX_H] = {0};
    for (uint64_t k = g->start[t]; k < g->start[t + 1]; k++) {
        const float *da = f->da + (size_t)g->use[k] * h;
        for (size_t u = 0; u < h; u++)
            grad[u] += da[u];
    }
    const size_t r = g->row[t];
    adam(f->net->w1 + r * h, &f->mom[W1], r * h, grad, h, s, true);
    g->slot[r] = NO_SLOT;
}

/* Action t of the gather: its embedding's and bias's gradients, then their steps. */
static void update_action_row(Fit *f, size_t t, const AdamStep *s)
{
    Gather *g = &f->actions;
    float grad[NETWORK_L2] = {0}, bias = 0;
    for (uint64_t k = g->start[t]; k < g->start[t + 1]; k++) {
        const double dl = f->dl[g->use_move[k]];
        const float *h2 = f->h2 + (size_t)g->use[k] * NETWORK_L2;
        for (int j = 0; j < NETWORK_L2; j++)
            grad[j] += (float)(dl * h2[j]);
        bias += (float)dl;
    }
    const size_t a = g->row[t];
    adam(f->net->we + a * NETWORK_L2, &f->mom[WE], a * NETWORK_L2, grad, NETWORK_L2, s, true);
    adam(f->net->be + a, &f->mom[BE], a, &bias, 1, s, false);
    g->slot[a] = NO_SLOT;
}

/* W2 rows a block, for the threads. */
enum { W2_BLOCK = 8 };

/* The positions a thread of a batch's steps needs at least.  A batch of 256 positions is a
 * couple of milliseconds of work: cut among threads on a loaded machine, its waits cost more than
 * it saves (2 threads took 3.6x the wall time of one, docs/BENCHMARKS.md).  The threads do not
 * change the result, only how it is reached. */
enum { BATCH_PER_THREAD = 256 };

static int batch_threads(int threads, size_t n)
{
    const size_t most = n / BATCH_PER_THREAD > 1 ? n / BATCH_PER_THREAD : 1;
    return (size_t)threads < most ? threads : (int)most;
}

/* One batch: passes, gathers, steps; its summed losses into *value and *policy.  Two parallel
 * regions' worth of synchronisation: the passes (while one thread gathers the rows), then every
 * parameter's sum and step, each by one thread. */
static bool run_batch(Fit *f, const size_t *idx, size_t n, double rate, double *value, double *policy)
{
    if (!batch_prepare(f, idx, n))
        return false;
    f->step++;
    const double c1 = 1 - pow(BETA1, (double)f->step), c2 = 1 - pow(BETA2, (double)f->step);
    const AdamStep s = {rate * sqrt(c2) / c1, 1.0f / (float)n, (float)f->o->l2};
    const long count = (long)n, w2_blocks = (long)((size_t)f->h / W2_BLOCK);
#pragma omp parallel num_threads(batch_threads(f->threads, n))
    {
#pragma omp single nowait
        {
            gather_inputs(f, idx, n);
            gather_actions(f, idx, n);
        }
#pragma omp for schedule(dynamic, 16)
        for (long p = 0; p < count; p++)
            batch_pass(f, idx, (size_t)p);
#pragma omp single nowait
        update_small(f, idx, n, &s);
#pragma omp for schedule(dynamic, 1) nowait
        for (long b = 0; b < w2_blocks; b++)
            update_w2_rows(f, (size_t)b * W2_BLOCK, (size_t)(b + 1) * W2_BLOCK, n, &s);
#pragma omp for schedule(dynamic, 64) nowait
        for (long t = 0; t < (long)f->inputs.rows; t++)
            update_input_row(f, (size_t)t, &s);
#pragma omp for schedule(dynamic, 16)
        for (long t = 0; t < (long)f->actions.rows; t++)
            update_action_row(f, (size_t)t, &s);
    }
    for (size_t p = 0; p < n; p++) {
        *value += f->value_loss[p];
        *policy += f->policy_loss[p];
    }
    return true;
}

/* ---------------------------------------------------------------- epochs */

/* The training positions in this epoch's order: a Fisher-Yates shuffle seeded by the epoch. */
static void shuffle(size_t *order, size_t n, uint64_t seed, int epoch)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    Rng rng = rng_seed(seed, 0x6e6574ull + (uint64_t)epoch);
    for (size_t i = n; i > 1; i--) {
        const size_t j = (size_t)(rng_next(&rng) % i);
        const size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

static bool run_epoch(Fit *f, size_t *order, int epoch, double rate, TuneNetworkLoss *train)
{
    const size_t n = f->train->count, b = f->batch_cap;
    shuffle(order, n, f->o->seed, epoch);
    double value = 0, policy = 0;
    for (size_t at = 0; at < n; at += b)
        if (!run_batch(f, order + at, n - at < b ? n - at : b, rate, &value, &policy))
            return false;
    const double count = n ? (double)n : NAN;
    *train = (TuneNetworkLoss){value / count, f->train->with_policy ? policy / (double)f->train->with_policy : NAN,
                               (value + f->o->policy_weight * policy) / count};
    return true;
}

/* The float weights of the best epoch so far. */
typedef struct {
    float *copy[NETWORK_ARRAYS];
} Snapshot;

static bool snapshot_init(Snapshot *s, const Fit *f)
{
    bool ok = true;
    for (int a = 0; a < NETWORK_ARRAYS; a++)
        ok = (s->copy[a] = malloc((f->length[a] ? f->length[a] : 1) * sizeof(float))) && ok;
    return ok;
}

static void snapshot_take(Snapshot *s, const Fit *f)
{
    for (int a = 0; a < NETWORK_ARRAYS; a++)
        memcpy(s->copy[a], *f->w[a], f->length[a] * sizeof(float));
}

static void snapshot_restore(const Snapshot *s, Fit *f)
{
    for (int a = 0; a < NETWORK_ARRAYS; a++)
        memcpy(*f->w[a], s->copy[a], f->length[a] * sizeof(float));
}

static void snapshot_free(Snapshot *s)
{
    for (int a = 0; a < NETWORK_ARRAYS; a++)
        free(s->copy[a]);
}

static void note_epoch(TuneNetworkFit *out, const TuneNetworkFitOptions *o, const TuneNetworkEpoch *e)
{
    if (e->epoch <= TUNE_MAX_EPOCHS) {
        out->epoch[e->epoch] = *e;
        out->num_epochs = e->epoch + 1;
    }
    if (o->on_epoch)
        o->on_epoch(e, o->ctx);
}

/* The epochs, each judged by the validation loss; the best one's weights left in the network. */
static bool epochs(Fit *f, const TuneNetworkSet *validation, TuneNetworkFit *out, double start)
{
    const TuneNetworkFitOptions *o = f->o;
    const bool judged = validation->count > 0;
    size_t *order = malloc((f->train->count ? f->train->count : 1) * sizeof *order);
    Snapshot best = {{0}};
    bool ok = order && snapshot_init(&best, f);
    double best_loss = judged ? out->valid_before.total : INFINITY, rate = o->learning_rate;
    int halvings = 0;
    const int max_epochs = o->max_epochs < TUNE_MAX_EPOCHS ? o->max_epochs : TUNE_MAX_EPOCHS;
    if (ok)
        snapshot_take(&best, f);
    for (int epoch = 1; ok && epoch <= max_epochs && halvings <= o->patience; epoch++) {
        TuneNetworkEpoch e = {.epoch = epoch, .learning_rate = rate};
        if (!(ok = run_epoch(f, order, epoch, rate, &e.train)))
            break;
        e.validation = judged ? tune_network_loss(f->net, validation, o->policy_weight, o->threads)
                              : (TuneNetworkLoss){NAN, NAN, NAN};
        e.best = !judged || e.validation.total < best_loss - 1e-7 * fabs(best_loss);
        e.seconds = clock_seconds() - start;
        if (e.best) {
            best_loss = e.validation.total;
            snapshot_take(&best, f);
            out->best_epoch = epoch;
        } else {
            snapshot_restore(&best, f);
            rate /= 2;
            halvings++;
        }
        note_epoch(out, o, &e);
    }
    if (ok)
        snapshot_restore(&best, f);
    snapshot_free(&best);
    free(order);
    return ok;
}

/* The quantization over the training set's positions kept whole, and its cost. */
static bool quantize(const Game *g, Network *net, const TuneNetworkSet *train, const TuneNetworkSet *validation,
                     double policy_weight, TuneNetworkFit *out)
{
    if (!network_quantize(net, g, train->sample, (int)train->num_sample))
        return false;
    const TuneNetworkSet *s = validation->num_sample ? validation : train;
    out->sample_positions = s->num_sample;
    out->sample_is_validation = s == validation;
    out->sample_float = tune_network_loss_sample(net, s, policy_weight);
    out->sample_quantized = tune_network_loss_quantized(g, net, s, policy_weight);
    return true;
}

static bool sets_fit(const Network *net, const TuneNetworkSet *a, const TuneNetworkSet *b, Error *err)
{
    const TuneNetworkSet *sets[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        if (sets[i]->num_inputs != net->num_inputs)
            return error_set(err, "the positions were read for %d inputs, the network has %d", sets[i]->num_inputs,
                             net->num_inputs);
        for (size_t k = 0; k < sets[i]->count; k++)
            if (sets[i]->bucket[k] >= net->buckets)
                return error_set(err, "a position's bucket %d is past the network's %d", sets[i]->bucket[k],
                                 net->buckets);
    }
    return true;
}

/* Drops the value head where the options say so, or (auto) where it does not pay for itself on
 * the validation positions (the training ones where there are none); measures it either way. */
static void judge_value_head(Network *net, const TuneNetworkSet *train, const TuneNetworkSet *validation,
                             const TuneNetworkFitOptions *o, TuneNetworkFit *out)
{
    const TuneNetworkSet *judge = validation->count ? validation : train;
    const double with = tune_network_loss(net, judge, o->policy_weight, o->threads).value;
    Network without = *net;                 /* the same arrays but the head's, zeroed on a copy */
    const size_t nv = (size_t)net->buckets * NETWORK_L2, nb = (size_t)net->buckets;
    float *wv = calloc(nv ? nv : 1, sizeof *wv), *bv = calloc(nb ? nb : 1, sizeof *bv);
    out->value_with = out->value_without = with;
    if (wv && bv) {
        without.wv = wv;
        without.bv = bv;
        out->value_without = tune_network_loss(&without, judge, o->policy_weight, o->threads).value;
    }
    free(wv);
    free(bv);
    const bool pays = out->value_without - with >= TUNE_NETWORK_VALUE_GAIN;
    if (o->value_head == TUNE_VALUE_HEAD_DROP || (o->value_head == TUNE_VALUE_HEAD_AUTO && !pays)) {
        network_drop_value_head(net);
        out->value_head_dropped = true;
    } else
        net->priors_only = false;   /* a fit from a priors-only network that now keeps a head */
}

bool tune_network_fit(const Game *g, Network *net, const TuneNetworkSet *train, const TuneNetworkSet *validation,
                      const TuneNetworkFitOptions *o, TuneNetworkFit *out, Error *err)
{
    const double start = clock_seconds();
    memset(out, 0, sizeof *out);
    if (!sets_fit(net, train, validation, err))
        return false;
    out->train_before = tune_network_loss(net, train, o->policy_weight, o->threads);
    out->valid_before = tune_network_loss(net, validation, o->policy_weight, o->threads);
    note_epoch(out, o, &(TuneNetworkEpoch){0, out->train_before, out->valid_before, o->learning_rate,
                                          clock_seconds() - start, true});
    Fit f;
    bool ok = fit_init(&f, net, train, o) && epochs(&f, validation, out, start);
    fit_free(&f);
    if (ok) {
        judge_value_head(net, train, validation, o, out);
        out->train_after = tune_network_loss(net, train, o->policy_weight, o->threads);
        out->valid_after = tune_network_loss(net, validation, o->policy_weight, o->threads);
        ok = quantize(g, net, train, validation, o->policy_weight, out);
    }
    out->seconds = clock_seconds() - start;
    return ok || error_failed(err, "out of memory fitting the network");
}
