/*
 * tune_extract.c - the tuner's positions from recorded games: which positions and where they go
 * are tune_plan.c's (replay, repeats, the split), then
 *
 *   3. features (parallel, by game): each game replayed again with the moves the plan converted
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

/* ---------------------------------------------------------------- pass 3: features */

typedef struct {
    const TunePlan *plan;
    ValueFeatureCache *cache;
    TuneSet *sets[2];
} FeatureWork;

/* One kept position into its row. */
static void write_row(void *ctx, const Position *pos, size_t game, size_t ply, int validation, size_t row)
{
    const FeatureWork *w = ctx;
    const TunePlan *x = w->plan;
    TuneSet *set = w->sets[validation];
    value_features_cached(x->g, w->cache, pos, set->features + row * (size_t)set->num_features);
    if (set->num_entries)
        pattern_canonical_entries(pattern_set_with(x->g, x->opts.families), x->g, pos,
                                  set->entries + row * (size_t)set->num_entries);
    set->target[row] = tune_plan_target(x, game, ply, pos, &set->result[row]);
}

/* Each thread keeps one feature cache for all its games: consecutive positions of a game differ
 * by a move, which the cache turns into a fraction of a full feature computation. */
static bool features_all(const TunePlan *x, TuneSet *train, TuneSet *validation)
{
    long n = (long)x->games->count;
    bool ok = true;
#pragma omp parallel num_threads(x->opts.threads) reduction(&& : ok)
    {
        FeatureWork w = {x, value_feature_cache_new(x->g), {train, validation}};
        ok = w.cache != NULL;
#pragma omp for schedule(dynamic, 8)
        for (long i = 0; i < n; i++)
            if (w.cache)
                tune_plan_game(x, (size_t)i, write_row, &w);
        value_feature_cache_free(w.cache);
    }
    return ok;
}

/* ---------------------------------------------------------------- all of it */

/* Spread: the counts summed, the rows moved into whole blocks per process. */
static bool spread_sets(const MpiEnv *env, TuneSet *train, TuneSet *validation, TuneDataStats *stats,
                        Error *err)
{
    double t = omp_get_wtime();
    tune_sum_stats(env, stats);
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
    TunePlan x;
    /* a plan that fails, fails on every process alike (tune_plan): all of them return here */
    bool ok = tune_plan(g, games, &o, &x, stats, err);
    if (ok) {
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
        ok = spread ? tune_agree(o.mpi, ok, err) : ok;
        double t2 = omp_get_wtime();
        if (ok && !features_all(&x, train, validation))
            ok = error_failed(err, "out of memory for the feature caches");
        ok = spread ? tune_agree(o.mpi, ok, err) : ok;   /* every process goes on to spread_sets, or none */
        stats->seconds_features = omp_get_wtime() - t2;
    }
    tune_plan_free(&x);
    ok = ok && (!spread || spread_sets(o.mpi, train, validation, stats, err));
    if (!ok) {
        tune_set_free(train);
        tune_set_free(validation);
    }
    stats->seconds = omp_get_wtime() - t0;
    return ok;
}
