/*
 * reversi_features.c - the evaluation features of Reversi (docs/FEATURES.md): the classical
 * Othello terms (mobility, potential mobility, frontier, corners, the X- and C-squares that give
 * corners away, edges, stable discs, discs, parity), each from the side to move's point of view,
 * own minus opponent, scaled to be of order one.
 *
 * All of them are a few dozen bitboard operations: two mobility fills (the same as move
 * generation) and shifts for the neighbourhoods; the whole vector costs about as much as listing
 * the moves twice.
 */
#include "reversi.h"

/* The feature order is the order of weights files; append, never reorder (docs/WEIGHTS.md). */
enum {
    F_MOBILITY,
    F_POTENTIAL_MOBILITY,
    F_FRONTIER,
    F_CORNERS,
    F_CORNER_MOVES,
    F_X_SQUARES,
    F_C_SQUARES,
    F_EDGES,
    F_STABLE,
    F_DISCS,
    F_DISCS_LATE,
    F_PARITY,
    F_COUNT
};
_Static_assert((int)F_COUNT == (int)REVERSI_NUM_FEATURES, "reversi.h must agree on the feature count");
_Static_assert((int)F_COUNT <= (int)MAX_FEATURES, "MAX_FEATURES too small");

const char *const reversi_feature_names[REVERSI_NUM_FEATURES] = {
    "mobility", "potential_mobility", "frontier", "corners", "corner_moves", "x_squares",
    "c_squares", "edges", "stable", "discs", "discs_late", "parity",
};

const char *const reversi_feature_help[REVERSI_NUM_FEATURES] = {
    "legal placements, own minus opponent, / 10",
    "empty squares next to an enemy disc (own) minus next to an own disc (opponent's), / 16",
    "discs next to an empty square, own minus opponent, / 16",
    "corner discs, own minus opponent, / 2",
    "legal placements on a corner, own minus opponent, / 2",
    "discs on an X-square (b2, g2, b7, g7) whose corner is empty, own minus opponent, / 2",
    "discs on a C-square (next to a corner along an edge) whose corner is empty, own minus opponent, / 4",
    "discs on an edge, corners excluded, own minus opponent, / 8",
    "edge discs joined to an own corner by own discs along the edge (never flipped), own minus opponent, / 8",
    "discs, own minus opponent, / 16",
    "discs, own minus opponent, / 16, times (1 - empties / 60) squared: the endgame's disc count",
    "+1 if the number of empty squares is odd (the side to move gets the last move), else -1",
};

#define CORNERS 0x8100000000000081ull
#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define EDGE_ROWS 0xFF000000000000FFull
#define EDGE_FILES (FILE_A | FILE_H)
#define EDGES (EDGE_ROWS | EDGE_FILES)

/* Squares next to any square of x, in the eight directions. */
static inline uint64_t neighbours(uint64_t x)
{
    uint64_t sideways = ((x << 1) & ~FILE_A) | ((x >> 1) & ~FILE_H);
    uint64_t row = x | sideways;
    return (sideways | row << 8 | row >> 8) & ~x;
}

/* The X-squares and C-squares of the empty corners among `empty`. */
static inline uint64_t x_squares_of(uint64_t empty)
{
    uint64_t e = empty & CORNERS;
    return (e & 1) << 9 | (e & 0x80) << 7 | (e & 0x0100000000000000ull) >> 7 | (e >> 9 & 0x0040000000000000ull);
}

static inline uint64_t c_squares_of(uint64_t empty)
{
    uint64_t e = empty & CORNERS;
    uint64_t sideways = ((e << 1) & ~FILE_A) | ((e >> 1) & ~FILE_H);
    return sideways | e << 8 | e >> 8;
}

/* Edge discs that nothing can flip: an edge disc can only be flipped along its edge, so a run of
 * own discs that reaches an own corner along the edge is stable. */
static inline uint64_t edge_stable(uint64_t own)
{
    uint64_t stable = own & CORNERS, edge_own = own & EDGES;
    for (int i = 0; i < BOARD_SIDE - 2; i++) {
        uint64_t along_rows = ((stable << 1) & ~FILE_A) | ((stable >> 1) & ~FILE_H);
        uint64_t along_files = stable << 8 | stable >> 8;
        stable |= edge_own & ((along_rows & EDGE_ROWS) | (along_files & EDGE_FILES));
    }
    return stable;
}

static inline float diff(uint64_t own, uint64_t opp, float scale)
{
    return (float)(popcount64(own) - popcount64(opp)) / scale;
}

void reversi_features(const Game *g, const Position *p, float *out)
{
    (void)g;
    const Board b = load_board(p);
    const uint64_t own = b.own, opp = b.opp, empty = ~(own | opp);
    const uint64_t own_moves = legal_squares(own, opp), opp_moves = legal_squares(opp, own);
    const uint64_t next_to_empty = neighbours(empty);
    const uint64_t x_danger = x_squares_of(empty), c_danger = c_squares_of(empty);
    const int empties = popcount64(empty);
    const float late = 1.0f - (float)empties / 60.0f;
    out[F_MOBILITY] = diff(own_moves, opp_moves, 10);
    out[F_POTENTIAL_MOBILITY] = diff(empty & neighbours(opp), empty & neighbours(own), 16);
    out[F_FRONTIER] = diff(own & next_to_empty, opp & next_to_empty, 16);
    out[F_CORNERS] = diff(own & CORNERS, opp & CORNERS, 2);
    out[F_CORNER_MOVES] = diff(own_moves & CORNERS, opp_moves & CORNERS, 2);
    out[F_X_SQUARES] = diff(own & x_danger, opp & x_danger, 2);
    out[F_C_SQUARES] = diff(own & c_danger, opp & c_danger, 4);
    out[F_EDGES] = diff(own & EDGES & ~CORNERS, opp & EDGES & ~CORNERS, 8);
    out[F_STABLE] = diff(edge_stable(own) & ~CORNERS, edge_stable(opp) & ~CORNERS, 8);
    out[F_DISCS] = diff(own, opp, 16);
    out[F_DISCS_LATE] = out[F_DISCS] * late * late;
    out[F_PARITY] = empties & 1 ? 1.0f : -1.0f;
}
