/*
 * tune_read.c - reading records files for the tuner: every game of every file, in file order,
 * refusing files of another game or board than the first file's.  A damaged chunk stops the
 * reading: a fit on silently partial data would be a wrong answer.
 *
 * Decoding records is slower than replaying them (the reader rebuilds every ply's visit list),
 * so files are read in parallel, one thread per file, each into its own TuneGames; the parts are
 * then joined in file order, so the result is the same as reading them one after the other.
 */
#include "tune.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first file's header makes the game; later headers must describe the same game and board. */
static bool check_header(const RecordsHeader *h, const RecordsHeader *first, const char *path, const char *first_path,
                         TuneError *err)
{
    char what[160], want[160];
    snprintf(what, sizeof what, "%s: %s %dx%d records", path, h->variant, h->width, h->height);
    snprintf(want, sizeof want, "%s holds %s %dx%d records (all data must be of one game and board)", first_path,
             first->variant, first->width, first->height);
    if (strcmp(h->variant, first->variant) != 0 || h->width != first->width || h->height != first->height)
        return tune_error_set(err, true, "%s, but %s", what, want);
    if (strcmp(h->board, first->board) != 0)
        return tune_error_set(err, true, "%s: its board (obstacles) differs from %s's", path, first_path);
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
static bool check_headers(const char *const *paths, int n, Game **game, TuneError *err)
{
    RecordsHeader first = {0};
    for (int i = 0; i < n; i++) {
        RecordsError e = {0};
        RecordsReader *rd = records_open(paths[i], &e);
        if (!rd)
            return tune_error_records(err, &e);
        const RecordsHeader *h = records_reader_header(rd);
        bool ok = true;
        if (i == 0) {
            Error ge;
            *game = records_header_game(h, &ge);
            if (*game)
                remember_header(&first, h);
            else
                ok = tune_error_set(err, true, "%s: the header names no game: %s", paths[i], ge.msg);
        } else {
            ok = check_header(h, &first, paths[i], paths[0], err);
        }
        records_close(rd);
        if (!ok)
            return false;
    }
    return true;
}

/* Every game of one file into its own part. */
static bool read_file(const char *path, const Game *g, TuneGames *part, TuneError *err)
{
    RecordsError e = {0};
    RecordsReader *rd = records_open(path, &e);
    if (!rd)
        return tune_error_records(err, &e);
    int source = tune_games_add_source(part, path, err);
    GameRecord r;
    game_record_init(&r);
    int rc = 0;
    bool ok = source >= 0;
    while (ok && (rc = records_next(rd, &r, &e)) == 1)
        ok = tune_games_add(part, g, &r, source, err);
    game_record_free(&r);
    records_close(rd);
    if (ok && rc < 0)
        return tune_error_records(err, &e);
    if (ok && part->count == 0)
        return tune_error_set(err, true, "%s: no games in the file", path);
    return ok;
}

/* Reads the files in parallel; joins the parts in file order, or reports the first failure. */
static bool read_all(const char *const *paths, int n, int threads, const Game *g, TuneGames *games, TuneError *err)
{
    TuneGames *part = calloc((size_t)n, sizeof *part);
    TuneError *errs = calloc((size_t)n, sizeof *errs);
    uint8_t *failed = calloc((size_t)n, 1);
    if (!part || !errs || !failed) {
        free(part);
        free(errs);
        free(failed);
        return tune_error_set(err, false, "out of memory");
    }
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (int i = 0; i < n; i++)
        failed[i] = !read_file(paths[i], g, &part[i], &errs[i]);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (ok && failed[i]) {
            *err = errs[i];
            ok = false;
        }
        ok = ok && tune_games_append(games, &part[i], err);
        tune_games_free(&part[i]);
    }
    free(part);
    free(errs);
    free(failed);
    return ok;
}

bool tune_read_records(const char *const *paths, int num_paths, int threads, TuneGames *games, Game **game,
                       TuneError *err)
{
    *game = NULL;
    if (num_paths <= 0)
        return tune_error_set(err, true, "no data files");
    if (check_headers(paths, num_paths, game, err) && read_all(paths, num_paths, threads, *game, games, err))
        return true;
    game_free(*game);
    *game = NULL;
    return false;
}
