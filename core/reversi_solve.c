/*
 * reversi_solve.c - exact endgame search for Reversi (core/solve.h): fail-soft principal
 * variation search to the end of the game on the bare bitboards of reversi.h.
 *
 * Three regimes, as in every strong endgame solver (Edax, Zebra), because what pays at 20 empties
 * costs more than it saves at 3:
 * - deep (more than SHALLOW_EMPTIES empty squares): moves listed and tried fastest-first (the
 *   reply that leaves the opponent the fewest moves first: it cuts the tree soonest; then our
 *   stable corner discs and, up to PARITY_MAX_EMPTIES, parity), from SORT_MIN_EMPTIES also by a
 *   1-4 ply search on mobility and corners, with a transposition table from TABLE_MIN_EMPTIES
 *   on, and from ETC_MIN_EMPTIES an enhanced transposition cutoff (a child the table already
 *   refutes ends the node unsearched);
 * - shallow: no list, the empty squares walked in parity order (squares in a quadrant with an odd
 *   number of empties first: playing there tends to get the last move of the region);
 * - the last four empty squares: each count its own code, with no move generation at all, and
 *   the last square's flips counted from line tables.
 * A score is the mover's final disc difference with the empties of a finished game counted for
 * the winner.
 *
 * With more than one thread the threads share the table and split the tree where it is safe to
 * (young brothers wait, Feldmann 1993): a node with enough empties whose first moves did not cut
 * it off, and whose window holds at most one score, offers its other moves to the idle threads,
 * which search them beside its own thread; a thread that finds a cutoff there stops the others'
 * searches of that node.  The root is never split, so it tries its moves in one order: the same
 * score for any thread count, and from a fresh table the same move.
 */
#include "clock.h"
#include "reversi.h"
#include "solve.h"
#include "threads.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Measured on FFO #40-44 (docs/BENCHMARKS.md): fewer nodes with a lower shallow bound, but no
 * less time.  The table from 9 empties and ETC from 10 (it cannot cut lower: the children are not
 * stored) took FFO #40-#49 from 3,124 M to 2,890 M nodes (10 and 12 before); from 8, fewer nodes
 * still but no less time. */
enum {
    SHALLOW_EMPTIES = 6,        /* at or below: the shallow search */
    TABLE_MIN_EMPTIES = 9,      /* the table is probed and written from here up */
    ETC_MIN_EMPTIES = 10,       /* and its children probed before searching them, from here up */
    STABILITY_MIN_EMPTIES = 7,  /* the stability cutoff is tried from here up */
    POLL_NODES = 4096,          /* the stop flag and node budget are checked every this many nodes */
    CLOCK_POLLS = 16,           /* and the clock every this many checks */
    SCORE_INF = 127,
    SPLIT_MIN_EMPTIES = 10,     /* threads share the moves of nodes from here up */
    SPLIT_AFTER = 2,            /* once this many of a node's moves are searched */
    SPLITS_MAX = 64,            /* split nodes open at once, at most */
    TABLE_LOCKS = 1 << 12,      /* the shared table's buckets are locked in this many stripes */
};

#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull
#define CORNERS 0x8100000000000081ull

/* Move ordering weights: the opponent's replies, those that are corners once more, and a
 * quarter as much the opponent's potential moves (empty squares next to our discs).  On FFO
 * #40-44 the potential term cut the nodes 15% and the time as much. */
enum { KEY_REPLIES = 16, KEY_CORNERS = 16, KEY_POTENTIAL = 4, KEY_CORNER_STABLE = 2 };

/* Up to PARITY_MAX_EMPTIES, a move into a quadrant with an odd number of empties gets half a
 * reply's bonus (the shallow search's parity order, as a tie-break): FFO #40-47 1,084 M -> 1,071 M
 * nodes. */
enum { KEY_PARITY = 8, PARITY_MAX_EMPTIES = 12 };

/* The ordering search (from SORT_MIN_EMPTIES, a ply deeper at each of SORT_DEEPER) and its
 * value's weights. */
enum {
    SORT_MIN_EMPTIES = 14,
    KEY_EVAL = 4,
    EVAL_MOBILITY = 4,
    EVAL_CORNER = 8,
    EVAL_FINAL = 16,
    EVAL_INF = 1 << 20,
};

/* Selective levels (solve.h): how many moves a null-window node with at least SELECT_MIN_EMPTIES
 * empties tries at each level below the exact one: its first ones in the fastest-first order,
 * which at a node that cuts off is nearly always the cutting move.  Measured on FFO #40-#49
 * (levels 0-3 in turn on one table, as `bench solve --level 3` runs them; the exact search alone
 * 72 s): from 12 empties, levels 0-3 reached in 3.9, 7.8, 15.3 and 31.6 s, off the exact score
 * by 4.6, 3.0, 1.8 and 0.2 discs on average; from 10, in 2.5-25.0 s, off by 6.4-0.6; from 14
 * with a move fewer at each level, in 4.3-20.9 s, off by 5.6-0.8. */
enum { SELECT_MIN_EMPTIES = 12 };
static const int SELECT_KEEP[SOLVE_EXACT_LEVEL] = {2, 3, 4, 6};

/* A bound on the exact score of one position, whatever window found it. */
typedef struct {
    uint64_t own, opp;
    int8_t lower, upper;
    uint8_t best;               /* a move square, or SQUARES for none */
    uint8_t empties;
    uint8_t level;              /* the selectivity level that found the bounds */
} TableEntry;

/* A node's window and its best so far, as its moves are tried. */
typedef struct {
    int alpha, beta;
    int best, best_square;
} NodeSearch;

