/*
 * reversi_heuristic_priors.c - move priors for Reversi: a cheap non-negative score per legal move
 * that PUCT search uses to order its children (search normalises the scores, so only ratios
 * matter).
 *
 * The square classes are the oldest Othello knowledge: corners are never lost once taken, edges
 * are hard to attack, and the X- and C-squares next to an empty corner hand that corner to the
 * opponent.  Each class score is then divided by the opponent's replies after the move, since
 * restricting the opponent's mobility is what strong play is mostly about; the reply count costs
 * one flip and one mobility fill, ~10 ns.
 */
#include "reversi.h"

#define CORNERS 0x8100000000000081ull
#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define EDGES (0xFF000000000000FFull | FILE_A | FILE_H)
#define X_SQUARES 0x0042000000004200ull

/* Class scores: a corner is worth twenty quiet moves, an X-square next to an empty corner a
 * fifth of one. */
#define PRIOR_CORNER 20.0f
#define PRIOR_EDGE 3.0f
#define PRIOR_QUIET 1.0f
#define PRIOR_C_SQUARE 0.4f
#define PRIOR_X_SQUARE 0.2f
/* Mobility factor REPLY_SCALE / (REPLY_SCALE + replies): 1 when the opponent must pass, 0.4 at
 * six replies, 0.25 at twelve. */
#define REPLY_SCALE 4.0f

/* The corner an X- or C-square belongs to. */
static int corner_of(int sq)
{
    int row = sq / BOARD_SIDE, col = sq % BOARD_SIDE;
    return (row < BOARD_SIDE / 2 ? 0 : BOARD_SIDE - 1) * BOARD_SIDE + (col < BOARD_SIDE / 2 ? 0 : BOARD_SIDE - 1);
}

static float square_class(int sq, uint64_t empty)
{
    uint64_t bit = 1ull << sq;
    if (bit & CORNERS)
        return PRIOR_CORNER;
    bool corner_empty = (empty >> corner_of(sq)) & 1;
    if ((bit & X_SQUARES) && corner_empty)
        return PRIOR_X_SQUARE;
    int row = sq / BOARD_SIDE, col = sq % BOARD_SIDE;
    bool c_square = (bit & EDGES) && (row == 1 || row == 6 || col == 1 || col == 6);
    if (c_square && corner_empty)
        return PRIOR_C_SQUARE;
    return bit & EDGES ? PRIOR_EDGE : PRIOR_QUIET;
}

static float move_prior(const Board *b, Move m)
{
    if (m == MOVE_PASS)
        return 1.0f;
    const int sq = (int)m;
    const uint64_t flips = flipped_by(sq, b->own, b->opp);
    const uint64_t replies = legal_squares(b->opp ^ flips, b->own | flips | (1ull << sq));
    const float mobility = REPLY_SCALE / (REPLY_SCALE + (float)popcount64(replies));
    return square_class(sq, ~(b->own | b->opp)) * mobility;
}

void reversi_move_priors(const Game *g, const Position *p, const Move *moves, int n, float *out)
{
    (void)g;
    const Board b = load_board(p);
    for (int i = 0; i < n; i++)
        out[i] = move_prior(&b, moves[i]);
}
