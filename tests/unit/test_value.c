/*
 * test_value.c - the evaluation features and move priors of every game (docs/FEATURES.md):
 * hand-made positions with values worked out by hand, invariance under the symmetries that
 * should not change a feature (mirroring the files; mirroring the ranks with colours and the side
 * to move swapped), a slow reference for the phalanx features built from the move generator and
 * a plain grid, bounds on thousands of random-playout positions, and the orderings the priors
 * promise.
 */
#include "core/rng.h"
#include "core/value.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static float feature(const Game *g, const Position *pos, const char *name)
{
    float f[MAX_FEATURES];
    value_features(g, pos, f);
    int i = value_feature_index(g, name);
    return i < 0 ? NAN : f[i];
}

#define CHECK_FEATURE(t, g, pos, name, want)                                                            \
    do {                                                                                                \
        float got_ = feature(g, pos, name);                                                             \
        if (!(fabsf(got_ - (float)(want)) < 1e-6f)) {                                                   \
            fprintf(stderr, "  %s:%d: feature %s = %g, want %g\n", __FILE__, __LINE__, name, got_, (double)(want)); \
            (t)->failures++;                                                                            \
        }                                                                                               \
    } while (0)

/* Random positions along uniformly random games from the start. */
static int random_positions(const Game *g, uint64_t seed, Position *out, int count)
{
    Move moves[MAX_MOVES];
    Rng rng = rng_seed(seed, 0);
    int n = 0;
    while (n < count) {
        Position p;
        game_start(g, &p);
        for (int ply = 0; ply < 300 && n < count; ply++) {
            int k = game_gen_moves(g, &p, moves);
            out[n++] = p;
            if (k == 0)
                break;
            Undo u;
            game_make(g, &p, moves[rng_below(&rng, (uint32_t)k)], &u);
        }
    }
    return n;
}

/* --- position strings on a grid: mirrors and colour swaps ----------------------------------- */

typedef struct {
    int width, height;
    char cell[16][17];      /* [row of the string, top first][file]: 'W', 'B', 'x', '.' */
    char side;
} TextGrid;

static void grid_read(const char *text, TextGrid *g)
{
    memset(g, 0, sizeof *g);
    int row = 0, col = 0;
    for (const char *s = text; *s && *s != ' '; s++) {
        if (*s == '/') {
            g->width = col;
            row++;
            col = 0;
        } else if (*s >= '0' && *s <= '9') {
            int n = (int)strtol(s, (char **)&s, 10);
            s--;
            while (n--)
                g->cell[row][col++] = '.';
        } else {
            g->cell[row][col++] = *s;
        }
    }
    g->width = col;
    g->height = row + 1;
    g->side = strchr(text, ' ')[1];
}

static void grid_write(const TextGrid *g, char *out)
{
    for (int r = 0; r < g->height; r++) {
        int empty = 0;
        for (int c = 0; c < g->width; c++) {
            if (g->cell[r][c] == '.') {
                empty++;
                continue;
            }
            if (empty)
                out += sprintf(out, "%d", empty);
            empty = 0;
            *out++ = g->cell[r][c];
        }
        if (empty)
            out += sprintf(out, "%d", empty);
        *out++ = r + 1 < g->height ? '/' : ' ';
    }
    sprintf(out, "%c", g->side);
}

static char swap_colour(char c) { return c == 'W' ? 'B' : c == 'B' ? 'W' : c; }

/* Files mirrored (a <-> h): left and right mean nothing to any feature. */
static void mirror_files(const char *text, char *out)
{
    TextGrid g, m;
    grid_read(text, &g);
    m = g;
    for (int r = 0; r < g.height; r++)
        for (int c = 0; c < g.width; c++)
            m.cell[r][c] = g.cell[r][g.width - 1 - c];
    grid_write(&m, out);
}

/* Ranks mirrored with the colours swapped and the other side to move: the same position seen
 * from the other chair, so every side-to-move feature must be the same. */
static void mirror_ranks_swap_colours(const char *text, char *out)
{
    TextGrid g, m;
    grid_read(text, &g);
    m = g;
    for (int r = 0; r < g.height; r++)
        for (int c = 0; c < g.width; c++)
            m.cell[r][c] = swap_colour(g.cell[g.height - 1 - r][c]);
    m.side = g.side == 'w' ? 'b' : 'w';
    grid_write(&m, out);
}

