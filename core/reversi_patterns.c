/*
 * reversi_patterns.c - the Reversi pattern set (core/pattern.h): the classical shapes of
 * Logistello and Edax, each placed on the board by the eight symmetries of the square, read
 * relative to the side to move, with one set of tables per phase of the game.
 *
 * The shapes, with the squares of the instance at a1 (its first square is the lowest base-3
 * digit):
 *   corner3x3   a1 b1 c1 a2 b2 c2 a3 b3 c3                   4 instances
 *   corner2x5   a1 b1 c1 d1 e1 a2 b2 c2 d2 e2                8 (two per corner)
 *   edge2x      a1 ... h1 and the X-squares b2, g2           4
 *   row2/3/4    the second, third and fourth row              4 each
 *   diag8..4    the diagonals of 8 down to 4 squares          2, then 4 each
 * 46 instances; 167,265 raw and 113,877 canonical entries a phase.
 *
 * Phases: the disc count cut into REVERSI_PHASES equal ranges (about five discs each), since what
 * a configuration is worth changes as the board fills (an empty corner region is an asset early
 * and a liability late).
 */
#include "reversi.h"
#include "pattern.h"

#include <stdlib.h>
#ifdef REVERSI_PATTERNS_PEXT
#include <immintrin.h>
#endif

enum { REVERSI_PHASES = 12 };

static const int CORNER3X3[] = {0, 1, 2, 8, 9, 10, 16, 17, 18};
static const int CORNER2X5[] = {0, 1, 2, 3, 4, 8, 9, 10, 11, 12};
static const int EDGE2X[] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 14};
static const int ROW2[] = {8, 9, 10, 11, 12, 13, 14, 15};
static const int ROW3[] = {16, 17, 18, 19, 20, 21, 22, 23};
static const int ROW4[] = {24, 25, 26, 27, 28, 29, 30, 31};
static const int DIAG8[] = {0, 9, 18, 27, 36, 45, 54, 63};
static const int DIAG7[] = {1, 10, 19, 28, 37, 46, 55};
static const int DIAG6[] = {2, 11, 20, 29, 38, 47};
static const int DIAG5[] = {3, 12, 21, 30, 39};
static const int DIAG4[] = {4, 13, 22, 31};

typedef struct {
    const char *name;
    const int *squares;
    int cells;
} BaseShape;

static const BaseShape BASE_SHAPES[] = {
    {"corner3x3", CORNER3X3, 9}, {"corner2x5", CORNER2X5, 10}, {"edge2x", EDGE2X, 10},
    {"row2", ROW2, 8},           {"row3", ROW3, 8},            {"row4", ROW4, 8},
    {"diag8", DIAG8, 8},         {"diag7", DIAG7, 7},          {"diag6", DIAG6, 6},
    {"diag5", DIAG5, 5},         {"diag4", DIAG4, 4},
};
enum { NUM_SHAPES = sizeof BASE_SHAPES / sizeof BASE_SHAPES[0], NUM_SYMMETRIES = 8 };

/* The eight symmetries of the board as square permutations. */
static void board_symmetries(int out[NUM_SYMMETRIES][SQUARES])
{
    for (int sq = 0; sq < SQUARES; sq++) {
        const int r = sq / 8, c = sq % 8;
        const int images[NUM_SYMMETRIES][2] = {
            {r, c}, {r, 7 - c}, {7 - r, c}, {7 - r, 7 - c}, {c, r}, {7 - c, 7 - r}, {c, 7 - r}, {7 - c, r},
        };
        for (int s = 0; s < NUM_SYMMETRIES; s++)
            out[s][sq] = images[s][0] * 8 + images[s][1];
    }
}

static bool same_square_set(const int *a, const int *b, int n)
{
    uint64_t x = 0, y = 0;
    for (int k = 0; k < n; k++) {
        x |= 1ull << a[k];
        y |= 1ull << b[k];
    }
    return x == y;
}

/* perm[k] for a symmetry that maps the instance's squares onto themselves: square k of the
 * instance goes to square perm[k].  False when the symmetry moves the squares elsewhere. */
