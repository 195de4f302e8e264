/*
 * match_mpi.c - a match over several processes (eval/match.h): which process plays which game,
 * and the messages that bring every finished game to process 0, which keeps the whole table,
 * advances the SPRT in pair order and tells the others when to stop.  MPI itself is behind
 * data/mpi_env.h.
 *
 * The one-process match is the contract: the same records, results and report.  It holds because
 * a game depends only on the seed and its number (match_play.c), whoever plays it, and because
 * the match is defined by its games [0, limit) alone (match_keep_decided): the SPRT takes the
 * pairs strictly in order, so it stops at the same pair however the games are spread and
 * whenever they finish, and the games played beyond that pair (in flight, or on a process that
 * had not heard of the stop yet) are left out of every file, as one process leaves out its own
 * games in flight.
 *
 * Why pairs p mod R: both games of a pair start from one opening with the colours swapped, so
 * one process plays both; consecutive pairs on different processes keep the SPRT's next pairs
 * coming from all of them at once.  Why messages rather than rounds with a barrier: a process
 * never waits for another's slowest game before it starts its next one; only the end of the
 * match waits, once.  Process 0 reads the messages whenever one of its own games ends, and after
 * its last one waits for the rest.
 *
 * The protocol: a process other than 0 sends GAME for each game it finishes and DONE (with its
 * failure, incidents and removed temporary files) after its last; process 0 sends each other
 * process exactly one END: at once when the SPRT decides or a process fails, else in answer to
 * its DONE.  A process returns once it has END (process 0: every DONE), so no message is left
 * for the next step of a training run.
 */
#include "eval/match.h"

#include "core/clock.h"

#include <stdlib.h>
#include <string.h>

enum { KIND_GAME = 1, KIND_DONE = 2, KIND_END = 3 };

/* The words of a message: a game's entry, or a process's end. */
enum {
    W_KIND, W_INDEX, W_OK, W_TEMPS, W_RESULT, W_REASON, W_PLIES, W_TIME,
    W_INCIDENTS = W_TIME + 8, W_LEN = W_INCIDENTS + MATCH_MAX_PLAYERS
};

struct MatchExchange {
    MatchRun *run;
    const MpiEnv *env;
    int todo;                   /* games the run set out to play, on every process */
    double t0;
    int done;                   /* process 0: games finished by this run, on every process */
    bool *told;                 /* process 0: END sent to process r */
    bool *ended;                /* process 0: process r's DONE received */
    bool stop_all;              /* process 0: the SPRT decided, or a process failed */
    bool told_here;             /* another process: END received */
};

static int pair_of(const MatchRun *run, int k)
{
    const int games = run->options->games;
    return k / games * ((games + 1) / 2) + k % games / 2;
}

bool match_plays_here(const MatchRun *run, int k)
{
    return pair_of(run, k) % run->mpi->size == run->mpi->rank;
}

/* --- messages ----------------------------------------------------------------------------------- */

