/*
 * reversi_reference_solve.c - the plain endgame solver of reversi_reference_solve.h, written
 * from RULES.md section 4 alone.
 */
#include "reversi_reference_solve.h"

#include <ctype.h>
#include <string.h>

enum { EMPTY = 0, MINE = 1, THEIRS = 2 };

typedef struct {
    unsigned char cell[8][8];   /* [row][col], relative to the side to move */
    uint64_t nodes;
} Grid;

static const int DIRECTIONS[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};

static bool inside(int r, int c)
{
    return r >= 0 && r < 8 && c >= 0 && c < 8;
}

/* Discs that `who` turns over by playing (r, c); 0 when the square is taken or nothing flips. */
static int flips(const Grid *g, int r, int c, int who, bool apply, Grid *out)
{
    if (g->cell[r][c] != EMPTY)
        return 0;
    const int other = who == MINE ? THEIRS : MINE;
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int rr = r + DIRECTIONS[d][0], cc = c + DIRECTIONS[d][1], run = 0;
        while (inside(rr, cc) && g->cell[rr][cc] == other) {
            rr += DIRECTIONS[d][0];
            cc += DIRECTIONS[d][1];
            run++;
        }
        if (run == 0 || !inside(rr, cc) || g->cell[rr][cc] != who)
            continue;
        total += run;
        if (apply)
            for (int k = 1; k <= run; k++)
                out->cell[r + k * DIRECTIONS[d][0]][c + k * DIRECTIONS[d][1]] = (unsigned char)who;
    }
    if (apply && total)
        out->cell[r][c] = (unsigned char)who;
    return total;
}

static bool can_move(const Grid *g, int who)
{
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            if (flips(g, r, c, who, false, NULL))
                return true;
    return false;
}

static int final_score(const Grid *g)
{
    int mine = 0, theirs = 0, empty = 0;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            mine += g->cell[r][c] == MINE;
            theirs += g->cell[r][c] == THEIRS;
            empty += g->cell[r][c] == EMPTY;
        }
    const int diff = mine - theirs;
    return diff > 0 ? diff + empty : diff < 0 ? diff - empty : 0;
}

/* The same grid seen by the other side. */
static Grid swapped(const Grid *g)
{
    Grid s = *g;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            s.cell[r][c] = g->cell[r][c] == EMPTY ? EMPTY : (unsigned char)(3 - g->cell[r][c]);
    return s;
}

static int negamax(Grid *g, int alpha, int beta)
{
    g->nodes++;
    bool moved = false;
    for (int r = 0; r < 8 && alpha < beta; r++)
        for (int c = 0; c < 8 && alpha < beta; c++) {
            Grid child = *g;
            if (!flips(g, r, c, MINE, true, &child))
                continue;
            moved = true;
            Grid next = swapped(&child);
            next.nodes = 0;
            const int v = -negamax(&next, -beta, -alpha);
            g->nodes += next.nodes;
            if (v > alpha)
                alpha = v;
        }
    if (moved)
        return alpha;
    if (!can_move(g, THEIRS))
        return final_score(g);
    Grid next = swapped(g);
    next.nodes = 0;
    const int v = -negamax(&next, -beta, -alpha);
    g->nodes += next.nodes;
    return v;
}

static bool read_grid(const char *text, Grid *g, int *side_black)
{
    memset(g, 0, sizeof *g);
    int r = 0, c = 0;
    const char *p = text;
    unsigned char raw[8][8] = {{0}};
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            if (c != 8)
                return false;
            r++;
            c = 0;
        } else if (isdigit((unsigned char)*p)) {
            c += *p - '0';
        } else if (*p == 'W' || *p == 'B') {
            if (r >= 8 || c >= 8)
                return false;
            raw[r][c++] = *p == 'B' ? 1 : 2;
        } else {
            return false;
        }
        if (c > 8)
            return false;
    }
    if (r != 7 || c != 8 || *p != ' ' || (p[1] != 'b' && p[1] != 'w'))
        return false;
    *side_black = p[1] == 'b';
    const unsigned char mover = *side_black ? 1 : 2;
    for (r = 0; r < 8; r++)
        for (c = 0; c < 8; c++)
            g->cell[r][c] = raw[r][c] == 0 ? EMPTY : raw[r][c] == mover ? MINE : THEIRS;
    return true;
}

bool ref_solve(const char *position, int *score, uint64_t *nodes)
{
    Grid g;
    int side_black;
    if (!read_grid(position, &g, &side_black))
        return false;
    *score = negamax(&g, -64, 64);
    if (nodes)
        *nodes = g.nodes;
    return true;
}
