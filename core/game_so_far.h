/*
 * game_so_far.h - one game's past: where it started, the moves played and the hash of every
 * position it went through.  The driver keeps one and hands it to the players; the engine server
 * keeps one from `position ... moves`; the search reads its hashes for the repetition rule.  One
 * copy, so the players, the driver and the search can never disagree about what was played.
 */
#ifndef LEUCTRA_GAME_SO_FAR_H
#define LEUCTRA_GAME_SO_FAR_H

#include "game.h"

typedef struct {
    Position start;
    Position now;           /* start with every move played: the position to move from */
    Move *moves;            /* moves[0 .. plies) */
    uint64_t *hashes;       /* hashes[i]: the position after i moves; hashes[0] is start's, hashes[plies] now's */
    int plies;
    int capacity;           /* moves that fit before the arrays grow */
} GameSoFar;

/* An empty value that owns nothing (the same as zero-filled memory). */
#define GAME_SO_FAR_EMPTY ((GameSoFar){0})

/* Starts the game at `start`, keeping the arrays.  False when memory runs out. */
bool game_so_far_begin(GameSoFar *h, const Game *g, const Position *start);
/* Plays a legal move of h->now.  False when memory runs out (nothing changes then). */
bool game_so_far_play(GameSoFar *h, const Game *g, Move m);
/* Takes back every move after the first `plies` (h->now is replayed from the start). */
void game_so_far_truncate(GameSoFar *h, const Game *g, int plies);
/* How often h->now occurred in the game, itself included (the driver's repetition count). */
int game_so_far_occurrences(const GameSoFar *h);
void game_so_far_free(GameSoFar *h);

#endif
