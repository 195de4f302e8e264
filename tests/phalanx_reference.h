/*
 * phalanx_reference.h - a deliberately plain move generator for the phalanx games, written
 * straight from RULES.md on a character grid, for tests to compare the engine against.  It shares
 * no code with core/ beyond reading squares, and is as slow as it is simple.
 */
#ifndef LEUCTRA_PHALANX_REFERENCE_H
#define LEUCTRA_PHALANX_REFERENCE_H

#include "core/game.h"

typedef struct {
    int width, height;
    bool crossings;
    char cell[16][16];      /* [rank][file]: 'W', 'B', 'x', '.' */
    int side;
} RefBoard;

void ref_load(const Game *g, const Position *pos, RefBoard *b);
/* Legal moves as notation strings (each up to 8 chars + NUL); returns their number and adds
 * to *forbidden (if not NULL) the moves that the symmetry or answering rule took away. */
int ref_moves(const RefBoard *b, char (*out)[12], int max, int *forbidden);
/* Status by the rules: STATUS_ONGOING or the winner. */
GameStatus ref_status(const RefBoard *b);

#endif