typedef struct {
    int square;
    int key;                    /* lower is tried first */
    uint64_t flips;
} OrderedMove;

/* A node whose moves after the first are shared out (on its own thread's stack, which waits
 * there until every thread that joined it has left). */
typedef struct SplitNode SplitNode;
struct SplitNode {
    atomic_flag lock;           /* held for `next` and `ns` */
    uint64_t own, opp;
    int empties, n, next;       /* moves list[next..n-1] are still to search */
    const OrderedMove *list;
    NodeSearch ns;
    _Atomic int workers;        /* threads searching a move of it, its own included */
    atomic_bool cutoff;         /* the window closed: those searches stop */
    const SplitNode *parent;    /* the split node its thread was searching a move of, or NULL */
};

/* What the threads of one solver share. */
typedef struct {
    pthread_mutex_t lock;       /* held to open, close and join split nodes */
    SplitNode *open[SPLITS_MAX];
    int num_open;
    _Atomic int idle;           /* threads looking for a split node to join */
    atomic_bool halt;           /* the first thread's limits ran out: every thread stops */
    atomic_bool done;           /* the solve is over: the helpers return */
} Pool;

/* NULL pointers with one thread. */
typedef struct {
    atomic_flag *table_locks;   /* TABLE_LOCKS: a bucket's reads and writes hold its stripe */
    Pool *pool;
} Sharing;

/* For the last empty square, whose lines are full but for it: for each place in a line of eight
 * and each pattern of the mover's discs on that line, how many discs a move there turns over
 * along the line (runs of enemy discs up to a disc of ours; a run that reaches the edge stays). */
typedef uint8_t LastFlips[BOARD_SIDE][256];

typedef struct {
    TableEntry *table;          /* NULL: no table */
    LastFlips last_flips;
    uint64_t diagonal_9[SQUARES], diagonal_7[SQUARES];  /* the two diagonals through each square */
    size_t mask;                /* entries - 1 (a power of two) */
    Sharing share;
    int threads;
    uint64_t nodes;
    uint64_t next_poll;         /* the node count at which the limits are checked next */
    unsigned polls;
    const atomic_bool *stop;
    double deadline;            /* monotonic seconds; 0: none */
    uint64_t max_nodes;         /* 0: none */
    bool halted;                /* a limit ran out */
    bool stopped;               /* halted, or a split node this search is under was cut off */
    const SplitNode *working_for;   /* the innermost split node this thread searches a move of */
    int level;                  /* selectivity (solve.h) */
    int keep;                   /* moves a selective node tries; SQUARES (all) when exact */
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

static const uint64_t QUADRANT_SQUARES[4] = {
    0x000000000F0F0F0Full, 0x00000000F0F0F0F0ull, 0x0F0F0F0F00000000ull, 0xF0F0F0F000000000ull,
};

/* The empty squares that lie in a quadrant with an odd number of empties. */
static inline uint64_t odd_quadrant_squares(uint64_t empty)
{
    uint64_t odd = 0;
    for (int q = 0; q < 4; q++)
        if (popcount64(empty & QUADRANT_SQUARES[q]) & 1)
            odd |= QUADRANT_SQUARES[q];
    return empty & odd;
}

/* Whether a split node on the chain was cut off: a search under it is wasted. */
static bool chain_cut(const SplitNode *sp)
{
    for (; sp; sp = sp->parent)
        if (atomic_load_explicit(&sp->cutoff, memory_order_relaxed))
            return true;
    return false;
}

/* Checks the limits every POLL_NODES nodes (the clock every CLOCK_POLLS checks), and the split
 * nodes the search is under; true once it should stop. */
static bool poll_stop(ReversiSolver *s)
{
    if (s->nodes < s->next_poll)
        return s->stopped;
    s->next_poll = s->nodes + POLL_NODES;
    if (s->max_nodes > 0 && s->next_poll > s->max_nodes)
        s->next_poll = s->max_nodes;
    if (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed))
        s->halted = true;
    if (s->deadline > 0 && ++s->polls % CLOCK_POLLS == 0 && clock_seconds() >= s->deadline)
        s->halted = true;
    if (s->max_nodes > 0 && s->nodes >= s->max_nodes)
        s->halted = true;
    if (s->halted && s->share.pool)     /* the helpers, which wait on no limit of their own */
        atomic_store_explicit(&s->share.pool->halt, true, memory_order_relaxed);
    s->stopped = s->halted || chain_cut(s->working_for);
    return s->stopped;
}

/* ---------------------------------------------------------------- the last four empty squares */

/* The discs a move to sq turns over when sq is the only empty square: along each line through sq
 * the mover's discs read as a byte (columns by a multiply that gathers a file into the top byte,
 * diagonals by one that folds them onto it; squares off a short diagonal read as enemy discs past
 * the edge, so their runs count nothing), then the table.  Far cheaper than generating the flips. */
static inline int last_flip_count(const ReversiSolver *s, int sq, uint64_t own)
{
    const int row = sq >> 3, col = sq & 7;
    const uint64_t row_bits = (own >> (sq & 56)) & 0xFF;
    const uint64_t col_bits = (((own >> col) & FILE_A) * 0x0102040810204080ull) >> 56;
    const uint64_t d9_bits = ((own & s->diagonal_9[sq]) * FILE_A) >> 56;
    const uint64_t d7_bits = ((own & s->diagonal_7[sq]) * FILE_A) >> 56;
    return s->last_flips[col][row_bits] + s->last_flips[row][col_bits] + s->last_flips[col][d9_bits] + s->last_flips[col][d7_bits];
}

