/*
 * test_records.c - the game record and its encoding: stored moves against the notation and the
 * rules of every variant, quantised values, and encode/decode round trips of random games (with
 * and without values and visit distributions) that must give back every field and the same bytes
 * for the same game; a decoder fed any cut-short record must fail cleanly.
 */
#include "data/record_internal.h"
#include "record_sample.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static const char *const VARIANTS[3] = {"epaminondas", "crossings", "reversi"};

static Game *new_game(TestContext *t, const char *variant, int width, int height)
{
    Error err = {0};
    Game *g = game_new(variant, width, height, &err);
    CHECK(t, g != NULL);
    if (!g)
        fprintf(stderr, "  game_new %s: %s\n", variant, err.msg);
    return g;
}

/* Every field of two records, visit lists included. */
static bool records_equal(const GameRecord *a, const GameRecord *b)
{
    if (a->index != b->index || a->seed != b->seed || strcmp(a->start, b->start) != 0 || a->result != b->result ||
        a->end != b->end || a->plies != b->plies || a->final_clock_ms[0] != b->final_clock_ms[0] ||
        a->final_clock_ms[1] != b->final_clock_ms[1])
        return false;
    for (int i = 0; i < a->plies; i++) {
        const RecordPly *x = &a->ply[i], *y = &b->ply[i];
        if (x->move.code != y->move.code || x->value != y->value || x->total_visits != y->total_visits ||
            x->num_visits != y->num_visits || x->time_ms != y->time_ms || x->clock_ms != y->clock_ms)
            return false;
        for (uint32_t k = 0; k < x->num_visits; k++) {
            const RecordVisit *u = &a->visit[x->first_visit + k], *v = &b->visit[y->first_visit + k];
            if (u->move.code != v->move.code || u->visits != v->visits)
                return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------- moves */

static void check_notation(TestContext *t, const char *text)
{
    RecordMove m;
    Error err = {0};
    char back[RECORD_MOVE_TEXT];
    bool ok = record_move_parse(text, &m, &err);
    CHECK(t, ok);
    if (!ok) {
        fprintf(stderr, "  parse '%s': %s\n", text, err.msg);
        return;
    }
    record_move_format(m, back, sizeof back);
    CHECK_STR(t, back, text);
}

static void test_move_notation(TestContext *t)
{
    static const char *const good[] = {"e2-e3", "a1xa3", "d3", "pass", "p16-a1", "a1-p16", "h8xh1", "n12-n11",
                                       "a16xp16", "e2-f3", "c5-a3", "a1", "p16"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        check_notation(t, good[i]);
    static const char *const bad[] = {"", "e2-f4", "q1", "e0", "e17", "e2e3", "a1-a1", "e2-", "e2-e3x", "e02-e3",
                                      "Pass", "a1xq1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        RecordMove m;
        Error err = {0};
        CHECK(t, !record_move_parse(bad[i], &m, &err));
        CHECK(t, err.msg[0] != '\0');
    }
    CHECK(t, !record_move_valid((RecordMove){0x0101}));     /* a pass names square 0 only */
    CHECK(t, !record_move_valid((RecordMove){0x00F2}));     /* a1 one square south-west */
    char text[RECORD_MOVE_TEXT];
    record_move_format((RecordMove){0x00F2}, text, sizeof text);
    CHECK_STR(t, text, "?");
}

/* Every legal move along random games converts to the stored form and back to itself, and the
 * stored form prints as the rules print the move. */
static void check_conversions(TestContext *t, const Game *g, uint64_t seed)
{
    Rng rng = rng_seed(seed, 7);
    Position pos;
    game_start(g, &pos);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    for (int ply = 0; ply < 60 && moves; ply++) {
        int n = game_gen_moves(g, &pos, moves);
        for (int i = 0; i < n; i++) {
            RecordMove rm;
            Move back = MOVE_NONE;
            Error err = {0};
            char want[32], got[RECORD_MOVE_TEXT];
            CHECK(t, record_move_from_move(g, &pos, moves[i], &rm, &err));
            CHECK(t, record_move_to_move(g, &pos, rm, &back, &err));
            CHECK(t, back == moves[i]);
            game_format_move(g, &pos, moves[i], want, sizeof want);
            record_move_format(rm, got, sizeof got);
            CHECK_STR(t, got, want);
        }
        if (n == 0)
            break;
        Undo u;
        game_make(g, &pos, moves[rng_below(&rng, (uint32_t)n)], &u);
    }
    free(moves);
}

static void test_move_conversion(TestContext *t)
{
    for (int v = 0; v < 3; v++) {
        Game *g = new_game(t, VARIANTS[v], 0, 0);
        if (g)
            check_conversions(t, g, (uint64_t)v);
        game_free(g);
    }
    Game *big = new_game(t, "epaminondas", 16, 16);
    if (big)
        check_conversions(t, big, 99);
    game_free(big);
}

static void test_value_quantise(TestContext *t)
{
    CHECK(t, record_value_quantise(NAN) == RECORD_NO_VALUE);
    CHECK(t, record_value_quantise(0.0) == 0);
    CHECK(t, record_value_quantise(-3.0) == 0);
    CHECK(t, record_value_quantise(1.0) == 65535);
    CHECK(t, record_value_quantise(7.0) == 65535);
    CHECK(t, record_value_quantise(0.5) == 32768);
    CHECK(t, isnan(record_value_double(RECORD_NO_VALUE)));
    CHECK(t, fabs(record_value_double(record_value_quantise(0.3)) - 0.3) < 1e-5);
}

/* ---------------------------------------------------------------- codec */

/* Times and clocks on some plies of a sample game, as a match on a clock writes them (format
 * version 2): a time on most plies, a clock on the plies of one side or both, a negative final
 * clock and a loss on time now and then. */
static void add_clocks(GameRecord *r, uint64_t seed)
{
    Rng rng = rng_seed(seed, 77);
    bool both = rng_below(&rng, 2) == 0;
    for (int i = 0; i < r->plies; i++) {
        RecordPly *p = &r->ply[i];
        p->time_ms = rng_below(&rng, 10) == 0 ? RECORD_NO_TIME : (int32_t)rng_below(&rng, 5000);
        p->clock_ms = both || i % 2 == 0 ? (int32_t)rng_below(&rng, 600000) : RECORD_NO_CLOCK;
    }
    r->final_clock_ms[0] = (int32_t)rng_below(&rng, 600000);
    r->final_clock_ms[1] = both ? -(int32_t)rng_below(&rng, 300) : RECORD_NO_CLOCK;
    if (rng_below(&rng, 3) == 0)
        r->end = RECORD_END_TIME;
}

static void round_trip(TestContext *t, const Game *g, const SampleOptions *o, uint64_t seed, bool clocks)
{
    GameRecord r, back;
    game_record_init(&r);
    game_record_init(&back);
    char board[RECORD_MAX_POSITION], why[200] = "";
    Position start;
    game_start(g, &start);
    game_format_position(g, &start, board, sizeof board);
    for (uint64_t i = 0; i < 12; i++) {
        CHECK(t, sample_game(g, seed, i * 977, o, &r));
        if (clocks)
            add_clocks(&r, seed + i);
        CHECK(t, game_record_version(&r) == (clocks ? 2 : 1));
        ByteBuf a = {0}, b = {0};
        CHECK(t, record_encode(&r, board, RECORDS_VERSION, &a, why, sizeof why));
        CHECK(t, record_encode(&r, board, RECORDS_VERSION, &b, why, sizeof why));
        CHECK(t, a.len == b.len);
        if (a.len == b.len)
            CHECK(t, memcmp(a.data, b.data, a.len) == 0);
        ByteReader in = {a.data, a.data + a.len, false};
        CHECK(t, record_decode(&in, board, RECORDS_VERSION, &back, why, sizeof why));
        CHECK(t, in.p == in.end);
        CHECK(t, records_equal(&r, &back));
        uint64_t index = 0;
        size_t used = 0;
        CHECK(t, record_peek(a.data, a.len, &index, &used) && index == r.index && used == a.len);
        record_buf_free(&a);
        record_buf_free(&b);
    }
    game_record_free(&r);
    game_record_free(&back);
}

static void test_round_trip(TestContext *t)
{
    const SampleOptions kinds[4] = {
        {false, false, 160, false}, {true, false, 160, true}, {false, true, 160, false}, {true, true, 160, true}};
    for (int v = 0; v < 3; v++) {
        Game *g = new_game(t, VARIANTS[v], 0, 0);
        for (int k = 0; g && k < 8; k++)
            round_trip(t, g, &kinds[k % 4], (uint64_t)(v * 10 + k), k >= 4);
        game_free(g);
    }
    Game *small = new_game(t, "crossings", 5, 7);
    if (small)
        round_trip(t, small, &kinds[3], 5, true);
    game_free(small);
}

/* A version-1 file cannot hold what version 2 added: the writer refuses such a game, the reader
 * a version-1 record with a version-2 field; a game without them is the same bytes in both. */
static void test_version_fields(TestContext *t)
{
    Game *g = new_game(t, "crossings", 0, 0);
    if (!g)
        return;
    GameRecord r, back;
    game_record_init(&r);
    game_record_init(&back);
    SampleOptions o = {true, true, 60, false};
    char why[200] = "";
    CHECK(t, sample_game(g, 11, 3, &o, &r));
    ByteBuf v1 = {0}, v2 = {0};
    CHECK(t, record_encode(&r, "", 1, &v1, why, sizeof why) && record_encode(&r, "", 2, &v2, why, sizeof why));
    CHECK(t, v1.len == v2.len);
    if (v1.len == v2.len)
        CHECK(t, memcmp(v1.data, v2.data, v1.len) == 0);
    game_record_time_ply(&r, 0.25, NAN);
    CHECK(t, r.ply[r.plies - 1].time_ms == 250);
    if (r.ply[r.plies - 1].time_ms == 250)
        CHECK(t, r.ply[r.plies - 1].clock_ms == RECORD_NO_CLOCK);
    ByteBuf timed = {0};
    CHECK(t, !record_encode(&r, "", 1, &timed, why, sizeof why) && strstr(why, "version 2"));
    CHECK(t, record_encode(&r, "", 2, &timed, why, sizeof why));
    ByteReader in = {timed.data, timed.data + timed.len, false};
    CHECK(t, !record_decode(&in, "", 1, &back, why, sizeof why));
    ByteReader again = {timed.data, timed.data + timed.len, false};
    CHECK(t, record_decode(&again, "", 2, &back, why, sizeof why) && records_equal(&r, &back));
    game_record_time_ply(&r, NAN, NAN);
    r.end = RECORD_END_TIME;
    ByteBuf forfeit = {0};
    CHECK(t, !record_encode(&r, "", 1, &forfeit, why, sizeof why));
    CHECK(t, record_clock_ms(-0.0125) == -13);
    CHECK(t, isnan(record_clock_seconds(RECORD_NO_CLOCK)));
    CHECK(t, record_clock_ms(1e12) > 2000000000);
    record_buf_free(&v1);
    record_buf_free(&v2);
    record_buf_free(&timed);
    record_buf_free(&forfeit);
    game_record_free(&r);
    game_record_free(&back);
    game_free(g);
}

/* Every proper prefix of an encoded game fails to decode, and nothing reads out of bounds. */
static void test_decode_cut_short(TestContext *t)
{
    Game *g = new_game(t, "reversi", 0, 0);
    if (!g)
        return;
    GameRecord r, back;
    game_record_init(&r);
    game_record_init(&back);
    SampleOptions o = {true, true, 80, true};
    CHECK(t, sample_game(g, 3, 1, &o, &r));
    ByteBuf a = {0};
    char why[200];
    CHECK(t, record_encode(&r, "8/8/8/3WB3/3BW3/8/8/8 b", RECORDS_VERSION, &a, why, sizeof why));
    for (size_t cut = 0; cut < a.len; cut++) {
        unsigned char *copy = malloc(cut + 1);
        memcpy(copy, a.data, cut);
        ByteReader in = {copy, copy + cut, false};
        CHECK(t, !record_decode(&in, "8/8/8/3WB3/3BW3/8/8/8 b", RECORDS_VERSION, &back, why, sizeof why));
        free(copy);
    }
    record_buf_free(&a);
    game_record_free(&r);
    game_record_free(&back);
    game_free(g);
}

/* Fields that cannot be stored are refused with a reason, not written. */
static void test_encode_refuses(TestContext *t)
{
    GameRecord r;
    game_record_init(&r);
    char why[200] = "";
    ByteBuf a = {0};
    r.result = STATUS_ONGOING;
    CHECK(t, !record_encode(&r, "x", RECORDS_VERSION, &a, why, sizeof why) && why[0]);
    r.result = STATUS_DRAW;
    CHECK(t, game_record_add_ply(&r, (RecordMove){0x00F2}, RECORD_NO_VALUE, NULL, 0, 0));
    CHECK(t, !record_encode(&r, "x", RECORDS_VERSION, &a, why, sizeof why) && strstr(why, "ply 1"));
    game_record_clear(&r);
    CHECK(t, game_record_add_ply(&r, (RecordMove){0x1402}, 70000, NULL, 0, 0));
    CHECK(t, !record_encode(&r, "x", RECORDS_VERSION, &a, why, sizeof why) && strstr(why, "value"));
    game_record_clear(&r);
    RecordVisit twice[2] = {{{0x1402}, 5}, {{0x1402}, 7}};
    CHECK(t, game_record_add_ply(&r, (RecordMove){0x1402}, 100, twice, 2, 12));
    CHECK(t, !record_encode(&r, "x", RECORDS_VERSION, &a, why, sizeof why) && strstr(why, "twice"));
    CHECK(t, a.len == 0);
    record_buf_free(&a);
    game_record_free(&r);
}

/* The visit list is kept most-visited first whatever order it is given in. */
static void test_visit_order(TestContext *t)
{
    GameRecord r;
    game_record_init(&r);
    RecordVisit v[3] = {{{0x1402}, 5}, {{0x2402}, 50}, {{0x0402}, 5}};
    CHECK(t, game_record_add_ply(&r, (RecordMove){0x2402}, 100, v, 3, 61));
    CHECK(t, r.visit[0].visits == 50);
    CHECK(t, r.visit[1].move.code == 0x0402);
    CHECK(t, r.visit[2].move.code == 0x1402);
    game_record_free(&r);
}

/* The decoder's sort (a list in move order, stable by visits) gives record_visits_sort's order:
 * random lists of every length up to past its scratch size, with many ties. */
static void test_visit_sort_from_move_order(TestContext *t)
{
    enum { LONGEST = 1100 };
    RecordVisit *a = malloc(LONGEST * sizeof *a), *b = malloc(LONGEST * sizeof *b);
    Rng rng = rng_seed(17, 0);
    for (size_t n = 0; a && b && n <= LONGEST; n += n < 40 ? 1 : 53) {
        uint16_t code = 0;
        for (size_t k = 0; k < n; k++) {
            code = (uint16_t)(code + 1 + rng_below(&rng, 3));
            a[k] = b[k] = (RecordVisit){{code}, rng_below(&rng, k % 3 ? 4 : 400)};
        }
        record_visits_sort_from_move_order(a, n);
        record_visits_sort(b, n);
        size_t same = 0;
        while (same < n && a[same].move.code == b[same].move.code && a[same].visits == b[same].visits)
            same++;
        CHECK(t, same == n);
    }
    free(a);
    free(b);
}

const TestCase records_tests[] = {
    {"move_notation", test_move_notation},
    {"move_conversion", test_move_conversion},
    {"value_quantise", test_value_quantise},
    {"round_trip", test_round_trip},
    {"decode_cut_short", test_decode_cut_short},
    {"version_fields", test_version_fields},
    {"encode_refuses", test_encode_refuses},
    {"visit_order", test_visit_order},
    {"visit_sort_from_move_order", test_visit_sort_from_move_order},
    TEST_END,
};
