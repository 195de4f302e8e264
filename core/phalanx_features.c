/*
 * phalanx_features.c - the evaluation features of the phalanx games (docs/FEATURES.md):
 * a fixed list of named numbers, each from the side to move's point of view and scaled to be of
 * order one, that core/value.c weighs into a win probability and the tuner fits.
 *
 * Cost is the design constraint: search evaluates every new leaf and the tuner extracts millions
 * of positions, so the whole vector costs about one move count per side.  Everything comes from
 * two passes:
 *   - one walk over the fronts of every line for both colours (the same runs movegen counts),
 *     which yields mobility, long moves, captures, the stones each side can strike and the
 *     far-rank squares each side can reach this turn;
 *   - one walk over the ranks for both colours, which yields material, the home-rank counts,
 *     advancement, the attack zones and passed stones.
 * The rules that forbid moves (symmetry, answering) are ignored: they bite in a handful of
 * positions, and must_answer tells the evaluation when the answering rule is in force.
 */
#include "phalanx_lines.h"

#include <string.h>

/* The feature order is the order of weights files; append, never reorder (docs/WEIGHTS.md). */
enum {
    F_MATERIAL,
    F_MOBILITY,
    F_LONG_MOVES,
    F_CAPTURES,
    F_TARGETS,
    F_EXPOSED,
    F_BEST_CAPTURE,
    F_FAR_RANK,
    F_ONE_FROM_FAR,
    F_TWO_FROM_FAR,
    F_ATTACK_ZONE,
    F_REACH_NOW,
    F_OPP_REACH,
    F_MUST_ANSWER,
    F_PASSED,
    F_ADVANCEMENT,
    F_PAIRS,
    F_TRIPLES,
    F_COUNT
};
_Static_assert((int)F_COUNT == (int)PHALANX_NUM_FEATURES, "phalanx.h must agree on the feature count");
_Static_assert((int)F_COUNT <= (int)MAX_FEATURES, "MAX_FEATURES too small");

const char *const phalanx_feature_names[PHALANX_NUM_FEATURES] = {
    "material", "mobility", "long_moves", "captures", "targets", "exposed", "best_capture",
    "far_rank", "one_from_far", "two_from_far", "attack_zone", "reach_now", "opp_reach",
    "must_answer", "passed", "advancement", "pairs", "triples",
};

const char *const phalanx_feature_help[PHALANX_NUM_FEATURES] = {
    "stones, own minus opponent, / (2 x width)",
    "moves (symmetry and answering rules ignored), own minus opponent, / (8 x width)",
    "moves of distance 2 or more, own minus opponent, / (4 x width)",
    "capturing moves, own minus opponent, / width",
    "enemy stones some capture of ours would remove this turn, / width",
    "own stones some capture of the opponent's would remove, / width",
    "stones the biggest capture of ours removes, / 4",
    "stones on the opponent's home rank (Crossings: towers, Igfip: crossings), own minus opponent",
    "stones one rank short of the opponent's home rank, own minus opponent, / 2",
    "stones two ranks short of the opponent's home rank, own minus opponent, / 4",
    "(own stones - enemy stones) in the enemy's three home ranks, minus the same for ours, / width",
    "1 if a move of ours lands on the opponent's home rank this turn, else 0",
    "squares of our home rank the opponent could land on next turn, / 2",
    "1 if the opponent has more stones on our home rank than we on theirs (we must answer)",
    "stones with no enemy ahead on their file or the files beside it, own minus opponent, / width",
    "mean ranks advanced from the own home rank, own minus opponent, / (height - 1)",
    "adjacent own pairs along rows, files and diagonals, own minus opponent, / (4 x width)",
    "own runs of three along any line (counted per window), own minus opponent, / (4 x width)",
};

/* --- the line pass ------------------------------------------------------------------------ */

/* What the fronts of one colour add up to over all lines. */
typedef struct {
    int moves, long_moves, captures, best_capture, pairs, triples;
    uint32_t reach;         /* files of the far rank that one of its moves lands on */
    uint64_t struck[4];     /* enemy squares (rank * 16 + file) some capture would remove */
} LineTotals;

static void mark_square(uint64_t set[4], int sq) { set[sq >> 6] |= 1ull << (sq & 63); }

/* Records the enemy stones a capture from square bit s removes: the whole run of m (Epaminondas,
 * Igfip) or the struck stone alone (Crossings: `single`).  `step` is +1 up the line, -1 down. */