/* Ranks mirrored, nothing else: Reversi has no home ranks, so top and bottom mean nothing. */
static void mirror_ranks(const char *text, char *out)
{
    TextGrid g, m;
    grid_read(text, &g);
    m = g;
    for (int r = 0; r < g.height; r++)
        for (int c = 0; c < g.width; c++)
            m.cell[r][c] = g.cell[g.height - 1 - r][c];
    grid_write(&m, out);
}

/* Colours and the side to move swapped (Reversi: the same position from the other chair). */
static void swap_colours_and_side(const char *text, char *out)
{
    TextGrid g;
    grid_read(text, &g);
    for (int r = 0; r < g.height; r++)
        for (int c = 0; c < g.width; c++)
            g.cell[r][c] = swap_colour(g.cell[r][c]);
    g.side = g.side == 'w' ? 'b' : 'w';
    grid_write(&g, out);
}

/* The same board with the other side to move. */
static bool other_side(const Game *g, const Position *pos, Position *out)
{
    char text[512];
    game_format_position(g, pos, text, sizeof text);
    char *side = strrchr(text, ' ') + 1;
    *side = *side == 'w' ? 'b' : 'w';
    return game_parse_position(g, text, out, NULL);
}

static bool same_features(const Game *g, const Position *a, const Position *b, int *first_diff)
{
    float fa[MAX_FEATURES], fb[MAX_FEATURES];
    value_features(g, a, fa);
    value_features(g, b, fb);
    for (int i = 0; i < g->ops->num_features; i++)
        if (fa[i] != fb[i]) {
            *first_diff = i;
            return false;
        }
    return true;
}

typedef void (*Transform)(const char *text, char *out);

static void check_invariant(TestContext *t, const char *variant, int w, int h, Transform tf, const char *what)
{
    Error err;
    Game *g = game_new(variant, w, h, &err);
    enum { COUNT = 400 };
    Position *pos = malloc(sizeof *pos * COUNT);
    int n = random_positions(g, 11, pos, COUNT);
    for (int i = 0; i < n; i++) {
        char text[512], changed[512];
        game_format_position(g, &pos[i], text, sizeof text);
        tf(text, changed);
        Position other;
        int diff = 0;
        if (!game_parse_position(g, changed, &other, &err)) {
            fprintf(stderr, "  %s of '%s' does not parse: %s\n", what, text, err.msg);
            t->failures++;
            break;
        }
        if (!same_features(g, &pos[i], &other, &diff)) {
            fprintf(stderr, "  %s %s: feature %s differs for '%s'\n", variant, what, g->ops->feature_names[diff], text);
            t->failures++;
            break;
        }
    }
    free(pos);
    game_free(g);
}

/* --- the feature lists ------------------------------------------------------------------------- */

static void check_names(TestContext *t, const char *variant)
{
    Error err;
    Game *g = game_new(variant, 0, 0, &err);
    int n = g->ops->num_features;
    CHECK(t, n > 0);
    CHECK(t, n <= MAX_FEATURES);
    CHECK(t, g->ops->features != NULL);
    if (g->ops->features != NULL)
        CHECK(t, g->ops->move_priors != NULL);
    for (int i = 0; i < n; i++) {
        const char *name = g->ops->feature_names[i];
        CHECK(t, name);
        if (name) {
            CHECK(t, name[0]);
            if (name[0])
                CHECK(t, strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(name));
        }
        CHECK(t, g->ops->feature_help[i]);
        CHECK(t, g->ops->feature_help[i][0]);
        CHECK(t, value_feature_index(g, name) == i);   /* names are unique */
    }
    CHECK(t, value_feature_index(g, "no_such_feature") == -1);
    game_free(g);
}

static void test_feature_names(TestContext *t)
{
    check_names(t, "epaminondas");
    check_names(t, "crossings");
    check_names(t, "reversi");
}

/* --- hand-made positions ---------------------------------------------------------------------- */

/* Start positions are symmetric: every phalanx feature is 0; Reversi's too but parity (60 empty
 * squares: even, so the opponent moves last). */
static void test_start_positions(TestContext *t)
{
    const char *variants[] = {"epaminondas", "crossings", "reversi"};
    for (int v = 0; v < 3; v++) {
        Error err;
        Game *g = game_new(variants[v], 0, 0, &err);
        Position pos;
        game_start(g, &pos);
        float f[MAX_FEATURES];
        value_features(g, &pos, f);
        for (int i = 0; i < g->ops->num_features; i++) {
            float want = strcmp(g->ops->feature_names[i], "parity") == 0 ? -1.0f : 0.0f;
            if (f[i] != want) {
                fprintf(stderr, "  %s start: %s = %g, want %g\n", variants[v], g->ops->feature_names[i], f[i], want);
                t->failures++;
            }
        }
        game_free(g);
    }
}

