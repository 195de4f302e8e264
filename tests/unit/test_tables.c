/*
 * test_tables.c - pattern tables and learned priors: the canonical numbering against counts
 * worked out by hand (Burnside's lemma), the symmetries the tables must respect (the eight of
 * the Reversi board, colours and ranks swapped in the phalanx games), Reversi's two ways of
 * reading its instances against each other, the phalanx games' 2-D families read against the
 * board square by square, feature entries inside their columns, and table weights files: round
 * trips, and every kind of damage refused with its reason.
 */
#include "core/pattern.h"
#include "core/policy.h"
#include "core/reversi.h"
#include "core/rng.h"
#include "core/value.h"
#include "data/weights.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static Game *open_game(TestContext *t, const char *variant)
{
    Error err;
    Game *g = game_new(variant, 0, 0, &err);
    CHECK(t, g != NULL);
    return g;
}

/* Tables of small random values (canonical, expanded to raw), owned by the caller. */
static float *random_tables(const PatternSet *ps, uint64_t seed)
{
    const size_t canonical = (size_t)ps->num_phases * ps->canonical_phase_size;
    float *c = malloc(canonical * sizeof *c), *raw = malloc((size_t)ps->num_phases * ps->raw_phase_size * sizeof *raw);
    Rng rng = rng_seed(seed, 0);
    for (size_t i = 0; c && i < canonical; i++)
        c[i] = (float)(rng_double(&rng) - 0.5);
    if (c && raw)
        pattern_expand(ps, c, raw);
    free(c);
    return raw;
}

/* --- the canonical numbering ------------------------------------------------------------------- */

static uint32_t power3(int n)
{
    uint32_t p = 1;
    while (n-- > 0)
        p *= 3;
    return p;
}

/* Orbits under one reflection that fixes f of n cells: (3^n + 3^(f + (n - f) / 2)) / 2. */
static uint32_t orbits(int n, int fixed)
{
    return (power3(n) + power3(fixed + (n - fixed) / 2)) / 2;
}

