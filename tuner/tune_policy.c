/*
 * tune_policy.c - the learned move priors' fit (tune.h): a softmax over each position's legal
 * moves, each move a handful of active entries of the game's move-feature space (core/policy.h),
 * fitted to the visit distribution that the search recorded at that position (the share of the
 * root's visits each move got), with tune_sparse.c's Adam.
 *
 * Positions: every ply after the opening whose visit list sums to at least min_visits (the
 * distribution of a tiny search says little) and which has two moves or more; when there are
 * more than max_positions, a fixed hash of (game, ply) picks that many on average, so the choice
 * does not depend on the threads.  Games go to training or validation as for the value's fit.
 *
 * The report's scores, before (the game's heuristic priors, or the start weights' learned ones)
 * and after: the cross-entropy against the visit distribution, the share of positions where the
 * highest prior is the most visited move (top-1), and the mean log-probability of that move (the
 * log-evidence of Coulom 2007).
 */
#include "tune.h"

#include "core/policy.h"
#include "core/threads.h"
#include "tune_sparse.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

TunePolicyOptions tune_policy_defaults(void)
{
    return (TunePolicyOptions){.min_visits = 50, .max_positions = 1000000, .prune = 0, .l2 = 10,
                               .learning_rate = 0.02, .batch = 1024, .max_epochs = 20, .patience = 2};
}

/* A growable training or validation set of grouped rows. */
typedef struct {
    size_t rows, groups, row_cap, group_cap;
    uint32_t *entries;
    double *target;
    float *before;              /* the start priors, normalised, per row (for the report) */
    size_t *group_start;        /* groups + 1 */
    int columns;
} PolicyRows;

static bool rows_reserve(PolicyRows *s, size_t more_rows)
{
    if (s->rows + more_rows > s->row_cap) {
        size_t cap = s->row_cap ? s->row_cap : 1 << 16;
        while (cap < s->rows + more_rows)
            cap *= 2;
        uint32_t *e = realloc(s->entries, cap * (size_t)s->columns * sizeof *e);
        if (e)
            s->entries = e;
        double *t = realloc(s->target, cap * sizeof *t);
        if (t)
            s->target = t;
        float *b = realloc(s->before, cap * sizeof *b);
        if (b)
            s->before = b;
        if (!e || !t || !b)
            return false;
        s->row_cap = cap;
    }
    if (s->groups + 2 > s->group_cap) {
        size_t cap = s->group_cap ? 2 * s->group_cap : 1 << 14;
        size_t *g = realloc(s->group_start, cap * sizeof *g);
        if (!g)
            return false;
        s->group_start = g;
        s->group_cap = cap;
    }
    return true;
}

static void rows_free(PolicyRows *s)
{
    free(s->entries);
    free(s->target);
    free(s->before);
    free(s->group_start);
}

typedef struct {
    const Game *g;
    const PolicySet *set;
    const TuneGames *games;
    const TunePolicyOptions *opts;
    const Weights *init;
    double keep_fraction;
    Move *moves;
    float *priors;
} Extract;

static bool sampled(const TuneGame *tg, int ply, double fraction)
{
    return fraction >= 1 || tune_in_validation(tg->index ^ ((uint64_t)ply << 40), tg->seed + 0x5EED, fraction);
}

/* The ply's visit sum, 0 without a list. */
static uint64_t visit_sum(const TuneGames *games, size_t ply)
{
    uint64_t sum = 0;
    for (uint16_t k = 0; k < games->visit_count[ply]; k++)
        sum += games->visit[games->visit_at[ply] + k].visits;
    return sum;
}

static bool eligible(const Extract *x, const TuneGame *tg, int ply)
{
    return ply >= x->opts->skip_opening && visit_sum(x->games, tg->first_ply + (size_t)ply) >= (uint64_t)x->opts->min_visits;
}

/* The start priors of the moves: the search's own, from init (core/value.h). */
static void start_priors(const Extract *x, const Position *pos, int n)
{
    value_move_priors(x->g, x->init, pos, x->moves, n, x->priors);
}

