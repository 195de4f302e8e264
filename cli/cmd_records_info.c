/*
 * cmd_records_info.c - `leuctra records info`: what a records file holds (games, positions,
 * results, end reasons, a length histogram, bytes per ply, the settings text), per file and in
 * total, as text or JSON, and the total's lengths and results as an SVG chart (--svg).  Reads
 * each file once, one chunk at a time.
 */
#include "core/utf8.h"
#include "pictures/charts.h"
#include "records_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HISTOGRAM_BINS = 12, BAR_WIDTH = 40 };

typedef struct {
    uint64_t games, plies, bytes, chunks;
    uint64_t min_index, max_index;
    uint64_t results[3];                /* white wins, black wins, draws */
    uint64_t ends[RECORD_END_COUNT];
    uint64_t valued_plies, searched_plies;
    uint64_t *length_count;             /* games of each length, 0..max_length */
    int max_length, min_length;
} Stats;

/* Room in length_count for lengths up to max. */
static void grow_lengths(Stats *s, int max)
{
    int old = s->length_count ? s->max_length : -1;
    if (max <= old)
        return;
    uint64_t *grown = realloc(s->length_count, ((size_t)max + 1) * sizeof *grown);
    if (!grown)
        fail_exit("records info", EXIT_FAILURE_RUN, "out of memory");
    memset(grown + old + 1, 0, (size_t)(max - old) * sizeof *grown);
    s->length_count = grown;
    s->max_length = max;
}

static void stats_add_length(Stats *s, int plies)
{
    grow_lengths(s, plies);
    s->length_count[plies]++;
    s->min_length = s->games == 0 || plies < s->min_length ? plies : s->min_length;
}

static void stats_add_game(Stats *s, const GameRecord *r)
{
    stats_add_length(s, r->plies);
    s->min_index = s->games == 0 || r->index < s->min_index ? r->index : s->min_index;
    s->max_index = s->games == 0 || r->index > s->max_index ? r->index : s->max_index;
    s->games++;
    s->plies += (uint64_t)r->plies;
    s->results[r->result == STATUS_WHITE_WINS ? 0 : r->result == STATUS_BLACK_WINS ? 1 : 2]++;
    s->ends[r->end]++;
    for (int i = 0; i < r->plies; i++) {
        s->valued_plies += r->ply[i].value != RECORD_NO_VALUE;
        s->searched_plies += r->ply[i].num_visits > 0 || r->ply[i].total_visits > 0;
    }
}

static void stats_merge(Stats *into, const Stats *s)
{
    if (s->games > 0) {
        grow_lengths(into, s->max_length);
        for (int len = 0; len <= s->max_length; len++)
            into->length_count[len] += s->length_count[len];
        into->min_length = into->games == 0 || s->min_length < into->min_length ? s->min_length : into->min_length;
        into->min_index = into->games == 0 || s->min_index < into->min_index ? s->min_index : into->min_index;
        into->max_index = into->games == 0 || s->max_index > into->max_index ? s->max_index : into->max_index;
    }
    into->games += s->games;
    into->plies += s->plies;
    into->bytes += s->bytes;
    into->chunks += s->chunks;
    for (int i = 0; i < 3; i++)
        into->results[i] += s->results[i];
    for (int i = 0; i < RECORD_END_COUNT; i++)
        into->ends[i] += s->ends[i];
    into->valued_plies += s->valued_plies;
    into->searched_plies += s->searched_plies;
}

/* Reads a whole file into s; damage stops with one line and exit status 1. */
static void collect(const char *path, Stats *s, RecordsHeader *header)
{
    RecordsReader *rd = cli_records_open_or_fail("records info", path);
    GameRecord r;
    game_record_init(&r);
    Error err = {0};
    uint64_t last_chunk = 0;
    int rc;
    while ((rc = records_next(rd, &r, &err)) == 1) {
        if (records_reader_chunk_offset(rd) != last_chunk)
            s->chunks++;
        last_chunk = records_reader_chunk_offset(rd);
        stats_add_game(s, &r);
    }
    if (rc < 0)
        fail_with("records info", &err);
    s->bytes = records_reader_file_size(rd);
    const RecordsHeader *h = records_reader_header(rd);
    *header = *h;
    header->settings = strdup(h->settings);
    if (!header->settings)
        fail_exit("records info", EXIT_FAILURE_RUN, "out of memory");
    game_record_free(&r);
    records_close(rd);
}

/* ---------------------------------------------------------------- histogram */

/* The smallest of 1, 2, 5, 10, 20, 50 ... plies per bin that needs at most HISTOGRAM_BINS bins. */
static int bin_width(int max_length)
{
    static const int steps[3] = {1, 2, 5};
    for (int scale = 1;; scale *= 10)
        for (int i = 0; i < 3; i++)
            if ((max_length / (steps[i] * scale)) + 1 <= HISTOGRAM_BINS)
                return steps[i] * scale;
}

