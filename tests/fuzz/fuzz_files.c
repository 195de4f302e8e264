/*
 * fuzz_files.c - libFuzzer harness for the parsers of the files the toolkit reads, beyond the
 * rules' own notation (tests/fuzz/fuzz_parsers.c): weights files (data/weights.h), results lines
 * (eval/results.h), opening-suite lines (data/openings.h), one stored game of a records file
 * (record_decode, docs/FORMAT.md), the JSON scanner of `leuctra chart` (data/json_read.h), and
 * table weights files (data/weights_tables.c) for a small Epaminondas board, and time controls
 * (search/time_control.h, a player's tc=).  Results and
 * openings are read both a line at a time and as whole files (NUL bytes, byte order marks and
 * bad UTF-8 included).
 *
 * Input: one selector byte, then the text or bytes the chosen parser gets (selector 255: a
 * table file; the next byte's low bit asks the harness to repair both CRC-32s after the
 * fuzzer's changes, so that mutations reach the text, the inflater and the values behind
 * them).  For each parser:
 *   - a rejection comes with a message that is present, terminated and one line;
 *   - weights: an accepted file has exactly the game's features, every value finite and within
 *     WEIGHTS_MAX_VALUE;
 *   - results: the table's game count grows by exactly one per accepted line;
 *   - openings: an accepted line adds one position that formats and parses back to itself;
 *   - records: a decoded game encodes again, and that encoding decodes to a game that encodes
 *     to the same bytes (the stored form is canonical after one round); replayed as tensor rows
 *     (data/record_tensors.h, a Crossings 8x8 game with its mirror) it gives rows whose legal
 *     actions are ascending and in range, whose played action is among them and whose visits
 *     sum as said, or a one-line refusal;
 *   - JSON: the scanner neither reads past the text nor fails to terminate, and a number it
 *     accepts is finite (or null);
 *   - table files: an accepted file has the game's tables and priors, every value finite and
 *     within WEIGHTS_MAX_VALUE, and zeros in its reserved header bytes;
 *   - time controls: an accepted one has a positive clock, and the budget of its first move
 *     never reaches the clock;
 *   - whole files: a rejection names the source.
 * Any broken invariant stops the run with __builtin_trap().  Built and run by `make fuzz`.
 */
#include "data/json_read.h"
#include "data/openings.h"
#include "data/record_internal.h"
#include "data/record_tensors.h"
#include "core/network.h"
#include "data/weights.h"
#include "eval/results.h"
#include "search/time_control.h"

#include <math.h>
#include <stdint.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                  \
    do {                             \
        if (!(cond))                 \
            __builtin_trap();        \
    } while (0)

enum { TEXT_LEN = 4096 };

static const char *const variant_names[4] = {"epaminondas", "crossings", "reversi", "igfip"};

static void check_error(const char *msg, size_t cap)
{
    size_t n = strnlen(msg, cap);
    CHECK(n > 0 && n < cap);
    CHECK(memchr(msg, '\n', n) == NULL && memchr(msg, '\r', n) == NULL);
}

static void fuzz_weights(const char *text, int variant)
{
    Game *g = game_new(variant_names[variant], 0, 0, NULL);
    CHECK(g != NULL);
    Weights w;
    Error err = {0};
    if (weights_parse(g, text, "fuzz", &w, &err)) {
        CHECK(w.count == g->ops->num_features);
        for (int i = 0; i < w.count; i++)
            CHECK(isfinite(w.w[i]) && fabs(w.w[i]) <= WEIGHTS_MAX_VALUE);
    } else {
        check_error(err.msg, ERROR_LEN);
    }
    game_free(g);
}

static void fuzz_results(const char *text)
{
    ResultTable *t = results_new();
    CHECK(t != NULL);
    char line[TEXT_LEN];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        memcpy(line, p, n);
        line[n] = '\0';
        int64_t before = results_num_games(t);
        Error err = {0};
        if (results_parse_line(t, line, &err))
            CHECK(results_num_games(t) == before || results_num_games(t) == before + 1);
        else
            check_error(err.msg, ERROR_LEN);
        p += n + (p[n] == '\n');
    }
    results_free(t);
}

