/*
 * match_run.c - a whole match from its options (eval/match.h): the matchups of the players (two,
 * a gauntlet or a round robin), the table of games, the SPRT, and the steps in order: records
 * file opened or resumed, games played, records closed, counted games marked, results and text
 * files written, and the finished run handed to the caller's report.  Also the look at the
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

/* The steps after the tables are made; false with *err at the first that fails. */
static bool run_steps(MatchRun *run, MatchReportFn report, void *report_ctx, Error *err)
{
    const MatchOptions *o = run->options;
    if (o->out_path && !(run->writer = match_open_records(run, err)))
        return false;
    double t0 = clock_seconds();
    bool played = match_play(run, err);
    /* The games played before a failure are kept: the file is closed either way. */
    Error close_err;
    if (run->writer && !match_close_records(run, run->writer, played ? err : &close_err))
        return false;
    if (!played)
        return false;
    match_mark_counted(run);
    if (o->results_path && !match_write_results(run, err))
        return false;
    if (o->pgn_path && !match_write_pgn(run, err))
        return false;
    report(run, clock_seconds() - t0, report_ctx);
    return true;
}

bool match_run(const Game *g, const Position *start, const MatchOptions *o, const OpeningSuite *suite,
               MatchReportFn report, void *report_ctx, Error *err)
{
    Matchup *matchups = malloc(sizeof(Matchup) * MATCH_MAX_PLAYERS * MATCH_MAX_PLAYERS / 2);
    int num = matchups ? make_matchups(o, matchups) : 0;
    MatchGame *games = calloc((size_t)num * (size_t)o->games, sizeof *games);
    bool ok = games != NULL;
    if (!ok) {
        error_failed(err, "out of memory");
    } else {
        MatchSprt sprt;
        match_sprt_init(&sprt, &o->sprt);
        IoLog io_log = {-1, 0};
        MatchRun run = {.game = g, .start = start, .options = o, .suite = suite, .matchup = matchups,
                        .num_matchups = num, .total = num * o->games, .games = games,
                        .sprt = o->sprt_on ? &sprt : NULL, .io_log = o->debug_path ? &io_log : NULL};
        ok = (!o->debug_path || external_process_log_open(&io_log, o->debug_path, err)) && run_steps(&run, report, report_ctx, err);
        external_process_log_close(&io_log);
    }
    free(games);
    free(matchups);
    return ok;
}
