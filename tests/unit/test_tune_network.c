/*
 * test_tune_network.c - the network's fit (tuner/tune_network_data.h, tuner/tune_network.h).
 * The positions equal a plain sequential reading (replay, skip, first occurrences, the split by
 * game, inputs, bucket, skip logits, targets, visit shares), with any thread count; a set read
 * for both input sets gives each part by selection; every gradient of one position's pass
 * agrees with a finite difference of its loss; a fit is the same bits on 1, 2 and 3 threads, and
 * learns a teacher network's predictions; a network fitted from zero changes nothing until its
 * heads move (the skip path evaluates as the weights file alone).
 */
#include "core/pattern.h"
#include "data/weights.h"
#include "record_sample.h"
#include "test.h"
#include "tuner/tune_network_pass.h"

#include <math.h>
#include <stdlib.h>

enum { NUM_GAMES = 30 };

static const SampleOptions SAMPLE = {true, true, 60, true};
/* Long games: captures enough to reach every value bucket (the phase is the stones left). */
static const SampleOptions LONG = {true, true, 400, true};

typedef struct {
    Game *g;
    TuneGames games;
    Weights base;
    GameRecord recs[NUM_GAMES];
} Data;

static bool data_open_with(TestContext *t, Data *d, int games, const SampleOptions *sample)
{
    Error err;
    memset(d, 0, sizeof *d);
    d->g = game_new("crossings", 8, 8, &err);
    CHECK(t, d->g != NULL);
    if (!d->g)
        return false;
    tune_games_init(&d->games);
    d->games.keep_visits = true;
    bool ok = weights_default(d->g, &d->base);
    weights_drop_network(&d->base);     /* the shipped Crossings file has one: these tests start from zero */
    int source = tune_games_add_source(&d->games, "memory", &err);
    ok = ok && source >= 0;
    for (int i = 0; i < games; i++)
        game_record_init(&d->recs[i]);
    for (int i = 0; ok && i < games; i++)
        ok = sample_game(d->g, 21, (uint64_t)i, sample, &d->recs[i]) &&
             tune_games_add(&d->games, d->g, &d->recs[i], source, &err);
    CHECK(t, ok);
    return ok;
}

static bool data_open(TestContext *t, Data *d, int games) { return data_open_with(t, d, games, &SAMPLE); }

static void data_close(Data *d)
{
    for (int i = 0; i < NUM_GAMES; i++)
        game_record_free(&d->recs[i]);
    tune_games_free(&d->games);
    weights_dispose(&d->base);
    game_free(d->g);
}

static TuneNetworkDataOptions data_options(int threads)
{
    TuneNetworkDataOptions o = tune_network_data_defaults();
    o.skip_opening = 2;
    o.validation = 0.25;
    o.threads = threads;
    o.max_sample = 50;
    return o;
}

/* ---------------------------------------------------------------- the reference */

typedef struct {
    size_t rows[2], inputs[2], moves[2];
    uint64_t *seen;
    size_t num_seen;
    int bad;
} Reference;

static bool seen_before(Reference *r, uint64_t h)
{
    for (size_t i = 0; i < r->num_seen; i++)
        if (r->seen[i] == h)
            return true;
    r->seen[r->num_seen++] = h;
    return false;
}

/* The expected moves of one position against the set's. */
static void check_moves(Reference *r, const Data *d, const GameRecord *rec, int ply, const Position *pos,
                        const TuneNetworkSet *s, size_t row, int v)
{
    Move moves[MAX_MOVES];
    float priors[MAX_MOVES];
    Weights skip = d->base;
    const RecordPly *rp = &rec->ply[ply];
    const RecordVisit *visit = rec->visit + rp->first_visit;
    uint64_t sum = 0;
    for (uint32_t k = 0; k < rp->num_visits; k++)
        sum += visit[k].visits;
    const int n = sum >= 50 ? game_gen_moves(d->g, pos, moves) : 0;
    const size_t count = n >= 2 ? (size_t)n : 0;
    if (s->move_start[row + 1] - s->move_start[row] != count || s->move_start[row] != r->moves[v]) {
        r->bad++;
        return;
    }
    if (count)
        value_move_priors(d->g, &skip, pos, moves, n, priors);
    for (size_t i = 0; i < count; i++) {
        const size_t at = r->moves[v] + i;
        double share = 0;
        for (uint32_t k = 0; k < rp->num_visits; k++) {
            Move m;
            Error err;
            if (record_move_to_move(d->g, pos, visit[k].move, &m, &err) && m == moves[i])
                share += (double)visit[k].visits / (double)sum;
        }
        const float lp = priors[i] > 0 ? (float)log(priors[i]) : TUNE_NETWORK_LOG_PRIOR_FLOOR;
        r->bad += s->action[at] != (uint32_t)game_action_of(d->g, pos, moves[i]) ||
                  s->skip_prior[at] != (lp > TUNE_NETWORK_LOG_PRIOR_FLOOR ? lp : TUNE_NETWORK_LOG_PRIOR_FLOOR) ||
                  s->share[at] != (float)share;
    }
    r->moves[v] += count;
}

