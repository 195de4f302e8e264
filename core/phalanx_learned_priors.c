/*
 * phalanx_learned_priors.c - the move features of the phalanx games' learned priors
 * (core/policy.h).  Every column is read from the mover's side (ranks counted from its own home
 * rank, directions as it faces), so one set of weights serves both colours and every board size:
 *
 *   shape      the direction (forward, forward-diagonal, sideways, backward-diagonal, backward),
 *              the group size k (1 .. 8 or more) and the distance j (1 .. 4 or more)
 *   capture    stones taken (0 .. 4 or more), by direction
 *   landing    the rank the front stone lands on, by direction
 *   rear       the rank the rear stone leaves, by group size
 *   crossing   whether the front lands on the far rank, by the stones each side has on the
 *              other's home rank already (0, 1, 2 or more each): the race to cross
 *   home       whether a stone leaves the mover's home rank, by phase
 *   contact    enemy stones next to the landing square, by forward / sideways / backward
 *   phase      the stones left (four ranges of the start's count), by direction
 *   around     the eight squares around the landing square (own, enemy, empty), by direction
 *
 * These are the things the heuristic priors (phalanx_heuristic_priors.c) weigh by hand, plus the ones
 * they cannot: where on the board a move happens and how the race to the far rank stands.
 */
#include "phalanx.h"
#include "policy.h"

enum { DIRS = 5, KS = 8, JS = 4, CAPS = 5, RANKS = 16, CROSS = 2 * 3 * 3, PHASES = 4, CONTACT = 5, AROUND = 6561 };

enum {
    COL_SHAPE, COL_CAPTURE, COL_LANDING, COL_REAR, COL_CROSSING, COL_HOME, COL_CONTACT, COL_PHASE, COL_AROUND, COLUMNS
};

#define SIZE_SHAPE (DIRS * KS * JS)
#define SIZE_CAPTURE (CAPS * DIRS)
#define SIZE_LANDING (RANKS * DIRS)
#define SIZE_REAR (RANKS * KS)
#define SIZE_HOME (2 * PHASES)
#define SIZE_CONTACT (CONTACT * 3)
#define SIZE_PHASE (PHASES * DIRS)
#define SIZE_AROUND (AROUND * DIRS)

static const uint32_t COLUMN_OFFSET[COLUMNS + 1] = {
    0,
    SIZE_SHAPE,
    SIZE_SHAPE + SIZE_CAPTURE,
    SIZE_SHAPE + SIZE_CAPTURE + SIZE_LANDING,
    SIZE_SHAPE + SIZE_CAPTURE + SIZE_LANDING + SIZE_REAR,
    SIZE_SHAPE + SIZE_CAPTURE + SIZE_LANDING + SIZE_REAR + CROSS,
    SIZE_SHAPE + SIZE_CAPTURE + SIZE_LANDING + SIZE_REAR + CROSS + SIZE_HOME,
    SIZE_SHAPE + SIZE_CAPTURE + SIZE_LANDING + SIZE_REAR + CROSS + SIZE_HOME + SIZE_CONTACT,
    SIZE_SHAPE + SIZE_CAPTURE + SIZE_LANDING + SIZE_REAR + CROSS + SIZE_HOME + SIZE_CONTACT + SIZE_PHASE,
    SIZE_SHAPE + SIZE_CAPTURE + SIZE_LANDING + SIZE_REAR + CROSS + SIZE_HOME + SIZE_CONTACT + SIZE_PHASE + SIZE_AROUND,
};

static const char *const COLUMN_NAMES[COLUMNS] = {"shape", "capture", "landing", "rear", "crossing",
                                                  "home", "contact", "phase", "around"};

static int clamp(int v, int most)
{
    return v < most ? v : most;
}

/* 0 forward, 1 forward-diagonal, 2 sideways, 3 backward-diagonal, 4 backward. */
static int direction_class(int dir, int us)
{
    const int forward = dir_rank[dir] * (us == WHITE ? 1 : -1);
    const bool diagonal = dir_file[dir] != 0;
    if (forward > 0)
        return diagonal ? 1 : 0;
    if (forward == 0)
        return 2;
    return diagonal ? 3 : 4;
}

/* The 8 squares around sq before the move, in the mover's frame (Black's ranks upside down), as
 * a base-3 number (empty or off the board 0, own 1, enemy 2), and how many hold enemy stones.
 * Read from the rank masks: three ranks, three bits each. */
