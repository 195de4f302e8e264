/*
 * reversi_learned_priors.c - the move features of Reversi's learned priors (core/policy.h).  Each
 * move is described by one entry of each column:
 *
 *   square        its square up to the board's symmetries (10 classes), by phase
 *   flips         discs it turns over (1 .. 8 or more), by phase
 *   replies       the opponent's legal moves after it (0 .. 15 or more), by phase
 *   corner        whether it hands the opponent a corner move, by square class
 *   neighbours    the 3x3 around the square (own, enemy, empty or off the board), seen in the
 *                 square's canonical orientation, by square class
 *   parity        whether the move's quadrant holds an odd number of empties, by phase
 *   frontier      the moved and flipped discs left next to an empty square (0 .. 9), by phase
 *
 * Phases: four by empties (more than 44, 30-44, 15-29, fewer), for what a move is worth changes
 * as the board fills.  These are the features of the classical move-ordering and probcut work
 * (mobility, corners and X-squares, parity, frontier) and of Coulom's pattern priors (the
 * neighbourhood), which MCTS then sharpens.
 */
#include "reversi.h"
#include "policy.h"

#ifdef REVERSI_PATTERNS_PEXT
#include <immintrin.h>
#endif

enum { PHASES = 4, CLASSES = 10, NEIGHBOURS = 6561, FLIP_BUCKETS = 8, REPLY_BUCKETS = 16, FRONTIER_BUCKETS = 10 };

enum { COL_SQUARE, COL_FLIPS, COL_REPLIES, COL_CORNER, COL_NEIGHBOURS, COL_PARITY, COL_FRONTIER, COLUMNS };

/* Column sizes; the square column has one more entry, for `pass`. */
static const uint32_t COLUMN_OFFSET[COLUMNS + 1] = {
    0,
    PHASES * CLASSES + 1,
    PHASES * CLASSES + 1 + PHASES * FLIP_BUCKETS,
    PHASES * CLASSES + 1 + PHASES * (FLIP_BUCKETS + REPLY_BUCKETS),
    PHASES * CLASSES + 1 + PHASES * (FLIP_BUCKETS + REPLY_BUCKETS) + 2 * CLASSES,
    PHASES * CLASSES + 1 + PHASES * (FLIP_BUCKETS + REPLY_BUCKETS) + 2 * CLASSES + NEIGHBOURS * CLASSES,
    PHASES * CLASSES + 1 + PHASES * (FLIP_BUCKETS + REPLY_BUCKETS) + 2 * CLASSES + NEIGHBOURS * CLASSES + 2 * PHASES,
    PHASES * CLASSES + 1 + PHASES * (FLIP_BUCKETS + REPLY_BUCKETS + 2 + FRONTIER_BUCKETS) + 2 * CLASSES +
        NEIGHBOURS * CLASSES,
};

static const char *const COLUMN_NAMES[COLUMNS] = {"square", "flips", "replies", "corner", "neighbours", "parity",
                                                  "frontier"};

#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define CORNERS 0x8100000000000081ull

static int phase_of(int empties)
{
    return empties > 44 ? 0 : empties > 29 ? 1 : empties > 14 ? 2 : 3;
}

/* Each square's class up to the board's symmetries, (0,0) (0,1) (0,2) (0,3) (1,1) (1,2) (1,3)
 * (2,2) (2,3) (3,3) by row and column folded into the triangle a <= b <= 3, and its eight
 * neighbours read in the folded orientation: offsets (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1)
 * (1,0) (1,1), each turned as the fold turns the square (rows and columns mirrored, then
 * transposed), -1 off the board.  A square on a diagonal folds both ways, and its neighbourhood
 * is the smaller of its two readings (the others' second reading is their first, unused).  A
 * table, not the fold worked out for every move: that took half of a move's entries' time
 * (test `tables.reversi_neighbourhood_table` checks the table against the fold). */
typedef struct {
    uint8_t square_class;
    bool diagonal;
    int8_t reading[2][8];
} SquareFold;

