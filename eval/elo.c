/*
 * elo.c - score, Elo, confidence intervals, LOS and normalized Elo from trinomial or
 * pentanomial counts (elo.h; docs/STATISTICS.md derives every formula).
 *
 * Both kinds of count are treated alike as a sample of N independent draws of a score in [0, 1]:
 * a game's score (0, 1/2, 1) for trinomial counts, a pair's mean score (0, 1/4, ..., 1) for
 * pentanomial ones.  The interval is the normal approximation mean +- z sd / sqrt(N) mapped
 * through the Elo curve, as cutechess (elo.cpp) and fishtest (stat_util.get_elo) compute it;
 * for pairs the sample variance is that of the pair scores, which is what makes pairs worth
 * playing (the correlation between the two games of a pair is in it, not assumed away).
 */
#include "eval/elo.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

/* Mean, variance, skewness and excess kurtosis of a sample given as counts of the scores
 * i / (k - 1), i = 0..k-1; the population (divide-by-N) moments, as fishtest and cutechess use. */
typedef struct {
    double n;          /* draws in the sample: games or pairs */
    double mean, var, skewness, exkurt;
} Moments;

static bool sample_moments(const int64_t *counts, int k, Moments *m)
{
    double n = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        if (counts[i] < 0)
            return false;
        n += (double)counts[i];
        sum += (double)counts[i] * i / (k - 1);
    }
    if (n <= 0)
        return false;
    double mean = sum / n, m2 = 0, m3 = 0, m4 = 0;
    for (int i = 0; i < k; i++) {
        double p = (double)counts[i] / n, d = (double)i / (k - 1) - mean;
        m2 += p * d * d;
        m3 += p * d * d * d;
        m4 += p * d * d * d * d;
    }
    bool spread = m2 > 0;    /* all games alike: no shape to describe */
    *m = (Moments){n, mean, m2, spread ? m3 / pow(m2, 1.5) : NAN, spread ? m4 / (m2 * m2) - 3 : NAN};
    return true;
}

double elo_from_score(double score)
{
    if (!(score >= 0 && score <= 1))
        return NAN;
    if (score == 0)
        return -INFINITY;
    if (score == 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double elo_to_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double elo_nelo_from_score(double score, double sigma)
{
    return (score - 0.5) / sigma * NELO_PER_T;
}

double elo_nelo_to_score(double nelo, double sigma)
{
    return 0.5 + nelo / NELO_PER_T * sigma;
}

double elo_normal_cdf(double x)
{
    return gsl_cdf_ugaussian_P(x);
}

double elo_normal_quantile(double p)
{
    return gsl_cdf_ugaussian_Pinv(p);
}

double elo_perfect_score_bound(double n, double confidence)
{
    return elo_from_score(pow((1 - confidence) / 2, 1 / n));
}

static double clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* Everything but LOS and the draw ratio, which the two kinds of count define differently.
 * games_per_draw is 1 for games, 2 for pairs: a pair's mean score has (if the two games were
 * independent) half a game's variance, so sqrt(2) converts its spread back to a per-game one. */
static void fill_estimate(const Moments *m, double games_per_draw, double z, EloEstimate *out)
{
    double sd_mean = sqrt(m->var / m->n);
    out->games = m->n * games_per_draw;
    out->score = m->mean;
    out->elo = elo_from_score(m->mean);
    out->elo_lower = elo_from_score(clamp01(m->mean - z * sd_mean));
    out->elo_upper = elo_from_score(clamp01(m->mean + z * sd_mean));
    out->elo_margin = (out->elo_upper - out->elo_lower) / 2;
    out->sigma = sqrt(m->var * games_per_draw);

    /* The t-value of the sample and its asymptotic variance (delta method; fishtest's
     * raw-statistics page, t_conf): var(t) = 1 - t skewness + t^2 (excess kurtosis + 2) / 4. */
    double t = (m->mean - 0.5) / sqrt(m->var);
    double var_t = fmax(1 - t * m->skewness + 0.25 * t * t * (m->exkurt + 2), 0);
    double half = z * sqrt(var_t / m->n);
    double scale = NELO_PER_T / sqrt(games_per_draw);
    out->nelo = m->var > 0 ? t * scale : NAN;
    out->nelo_lower = m->var > 0 ? (t - half) * scale : NAN;
    out->nelo_upper = m->var > 0 ? (t + half) * scale : NAN;
}

static bool confidence_valid(double confidence)
{
    return confidence > 0 && confidence < 1;
}

bool elo_trinomial(const Trinomial *c, double confidence, EloEstimate *out)
{
    int64_t counts[3] = {c->losses, c->draws, c->wins};
    Moments m;
    if (!confidence_valid(confidence) || !sample_moments(counts, 3, &m))
        return false;
    fill_estimate(&m, 1, elo_normal_quantile(0.5 + confidence / 2), out);
    /* cutechess: LOS = Phi((W - L) / sqrt(W + L)), draws carrying no information on who is
     * stronger; with no decisive game there is no evidence either way. */
    double decisive = (double)(c->wins + c->losses);
    out->los = decisive > 0 ? elo_normal_cdf((double)(c->wins - c->losses) / sqrt(decisive)) : 0.5;
    out->draw_ratio = (double)c->draws / m.n;
    return true;
}

bool elo_pentanomial(const Pentanomial *c, double confidence, EloEstimate *out)
{
    Moments m;
    if (!confidence_valid(confidence) || !sample_moments(c->pairs, 5, &m))
        return false;
    fill_estimate(&m, 2, elo_normal_quantile(0.5 + confidence / 2), out);
    /* fishtest get_elo: LOS = Phi((score - 0.5) / sd of the mean score). */
    double sd_mean = sqrt(m.var / m.n);
    out->los = sd_mean > 0 ? elo_normal_cdf((m.mean - 0.5) / sd_mean) : m.mean > 0.5 ? 1 : m.mean < 0.5 ? 0 : 0.5;
    out->draw_ratio = (double)c->pairs[2] / m.n;
    return true;
}