/* One empty square left: its flips counted for whoever can play it. */
static int solve_1(ReversiSolver *s, uint64_t own, int sq)
{
    s->nodes++;
    const int own_discs = popcount64(own);
    int flips = last_flip_count(s, sq, own);
    if (flips)
        return 2 * (own_discs + flips + 1) - SQUARES;
    /* We cannot play it: the opponent's discs are all the others. */
    flips = last_flip_count(s, sq, ~own & ~(1ull << sq));
    if (flips)
        return 2 * (own_discs - flips) - SQUARES;
    /* Nobody can fill it: 63 discs, so never a draw, and the empty square goes to the winner. */
    const int diff = 2 * own_discs - (SQUARES - 1);
    return diff > 0 ? diff + 1 : diff - 1;
}

/* The flips of a move to sq, 0 when it is not one; cheap when no enemy disc is adjacent. */
static inline uint64_t flips_at(int sq, uint64_t own, uint64_t opp)
{
    return neighbours(1ull << sq) & opp ? flipped_by(sq, own, opp) : 0;
}

static int solve_2(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int a, int b, bool passed)
{
    s->nodes++;
    int best = -SCORE_INF;
    uint64_t f = flips_at(a, own, opp);
    if (f) {
        best = -solve_1(s, opp ^ f, b);
        if (best >= beta)
            return best;
    }
    f = flips_at(b, own, opp);
    if (f) {
        const int v = -solve_1(s, opp ^ f, a);
        if (v > best)
            best = v;
    }
    if (best > -SCORE_INF)
        return best;
    if (passed)
        return final_score(own, opp);
    return -solve_2(s, opp, own, -beta, -alpha, a, b, true);
}

static int solve_3(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, const int *sq, bool passed)
{
    s->nodes++;
    int best = -SCORE_INF;
    for (int i = 0; i < 3; i++) {
        const uint64_t f = flips_at(sq[i], own, opp);
        if (!f)
            continue;
        const int a = sq[i == 0 ? 1 : 0], b = sq[i == 2 ? 1 : 2];
        const int v = -solve_2(s, opp ^ f, own | f | (1ull << sq[i]), -beta, -alpha, a, b, false);
        if (v > best) {
            best = v;
            if (v >= beta)
                return v;
            if (v > alpha)
                alpha = v;
        }
    }
    if (best > -SCORE_INF)
        return best;
    if (passed)
        return final_score(own, opp);
    return -solve_3(s, opp, own, -beta, -alpha, sq, true);
}

static int solve_4(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, const int *sq, bool passed)
{
    s->nodes++;
    int best = -SCORE_INF;
    for (int i = 0; i < 4; i++) {
        const uint64_t f = flips_at(sq[i], own, opp);
        if (!f)
            continue;
        int rest[3], n = 0;
        for (int j = 0; j < 4; j++)
            if (j != i)
                rest[n++] = sq[j];
        const int v = -solve_3(s, opp ^ f, own | f | (1ull << sq[i]), -beta, -alpha, rest, false);
        if (v > best) {
            best = v;
            if (v >= beta)
                return v;
            if (v > alpha)
                alpha = v;
        }
    }
    if (best > -SCORE_INF)
        return best;
    if (passed)
        return final_score(own, opp);
    return -solve_4(s, opp, own, -beta, -alpha, sq, true);
}

/* The four empty squares, those of odd quadrants first. */
static int solve_4_of(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta)
{
    const uint64_t empty = ~(own | opp), odd = odd_quadrant_squares(empty);
    int sq[4], n = 0;
    for (uint64_t e = odd; e; e &= e - 1)
        sq[n++] = lowest_square(e);
    for (uint64_t e = empty & ~odd; e; e &= e - 1)
        sq[n++] = lowest_square(e);
    return solve_4(s, own, opp, alpha, beta, sq, false);
}

/* ---------------------------------------------------------------- shallow search */

static int solve_shallow(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int empties, bool passed);

/* A shallow child: the four-square code at four empties. */
static inline int shallow_child(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int empties)
{
    if (empties == 4)
        return solve_4_of(s, own, opp, alpha, beta);
    return solve_shallow(s, own, opp, alpha, beta, empties, false);
}

/* The moves tried among the empty squares of odd quadrants first, then the rest. */
static int solve_shallow(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int empties, bool passed)
{
    s->nodes++;
    if (poll_stop(s))
        return 0;
    const uint64_t empty = ~(own | opp), odd = odd_quadrant_squares(empty);
    const uint64_t groups[2] = {odd, empty & ~odd};
    int best = -SCORE_INF;
    for (int g = 0; g < 2; g++)
        for (uint64_t e = groups[g]; e; e &= e - 1) {
            const int sq = lowest_square(e);
            const uint64_t flips = flips_at(sq, own, opp);
            if (!flips)
                continue;
            const int v = -shallow_child(s, opp ^ flips, own | flips | (1ull << sq), -beta, -alpha, empties - 1);
            if (v > best) {
                best = v;
                if (v >= beta)
                    return v;
                if (v > alpha)
                    alpha = v;
            }
        }
    if (best > -SCORE_INF)
        return best;
    if (passed)
        return final_score(own, opp);
    return -solve_shallow(s, opp, own, -beta, -alpha, empties, true);
}

/* ---------------------------------------------------------------- stable discs */

#define RANK_1 0x00000000000000FFull
#define RANK_8 0xFF00000000000000ull

/* The squares of `occupied` whose line in each direction is full: no disc there can ever be
 * flipped along that line.  d9 is the a1-h8 direction, d7 the h1-a8 one. */
typedef struct {
    uint64_t row, column, d9, d7;
} FullLines;

