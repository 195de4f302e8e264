/*
 * cmd_ratings.c - `leuctra ratings`: Elo ratings of many players (engine versions) from a file
 * of game results (docs/RATINGS.md), by maximum likelihood with one player anchored, printed
 * as a table or as JSON, and optionally as a chart (--svg).  The statistics live in
 * eval/ratings.h; this file reads the arguments and the files and formats the answer.
 */
#include "cli.h"
#include "core/utf8.h"
#include "eval/ratings.h"
#include "pictures/charts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char **files;
    int num_files;
    const char *anchor;        /* NULL: the first player of the input */
    double anchor_elo;
    double confidence;
    double prior;              /* virtual draws per pair that played */
    bool json;
    const char *svg;           /* --svg: the chart's file, or NULL */
} RatingsArgs;

/* One line of the report: a player and its rank (eval/ratings.h: ratings_rank). */
typedef RatingsRank Row;

static void parse_args(int argc, char **argv, RatingsArgs *a)
{
    ArgReader r = {argc, argv, 1, "ratings", false};
    const char *text;
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (!a->files)
        fail_exit("ratings", EXIT_FAILURE_RUN, "out of memory");
    while (r.index < argc) {
        if (arg_value(&r, "--anchor", &a->anchor))
            continue;
        if (arg_value(&r, "--anchor-elo", &text))
            a->anchor_elo = arg_real("ratings", "--anchor-elo", text, -1e6, 1e6);
        else if (arg_value(&r, "--confidence", &text))
            a->confidence = arg_real("ratings", "--confidence", text, 0.5, 0.999999);
        else if (arg_value(&r, "--prior", &text))
            a->prior = arg_real("ratings", "--prior", text, 0, 1e6);
        else if (arg_flag(&r, "--json"))
            a->json = true;
        else if (arg_value(&r, "--svg", &a->svg))
            continue;
        else if (arg_operand(&r))
            a->files[a->num_files++] = argv[r.index++];
        else
            arg_common(&r, &command_ratings);
    }
    if (a->num_files == 0)
        fail_exit("ratings", EXIT_USAGE, "expected a results file (see leuctra ratings --help)");
    if (a->svg && strcmp(a->svg, "-") == 0)
        fail_exit("ratings", EXIT_USAGE, "--svg needs a file: stdout carries the table");
    if (a->svg) {
        cli_output_check("ratings", "--svg", a->svg);
        cli_output_apart("ratings", "--svg", a->svg, (char *const *)a->files, a->num_files);
    }
}

/* Every game of the files ("-": standard input), or fail with exit 2 (1 when memory runs out). */
static ResultTable *read_files(const char *command, const char *const *files, int n)
{
    Error err;
    ResultTable *t = results_read_files(files, n, &err);
    if (!t)
        fail_with(command, &err);
    return t;
}

/* ratings_fit, or exit status 1 with its message. */
static void fit_or_fail(const char *command, const ResultTable *t, const RatingsOptions *o, Ratings *r)
{
    Error err;
    if (!ratings_fit(t, o, r, &err))
        fail_exit(command, EXIT_FAILURE_RUN, "%s", err.msg);
}

static Row *ranked_rows(const Ratings *r)
{
    Row *rows = malloc((size_t)r->players * sizeof *rows + 1);
    if (!rows || !ratings_rank(r, rows))
        fail_exit("ratings", EXIT_FAILURE_RUN, "out of memory");
    return rows;
}

/* --- the table -------------------------------------------------------------------------------- */

static void format_elo(const PlayerRating *p, char *buf, size_t len)
{
    if (p->status == RATING_FINITE)
        snprintf(buf, len, "%.1f", p->elo);
    else
        snprintf(buf, len, "%s", p->status == RATING_ABOVE ? "+inf" : p->status == RATING_BELOW ? "-inf" : "?");
}

