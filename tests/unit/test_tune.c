/*
 * test_tune.c - the tuner's model and fit (tuner/tune_fit.c, tune_stats.c, tune_sums.c) on
 * synthetic positions built in memory: features drawn from a fixed Gaussian distribution
 * (correlated, like real features), results drawn from the logistic model with known weights.
 * Checks that the fit finds the weights within their standard errors, that the standard errors
 * are the real spread of the estimates, that the weights are the same bits whatever the thread
 * count, and that features the data cannot identify are flagged.
 */
#include "core/rng.h"
#include "test.h"
#include "tuner/tune.h"

#include <math.h>
#include <stdlib.h>

/* A standard normal deviate (Box-Muller). */
static double gaussian(Rng *rng)
{
    double u = 1.0 - rng_double(rng), v = rng_double(rng);
    return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* The true weights of the synthetic model: a spread of sizes and signs, one of them 0. */
static double true_weight(int j) { return j == 3 ? 0.0 : 0.9 * sin(1.7 * j + 0.4); }

/* count positions of f features: x_j = 0.5 (g_j + 0.6 g_{j-1}) + 0.1 for independent normal g,
 * so neighbouring features correlate (0.5) and have a mean, like real ones; the result is 1 with
 * probability sigmoid(w . x) computed from the stored (float) features. */
static bool synthetic_set(TuneSet *s, int f, size_t count, const double *w, uint64_t seed)
{
    if (!tune_set_alloc(s, f, 0, count))
        return false;
    Rng rng = rng_seed(seed, 0);
    for (size_t i = 0; i < count; i++) {
        float *x = s->features + i * (size_t)f;
        double previous = gaussian(&rng), z = 0;
        for (int j = 0; j < f; j++) {
            double g = gaussian(&rng);
            x[j] = (float)(0.5 * (g + 0.6 * previous) + 0.1);
            previous = g;
            z += w[j] * x[j];
        }
        s->result[i] = s->target[i] = rng_double(&rng) < 1.0 / (1.0 + exp(-z)) ? 1.0 : 0.0;
    }
    return true;
}

/* Ten Newton steps, one thread: enough for the small sets here. */
static const TuneFitOptions FIT_10 = {.l2 = 1, .max_iterations = 10, .tolerance = 1e-8, .threads = 1};

static Weights zero_weights(int f)
{
    Weights w = {.variant = VARIANT_EPAMINONDAS, .count = f};
    return w;
}

/* Fits s from zero weights with a negligible penalty; false (and a failure) if it does not
 * converge. */
static bool fit(TestContext *t, const TuneSet *s, int threads, TuneFit *out)
{
    TuneFitOptions o = tune_fit_defaults();
    o.l2 = 1e-9;
    o.threads = threads;
    Weights init = zero_weights(s->num_features);
    Error err;
    bool ok = tune_fit(s, &init, &o, out, &err);
    if (!ok)
        fprintf(stderr, "  fit: %s\n", err.msg);
    CHECK(t, ok);
    CHECK(t, out->converged);
    return ok && out->converged;
}

static void test_recovers_known_weights(TestContext *t)
{
    enum { F = 18, N = 100000 };
    double w[F];
    for (int j = 0; j < F; j++)
        w[j] = true_weight(j);
    TuneSet s;
    CHECK(t, synthetic_set(&s, F, N, w, 11));
    TuneFit r;
    TuneWeightStat st[F];
    Error err;
    if (s.features && fit(t, &s, 0, &r) && tune_weight_stats(&s, &r.weights, 0, st, &err)) {
        double sum_z2 = 0;
        for (int j = 0; j < F; j++) {
            double z = (r.weights.w[j] - w[j]) / st[j].std_error;
            sum_z2 += z * z;
            if (!(fabs(z) < 3.5))
                fprintf(stderr, "  weight %d: %.4f, true %.4f, se %.4f (z %.2f)\n", j, r.weights.w[j], w[j],
                        st[j].std_error, z);
            CHECK(t, fabs(z) < 3.5);
            CHECK(t, st[j].identify == TUNE_IDENTIFIED);
            /* The information of a weight is about N p(1-p) var(x): se ~ 1 / sqrt(N x 0.15 x 0.33). */
            CHECK(t, st[j].std_error > 0.005);
            if (st[j].std_error > 0.005)
                CHECK(t, st[j].std_error < 0.05);
        }
        /* The z-scores of 18 weights: sum z^2 is chi-square with 18 degrees of freedom, so its mean is
         * in [0.3, 2.4] with probability 99.8% (and this seed is fixed). */
        CHECK(t, sum_z2 / F > 0.3);
        CHECK(t, sum_z2 / F < 2.4);
        CHECK(t, r.iterations >= 2);
        CHECK(t, r.iterations <= 12);
    }
    tune_set_free(&s);
}

/* Over many independent data sets, the standard deviation of each fitted weight must match the
 * standard error the fit reports (their RMS over the replicates). */
static void test_standard_errors_match_spread(TestContext *t)
{
    enum { F = 4, N = 4000, REPLICATES = 40 };
    const double w[F] = {1.0, -0.5, 0.25, 0.0};
    double sum[F] = {0}, sum_sq[F] = {0}, se_sq[F] = {0};
    for (int r = 0; r < REPLICATES; r++) {
        TuneSet s;
        TuneFit res;
        TuneWeightStat st[F];
        Error err;
        bool ok = synthetic_set(&s, F, N, w, 100 + (uint64_t)r) && fit(t, &s, 0, &res) &&
                  tune_weight_stats(&s, &res.weights, 0, st, &err);
        CHECK(t, ok);
        for (int j = 0; ok && j < F; j++) {
            sum[j] += res.weights.w[j];
            sum_sq[j] += res.weights.w[j] * res.weights.w[j];
            se_sq[j] += st[j].std_error * st[j].std_error;
        }
        tune_set_free(&s);
    }
    for (int j = 0; j < F; j++) {
        double mean = sum[j] / REPLICATES;
        double spread = sqrt((sum_sq[j] - REPLICATES * mean * mean) / (REPLICATES - 1));
        double se = sqrt(se_sq[j] / REPLICATES), ratio = spread / se;
        /* The sample SD of 40 values is within about 11% of the truth (one SD): allow 3. */
        if (!(ratio > 0.67 && ratio < 1.4))
            fprintf(stderr, "  weight %d: spread %.4f, standard error %.4f\n", j, spread, se);
        CHECK(t, ratio > 0.67);
        CHECK(t, ratio < 1.4);
        CHECK(t, fabs(mean - w[j]) < 4 * se / sqrt(REPLICATES));
    }
}

static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

static void test_threads_same_bits(TestContext *t)
{
    enum { F = 18, N = 70000 };     /* nine blocks of TUNE_BLOCK positions */
    double w[F];
    for (int j = 0; j < F; j++)
        w[j] = true_weight(j);
    TuneSet s;
    CHECK(t, synthetic_set(&s, F, N, w, 5));
    TuneFit one, two, three;
    TuneWeightStat st1[F], st2[F];
    Error err;
    if (s.features && fit(t, &s, 1, &one) && fit(t, &s, 2, &two) && fit(t, &s, 3, &three)) {
        CHECK(t, same_bits(one.weights.w, two.weights.w, sizeof one.weights.w));
        CHECK(t, same_bits(one.weights.w, three.weights.w, sizeof one.weights.w));
        CHECK(t, one.iterations == two.iterations);
        CHECK(t, one.decrement == two.decrement);
        CHECK(t, tune_weight_stats(&s, &one.weights, 1, st1, &err));
        CHECK(t, tune_weight_stats(&s, &one.weights, 2, st2, &err));
        for (int j = 0; j < F; j++)
            CHECK(t, same_bits(&st1[j].std_error, &st2[j].std_error, sizeof(double)) &&
                         same_bits(&st1[j].mean, &st2[j].mean, sizeof(double)) && st1[j].identify == st2[j].identify);
        TuneLoss a = tune_loss(&s, &one.weights, 1), b = tune_loss(&s, &one.weights, 2);
        CHECK(t, same_bits(&a, &b, sizeof a));
    }
    tune_set_free(&s);
}

/* Positions where feature 2 is always 0, feature 4 repeats feature 3 and feature 5 is constant. */
static bool degenerate_set(TuneSet *s, size_t count)
{
    const double w[6] = {0.8, -0.6, 0, 0.5, 0, 0};
    if (!synthetic_set(s, 6, count, w, 21))
        return false;
    for (size_t i = 0; i < count; i++) {
        float *x = s->features + i * 6;
        x[2] = 0;
        x[4] = x[3];
        x[5] = 0.25f;
    }
    return true;
}

static void check_flags(TestContext *t, const TuneWeightStat *st)
{
    CHECK(t, st[0].identify == TUNE_IDENTIFIED);
    CHECK(t, isfinite(st[0].std_error));
    CHECK(t, st[1].identify == TUNE_IDENTIFIED);
    CHECK(t, isfinite(st[1].std_error));
    CHECK(t, st[2].identify == TUNE_ALWAYS_ZERO);
    CHECK(t, isnan(st[2].std_error));
    CHECK(t, st[3].identify == TUNE_COLLINEAR);
    CHECK(t, st[3].null_share > 0.4);
    CHECK(t, st[4].identify == TUNE_COLLINEAR);
    CHECK(t, st[4].null_share > 0.4);
    CHECK(t, st[5].identify == TUNE_CONSTANT);
}

static void test_unidentifiable_flagged(TestContext *t)
{
    TuneSet s;
    CHECK(t, degenerate_set(&s, 20000));
    for (int penalised = 0; s.features && penalised < 2; penalised++) {
        TuneFitOptions o = tune_fit_defaults();
        o.l2 = penalised ? 1.0 : 0.0;
        Weights init = zero_weights(6);
        init.w[2] = 0.75;           /* a weight the data cannot move */
        TuneFit r;
        TuneWeightStat st[6];
        Error err;
        bool ok = tune_fit(&s, &init, &o, &r, &err) && tune_weight_stats(&s, &r.weights, 0, st, &err);
        CHECK(t, ok);
        if (!ok)
            continue;
        check_flags(t, st);
        /* The duplicated pair shares its weight equally; without a penalty the always-0 feature
         * keeps its start value, with one it goes to 0. */
        CHECK(t, fabs(r.weights.w[3] - r.weights.w[4]) < 1e-6);
        CHECK(t, penalised ? fabs(r.weights.w[2]) < 1e-9 : r.weights.w[2] == 0.75);
        CHECK(t, isfinite(r.weights.w[0]));
        CHECK(t, fabs(r.weights.w[0] - 0.8) < 0.15);
    }
    tune_set_free(&s);
}

static void test_fit_refuses(TestContext *t)
{
    TuneSet empty = {0};
    empty.num_features = 3;
    Weights w = zero_weights(3);
    TuneFit r;
    Error err;
    CHECK(t, !tune_fit(&empty, &w, &FIT_10, &r, &err) && !err.failure);
    TuneSet s;
    const double truth[2] = {1, -1};
    CHECK(t, synthetic_set(&s, 2, 100, truth, 3));
    CHECK(t, !tune_fit(&s, &w, &FIT_10, &r, &err) && !err.failure);
    CHECK(t, strstr(err.msg, "3 features") != NULL);
    TuneLoss l = tune_loss(&empty, &w, 1);
    CHECK(t, isnan(l.target));
    CHECK(t, isnan(tune_baseline_loss(&s, &empty).target));
    tune_set_free(&s);
}

/* Losses: the baseline predicts the training mean; a perfect separation needs no penalty to
 * drive the loss down, and max_iterations 0 evaluates the start only. */
static void test_losses(TestContext *t)
{
    TuneSet s;
    CHECK(t, tune_set_alloc(&s, 1, 0, 4));
    const float x[4] = {1, 1, -1, -1};
    const double y[4] = {1, 0.5, 0, 0.5};
    for (int i = 0; i < 4; i++) {
        s.features[i] = x[i];
        s.target[i] = s.result[i] = y[i];
    }
    Weights w = zero_weights(1);
    TuneLoss l = tune_loss(&s, &w, 1);
    CHECK(t, fabs(l.target - log(2.0)) < 1e-12);
    TuneLoss b = tune_baseline_loss(&s, &s);
    CHECK(t, fabs(b.target - log(2.0)) < 1e-12);
    w.w[0] = 2;
    l = tune_loss(&s, &w, 1);
    /* The loss softplus(z) - y z at z = +-2: log(1 + e^-2) for the decided positions (target 1 at
     * +2, 0 at -2), one more for the draws. */
    double sp = log1p(exp(-2.0)), expected = sp + 0.5;
    CHECK(t, fabs(l.target - expected) < 1e-12);
    TuneFit r;
    Error err;
    const TuneFitOptions no_steps = {.l2 = 0, .max_iterations = 0, .tolerance = 1e-8, .threads = 1};
    CHECK(t, tune_fit(&s, &w, &no_steps, &r, &err) && r.iterations == 0);
    CHECK(t, r.weights.w[0] == 2);
    const TuneFitOptions plain = {.l2 = 0, .max_iterations = 50, .tolerance = 1e-12, .threads = 1};
    CHECK(t, tune_fit(&s, &w, &plain, &r, &err) && r.converged);
    /* With draws counting half, the mean target is 0.75 at x = 1 and 0.25 at x = -1, so the
     * optimum has sigmoid(w) = 0.75: w = log 3. */
    CHECK(t, fabs(r.weights.w[0] - log(3.0)) < 1e-6);
    tune_set_free(&s);
}

const TestCase tune_tests[] = {
    {"recovers_known_weights", test_recovers_known_weights},
    {"standard_errors_match_spread", test_standard_errors_match_spread},
    {"threads_same_bits", test_threads_same_bits},
    {"unidentifiable_flagged", test_unidentifiable_flagged},
    {"fit_refuses", test_fit_refuses},
    {"losses", test_losses},
    TEST_END,
};
