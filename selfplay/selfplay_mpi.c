/*
 * selfplay_mpi.c - a self-play run split over processes (selfplay_mpi_run, selfplay.h): each
 * rank plays its share of the games into its own shard with selfplay_run, rank 0 follows the
 * whole run's progress from the other ranks' messages, and at the end merges the shards into
 * the one file a single process writes.  MPI itself is behind data/mpi_env.h.
 *
 * Why shards and a merge, not one shared file: a records writer syncs every game and holds a
 * lock on its file; one file per rank keeps that crash safety on any file system (no locking
 * across machines), and a killed job leaves every rank's finished games in its shard for
 * --resume.  Why games i % R == r: game i depends only on the run seed and i, so any split gives
 * the same games; interleaving keeps the ranks' shares equally long in the mean as games get
 * longer or shorter with the index (they do not, but it costs nothing).  The merged file is
 * canonical (sorted by index), so it equals the single-process file byte for byte.
 */
#include "selfplay.h"
#include "core/clock.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void selfplay_shard_path(const char *out, int rank, int ranks, char *buf, size_t len)
{
    snprintf(buf, len, "%s.rank%d-of-%d", out, rank, ranks);
}

/* --- progress messages --------------------------------------------------------------------------- */

/* A progress message: a rank's counts so far, cumulative, so a lost interval loses nothing. */
enum {
    MSG_DONE, MSG_OK, MSG_PLAYED, MSG_PRESENT, MSG_TO_PLAY, MSG_BEYOND, MSG_REMOVED, MSG_STALE, MSG_PLIES, MSG_RESULTS,
    MSG_ENDS = MSG_RESULTS + 3, MSG_LEN = MSG_ENDS + RECORD_END_COUNT
};

static void pack(const SelfplayProgress *p, bool done, bool ok, uint64_t *m)
{
    memset(m, 0, MSG_LEN * sizeof *m);
    m[MSG_DONE] = done;
    m[MSG_OK] = ok;
    m[MSG_PLAYED] = p->played;
    m[MSG_PRESENT] = p->present;
    m[MSG_TO_PLAY] = p->to_play;
    m[MSG_BEYOND] = p->beyond;
    m[MSG_REMOVED] = p->removed_bytes;
    m[MSG_STALE] = p->stale_temps;
    m[MSG_PLIES] = p->plies;
    memcpy(m + MSG_RESULTS, p->results, sizeof p->results);
    memcpy(m + MSG_ENDS, p->ends, sizeof p->ends);
}

static void add_counts(SelfplayProgress *sum, const uint64_t *m)
{
    sum->played += m[MSG_PLAYED];
    sum->present += m[MSG_PRESENT];
    sum->to_play += m[MSG_TO_PLAY];
    sum->beyond += m[MSG_BEYOND];
    sum->removed_bytes += m[MSG_REMOVED];
    sum->stale_temps += m[MSG_STALE];
    sum->plies += m[MSG_PLIES];
    for (int k = 0; k < 3; k++)
        sum->results[k] += m[MSG_RESULTS + k];
    for (int k = 0; k < RECORD_END_COUNT; k++)
        sum->ends[k] += m[MSG_ENDS + k];
}

typedef struct {
    const MpiEnv *env;
    const SelfplayRun *run;     /* the caller's run: its progress callback and context */
    uint64_t (*latest)[MSG_LEN];    /* rank 0: the last message of every rank */
    SelfplayProgress base;      /* rank 0: what run->path held already (resuming a finished file) */
    double start;
    bool live;                  /* progress messages between the final ones */
} Tracker;

/* The whole run's counts from the latest messages, as one SelfplayProgress. */
static SelfplayProgress whole_run(const Tracker *t)
{
    SelfplayProgress sum = t->base;
    sum.total = t->run->games;
    for (int r = 0; r < t->env->size; r++)
        add_counts(&sum, t->latest[r]);
    sum.seconds = clock_seconds() - t->start;
    return sum;
}

static void drain_messages(Tracker *t)
{
    uint64_t m[MSG_LEN];
    int from;
    while (mpi_env_poll_u64(t->env, m, MSG_LEN, &from))
        memcpy(t->latest[from], m, sizeof m);
}

/* The shard run's progress callback (one call at a time, from whichever thread finished a
 * game): other ranks send their counts to rank 0, rank 0 shows the whole run. */