/* The diagonals of three squares or more (shorter ones hold edge squares only, which the edge
 * already keeps stable along diagonals). */
static const uint64_t DIAGONALS_9[11] = {
    0x0000000000804020ull, 0x0000000080402010ull, 0x0000008040201008ull, 0x0000804020100804ull,
    0x0080402010080402ull, 0x8040201008040201ull, 0x4020100804020100ull, 0x2010080402010000ull,
    0x1008040201000000ull, 0x0804020100000000ull, 0x0402010000000000ull,
};
static const uint64_t DIAGONALS_7[11] = {
    0x0000000000010204ull, 0x0000000001020408ull, 0x0000000102040810ull, 0x0000010204081020ull,
    0x0001020408102040ull, 0x0102040810204080ull, 0x0204081020408000ull, 0x0408102040800000ull,
    0x0810204080000000ull, 0x1020408000000000ull, 0x2040800000000000ull,
};

static uint64_t full_of(uint64_t occupied, const uint64_t *lines, int n)
{
    uint64_t full = 0;
    for (int i = 0; i < n; i++)
        if ((occupied & lines[i]) == lines[i])
            full |= lines[i];
    return full;
}

static FullLines full_lines(uint64_t occupied)
{
    FullLines f = {0, 0, 0, 0};
    for (int row = 0; row < BOARD_SIDE; row++)
        if (((occupied >> (row * BOARD_SIDE)) & 0xFF) == 0xFF)
            f.row |= 0xFFull << (row * BOARD_SIDE);
    uint64_t columns = occupied & (occupied >> 32);
    columns &= columns >> 16;
    columns &= columns >> 8;
    f.column = (columns & 0xFF) * FILE_A;
    f.d9 = full_of(occupied, DIAGONALS_9, 11);
    f.d7 = full_of(occupied, DIAGONALS_7, 11);
    return f;
}

/* Discs of `mine` that no sequence of moves can flip: along each of the four lines, the line is
 * full or a neighbour on it is the board's edge or such a disc itself.  Grown from nothing to
 * the fixed point, so every disc in it is provably stable. */
static uint64_t stable_discs(uint64_t mine, uint64_t occupied)
{
    const FullLines f = full_lines(occupied);
    uint64_t stable = 0;
    for (;;) {
        const uint64_t row = f.row | ((stable << 1) & ~FILE_A) | FILE_A | ((stable >> 1) & ~FILE_H) | FILE_H;
        const uint64_t column = f.column | (stable << 8) | RANK_1 | (stable >> 8) | RANK_8;
        const uint64_t d9 = f.d9 | ((stable << 9) & ~FILE_A) | ((stable >> 9) & ~FILE_H) | FILE_A | FILE_H | RANK_1 | RANK_8;
        const uint64_t d7 = f.d7 | ((stable << 7) & ~FILE_H) | ((stable >> 7) & ~FILE_A) | FILE_A | FILE_H | RANK_1 | RANK_8;
        const uint64_t grown = mine & row & column & d9 & d7;
        if (grown == stable)
            return stable;
        stable = grown;
    }
}

/* ---------------------------------------------------------------- transposition table */