/* One kept position against its row. */
static void check_row(Reference *r, const Data *d, const Network *arch, const GameRecord *rec, int ply,
                      const Position *pos, TuneNetworkSet *sets[2], int v)
{
    const TuneNetworkSet *s = sets[v];
    const size_t row = r->rows[v];
    uint32_t active[NETWORK_MAX_ACTIVE];
    const int n = network_active_inputs(arch, d->g, pos, active);
    r->bad += s->input_start[row] != r->inputs[v] || s->input_start[row + 1] - s->input_start[row] != (uint64_t)n;
    for (int k = 0; k < n && !r->bad; k++)
        r->bad += s->input[r->inputs[v] + (size_t)k] != active[k];
    r->inputs[v] += (size_t)n;
    const double result = rec->result == STATUS_DRAW ? 0.5
                          : (rec->result == STATUS_WHITE_WINS) == (game_side_to_move(d->g, pos) == WHITE) ? 1.0 : 0.0;
    const double value = record_value_double(rec->ply[ply].value);
    r->bad += s->target[row] != (isnan(value) ? result : 0.5 * result + 0.5 * value) || s->result[row] != result;
    r->bad += s->skip_value[row] != value_logit(d->g, &d->base, pos);
    r->bad += s->bucket[row] != network_bucket(arch, d->g, pos);
    check_moves(r, d, rec, ply, pos, s, row, v);
    r->rows[v]++;
}

/* Replays every game ply by ply and checks each kept position. */
static void check_against_reference(TestContext *t, const Data *d, const Network *arch, TuneNetworkSet *sets[2],
                                    int skip)
{
    Reference r = {.seen = malloc(100000 * sizeof(uint64_t))};
    for (int i = 0; i < NUM_GAMES && r.seen; i++) {
        const GameRecord *rec = &d->recs[i];
        const int v = tune_in_validation(rec->index, rec->seed, 0.25);
        Position pos;
        Error err;
        CHECK(t, game_parse_position(d->g, rec->start, &pos, &err));
        for (int ply = 0; ply < rec->plies; ply++) {
            if (ply >= skip && !seen_before(&r, game_hash(d->g, &pos)))
                check_row(&r, d, arch, rec, ply, &pos, sets, v);
            Move m;
            CHECK(t, record_move_to_move(d->g, &pos, rec->ply[ply].move, &m, &err));
            Undo u;
            game_make(d->g, &pos, m, &u);
        }
    }
    CHECK(t, r.bad == 0);
    for (int v = 0; v < 2; v++) {
        CHECK_EQ_U64(t, sets[v]->count, r.rows[v]);
        CHECK_EQ_U64(t, sets[v]->input_start[sets[v]->count], r.inputs[v]);
        CHECK_EQ_U64(t, sets[v]->move_start[sets[v]->count], r.moves[v]);
    }
    CHECK(t, sets[0]->with_policy > 0);
    CHECK(t, sets[1]->count > 0);
    free(r.seen);
}

static bool same_sets(const TuneNetworkSet *a, const TuneNetworkSet *b)
{
    const size_t n = a->count, in = a->input_start[n], mv = a->move_start[n];
    return n == b->count && in == b->input_start[n] && mv == b->move_start[n] && a->num_sample == b->num_sample &&
           !memcmp(a->input_start, b->input_start, (n + 1) * 8) && !memcmp(a->input, b->input, in * 4) &&
           !memcmp(a->bucket, b->bucket, n) && !memcmp(a->skip_value, b->skip_value, n * 8) &&
           !memcmp(a->target, b->target, n * 8) && !memcmp(a->move_start, b->move_start, (n + 1) * 8) &&
           !memcmp(a->action, b->action, mv * 4) && !memcmp(a->skip_prior, b->skip_prior, mv * 4) &&
           !memcmp(a->share, b->share, mv * 4) && !memcmp(a->sample_row, b->sample_row, a->num_sample * 8) &&
           !memcmp(a->sample, b->sample, a->num_sample * sizeof(Position));
}