static const SquareFold FOLD[SQUARES] = {
    {0, true, {{-1, -1, -1, -1,  1, -1,  8,  9}, {-1, -1, -1, -1,  8, -1,  1,  9}}}, /* a1 */
    {1, false, {{-1, -1, -1,  0,  2,  8,  9, 10}, {-1, -1, -1,  0,  2,  8,  9, 10}}}, /* b1 */
    {2, false, {{-1, -1, -1,  1,  3,  9, 10, 11}, {-1, -1, -1,  1,  3,  9, 10, 11}}}, /* c1 */
    {3, false, {{-1, -1, -1,  2,  4, 10, 11, 12}, {-1, -1, -1,  2,  4, 10, 11, 12}}}, /* d1 */
    {3, false, {{-1, -1, -1,  5,  3, 13, 12, 11}, {-1, -1, -1,  5,  3, 13, 12, 11}}}, /* e1 */
    {2, false, {{-1, -1, -1,  6,  4, 14, 13, 12}, {-1, -1, -1,  6,  4, 14, 13, 12}}}, /* f1 */
    {1, false, {{-1, -1, -1,  7,  5, 15, 14, 13}, {-1, -1, -1,  7,  5, 15, 14, 13}}}, /* g1 */
    {0, true, {{-1, -1, -1, -1,  6, -1, 15, 14}, {-1, -1, -1, -1, 15, -1,  6, 14}}}, /* h1 */
    {1, false, {{-1, -1, -1,  0, 16,  1,  9, 17}, {-1, -1, -1,  0, 16,  1,  9, 17}}}, /* a2 */
    {4, true, {{ 0,  1,  2,  8, 10, 16, 17, 18}, { 0,  8, 16,  1, 17,  2, 10, 18}}}, /* b2 */
    {5, false, {{ 1,  2,  3,  9, 11, 17, 18, 19}, { 1,  2,  3,  9, 11, 17, 18, 19}}}, /* c2 */
    {6, false, {{ 2,  3,  4, 10, 12, 18, 19, 20}, { 2,  3,  4, 10, 12, 18, 19, 20}}}, /* d2 */
    {6, false, {{ 5,  4,  3, 13, 11, 21, 20, 19}, { 5,  4,  3, 13, 11, 21, 20, 19}}}, /* e2 */
    {5, false, {{ 6,  5,  4, 14, 12, 22, 21, 20}, { 6,  5,  4, 14, 12, 22, 21, 20}}}, /* f2 */
    {4, true, {{ 7,  6,  5, 15, 13, 23, 22, 21}, { 7, 15, 23,  6, 22,  5, 13, 21}}}, /* g2 */
    {1, false, {{-1, -1, -1,  7, 23,  6, 14, 22}, {-1, -1, -1,  7, 23,  6, 14, 22}}}, /* h2 */
    {2, false, {{-1, -1, -1,  8, 24,  9, 17, 25}, {-1, -1, -1,  8, 24,  9, 17, 25}}}, /* a3 */
    {5, false, {{ 8, 16, 24,  9, 25, 10, 18, 26}, { 8, 16, 24,  9, 25, 10, 18, 26}}}, /* b3 */
    {7, true, {{ 9, 10, 11, 17, 19, 25, 26, 27}, { 9, 17, 25, 10, 26, 11, 19, 27}}}, /* c3 */
    {8, false, {{10, 11, 12, 18, 20, 26, 27, 28}, {10, 11, 12, 18, 20, 26, 27, 28}}}, /* d3 */
    {8, false, {{13, 12, 11, 21, 19, 29, 28, 27}, {13, 12, 11, 21, 19, 29, 28, 27}}}, /* e3 */
    {7, true, {{14, 13, 12, 22, 20, 30, 29, 28}, {14, 22, 30, 13, 29, 12, 20, 28}}}, /* f3 */
    {5, false, {{15, 23, 31, 14, 30, 13, 21, 29}, {15, 23, 31, 14, 30, 13, 21, 29}}}, /* g3 */
    {2, false, {{-1, -1, -1, 15, 31, 14, 22, 30}, {-1, -1, -1, 15, 31, 14, 22, 30}}}, /* h3 */
    {3, false, {{-1, -1, -1, 16, 32, 17, 25, 33}, {-1, -1, -1, 16, 32, 17, 25, 33}}}, /* a4 */
    {6, false, {{16, 24, 32, 17, 33, 18, 26, 34}, {16, 24, 32, 17, 33, 18, 26, 34}}}, /* b4 */
    {8, false, {{17, 25, 33, 18, 34, 19, 27, 35}, {17, 25, 33, 18, 34, 19, 27, 35}}}, /* c4 */
    {9, true, {{18, 19, 20, 26, 28, 34, 35, 36}, {18, 26, 34, 19, 35, 20, 28, 36}}}, /* d4 */
    {9, true, {{21, 20, 19, 29, 27, 37, 36, 35}, {21, 29, 37, 20, 36, 19, 27, 35}}}, /* e4 */
    {8, false, {{22, 30, 38, 21, 37, 20, 28, 36}, {22, 30, 38, 21, 37, 20, 28, 36}}}, /* f4 */
    {6, false, {{23, 31, 39, 22, 38, 21, 29, 37}, {23, 31, 39, 22, 38, 21, 29, 37}}}, /* g4 */
    {3, false, {{-1, -1, -1, 23, 39, 22, 30, 38}, {-1, -1, -1, 23, 39, 22, 30, 38}}}, /* h4 */
    {3, false, {{-1, -1, -1, 40, 24, 41, 33, 25}, {-1, -1, -1, 40, 24, 41, 33, 25}}}, /* a5 */
    {6, false, {{40, 32, 24, 41, 25, 42, 34, 26}, {40, 32, 24, 41, 25, 42, 34, 26}}}, /* b5 */
    {8, false, {{41, 33, 25, 42, 26, 43, 35, 27}, {41, 33, 25, 42, 26, 43, 35, 27}}}, /* c5 */
    {9, true, {{42, 43, 44, 34, 36, 26, 27, 28}, {42, 34, 26, 43, 27, 44, 36, 28}}}, /* d5 */
    {9, true, {{45, 44, 43, 37, 35, 29, 28, 27}, {45, 37, 29, 44, 28, 43, 35, 27}}}, /* e5 */
    {8, false, {{46, 38, 30, 45, 29, 44, 36, 28}, {46, 38, 30, 45, 29, 44, 36, 28}}}, /* f5 */
    {6, false, {{47, 39, 31, 46, 30, 45, 37, 29}, {47, 39, 31, 46, 30, 45, 37, 29}}}, /* g5 */
    {3, false, {{-1, -1, -1, 47, 31, 46, 38, 30}, {-1, -1, -1, 47, 31, 46, 38, 30}}}, /* h5 */
    {2, false, {{-1, -1, -1, 48, 32, 49, 41, 33}, {-1, -1, -1, 48, 32, 49, 41, 33}}}, /* a6 */
    {5, false, {{48, 40, 32, 49, 33, 50, 42, 34}, {48, 40, 32, 49, 33, 50, 42, 34}}}, /* b6 */
    {7, true, {{49, 50, 51, 41, 43, 33, 34, 35}, {49, 41, 33, 50, 34, 51, 43, 35}}}, /* c6 */
    {8, false, {{50, 51, 52, 42, 44, 34, 35, 36}, {50, 51, 52, 42, 44, 34, 35, 36}}}, /* d6 */
    {8, false, {{53, 52, 51, 45, 43, 37, 36, 35}, {53, 52, 51, 45, 43, 37, 36, 35}}}, /* e6 */
    {7, true, {{54, 53, 52, 46, 44, 38, 37, 36}, {54, 46, 38, 53, 37, 52, 44, 36}}}, /* f6 */
    {5, false, {{55, 47, 39, 54, 38, 53, 45, 37}, {55, 47, 39, 54, 38, 53, 45, 37}}}, /* g6 */
    {2, false, {{-1, -1, -1, 55, 39, 54, 46, 38}, {-1, -1, -1, 55, 39, 54, 46, 38}}}, /* h6 */
    {1, false, {{-1, -1, -1, 56, 40, 57, 49, 41}, {-1, -1, -1, 56, 40, 57, 49, 41}}}, /* a7 */
    {4, true, {{56, 57, 58, 48, 50, 40, 41, 42}, {56, 48, 40, 57, 41, 58, 50, 42}}}, /* b7 */
    {5, false, {{57, 58, 59, 49, 51, 41, 42, 43}, {57, 58, 59, 49, 51, 41, 42, 43}}}, /* c7 */
    {6, false, {{58, 59, 60, 50, 52, 42, 43, 44}, {58, 59, 60, 50, 52, 42, 43, 44}}}, /* d7 */
    {6, false, {{61, 60, 59, 53, 51, 45, 44, 43}, {61, 60, 59, 53, 51, 45, 44, 43}}}, /* e7 */
    {5, false, {{62, 61, 60, 54, 52, 46, 45, 44}, {62, 61, 60, 54, 52, 46, 45, 44}}}, /* f7 */
    {4, true, {{63, 62, 61, 55, 53, 47, 46, 45}, {63, 55, 47, 62, 46, 61, 53, 45}}}, /* g7 */
    {1, false, {{-1, -1, -1, 63, 47, 62, 54, 46}, {-1, -1, -1, 63, 47, 62, 54, 46}}}, /* h7 */
    {0, true, {{-1, -1, -1, -1, 57, -1, 48, 49}, {-1, -1, -1, -1, 48, -1, 57, 49}}}, /* a8 */
    {1, false, {{-1, -1, -1, 56, 58, 48, 49, 50}, {-1, -1, -1, 56, 58, 48, 49, 50}}}, /* b8 */
    {2, false, {{-1, -1, -1, 57, 59, 49, 50, 51}, {-1, -1, -1, 57, 59, 49, 50, 51}}}, /* c8 */
    {3, false, {{-1, -1, -1, 58, 60, 50, 51, 52}, {-1, -1, -1, 58, 60, 50, 51, 52}}}, /* d8 */
    {3, false, {{-1, -1, -1, 61, 59, 53, 52, 51}, {-1, -1, -1, 61, 59, 53, 52, 51}}}, /* e8 */
    {2, false, {{-1, -1, -1, 62, 60, 54, 53, 52}, {-1, -1, -1, 62, 60, 54, 53, 52}}}, /* f8 */
    {1, false, {{-1, -1, -1, 63, 61, 55, 54, 53}, {-1, -1, -1, 63, 61, 55, 54, 53}}}, /* g8 */
    {0, true, {{-1, -1, -1, -1, 62, -1, 55, 54}, {-1, -1, -1, -1, 55, -1, 62, 54}}}, /* h8 */
};

