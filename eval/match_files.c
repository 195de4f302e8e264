/*
 * match_files.c - the files a match leaves: the records file (data/records.h; one record per
 * game, appended as games finish, canonical at the end; --resume reads back what an interrupted
 * run played; under MPI one shard a process, merged by process 0) and the results file in the
 * format of `leuctra ratings` (docs/RATINGS.md).
 */
#include "eval/match.h"

#include "data/output_file.h"
#include "selfplay/selfplay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The header's settings: what the games were played with, for whoever reads the file later and
 * for --resume, which adds games only to a file of the same settings.  Where games start: the
 * suite, by its size and the hash of its positions, or random plies from the start position. */
static void settings_text(const MatchRun *run, char *buf, size_t len)
{
    const MatchOptions *o = run->options;
    uint64_t suite = 0;
    for (int i = 0; i < run->suite->count; i++)
        suite = suite * 0x100000001B3ull ^ game_hash(run->game, &run->suite->opening[i]);
    char start[RECORD_MAX_POSITION];
    game_format_position(run->game, run->start, start, sizeof start);
    int n = snprintf(buf, len, "source=match\nseed=%llu\ngames=%d\nmax_plies=%d\nrepetition=%d\n"
                     "resign_moves=%d\nresign_value=%g\ntime_margin=%g\n", (unsigned long long)o->seed, o->games,
                     o->max_plies, o->repetition, o->resign_moves, o->resign_value, o->time_margin);
    if (run->suite->count)
        n += snprintf(buf + n, len - (size_t)n, "openings=%d from a suite, id %016llx\n", run->suite->count,
                      (unsigned long long)suite);
    else
        n += snprintf(buf + n, len - (size_t)n, "openings=%d random plies from %s\n", o->opening_plies, start);
    for (int i = 0; i < o->players && n > 0 && (size_t)n < len; i++) {
        char spec[SEARCH_MAX_PATH + 512];
        match_player_spec(o, i, spec, sizeof spec);
        n += snprintf(buf + n, len - (size_t)n, "player%d=%s\n", i + 1, spec);
    }
}

/* A file resumed must hold this match's games: made by a match (not self-play), with the same
 * players, seed, openings and settings, as selfplay --resume requires of its files. */
static bool check_resumed(const char *path, const char *file_settings, const char *settings, Error *err)
{
    char why[300];
    if (strncmp(file_settings, "source=match\n", 13) != 0)
        error_set(err, "%s: not the records of a match (no source=match in its settings)", path);
    else if (!selfplay_settings_agree(file_settings, settings, why, sizeof why))
        error_set(err, "%s: the records of another match (%s)", path, why);
    else
        return true;
    return false;
}

/* A records error as the match's error: a path that cannot be the file is the input's fault. */
static bool records_failed(const Error *e, Error *err)
{
    if (e->kind == RECORDS_ERR_PATH)
        error_set(err, "%s", e->msg);
    else
        error_failed(err, "%s", e->msg);
    return false;
}

/* The games a records file holds (an interrupted run's), marked done with their results.  A
 * file that no writer of this run opened (--out under MPI) has its settings checked here. */
static bool read_played(MatchRun *run, const char *path, const char *settings, Error *err)
{
    Error e;
    RecordsReader *r = records_open(path, &e);
    if (!r)
        return records_failed(&e, err);
    if (settings && !check_resumed(path, records_reader_header(r)->settings, settings, err)) {
        records_close(r);
        return false;
    }
    GameRecord g;
    game_record_init(&g);
    int status;
    bool ok = true;
    while (ok && (status = records_next(r, &g, &e)) == 1) {
        if (g.index >= (uint64_t)run->total) {
            error_set(err, "%s: game %llu is beyond this match's %d games", path, (unsigned long long)g.index,
                      run->total);
            ok = false;
            break;
        }
        run->games[g.index] = match_game_of_record(run, &g);
        run->games[g.index].resumed = true;
    }
    game_record_free(&g);
    records_close(r);
    return ok && (status == 0 || records_failed(&e, err));
}

/* Resumes an existing records file of this match for appending (a cut-off last chunk removed),
 * or creates it. */
static RecordsWriter *open_writer(MatchRun *run, const char *path, const RecordsHeader *h, const char *settings,
                                  Error *err)
{
    Error e;
    if (!run->options->resume || access(path, F_OK) != 0) {
        RecordsWriter *w = records_create(path, h, &e);
        if (!w)
            records_failed(&e, err);
        return w;
    }
    RecordsResumeInfo info;
    RecordsWriter *w = records_resume(path, h, &info, &e);
    if (!w) {
        records_failed(&e, err);
        return NULL;
    }
    bool same = check_resumed(path, info.header.settings, settings, err);
    if (same && info.header.version < RECORDS_VERSION) {
        same = false;
        error_set(err, "%s: a records file of format version %d, which has no room for the games' times; "
                  "resume it with the build that wrote it, or start a new file", path, info.header.version);
    }
    run->removed_temps = info.stale_temps;
    records_resume_info_free(&info);
    if (!same) {
        Error ignored;
        records_writer_close(w, &ignored);
        return NULL;
    }
    return w;
}