static void test_reversi_canonical_counts(TestContext *t)
{
    Game *g = open_game(t, "reversi");
    const PatternSet *ps = pattern_set_of(g);
    CHECK(t, ps);
    if (ps) {
        CHECK(t, ps->num_instances == 46);
        CHECK(t, ps->num_phases == 12);
    }
    /* corner3x3: the diagonal fixes a1, b2, c3; edge2x and the rows: a mirror fixes nothing;
     * corner2x5: no symmetry; the diagonals: the reversal fixes nothing (even) or the middle. */
    const struct { const char *name; uint32_t size; } want[] = {
        {"corner3x3", orbits(9, 3)}, {"corner2x5", power3(10)}, {"edge2x", orbits(10, 0)}, {"row2", orbits(8, 0)},
        {"diag8", orbits(8, 0)},     {"diag7", orbits(7, 1)},   {"diag5", orbits(5, 1)},   {"diag4", orbits(4, 0)},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        for (int s = 0; ps && s < ps->num_shapes; s++)
            if (strcmp(ps->shape[s].name, want[i].name) == 0 && ps->shape[s].canonical_size != want[i].size) {
                fprintf(stderr, "  %s: %u canonical entries, want %u\n", want[i].name, ps->shape[s].canonical_size,
                        want[i].size);
                t->failures++;
            }
    game_free(g);
}

static void test_expand_compress_round_trip(TestContext *t)
{
    const char *variants[] = {"reversi", "epaminondas", "crossings"};
    for (int v = 0; v < 3; v++) {
        Game *g = open_game(t, variants[v]);
        const PatternSet *ps = pattern_set_of(g);
        const size_t n = (size_t)ps->num_phases * ps->canonical_phase_size;
        float *raw = random_tables(ps, 3), *back = malloc(n * sizeof *back), *again = malloc(n * sizeof *again);
        pattern_compress(ps, raw, back);
        float *raw2 = malloc((size_t)ps->num_phases * ps->raw_phase_size * sizeof *raw2);
        pattern_expand(ps, back, raw2);
        pattern_compress(ps, raw2, again);
        CHECK(t, memcmp(back, again, n * sizeof *back) == 0);
        CHECK(t, memcmp(raw, raw2, (size_t)ps->num_phases * ps->raw_phase_size * sizeof *raw) == 0);
        free(raw);
        free(raw2);
        free(back);
        free(again);
        game_free(g);
    }
}

/* --- symmetries ------------------------------------------------------------------------------- */

/* Position text of the Reversi board under symmetry s (0-7) of the square. */
static void reversi_image(const Game *g, const Position *p, int s, char *out, size_t len)
{
    char grid[8][8];
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            grid[r][c] = game_square(g, p, c, 7 - r);   /* file c, rank counted from the bottom */
    char image[8][8];
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            const int rr[8] = {r, r, 7 - r, 7 - r, c, 7 - c, c, 7 - c}, cc[8] = {c, 7 - c, c, 7 - c, r, 7 - r, 7 - r, r};
            image[rr[s]][cc[s]] = grid[r][c];
        }
    size_t n = 0;
    for (int r = 0; r < 8; r++) {
        int empty = 0;
        for (int c = 0; c < 8; c++) {
            if (image[r][c] == '.') {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(out + n, len - n, "%d", empty);
            empty = 0;
            n += (size_t)snprintf(out + n, len - n, "%c", image[r][c]);
        }
        if (empty)
            n += (size_t)snprintf(out + n, len - n, "%d", empty);
        n += (size_t)snprintf(out + n, len - n, r < 7 ? "/" : "");
    }
    snprintf(out + n, len - n, " %c", game_side_to_move(g, p) == WHITE ? 'w' : 'b');
}

/* Random tables score a position and its seven images the same: every instance of a shape
 * reads one table, and a shape's own symmetries share entries. */
static void test_reversi_tables_symmetric(TestContext *t)
{
    Game *g = open_game(t, "reversi");
    const PatternSet *ps = pattern_set_of(g);
    float *tables = random_tables(ps, 11);
    Rng rng = rng_seed(5, 0);
    for (int k = 0; k < 40; k++) {
        Position p, q;
        test_random_position(g, &rng, 4 + k, &p);
        const double sum = pattern_sum(ps, tables, g, &p);
        for (int s = 1; s < 8; s++) {
            char text[128];
            Error err;
            reversi_image(g, &p, s, text, sizeof text);
            CHECK(t, game_parse_position(g, text, &q, &err));
            if (fabs(pattern_sum(ps, tables, g, &q) - sum) > 1e-4) {
                fprintf(stderr, "  symmetry %d of %s: %g, want %g\n", s, text, pattern_sum(ps, tables, g, &q), sum);
                t->failures++;
            }
        }
    }
    free(tables);
    game_free(g);
}

/* pext in software: the bits of x under mask, packed from bit 0 in square order. */
static uint64_t extract_bits(uint64_t x, uint64_t mask)
{
    uint64_t out = 0;
    for (int j = 0; mask; mask &= mask - 1, j++)
        out |= (x >> __builtin_ctzll(mask) & 1) << j;
    return out;
}

/* The raw indices the evaluation reads (by extraction where pext is fast) and the extraction
 * tables themselves against the disc by disc sums, from the opening to full boards. */
static void test_reversi_indices_both_ways(TestContext *t)
{
    Game *g = open_game(t, "reversi");
    const PatternSet *ps = pattern_set_of(g);
    const ReversiPatterns *rp = (const ReversiPatterns *)(const void *)ps;
    CHECK(t, ps->num_instances == REVERSI_INSTANCES);
    Rng rng = rng_seed(17, 0);
    int bad = 0;
    for (int k = 0; k < 300; k++) {
        Position p;
        test_random_position(g, &rng, k % 64, &p);
        uint32_t used[PATTERN_MAX_INSTANCES], by_discs[PATTERN_MAX_INSTANCES];
        ps->raw_indices(ps, g, &p, used);
        reversi_raw_indices_by_discs(rp, &p, by_discs);
        const Board b = load_board(&p);
        for (int i = 0; i < REVERSI_INSTANCES; i++) {
            const uint16_t *ternary = rp->ternary + rp->ternary_first[i];
            const uint32_t extracted = rp->offset[i] + ternary[extract_bits(b.own, rp->instance_mask[i])] +
                                       2u * ternary[extract_bits(b.opp, rp->instance_mask[i])];
            bad += used[i] != by_discs[i] || extracted != by_discs[i];
        }
    }
    CHECK(t, bad == 0);
    game_free(g);
}

/* The phalanx position seen from the other side: ranks upside down, colours swapped. */
static bool phalanx_flip(const Game *g, const Position *p, Position *out)
{
    char text[600], flipped[600];
    game_format_position(g, p, text, sizeof text);
    char *ranks[16];
    int n = 0;
    char *side = strchr(text, ' ');
    *side++ = '\0';
    for (char *r = strtok(text, "/"); r && n < 16; r = strtok(NULL, "/"))
        ranks[n++] = r;
    size_t used = 0;
    for (int i = n - 1; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            flipped[used++] = *c == 'W' ? 'B' : *c == 'B' ? 'W' : *c;
        flipped[used++] = i ? '/' : ' ';
    }
    flipped[used++] = *side == 'w' ? 'b' : 'w';
    flipped[used] = '\0';
    Error err;
    return game_parse_position(g, flipped, out, &err);
}

static int compare_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void test_phalanx_entries_colour_blind(TestContext *t)
{
    const char *variants[] = {"epaminondas", "crossings"};
    for (int v = 0; v < 2; v++) {
        Game *g = open_game(t, variants[v]);
        const PatternSet *ps = pattern_set_of(g);
        Rng rng = rng_seed(9, (uint64_t)v);
        for (int k = 0; k < 30; k++) {
            Position p, q;
            test_random_position(g, &rng, 1 + k, &p);
            CHECK(t, phalanx_flip(g, &p, &q));
            uint32_t a[PATTERN_MAX_INSTANCES], b[PATTERN_MAX_INSTANCES];
            const int n = pattern_canonical_entries(ps, g, &p, a);
            CHECK(t, pattern_canonical_entries(ps, g, &q, b) == n);
            /* The same configurations, up to the left-right mirror's renumbering of instances. */
            qsort(a, (size_t)n, sizeof a[0], compare_u32);
            qsort(b, (size_t)n, sizeof b[0], compare_u32);
            CHECK(t, memcmp(a, b, (size_t)n * sizeof a[0]) == 0);
        }
        game_free(g);
    }
}

static void test_phalanx_obstacles_left_out(TestContext *t)
{
    Error err;
    Position p;
    Game *plain = game_new("epaminondas", 8, 8, &err);
    Game *blocked = game_new_for_position("epaminondas", "BBBBBBBB/BBBBBBBB/8/3x4/4x3/8/WWWWWWWW/WWWWWWWW w", &p, &err);
    CHECK(t, plain);
    if (plain)
        CHECK(t, blocked);
    const PatternSet *a = pattern_set_of(plain), *b = pattern_set_of(blocked);
    CHECK(t, a);
    if (a) {
        CHECK(t, b);
        if (b) {
            CHECK(t, b->num_instances < a->num_instances);
            CHECK(t, a->id != b->id);
        }
    }
    game_free(plain);
    game_free(blocked);
}

/* The board of p as cells[rank][file]: 'W', 'B', 'x' or '.' (rank 0 White's home). */
static void board_cells(const Game *g, const Position *p, char cells[16][16])
{
    char text[600];
    game_format_position(g, p, text, sizeof text);
    int rank = g->height - 1, file = 0;
    for (const char *c = text; *c && *c != ' '; c++) {
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '0' && *c <= '9') {
            int n = *c - '0';
            if (c[1] >= '0' && c[1] <= '9')
                n = n * 10 + (*++c - '0');
            while (n-- > 0)
                cells[rank][file++] = '.';
        } else {
            cells[rank][file++] = *c;
        }
    }
}

