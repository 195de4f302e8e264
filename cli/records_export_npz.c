/*
 * records_export_npz.c - `leuctra records export --format npz`: every position of every game as
 * tensors in numpy's .npz (data/tensor_file.h, docs/TENSORS.md), optionally with the board's
 * symmetric copies and cut into shards of a bounded number of positions.  Memory stays bounded:
 * one game and the writers' buffers.  Each shard is written whole or not at all; a failure
 * removes every shard this run wrote.  On a terminal a progress line shows positions, rate and
 * ETA.
 */
#include "records_export.h"
#include "data/tensor_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_SHARDS_LISTED = 100000 };

typedef struct {
    const NpzExport *opt;
    char **paths;
    int num_paths;
    Game *g;
    RecordsHeader header;       /* the first file's board, which every other must match */
    RecordTensors *rt;
    TensorFile *tf;
    int shard;                  /* shards finished */
    char shard_path[OUTPUT_PATH_MAX + 16];
    char **done;                /* the shards written, to remove after a failure */
    uint64_t positions, games, bytes, shard_games;
    uint64_t input_bytes, input_done;   /* for the ETA: the inputs' sizes, the finished files' */
    double start, last_print;
    bool tty;
    bool wide;                  /* int32 visits: a count did not fit int16 */
} Export;

static void remove_written(Export *x)
{
    for (int i = 0; i < x->shard; i++) {
        unlink(x->done[i]);
        free(x->done[i]);
    }
    x->shard = 0;
}

static _Noreturn void fail(Export *x, int status, const char *msg)
{
    tensor_file_discard(x->tf);
    remove_written(x);
    if (x->tty)
        fputc('\n', stderr);
    fail_exit("records export", status, "%s", msg);
}

/* OUT for one file; OUT-00000.npz, OUT-00001.npz ... (OUT without its .npz) for shards. */
static void shard_name(const Export *x, int k, char *buf, size_t len)
{
    const char *out = x->opt->out_path;
    if (!x->opt->shard_positions) {
        snprintf(buf, len, "%s", out);
        return;
    }
    size_t n = strlen(out);
    int stem = n > 4 && strcmp(out + n - 4, ".npz") == 0 ? (int)(n - 4) : (int)n;
    snprintf(buf, len, "%.*s-%05d.npz", stem, out, k);
}

/* A shard's name is made here, so it is checked here: no shard may be an input. */
static void check_apart(Export *x)
{
    FileRole files[1 + 64];
    Error err;
    files[0] = (FileRole){"-o", x->shard_path, true, false};
    for (int i = 0; i < x->num_paths; i += 64) {
        int k = x->num_paths - i < 64 ? x->num_paths - i : 64;
        for (int j = 0; j < k; j++)
            files[1 + j] = (FileRole){"", x->paths[i + j], false, false};
        if (!output_files_distinct(files, 1 + k, &err))
            fail(x, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, err.msg);
    }
}

static void open_shard(Export *x)
{
    TensorFileOptions opt = {x->opt->dense, x->opt->packed, x->wide, {x->opt->level, false, x->opt->threads}};
    Error err;
    shard_name(x, x->shard, x->shard_path, sizeof x->shard_path);
    if (x->opt->shard_positions)
        check_apart(x);
    x->tf = tensor_file_create(x->shard_path, x->g, &opt, &err);
    if (!x->tf)
        fail(x, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, err.msg);
    x->shard_games = 0;
}

/* JSON text of s between quotes, escaped. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static char *description(const Export *x)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "\"augment\": %s, \"games\": %llu, \"shard\": %d, \"sources\": [", x->opt->augment ? "true" : "false",
            (unsigned long long)x->shard_games, x->opt->shard_positions ? x->shard : -1);
    for (int i = 0; i < x->num_paths; i++) {
        if (i)
            fputs(", ", f);
        json_string(f, x->paths[i]);
    }
    fputs("], \"board\": ", f);
    json_string(f, x->header.board);
    fclose(f);
    return text;
}

static void close_shard(Export *x)
{
    char *extra = description(x);
    Error err;
    uint64_t bytes = 0;
    if (!extra)
        fail(x, EXIT_FAILURE_RUN, "out of memory");
    bool ok = tensor_file_finish(x->tf, extra, &bytes, &err);
    free(extra);
    x->tf = NULL;
    if (!ok)
        fail(x, EXIT_FAILURE_RUN, err.msg);
    if (x->shard + 1 >= MAX_SHARDS_LISTED) {
        unlink(x->shard_path);
        fail(x, EXIT_USAGE, "more than 100,000 shards: raise --shard-positions");
    }
    x->bytes += bytes;
    x->done[x->shard] = strdup(x->shard_path);
    if (!x->done[x->shard])
        fail(x, EXIT_FAILURE_RUN, "out of memory");
    x->shard++;
}

static void show_progress(Export *x, const RecordsReader *rd, bool last)
{
    double now = clock_seconds() - x->start;
    if (!x->tty || (!last && now - x->last_print < 0.25))
        return;
    x->last_print = now;
    uint64_t read = x->input_done + records_reader_chunk_offset(rd);
    double rate = now > 0 ? (double)x->positions / now : 0, share = x->input_bytes ? (double)read / (double)x->input_bytes : 0;
    double eta = share > 0 ? now * (1 - share) / share : 0;
    fprintf(stderr, "\r%llu positions  %llu games  %.0f positions/s  %.1f MB  %.0f%%  ETA %.0fs   ",
            (unsigned long long)x->positions, (unsigned long long)x->games, rate,
            (double)(x->bytes + (x->tf ? tensor_file_bytes(x->tf) : 0)) / 1e6, 100 * share, eta);
    fflush(stderr);
}

static bool same_board(const RecordsHeader *a, const RecordsHeader *b)
{
    return strcmp(a->variant, b->variant) == 0 && a->width == b->width && a->height == b->height &&
           strcmp(a->board, b->board) == 0;
}

/* The first file gives the game; every other must hold the same game and board. */
static void take_header(Export *x, const char *path, const RecordsHeader *h)
{
    char msg[800];
    if (x->g) {
        if (!same_board(&x->header, h)) {
            snprintf(msg, sizeof msg, "%s: %s %dx%d, unlike %s (%s %dx%d): one dataset holds one game and board",
                     path, h->variant, h->width, h->height, x->paths[0], x->header.variant, x->header.width,
                     x->header.height);
            fail(x, EXIT_USAGE, msg);
        }
        return;
    }
    Error err;
    x->g = records_header_game(h, &err);
    if (!x->g) {
        snprintf(msg, sizeof msg, "%s: the header's board: %s", path, err.msg);
        fail(x, EXIT_FAILURE_RUN, msg);
    }
    x->header = *h;
    x->header.settings = NULL;
    x->rt = record_tensors_new(x->g, x->opt->augment ? ~0u : 0u);
    if (!x->rt)
        fail(x, EXIT_FAILURE_RUN, "out of memory");
    open_shard(x);
}

