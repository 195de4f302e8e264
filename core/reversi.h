/*
 * reversi.h - internals shared by the Reversi files: the Board (two bitboards relative to the
 * mover), the bit helpers, and the shift-based mobility and flip fills.  Nothing outside
 * core/reversi*.c includes this; everyone else goes through game.h.
 *
 * Board layout: square (row, col) is bit row * 8 + col, where row 0 is Othello row 1 (the first
 * rank of the position string) and col 0 is file a.  So a1 is bit 0, h1 bit 7, a8 bit 56: a
 * position string reads in bit order, and a Move (the square index) needs no conversion.
 *
 * Everything here is static inline: the perft loop and the evaluation inline the fills, so the
 * split into files costs no calls.
 */
#ifndef LEUCTRA_REVERSI_H
#define LEUCTRA_REVERSI_H

#include "game.h"
#include "pattern.h"
#include "policy.h"

#include <assert.h>
#include <string.h>

/* ---------------------------------------------------------------- representation */

enum { BOARD_SIDE = 8, SQUARES = 64 };

/* The one move that is not a square. */
#define MOVE_PASS ((Move)SQUARES)

/* Discs of the two sides, relative to the mover.  No padding, so two equal positions have equal
 * bytes (tests compare positions with memcmp). */
typedef struct {
    uint64_t own;       /* discs of the side to move */
    uint64_t opp;       /* discs of the other side */
    uint64_t hash;      /* Zobrist hash, kept up to date by make/unmake */
    uint32_t side;      /* WHITE or BLACK: the colour of `own` */
    uint32_t zero;      /* always 0 */
} Board;

static_assert(sizeof(Board) == 32, "Board has no padding");
static_assert(sizeof(Board) <= sizeof(Position), "Board fits in Position");

/* Positions live in Position's bytes; copying in and out with memcpy keeps the code free of
 * aliasing questions and compiles to a couple of register moves. */
static inline Board load_board(const Position *p)
{
    Board b;
    memcpy(&b, p->bytes, sizeof b);
    return b;
}

static inline void store_board(Position *p, const Board *b)
{
    memcpy(p->bytes, b, sizeof *b);
}

static inline int popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}

static inline int lowest_square(uint64_t x)
{
    return __builtin_ctzll(x);
}

static inline uint64_t white_discs(const Board *b)
{
    return b->side == WHITE ? b->own : b->opp;
}

static inline uint64_t black_discs(const Board *b)
{
    return b->side == BLACK ? b->own : b->opp;
}

/* ---------------------------------------------------------------- mobility and flips */

typedef uint64_t U64x4 __attribute__((vector_size(32)));

/* Squares of files b..g: a run of discs that moves sideways must stay inside them, or a shift by
 * 1, 7 or 9 would wrap from one edge of the board to the other. */
#define INNER_FILES 0x7E7E7E7E7E7E7E7Eull

/*
 * The four directions that go up in bit index (east +1, south-west +7, south +8, south-east +9)
 * are shifted left, their opposites right.  `lanes` holds the opponent discs a run may cross in
 * each direction; `pairs` the squares whose predecessor is also such a disc, which lets the fill
 * double its step (Kogge-Stone): runs of 1, 2, 4, then 6 discs, the longest a board has.
 * These are macros rather than functions so that no vector crosses a call (GCC warns when a
 * 32-byte vector is passed by value in a build without AVX).
 */
#define DIR_SHIFT ((U64x4){1, 7, 8, 9})
#define DIR_SHIFT2 ((U64x4){2, 14, 16, 18})

#define LANES_OF(opp_) ((U64x4){(opp_) & INNER_FILES, (opp_) & INNER_FILES, (opp_), (opp_) & INNER_FILES})

#define FILL_UP(run_, lanes_, pairs_)                                                \
    do {                                                                             \
        (run_) |= (lanes_) & ((run_) << DIR_SHIFT);                                  \
        (run_) |= (pairs_) & ((run_) << DIR_SHIFT2);                                 \
        (run_) |= (pairs_) & ((run_) << DIR_SHIFT2);                                 \
    } while (0)

