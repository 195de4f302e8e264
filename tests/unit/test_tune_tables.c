/*
 * test_tune_tables.c - the fits of pattern tables and learned priors on synthetic data drawn
 * from known models: they learn (the held-out loss falls most of the way to the true model's),
 * and they give the same bits whatever the thread count.
 */
#include "core/pattern.h"
#include "core/policy.h"
#include "core/rng.h"
#include "tuner/tune.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static Game *open_reversi(TestContext *t)
{
    Error err;
    Game *g = game_new("reversi", 0, 0, &err);
    CHECK(t, g != NULL);
    return g;
}

/* ---------------------------------------------------------------- tables */

/* A hidden model: random entries in the small tables (the short diagonals, a few hundred
 * configurations that a few thousand positions visit often), every other entry 0. */
static float *hidden_tables(const PatternSet *ps)
{
    const size_t n = (size_t)ps->num_phases * ps->canonical_phase_size;
    float *c = calloc(n, sizeof *c);
    Rng rng = rng_seed(77, 0);
    for (int s = 0; s < ps->num_shapes; s++) {
        const PatternShape *shape = &ps->shape[s];
        if (strcmp(shape->name, "diag4") != 0 && strcmp(shape->name, "diag5") != 0)
            continue;
        for (int ph = 0; ph < ps->num_phases; ph++)
            for (uint32_t k = 0; k < shape->canonical_size; k++)
                c[(size_t)ph * ps->canonical_phase_size + shape->canonical_offset + k] =
                    (float)(1.2 * rng_double(&rng) - 0.6);
    }
    return c;
}

/* count positions with their features and entries, labelled 1 with probability
 * sigmoid(hidden table sum); *true_loss gets the hidden model's mean log-loss on them. */
static bool synthetic_set(const Game *g, const float *hidden, size_t count, uint64_t seed, TuneSet *s,
                          double *true_loss)
{
    const PatternSet *ps = pattern_set_of(g);
    if (!tune_set_alloc(s, g->ops->num_features, ps->num_instances, count))
        return false;
    Rng rng = rng_seed(seed, 0);
    double loss = 0;
    for (size_t i = 0; i < count; i++) {
        Position p;
        test_random_position(g, &rng, 4 + (int)(rng_next(&rng) % 50), &p);
        value_features(g, &p, s->features + i * (size_t)s->num_features);
        uint32_t *e = s->entries + i * (size_t)s->num_entries;
        pattern_canonical_entries(ps, g, &p, e);
        double z = 0;
        for (int k = 0; k < s->num_entries; k++)
            z += hidden[e[k]];
        const double prob = 1 / (1 + exp(-z));
        s->target[i] = s->result[i] = rng_double(&rng) < prob ? 1.0 : 0.0;
        loss -= s->target[i] ? log(prob) : log(1 - prob);
    }
    *true_loss = loss / (double)count;
    return true;
}

static TuneFitOptions table_options(int threads)
{
    TuneFitOptions o = tune_fit_defaults();
    o.threads = threads;
    o.max_epochs = 6;
    o.batch = 1024;
    o.l2_tables = 10;
    o.learning_rate = 0.05;
    return o;
}

static void test_tables_fit(TestContext *t)
{
    Game *g = open_reversi(t);
    const PatternSet *ps = pattern_set_of(g);
    float *hidden = hidden_tables(ps);
    TuneSet train, valid;
    double train_truth = 0, valid_truth = 0;
    CHECK(t, synthetic_set(g, hidden, 6000, 1, &train, &train_truth));
    CHECK(t, synthetic_set(g, hidden, 2000, 2, &valid, &valid_truth));
    Weights zero;
    weights_zero(g, &zero);
    TuneFit fits[3];
    Error err;
    for (int k = 0; k < 3; k++) {
        const TuneFitOptions o = table_options(k + 1);
        CHECK(t, tune_fit_tables(g, &train, &valid, &zero, &o, &fits[k], &err));
    }
    const TuneFit *f = &fits[0];
    CHECK(t, f->tables);
    CHECK(t, f->num_epochs >= 2);
    CHECK(t, f->weights.tables);
    /* Learned: the held-out loss falls from log 2 at least a third of the way to the truth's. */
    const double start = f->epoch[0].validation_loss, best = f->epoch[f->best_epoch].validation_loss;
    CHECK(t, fabs(start - log(2.0)) < 1e-6);
    CHECK(t, best < start - (start - valid_truth) / 3);
    /* The same bits with 1, 2 and 3 threads. */
    for (int k = 1; k < 3; k++) {
        CHECK(t, fits[k].best_epoch == f->best_epoch);
        CHECK(t, memcmp(fits[k].weights.w, f->weights.w, sizeof f->weights.w) == 0);
        CHECK(t, memcmp(fits[k].weights.tables, f->weights.tables, f->weights.num_tables * sizeof(float)) == 0);
    }
    for (int k = 0; k < 3; k++)
        weights_dispose(&fits[k].weights);
    tune_set_free(&train);
    tune_set_free(&valid);
    free(hidden);
    game_free(g);
}