/* A 2-D family as the test knows it: runs of `cells` squares stepping (cell_df, cell_dr), the
 * next run (part_df, part_dr) on. */
typedef struct {
    unsigned family;
    int parts, cells, part_df, part_dr, cell_df, cell_dr;
} Family;

/* Every instance of a 2-D family alone, in order (distance from home, then file), decoded from
 * its raw index, holds the squares of its window as the mover sees them: 0 empty, 1 its own
 * stone, 2 the opponent's, Black's board read upside down. */
static void check_family(TestContext *t, const Game *g, const Family *fam, Rng *rng)
{
    const PatternSet *ps = pattern_set_with(g, fam->family);
    CHECK(t, ps != NULL);
    if (ps != NULL)
        CHECK(t, ps->families == fam->family);
    if (!ps)
        return;
    const int span_f = (fam->parts - 1) * fam->part_df + (fam->cells - 1) * fam->cell_df;
    const int span_r = (fam->parts - 1) * fam->part_dr + (fam->cells - 1) * fam->cell_dr;
    CHECK(t, ps->num_instances == (g->width - span_f) * (g->height - span_r));
    CHECK(t, ps->num_shapes == g->height - span_r);
    for (int k = 0; k < 20; k++) {
        Position p;
        test_random_position(g, rng, 2 * k, &p);
        char cells[16][16];
        board_cells(g, &p, cells);
        const char own = game_side_to_move(g, &p) == WHITE ? 'W' : 'B', theirs = own == 'W' ? 'B' : 'W';
        uint32_t raw[PATTERN_MAX_INSTANCES];
        ps->raw_indices(ps, g, &p, raw);
        int bad = 0;
        for (int i = 0; i < ps->num_instances; i++) {
            const int dist = i / (g->width - span_f), file = i % (g->width - span_f);
            const PatternShape *shape = &ps->shape[ps->instance_shape[i]];
            uint32_t number = raw[i] - shape->raw_offset;
            bad += shape != &ps->shape[dist] || number >= shape->raw_size;
            for (int j = 0; j < fam->parts; j++)
                for (int c = 0; c < fam->cells; c++, number /= 3) {
                    const int f = file + j * fam->part_df + c * fam->cell_df;
                    int r = dist + j * fam->part_dr + c * fam->cell_dr;
                    r = own == 'W' ? r : g->height - 1 - r;
                    const uint32_t want = cells[r][f] == own ? 1 : cells[r][f] == theirs ? 2 : 0;
                    bad += number % 3 != want;
                }
        }
        CHECK(t, bad == 0);
    }
}

