/*
 * match_play.c - the game loop of `leuctra match`: every game not yet done, concurrency at a
 * time, each from its own seed and opening so that its moves do not depend on the thread that
 * plays it; finished games go to the records file at once (crash safety, --resume) and into the
 * pair-order SPRT, which may stop the loop; under MPI each process plays its own pairs and the
 * exchange (match_mpi.c) brings the games to process 0.  A failure in any thread (a player that
 * cannot be made, a record that cannot be written) is kept, the first one, and stops the loop
 * the same way.
 */
#include "eval/match.h"

#include "core/clock.h"
#include "core/rng.h"
#include "selfplay/player_external.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* One thread's state: its players (made on first use) and the record of the game it plays. */
typedef struct {
    Player *player[MATCH_MAX_PLAYERS];
    GameRecord record;
    const Game *game;
    bool failed;        /* a move could not be stored: the record is not written */
} MatchWorker;

/* What the threads share besides the run: whether to stop, and the first failure. */
typedef struct {
    _Atomic bool stop;
    bool failed;
    Error err;
} MatchLoop;

static void loop_fail(MatchLoop *loop, const Error *err)
{
#pragma omp critical(match_failed)
    if (!loop->failed) {
        loop->failed = true;
        loop->err = *err;
        loop->err.failure = true;   /* the inputs were checked before the loop: this is a failure */
    }
    atomic_store(&loop->stop, true);
}

static Player *worker_player(MatchWorker *w, const MatchRun *run, int index, Error *err)
{
    if (!w->player[index]) {
        PlayerOutput out = run->options->player_output;
        out.io_log = run->io_log;
        w->player[index] = match_player_create(run->game, run->options, index, &out, err);
    }
    return w->player[index];
}

/* The MoveObserver of driver_play_game: one ply of the record, with the value and visits the player
 * reported (no visit distribution: a match is not training data), the time it took and the
 * clock it left. */
static void record_ply(void *ctx, const Position *before, Move move, const MoveInfo *info)
{
    MatchWorker *w = ctx;
    RecordMove played;
    Error err;
    if (w->failed || !record_move_from_move(w->game, before, move, &played, &err)) {
        w->failed = true;
        return;
    }
    uint32_t visits = info->visits > 0 ? (uint32_t)info->visits : 0;
    if (!game_record_add_ply(&w->record, played, record_value_quantise(info->value), NULL, 0, visits))
        w->failed = true;
    else
        game_record_time_ply(&w->record, info->seconds, info->clock_left);
}

static uint64_t game_seed(const MatchRun *run, int k)
{
    return rng_seed(run->options->seed, (uint64_t)k).s[0];
}

/* The record's game fields; the plies are in already. */
static void finish_record(GameRecord *record, const MatchRun *run, int k, const Position *start, const GameResult *r)
{
    record->index = (uint64_t)k;
    record->seed = game_seed(run, k);
    game_format_position(run->game, start, record->start, sizeof record->start);
    record->result = r->result;
    record->end = driver_end_reason_record(r->reason);
    for (int side = 0; side < 2; side++)
        record->final_clock_ms[side] = record_clock_ms(r->clock_left[side]);
}

static bool save_record(MatchWorker *w, const MatchRun *run, int k, Error *err)
{
    if (!run->writer)
        return true;
    if (w->failed) {
        error_failed(err, "game %d: a move could not be recorded", k);
        return false;
    }
    if (!run->options->timed)      /* noise in a match of visits, whose file is reproducible */
        for (int i = 0; i < w->record.plies; i++)
            w->record.ply[i].time_ms = RECORD_NO_TIME;
    Error e;
    if (!records_append(run->writer, &w->record, &e)) {
        error_failed(err, "%s", e.msg);
        return false;
    }
    return true;
}

