/*
 * phalanx_movegen.c - legal moves of Epaminondas, Crossings and Igfip: counting them (the perft
 * and playout hot path), listing them, the rules that forbid otherwise playable moves (symmetry,
 * answering a crossing), game status (with Igfip's draw) and perft.
 *
 * Every move runs along one line, so the work is done line by line on 16-bit masks.  Along a
 * line, a *front* is a movable own stone whose next square is not a movable own stone.  For a
 * front with a run of L own stones behind it (itself included), e empty squares ahead and, after
 * them, a strikable enemy run of m stones:
 *   - the group of the front and k-1 stones behind it moves j <= min(k, e) squares: for each k
 *     that is min(k, e) plain moves;
 *   - it strikes the enemy run with j = e + 1 when k >= e + 1 and k > m: L - max(e, m) moves.
 */
#include "phalanx_lines.h"

#include <string.h>

/* Every move the lines allow, before the rules that forbid some of them. */
static inline int count_raw_rules(const PhalanxTables *t, const PhalanxPos *p, bool frozen)
{
    int n = 0;
    for (int a = 0; a < t->num_active; a++)
        n += count_line_rules(t, p, p->side, t->active[a], frozen);
    return n;
}

static int count_raw(const PhalanxTables *t, const PhalanxPos *p)
{
    return t->frozen ? count_raw_rules(t, p, true) : count_raw_rules(t, p, false);
}

/* Lists the moves of one front.  `code` is the move of the front alone (k = 1, j = 1); each
 * larger group starts one square further back (`back` squares in the board's numbering) and has
 * k one higher, which are two additions to the code.  L, e, m: see the top of this file (m < 0:
 * nothing to strike). */
static int emit_front(Move code, int back, int L, int e, int m, Move *out)
{
    int n = 0;
    for (int k = 1; k <= L; k++, code = code - (Move)back + (1u << 11)) {
        int plain = k < e ? k : e;
        for (int j = 0; j < plain; j++)
            out[n++] = code + ((Move)j << 15);
        if (m >= 0 && k > e && k > m)
            out[n++] = code + ((Move)e << 15);
    }
    return n;
}

/* The square numbering along line l: square of bit b = base + b * stride. */
static inline void line_geometry(int l, int *base, int *stride)
{
    if (l < COL0)
        *base = (l - ROW0) * 16, *stride = 1;
    else if (l < DIAG0)
        *base = l - COL0, *stride = 16;
    else if (l < ANTI0)
        *base = (l - DIAG0) - 15, *stride = 17;
    else
        *base = l - ANTI0, *stride = 15;
}

static int gen_line(Line v, int l, Move *out)
{
    int n = 0, up = line_up_dir(l), base, stride;
    line_geometry(l, &base, &stride);
    for (uint32_t fronts = v.own & ~(v.own >> 1); fronts; fronts &= fronts - 1) {
        int i = __builtin_ctz(fronts);
        FrontShape f = front_shape_up(v, i);
        n += emit_front(move_encode(base + i * stride, up, 1, 1), stride, f.L, f.e, f.m, out + n);
    }
    for (uint32_t fronts = v.own & ~(v.own << 1); fronts; fronts &= fronts - 1) {
        int i = __builtin_ctz(fronts);
        FrontShape f = front_shape_down(v, i);
        n += emit_front(move_encode(base + i * stride, up + 1, 1, 1), -stride, f.L, f.e, f.m, out + n);
    }
    return n;
}

int phalanx_gen_line(const PhalanxTables *t, const PhalanxPos *p, int us, int l, Move *out)
{
    return gen_line(line_view(t, p, us, l), l, out);
}

static int gen_raw(const PhalanxTables *t, const PhalanxPos *p, Move *moves)
{
    int us = p->side, n = 0;
    for (int a = 0; a < t->num_active; a++) {
        int l = t->active[a];
        if (p->lines[us][l])
            n += gen_line(line_view(t, p, us, l), l, moves + n);
    }
    return n;
}

/* --- the rules that forbid moves ------------------------------------------------------------ */

/* Epaminondas only: Crossings and Igfip decide the race by the answering rule instead. */
bool phalanx_wins_at_turn_start(const PhalanxTables *t, const PhalanxPos *p)
{
    int us = p->side;
    return !t->answering &&
           phalanx_home_rank_count(p, us, t->far_rank[us]) > phalanx_home_rank_count(p, !us, t->far_rank[!us]);
}

/* Does the move put one more of the mover's stones on the far rank?  Only the head of a group
 * moving forwards can arrive there, and it arrives alone. */
