/*
 * tune_network_pass.c - the float model of docs/NETWORK.md on one position of a fit's set,
 * forward and back (tune_network_pass.h), and the losses over a set: the float model's, and the
 * quantized network's on the positions kept whole (tune_network.h).
 *
 * Every sum runs in a fixed order (inputs ascending, units in order) in one thread, so a
 * position's numbers never depend on which thread computed them.
 */
#include "tune_network_pass.h"

#include "core/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float clamp01(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* log(1 + e^z) - t z, the cross-entropy of sigmoid(z) against t, and its derivative. */
static double value_loss(double z, double t, double *dz)
{
    const double e = exp(-fabs(z));
    const double p = z >= 0 ? 1 / (1 + e) : e / (1 + e);
    *dz = p - t;
    return (z > 0 ? z : 0) + log1p(e) - t * z;
}

/* The hidden layers: h1 = clamp(b1 + the inputs' W1 rows), h2 = clamp(b2 + W2' h1); a and z2
 * (before the clamps) into a and z2. */
static void hidden(const Network *net, const TuneNetworkSet *set, size_t i, float *a, float *h1, float *z2,
                   float *h2)
{
    const int h = net->h;
    memcpy(a, net->b1, (size_t)h * sizeof *a);
    for (uint64_t k = set->input_start[i]; k < set->input_start[i + 1]; k++) {
        const float *row = net->w1 + (size_t)set->input[k] * (size_t)h;
        for (int u = 0; u < h; u++)
            a[u] += row[u];
    }
    for (int u = 0; u < h; u++)
        h1[u] = clamp01(a[u]);
    memcpy(z2, net->b2, NETWORK_L2 * sizeof *z2);
    for (int j = 0; j < h; j++) {
        const float *w = net->w2 + (size_t)j * NETWORK_L2;
        const float x = h1[j];
        for (int k = 0; k < NETWORK_L2; k++)
            z2[k] += x * w[k];
    }
    for (int k = 0; k < NETWORK_L2; k++)
        h2[k] = clamp01(z2[k]);
}

static double dot32(const float *w, const float *x)
{
    double s = 0;
    for (int k = 0; k < NETWORK_L2; k++)
        s += (double)w[k] * x[k];
    return s;
}

/* The policy's cross-entropy; dl the gradient of its logits, times the weight. */
static double policy_loss(const Network *net, const TuneNetworkSet *set, size_t i, const float *h2, double weight,
                          double *dl)
{
    const uint64_t first = set->move_start[i], n = set->move_start[i + 1] - first;
    double top = -INFINITY;
    for (uint64_t m = 0; m < n; m++) {
        const uint32_t a = set->action[first + m];
        dl[m] = set->skip_prior[first + m] + net->be[a] + dot32(net->we + (size_t)a * NETWORK_L2, h2);
        top = dl[m] > top ? dl[m] : top;
    }
    double sum = 0;
    for (uint64_t m = 0; m < n; m++)
        sum += exp(dl[m] - top);
    const double log_sum = top + log(sum);
    double loss = 0;
    for (uint64_t m = 0; m < n; m++) {
        const double log_p = dl[m] - log_sum, t = set->share[first + m];
        if (t > 0)
            loss -= t * log_p;
        dl[m] = weight * (exp(log_p) - t);
    }
    return loss;
}

/* The gradient back through the heads and the hidden layers into out->dz2 and out->da. */
static void backward_pass(const Network *net, const TuneNetworkSet *set, size_t i, const float *a, const float *z2,
                          NetworkPass *out)
{
    const int h = net->h, b = set->bucket[i];
    float dh2[NETWORK_L2];
    for (int k = 0; k < NETWORK_L2; k++)
        dh2[k] = (float)(out->dv * net->wv[(size_t)b * NETWORK_L2 + (size_t)k]);
    const uint64_t first = set->move_start[i], n = set->move_start[i + 1] - first;
    for (uint64_t m = 0; m < n; m++) {
        const float *we = net->we + (size_t)set->action[first + m] * NETWORK_L2;
        for (int k = 0; k < NETWORK_L2; k++)
            dh2[k] += (float)(out->dl[m] * we[k]);
    }
    for (int k = 0; k < NETWORK_L2; k++)
        out->dz2[k] = z2[k] > 0 && z2[k] < 1 ? dh2[k] : 0.0f;
    for (int j = 0; j < h; j++) {
        const float *w = net->w2 + (size_t)j * NETWORK_L2;
        float dh1 = 0;
        for (int k = 0; k < NETWORK_L2; k++)
            dh1 += w[k] * out->dz2[k];
        out->da[j] = a[j] > 0 && a[j] < 1 ? dh1 : 0.0f;
    }
}

void tune_network_pass(const Network *net, const TuneNetworkSet *set, size_t i, double policy_weight, bool backward,
                       NetworkPass *out)
{
    float a[NETWORK_MAX_H], z2[NETWORK_L2];
    hidden(net, set, i, a, out->h1, z2, out->h2);
    const int b = set->bucket[i];
    const double v = set->skip_value[i] + net->bv[b] + dot32(net->wv + (size_t)b * NETWORK_L2, out->h2);
    out->value_loss = value_loss(v, set->target[i], &out->dv);
    out->policy_loss = policy_loss(net, set, i, out->h2, policy_weight, out->dl);
    if (backward)
        backward_pass(net, set, i, a, z2, out);
}

/* ---------------------------------------------------------------- losses */

/* Positions a chunk of a loss's sums: the chunks' sums are added in order. */
enum { LOSS_CHUNK = 256 };