static void test_data_matches_reference(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, NUM_GAMES))
        return;
    Network arch;
    Error err;
    CHECK(t, network_init(&arch, d.g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
    TuneNetworkSet a[2], b[2];
    TuneDataStats stats;
    for (int threads = 1; threads <= 3; threads += 2) {
        TuneNetworkDataOptions o = data_options(threads);
        TuneNetworkSet *sets = threads == 1 ? a : b;
        CHECK(t, tune_network_data(d.g, &d.games, &d.base, &arch, &o, &sets[0], &sets[1], &stats, &err));
    }
    check_against_reference(t, &d, &arch, (TuneNetworkSet *[]){&a[0], &a[1]}, 2);
    CHECK(t, same_sets(&a[0], &b[0]) && same_sets(&a[1], &b[1]));
    CHECK(t, a[0].num_sample == 50);
    if (a[0].num_sample == 50)
        CHECK(t, a[0].sample_row[1] > 1);
    for (int v = 0; v < 2; v++) {
        tune_network_set_free(&a[v]);
        tune_network_set_free(&b[v]);
    }
    network_free(&arch);
    data_close(&d);
}

/* Each input set's positions read alone equal their part of a set read for both. */
static void test_select_equals_reading(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, 12))
        return;
    Network both, patterns, squares;
    Error err;
    CHECK(t, network_init(&both, d.g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
    CHECK(t, network_init(&patterns, d.g, NETWORK_PATTERNS, 0, 16, &err));
    CHECK(t, network_init(&squares, d.g, NETWORK_SQUARES, 0, 16, &err));
    TuneNetworkDataOptions o = data_options(2);
    TuneNetworkSet all[2], alone[2], part;
    TuneDataStats stats;
    CHECK(t, tune_network_data(d.g, &d.games, &d.base, &both, &o, &all[0], &all[1], &stats, &err));
    const Network *nets[2] = {&patterns, &squares};
    for (int k = 0; k < 2; k++) {
        const uint32_t first = k ? (uint32_t)patterns.num_inputs : 0;
        CHECK(t, tune_network_data(d.g, &d.games, &d.base, nets[k], &o, &alone[0], &alone[1], &stats, &err));
        CHECK(t, tune_network_set_select(&all[0], first, first + (uint32_t)nets[k]->num_inputs, &part));
        CHECK(t, part.num_inputs == nets[k]->num_inputs);
        if (part.num_inputs == nets[k]->num_inputs)
            CHECK(t, same_sets(&part, &alone[0]));
        tune_network_set_free(&part);
        tune_network_set_free(&alone[0]);
        tune_network_set_free(&alone[1]);
    }
    tune_network_set_free(&all[0]);
    tune_network_set_free(&all[1]);
    network_free(&both);
    network_free(&patterns);
    network_free(&squares);
    data_close(&d);
}

/* ---------------------------------------------------------------- the pass's gradients */

static double loss_at(const Network *net, const TuneNetworkSet *s, size_t i)
{
    float h1[NETWORK_MAX_H];
    double dl[MAX_MOVES];
    NetworkPass p = {.h1 = h1, .dl = dl};
    tune_network_pass(net, s, i, 0.7, false, &p);
    return p.value_loss + 0.7 * p.policy_loss;
}

/* d loss / d w by a central difference. */
static double numeric(const Network *net, const TuneNetworkSet *s, size_t i, float *w)
{
    const float keep = *w, eps = 1e-2f;
    *w = keep + eps;
    const double up = loss_at(net, s, i);
    *w = keep - eps;
    const double down = loss_at(net, s, i);
    *w = keep;
    return (up - down) / (2.0 * eps);
}

static bool near(double a, double b) { return fabs(a - b) <= 2e-3 + 2e-2 * fabs(b); }

static void check_gradients(TestContext *t, Network *net, const TuneNetworkSet *s, size_t i)
{
    float h1[NETWORK_MAX_H], da[NETWORK_MAX_H];
    double dl[MAX_MOVES];
    NetworkPass p = {.h1 = h1, .da = da, .dl = dl};
    tune_network_pass(net, s, i, 0.7, true, &p);
    const int b = s->bucket[i], h = net->h;
    const uint64_t m0 = s->move_start[i];
    const uint32_t input = s->input[s->input_start[i]], a = s->action[m0];
    int bad = 0;
    for (int u = 0; u < h; u++) {
        bad += !near(numeric(net, s, i, &net->b1[u]), da[u]);
        bad += !near(numeric(net, s, i, &net->w1[(size_t)input * (size_t)h + (size_t)u]), da[u]);
    }
    for (int k = 0; k < NETWORK_L2; k++) {
        bad += !near(numeric(net, s, i, &net->wv[b * NETWORK_L2 + k]), p.dv * p.h2[k]);
        bad += !near(numeric(net, s, i, &net->b2[k]), p.dz2[k]);
        bad += !near(numeric(net, s, i, &net->w2[3 * NETWORK_L2 + k]), h1[3] * p.dz2[k]);
        bad += !near(numeric(net, s, i, &net->we[(size_t)a * NETWORK_L2 + (size_t)k]), p.dl[0] * p.h2[k]);
    }
    bad += !near(numeric(net, s, i, &net->bv[b]), p.dv);
    bad += !near(numeric(net, s, i, &net->be[a]), p.dl[0]);
    CHECK(t, bad == 0);
}

static void test_pass_gradients(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, 8))
        return;
    Network net;
    Error err;
    CHECK(t, network_init(&net, d.g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
    network_randomize(&net, 3, true);
    for (size_t i = 0; i < (size_t)net.num_inputs * 16; i++)
        net.w1[i] *= 4;     /* units that are neither all off nor all at 1 */
    TuneNetworkDataOptions o = data_options(1);
    TuneNetworkSet s[2];
    TuneDataStats stats;
    CHECK(t, tune_network_data(d.g, &d.games, &d.base, &net, &o, &s[0], &s[1], &stats, &err));
    int checked = 0;
    for (size_t i = 0; i < s[0].count && checked < 3; i += 7)
        if (s[0].move_start[i + 1] > s[0].move_start[i]) {
            check_gradients(t, &net, &s[0], i);
            checked++;
        }
    CHECK(t, checked == 3);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    network_free(&net);
    data_close(&d);
}

/* ---------------------------------------------------------------- the fit */

static TuneNetworkFitOptions fit_options(int threads)
{
    TuneNetworkFitOptions o = tune_network_fit_defaults();
    o.threads = threads;
    o.batch = 64;
    o.max_epochs = 4;
    o.learning_rate = 0.01;
    return o;
}

static bool same_floats(Network *a, Network *b)
{
    float **x[NETWORK_ARRAYS], **y[NETWORK_ARRAYS];
    size_t n[NETWORK_ARRAYS];
    network_arrays(b, y, n);
    bool same = true;
    for (int k = 0, count = network_arrays(a, x, n); k < count; k++)
        same = same && memcmp(*x[k], *y[k], n[k] * sizeof(float)) == 0;
    return same;
}

static void test_fit_threads_same_bits(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, NUM_GAMES))
        return;
    Network nets[3];
    Error err;
    TuneNetworkSet s[2];
    TuneDataStats stats;
    TuneNetworkFit *fit = malloc(sizeof *fit);
    CHECK(t, network_init(&nets[0], d.g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
    TuneNetworkDataOptions o = data_options(2);
    CHECK(t, tune_network_data(d.g, &d.games, &d.base, &nets[0], &o, &s[0], &s[1], &stats, &err));
    network_free(&nets[0]);
    CHECK(t, s[0].count > 768);
    if (s[0].count > 768)
        CHECK(t, s[0].count % 768 > 256);  /* a whole batch and a part of one */
    double losses[3] = {0};
    for (int k = 0; k < 3 && fit; k++) {
        CHECK(t, network_init(&nets[k], d.g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
        network_randomize(&nets[k], 1, false);
        TuneNetworkFitOptions fo = fit_options(k + 1);
        fo.batch = 768;     /* 256 positions a thread: 3 threads share a batch's steps */
        CHECK(t, tune_network_fit(d.g, &nets[k], &s[0], &s[1], &fo, fit, &err));
        losses[k] = fit->valid_after.total;
        CHECK(t, fit->num_epochs >= 2);
        if (fit->num_epochs >= 2)
            CHECK(t, fit->epoch[1].train.value > 0);
    }
    CHECK(t, same_floats(&nets[0], &nets[1]) && same_floats(&nets[0], &nets[2]));
    CHECK(t, losses[0] == losses[1]);
    CHECK(t, losses[0] == losses[2]);
    CHECK(t, nets[0].shift1 == nets[2].shift1);
    if (nets[0].shift1 == nets[2].shift1)
        CHECK(t, !memcmp(nets[0].q_w1, nets[2].q_w1, (size_t)nets[0].num_inputs * 32));
    for (int k = 0; k < 3; k++)
        network_free(&nets[k]);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    free(fit);
    data_close(&d);
}

/* The reference gradient of the mean loss over a whole set, one position at a time in double. */
static double *reference_gradient(Network *net, const TuneNetworkSet *s, size_t *offset)
{
    float **w[NETWORK_ARRAYS];
    size_t n[NETWORK_ARRAYS], total = 0;
    const int arrays = network_arrays(net, w, n);
    for (int a = 0; a < arrays; a++) {
        offset[a] = total;
        total += n[a];
    }
    double *g = calloc(total, sizeof *g);
    float h1[NETWORK_MAX_H], da[NETWORK_MAX_H];
    double dl[MAX_MOVES];
    const size_t h = (size_t)net->h;
    for (size_t i = 0; g && i < s->count; i++) {
        NetworkPass p = {.h1 = h1, .da = da, .dl = dl};
        tune_network_pass(net, s, i, 1.0, true, &p);
        const size_t b = s->bucket[i];
        for (uint64_t k = s->input_start[i]; k < s->input_start[i + 1]; k++)
            for (size_t u = 0; u < h; u++)
                g[offset[0] + s->input[k] * h + u] += da[u];
        for (size_t u = 0; u < h; u++) {
            g[offset[1] + u] += da[u];
            for (size_t k = 0; k < NETWORK_L2; k++)
                g[offset[2] + u * NETWORK_L2 + k] += (double)h1[u] * p.dz2[k];
        }
        for (size_t k = 0; k < NETWORK_L2; k++) {
            g[offset[3] + k] += p.dz2[k];
            g[offset[4] + b * NETWORK_L2 + k] += p.dv * p.h2[k];
        }
        g[offset[5] + b] += p.dv;
        for (uint64_t m = s->move_start[i]; m < s->move_start[i + 1]; m++) {
            const size_t a = s->action[m];
            for (size_t k = 0; k < NETWORK_L2; k++)
                g[offset[6] + a * NETWORK_L2 + k] += dl[m - s->move_start[i]] * p.h2[k];
            g[offset[7] + a] += dl[m - s->move_start[i]];
        }
    }
    return g;
}

/* One batch of the whole set, one Adam step from zero moments: each weight moves by the rate
 * against its gradient's sign (Adam's first step), and a row no position touched not at all. */
static void test_first_step_follows_gradient(TestContext *t)
{
    Data d;
    if (!data_open_with(t, &d, 6, &LONG))
        return;
    Network net, before;
    Error err;
    CHECK(t, network_init(&net, d.g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, 16, &err));
    network_randomize(&net, 3, true);
    for (size_t i = 0; i < (size_t)net.num_inputs * 16; i++)
        net.w1[i] *= 4;
    TuneNetworkDataOptions o = data_options(1);
    o.validation = 0;
    TuneNetworkSet s[2];
    TuneDataStats stats;
    CHECK(t, tune_network_data(d.g, &d.games, &d.base, &net, &o, &s[0], &s[1], &stats, &err));
    size_t offset[NETWORK_ARRAYS];
    double *g = reference_gradient(&net, &s[0], offset);
    CHECK(t, g);
    if (g)
        CHECK(t, network_copy(&before, &net));
    TuneNetworkFitOptions fo = fit_options(2);
    fo.batch = s[0].count;
    fo.max_epochs = 1;
    fo.l2 = 0;
    TuneNetworkFit *fit = malloc(sizeof *fit);
    CHECK(t, fit);
    if (fit)
        CHECK(t, tune_network_fit(d.g, &net, &s[0], &s[1], &fo, fit, &err));
    float **w[NETWORK_ARRAYS], **w0[NETWORK_ARRAYS];
    size_t n[NETWORK_ARRAYS];
    network_arrays(&before, w0, n);
    int bad = 0, moved = 0, still = 0;
    for (int a = 0, arrays = network_arrays(&net, w, n); g && a < arrays; a++)
        for (size_t i = 0; i < n[a]; i++) {
            const double grad = g[offset[a] + i] / (double)s[0].count, step = (*w[a])[i] - (*w0[a])[i];
            if (grad == 0) {
                bad += step != 0;
                still += a == 0;
            } else if (fabs(grad) > 1e-4) {
                /* lr g / (|g| + eps / sqrt(1 - beta2)): Adam's first step */
                const double expected = -fo.learning_rate * grad / (fabs(grad) + 1e-8 / sqrt(0.001));
                bad += fabs(step - expected) > 1e-3 * fo.learning_rate;
                moved++;
            }
        }
    int buckets[NETWORK_MAX_BUCKETS] = {0}, used = 0;
    for (size_t i = 0; i < s[0].count; i++)
        used += buckets[s[0].bucket[i]]++ == 0;
    CHECK(t, bad == 0);
    CHECK(t, moved > 1000);
    CHECK(t, still > 1000);
    CHECK(t, used >= 2);
    free(g);
    free(fit);
    network_free(&net);
    network_free(&before);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    data_close(&d);
}

/* The targets of a set replaced by a teacher's predictions (value and priors). */
static void teach(const Network *teacher, TuneNetworkSet *s)
{
    float h1[NETWORK_MAX_H];
    double dl[MAX_MOVES];
    for (size_t i = 0; i < s->count; i++) {
        NetworkPass p = {.h1 = h1, .dl = dl};
        s->target[i] = 0;
        for (uint64_t m = s->move_start[i]; m < s->move_start[i + 1]; m++)
            s->share[m] = 0;
        tune_network_pass(teacher, s, i, 1.0, false, &p);
        s->target[i] = p.dv;    /* sigmoid(logit) - 0 */
        for (uint64_t m = s->move_start[i]; m < s->move_start[i + 1]; m++)
            s->share[m] = (float)dl[m - s->move_start[i]];
    }
}

/* The sets of d's positions with a random teacher's targets (the values put back to what the file
 * alone predicts where values_from_file); the teacher is the caller's to free. */
static void teacher_sets(TestContext *t, Data *d, Network *teacher, TuneNetworkSet s[2], bool values_from_file)
{
    Error err;
    TuneDataStats stats;
    CHECK(t, network_init(teacher, d->g, NETWORK_SQUARES, 0, 16, &err));
    network_randomize(teacher, 9, true);
    TuneNetworkDataOptions o = data_options(2);
    CHECK(t, tune_network_data(d->g, &d->games, &d->base, teacher, &o, &s[0], &s[1], &stats, &err));
    for (int k = 0; k < 2; k++) {
        teach(teacher, &s[k]);
        for (size_t i = 0; values_from_file && i < s[k].count; i++)
            s[k].target[i] = 1.0 / (1.0 + exp(-s[k].skip_value[i]));
    }
}

static void test_fit_learns_teacher(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, NUM_GAMES))
        return;
    Network teacher, net;
    Error err;
    TuneNetworkSet s[2];
    teacher_sets(t, &d, &teacher, s, false);
    const TuneNetworkLoss floor = tune_network_loss(&teacher, &s[1], 1.0, 2);
    CHECK(t, network_init(&net, d.g, NETWORK_SQUARES, 0, 16, &err));
    network_randomize(&net, 1, false);
    TuneNetworkFitOptions fo = fit_options(2);
    fo.max_epochs = 30;
    fo.learning_rate = 0.02;
    TuneNetworkFit *fit = malloc(sizeof *fit);
    CHECK(t, fit);
    if (fit)
        CHECK(t, tune_network_fit(d.g, &net, &s[0], &s[1], &fo, fit, &err));
    if (fit) {
        /* most of the way from the start to the teacher's own loss (the targets' entropy) */
        const double before = fit->valid_before.total, after = fit->valid_after.total;
        CHECK(t, after < floor.total + 0.3 * (before - floor.total));
        CHECK(t, fit->best_epoch > 0);
        CHECK(t, fit->valid_after.value < fit->valid_before.value);
        /* the teacher's values are learnable: the value head pays and is kept */
        CHECK(t, !fit->value_head_dropped);
        CHECK(t, !net.priors_only);
        if (!net.priors_only)
            CHECK(t, fit->value_without - fit->value_with >= TUNE_NETWORK_VALUE_GAIN);
        CHECK(t, fit->sample_positions > 0);
        CHECK(t, fabs(fit->sample_quantized.value - fit->sample_float.value) < 0.05);
    }
    free(fit);
    network_free(&teacher);
    network_free(&net);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    data_close(&d);
}

/* Value targets the skip path already predicts leave the value head nothing to learn: the fit
 * drops it (the search then pays no network at a leaf) and keeps the priors' correction. */
static void test_value_head_dropped_when_it_saves_nothing(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, NUM_GAMES))
        return;
    Network teacher, net;
    Error err;
    TuneNetworkSet s[2];
    teacher_sets(t, &d, &teacher, s, true);
    CHECK(t, network_init(&net, d.g, NETWORK_SQUARES, 0, 16, &err));
    network_randomize(&net, 1, false);
    TuneNetworkFitOptions fo = fit_options(2);
    fo.max_epochs = 10;
    TuneNetworkFit *fit = malloc(sizeof *fit);
    CHECK(t, fit);
    if (fit)
        CHECK(t, tune_network_fit(d.g, &net, &s[0], &s[1], &fo, fit, &err));
    if (fit) {
        CHECK(t, fit->value_head_dropped);
        CHECK(t, net.priors_only);
        if (net.priors_only)
            CHECK(t, fit->valid_after.policy < fit->valid_before.policy);
        float zero = 0;
        for (int b = 0; b < net.buckets; b++)
            zero += fabsf(net.bv[b]) + fabsf(net.wv[b * NETWORK_L2]);
        CHECK(t, zero == 0);
    }
    free(fit);
    network_free(&teacher);
    network_free(&net);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    data_close(&d);
}

