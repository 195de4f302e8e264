/*
 * cmd_view.c - `leuctra view`: stored games as one self-contained HTML page to step through
 * (pictures/view_template.h holds the page).  Each game is replayed here by the rules engine and
 * every position embedded as its string and its squares, so the page shows exactly what
 * `leuctra apply` gives and needs no rules of its own.
 */
#include "cli.h"
#include "record_replay.h"
#include "records_cli.h"
#include "pictures/view_template.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Top moves kept per ply: enough to read the search, small enough for long 16x16 games. */
enum { VIEW_TOP_MOVES = 8 };

typedef struct {
    const char *records, *out;
    uint64_t first, last;   /* the game indices to include */
} ViewOptions;

static void read_range(const char *text, ViewOptions *o)
{
    char first[32];
    const char *dash = strchr(text, '-');
    size_t n = dash ? (size_t)(dash - text) : 0;
    if (!dash || n == 0 || n >= sizeof first)
        fail_exit("view", EXIT_USAGE, "--games must be A-B (game indices), got '%s'", text);
    memcpy(first, text, n);
    first[n] = '\0';
    o->first = (uint64_t)arg_integer("view", "--games", first, 0, 0x7FFFFFFFFFFFFFFF);
    o->last = (uint64_t)arg_integer("view", "--games", dash + 1, 0, 0x7FFFFFFFFFFFFFFF);
    if (o->last < o->first)
        fail_exit("view", EXIT_USAGE, "--games %s: the range is empty", text);
}

static void read_options(int argc, char **argv, ViewOptions *o)
{
    ArgReader r = {argc, argv, 1, "view", false};
    const char *text;
    while (r.index < argc) {
        if (arg_operand(&r)) {
            if (o->records)
                fail_exit("view", EXIT_USAGE, "one RECORDS file only, got '%s' too", argv[r.index]);
            o->records = argv[r.index++];
        } else if (arg_value(&r, "-o", &o->out) || arg_value(&r, "--out", &o->out)) {
            continue;
        } else if (arg_value(&r, "--game", &text)) {
            o->first = o->last = (uint64_t)arg_integer("view", "--game", text, 0, 0x7FFFFFFFFFFFFFFF);
        } else if (arg_value(&r, "--games", &text)) {
            read_range(text, o);
        } else {
            arg_common(&r, &command_view);
        }
    }
    if (!o->records)
        fail_exit("view", EXIT_USAGE, "missing RECORDS file (see leuctra view --help)");
    if (!o->out)
        fail_exit("view", EXIT_USAGE, "missing -o FILE.html");
}

/* The squares top row first, as the page draws them. */
static void write_board(FILE *out, const Game *g, const Position *pos)
{
    fputs("\"board\":\"", out);
    for (int rank = g->height - 1; rank >= 0; rank--)
        for (int f = 0; f < g->width; f++)
            fputc(game_square(g, pos, f, rank), out);
    fputs("\"", out);
}

static void write_search(FILE *out, const GameRecord *r, int ply)
{
    const RecordPly *p = ply < r->plies ? &r->ply[ply] : NULL;
    double value = p ? record_value_double(p->value) : NAN;
    if (isnan(value))
        fputs(",\"value\":null", out);
    else
        fprintf(out, ",\"value\":%.4f", value);
    fprintf(out, ",\"total\":%lu,\"top\":[", p ? (unsigned long)p->total_visits : 0UL);
    for (uint32_t k = 0; p && k < p->num_visits && k < VIEW_TOP_MOVES; k++) {
        const RecordVisit *v = &r->visit[p->first_visit + k];
        char text[RECORD_MOVE_TEXT];
        record_move_format(v->move, text, sizeof text);
        fprintf(out, "%s[\"%s\",%lu]", k ? "," : "", text, (unsigned long)v->visits);
    }
    fputs("]", out);
}

