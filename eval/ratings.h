/*
 * ratings.h - Elo ratings of many players (engine versions) at once from all the games they
 * played among themselves, by maximum likelihood, with error bars.
 *
 * The model is Bradley-Terry on the logistic Elo scale, P(a beats b) = 1 / (1 + 10^((Rb -
 * Ra) / 400)), a draw counting as half a win and half a loss (as Ordo and the Elo formulas of
 * cutechess treat it; colours are not modelled).  One player, the anchor, is fixed at a given
 * Elo; the others are solved for by Newton's method.  The error bars come from the inverse of
 * the observed information matrix with the anchor's row and column removed, so each is the
 * uncertainty of a player's difference from the anchor.  Being binomial, the likelihood takes
 * a game's variance to be p (1 - p); draws make it smaller, so with many draws the error bars
 * are conservative.
 *
 * A maximum-likelihood rating is finite only for players the games tie to the anchor both
 * ways: each with a chain of games from it to the anchor along which every player scored
 * against the next, and another chain back.  The rest are flagged, not given invented numbers:
 * a player that won every game linking it to the anchor's group is above it (+infinity), one
 * that lost them all is below (-infinity).  docs/RATINGS.md explains with examples.
 *
 * A prior of virtual draws (BayesElo's remedy for the same problem) changes that: each pair
 * that played gets prior_draws extra drawn games, so a perfect score is a large but finite
 * difference, and the estimate is the maximum of the posterior rather than of the likelihood.
 *
 * Ratings own their memory; ratings_fit is safe to run from several threads on the same table.
 */
#ifndef LEUCTRA_RATINGS_H
#define LEUCTRA_RATINGS_H

#include "eval/results.h"

typedef enum {
    RATING_FINITE,        /* the maximum-likelihood estimate exists */
    RATING_ABOVE,         /* infinitely above the anchor: only wins link it to the anchor */
    RATING_BELOW,         /* infinitely below: only losses link it to the anchor */
    RATING_UNDETERMINED,  /* linked by games, but neither above nor below: any value fits */
    RATING_UNLINKED,      /* no chain of games at all to the anchor */
} RatingStatus;

typedef struct {
    double elo;           /* FINITE: the estimate; ABOVE/BELOW: +/-INFINITY; else NAN */
    double error;         /* half-width of the confidence interval of elo - anchor's elo;
                             0 for the anchor, NAN unless FINITE */
    RatingStatus status;
} PlayerRating;

typedef struct {
    int anchor;           /* player index fixed at anchor_elo */
    double anchor_elo;
    double confidence;    /* two-sided level of the error bars, e.g. 0.95 */
    double prior_draws;   /* virtual draws added to every pair that played (0: pure maximum
                             likelihood); any positive number makes every player linked to
                             the anchor finite, pulled towards its opponents */
} RatingsOptions;

/* The most players one fit takes (its dense matrices grow with the square of this). */
enum { RATINGS_MAX_FITTED = 3000 };

typedef struct {
    int players;
    PlayerRating *rating;     /* one per player of the table, by index */
    int fitted;               /* players with finite ratings, the anchor included */
    int iterations;           /* Newton steps taken */
    double log_likelihood;    /* natural log, of the games among fitted players */
    int *row;                 /* internal: player -> row of covariance, -1 if none */
    double *covariance;       /* internal: (fitted - 1)^2 covariances, Elo^2 */
} Ratings;

/* Fits the table's players.  False with err set on bad options, too many players or no
 * memory; *out then owns nothing. */
bool ratings_fit(const ResultTable *t, const RatingsOptions *options, Ratings *out, Error *err);
void ratings_free(Ratings *r);

/* The covariance of the estimates of players i and j, in Elo^2 (0 when either is the anchor,
 * NAN unless both are FINITE), and the half-width of the confidence interval of their
 * difference at the given level. */
double ratings_covariance(const Ratings *r, int i, int j);
double ratings_difference_error(const Ratings *r, int i, int j, double confidence);

/* "finite", "above", "below", "undetermined", "unlinked". */
const char *ratings_status_name(RatingStatus status);

/* A player's place in the table of ratings. */
typedef struct {
    int player;
    int rank;             /* 1, 2, ...; 0 for one the games do not place (undetermined, unlinked) */
} RatingsRank;
/* The players in the table's order into rows (r->players of them): those above the anchor's
 * group first, then the finite ratings high to low, then those below, then the players the
 * games do not place; ties by index.  The one order `ratings` prints and charts.  False when
 * memory runs out. */
bool ratings_rank(const Ratings *r, RatingsRank *rows);

#endif