static void test_phalanx_families_read_the_board(TestContext *t)
{
    static const Family families[] = {
        {PATTERN_2X4, 2, 4, 0, 1, 1, 0},
        {PATTERN_4X2, 2, 4, 1, 0, 0, 1},
        {PATTERN_3X3, 3, 3, 0, 1, 1, 0},
    };
    const struct { const char *variant; int w, h; } boards[] = {{"crossings", 8, 8}, {"epaminondas", 14, 12},
                                                                {"epaminondas", 5, 6}, {"igfip", 14, 12}};
    for (int b = 0; b < 4; b++) {
        Error err;
        Game *g = game_new(boards[b].variant, boards[b].w, boards[b].h, &err);
        CHECK(t, g != NULL);
        Rng rng = rng_seed(31, (uint64_t)b);
        for (int f = 0; g && f < 3; f++)
            check_family(t, g, &families[f], &rng);
        game_free(g);
    }
}

/* The base set is the one every file before the families was made for (its id pinned: files
 * of base tables name it), and a set with more families reads the base instances first, as the
 * tuner's warm start assumes; every family shares the mirror image's table (the position read
 * right to left). */
static void test_phalanx_families_extend_the_base(TestContext *t)
{
    Game *g = open_game(t, "crossings");
    const PatternSet *base = pattern_set_of(g), *all = pattern_set_with(g, PATTERN_ALL_FAMILIES);
    CHECK(t, base);
    if (base) {
        CHECK(t, all);
        if (all) {
            CHECK(t, base == pattern_set_with(g, 0));
            CHECK(t, base->id == UINT64_C(0xd5e06e719f547304));
            CHECK(t, all->id != base->id);
        }
    }
    CHECK(t, base->families == PATTERN_BASE);
    CHECK(t, pattern_set_with(g, 16) == NULL);
    /* 10^5 - 10^6 entries: 4 phases of the base's 1,170 + 7 x 3,321 (2x4) + 5 x 3,321 (4x2) + 6 x 10,206 (3x3) */
    CHECK(t, all->canonical_phase_size == base->canonical_phase_size + 12 * 3321 + 6 * 10206);
    Rng rng = rng_seed(5, 0);
    for (int k = 0; k < 20; k++) {
        Position p, q;
        test_random_position(g, &rng, 3 * k, &p);
        uint32_t a[PATTERN_MAX_INSTANCES], b[PATTERN_MAX_INSTANCES];
        const int n = pattern_canonical_entries(base, g, &p, a);
        pattern_canonical_entries(all, g, &p, b);
        for (int i = 0; i < n; i++)      /* the same entries, each phase's base part first */
            b[i] = b[i] % all->canonical_phase_size + (b[i] / all->canonical_phase_size) * base->canonical_phase_size;
        CHECK(t, memcmp(a, b, (size_t)n * sizeof a[0]) == 0);
        /* the mirror image: the same configurations, instances renumbered */
        char text[600], mirrored[600];
        game_format_position(g, &p, text, sizeof text);
        size_t at = 0;
        for (char *rank = strtok(text, "/"); rank; rank = strtok(NULL, "/")) {
            char *space = strchr(rank, ' ');
            const size_t len = space ? (size_t)(space - rank) : strlen(rank);
            for (size_t c = len; c-- > 0;)
                mirrored[at++] = rank[c];
            at += (size_t)snprintf(mirrored + at, sizeof mirrored - at, "%s", space ? space : "/");
        }
        Error err;
        CHECK(t, game_parse_position(g, mirrored, &q, &err));
        const int m = pattern_canonical_entries(all, g, &p, a);
        CHECK(t, pattern_canonical_entries(all, g, &q, b) == m);
        qsort(a, (size_t)m, sizeof a[0], compare_u32);
        qsort(b, (size_t)m, sizeof b[0], compare_u32);
        CHECK(t, memcmp(a, b, (size_t)m * sizeof a[0]) == 0);
    }
    game_free(g);
}

