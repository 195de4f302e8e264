/*
 * record_codec.c - one game to bytes and back (docs/FORMAT.md, "Game record").
 *
 * The plies are stored in columns (all moves, then all values, then all visit lists) because
 * each column is regular on its own and compresses better that way.  Values are stored as the
 * difference from a prediction: the previous ply's value seen from the other side, since a search
 * that is right about a position agrees with the one before.  A visit list is stored sorted by
 * move code, the codes as differences (small: neighbouring moves share a square) and the counts
 * after them; measured on MCTS games this is 30% smaller than (move, count) pairs most-visited
 * first.  Varints store the small numbers in one byte.  Version 2 adds two columns after those,
 * the times of the moves and the clocks after them, and the clocks at the end.
 */
#include "record_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLAG_VALUES = 1, FLAG_VISITS = 2, FLAG_TIMES = 4, FLAG_CLOCKS = 8 };

/* The flags and the end reasons that each format version knows. */
static int flags_known(int version)
{
    return version >= 2 ? FLAG_VALUES | FLAG_VISITS | FLAG_TIMES | FLAG_CLOCKS : FLAG_VALUES | FLAG_VISITS;
}

static unsigned ends_known(int version)
{
    return version >= 2 ? RECORD_END_COUNT : RECORD_END_TIME;
}
enum { VALUE_PREDICTION_START = 32768 };

static int result_code(GameStatus s)
{
    switch (s) {
    case STATUS_WHITE_WINS: return 0;
    case STATUS_BLACK_WINS: return 1;
    case STATUS_DRAW: return 2;
    default: return -1;
    }
}

static const GameStatus result_of_code[3] = {STATUS_WHITE_WINS, STATUS_BLACK_WINS, STATUS_DRAW};

static int32_t next_prediction(int32_t prediction, int32_t value)
{
    return RECORD_VALUE_SCALE - (value >= 0 ? value : prediction);
}

/* ---------------------------------------------------------------- encoding */

static bool check_plies(const GameRecord *r, int *flags, char *why, size_t why_len)
{
    *flags = 0;
    for (int i = 0; i < r->plies; i++) {
        const RecordPly *p = &r->ply[i];
        if (!record_move_valid(p->move)) {
            snprintf(why, why_len, "ply %d: move code 0x%04x names no move", i + 1, p->move.code);
            return false;
        }
        if (p->value < RECORD_NO_VALUE || p->value > RECORD_VALUE_SCALE) {
            snprintf(why, why_len, "ply %d: value %d is outside 0..65535", i + 1, (int)p->value);
            return false;
        }
        if ((uint64_t)p->first_visit + p->num_visits > r->num_visits) {
            snprintf(why, why_len, "ply %d: visit list outside the record's visits", i + 1);
            return false;
        }
        for (uint32_t k = 0; k < p->num_visits; k++)
            if (!record_move_valid(r->visit[p->first_visit + k].move)) {
                snprintf(why, why_len, "ply %d: a move in the visit list names no move", i + 1);
                return false;
            }
        if (p->time_ms < RECORD_NO_TIME) {
            snprintf(why, why_len, "ply %d: a negative time", i + 1);
            return false;
        }
        *flags |= (p->value >= 0 ? FLAG_VALUES : 0) | (p->num_visits || p->total_visits ? FLAG_VISITS : 0) |
                  (p->time_ms != RECORD_NO_TIME ? FLAG_TIMES : 0) | (p->clock_ms != RECORD_NO_CLOCK ? FLAG_CLOCKS : 0);
    }
    if (r->final_clock_ms[0] != RECORD_NO_CLOCK || r->final_clock_ms[1] != RECORD_NO_CLOCK)
        *flags |= FLAG_CLOCKS;
    return true;
}

static bool check_game(const GameRecord *r, int version, int *flags, char *why, size_t why_len)
{
    if (result_code(r->result) < 0) {
        snprintf(why, why_len, "game %llu: result must be white-wins, black-wins or draw", (unsigned long long)r->index);
        return false;
    }
    if ((unsigned)r->end >= RECORD_END_COUNT || r->plies < 0) {
        snprintf(why, why_len, "game %llu: bad end reason or ply count", (unsigned long long)r->index);
        return false;
    }
    if (memchr(r->start, '\0', sizeof r->start) == NULL) {
        snprintf(why, why_len, "game %llu: start position too long", (unsigned long long)r->index);
        return false;
    }
    if (!check_plies(r, flags, why, why_len)) {
        size_t n = strlen(why);
        snprintf(why + n, why_len - n, " (game %llu)", (unsigned long long)r->index);
        return false;
    }
    if ((*flags & ~flags_known(version)) || (unsigned)r->end >= ends_known(version)) {
        snprintf(why, why_len, "game %llu: its times, clocks or loss on time need records format version 2 "
                 "(the file is version %d)", (unsigned long long)r->index, version);
        return false;
    }
    return true;
}

