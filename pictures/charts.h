/*
 * charts.h - the charts leuctra draws as SVG (docs/PICTURES.md): the ratings of many players
 * with their intervals (`ratings --svg`), a records file's game lengths and results (`records
 * info --svg`), and a training loop's log-losses and Elo per generation (`chart training`).
 * Each takes plain numbers that its command has already read and checked, so the layouts here
 * know nothing of files; the drawing parts are svg_chart.h's.
 */
#ifndef LEUCTRA_CHARTS_H
#define LEUCTRA_CHARTS_H

#include "eval/ratings.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    const char *name;
    double elo, error;        /* as PlayerRating: error is the interval's half-width, 0 for the anchor */
    RatingStatus status;
    bool anchor;
} ChartRating;

typedef struct {
    int from, to;             /* plies, both included */
    uint64_t games;
} ChartBin;

typedef struct {
    double train_before, train_after, valid_before, valid_after;   /* log-losses; NAN: none */
    ChartRating rating;
    const char *verdict;      /* "promoted", "rejected", "undecided"; NULL for the start (gen0) */
} ChartGeneration;

/* Each writes one whole SVG document and returns false on a write error.  The ratings come in
 * the order to draw them (the table's, by rank); confidence is their intervals' level. */
bool chart_ratings(FILE *out, const ChartRating *r, int n, double confidence);
/* Player `player` of a fit as a chart entry (its name is the table's). */
ChartRating chart_rating_entry(const ResultTable *t, const Ratings *r, int player, int anchor);
/* chart_ratings of every player of a fit, in the table's order (eval/ratings.h: ratings_rank);
 * false with errno set on a write error or when memory runs out. */
bool chart_ratings_fit(FILE *out, const ResultTable *t, const Ratings *r, int anchor, double confidence);
bool chart_records(FILE *out, const char *title, const ChartBin *bins, int num_bins, const uint64_t results[3]);
bool chart_training(FILE *out, const char *title, const ChartGeneration *g, int n, double confidence);

#endif
