/*
 * tune_tables.c - the pattern tables' fit (tune.h): the linear weights and the tables of the
 * game's pattern set fitted together as one sparse logistic model (tune_sparse.c), and the
 * tables' fixed part of each position's log-odds for the sums of the Newton fit and the report.
 *
 * The sparse model's rows are the set's positions: the dense part is the feature vector, the
 * sparse part the position's canonical table entries, the target the set's blended target.  The
 * column groups are the shapes: all instances of a shape read one table, and no two shapes
 * share an entry, so the threads split the gradient by shape.
 */
#include "tune.h"
#include "core/threads.h"

#include "core/pattern.h"
#include "tune_sparse.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Whether the set's rows hold the entries of pattern set ps (NULL: none), as a fit with tables needs. */
static bool check_entries(const PatternSet *ps, const TuneSet *set, Error *err)
{
    return (ps && set->num_entries == ps->num_instances) ||
           error_failed(err, "the positions were read without their table entries");
}

/* Whether w's tables can start (or be read through) set ps: the same set, or the base set that
 * ps extends (canonical_tables copies it). */
static bool tables_for_set(const Game *g, const PatternSet *ps, const Weights *w)
{
    const PatternSet *from = pattern_set_with(g, w->pattern_families);
    return w->pattern_id == ps->id || (from && from->id == w->pattern_id && from->families == PATTERN_BASE &&
                                       (ps->families & PATTERN_BASE) && from->num_phases == ps->num_phases);
}

/* The tables of w in canonical layout for set ps, or zeros where w has none for it; NULL on no
 * memory.  Tables of the base set start a set that adds 2-D families to it: the base shapes
 * come first in every phase of such a set (core/phalanx_patterns.c), so each phase's base part
 * is copied and the new shapes start from zero. */
static float *canonical_tables(const Game *g, const PatternSet *ps, const Weights *w)
{
    const size_t n = (size_t)ps->num_phases * ps->canonical_phase_size;
    float *t = calloc(n ? n : 1, sizeof *t);
    if (!t || !w->tables)
        return t;
    const PatternSet *from = pattern_set_with(g, w->pattern_families);
    if (w->pattern_id == ps->id) {
        pattern_compress(ps, w->tables, t);
    } else if (tables_for_set(g, ps, w)) {
        float *base = malloc((size_t)from->num_phases * from->canonical_phase_size * sizeof *base);
        if (!base) {
            free(t);
            return NULL;
        }
        pattern_compress(from, w->tables, base);
        for (int ph = 0; ph < ps->num_phases; ph++)
            memcpy(t + (size_t)ph * ps->canonical_phase_size, base + (size_t)ph * from->canonical_phase_size,
                   from->canonical_phase_size * sizeof *base);
        free(base);
    }
    return t;
}

bool tune_set_offsets(TuneSet *set, const Game *g, const Weights *w, int threads, Error *err)
{
    free(set->offset);
    set->offset = NULL;
    if (!w->tables)
        return true;
    /* Without the entries the tables would silently count for nothing in the fit, and the file
     * saved would then count them twice. */
    const PatternSet *ps = pattern_set_with(g, set->families);
    if (!check_entries(ps, set, err))
        return false;
    if (!tables_for_set(g, ps, w))
        return error_failed(err, "the tables are of another pattern set than the positions' entries");
    float *t = canonical_tables(g, ps, w);
    set->offset = malloc((set->count ? set->count : 1) * sizeof *set->offset);
    if (!t || !set->offset) {
        free(t);
        free(set->offset);
        set->offset = NULL;
        return error_failed(err, "out of memory for the tables' part of %zu positions' values", set->count);
    }
    const long n = (long)set->count;
    const int k = set->num_entries;
#pragma omp parallel for schedule(static) num_threads(threads_or_default(threads))
    for (long i = 0; i < n; i++) {
        const uint32_t *e = set->entries + (size_t)i * (size_t)k;
        float sum = 0;      /* the order and precision of pattern_sum, the engine's */
        for (int c = 0; c < k; c++)
            sum += t[e[c]];
        set->offset[i] = sum;
    }
    free(t);
    return true;
}

static SparseData sparse_view(const TuneSet *set)
{
    return (SparseData){
        .rows = set->count,
        .dense = set->num_features,
        .features = set->features,
        .columns = set->num_entries,
        .entries = set->entries,
        .target = set->target,
        .first_group = set->mpi ? set->first_row : 0,
    };
}

static void log_epoch(const SparseEpoch *e, void *ctx)
{
    TuneFit *out = ctx;
    if (e->epoch > TUNE_MAX_EPOCHS)
        return;
    out->epoch[e->epoch] = (TuneEpoch){e->epoch, e->train_loss, e->validation_loss, e->learning_rate, e->seconds, e->best};
    out->num_epochs = e->epoch + 1;
}

static bool check_sets(const PatternSet *ps, const TuneSet *train, const TuneSet *validation, const Weights *init,
                       Error *err)
{
    if (!ps)
        return error_set(err, "this game has no pattern tables to fit");
    if (!check_entries(ps, train, err) || !check_entries(ps, validation, err))
        return false;
    if (tune_set_total(train) == 0)
        return error_set(err, "no training positions");
    if (init->count != train->num_features || init->count > SPARSE_MAX_DENSE)
        return error_set(err, "the start weights do not match the features");
    return true;
}

bool tune_fit_tables(const Game *g, const TuneSet *train, const TuneSet *validation, const Weights *init,
                     const TuneFitOptions *opts, TuneFit *out, Error *err)
{
    double t0 = omp_get_wtime();
    memset(out, 0, sizeof *out);
    const PatternSet *ps = pattern_set_with(g, train->families);
    if (!check_sets(ps, train, validation, init, err))
        return false;
    SparseModel model = {.dense = init->count, .num_sparse = (size_t)ps->num_phases * ps->canonical_phase_size};
    memcpy(model.dense_w, init->w, (size_t)init->count * sizeof init->w[0]);
    model.sparse_w = canonical_tables(g, ps, init);
    if (!model.sparse_w)
        return error_failed(err, "out of memory for %zu table entries", model.num_sparse);
    SparseFitOptions so = tune_sparse_fit_defaults();
    so.l2_dense = opts->l2;
    so.l2_sparse = opts->l2_tables;
    so.learning_rate = opts->learning_rate;
    so.batch_groups = opts->batch;
    so.max_epochs = opts->max_epochs < TUNE_MAX_EPOCHS ? opts->max_epochs : TUNE_MAX_EPOCHS;
    so.patience = opts->patience;
    so.threads = opts->threads;
    so.mpi = train->mpi;
    so.column_group = ps->instance_shape;
    so.on_epoch = log_epoch;
    so.ctx = out;
    const SparseData tr = sparse_view(train), va = sparse_view(validation);
    SparseFitResult result;
    bool ok = tune_sparse_fit(&model, &tr, &va, &so, &result);
    if (ok) {
        weights_copy(&out->weights, init);
        memcpy(out->weights.w, model.dense_w, (size_t)init->count * sizeof init->w[0]);
        ok = weights_set_tables(&out->weights, ps, model.sparse_w);
    }
    free(model.sparse_w);
    if (!ok) {
        weights_dispose(&out->weights);
        return error_failed(err, "out of memory fitting %zu table entries", model.num_sparse);
    }
    out->tables = true;
    out->best_epoch = result.best_epoch;
    out->iterations = result.epochs;
    out->converged = true;
    out->seconds = omp_get_wtime() - t0;
    return true;
}