/* One fit of a fresh network to the teacher's targets (the values put back to the file's own
 * where values_from_file) with the value head option given; whether the head was dropped. */
static bool fit_drops_value_head(TestContext *t, Data *d, bool values_from_file, TuneValueHead choice)
{
    Network teacher, net;
    Error err;
    TuneNetworkSet s[2];
    bool dropped = false;
    teacher_sets(t, d, &teacher, s, values_from_file);
    CHECK(t, network_init(&net, d->g, NETWORK_SQUARES, 0, 16, &err));
    network_randomize(&net, 1, false);
    network_drop_value_head(&net);      /* from a priors-only network, as the shipped ones are */
    TuneNetworkFitOptions fo = fit_options(2);
    fo.max_epochs = 5;
    fo.value_head = choice;
    TuneNetworkFit *fit = malloc(sizeof *fit);
    CHECK(t, fit);
    if (fit && tune_network_fit(d->g, &net, &s[0], &s[1], &fo, fit, &err)) {
        dropped = fit->value_head_dropped;
        CHECK(t, dropped == net.priors_only);
    }
    free(fit);
    network_free(&teacher);
    network_free(&net);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    return dropped;
}

/* --value-head keep and drop decide against the judgement: a head that saves nothing is kept (and
 * a fit from a priors-only network that keeps one gives values again), one that pays is dropped. */