static void fuzz_openings(const char *text, int variant)
{
    Game *g = game_new(variant_names[variant], 0, 0, NULL);
    CHECK(g != NULL);
    Position start;
    game_start(g, &start);
    OpeningSuite s;
    openings_init(&s);
    Error err = {0};
    int before = s.count;
    if (openings_parse_line(&s, g, &start, text, &err)) {
        CHECK(s.count == before || s.count == before + 1);   /* a comment or blank adds none */
        if (s.count > before) {
            char buf[TEXT_LEN], again[TEXT_LEN];
            game_format_position(g, &s.opening[before], buf, sizeof buf);
            Position p;
            CHECK(game_parse_position(g, buf, &p, &err));
            game_format_position(g, &p, again, sizeof again);
            CHECK(strcmp(buf, again) == 0);
        }
    } else {
        check_error(err.msg, ERROR_LEN);
    }
    openings_free(&s);
    game_free(g);
}

/* The whole-file readers on the raw bytes, NULs, byte order marks and bad UTF-8 included (the
 * line parsers above only ever see a C string): a rejection is one line naming the source. */
static void fuzz_results_file(const uint8_t *bytes, size_t size)
{
    FILE *in = fmemopen((void *)bytes, size, "r");
    if (!in)
        return;
    ResultTable *t = results_new();
    CHECK(t != NULL);
    Error err = {0};
    if (results_read(t, in, "fuzz.txt", &err)) {
        CHECK((size_t)results_num_games(t) <= size);
    } else {
        check_error(err.msg, ERROR_LEN);
        CHECK(strncmp(err.msg, "fuzz.txt:", 9) == 0);
    }
    results_free(t);
    fclose(in);
}

static void fuzz_openings_file(const uint8_t *bytes, size_t size, int variant)
{
    FILE *in = fmemopen((void *)bytes, size, "r");
    if (!in)
        return;
    Game *g = game_new(variant_names[variant], 0, 0, NULL);
    CHECK(g != NULL);
    Position start;
    game_start(g, &start);
    OpeningSuite s;
    openings_init(&s);
    Error err = {0};
    if (openings_read(&s, g, &start, in, "fuzz.txt", &err))
        CHECK(s.count > 0);
    else
        check_error(err.msg, ERROR_LEN);
    openings_free(&s);
    game_free(g);
    fclose(in);
}

/* Encodes r (with an empty board, as decoded).  The decoder accepts a little the encoder may
 * refuse, so only the second round must encode. */
static bool encode(const GameRecord *r, ByteBuf *out)
{
    char why[200];
    out->len = 0;
    return record_encode(r, "", RECORDS_VERSION, out, why, sizeof why);
}

static bool check_row(const TensorRow *row, void *ctx, Error *err)
{
    (void)err;
    int actions = *(const int *)ctx, played = 0;
    uint64_t sum = 0;
    for (int i = 0; i < row->num_legal; i++) {
        CHECK(row->legal[i] >= 0 && row->legal[i] < actions && (i == 0 || row->legal[i] > row->legal[i - 1]));
        played += row->legal[i] == row->played;
        sum += row->visits[i];
    }
    CHECK(played == 1 && sum == row->visit_sum);
    return true;
}

static void fuzz_tensors(GameRecord *r)
{
    Game *g = game_new("crossings", 0, 0, NULL);
    CHECK(g != NULL);
    if (!r->start[0])   /* the header's board start */
        snprintf(r->start, sizeof r->start, "%s", "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w");
    RecordTensors *rt = record_tensors_new(g, ~0u);
    CHECK(rt != NULL);
    int actions = game_num_actions(g);
    Error err = {0};
    if (!record_tensors_game(rt, r, check_row, &actions, &err))
        check_error(err.msg, ERROR_LEN);
    record_tensors_free(rt);
    game_free(g);
}

static void fuzz_record(const unsigned char *data, size_t size)
{
    ByteReader in = {data, data + size, false};
    GameRecord a, b;
    game_record_init(&a);
    game_record_init(&b);
    char why[200] = "";
    if (record_decode(&in, "", RECORDS_VERSION, &a, why, sizeof why)) {
        ByteBuf first = {0}, second = {0};
        if (encode(&a, &first)) {
            ByteReader again = {first.data, first.data + first.len, false};
            CHECK(record_decode(&again, "", RECORDS_VERSION, &b, why, sizeof why));
            CHECK(encode(&b, &second));
            CHECK(first.len == second.len && memcmp(first.data, second.data, first.len) == 0);
        }
        fuzz_tensors(&a);
        record_buf_free(&first);
        record_buf_free(&second);
    } else {
        check_error(why, sizeof why);
    }
    game_record_free(&a);
    game_record_free(&b);
}