/* A shard ends before the game that would take it past --shard-positions (a game is never split).
 * False when a visit count outgrew the int16 visits (the export then starts again, wide). */
static bool add_game(Export *x, const GameRecord *r, const char *path)
{
    uint64_t rows = (uint64_t)r->plies * (uint64_t)record_tensors_copies(x->rt);
    if (x->opt->shard_positions && tensor_file_rows(x->tf) > 0 &&
        tensor_file_rows(x->tf) + rows > (uint64_t)x->opt->shard_positions) {
        close_shard(x);
        open_shard(x);
    }
    Error err;
    if (!record_tensors_game(x->rt, r, tensor_file_add_row, x->tf, &err)) {
        if (tensor_file_overflowed(x->tf))
            return false;
        char msg[800];
        snprintf(msg, sizeof msg, "%s: %s", path, err.msg);
        fail(x, EXIT_FAILURE_RUN, msg);
    }
    x->positions += rows;
    x->games++;
    x->shard_games++;
    return true;
}

static bool export_file(Export *x, const char *path)
{
    Error rerr = {0};
    RecordsReader *rd = records_open(path, &rerr);
    if (!rd)
        fail(x, rerr.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, rerr.msg);
    take_header(x, path, records_reader_header(rd));
    GameRecord r;
    game_record_init(&r);
    int rc;
    bool fits = true;
    while (fits && (rc = records_next(rd, &r, &rerr)) == 1) {
        fits = add_game(x, &r, path);
        show_progress(x, rd, false);
    }
    game_record_free(&r);
    if (fits && rc < 0)
        fail(x, EXIT_FAILURE_RUN, rerr.msg);
    x->input_done += records_reader_file_size(rd);
    records_close(rd);
    return fits;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* One pass over the inputs; false (with nothing left on disk) when the visits must be wide. */
static bool export_all(Export *x)
{
    for (int i = 0; i < x->num_paths; i++)
        if (!export_file(x, x->paths[i])) {
            tensor_file_discard(x->tf);
            x->tf = NULL;
            remove_written(x);
            return false;
        }
    close_shard(x);
    return true;
}

void export_npz(const NpzExport *opt, char **paths, int n)
{
    Export x = {.opt = opt, .paths = paths, .num_paths = n, .start = clock_seconds()};
    x.tty = !opt->quiet && isatty(STDERR_FILENO);
    x.done = calloc(MAX_SHARDS_LISTED, sizeof *x.done);
    if (!x.done)
        fail(&x, EXIT_FAILURE_RUN, "out of memory");
    for (int i = 0; i < n; i++)
        x.input_bytes += file_size(paths[i]);
    if (!export_all(&x)) {
        /* a search of more than 32,767 visits on one move: int32 visits, from the start */
        Export wide = {.opt = opt, .paths = paths, .num_paths = n, .start = x.start, .tty = x.tty, .done = x.done,
                       .input_bytes = x.input_bytes, .wide = true};
        record_tensors_free(x.rt);
        game_free(x.g);
        x = wide;
        if (!export_all(&x))
            fail(&x, EXIT_FAILURE_RUN, "visit counts beyond int32");
    }
    if (x.tty)
        fputc('\n', stderr);
    if (!opt->quiet && !cli_output_is_stdout(opt->out_path))
        fprintf(stderr, "%s: %llu positions of %llu games, %d file%s, %llu bytes (%.1f per position), %.2fs\n",
                opt->out_path, (unsigned long long)x.positions, (unsigned long long)x.games, x.shard,
                x.shard == 1 ? "" : "s", (unsigned long long)x.bytes,
                x.positions ? (double)x.bytes / (double)x.positions : 0.0, clock_seconds() - x.start);
    for (int i = 0; i < x.shard; i++)
        free(x.done[i]);
    free(x.done);
    record_tensors_free(x.rt);
    game_free(x.g);
}