static void track(const SelfplayProgress *p, void *ctx)
{
    Tracker *t = ctx;
    if (t->env->rank != 0) {
        uint64_t m[MSG_LEN];
        pack(p, false, true, m);
        mpi_env_send_u64(t->env, 0, m, MSG_LEN);
        return;
    }
    pack(p, false, true, t->latest[0]);
    drain_messages(t);
    SelfplayProgress sum = whole_run(t);
    t->run->progress(&sum, t->run->progress_ctx);
}

/* After its own games: a rank's final message; rank 0 waits for every other rank's. */
static void finish_messages(Tracker *t, const SelfplayProgress *mine, bool ok)
{
    if (t->env->rank != 0) {
        uint64_t m[MSG_LEN];
        pack(mine, true, ok, m);
        mpi_env_send_u64(t->env, 0, m, MSG_LEN);
        return;
    }
    pack(mine, true, ok, t->latest[0]);
    /* A final message may have arrived already, taken by drain_messages during the games. */
    for (;;) {
        int waiting = 0;
        for (int r = 1; r < t->env->size; r++)
            waiting += t->latest[r][MSG_DONE] == 0;
        if (waiting == 0)
            break;
        uint64_t m[MSG_LEN];
        int from;
        mpi_env_recv_u64(t->env, m, MSG_LEN, &from);
        memcpy(t->latest[from], m, sizeof m);
        if (t->live && t->run->progress) {
            SelfplayProgress sum = whole_run(t);
            t->run->progress(&sum, t->run->progress_ctx);
        }
    }
}

/* --- the finished file that a resume extends ------------------------------------------------------ */

/* Whether the existing run->path holds this run's games: same board and settings. */
static bool same_run(const SelfplayRun *run, const RecordsHeader *h, Error *err)
{
    RecordsHeader mine;
    if (!records_header_init(&mine, run->game, NULL, err))
        return false;
    bool board = strcmp(h->variant, mine.variant) == 0 && h->width == mine.width && h->height == mine.height &&
                 strcmp(h->board, mine.board) == 0;
    records_header_free(&mine);
    char why[300];
    if (!board) {
        records_error(err, RECORDS_ERR_MISMATCH, 0, "%s: holds games of another variant or board", run->path);
        return false;
    }
    if (!selfplay_settings_agree(h->settings, run->settings, why, sizeof why)) {
        records_error(err, RECORDS_ERR_MISMATCH, 0, "%s: written with other settings (%s)", run->path, why);
        return false;
    }
    return true;
}

/* The indices in run->path (a finished file being extended), and its settings text, which
 * the shards then take so that the merge keeps one settings text. */
static bool read_existing(const SelfplayRun *run, uint64_t **indices, size_t *count, char **settings,
                          Error *err)
{
    RecordsResumeInfo present;
    if (!records_indices(run->path, &present, err))
        return false;
    bool ok = same_run(run, &present.header, err);
    *settings = ok ? strdup(present.header.settings) : NULL;
    if (ok && !*settings) {
        error_failed(err, "%s: out of memory", run->path);
        ok = false;
    }
    if (ok) {
        *indices = present.indices;     /* taken over */
        *count = present.count;
        present.indices = NULL;
    }
    records_resume_info_free(&present);
    return ok;
}

/* Shards of a run with another number of ranks: a resume with this many would leave their
 * games aside (and play them again), so it is refused. */
bool selfplay_no_foreign_shards(const char *out, int ranks, Error *err)
{
    size_t len = strlen(out) + 32;
    char *pattern = malloc(len), *want = malloc(len);
    if (!pattern || !want) {
        free(pattern);
        free(want);
        error_failed(err, "%s: out of memory", out);
        return false;
    }
    snprintf(pattern, len, "%s.rank*-of-*", out);
    snprintf(want, len, "-of-%d", ranks);
    glob_t found;
    bool ok = true;
    if (glob(pattern, GLOB_NOSORT, NULL, &found) == 0) {
        for (size_t i = 0; ok && i < found.gl_pathc; i++) {
            const char *tail = strrchr(found.gl_pathv[i], '-');
            if (strstr(found.gl_pathv[i], ".tmp."))     /* a rewrite's leftover, not a shard */
                continue;
            if (!tail || strcmp(tail - 3, want) != 0) {
                records_error(err, RECORDS_ERR_MISMATCH, 0,
                              "%s is a shard of a run with another number of processes: resume with that many, "
                              "or merge the shards first (leuctra records merge)",
                              found.gl_pathv[i]);
                ok = false;
            }
        }
        globfree(&found);
    }
    free(pattern);
    free(want);
    return ok;
}