/* 5x6, White to move: a5 one step from the far rank, the pair c1-c2 facing a lone black c3. */
static const char *const PHALANX_SAMPLE = "5/W4/5/2B2/2W2/2W2 w";

static void test_phalanx_hand_made(TestContext *t)
{
    Position pos;
    Game *g = test_open_position(t, "epaminondas", PHALANX_SAMPLE, &pos);
    if (!g)
        return;
    CHECK_FEATURE(t, g, &pos, "material", (3 - 1) / 10.0);
    CHECK_FEATURE(t, g, &pos, "far_rank", 0);
    CHECK_FEATURE(t, g, &pos, "one_from_far", 1 / 2.0);         /* a5 */
    CHECK_FEATURE(t, g, &pos, "two_from_far", -1 / 4.0);        /* black c3 */
    CHECK_FEATURE(t, g, &pos, "reach_now", 1);                  /* a5-a6, a5-b6 */
    CHECK_FEATURE(t, g, &pos, "opp_reach", 0);
    CHECK_FEATURE(t, g, &pos, "must_answer", 0);
    CHECK_FEATURE(t, g, &pos, "captures", 1 / 5.0);             /* c1xc2 */
    CHECK_FEATURE(t, g, &pos, "targets", 1 / 5.0);
    CHECK_FEATURE(t, g, &pos, "exposed", 0);
    CHECK_FEATURE(t, g, &pos, "best_capture", 1 / 4.0);
    /* mean ranks advanced: White (4 + 1 + 0) / 3, Black 3 */
    CHECK_FEATURE(t, g, &pos, "advancement", (5 / 3.0 - 3) / 5);
    /* our attack: a5 in Black's zone, no defender; theirs: c3 in ours against c1, c2 */
    CHECK_FEATURE(t, g, &pos, "attack_zone", ((1 - 0) - (1 - 2)) / 5.0);
    CHECK_FEATURE(t, g, &pos, "passed", 1 / 5.0);               /* a5; c3 blocks c1, c2 and vice versa */
    CHECK_FEATURE(t, g, &pos, "pairs", 1 / 20.0);               /* c1-c2 */
    CHECK_FEATURE(t, g, &pos, "triples", 0);
    game_free(g);
}

/* Home ranks: White has reached Black's home rank, so Black must answer (Epaminondas) or, in
 * Crossings, a white tower forces Black to make one. */
static void test_phalanx_answering(TestContext *t)
{
    Position pos;
    Game *g = test_open_position(t, "epaminondas", "W4/5/5/5/1B3/5 b", &pos);
    if (g) {
        CHECK_FEATURE(t, g, &pos, "far_rank", -1);
        CHECK_FEATURE(t, g, &pos, "must_answer", 1);
        CHECK_FEATURE(t, g, &pos, "reach_now", 1);    /* b2-b1, b2-a1, b2-c1 */
        CHECK_FEATURE(t, g, &pos, "one_from_far", 1 / 2.0);
        game_free(g);
    }
    g = test_open_position(t, "crossings", "3W4/8/8/8/8/8/1B6/8 b", &pos);
    if (g) {
        CHECK_FEATURE(t, g, &pos, "far_rank", -1);    /* the tower d8 */
        CHECK_FEATURE(t, g, &pos, "must_answer", 1);
        CHECK_FEATURE(t, g, &pos, "reach_now", 1);
        /* b2's eight single steps; the answering rule is ignored, the tower never moves */
        CHECK_FEATURE(t, g, &pos, "mobility", (8 - 0) / 64.0);
        game_free(g);
    }
}

/* The opponent's threats on our home rank: squares it could land on next turn. */
static void test_phalanx_opponent_threats(TestContext *t)
{
    Position pos;
    /* Black a5,a4 going down: the pair moves at most two squares, to a2; a single stone one. */
    Game *g = test_open_position(t, "epaminondas", "5/B4/B4/5/5/4W w", &pos);
    if (g) {
        CHECK_FEATURE(t, g, &pos, "opp_reach", 0);
        game_free(g);
    }
    /* Black a3,a2: the pair's head reaches a1 (a3-a2), a2 alone steps to b1 as well. */
    g = test_open_position(t, "epaminondas", "5/5/5/B4/B4/4W w", &pos);
    if (g) {
        CHECK_FEATURE(t, g, &pos, "opp_reach", 2 / 2.0);
        CHECK_FEATURE(t, g, &pos, "reach_now", 0);
        game_free(g);
    }
}

