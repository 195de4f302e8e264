/*
 * cmd_records_export.c - `leuctra records export`: every position of every game, for training.
 * As CSV (here): one row per position with the position string (games are replayed with the
 * rules, which also checks every stored move), the move played, the result from the mover's
 * view, the root value and the visit targets.  As .npz tensors: cli/records_export_npz.c.
 * Written to a temporary file and renamed, so OUT is whole or absent.
 */
#include "records_export.h"

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

/* A ply's visited move, as written: it must be a move of pos exactly as the rules write it, as the
 * played move must (game_parse_move: legal, and with '-' or 'x' as the move is), or the export
 * stops.  The text is the row's own, so checking it costs a parse. */
static void check_visit(Export *x, const Game *g, const Position *pos, const GameRecord *r, int ply, const char *move,
                        const char *path)
{
    Move m;
    Error err;
    if (game_parse_move(g, pos, move, &m, &err))
        return;
    char msg[ERROR_LEN + 400];
    snprintf(msg, sizeof msg, "%s: game %llu ply %d: the visit list: %s", path, (unsigned long long)r->index, ply + 1,
             err.msg);
    export_fail(x, EXIT_FAILURE_RUN, msg);
}

static void write_row(Export *x, const Game *g, const Position *pos, const GameRecord *r, int ply, const char *path)
{
    const RecordPly *p = &r->ply[ply];
    char move[RECORD_MOVE_TEXT], position[RECORD_MAX_POSITION];
    int side = game_side_to_move(g, pos);
    game_format_position(g, pos, position, sizeof position);
    record_move_format(p->move, move, sizeof move);
    fprintf(x->out, "%llu,%d,%s,%c,%s,%s,", (unsigned long long)r->index, ply, position, side == WHITE ? 'w' : 'b',
            move, result_for(r->result, side));
    if (p->value != RECORD_NO_VALUE)
        fprintf(x->out, "%.4f", record_value_double(p->value));
    fputc(',', x->out);
    for (uint32_t k = 0; k < p->num_visits; k++) {
        const RecordVisit *v = &r->visit[p->first_visit + k];
        record_move_format(v->move, move, sizeof move);
        check_visit(x, g, pos, r, ply, move, path);
        fprintf(x->out, "%s%s:%lu", k ? ";" : "", move, (unsigned long)v->visits);
    }
    fputc('\n', x->out);
    x->rows++;
}

/* Replays one game with the rules, a row per position before each move; every stored move, played
 * or visited, is checked against the rules on the way. */
