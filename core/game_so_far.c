/*
 * game_so_far.c - one game's past (see game_so_far.h).
 */
#include "game_so_far.h"

#include <stdlib.h>

static bool grow(GameSoFar *h, int need)
{
    if (need <= h->capacity)
        return true;
    int cap = h->capacity ? 2 * h->capacity : 256;
    while (cap < need)
        cap *= 2;
    Move *moves = realloc(h->moves, (size_t)cap * sizeof *moves);
    if (!moves)
        return false;
    h->moves = moves;
    uint64_t *hashes = realloc(h->hashes, ((size_t)cap + 1) * sizeof *hashes);
    if (!hashes)
        return false;
    h->hashes = hashes;
    h->capacity = cap;
    return true;
}

bool game_so_far_begin(GameSoFar *h, const Game *g, const Position *start)
{
    if (!grow(h, 1))
        return false;
    h->start = h->now = *start;
    h->plies = 0;
    h->hashes[0] = game_hash(g, start);
    return true;
}

bool game_so_far_play(GameSoFar *h, const Game *g, Move m)
{
    if (!grow(h, h->plies + 1))
        return false;
    Undo undo;
    game_make(g, &h->now, m, &undo);
    h->moves[h->plies++] = m;
    h->hashes[h->plies] = game_hash(g, &h->now);
    return true;
}

void game_so_far_truncate(GameSoFar *h, const Game *g, int plies)
{
    if (plies < 0 || plies >= h->plies)
        return;
    h->now = h->start;
    for (int i = 0; i < plies; i++) {
        Undo undo;
        game_make(g, &h->now, h->moves[i], &undo);
    }
    h->plies = plies;
}

int game_so_far_occurrences(const GameSoFar *h)
{
    const uint64_t now = h->hashes[h->plies];
    int count = 0;
    for (int i = h->plies; i >= 0; i--)
        count += h->hashes[i] == now;
    return count;
}

void game_so_far_free(GameSoFar *h)
{
    free(h->moves);
    free(h->hashes);
    *h = GAME_SO_FAR_EMPTY;
}
