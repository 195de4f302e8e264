/*
 * phalanx_board.c - the phalanx board itself: placing and removing stones on the rotated
 * bitboards, making and unmaking moves, hashing, and the position tests the rules ask for
 * (home-rank counts, frozen and shielded stones, mirror symmetry).
 */
#include "phalanx.h"

#include <string.h>

bool phalanx_on_board(const PhalanxTables *t, int file, int rank)
{
    return file >= 0 && file < t->width && rank >= 0 && rank < t->height;
}

bool phalanx_is_obstacle(const PhalanxTables *t, int sq)
{
    return !(t->valid[ROW0 + sq_rank(sq)] >> sq_file(sq) & 1);
}

int phalanx_colour_at(const PhalanxPos *p, int sq)
{
    uint16_t bit = (uint16_t)(1u << sq_file(sq));
    if (p->lines[WHITE][ROW0 + sq_rank(sq)] & bit)
        return WHITE;
    if (p->lines[BLACK][ROW0 + sq_rank(sq)] & bit)
        return BLACK;
    return -1;
}

bool phalanx_is_frozen(const PhalanxTables *t, int colour, int sq)
{
    return t->frozen && sq_rank(sq) == t->far_rank[colour];
}

bool phalanx_is_shielded(const PhalanxTables *t, int colour, int sq)
{
    return t->crossings && sq_rank(sq) == t->far_rank[colour];
}

bool phalanx_no_free_stones(const PhalanxTables *t, const PhalanxPos *p)
{
    for (int c = 0; c < 2; c++)
        if (p->stones[c] != phalanx_home_rank_count(p, c, t->far_rank[c]))
            return false;
    return true;
}

void phalanx_toggle_stone(const PhalanxTables *t, PhalanxPos *p, int colour, int sq)
{
    int f = sq_file(sq), r = sq_rank(sq);
    uint16_t *lines = p->lines[colour];
    lines[ROW0 + r] ^= (uint16_t)(1u << f);
    lines[COL0 + f] ^= (uint16_t)(1u << r);
    lines[DIAG0 + f - r + 15] ^= (uint16_t)(1u << r);
    lines[ANTI0 + f + r] ^= (uint16_t)(1u << r);
    p->hash ^= t->zobrist[colour][sq];
}

void phalanx_clear_position(const PhalanxTables *t, PhalanxPos *p, int side)
{
    memset(p, 0, sizeof *p);
    p->side = (uint8_t)side;
    p->hash = side == BLACK ? t->zobrist_black : 0;
}

static int step_of(int dir) { return dir_rank[dir] * 16 + dir_file[dir]; }

/* Removes the enemy stones a move strikes on `land` (the whole line in Epaminondas and Igfip,
 * the struck stone alone in Crossings); returns how many. */
static int remove_captured(const PhalanxTables *t, PhalanxPos *p, int enemy, int land, int dir)
{
    if (phalanx_colour_at(p, land) != enemy)
        return 0;
    if (t->crossings) {
        phalanx_toggle_stone(t, p, enemy, land);
        return 1;
    }
    int n = 0, f = sq_file(land), r = sq_rank(land);
    while (phalanx_on_board(t, f, r) && phalanx_colour_at(p, make_sq(f, r)) == enemy) {
        phalanx_toggle_stone(t, p, enemy, make_sq(f, r));
        n++;
        f += dir_file[dir];
        r += dir_rank[dir];
    }
    return n;
}

/* A group of k moving j <= k squares: the j rearmost squares empty and j squares beyond the
 * front fill; the squares in between stay occupied. */
static void shift_group(const PhalanxTables *t, PhalanxPos *p, int colour, Move m)
{
    int step = step_of(move_dir(m)), k = move_group(m), j = move_dist(m), rear = move_rear(m);
    for (int i = 0; i < j; i++) {
        phalanx_toggle_stone(t, p, colour, rear + i * step);
        phalanx_toggle_stone(t, p, colour, rear + (k + i) * step);
    }
}

void phalanx_make(const PhalanxTables *t, PhalanxPos *p, Move m, int *captured)
{
    int us = p->side, them = !us, step = step_of(move_dir(m));
    int land = move_rear(m) + (move_group(m) - 1 + move_dist(m)) * step;
    int n = remove_captured(t, p, them, land, move_dir(m));
    shift_group(t, p, us, m);
    p->stones[them] = (uint16_t)(p->stones[them] - n);
    p->side = (uint8_t)them;
    p->hash ^= t->zobrist_black;
    *captured = n;
}

void phalanx_unmake(const PhalanxTables *t, PhalanxPos *p, Move m, int captured, uint64_t hash)
{
    int them = p->side, us = !them, step = step_of(move_dir(m));
    int land = move_rear(m) + (move_group(m) - 1 + move_dist(m)) * step;
    shift_group(t, p, us, m);
    for (int i = 0; i < captured; i++)
        phalanx_toggle_stone(t, p, them, land + i * step);
    p->stones[them] = (uint16_t)(p->stones[them] + captured);
    p->side = (uint8_t)us;
    p->hash = hash;
}

uint64_t phalanx_hash_fresh(const PhalanxTables *t, const PhalanxPos *p)
{
    uint64_t h = p->side == BLACK ? t->zobrist_black : 0;
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < t->height; r++)
            for (int f = 0; f < t->width; f++)
                if (p->lines[c][ROW0 + r] >> f & 1)
                    h ^= t->zobrist[c][make_sq(f, r)];
    return h;
}

int phalanx_stones_captured(const PhalanxTables *t, const PhalanxPos *p, int land, int dir)
{
    int them = !p->side;
    if (phalanx_colour_at(p, land) != them)
        return 0;
    if (t->crossings)
        return 1;
    int n = 0, f = sq_file(land), r = sq_rank(land);
    for (; phalanx_on_board(t, f, r) && phalanx_colour_at(p, make_sq(f, r)) == them; n++) {
        f += dir_file[dir];
        r += dir_rank[dir];
    }
    return n;
}

int phalanx_home_rank_count(const PhalanxPos *p, int colour, int rank)
{
    return __builtin_popcount(p->lines[colour][ROW0 + rank]);
}

/* Mirror symmetry of RULES.md section 2: rank r of one colour equals rank H+1-r of the other
 * (obstacles are checked once, when the game is built). */
bool phalanx_is_mirror_symmetric(const PhalanxTables *t, const PhalanxPos *p)
{
    if (!t->obstacles_mirror || p->stones[WHITE] != p->stones[BLACK])
        return false;
    for (int r = 0; r < t->height; r++)
        if (p->lines[WHITE][ROW0 + r] != p->lines[BLACK][ROW0 + t->height - 1 - r])
            return false;
    return true;
}
