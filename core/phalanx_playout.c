/*
 * phalanx_playout.c - uniformly random playouts for the phalanx games, fast.  Listing ~180 moves
 * a ply to pick one is most of the cost of a naive playout, so this keeps the number of moves
 * along every line for both colours, recounts only the lines a move changed (a table lookup per
 * line, phalanx_line_table.c), and draws the move by index: the line that holds it is found from
 * the counts, and only that line is listed.
 * Where the symmetry or answering rule may forbid moves, the ply falls back to the full list.
 */
#include "phalanx_line_table.h"
#include "phalanx_lines.h"
#include "rng.h"

#include <string.h>

typedef struct {
    uint8_t moves[2][NUM_LINES];   /* [colour][line]: moves along the line, both directions */
    int total[2];
} LineCounts;

/* Line l's moves for both colours: a table lookup where the line has a table (every line of an
 * open board up to 14 squares), else counted. */
static void count_both(const PhalanxTables *t, const LineTable *lt, const PhalanxPos *p, int l, int moves[2])
{
    const uint8_t *table = lt ? lt->counts[l] : NULL;
    if (table) {
        line_table_lookup(lt, table, p, l, moves);
    } else {
        moves[WHITE] = count_line(t, p, WHITE, l);
        moves[BLACK] = count_line(t, p, BLACK, l);
    }
}

static void set_line(LineCounts *lc, int l, const int moves[2])
{
    for (int c = 0; c < 2; c++) {
        lc->total[c] += moves[c] - lc->moves[c][l];
        lc->moves[c][l] = (uint8_t)moves[c];
    }
}

static void count_all(const PhalanxTables *t, const LineTable *lt, const PhalanxPos *p, LineCounts *lc)
{
    memset(lc, 0, sizeof *lc);
    for (int a = 0; a < t->num_active; a++) {
        int moves[2];
        count_both(t, lt, p, t->active[a], moves);
        set_line(lc, t->active[a], moves);
    }
}

static void recount(const PhalanxTables *t, const LineTable *lt, const PhalanxPos *p, LineCounts *lc,
                    LineSet dirty)
{
    for (int w = 0; w < 2; w++)
        for (uint64_t b = dirty.bits[w]; b; b &= b - 1) {
            int l = w * 64 + __builtin_ctzll(b), moves[2];
            count_both(t, lt, p, l, moves);
            set_line(lc, l, moves);
        }
}

/* The r-th move of one front (r below its move count), in gen_line's order: group sizes
 * k = 1..L, each with its min(k, e) plain moves and then its capture. */
static Move front_move(int l, int dir, int back, int front, FrontShape f, int r)
{
    for (int k = 1; k <= f.L; k++) {
        int plain = k < f.e ? k : f.e, rear = line_square(l, front - back * (k - 1));
        if (r < plain)
            return move_encode(rear, dir, k, r + 1);
        r -= plain;
        if (f.m >= 0 && k > f.e && k > f.m && r-- == 0)
            return move_encode(rear, dir, k, f.e + 1);
    }
    return MOVE_NONE;   /* unreachable while r is below the front's count */
}

static int front_count(FrontShape f)
{
    return (int)plain_moves((unsigned)f.L, (unsigned)f.e) + (f.m >= 0 ? capture_moves(f.L, f.e, f.m) : 0);
}

/* The r-th move along line l, in gen_line's order (up the line, then down), without listing. */
static Move line_move(Line v, int l, int r)
{
    int up = line_up_dir(l);
    for (uint32_t fronts = v.own & ~(v.own >> 1); fronts; fronts &= fronts - 1) {
        int i = __builtin_ctz(fronts);
        FrontShape f = front_shape_up(v, i);
        if (r < front_count(f))
            return front_move(l, up, 1, i, f, r);
        r -= front_count(f);
    }
    for (uint32_t fronts = v.own & ~(v.own << 1); fronts; fronts &= fronts - 1) {
        int i = __builtin_ctz(fronts);
        FrontShape f = front_shape_down(v, i);
        if (r < front_count(f))
            return front_move(l, up + 1, -1, i, f, r);
        r -= front_count(f);
    }
    return MOVE_NONE;
}

/* The r-th move of the side to move, in line order. */
static Move pick_move(const PhalanxTables *t, const PhalanxPos *p, const LineCounts *lc, uint32_t r)
{
    int us = p->side;
    for (int a = 0; a < t->num_active; a++) {
        int l = t->active[a];
        if (r < lc->moves[us][l])
            return line_move(line_view(t, p, us, l), l, (int)r);
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
    const LineTable *lt = phalanx_line_table_get(t);
    LineCounts lc;
    count_all(t, lt, p, &lc);
    PlayoutResult result = {STATUS_DRAW, 0};
    bool walled = phalanx_walled_draw(t, p);
    for (; result.plies < max_plies && !walled; result.plies++) {
        int n = lc.total[p->side];
        Move m = phalanx_special_rules_apply(t, p) ? pick_from_list(t, p, rng, &n)
                 : n ? pick_move(t, p, &lc, rng_below(rng, (uint32_t)n)) : MOVE_NONE;
        if (n == 0)
            break;
        int captured;
        phalanx_make(t, p, m, &captured);
        recount(t, lt, p, &lc, changed_lines(m, captured));
        walled = phalanx_move_walls_in(t, p, m, captured);
    }
    GameStatus s = phalanx_status(t, p);
    if (s != STATUS_ONGOING)
        result.status = s;
    return result;
}
