/*
 * svg_chart.c - the shared SVG parts (svg_chart.h): the document frame, escaping, nice ticks,
 * axes, bars, points with error bars, off-scale markers, lines and legends.  Coordinates are
 * printed with one decimal, so a picture's bytes depend on its data only.
 */
#include "svg_chart.h"
#include "core/utf8.h"

#include <math.h>
#include <string.h>

/* Category names longer than this are cut (on a UTF-8 character boundary) and end in "..":
 * a 255-byte player name would otherwise push the plot off the picture. */
enum { NAME_CHARS = 20, FONT = 12 };

/* Roughly how wide a character of the sans-serif font is, in SVG units at size FONT. */
static const double CHAR_WIDTH = 6.4;

void svg_begin(FILE *out, int width, int height, const char *title)
{
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
                 "<title>", width, height, width, height);
    svg_escape(out, title);
    fputs("</title>\n", out);
}

bool svg_end(FILE *out)
{
    fputs("</svg>\n", out);
    fflush(out);
    return !ferror(out);
}

/* Control characters are not allowed in XML 1.0 at all, so they become '?'; bytes that are not
 * UTF-8 (a path's, say) become U+FFFD, so the picture always parses. */
void svg_escape(FILE *out, const char *text) { utf8_put_xml(out, text); }

void svg_text(FILE *out, double x, double y, const char *attrs, const char *text)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y, attrs);
    svg_escape(out, text);
    fputs("</text>\n", out);
}

/* <title> inside an element: browsers show it as a tooltip; tests read the numbers in it. */
static void write_tip(FILE *out, const char *tip)
{
    fputs("<title>", out);
    svg_escape(out, tip ? tip : "");
    fputs("</title>", out);
}

/* --- ticks ------------------------------------------------------------------------------------ */

double svg_nice_step(double span)
{
    if (!(span > 0) || !isfinite(span))
        return 1;
    double raw = span / SVG_TICKS, base = pow(10, floor(log10(raw)));
    static const double steps[] = {1, 2, 5, 10};
    for (int i = 0; i < 3; i++)
        if (steps[i] * base >= raw * (1 - 1e-9))
            return steps[i] * base;
    return steps[3] * base;
}

void svg_nice_range(double *lo, double *hi)
{
    double span = *hi - *lo;
    if (!(span > 0))
        span = fabs(*lo) > 0 ? fabs(*lo) : 1;
    double step = svg_nice_step(span);
    *lo = floor(*lo / step + 1e-9) * step;
    *hi = ceil(*hi / step - 1e-9) * step;
    if (*hi <= *lo)
        *hi = *lo + step;
}

/* Enough decimals to tell the ticks apart: none for a step of 1 or more, one for 0.1 ... */
static int tick_decimals(double step)
{
    return step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
}

/* --- the plot area ------------------------------------------------------------------------------ */

double svg_plot_x(const SvgPlot *p, double x)
{
    return p->left + (x - p->x0) / (p->x1 - p->x0) * p->width;
}

double svg_plot_y(const SvgPlot *p, double y)
{
    return p->top + (p->y1 - y) / (p->y1 - p->y0) * p->height;
}

/* A category name, shortened to NAME_CHARS bytes without splitting a UTF-8 character. */
static void short_name(const char *name, char *buf, size_t len)
{
    size_t n = strlen(name);
    if (n <= NAME_CHARS) {
        snprintf(buf, len, "%s", name);
        return;
    }
    n = NAME_CHARS - 2;
    while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80)
        n--;
    snprintf(buf, len, "%.*s..", (int)n, name);
}

static size_t longest_name(const SvgAxis *a)
{
    size_t most = 0;
    for (int i = 0; i < a->num_names; i++) {
        size_t n = strlen(a->names[i]);
        most = n > most ? n : most;
    }
    return most > NAME_CHARS ? NAME_CHARS : most;
}

/* Names are slanted when they would not fit side by side under their slots. */
static bool slanted(const SvgPlot *p, const SvgAxis *x)
{
    return x->names && x->num_names > 0 && (double)longest_name(x) * CHAR_WIDTH > p->width / x->num_names - 4;
}

double svg_axis_depth(const SvgPlot *p, const SvgAxis *x)
{
    double labels = slanted(p, x) ? (double)longest_name(x) * CHAR_WIDTH * 0.6 + 14 : 18;
    return labels + (x->label ? 22 : 0);
}

