/*
 * phalanx_line_table.c - the number of moves along a line, looked up instead of counted.
 *
 * A line of n playable squares is a base-3 number: digit i is 0 (empty), 1 (own) or 2 (enemy)
 * for bit i.  The table of length n holds, for every one of the 3^n shapes, the moves the "own"
 * side has along the line in both directions (count_up + count_down of phalanx_lines.h).  Both
 * colours read the same table: White's index is a + 2b and Black's b + 2a, where a and b are the
 * base-3 values of the two colours' masks.  Random playouts recount about 16 lines a ply, and a
 * lookup replaces ~125 instructions of run arithmetic each (docs/BENCHMARKS.md).
 *
 * Lines with obstacles or frozen far-rank squares (Crossings, Igfip), and lines longer than
 * LINE_TABLE_MAX_LENGTH (a 3^15
 * table would be 14 MB), keep no table: callers count those with count_line.  The tables of a
 * game are built on its first playout (about 0.1 s for 14x12: 5.3 MB for rows of 14, columns of
 * 12 and the diagonals) and then only read, by every thread.
 */
#include "phalanx_line_table.h"
#include "phalanx_lines.h"

#include <stdatomic.h>
#include <stdlib.h>

static uint8_t *build_length(int n)
{
    size_t size = 1;
    for (int i = 0; i < n; i++)
        size *= 3;
    uint8_t *table = malloc(size);
    if (!table)
        return NULL;
    uint32_t full = (1u << n) - 1, own = 0, enemy = 0;
    uint8_t digit[LINE_TABLE_MAX_LENGTH] = {0};
    for (size_t i = 0; i < size; i++) {
        Line v = {own, full & ~(own | enemy), enemy, enemy};
        int count = count_up(v) + count_down(v);
        if (count > 255) {      /* cannot happen on 14 squares; never store a wrong count */
            free(table);
            return NULL;
        }
        table[i] = (uint8_t)count;
        /* the next shape: add one to the base-3 number, lowest digit first */
        for (int d = 0; d < n; d++) {
            uint32_t bit = 1u << d;
            if (digit[d] == 0) {
                digit[d] = 1;
                own |= bit;
                break;
            }
            if (digit[d] == 1) {
                digit[d] = 2;
                own &= ~bit;
                enemy |= bit;
                break;
            }
            digit[d] = 0;
            enemy &= ~bit;
        }
    }
    return table;
}

/* The table a line can use, or 0 when it has none: its playable squares must be one unbroken
 * run (no obstacles), hold no towers and be short enough. */
static int table_length(const PhalanxTables *t, int l)
{
    uint32_t valid = t->valid[l];
    if (!valid || t->towers[WHITE][l] || t->towers[BLACK][l])
        return 0;
    uint32_t run = valid >> __builtin_ctz(valid);
    int n = __builtin_popcount(valid);
    return run == (1u << n) - 1 && n <= LINE_TABLE_MAX_LENGTH ? n : 0;
}

static LineTable *line_table_build(const PhalanxTables *t)
{
    LineTable *lt = calloc(1, sizeof *lt);
    if (!lt)
        return NULL;
    for (int i = 0; i < 256; i++) {
        uint32_t value = 0;
        for (int bit = 7; bit >= 0; bit--)
            value = value * 3 + (uint32_t)(i >> bit & 1);
        lt->base3_low[i] = value;
        lt->base3_high[i] = value * 6561;   /* 3^8 */
    }
    for (int a = 0; a < t->num_active; a++) {
        int l = t->active[a], n = table_length(t, l);
        if (!n)
            continue;
        if (!lt->by_length[n])
            lt->by_length[n] = build_length(n);
        lt->counts[l] = lt->by_length[n];   /* NULL if out of memory: that line is counted */
        lt->shift[l] = (uint8_t)__builtin_ctz(t->valid[l]);
    }
    return lt;
}

void phalanx_line_table_free(LineTable *lt)
{
    if (!lt)
        return;
    for (int n = 0; n <= LINE_TABLE_MAX_LENGTH; n++)
        free(lt->by_length[n]);
    free(lt);
}

const LineTable *phalanx_line_table_get(const PhalanxTables *t)
{
    /* The tables object is shared by every thread that plays this game.  Whoever finds no table
     * builds one and publishes it; a thread that loses the race frees its own copy, which is
     * identical, so the answer never depends on the order. */
    _Atomic(LineTable *) *slot = (_Atomic(LineTable *) *)&t->line_table;   /* t is calloc'd */
    LineTable *lt = atomic_load_explicit(slot, memory_order_acquire);
    if (lt)
        return lt;
    LineTable *built = line_table_build(t), *expected = NULL;
    if (!built)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, built, memory_order_acq_rel,
                                                memory_order_acquire))
        return built;
    phalanx_line_table_free(built);
    return expected;
}
