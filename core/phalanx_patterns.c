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
 *
 * Those segments are the base family (PATTERN_BASE).  The 2-D families add windows that see a
 * group's neighbours across a line as well as along it, again one table per distance from home
 * and shared by every file and by the mirror image (read right to left):
 *
 *   2x4 R       two ranks (R and R+1) of four files; 6,561 configurations
 *   4x2 R       two files of four ranks from R
 *   3x3 R       three ranks of three files from R; 19,683 configurations
 *
 * A window is read as straight runs of its squares (a rank's four, a file's four, a rank's
 * three), each a few consecutive bits of one rotated line as for the segments, so an instance
 * costs two or three lookups more than a segment.
 */
#include "phalanx.h"
#include "pattern.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEGMENT = 4, PHALANX_PHASES = 4, MAX_PARTS = 3 };

/* How a run's own and enemy bits become its base-3 number: runs of four or three squares, read
 * upwards (the lowest bit the lowest digit) or downwards. */
enum { RUN4_UP, RUN4_DOWN, RUN3_UP, RUN3_DOWN, RUN_KINDS };

/* Where a straight run of squares lies in a colour's frame (Black's mirrored top to bottom):
 * four bits of one rotated line from `shift` (a run of three uses the low three). */
typedef struct {
    uint8_t line, shift, kind;
} PatternWindow;

/* Instances [0, segments) are segments, [segments, pairs) two runs of four (2x4, 4x2), the rest
 * three runs of three (3x3); first[] holds every instance's first run, more[] a block's others. */
struct PhalanxPatterns {
    PatternSet set;
    int segments, pairs;
    uint32_t offset[PATTERN_MAX_INSTANCES];     /* each instance's shape's raw offset */
    PatternWindow first[2][PATTERN_MAX_INSTANCES];
    PatternWindow more[2][PATTERN_MAX_INSTANCES][MAX_PARTS - 1];
    uint8_t number[RUN_KINDS][256];             /* [kind][own bits | enemy bits << 4] */
    char names[PATTERN_MAX_SHAPES][24];
};

/* A 2-D family: `parts` runs of `cells` squares; a run steps (cell_df, cell_dr) from square to
 * square and the next run starts (part_df, part_dr) from the last one's start. */
typedef struct {
    unsigned family;
    const char *name;
    int parts, cells, part_df, part_dr, cell_df, cell_dr;
} BlockKind;

static const BlockKind BLOCK_KINDS[] = {
    {PATTERN_2X4, "2x4_", 2, 4, 0, 1, 1, 0},
    {PATTERN_4X2, "4x2_", 2, 4, 1, 0, 0, 1},
    {PATTERN_3X3, "3x3_", 3, 3, 0, 1, 1, 0},
};
enum { NUM_BLOCK_KINDS = sizeof BLOCK_KINDS / sizeof BLOCK_KINDS[0] };

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

/* The base-3 number of `cells` bits with digits 0/1, read upwards or downwards. */
static unsigned bits_number(unsigned bits, int cells, bool down)
{
    unsigned n = 0;
    for (int k = 0; k < cells; k++)
        n = n * 3 + (bits >> (down ? k : cells - 1 - k) & 1);
    return n;
}

/* number[kind][own | enemy << 4]: a run's own stones as digit 1, its enemy stones as digit 2, in
 * one lookup (a table of a kilobyte, built with the set). */
static void build_numbers(PhalanxPatterns *pp)
{
    for (int kind = 0; kind < RUN_KINDS; kind++) {
        const int cells = kind < RUN3_UP ? 4 : 3;
        const bool down = kind == RUN4_DOWN || kind == RUN3_DOWN;
        for (unsigned own = 0; own < 16; own++)
            for (unsigned enemy = 0; enemy < 16; enemy++)
                pp->number[kind][own | enemy << 4] =
                    (uint8_t)(bits_number(own, cells, down) + 2 * bits_number(enemy, cells, down));
    }
}

static inline uint32_t run_number(const PhalanxPatterns *pp, PatternWindow w, const uint16_t *own,
                                  const uint16_t *enemy)
{
    return pp->number[w.kind][((own[w.line] >> w.shift) & 15) | ((enemy[w.line] >> w.shift) & 15) << 4];
}