static void numeric_ticks_y(const SvgPlot *p, const SvgAxis *a)
{
    double step = svg_nice_step(p->y1 - p->y0);
    if (a->integers && step < 1)
        step = 1;
    int decimals = tick_decimals(step);
    for (double k = ceil(p->y0 / step - 1e-9); k * step <= p->y1 + step * 1e-9; k++) {
        double v = k * step == 0 ? 0 : k * step, y = svg_plot_y(p, v);
        char label[32];
        snprintf(label, sizeof label, "%.*f", decimals, v);
        fprintf(p->out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", p->left,
                y, p->left + p->width, y, v == 0 ? "#999" : "#e4e4e4");
        svg_text(p->out, p->left - 6, y + 4, "class=\"tick\" text-anchor=\"end\"", label);
    }
}

static void numeric_ticks_x(const SvgPlot *p, const SvgAxis *a)
{
    double step = svg_nice_step(p->x1 - p->x0);
    if (a->integers && step < 1)
        step = 1;
    int decimals = tick_decimals(step);
    double bottom = p->top + p->height;
    for (double k = ceil(p->x0 / step - 1e-9); k * step <= p->x1 + step * 1e-9; k++) {
        double v = k * step == 0 ? 0 : k * step, x = svg_plot_x(p, v);
        char label[32];
        snprintf(label, sizeof label, "%.*f", decimals, v);
        fprintf(p->out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n", x,
                bottom, x, bottom + 4);
        svg_text(p->out, x, bottom + 16, "class=\"tick\" text-anchor=\"middle\"", label);
    }
}

static void category_ticks_x(const SvgPlot *p, const SvgAxis *a)
{
    bool slant = slanted(p, a);
    double bottom = p->top + p->height;
    for (int i = 0; i < a->num_names; i++) {
        char name[NAME_CHARS + 8], attrs[96];
        short_name(a->names[i], name, sizeof name);
        double x = svg_plot_x(p, i);
        if (slant)
            snprintf(attrs, sizeof attrs, "class=\"tick\" text-anchor=\"end\" transform=\"rotate(-35 %.1f %.1f)\"", x,
                     bottom + 14);
        else
            snprintf(attrs, sizeof attrs, "class=\"tick\" text-anchor=\"middle\"");
        svg_text(p->out, x, bottom + 14, attrs, name);
    }
}

void svg_plot_axes(const SvgPlot *p, const SvgAxis *x, const SvgAxis *y, const char *title)
{
    FILE *out = p->out;
    fprintf(out, "<g font-family=\"sans-serif\" font-size=\"%d\" fill=\"#333\">\n", FONT);
    fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" "
                 "stroke=\"#888\"/>\n", p->left, p->top, p->width, p->height);
    numeric_ticks_y(p, y);
    if (x->names)
        category_ticks_x(p, x);
    else
        numeric_ticks_x(p, x);
    double bottom = p->top + p->height + svg_axis_depth(p, x);
    if (x->label)
        svg_text(out, p->left + p->width / 2, bottom - 6, "class=\"axis-label\" text-anchor=\"middle\"", x->label);
    if (y->label) {
        char attrs[96];
        double lx = p->left - 46, ly = p->top + p->height / 2;
        snprintf(attrs, sizeof attrs, "class=\"axis-label\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\"",
                 lx, ly);
        svg_text(out, lx, ly, attrs, y->label);
    }
    if (title)
        svg_text(out, p->left + p->width / 2, p->top - 12,
                 "class=\"plot-title\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\"", title);
    fputs("</g>\n", out);
}

/* --- marks ------------------------------------------------------------------------------------ */

void svg_plot_bar(const SvgPlot *p, double x0, double x1, double y, const char *colour, const char *tip)
{
    double base = p->y0 > 0 ? p->y0 : p->y1 < 0 ? p->y1 : 0;
    double top = svg_plot_y(p, y > base ? y : base), bottom = svg_plot_y(p, y > base ? base : y);
    double left = svg_plot_x(p, x0) + 1, right = svg_plot_x(p, x1) - 1;
    fprintf(p->out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                    "stroke=\"#333\" stroke-width=\"0.6\">",
            left, top, right > left ? right - left : 0.5, bottom - top, colour);
    write_tip(p->out, tip);
    fputs("</rect>\n", p->out);
}