static int histogram(const Stats *s, uint64_t bins[HISTOGRAM_BINS], int *width)
{
    memset(bins, 0, HISTOGRAM_BINS * sizeof *bins);
    if (s->games == 0)
        return 0;
    *width = bin_width(s->max_length);
    for (int len = 0; len <= s->max_length; len++)
        bins[len / *width] += s->length_count[len];
    return s->max_length / *width + 1;
}

/* ---------------------------------------------------------------- text */

static double share(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void print_histogram_text(const Stats *s)
{
    uint64_t bins[HISTOGRAM_BINS], most = 0;
    int width = 1, n = histogram(s, bins, &width);
    for (int i = 0; i < n; i++)
        most = bins[i] > most ? bins[i] : most;
    printf("length histogram (plies per game)\n");
    for (int i = 0; i < n; i++) {
        int bar = most ? (int)((bins[i] * BAR_WIDTH + most - 1) / most) : 0;
        printf("  %5d-%-5d %-*.*s %llu\n", i * width, (i + 1) * width - 1, BAR_WIDTH, bar,
               "########################################", (unsigned long long)bins[i]);
    }
}

static void print_settings_text(const char *settings)
{
    printf("settings%s\n", settings[0] ? "" : "        (none)");
    for (const char *p = settings; *p;) {
        size_t n = strcspn(p, "\n");
        printf("  %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

static void print_text(const char *name, const Stats *s, const RecordsHeader *h)
{
    printf("file            %s\n", name);
    if (h)
        printf("variant         %s %dx%d\nboard           %s\n", h->variant, h->width, h->height, h->board);
    printf("games           %llu", (unsigned long long)s->games);
    if (s->games)
        printf(" (indices %llu-%llu)", (unsigned long long)s->min_index, (unsigned long long)s->max_index);
    printf("\npositions       %llu (%.1f plies per game; shortest %d, longest %d)\n", (unsigned long long)s->plies,
           ratio(s->plies, s->games), s->games ? s->min_length : 0, s->games ? s->max_length : 0);
    printf("results         white %llu (%.1f%%), black %llu (%.1f%%), draw %llu (%.1f%%)\n",
           (unsigned long long)s->results[0], share(s->results[0], s->games), (unsigned long long)s->results[1],
           share(s->results[1], s->games), (unsigned long long)s->results[2], share(s->results[2], s->games));
    printf("end reasons    %s", s->games ? "" : " none");
    for (int i = 0; i < RECORD_END_COUNT; i++)
        if (s->ends[i])
            printf(" %s %llu", record_end_name((RecordEnd)i), (unsigned long long)s->ends[i]);
    printf("\nsearch data     values on %llu plies, visit lists on %llu plies\n", (unsigned long long)s->valued_plies,
           (unsigned long long)s->searched_plies);
    printf("size            %llu bytes in %llu chunk%s; %.2f bytes per ply, %.1f per game\n",
           (unsigned long long)s->bytes, (unsigned long long)s->chunks, s->chunks == 1 ? "" : "s",
           ratio(s->bytes, s->plies), ratio(s->bytes, s->games));
    print_histogram_text(s);
    if (h)
        print_settings_text(h->settings);
}

/* ---------------------------------------------------------------- JSON */

/* Paths are bytes and settings free text: core/utf8.h keeps the JSON valid whatever they hold. */
static void json_string(const char *s) { utf8_put_json(stdout, s); }

static void print_json(const char *name, const Stats *s, const RecordsHeader *h)
{
    printf("{\"file\":");
    json_string(name);
    if (h) {
        printf(",\"variant\":");
        json_string(h->variant);
        printf(",\"width\":%d,\"height\":%d,\"board\":", h->width, h->height);
        json_string(h->board);
    }
    printf(",\"games\":%llu,\"positions\":%llu", (unsigned long long)s->games, (unsigned long long)s->plies);
    if (s->games)
        printf(",\"min_index\":%llu,\"max_index\":%llu", (unsigned long long)s->min_index, (unsigned long long)s->max_index);
    printf(",\"results\":{\"white-wins\":%llu,\"black-wins\":%llu,\"draw\":%llu},\"end_reasons\":{",
           (unsigned long long)s->results[0], (unsigned long long)s->results[1], (unsigned long long)s->results[2]);
    for (int i = 0; i < RECORD_END_COUNT; i++)
        printf("%s\"%s\":%llu", i ? "," : "", record_end_name((RecordEnd)i), (unsigned long long)s->ends[i]);
    printf("},\"plies_with_values\":%llu,\"plies_with_visits\":%llu,\"bytes\":%llu,\"chunks\":%llu,"
           "\"bytes_per_ply\":%.4f,\"length\":{\"min\":%d,\"mean\":%.4f,\"max\":%d},\"histogram\":[",
           (unsigned long long)s->valued_plies, (unsigned long long)s->searched_plies, (unsigned long long)s->bytes,
           (unsigned long long)s->chunks, ratio(s->bytes, s->plies), s->games ? s->min_length : 0,
           ratio(s->plies, s->games), s->games ? s->max_length : 0);
    uint64_t bins[HISTOGRAM_BINS];
    int width = 1, n = histogram(s, bins, &width);
    for (int i = 0; i < n; i++)
        printf("%s{\"from\":%d,\"to\":%d,\"games\":%llu}", i ? "," : "", i * width, (i + 1) * width - 1,
               (unsigned long long)bins[i]);
    printf("]");
    if (h) {
        printf(",\"settings\":");
        json_string(h->settings);
    }
    printf("}");
}

/* ---------------------------------------------------------------- SVG */

/* The chart of every file together: the same bins as the text and JSON histograms. */
static void write_chart(const char *path, const Stats *total, int files, const char *first)
{
    if (total->games == 0)
        fail_exit("records info", EXIT_USAGE, "--svg: no games to chart in %s", files == 1 ? first : "these files");
    uint64_t bins[HISTOGRAM_BINS];
    int width = 1, n = histogram(total, bins, &width);
    ChartBin chart_bins[HISTOGRAM_BINS];
    for (int i = 0; i < n; i++)
        chart_bins[i] = (ChartBin){i * width, (i + 1) * width - 1, bins[i]};
    char title[600];
    if (files == 1)
        snprintf(title, sizeof title, "%.500s: %llu games", first, (unsigned long long)total->games);
    else
        snprintf(title, sizeof title, "%d records files: %llu games", files, (unsigned long long)total->games);
    CliOutput out;
    if (!chart_records(cli_output_open("records info", path, &out), title, chart_bins, n, total->results)) {
        cli_output_discard(&out);
        fail_exit("records info", EXIT_FAILURE_RUN, "cannot write %s: %s", path, strerror(errno));
    }
    cli_output_commit("records info", &out);
}

/* ---------------------------------------------------------------- the subcommand */

/* The paths go to the front of argv; returns how many. */
static int read_options(int argc, char **argv, bool *json, const char **svg)
{
    ArgReader r = {argc, argv, 1, "records info", false};
    int n = 0;
    while (r.index < argc) {
        if (arg_operand(&r))
            argv[n++] = argv[r.index++];
        else if (arg_flag(&r, "--json"))
            *json = true;
        else if (!arg_value(&r, "--svg", svg))
            arg_common(&r, &records_info_command);
    }
    if (n == 0)
        fail_exit("records info", EXIT_USAGE, "missing FILE (see leuctra records info --help)");
    if (*svg && strcmp(*svg, "-") == 0)
        fail_exit("records info", EXIT_USAGE, "--svg needs a file: stdout carries the report");
    if (*svg) {
        cli_output_check("records info", "--svg", *svg);
        cli_output_apart("records info", "--svg", *svg, argv, n);
    }
    return n;
}

static int run_info(int argc, char **argv)
{
    bool json = false;
    const char *svg = NULL;
    int n = read_options(argc, argv, &json, &svg);
    Stats total = {0};
    if (json)
        printf("{\"files\":[");
    for (int i = 0; i < n; i++) {
        Stats s = {0};
        RecordsHeader h;
        collect(argv[i], &s, &h);
        if (json) {
            fputs(i ? "," : "", stdout);
            print_json(argv[i], &s, &h);
        } else {
            print_text(argv[i], &s, &h);
            fputs(i + 1 < n ? "\n" : "", stdout);
        }
        stats_merge(&total, &s);
        free(s.length_count);
        records_header_free(&h);
    }
    if (json) {
        printf("],\"total\":");
        print_json("total", &total, NULL);
        printf("}\n");
    } else if (n > 1) {
        printf("\n");
        print_text("total", &total, NULL);
    }
    if (svg)
        write_chart(svg, &total, n, argv[0]);
    free(total.length_count);
    return 0;
}

const Command records_info_command = {
    "info", run_info, "games, positions, results, end reasons, lengths, bytes per ply, settings",
    "usage: leuctra records info FILE... [--json] [--svg CHART.svg]\n\n"
    "Reads each file and prints what it holds: the variant and board, the games (and their index\n"
    "range), positions (plies), results, end reasons, plies with root values and visit lists, the\n"
    "size in bytes per ply, a histogram of game lengths, and the settings text its writer stored.\n"
    "With several files, a total follows.  A damaged file stops with the damaged chunk's offset\n"
    "and exit status 1 (leuctra records verify lists every damaged chunk).\n\n"
    "  --json        one JSON object: {\"files\": [...], \"total\": {...}}\n"
    "  --svg FILE    also draw the games of all the files as an SVG chart: the length histogram\n"
    "                (the bins above, one bar each) and the results (docs/PICTURES.md)\n\n"
    "example: leuctra records info --json run1.lrec run2.lrec\n"
    "         leuctra records info run1.lrec --svg run1.svg\n",
};
