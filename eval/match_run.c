/*
 * match_run.c - a whole match from its options (eval/match.h): the matchups of the players (two,
 * a gauntlet or a round robin), the table of games, the SPRT, and the steps in order: records
 * file opened or resumed, games played, the match cut at a decided SPRT's pairs, records closed
 * (under MPI: each process's shard, merged by process 0), counted games marked, results and text
 * files written, and the finished run handed to the caller's report (on process 0).  Also the look at the
 * players that the command line takes before a match (their clocks and threads).
 */
#include "eval/match.h"

#include "core/clock.h"

#include <stdlib.h>
#include <string.h>

/* Gauntlet: the first player against each other; round robin: every pair once. */
static int make_matchups(const MatchOptions *o, Matchup *out)
{
    int n = 0;
    for (int i = 0; i < o->players; i++)
        for (int j = i + 1; j < o->players; j++)
            if (i == 0 || (o->tournament && strcmp(o->tournament, "round-robin") == 0))
                out[n++] = (Matchup){i, j};
    return n;
}

bool match_inspect_players(const Game *g, const MatchOptions *o, MatchPlayerInfo *info, Error *err)
{
    for (int i = 0; i < o->players; i++) {
        Player *p = match_player_create(g, o, i, NULL, err);
        if (!p)
            return false;
        info[i] = (MatchPlayerInfo){p->tc, p->threads, p->timed};
        player_free(p);
    }
    return true;
}

/* This process's records file opened (created, or resumed), and what --resume finds there read
 * back: under MPI every process reads every shard, once all are open and repaired, so that all
 * know every game played. */
static bool open_files(MatchRun *run, Error *err)
{
    const MatchOptions *o = run->options;
    if (!o->out_path)
        return true;
    run->writer = match_open_records(run, err);
    if (mpi_env_agree(run->mpi, run->writer != NULL, err) &&
        (!o->resume || mpi_env_agree(run->mpi, match_read_resumed(run, err), err)))
        return true;
    Error ignored;
    if (run->writer)
        records_writer_close(run->writer, &ignored);
    run->writer = NULL;
    return false;
}

/* Process 0's part at the end, from the whole table: the shards merged, the counted games, the
 * results and text files, the report. */
static bool finish(MatchRun *run, MatchReportFn report, void *report_ctx, double t0, Error *err)
{
    const MatchOptions *o = run->options;
    if (run->mpi->rank != 0)
        return true;
    if (run->shard && !match_merge_shards(run, err))
        return false;
    match_mark_counted(run);
    if (o->results_path && !match_write_results(run, err))
        return false;
    if (o->pgn_path && !match_write_pgn(run, err))
        return false;
    report(run, clock_seconds() - t0, report_ctx);
    return true;
}

/* The steps after the tables are made; false with *err at the first that fails (under MPI on
 * every process, the error's own process saying it: mpi_env_agree). */
static bool run_steps(MatchRun *run, MatchReportFn report, void *report_ctx, Error *err)
{
    if (!open_files(run, err))
        return false;
    double t0 = clock_seconds();
    bool played = match_play(run, err);
    if (run->played_by)
        mpi_env_gather_u64(run->mpi, (uint64_t)run->played, run->played_by);
    match_keep_decided(run);
    /* The games played before a failure are kept: the file is closed either way. */
    Error close_err;
    bool closed = !run->writer || match_close_records(run, run->writer, played ? err : &close_err);
    return mpi_env_agree(run->mpi, played && closed, err) &&
           mpi_env_agree(run->mpi, finish(run, report, report_ctx, t0, err), err);
}

bool match_run(const Game *g, const Position *start, const MatchOptions *o, const OpeningSuite *suite,
               MatchReportFn report, void *report_ctx, Error *err)
{
    static const MpiEnv one = {0, 1, false, true};
    const MpiEnv *env = o->mpi && o->mpi->size > 1 ? o->mpi : &one;
    if (env->size > 1 && o->debug_path) {
        error_set(err, "--debug writes one transcript: play the match without mpirun");
        err->elsewhere = env->rank != 0;    /* every process meets it; process 0 says it */
        return false;
    }
    Matchup *matchups = malloc(sizeof(Matchup) * MATCH_MAX_PLAYERS * MATCH_MAX_PLAYERS / 2);
    int num = matchups ? make_matchups(o, matchups) : 0;
    MatchGame *games = calloc((size_t)num * (size_t)o->games, sizeof *games);
    uint64_t *played_by = env->size > 1 ? calloc((size_t)env->size, sizeof *played_by) : NULL;
    bool ok = games && (env->size == 1 || played_by);
    if (!ok)
        error_failed(err, "out of memory");
    ok = mpi_env_agree(env, ok, err);
    if (ok) {
        MatchSprt sprt;
        match_sprt_init(&sprt, &o->sprt);
        IoLog io_log = {-1, 0};
        MatchRun run = {.game = g, .start = start, .options = o, .mpi = env, .suite = suite, .matchup = matchups,
                        .num_matchups = num, .total = num * o->games, .games = games,
                        .sprt = o->sprt_on ? &sprt : NULL, .io_log = o->debug_path ? &io_log : NULL,
                        .played_by = played_by};
        run.limit = run.total;
        ok = (!o->debug_path || external_process_log_open(&io_log, o->debug_path, err)) &&
             run_steps(&run, report, report_ctx, err);
        external_process_log_close(&io_log);
        free(run.shard);
    }
    free(games);
    free(played_by);
    free(matchups);
    return ok;
}