/* One position's rows: its moves, their entries, visit shares and start priors. */
static bool add_position(const Extract *x, const Position *pos, size_t ply, PolicyRows *s, Error *err)
{
    const int n = game_gen_moves(x->g, pos, x->moves);
    if (n < 2)
        return true;
    if (!rows_reserve(s, (size_t)n))
        return error_failed(err, "out of memory for the priors' positions");
    double *target = s->target + s->rows;
    memset(target, 0, (size_t)n * sizeof *target);
    /* The moves with at least `prune` of the most visited one's visits, weighted by their visits:
     * the visits the exploration term spreads over moves the search did not like stay out. */
    uint32_t most = 0;
    for (uint16_t k = 0; k < x->games->visit_count[ply]; k++)
        if (x->games->visit[x->games->visit_at[ply] + k].visits > most)
            most = x->games->visit[x->games->visit_at[ply] + k].visits;
    const double floor = x->opts->prune * (double)most;
    uint64_t sum = 0;
    for (uint16_t k = 0; k < x->games->visit_count[ply]; k++)
        if (x->games->visit[x->games->visit_at[ply] + k].visits >= floor)
            sum += x->games->visit[x->games->visit_at[ply] + k].visits;
    for (uint16_t k = 0; k < x->games->visit_count[ply]; k++) {
        const RecordVisit *v = &x->games->visit[x->games->visit_at[ply] + k];
        if (v->visits < floor)
            continue;
        char text[RECORD_MOVE_TEXT];
        Move m;
        Error why;
        if (!tune_move_notation(v->move, text) || !game_parse_move(x->g, pos, text, &m, &why))
            return error_set(err, "a visit list names a move that is not legal there (%s)", text);
        for (int i = 0; i < n; i++)
            if (x->moves[i] == m)
                target[i] += (double)v->visits / (double)sum;
    }
    x->set->move_entries(x->g, pos, x->moves, n, s->entries + s->rows * (size_t)s->columns);
    start_priors(x, pos, n);
    memcpy(s->before + s->rows, x->priors, (size_t)n * sizeof *x->priors);
    s->group_start[s->groups++] = s->rows;
    s->rows += (size_t)n;
    s->group_start[s->groups] = s->rows;
    return true;
}

static bool extract_game(const Extract *x, size_t i, PolicyRows sets[2], Error *err)
{
    const TuneGame *tg = &x->games->game[i];
    PolicyRows *s = &sets[tune_in_validation(tg->index, tg->seed, x->opts->validation)];
    Position pos = x->games->start[tg->start];
    for (int ply = 0; ply < tg->plies; ply++) {
        const size_t at = tg->first_ply + (size_t)ply;
        if (eligible(x, tg, ply) && sampled(tg, ply, x->keep_fraction) && !add_position(x, &pos, at, s, err))
            return false;
        char text[RECORD_MOVE_TEXT];
        Move m;
        Error why;
        if (!tune_move_notation(x->games->move[at], text) || !game_parse_move(x->g, &pos, text, &m, &why))
            return error_set(err, "%s: game %llu, ply %d: %s", x->games->source[tg->source].name,
                                  (unsigned long long)tg->index, ply + 1, why.msg);
        Undo undo;
        game_make(x->g, &pos, m, &undo);
    }
    return true;
}

/* ---------------------------------------------------------------- scores */

/* A row's logit under the weights, or (NULL) the log of its start prior. */
static double row_logit(const PolicyRows *s, const float *weights, size_t r)
{
    if (!weights)
        return log(s->before[r] > 1e-30f ? s->before[r] : 1e-30f);
    double z = 0;
    for (int c = 0; c < s->columns; c++)
        z += weights[s->entries[r * (size_t)s->columns + (size_t)c]];
    return z;
}

/* Scores are summed in fixed point, SCORE_ONE a nat, as the sparse fit sums its losses: exact in
 * any order, so the threads and the processes (each its share of the positions) add them to the
 * bits one thread adds. */
#define SCORE_ONE 16777216.0

/* Group g's cross-entropy and log-evidence in fixed point; whether its highest logit is its most
 * visited move. */
