/*
 * svg_board.h - a position drawn as a standalone SVG picture: the board with coordinates,
 * stones, obstacles, Crossings towers and Igfip crossings, the last move marked, and optional
 * arrows for the engine's top moves.  Presentation only: it asks the rules nothing but game_square, so a
 * picture shows exactly the position it is given.  Thread-safe: no state outside the call.
 */
#ifndef LEUCTRA_SVG_BOARD_H
#define LEUCTRA_SVG_BOARD_H

#include "core/game.h"

#include <stdbool.h>
#include <stdio.h>

enum { SVG_MOVE_TEXT = 16 };

/* One arrow: a move in notation and its share of the search's visits (0..1), which sets the
 * arrow's width and opacity. */
typedef struct {
    char move[SVG_MOVE_TEXT];
    double share;
} SvgArrow;

typedef struct {
    const char *last_move;      /* notation of the move that led to the position; NULL: none */
    const SvgArrow *arrows;
    int num_arrows;
} SvgMarks;

/* The squares a move in notation names ("e2-e3": two, "d3": one, "pass": none) as file and
 * rank in game_square's terms; returns how many (0..2), or -1 when the text names a square off
 * the board or is not notation. */
int svg_move_squares(const Game *g, const char *text, int files[2], int ranks[2]);

/* Writes the picture; false when the stream reports a write error. */
bool svg_board_write(FILE *out, const Game *g, const Position *pos, const SvgMarks *marks);

#endif