static void put_move(ByteBuf *out, RecordMove m)
{
    record_buf_u8(out, m.code >> 8);
    record_buf_u8(out, m.code & 0xFF);
}

static void put_values(const GameRecord *r, ByteBuf *out)
{
    int32_t prediction = VALUE_PREDICTION_START;
    for (int i = 0; i < r->plies; i++) {
        int32_t v = r->ply[i].value;
        record_buf_varint(out, v < 0 ? 0 : 1 + record_zigzag((int64_t)v - prediction));
        prediction = next_prediction(prediction, v);
    }
}

/* One ply's list: its length, the total's excess over the listed visits, the move codes in
 * ascending order as differences, then the visit counts in that order.  False on a move listed
 * twice. */
static bool put_ply_visits(const RecordPly *p, RecordVisit *sorted, ByteBuf *out)
{
    int64_t sum = 0;
    for (uint32_t k = 0; k < p->num_visits; k++)
        sum += sorted[k].visits;
    record_visits_sort_by_move(sorted, p->num_visits);
    record_buf_varint(out, p->num_visits);
    record_buf_varint(out, record_zigzag((int64_t)p->total_visits - sum));
    for (uint32_t k = 0; k < p->num_visits; k++) {
        if (k > 0 && sorted[k].move.code == sorted[k - 1].move.code)
            return false;
        record_buf_varint(out, sorted[k].move.code - (k ? sorted[k - 1].move.code : 0));
    }
    for (uint32_t k = 0; k < p->num_visits; k++)
        record_buf_varint(out, sorted[k].visits);
    return true;
}

static bool put_visits(const GameRecord *r, ByteBuf *out, char *why, size_t why_len)
{
    uint32_t longest = 0;
    for (int i = 0; i < r->plies; i++)
        longest = r->ply[i].num_visits > longest ? r->ply[i].num_visits : longest;
    RecordVisit *sorted = malloc((size_t)longest * sizeof *sorted + 1);
    bool ok = sorted != NULL;
    if (!ok)
        snprintf(why, why_len, "out of memory");
    for (int i = 0; ok && i < r->plies; i++) {
        const RecordPly *p = &r->ply[i];
        if (p->num_visits > 0)
            memcpy(sorted, r->visit + p->first_visit, p->num_visits * sizeof *sorted);
        ok = put_ply_visits(p, sorted, out);
        if (!ok)
            snprintf(why, why_len, "ply %d: a move listed twice in the visit list (game %llu)", i + 1,
                     (unsigned long long)r->index);
    }
    free(sorted);
    return ok;
}

/* A time or clock that may be missing: 0 for none, else 1 + the value (record_zigzag for a clock). */
static void put_times(const GameRecord *r, ByteBuf *out)
{
    for (int i = 0; i < r->plies; i++)
        record_buf_varint(out, r->ply[i].time_ms == RECORD_NO_TIME ? 0 : 1 + (uint64_t)r->ply[i].time_ms);
}

static void put_clock(ByteBuf *out, int32_t ms)
{
    record_buf_varint(out, ms == RECORD_NO_CLOCK ? 0 : 1 + record_zigzag(ms));
}

static void put_clocks(const GameRecord *r, ByteBuf *out)
{
    for (int i = 0; i < r->plies; i++)
        put_clock(out, r->ply[i].clock_ms);
    put_clock(out, r->final_clock_ms[0]);
    put_clock(out, r->final_clock_ms[1]);
}

static bool put_body(const GameRecord *r, const char *board, int flags, ByteBuf *out, char *why, size_t why_len)
{
    record_buf_varint(out, r->index);
    record_buf_u64(out, r->seed);
    record_buf_u8(out, (unsigned)result_code(r->result));
    record_buf_u8(out, (unsigned)r->end);
    record_buf_u8(out, (unsigned)flags);
    size_t start_len = strcmp(r->start, board) == 0 ? 0 : strlen(r->start);
    record_buf_varint(out, start_len);
    record_buf_put(out, r->start, start_len);
    record_buf_varint(out, (uint64_t)r->plies);
    for (int i = 0; i < r->plies; i++)
        put_move(out, r->ply[i].move);
    if (flags & FLAG_VALUES)
        put_values(r, out);
    if ((flags & FLAG_VISITS) && !put_visits(r, out, why, why_len))
        return false;
    if (flags & FLAG_TIMES)
        put_times(r, out);
    if (flags & FLAG_CLOCKS)
        put_clocks(r, out);
    return true;
}