static void print_row(const ResultTable *t, const Ratings *r, const Row *row, int anchor, int name_width)
{
    const PlayerRating *p = &r->rating[row->player];
    Trinomial c = results_player_totals(t, row->player);
    double games = (double)(c.wins + c.draws + c.losses);
    char rank[16] = "-", elo[32], error[32] = "-";
    if (row->rank)
        snprintf(rank, sizeof rank, "%d", row->rank);
    format_elo(p, elo, sizeof elo);
    if (row->player == anchor)
        snprintf(error, sizeof error, "anchor");
    else if (p->status == RATING_FINITE)
        snprintf(error, sizeof error, "%.1f", p->error);
    printf("%4s  %-*s %9s %7s %7.0f %6.1f%% %6.1f%%\n", rank, name_width, results_name(t, row->player), elo, error,
           games, games > 0 ? 100 * ((double)c.wins + 0.5 * (double)c.draws) / games : 0,
           games > 0 ? 100 * (double)c.draws / games : 0);
}

static void print_notes(const ResultTable *t, const Ratings *r, const RatingsArgs *a, int anchor)
{
    printf("\n%lld games.  Elo: %s (Bradley-Terry, a draw half a win), %s fixed at %g;\n"
           "+/- is the %g%% interval of each player's difference from %s.\n",
           (long long)results_num_games(t), a->prior > 0 ? "maximum a posteriori" : "maximum likelihood",
           results_name(t, anchor), a->anchor_elo, 100 * a->confidence,
           results_name(t, anchor));
    if (a->prior > 0)
        printf("Prior: %g virtual draws added to every pair that played (a perfect score stays finite).\n", a->prior);
    if (r->fitted < r->players)
        printf("+inf / -inf: won / lost every game linking it to %s's group; ?: not placed by these games\n"
               "relative to %s (docs/RATINGS.md).\n",
               results_name(t, anchor), results_name(t, anchor));
}

static void print_table(const ResultTable *t, const Ratings *r, const Row *rows, const RatingsArgs *a, int anchor)
{
    int width = 4;
    for (int i = 0; i < r->players; i++) {
        int len = (int)strlen(results_name(t, i));
        width = len > width ? (len > 40 ? 40 : len) : width;
    }
    printf("%4s  %-*s %9s %7s %7s %7s %7s\n", "rank", width, "name", "Elo", "+/-", "games", "score", "draws");
    for (int i = 0; i < r->players; i++)
        print_row(t, r, &rows[i], anchor, width);
    print_notes(t, r, a, anchor);
}

/* --- JSON ------------------------------------------------------------------------------------- */

static void json_string(const char *s) { utf8_put_json(stdout, s); }

static void json_number(const char *key, double v)
{
    if (isfinite(v))
        printf(",\"%s\":%.4f", key, v);
    else
        printf(",\"%s\":null", key);
}

static void json_player(const ResultTable *t, const Ratings *r, const Row *row)
{
    const PlayerRating *p = &r->rating[row->player];
    Trinomial c = results_player_totals(t, row->player);
    int64_t games = c.wins + c.draws + c.losses;
    if (row->rank)
        printf("{\"rank\":%d,\"name\":", row->rank);
    else
        printf("{\"rank\":null,\"name\":");
    json_string(results_name(t, row->player));
    json_number("elo", p->elo);
    json_number("error", p->error);
    printf(",\"status\":\"%s\",\"games\":%lld,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld", ratings_status_name(p->status),
           (long long)games, (long long)c.wins, (long long)c.draws, (long long)c.losses);
    json_number("score", games ? ((double)c.wins + 0.5 * (double)c.draws) / (double)games : NAN);
    json_number("draw_ratio", games ? (double)c.draws / (double)games : NAN);
    putchar('}');
}