static TuneNetworkLoss loss_of(double value, double policy, size_t count, size_t with_policy, double weight)
{
    const double n = count ? (double)count : NAN;
    return (TuneNetworkLoss){value / n, with_policy ? policy / (double)with_policy : NAN,
                             (value + weight * policy) / n};
}

static size_t largest_move_count(const TuneNetworkSet *set)
{
    size_t most = 1;
    for (size_t i = 0; i < set->count; i++)
        if (set->move_start[i + 1] - set->move_start[i] > most)
            most = set->move_start[i + 1] - set->move_start[i];
    return most;
}

TuneNetworkLoss tune_network_loss(const Network *net, const TuneNetworkSet *set, double policy_weight, int threads)
{
    const long chunks = (long)((set->count + LOSS_CHUNK - 1) / LOSS_CHUNK);
    double *sums = malloc(2 * (size_t)(chunks ? chunks : 1) * sizeof *sums);
    const size_t most = largest_move_count(set);
    if (!sums)
        return (TuneNetworkLoss){NAN, NAN, NAN};
    bool ok = true;
#pragma omp parallel num_threads(threads_or_default(threads)) reduction(&& : ok)
    {
        float h1[NETWORK_MAX_H];
        NetworkPass pass = {.h1 = h1, .dl = malloc(most * sizeof(double))};
        ok = pass.dl != NULL;
#pragma omp for schedule(dynamic, 4)
        for (long c = 0; c < chunks; c++) {
            double value = 0, policy = 0;
            for (size_t i = (size_t)c * LOSS_CHUNK; ok && i < set->count && i < (size_t)(c + 1) * LOSS_CHUNK; i++) {
                tune_network_pass(net, set, i, policy_weight, false, &pass);
                value += pass.value_loss;
                policy += pass.policy_loss;
            }
            if (ok) {
                sums[2 * c] = value;
                sums[2 * c + 1] = policy;
            }
        }
        free(pass.dl);
    }
    double value = 0, policy = 0;
    for (long c = 0; ok && c < chunks; c++) {
        value += sums[2 * c];
        policy += sums[2 * c + 1];
    }
    free(sums);
    if (!ok)
        return (TuneNetworkLoss){NAN, NAN, NAN};
    return loss_of(value, policy, set->count, set->with_policy, policy_weight);
}

/* A position kept whole through the integers: the value's and the policy's losses. */
static void quantized_position(const Game *g, const Network *net, NetworkScratch *scratch, const TuneNetworkSet *set,
                               size_t k, Move *moves, float *logits, double *value, double *policy)
{
    const Position *pos = &set->sample[k];
    const size_t row = set->sample_row[k];
    double dz;
    *value = value_loss(set->skip_value[row] + network_value(net, g, scratch, pos), set->target[row], &dz);
    *policy = 0;
    const uint64_t first = set->move_start[row], n = set->move_start[row + 1] - first;
    if (n == 0 || game_gen_moves(g, pos, moves) != (int)n)
        return;
    network_priors(net, g, scratch, pos, moves, (int)n, logits);
    double top = -INFINITY, sum = 0;
    for (uint64_t m = 0; m < n; m++)
        top = set->skip_prior[first + m] + logits[m] > top ? set->skip_prior[first + m] + logits[m] : top;
    for (uint64_t m = 0; m < n; m++)
        sum += exp(set->skip_prior[first + m] + logits[m] - top);
    for (uint64_t m = 0; m < n; m++)
        if (set->share[first + m] > 0)
            *policy -= set->share[first + m] * (set->skip_prior[first + m] + logits[m] - top - log(sum));
}

static size_t sample_with_policy(const TuneNetworkSet *set)
{
    size_t n = 0;
    for (size_t k = 0; k < set->num_sample; k++)
        n += set->move_start[set->sample_row[k] + 1] > set->move_start[set->sample_row[k]];
    return n;
}

TuneNetworkLoss tune_network_loss_quantized(const Game *g, const Network *net, const TuneNetworkSet *set,
                                           double policy_weight)
{
    NetworkScratch *scratch = network_scratch_new(net);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    float *logits = malloc(MAX_MOVES * sizeof *logits);
    double value = 0, policy = 0;
    for (size_t k = 0; scratch && moves && logits && k < set->num_sample; k++) {
        double v, p;
        quantized_position(g, net, scratch, set, k, moves, logits, &v, &p);
        value += v;
        policy += p;
    }
    const bool ok = scratch && moves && logits;
    network_scratch_free(scratch);
    free(moves);
    free(logits);
    if (!ok)
        return (TuneNetworkLoss){NAN, NAN, NAN};
    return loss_of(value, policy, set->num_sample, sample_with_policy(set), policy_weight);
}

TuneNetworkLoss tune_network_loss_sample(const Network *net, const TuneNetworkSet *set, double policy_weight)
{
    float h1[NETWORK_MAX_H];
    NetworkPass pass = {.h1 = h1, .dl = malloc(largest_move_count(set) * sizeof(double))};
    double value = 0, policy = 0;
    for (size_t k = 0; pass.dl && k < set->num_sample; k++) {
        tune_network_pass(net, set, set->sample_row[k], policy_weight, false, &pass);
        value += pass.value_loss;
        policy += pass.policy_loss;
    }
    const bool ok = pass.dl != NULL;
    free(pass.dl);
    if (!ok)
        return (TuneNetworkLoss){NAN, NAN, NAN};
    return loss_of(value, policy, set->num_sample, sample_with_policy(set), policy_weight);
}