/* --- the run ----------------------------------------------------------------------------------------- */

/* Rank 0: the existing file (if resumed) and every shard into run->path, then the shards go. */
static bool merge_shards(const MpiEnv *env, const SelfplayRun *run, bool with_existing, Error *err)
{
    int n = env->size + (with_existing ? 1 : 0);
    char **names = calloc((size_t)n, sizeof *names);
    size_t len = strlen(run->path) + 32;
    bool ok = names != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = (names[i] = malloc(len)) != NULL;
    if (ok) {
        if (with_existing)
            snprintf(names[0], len, "%s", run->path);
        for (int r = 0; r < env->size; r++)
            selfplay_shard_path(run->path, r, env->size, names[r + (with_existing ? 1 : 0)], len);
        ok = records_merge(run->path, (const char *const *)names, n, err);
        for (int r = with_existing ? 1 : 0; ok && r < n; r++)
            unlink(names[r]);
    } else {
        error_failed(err, "%s: out of memory", run->path);
    }
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    return ok;
}

/* Before any game: stray shards, and the finished file a resume extends.  Run on every rank
 * (each reads the file itself: it needs the indices to skip). */
static bool prepare(const MpiEnv *env, const SelfplayRun *run, SelfplayRun *shard, char **settings,
                    uint64_t **existing, size_t *num_existing, Error *err)
{
    if (run->resume && !selfplay_no_foreign_shards(run->path, env->size, err))
        return false;
    if (!run->resume || access(run->path, F_OK) != 0)
        return true;
    if (!read_existing(run, existing, num_existing, settings, err))
        return false;
    shard->settings = *settings;
    shard->elsewhere = *existing;
    shard->num_elsewhere = *num_existing;
    return true;
}

/* What the existing file adds to the summary: its games of this run, and beyond it. */
static void existing_counts(const SelfplayRun *run, const uint64_t *v, size_t n, SelfplayProgress *base)
{
    for (size_t i = 0; i < n; i++) {
        base->present += v[i] < run->games;
        base->beyond += v[i] >= run->games;
    }
}

static bool play_shard(const MpiEnv *env, const SelfplayRun *run, Tracker *t, SelfplayProgress *final,
                       Error *err)
{
    char *settings = NULL;
    uint64_t *existing = NULL;
    size_t num_existing = 0;
    size_t len = strlen(run->path) + 32;
    char *path = malloc(len);
    SelfplayRun shard = *run;
    memset(final, 0, sizeof *final);
    bool ok = path != NULL;
    if (!ok)
        error_failed(err, "%s: out of memory", run->path);
    else
        selfplay_shard_path(run->path, env->rank, env->size, path, len);
    ok = ok && prepare(env, run, &shard, &settings, &existing, &num_existing, err);
    if (ok) {
        existing_counts(run, existing, num_existing, &t->base);
        shard.path = path;
        shard.resume = run->resume;
        shard.stride = (uint64_t)env->size;
        shard.offset = (uint64_t)env->rank;
        shard.progress = t->live ? track : NULL;
        shard.progress_ctx = t;
        ok = selfplay_run(&shard, final, err);
    }
    free(settings);
    free(existing);
    free(path);
    return ok;
}

bool selfplay_mpi_run(const MpiEnv *env, const SelfplayRun *run, SelfplayProgress *final, bool *all_ok,
                      Error *err)
{
    if (env->size <= 1) {
        SelfplayRun plain = *run;
        bool ok = (!run->resume || selfplay_no_foreign_shards(run->path, 1, err)) && selfplay_run(&plain, final, err);
        *all_ok = ok;
        return ok;
    }
    Tracker t = {env, run, NULL, {0}, clock_seconds(), run->progress != NULL && env->serialized};
    t.latest = calloc((size_t)env->size, sizeof *t.latest);
    if (!t.latest) {
        error_failed(err, "%s: out of memory", run->path);
        *all_ok = mpi_env_all(env, false);
        return false;
    }
    bool ok = play_shard(env, run, &t, final, err);
    finish_messages(&t, final, ok);
    *all_ok = mpi_env_all(env, ok);
    if (env->rank == 0) {
        bool existed = t.base.present + t.base.beyond > 0;
        if (*all_ok && !(ok = merge_shards(env, run, existed, err)))
            *all_ok = false;
        *final = whole_run(&t);
    }
    free(t.latest);
    return ok;
}