/* --- learned priors --------------------------------------------------------------------------- */

static void test_policy_entries_in_columns(TestContext *t)
{
    const char *variants[] = {"reversi", "epaminondas", "crossings"};
    for (int v = 0; v < 3; v++) {
        Game *g = open_game(t, variants[v]);
        const PolicySet *set = policy_set_of(g);
        CHECK(t, set);
        if (set) {
            CHECK(t, set->columns <= POLICY_MAX_COLUMNS);
            if (set->columns <= POLICY_MAX_COLUMNS)
                CHECK(t, set->column_offset[set->columns] == set->size);
        }
        Rng rng = rng_seed(13, (uint64_t)v);
        Move *moves = malloc(MAX_MOVES * sizeof *moves);
        uint32_t *entries = malloc((size_t)MAX_MOVES * POLICY_MAX_COLUMNS * sizeof *entries);
        for (int k = 0; k < 60; k++) {
            Position p;
            test_random_position(g, &rng, k, &p);
            const int n = game_gen_moves(g, &p, moves);
            set->move_entries(g, &p, moves, n, entries);
            for (int i = 0; i < n; i++)
                for (int c = 0; c < set->columns; c++) {
                    const uint32_t e = entries[i * set->columns + c];
                    if (e < set->column_offset[c] || e >= set->column_offset[c + 1]) {
                        fprintf(stderr, "  %s: move %d column %s entry %u outside [%u, %u)\n", variants[v], i,
                                set->column_names[c], e, set->column_offset[c], set->column_offset[c + 1]);
                        t->failures++;
                    }
                }
        }
        free(moves);
        free(entries);
        game_free(g);
    }
}

/* The Reversi neighbourhood column against the fold worked out square by square: the square's
 * row and column mirrored into the lower half, then transposed into a <= b; each neighbour's
 * offset turned the same way; a square on a diagonal read both ways, the smaller reading kept. */
