/*
 * ffo_suite.h - the FFO endgame test positions #40-#59 (radagast.se/othello/ffotest.html), the
 * Reversi solver's public yardstick: 20 to 34 empty squares, each with its published exact score
 * for the side to move and its best moves.  `leuctra bench solve` times the solver on them and
 * the tests check the data and the first ones' scores.  Plain constant data.
 */
#ifndef LEUCTRA_FFO_SUITE_H
#define LEUCTRA_FFO_SUITE_H

typedef struct {
    int number;             /* the position's number in the FFO suite */
    const char *position;   /* RULES.md's Reversi position string */
    int score;              /* final disc difference for the side to move with best play */
    const char *best;       /* every best move, comma-separated (lower case) */
    int empties;            /* empty squares, as the suite lists them */
} FfoPosition;

#define FFO_FIRST 40
#define FFO_LAST 59

/* FFO #number, or NULL when the suite here does not hold it. */
const FfoPosition *ffo_position(int number);

#endif
