/*
 * phalanx_lines.h - the arithmetic of one line, shared by the phalanx hot paths (counting,
 * listing and sampling moves): the masks a side sees along a line, the runs that decide its moves,
 * and the set of lines a move changed.  See phalanx_movegen.c for the rule these count.
 */
#ifndef LEUCTRA_PHALANX_LINES_H
#define LEUCTRA_PHALANX_LINES_H

#include "phalanx.h"

/* The masks of one line as seen by the side to move. */
typedef struct {
    uint32_t own;       /* movable own stones (towers and Igfip crossings never move) */
    uint32_t empty;     /* squares a group may enter */
    uint32_t enemy;     /* every enemy stone: all count in the length of a struck run */
    uint32_t target;    /* enemy stones that may be struck (Crossings towers may not) */
} Line;

static inline Line line_view(const PhalanxTables *t, const PhalanxPos *p, int us, int l)
{
    uint32_t own = p->lines[us][l], enemy = p->lines[!us][l];
    Line v = {own & ~(uint32_t)t->towers[us][l], t->valid[l] & ~(own | enemy), enemy,
              enemy & ~(uint32_t)t->shielded[!us][l]};
    return v;
}

/* sum over k = 1..L of min(k, e): the plain moves of one front.  Branch-free: the number of
 * fronts and their shapes are unpredictable, so branches here mispredict. */
static inline unsigned plain_moves(unsigned L, unsigned e)
{
    unsigned x = L < e ? L : e;
    return (x * (x + 1) >> 1) + (L - x) * e;
}

/* Group sizes k with e < k <= L and m < k: each strikes the run with j = e + 1. */
static inline int capture_moves(int L, int e, int m)
{
    int need = e > m ? e : m;
    return L > need ? L - need : 0;
}

/* Runs measured from bit i of a line towards higher bits ("ahead") or lower bits ("behind").
 * Masks hold at most 16 bits, so the complemented words always contain a zero to stop at.
 * Both are defined for -1 <= i <= 31 and give 0 off the line. */
static inline int run_above(uint32_t mask, int i) { return __builtin_ctzll(~((uint64_t)mask >> i)); }
static inline int run_below(uint32_t mask, int i)
{
    return __builtin_clzll(~(((uint64_t)mask << 32) << (31 - i)));
}

/* run_below for 0 <= i <= 30 only: one 32-bit shift instead of two 64-bit ones. */
static inline int run_below_at(uint32_t mask, int i) { return __builtin_clz(~(mask << (31 - i))); }

/* The whole shape of the front at bit i, for code that needs more than the move count (the
 * evaluation features): L own stones behind it (itself included), e empty squares ahead, the
 * square s just past them (-1 or 16+ when off the line), and m, the length of the enemy run from
 * s when s holds a strikable stone, else -1. */
typedef struct {
    int L, e, s, m;
} FrontShape;

static inline FrontShape front_shape_up(Line v, int i)
{
    FrontShape f;
    f.L = run_below(v.own, i);
    f.e = run_above(v.empty, i + 1);
    f.s = i + 1 + f.e;
    f.m = v.target >> f.s & 1 ? run_above(v.enemy, f.s) : -1;
    return f;
}

static inline FrontShape front_shape_down(Line v, int i)
{
    FrontShape f;
    f.L = run_above(v.own, i);
    f.e = run_below(v.empty, i - 1);
    f.s = i - 1 - f.e;
    f.m = (v.target << 1) >> (f.s + 1) & 1 ? run_below(v.enemy, f.s) : -1;
    return f;
}

/* The moves of the front at bit i, up or down the line. */
static inline int front_up(Line v, int i)
{
    int L = run_below(v.own, i), e = run_above(v.empty, i + 1), s = i + 1 + e;
    int plain = (int)plain_moves((unsigned)L, (unsigned)e);
    return v.target >> s & 1 ? plain + capture_moves(L, e, run_above(v.enemy, s)) : plain;
}

static inline int front_down(Line v, int i)
{
    int L = run_above(v.own, i), e = run_below(v.empty, i - 1), s = i - 1 - e;
    int plain = (int)plain_moves((unsigned)L, (unsigned)e);
    /* s may be -1, off the line */
    return (v.target << 1) >> (s + 1) & 1 ? plain + capture_moves(L, e, run_below(v.enemy, s)) : plain;
}

static inline int count_up(Line v)
{
    int n = 0;
    for (uint32_t fronts = v.own & ~(v.own >> 1); fronts; fronts &= fronts - 1)
        n += front_up(v, __builtin_ctz(fronts));
    return n;
}

static inline int count_down(Line v)
{
    int n = 0;
    for (uint32_t fronts = v.own & ~(v.own << 1); fronts; fronts &= fronts - 1)
        n += front_down(v, __builtin_ctz(fronts));
    return n;
}

/* Epaminondas freezes no stones, so its view skips the masks; `frozen` (Crossings and Igfip) is
 * a constant wherever this is inlined. */
static inline int count_line_rules(const PhalanxTables *t, const PhalanxPos *p, int us, int l, bool frozen)
{
    uint32_t own = p->lines[us][l];
    if (!own)
        return 0;
    Line v;
    if (frozen) {
        v = line_view(t, p, us, l);
    } else {
        uint32_t enemy = p->lines[!us][l];
        v = (Line){own, t->valid[l] & ~(own | enemy), enemy, enemy};
    }
    return count_up(v) + count_down(v);
}

static inline int count_line(const PhalanxTables *t, const PhalanxPos *p, int us, int l)
{
    return t->frozen ? count_line_rules(t, p, us, l, true) : count_line_rules(t, p, us, l, false);
}

/* Square of bit b of line l, and the direction "up" the line (towards higher bits). */
static inline int line_square(int l, int b)
{
    if (l < COL0)
        return make_sq(b, l - ROW0);
    if (l < DIAG0)
        return make_sq(l - COL0, b);
    if (l < ANTI0)
        return make_sq(b + (l - DIAG0) - 15, b);
    return make_sq((l - ANTI0) - b, b);
}

static inline int line_up_dir(int l)
{
    return l < COL0 ? DIR_E : l < DIAG0 ? DIR_N : l < ANTI0 ? DIR_NE : DIR_NW;
}

typedef struct { uint64_t bits[2]; } LineSet;

static inline void lineset_add(LineSet *s, int l) { s->bits[l >> 6] |= 1ull << (l & 63); }

static inline void add_square_lines(LineSet *s, int sq)
{
    int f = sq_file(sq), r = sq_rank(sq);
    lineset_add(s, ROW0 + r);
    lineset_add(s, COL0 + f);
    lineset_add(s, DIAG0 + f - r + 15);
    lineset_add(s, ANTI0 + f + r);
}

/* The lines whose masks a move changed: those through the squares its group left and entered,
 * and through the stones it captured. */
static inline LineSet changed_lines(Move m, int captured)
{
    LineSet s = {{0, 0}};
    int step = dir_rank[move_dir(m)] * 16 + dir_file[move_dir(m)];
    int rear = move_rear(m), k = move_group(m), j = move_dist(m);
    for (int i = 0; i < j; i++) {
        add_square_lines(&s, rear + i * step);
        add_square_lines(&s, rear + (k + i) * step);
    }
    for (int i = 1; i < captured; i++)
        add_square_lines(&s, rear + (k + j - 1 + i) * step);
    return s;
}

#endif