static uint32_t around(const PhalanxTables *t, const PhalanxPos *p, int sq, int us, int *enemies)
{
    const int f = sq_file(sq), r = sq_rank(sq), facing = us == WHITE ? 1 : -1;
    uint32_t index = 0;
    int count = 0;
    for (int dr = 1; dr >= -1; dr--) {     /* reading order: the rank ahead first (highest digits) */
        const int rank = r + facing * dr;
        const bool on = rank >= 0 && rank < t->height;
        const uint32_t own = on ? p->lines[us][ROW0 + rank] : 0, enemy = on ? p->lines[!us][ROW0 + rank] : 0;
        for (int df = 1; df >= -1; df--) {
            if (dr == 0 && df == 0)
                continue;
            const int file = f + df;
            const uint32_t bit = file >= 0 && file < 16 ? 1u << file : 0;
            const uint32_t digit = own & bit ? 1u : enemy & bit ? 2u : 0u;
            index = index * 3 + digit;
            count += digit == 2;
        }
    }
    *enemies = count;
    return index;
}

typedef struct {
    int us, phase, cross;       /* the mover, the phase, the race column's position part */
} Context;

static void move_entries(const PhalanxTables *t, const PhalanxPos *p, const Context *c, Move m, uint32_t *out)
{
    const int dir = move_dir(m), k = move_group(m), j = move_dist(m), rear = move_rear(m);
    const int step = dir_rank[dir] * 16 + dir_file[dir];
    const int land = rear + (k - 1 + j) * step;
    const int cls = direction_class(dir, c->us);
    const int home = c->us == WHITE ? 0 : t->height - 1;
    const int land_rank = c->us == WHITE ? sq_rank(land) : t->height - 1 - sq_rank(land);
    const int rear_rank = c->us == WHITE ? sq_rank(rear) : t->height - 1 - sq_rank(rear);
    const int captured = phalanx_stones_captured(t, p, land, dir);
    const int forward = cls < 2 ? 0 : cls == 2 ? 1 : 2;
    int enemies;
    const uint32_t neighbourhood = around(t, p, land, c->us, &enemies);
    /* A group leaves the home rank unless it moves along it. */
    const bool leaves_home = sq_rank(rear) == home && !(cls == 2);
    out[COL_SHAPE] = (uint32_t)((cls * KS + clamp(k, KS) - 1) * JS + clamp(j, JS) - 1);
    out[COL_CAPTURE] = COLUMN_OFFSET[COL_CAPTURE] + (uint32_t)(clamp(captured, CAPS - 1) * DIRS + cls);
    out[COL_LANDING] = COLUMN_OFFSET[COL_LANDING] + (uint32_t)(land_rank * DIRS + cls);
    out[COL_REAR] = COLUMN_OFFSET[COL_REAR] + (uint32_t)(rear_rank * KS + clamp(k, KS) - 1);
    out[COL_CROSSING] = COLUMN_OFFSET[COL_CROSSING] + (uint32_t)(c->cross * 2 + (sq_rank(land) == t->far_rank[c->us]));
    out[COL_HOME] = COLUMN_OFFSET[COL_HOME] + (uint32_t)(c->phase * 2 + leaves_home);
    out[COL_CONTACT] = COLUMN_OFFSET[COL_CONTACT] +
                       (uint32_t)(forward * CONTACT + clamp(enemies, CONTACT - 1));
    out[COL_PHASE] = COLUMN_OFFSET[COL_PHASE] + (uint32_t)(c->phase * DIRS + cls);
    out[COL_AROUND] = COLUMN_OFFSET[COL_AROUND] + (uint32_t)cls * AROUND + neighbourhood;
}

static void phalanx_move_entries(const Game *g, const Position *pos, const Move *moves, int n, uint32_t *out)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    const int us = p->side, start = 4 * t->width;
    const int left = p->stones[WHITE] + p->stones[BLACK];
    const int crossed = clamp(phalanx_home_rank_count(p, us, t->far_rank[us]), 2);
    const int crossed_by_them = clamp(phalanx_home_rank_count(p, !us, t->far_rank[!us]), 2);
    const Context c = {us, clamp(PHASES - 1 - left * PHASES / (start + 1), PHASES - 1), crossed * 3 + crossed_by_them};
    for (int i = 0; i < n; i++)
        move_entries(t, p, &c, moves[i], out + (size_t)i * COLUMNS);
}

static uint64_t policy_id(void)
{
    uint64_t h = 0xCBF29CE484222325ull;
    uint32_t words[COLUMNS + 3] = {0x50504F32u /* "PPO2" */, COLUMNS};
    for (int c = 0; c <= COLUMNS; c++)
        words[c + 2] = COLUMN_OFFSET[c];
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        for (int k = 0; k < 4; k++)
            h = (h ^ ((words[i] >> (8 * k)) & 0xFF)) * 0x100000001B3ull;
    return h;
}

void phalanx_policy_init(PolicySet *set)
{
    *set = (PolicySet){COLUMNS, COLUMN_OFFSET[COLUMNS], policy_id(), COLUMN_NAMES, COLUMN_OFFSET, phalanx_move_entries};
}