/* Plays game k into *played; false with *err when it could not be played or stored. */
static bool play_one(MatchWorker *w, const MatchRun *run, int k, MatchGame *played, Error *err)
{
    const Matchup *m = &run->matchup[k / run->options->games];
    bool first_white = match_first_is_white(run, k);
    Player *first = worker_player(w, run, m->first, err), *second = first ? worker_player(w, run, m->second, err) : NULL;
    if (!second)
        return false;
    Player *seats[2] = {first_white ? first : second, first_white ? second : first};
    Position start = match_opening(run, k);
    const MatchOptions *o = run->options;
    DrawPolicy policy = {o->max_plies, o->repetition, o->resign_moves, o->resign_value, o->time_margin};
    GameResult r;
    game_record_clear(&w->record);
    w->failed = false;
    /* Recorded even without a records file: the report's times come from the record. */
    if (!driver_play_game(run->game, &start, seats, &policy, game_seed(run, k), record_ply, w, &r)) {
        error_failed(err, "out of memory");
        return false;
    }
    finish_record(&w->record, run, k, &start, &r);
    *played = match_game_of_record(run, &w->record);    /* before the file's copy loses its times */
    played->reason = r.reason;
    played->plies = r.plies;
    game_result_free(&r);
    return save_record(w, run, k, err);
}

/* Game k is over: its entry, the SPRT and the progress line, one thread at a time (the SPRT
 * reads other threads' entries, so they are written here too); under MPI, the exchange with the
 * other processes (match_mpi.c), whose calls this section keeps to one thread at a time. */
static void game_finished(MatchRun *run, MatchExchange *x, int k, MatchGame played, int *done, int todo, double t0,
                          MatchLoop *loop)
{
#pragma omp critical(match_finished)
    {
        run->games[k] = played;
        ++*done;
        if (x ? match_exchange_game(x, k) : run->sprt && match_sprt_advance(run->sprt, run))
            atomic_store(&loop->stop, true);
        if (run->options->progress && !x)
            run->options->progress(&(MatchProgress){*done, todo, clock_seconds() - t0, run->sprt},
                                   run->options->progress_ctx);
    }
}

/* An external engine's incidents (selfplay/player_external.h) into the match's totals. */
static void add_incidents(MatchRun *run, int i, const Player *p)
{
    ExternalCounts c;
    if (!p || !player_external_counts(p, &c))
        return;
    long n = 0;
    for (int k = 0; k < INCIDENT_KINDS; k++)
        n += c.incidents[k];
#pragma omp atomic
    run->incidents[i] += n;
}

bool match_play(MatchRun *run, Error *err)
{
    int todo = 0, done = 0;
    for (int k = 0; k < run->total; k++)
        todo += !run->games[k].done;
    MatchLoop loop = {.stop = false, .failed = false};
    /* every process has every resumed game (match_read_resumed), so all decide this alike */
    if (run->sprt && (match_sprt_advance(run->sprt, run) || run->sprt->decision != SPRT_CONTINUE))
        loop.stop = true;    /* the resumed games already decided the test */
    double t0 = clock_seconds();
    MatchExchange *x = NULL;
    if (run->mpi->size > 1) {
        x = match_exchange_new(run, todo, t0, err);
        if (!mpi_env_agree(run->mpi, x != NULL, err)) {
            match_exchange_free(x);
            return false;
        }
    }
#pragma omp parallel num_threads(run->options->concurrency)
    {
        MatchWorker w = {{NULL}, {0}, run->game, false};
        game_record_init(&w.record);
#pragma omp for schedule(dynamic, 1)
        for (int k = 0; k < run->total; k++) {
            if (run->games[k].done || atomic_load(&loop.stop) || !match_plays_here(run, k))
                continue;
            MatchGame played;
            Error game_err;
            if (play_one(&w, run, k, &played, &game_err))
                game_finished(run, x, k, played, &done, todo, t0, &loop);
            else
                loop_fail(&loop, &game_err);
        }
        for (int i = 0; i < run->options->players; i++) {
            add_incidents(run, i, w.player[i]);
            player_free(w.player[i]);
        }
        game_record_free(&w.record);
    }
    run->played = done;
    if (x)
        match_exchange_finish(x, !loop.failed);
    match_exchange_free(x);
    if (loop.failed && err)
        *err = loop.err;
    return !loop.failed;
}
