/*
 * perft.h - move-path counting for any game, split over OpenMP threads, with a per-root-move
 * breakdown (divide).  The single-thread count itself lives in each game module.
 */
#ifndef LEUCTRA_PERFT_H
#define LEUCTRA_PERFT_H

#include "game.h"

/* Counts perft(pos, depth) into *count with `threads` threads (0 = OpenMP's default; never more
 * than THREADS_MAX, core/threads.h).  If per_move is not NULL it receives the count below each
 * legal root move, in gen_moves order (it must hold MAX_MOVES entries) and *num_moves their
 * number.  The result does not depend on threads.  False with *err when memory runs out. */
bool perft_parallel(const Game *g, const Position *pos, int depth, int threads, uint64_t *count, uint64_t *per_move,
                    int *num_moves, Error *err);

#endif