static uint64_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float bits_float(uint64_t w)
{
    uint32_t b = (uint32_t)w;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static void pack_game(const MatchGame *g, int k, uint64_t *m)
{
    memset(m, 0, W_LEN * sizeof *m);
    m[W_KIND] = KIND_GAME;
    m[W_INDEX] = (uint64_t)k;
    m[W_RESULT] = (uint64_t)(int64_t)g->result;
    m[W_REASON] = (uint64_t)(int64_t)g->reason;
    m[W_PLIES] = (uint64_t)(int64_t)g->plies;
    for (int side = 0; side < 2; side++) {
        uint64_t *t = m + W_TIME + 4 * side;
        t[0] = (uint64_t)(int64_t)g->time[side].moves;
        t[1] = float_bits(g->time[side].seconds);
        t[2] = float_bits(g->time[side].max_seconds);
        t[3] = float_bits(g->time[side].clock_left);
    }
}

static MatchGame unpack_game(const uint64_t *m)
{
    MatchGame g = {.done = true, .result = (GameStatus)(int64_t)m[W_RESULT],
                   .reason = (EndReason)(int64_t)m[W_REASON], .plies = (int)(int64_t)m[W_PLIES]};
    for (int side = 0; side < 2; side++) {
        const uint64_t *t = m + W_TIME + 4 * side;
        g.time[side] = (SideTime){(int)(int64_t)t[0], bits_float(t[1]), bits_float(t[2]), bits_float(t[3])};
    }
    return g;
}

/* Process 0: END to every process not told yet. */
static void tell_all(MatchExchange *x)
{
    uint64_t m[W_LEN] = {KIND_END};
    for (int r = 1; r < x->env->size; r++)
        if (!x->told[r]) {
            mpi_env_send_u64(x->env, r, m, W_LEN);
            x->told[r] = true;
        }
}

static void show_progress(const MatchExchange *x)
{
    const MatchOptions *o = x->run->options;
    if (o->progress)
        o->progress(&(MatchProgress){x->done, x->todo, clock_seconds() - x->t0, x->run->sprt}, o->progress_ctx);
}

/* Process 0: a message from process `from` into the table, the SPRT and the ends. */
static void take(MatchExchange *x, const uint64_t *m, int from)
{
    MatchRun *run = x->run;
    if (m[W_KIND] == KIND_GAME && m[W_INDEX] < (uint64_t)run->total) {
        run->games[m[W_INDEX]] = unpack_game(m);
        x->done++;
        show_progress(x);
    } else if (m[W_KIND] == KIND_DONE) {
        x->ended[from] = true;
        x->stop_all = x->stop_all || !m[W_OK];
        run->removed_temps += (int)m[W_TEMPS];
        for (int i = 0; i < MATCH_MAX_PLAYERS; i++)
            run->incidents[i] += (long)(int64_t)m[W_INCIDENTS + i];
        if (!x->told[from]) {
            uint64_t end[W_LEN] = {KIND_END};
            mpi_env_send_u64(x->env, from, end, W_LEN);
            x->told[from] = true;
        }
    }
}

/* Process 0: the SPRT over every pair complete now; true when the match should stop. */
static bool decided(MatchExchange *x)
{
    MatchRun *run = x->run;
    if (run->sprt) {
        match_sprt_advance(run->sprt, run);
        x->stop_all = x->stop_all || run->sprt->decision != SPRT_CONTINUE;
    }
    if (x->stop_all)
        tell_all(x);
    return x->stop_all;
}

/* --- the exchange ------------------------------------------------------------------------------- */

MatchExchange *match_exchange_new(MatchRun *run, int todo, double t0, Error *err)
{
    const MpiEnv *env = run->mpi;
    if (!env->serialized && run->options->concurrency > 1) {
        error_set(err, "this MPI lets no two threads of a process call it (MPI_THREAD_SERIALIZED): play one game "
                       "at a time in each process (--concurrency 1, train --threads 1)");
        return NULL;
    }
    MatchExchange *x = calloc(1, sizeof *x);
    if (x) {
        *x = (MatchExchange){.run = run, .env = env, .todo = todo, .t0 = t0};
        x->told = calloc((size_t)env->size, sizeof *x->told);
        x->ended = calloc((size_t)env->size, sizeof *x->ended);
    }
    if (!x || !x->told || !x->ended) {
        match_exchange_free(x);
        error_failed(err, "out of memory");
        return NULL;
    }
    return x;
}

void match_exchange_free(MatchExchange *x)
{
    if (!x)
        return;
    free(x->told);
    free(x->ended);
    free(x);
}

int match_exchange_done(const MatchExchange *x) { return x->done; }

bool match_exchange_game(MatchExchange *x, int k)
{
    uint64_t m[W_LEN];
    int from;
    if (x->env->rank != 0) {
        pack_game(&x->run->games[k], k, m);
        mpi_env_send_u64(x->env, 0, m, W_LEN);
        while (mpi_env_poll_u64(x->env, m, W_LEN, &from))
            x->told_here = x->told_here || m[W_KIND] == KIND_END;
        return x->told_here;
    }
    x->done++;
    show_progress(x);
    while (mpi_env_poll_u64(x->env, m, W_LEN, &from))
        take(x, m, from);
    return decided(x);
}

void match_exchange_finish(MatchExchange *x, bool ok)
{
    const MpiEnv *env = x->env;
    uint64_t m[W_LEN];
    int from;
    if (env->rank != 0) {
        memset(m, 0, sizeof m);
        m[W_KIND] = KIND_DONE;
        m[W_OK] = ok;
        m[W_TEMPS] = (uint64_t)x->run->removed_temps;
        for (int i = 0; i < MATCH_MAX_PLAYERS; i++)
            m[W_INCIDENTS + i] = (uint64_t)(int64_t)x->run->incidents[i];
        mpi_env_send_u64(env, 0, m, W_LEN);
        while (!x->told_here) {
            mpi_env_recv_u64(env, m, W_LEN, &from);
            x->told_here = m[W_KIND] == KIND_END;
        }
        return;
    }
    x->stop_all = x->stop_all || !ok;
    x->ended[0] = true;
    for (;;) {
        decided(x);
        int waiting = 0;
        for (int r = 1; r < env->size; r++)
            waiting += !x->ended[r];
        if (waiting == 0)
            break;
        mpi_env_recv_u64(env, m, W_LEN, &from);
        take(x, m, from);
    }
}
