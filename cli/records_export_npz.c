/*
 * records_export_npz.c - `leuctra records export --format npz`: every position of every game as
 * tensors in numpy's .npz (data/tensor_file.h, docs/TENSORS.md), optionally with the board's
 * symmetric copies and cut into shards of a bounded number of positions.  Memory stays bounded:
 * one game and the writers' buffers.  One file is written whole or not at all; shards are
 * written apart and put in place as a set (data/tensor_shards.h), so that a failure, an
 * interruption or a kill leaves the old set as it was.  On a terminal a progress line shows
 * positions, rate and ETA.
 */
#include "records_export.h"
#include "core/utf8.h"
#include "data/tensor_file.h"
#include "data/tensor_shards.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The signals that end a process on request, held back while a set of shards is written. */
static const int ENDING_SIGNALS[] = {SIGINT, SIGTERM, SIGHUP};
enum { NUM_ENDING = sizeof ENDING_SIGNALS / sizeof ENDING_SIGNALS[0] };

typedef struct {
    const NpzExport *opt;
    char **paths;
    int num_paths;
    Game *g;
    RecordsHeader header;       /* the first file's board, which every other must match */
    RecordTensors *rt;
    TensorFile *tf;
    TensorShards *set;          /* with --shard-positions: the set being written, apart */
    char set_id[TENSOR_SHARDS_ID];
    int shard;                  /* shards finished */
    char shard_path[TENSOR_SHARDS_PATH];
    uint64_t positions, games, bytes, shard_games;
    uint64_t input_bytes, input_done;   /* for the ETA: the inputs' sizes, the finished files' */
    double start, last_print;
    bool tty;
    bool wide;                  /* int32 visits: a count did not fit int16 */
    sigset_t held, before;      /* with shards: the ending signals held back, and the mask before */
} Export;

/* Ends without output: this run's file or set goes (an old set stays as it was). */
static void discard(Export *x)
{
    tensor_file_discard(x->tf);
    x->tf = NULL;
    tensor_shards_discard(x->set);
    x->set = NULL;
    x->shard = 0;
}

static _Noreturn void fail(Export *x, int status, const char *msg)
{
    discard(x);
    if (x->tty)
        fputc('\n', stderr);
    fail_exit("records export", status, "%s", msg);
}

/* With shards, SIGINT, SIGTERM and SIGHUP are held back (blocked, in every thread, since the
 * deflating threads start later) while the set is written, and looked for between games:
 * then the export removes what it wrote and ends by that signal.  So an interrupted export
 * leaves the old set and nothing of its own, and no such signal cuts the swap at the end short
 * (SIGKILL can: docs/TENSORS.md says what it leaves).  A signal the process ignores stays so. */
