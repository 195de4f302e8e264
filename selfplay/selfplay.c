/*
 * selfplay.c - a self-play run (see selfplay.h): opening or resuming the records file, listing
 * the games it lacks, playing them on OpenMP threads one game per thread at a time, appending
 * each as it finishes, and rewriting the file in canonical form at the end.
 *
 * Why games and not searches in parallel: a one-thread search is reproducible from its seed and
 * games are independent, so the threads share nothing but the writer (which serialises appends)
 * and the progress counts (a critical section once per game).  A failure on one thread stops the
 * others at their next game; every game appended so far is already on disk.
 */
#include "selfplay.h"
#include "core/clock.h"

#include <errno.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 || errno != ENOENT;
}

/* Closes a writer that a failure abandons (its games are synced already; *err says why). */
static void abandon(RecordsWriter *w)
{
    Error ignored;
    records_writer_close(w, &ignored);
}

/* --- the file ---------------------------------------------------------------------------------- */

/* Whether game i is this run's to play: its share, and not in another file already. */
static bool ours(const SelfplayRun *run, uint64_t i, size_t *elsewhere_at)
{
    if (run->stride > 1 && i % run->stride != run->offset)
        return false;
    size_t *k = elsewhere_at;
    while (*k < run->num_elsewhere && run->elsewhere[*k] < i)
        (*k)++;
    return *k == run->num_elsewhere || run->elsewhere[*k] != i;
}

/* The games of 0 .. games-1 that are ours and that `present` (ascending, distinct) lacks;
 * *count of them, and *owned: how many are ours at all. */
static uint64_t *missing_games(const SelfplayRun *run, const uint64_t *present, size_t num_present, uint64_t *count,
                               uint64_t *owned)
{
    uint64_t games = run->games;
    uint64_t *todo = malloc((games ? games : 1) * sizeof *todo);
    if (!todo)
        return NULL;
    size_t k = 0, e = 0;
    *count = *owned = 0;
    for (uint64_t i = 0; i < games; i++) {
        if (!ours(run, i, &e))
            continue;
        (*owned)++;
        while (k < num_present && present[k] < i)
            k++;
        if (k == num_present || present[k] != i)
            todo[(*count)++] = i;
    }
    return todo;
}

/* Opens an existing file for more games: same board, same settings.  *present gets how many of
 * the run's games it holds and *todo the others. */
static RecordsWriter *resume_file(const SelfplayRun *run, const RecordsHeader *header, uint64_t **todo,
                                  uint64_t *num_todo, uint64_t *owned, SelfplayProgress *progress, Error *err)
{
    RecordsResumeInfo info;
    RecordsWriter *w = records_resume(run->path, header, &info, err);
    if (!w)
        return NULL;
    char why[300];
    if (!selfplay_settings_agree(info.header.settings, header->settings, why, sizeof why)) {
        records_error(err, RECORDS_ERR_MISMATCH, 0, "%s: written with other settings (%s)", run->path, why);
        abandon(w);
        records_resume_info_free(&info);
        return NULL;
    }
    progress->removed_bytes = info.truncated_bytes;
    progress->removed_at = info.truncated_at;
    progress->stale_temps = (uint64_t)info.stale_temps;
    *todo = missing_games(run, info.indices, info.count, num_todo, owned);
    for (size_t i = 0; i < info.count; i++)
        progress->beyond += info.indices[i] >= run->games;
    records_resume_info_free(&info);
    if (!*todo) {
        error_failed(err, "%s: out of memory", run->path);
        abandon(w);
        return NULL;
    }
    return w;
}

/* A new file, or the existing one when resuming; NULL plus *err otherwise. */
static RecordsWriter *open_file(const SelfplayRun *run, uint64_t **todo, uint64_t *num_todo, uint64_t *owned,
                                SelfplayProgress *progress, Error *err)
{
    RecordsHeader header;
    if (!records_header_init(&header, run->game, run->settings, err))
        return NULL;
    RecordsWriter *w = NULL;
    if (run->resume && file_exists(run->path)) {
        w = resume_file(run, &header, todo, num_todo, owned, progress, err);
    } else if ((w = records_create(run->path, &header, err)) != NULL &&
               !(*todo = missing_games(run, NULL, 0, num_todo, owned))) {
        error_failed(err, "%s: out of memory", run->path);
        abandon(w);
        w = NULL;
    }
    records_header_free(&header);
    return w;
}

/* --- playing ----------------------------------------------------------------------------------- */

typedef struct {
    const SelfplayRun *run;
    RecordsWriter *writer;
    const uint64_t *todo;
    SelfplayProgress progress;      /* updated in the critical section only */
    double start_time;
    atomic_bool failed;
    Error error;             /* the first failure's */
} RunState;

