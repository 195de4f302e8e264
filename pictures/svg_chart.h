/*
 * svg_chart.h - the SVG writing that every picture shares: the document frame with an escaped
 * title (svg_board.c uses it too), escaped text, and the parts of a chart: a plot area that
 * maps data to SVG units, axes with nice tick values or category names, bars, points with
 * error bars, off-scale markers, lines and legends.  The charts themselves (which parts, laid
 * out how) are in charts.c.
 *
 * Written by hand as text, like the boards: no library to depend on, and the same data always
 * gives the same bytes (fixed decimals, no dates, no random ids), so pictures can be diffed
 * and committed.  Elements carry a class (bar, point, error-bar, off-scale, series, legend,
 * axis-label, tick) and a <title> tooltip, which is also what tests/cli/svg_test.py reads.
 * Thread-safe: no state outside the structs passed in.
 */
#ifndef LEUCTRA_SVG_CHART_H
#define LEUCTRA_SVG_CHART_H

#include <stdbool.h>
#include <stdio.h>

/* A rectangle of the picture and the data ranges it shows. */
typedef struct {
    FILE *out;
    double left, top, width, height;   /* SVG units */
    double x0, x1, y0, y1;             /* data at the left, right, bottom and top edges */
} SvgPlot;

/* An axis: numbers with nice ticks, or category names at 0, 1, ..., num_names - 1. */
typedef struct {
    const char *label;
    const char *const *names;          /* NULL: a numeric axis */
    int num_names;
    bool integers;                     /* numeric ticks only on whole numbers (generations) */
} SvgAxis;

/* How a point or a legend entry is drawn. */
typedef enum { SVG_DOT, SVG_RING, SVG_CROSS, SVG_LINE, SVG_DASHED, SVG_BOX } SvgShape;

typedef struct {
    const char *label;
    const char *colour;
    SvgShape shape;
} SvgKey;

/* The XML declaration, the root element and its <title>; svg_end closes it and reports
 * whether every write reached the stream. */
void svg_begin(FILE *out, int width, int height, const char *title);
bool svg_end(FILE *out);

/* Text with &, <, >, " and ' escaped and anything not UTF-8 replaced (core/utf8.h), so names
 * from input files and paths cannot break the XML. */
void svg_escape(FILE *out, const char *text);
/* <text> at (x, y); attrs is raw attribute text (class, anchor, size), text is escaped. */
void svg_text(FILE *out, double x, double y, const char *attrs, const char *text);

/* The tick step for a span: 1, 2 or 5 x 10^k, the smallest giving at most SVG_TICKS intervals;
 * svg_nice_range widens [lo, hi] to multiples of it (an empty span grows to one step). */
enum { SVG_TICKS = 6 };
double svg_nice_step(double span);
void svg_nice_range(double *lo, double *hi);

double svg_plot_x(const SvgPlot *p, double x);
double svg_plot_y(const SvgPlot *p, double y);

/* The room under a plot that the x axis takes: tick labels (category names are slanted when
 * they would not fit side by side) and the axis label. */
double svg_axis_depth(const SvgPlot *p, const SvgAxis *x);
/* The frame, grid lines and tick labels of both axes, the axis labels and a title above. */
void svg_plot_axes(const SvgPlot *p, const SvgAxis *x, const SvgAxis *y, const char *title);
/* A bar over [x0, x1] from 0 (or the bottom edge) up to y. */
void svg_plot_bar(const SvgPlot *p, double x0, double x1, double y, const char *colour, const char *tip);
/* A point with a vertical error bar of +/- error (none when error is 0 or not finite). */
void svg_plot_point(const SvgPlot *p, double x, double y, double error, const SvgKey *key, const char *tip);
/* A triangle on the top (above) or bottom edge for a value off the scale, such as +inf. */
void svg_plot_off_scale(const SvgPlot *p, double x, bool above, const char *colour, const char *tip);
/* A line through the points (NAN values skipped), with a small dot at each whose tooltip is
 * "LABEL at X: Y". */
void svg_plot_line(const SvgPlot *p, const double *x, const double *y, int n, const SvgKey *key);
/* The keys in a box to the right of the plot, top-aligned with it, where it hides no data;
 * svg_legend_width is the room it takes there. */
void svg_plot_legend(const SvgPlot *p, const SvgKey *keys, int n);
double svg_legend_width(const SvgKey *keys, int n);

#endif