static bool reaches_far_rank(const PhalanxTables *t, int us, Move m)
{
    return dir_rank[move_dir(m)] != 0 && move_land_rank(m) == t->far_rank[us];
}

/* The symmetry rule can only bite when the move evens the home-rank counts: the opponent is one
 * stone ahead on the mover's home rank, and a symmetric position needs equal counts. */
bool phalanx_symmetry_rule_applies(const PhalanxTables *t, const PhalanxPos *p)
{
    int us = p->side;
    return !t->answering && t->obstacles_mirror &&
           phalanx_home_rank_count(p, us, t->far_rank[us]) + 1 == phalanx_home_rank_count(p, !us, t->far_rank[!us]);
}

/* Crossings and Igfip: fewer own stones on the far rank than the opponent has on ours. */
bool phalanx_must_answer_crossing(const PhalanxTables *t, const PhalanxPos *p)
{
    int us = p->side;
    return t->answering &&
           phalanx_home_rank_count(p, us, t->far_rank[us]) < phalanx_home_rank_count(p, !us, t->far_rank[!us]);
}

static bool breaks_symmetry_rule(const PhalanxTables *t, const PhalanxPos *p, Move m)
{
    if (!reaches_far_rank(t, p->side, m))
        return false;
    PhalanxPos after = *p;
    int captured;
    phalanx_make(t, &after, m, &captured);
    return phalanx_is_mirror_symmetric(t, &after);
}

static int filter_moves(const PhalanxTables *t, const PhalanxPos *p, Move *moves, int n)
{
    int kept = 0;
    if (phalanx_must_answer_crossing(t, p)) {
        for (int i = 0; i < n; i++)
            if (reaches_far_rank(t, p->side, moves[i]))
                moves[kept++] = moves[i];
    } else if (phalanx_symmetry_rule_applies(t, p)) {
        for (int i = 0; i < n; i++)
            if (!breaks_symmetry_rule(t, p, moves[i]))
                moves[kept++] = moves[i];
    } else {
        kept = n;
    }
    return kept;
}

int phalanx_gen(const PhalanxTables *t, const PhalanxPos *p, Move *moves)
{
    if (phalanx_wins_at_turn_start(t, p) || phalanx_walled_draw(t, p))
        return 0;
    return filter_moves(t, p, moves, gen_raw(t, p, moves));
}

int phalanx_count(const PhalanxTables *t, const PhalanxPos *p)
{
    if (phalanx_wins_at_turn_start(t, p) || phalanx_walled_draw(t, p))
        return 0;
    if (phalanx_must_answer_crossing(t, p) || phalanx_symmetry_rule_applies(t, p)) {
        Move moves[MAX_MOVES];
        return phalanx_gen(t, p, moves);
    }
    return count_raw(t, p);
}

/* Under the symmetry rule only a move onto the far rank can be forbidden, so looking for a legal
 * move one line at a time usually stops at the first line that has moves, where listing and
 * testing every move of the position cost ~18,000 instructions (the tuner checks every recorded
 * move's position this way). */
static bool has_move_under_symmetry(const PhalanxTables *t, const PhalanxPos *p)
{
    Move moves[MAX_MOVES];
    int us = p->side;
    for (int a = 0; a < t->num_active; a++) {
        int l = t->active[a];
        int n = p->lines[us][l] ? gen_line(line_view(t, p, us, l), l, moves) : 0;
        for (int i = 0; i < n; i++)
            if (!breaks_symmetry_rule(t, p, moves[i]))
                return true;
    }
    return false;
}

/* Whether the side to move has a legal move: stops at the first line that has one, which is
 * usually the first line looked at (search asks this of every position it evaluates). */
static bool has_legal_move(const PhalanxTables *t, const PhalanxPos *p)
{
    if (phalanx_must_answer_crossing(t, p))
        return phalanx_count(t, p) > 0;
    if (phalanx_symmetry_rule_applies(t, p))
        return has_move_under_symmetry(t, p);
    for (int a = 0; a < t->num_active; a++)
        if (count_line(t, p, p->side, t->active[a]) > 0)
            return true;
    return false;
}

/* Whether the side not to move would have a legal move if it were its turn. */
static bool opponent_could_move(const PhalanxTables *t, const PhalanxPos *p)
{
    PhalanxPos them = *p;
    them.side = (uint8_t)!p->side;
    return has_legal_move(t, &them);
}

