/*
 * train_chart.h - a training folder drawn as one SVG chart (`leuctra chart training DIR`, and
 * DIR/training.svg after every ladder step of `leuctra train`): per generation the fit's
 * log-losses before and after (genK/tune.json) and the Elo against gen0 with its interval, rated
 * from every genK/match.txt together as `leuctra ratings --anchor gen0` rates them, marked by
 * genK/verdict.  The layout is pictures/charts.c's; this reads and checks the folder.
 */
#ifndef LEUCTRA_TRAIN_CHART_H
#define LEUCTRA_TRAIN_CHART_H

#include "core/game.h"

#include <stdbool.h>

typedef struct {
    const char *dir;            /* the folder (scripts/training_loop.sh's or train's) */
    const char *out;            /* the chart's file, written whole; NULL or "-": stdout */
    double confidence;          /* the level of the Elo intervals */
    double prior;               /* virtual draws per pair, as ratings --prior */
} TrainingChartOptions;

/* Reads gen0 and every finished generation after it (those with a verdict), rates them and
 * writes the chart.  False with *err (input) for a folder that is not a training loop's (no
 * finished generation, a damaged tune.json or verdict, results that do not rate gen0, an out that
 * is one of the files it reads), or (a failure) when the fit or the write fails. */
bool training_chart(const TrainingChartOptions *o, Error *err);

#endif