bool record_encode(const GameRecord *r, const char *board, int version, ByteBuf *out, char *why, size_t why_len)
{
    int flags;
    if (!check_game(r, version, &flags, why, why_len))
        return false;
    size_t body_at = out->len;
    if (!put_body(r, board, flags, out, why, why_len)) {
        out->len = body_at;
        return false;
    }
    /* The length prefix goes in front of the body, now that its length is known. */
    unsigned char prefix[10];
    size_t n = record_varint_encode(out->len - body_at, prefix);
    if (!out->failed && record_buf_reserve(out, n)) {
        memmove(out->data + body_at + n, out->data + body_at, out->len - body_at);
        memcpy(out->data + body_at, prefix, n);
        out->len += n;
    }
    if (out->failed)
        snprintf(why, why_len, "out of memory");
    return !out->failed;
}

/* ---------------------------------------------------------------- decoding */

typedef struct {
    char *why;
    size_t why_len;
} Why;

static bool fail(Why w, const char *what)
{
    snprintf(w.why, w.why_len, "%s", what);
    return false;
}

static bool get_moves(ByteReader *in, GameRecord *out, uint64_t plies, Why w)
{
    if (plies > (uint64_t)(in->end - in->p) / 2 || plies > INT_MAX)
        return fail(w, "ply count larger than the record");
    if (!game_record_reserve(out, (int)plies, 0))
        return fail(w, "out of memory");
    for (int i = 0; i < (int)plies; i++) {
        const unsigned char *b = record_rd_bytes(in, 2);
        RecordPly *p = &out->ply[i];
        *p = (RecordPly){.move = {(uint16_t)(b[0] << 8 | b[1])}, .value = RECORD_NO_VALUE, .time_ms = RECORD_NO_TIME,
                         .clock_ms = RECORD_NO_CLOCK};
        if (!record_move_valid(p->move))
            return fail(w, "a move code that names no move");
    }
    out->plies = (int)plies;
    return true;
}

static bool get_values(ByteReader *in, GameRecord *out, Why w)
{
    int32_t prediction = VALUE_PREDICTION_START;
    for (int i = 0; i < out->plies; i++) {
        uint64_t code = record_rd_varint(in);
        if (code > 4 * (uint64_t)RECORD_VALUE_SCALE + 4)    /* no difference of two values is this far */
            return fail(w, "a root value outside 0..65535");
        int64_t v = code == 0 ? RECORD_NO_VALUE : prediction + record_unzigzag(code - 1);
        if (in->bad || v > RECORD_VALUE_SCALE || (code != 0 && v < 0))
            return fail(w, "a root value outside 0..65535");
        out->ply[i].value = (int32_t)v;
        prediction = next_prediction(prediction, out->ply[i].value);
    }
    return true;
}

/* One ply's list, as put_ply_visits stores it; put back in memory order. */
static bool get_ply_visits(ByteReader *in, GameRecord *out, RecordPly *p, Why w)
{
    uint64_t n = record_rd_varint(in);
    int64_t extra = record_unzigzag(record_rd_varint(in));
    if (in->bad || n > (uint64_t)(in->end - in->p) / 2)
        return fail(w, "a visit list larger than the record");
    if (!game_record_reserve(out, 0, out->num_visits + (size_t)n))
        return fail(w, "out of memory");
    /* a record with no visits so far has no array yet: NULL + 0 is undefined behaviour */
    RecordVisit *v = out->visit ? out->visit + out->num_visits : NULL;
    uint64_t code = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t d = record_rd_varint(in);
        code += d;
        if (in->bad || (k > 0 && d == 0) || d > 0xFFFF || code > 0xFFFF)
            return fail(w, "a bad move in a visit list");
        v[k].move = (RecordMove){(uint16_t)code};
        if (!record_move_valid(v[k].move))
            return fail(w, "a bad move in a visit list");
    }
    int64_t sum = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t visits = record_rd_varint(in);
        if (in->bad || visits > UINT32_MAX)
            return fail(w, "a bad visit count in a visit list");
        v[k].visits = (uint32_t)visits;
        sum += (int64_t)visits;
    }
    if (extra > (int64_t)UINT32_MAX || extra < -sum || sum + extra > (int64_t)UINT32_MAX)
        return fail(w, "a total visit count outside 0..2^32-1");
    record_visits_sort_from_move_order(v, (size_t)n);
    p->first_visit = (uint32_t)out->num_visits;
    p->num_visits = (uint32_t)n;
    p->total_visits = (uint32_t)(sum + extra);
    out->num_visits += (size_t)n;
    return true;
}