static void test_value_head_option_overrides_judgement(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, NUM_GAMES))
        return;
    CHECK(t, !fit_drops_value_head(t, &d, true, TUNE_VALUE_HEAD_KEEP));
    CHECK(t, fit_drops_value_head(t, &d, false, TUNE_VALUE_HEAD_DROP));
    data_close(&d);
}

/* A network from zero (random hidden layers, zero heads) adds nothing: the weights with it
 * evaluate every position as the file alone, and its loss before the fit is the skip path's. */
static void test_zero_start_is_skip_path(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, 10))
        return;
    Network *net = malloc(sizeof *net);
    Error err;
    CHECK(t, net);
    if (net)
        CHECK(t, network_init(net, d.g, NETWORK_PATTERNS, 0, 32, &err));
    network_randomize(net, 4, false);
    TuneNetworkDataOptions o = data_options(1);
    TuneNetworkSet s[2];
    TuneDataStats stats;
    CHECK(t, tune_network_data(d.g, &d.games, &d.base, net, &o, &s[0], &s[1], &stats, &err));
    CHECK(t, network_quantize(net, d.g, s[0].sample, (int)s[0].num_sample));
    const TuneNetworkLoss l = tune_network_loss(net, &s[0], 1.0, 1);
    double skip = 0;
    for (size_t i = 0; i < s[0].count; i++) {
        const double z = s[0].skip_value[i], y = s[0].target[i];
        skip += (z > 0 ? z : 0) + log1p(exp(-fabs(z))) - y * z;
    }
    CHECK(t, fabs(l.value - skip / (double)s[0].count) < 1e-12);
    Weights with;
    CHECK(t, weights_copy(&with, &d.base));
    with.net = net;
    int differ = 0;
    for (size_t k = 0; k < s[0].num_sample; k++) {
        const Position *p = &s[0].sample[k];
        differ += value_logit(d.g, &with, p) != value_logit(d.g, &d.base, p);
        Move moves[MAX_MOVES];
        float a[MAX_MOVES], b[MAX_MOVES];
        const int n = game_gen_moves(d.g, p, moves);
        value_move_priors(d.g, &with, p, moves, n, a);
        value_move_priors(d.g, &d.base, p, moves, n, b);
        for (int i = 0; i < n; i++)
            differ += fabsf(a[i] - b[i]) > 1e-6f;
    }
    CHECK(t, differ == 0);
    weights_dispose(&with);     /* frees the network too */
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    data_close(&d);
}