/* The run's first failure: the file's own error (cause), or running out of memory. */
static void fail_run(RunState *s, const Error *cause)
{
#pragma omp critical(selfplay_failure)
    if (!atomic_exchange(&s->failed, true)) {
        if (cause)
            s->error = *cause;
        else
            error_failed(&s->error, "%s: out of memory while playing", s->run->path);
    }
}

static void count_game(RunState *s, const GameRecord *r)
{
#pragma omp critical(selfplay_progress)
    {
        SelfplayProgress *p = &s->progress;
        p->played++;
        p->results[r->result == STATUS_WHITE_WINS ? 0 : r->result == STATUS_BLACK_WINS ? 1 : 2]++;
        p->ends[r->end]++;
        p->plies += (uint64_t)r->plies;
        p->seconds = clock_seconds() - s->start_time;
        if (s->run->progress)
            s->run->progress(p, s->run->progress_ctx);
    }
}

/* One thread's share: games taken one at a time from the shared list. */
static void play_share(RunState *s, SelfplayGame *sg, GameRecord *record)
{
    const SelfplayRun *run = s->run;
    long n = (long)s->progress.to_play;
#pragma omp for schedule(dynamic, 1)
    for (long i = 0; i < n; i++) {
        if (atomic_load(&s->failed))
            continue;
        uint64_t index = s->todo[i];
        Error err = {0};
        if (!selfplay_game_play(sg, run->start, index, selfplay_game_seed(run->config->seed, index), record))
            fail_run(s, NULL);
        else if (!records_append(s->writer, record, &err))
            fail_run(s, &err);
        else
            count_game(s, record);
    }
}

static void play_games(RunState *s)
{
    const SelfplayRun *run = s->run;
    uint64_t games = s->progress.to_play;
    int threads = run->threads < 1 ? 1 : (uint64_t)run->threads > games ? (int)games : run->threads;
    s->start_time = clock_seconds();
#pragma omp parallel num_threads(threads)
    {
        SelfplayGame *sg = selfplay_game_new(run->game, run->weights, run->config);
        GameRecord record;
        game_record_init(&record);
        if (!sg)
            fail_run(s, NULL);
        /* Every thread reaches the loop (an omp for must be met by all); one without a player
         * has failed the run, and the loop then skips every game. */
        play_share(s, sg, &record);
        game_record_free(&record);
        selfplay_game_free(sg);
    }
    s->progress.seconds = clock_seconds() - s->start_time;
}

/* A game the lockstep player finished: appended and counted. */
static bool lockstep_game_done(void *ctx, const GameRecord *record)
{
    RunState *s = ctx;
    Error err = {0};
    if (!records_append(s->writer, record, &err)) {
        fail_run(s, &err);
        return false;
    }
    count_game(s, record);
    return true;
}

/* The games in step, their leaves judged by the run's evaluator (selfplay_lockstep.c). */
static void play_games_in_step(RunState *s)
{
    s->start_time = clock_seconds();
    const SelfplayLockstepStatus status =
        selfplay_lockstep(s->run, s->todo, s->progress.to_play, lockstep_game_done, s);
    if (status == SELFPLAY_LOCKSTEP_MEMORY) {
        fail_run(s, NULL);
    } else if (status == SELFPLAY_LOCKSTEP_EVALUATOR) {
        Error cause;
        error_failed(&cause, "%s: the evaluator failed", s->run->path);
        fail_run(s, &cause);
    }
    s->progress.seconds = clock_seconds() - s->start_time;
}

bool selfplay_run(const SelfplayRun *run, SelfplayProgress *final, Error *err)
{
    RunState s = {.run = run};
    atomic_init(&s.failed, false);
    s.progress.total = run->games;
    uint64_t *todo = NULL, num_todo = 0, owned = 0;
    RecordsWriter *w = open_file(run, &todo, &num_todo, &owned, &s.progress, err);
    if (!w) {
        *final = s.progress;
        return false;
    }
    s.writer = w;
    s.todo = todo;
    s.progress.to_play = num_todo;
    s.progress.present = owned - num_todo;
    if (num_todo > 0 && run->evaluator)
        play_games_in_step(&s);
    else if (num_todo > 0)
        play_games(&s);
    free(todo);
    Error close_err = {0};
    bool closed = records_writer_close(w, &close_err);
    if (!atomic_load(&s.failed) && !closed)
        fail_run(&s, &close_err);
    /* Canonical form even when nothing was played: a run killed after its last game but before
     * this rewrite leaves a complete file that is not yet sorted. */
    Error sort_err = {0};
    if (!atomic_load(&s.failed) && !records_canonicalize(run->path, &sort_err))
        fail_run(&s, &sort_err);
    *final = s.progress;
    if (atomic_load(&s.failed))
        *err = s.error;
    return !atomic_load(&s.failed);
}