/* Epaminondas strikes the whole line, Crossings the struck stone only. */
static void test_phalanx_captures(TestContext *t)
{
    const char *text = "5/2B2/2B2/2W2/2W2/2W2 w";
    Position pos;
    Game *g = test_open_position(t, "epaminondas", text, &pos);
    if (g) {
        CHECK_FEATURE(t, g, &pos, "targets", 2 / 5.0);
        CHECK_FEATURE(t, g, &pos, "best_capture", 2 / 4.0);
        CHECK_FEATURE(t, g, &pos, "captures", 1 / 5.0);   /* the three strike with k = 3 */
        game_free(g);
    }
    g = test_open_position(t, "crossings", text, &pos);
    if (g) {
        CHECK_FEATURE(t, g, &pos, "targets", 1 / 5.0);
        CHECK_FEATURE(t, g, &pos, "best_capture", 1 / 4.0);
        game_free(g);
    }
}

/* b2 and f6 white, c3 and e5 black, Black to move: a1 (corner) and g7 (X-square of the empty
 * h8) are Black's moves; d4 is White's. */
static const char *const REVERSI_SAMPLE = "8/1W6/2B5/8/4B3/5W2/8/8 b";

static void test_reversi_hand_made(TestContext *t)
{
    Position pos;
    Game *g = test_open_position(t, "reversi", REVERSI_SAMPLE, &pos);
    if (!g)
        return;
    CHECK_FEATURE(t, g, &pos, "mobility", (2 - 1) / 10.0);
    CHECK_FEATURE(t, g, &pos, "corner_moves", 1 / 2.0);
    CHECK_FEATURE(t, g, &pos, "x_squares", -1 / 2.0);         /* white b2 beside the empty a1 */
    CHECK_FEATURE(t, g, &pos, "potential_mobility", (14 - 13) / 16.0);
    CHECK_FEATURE(t, g, &pos, "frontier", 0);
    CHECK_FEATURE(t, g, &pos, "discs", 0);
    CHECK_FEATURE(t, g, &pos, "parity", -1);
    CHECK_FEATURE(t, g, &pos, "corners", 0);
    game_free(g);
    /* Corners, C-squares, edges and stable discs: Black owns a1 and b1, c1 along the top edge
     * (all stable), White owns h1's C-square g1 with h1 empty and the edge disc a4. */
    g = test_open_position(t, "reversi", "BBB3W1/8/8/W7/8/8/8/8 w", &pos);
    if (!g)
        return;
    CHECK_FEATURE(t, g, &pos, "corners", (0 - 1) / 2.0);
    CHECK_FEATURE(t, g, &pos, "c_squares", (1 - 0) / 4.0);    /* g1; b1's corner is taken */
    CHECK_FEATURE(t, g, &pos, "edges", (2 - 2) / 8.0);
    CHECK_FEATURE(t, g, &pos, "stable", (0 - 2) / 8.0);       /* b1, c1 */
    CHECK_FEATURE(t, g, &pos, "discs", (2 - 3) / 16.0);
    CHECK_FEATURE(t, g, &pos, "parity", 1);                   /* 59 empty squares */
    CHECK_FEATURE(t, g, &pos, "discs_late", (2 - 3) / 16.0 * (1 - 59 / 60.0) * (1 - 59 / 60.0));
    game_free(g);
}

/* --- symmetry --------------------------------------------------------------------------------- */

static void test_phalanx_mirror_invariance(TestContext *t)
{
    check_invariant(t, "epaminondas", 0, 0, mirror_files, "files mirrored");
    check_invariant(t, "epaminondas", 0, 0, mirror_ranks_swap_colours, "ranks mirrored, colours swapped");
    check_invariant(t, "epaminondas", 7, 9, mirror_ranks_swap_colours, "ranks mirrored, colours swapped");
    check_invariant(t, "crossings", 0, 0, mirror_files, "files mirrored");
    check_invariant(t, "crossings", 0, 0, mirror_ranks_swap_colours, "ranks mirrored, colours swapped");
}