/* In order: the Epaminondas win at the start of the turn; in Igfip, for a side that owes no
 * answer, the walled board is a draw (docs/RULES.md); a legal move means play goes on; with
 * none, a side that owes an answer to a crossing loses, and in Igfip a board where neither side
 * can move (every stone a crossing, or the free ones boxed in) is a draw; otherwise the side
 * with no move loses. */
GameStatus phalanx_status(const PhalanxTables *t, const PhalanxPos *p)
{
    GameStatus mover_wins = p->side == WHITE ? STATUS_WHITE_WINS : STATUS_BLACK_WINS;
    GameStatus mover_loses = p->side == WHITE ? STATUS_BLACK_WINS : STATUS_WHITE_WINS;
    if (phalanx_wins_at_turn_start(t, p))
        return mover_wins;
    if (phalanx_walled_draw(t, p))
        return STATUS_DRAW;
    if (has_legal_move(t, p))
        return STATUS_ONGOING;
    if (t->igfip && !phalanx_must_answer_crossing(t, p) && (phalanx_no_free_stones(t, p) || !opponent_could_move(t, p)))
        return STATUS_DRAW;
    return mover_loses;
}

/* --- perft ------------------------------------------------------------------------------------ */

bool phalanx_special_rules_apply(const PhalanxTables *t, const PhalanxPos *p)
{
    /* the tests above, sharing the two home-rank counts */
    int us = p->side;
    int ours = phalanx_home_rank_count(p, us, t->far_rank[us]), theirs = phalanx_home_rank_count(p, !us, t->far_rank[!us]);
    if (t->answering)
        return ours < theirs;
    return ours > theirs || (t->obstacles_mirror && ours + 1 == theirs);
}

/* perft(2) without recounting whole boards: each child's move count is the opponent's count in
 * the parent, corrected on the few lines the move changed.  The rules that forbid moves are
 * decided by home-rank counts, so a child where they may bite is counted in full. */
static inline uint64_t perft_two_rules(const PhalanxTables *t, PhalanxPos *p, bool frozen)
{
    Move moves[MAX_MOVES];
    int n = phalanx_gen(t, p, moves), them = !p->side;
    uint8_t before[NUM_LINES];
    int base = 0;
    for (int l = 0; l < NUM_LINES; l++)
        base += before[l] = (uint8_t)count_line_rules(t, p, them, l, frozen);
    uint64_t total = 0, hash = p->hash;
    for (int i = 0; i < n; i++) {
        int captured;
        phalanx_make(t, p, moves[i], &captured);
        if (phalanx_special_rules_apply(t, p) || phalanx_move_walls_in(t, p, moves[i], captured)) {
            total += (uint64_t)phalanx_count(t, p);
        } else {
            int count = base;
            LineSet dirty = changed_lines(moves[i], captured);
            for (int w = 0; w < 2; w++)
                for (uint64_t b = dirty.bits[w]; b; b &= b - 1) {
                    int l = w * 64 + __builtin_ctzll(b);
                    count += count_line_rules(t, p, them, l, frozen) - before[l];
                }
            total += (uint64_t)count;
        }
        phalanx_unmake(t, p, moves[i], captured, hash);
    }
    return total;
}

static uint64_t perft_two(const PhalanxTables *t, PhalanxPos *p)
{
    return t->frozen ? perft_two_rules(t, p, true) : perft_two_rules(t, p, false);
}

uint64_t phalanx_perft(const PhalanxTables *t, PhalanxPos *p, int depth)
{
    if (depth == 0)
        return 1;
    if (depth == 1)
        return (uint64_t)phalanx_count(t, p);
    if (depth == 2)
        return perft_two(t, p);
    Move moves[MAX_MOVES];
    int n = phalanx_gen(t, p, moves);
    uint64_t total = 0, hash = p->hash;
    for (int i = 0; i < n; i++) {
        int captured;
        phalanx_make(t, p, moves[i], &captured);
        total += phalanx_perft(t, p, depth - 1);
        phalanx_unmake(t, p, moves[i], captured, hash);
    }
    return total;
}

const char *phalanx_forbidden_reason(const PhalanxTables *t, const PhalanxPos *p, Move m)
{
    if (phalanx_must_answer_crossing(t, p) && !reaches_far_rank(t, p->side, m))
        return t->crossings ? "the crossing must be answered: only a move that makes a tower is legal"
                            : "the crossing must be answered: only a move onto the far rank is legal";
    if (phalanx_symmetry_rule_applies(t, p) && breaks_symmetry_rule(t, p, m))
        return "forbidden by the symmetry rule (the board would be mirror-symmetric)";
    return NULL;
}
