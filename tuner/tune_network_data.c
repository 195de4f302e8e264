/*
 * tune_network_data.c - the network fit's positions (tune_network_data.h): the tuner's plan of
 * which positions go where (tune_plan.c), then each game replayed by one thread, its positions'
 * inputs, skip logits, targets and visit shares written into a buffer of its own; the buffers
 * then laid end to end in row order.  Rows and each game's contents are fixed before any
 * thread runs, so the arrays do not depend on the threads.
 */
#include "tune_network_data.h"

#include "core/threads.h"
#include "tune_network_mpi.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

TuneNetworkDataOptions tune_network_data_defaults(void)
{
    const TuneDataOptions d = tune_data_defaults();
    return (TuneNetworkDataOptions){.skip_opening = d.skip_opening, .validation = d.validation, .lambda = d.lambda,
                                    .min_visits = tune_policy_defaults().min_visits, .max_sample = 20000};
}

void tune_network_set_free(TuneNetworkSet *s)
{
    free(s->input_start);
    free(s->input);
    if (!s->borrowed) {
        free(s->bucket);
        free(s->skip_value);
        free(s->target);
        free(s->result);
        free(s->move_start);
        free(s->action);
        free(s->skip_prior);
        free(s->share);
        free(s->sample_row);
        free(s->sample);
    }
    memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- one game's rows */

/* A growable array of n items of `size` bytes. */
static bool grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 256;
    while (cap2 < need)
        cap2 *= 2;
    void *p = realloc(*items, cap2 * size);
    if (!p)
        return false;
    *items = p;
    *cap = cap2;
    return true;
}

/* What one game's kept positions add to the variable-length arrays, in order. */
typedef struct {
    uint32_t *input;
    size_t inputs, input_cap;
    uint32_t *input_count;      /* per kept position */
    uint32_t *action;
    float *prior, *share;
    size_t moves, action_cap, prior_cap, share_cap;
    uint32_t *move_count;       /* per kept position */
    size_t positions, count_cap, move_count_cap;
    bool failed;                /* out of memory */
    int bad_ply;                /* a visit list named an illegal move (-1: none) */
} GameRows;

static void game_rows_free(GameRows *r)
{
    free(r->input);
    free(r->input_count);
    free(r->action);
    free(r->prior);
    free(r->share);
    free(r->move_count);
}

/* What a thread works with. */
typedef struct {
    const TunePlan *plan;
    const Weights *skip;        /* the base weights without their network */
    const Network *arch;
    const TuneNetworkDataOptions *opts;
    TuneNetworkSet *sets[2];
    GameRows *rows;             /* per game */
    size_t stride[2];           /* every stride-th row of the whole set is kept whole */
    uint64_t first[2];          /* the row of this process's first among every process's */
    uint64_t first_sample[2];   /* and the index of its first position kept whole */
    /* the thread's own */
    ValueFeatureCache *cache;
    Move *moves;
    float *priors;
    uint32_t *active;
    double *visits;
} Filler;

/* The visit shares of the moves of ply `at` (false when its list names an illegal move). */
static bool visit_shares(const Filler *f, const Position *pos, size_t at, const Move *moves, int n, double *share)
{
    const TuneGames *gs = f->plan->games;
    uint64_t sum = 0;
    for (uint16_t k = 0; k < gs->visit_count[at]; k++)
        sum += gs->visit[gs->visit_at[at] + k].visits;
    memset(share, 0, (size_t)n * sizeof *share);
    for (uint16_t k = 0; k < gs->visit_count[at]; k++) {
        const RecordVisit *v = &gs->visit[gs->visit_at[at] + k];
        char text[RECORD_MOVE_TEXT];
        Move m;
        Error why;
        if (!tune_move_notation(v->move, text) || !game_parse_move(f->plan->g, pos, text, &m, &why))
            return false;
        for (int i = 0; i < n; i++)
            if (moves[i] == m)
                share[i] += (double)v->visits / (double)sum;
    }
    return true;
}

