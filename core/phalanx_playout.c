/*
 * phalanx_playout.c - uniformly random playouts for the phalanx games, fast.  Listing ~180 moves
 * a ply to pick one is most of the cost of a naive playout, so this keeps the number of moves
 * along every line for both colours, recounts only the lines a move changed, and draws the move
 * by index: the line that holds it is found from the counts, and only that line is listed.
 * Where the symmetry or answering rule may forbid moves, the ply falls back to the full list.
 */
#include "phalanx_lines.h"
#include "rng.h"

#include <string.h>

typedef struct {
    uint8_t moves[2][NUM_LINES];   /* [colour][line]: moves along the line, both directions */
    int total[2];
} LineCounts;

static void count_all(const PhalanxTables *t, const PhalanxPos *p, LineCounts *lc)
{
    memset(lc, 0, sizeof *lc);
    for (int a = 0; a < t->num_active; a++)
        for (int c = 0; c < 2; c++) {
            int l = t->active[a], n = count_line(t, p, c, l);
            lc->moves[c][l] = (uint8_t)n;
            lc->total[c] += n;
        }
}

static void recount(const PhalanxTables *t, const PhalanxPos *p, LineCounts *lc, LineSet dirty)
{
    for (int w = 0; w < 2; w++)
        for (uint64_t b = dirty.bits[w]; b; b &= b - 1) {
            int l = w * 64 + __builtin_ctzll(b);
            for (int c = 0; c < 2; c++) {
                int n = count_line(t, p, c, l);
                lc->total[c] += n - lc->moves[c][l];
                lc->moves[c][l] = (uint8_t)n;
            }
        }
}

/* The r-th move of the side to move, in line order. */
static Move pick_move(const PhalanxTables *t, const PhalanxPos *p, const LineCounts *lc, uint32_t r)
{
    int us = p->side;
    for (int a = 0; a < t->num_active; a++) {
        int l = t->active[a];
        if (r < lc->moves[us][l]) {
            Move line_moves[MAX_MOVES];
            phalanx_gen_line(t, p, us, l, line_moves);
            return line_moves[r];
        }
        r -= lc->moves[us][l];
    }
    return MOVE_NONE;   /* unreachable while the counts are right */
}

static Move pick_from_list(const PhalanxTables *t, const PhalanxPos *p, Rng *rng, int *n)
{
    Move moves[MAX_MOVES];
    *n = phalanx_gen(t, p, moves);
    return *n ? moves[rng_below(rng, (uint32_t)*n)] : MOVE_NONE;
}

PlayoutResult phalanx_playout(const Game *g, Position *pos, Rng *rng, int max_plies)
{
    const PhalanxTables *t = tables_of(g);
    PhalanxPos *p = pos_of(pos);
    LineCounts lc;
    count_all(t, p, &lc);
    PlayoutResult result = {STATUS_DRAW, 0};
    for (; result.plies < max_plies; result.plies++) {
        int n = lc.total[p->side];
        Move m = special_rules_apply(t, p) ? pick_from_list(t, p, rng, &n)
                 : n ? pick_move(t, p, &lc, rng_below(rng, (uint32_t)n)) : MOVE_NONE;
        if (n == 0)
            break;
        int captured;
        phalanx_make(t, p, m, &captured);
        recount(t, p, &lc, changed_lines(m, captured));
    }
    GameStatus s = phalanx_status(t, p);
    if (s != STATUS_ONGOING)
        result.status = s;
    return result;
}