static void write_frame(FILE *out, const Game *g, const Position *pos, const GameRecord *r, int ply)
{
    char text[1024], move[RECORD_MOVE_TEXT] = "";
    game_format_position(g, pos, text, sizeof text);
    if (ply < r->plies)
        record_move_format(r->ply[ply].move, move, sizeof move);
    fprintf(out, "%s{\"pos\":\"%s\",", ply ? ",\n" : "", text);
    write_board(out, g, pos);
    fprintf(out, ",\"stm\":\"%c\",\"move\":\"%s\"", game_side_to_move(g, pos) == WHITE ? 'w' : 'b', move);
    write_search(out, r, ply);
    fputs("}", out);
}

static const char *result_name(GameStatus s)
{
    return s == STATUS_WHITE_WINS ? "white-wins" : s == STATUS_BLACK_WINS ? "black-wins" : "draw";
}

static void write_game(FILE *out, const RecordsHeader *h, const GameRecord *r, bool first)
{
    Position pos;
    Game *g = replay_start("view", h, r, &pos);
    fprintf(out, "%s{\"index\":%llu,\"result\":\"%s\",\"end\":\"%s\",\"frames\":[\n", first ? "" : ",\n",
            (unsigned long long)r->index, result_name(r->result), record_end_name(r->end));
    for (int ply = 0; ply <= r->plies; ply++) {
        write_frame(out, g, &pos, r, ply);
        if (ply < r->plies) {
            char move[RECORD_MOVE_TEXT];
            replay_ply("view", g, &pos, r, ply, move);
        }
    }
    fputs("]}", out);
    game_free(g);
}

/* Writes the JSON of the chosen games; returns how many there were. */
static int write_games(FILE *out, RecordsReader *rd, const ViewOptions *o)
{
    const RecordsHeader *h = records_reader_header(rd);
    Error err;
    Game *g = records_header_game(h, &err);
    if (!g)
        fail_exit("view", EXIT_FAILURE_RUN, "%s", err.msg);
    fprintf(out, "{\"variant\":\"%s\",\"width\":%d,\"height\":%d,\"reversi\":%s,\"games\":[\n", g->name, g->width,
            g->height, g->variant == VARIANT_REVERSI ? "true" : "false");
    game_free(g);
    GameRecord r;
    game_record_init(&r);
    Error rerr = {0};
    int rc, count = 0;
    while ((rc = records_next(rd, &r, &rerr)) == 1)
        if (r.index >= o->first && r.index <= o->last)
            write_game(out, h, &r, count++ == 0);
    if (rc < 0)
        fail_with("view", &rerr);
    game_record_free(&r);
    fputs("]}\n", out);
    return count;
}

static int run_view(int argc, char **argv)
{
    ViewOptions o = {NULL, NULL, 0, UINT64_MAX};
    read_options(argc, argv, &o);
    cli_output_check("view", "-o", o.out);
    cli_output_apart("view", "-o", o.out, (char *const *)&o.records, 1);
    RecordsReader *rd = cli_records_open_or_fail("view", o.records);
    CliOutput page;
    FILE *out = cli_output_open("view", o.out, &page);
    fputs(VIEW_PAGE_HEAD, out);
    int count = write_games(out, rd, &o);
    fputs(VIEW_PAGE_TAIL, out);
    records_close(rd);
    if (count == 0) {
        cli_output_discard(&page);
        fail_exit("view", EXIT_FAILURE_RUN, "%s: no games in the chosen range", o.records);
    }
    cli_output_commit("view", &page);
    return 0;
}

const Command command_view = {
    "view", run_view, "stored games as one HTML page to step through",
    "usage: leuctra view RECORDS [--game N | --games A-B] -o FILE.html\n\n"
    "Writes one self-contained HTML file (no network, no other files) that shows the games of a\n"
    "records file: the board of each ply, the moves, the engine's stored value as a curve over\n"
    "the game, and the top moves with their visits.  Step with the buttons or the arrow keys\n"
    "(Home/End for the ends); several games are chosen from a list.  The page opens at\n"
    "FILE.html#game=G&ply=P when given (G counts the file's games from 0).  Every position is\n"
    "made by the rules engine, as `leuctra apply` makes it.\n\n"
    "  --game N        only the game with index N\n"
    "  --games A-B     the games with indices A to B (default: every game)\n"
    "  -o, --out FILE  the page (required; written whole or not at all; '-': stdout)\n\n"
    "example: leuctra view run1.lrec --games 0-9 -o games.html\n",
};