static void print_json(const ResultTable *t, const Ratings *r, const Row *rows, const RatingsArgs *a, int anchor)
{
    printf("{\"anchor\":");
    json_string(results_name(t, anchor));
    printf(",\"anchor_elo\":%g,\"confidence\":%g,\"prior_draws\":%g,\"games\":%lld,\"players\":[", a->anchor_elo,
           a->confidence, a->prior, (long long)results_num_games(t));
    for (int i = 0; i < r->players; i++) {
        if (i)
            putchar(',');
        json_player(t, r, &rows[i]);
    }
    printf("]}\n");
}

/* --- the command ------------------------------------------------------------------------------ */

/* The ratings as an SVG chart, players in rank order, written whole to path. */
static void write_svg(const char *command, const char *path, const ResultTable *t, const Ratings *r, int anchor,
                       double confidence)
{
    CliOutput out;
    if (!chart_ratings_fit(cli_output_open(command, path, &out), t, r, anchor, confidence)) {
        cli_output_discard(&out);
        fail_exit(command, EXIT_FAILURE_RUN, "cannot write %s: %s", path, strerror(errno));
    }
    cli_output_commit(command, &out);
}

static int run_ratings(int argc, char **argv)
{
    RatingsArgs a = {.confidence = 0.95};
    parse_args(argc, argv, &a);
    ResultTable *t = read_files("ratings", a.files, a.num_files);
    int anchor = a.anchor ? results_find(t, a.anchor) : 0;
    if (anchor < 0)
        fail_exit("ratings", EXIT_USAGE, "--anchor '%s' is not a player in the results", a.anchor);
    RatingsOptions o = {anchor, a.anchor_elo, a.confidence, a.prior};
    Ratings r;
    fit_or_fail("ratings", t, &o, &r);
    Row *rows = ranked_rows(&r);
    if (a.svg)
        write_svg("ratings", a.svg, t, &r, anchor, a.confidence);
    if (a.json)
        print_json(t, &r, rows, &a, anchor);
    else
        print_table(t, &r, rows, &a, anchor);
    free(rows);
    ratings_free(&r);
    results_free(t);
    free(a.files);
    return 0;
}

const Command command_ratings = {
    "ratings", run_ratings, "Elo ratings of many players from a file of game results",
    "usage: leuctra ratings FILE... [--anchor NAME] [--anchor-elo X] [--confidence C] [--prior D]\n"
    "                       [--json] [--svg FILE]\n\n"
    "Rates every player in the results files (or '-' for standard input) together, by maximum\n"
    "likelihood under the Elo model with draws as half wins, and prints rank, name, Elo, the\n"
    "+/- of the confidence interval, games, score and draw ratio (--json: one JSON object).\n"
    "One game a line: WHITE BLACK RESULT, RESULT one of 1-0, 0-1, 1/2-1/2; '#' starts a comment.\n\n"
    "  --anchor NAME       the player whose rating is fixed (default: the first one in the input)\n"
    "  --anchor-elo X      its rating (default 0)\n"
    "  --confidence C      level of the intervals (default 0.95)\n"
    "  --prior D           add D virtual draws to every pair that played (default 0), as BayesElo\n"
    "                      does: a perfect score then gives a large finite Elo, not +inf\n"
    "  --svg FILE          also draw the ratings as an SVG chart: one point per player in rank\n"
    "                      order with its interval as an error bar, +inf/-inf as arrowheads on\n"
    "                      the edges, ? for unplaced players (docs/PICTURES.md)\n\n"
    "Each +/- is the uncertainty of the player's difference from the anchor.  Players the games\n"
    "cannot place are flagged: +inf / -inf for one that won / lost every game linking it to the\n"
    "others, ? for one with no such link (unless --prior).  Details: docs/RATINGS.md.\n\n"
    "example: leuctra ratings games.txt --anchor v1\n"
    "         leuctra ratings gen*/match.txt --anchor gen0 --prior 2 --svg ratings.svg\n"
    "    where games.txt holds lines such as:  v2 v1 1-0; the training loop's generations need\n"
    "    --prior: its untrained gen0 loses every game, which leaves every later one at +inf\n",
};
