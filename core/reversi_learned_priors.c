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

/* The square's row and column folded into the triangle a <= b <= 3 by the board's symmetries;
 * the fold's flips are returned for reading the neighbourhood in the same orientation. */
typedef struct {
    int a, b;
    bool flip_row, flip_col, transpose;
} Fold;

static Fold fold_square(int sq)
{
    int r = sq / 8, c = sq % 8;
    Fold f = {0, 0, r > 3, c > 3, false};
    r = f.flip_row ? 7 - r : r;
    c = f.flip_col ? 7 - c : c;
    f.transpose = r > c;
    f.a = f.transpose ? c : r;
    f.b = f.transpose ? r : c;
    return f;
}

static int square_class(const Fold *f)
{
    /* (0,0) (0,1) (0,2) (0,3) (1,1) (1,2) (1,3) (2,2) (2,3) (3,3) */
    static const int first_of_row[4] = {0, 4, 7, 9};
    return first_of_row[f->a] + (f->b - f->a);
}

/* Cell (0 empty or off the board, 1 own, 2 enemy) at offset (dr, dc) from the square, the offset
 * given in the folded orientation. */
static uint32_t cell_at(const Board *b, int sq, const Fold *f, int dr, int dc)
{
    if (f->transpose) {
        const int t = dr;
        dr = dc;
        dc = t;
    }
    if (f->flip_row)
        dr = -dr;
    if (f->flip_col)
        dc = -dc;
    const int r = sq / 8 + dr, c = sq % 8 + dc;
    if (r < 0 || r > 7 || c < 0 || c > 7)
        return 0;
    const int at = r * 8 + c;
    return (uint32_t)((b->own >> at) & 1) + 2 * (uint32_t)((b->opp >> at) & 1);
}

static uint32_t neighbourhood(const Board *b, int sq, Fold f)
{
    static const int OFFSETS[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
    uint32_t index = 0;
    for (int k = 7; k >= 0; k--)
        index = index * 3 + cell_at(b, sq, &f, OFFSETS[k][0], OFFSETS[k][1]);
    if (f.a == f.b) {   /* on the diagonal both orientations fold here: take the smaller reading */
        f.transpose = !f.transpose;
        uint32_t other = 0;
        for (int k = 7; k >= 0; k--)
            other = other * 3 + cell_at(b, sq, &f, OFFSETS[k][0], OFFSETS[k][1]);
        index = other < index ? other : index;
    }
    return index;
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

static void move_entries(const Board *b, Move m, int phase, uint32_t *out)
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
    const Fold f = fold_square(sq);
    const int cls = square_class(&f);
    const int flip_count = popcount64(flips), reply_count = popcount64(replies);
    const int frontier = popcount64((flips | placed) & neighbour_squares(empty));
    out[COL_SQUARE] = (uint32_t)(phase * CLASSES + cls);
    out[COL_FLIPS] = COLUMN_OFFSET[COL_FLIPS] + (uint32_t)(phase * FLIP_BUCKETS + (flip_count > 8 ? 8 : flip_count) - 1);
    out[COL_REPLIES] = COLUMN_OFFSET[COL_REPLIES] + (uint32_t)(phase * REPLY_BUCKETS + (reply_count > 15 ? 15 : reply_count));
    out[COL_CORNER] = COLUMN_OFFSET[COL_CORNER] + (uint32_t)(cls * 2 + ((replies & CORNERS) != 0));
    out[COL_NEIGHBOURS] = COLUMN_OFFSET[COL_NEIGHBOURS] + (uint32_t)cls * NEIGHBOURS + neighbourhood(b, sq, f);
    out[COL_PARITY] = COLUMN_OFFSET[COL_PARITY] + (uint32_t)(phase * 2 + (quadrant_empties(~(b->own | b->opp), sq) & 1));
    out[COL_FRONTIER] = COLUMN_OFFSET[COL_FRONTIER] + (uint32_t)(phase * FRONTIER_BUCKETS + (frontier > 9 ? 9 : frontier));
}

static void reversi_move_entries(const Game *g, const Position *p, const Move *moves, int n, uint32_t *out)
{
    (void)g;
    const Board b = load_board(p);
    const int phase = phase_of(SQUARES - popcount64(b.own | b.opp));
    for (int i = 0; i < n; i++)
        move_entries(&b, moves[i], phase, out + (size_t)i * COLUMNS);
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

void reversi_policy_init(PolicySet *set)
{
    *set = (PolicySet){COLUMNS, COLUMN_OFFSET[COLUMNS], policy_id(), COLUMN_NAMES, COLUMN_OFFSET, reversi_move_entries};
}
