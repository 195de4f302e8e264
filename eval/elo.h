/*
 * elo.h - what a match between two players says about their strength difference: the score,
 * the logistic Elo difference with its confidence interval, the likelihood of superiority, the
 * draw ratio and normalized Elo, from independent games (trinomial counts) or from game pairs
 * played with colours swapped (pentanomial counts).
 *
 * The formulas are those of cutechess (trinomial Elo, interval and LOS) and fishtest (pairs,
 * normalized Elo); docs/STATISTICS.md gives each with its source.  Every function here is a pure
 * function of its arguments, safe to call from any thread.
 */
#ifndef LEUCTRA_ELO_H
#define LEUCTRA_ELO_H

#include <stdbool.h>
#include <stdint.h>

/* Normalized Elo per unit of t-value, 800 / ln 10 (fishtest's nelo_divided_by_nt): chosen so
 * that with no draws and a small difference, normalized and logistic Elo coincide. */
#define NELO_PER_T 347.43558552260146

/* Games between two players from the first player's side. */
typedef struct {
    int64_t wins, draws, losses;
} Trinomial;

/* Game pairs (the same opening played twice, colours swapped) from the first player's side:
 * pairs[k] counts the pairs in which the first player scored k/2 of the 2 points, so
 * pairs = {LL, LD+DL, WL+LW+DD, WD+DW, WW}, the order fishtest writes "Ptnml(0-2)". */
typedef struct {
    int64_t pairs[5];
} Pentanomial;

typedef struct {
    double games;       /* games counted (pentanomial: 2 per pair) */
    double score;       /* mean points per game of the first player, in [0, 1] */
    double elo;         /* logistic Elo of the score: -INFINITY / +INFINITY at 0 / 1 */
    double elo_lower;   /* the interval: the Elo of the ends of the normal-approximation */
    double elo_upper;   /*   interval of the score (ends clamped to [0, 1]) */
    double elo_margin;  /* (elo_upper - elo_lower) / 2: the "+/-" cutechess and fishtest print */
    double los;         /* likelihood of superiority, in [0, 1] */
    double draw_ratio;  /* trinomial: draws / games; pentanomial: pairs scoring 1 point / pairs */
    double sigma;       /* standard deviation of one game's score (pairs: sqrt(2) x that of
                           the pair's mean score, the per-game figure the pairs imply) */
    double nelo;        /* normalized Elo, (score - 0.5) / sigma * NELO_PER_T; NAN if sigma is 0 */
    double nelo_lower;  /* its interval, from the asymptotic variance of the t-value */
    double nelo_upper;
} EloEstimate;

/* Logistic Elo: score = 1 / (1 + 10^(-elo / 400)).  elo_from_score gives -INFINITY at 0,
 * +INFINITY at 1 and NAN outside [0, 1]. */
double elo_from_score(double score);
double elo_to_score(double elo);

/* Normalized Elo for a given per-game standard deviation of the score (EloEstimate.sigma). */
double elo_nelo_from_score(double score, double sigma);
double elo_nelo_to_score(double nelo, double sigma);

/* The Elo that a perfect score bounds: after n trials (games or pairs) all won, the exact
 * one-sided bound of the score at level (1 + confidence) / 2 is ((1 - confidence) / 2)^(1/n)
 * (Clopper-Pearson), and this is its Elo; n trials all lost bound the Elo by its negative.  The
 * point estimate and the normal interval are infinite there and say nothing. */
double elo_perfect_score_bound(double n, double confidence);

/* The standard normal distribution function and its inverse (for confidence levels). */
double elo_normal_cdf(double x);
double elo_normal_quantile(double p);

/* Fill *out from the counts at the given two-sided confidence level (0.95 for the usual 95%
 * interval).  False, leaving *out untouched, when there are no games or a count is negative or
 * the confidence is not inside (0, 1). */
bool elo_trinomial(const Trinomial *counts, double confidence, EloEstimate *out);
bool elo_pentanomial(const Pentanomial *counts, double confidence, EloEstimate *out);

#endif