static void fuzz_json(const char *text)
{
    static const char *const keys[3] = {"log_loss", "train", "before"};
    double v;
    int line;
    Error err = {0};
    if (!json_number_at(text, "fuzz", keys, 3, &v, &line, &err))
        check_error(err.msg, ERROR_LEN);
    else
        CHECK(isnan(v) || isfinite(v));
}

static void put_crc(unsigned char *at, const unsigned char *from, size_t n)
{
    const uint32_t crc = (uint32_t)crc32(0L, from, (uInt)n);
    for (int i = 0; i < 4; i++)
        at[i] = (unsigned char)(crc >> (8 * i));
}

static void fuzz_table_file(const unsigned char *data, size_t size)
{
    if (size < 1)
        return;
    Game *g = game_new("epaminondas", 4, 5, NULL);
    CHECK(g != NULL);
    unsigned char bytes[TEXT_LEN];
    const size_t n = size - 1;
    memcpy(bytes, data + 1, n);
    if ((data[0] & 1) && n >= 68) {
        put_crc(bytes + 60, bytes, 60);
        put_crc(bytes + n - 4, bytes, n - 4);
    }
    Weights w;
    Error err = {0};
    if (weights_parse_tables(g, bytes, n, "fuzz", &w, &err)) {
        CHECK(w.count == g->ops->num_features);
        for (int i = 48; i < 60; i++)       /* families 0 on this board; 52-55: a network's bytes */
            CHECK(bytes[i] == 0 || (w.net && i >= 52 && i < 56));
        float **arrays[NETWORK_ARRAYS];
        size_t lengths[NETWORK_ARRAYS];
        for (int a = 0, k = w.net ? network_arrays(w.net, arrays, lengths) : 0; a < k; a++)
            for (size_t i = 0; i < lengths[a]; i++)
                CHECK(isfinite((*arrays[a])[i]) && fabsf((*arrays[a])[i]) <= WEIGHTS_MAX_VALUE);
        for (size_t i = 0; w.tables && i < w.num_tables; i++)
            CHECK(isfinite(w.tables[i]) && fabsf(w.tables[i]) <= WEIGHTS_MAX_VALUE);
        for (uint32_t i = 0; w.policy && i < w.num_policy; i++)
            CHECK(isfinite(w.policy[i]) && fabsf(w.policy[i]) <= WEIGHTS_MAX_VALUE);
        weights_dispose(&w);
    } else {
        check_error(err.msg, ERROR_LEN);
    }
    game_free(g);
}

static void fuzz_time_control(const char *text)
{
    TimeControl tc;
    Error err = {0};
    if (!time_control_parse(text, &tc, &err)) {
        CHECK(err.msg[0] && strchr(err.msg, '\n') == NULL && strstr(err.msg, "time control"));
        return;
    }
    CHECK(tc.seconds > 0 && isfinite(tc.seconds) && tc.increment >= 0 && isfinite(tc.increment));
    CHECK(tc.moves >= 0 && tc.moves <= 10000);
    GameClock clocks[2];
    game_clock_start(&clocks[WHITE], &tc);
    game_clock_start(&clocks[BLACK], &tc);
    ClockReading r = time_control_clock_reading(clocks, (const bool[2]){true, true}, WHITE);
    for (int moves_left = 1; moves_left < 100; moves_left *= 3) {
        TimeBudget b = time_control_budget(&r, WHITE, moves_left, TIME_DEFAULT_OVERHEAD);
        CHECK(b.target > 0 && b.target <= b.max && b.max < tc.seconds);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size >= TEXT_LEN)
        return 0;
    if (data[0] == 255) {
        fuzz_table_file(data + 1, size - 1);
        return 0;
    }
    char text[TEXT_LEN];
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    int variant = data[0] / 5 % 4;
    switch (data[0] % 5) {
    case 0: fuzz_weights(text, variant); break;
    case 1:
        fuzz_results(text);
        fuzz_results_file(data + 1, size - 1);
        break;
    case 2:
        fuzz_openings(text, variant);
        fuzz_openings_file(data + 1, size - 1, variant);
        break;
    case 3: fuzz_record(data + 1, size - 1); break;
    default:
        fuzz_json(text);
        fuzz_time_control(text);
        break;
    }
    return 0;
}