static bool score_group(const PolicyRows *s, const float *weights, size_t g, int64_t *loss, int64_t *evidence)
{
    const size_t a = s->group_start[g], b = s->group_start[g + 1];
    double top = -INFINITY, norm = 0, cross = 0;
    size_t best = a, visited = a;
    for (size_t r = a; r < b; r++) {
        const double z = row_logit(s, weights, r);
        if (s->target[r] > s->target[visited])
            visited = r;
        if (z > top) {
            top = z;
            best = r;
        }
    }
    for (size_t r = a; r < b; r++)
        norm += exp(row_logit(s, weights, r) - top);
    const double log_norm = top + log(norm);
    for (size_t r = a; r < b; r++)
        if (s->target[r] > 0)
            cross -= s->target[r] * (row_logit(s, weights, r) - log_norm);
    *loss = llround(cross * SCORE_ONE);
    *evidence = llround((row_logit(s, weights, visited) - log_norm) * SCORE_ONE);
    return best == visited;
}

/* The rows' scores under the weights (NULL: the start priors), over every process's rows. */
static TunePolicyScore score(const PolicyRows *s, const float *weights, const TunePolicyOptions *o)
{
    int64_t loss = 0, evidence = 0, top1 = 0;
    const long groups = (long)s->groups;
#pragma omp parallel for schedule(static) reduction(+ : loss, evidence, top1) num_threads(threads_or_default(o->threads))
    for (long g = 0; g < groups; g++) {
        int64_t l, e;
        top1 += score_group(s, weights, (size_t)g, &l, &e);
        loss += l;
        evidence += e;
    }
    uint64_t sums[4] = {(uint64_t)loss, (uint64_t)evidence, (uint64_t)top1, (uint64_t)groups};
    if (o->mpi)
        mpi_env_sum_u64(o->mpi, sums, 4);
    const double n = sums[3] ? (double)sums[3] : NAN;
    return (TunePolicyScore){(double)(int64_t)sums[0] / SCORE_ONE / n, (double)sums[2] / n,
                             (double)(int64_t)sums[1] / SCORE_ONE / n};
}

/* ---------------------------------------------------------------- the fit */

/* The rows as the sparse fit sees them; `first` is the global index of their first group. */
static SparseData sparse_view(const PolicyRows *s, uint64_t first)
{
    return (SparseData){.rows = s->rows, .columns = s->columns, .entries = s->entries, .target = s->target,
                        .group_start = s->group_start, .groups = s->groups, .first_group = first};
}

static void log_epoch(const SparseEpoch *e, void *ctx)
{
    TunePolicyFit *out = ctx;
    if (e->epoch > TUNE_MAX_EPOCHS)
        return;
    out->epoch[e->epoch] = (TuneEpoch){e->epoch, e->train_loss, e->validation_loss, e->learning_rate, e->seconds, e->best};
    out->num_epochs = e->epoch + 1;
}

/* The eligible positions of every process's games. */
static uint64_t count_eligible(const Extract *x)
{
    uint64_t n = 0;
    for (size_t i = 0; i < x->games->count; i++)
        for (int ply = 0; ply < x->games->game[i].plies; ply++)
            n += eligible(x, &x->games->game[i], ply);
    if (x->opts->mpi)
        mpi_env_sum_u64(x->opts->mpi, &n, 1);
    return n;
}

/* Where this process's groups of each set begin in the global order (the ranks' games joined in
 * rank order), and the sets' totals over every process. */
typedef struct {
    uint64_t first[2], total[2];
} GroupPlace;

static bool place_groups(const TunePolicyOptions *o, const PolicyRows sets[2], GroupPlace *p, Error *err)
{
    *p = (GroupPlace){{0, 0}, {sets[0].groups, sets[1].groups}};
    const MpiEnv *env = o->mpi;
    if (!env || env->size <= 1)
        return true;
    uint64_t *counts = malloc((size_t)env->size * sizeof *counts);
    if (!tune_agree(env, counts != NULL, err)) {
        free(counts);
        return counts ? false : error_failed(err, "out of memory");
    }
    for (int set = 0; set < 2; set++) {
        mpi_env_gather_u64(env, sets[set].groups, counts);
        p->total[set] = 0;
        for (int r = 0; r < env->size; r++) {
            if (r == env->rank)
                p->first[set] = p->total[set];
            p->total[set] += counts[r];
        }
    }
    free(counts);
    return true;
}