static void mark_struck(LineTotals *tot, int l, int s, int step, int m, bool single)
{
    int n = single ? 1 : m;
    for (int q = 0; q < n; q++)
        mark_square(tot->struck, line_square(l, s + q * step));
}

/* The plain moves of every front of a line in one direction at once (phalanx_lines.h), split
 * the way the features need them: `first` gets the moves with j = 1 (one per group size of each
 * front with an empty square ahead), and `reach` the squares some plain move lands on exactly
 * at distance j = its group's lead, which is bit i + j (up) or i - j (down) of a front i in
 * A_j & G_j: the far rank is reachable by a plain move iff its bit is in there. */
static inline __attribute__((always_inline)) int plain_walk(uint32_t fronts, uint32_t own, uint32_t empty, bool up, int *first, uint32_t *reach)
{
    int n = 0;
    uint32_t a = fronts & (up ? empty >> 1 : empty << 1), g = fronts, r = 0;
    *first = 0;
    for (int j = 1; (a &= g) != 0; j++) {
        r |= up ? a << j : a >> j;
        int row = 0;
        if (up) {
            uint32_t t = a;
            int k = j;
            do
                row += __builtin_popcount(t);
            while ((t &= own << k++) != 0);
        } else {
            /* fronts moving down are the lowest of their runs: fill each run upwards from
             * j - 1 above its front with one addition, as plain_down does */
            row = __builtin_popcount(((own + (a << (j - 1))) ^ own) & own);
        }
        if (j == 1)
            *first = row;
        n += row;
        a &= up ? empty >> (j + 1) : empty << (j + 1);
        g &= up ? own << j : own >> j;
    }
    *reach = r;
    return n;
}

/* Adds one capturing front: L own stones behind it, e empties ahead, the struck run of m from
 * bit s.  Returns whether a capture lands on bit far_bit. */
static inline bool add_capture(LineTotals *tot, int l, int L, int e, int s, int m, int step, int far_bit,
                               bool single)
{
    int captures = capture_moves(L, e, m);
    if (!captures)
        return false;
    tot->moves += captures;
    tot->long_moves += e ? captures : 0;
    tot->captures += captures;
    int removed = single ? 1 : m;
    tot->best_capture = removed > tot->best_capture ? removed : tot->best_capture;
    mark_struck(tot, l, s, step, m, single);
    return s == far_bit;
}

/* One direction of a line: `forward` says whether it faces the colour's far rank (a file or
 * diagonal, looking towards it), `far_bit` is that rank's bit on the line. */
static inline __attribute__((always_inline)) bool scan_direction(LineTotals *tot, Line v, int l, bool up, bool forward, int far_bit, bool single)
{
    uint32_t fronts = v.own & ~(up ? v.own >> 1 : v.own << 1), reach;
    int first, plain = plain_walk(fronts, v.own, v.empty, up, &first, &reach);
    tot->moves += plain;
    /* every k has one plain move with j = 1 when e > 0; the rest go 2 or more */
    tot->long_moves += plain - first;
    bool reaches = forward && (reach >> far_bit & 1);
    if (up) {
        for (uint32_t ss = (v.empty + (fronts << 1)) & ~v.empty & v.target; ss; ss &= ss - 1) {
            int b = __builtin_ctz(ss), e = run_below_at(v.empty, b - 1), L = run_below_at(v.own, b - 1 - e);
            reaches |= add_capture(tot, l, L, e, b, run_above(v.enemy, b), 1, far_bit, single) && forward;
        }
    } else {
        for (uint32_t f = (v.empty + (v.target << 1)) & ~v.empty & fronts; f; f &= f - 1) {
            int i = __builtin_ctz(f), e = run_below_at(v.empty, i - 1), s = i - 1 - e;
            reaches |= add_capture(tot, l, run_above(v.own, i), e, s, run_below_at(v.enemy, s), -1, far_bit, single) &&
                       forward;
        }
    }
    return reaches;
}

/* `frozen` and `single` are the rule flags of phalanx.h (Crossings both, Igfip frozen only),
 * constants wherever this is inlined. */