static uint32_t folded_neighbourhood(const Board *b, int sq, int *square_class)
{
    static const int OFFSETS[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
    static const int FIRST_OF_ROW[4] = {0, 4, 7, 9};
    int r = sq / 8, c = sq % 8;
    const bool flip_row = r > 3, flip_col = c > 3;
    r = flip_row ? 7 - r : r;
    c = flip_col ? 7 - c : c;
    const int a = r < c ? r : c, bb = r < c ? c : r;
    *square_class = FIRST_OF_ROW[a] + bb - a;
    uint32_t best = UINT32_MAX;
    for (int reading = 0; reading < (a == bb ? 2 : 1); reading++) {
        const bool transpose = (r > c) != (reading == 1);
        uint32_t index = 0;
        for (int k = 7; k >= 0; k--) {
            int dr = OFFSETS[k][transpose ? 1 : 0], dc = OFFSETS[k][transpose ? 0 : 1];
            dr = flip_row ? -dr : dr;
            dc = flip_col ? -dc : dc;
            const int nr = sq / 8 + dr, nc = sq % 8 + dc, at = nr * 8 + nc;
            const bool on = nr >= 0 && nr < 8 && nc >= 0 && nc < 8;
            index = index * 3 + (on ? (uint32_t)((b->own >> at) & 1) + 2 * (uint32_t)((b->opp >> at) & 1) : 0);
        }
        best = index < best ? index : best;
    }
    return best;
}

static void test_reversi_neighbourhood_table(TestContext *t)
{
    enum { NEIGHBOURS_COLUMN = 4, NEIGHBOURS = 6561 };
    Game *g = open_game(t, "reversi");
    const PolicySet *set = policy_set_of(g);
    CHECK(t, strcmp(set->column_names[NEIGHBOURS_COLUMN], "neighbours") == 0);
    Rng rng = rng_seed(29, 0);
    Move moves[MAX_MOVES];
    uint32_t entries[MAX_MOVES * POLICY_MAX_COLUMNS];
    int checked = 0;
    for (int k = 0; k < 400; k++) {
        Position p;
        test_random_position(g, &rng, k % 60, &p);
        const Board b = load_board(&p);
        const int n = game_gen_moves(g, &p, moves);
        set->move_entries(g, &p, moves, n, entries);
        for (int i = 0; i < n; i++) {
            if (moves[i] == MOVE_PASS)
                continue;
            int square_class;
            const uint32_t index = folded_neighbourhood(&b, (int)moves[i], &square_class);
            const uint32_t want = set->column_offset[NEIGHBOURS_COLUMN] + (uint32_t)square_class * NEIGHBOURS + index;
            CHECK(t, entries[i * set->columns + NEIGHBOURS_COLUMN] == want);
            checked++;
        }
    }
    CHECK(t, checked > 2000);
    game_free(g);
}

/* Zero weights give every move the same prior; a weight on one entry favours exactly the moves
 * that have it, by e^w. */
static void test_policy_priors(TestContext *t)
{
    Game *g = open_game(t, "reversi");
    const PolicySet *set = policy_set_of(g);
    float *w = calloc(set->size, sizeof *w);
    Position p;
    game_start(g, &p);
    Move moves[MAX_MOVES];
    float priors[MAX_MOVES];
    uint32_t entries[MAX_MOVES * POLICY_MAX_COLUMNS];
    const int n = game_gen_moves(g, &p, moves);
    policy_priors(set, w, g, &p, moves, n, priors);
    for (int i = 0; i < n; i++)
        CHECK(t, priors[i] == 1.0f);
    set->move_entries(g, &p, moves, n, entries);
    w[entries[0]] = 1.0f;   /* the first move's square class */
    policy_priors(set, w, g, &p, moves, n, priors);
    for (int i = 0; i < n; i++) {
        const bool shares = entries[i * set->columns] == entries[0];
        CHECK(t, fabsf(priors[i] - (shares ? 1.0f : expf(-1.0f))) < 1e-6f);
    }
    free(w);
    game_free(g);
}

/* --- table weights files ----------------------------------------------------------------------- */

typedef struct {
    char dir[64];
} TempDir;

static void path_in(const TempDir *d, const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", d->dir, name);
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = malloc(1 << 24);
    *size = buf ? fread(buf, 1, 1 << 24, f) : 0;
    fclose(f);
    return buf;
}

static void write_all(const char *path, const unsigned char *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(bytes, 1, size, f);
        fclose(f);
    }
}

/* Weights with random tables of the families' set and priors for g. */
static void family_weights(const Game *g, unsigned families, Weights *w)
{
    weights_zero(g, w);
    for (int i = 0; i < w->count; i++)
        w->w[i] = (i + 1) / 8.0;
    const PatternSet *ps = pattern_set_with(g, families);
    w->tables = random_tables(ps, 17);
    w->num_tables = (size_t)ps->num_phases * ps->raw_phase_size;
    w->pattern_id = ps->id;
    w->pattern_families = ps->families;
    const PolicySet *pol = policy_set_of(g);
    w->policy = malloc(pol->size * sizeof *w->policy);
    for (uint32_t i = 0; i < pol->size; i++)
        w->policy[i] = (float)i / (float)pol->size - 0.5f;
    w->num_policy = pol->size;
    w->policy_id = pol->id;
}