static bool get_visits(ByteReader *in, GameRecord *out, Why w)
{
    for (int i = 0; i < out->plies; i++)
        if (!get_ply_visits(in, out, &out->ply[i], w))
            return false;
    return true;
}

static bool get_times(ByteReader *in, GameRecord *out, Why w)
{
    for (int i = 0; i < out->plies; i++) {
        uint64_t code = record_rd_varint(in);
        if (in->bad || code > (uint64_t)INT32_MAX + 1)
            return fail(w, "a move's time outside 0..2^31-1 ms");
        out->ply[i].time_ms = code == 0 ? RECORD_NO_TIME : (int32_t)(code - 1);
    }
    return true;
}

static bool get_clock(ByteReader *in, int32_t *ms, Why w)
{
    uint64_t code = record_rd_varint(in);
    int64_t v = code == 0 ? 0 : record_unzigzag(code - 1);
    if (in->bad || v < -(int64_t)INT32_MAX || v > INT32_MAX)
        return fail(w, "a clock outside +-2^31-1 ms");
    *ms = code == 0 ? RECORD_NO_CLOCK : (int32_t)v;
    return true;
}

static bool get_clocks(ByteReader *in, GameRecord *out, Why w)
{
    for (int i = 0; i < out->plies; i++)
        if (!get_clock(in, &out->ply[i].clock_ms, w))
            return false;
    return get_clock(in, &out->final_clock_ms[0], w) && get_clock(in, &out->final_clock_ms[1], w);
}

static bool get_header_fields(ByteReader *in, const char *board, int version, GameRecord *out, int *flags, Why w)
{
    out->index = record_rd_varint(in);
    out->seed = record_rd_u64(in);
    unsigned result = record_rd_u8(in), end = record_rd_u8(in);
    *flags = (int)record_rd_u8(in);
    uint64_t start_len = record_rd_varint(in);
    if (in->bad)
        return fail(w, "record cut short");
    if (result > 2 || end >= ends_known(version) || (*flags & ~flags_known(version)))
        return fail(w, "bad result, end reason or flags");
    if (start_len >= RECORD_MAX_POSITION)
        return fail(w, "start position too long");
    const unsigned char *s = record_rd_bytes(in, (size_t)start_len);
    if (!s)
        return fail(w, "record cut short");
    out->result = result_of_code[result];
    out->end = (RecordEnd)end;
    if (start_len == 0)
        snprintf(out->start, sizeof out->start, "%s", board);
    else {
        memcpy(out->start, s, (size_t)start_len);
        out->start[start_len] = '\0';
    }
    return true;
}

bool record_decode(ByteReader *in, const char *board, int version, GameRecord *out, char *why, size_t why_len)
{
    Why w = {why, why_len};
    game_record_clear(out);
    uint64_t body_len = record_rd_varint(in);
    const unsigned char *body = in->bad ? NULL : record_rd_bytes(in, body_len > SIZE_MAX ? SIZE_MAX : (size_t)body_len);
    if (!body)
        return fail(w, "record length past the end of the chunk");
    ByteReader b = {body, body + body_len, false};
    int flags;
    if (!get_header_fields(&b, board, version, out, &flags, w))
        return false;
    uint64_t plies = record_rd_varint(&b);
    if (b.bad || !get_moves(&b, out, plies, w))
        return b.bad ? fail(w, "record cut short") : false;
    if ((flags & FLAG_VALUES) && !get_values(&b, out, w))
        return false;
    if ((flags & FLAG_VISITS) && !get_visits(&b, out, w))
        return false;
    if ((flags & FLAG_TIMES) && !get_times(&b, out, w))
        return false;
    if ((flags & FLAG_CLOCKS) && !get_clocks(&b, out, w))
        return false;
    return !b.bad || fail(w, "record cut short");
}

bool record_peek(const unsigned char *p, size_t avail, uint64_t *index, size_t *record_bytes)
{
    ByteReader r = {p, p + avail, false};
    uint64_t body_len = record_rd_varint(&r);
    size_t prefix = (size_t)(r.p - p);
    if (r.bad || body_len > avail - prefix)
        return false;
    ByteReader b = {r.p, r.p + body_len, false};
    *index = record_rd_varint(&b);
    *record_bytes = prefix + (size_t)body_len;
    return !b.bad;
}
