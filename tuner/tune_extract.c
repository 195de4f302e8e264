/*
 * tune_extract.c - the tuner's positions from recorded games, in three passes:
 *
 *   1. replay (parallel, by game): every recorded move is checked and converted to a core Move
 *      by the rules engine (through the notation, tune_notation.c), and each position's hash is
 *      noted;
 *   2. mark (deterministic, in game order): repeats dropped (tune_dedup.c), games split between
 *      training and validation, and every kept position given its row in its set;
 *   3. features (parallel, by game): each game replayed again with the moves pass 1 converted
 *      (a plain make, no notation or legality work), the features of kept positions written
 *      straight into their rows, through a per-thread feature cache (value_features_cached) that
 *      recomputes only what the move since the previous position changed.
 *
 * Why two replays: the features are the dominant cost (~6,000 instructions a position on 14x12
 * with the cache, ~17,000 without), checking and converting a move through the notation costs
 * about a quarter of that and a plain make a fifteenth.  So moves are converted once, and
 * features are computed only for positions that survive the opening skip and the repeat check.
 * Rows are fixed before any feature is computed, so the sets come out the same whatever the
 * threads; the cache gives the same bits as value_features, so its history does not matter.
 *
 * Over several processes (opts->mpi), each replays its own share of the games; the repeats are
 * marked across all shares and the finished rows moved into whole blocks per process
 * (tune_mpi.c), so the sets, spread out, are the one-process sets row for row.
 */
#include "tune.h"
#include "core/threads.h"

#include "core/pattern.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TuneDataOptions tune_data_defaults(void) { return (TuneDataOptions){.validation = 0.1, .lambda = 0.5}; }

bool tune_in_validation(uint64_t index, uint64_t seed, double fraction)
{
    uint64_t state = index ^ (seed * 0xD1B54A32D192ED03ull);
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);     /* splitmix64 finaliser */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 < fraction;
}

typedef struct {
    const Game *g;
    const TuneGames *games;
    TuneDataOptions opts;
    size_t *first_candidate;    /* per game, and one past the last: positions past the opening */
    uint64_t *hash;             /* per candidate */
    Move *moves;                /* per ply: the core moves */
    uint8_t *failed;            /* per game: a move did not convert */
    uint8_t *keep;              /* per candidate: the first occurrence of its position */
    uint8_t *validation;        /* per game */
    size_t *first_row;          /* per game: the row of its first kept position in its set */
} Extraction;

static void extraction_free(Extraction *x)
{
    free(x->first_candidate);
    free(x->hash);
    free(x->moves);
    free(x->failed);
    free(x->keep);
    free(x->validation);
    free(x->first_row);
}

/* Allocates the per-game and per-position arrays and numbers the candidates. */
static bool extraction_init(Extraction *x, const Game *g, const TuneGames *games, const TuneDataOptions *o)
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
static bool replay_game(const Extraction *x, size_t i, int *bad_ply, Error *why)
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
static bool replay_all(Extraction *x, Error *err)
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
static void assign_rows(Extraction *x, TuneDataStats *s)
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

/* ---------------------------------------------------------------- pass 3: features */

/* The game's result for the side to move: 1 won, 0.5 drawn, 0 lost. */
static double result_for(GameStatus result, int side)
{
    if (result == STATUS_DRAW)
        return 0.5;
    return (result == STATUS_WHITE_WINS) == (side == WHITE) ? 1.0 : 0.0;
}

/* One kept position into its row. */
static void write_row(const Extraction *x, ValueFeatureCache *cache, const Position *pos, const TuneGame *tg,
                      size_t ply, TuneSet *set, size_t row)
{
    value_features_cached(x->g, cache, pos, set->features + row * (size_t)set->num_features);
    if (set->num_entries)
        pattern_canonical_entries(pattern_set_with(x->g, x->opts.families), x->g, pos,
                                  set->entries + row * (size_t)set->num_entries);
    double result = result_for(tg->result, game_side_to_move(x->g, pos));
    double value = record_value_double(x->games->value[ply]);
    double lambda = x->opts.lambda;
    set->result[row] = result;
    set->target[row] = isnan(value) ? result : lambda * result + (1 - lambda) * value;
}

/* Replays game i with its converted moves, writing the rows of its kept positions. */
static void features_of_game(const Extraction *x, size_t i, ValueFeatureCache *cache, TuneSet *sets[2])
{
    const TuneGame *tg = &x->games->game[i];
    TuneSet *set = sets[x->validation[i]];
    size_t row = x->first_row[i], c = x->first_candidate[i];
    Position pos = x->games->start[tg->start];
    for (int ply = 0; ply < tg->plies && c < x->first_candidate[i + 1]; ply++) {
        size_t at = tg->first_ply + (size_t)ply;
        if (ply >= x->opts.skip_opening && x->keep[c++])
            write_row(x, cache, &pos, tg, at, set, row++);
        Undo undo;
        game_make(x->g, &pos, x->moves[at], &undo);
    }
}

/* Each thread keeps one feature cache for all its games: consecutive positions of a game differ
 * by a move, which the cache turns into a fraction of a full feature computation. */
