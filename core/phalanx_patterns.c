/*
 * phalanx_patterns.c - the phalanx games' pattern set (core/pattern.h): line segments of four
 * squares along ranks, files and diagonals, read from the mover's side (its home rank at the
 * bottom, its stones as digit 1), with one table for each kind of segment at each distance from
 * the mover's home rank, so that a configuration's worth can depend on how far it is from both
 * home ranks; one set of tables per phase of the game (stones left).
 *
 *   rank R      the four squares f .. f+3 of the R-th rank from home, for every f; a rank and
 *               its mirror image (read right to left) are one configuration
 *   file R      the four squares of one file from the R-th rank up, for every file
 *   diagonal R  four squares up a diagonal from the R-th rank, north-east or north-west (a
 *               north-west segment is a north-east one in the mirror, so they share a table)
 *
 * Four squares hold the shapes the rules turn on (a group of up to three facing a shorter
 * enemy line, the empty squares a group may cross), in 81 configurations a table, so that tens
 * of thousands of self-play positions fill every table; longer segments were not better on the
 * data we have (docs/FEATURES.md).  A segment that holds an obstacle is left out.  The tables
 * depend on the board: a weights file's tables serve only the board (and obstacles) they were
 * made for.
 */
#include "phalanx.h"
#include "pattern.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { SEGMENT = 4, PHALANX_PHASES = 4 };

typedef struct {
    int df, dr;                 /* step from one cell to the next, White's frame */
    const char *name;
} Kind;

static const Kind KINDS[] = {{1, 0, "rank"}, {0, 1, "file"}, {1, 1, "diagonal"}};
enum { NUM_KINDS = sizeof KINDS / sizeof KINDS[0] };

static bool segment_clear(const PhalanxTables *t, int f, int r, int df, int dr)
{
    for (int k = 0; k < SEGMENT; k++, f += df, r += dr)
        if (!phalanx_on_board(t, f, r) || phalanx_is_obstacle(t, make_sq(f, r)))
            return false;
    return true;
}

/* Appends the segments of one kind that start `dist` ranks from White's home rank; for the
 * diagonal kind both the north-east ones and their mirrors. */
static int add_segments(const PhalanxTables *t, const Kind *kind, int dist, int *squares)
{
    int n = 0;
    const int mirrors = kind->df && kind->dr ? 2 : 1;
    for (int m = 0; m < mirrors; m++) {
        const int df = m ? -kind->df : kind->df;
        for (int f = 0; f < t->width; f++) {
            if (!segment_clear(t, f, dist, df, kind->dr))
                continue;
            for (int k = 0; k < SEGMENT; k++)
                squares[n * SEGMENT + k] = make_sq(f + k * df, dist + k * kind->dr);
            n++;
        }
    }
    return n;
}

static int phalanx_phase(const Game *g, const Position *pos)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    const int left = p->stones[WHITE] + p->stones[BLACK], start = 4 * t->width;
    const int phase = PHALANX_PHASES - 1 - left * PHALANX_PHASES / (start + 1);
    return phase < 0 ? 0 : phase;
}

/* Four bits as a base-3 number with digits 0/1, reading the bits upwards (FORWARD) or
 * downwards (BACKWARD): a window's own stones, or its enemy stones, times 2. */
static const uint8_t FORWARD[16] = {0, 1, 3, 4, 9, 10, 12, 13, 27, 28, 30, 31, 36, 37, 39, 40};
static const uint8_t BACKWARD[16] = {0, 27, 9, 36, 3, 30, 12, 39, 1, 28, 10, 37, 4, 31, 13, 40};

static void phalanx_raw_indices(const PatternSet *set, const Game *g, const Position *pos, uint32_t *out)
{
    (void)g;
    const PhalanxPatterns *pp = (const PhalanxPatterns *)(const void *)set;    /* set is its first member */
    const PhalanxPos *p = cpos_of(pos);
    const int us = p->side;
    const uint16_t *own = p->lines[us], *enemy = p->lines[!us];
    const PatternWindow *w = pp->window[us];
    for (int i = 0; i < pp->set.num_instances; i++) {
        const uint8_t *digits = w[i].reversed ? BACKWARD : FORWARD;
        out[i] = pp->offset[i] + digits[(own[w[i].line] >> w[i].shift) & 15] +
                 2u * digits[(enemy[w[i].line] >> w[i].shift) & 15];
    }
}