/* Whether ply `at` gives a policy target: a visit list of enough visits. */
static bool has_policy(const Filler *f, size_t at)
{
    const TuneGames *gs = f->plan->games;
    if (!gs->keep_visits || gs->visit_count[at] == 0)
        return false;
    uint64_t sum = 0;
    for (uint16_t k = 0; k < gs->visit_count[at]; k++)
        sum += gs->visit[gs->visit_at[at] + k].visits;
    return sum >= (uint64_t)(f->opts->min_visits > 0 ? f->opts->min_visits : 1);
}

/* The moves of a position with a policy target into the game's rows; false on an illegal visit. */
static bool add_moves(Filler *f, GameRows *r, const Position *pos, size_t at, uint32_t *count)
{
    const Game *g = f->plan->g;
    const int n = has_policy(f, at) ? game_gen_moves(g, pos, f->moves) : 0;
    *count = 0;
    if (n < 2)
        return true;
    if (!visit_shares(f, pos, at, f->moves, n, f->visits))
        return false;
    value_move_priors(g, f->skip, pos, f->moves, n, f->priors);
    const size_t need = r->moves + (size_t)n;
    if (!grow((void **)&r->action, &r->action_cap, need, sizeof *r->action) ||
        !grow((void **)&r->prior, &r->prior_cap, need, sizeof *r->prior) ||
        !grow((void **)&r->share, &r->share_cap, need, sizeof *r->share)) {
        r->failed = true;
        return true;
    }
    for (int i = 0; i < n; i++) {
        const float lp = f->priors[i] > 0 ? (float)log(f->priors[i]) : TUNE_NETWORK_LOG_PRIOR_FLOOR;
        r->action[r->moves + (size_t)i] = (uint32_t)game_action_of(g, pos, f->moves[i]);
        r->prior[r->moves + (size_t)i] = lp > TUNE_NETWORK_LOG_PRIOR_FLOOR ? lp : TUNE_NETWORK_LOG_PRIOR_FLOOR;
        r->share[r->moves + (size_t)i] = (float)f->visits[i];
    }
    r->moves = need;
    *count = (uint32_t)n;
    return true;
}

/* One kept position: its fixed-size fields into its row, the rest into its game's buffer. */
static void fill_position(void *ctx, const Position *pos, size_t game, size_t ply, int validation, size_t row)
{
    Filler *f = ctx;
    GameRows *r = &f->rows[game];
    TuneNetworkSet *s = f->sets[validation];
    if (r->failed || r->bad_ply >= 0)
        return;
    const Game *g = f->plan->g;
    double result;
    s->target[row] = tune_plan_target(f->plan, game, ply, pos, &result);
    s->result[row] = (float)result;
    s->skip_value[row] = value_logit_cached(g, f->skip, f->cache, pos);
    s->bucket[row] = (uint8_t)network_bucket(f->arch, g, pos);
    const uint64_t whole_row = f->first[validation] + row, k = whole_row / f->stride[validation];
    if (whole_row % f->stride[validation] == 0 && k - f->first_sample[validation] < s->num_sample)
        s->sample[k - f->first_sample[validation]] = *pos;
    const int n = network_active_inputs(f->arch, g, pos, f->active);
    if (!grow((void **)&r->input, &r->input_cap, r->inputs + (size_t)n, sizeof *r->input) ||
        !grow((void **)&r->input_count, &r->count_cap, r->positions + 1, sizeof *r->input_count) ||
        !grow((void **)&r->move_count, &r->move_count_cap, r->positions + 1, sizeof *r->move_count)) {
        r->failed = true;
        return;
    }
    if (n > 0)
        memcpy(r->input + r->inputs, f->active, (size_t)n * sizeof *f->active);
    r->inputs += (size_t)n;
    r->input_count[r->positions] = (uint32_t)n;
    if (!add_moves(f, r, pos, ply, &r->move_count[r->positions]))
        r->bad_ply = (int)(ply - f->plan->games->game[game].first_ply);
    r->positions++;
}

/* ---------------------------------------------------------------- the sets */