static bool fit_rows(const PolicyRows sets[2], const GroupPlace *place, const TunePolicyOptions *o,
                     TunePolicyFit *out, Error *err)
{
    SparseModel model = {.num_sparse = out->size, .sparse_w = out->weights};
    SparseFitOptions so = tune_sparse_fit_defaults();
    so.l2_sparse = o->l2;
    so.learning_rate = o->learning_rate;
    so.batch_groups = o->batch;
    so.max_epochs = o->max_epochs < TUNE_MAX_EPOCHS ? o->max_epochs : TUNE_MAX_EPOCHS;
    so.patience = o->patience;
    so.threads = o->threads;
    so.mpi = o->mpi;
    uint8_t groups[POLICY_MAX_COLUMNS];
    for (int c = 0; c < POLICY_MAX_COLUMNS; c++)
        groups[c] = (uint8_t)c;
    so.column_group = groups;
    so.on_epoch = log_epoch;
    so.ctx = out;
    const SparseData tr = sparse_view(&sets[0], place->first[0]), va = sparse_view(&sets[1], place->first[1]);
    SparseFitResult r;
    if (!tune_sparse_fit(&model, &tr, &va, &so, &r))
        return error_failed(err, "out of memory fitting the priors");
    out->best_epoch = r.best_epoch;
    return true;
}

/* Every process's positions of its share of the games, into sets[0] (training) and sets[1]
 * (validation); the first error in rank order on every rank. */
static bool extract_all(Extract *x, PolicyRows sets[2], bool ok, Error *err)
{
    if (!tune_agree_first(x->opts->mpi, ok, err))
        return false;
    const uint64_t eligible_positions = count_eligible(x);
    if (eligible_positions > x->opts->max_positions)
        x->keep_fraction = (double)x->opts->max_positions / (double)eligible_positions;
    for (size_t i = 0; ok && i < x->games->count; i++)
        ok = extract_game(x, i, sets, err);
    return tune_agree_first(x->opts->mpi, ok, err);
}

/* The fit of the extracted positions, its scores before and after. */
static bool fit_sets(const Extract *x, const PolicyRows sets[2], TunePolicyFit *out, Error *err)
{
    const TunePolicyOptions *o = x->opts;
    GroupPlace place;
    if (!place_groups(o, sets, &place, err))
        return false;
    if (place.total[0] == 0)
        return error_set(err, "no positions with visit lists of %d visits or more to fit priors to", o->min_visits);
    if (x->init->policy && x->init->policy_id == x->set->id)
        memcpy(out->weights, x->init->policy, x->set->size * sizeof *out->weights);
    out->positions_train = place.total[0];
    out->positions_validation = place.total[1];
    out->train_before = score(&sets[0], NULL, o);
    out->valid_before = score(&sets[1], NULL, o);
    if (!fit_rows(sets, &place, o, out, err))
        return false;
    out->train_after = score(&sets[0], out->weights, o);
    out->valid_after = score(&sets[1], out->weights, o);
    return true;
}

bool tune_fit_policy(const Game *g, const TuneGames *games, const Weights *init, const TunePolicyOptions *o,
                     TunePolicyFit *out, Error *err)
{
    double t0 = omp_get_wtime();
    memset(out, 0, sizeof *out);
    const PolicySet *set = policy_set_of(g);
    /* alike on every rank: the game and the reading options are */
    if (!set)
        return error_set(err, "%s has no move features for learned priors", g->name);
    if (!games->keep_visits)
        return error_failed(err, "the games were read without their visit lists");
    Extract x = {g, set, games, o, init, 1.0, malloc(MAX_MOVES * sizeof(Move)), malloc(MAX_MOVES * sizeof(float))};
    PolicyRows sets[2] = {{.columns = set->columns}, {.columns = set->columns}};
    out->size = set->size;
    out->id = set->id;
    out->weights = calloc(set->size, sizeof *out->weights);
    bool ok = x.moves && x.priors && out->weights;
    if (!ok)
        error_failed(err, "out of memory for the priors");
    ok = extract_all(&x, sets, ok, err) && fit_sets(&x, sets, out, err);
    rows_free(&sets[0]);
    rows_free(&sets[1]);
    free(x.moves);
    free(x.priors);
    if (!ok) {
        free(out->weights);
        out->weights = NULL;
    }
    out->seconds = omp_get_wtime() - t0;
    return ok;
}