#ifndef REVERSI_PATTERNS_PEXT
/* Cell k (0 empty or off the board, 1 own, 2 enemy) weighs 3^k. */
static uint32_t read_neighbours(const Board *b, const int8_t *squares)
{
    uint32_t index = 0;
    for (int k = 7; k >= 0; k--) {
        const uint64_t bit = squares[k] < 0 ? 0 : 1ull << squares[k];
        index = index * 3 + ((b->own & bit) != 0) + 2 * (uint32_t)((b->opp & bit) != 0);
    }
    return index;
}
#endif

static uint32_t neighbourhood(const ReversiPolicy *policy, const Board *b, int sq)
{
#ifdef REVERSI_PATTERNS_PEXT
    const uint64_t own = _pext_u64(b->own, policy->mask[sq]), opp = _pext_u64(b->opp, policy->mask[sq]);
    const uint16_t *ternary = policy->ternary + policy->first[0][sq];
    const uint32_t first = ternary[own] + 2u * ternary[opp];
    if (!FOLD[sq].diagonal)
        return first;
    ternary = policy->ternary + policy->first[1][sq];
    const uint32_t second = ternary[own] + 2u * ternary[opp];
#else
    (void)policy;
    const uint32_t first = read_neighbours(b, FOLD[sq].reading[0]);
    if (!FOLD[sq].diagonal)
        return first;
    const uint32_t second = read_neighbours(b, FOLD[sq].reading[1]);
#endif
    return second < first ? second : first;
}