/* Games read without their visit lists give value targets alone, and a fit on them. */
static void test_data_without_visits(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, 10))
        return;
    TuneGames plain;
    Error err;
    tune_games_init(&plain);
    int source = tune_games_add_source(&plain, "memory", &err);
    for (int i = 0; i < 10; i++)
        CHECK(t, tune_games_add(&plain, d.g, &d.recs[i], source, &err));
    Network net;
    CHECK(t, network_init(&net, d.g, NETWORK_SQUARES, 0, 16, &err));
    network_randomize(&net, 1, false);
    TuneNetworkDataOptions o = data_options(2);
    TuneNetworkSet s[2];
    TuneDataStats stats;
    CHECK(t, tune_network_data(d.g, &plain, &d.base, &net, &o, &s[0], &s[1], &stats, &err));
    CHECK(t, s[0].count > 0);
    if (s[0].count > 0) {
        CHECK(t, s[0].with_policy == 0);
        CHECK(t, s[0].move_start[s[0].count] == 0);
    }
    TuneNetworkFitOptions fo = fit_options(1);
    TuneNetworkFit *fit = malloc(sizeof *fit);
    CHECK(t, fit);
    if (fit)
        CHECK(t, tune_network_fit(d.g, &net, &s[0], &s[1], &fo, fit, &err));
    CHECK(t, fit);
    if (fit) {
        CHECK(t, isnan(fit->valid_after.policy));
        CHECK(t, fit->valid_after.total == fit->valid_after.value);
    }
    free(fit);
    network_free(&net);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    tune_games_free(&plain);
    data_close(&d);
}

