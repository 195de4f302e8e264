/*
 * test_tune_network.c - the network's fit (tuner/tune_network_data.h, tuner/tune_network.h).
 * The positions equal a plain sequential reading (replay, skip, first occurrences, the split by
 * game, inputs, bucket, skip logits, targets, visit shares), with any thread count; a set read
 * for both input sets gives each part by selection.
 */
#include "core/pattern.h"
#include "data/weights.h"
#include "record_sample.h"
#include "test.h"
#include "tuner/tune_network_data.h"

#include <math.h>
#include <stdlib.h>

enum { NUM_GAMES = 30 };

static const SampleOptions SAMPLE = {true, true, 60, true};


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
    CHECK(t, sets[0]->with_policy > 0 && sets[1]->count > 0);
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
    CHECK(t, a[0].num_sample == 50 && a[0].sample_row[1] > 1);
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
        CHECK(t, part.num_inputs == nets[k]->num_inputs && same_sets(&part, &alone[0]));
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

/* A network made for another board is refused with a line. */
static void test_data_refuses_other_board(TestContext *t)
{
    Data d;
    if (!data_open(t, &d, 2))
        return;
    Error err;
    Game *small = game_new("crossings", 6, 6, &err);
    Network net;
    CHECK(t, small && network_init(&net, small, NETWORK_SQUARES, 0, 16, &err));
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
    {"data_refuses_other_board", test_data_refuses_other_board},
    TEST_END,
};