static void test_reversi_mirror_invariance(TestContext *t)
{
    check_invariant(t, "reversi", 0, 0, mirror_files, "files mirrored");
    check_invariant(t, "reversi", 0, 0, mirror_ranks, "ranks mirrored");
    check_invariant(t, "reversi", 0, 0, swap_colours_and_side, "colours swapped");
}

/* A symmetric position (mirror + colour swap) has every own-minus-opponent feature 0. */
static void test_symmetric_position_zero(TestContext *t)
{
    Position pos;
    Game *g = test_open_position(t, "epaminondas", "1B3/B1B2/5/5/W1W2/1W3 w", &pos);
    if (!g)
        return;
    const char *diffs[] = {"material", "mobility", "long_moves", "captures", "far_rank", "one_from_far",
                           "two_from_far", "attack_zone", "passed", "advancement", "pairs", "triples"};
    for (size_t i = 0; i < sizeof diffs / sizeof diffs[0]; i++)
        CHECK_FEATURE(t, g, &pos, diffs[i], 0);
    game_free(g);
}

/* --- a slow reference for the phalanx features --------------------------------------------------- */

typedef struct {
    int width, height;
    int cell[16][16];       /* [rank][file]: WHITE, BLACK or -1 */
} Grid;

static void load_grid(const Game *g, const Position *pos, Grid *grid)
{
    grid->width = g->width;
    grid->height = g->height;
    for (int r = 0; r < g->height; r++)
        for (int f = 0; f < g->width; f++) {
            char c = game_square(g, pos, f, r);
            grid->cell[r][f] = c == 'W' || c == 'T' ? WHITE : c == 'B' || c == 't' ? BLACK : -1;
        }
}

static int far_rank_of(const Grid *grid, int colour) { return colour == WHITE ? grid->height - 1 : 0; }

/* Ranks from colour's home rank. */
static int from_home(const Grid *grid, int colour, int r) { return colour == WHITE ? r : grid->height - 1 - r; }

typedef struct {
    int moves, long_moves, captures, best;
    bool reach_file[16];
    bool struck[16][16];
} MoveFacts;

/* What the moves of `colour` do, found by playing each one and looking at the grid. */
static void move_facts(const Game *g, const Position *pos, int colour, MoveFacts *mf)
{
    memset(mf, 0, sizeof *mf);
    Position p = *pos;
    if (game_side_to_move(g, pos) != colour && !other_side(g, pos, &p))
        return;
    Grid before, after;
    load_grid(g, &p, &before);
    Move moves[MAX_MOVES];
    int n = game_gen_moves(g, &p, moves), far = far_rank_of(&before, colour);
    mf->moves = n;
    for (int i = 0; i < n; i++) {
        Position q = p;
        Undo u;
        game_make(g, &q, moves[i], &u);
        load_grid(g, &q, &after);
        int vacated = 0, removed = 0;
        for (int r = 0; r < before.height; r++)
            for (int f = 0; f < before.width; f++) {
                vacated += before.cell[r][f] == colour && after.cell[r][f] != colour;
                if (before.cell[r][f] == !colour && after.cell[r][f] != !colour) {
                    removed++;
                    mf->struck[r][f] = true;
                }
                if (r == far && after.cell[r][f] == colour && before.cell[r][f] != colour)
                    mf->reach_file[f] = true;
            }
        mf->long_moves += vacated >= 2;     /* a group moving j squares vacates j of them */
        mf->captures += removed > 0;
        mf->best = removed > mf->best ? removed : mf->best;
    }
}

static int count_true(const bool *b, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += b[i];
    return c;
}

typedef struct {
    int stones, progress, near_far[3], in_enemy_zone, in_home_zone, passed, pairs, triples;
} GridFacts;

static bool own_at(const Grid *grid, int colour, int r, int f)
{
    return r >= 0 && r < grid->height && f >= 0 && f < grid->width && grid->cell[r][f] == colour;
}

static bool is_passed(const Grid *grid, int colour, int r, int f)
{
    for (int rr = 0; rr < grid->height; rr++)
        for (int df = -1; df <= 1; df++)
            if (from_home(grid, colour, rr) > from_home(grid, colour, r) && own_at(grid, !colour, rr, f + df))
                return false;
    return true;
}