static void phalanx_raw_indices(const PatternSet *set, const Game *g, const Position *pos, uint32_t *out)
{
    (void)g;
    const PhalanxPatterns *pp = (const PhalanxPatterns *)(const void *)set;    /* set is its first member */
    const PhalanxPos *p = cpos_of(pos);
    const int us = p->side;
    const uint16_t *own = p->lines[us], *enemy = p->lines[!us];
    const PatternWindow *first = pp->first[us];
    const PatternWindow(*more)[MAX_PARTS - 1] = pp->more[us];
    int i = 0;
    for (; i < pp->segments; i++)
        out[i] = pp->offset[i] + run_number(pp, first[i], own, enemy);
    for (; i < pp->pairs; i++)
        out[i] = pp->offset[i] + run_number(pp, first[i], own, enemy) + 81 * run_number(pp, more[i][0], own, enemy);
    for (; i < pp->set.num_instances; i++)
        out[i] = pp->offset[i] + run_number(pp, first[i], own, enemy) + 27 * run_number(pp, more[i][0], own, enemy) +
                 729 * run_number(pp, more[i][1], own, enemy);
}

/* The rotated line through `cells` squares in reading order, and where on it they lie. */
static PatternWindow window_of(const int *sq, int cells)
{
    const int f0 = sq_file(sq[0]), r0 = sq_rank(sq[0]), df = sq_file(sq[1]) - f0, dr = sq_rank(sq[1]) - r0;
    PatternWindow w;
    bool down;
    if (dr == 0) {          /* along a rank: bit = file */
        w.line = (uint8_t)(ROW0 + r0);
        down = df < 0;
        w.shift = (uint8_t)(down ? f0 - (cells - 1) : f0);
    } else {                /* files and diagonals: bit = rank */
        w.line = (uint8_t)(df == 0 ? COL0 + f0 : df == dr ? DIAG0 + f0 - r0 + 15 : ANTI0 + f0 + r0);
        down = dr < 0;
        w.shift = (uint8_t)(down ? r0 - (cells - 1) : r0);
    }
    w.kind = (uint8_t)(cells == SEGMENT ? (down ? RUN4_DOWN : RUN4_UP) : (down ? RUN3_DOWN : RUN3_UP));
    return w;
}

/* The mirror of a rank segment reads its cells backwards. */
static void reversal(PatternShapeSpec *spec)
{
    spec->num_self = 1;
    for (int k = 0; k < SEGMENT; k++)
        spec->self[0][k] = SEGMENT - 1 - k;
}

/* A block's squares from (f, r) in reading order, or false when one is off the board or an
 * obstacle. */
static bool block_squares(const PhalanxTables *t, const BlockKind *kind, int f, int r, int *squares)
{
    for (int j = 0; j < kind->parts; j++)
        for (int k = 0; k < kind->cells; k++) {
            const int file = f + j * kind->part_df + k * kind->cell_df, rank = r + j * kind->part_dr + k * kind->cell_dr;
            if (!phalanx_on_board(t, file, rank) || phalanx_is_obstacle(t, make_sq(file, rank)))
                return false;
            squares[j * kind->cells + k] = make_sq(file, rank);
        }
    return true;
}

/* The block's mirror image (files read right to left) as a permutation of its cells. */
static void block_mirror(const BlockKind *kind, PatternShapeSpec *spec)
{
    const int width = (kind->parts - 1) * kind->part_df + (kind->cells - 1) * kind->cell_df;
    spec->num_self = 1;
    for (int j = 0; j < kind->parts; j++)
        for (int k = 0; k < kind->cells; k++) {
            const int df = width - (j * kind->part_df + k * kind->cell_df), dr = j * kind->part_dr + k * kind->cell_dr;
            for (int j2 = 0; j2 < kind->parts; j2++)
                for (int k2 = 0; k2 < kind->cells; k2++)
                    if (j2 * kind->part_df + k2 * kind->cell_df == df && j2 * kind->part_dr + k2 * kind->cell_dr == dr)
                        spec->self[0][j * kind->cells + k] = j2 * kind->cells + k2;
        }
}

/* The specs being gathered for a set, and the squares of their instances (each shape's
 * instances x cells, one shape after the other). */
typedef struct {
    PatternShapeSpec specs[PATTERN_MAX_SHAPES];
    int shapes, used;           /* instances so far */
    int *squares, *next;        /* PATTERN_MAX_INSTANCES x PATTERN_MAX_CELLS; the next free */
} Specs;

static void add_shape(Specs *s, PhalanxPatterns *pp, int cells, int instances, const char *kind, int dist)
{
    PatternShapeSpec *spec = &s->specs[s->shapes];
    *spec = (PatternShapeSpec){.cells = cells, .instances = instances, .squares = s->next};
    snprintf(pp->names[s->shapes], sizeof pp->names[0], "%s%d", kind, dist + 1);
    spec->name = pp->names[s->shapes++];
    s->used += instances;
    s->next += instances * cells;
}