static void table_weights(const Game *g, Weights *w) { family_weights(g, PATTERN_BASE, w); }

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_table_file_round_trip(TestContext *t)
{
    TempDir d = {"/tmp/leuctra-tables-XXXXXX"};
    CHECK(t, mkdtemp(d.dir) != NULL);
    const char *variants[] = {"reversi", "epaminondas", "crossings"};
    const unsigned families[] = {PATTERN_BASE, PATTERN_BASE, PATTERN_ALL_FAMILIES};
    for (int v = 0; v < 3; v++) {
        Game *g = open_game(t, variants[v]);
        Weights w, back;
        family_weights(g, families[v], &w);
        char path[128];
        path_in(&d, "w.lwt", path, sizeof path);
        Error err;
        CHECK(t, weights_save(g, &w, "made by test_tables.c\nsecond line", path, &err));
        CHECK(t, weights_load(g, path, &back, &err));
        CHECK(t, back.tables);
        if (back.tables) {
            CHECK(t, back.num_tables == w.num_tables);
            if (back.num_tables == w.num_tables)
                CHECK(t, memcmp(back.tables, w.tables, w.num_tables * sizeof *w.tables) == 0);
        }
        CHECK(t, back.policy);
        if (back.policy) {
            CHECK(t, back.num_policy == w.num_policy);
            if (back.num_policy == w.num_policy)
                CHECK(t, memcmp(back.policy, w.policy, w.num_policy * sizeof *w.policy) == 0);
        }
        CHECK(t, memcmp(back.w, w.w, sizeof w.w) == 0);
        CHECK(t, weights_id(&back) == weights_id(&w));
        CHECK(t, back.pattern_families == families[v]);
        CHECK(t, back.pattern_id == w.pattern_id);
        size_t size = 0;
        unsigned char *bytes = read_all(path, &size);
        /* header bytes 48-51: 0 for the base set, as in every file from before the families */
        CHECK(t, bytes && size > 64 && get_u32(bytes + 48) == (families[v] == PATTERN_BASE ? 0 : families[v]));
        free(bytes);
        Weights linear = w;
        linear.tables = NULL;
        linear.policy = NULL;
        CHECK(t, weights_id(&linear) != weights_id(&w));
        Position p;
        game_start(g, &p);
        CHECK(t, value_logit(g, &back, &p) == value_logit(g, &w, &p));
        weights_dispose(&w);
        weights_dispose(&back);
        unlink(path);
        game_free(g);
    }
    rmdir(d.dir);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Both CRC-32s of a table file (of its header, of all before the last four bytes) made right. */
static void repair_crcs(unsigned char *b, size_t size)
{
    put_u32(b + 60, (uint32_t)crc32(0L, b, 60));
    put_u32(b + size - 4, (uint32_t)crc32(0L, b, (uInt)(size - 4)));
}

/* Writes `bytes` changed by `damage` and returns the load's error message. */
static const char *load_damaged(const Game *g, const TempDir *d, unsigned char *bytes, size_t size, Error *err)
{
    char path[128];
    path_in(d, "bad.lwt", path, sizeof path);
    write_all(path, bytes, size);
    Weights w;
    err->msg[0] = '\0';
    if (weights_load(g, path, &w, err)) {
        weights_dispose(&w);
        snprintf(err->msg, sizeof err->msg, "(loaded)");
    }
    unlink(path);
    return err->msg;
}

static void test_table_file_damage(TestContext *t)
{
    TempDir d = {"/tmp/leuctra-tables-XXXXXX"};
    CHECK(t, mkdtemp(d.dir) != NULL);
    Game *g = open_game(t, "reversi"), *other = open_game(t, "epaminondas");
    Weights w;
    table_weights(g, &w);
    char path[128];
    path_in(&d, "good.lwt", path, sizeof path);
    Error err;
    CHECK(t, weights_save(g, &w, NULL, path, &err));
    size_t size = 0;
    unsigned char *good = read_all(path, &size), *bad = malloc(size ? size : 1);
    CHECK(t, good);
    if (good) {
        CHECK(t, bad);
        if (bad)
            CHECK(t, size > 100);
    }
    const struct { size_t at; int flip; size_t cut; const char *want; } cases[] = {
        {0, 0, size / 2, "truncated weights file"},
        {0, 0, 30, "truncated weights file"},
        {size - 10, 0x40, size, "checksum mismatch"},
        {70, 0x01, size, "checksum mismatch"},
        {9, 0x01, size, "header checksum mismatch"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, good, size);
        bad[cases[i].at] ^= (unsigned char)cases[i].flip;
        const char *msg = load_damaged(g, &d, bad, cases[i].cut, &err);
        if (!strstr(msg, cases[i].want) || !strstr(msg, "bad.lwt")) {
            fprintf(stderr, "  case %zu: \"%s\", want \"%s\"\n", i, msg, cases[i].want);
            t->failures++;
        }
    }
    /* Whole and sound, but for another game: the refusal names the game and board it is for. */
    memcpy(bad, good, size);
    CHECK(t, strstr(load_damaged(other, &d, bad, size, &err), "are for reversi 8x8, not epaminondas 14x12") != NULL);
    /* Damage the checksums cannot see, since they are recomputed: a reserved byte, bytes after the
     * zlib stream (the header's length covering them), a finite value too large to evaluate. */
    memcpy(bad, good, size);
    bad[53] = 1;
    repair_crcs(bad, size);
    CHECK(t, strstr(load_damaged(g, &d, bad, size, &err), "reserved header byte 53 is 1") != NULL);
    /* the pattern families: no known mask, or one that Reversi has no set of */
    memcpy(bad, good, size);
    bad[48] = 16;
    repair_crcs(bad, size);
    CHECK(t, strstr(load_damaged(g, &d, bad, size, &err), "pattern families 16, not a mask of the known ones") != NULL);
    bad[48] = PATTERN_2X4;
    repair_crcs(bad, size);
    CHECK(t, strstr(load_damaged(g, &d, bad, size, &err), "tables of the shapes 2x4, which reversi 8x8 has not") != NULL);
    unsigned char *junk = malloc(size + 3);
    memcpy(junk, good, size - 4);
    memcpy(junk + size - 4, "\0\0\0", 3);
    put_u32(junk + 44, get_u32(junk + 44) + 3);
    repair_crcs(junk, size + 3);
    CHECK(t, strstr(load_damaged(g, &d, junk, size + 3, &err), "3 bytes after the end of the compressed table values") != NULL);
    free(junk);
    Weights huge = w;
    float *tables = malloc(w.num_tables * sizeof *tables);
    memcpy(tables, w.tables, w.num_tables * sizeof *tables);
    tables[pattern_set_of(g)->shape[0].raw_offset] = 3e38f;
    huge.tables = tables;
    CHECK(t, !weights_save(g, &huge, NULL, path, &err) && strstr(err.msg, "table entry") && strstr(err.msg, "beyond"));
    size_t huge_size, text_len;
    const char *text_part = weights_table_file_text(good, size, &text_len);
    char *text = text_part ? strndup(text_part, text_len) : NULL;
    unsigned char *huge_bytes = text ? weights_tables_encode(g, &huge, text, &huge_size) : NULL;
    CHECK(t, huge_bytes);
    if (huge_bytes)
        CHECK(t, strstr(load_damaged(g, &d, huge_bytes, huge_size, &err), "is 3e+38, beyond +-1e+06") != NULL);
    free(huge_bytes);
    free(text);
    free(tables);
    /* One byte longer than the header says. */
    unsigned char *longer = malloc(size + 1);
    memcpy(longer, good, size);
    longer[size] = 0;
    CHECK(t, strstr(load_damaged(g, &d, longer, size + 1, &err), "overlong weights file") != NULL);
    free(longer);
    weights_dispose(&w);
    free(good);
    free(bad);
    unlink(path);
    rmdir(d.dir);
    game_free(g);
    game_free(other);
}

const TestCase tables_tests[] = {
    {"reversi_canonical_counts", test_reversi_canonical_counts},
    {"expand_compress_round_trip", test_expand_compress_round_trip},
    {"reversi_tables_symmetric", test_reversi_tables_symmetric},
    {"reversi_indices_both_ways", test_reversi_indices_both_ways},
    {"phalanx_entries_colour_blind", test_phalanx_entries_colour_blind},
    {"phalanx_obstacles_left_out", test_phalanx_obstacles_left_out},
    {"phalanx_families_read_the_board", test_phalanx_families_read_the_board},
    {"phalanx_families_extend_the_base", test_phalanx_families_extend_the_base},
    {"policy_entries_in_columns", test_policy_entries_in_columns},
    {"policy_priors", test_policy_priors},
    {"reversi_neighbourhood_table", test_reversi_neighbourhood_table},
    {"table_file_round_trip", test_table_file_round_trip},
    {"table_file_damage", test_table_file_damage},
    TEST_END,
};