static void grid_facts(const Grid *grid, int colour, GridFacts *gf)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};   /* (rank, file) steps */
    memset(gf, 0, sizeof *gf);
    for (int r = 0; r < grid->height; r++)
        for (int f = 0; f < grid->width; f++) {
            if (grid->cell[r][f] != colour)
                continue;
            int home = from_home(grid, colour, r), to_far = grid->height - 1 - home;
            gf->stones++;
            gf->progress += home;
            if (to_far < 3) {
                gf->near_far[to_far]++;
                gf->in_enemy_zone++;
            }
            gf->in_home_zone += home < 3;
            gf->passed += is_passed(grid, colour, r, f);
            for (int d = 0; d < 4; d++) {
                bool two = own_at(grid, colour, r + dirs[d][0], f + dirs[d][1]);
                gf->pairs += two;
                gf->triples += two && own_at(grid, colour, r + 2 * dirs[d][0], f + 2 * dirs[d][1]);
            }
        }
}

static float mean_progress(const GridFacts *gf) { return gf->stones ? (float)gf->progress / (float)gf->stones : 0.0f; }

static int struck_count(const MoveFacts *mf)
{
    return count_true(&mf->struck[0][0], 256);
}

/* The features as docs/FEATURES.md defines them, from the grid and the move list.  The move
 * facts match the engine's only where no special rule applies, which callers ensure. */