/* The tables of the extractions: bit j of one is the mask's j-th square in square order, whose
 * place k in the reading has the digit weight 3^k.  False if the entries do not add up. */
static bool neighbour_tables(ReversiPolicy *policy)
{
    uint32_t next = 0;
    for (int sq = 0; sq < SQUARES; sq++) {
        uint64_t mask = 0;
        for (int k = 0; k < 8; k++)
            if (FOLD[sq].reading[0][k] >= 0)
                mask |= 1ull << FOLD[sq].reading[0][k];
        policy->mask[sq] = mask;
        const uint32_t size = 1u << popcount64(mask);
        for (int r = 0; r < (FOLD[sq].diagonal ? 2 : 1); r++) {
            uint32_t weight[8] = {0}, power = 1;
            for (int k = 0; k < 8; k++, power *= 3)
                if (FOLD[sq].reading[r][k] >= 0)
                    weight[popcount64(mask & ((1ull << FOLD[sq].reading[r][k]) - 1))] = power;
            if (next + size > REVERSI_NEIGHBOUR_ENTRIES)
                return false;
            policy->first[r][sq] = (uint16_t)next;
            for (uint32_t bits = 0; bits < size; bits++) {
                uint32_t number = 0;
                for (int j = 0; j < 8; j++)
                    number += (bits >> j & 1) * weight[j];
                policy->ternary[next + bits] = (uint16_t)number;
            }
            next += size;
        }
    }
    return next == REVERSI_NEIGHBOUR_ENTRIES;
}

