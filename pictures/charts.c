/*
 * charts.c - the layouts of the three charts (charts.h): which plots, their sizes, ranges,
 * colours, marks and legends.  The SVG parts themselves are svg_chart.c's.
 */
#include "charts.h"
#include "svg_chart.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Margins around a plot: room for the tick labels and the axis label on the left, the title
 * above.  The room below depends on the x axis (svg_axis_depth). */
enum { LEFT = 76, RIGHT = 24, TOP = 64, PLOT_HEIGHT = 240, GAP = 60, LENGTHS_WIDTH = 420, RESULTS_WIDTH = 240 };

/* Colours that stay apart for the common forms of colour blindness (blue / orange), and the
 * usual green / red for promoted / rejected, told apart by shape as well (dot / cross). */
#define BLUE "#1565c0"
#define ORANGE "#e65100"
#define GREEN "#2e7d32"
#define RED "#c62828"
#define GREY "#757575"

/* --- ratings, shared by the ratings chart and the training chart's Elo plot --------------------- */

static void widen_for_rating(const ChartRating *r, double *lo, double *hi)
{
    if (r->status != RATING_FINITE)
        return;
    double e = isfinite(r->error) ? r->error : 0;
    *lo = fmin(*lo, r->elo - e);
    *hi = fmax(*hi, r->elo + e);
}

/* The Elo range that the finite ratings and their intervals need, widened to nice ticks; at
 * least 20 Elo either side of the anchor, so one rated player still makes a readable plot. */
static void elo_range(double anchor_elo, double *lo, double *hi)
{
    *lo = fmin(*lo, anchor_elo - 20);
    *hi = fmax(*hi, anchor_elo + 20);
    svg_nice_range(lo, hi);
}

/* One player at x: a point with its interval, a marker on the edge for +inf / -inf, or a '?'
 * for a player the games do not place.  label names it in the tooltip. */
static void draw_rating(const SvgPlot *p, double x, const ChartRating *r, const SvgKey *key, const char *label)
{
    char tip[400];
    if (r->status == RATING_FINITE) {
        if (r->anchor)
            snprintf(tip, sizeof tip, "%s: Elo %.1f (anchor)", label, r->elo);
        else
            snprintf(tip, sizeof tip, "%s: Elo %.1f +/- %.1f", label, r->elo, r->error);
        svg_plot_point(p, x, r->elo, r->anchor ? 0 : r->error, key, tip);
    } else if (r->status == RATING_ABOVE || r->status == RATING_BELOW) {
        bool above = r->status == RATING_ABOVE;
        snprintf(tip, sizeof tip, "%s: Elo %s (%s every game linking it to the anchor)", label,
                 above ? "+inf" : "-inf", above ? "won" : "lost");
        svg_plot_off_scale(p, x, above, key->colour, tip);
    } else {
        snprintf(tip, sizeof tip, "%s: not placed by these games (%s)", label, ratings_status_name(r->status));
        fprintf(p->out, "<text class=\"unplaced\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                        "font-family=\"sans-serif\" font-size=\"16\" fill=\"%s\">?<title>",
                svg_plot_x(p, x), p->top + p->height / 2, GREY);
        svg_escape(p->out, tip);
        fputs("</title></text>\n", p->out);
    }
}

static const ChartRating *find_anchor(const ChartRating *r, int n)
{
    for (int i = 0; i < n; i++)
        if (r[i].anchor)
            return &r[i];
    return NULL;
}

/* A plot of the given size at (LEFT, top) with x from -0.5 to n - 0.5: one slot per player
 * or generation. */
static SvgPlot slot_plot(FILE *out, double top, double width, int n)
{
    return (SvgPlot){out, LEFT, top, width, PLOT_HEIGHT, -0.5, n - 0.5, 0, 1};
}

/* The width of a picture whose plots are plot_width wide, with a legend of that width beside. */
static int picture_width(double plot_width, double legend)
{
    return (int)ceil(LEFT + plot_width + legend + RIGHT);
}

