/*
 * modules.h - how game.c builds a Game from a module.  Only game.c and the modules include this.
 *
 * A module's setup fills g->ops and g->impl (its tables) for a board of g->width x g->height;
 * its teardown frees g->impl.  Adding a game = a new module + one row in game.c's table.
 */
#ifndef LEUCTRA_MODULES_H
#define LEUCTRA_MODULES_H

#include "game.h"

/* Epaminondas and Crossings: one module with rule flags.  `obstacles` lists obstacle squares as
 * 256 bytes indexed [rank * 16 + file] (non-zero = obstacle), or NULL for none. */
bool phalanx_setup(Game *g, const unsigned char *obstacles, Error *err);
void phalanx_teardown(Game *g);
/* Reads only the board shape (width, height, obstacles) of a position string. */
bool phalanx_scan_shape(const char *text, int *width, int *height, unsigned char obstacles[256], Error *err);

bool reversi_setup(Game *g, Error *err);
void reversi_teardown(Game *g);

#endif