/* Under MPI: this process's records file beside --out, with --out itself left to the merge (a
 * resumed one is read; a new run's must not be there, as one process would refuse it too). */
static bool shard_path(MatchRun *run, Error *err)
{
    const char *out = run->options->out_path;
    const int ranks = run->mpi->size;
    if (run->options->resume && !selfplay_no_foreign_shards(out, ranks, err))
        return false;
    if (!run->options->resume && access(out, F_OK) == 0)
        return error_set(err, "%s: already exists (resume it, or choose another name)", out);
    size_t len = strlen(out) + 32;
    if (!(run->shard = malloc(len)))
        return error_failed(err, "out of memory");
    selfplay_shard_path(out, run->mpi->rank, ranks, run->shard, len);
    return true;
}

RecordsWriter *match_open_records(MatchRun *run, Error *err)
{
    const char *out = run->options->out_path;
    if (run->mpi->size > 1 ? !shard_path(run, err) : run->options->resume && !selfplay_no_foreign_shards(out, 1, err))
        return NULL;
    char settings[4096];
    settings_text(run, settings, sizeof settings);
    RecordsHeader h;
    Error e;
    if (!records_header_init(&h, run->game, settings, &e)) {
        records_failed(&e, err);
        return NULL;
    }
    h.version = RECORDS_VERSION;    /* the games carry their times and clocks */
    RecordsWriter *w = open_writer(run, run->shard ? run->shard : out, &h, settings, err);
    records_header_free(&h);
    return w;
}

bool match_read_resumed(MatchRun *run, Error *err)
{
    const char *out = run->options->out_path;
    const int ranks = run->mpi->size;
    if (ranks == 1)
        return read_played(run, out, NULL, err);    /* checked when opened */
    char settings[4096];
    settings_text(run, settings, sizeof settings);
    if (access(out, F_OK) == 0 && !read_played(run, out, settings, err))
        return false;
    size_t len = strlen(out) + 32;
    char *path = malloc(len);
    bool ok = path || error_failed(err, "out of memory");
    for (int r = 0; ok && r < ranks; r++) {
        selfplay_shard_path(out, r, ranks, path, len);
        ok = read_played(run, path, settings, err);
    }
    free(path);
    return ok;
}

bool match_close_records(MatchRun *run, RecordsWriter *w, Error *err)
{
    Error e;
    const char *out = run->options->out_path;
    if (!records_writer_close(w, &e))
        return records_failed(&e, err);
    if (run->shard)
        return true;    /* merged by process 0 */
    bool ok = run->limit < run->total ? records_merge_below(out, &out, 1, (uint64_t)run->limit, &e)
                                      : records_canonicalize(out, &e);
    return ok || records_failed(&e, err);
}

bool match_merge_shards(MatchRun *run, Error *err)
{
    const char *out = run->options->out_path;
    const int ranks = run->mpi->size;
    size_t len = strlen(out) + 32;
    char **paths = calloc((size_t)ranks + 1, sizeof *paths);
    int n = 0;
    bool ok = paths != NULL;
    if (ok && access(out, F_OK) == 0)   /* a resumed run's: its games stay */
        ok = (paths[n++] = strdup(out)) != NULL;
    for (int r = 0; ok && r < ranks; r++) {
        ok = (paths[n] = malloc(len)) != NULL;
        if (ok)
            selfplay_shard_path(out, r, ranks, paths[n++], len);
    }
    Error e;
    if (!ok)
        error_failed(err, "out of memory");
    else if (!(ok = records_merge_below(out, (const char *const *)paths, n, (uint64_t)run->limit, &e)))
        records_failed(&e, err);
    for (int i = 0; paths && i < n; i++) {
        if (ok && strcmp(paths[i], out) != 0)
            unlink(paths[i]);
        free(paths[i]);
    }
    free(paths);
    return ok;
}

static const char *result_text(GameStatus s)
{
    return s == STATUS_WHITE_WINS ? "1-0" : s == STATUS_BLACK_WINS ? "0-1" : "1/2-1/2";
}

/* One line per counted game in game order, written whole or not at all (data/output_file.h), so
 * the file's bytes do not depend on the concurrency. */
bool match_write_results(const MatchRun *run, Error *err)
{
    const char *path = run->options->results_path;
    OutputFile file;
    FILE *out = output_file_open(&file, path, err) ? output_file_stream(&file) : NULL;
    if (!out) {
        output_file_discard(&file);
        return false;
    }
    for (int k = 0; k < run->total; k++) {
        if (!run->games[k].counted)
            continue;
        const Matchup *m = &run->matchup[k / run->options->games];
        bool first_white = match_first_is_white(run, k);
        int white = first_white ? m->first : m->second, black = first_white ? m->second : m->first;
        fprintf(out, "%s %s %s\n", run->options->name[white], run->options->name[black],
                result_text(run->games[k].result));
    }
    return output_file_commit(&file, err);
}
