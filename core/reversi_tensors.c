/*
 * reversi_tensors.c - the action index and input planes of Reversi (core/tensors.h,
 * docs/TENSORS.md): the 64 squares in the position string's order (row 0 the top, Othello row 1,
 * so action = row * 8 + column, the Move itself) and the pass as action 64.  Colours play alike,
 * so the board is never mirrored for the mover; all eight symmetries of the square keep the rules.
 */
#include "reversi.h"
#include "tensors.h"

enum { ACTION_PASS = SQUARES, REVERSI_ACTIONS = SQUARES + 1 };

int reversi_num_actions(const Game *g)
{
    (void)g;
    return REVERSI_ACTIONS;
}

int reversi_action_of(const Game *g, const Position *p, Move m)
{
    (void)g, (void)p;
    return m == MOVE_PASS ? ACTION_PASS : (int)m;
}

int reversi_action_of_squares(const Game *g, int side, const MoveSquares *m)
{
    (void)g, (void)side;
    if (m->pass)
        return ACTION_PASS;
    int row = m->from_number - 1, col = m->from_file;
    if (m->to_file != m->from_file || m->to_number != m->from_number || row < 0 || row >= BOARD_SIDE || col < 0 ||
        col >= BOARD_SIDE)
        return -1;
    return row * BOARD_SIDE + col;
}

void reversi_planes(const Game *g, const Position *p, unsigned char *out)
{
    (void)g;
    const Board b = load_board(p);
    memset(out, 0, (size_t)PLANES_COUNT * SQUARES);
    for (int sq = 0; sq < SQUARES; sq++) {
        out[PLANE_OWN * SQUARES + sq] = b.own >> sq & 1;
        out[PLANE_OPPONENT * SQUARES + sq] = b.opp >> sq & 1;
    }
    memset(out + PLANE_WHITE_TO_MOVE * SQUARES, b.side == WHITE, SQUARES);
    memset(out + PLANE_ON_BOARD * SQUARES, 1, SQUARES);
}

unsigned reversi_symmetries(const Game *g)
{
    (void)g;
    return (1u << SYM_COUNT) - 1;
}

int reversi_transform_action(const Game *g, int s, int action)
{
    (void)g;
    if (action == ACTION_PASS)
        return action;
    int row = action / BOARD_SIDE, col = action % BOARD_SIDE;
    symmetry_map(s, BOARD_SIDE, BOARD_SIDE, &row, &col);
    return row * BOARD_SIDE + col;
}