/* A network made for another board is refused with a line. */
static void test_data_refuses_other_board(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, 2))
        return;
    Error err;
    Game *small = game_new("crossings", 6, 6, &err);
    Network net;
    CHECK(t, small);
    if (small)
        CHECK(t, network_init(&net, small, NETWORK_SQUARES, 0, 16, &err));
    TuneNetworkDataOptions o = data_options(1);
    TuneNetworkSet s[2];
    TuneDataStats stats;
    CHECK(t, !tune_network_data(d.g, &d.games, &d.base, &net, &o, &s[0], &s[1], &stats, &err));
    CHECK(t, strstr(err.msg, "the network has") != NULL);
    tune_network_set_free(&s[0]);
    tune_network_set_free(&s[1]);
    network_free(&net);
    game_free(small);
    data_close(&d);
}

const TestCase tune_network_tests[] = {
    {"data_matches_reference", test_data_matches_reference},
    {"select_equals_reading", test_select_equals_reading},
    {"pass_gradients", test_pass_gradients},
    {"first_step_follows_gradient", test_first_step_follows_gradient},
    {"fit_threads_same_bits", test_fit_threads_same_bits},
    {"fit_learns_teacher", test_fit_learns_teacher},
    {"value_head_dropped_when_it_saves_nothing", test_value_head_dropped_when_it_saves_nothing},
    {"value_head_option_overrides_judgement", test_value_head_option_overrides_judgement},
    {"zero_start_is_skip_path", test_zero_start_is_skip_path},
    {"data_without_visits", test_data_without_visits},
    {"data_refuses_other_board", test_data_refuses_other_board},
    TEST_END,
};