static inline __attribute__((always_inline)) void scan_line(LineTotals *tot, const PhalanxTables *t, const PhalanxPos *p, int c, int l,
                             bool frozen, bool single)
{
    uint32_t mine = p->lines[c][l];
    tot->pairs += __builtin_popcount(mine & mine >> 1);
    tot->triples += __builtin_popcount(mine & mine >> 1 & mine >> 2);
    Line v;
    if (frozen) {
        v = line_view(t, p, c, l);
    } else {
        uint32_t enemy = p->lines[!c][l];
        v = (Line){mine, t->valid[l] & ~(mine | enemy), enemy, enemy};
    }
    /* files and diagonals run with the rank: up faces White's far rank, down faces Black's */
    bool along_ranks = l >= COL0;
    int far_bit = t->far_rank[c];
    bool reaches = scan_direction(tot, v, l, true, along_ranks && c == WHITE, far_bit, single);
    reaches |= scan_direction(tot, v, l, false, along_ranks && c == BLACK, far_bit, single);
    if (reaches)
        tot->reach |= 1u << sq_file(line_square(l, far_bit));
}

/* One colour at a time, into a local total, so that the colour and its running sums are
 * constants and registers within the loop. */
static inline __attribute__((always_inline)) void scan_lines_of(const PhalanxTables *t, const PhalanxPos *p,
                                                                 LineTotals *out, int c, bool frozen, bool single)
{
    LineTotals tot = *out;
    for (int a = 0; a < t->num_active; a++) {
        int l = t->active[a];
        if (p->lines[c][l])
            scan_line(&tot, t, p, c, l, frozen, single);
    }
    *out = tot;
}

static inline void scan_lines_rules(const PhalanxTables *t, const PhalanxPos *p, LineTotals tot[2], bool frozen,
                                    bool single)
{
    scan_lines_of(t, p, &tot[WHITE], WHITE, frozen, single);
    scan_lines_of(t, p, &tot[BLACK], BLACK, frozen, single);
}

static void scan_lines(const PhalanxTables *t, const PhalanxPos *p, LineTotals tot[2])
{
    if (t->crossings)
        scan_lines_rules(t, p, tot, true, true);
    else if (t->igfip)
        scan_lines_rules(t, p, tot, true, false);
    else
        scan_lines_rules(t, p, tot, false, false);
}

static int set_count(const uint64_t set[4])
{
    return __builtin_popcountll(set[0]) + __builtin_popcountll(set[1]) + __builtin_popcountll(set[2]) +
           __builtin_popcountll(set[3]);
}

/* --- the rank pass ------------------------------------------------------------------------- */

typedef struct {
    int stones, progress;   /* progress: ranks advanced from the home rank, summed */
    int near_far[3];        /* stones 0, 1, 2 ranks short of the far rank */
    int in_enemy_zone;      /* stones in the three ranks nearest the far rank */
    int in_home_zone;       /* stones in the three ranks nearest the own home rank */
    int passed;
} RankTotals;

static int rank_stones(const PhalanxPos *p, int c, int r) { return __builtin_popcount(p->lines[c][ROW0 + r]); }

/* Ranks r counted from colour c's home rank (0) towards its far rank. */
static int rank_from_home(const PhalanxTables *t, int c, int r) { return c == WHITE ? r : t->height - 1 - r; }

static void scan_ranks_of(const PhalanxTables *t, const PhalanxPos *p, int c, RankTotals *rt)
{
    int h = t->height;
    for (int r = 0; r < h; r++) {
        int n = rank_stones(p, c, r), from_home = rank_from_home(t, c, r), to_far = h - 1 - from_home;
        rt->stones += n;
        rt->progress += n * from_home;
        if (to_far < 3) {
            rt->near_far[to_far] += n;
            rt->in_enemy_zone += n;
        }
        if (from_home < 3)
            rt->in_home_zone += n;
    }
}

/* Passed stones: walking from colour c's far rank back home, `ahead` holds the enemy stones of
 * the ranks already passed, spread one file each way. */
static int passed_stones(const PhalanxTables *t, const PhalanxPos *p, int c)
{
    uint32_t ahead = 0;
    int n = 0;
    for (int k = t->height - 1; k >= 0; k--) {
        int r = c == WHITE ? k : t->height - 1 - k;
        uint32_t row = p->lines[c][ROW0 + r];
        n += __builtin_popcount(row & ~(ahead | ahead << 1 | ahead >> 1));
        ahead |= p->lines[!c][ROW0 + r];
    }
    return n;
}