static bool stabilising_permutation(const int *squares, int cells, const int *symmetry, int *perm)
{
    for (int k = 0; k < cells; k++) {
        const int image = symmetry[squares[k]];
        perm[k] = -1;
        for (int j = 0; j < cells; j++)
            if (squares[j] == image)
                perm[k] = j;
        if (perm[k] < 0)
            return false;
    }
    return true;
}

/* The shape's own symmetries: the board symmetries that map its first instance onto itself. */
static void shape_symmetries(PatternShapeSpec *spec, int symmetries[NUM_SYMMETRIES][SQUARES])
{
    spec->num_self = 0;
    for (int s = 1; s < NUM_SYMMETRIES; s++)
        if (stabilising_permutation(spec->squares, spec->cells, symmetries[s], spec->self[spec->num_self]))
            spec->num_self++;
}

/* The instances of a shape: its images under the symmetries, one for each distinct square set. */
static int place_shape(const BaseShape *base, int symmetries[NUM_SYMMETRIES][SQUARES], int *out)
{
    int n = 0;
    for (int s = 0; s < NUM_SYMMETRIES; s++) {
        int image[PATTERN_MAX_CELLS];
        for (int k = 0; k < base->cells; k++)
            image[k] = symmetries[s][base->squares[k]];
        bool seen = false;
        for (int i = 0; i < n && !seen; i++)
            seen = same_square_set(out + i * base->cells, image, base->cells);
        if (!seen) {
            for (int k = 0; k < base->cells; k++)
                out[n * base->cells + k] = image[k];
            n++;
        }
    }
    return n;
}

static int reversi_phase(const Game *g, const Position *p)
{
    (void)g;
    const Board b = load_board(p);
    const int discs = popcount64(b.own | b.opp);
    const int phase = (discs - 4) * REVERSI_PHASES / (SQUARES - 3);
    return phase < 0 ? 0 : phase >= REVERSI_PHASES ? REVERSI_PHASES - 1 : phase;
}

/* Adds digit x 3^k to the index of every instance that reads `square` as its k-th cell. */
static inline void add_square(const ReversiPatterns *rp, int square, uint32_t digit, uint32_t *out)
{
    for (int e = rp->square_first[square]; e < rp->square_first[square + 1]; e++)
        out[rp->entry_instance[e]] += digit * rp->entry_power[e];
}

/* An instance's index is the sum of its occupied cells' digits (1 own, 2 the opponent's) times
 * 3^k, so only the discs on the board are visited: about half the work of reading every cell
 * of every instance, averaged over a game. */
void reversi_raw_indices_by_discs(const ReversiPatterns *rp, const Position *p, uint32_t *out)
{
    const Board b = load_board(p);
    memcpy(out, rp->offset, (size_t)rp->set.num_instances * sizeof out[0]);
    for (uint64_t own = b.own; own; own &= own - 1)
        add_square(rp, lowest_square(own), 1, out);
    for (uint64_t opp = b.opp; opp; opp &= opp - 1)
        add_square(rp, lowest_square(opp), 2, out);
}

/* Where pext is fast, each instance's own discs and the opponent's, extracted and looked up: no
 * instance waits on another, where the disc by disc sums above add into the same instances one
 * after another: 1.10x and 1.12x the Reversi search's visits/s at 200,000 visits, 1.06x at
 * 1,000,000. */
static void reversi_raw_indices(const PatternSet *set, const Game *g, const Position *p, uint32_t *out)
{
    (void)g;
    const ReversiPatterns *rp = (const ReversiPatterns *)(const void *)set;    /* set is its first member */
#ifdef REVERSI_PATTERNS_PEXT
    const Board b = load_board(p);
    for (int i = 0; i < REVERSI_INSTANCES; i++) {
        const uint16_t *ternary = rp->ternary + rp->ternary_first[i];
        out[i] = rp->offset[i] + ternary[_pext_u64(b.own, rp->instance_mask[i])] +
                 2u * ternary[_pext_u64(b.opp, rp->instance_mask[i])];
    }
#else
    reversi_raw_indices_by_discs(rp, p, out);
#endif
}

/* Each instance's mask and its table: bit j of an extraction is the instance's j-th square in
 * square order, whose cell k in reading order has the digit weight 3^k. */
