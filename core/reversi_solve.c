/*
 * reversi_solve.c - exact endgame search for Reversi (core/solve.h): fail-soft principal
 * variation search to the end of the game on the bare bitboards of reversi.h.
 *
 * Three regimes, as in every strong endgame solver (Edax, Zebra), because what pays at 20 empties
 * costs more than it saves at 3:
 * - deep (more than SHALLOW_EMPTIES empty squares): moves listed and tried fastest-first (the
 *   reply that leaves the opponent the fewest moves first: it cuts the tree soonest), with a
 *   transposition table from TABLE_MIN_EMPTIES on, and from ETC_MIN_EMPTIES an enhanced
 *   transposition cutoff (a child the table already refutes ends the node unsearched);
 * - shallow: no list, the empty squares walked in parity order (squares in a quadrant with an odd
 *   number of empties first: playing there tends to get the last move of the region);
 * - the last empty square: its flips counted directly, for both sides.
 * A score is the mover's final disc difference with the empties of a finished game counted for
 * the winner.
 */
#include "clock.h"
#include "reversi.h"
#include "solve.h"

#include <stdlib.h>
#include <string.h>

/* Measured on FFO #40-44 (docs/BENCHMARKS.md): fewer nodes with a lower shallow bound or a
 * lower table bound, but no less time. */
enum {
    SHALLOW_EMPTIES = 6,        /* at or below: the shallow search */
    TABLE_MIN_EMPTIES = 10,     /* the table is probed and written from here up */
    ETC_MIN_EMPTIES = 12,       /* and its children probed before searching them, from here up */
    STOP_POLL_MASK = 4095,      /* the stop flag is read every 4096 nodes, the clock every 16 times that */
    CLOCK_POLL_MASK = 65535,
    SCORE_INF = 127,
};

#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define CORNERS 0x8100000000000081ull

/* Move ordering weights: the opponent's replies, those that are corners once more, and a
 * quarter as much the opponent's potential moves (empty squares next to our discs).  On FFO
 * #40-44 the potential term cut the nodes 15% and the time as much. */
enum { KEY_REPLIES = 16, KEY_CORNERS = 16, KEY_POTENTIAL = 4 };

/* A bound on the exact score of one position, whatever window found it. */
typedef struct {
    uint64_t own, opp;
    int8_t lower, upper;
    uint8_t best;               /* a move square, or SQUARES for none */
    uint8_t empties;
} TableEntry;

typedef struct {
    TableEntry *table;          /* NULL: no table */
    size_t mask;                /* entries - 1 (a power of two) */
    uint64_t nodes;
    const atomic_bool *stop;
    double deadline;            /* monotonic seconds; 0: none */
    uint64_t max_nodes;         /* 0: none */
    bool stopped;
} ReversiSolver;

/* ---------------------------------------------------------------- scores and squares */

static int final_score(uint64_t own, uint64_t opp)
{
    const int own_discs = popcount64(own), opp_discs = popcount64(opp);
    const int diff = own_discs - opp_discs, empty = SQUARES - own_discs - opp_discs;
    return diff > 0 ? diff + empty : diff < 0 ? diff - empty : 0;
}

/* The squares next to any of `b`: a placement flips only when one of them holds an enemy disc. */
static inline uint64_t neighbours(uint64_t b)
{
    const uint64_t sideways = ((b << 1) & ~FILE_A) | ((b >> 1) & ~FILE_H);
    const uint64_t row = b | sideways;
    return sideways | (row << 8) | (row >> 8);
}

static inline int quadrant(int sq)
{
    return ((sq >> 5) & 1) << 1 | ((sq >> 2) & 1);
}

/* The empty squares in parity order: those of quadrants with an odd count first. */
static int parity_ordered(uint64_t empty, uint8_t *out)
{
    int count[4] = {0, 0, 0, 0};
    for (uint64_t e = empty; e; e &= e - 1)
        count[quadrant(lowest_square(e))]++;
    int n = 0;
    for (int odd = 1; odd >= 0; odd--)
        for (uint64_t e = empty; e; e &= e - 1) {
            const int sq = lowest_square(e);
            if ((count[quadrant(sq)] & 1) == odd)
                out[n++] = (uint8_t)sq;
        }
    return n;
}

static bool poll_stop(ReversiSolver *s)
{
    if ((s->nodes & STOP_POLL_MASK) != 0)
        return s->stopped;
    if (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed))
        s->stopped = true;
    if (s->deadline > 0 && (s->nodes & CLOCK_POLL_MASK) == 0 && clock_seconds() >= s->deadline)
        s->stopped = true;
    if (s->max_nodes > 0 && s->nodes >= s->max_nodes)
        s->stopped = true;
    return s->stopped;
}

/* ---------------------------------------------------------------- the last empty square */

