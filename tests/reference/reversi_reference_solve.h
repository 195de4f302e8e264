/*
 * reversi_reference_solve.h - a deliberately plain Reversi endgame solver for tests to check
 * core/reversi_solve.c against: a character grid, flips found by walking the eight directions,
 * and alpha-beta in square order with no move ordering, no table and no bitboards.  It shares
 * nothing with core/ but the position string it reads, and is as slow as it is simple.
 */
#ifndef LEUCTRA_REVERSI_REFERENCE_SOLVE_H
#define LEUCTRA_REVERSI_REFERENCE_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

/* The exact score for the side to move (final disc difference, empties to the winner) of a
 * position string as RULES.md writes it; false when the text is not an 8x8 position.
 * *nodes (may be NULL) receives the positions visited. */
bool ref_solve(const char *position, int *score, uint64_t *nodes);

#endif
