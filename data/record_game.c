/*
 * record_game.c - the in-memory game record (GameRecord): its memory, adding plies with their
 * visit distributions in the stored order, copying, the quantised root values and end names.
 */
#include "record_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const end_names[RECORD_END_COUNT] = {"rules", "ply-limit", "repetition", "no-move", "resign",
                                                         "time"};

const char *record_end_name(RecordEnd e)
{
    return (unsigned)e < RECORD_END_COUNT ? end_names[e] : "unknown";
}

void game_record_init(GameRecord *r)
{
    memset(r, 0, sizeof *r);
    r->result = STATUS_DRAW;
    r->final_clock_ms[0] = r->final_clock_ms[1] = RECORD_NO_CLOCK;
}

void game_record_free(GameRecord *r)
{
    free(r->ply);
    free(r->visit);
    game_record_init(r);
}

void game_record_clear(GameRecord *r)
{
    r->index = r->seed = 0;
    r->start[0] = '\0';
    r->result = STATUS_DRAW;
    r->end = RECORD_END_RULES;
    r->final_clock_ms[0] = r->final_clock_ms[1] = RECORD_NO_CLOCK;
    r->plies = 0;
    r->num_visits = 0;
}

/* About 24 days: a clock beyond it does not fit the stored 32 bits of milliseconds. */
#define CLOCK_LIMIT_MS 2147483000.0

int32_t record_clock_ms(double seconds)
{
    if (isnan(seconds))
        return RECORD_NO_CLOCK;
    double ms = fmax(fmin(seconds * 1000, CLOCK_LIMIT_MS), -CLOCK_LIMIT_MS);
    return (int32_t)llround(ms);
}

double record_clock_seconds(int32_t ms)
{
    return ms == RECORD_NO_CLOCK ? NAN : ms / 1000.0;
}

void game_record_time_ply(GameRecord *r, double seconds, double clock_left)
{
    if (r->plies == 0)
        return;
    RecordPly *p = &r->ply[r->plies - 1];
    p->time_ms = isnan(seconds) || seconds < 0 ? RECORD_NO_TIME : record_clock_ms(seconds);
    p->clock_ms = record_clock_ms(clock_left);
}

int game_record_version(const GameRecord *r)
{
    bool newer = r->end == RECORD_END_TIME || r->final_clock_ms[0] != RECORD_NO_CLOCK ||
                 r->final_clock_ms[1] != RECORD_NO_CLOCK;
    for (int i = 0; !newer && i < r->plies; i++)
        newer = r->ply[i].time_ms != RECORD_NO_TIME || r->ply[i].clock_ms != RECORD_NO_CLOCK;
    return newer ? 2 : 1;
}

static bool grow_plies(GameRecord *r, int need)
{
    if (need <= r->ply_capacity)
        return true;
    int cap = r->ply_capacity ? r->ply_capacity : 64;
    while (cap < need)
        cap *= 2;
    RecordPly *p = realloc(r->ply, (size_t)cap * sizeof *p);
    if (!p)
        return false;
    r->ply = p;
    r->ply_capacity = cap;
    return true;
}

static bool grow_visits(GameRecord *r, size_t need)
{
    if (need <= r->visit_capacity)
        return true;
    size_t cap = r->visit_capacity ? r->visit_capacity : 256;
    while (cap < need)
        cap *= 2;
    RecordVisit *v = realloc(r->visit, cap * sizeof *v);
    if (!v)
        return false;
    r->visit = v;
    r->visit_capacity = cap;
    return true;
}

bool game_record_reserve(GameRecord *r, int plies, size_t visits)
{
    return grow_plies(r, plies) && grow_visits(r, visits);
}

/* The order of a visit list in memory: most visits first, ties by move code; one order for one
 * set of (move, visits) pairs, so that a record read back equals the record written. */
static int visit_order(const void *a, const void *b)
{
    const RecordVisit *x = a, *y = b;
    if (x->visits != y->visits)
        return x->visits > y->visits ? -1 : 1;
    return (x->move.code > y->move.code) - (x->move.code < y->move.code);
}

/* The order on disk: by move code, which makes the codes' differences small. */
static int move_order(const void *a, const void *b)
{
    const RecordVisit *x = a, *y = b;
    return (x->move.code > y->move.code) - (x->move.code < y->move.code);
}

void record_visits_sort(RecordVisit *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, visit_order);
}

/* Bottom-up merge sort by visits, most first; equal counts keep their order, which (the input
 * being in move order) is the tie order of visit_order.  Inline comparisons instead of qsort's
 * calls through a pointer: reading records with visit lists spent half its time sorting them. */
void record_visits_sort_from_move_order(RecordVisit *v, size_t n)
{
    enum { SCRATCH = 1024 };
    RecordVisit scratch[SCRATCH];
    if (n > SCRATCH) {
        record_visits_sort(v, n);
        return;
    }
    RecordVisit *from = v, *to = scratch;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                to[k++] = from[j].visits > from[i].visits ? from[j++] : from[i++];
            while (i < mid)
                to[k++] = from[i++];
            while (j < hi)
                to[k++] = from[j++];
        }
        RecordVisit *t = from;
        from = to;
        to = t;
    }
    if (from != v)
        memcpy(v, from, n * sizeof *v);
}

void record_visits_sort_by_move(RecordVisit *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, move_order);
}

bool game_record_add_ply(GameRecord *r, RecordMove move, int32_t value, const RecordVisit *visits, int n,
                         uint32_t total_visits)
{
    if (n < 0 || !grow_plies(r, r->plies + 1) || !grow_visits(r, r->num_visits + (size_t)n))
        return false;
    RecordPly *p = &r->ply[r->plies++];
    p->move = move;
    p->value = value;
    p->total_visits = total_visits;
    p->first_visit = (uint32_t)r->num_visits;
    p->num_visits = (uint32_t)n;
    p->time_ms = RECORD_NO_TIME;
    p->clock_ms = RECORD_NO_CLOCK;
    if (n > 0) {
        memcpy(r->visit + r->num_visits, visits, (size_t)n * sizeof *visits);
        record_visits_sort(r->visit + r->num_visits, (size_t)n);
    }
    r->num_visits += (size_t)n;
    return true;
}

bool game_record_copy(GameRecord *dst, const GameRecord *src)
{
    if (!grow_plies(dst, src->plies) || !grow_visits(dst, src->num_visits))
        return false;
    RecordPly *ply = dst->ply;
    RecordVisit *visit = dst->visit;
    int ply_capacity = dst->ply_capacity;
    size_t visit_capacity = dst->visit_capacity;
    *dst = *src;
    dst->ply = ply;
    dst->visit = visit;
    dst->ply_capacity = ply_capacity;
    dst->visit_capacity = visit_capacity;
    if (src->plies > 0)
        memcpy(dst->ply, src->ply, (size_t)src->plies * sizeof *ply);
    if (src->num_visits > 0)
        memcpy(dst->visit, src->visit, src->num_visits * sizeof *visit);
    return true;
}

int32_t record_value_quantise(double v)
{
    if (isnan(v))
        return RECORD_NO_VALUE;
    if (v <= 0)
        return 0;
    if (v >= 1)
        return RECORD_VALUE_SCALE;
    return (int32_t)lround(v * RECORD_VALUE_SCALE);
}

double record_value_double(int32_t q)
{
    return q < 0 ? NAN : (double)q / RECORD_VALUE_SCALE;
}