/* The offsets of a set are its rows' table sums; sums then add them. */
static void test_set_offsets(TestContext *t)
{
    Game *g = open_reversi(t);
    const PatternSet *ps = pattern_set_of(g);
    float *hidden = hidden_tables(ps);
    TuneSet s;
    double truth = 0;
    CHECK(t, synthetic_set(g, hidden, 500, 3, &s, &truth));
    Weights w;
    weights_zero(g, &w);
    CHECK(t, weights_set_tables(&w, ps, hidden));
    Error err;
    CHECK(t, tune_set_offsets(&s, g, &w, 0, &err) && s.offset != NULL);
    /* With zero linear weights the loss is the hidden model's own. */
    const TuneLoss loss = tune_loss(&s, &w, 1);
    CHECK(t, fabs(loss.result - truth) < 1e-5);
    Weights none;
    weights_zero(g, &none);
    CHECK(t, tune_set_offsets(&s, g, &none, 0, &err) && s.offset == NULL);
    /* tables the set has no entries for: an error, never a fit without them */
    const int entries = s.num_entries;
    s.num_entries = 0;
    CHECK(t, !tune_set_offsets(&s, g, &w, 0, &err) && s.offset == NULL && strstr(err.msg, "without their table entries"));
    s.num_entries = entries;
    weights_dispose(&w);
    tune_set_free(&s);
    free(hidden);
    game_free(g);
}

/* ---------------------------------------------------------------- priors */

/* Games of random play whose every ply records 1000 visits spread by a hidden policy. */
static bool synthetic_games(const Game *g, const float *hidden, int num_games, TuneGames *games, Error *err)
{
    const PolicySet *set = policy_set_of(g);
    tune_games_init(games);
    games->keep_visits = true;
    const int source = tune_games_add_source(games, "synthetic", err);
    Rng rng = rng_seed(31, 0);
    GameRecord r;
    game_record_init(&r);
    Move moves[MAX_MOVES];
    uint32_t entries[MAX_MOVES * POLICY_MAX_COLUMNS];
    bool ok = source >= 0;
    for (int i = 0; ok && i < num_games; i++) {
        game_record_clear(&r);
        r.index = (uint64_t)i;
        r.seed = (uint64_t)i * 7;
        Position p;
        game_start(g, &p);
        game_format_position(g, &p, r.start, sizeof r.start);
        while (ok && game_status(g, &p) == STATUS_ONGOING) {
            const int n = game_gen_moves(g, &p, moves);
            set->move_entries(g, &p, moves, n, entries);
            RecordVisit visits[MAX_MOVES];
            double z[MAX_MOVES], top = -INFINITY, sum = 0;
            for (int k = 0; k < n; k++) {
                z[k] = 0;
                for (int c = 0; c < set->columns; c++)
                    z[k] += hidden[entries[k * set->columns + c]];
                top = z[k] > top ? z[k] : top;
            }
            for (int k = 0; k < n; k++)
                sum += exp(z[k] - top);
            int listed = 0;
            for (int k = 0; k < n; k++) {
                const uint32_t v = (uint32_t)lround(1000 * exp(z[k] - top) / sum);
                Error e;
                if (v > 0 && record_move_from_move(g, &p, moves[k], &visits[listed].move, &e))
                    visits[listed++].visits = v;
            }
            RecordMove played;
            Error e;
            const Move m = moves[rng_next(&rng) % (uint64_t)n];
            ok = record_move_from_move(g, &p, m, &played, &e) &&
                 game_record_add_ply(&r, played, RECORD_NO_VALUE, visits, listed, 1000);
            Undo undo;
            game_make(g, &p, m, &undo);
        }
        const GameStatus s = game_status(g, &p);
        r.result = s == STATUS_ONGOING ? STATUS_DRAW : s;
        ok = ok && tune_games_add(games, g, &r, source, err);
    }
    game_record_free(&r);
    return ok;
}

static void test_policy_fit(TestContext *t)
{
    Game *g = open_reversi(t);
    const PolicySet *set = policy_set_of(g);
    float *hidden = calloc(set->size, sizeof *hidden);
    Rng rng = rng_seed(5, 0);
    for (uint32_t i = 0; i < set->column_offset[3]; i++)    /* square, flips, replies matter */
        hidden[i] = (float)(3 * rng_double(&rng) - 1.5);
    TuneGames games;
    Error err;
    CHECK(t, synthetic_games(g, hidden, 100, &games, &err));
    TunePolicyOptions o = tune_policy_defaults();
    o.validation = 0.25;
    o.max_epochs = 8;
    o.batch = 64;
    o.learning_rate = 0.05;
    Weights start;
    weights_zero(g, &start);
    TunePolicyFit fits[2];
    for (int k = 0; k < 2; k++) {
        o.threads = k + 1;
        CHECK(t, tune_fit_policy(g, &games, &start, &o, &fits[k], &err));
    }
    const TunePolicyFit *f = &fits[0];
    CHECK(t, f->positions_train > 3000);
    CHECK(t, f->positions_validation > 500);
    CHECK(t, f->valid_after.loss < f->valid_before.loss - 0.05);
    CHECK(t, f->valid_after.top1 > f->valid_before.top1 + 0.05);
    CHECK(t, f->valid_after.evidence > f->valid_before.evidence);
    CHECK(t, memcmp(fits[1].weights, f->weights, set->size * sizeof(float)) == 0);
    /* Too few visits anywhere: refused with the reason. */
    o.min_visits = 5000;
    TunePolicyFit none;
    CHECK(t, !tune_fit_policy(g, &games, &start, &o, &none, &err) && strstr(err.msg, "5000 visits") != NULL);
    free(fits[0].weights);
    free(fits[1].weights);
    tune_games_free(&games);
    free(hidden);
    game_free(g);
}

const TestCase tune_tables_tests[] = {
    {"tables_fit", test_tables_fit},
    {"set_offsets", test_set_offsets},
    {"policy_fit", test_policy_fit},
    TEST_END,
};