bool chart_ratings(FILE *out, const ChartRating *r, int n, double confidence)
{
    const char **names = malloc((size_t)n * sizeof *names + 1);
    if (!names)
        return false;
    const ChartRating *anchor = find_anchor(r, n);
    double anchor_elo = anchor ? anchor->elo : 0, lo = anchor_elo, hi = anchor_elo;
    for (int i = 0; i < n; i++) {
        names[i] = r[i].name;
        widen_for_rating(&r[i], &lo, &hi);
    }
    SvgPlot p = slot_plot(out, TOP, fmax(260, 44.0 * n), n);
    p.y0 = lo, p.y1 = hi;
    elo_range(anchor_elo, &p.y0, &p.y1);
    SvgAxis x = {"players, by rank", names, n, false}, y = {"Elo", NULL, 0, false};
    char title[400];
    snprintf(title, sizeof title, "Elo ratings, %g%% intervals, %s = %g", 100 * confidence,
             anchor ? anchor->name : "?", anchor_elo);
    const SvgKey keys[2] = {{"Elo and interval", BLUE, SVG_DOT}, {"anchor", BLUE, SVG_RING}};
    svg_begin(out, picture_width(p.width, svg_legend_width(keys, 2)),
              (int)ceil(TOP + PLOT_HEIGHT + svg_axis_depth(&p, &x) + 8), title);
    svg_plot_axes(&p, &x, &y, title);
    for (int i = 0; i < n; i++)
        draw_rating(&p, i, &r[i], &keys[r[i].anchor], r[i].name);
    svg_plot_legend(&p, keys, 2);
    free(names);
    return svg_end(out);
}

ChartRating chart_rating_entry(const ResultTable *t, const Ratings *r, int player, int anchor)
{
    const PlayerRating *p = &r->rating[player];
    return (ChartRating){results_name(t, player), p->elo, p->error, p->status, player == anchor};
}

bool chart_ratings_fit(FILE *out, const ResultTable *t, const Ratings *r, int anchor, double confidence)
{
    RatingsRank *rows = malloc((size_t)r->players * sizeof *rows + 1);
    ChartRating *entries = malloc((size_t)r->players * sizeof *entries + 1);
    bool ok = rows && entries && ratings_rank(r, rows);
    for (int i = 0; ok && i < r->players; i++)
        entries[i] = chart_rating_entry(t, r, rows[i].player, anchor);
    if (!ok)
        errno = ENOMEM;
    ok = ok && chart_ratings(out, entries, r->players, confidence);
    free(rows);
    free(entries);
    return ok;
}

/* --- records: lengths and results ------------------------------------------------------------- */

static uint64_t most_games(const ChartBin *bins, int n, const uint64_t results[3])
{
    uint64_t most = 0;
    for (int i = 0; i < n; i++)
        most = bins[i].games > most ? bins[i].games : most;
    for (int i = 0; results && i < 3; i++)
        most = results[i] > most ? results[i] : most;
    return most;
}

static void draw_lengths(FILE *out, const ChartBin *bins, int n, double top)
{
    SvgPlot p = {out, LEFT, top, LENGTHS_WIDTH, PLOT_HEIGHT, bins[0].from, bins[n - 1].to + 1, 0,
                 (double)most_games(bins, n, NULL)};
    svg_nice_range(&p.y0, &p.y1);
    SvgAxis x = {"plies per game", NULL, 0, true}, y = {"games", NULL, 0, true};
    svg_plot_axes(&p, &x, &y, "game lengths");
    for (int i = 0; i < n; i++) {
        char tip[96];
        snprintf(tip, sizeof tip, "%d-%d plies: %llu games", bins[i].from, bins[i].to,
                 (unsigned long long)bins[i].games);
        svg_plot_bar(&p, bins[i].from, bins[i].to + 1, (double)bins[i].games, BLUE, tip);
    }
}

static void draw_results(FILE *out, const uint64_t results[3], double left, double top)
{
    static const char *const names[3] = {"white wins", "black wins", "draws"};
    static const char *const colours[3] = {"#f4f4f4", "#333333", "#aaaaaa"};
    SvgPlot p = {out, left, top, RESULTS_WIDTH, PLOT_HEIGHT, -0.5, 2.5, 0, (double)most_games(NULL, 0, results)};
    svg_nice_range(&p.y0, &p.y1);
    SvgAxis x = {"result", names, 3, false}, y = {"games", NULL, 0, true};
    svg_plot_axes(&p, &x, &y, "results");
    uint64_t games = results[0] + results[1] + results[2];
    for (int i = 0; i < 3; i++) {
        char tip[96];
        snprintf(tip, sizeof tip, "%s: %llu games (%.1f%%)", names[i], (unsigned long long)results[i],
                 games ? 100.0 * (double)results[i] / (double)games : 0);
        svg_plot_bar(&p, i - 0.35, i + 0.35, (double)results[i], colours[i], tip);
    }
}

bool chart_records(FILE *out, const char *title, const ChartBin *bins, int num_bins, const uint64_t results[3])
{
    double results_left = LEFT + LENGTHS_WIDTH + GAP + 20;
    SvgPlot below = {out, 0, 0, LENGTHS_WIDTH, PLOT_HEIGHT, 0, 1, 0, 1};
    SvgAxis x = {"plies per game", NULL, 0, true};
    svg_begin(out, picture_width(results_left - LEFT + RESULTS_WIDTH, 0), (int)ceil(TOP + 20 + PLOT_HEIGHT +
              svg_axis_depth(&below, &x) + 8), title);
    svg_text(out, LEFT, 24, "class=\"chart-title\" font-family=\"sans-serif\" font-size=\"15\" font-weight=\"bold\"",
             title);
    draw_lengths(out, bins, num_bins, TOP + 20);
    draw_results(out, results, results_left, TOP + 20);
    return svg_end(out);
}

