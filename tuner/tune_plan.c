/*
 * tune_plan.c - which recorded positions a fit uses, and where each goes (tune.h: TunePlan):
 * the first two passes of tune_extract.c, shared by every fit that reads positions from games
 * (the linear weights and tables, tune_extract.c; the network, tune_network_data.c).
 *
 *   1. replay (parallel, by game): every recorded move is checked and converted to a core Move
 *      by the rules engine (through the notation, tune_notation.c), and each position's hash is
 *      noted;
 *   2. mark (deterministic, in game order): repeats dropped (tune_dedup.c), games split between
 *      training and validation (tune_in_validation), and every kept position given its row in
 *      its set.
 *
 * Rows are fixed before any position is evaluated, so whatever fills them afterwards, in
 * parallel by game, comes out the same whatever the threads.  Over several processes
 * (opts->mpi) each replays its own share of the games and the repeats are marked across all of
 * them (tune_mpi.c).
 */
#include "tune.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

bool tune_in_validation(uint64_t index, uint64_t seed, double fraction)
{
    uint64_t state = index ^ (seed * 0xD1B54A32D192ED03ull);
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);     /* splitmix64 finaliser */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 < fraction;
}

void tune_plan_free(TunePlan *x)
{
    free(x->first_candidate);
    free(x->hash);
    free(x->moves);
    free(x->failed);
    free(x->keep);
    free(x->validation);
    free(x->first_row);
    memset(x, 0, sizeof *x);
}

/* Allocates the per-game and per-position arrays and numbers the candidates. */
static bool plan_init(TunePlan *x, const Game *g, const TuneGames *games, const TuneDataOptions *o)
{
    memset(x, 0, sizeof *x);
    x->g = g;
    x->games = games;
    x->opts = *o;
    size_t n = games->count;
    x->first_candidate = malloc((n + 1) * sizeof *x->first_candidate);
    if (!x->first_candidate)
        return false;
    x->first_candidate[0] = 0;
    for (size_t i = 0; i < n; i++) {
        int past = games->game[i].plies - o->skip_opening;
        x->first_candidate[i + 1] = x->first_candidate[i] + (size_t)(past > 0 ? past : 0);
    }
    size_t candidates = x->first_candidate[n] ? x->first_candidate[n] : 1;
    x->hash = malloc(candidates * sizeof *x->hash);
    x->keep = malloc(candidates);
    x->moves = malloc((games->plies ? games->plies : 1) * sizeof *x->moves);
    x->failed = calloc(n + 1, 1);
    x->validation = malloc(n + 1);
    x->first_row = malloc((n + 1) * sizeof *x->first_row);
    return x->hash && x->keep && x->moves && x->failed && x->validation && x->first_row;
}

/* ---------------------------------------------------------------- pass 1: replay */

/* A stored move to a core Move, checked by the rules: record_move_to_move without its printf. */
static bool convert_move(const Game *g, const Position *pos, RecordMove stored, Move *out, Error *why)
{
    char text[RECORD_MOVE_TEXT];
    if (!tune_move_notation(stored, text)) {
        error_set(why, "stored move 0x%04x names no move", stored.code);
        return false;
    }
    return game_parse_move(g, pos, text, out, why);
}

/* Converts game i's moves and hashes its candidate positions; on a move the rules refuse, the
 * ply and their reason. */
static bool replay_game(const TunePlan *x, size_t i, int *bad_ply, Error *why)
{
    const TuneGame *tg = &x->games->game[i];
    Position pos = x->games->start[tg->start];
    uint64_t *hash = x->hash + x->first_candidate[i];
    int skip = x->opts.skip_opening;
    for (int ply = 0; ply < tg->plies; ply++) {
        if (ply >= skip)
            hash[ply - skip] = game_hash(x->g, &pos);
        Move m;
        if (!convert_move(x->g, &pos, x->games->move[tg->first_ply + (size_t)ply], &m, why)) {
            *bad_ply = ply;
            return false;
        }
        x->moves[tg->first_ply + (size_t)ply] = m;
        Undo undo;
        game_make(x->g, &pos, m, &undo);
    }
    return true;
}

/* Replays every game; names the first bad game (in game order, so the message is the same
 * whatever the threads). */