static void scan_ranks(const PhalanxTables *t, const PhalanxPos *p, RankTotals rt[2])
{
    for (int c = 0; c < 2; c++) {
        rt[c] = (RankTotals){0};
        scan_ranks_of(t, p, c, &rt[c]);
        rt[c].passed = passed_stones(t, p, c);
    }
}

static float mean_progress(const RankTotals *rt) { return rt->stones ? (float)rt->progress / (float)rt->stones : 0.0f; }

/* --- the vector ------------------------------------------------------------------------------ */

static void fill_line_features(const LineTotals *us, const LineTotals *them, float width, float *out)
{
    out[F_MOBILITY] = (float)(us->moves - them->moves) / (8 * width);
    out[F_LONG_MOVES] = (float)(us->long_moves - them->long_moves) / (4 * width);
    out[F_CAPTURES] = (float)(us->captures - them->captures) / width;
    out[F_TARGETS] = (float)set_count(us->struck) / width;
    out[F_EXPOSED] = (float)set_count(them->struck) / width;
    out[F_BEST_CAPTURE] = (float)us->best_capture / 4;
    out[F_REACH_NOW] = us->reach ? 1.0f : 0.0f;
    out[F_OPP_REACH] = (float)__builtin_popcount(them->reach) / 2;
    out[F_PAIRS] = (float)(us->pairs - them->pairs) / (4 * width);
    out[F_TRIPLES] = (float)(us->triples - them->triples) / (4 * width);
}

static void fill_rank_features(const RankTotals *us, const RankTotals *them, float width, float height,
                               float *out)
{
    out[F_MATERIAL] = (float)(us->stones - them->stones) / (2 * width);
    out[F_FAR_RANK] = (float)(us->near_far[0] - them->near_far[0]);
    out[F_ONE_FROM_FAR] = (float)(us->near_far[1] - them->near_far[1]) / 2;
    out[F_TWO_FROM_FAR] = (float)(us->near_far[2] - them->near_far[2]) / 4;
    /* their home zone is our enemy zone: attackers there against its defenders, both ways */
    int our_attack = us->in_enemy_zone - them->in_home_zone, their_attack = them->in_enemy_zone - us->in_home_zone;
    out[F_ATTACK_ZONE] = (float)(our_attack - their_attack) / width;
    out[F_MUST_ANSWER] = them->near_far[0] > us->near_far[0] ? 1.0f : 0.0f;
    out[F_PASSED] = (float)(us->passed - them->passed) / width;
    out[F_ADVANCEMENT] = (mean_progress(us) - mean_progress(them)) / (height - 1);
}

/* The vector from the line pass's totals; the rank pass is done here. */
static void fill_features(const PhalanxTables *t, const PhalanxPos *p, const LineTotals lt[2], float *out)
{
    RankTotals rt[2];
    scan_ranks(t, p, rt);
    int us = p->side;
    fill_line_features(&lt[us], &lt[!us], (float)t->width, out);
    fill_rank_features(&rt[us], &rt[!us], (float)t->width, (float)t->height, out);
}

void phalanx_features(const Game *g, const Position *pos, float *out)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    LineTotals lt[2] = {{0}, {0}};
    scan_lines(t, p, lt);
    fill_features(t, p, lt, out);
}

/* --- the incremental form ------------------------------------------------------------------ */

/* The line pass is a sum over lines of what each line adds, and what a line adds for a colour
 * depends only on the two colours' masks of that line.  So the cache keeps each line's share
 * and the shares' sum, and a new position rescans only the lines whose masks differ from the
 * last position's: a move changes about 7 of the ~90 lines that hold stones.  The integer
 * totals are the same as a full scan's, so the vector is the same bits.
 *
 * moves, long_moves, captures, pairs and triples add up; best_capture (a maximum), reach and
 * struck (unions) do not, so they are gathered at the end from the few "notable" lines whose
 * share has a capture (best_capture > 0 exactly when struck is not empty) or reaches the far
 * rank.  An all-zero cache is the empty board with all shares 0, so calloc makes a valid one. */
typedef struct {
    uint16_t lines[2][NUM_LINES];   /* the masks the shares were computed from */
    LineTotals share[2][NUM_LINES]; /* [colour][line] */
    LineTotals sum[2];              /* the additive fields of the shares, summed */
    LineSet notable[2];
} PhalanxFeatureCache;

