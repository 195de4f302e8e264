/*
 * playout.h - uniformly random games to the end: the rules' speed benchmark and the random
 * playouts that search may use at its leaves.
 */
#ifndef LEUCTRA_PLAYOUT_H
#define LEUCTRA_PLAYOUT_H

#include "game.h"
#include "rng.h"

/* Plays random legal moves from *pos (changed in place) until the game ends or max_plies moves
 * have been played.  `moves` is scratch space of MAX_MOVES entries. */
PlayoutResult playout_random(const Game *g, Position *pos, Rng *rng, int max_plies, Move *moves);

/* The plain version: list the moves every ply and take moves[rng_below(n)].  A game's fast
 * playout must play exactly these games (same generator, same moves), which the tests check. */
PlayoutResult playout_random_listed(const Game *g, Position *pos, Rng *rng, int max_plies, Move *moves);

#endif