static inline uint64_t neighbour_squares(uint64_t x)
{
    const uint64_t sideways = ((x << 1) & ~FILE_A) | ((x >> 1) & ~FILE_H);
    const uint64_t row = x | sideways;
    return sideways | (row << 8) | (row >> 8);
}

static int quadrant_empties(uint64_t empty, int sq)
{
    const uint64_t rows = sq / 8 < 4 ? 0x00000000FFFFFFFFull : 0xFFFFFFFF00000000ull;
    const uint64_t cols = sq % 8 < 4 ? 0x0F0F0F0F0F0F0F0Full : 0xF0F0F0F0F0F0F0F0ull;
    return popcount64(empty & rows & cols);
}

static void move_entries(const ReversiPolicy *policy, const Board *b, Move m, int phase, uint32_t *out)
{
    if (m == MOVE_PASS) {
        out[COL_SQUARE] = PHASES * CLASSES;
        for (int c = 1; c < COLUMNS; c++)
            out[c] = COLUMN_OFFSET[c];
        return;
    }
    const int sq = (int)m;
    const uint64_t placed = 1ull << sq, flips = flipped_by(sq, b->own, b->opp);
    const uint64_t own = b->own | flips | placed, opp = b->opp ^ flips, empty = ~(own | opp);
    const uint64_t replies = legal_squares(opp, own);
    const int cls = FOLD[sq].square_class;
    const int flip_count = popcount64(flips), reply_count = popcount64(replies);
    const int frontier = popcount64((flips | placed) & neighbour_squares(empty));
    out[COL_SQUARE] = (uint32_t)(phase * CLASSES + cls);
    out[COL_FLIPS] = COLUMN_OFFSET[COL_FLIPS] + (uint32_t)(phase * FLIP_BUCKETS + (flip_count > 8 ? 8 : flip_count) - 1);
    out[COL_REPLIES] = COLUMN_OFFSET[COL_REPLIES] + (uint32_t)(phase * REPLY_BUCKETS + (reply_count > 15 ? 15 : reply_count));
    out[COL_CORNER] = COLUMN_OFFSET[COL_CORNER] + (uint32_t)(cls * 2 + ((replies & CORNERS) != 0));
    out[COL_NEIGHBOURS] = COLUMN_OFFSET[COL_NEIGHBOURS] + (uint32_t)cls * NEIGHBOURS + neighbourhood(policy, b, sq);
    out[COL_PARITY] = COLUMN_OFFSET[COL_PARITY] + (uint32_t)(phase * 2 + (quadrant_empties(~(b->own | b->opp), sq) & 1));
    out[COL_FRONTIER] = COLUMN_OFFSET[COL_FRONTIER] + (uint32_t)(phase * FRONTIER_BUCKETS + (frontier > 9 ? 9 : frontier));
}

static void reversi_move_entries(const Game *g, const Position *p, const Move *moves, int n, uint32_t *out)
{
    const ReversiPolicy *policy = (const ReversiPolicy *)(const void *)policy_set_of(g);    /* its first member */
    const Board b = load_board(p);
    const int phase = phase_of(SQUARES - popcount64(b.own | b.opp));
    for (int i = 0; i < n; i++)
        move_entries(policy, &b, moves[i], phase, out + (size_t)i * COLUMNS);
}

/* FNV-1a of a version word and the column sizes: a change to the features changes the id. */
static uint64_t policy_id(void)
{
    uint64_t h = 0xCBF29CE484222325ull;
    const uint32_t words[] = {0x52504F31u /* "RPO1" */, COLUMNS, COLUMN_OFFSET[1], COLUMN_OFFSET[2], COLUMN_OFFSET[3],
                              COLUMN_OFFSET[4], COLUMN_OFFSET[5], COLUMN_OFFSET[6], COLUMN_OFFSET[7]};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        for (int k = 0; k < 4; k++)
            h = (h ^ ((words[i] >> (8 * k)) & 0xFF)) * 0x100000001B3ull;
    return h;
}

bool reversi_policy_init(ReversiPolicy *policy)
{
    policy->set = (PolicySet){COLUMNS, COLUMN_OFFSET[COLUMNS], policy_id(), COLUMN_NAMES, COLUMN_OFFSET,
                              reversi_move_entries};
    return neighbour_tables(policy);
}