static void export_game(Export *x, const Game *g, const GameRecord *r, const char *path)
{
    Position pos;
    Error err;
    char msg[ERROR_LEN + 400];
    if (!game_parse_position(g, r->start, &pos, &err)) {
        snprintf(msg, sizeof msg, "%s: game %llu: bad start position: %s", path, (unsigned long long)r->index, err.msg);
        export_fail(x, EXIT_FAILURE_RUN, msg);
    }
    for (int i = 0; i < r->plies; i++) {
        write_row(x, g, &pos, r, i, path);
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
    Error rerr = {0};
    RecordsReader *rd = records_open(path, &rerr);
    if (!rd)
        export_fail(x, rerr.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, rerr.msg);
    Error err;
    Game *g = records_header_game(records_reader_header(rd), &err);
    if (!g) {
        char msg[ERROR_LEN + 400];
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

/* The temporary files (and folders of shards) "OUT.tmp.XXXXXX" that exports killed while writing
 * OUT left: removed before this one writes, those of a live export excepted
 * (output_temp_remove_stale tells them by their locks). */
static void remove_stale_temps(const char *out, bool quiet)
{
    if (cli_output_is_stdout(out))
        return;
    int removed = output_temp_remove_stale(out);
    if (removed > 0 && !quiet)
        fprintf(stderr, "removed %d temporary file%s (%s.tmp.*) that a stopped export left\n", removed,
                removed == 1 ? "" : "s", out);
}

typedef enum { FORMAT_GUESS, FORMAT_CSV, FORMAT_NPZ } Format;

static Format parse_format(const char *text)
{
    if (strcmp(text, "csv") == 0)
        return FORMAT_CSV;
    if (strcmp(text, "npz") == 0)
        return FORMAT_NPZ;
    fail_exit("records export", EXIT_USAGE, "--format must be csv or npz, not '%s'", text);
}

/* Without --format, an OUT that ends in .npz asks for npz. */
static Format guess_format(Format f, const char *out)
{
    size_t n = strlen(out);
    if (f != FORMAT_GUESS)
        return f;
    return n > 4 && strcmp(out + n - 4, ".npz") == 0 ? FORMAT_NPZ : FORMAT_CSV;
}

static void export_csv(Export *x, char **paths, int n)
{
    cli_output_check("records export", "-o", x->out_path);
    cli_output_apart("records export", "-o", x->out_path, paths, n);
    remove_stale_temps(x->out_path, false);
    x->out = cli_output_open("records export", x->out_path, &x->output);
    fputs("game,ply,position,side,move,result,value,visits\n", x->out);
    for (int i = 0; i < n; i++)
        export_file(x, paths[i]);
    bool to_file = !cli_output_is_stdout(x->out_path);
    cli_output_commit("records export", &x->output);
    if (to_file)
        fprintf(stderr, "%s: %llu positions\n", x->out_path, (unsigned long long)x->rows);
}

static int run_export(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "records export", false};
    Export x = {0};
    NpzExport npz = {.level = 4};
    const char *format = NULL, *shard = NULL, *level = NULL, *threads = NULL;
    bool npz_only = false;
    int n = 0;
    while (r.index < argc) {
        if (arg_operand(&r))
            argv[n++] = argv[r.index++];
        else if (arg_value(&r, "-o", &x.out_path) || arg_value(&r, "--output", &x.out_path) ||
                 arg_value(&r, "--format", &format))
            continue;
        else if (arg_value(&r, "--shard-positions", &shard) || arg_value(&r, "--level", &level) ||
                 arg_value(&r, "--threads", &threads))
            npz_only = true;
        else if (arg_flag(&r, "--augment"))
            npz_only = npz.augment = true;
        else if (arg_flag(&r, "--dense"))
            npz_only = npz.dense = true;
        else if (arg_flag(&r, "--packed"))
            npz_only = npz.packed = true;
        else if (arg_flag(&r, "--quiet") || arg_flag(&r, "-q"))
            npz.quiet = true;
        else
            arg_common(&r, &records_export_command);
    }
    if (n == 0)
        fail_exit("records export", EXIT_USAGE, "missing FILE (see leuctra records export --help)");
    if (!x.out_path)
        fail_exit("records export", EXIT_USAGE, "missing -o OUT (see leuctra records export --help)");
    Format f = guess_format(format ? parse_format(format) : FORMAT_GUESS, x.out_path);
    if (f == FORMAT_CSV) {
        if (npz_only)
            fail_exit("records export", EXIT_USAGE,
                      "--augment, --dense, --packed, --shard-positions, --level and --threads are for --format npz");
        export_csv(&x, argv, n);
        return 0;
    }
    npz.out_path = x.out_path;
    npz.shard_positions = shard ? arg_integer("records export", "--shard-positions", shard, 1, 1L << 40) : 0;
    npz.level = level ? (int)arg_integer("records export", "--level", level, 0, 9) : 4;
    npz.threads = threads ? arg_threads("records export", "--threads", threads) : 0;
    if (npz.shard_positions && cli_output_is_stdout(x.out_path))
        fail_exit("records export", EXIT_USAGE, "--shard-positions writes several files: -o cannot be '-'");
    cli_output_check("records export", "-o", x.out_path);
    cli_output_apart("records export", "-o", x.out_path, argv, n);
    remove_stale_temps(x.out_path, npz.quiet);
    export_npz(&npz, argv, n);
    return 0;
}

const Command records_export_command = {
    "export", run_export, "every position as CSV rows or .npz tensors, for training",
    "usage: leuctra records export FILE... -o OUT.csv\n"
    "       leuctra records export FILE... [--format npz] -o OUT.npz [--augment] [--dense] [--packed]\n"
    "                                      [--shard-positions N] [--level L] [--threads T] [--quiet]\n\n"
    "Replays every game with the rules and writes every position (before each move).\n\n"
    "CSV (the default unless OUT ends in .npz): one row per position,\n"
    "  game,ply,position,side,move,result,value,visits\n"
    "game: the game index; ply: plies played before the position (0 = the start); position: the\n"
    "position string; side: w or b to move; move: the move played; result: the game's result for\n"
    "the side to move (1, 0.5, 0); value: the searcher's root value for the side to move, 0-1\n"
    "(empty when none); visits: the visit targets, MOVE:VISITS;... most visited first (empty when\n"
    "none).\n\n"
    "npz (numpy's format, np.load reads it; docs/TENSORS.md): per position N the input planes\n"
    "(planes: uint8 [N, 9, H, W], from the side to move's view), its legal actions on the game's\n"
    "fixed action index with the visit share of each (legal_count [N]; legal, policy: the lists\n"
    "one after the other), the action played, the result and the root value for the side to move\n"
    "(value: NaN where the record has none), game index, ply, side and symmetry; meta: JSON text.\n"
    "Every stored move, played or visited, must be a legal move of its position exactly as\n"
    "stored (a capture written with 'x'), in CSV and npz alike, or the export stops.\n\n"
    "  -o, --output OUT       the file to write ('-o -': stdout)\n"
    "  --format csv|npz       (default: npz when OUT ends in .npz, else csv)\n"
    "  --augment              npz: each position once more under every board symmetry the rules\n"
    "                         allow (the file mirror of the phalanx games where the obstacles\n"
    "                         allow it; Reversi's 7 other symmetries)\n"
    "  --dense                npz: policy and legal_mask as [N, actions] arrays instead of lists\n"
    "  --packed               npz: planes_packed, the planes as bits (numpy's unpackbits with\n"
    "                         bitorder='little' and count 9*H*W gives them back): smaller, faster\n"
    "  --shard-positions N    npz: files OUT-00000.npz, OUT-00001.npz ... of at most N positions\n"
    "                         each (a game is never split; one longer game gets a file alone)\n"
    "                         and OUT-shards.json naming them: a set that replaces the one there\n"
    "                         as a whole, its manifest last (docs/TENSORS.md, Shards)\n"
    "  --level L              npz: zlib level 0-9 (default 4: 5% larger than 6, 40% faster)\n"
    "  --threads T            npz: arrays deflated side by side on T threads (default: every\n"
    "                         core); the bytes are the same whatever T\n"
    "  -q, --quiet            npz: no progress line and no summary\n\n"
    "OUT is written to a temporary file and renamed into place (through a symlink, the file it\n"
    "names); a device or FIFO is written directly; shards are written into a folder OUT.tmp.*\n"
    "and renamed into place at the end.  A damaged file or a stored move that the rules reject\n"
    "stops with exit status 1, and what was there before stays as it was (a set of shards\n"
    "too, and so does it after SIGINT, SIGTERM or SIGHUP).  The temporary files and folders\n"
    "OUT.tmp.* that a killed export left are removed first (a running export's are not).  npz\n"
    "shows a progress line on a terminal; memory stays bounded however large the input.\n\n"
    "example: leuctra records export run1.lrec run2.lrec -o train.csv\n"
    "         leuctra records export run1.lrec -o train.npz --augment --shard-positions 1000000\n",
};