/* A marker of the key's shape centred on (x, y) in SVG units, radius r; tip may be NULL. */
static void write_marker(FILE *out, double x, double y, double r, const SvgKey *key, const char *cls,
                         const char *tip)
{
    if (key->shape == SVG_CROSS)
        fprintf(out, "<path class=\"%s\" d=\"M%.1f %.1fl%.1f %.1fM%.1f %.1fl%.1f %.1f\" stroke=\"%s\" "
                     "stroke-width=\"2.5\">",
                cls, x - r, y - r, 2 * r, 2 * r, x - r, y + r, 2 * r, -2 * r, key->colour);
    else if (key->shape == SVG_BOX)
        fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                     "stroke=\"#333\" stroke-width=\"0.6\">", cls, x - r, y - r, 2 * r, 2 * r, key->colour);
    else
        fprintf(out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\" "
                     "stroke-width=\"2\">",
                cls, x, y, r, key->shape == SVG_RING ? "#fff" : key->colour, key->colour);
    if (tip)
        write_tip(out, tip);
    fputs(key->shape == SVG_CROSS ? "</path>\n" : key->shape == SVG_BOX ? "</rect>\n" : "</circle>\n", out);
}

void svg_plot_point(const SvgPlot *p, double x, double y, double error, const SvgKey *key, const char *tip)
{
    double px = svg_plot_x(p, x), py = svg_plot_y(p, y);
    if (error > 0 && isfinite(error)) {
        double hi = svg_plot_y(p, y + error), lo = svg_plot_y(p, y - error);
        fprintf(p->out, "<path class=\"error-bar\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh10M%.1f %.1fh10\" stroke=\"%s\" "
                        "stroke-width=\"1.5\" fill=\"none\"/>\n",
                px, hi, lo, px - 5, hi, px - 5, lo, key->colour);
    }
    write_marker(p->out, px, py, 4.5, key, "point", tip);
}

void svg_plot_off_scale(const SvgPlot *p, double x, bool above, const char *colour, const char *tip)
{
    double px = svg_plot_x(p, x), edge = above ? p->top + 3 : p->top + p->height - 3;
    double dy = above ? 11 : -11;
    fprintf(p->out, "<path class=\"off-scale\" d=\"M%.1f %.1fl-6 %.1fh12z\" fill=\"%s\">", px, edge, dy, colour);
    write_tip(p->out, tip);
    fputs("</path>\n", p->out);
    svg_text(p->out, px + 9, edge + (above ? 11 : -2), "font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\"",
             above ? "+inf" : "-inf");
}

void svg_plot_line(const SvgPlot *p, const double *x, const double *y, int n, const SvgKey *key)
{
    fprintf(p->out, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
            key->colour, key->shape == SVG_DASHED ? " stroke-dasharray=\"6 4\"" : "");
    for (int i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i]))
            fprintf(p->out, "%s%.1f,%.1f", i ? " " : "", svg_plot_x(p, x[i]), svg_plot_y(p, y[i]));
    fputs("\">", p->out);
    write_tip(p->out, key->label);
    fputs("</polyline>\n", p->out);
    SvgKey dot = {key->label, key->colour, SVG_DOT};
    for (int i = 0; i < n; i++) {
        char tip[160];
        snprintf(tip, sizeof tip, "%.100s at %g: %.4f", key->label, x[i], y[i]);
        if (isfinite(x[i]) && isfinite(y[i]))
            write_marker(p->out, svg_plot_x(p, x[i]), svg_plot_y(p, y[i]), 2.5, &dot, "vertex", tip);
    }
}

/* A legend entry's sample: a short line (solid or dashed) or the marker itself. */
static void write_swatch(FILE *out, double x, double y, const SvgKey *key)
{
    if (key->shape == SVG_LINE || key->shape == SVG_DASHED)
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", x,
                y, x + 20, y, key->colour, key->shape == SVG_DASHED ? " stroke-dasharray=\"6 4\"" : "");
    else
        write_marker(out, x + 10, y, 4.5, key, "swatch", NULL);
}

double svg_legend_width(const SvgKey *keys, int n)
{
    size_t longest = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(keys[i].label);
        longest = len > longest ? len : longest;
    }
    return 40 + (double)longest * CHAR_WIDTH * 0.92;
}

void svg_plot_legend(const SvgPlot *p, const SvgKey *keys, int n)
{
    double w = svg_legend_width(keys, n) - 12, h = 8 + 16.0 * n;
    double x = p->left + p->width + 12, y = p->top;
    fprintf(p->out, "<g class=\"legend\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\">\n"
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" stroke=\"#ccc\"/>\n",
            x, y, w, h);
    for (int i = 0; i < n; i++) {
        double row = y + 12 + 16.0 * i;
        write_swatch(p->out, x + 6, row, &keys[i]);
        svg_text(p->out, x + 32, row + 4, "class=\"legend-label\"", keys[i].label);
    }
    fputs("</g>\n", p->out);
}