static inline uint64_t position_key(uint64_t own, uint64_t opp)
{
    const uint64_t h = own * 0x9E3779B97F4A7C15ull ^ (opp + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
}

static inline size_t table_index(const ReversiSolver *s, uint64_t own, uint64_t opp)
{
    return (size_t)position_key(own, opp) & s->mask;
}

/* Shared tables are read and written under the bucket's stripe lock: an entry is two words of
 * key and its bounds, which another thread could otherwise tear apart. */
static inline atomic_flag *table_lock(const ReversiSolver *s, size_t bucket)
{
    if (!s->share.table_locks)
        return NULL;
    atomic_flag *lock = &s->share.table_locks[(bucket >> 1) & (TABLE_LOCKS - 1)];
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
        ;
    return lock;
}

static inline void table_unlock(atomic_flag *lock)
{
    if (lock)
        atomic_flag_clear_explicit(lock, memory_order_release);
}

/* Two entries a bucket: a position may sit in either.  Copies the entry into *out. */
static bool table_probe(const ReversiSolver *s, uint64_t own, uint64_t opp, TableEntry *out)
{
    const size_t at = table_index(s, own, opp) & ~(size_t)1;
    atomic_flag *lock = table_lock(s, at);
    const TableEntry *e = &s->table[at];
    bool found = true;
    if (e[0].own == own && e[0].opp == opp)
        *out = e[0];
    else if (e[1].own == own && e[1].opp == opp)
        *out = e[1];
    else
        found = false;
    table_unlock(lock);
    if (found && out->level < s->level) {  /* a more selective search's bounds: only its move */
        out->lower = -SQUARES;
        out->upper = SQUARES;
    }
    return found;
}

/* Updates the position's entry when it has one; else takes the bucket's entry of the smaller
 * subtree, so the big subtrees' results stay while the small ones come and go. */
static void table_store(ReversiSolver *s, uint64_t own, uint64_t opp, int empties, int lower, int upper, int best)
{
    const size_t at = table_index(s, own, opp) & ~(size_t)1;
    atomic_flag *lock = table_lock(s, at);
    TableEntry *bucket = &s->table[at];
    TableEntry *e = NULL;
    for (int i = 0; i < 2; i++)
        if (bucket[i].own == own && bucket[i].opp == opp)
            e = &bucket[i];
    if (e && e->level == s->level) {    /* both bounds hold: keep the tighter of each */
        if (e->lower > lower)
            lower = e->lower;
        if (e->upper < upper)
            upper = e->upper;
    } else if (!e) {
        e = bucket[0].empties <= bucket[1].empties ? &bucket[0] : &bucket[1];
    }
    *e = (TableEntry){own, opp, (int8_t)lower, (int8_t)upper, (uint8_t)best, (uint8_t)empties, (uint8_t)s->level};
    table_unlock(lock);
}

/* ---------------------------------------------------------------- deep search */

/* Our corners and the edge squares next to them that we hold (Edax's corner stability): discs
 * that stay ours, so a move that adds them is better. */
static inline int corner_stable(uint64_t mine)
{
    const uint64_t next = ((mine & 0x0100000000000001ull) << 1) | ((mine & 0x8000000000000080ull) >> 1)
                        | ((mine & 0x0000000000000081ull) << 8) | ((mine & 0x8100000000000000ull) >> 8);
    return popcount64((next | CORNERS) & mine);
}

/* The opponent's replies after the move (corners twice) and its potential moves: fewer cut
 * sooner; then a little for our stable corner discs (FFO #40-47: 1,071 M -> 1,030 M nodes). */
static int reply_key(uint64_t own, uint64_t opp, int sq, uint64_t flips)
{
    const uint64_t mine = own | flips | (1ull << sq), theirs = opp ^ flips;
    const uint64_t replies = legal_squares(theirs, mine);
    /* Potential mobility: empty squares next to our discs, where the opponent may later play. */
    const uint64_t empty = ~(mine | theirs);
    const int potential = popcount64(neighbours(mine) & empty);
    return KEY_REPLIES * popcount64(replies) + KEY_CORNERS * popcount64(replies & CORNERS) + KEY_POTENTIAL * potential
         - KEY_CORNER_STABLE * corner_stable(mine);
}

/* A cheap static value for the side to move, for ordering only: mobility (corners twice) and
 * corner discs. */
static int mobility_value(uint64_t own, uint64_t opp)
{
    const uint64_t mine = legal_squares(own, opp), theirs = legal_squares(opp, own);
    const int mobility = popcount64(mine) + popcount64(mine & CORNERS) - popcount64(theirs) - popcount64(theirs & CORNERS);
    return EVAL_MOBILITY * mobility + EVAL_CORNER * (popcount64(own & CORNERS) - popcount64(opp & CORNERS));
}

/* A depth-limited alpha-beta on mobility_value: how good a move looks a few plies on. */
static int shallow_value(uint64_t own, uint64_t opp, int depth, int alpha, int beta)
{
    if (depth == 0)
        return mobility_value(own, opp);
    const uint64_t moves = legal_squares(own, opp);
    if (!moves) {
        if (!legal_squares(opp, own))
            return EVAL_FINAL * final_score(own, opp);
        return -shallow_value(opp, own, depth - 1, -beta, -alpha);
    }
    int best = -EVAL_INF;
    for (uint64_t m = moves; m; m &= m - 1) {
        const int sq = lowest_square(m);
        const uint64_t flips = flipped_by(sq, own, opp);
        const int v = -shallow_value(opp ^ flips, own | flips | (1ull << sq), depth - 1, -beta, -alpha);
        if (v > best) {
            best = v;
            if (v >= beta)
                break;
            if (v > alpha)
                alpha = v;
        }
    }
    return best;
}

/* The empties from which the ordering search looks one ply deeper: 1 ply at 14, 2 at 15-17, 3 at
 * 18-20, 4 from 21.  Measured on FFO #40-47 (bench solve): 1-2 plies (2 from 18) 1,385 M nodes,
 * 42.1 s; these 1,070 M, 35.0 s; one ply more at 13 fewer nodes but no less time. */
static const int SORT_DEEPER[] = {15, 18, 21};

/* How deep the ordering search looks at this many empties: none below SORT_MIN_EMPTIES. */
static int sort_depth(int empties)
{
    if (empties < SORT_MIN_EMPTIES)
        return -1;
    int depth = 1;
    for (size_t i = 0; i < sizeof SORT_DEEPER / sizeof SORT_DEEPER[0]; i++)
        depth += empties >= SORT_DEEPER[i];
    return depth;
}

static int order_moves(uint64_t own, uint64_t opp, uint64_t moves, int hint, int empties, OrderedMove *list)
{
    const int depth = sort_depth(empties);
    const uint64_t odd = empties <= PARITY_MAX_EMPTIES ? odd_quadrant_squares(~(own | opp)) : 0;
    int n = 0;
    for (; moves; moves &= moves - 1) {
        const int sq = lowest_square(moves);
        const uint64_t flips = flipped_by(sq, own, opp);
        int key = -1;
        if (sq != hint) {
            key = reply_key(own, opp, sq, flips);
            if (odd >> sq & 1)
                key -= KEY_PARITY;
            if (depth >= 0)
                key += KEY_EVAL * shallow_value(opp ^ flips, own | flips | (1ull << sq), depth, -EVAL_INF, EVAL_INF);
        }
        OrderedMove m = {sq, key, flips};
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
    return shallow_child(s, own, opp, alpha, beta, empties);
}

/* One move of a node by principal variation search: the first with the whole window, the rest
 * with a null window first, searched again only when they beat alpha. */
static void search_move(ReversiSolver *s, NodeSearch *ns, uint64_t child_own, uint64_t child_opp, int square,
                        int empties, bool first)
{
    int v;
    if (first) {
        v = -solve_child(s, child_own, child_opp, -ns->beta, -ns->alpha, empties - 1);
    } else {
        v = -solve_child(s, child_own, child_opp, -ns->alpha - 1, -ns->alpha, empties - 1);
        if (v > ns->alpha && v < ns->beta)
            v = -solve_child(s, child_own, child_opp, -ns->beta, -v, empties - 1);
    }
    if (s->stopped || v <= ns->best)
        return;
    ns->best = v;
    ns->best_square = square;
    if (v > ns->alpha)
        ns->alpha = v;
}

/* ---------------------------------------------------------------- threads: split nodes */

static inline void spin_lock(atomic_flag *lock)
{
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
        ;
}

static inline void spin_unlock(atomic_flag *lock)
{
    atomic_flag_clear_explicit(lock, memory_order_release);
}

/* Only a node whose window holds at most one score (scores are even, so a window two wide holds
 * one) is split: in a wider one, a principal variation node, a later move that beats alpha raises
 * it for the moves after, and a thread that took one of those at the old alpha searches it wider
 * than one thread would.  Splitting those too cost FFO #40-#49 on two threads 3.59 G nodes
 * against 3.12 G without them (one thread: 2.89 G), and 52.0 s against 43.6 s (four rounds; one
 * thread 72.8 s).  The split nodes then lie deeper, so they are allowed from 10 empties, not 12
 * (splitting null windows only: 45.2 s from 10, five rounds, against 48.1 s from 12, three). */
static bool may_split(const ReversiSolver *s, const NodeSearch *ns, int empties)
{
    return s->share.pool && empties >= SPLIT_MIN_EMPTIES && ns->beta - ns->alpha <= 2 &&
           atomic_load_explicit(&s->share.pool->idle, memory_order_relaxed) > 0;
}

/* After a split node's search: stopped again only for a limit or a cut node further up. */
static void refresh_stopped(ReversiSolver *s)
{
    s->stopped = s->halted || chain_cut(s->working_for);
}

/* Takes the split node's moves one by one until none is left or the window closes, each searched
 * as search_move does it, in the window of the moment it is taken. */
static void work_at(ReversiSolver *s, SplitNode *sp)
{
    const SplitNode *outer = s->working_for;
    s->working_for = sp;
    for (;;) {
        spin_lock(&sp->lock);
        if (sp->next >= sp->n || sp->ns.alpha >= sp->ns.beta) {
            spin_unlock(&sp->lock);
            break;
        }
        const OrderedMove *m = &sp->list[sp->next++];
        NodeSearch mine = {sp->ns.alpha, sp->ns.beta, -SCORE_INF, m->square};
        spin_unlock(&sp->lock);
        search_move(s, &mine, sp->opp ^ m->flips, sp->own | m->flips | (1ull << m->square), m->square, sp->empties,
                    false);
        if (s->stopped)
            break;
        spin_lock(&sp->lock);
        if (mine.best > sp->ns.best) {
            sp->ns.best = mine.best;
            sp->ns.best_square = m->square;
            if (mine.best > sp->ns.alpha)
                sp->ns.alpha = mine.best;
        }
        if (sp->ns.alpha >= sp->ns.beta)
            atomic_store_explicit(&sp->cutoff, true, memory_order_relaxed);
        spin_unlock(&sp->lock);
    }
    s->working_for = outer;
}

/* Whether sp is `below` or under it. */
static bool split_under(const SplitNode *sp, const SplitNode *below)
{
    for (; sp; sp = sp->parent)
        if (sp == below)
            return true;
    return false;
}

/* Joins an open split node with moves left (one under `below`, when that is not NULL) and works
 * at it; false when there is none. */
static bool join_open(ReversiSolver *s, const SplitNode *below)
{
    Pool *pool = s->share.pool;
    SplitNode *sp = NULL;
    pthread_mutex_lock(&pool->lock);
    for (int i = 0; i < pool->num_open && !sp; i++) {
        SplitNode *candidate = pool->open[i];
        if ((!below || split_under(candidate, below)) && !chain_cut(candidate)) {
            spin_lock(&candidate->lock);
            if (candidate->next < candidate->n && candidate->ns.alpha < candidate->ns.beta)
                sp = candidate;
            spin_unlock(&candidate->lock);
        }
    }
    if (sp)     /* under the pool's lock, so that its thread, closing it, waits for this one */
        atomic_fetch_add_explicit(&sp->workers, 1, memory_order_relaxed);
    pthread_mutex_unlock(&pool->lock);
    if (!sp)
        return false;
    atomic_fetch_sub_explicit(&pool->idle, 1, memory_order_relaxed);
    work_at(s, sp);
    atomic_fetch_sub_explicit(&sp->workers, 1, memory_order_release);
    atomic_fetch_add_explicit(&pool->idle, 1, memory_order_relaxed);
    refresh_stopped(s);
    return true;
}

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* The moves of a node from list[next] on, shared with the idle threads.  Its thread works through
 * them too, then waits for the others to finish theirs, meanwhile helping with the split nodes
 * they opened under it. */
static void split(ReversiSolver *s, NodeSearch *ns, uint64_t own, uint64_t opp, const OrderedMove *list, int next,
                  int n, int empties)
{
    Pool *pool = s->share.pool;
    SplitNode sp = {.own = own, .opp = opp, .empties = empties, .n = n, .next = next, .list = list, .ns = *ns,
                    .parent = s->working_for};
    atomic_flag_clear(&sp.lock);
    atomic_init(&sp.workers, 1);
    atomic_init(&sp.cutoff, false);
    pthread_mutex_lock(&pool->lock);
    const bool opened = pool->num_open < SPLITS_MAX;
    if (opened)
        pool->open[pool->num_open++] = &sp;
    pthread_mutex_unlock(&pool->lock);
    work_at(s, &sp);
    if (opened) {
        pthread_mutex_lock(&pool->lock);
        for (int i = 0; i < pool->num_open; i++)
            if (pool->open[i] == &sp)
                pool->open[i] = pool->open[--pool->num_open];
        pthread_mutex_unlock(&pool->lock);
    }
    if (atomic_load_explicit(&sp.workers, memory_order_acquire) > 1) {
        atomic_fetch_add_explicit(&pool->idle, 1, memory_order_relaxed);
        while (atomic_load_explicit(&sp.workers, memory_order_acquire) > 1)
            if (!join_open(s, &sp))
                cpu_pause();
        atomic_fetch_sub_explicit(&pool->idle, 1, memory_order_relaxed);
    }
    *ns = sp.ns;
    refresh_stopped(s);
}

/* A helper thread: joins split nodes until the solve is done. */
static void help(ReversiSolver *s)
{
    Pool *pool = s->share.pool;
    atomic_fetch_add_explicit(&pool->idle, 1, memory_order_relaxed);
    while (!atomic_load_explicit(&pool->done, memory_order_acquire))
        if (atomic_load_explicit(&pool->halt, memory_order_relaxed) || !join_open(s, NULL))
            cpu_pause();
    atomic_fetch_sub_explicit(&pool->idle, 1, memory_order_relaxed);
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
    TableEntry e;
    if (tabled && table_probe(s, own, opp, &e)) {
        /* Threads leave their best moves in the table in any order; the root ignores them, so
         * that it tries its moves in one order and picks the same one whatever the timing. */
        if (!best_move || s->threads == 1)
            hint = e.best;
        if (!best_move) {   /* the root must search on: it needs a move, not just a score */
            if (e.lower >= beta || e.lower == e.upper)
                return e.lower;
            if (e.upper <= alpha)
                return e.upper;
            if (e.lower > alpha)
                alpha = e.lower;
            if (e.upper < beta)
                beta = e.upper;
        }
    }
    /* Stability cutoff: the opponent keeps its stable discs, so we score at most 64 minus twice
     * their number; only worth computing when that could be at or below alpha. */
    if (!best_move && alpha >= SQUARES - 2 * popcount64(opp) && empties >= STABILITY_MIN_EMPTIES) {
        const int upper = SQUARES - 2 * popcount64(stable_discs(opp, own | opp));
        if (upper <= alpha)
            return upper;
        if (upper < beta)
            beta = upper;
    }
    OrderedMove list[64];   /* a move per square at most: a position can have 33 or more */
    const int n = order_moves(own, opp, moves, hint, empties, list);
    /* Enhanced transposition cutoff: a child the table already knows to be bad enough for the
     * opponent ends the node before any search. */
    if (tabled && empties >= ETC_MIN_EMPTIES && !best_move)
        for (int i = 0; i < n; i++) {
            const uint64_t child_own = opp ^ list[i].flips, child_opp = own | list[i].flips | (1ull << list[i].square);
            if (table_probe(s, child_own, child_opp, &e) && -e.upper >= beta)
                return -e.upper;
        }
    /* A selective search's null-window node far from the end tries only its first moves. */
    int searched = n;
    if (n > s->keep && beta - alpha == 1 && empties >= SELECT_MIN_EMPTIES && !best_move)
        searched = s->keep;
    const int alpha_in = alpha;
    NodeSearch ns = {alpha, beta, -SCORE_INF, list[0].square};
    for (int i = 0; i < searched && ns.alpha < ns.beta; i++) {
        /* Once the first two moves have left the window open, the others may be shared out
         * (never at the root, whose first move of equally good ones is the answer).  After one
         * move, FFO #40-#47 on two threads took 5% more nodes (1,109-1,123 M against
         * 1,066-1,086 M) and 6% more time: the nodes whose second move cuts were split too. */
        if (i == SPLIT_AFTER && !best_move && may_split(s, &ns, empties)) {
            split(s, &ns, own, opp, list, i, searched, empties);
            break;
        }
        const uint64_t child_own = opp ^ list[i].flips, child_opp = own | list[i].flips | (1ull << list[i].square);
        search_move(s, &ns, child_own, child_opp, list[i].square, empties, i == 0);
        if (s->stopped)
            return 0;
    }
    if (s->stopped)
        return 0;
    const int best = ns.best, best_sq = ns.best_square;
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

static void reversi_solver_destroy(void *impl)
{
    ReversiSolver *s = impl;
    free(s->table);
    free(s->share.table_locks);
    if (s->share.pool)
        pthread_mutex_destroy(&s->share.pool->lock);
    free(s->share.pool);
    free(s);
}

/* What threads beyond the first share besides the table; false when memory runs out. */
static bool share_init(Sharing *share)
{
    share->table_locks = malloc(TABLE_LOCKS * sizeof *share->table_locks);
    share->pool = calloc(1, sizeof *share->pool);
    if (!share->table_locks || !share->pool || pthread_mutex_init(&share->pool->lock, NULL) != 0) {
        free(share->pool);
        share->pool = NULL;     /* so that the destroy has no mutex to destroy */
        return false;
    }
    for (int i = 0; i < TABLE_LOCKS; i++)
        atomic_flag_clear(&share->table_locks[i]);
    return true;
}

/* The tables of last_flip_count. */
static void init_last_flips(ReversiSolver *s)
{
    for (int place = 0; place < BOARD_SIDE; place++)
        for (int own = 0; own < 256; own++) {
            int count = 0;
            for (int step = -1; step <= 1; step += 2) {
                int run = 0, x = place + step;
                for (; x >= 0 && x < BOARD_SIDE && !(own >> x & 1); x += step)
                    run++;
                if (x >= 0 && x < BOARD_SIDE)
                    count += run;
            }
            s->last_flips[place][own] = (uint8_t)count;
        }
    for (int sq = 0; sq < SQUARES; sq++) {
        const int d = (sq & 7) - (sq >> 3), a = (sq & 7) + (sq >> 3) - 7;
        s->diagonal_9[sq] = d >= 0 ? 0x8040201008040201ull >> (8 * d) : 0x8040201008040201ull << (8 * -d);
        s->diagonal_7[sq] = a >= 0 ? 0x0102040810204080ull << (8 * a) : 0x0102040810204080ull >> (8 * -a);
    }
}

static void *reversi_solver_create(const Game *g, size_t table_bytes, int threads)
{
    (void)g;
    ReversiSolver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->threads = threads < 1 ? 1 : threads > THREADS_MAX ? THREADS_MAX : threads;
    init_last_flips(s);
    size_t entries = 1;
    while (entries * 2 * sizeof(TableEntry) <= table_bytes)
        entries *= 2;
    if (entries * sizeof(TableEntry) <= table_bytes) {
        if (entries < 2)    /* a bucket is two entries */
            entries = 2;
        s->table = calloc(entries, sizeof(TableEntry));
        if (!s->table) {
            free(s);
            return NULL;
        }
        s->mask = entries - 1;
    }
    /* Without a table the threads could share nothing: one thread then. */
    if (!s->table)
        s->threads = 1;
    if (s->threads > 1 && !share_init(&s->share)) {
        reversi_solver_destroy(s);
        return NULL;
    }
    return s;
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

/* Any position, whatever its number of empties: the regime that suits it. */
static int solve_any(ReversiSolver *s, uint64_t own, uint64_t opp, int alpha, int beta, int empties, int *best_move)
{
    if (empties > SHALLOW_EMPTIES || best_move)
        return solve_deep(s, own, opp, alpha, beta, empties, best_move);
    return shallow_child(s, own, opp, alpha, beta, empties);
}

/* The root: its best move, or a pass, or the final score. */
static SolveResult solve_root(ReversiSolver *s, const Board b, SolveMode mode)
{
    const int alpha = mode == SOLVE_WLD ? -1 : -SQUARES, beta = mode == SOLVE_WLD ? 1 : SQUARES;
    const int empties = SQUARES - popcount64(b.own | b.opp);
    SolveResult r = {0, MOVE_NONE, 0, false};
    if (legal_squares(b.own, b.opp)) {
        int best = SQUARES;
        r.score = solve_any(s, b.own, b.opp, alpha, beta, empties, &best);
        r.best = (Move)best;
    } else if (legal_squares(b.opp, b.own)) {
        r.score = -solve_any(s, b.opp, b.own, -beta, -alpha, empties, NULL);
        r.best = MOVE_PASS;
    } else {
        r.score = final_score(b.own, b.opp);
    }
    if (mode == SOLVE_WLD)
        r.score = sign(r.score);
    r.nodes = s->nodes;
    r.stopped = s->halted;
    return r;
}

static void start_counting(ReversiSolver *s, const atomic_bool *stop, double seconds, uint64_t max_nodes)
{
    s->nodes = 0;
    s->next_poll = 0;
    s->polls = 0;
    s->stop = stop;
    s->deadline = seconds > 0 ? clock_seconds() + seconds : 0;
    s->max_nodes = max_nodes;
    s->halted = false;
    s->stopped = false;
    s->working_for = NULL;
}

/* A thread beyond the first: split nodes' moves on its own counters, until the first is done. */
typedef struct {
    ReversiSolver solver;
} HelperThread;

static void *run_helper(void *arg)
{
    HelperThread *h = arg;
    help(&h->solver);
    return NULL;
}

static SolveResult reversi_solver_run(void *impl, const Position *p, SolveMode mode, int level,
                                     const SolveLimits *limits)
{
    ReversiSolver *s = impl;
    const Board b = load_board(p);
    s->level = level < 0 ? 0 : level > SOLVE_EXACT_LEVEL ? SOLVE_EXACT_LEVEL : level;
    s->keep = s->level == SOLVE_EXACT_LEVEL ? SQUARES : SELECT_KEEP[s->level];
    start_counting(s, limits->stop, limits->seconds, limits->max_nodes);
    if (s->threads == 1)
        return solve_root(s, b, mode);
    /* The first thread's limits end the helpers' searches too (`halt`), and its return their
     * wait (`done`).  Short of memory for the helpers' state, it solves alone: slower, never
     * wrong. */
    Pool *pool = s->share.pool;
    pool->num_open = 0;
    atomic_store(&pool->idle, 0);
    atomic_store(&pool->halt, false);
    atomic_store(&pool->done, false);
    HelperThread *helpers = malloc((size_t)(s->threads - 1) * sizeof *helpers);
    pthread_t *ids = malloc((size_t)(s->threads - 1) * sizeof *ids);
    int started = 0;
    for (int k = 0; helpers && ids && k < s->threads - 1; k++) {
        helpers[started] = (HelperThread){*s};
        start_counting(&helpers[started].solver, &pool->halt, 0, 0);
        if (pthread_create(&ids[started], NULL, run_helper, &helpers[started]) != 0)
            break;  /* fewer threads */
        started++;
    }
    SolveResult r = solve_root(s, b, mode);
    atomic_store_explicit(&pool->done, true, memory_order_release);
    for (int k = 0; k < started; k++) {
        pthread_join(ids[k], NULL);
        r.nodes += helpers[k].solver.nodes;
    }
    free(helpers);
    free(ids);
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
