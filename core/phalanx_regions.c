/*
 * phalanx_regions.c - Igfip's walled draw (docs/RULES.md): whether no crossing can ever be made
 * or taken again and no stone captured, so that at level counts nobody can lose.
 *
 * The permanent walls are the board's edge, the obstacles and, in a walled position, every
 * crossing: crossings never move, and one that no enemy group of two can reach is never taken.
 * The other squares fall into regions, the squares a stone stepping one square at a time in any
 * of the eight directions could ever cover; a stone never leaves its region (it moves over empty
 * squares only).  A position is walled when, in every region that holds free stones, no free
 * stone shares the region with a square of its far rank, no colour with two or more free stones
 * there (one stone captures nothing) meets an enemy stone there, and no such colour touches an
 * enemy crossing.  Then, by induction over the moves, the walls stand for ever.  Taking every
 * crossing as a wall is no circular argument: the first crossing to fall would have to fall
 * while all of them still stand, which the last test rules out.
 *
 * The regions are flood fills over rows of 16-bit masks.  A board where every obstacle region
 * touches both far ranks (every board without a wall of obstacles) can be walled only by
 * crossings, so a position with none there costs two loads.
 */
#include "phalanx.h"

typedef struct {
    uint16_t row[16];
} Rows;

/* Grows `reach` to every square of `open` it can reach by king steps (sweeps up and down the
 * ranks, which converge in a few passes for the shapes boards have). */
static void flood(const Rows *open, int height, Rows *reach)
{
    for (bool grew = true; grew;) {
        grew = false;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < height; i++) {
                int r = pass == 0 ? i : height - 1 - i;
                uint16_t near = 0;
                for (int rr = r - 1; rr <= r + 1; rr++)
                    if (rr >= 0 && rr < height)
                        near |= reach->row[rr] | (uint16_t)(reach->row[rr] << 1) | reach->row[rr] >> 1;
                uint16_t next = (uint16_t)((near & open->row[r]) | reach->row[r]);
                grew |= next != reach->row[r];
                reach->row[r] = next;
            }
    }
}

/* The squares one king step from `region` or in it. */
static Rows around(const Rows *region, int height)
{
    Rows out = {{0}};
    for (int r = 0; r < height; r++)
        for (int rr = r - 1; rr <= r + 1; rr++)
            if (rr >= 0 && rr < height)
                out.row[r] |= region->row[rr] | (uint16_t)(region->row[rr] << 1) | region->row[rr] >> 1;
    return out;
}

static int count_in(const Rows *a, const Rows *b, int height)
{
    int n = 0;
    for (int r = 0; r < height; r++)
        n += __builtin_popcount(a->row[r] & b->row[r]);
    return n;
}

static bool meets(const Rows *a, const Rows *b, int height)
{
    return count_in(a, b, height) > 0;
}

/* The playable squares with obstacles and the given extra walls taken out. */
static Rows open_squares(const PhalanxTables *t, const Rows *walls)
{
    Rows open = {{0}};
    for (int r = 0; r < t->height; r++)
        open.row[r] = (uint16_t)(t->valid[ROW0 + r] & ~walls->row[r]);
    return open;
}

static Rows one_square(int sq)
{
    Rows out = {{0}};
    out.row[sq_rank(sq)] = (uint16_t)(1u << sq_file(sq));
    return out;
}

static int lowest_square(const Rows *a, int height)
{
    for (int r = 0; r < height; r++)
        if (a->row[r])
            return make_sq(__builtin_ctz(a->row[r]), r);
    return -1;
}

void phalanx_find_regions(PhalanxTables *t)
{
    Rows none = {{0}}, open = open_squares(t, &none), left = open;
    t->walls = false;
    for (int sq = lowest_square(&left, t->height); sq >= 0; sq = lowest_square(&left, t->height)) {
        Rows region = one_square(sq);
        flood(&open, t->height, &region);
        for (int r = 0; r < t->height; r++)
            left.row[r] &= (uint16_t)~region.row[r];
        t->walls |= !region.row[t->far_rank[WHITE]] || !region.row[t->far_rank[BLACK]];
    }
}

/* Whether one region passes the three tests of the header: `free_stones` and `crossings` of
 * each colour. */
static bool region_walled(const PhalanxTables *t, const Rows *region, const Rows free_stones[2],
                          const Rows crossings[2])
{
    int count[2], h = t->height;
    for (int c = 0; c < 2; c++)
        count[c] = count_in(region, &free_stones[c], h);
    Rows near = around(region, h);
    for (int c = 0; c < 2; c++) {
        if (count[c] > 0 && region->row[t->far_rank[c]])
            return false;                               /* c can still cross */
        if (count[c] >= 2 && (count[!c] > 0 || meets(&near, &crossings[!c], h)))
            return false;                               /* c can still capture */
    }
    return true;
}

static bool walled(const PhalanxTables *t, const PhalanxPos *p)
{
    Rows free_stones[2] = {{{0}}}, crossings[2] = {{{0}}}, walls = {{0}};
    for (int c = 0; c < 2; c++) {
        int far = t->far_rank[c];
        for (int r = 0; r < t->height; r++)
            free_stones[c].row[r] = r == far ? 0 : p->lines[c][ROW0 + r];
        crossings[c].row[far] = p->lines[c][ROW0 + far];
        walls.row[far] |= crossings[c].row[far];
    }
    Rows open = open_squares(t, &walls), left = {{0}};
    for (int r = 0; r < t->height; r++)
        left.row[r] = free_stones[WHITE].row[r] | free_stones[BLACK].row[r];
    for (int sq = lowest_square(&left, t->height); sq >= 0; sq = lowest_square(&left, t->height)) {
        Rows region = one_square(sq);
        flood(&open, t->height, &region);
        if (!region_walled(t, &region, free_stones, crossings))
            return false;
        for (int r = 0; r < t->height; r++)
            left.row[r] &= (uint16_t)~region.row[r];
    }
    return true;
}

/* At level counts; behind, a side cannot answer and loses, and ahead, it moves and the other
 * then cannot answer (docs/RULES.md). */
bool phalanx_walled_draw(const PhalanxTables *t, const PhalanxPos *p)
{
    uint16_t white = p->lines[WHITE][ROW0 + t->far_rank[WHITE]], black = p->lines[BLACK][ROW0 + t->far_rank[BLACK]];
    if (!t->igfip || __builtin_popcount(white) != __builtin_popcount(black))
        return false;
    if (!t->walls && !white && !black)
        return false;   /* every free stone's region reaches its far rank */
    return walled(t, p);
}

bool phalanx_move_walls_in(const PhalanxTables *t, const PhalanxPos *after, Move m, int captured)
{
    int mover = !after->side;
    bool crossed = dir_rank[move_dir(m)] != 0 && move_land_rank(m) == t->far_rank[mover];
    return (captured > 0 || crossed) && phalanx_walled_draw(t, after);
}