static bool set_alloc(TuneNetworkSet *s, size_t count, size_t sample, int num_inputs)
{
    memset(s, 0, sizeof *s);
    const size_t n = count ? count : 1, k = sample ? sample : 1;
    s->count = count;
    s->num_inputs = num_inputs;
    s->input_start = calloc(n + 1, sizeof *s->input_start);
    s->move_start = calloc(n + 1, sizeof *s->move_start);
    s->bucket = malloc(n * sizeof *s->bucket);
    s->skip_value = malloc(n * sizeof *s->skip_value);
    s->target = malloc(n * sizeof *s->target);
    s->result = malloc(n * sizeof *s->result);
    s->num_sample = sample;
    s->sample_row = malloc(k * sizeof *s->sample_row);
    s->sample = malloc(k * sizeof *s->sample);
    return s->input_start && s->move_start && s->bucket && s->skip_value && s->target && s->result &&
           s->sample_row && s->sample;
}

/* Every stride-th row, at most max_sample of them. */
static size_t sample_stride(size_t count, size_t max_sample)
{
    if (max_sample == 0)
        return (size_t)-1;
    return count > max_sample ? (count + max_sample - 1) / max_sample : 1;
}

/* The rows below `row` kept whole. */
static size_t sample_size(uint64_t row, size_t stride)
{
    return stride == (size_t)-1 ? 0 : (size_t)((row + stride - 1) / stride);
}

/* The row counts into each set's starts (games in order: a set's rows are in game order). */
static bool lay_out(const TunePlan *plan, const GameRows *rows, TuneNetworkSet *sets[2])
{
    size_t row[2] = {0, 0};
    for (size_t i = 0; i < plan->games->count; i++) {
        TuneNetworkSet *s = sets[plan->validation[i]];
        size_t *at = &row[plan->validation[i]];
        for (size_t k = 0; k < rows[i].positions; k++, (*at)++) {
            s->input_start[*at + 1] = s->input_start[*at] + rows[i].input_count[k];
            s->move_start[*at + 1] = s->move_start[*at] + rows[i].move_count[k];
            s->with_policy += rows[i].move_count[k] > 0;
        }
    }
    for (int v = 0; v < 2; v++) {
        TuneNetworkSet *s = sets[v];
        const size_t inputs = s->input_start[s->count], moves = s->move_start[s->count];
        s->input = malloc((inputs ? inputs : 1) * sizeof *s->input);
        s->action = malloc((moves ? moves : 1) * sizeof *s->action);
        s->skip_prior = malloc((moves ? moves : 1) * sizeof *s->skip_prior);
        s->share = malloc((moves ? moves : 1) * sizeof *s->share);
        if (!s->input || !s->action || !s->skip_prior || !s->share)
            return false;
    }
    return true;
}

/* Game i's buffer into its rows. */
static void copy_game(const TunePlan *plan, const GameRows *r, size_t i, TuneNetworkSet *sets[2])
{
    TuneNetworkSet *s = sets[plan->validation[i]];
    const size_t row = plan->first_row[i];
    if (r->inputs)
        memcpy(s->input + s->input_start[row], r->input, r->inputs * sizeof *r->input);
    if (r->moves == 0)      /* no buffer was grown for them */
        return;
    const size_t m = s->move_start[row];
    if (r->moves) {
        memcpy(s->action + m, r->action, r->moves * sizeof *r->action);
        memcpy(s->skip_prior + m, r->prior, r->moves * sizeof *r->prior);
        memcpy(s->share + m, r->share, r->moves * sizeof *r->share);
    }
}

/* ---------------------------------------------------------------- all of it */

static bool filler_init(Filler *f)
{
    f->cache = value_feature_cache_new(f->plan->g);
    f->moves = malloc(MAX_MOVES * sizeof *f->moves);
    f->priors = malloc(MAX_MOVES * sizeof *f->priors);
    f->visits = malloc(MAX_MOVES * sizeof *f->visits);
    f->active = malloc(NETWORK_MAX_ACTIVE * sizeof *f->active);
    return f->cache && f->moves && f->priors && f->visits && f->active;
}

