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
    bool crossings, igfip;  /* the rule set: Epaminondas when both are false */
    char cell[16][16];      /* [rank][file]: 'W', 'B', 'x', '.' */
    int side;
} RefBoard;

void ref_load(const Game *g, const Position *pos, RefBoard *b);
/* Legal moves as notation strings (each up to 8 chars + NUL); returns their number and adds
 * to *forbidden (if not NULL) the moves that the symmetry or answering rule took away. */
int ref_moves(const RefBoard *b, char (*out)[12], int max, int *forbidden);
/* Status by the rules: STATUS_ONGOING, the winner, or (Igfip) STATUS_DRAW. */
GameStatus ref_status(const RefBoard *b);
/* perft by RULES.md section 6: every legal move played on a copy of the board, to depth. */
uint64_t ref_perft(const RefBoard *b, int depth);

#endif