static bool replay_all(TunePlan *x, Error *err)
{
    long n = (long)x->games->count;
#pragma omp parallel for schedule(dynamic, 8) num_threads(x->opts.threads)
    for (long i = 0; i < n; i++) {
        int ply;
        Error why;
        x->failed[i] = !replay_game(x, (size_t)i, &ply, &why);
    }
    for (size_t i = 0; i < (size_t)n; i++) {
        if (!x->failed[i])
            continue;
        int ply = 0;
        Error why;
        replay_game(x, i, &ply, &why);
        const TuneGame *tg = &x->games->game[i];
        return error_set(err, "%s: game %llu, ply %d: %s", x->games->source[tg->source].name,
                              (unsigned long long)tg->index, ply + 1, why.msg);
    }
    return true;
}

/* ---------------------------------------------------------------- pass 2: mark */

/* Splits the games, gives each kept position its row, and counts what went where. */
static void assign_rows(TunePlan *x, TuneDataStats *s)
{
    const TuneGames *gs = x->games;
    size_t rows[2] = {0, 0};
    for (size_t i = 0; i < gs->count; i++) {
        const TuneGame *tg = &gs->game[i];
        int side = x->validation[i] = tune_in_validation(tg->index, tg->seed, x->opts.validation);
        x->first_row[i] = rows[side];
        s->games_validation += (uint64_t)side;
        for (size_t c = x->first_candidate[i]; c < x->first_candidate[i + 1]; c++) {
            size_t ply = tg->first_ply + (size_t)x->opts.skip_opening + (c - x->first_candidate[i]);
            rows[side] += x->keep[c];
            s->positions_valued += x->keep[c] && gs->value[ply] != RECORD_NO_VALUE;
        }
    }
    s->games = gs->count;
    s->games_train = s->games - s->games_validation;
    s->positions_read = gs->plies;
    s->positions_opening = gs->plies - x->first_candidate[gs->count];
    s->positions_train = rows[0];
    s->positions_validation = rows[1];
    s->positions_duplicate = x->first_candidate[gs->count] - rows[0] - rows[1];
}

/* Repeats: within this process's games, or across every process's (spread). */
static bool mark_repeats(const TunePlan *x, size_t candidates, bool spread, TuneDataStats *stats, Error *err)
{
    double t = omp_get_wtime();
    bool ok = spread ? tune_dedup_ranks(x->opts.mpi, x->hash, candidates, x->keep, x->opts.threads)
                     : tune_dedup(x->hash, candidates, x->keep, x->opts.threads);
    stats->seconds_exchange += spread ? omp_get_wtime() - t : 0;
    return ok || error_failed(err, "out of memory removing repeated positions");
}

bool tune_plan(const Game *g, const TuneGames *games, const TuneDataOptions *opts, TunePlan *plan,
               TuneDataStats *stats, Error *err)
{
    const bool spread = opts->mpi && opts->mpi->size > 1;
    bool ok = plan_init(plan, g, games, opts);
    if (!ok)
        error_failed(err, "out of memory for %zu positions", games->plies);
    double t1 = omp_get_wtime();
    ok = ok && replay_all(plan, err);
    stats->seconds_replay = omp_get_wtime() - t1;
    /* Every step below that talks to the other processes is reached by all or by none. */
    ok = spread ? tune_agree(opts->mpi, ok, err) : ok;
    ok = ok && mark_repeats(plan, plan->first_candidate[games->count], spread, stats, err);
    if (ok)
        assign_rows(plan, stats);
    return ok;
}

void tune_plan_game(const TunePlan *x, size_t i, TunePlanVisit visit, void *ctx)
{
    const TuneGame *tg = &x->games->game[i];
    const int validation = x->validation[i];
    size_t row = x->first_row[i], c = x->first_candidate[i];
    Position pos = x->games->start[tg->start];
    for (int ply = 0; ply < tg->plies && c < x->first_candidate[i + 1]; ply++) {
        size_t at = tg->first_ply + (size_t)ply;
        if (ply >= x->opts.skip_opening && x->keep[c++])
            visit(ctx, &pos, i, at, validation, row++);
        Undo undo;
        game_make(x->g, &pos, x->moves[at], &undo);
    }
}

/* The game's result for the side to move: 1 won, 0.5 drawn, 0 lost. */
static double result_for(GameStatus result, int side)
{
    if (result == STATUS_DRAW)
        return 0.5;
    return (result == STATUS_WHITE_WINS) == (side == WHITE) ? 1.0 : 0.0;
}

double tune_plan_target(const TunePlan *x, size_t game, size_t ply, const Position *pos, double *result)
{
    *result = result_for(x->games->game[game].result, game_side_to_move(x->g, pos));
    double value = record_value_double(x->games->value[ply]);
    double lambda = x->opts.lambda;
    return isnan(value) ? *result : lambda * *result + (1 - lambda) * value;
}