/* The rotated line through four squares in reading order, and where on it they lie. */
static PatternWindow window_of(const int *sq)
{
    const int f0 = sq_file(sq[0]), r0 = sq_rank(sq[0]), df = sq_file(sq[1]) - f0, dr = sq_rank(sq[1]) - r0;
    PatternWindow w;
    if (dr == 0) {          /* along a rank: bit = file */
        w.line = (uint8_t)(ROW0 + r0);
        w.reversed = df < 0;
        w.shift = (uint8_t)(df < 0 ? f0 - 3 : f0);
        return w;
    }
    /* files and diagonals: bit = rank */
    w.line = (uint8_t)(df == 0 ? COL0 + f0 : df == dr ? DIAG0 + f0 - r0 + 15 : ANTI0 + f0 + r0);
    w.reversed = dr < 0;
    w.shift = (uint8_t)(dr < 0 ? r0 - 3 : r0);
    return w;
}

/* The mirror of a rank segment reads its cells backwards. */
static void reversal(PatternShapeSpec *spec)
{
    spec->num_self = 1;
    for (int k = 0; k < SEGMENT; k++)
        spec->self[0][k] = SEGMENT - 1 - k;
}

static bool build(const PhalanxTables *t, PhalanxPatterns *pp)
{
    enum { MAX_SHAPES = NUM_KINDS * 16 };
    static_assert((int)MAX_SHAPES <= (int)PATTERN_MAX_SHAPES, "every kind at every rank fits");
    PatternShapeSpec specs[MAX_SHAPES];
    int *squares = malloc((size_t)PATTERN_MAX_INSTANCES * SEGMENT * sizeof *squares);
    if (!squares)
        return false;
    int shapes = 0, used = 0;
    for (int k = 0; k < NUM_KINDS; k++)
        for (int dist = 0; dist < t->height; dist++) {
            int *at = squares + used * SEGMENT;
            const int n = used + 2 * t->width <= PATTERN_MAX_INSTANCES ? add_segments(t, &KINDS[k], dist, at) : 0;
            if (n == 0)
                continue;
            PatternShapeSpec *s = &specs[shapes++];
            *s = (PatternShapeSpec){.cells = SEGMENT, .instances = n, .squares = at};
            snprintf(pp->names[shapes - 1], sizeof pp->names[0], "%s%d", KINDS[k].name, dist + 1);
            s->name = pp->names[shapes - 1];
            if (KINDS[k].dr == 0)
                reversal(s);
            used += n;
        }
    const bool ok = shapes > 0 && pattern_set_init(&pp->set, specs, shapes, PHALANX_PHASES, 256);
    for (int i = 0; ok && i < used; i++) {
        const PatternShape *shape = &pp->set.shape[pp->set.instance_shape[i]];
        pp->offset[i] = shape->raw_offset;
        int mirrored[SEGMENT];
        for (int k = 0; k < SEGMENT; k++) {
            const int sq = squares[i * SEGMENT + k];
            mirrored[k] = make_sq(sq_file(sq), t->height - 1 - sq_rank(sq));
        }
        pp->window[WHITE][i] = window_of(squares + i * SEGMENT);
        pp->window[BLACK][i] = window_of(mirrored);
    }
    free(squares);
    return ok;
}

static PhalanxPatterns *phalanx_patterns_new(const PhalanxTables *t)
{
    PhalanxPatterns *pp = calloc(1, sizeof *pp);
    if (!pp)
        return NULL;
    if (!build(t, pp)) {
        free(pp);
        return NULL;
    }
    pp->set.phase = phalanx_phase;
    pp->set.raw_indices = phalanx_raw_indices;
    return pp;
}

void phalanx_patterns_free(PhalanxPatterns *pp)
{
    if (!pp)
        return;
    pattern_set_free(&pp->set);
    free(pp);
}

const PatternSet *phalanx_pattern_set(const PhalanxTables *t)
{
    /* Built on first use, not with the game: most games (perft, the rules tests, every parse of
     * a position in a fuzzer) never evaluate.  As with the line tables, whoever finds none builds
     * one and publishes it; a thread that loses the race frees its identical copy. */
    _Atomic(PhalanxPatterns *) *slot = (_Atomic(PhalanxPatterns *) *)&t->patterns;  /* t is calloc'd */
    PhalanxPatterns *pp = atomic_load_explicit(slot, memory_order_acquire);
    if (!pp) {
        PhalanxPatterns *built = phalanx_patterns_new(t), *expected = NULL;
        if (!built)
            return NULL;
        if (atomic_compare_exchange_strong_explicit(slot, &expected, built, memory_order_acq_rel, memory_order_acquire))
            pp = built;
        else {
            phalanx_patterns_free(built);
            pp = expected;
        }
    }
    return &pp->set;
}
