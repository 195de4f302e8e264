/*
 * cmd_records_export.c - `leuctra records export`: one CSV row per position of every game, for
 * training: the position string (games are replayed with the rules, which also checks every
 * stored move), the move played, the result from the mover's view, the root value and the visit
 * targets.  Written to a temporary file and renamed, so OUT is whole or absent.
 */
#include "records_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    FILE *out;
    const char *out_path;
    CliOutput output;       /* the temporary file renamed over OUT at the end */
    uint64_t rows;
} Export;

static const char *result_for(GameStatus result, int side)
{
    if (result == STATUS_DRAW)
        return "0.5";
    return (result == STATUS_WHITE_WINS) == (side == WHITE) ? "1" : "0";
}

/* Removes the temporary output and fails with one line. */
static _Noreturn void export_fail(Export *x, int status, const char *msg)
{
    cli_output_discard(&x->output);
    fail_exit("records export", status, "%s", msg);
}

static void write_row(Export *x, const GameRecord *r, int ply, const char *position, int side)
{
    const RecordPly *p = &r->ply[ply];
    char move[RECORD_MOVE_TEXT];
    record_move_format(p->move, move, sizeof move);
    fprintf(x->out, "%llu,%d,%s,%c,%s,%s,", (unsigned long long)r->index, ply, position, side == WHITE ? 'w' : 'b',
            move, result_for(r->result, side));
    if (p->value != RECORD_NO_VALUE)
        fprintf(x->out, "%.4f", record_value_double(p->value));
    fputc(',', x->out);
    for (uint32_t k = 0; k < p->num_visits; k++) {
        const RecordVisit *v = &r->visit[p->first_visit + k];
        record_move_format(v->move, move, sizeof move);
        fprintf(x->out, "%s%s:%lu", k ? ";" : "", move, (unsigned long)v->visits);
    }
    fputc('\n', x->out);
    x->rows++;
}

/* Replays one game with the rules, a row per position before each move. */
static void export_game(Export *x, const Game *g, const GameRecord *r, const char *path)
{
    Position pos;
    Error err;
    char msg[600], position[RECORD_MAX_POSITION];
    if (!game_parse_position(g, r->start, &pos, &err)) {
        snprintf(msg, sizeof msg, "%s: game %llu: bad start position: %s", path, (unsigned long long)r->index, err.msg);
        export_fail(x, EXIT_FAILURE_RUN, msg);
    }
    for (int i = 0; i < r->plies; i++) {
        game_format_position(g, &pos, position, sizeof position);
        write_row(x, r, i, position, game_side_to_move(g, &pos));
        Move m;
        if (!record_move_to_move(g, &pos, r->ply[i].move, &m, &err)) {
            snprintf(msg, sizeof msg, "%s: game %llu ply %d: %s", path, (unsigned long long)r->index, i + 1, err.msg);
            export_fail(x, EXIT_FAILURE_RUN, msg);
        }
        Undo u;
        game_make(g, &pos, m, &u);
    }
}

static void export_file(Export *x, const char *path)
{
    RecordsError rerr = {0};
    RecordsReader *rd = records_open(path, &rerr);
    if (!rd)
        export_fail(x, records_exit_status(&rerr), rerr.msg);
    Error err;
    Game *g = records_header_game(records_reader_header(rd), &err);
    if (!g) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s: the header's board: %s", path, err.msg);
        export_fail(x, EXIT_FAILURE_RUN, msg);
    }
    GameRecord r;
    game_record_init(&r);
    int rc;
    while ((rc = records_next(rd, &r, &rerr)) == 1)
        export_game(x, g, &r, path);
    if (rc < 0)
        export_fail(x, EXIT_FAILURE_RUN, rerr.msg);
    game_record_free(&r);
    game_free(g);
    records_close(rd);
}

static int run_export(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "records export", false};
    Export x = {0};
    int n = 0;
    while (r.index < argc) {
        if (arg_operand(&r))
            argv[n++] = argv[r.index++];
        else if (!arg_value(&r, "-o", &x.out_path) && !arg_value(&r, "--output", &x.out_path))
            arg_common(&r, &records_export_command);
    }
    if (n == 0)
        fail_exit("records export", EXIT_USAGE, "missing FILE (see leuctra records export --help)");
    if (!x.out_path)
        fail_exit("records export", EXIT_USAGE, "missing -o OUT.csv (see leuctra records export --help)");
    cli_output_check("records export", "-o", x.out_path);
    cli_output_apart("records export", "-o", x.out_path, argv, n);
    x.out = cli_output_open("records export", x.out_path, &x.output);
    fputs("game,ply,position,side,move,result,value,visits\n", x.out);
    for (int i = 0; i < n; i++)
        export_file(&x, argv[i]);
    bool to_file = !cli_output_is_stdout(x.out_path);
    cli_output_commit("records export", &x.output);
    if (to_file)
        fprintf(stderr, "%s: %llu positions\n", x.out_path, (unsigned long long)x.rows);
    return 0;
}

const Command records_export_command = {
    "export", run_export, "one CSV row per position, for training",
    "usage: leuctra records export FILE... -o OUT.csv\n\n"
    "Replays every game with the rules and writes one row per position (before each move):\n"
    "  game,ply,position,side,move,result,value,visits\n"
    "game: the game index; ply: plies played before the position (0 = the start); position: the\n"
    "position string; side: w or b to move; move: the move played; result: the game's result for\n"
    "the side to move (1, 0.5, 0); value: the searcher's root value for the side to move, 0-1\n"
    "(empty when none); visits: the visit targets, MOVE:VISITS;... most visited first (empty when\n"
    "none).  OUT is written to a temporary file and renamed into place (through a symlink, the\n"
    "file it names); '-o -' writes stdout, a device or FIFO is written directly.\n"
    "A damaged file or a stored move that the rules reject stops with exit status 1.\n\n"
    "  -o, --output OUT   the CSV file to write\n\n"
    "example: leuctra records export run1.lrec run2.lrec -o train.csv\n",
};