static void hold_signals(Export *x)
{
    sigemptyset(&x->held);
    for (int i = 0; i < NUM_ENDING; i++) {
        struct sigaction old;
        if (sigaction(ENDING_SIGNALS[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaddset(&x->held, ENDING_SIGNALS[i]);
    }
    pthread_sigmask(SIG_BLOCK, &x->held, &x->before);
}

static void release_signals(Export *x)
{
    if (x->opt->shard_positions)
        pthread_sigmask(SIG_SETMASK, &x->before, NULL);
}

/* An ending signal that came: the export stops as if it had come unheld (the signal is
 * delivered when released; exit status 128 + its number should its handler return). */
static void check_signals(Export *x)
{
    sigset_t pending;
    if (!x->set || sigpending(&pending) != 0)
        return;
    for (int i = 0; i < NUM_ENDING; i++)
        if (sigismember(&x->held, ENDING_SIGNALS[i]) && sigismember(&pending, ENDING_SIGNALS[i])) {
            discard(x);
            if (x->tty)
                fputc('\n', stderr);
            release_signals(x);
            exit(128 + ENDING_SIGNALS[i]);
        }
}

/* Every file of the set there now will be replaced or removed: none may be an input. */
static void check_apart(Export *x, const char *name)
{
    FileRole files[1 + 64];
    Error err;
    files[0] = (FileRole){"-o", name, true, false};
    for (int i = 0; i < x->num_paths; i += 64) {
        int k = x->num_paths - i < 64 ? x->num_paths - i : 64;
        for (int j = 0; j < k; j++)
            files[1 + j] = (FileRole){"", x->paths[i + j], false, false};
        if (!output_files_distinct(files, 1 + k, &err))
            fail(x, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, err.msg);
    }
}

static void check_old_set(Export *x)
{
    char **names;
    int count;
    Error err;
    if (!tensor_shards_existing(x->opt->out_path, &names, &count, &err))
        fail(x, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, err.msg);
    for (int i = 0; i < count; i++)
        check_apart(x, names[i]);
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* The options that shape the bytes, for the set's id (not --threads, which does not). */
static void begin_set(Export *x)
{
    char options[128];
    Error err;
    snprintf(options, sizeof options, "augment=%d dense=%d packed=%d shard-positions=%ld level=%d", x->opt->augment,
             x->opt->dense, x->opt->packed, x->opt->shard_positions, x->opt->level);
    if (!tensor_shards_set_id(x->paths, x->num_paths, options, x->set_id, &err))
        fail(x, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, err.msg);
    x->set = tensor_shards_begin(x->opt->out_path, &err);
    if (!x->set)
        fail(x, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, err.msg);
}

static void open_shard(Export *x)
{
    TensorFileOptions opt = {x->opt->dense, x->opt->packed, x->wide, {x->opt->level, false, x->opt->threads}};
    Error err;
    if (x->set && x->shard >= TENSOR_SHARDS_MAX)
        fail(x, EXIT_USAGE, "more than 100,000 shards: raise --shard-positions");
    if (x->set)
        tensor_shards_path(x->set, x->shard, x->shard_path, sizeof x->shard_path);
    else
        snprintf(x->shard_path, sizeof x->shard_path, "%s", x->opt->out_path);
    x->tf = tensor_file_create(x->shard_path, x->g, &opt, &err);
    if (!x->tf)
        fail(x, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, err.msg);
    x->shard_games = 0;
}

static void sources_and_board(const Export *x, FILE *f)
{
    fputs("\"sources\": [", f);
    for (int i = 0; i < x->num_paths; i++) {
        if (i)
            fputs(", ", f);
        utf8_put_json(f, x->paths[i]);
    }
    fputs("], \"board\": ", f);
    utf8_put_json(f, x->header.board);
}

/* A file's own description; a shard's names its set, its index and whether it is the last, so
 * that shards of two sets never pass for one (docs/TENSORS.md, Shards). */
static char *description(const Export *x, bool last)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "\"augment\": %s, \"games\": %llu, \"shard\": %d, ", x->opt->augment ? "true" : "false",
            (unsigned long long)x->shard_games, x->set ? x->shard : -1);
    if (x->set)
        fprintf(f, "\"set\": \"%s\", \"last\": %s, ", x->set_id, last ? "true" : "false");
    sources_and_board(x, f);
    fclose(f);
    return text;
}

static void close_shard(Export *x, bool last)
{
    char *extra = description(x, last);
    Error err;
    uint64_t bytes = 0;
    if (!extra)
        fail(x, EXIT_FAILURE_RUN, "out of memory");
    bool ok = tensor_file_finish(x->tf, extra, &bytes, &err);
    free(extra);
    x->tf = NULL;
    if (!ok)
        fail(x, EXIT_FAILURE_RUN, err.msg);
    x->bytes += bytes;
    x->shard++;
}

/* The set in place of the old one, its manifest last. */
static void commit_set(Export *x)
{
    char *members = NULL;
    size_t len = 0;
    Error err;
    FILE *f = open_memstream(&members, &len);
    if (!f)
        fail(x, EXIT_FAILURE_RUN, "out of memory");
    fprintf(f, "\"variant\": \"%s\", \"positions\": %llu, \"games\": %llu, \"augment\": %s, ", x->header.variant,
            (unsigned long long)x->positions, (unsigned long long)x->games, x->opt->augment ? "true" : "false");
    sources_and_board(x, f);
    fclose(f);
    TensorShards *set = x->set;
    x->set = NULL;
    bool ok = members && tensor_shards_commit(set, x->shard, x->set_id, members, &err);
    free(members);
    if (!ok)
        fail(x, EXIT_FAILURE_RUN, members ? err.msg : "out of memory");
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
        close_shard(x, false);
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
        check_signals(x);
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
    if (x->opt->shard_positions)
        begin_set(x);
    for (int i = 0; i < x->num_paths; i++)
        if (!export_file(x, x->paths[i])) {
            discard(x);
            return false;
        }
    close_shard(x, true);
    return true;
}

static void summary(const Export *x)
{
    char what[64];
    snprintf(what, sizeof what, "%d %s%s", x->shard, x->opt->shard_positions ? "shard" : "file",
             x->shard == 1 ? "" : "s");
    fprintf(stderr, "%s: %llu positions of %llu games, %s, %llu bytes (%.1f per position), %.2fs\n", x->opt->out_path,
            (unsigned long long)x->positions, (unsigned long long)x->games, what, (unsigned long long)x->bytes,
            x->positions ? (double)x->bytes / (double)x->positions : 0.0, clock_seconds() - x->start);
}

void export_npz(const NpzExport *opt, char **paths, int n)
{
    Export x = {.opt = opt, .paths = paths, .num_paths = n, .start = clock_seconds()};
    x.tty = !opt->quiet && isatty(STDERR_FILENO);
    for (int i = 0; i < n; i++)
        x.input_bytes += file_size(paths[i]);
    if (opt->shard_positions) {
        check_old_set(&x);
        hold_signals(&x);
    }
    if (!export_all(&x)) {
        /* a search of more than 32,767 visits on one move: int32 visits, from the start */
        Export wide = {.opt = opt, .paths = paths, .num_paths = n, .start = x.start, .tty = x.tty,
                       .input_bytes = x.input_bytes, .wide = true, .held = x.held, .before = x.before};
        record_tensors_free(x.rt);
        game_free(x.g);
        x = wide;
        if (!export_all(&x))
            fail(&x, EXIT_FAILURE_RUN, "visit counts beyond int32");
    }
    if (x.set)
        commit_set(&x);
    release_signals(&x);
    if (x.tty)
        fputc('\n', stderr);
    if (!opt->quiet && !cli_output_is_stdout(opt->out_path))
        summary(&x);
    record_tensors_free(x.rt);
    game_free(x.g);
}
