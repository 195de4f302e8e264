/*
 * phalanx_regions.c - Igfip's walled draw (docs/RULES.md): the board's playable squares fall into
 * regions, the sets that a stone stepping one square at a time in any of the eight directions
 * could ever cover (obstacles are the only walls: stones move, and can be taken).  When every
 * region that holds a free stone holds free stones of one colour only, no enemy crossing and
 * none of that colour's far rank, no crossing can ever be made or taken again, nor any stone:
 * the counts are final, and at a level count nobody can lose.
 *
 * The regions depend on the obstacles alone, so they are found once with the game's tables;
 * a board where every region touches both home ranks (every board without a wall of
 * obstacles) can never be walled, and pays nothing.
 */
#include "phalanx.h"

#include <string.h>

/* Marks the region of `start` with `id` (an explicit stack: 256 squares at most). */
static void fill_region(PhalanxTables *t, int start, uint8_t id)
{
    int stack[256], top = 0;
    stack[top++] = start;
    t->region_of[start] = id;
    while (top > 0) {
        int sq = stack[--top];
        if (sq_rank(sq) == t->far_rank[WHITE])
            t->region_far[id] |= 1u << WHITE;
        if (sq_rank(sq) == t->far_rank[BLACK])
            t->region_far[id] |= 1u << BLACK;
        for (int d = 0; d < NUM_DIRS; d++) {
            int f = sq_file(sq) + dir_file[d], r = sq_rank(sq) + dir_rank[d], next = make_sq(f, r);
            if (phalanx_on_board(t, f, r) && !phalanx_is_obstacle(t, next) && t->region_of[next] == PHALANX_NO_REGION) {
                t->region_of[next] = id;
                stack[top++] = next;
            }
        }
    }
}

void phalanx_find_regions(PhalanxTables *t)
{
    memset(t->region_of, PHALANX_NO_REGION, sizeof t->region_of);
    memset(t->region_far, 0, sizeof t->region_far);
    int regions = 0;
    t->walls = false;
    for (int r = 0; r < t->height; r++)
        for (int f = 0; f < t->width; f++) {
            int sq = make_sq(f, r);
            if (phalanx_is_obstacle(t, sq) || t->region_of[sq] != PHALANX_NO_REGION)
                continue;
            fill_region(t, sq, (uint8_t)regions);
            t->walls |= t->region_far[regions] != 3;
            regions++;
        }
}

/* What a region holds, as bits: free white, free black, white crossing, black crossing. */
enum { FREE_WHITE = 1, FREE_BLACK = 2, CROSSING_WHITE = 4, CROSSING_BLACK = 8 };

bool phalanx_walled(const PhalanxTables *t, const PhalanxPos *p)
{
    if (!t->igfip || !t->walls)
        return false;
    uint8_t holds[256] = {0};
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < t->height; r++)
            for (unsigned row = p->lines[c][ROW0 + r]; row; row &= row - 1) {
                int sq = make_sq(__builtin_ctz(row), r);
                bool crossing = r == t->far_rank[c];
                holds[t->region_of[sq]] |= (uint8_t)(crossing ? CROSSING_WHITE << c : FREE_WHITE << c);
            }
    for (int id = 0; id < 256; id++) {
        for (int c = 0; c < 2; c++) {
            if (!(holds[id] & (FREE_WHITE << c)))
                continue;
            /* free stones of c: alone, away from c's far rank and from every enemy crossing */
            if (holds[id] & (FREE_WHITE << !c) || holds[id] & (CROSSING_WHITE << !c) || t->region_far[id] >> c & 1)
                return false;
        }
    }
    return true;
}