static bool index_masks(ReversiPatterns *rp, const int *cells, const uint8_t *squares)
{
    if (rp->set.num_instances != REVERSI_INSTANCES)
        return false;
    uint32_t next = 0;
    for (int i = 0, at = 0; i < REVERSI_INSTANCES; at += cells[i], i++) {
        uint64_t mask = 0;
        for (int k = 0; k < cells[i]; k++)
            mask |= 1ull << squares[at + k];
        uint32_t weight[PATTERN_MAX_CELLS];     /* of the mask's j-th square */
        for (int k = 0, power = 1; k < cells[i]; k++, power *= 3)
            weight[popcount64(mask & ((1ull << squares[at + k]) - 1))] = (uint32_t)power;
        const uint32_t size = 1u << cells[i];
        if (next + size > REVERSI_TERNARY_ENTRIES)
            return false;
        rp->instance_mask[i] = mask;
        rp->ternary_first[i] = next;
        for (uint32_t bits = 0; bits < size; bits++) {
            uint32_t number = 0;
            for (int j = 0; j < cells[i]; j++)
                number += (bits >> j & 1) * weight[j];
            rp->ternary[next + bits] = (uint16_t)number;
        }
        next += size;
    }
    return next == REVERSI_TERNARY_ENTRIES;
}

/* The per-square lists of reversi_raw_indices_by_discs, from the instances' squares in reading
 * order. */
static void index_squares(ReversiPatterns *rp, const int *cells, const uint8_t *squares)
{
    int count[SQUARES] = {0}, at = 0;
    for (int i = 0; i < rp->set.num_instances; i++)
        for (int k = 0; k < cells[i]; k++)
            count[squares[at++]]++;
    rp->square_first[0] = 0;
    for (int s = 0; s < SQUARES; s++)
        rp->square_first[s + 1] = (uint16_t)(rp->square_first[s] + count[s]);
    int next[SQUARES];
    for (int s = 0; s < SQUARES; s++)
        next[s] = rp->square_first[s];
    at = 0;
    for (int i = 0; i < rp->set.num_instances; i++) {
        uint32_t power = 1;
        for (int k = 0; k < cells[i]; k++, power *= 3) {
            const int e = next[squares[at++]]++;
            rp->entry_instance[e] = (uint8_t)i;
            rp->entry_power[e] = power;
        }
    }
}

bool reversi_patterns_init(ReversiPatterns *rp)
{
    int symmetries[NUM_SYMMETRIES][SQUARES];
    board_symmetries(symmetries);
    static_assert((int)NUM_SHAPES <= (int)PATTERN_MAX_SHAPES, "shapes fit");
    int squares[NUM_SHAPES][NUM_SYMMETRIES * PATTERN_MAX_CELLS];
    PatternShapeSpec specs[NUM_SHAPES];
    for (int s = 0; s < NUM_SHAPES; s++) {
        specs[s] = (PatternShapeSpec){BASE_SHAPES[s].name, BASE_SHAPES[s].cells,
                                      place_shape(&BASE_SHAPES[s], symmetries, squares[s]), squares[s], 0, {{0}}};
        shape_symmetries(&specs[s], symmetries);
    }
    if (!pattern_set_init(&rp->set, specs, NUM_SHAPES, REVERSI_PHASES, SQUARES))
        return false;
    rp->set.families = PATTERN_BASE;
    rp->set.phase = reversi_phase;
    rp->set.raw_indices = reversi_raw_indices;
    int instance = 0, at = 0, cells[PATTERN_MAX_INSTANCES];
    uint8_t reading[PATTERN_MAX_INSTANCES * PATTERN_MAX_CELLS];
    for (int s = 0; s < NUM_SHAPES; s++)
        for (int i = 0; i < specs[s].instances; i++, instance++) {
            cells[instance] = specs[s].cells;
            rp->offset[instance] = rp->set.shape[s].raw_offset;
            for (int k = 0; k < specs[s].cells; k++)
                reading[at++] = (uint8_t)squares[s][i * specs[s].cells + k];
        }
    index_squares(rp, cells, reading);
    if (!index_masks(rp, cells, reading)) {
        pattern_set_free(&rp->set);
        return false;
    }
    return true;
}

void reversi_patterns_free(ReversiPatterns *rp)
{
    pattern_set_free(&rp->set);
}
