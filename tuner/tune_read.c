/*
 * tune_read.c - reading records files for the tuner: every game of every file, in file order,
 * refusing files of another game or board than the first file's.  A damaged chunk stops the
 * reading: a fit on silently partial data would be a wrong answer.
 *
 * Decoding records is slower than replaying them (the reader rebuilds every ply's visit list),
 * so the reading is parallel: the games of all files, numbered in file order, are found from
 * the chunk headers alone; every file is cut at chunk boundaries into one piece per thread, each
 * piece read into its own TuneGames (records_seek to its first chunk), and the pieces are joined
 * in order, so the result is the same as reading the files one after the other.
 *
 * A share (one of several processes, tuner/tune_mpi.c) is the same with the numbered games first
 * cut into as many contiguous ranges as there are shares: a share reads only the chunks whose
 * first game falls in its range, so each process inflates and decodes only its part and the
 * shares, joined in order, are the games one process reads.
 */
#include "tune.h"
#include "core/threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first file's header makes the game; later headers must describe the same game and board. */
static bool check_header(const RecordsHeader *h, const RecordsHeader *first, const char *path, const char *first_path,
                         Error *err)
{
    char what[160], want[160];
    snprintf(what, sizeof what, "%s: %s %dx%d records", path, h->variant, h->width, h->height);
    snprintf(want, sizeof want, "%s holds %s %dx%d records (all data must be of one game and board)", first_path,
             first->variant, first->width, first->height);
    if (strcmp(h->variant, first->variant) != 0 || h->width != first->width || h->height != first->height)
        return error_set(err, "%s, but %s", what, want);
    if (strcmp(h->board, first->board) != 0)
        return error_set(err, "%s: its board (obstacles) differs from %s's", path, first_path);
    return true;
}

/* Keeps a copy of the first header's identity for check_header (the reader owns the original). */
static void remember_header(RecordsHeader *first, const RecordsHeader *h)
{
    snprintf(first->variant, sizeof first->variant, "%s", h->variant);
    snprintf(first->board, sizeof first->board, "%s", h->board);
    first->width = h->width;
    first->height = h->height;
}

/* Opens every file once, in order, to check the headers before any game is read; the first
 * file's header makes *game. */
bool tune_check_headers(const char *const *paths, int n, Game **game, Error *err)
{
    RecordsHeader first = {0};
    for (int i = 0; i < n; i++) {
        Error e = {0};
        RecordsReader *rd = records_open(paths[i], &e);
        if (!rd)
            return error_pass(err, &e);
        const RecordsHeader *h = records_reader_header(rd);
        bool ok = true;
        if (i == 0) {
            Error ge;
            *game = records_header_game(h, &ge);
            if (*game)
                remember_header(&first, h);
            else
                ok = error_set(err, "%s: the header names no game: %s", paths[i], ge.msg);
        } else {
            ok = check_header(h, &first, paths[i], paths[0], err);
        }
        records_close(rd);
        if (!ok)
            return false;
    }
    return true;
}

/* --- a share of the games, for one of several processes ------------------------------------------ */

/* The chunks of one file, and which of them are this share's. */
typedef struct {
    RecordsChunk *chunk;
    size_t count;
    uint64_t games;             /* in the whole file */
    uint64_t first;             /* the global number of its first game (all files, in order) */
} FileChunks;

/* floor(a * r / n) without overflow for any a below 2^64 and r <= n. */
static uint64_t share_bound(uint64_t a, int r, int n)
{
    return a / (uint64_t)n * (uint64_t)r + a % (uint64_t)n * (uint64_t)r / (uint64_t)n;
}

/* Every file's chunk list from the chunk headers; a file without games is refused here, as the
 * one-process reader refuses it. */
static bool list_chunks(const char *const *paths, int n, FileChunks *fc, Error *err)
{
    uint64_t first = 0;
    for (int i = 0; i < n; i++) {
        Error e = {0};
        if (!records_chunks(paths[i], &fc[i].chunk, &fc[i].count, &e))
            return error_pass(err, &e);
        for (size_t c = 0; c < fc[i].count; c++)
            fc[i].games += fc[i].chunk[c].games;
        if (fc[i].games == 0)
            return error_set(err, "%s: no games in the file", paths[i]);
        fc[i].first = first;
        first += fc[i].games;
    }
    return true;
}

