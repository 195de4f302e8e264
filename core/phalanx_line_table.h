/*
 * phalanx_line_table.h - move counts of whole lines by table lookup (phalanx_line_table.c says
 * how the tables are laid out and when lines have none).
 */
#ifndef LEUCTRA_PHALANX_LINE_TABLE_H
#define LEUCTRA_PHALANX_LINE_TABLE_H

#include "phalanx.h"

enum { LINE_TABLE_MAX_LENGTH = 14 };

struct LineTable {
    uint32_t base3_low[256], base3_high[256];   /* a mask's bits as base-3 digits 0/1 */
    const uint8_t *counts[NUM_LINES];           /* per line: its length's table, or NULL */
    uint8_t shift[NUM_LINES];                   /* the line's lowest playable bit */
    uint8_t *by_length[LINE_TABLE_MAX_LENGTH + 1];
};

/* The game's tables, built on first use; NULL only when memory ran out (then count lines). */
const LineTable *phalanx_line_table_get(const PhalanxTables *t);
void phalanx_line_table_free(LineTable *lt);

static inline uint32_t line_table_base3(const LineTable *lt, uint32_t mask)
{
    return lt->base3_low[mask & 255] + lt->base3_high[mask >> 8];
}

/* The moves along line l for both colours; `table` is lt->counts[l], not NULL. */
static inline void line_table_lookup(const LineTable *lt, const uint8_t *table, const PhalanxPos *p,
                                     int l, int moves[2])
{
    uint32_t white = line_table_base3(lt, (uint32_t)p->lines[WHITE][l] >> lt->shift[l]);
    uint32_t black = line_table_base3(lt, (uint32_t)p->lines[BLACK][l] >> lt->shift[l]);
    moves[WHITE] = table[white + 2 * black];
    moves[BLACK] = table[black + 2 * white];
}

#endif