static void reference_features(const Game *g, const Position *pos, float *out)
{
    Grid grid;
    load_grid(g, pos, &grid);
    int us = game_side_to_move(g, pos);
    MoveFacts m[2];
    GridFacts gf[2];
    move_facts(g, pos, us, &m[0]);
    move_facts(g, pos, !us, &m[1]);
    grid_facts(&grid, us, &gf[0]);
    grid_facts(&grid, !us, &gf[1]);
    float w = (float)g->width, h = (float)g->height;
    const struct { const char *name; float value; } f[] = {
        {"material", (float)(gf[0].stones - gf[1].stones) / (2 * w)},
        {"mobility", (float)(m[0].moves - m[1].moves) / (8 * w)},
        {"long_moves", (float)(m[0].long_moves - m[1].long_moves) / (4 * w)},
        {"captures", (float)(m[0].captures - m[1].captures) / w},
        {"targets", (float)struck_count(&m[0]) / w},
        {"exposed", (float)struck_count(&m[1]) / w},
        {"best_capture", (float)m[0].best / 4},
        {"far_rank", (float)(gf[0].near_far[0] - gf[1].near_far[0])},
        {"one_from_far", (float)(gf[0].near_far[1] - gf[1].near_far[1]) / 2},
        {"two_from_far", (float)(gf[0].near_far[2] - gf[1].near_far[2]) / 4},
        {"attack_zone", (float)((gf[0].in_enemy_zone - gf[1].in_home_zone) - (gf[1].in_enemy_zone - gf[0].in_home_zone)) / w},
        {"reach_now", count_true(m[0].reach_file, 16) ? 1.0f : 0.0f},
        {"opp_reach", (float)count_true(m[1].reach_file, 16) / 2},
        {"must_answer", gf[1].near_far[0] > gf[0].near_far[0] ? 1.0f : 0.0f},
        {"passed", (float)(gf[0].passed - gf[1].passed) / w},
        {"advancement", (mean_progress(&gf[0]) - mean_progress(&gf[1])) / (h - 1)},
        {"pairs", (float)(gf[0].pairs - gf[1].pairs) / (4 * w)},
        {"triples", (float)(gf[0].triples - gf[1].triples) / (4 * w)},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        out[value_feature_index(g, f[i].name)] = f[i].value;
}

/* No stone on either far rank: then no special rule (win, answering, symmetry) applies to
 * either side, and the move list is the plain count the features use. */
static bool no_special_rules(const Game *g, const Position *pos)
{
    for (int f = 0; f < g->width; f++) {
        char top = game_square(g, pos, f, g->height - 1), bottom = game_square(g, pos, f, 0);
        if (top == 'W' || top == 'T' || bottom == 'B' || bottom == 't')
            return false;
    }
    return true;
}

static void check_reference(TestContext *t, const char *variant, int w, int h, int count)
{
    Error err;
    Game *g = game_new(variant, w, h, &err);
    Position *pos = malloc(sizeof *pos * (size_t)count);
    int n = random_positions(g, 5, pos, count), compared = 0, mismatches = 0;
    for (int i = 0; i < n && mismatches == 0; i++) {
        if (!no_special_rules(g, &pos[i]))
            continue;
        float got[MAX_FEATURES], want[MAX_FEATURES];
        value_features(g, &pos[i], got);
        reference_features(g, &pos[i], want);
        compared++;
        for (int k = 0; k < g->ops->num_features; k++)
            if (!(fabsf(got[k] - want[k]) < 1e-5f)) {
                char text[512];
                game_format_position(g, &pos[i], text, sizeof text);
                fprintf(stderr, "  %s: %s = %g, reference %g in '%s'\n", variant, g->ops->feature_names[k], got[k], want[k], text);
                mismatches++;
            }
    }
    t->failures += mismatches;
    CHECK(t, mismatches || compared > count / 4);
    free(pos);
    game_free(g);
}

static void test_phalanx_reference(TestContext *t)
{
    int quick = getenv("LEUCTRA_QUICK") != NULL;
    check_reference(t, "epaminondas", 0, 0, quick ? 150 : 600);
    check_reference(t, "epaminondas", 6, 7, quick ? 150 : 600);
    check_reference(t, "crossings", 0, 0, quick ? 150 : 600);
}

/* --- bounds on random positions ------------------------------------------------------------------ */

static void check_bounds(TestContext *t, const char *variant, int w, int h)
{
    Error err;
    Game *g = game_new(variant, w, h, &err);
    enum { COUNT = 4000 };
    Position *pos = malloc(sizeof *pos * COUNT);
    int n = random_positions(g, 3, pos, COUNT);
    Weights weights;
    weights_zero(g, &weights);
    for (int k = 0; k < weights.count; k++)
        weights.w[k] = 1.0;
    for (int i = 0; i < n; i++) {
        float f[MAX_FEATURES];
        value_features(g, &pos[i], f);
        for (int k = 0; k < g->ops->num_features; k++)
            if (!isfinite(f[k]) || fabsf(f[k]) > 8) {
                fprintf(stderr, "  %s: %s = %g\n", variant, g->ops->feature_names[k], f[k]);
                t->failures++;
                break;
            }
        double p = value_win_probability(g, &weights, &pos[i]);
        CHECK(t, p > 0);
        CHECK(t, p < 1);
    }
    free(pos);
    game_free(g);
}

static void test_feature_bounds(TestContext *t)
{
    check_bounds(t, "epaminondas", 0, 0);
    check_bounds(t, "epaminondas", 3, 5);
    check_bounds(t, "epaminondas", 16, 16);
    check_bounds(t, "crossings", 0, 0);
    check_bounds(t, "reversi", 0, 0);
}

/* --- the cached (incremental) features ----------------------------------------------------------- */

/* One cache fed the positions of random games in order (the tuner's use), then the same
 * positions in a scattered order (any position may follow any other): every vector must have
 * the bits of value_features. */
static void check_cached(TestContext *t, const char *variant, int w, int h)
{
    Error err;
    Game *g = game_new(variant, w, h, &err);
    enum { COUNT = 3000 };
    Position *pos = malloc(sizeof *pos * COUNT);
    ValueFeatureCache *cache = value_feature_cache_new(g);
    int n = random_positions(g, 11, pos, COUNT), mismatches = 0;
    for (int k = 0; k < 2 * n && !mismatches; k++) {
        int i = k < n ? k : (int)((uint64_t)(k - n) * 7919 % (uint64_t)n);
        float want[MAX_FEATURES], got[MAX_FEATURES];
        value_features(g, &pos[i], want);
        value_features_cached(g, cache, &pos[i], got);
        if (memcmp(want, got, sizeof(float) * (size_t)g->ops->num_features) != 0) {
            char text[512];
            game_format_position(g, &pos[i], text, sizeof text);
            fprintf(stderr, "  %s: cached features differ at step %d in '%s'\n", variant, k, text);
            mismatches++;
        }
    }
    t->failures += mismatches;
    value_feature_cache_free(cache);
    free(pos);
    game_free(g);
}

static void test_cached_features(TestContext *t)
{
    check_cached(t, "epaminondas", 0, 0);
    check_cached(t, "epaminondas", 3, 5);
    check_cached(t, "epaminondas", 16, 16);
    check_cached(t, "crossings", 0, 0);
    check_cached(t, "crossings", 5, 9);
    check_cached(t, "reversi", 0, 0);
}

/* --- priors ------------------------------------------------------------------------------------- */

static float prior_of(TestContext *t, const Game *g, const Position *pos, const char *move_text)
{
    Move moves[MAX_MOVES], m;
    float priors[MAX_MOVES];
    Error err;
    if (!game_parse_move(g, pos, move_text, &m, &err)) {
        fprintf(stderr, "  move %s: %s\n", move_text, err.msg);
        t->failures++;
        return NAN;
    }
    int n = game_gen_moves(g, pos, moves);
    g->ops->move_priors(g, pos, moves, n, priors);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return priors[i];
    return NAN;
}

static void test_phalanx_prior_order(TestContext *t)
{
    Position pos;
    Game *g = test_open_position(t, "epaminondas", PHALANX_SAMPLE, &pos);
    if (!g)
        return;
    float far = prior_of(t, g, &pos, "a5-a6"), capture = prior_of(t, g, &pos, "c1xc2");
    float forward = prior_of(t, g, &pos, "c2-d3"), sideways = prior_of(t, g, &pos, "c2-b2");
    float backward = prior_of(t, g, &pos, "a5-a4");
    /* In Epaminondas a far-rank stone can still be captured: just below a capture. */
    CHECK(t, capture > far);
    CHECK(t, far > forward);
    CHECK(t, capture > forward);
    CHECK(t, forward > sideways);
    CHECK(t, sideways > backward);
    CHECK(t, backward > 0);
    game_free(g);
    /* In Crossings it is a tower that must be answered: first by far. */
    g = test_open_position(t, "crossings", PHALANX_SAMPLE, &pos);
    if (g) {
        CHECK(t, prior_of(t, g, &pos, "a5-a6") > 4 * prior_of(t, g, &pos, "c1xc2"));
        game_free(g);
    }
    /* More stones taken, more prior: the group of three strikes two. */
    /* d1-d3 strikes d4,d5; the pair b2-c3 strikes d4 alone */
    g = test_open_position(t, "epaminondas", "6/3B2/3B2/2WW2/1W1W2/3W2 w", &pos);
    if (g) {
        CHECK(t, prior_of(t, g, &pos, "d1xd2") > prior_of(t, g, &pos, "b2xc3"));
        game_free(g);
    }
}

static void test_reversi_prior_order(TestContext *t)
{
    Position pos;
    Game *g = test_open_position(t, "reversi", REVERSI_SAMPLE, &pos);
    if (!g)
        return;
    CHECK(t, prior_of(t, g, &pos, "a1") > 10 * prior_of(t, g, &pos, "g7"));
    game_free(g);
}

static void check_priors_sane(TestContext *t, const char *variant)
{
    Error err;
    Game *g = game_new(variant, 0, 0, &err);
    enum { COUNT = 1000 };
    Position *pos = malloc(sizeof *pos * COUNT);
    int n = random_positions(g, 9, pos, COUNT);
    Move moves[MAX_MOVES];
    static _Thread_local float priors[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int k = game_gen_moves(g, &pos[i], moves);
        g->ops->move_priors(g, &pos[i], moves, k, priors);
        for (int j = 0; j < k; j++)
            if (!(isfinite(priors[j]) && priors[j] > 0)) {
                fprintf(stderr, "  %s: prior %g\n", variant, priors[j]);
                t->failures++;
                break;
            }
    }
    free(pos);
    game_free(g);
}

static void test_priors_sane(TestContext *t)
{
    check_priors_sane(t, "epaminondas");
    check_priors_sane(t, "crossings");
    check_priors_sane(t, "reversi");
}

const TestCase value_tests[] = {
    {"feature_names", test_feature_names},
    {"start_positions", test_start_positions},
    {"phalanx_hand_made", test_phalanx_hand_made},
    {"phalanx_answering", test_phalanx_answering},
    {"phalanx_opponent_threats", test_phalanx_opponent_threats},
    {"phalanx_captures", test_phalanx_captures},
    {"reversi_hand_made", test_reversi_hand_made},
    {"phalanx_mirror_invariance", test_phalanx_mirror_invariance},
    {"reversi_mirror_invariance", test_reversi_mirror_invariance},
    {"symmetric_position_zero", test_symmetric_position_zero},
    {"phalanx_reference", test_phalanx_reference},
    {"feature_bounds", test_feature_bounds},
    {"cached_features", test_cached_features},
    {"phalanx_prior_order", test_phalanx_prior_order},
    {"reversi_prior_order", test_reversi_prior_order},
    {"priors_sane", test_priors_sane},
    TEST_END,
};