static void filler_free(Filler *f)
{
    value_feature_cache_free(f->cache);
    free(f->moves);
    free(f->priors);
    free(f->visits);
    free(f->active);
}

/* Every game into its buffer, each by one thread; false when memory runs out. */
static bool fill_all(const Filler *shared, int threads)
{
    const long n = (long)shared->plan->games->count;
    bool ok = true;
#pragma omp parallel num_threads(threads) reduction(&& : ok)
    {
        Filler f = *shared;
        ok = filler_init(&f);
#pragma omp for schedule(dynamic, 4)
        for (long i = 0; i < n; i++)
            if (ok)
                tune_plan_game(f.plan, (size_t)i, fill_position, &f);
        filler_free(&f);
    }
    for (long i = 0; ok && i < n; i++)
        ok = !shared->rows[i].failed;
    return ok;
}

/* The first game (in order) whose visit list names an illegal move. */
static bool check_visits(const TunePlan *plan, const GameRows *rows, Error *err)
{
    for (size_t i = 0; i < plan->games->count; i++)
        if (rows[i].bad_ply >= 0) {
            const TuneGame *tg = &plan->games->game[i];
            return error_set(err, "%s: game %llu, ply %d: the visit list names a move that is not legal there",
                             plan->games->source[tg->source].name, (unsigned long long)tg->index, rows[i].bad_ply + 1);
        }
    return true;
}

static void note_samples(TuneNetworkSet *s, uint64_t first_sample, size_t stride)
{
    for (size_t k = 0; k < s->num_sample; k++)
        s->sample_row[k] = (first_sample + k) * stride;
}

/* The sets of the plan's rows, filled. */
static bool fill_sets(const TunePlan *plan, const Filler *shared, const TuneDataStats *stats, int threads,
                      Error *err)
{
    TuneNetworkSet *const *sets = shared->sets;
    const size_t counts[2] = {stats->positions_train, stats->positions_validation};
    for (int v = 0; v < 2; v++)
        if (!set_alloc(sets[v], counts[v],
                       sample_size(shared->first[v] + counts[v], shared->stride[v]) - shared->first_sample[v],
                       shared->arch->num_inputs))
            return error_failed(err, "out of memory for %zu positions", counts[v]);
    if (!fill_all(shared, threads))
        return error_failed(err, "out of memory reading the network's positions");
    if (!check_visits(plan, shared->rows, err))
        return false;
    if (!lay_out(plan, shared->rows, (TuneNetworkSet **)sets))
        return error_failed(err, "out of memory for the network's inputs");
    const long n = (long)plan->games->count;
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
    for (long i = 0; i < n; i++)
        copy_game(plan, &shared->rows[i], (size_t)i, (TuneNetworkSet **)sets);
    for (int v = 0; v < 2; v++)
        note_samples(sets[v], shared->first_sample[v], shared->stride[v]);
    return true;
}

/* Over several processes: where this one's rows of each set begin among everyone's, and the
 * sets' totals (the whole sets' sample strides follow from them). */
static bool place_sets(const MpiEnv *env, const TuneDataStats *stats, uint64_t first[2], uint64_t total[2],
                       Error *err)
{
    return (tune_network_place(env, stats->positions_train, &first[0], &total[0]) &&
            tune_network_place(env, stats->positions_validation, &first[1], &total[1])) ||
           error_failed(err, "out of memory placing the positions of the processes");
}

/* This process's rows of a set replaced by the whole set (collective). */
static bool gather_set(const MpiEnv *env, TuneNetworkSet *set, size_t stride)
{
    TuneNetworkSet whole;
    if (!tune_network_set_gather(env, set, stride, &whole))
        return false;
    tune_network_set_free(set);
    *set = whole;
    return true;
}

/* Over several processes, after each filled its rows: every one's failure agreed on, then the
 * whole sets on every process and the counts of all the data. */