static int solve_last(ReversiSolver *s, uint64_t own, uint64_t opp, int sq)
{
    s->nodes++;
    const int own_discs = popcount64(own);
    uint64_t flips = flipped_by(sq, own, opp);
    if (flips)
        return 2 * (own_discs + popcount64(flips) + 1) - SQUARES;
    flips = flipped_by(sq, opp, own);
    if (flips)
        return 2 * (own_discs - popcount64(flips)) - SQUARES;
    /* Nobody can fill it: 63 discs, so never a draw, and the empty square goes to the winner. */
    const int diff = 2 * own_discs - (SQUARES - 1);
    return diff > 0 ? diff + 1 : diff - 1;
}

/* ---------------------------------------------------------------- shallow search */

/* empties[0..n) in the order to try them; the list is permuted during the search and restored. */
static int solve_shallow(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta,
                         uint8_t *empties, int n, bool passed)
{
    if (n == 1)
        return solve_last(s, own, opp, empties[0]);
    s->nodes++;
    if (poll_stop(s))
        return 0;
    int best = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        const int sq = empties[i];
        if (!(neighbours(1ull << sq) & opp))
            continue;
        const uint64_t flips = flipped_by(sq, own, opp);
        if (!flips)
            continue;
        /* Take square i out by moving the last one into its place for the child. */
        empties[i] = empties[n - 1];
        const int v = -solve_shallow(s, opp ^ flips, own | flips | (1ull << sq), -beta, -alpha, empties, n - 1, false);
        empties[i] = (uint8_t)sq;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (best > -SCORE_INF)
        return best;
    if (passed)
        return final_score(own, opp);
    return -solve_shallow(s, opp, own, -beta, -alpha, empties, n, true);
}

/* ---------------------------------------------------------------- transposition table */