#define FILL_DOWN(run_, lanes_, pairs_)                                              \
    do {                                                                             \
        (run_) |= (lanes_) & ((run_) >> DIR_SHIFT);                                  \
        (run_) |= (pairs_) & ((run_) >> DIR_SHIFT2);                                 \
        (run_) |= (pairs_) & ((run_) >> DIR_SHIFT2);                                 \
    } while (0)

/* Empty squares where `own` may place: the square just past a run of `opp` discs that starts
 * next to an own disc. */
static inline uint64_t legal_squares(uint64_t own, uint64_t opp)
{
    const U64x4 lanes = LANES_OF(opp);
    const U64x4 seeds = {own, own, own, own};
    U64x4 up = lanes & (seeds << DIR_SHIFT);
    U64x4 down = lanes & (seeds >> DIR_SHIFT);
    FILL_UP(up, lanes, lanes & (lanes << DIR_SHIFT));
    FILL_DOWN(down, lanes, lanes & (lanes >> DIR_SHIFT));
    const U64x4 reach = (up << DIR_SHIFT) | (down >> DIR_SHIFT);
    return (reach[0] | reach[1] | reach[2] | reach[3]) & ~(own | opp);
}

/* The squares past each square, to the board's edge, in the directions that go up in bit index
 * (the lanes of DIR_SHIFT: east, south-west, south, south-east) and in those that go down (west,
 * north-east, north, north-west); reversi_rays.c. */
typedef struct {
    _Alignas(32) uint64_t up[4];
    _Alignas(32) uint64_t down[4];
} ReversiRays;
extern const ReversiRays reversi_rays[SQUARES];

#if defined(__AVX512VL__) && defined(__AVX512CD__)
#include <immintrin.h>

/* The opponent discs that a disc placed on `square` turns over.  Along each ray from the
 * square: going up in bit index, the ray's lowest square that holds no opponent disc ends the
 * run, and when it holds an own disc the ray's squares below it turn; going down, its highest
 * square (found by a leading-zero count) and the squares above it.  Half the vector work of the
 * fill below, where the processor counts leading zeros in vectors (AVX-512 CD): the endgame
 * solver ran 1.1x faster on FFO #40-#47. */
static inline uint64_t flipped_by(int square, uint64_t own, uint64_t opp)
{
    const __m256i mine = _mm256_set1_epi64x((long long)own), theirs = _mm256_set1_epi64x((long long)opp);
    const __m256i up = _mm256_load_si256((const __m256i *)(const void *)reversi_rays[square].up);
    const __m256i down = _mm256_load_si256((const __m256i *)(const void *)reversi_rays[square].down);
    const __m256i zero = _mm256_setzero_si256();
    __m256i open = _mm256_andnot_si256(theirs, up);
    const __m256i first = _mm256_and_si256(open, _mm256_sub_epi64(zero, open));
    __m256i flips = _mm256_maskz_and_epi64(_mm256_test_epi64_mask(first, mine),
                                           _mm256_sub_epi64(first, _mm256_set1_epi64x(1)), up);
    open = _mm256_andnot_si256(theirs, down);
    const __m256i last = _mm256_srlv_epi64(_mm256_set1_epi64x(INT64_MIN), _mm256_lzcnt_epi64(open));
    flips = _mm256_or_si256(flips, _mm256_maskz_and_epi64(_mm256_test_epi64_mask(last, mine),
                                                          _mm256_sub_epi64(zero, _mm256_add_epi64(last, last)), down));
    const __m128i half = _mm_or_si128(_mm256_castsi256_si128(flips), _mm256_extracti128_si256(flips, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half)));
}

#else
/* The opponent discs that a disc placed on `square` turns over: in each direction, the run of
 * opponent discs from the square, kept only when an own disc closes it. */
static inline uint64_t flipped_by(int square, uint64_t own, uint64_t opp)
{
    const uint64_t placed = 1ull << square;
    const U64x4 lanes = LANES_OF(opp);
    const U64x4 seeds = {placed, placed, placed, placed};
    const U64x4 owns = {own, own, own, own};
    U64x4 up = lanes & (seeds << DIR_SHIFT);
    U64x4 down = lanes & (seeds >> DIR_SHIFT);
    FILL_UP(up, lanes, lanes & (lanes << DIR_SHIFT));
    FILL_DOWN(down, lanes, lanes & (lanes >> DIR_SHIFT));
    /* A comparison yields -1 (all ones) per lane where the run is closed, 0 elsewhere. */
    up &= (U64x4)((owns & (up << DIR_SHIFT)) != 0);
    down &= (U64x4)((owns & (down >> DIR_SHIFT)) != 0);
    const U64x4 flips = up | down;
    return flips[0] | flips[1] | flips[2] | flips[3];
}
#endif