_Static_assert(sizeof(PhalanxFeatureCache) <= PHALANX_FEATURE_CACHE_SIZE, "raise PHALANX_FEATURE_CACHE_SIZE");

/* Replaces the share of colour c on line l, keeping the sums and the notable set. */
static inline __attribute__((always_inline)) void rescan_line(PhalanxFeatureCache *fc, const PhalanxTables *t, const PhalanxPos *p, int c, int l,
                               bool frozen, bool single)
{
    LineTotals now = {0};
    if (p->lines[c][l])
        scan_line(&now, t, p, c, l, frozen, single);
    LineTotals *was = &fc->share[c][l], *sum = &fc->sum[c];
    sum->moves += now.moves - was->moves;
    sum->long_moves += now.long_moves - was->long_moves;
    sum->captures += now.captures - was->captures;
    sum->pairs += now.pairs - was->pairs;
    sum->triples += now.triples - was->triples;
    *was = now;
    uint64_t bit = 1ull << (l & 63), *word = &fc->notable[c].bits[l >> 6];
    *word = now.best_capture || now.reach ? *word | bit : *word & ~bit;
}

/* The lines where either colour's mask differs from the cached one.  Both colours' masks are
 * compared as 64-bit words of four lines (a line-by-line loop cost 800 instructions a call). */
static LineSet changed_since(const PhalanxFeatureCache *fc, const PhalanxPos *p)
{
    _Static_assert(sizeof fc->lines % 8 == 0 && sizeof fc->lines == sizeof p->lines, "masks in whole words");
    LineSet s = {{0, 0}};
    const unsigned char *old = (const unsigned char *)fc->lines, *now = (const unsigned char *)p->lines;
    for (int w = 0; w < (int)(sizeof fc->lines / 8); w++) {
        uint64_t a, b;
        memcpy(&a, old + 8 * w, 8);
        memcpy(&b, now + 8 * w, 8);
        for (uint64_t d = a ^ b; d;) {
            int lane = __builtin_ctzll(d) >> 4, i = 4 * w + lane;      /* [colour][line] flattened */
            lineset_add(&s, i < NUM_LINES ? i : i - NUM_LINES);
            d &= ~(0xFFFFull << 16 * lane);
        }
    }
    return s;
}

static inline void update_cache(PhalanxFeatureCache *fc, const PhalanxTables *t, const PhalanxPos *p, bool frozen,
                                bool single)
{
    LineSet dirty = changed_since(fc, p);
    for (int w = 0; w < 2; w++)
        for (uint64_t b = dirty.bits[w]; b; b &= b - 1) {
            int l = w * 64 + __builtin_ctzll(b);
            /* a colour with no stones on the line, before or after, has a share of 0 either way */
            if (p->lines[WHITE][l] | fc->lines[WHITE][l])
                rescan_line(fc, t, p, WHITE, l, frozen, single);
            if (p->lines[BLACK][l] | fc->lines[BLACK][l])
                rescan_line(fc, t, p, BLACK, l, frozen, single);
        }
    memcpy(fc->lines, p->lines, sizeof fc->lines);
}

/* The sums plus the non-additive fields of the notable lines: what scan_lines gives. */
static void cached_totals(const PhalanxFeatureCache *fc, LineTotals lt[2])
{
    for (int c = 0; c < 2; c++) {
        lt[c] = fc->sum[c];
        for (int w = 0; w < 2; w++)
            for (uint64_t b = fc->notable[c].bits[w]; b; b &= b - 1) {
                const LineTotals *s = &fc->share[c][w * 64 + __builtin_ctzll(b)];
                lt[c].best_capture = s->best_capture > lt[c].best_capture ? s->best_capture : lt[c].best_capture;
                lt[c].reach |= s->reach;
                for (int q = 0; q < 4; q++)
                    lt[c].struck[q] |= s->struck[q];
            }
    }
}

void phalanx_features_cached(const Game *g, void *cache, const Position *pos, float *out)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    PhalanxFeatureCache *fc = cache;
    if (t->crossings)
        update_cache(fc, t, p, true, true);
    else if (t->igfip)
        update_cache(fc, t, p, true, false);
    else
        update_cache(fc, t, p, false, false);
    LineTotals lt[2];
    cached_totals(fc, lt);
    fill_features(t, p, lt, out);
}