static bool features_all(const Extraction *x, TuneSet *train, TuneSet *validation)
{
    TuneSet *sets[2] = {train, validation};
    long n = (long)x->games->count;
    bool ok = true;
#pragma omp parallel num_threads(x->opts.threads) reduction(&& : ok)
    {
        ValueFeatureCache *cache = value_feature_cache_new(x->g);
        ok = cache != NULL;
#pragma omp for schedule(dynamic, 8)
        for (long i = 0; i < n; i++)
            if (cache)
                features_of_game(x, (size_t)i, cache, sets);
        value_feature_cache_free(cache);
    }
    return ok;
}

/* ---------------------------------------------------------------- all of it */

/* The counts of every process's share added up, so the statistics describe all the data. */
static void sum_stats(const MpiEnv *env, TuneDataStats *s)
{
    uint64_t v[] = {s->games, s->games_train, s->games_validation, s->positions_read, s->positions_opening,
                    s->positions_duplicate, s->positions_train, s->positions_validation, s->positions_valued};
    mpi_env_sum_u64(env, v, (int)(sizeof v / sizeof v[0]));
    *s = (TuneDataStats){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], s->seconds, s->seconds_replay,
                         s->seconds_features, s->seconds_exchange};
}

/* Repeats: within this process's games, or across every process's (spread). */
static bool mark_repeats(const Extraction *x, size_t candidates, bool spread, TuneDataStats *stats, Error *err)
{
    double t = omp_get_wtime();
    bool ok = spread ? tune_dedup_ranks(x->opts.mpi, x->hash, candidates, x->keep, x->opts.threads)
                     : tune_dedup(x->hash, candidates, x->keep, x->opts.threads);
    stats->seconds_exchange += spread ? omp_get_wtime() - t : 0;
    return ok || error_failed(err, "out of memory removing repeated positions");
}

/* Spread: the counts summed, the rows moved into whole blocks per process. */
static bool spread_sets(const MpiEnv *env, TuneSet *train, TuneSet *validation, TuneDataStats *stats,
                        Error *err)
{
    double t = omp_get_wtime();
    sum_stats(env, stats);
    bool ok = tune_spread(env, train) && tune_spread(env, validation);
    stats->seconds_exchange += omp_get_wtime() - t;
    return ok || error_failed(err, "out of memory spreading the positions over the processes");
}

bool tune_extract(const Game *g, const TuneGames *games, const TuneDataOptions *opts, TuneSet *train,
                  TuneSet *validation, TuneDataStats *stats, Error *err)
{
    double t0 = omp_get_wtime();
    memset(stats, 0, sizeof *stats);
    memset(train, 0, sizeof *train);
    memset(validation, 0, sizeof *validation);
    TuneDataOptions o = *opts;
    o.threads = threads_or_default(o.threads);
    o.skip_opening = o.skip_opening > 0 ? o.skip_opening : 0;
    bool spread = o.mpi && o.mpi->size > 1;
    Extraction x;
    bool ok = extraction_init(&x, g, games, &o);
    if (!ok)
        error_failed(err, "out of memory for %zu positions", games->plies);
    double t1 = omp_get_wtime();
    ok = ok && replay_all(&x, err);
    stats->seconds_replay = omp_get_wtime() - t1;
    /* Every step below that talks to the other processes is reached by all or by none. */
    ok = spread ? tune_agree(o.mpi, ok, err) : ok;
    ok = ok && mark_repeats(&x, x.first_candidate[games->count], spread, stats, err);
    if (ok) {
        assign_rows(&x, stats);
        int f = g->ops->num_features;
        const PatternSet *ps = o.tables ? pattern_set_with(g, o.families) : NULL;
        int k = ps ? ps->num_instances : 0;
        char shapes[64];
        pattern_families_format(o.families, shapes, sizeof shapes);
        if (o.tables && !ps)
            ok = error_set(err, "%s on %dx%d has no pattern tables of the shapes %s to fit", g->name,
                                g->width, g->height, shapes);
        else if (!tune_set_alloc(train, f, k, stats->positions_train) ||
                 !tune_set_alloc(validation, f, k, stats->positions_validation))
            ok = error_failed(err, "out of memory for the features of %llu positions",
                                (unsigned long long)(stats->positions_train + stats->positions_validation));
        train->families = validation->families = ps ? ps->families : 0;
    }
    ok = spread ? tune_agree(o.mpi, ok, err) : ok;
    double t2 = omp_get_wtime();
    if (ok && !features_all(&x, train, validation))
        ok = error_failed(err, "out of memory for the feature caches");
    ok = spread ? tune_agree(o.mpi, ok, err) : ok;   /* every process goes on to spread_sets, or none */
    stats->seconds_features = omp_get_wtime() - t2;
    extraction_free(&x);
    ok = ok && (!spread || spread_sets(o.mpi, train, validation, stats, err));
    if (!ok) {
        tune_set_free(train);
        tune_set_free(validation);
    }
    stats->seconds = omp_get_wtime() - t0;
    return ok;
}