/* ---------------------------------------------------------------- features and priors
 * (reversi_features.c, reversi_heuristic_priors.c) */

enum { REVERSI_NUM_FEATURES = 12 };
extern const char *const reversi_feature_names[REVERSI_NUM_FEATURES];
extern const char *const reversi_feature_help[REVERSI_NUM_FEATURES];
void reversi_features(const Game *g, const Position *p, float *out);
void reversi_move_priors(const Game *g, const Position *p, const Move *moves, int n, float *out);

/* The pattern set (reversi_patterns.c): the PatternSet, each instance's raw offset, and two
 * ways to read the instances:
 * - for each square the instances that read it with the weight of its digit there (3^k), entries
 *   square_first[s] .. square_first[s + 1] - 1, so that only the occupied squares are visited;
 * - each instance's squares as a mask, and its table from the mask's discs, extracted in square
 *   order (pext), to their base-3 number in the instance's reading order, entries
 *   ternary_first[i] .. + 2^cells - 1: two extractions and two loads an instance.
 * The second is used where pext is fast (BMI2, but not the microcoded one of AMD before Zen 3). */
enum { REVERSI_INSTANCES = 46, REVERSI_TERNARY_ENTRIES = 18880 };
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#define REVERSI_PATTERNS_PEXT 1
#endif
typedef struct {
    PatternSet set;
    uint32_t offset[PATTERN_MAX_INSTANCES];
    uint16_t square_first[SQUARES + 1];
    uint8_t entry_instance[PATTERN_MAX_INSTANCES * PATTERN_MAX_CELLS];
    uint32_t entry_power[PATTERN_MAX_INSTANCES * PATTERN_MAX_CELLS];
    uint64_t instance_mask[REVERSI_INSTANCES];
    uint32_t ternary_first[REVERSI_INSTANCES];
    uint16_t ternary[REVERSI_TERNARY_ENTRIES];
} ReversiPatterns;
bool reversi_patterns_init(ReversiPatterns *rp);
/* The raw indices by visiting the discs (the first way above): what the set's raw_indices
 * computes, whichever way it takes, for the tests to compare. */
void reversi_raw_indices_by_discs(const ReversiPatterns *rp, const Position *p, uint32_t *out);
void reversi_patterns_free(ReversiPatterns *rp);

/* The move features of the learned priors (reversi_learned_priors.c), and the game's copy of
 * them: the PolicySet, and, where pext is fast, the tables that read a move's neighbourhood as
 * the patterns are read: the square's neighbours as one mask, and from each of the mask's
 * extractions of own and enemy discs its base-3 number in the square's folded orientation
 * (entries first[r][s] .. + 2^neighbours - 1 for reading r of square s; a square on a diagonal
 * has two).  The game's PolicySet is the first member, so the move entries find the tables. */
enum { REVERSI_NEIGHBOUR_ENTRIES = 13120 };
typedef struct {
    PolicySet set;
    uint64_t mask[SQUARES];
    uint16_t first[2][SQUARES];
    uint16_t ternary[REVERSI_NEIGHBOUR_ENTRIES];
} ReversiPolicy;
/* False if the tables do not add up to their size (a bug, never the input's fault). */
bool reversi_policy_init(ReversiPolicy *policy);
const PolicySet *reversi_policy_set(const Game *g);

/* The action index and input planes (reversi_tensors.c; core/tensors.h). */
int reversi_num_actions(const Game *g);
int reversi_action_of(const Game *g, const Position *p, Move m);
int reversi_action_of_squares(const Game *g, int side, const struct MoveSquares *m);
void reversi_planes(const Game *g, const Position *p, unsigned char *out);
unsigned reversi_symmetries(const Game *g);
int reversi_transform_action(const Game *g, int s, int action);

/* The exact endgame solver (reversi_solve.c). */
extern const struct SolverOps reversi_solver_ops;

#endif