static bool gather_sets(const MpiEnv *env, bool ok, TuneNetworkSet *sets[2], const size_t stride[2],
                        TuneDataStats *stats, Error *err)
{
    const double t = omp_get_wtime();
    ok = tune_agree(env, ok, err);
    if (ok && !(gather_set(env, sets[0], stride[0]) && gather_set(env, sets[1], stride[1])))
        ok = error_failed(err, "out of memory gathering the positions of the processes");
    if (ok)
        tune_sum_stats(env, stats);
    stats->seconds_exchange += omp_get_wtime() - t;
    return ok;
}

bool tune_network_data(const Game *g, const TuneGames *games, const Weights *base, const Network *arch,
                       const TuneNetworkDataOptions *opts, TuneNetworkSet *train, TuneNetworkSet *validation,
                       TuneDataStats *stats, Error *err)
{
    memset(train, 0, sizeof *train);
    memset(validation, 0, sizeof *validation);
    memset(stats, 0, sizeof *stats);
    if (!network_fits(arch, g, err))
        return false;
    TuneDataOptions d = tune_data_defaults();
    d.skip_opening = opts->skip_opening > 0 ? opts->skip_opening : 0;
    d.validation = opts->validation;
    d.lambda = opts->lambda;
    d.threads = threads_or_default(opts->threads);
    d.mpi = opts->mpi;
    const bool spread = opts->mpi && opts->mpi->size > 1;
    Weights skip = *base;   /* the skip path: the base weights as they evaluate without a network */
    skip.net = NULL;
    const double t0 = omp_get_wtime();
    TunePlan plan;
    /* a plan fails on every process alike, and so does the placing: all return, or go on */
    const bool planned = tune_plan(g, games, &d, &plan, stats, err);
    uint64_t first[2] = {0, 0}, total[2] = {stats->positions_train, stats->positions_validation};
    bool ok = planned && (!spread || place_sets(opts->mpi, stats, first, total, err));
    const bool placed = ok;
    const double t1 = omp_get_wtime();
    GameRows *rows = ok ? calloc(games->count ? games->count : 1, sizeof *rows) : NULL;
    if (ok && !rows)
        ok = error_failed(err, "out of memory for %zu games", games->count);
    for (size_t i = 0; rows && i < games->count; i++)
        rows[i].bad_ply = -1;
    const size_t stride[2] = {sample_stride(total[0], opts->max_sample), sample_stride(total[1], opts->max_sample)};
    Filler shared = {.plan = &plan, .skip = &skip, .arch = arch, .opts = opts, .sets = {train, validation},
                     .rows = rows, .stride = {stride[0], stride[1]}, .first = {first[0], first[1]},
                     .first_sample = {sample_size(first[0], stride[0]), sample_size(first[1], stride[1])}};
    ok = ok && fill_sets(&plan, &shared, stats, d.threads, err);
    stats->seconds_features = omp_get_wtime() - t1;
    if (spread && placed)
        ok = gather_sets(opts->mpi, ok, (TuneNetworkSet *[2]){train, validation}, stride, stats, err);
    stats->seconds = omp_get_wtime() - t0;
    for (size_t i = 0; rows && i < games->count; i++)
        game_rows_free(&rows[i]);
    free(rows);
    tune_plan_free(&plan);
    return ok;
}

bool tune_network_set_select(const TuneNetworkSet *src, uint32_t first, uint32_t end, TuneNetworkSet *dst)
{
    *dst = *src;
    dst->borrowed = true;
    dst->num_inputs = (int)(end - first);
    dst->input_start = malloc((src->count + 1) * sizeof *dst->input_start);
    size_t kept = 0;
    for (size_t k = 0; k < src->input_start[src->count]; k++)
        kept += src->input[k] >= first && src->input[k] < end;
    dst->input = malloc((kept ? kept : 1) * sizeof *dst->input);
    if (!dst->input_start || !dst->input) {
        tune_network_set_free(dst);
        return false;
    }
    size_t n = 0;
    dst->input_start[0] = 0;
    for (size_t i = 0; i < src->count; i++) {
        for (uint64_t k = src->input_start[i]; k < src->input_start[i + 1]; k++)
            if (src->input[k] >= first && src->input[k] < end)
                dst->input[n++] = src->input[k] - first;
        dst->input_start[i + 1] = n;
    }
    return true;
}