/* --- training: losses and Elo per generation --------------------------------------------------- */

static const SvgKey LOSS_KEYS[4] = {{"train, after", BLUE, SVG_LINE}, {"validation, after", ORANGE, SVG_LINE},
                                    {"train, before", BLUE, SVG_DASHED}, {"validation, before", ORANGE, SVG_DASHED}};

/* The verdict's mark: the start (gen0, the anchor) a blue square, promoted a green dot,
 * rejected a red cross, undecided a grey ring. */
static const SvgKey VERDICT_KEYS[4] = {{"start (anchor)", BLUE, SVG_BOX}, {"promoted", GREEN, SVG_DOT},
                                       {"rejected", RED, SVG_CROSS}, {"undecided", GREY, SVG_RING}};

static void draw_losses(const SvgPlot *frame, const ChartGeneration *g, int n, double *xs, double *ys)
{
    SvgPlot p = *frame;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        const double v[4] = {g[i].train_before, g[i].train_after, g[i].valid_before, g[i].valid_after};
        for (int k = 0; k < 4; k++)
            if (isfinite(v[k]))
                lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
    }
    p.y0 = isfinite(lo) ? lo : 0, p.y1 = isfinite(hi) ? hi : 1;
    svg_nice_range(&p.y0, &p.y1);
    SvgAxis x = {"generation", NULL, 0, true}, y = {"log-loss (nats per position)", NULL, 0, false};
    svg_plot_axes(&p, &x, &y, "tuning: log-loss on each generation's self-play");
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < n; i++) {
            xs[i] = i;
            ys[i] = k == 0 ? g[i].train_after : k == 1 ? g[i].valid_after : k == 2 ? g[i].train_before
                                                                                 : g[i].valid_before;
        }
        svg_plot_line(&p, xs, ys, n, &LOSS_KEYS[k]);
    }
    svg_plot_legend(&p, LOSS_KEYS, 4);
}

static const SvgKey *verdict_key(const char *verdict)
{
    if (!verdict)
        return &VERDICT_KEYS[0];
    return &VERDICT_KEYS[strcmp(verdict, "promoted") == 0 ? 1 : strcmp(verdict, "rejected") == 0 ? 2 : 3];
}

static void draw_elo(const SvgPlot *frame, const ChartGeneration *g, int n, double confidence)
{
    SvgPlot p = *frame;
    double anchor = g[0].rating.elo, lo = anchor, hi = anchor;
    for (int i = 0; i < n; i++)
        widen_for_rating(&g[i].rating, &lo, &hi);
    p.y0 = lo, p.y1 = hi;
    elo_range(anchor, &p.y0, &p.y1);
    char title[96];
    snprintf(title, sizeof title, "strength: Elo against gen0, %g%% intervals", 100 * confidence);
    SvgAxis x = {"generation", NULL, 0, true}, y = {"Elo", NULL, 0, false};
    svg_plot_axes(&p, &x, &y, title);
    for (int i = 0; i < n; i++) {
        char label[64];
        snprintf(label, sizeof label, "gen%d %s", i, g[i].verdict ? g[i].verdict : "start");
        draw_rating(&p, i, &g[i].rating, verdict_key(g[i].verdict), label);
    }
    svg_plot_legend(&p, VERDICT_KEYS, 4);
}

bool chart_training(FILE *out, const char *title, const ChartGeneration *g, int n, double confidence)
{
    double *buf = malloc(2 * (size_t)n * sizeof *buf + 1);
    if (!buf)
        return false;
    SvgPlot losses = slot_plot(out, TOP + 20, fmax(360, 56.0 * n), n);
    SvgAxis x = {"generation", NULL, 0, true};
    double depth = svg_axis_depth(&losses, &x);
    SvgPlot elo = slot_plot(out, losses.top + PLOT_HEIGHT + depth + GAP, losses.width, n);
    double legend = fmax(svg_legend_width(LOSS_KEYS, 4), svg_legend_width(VERDICT_KEYS, 4));
    svg_begin(out, picture_width(losses.width, legend), (int)ceil(elo.top + PLOT_HEIGHT + depth + 8), title);
    svg_text(out, LEFT, 24, "class=\"chart-title\" font-family=\"sans-serif\" font-size=\"15\" font-weight=\"bold\"",
             title);
    draw_losses(&losses, g, n, buf, buf + n);
    draw_elo(&elo, g, n, confidence);
    free(buf);
    return svg_end(out);
}