/* The chunks of one file whose first game falls in [lo, hi) of the global numbering, into its
 * own part; the part's source counts every game of the file, as the report lists files whole. */
static bool read_file_share(const char *path, const Game *g, const FileChunks *fc, uint64_t lo, uint64_t hi,
                            TuneGames *part, Error *err)
{
    Error e = {0};
    int source = tune_games_add_source(part, path, err);
    RecordsReader *rd = source >= 0 ? records_open(path, &e) : NULL;
    if (!rd)
        return source >= 0 ? error_pass(err, &e) : false;
    GameRecord r;
    game_record_init(&r);
    bool ok = true;
    uint64_t number = fc->first;
    for (size_t c = 0; ok && c < fc->count; number += fc->chunk[c++].games) {
        if (number < lo || number >= hi)
            continue;
        records_seek(rd, fc->chunk[c].offset);
        for (uint32_t k = 0; ok && k < fc->chunk[c].games; k++) {
            int rc = records_next(rd, &r, &e);
            ok = rc == 1 ? tune_games_add(part, g, &r, source, err)
                         : rc < 0 ? error_pass(err, &e)
                                  : error_failed(err, "%s: chunk at offset %llu ended early", path,
                                                   (unsigned long long)fc->chunk[c].offset);
        }
    }
    game_record_free(&r);
    records_close(rd);
    part->source[source].games = fc->games;
    return ok;
}

/* The share's part of every file, each file cut into `pieces` pieces read in parallel (the
 * decoding, not the disk, is the slow part, so one big file uses every thread); the parts are
 * joined in file and piece order, so the games come out as one sequential read gives them. */
static bool read_share(const char *const *paths, int n, int threads, int rank, int ranks, const Game *g,
                       TuneGames *games, Error *err)
{
    int pieces = threads_or_default(threads), tasks = n * pieces;
    FileChunks *fc = calloc((size_t)n, sizeof *fc);
    TuneGames *part = calloc((size_t)tasks, sizeof *part);
    Error *errs = calloc((size_t)tasks, sizeof *errs);
    uint8_t *failed = calloc((size_t)tasks, 1);
    bool ok = fc && part && errs && failed ? list_chunks(paths, n, fc, err) : error_failed(err, "out of memory");
    for (int k = 0; ok && k < tasks; k++)
        part[k].keep_visits = games->keep_visits;
    if (ok) {
        uint64_t total = fc[n - 1].first + fc[n - 1].games;
        uint64_t lo = share_bound(total, rank, ranks), hi = share_bound(total, rank + 1, ranks);
#pragma omp parallel for schedule(dynamic, 1) num_threads(pieces)
        for (int k = 0; k < tasks; k++) {
            const FileChunks *f = &fc[k / pieces];
            uint64_t from = f->first + share_bound(f->games, k % pieces, pieces);
            uint64_t to = f->first + share_bound(f->games, k % pieces + 1, pieces);
            from = from > lo ? from : lo;
            to = to < hi ? to : hi;
            failed[k] = !read_file_share(paths[k / pieces], g, f, from, to, &part[k], &errs[k]);
        }
    }
    for (int k = 0; ok && k < tasks; k++)
        if (failed[k]) {
            *err = errs[k];
            ok = false;
        }
    for (int k = 0; ok && k < tasks; k++)
        ok = tune_games_append(games, &part[k], k % pieces > 0, err);
    for (int k = 0; part && k < tasks; k++)
        tune_games_free(&part[k]);
    for (int i = 0; fc && i < n; i++)
        free(fc[i].chunk);
    free(fc);
    free(part);
    free(errs);
    free(failed);
    return ok;
}

bool tune_read_records(const char *const *paths, int num_paths, int threads, TuneGames *games, Game **game,
                       Error *err)
{
    return tune_read_share(paths, num_paths, threads, 0, 1, games, game, err);
}

bool tune_read_share(const char *const *paths, int num_paths, int threads, int rank, int ranks, TuneGames *games,
                     Game **game, Error *err)
{
    *game = NULL;
    if (num_paths <= 0)
        return error_set(err, "no data files");
    if (tune_check_headers(paths, num_paths, game, err) &&
        read_share(paths, num_paths, threads, rank, ranks, *game, games, err))
        return true;
    game_free(*game);
    *game = NULL;
    return false;
}