static inline size_t table_index(const ReversiSolver *s, uint64_t own, uint64_t opp)
{
    uint64_t h = own * 0x9E3779B97F4A7C15ull ^ (opp + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(h ^ (h >> 29)) & s->mask;
}

static const TableEntry *table_probe(const ReversiSolver *s, uint64_t own, uint64_t opp)
{
    const TableEntry *e = &s->table[table_index(s, own, opp)];
    return e->own == own && e->opp == opp ? e : NULL;
}

/* Keeps the entry of the bigger subtree when two positions share a slot. */
static void table_store(ReversiSolver *s, uint64_t own, uint64_t opp, int empties, int lower, int upper, int best)
{
    TableEntry *e = &s->table[table_index(s, own, opp)];
    const bool same = e->own == own && e->opp == opp;
    if (!same && e->empties > empties)
        return;
    if (same) {     /* both bounds hold: keep the tighter of each */
        if (e->lower > lower)
            lower = e->lower;
        if (e->upper < upper)
            upper = e->upper;
    }
    *e = (TableEntry){own, opp, (int8_t)lower, (int8_t)upper, (uint8_t)best, (uint8_t)empties};
}

/* ---------------------------------------------------------------- deep search */

typedef struct {
    int square;
    int key;                    /* lower is tried first */
    uint64_t flips;
} OrderedMove;

/* The opponent's replies after the move (corners twice) and its potential moves: fewer cut
 * sooner. */
static int reply_key(uint64_t own, uint64_t opp, int sq, uint64_t flips)
{
    const uint64_t mine = own | flips | (1ull << sq), theirs = opp ^ flips;
    const uint64_t replies = legal_squares(theirs, mine);
    /* Potential mobility: empty squares next to our discs, where the opponent may later play. */
    const uint64_t empty = ~(mine | theirs);
    const int potential = popcount64(neighbours(mine) & empty);
    return KEY_REPLIES * popcount64(replies) + KEY_CORNERS * popcount64(replies & CORNERS) + KEY_POTENTIAL * potential;
}

static int order_moves(uint64_t own, uint64_t opp, uint64_t moves, int hint, OrderedMove *list)
{
    int n = 0;
    for (; moves; moves &= moves - 1) {
        const int sq = lowest_square(moves);
        const uint64_t flips = flipped_by(sq, own, opp);
        OrderedMove m = {sq, sq == hint ? -1 : reply_key(own, opp, sq, flips), flips};
        int i = n++;
        for (; i > 0 && list[i - 1].key > m.key; i--)
            list[i] = list[i - 1];
        list[i] = m;
    }
    return n;
}

static int solve_deep(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int empties, int *best_move);

static int solve_child(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int empties)
{
    if (empties > SHALLOW_EMPTIES)
        return solve_deep(s, own, opp, alpha, beta, empties, NULL);
    uint8_t list[SHALLOW_EMPTIES];
    const int n = parity_ordered(~(own | opp), list);
    return solve_shallow(s, own, opp, alpha, beta, list, n, false);
}

static int solve_deep(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int empties, int *best_move)
{
    s->nodes++;
    if (poll_stop(s))
        return 0;
    const uint64_t moves = legal_squares(own, opp);
    if (!moves) {
        if (!legal_squares(opp, own))
            return final_score(own, opp);
        return -solve_deep(s, opp, own, -beta, -alpha, empties, NULL);
    }
    const bool tabled = s->table && empties >= TABLE_MIN_EMPTIES;
    int hint = SQUARES;
    if (tabled) {
        const TableEntry *e = table_probe(s, own, opp);
        if (e) {
            hint = e->best;
            if (!best_move) {   /* the root must search on: it needs a move, not just a score */
                if (e->lower >= beta || e->lower == e->upper)
                    return e->lower;
                if (e->upper <= alpha)
                    return e->upper;
                if (e->lower > alpha)
                    alpha = e->lower;
                if (e->upper < beta)
                    beta = e->upper;
            }
        }
    }
    OrderedMove list[64];   /* a move per square at most: a position can have 33 or more */
    const int n = order_moves(own, opp, moves, hint, list);
    /* Enhanced transposition cutoff: a child the table already knows to be bad enough for the
     * opponent ends the node before any search. */
    if (tabled && empties >= ETC_MIN_EMPTIES && !best_move)
        for (int i = 0; i < n; i++) {
            const uint64_t child_own = opp ^ list[i].flips, child_opp = own | list[i].flips | (1ull << list[i].square);
            const TableEntry *e = table_probe(s, child_own, child_opp);
            if (e && -e->upper >= beta)
                return -e->upper;
        }
    const int alpha_in = alpha;
    int best = -SCORE_INF, best_sq = list[0].square;
    for (int i = 0; i < n; i++) {
        const uint64_t child_own = opp ^ list[i].flips, child_opp = own | list[i].flips | (1ull << list[i].square);
        int v;
        if (i == 0) {
            v = -solve_child(s, child_own, child_opp, -beta, -alpha, empties - 1);
        } else {
            v = -solve_child(s, child_own, child_opp, -alpha - 1, -alpha, empties - 1);
            if (v > alpha && v < beta)
                v = -solve_child(s, child_own, child_opp, -beta, -v, empties - 1);
        }
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            best_sq = list[i].square;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (tabled) {
        const int lower = best > alpha_in ? best : -SQUARES;
        const int upper = best < beta ? best : SQUARES;
        table_store(s, own, opp, empties, lower, upper, best_sq);
    }
    if (best_move)
        *best_move = best_sq;
    return best;
}

/* ---------------------------------------------------------------- the solver */

static void *reversi_solver_create(const Game *g, size_t table_bytes)
{
    (void)g;
    ReversiSolver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t entries = 1;
    while (entries * 2 * sizeof(TableEntry) <= table_bytes)
        entries *= 2;
    if (entries * sizeof(TableEntry) <= table_bytes) {
        s->table = calloc(entries, sizeof(TableEntry));
        if (!s->table) {
            free(s);
            return NULL;
        }
        s->mask = entries - 1;
    }
    return s;
}

static void reversi_solver_destroy(void *impl)
{
    ReversiSolver *s = impl;
    free(s->table);
    free(s);
}

static int reversi_empties(const Game *g, const Position *p)
{
    (void)g;
    const Board b = load_board(p);
    return SQUARES - popcount64(b.own | b.opp);
}

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

static SolveResult reversi_solver_run(void *impl, const Position *p, SolveMode mode, const SolveLimits *limits)
{
    ReversiSolver *s = impl;
    const Board b = load_board(p);
    s->nodes = 0;
    s->stop = limits->stop;
    s->deadline = limits->seconds > 0 ? clock_seconds() + limits->seconds : 0;
    s->max_nodes = limits->max_nodes;
    s->stopped = false;
    const int alpha = mode == SOLVE_WLD ? -1 : -SQUARES, beta = mode == SOLVE_WLD ? 1 : SQUARES;
    const int empties = SQUARES - popcount64(b.own | b.opp);
    SolveResult r = {0, MOVE_NONE, 0, false};
    if (legal_squares(b.own, b.opp)) {
        int best = SQUARES;
        r.score = solve_deep(s, b.own, b.opp, alpha, beta, empties, &best);
        r.best = (Move)best;
    } else if (legal_squares(b.opp, b.own)) {
        r.score = -solve_deep(s, b.opp, b.own, -beta, -alpha, empties, NULL);
        r.best = MOVE_PASS;
    } else {
        r.score = final_score(b.own, b.opp);
    }
    if (mode == SOLVE_WLD)
        r.score = sign(r.score);
    r.nodes = s->nodes;
    r.stopped = s->stopped;
    return r;
}

static void reversi_solver_clear(void *impl)
{
    ReversiSolver *s = impl;
    if (s->table)
        memset(s->table, 0, (s->mask + 1) * sizeof *s->table);
}

const SolverOps reversi_solver_ops = {
    .create = reversi_solver_create,
    .destroy = reversi_solver_destroy,
    .empties = reversi_empties,
    .run = reversi_solver_run,
    .clear = reversi_solver_clear,
};