static void add_segment_shapes(const PhalanxTables *t, PhalanxPatterns *pp, Specs *s)
{
    for (int k = 0; k < NUM_KINDS; k++)
        for (int dist = 0; dist < t->height; dist++) {
            const int n = s->used + 2 * t->width <= PATTERN_MAX_INSTANCES ? add_segments(t, &KINDS[k], dist, s->next) : 0;
            if (n == 0)
                continue;
            add_shape(s, pp, SEGMENT, n, KINDS[k].name, dist);
            if (KINDS[k].dr == 0)
                reversal(&s->specs[s->shapes - 1]);
        }
}

static void add_block_shapes(const PhalanxTables *t, PhalanxPatterns *pp, Specs *s, const BlockKind *kind)
{
    const int cells = kind->parts * kind->cells;
    for (int dist = 0; dist < t->height; dist++) {
        int n = 0;
        for (int f = 0; f < t->width && s->used + n < PATTERN_MAX_INSTANCES; f++)
            n += block_squares(t, kind, f, dist, s->next + n * cells);
        if (n == 0)
            continue;
        add_shape(s, pp, cells, n, kind->name, dist);
        block_mirror(kind, &s->specs[s->shapes - 1]);
    }
}

/* Where instance i's squares lie in each colour's frame. */
static void place_instance(const PhalanxTables *t, PhalanxPatterns *pp, int i, const int *squares)
{
    const PatternShape *shape = &pp->set.shape[pp->set.instance_shape[i]];
    const int run = shape->cells == 9 ? 3 : SEGMENT, parts = shape->cells / run;   /* 3x3: runs of three */
    int mirrored[PATTERN_MAX_CELLS];
    for (int k = 0; k < shape->cells; k++)
        mirrored[k] = make_sq(sq_file(squares[k]), t->height - 1 - sq_rank(squares[k]));
    pp->offset[i] = shape->raw_offset;
    for (int c = 0; c < 2; c++) {
        const int *sq = c == WHITE ? squares : mirrored;
        pp->first[c][i] = window_of(sq, run);
        for (int j = 1; j < parts; j++)
            pp->more[c][i][j - 1] = window_of(sq + j * run, run);
    }
}

static bool build(const PhalanxTables *t, PhalanxPatterns *pp, unsigned families)
{
    static_assert((int)(NUM_KINDS + NUM_BLOCK_KINDS) * 16 <= (int)PATTERN_MAX_SHAPES, "every kind at every rank fits");
    Specs *s = calloc(1, sizeof *s);
    int *squares = malloc((size_t)PATTERN_MAX_INSTANCES * PATTERN_MAX_CELLS * sizeof *squares);
    bool ok = s && squares;
    if (ok) {
        s->squares = s->next = squares;
        if (families & PATTERN_BASE)
            add_segment_shapes(t, pp, s);
        pp->segments = pp->pairs = s->used;
        for (int k = 0; k < NUM_BLOCK_KINDS; k++) {
            if (families & BLOCK_KINDS[k].family)
                add_block_shapes(t, pp, s, &BLOCK_KINDS[k]);
            if (BLOCK_KINDS[k].parts == 2)      /* BLOCK_KINDS lists the pairs before the triples */
                pp->pairs = s->used;
        }
        ok = s->shapes > 0 && pattern_set_init(&pp->set, s->specs, s->shapes, PHALANX_PHASES, 256);
    }
    for (int k = 0, i = 0; ok && k < s->shapes; k++)
        for (int j = 0; j < s->specs[k].instances; j++)
            place_instance(t, pp, i++, s->specs[k].squares + j * s->specs[k].cells);
    free(squares);
    free(s);
    return ok;
}

static PhalanxPatterns *phalanx_patterns_new(const PhalanxTables *t, unsigned families)
{
    PhalanxPatterns *pp = calloc(1, sizeof *pp);
    if (!pp)
        return NULL;
    if (!build(t, pp, families)) {
        free(pp);
        return NULL;
    }
    build_numbers(pp);
    pp->set.families = families;
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

const PatternSet *phalanx_pattern_set(const PhalanxTables *t, unsigned families)
{
    if (families == 0 || families > PATTERN_ALL_FAMILIES)
        return NULL;
    /* Built on first use, not with the game: most games (perft, the rules tests, every parse of
     * a position in a fuzzer) never evaluate.  As with the line tables, whoever finds none builds
     * one and publishes it; a thread that loses the race frees its identical copy. */
    _Atomic(PhalanxPatterns *) *slot = (_Atomic(PhalanxPatterns *) *)&t->patterns[families];  /* t is calloc'd */
    PhalanxPatterns *pp = atomic_load_explicit(slot, memory_order_acquire);
    if (!pp) {
        PhalanxPatterns *built = phalanx_patterns_new(t, families), *expected = NULL;
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
