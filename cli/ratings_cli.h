/*
 * ratings_cli.h - what `leuctra ratings` (cli/cmd_ratings.c) lends to `leuctra chart
 * training`: reading results files, fitting, and one player's rating as a chart entry, so both
 * commands rate the same games the same way and fail with the same lines.
 */
#ifndef LEUCTRA_RATINGS_CLI_H
#define LEUCTRA_RATINGS_CLI_H

#include "pictures/charts.h"
#include "cli.h"
#include "eval/ratings.h"

/* Every game of the files ("-": standard input); a missing or malformed file, or no games at
 * all, fails with one line and exit status 2. */
ResultTable *ratings_read_files(const char *command, const char *const *files, int n);
/* ratings_fit, or exit status 1 with its message. */
void ratings_fit_or_fail(const char *command, const ResultTable *t, const RatingsOptions *o, Ratings *r);
/* The ratings as the SVG chart of `ratings --svg`, players in rank order, written whole to path. */
void ratings_write_svg(const char *command, const char *path, const ResultTable *t, const Ratings *r, int anchor,
                       double confidence);

#endif
