/*
 * test_phalanx.c - Epaminondas, Crossings and Igfip: the RULES.md perft references, one hand-made
 * position for each rule, every kind of malformed input with its message, and random positions
 * checked against the plain reference generator and the board invariants.  Igfip's own rule
 * positions are in test_igfip.c.
 */
#include "tests/reference/phalanx_reference.h"
#include "test.h"
#include "core/perft.h"
#include "core/playout.h"

#include <stdlib.h>

static Game *open_start(TestContext *t, const char *variant, int w, int h, Position *pos)
{
    Error err;
    Game *g = game_new(variant, w, h, &err);
    if (!g) {
        fprintf(stderr, "  cannot open %s %dx%d: %s\n", variant, w, h, err.msg);
        t->failures++;
        return NULL;
    }
    game_start(g, pos);
    return g;
}

/* "" if the move is legal, else the engine's reason. */
static const char *move_error(const Game *g, const Position *pos, const char *text, Error *err)
{
    Move m;
    if (game_parse_move(g, pos, text, &m, err))
        return "";
    return err->msg;
}

static bool contains(const char *haystack, const char *needle) { return strstr(haystack, needle) != NULL; }

/* Plays `text` and returns the resulting position string in buf. */
static const char *after_move(const Game *g, const Position *pos, const char *text, char *buf, size_t len)
{
    Move m;
    Error err;
    Position copy = *pos;
    Undo undo;
    if (!game_parse_move(g, pos, text, &m, &err)) {
        snprintf(buf, len, "illegal: %.200s", err.msg);
        return buf;
    }
    game_make(g, &copy, m, &undo);
    game_format_position(g, &copy, buf, len);
    return buf;
}

/* --- perft references (RULES.md section 6) ------------------------------------------------- */

static void check_perft(TestContext *t, const char *variant, int w, int h, const uint64_t *want, int depths)
{
    Position pos;
    Game *g = open_start(t, variant, w, h, &pos);
    if (!g)
        return;
    for (int d = 1; d <= depths; d++)
        CHECK_EQ_U64(t, game_perft(g, &pos, d), want[d - 1]);
    game_free(g);
}

static void test_perft_epaminondas_14x12(TestContext *t)
{
    static const uint64_t want[] = {114, 12996, 1787292, 245799684};
    check_perft(t, "epaminondas", 0, 0, want, getenv("LEUCTRA_QUICK") ? 3 : 4);
}

static void test_perft_epaminondas_8x8(TestContext *t)
{
    static const uint64_t want[] = {60, 3600, 269278, 20039444};
    check_perft(t, "epaminondas", 8, 8, want, 4);
}

static void test_perft_crossings_8x8(TestContext *t)
{
    static const uint64_t want[] = {60, 3600, 269278, 20039500};
    check_perft(t, "crossings", 0, 0, want, 4);
}

/* The reference generator's perft of a start, to `depths`, against the same table. */
static void check_reference_perft(TestContext *t, const char *variant, int w, int h, const uint64_t *want, int depths)
{
    Position pos;
    Game *g = open_start(t, variant, w, h, &pos);
    if (!g)
        return;
    RefBoard b;
    ref_load(g, &pos, &b);
    for (int d = 1; d <= depths; d++)
        CHECK_EQ_U64(t, ref_perft(&b, d), want[d - 1]);
    game_free(g);
}

/* Igfip's starts count as Epaminondas's to depth 4 (docs/RULES.md says why: no stone reaches a
 * far rank within four plies, and both capture whole lines).  The reference generator checks
 * 14x12 to depth 3 (depth 4 takes it 45 s, so it was run once by hand: the same 245,799,684)
 * and 8x8 to depth 4, or 3 under LEUCTRA_QUICK (the sanitizer run). */
static void test_perft_igfip_14x12(TestContext *t)
{
    static const uint64_t want[] = {114, 12996, 1787292, 245799684};
    check_perft(t, "igfip", 0, 0, want, getenv("LEUCTRA_QUICK") ? 3 : 4);
    check_reference_perft(t, "igfip", 0, 0, want, 3);
}

static void test_perft_igfip_8x8(TestContext *t)
{
    static const uint64_t want[] = {60, 3600, 269278, 20039444};
    check_perft(t, "igfip", 8, 8, want, 4);
    check_reference_perft(t, "igfip", 8, 8, want, getenv("LEUCTRA_QUICK") ? 3 : 4);
}

/* The start is the mirror image of itself, so perft(2) = perft(1)^2.  On 16x16 perft(1) is 132:
 * north 16 fronts x (1 + 2) moves; north-east files b-n 3 each (39), file a 1 (a group of one),
 * file o 2 (one empty square ahead), file p none; the same to the north-west. */
static void test_perft_16x16(TestContext *t)
{
    static const uint64_t want[] = {132, 132 * 132};
    check_perft(t, "epaminondas", 16, 16, want, 2);
}

static void test_perft_threads_agree(TestContext *t)
{
    Position pos;
    Game *g = open_start(t, "epaminondas", 8, 8, &pos);
    uint64_t per_move[MAX_MOVES];
    int n = 0;
    uint64_t one = 0, two = 0;
    Error err;
    CHECK(t, perft_parallel(g, &pos, 4, 1, &one, NULL, NULL, &err));
    CHECK(t, perft_parallel(g, &pos, 4, 2, &two, per_move, &n, &err));
    CHECK_EQ_U64(t, one, 20039444);
    CHECK_EQ_U64(t, two, 20039444);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += per_move[i];
    CHECK_EQ_U64(t, sum, 20039444);
    CHECK(t, n == 60);
    game_free(g);
}

/* --- one position per rule ------------------------------------------------------------------ */

static void test_capture_shorter_line(TestContext *t)
{
    Position pos;
    Error err;
    char buf[512];
    /* White c3,c4 (a group of two) against one black stone on c5. */
    Game *g = test_open_position(t, "epaminondas", "8/8/8/2B5/2W5/2W5/8/8 w", &pos);
    CHECK_STR(t, move_error(g, &pos, "c3xc4", &err), "");
    CHECK_STR(t, after_move(g, &pos, "c3xc4", buf, sizeof buf), "8/8/8/2W5/2W5/8/8/8 b");
    /* A single stone never captures. */
    CHECK(t, contains(move_error(g, &pos, "c4xc5", &err), "not fewer than the group's 1"));
    /* The notation must say capture. */
    CHECK(t, contains(move_error(g, &pos, "c3-c4", &err), "captures: write it with 'x'"));
    game_free(g);
}

static void test_no_capture_of_equal_line(TestContext *t)
{
    Position pos;
    Error err;
    Game *g = test_open_position(t, "epaminondas", "8/8/2B5/2B5/2W5/2W5/8/8 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "c3xc4", &err), "has 2 stones, not fewer than the group's 2"));
    game_free(g);
}

/* Three white stones strike a black line of two: Epaminondas removes both, Crossings only c5. */
static void test_whole_line_vs_struck_stone(TestContext *t)
{
    const char *start = "8/8/2B5/2B5/2W5/2W5/2W5/8 w";
    char buf[512];
    Position pos;
    Game *g = test_open_position(t, "epaminondas", start, &pos);
    CHECK_STR(t, after_move(g, &pos, "c2xc3", buf, sizeof buf), "8/8/8/2W5/2W5/2W5/8/8 b");
    game_free(g);
    g = test_open_position(t, "crossings", start, &pos);
    CHECK_STR(t, after_move(g, &pos, "c2xc3", buf, sizeof buf), "8/8/2B5/2W5/2W5/2W5/8/8 b");
    game_free(g);
}

static GameStatus status_of(TestContext *t, const char *variant, const char *text)
{
    Position pos;
    Game *g = test_open_position(t, variant, text, &pos);
    if (!g)
        return STATUS_DRAW;
    GameStatus s = game_status(g, &pos);
    game_free(g);
    return s;
}

/* White reaches rank 8: Black still moves (no win before White's turn); if Black answers by
 * reaching rank 1 the game goes on, if not White wins at the start of its turn. */
static void test_win_at_start_of_turn(TestContext *t)
{
    char buf[512];
    Position pos;
    Game *g = test_open_position(t, "epaminondas", "8/W7/8/8/8/8/3B4/8 w", &pos);
    after_move(g, &pos, "a7-a8", buf, sizeof buf);
    CHECK_STR(t, buf, "W7/8/8/8/8/8/3B4/8 b");
    CHECK(t, status_of(t, "epaminondas", buf) == STATUS_ONGOING);
    Position reached;
    Game *g2 = test_open_position(t, "epaminondas", buf, &reached);
    char answered[512], missed[512];
    after_move(g2, &reached, "d2-d1", answered, sizeof answered);
    after_move(g2, &reached, "d2-d3", missed, sizeof missed);
    CHECK(t, status_of(t, "epaminondas", answered) == STATUS_ONGOING);
    CHECK(t, status_of(t, "epaminondas", missed) == STATUS_WHITE_WINS);
    /* A win means no legal moves and no perft below it. */
    Position won;
    Game *g3 = test_open_position(t, "epaminondas", missed, &won);
    Move moves[MAX_MOVES];
    CHECK(t, game_gen_moves(g3, &won, moves) == 0);
    CHECK_EQ_U64(t, game_perft(g3, &won, 2), 0);
    game_free(g);
    game_free(g2);
    game_free(g3);
}

/* A stone on the far rank is not frozen: it moves again, and may be captured. */
static void test_far_rank_stone_moves_and_falls(TestContext *t)
{
    Error err;
    Position pos;
    /* Black to move, one white stone on a8 and black b8,c8 beside it: the pair strikes it. */
    Game *g = test_open_position(t, "epaminondas", "WBB5/8/8/8/8/8/3B4/8 b", &pos);
    CHECK_STR(t, move_error(g, &pos, "c8xb8", &err), "");
    game_free(g);
}

/* Black leads 1-0 on White's home rank.  White evens it by reaching rank 6: a5-a6 would leave
 * the board mirror-symmetric (W a6,c5 against B a1,c2) and is the one move the rule forbids. */
static void test_symmetry_rule(TestContext *t)
{
    Position pos;
    Error err;
    Game *g = test_open_position(t, "epaminondas", "5/W1W2/5/5/2B2/B4 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "a5-a6", &err), "symmetry rule"));
    CHECK_STR(t, move_error(g, &pos, "c5-c6", &err), "");
    CHECK_STR(t, move_error(g, &pos, "a5-b6", &err), "");
    CHECK(t, game_count_moves(g, &pos) == 12);
    Move moves[MAX_MOVES];
    CHECK(t, game_gen_moves(g, &pos, moves) == 12);
    game_free(g);
    /* Without Black's lead the same move is legal (the rule needs the move to even the count). */
    g = test_open_position(t, "epaminondas", "5/W1W2/5/5/2B2/1B3 w", &pos);
    CHECK_STR(t, move_error(g, &pos, "a5-a6", &err), "");
    game_free(g);
}

/* Crossings: the white tower on d8 never moves, blocks its own group, and cannot be struck. */
static void test_towers(TestContext *t)
{
    Position pos;
    Error err;
    Game *g = test_open_position(t, "crossings", "1BBW4/3W4/3W4/8/8/8/8/B7 b", &pos);
    CHECK(t, game_square(g, &pos, 3, 7) == 'T');
    CHECK(t, game_square(g, &pos, 0, 0) == 't');
    CHECK(t, contains(move_error(g, &pos, "b8xc8", &err), "tower on d8 cannot be captured"));
    game_free(g);
    g = test_open_position(t, "crossings", "1BBW4/3W4/3W4/8/8/8/8/B7 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "d8-d7", &err), "tower on d8 never moves"));
    CHECK(t, contains(move_error(g, &pos, "d6-d8", &err), "blocked by a white stone on d8"));
    CHECK_STR(t, move_error(g, &pos, "d7-d5", &err), "");   /* d7,d6 are the whole group */
    Move moves[MAX_MOVES];
    int n = game_gen_moves(g, &pos, moves);
    for (int i = 0; i < n; i++) {
        char text[16];
        game_format_move(g, &pos, moves[i], text, sizeof text);
        CHECK(t, strncmp(text, "d8", 2) != 0);
    }
    game_free(g);
    /* A tower counts in the length of the line it ends: c2 + tower c1 make two.  (White's a8
     * tower keeps the tower counts even, so the answering rule stays out of it.) */
    g = test_open_position(t, "crossings", "W7/8/8/8/2W5/2W5/2B5/2B5 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "c4xc3", &err), "has 2 stones"));
    game_free(g);
    g = test_open_position(t, "crossings", "W7/8/8/2W5/2W5/2W5/2B5/2B5 w", &pos);
    char buf[256];
    CHECK_STR(t, after_move(g, &pos, "c5xc4", buf, sizeof buf), "W7/8/8/8/2W5/2W5/2W5/2B5 b");
    game_free(g);
}

/* Crossings: White has a tower, Black none.  Black must make a tower at once or lose. */
static void test_answering_rule(TestContext *t)
{
    Position pos;
    Error err;
    Game *g = test_open_position(t, "crossings", "W7/8/8/8/8/8/1B6/8 b", &pos);
    CHECK(t, contains(move_error(g, &pos, "b2-b3", &err), "crossing must be answered"));
    CHECK_STR(t, move_error(g, &pos, "b2-b1", &err), "");
    CHECK(t, game_count_moves(g, &pos) == 3);   /* b2-b1, b2-a1, b2-c1 */
    game_free(g);
    CHECK(t, status_of(t, "crossings", "W7/8/8/8/8/1B6/8/8 b") == STATUS_WHITE_WINS);
    CHECK(t, status_of(t, "crossings", "W7/8/8/8/8/8/4W3/1B6 w") == STATUS_ONGOING);
    /* Answered, but White's only other stone is a tower: no move, and White loses. */
    CHECK(t, status_of(t, "crossings", "W7/8/8/8/8/8/8/1B6 w") == STATUS_BLACK_WINS);
}

static void test_no_move_loses(TestContext *t)
{
    CHECK(t, status_of(t, "epaminondas", "BBB/3/3/3/3 w") == STATUS_BLACK_WINS);
    /* White a1 is boxed in by single-stone-proof black lines. */
    CHECK(t, status_of(t, "epaminondas", "5/5/5/B4/BB3/WB3 w") == STATUS_BLACK_WINS);
    CHECK(t, status_of(t, "crossings", "3/3/3/3/WWW b") == STATUS_WHITE_WINS);
}

/* An obstacle blocks a move and breaks a line: a1 and a3 are not one group across a2. */
static void test_obstacles(TestContext *t)
{
    Position pos;
    Error err;
    Game *g = test_open_position(t, "epaminondas", "5/5/5/W4/x4/W4 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "a1-a2", &err), "blocked by an obstacle on a2"));
    CHECK(t, contains(move_error(g, &pos, "a1-a3", &err), "too far"));
    CHECK_STR(t, move_error(g, &pos, "a3-a4", &err), "");
    CHECK(t, contains(move_error(g, &pos, "a3-a5", &err), "too far"));
    CHECK(t, game_square(g, &pos, 0, 1) == 'x');
    game_free(g);
    /* An obstacle ends an enemy line: two white stones strike b4 alone (b5 is behind x). */
    g = test_open_position(t, "epaminondas", "5/1B3/1x3/1B3/1W3/1W3 w", &pos);
    CHECK_STR(t, move_error(g, &pos, "b1xb2", &err), "");
    game_free(g);
}

static void test_sixteen_by_sixteen_with_obstacles(TestContext *t)
{
    Position pos;
    const char *text = "BBBBBBBBBBBBBBBB/BBBBBBBxBBBBBBBB/16/16/16/16/7x8/16/16/8x7/16/16/16/16/"
                       "WWWWWWWxWWWWWWWW/WWWWWWWWWWWWWWWW w";
    Game *g = test_open_position(t, "epaminondas", text, &pos);
    char buf[1024];
    game_format_position(g, &pos, buf, sizeof buf);
    CHECK_STR(t, buf, text);
    CHECK(t, g->width == 16);
    CHECK(t, g->height == 16);
    CHECK(t, game_stones(g, &pos, WHITE) == 31);
    /* Black's mirror position has the same count, so perft(2) = perft(1)^2. */
    uint64_t one = game_perft(g, &pos, 1);
    CHECK_EQ_U64(t, game_perft(g, &pos, 2), one * one);
    game_free(g);
}

/* --- malformed input ------------------------------------------------------------------------ */

typedef struct {
    const char *text;
    const char *message;    /* a part of the error */
} BadInput;

static void test_bad_positions(TestContext *t)
{
    static const BadInput cases[] = {
        {"", "empty string"},
        {"5/5/5/5/5", "expected a space and the side to move"},
        {"5/5/5/5/5 ", "side to move must be 'w' or 'b'"},
        {"5/5/5/5/5 x", "side to move must be 'w' or 'b'"},
        {"5/5/5/5/5 w extra", "side to move must be 'w' or 'b' alone"},
        {"5/5/5/5/5  w", "side to move must be 'w' or 'b'"},
        {"5/5/5/4/5 w", "field 4 from the top has 4 squares, expected 5"},
        {"5/5/5/6/5 w", "field 4 from the top has 6 squares"},
        {"5/5/5/5 w", "board is 5x4"},
        {"2/2/2/2/2 w", "board is 2x5"},
        {"5/5/5//5 w", "field 4 is empty"},
        {"5/5/5/5/5/ w", "field 6 is empty"},
        {"5/5/5/5/Q4 w", "bad character 'Q' at character 9 (field 5)"},
        {"5/5/5/5/04 w", "bad number at character 9"},
        {"5/5/5/5/17 w", "more than 16 squares"},
        {"9999999999/5/5/5/5 w", "more than 16 squares"},
        {"17/17/17/17/17 w", "more than 16 squares"},
        {"WWWWWWWWWWWWWWWWW/5/5/5/5 w", "more than 16 squares"},
        {"3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3 w", "more than 16 ranks"},
        {"5/5/5/5/w4 w", "bad character 'w'"},
        {"5/5/5/5/5\tw", "bad byte 0x09 at character 10"},
        {"5/5/5/5/5 w\n", "side to move must be 'w' or 'b' alone"},
        {"5/5/5/5/\x01" "4 w", "bad byte 0x01"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos;
        Error err = {0};
        Game *g = game_new_for_position("epaminondas", cases[i].text, &pos, &err);
        CHECK(t, g == NULL);
        if (!contains(err.msg, cases[i].message) || strncmp(err.msg, "position: ", 10) != 0) {
            fprintf(stderr, "  position '%s': got \"%s\", want \"%s\"\n", cases[i].text, err.msg, cases[i].message);
            t->failures++;
        }
        game_free(g);
    }
}

static void test_position_must_fit_game(TestContext *t)
{
    Error err;
    Position pos;
    Game *g = game_new("epaminondas", 0, 0, &err);
    CHECK(t, !game_parse_position(g, "5/5/5/5/5 w", &pos, &err));
    CHECK(t, contains(err.msg, "board is 5x5, this game is played on 14x12"));
    game_free(g);
    g = game_new("epaminondas", 5, 5, &err);
    CHECK(t, !game_parse_position(g, "5/5/x4/5/5 w", &pos, &err));
    CHECK(t, contains(err.msg, "a3 is an obstacle, unlike this game's board"));
    game_free(g);
    CHECK(t, game_new("epaminondas", 17, 5, &err) == NULL && contains(err.msg, "out of range"));
    CHECK(t, game_new("chess", 0, 0, &err) == NULL && contains(err.msg, "unknown variant 'chess'"));
    int w, h;
    CHECK(t, !game_parse_size("8by8", &w, &h, &err) && contains(err.msg, "expected WxH"));
    CHECK(t, !game_parse_size("2x8", &w, &h, &err) && contains(err.msg, "out of range"));
    CHECK(t, game_parse_size("16x5", &w, &h, &err) && w == 16 && h == 5);
}

static void test_bad_moves(TestContext *t)
{
    static const BadInput cases[] = {
        {"", "expected <from>-<to>"},
        {"e2", "expected <from>-<to>"},
        {"e2-", "expected <from>-<to>"},
        {"e2e3", "expected <from>-<to>"},
        {"e2-e3 ", "expected <from>-<to>"},
        {"E2-E3", "expected <from>-<to>"},
        {"e2-e3-e4", "expected <from>-<to>"},
        {"e2:e3", "expected <from>-<to>"},
        {"a1-a123456789", "expected <from>-<to>"},
        {"z2-z3", "square z2 is not on the 8x8 board"},
        {"a2-a9", "square a9 is not on the 8x8 board"},
        {"a0-a1", "expected <from>-<to>"},
        {"e4-e5", "no white stone on e4 (it is empty)"},
        {"e7-e6", "no white stone on e7 (it is a black stone)"},
        {"e2-e2", "the same square"},
        {"e2-f4", "not on one line"},
        {"e2-e5", "too far: a group of 1 stone moves at most 1 square"},
        {"e1-e4", "too far: a group of 2 stones moves at most 2 squares"},
        {"e2-e1", "the head of the group would leave the board"},
        {"a1-c1", "the head of the group would leave the board"},
        {"e2xe3", "nothing to capture: write it with '-'"},
    };
    Position pos;
    Game *g = open_start(t, "epaminondas", 8, 8, &pos);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Error err = {0};
        Move m;
        bool ok = game_parse_move(g, &pos, cases[i].text, &m, &err);
        CHECK(t, !ok);
        if (ok || !contains(err.msg, cases[i].message) || strncmp(err.msg, "move '", 6) != 0) {
            fprintf(stderr, "  move '%s': got \"%s\", want \"%s\"\n", cases[i].text, err.msg, cases[i].message);
            t->failures++;
        }
    }
    game_free(g);
    /* The head may not run off the board, and a finished game takes no moves. */
    Error err;
    g = test_open_position(t, "epaminondas", "8/8/8/8/8/8/8/6WW w", &pos);
    CHECK(t, contains(move_error(g, &pos, "g1-h1", &err), "leave the board"));
    game_free(g);
    g = test_open_position(t, "epaminondas", "8/8/8/2B5/8/2W5/2W5/2W5 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "c1-c4", &err), "blocked by a black stone on c5"));
    game_free(g);
    g = test_open_position(t, "epaminondas", "W7/8/8/8/8/8/1B6/8 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "a8-a7", &err), "the game is over (white-wins)"));
    game_free(g);
}

/* --- random positions against the reference and the invariants ------------------------------ */

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int compare_strings(const void *a, const void *b) { return strcmp(a, b); }

/* The engine's legal moves, status and count equal the reference's, and every move prints and
 * parses back to itself. */
static void check_against_reference(TestContext *t, const Game *g, const Position *pos, int *forbidden)
{
    static char want[MAX_MOVES][12], got[MAX_MOVES][12];
    Move moves[MAX_MOVES];
    RefBoard b;
    ref_load(g, pos, &b);
    int nw = ref_moves(&b, want, MAX_MOVES, forbidden), ng = game_gen_moves(g, pos, moves);
    for (int i = 0; i < ng; i++) {
        game_format_move(g, pos, moves[i], got[i], sizeof got[i]);
        Move back;
        Error err;
        if (!game_parse_move(g, pos, got[i], &back, &err) || back != moves[i]) {
            fprintf(stderr, "  move %s does not parse back: %s\n", got[i], err.msg);
            t->failures++;
        }
    }
    qsort(want, (size_t)nw, sizeof want[0], compare_strings);
    qsort(got, (size_t)ng, sizeof got[0], compare_strings);
    bool same = nw == ng;
    for (int i = 0; same && i < nw; i++)
        same = strcmp(want[i], got[i]) == 0;
    if (!same) {
        char text[1024];
        game_format_position(g, pos, text, sizeof text);
        fprintf(stderr, "  %s '%s': engine has %d moves, reference %d\n", g->name, text, ng, nw);
        t->failures++;
    }
    CHECK(t, game_count_moves(g, pos) == ng);
    CHECK(t, game_status(g, pos) == ref_status(&b));
}

static void check_invariants(TestContext *t, const Game *g, Position *pos, Move m)
{
    Position before = *pos;
    Undo undo;
    int mover = game_side_to_move(g, pos);
    int own = game_stones(g, pos, mover), enemy = game_stones(g, pos, !mover);
    game_make(g, pos, m, &undo);
    CHECK(t, game_hash(g, pos) == game_hash_fresh(g, pos));
    CHECK(t, game_stones(g, pos, mover) == own);
    CHECK(t, game_stones(g, pos, !mover) <= enemy);
    int counted[2] = {0, 0};
    for (int r = 0; r < g->height; r++)
        for (int f = 0; f < g->width; f++) {
            char c = game_square(g, pos, f, r);
            counted[WHITE] += c == 'W' || c == 'T';
            counted[BLACK] += c == 'B' || c == 't';
        }
    CHECK(t, counted[WHITE] == game_stones(g, pos, WHITE));
    CHECK(t, counted[BLACK] == game_stones(g, pos, BLACK));
    char text[1024];
    game_format_position(g, pos, text, sizeof text);
    Position parsed;
    Error err;
    CHECK(t, game_parse_position(g, text, &parsed, &err) && memcmp(&parsed, pos, sizeof parsed) == 0);
    Position after = *pos;
    game_unmake(g, pos, m, &undo);
    CHECK(t, memcmp(&before, pos, sizeof before) == 0);
    *pos = after;
}

static void random_games(TestContext *t, const char *variant, int w, int h, int games, uint64_t seed)
{
    Position pos;
    Game *g = open_start(t, variant, w, h, &pos);
    Move moves[MAX_MOVES];
    for (int n = 0; n < games && !t->failures; n++) {
        game_start(g, &pos);
        for (int ply = 0; ply < 400; ply++) {
            if (ply % 7 == 0)
                check_against_reference(t, g, &pos, NULL);
            int count = game_gen_moves(g, &pos, moves);
            if (count == 0)
                break;
            check_invariants(t, g, &pos, moves[next_random(&seed) % (uint64_t)count]);
        }
    }
    game_free(g);
}

static void test_random_games_epaminondas(TestContext *t) { random_games(t, "epaminondas", 0, 0, 300, 1); }
static void test_random_games_small_boards(TestContext *t)
{
    random_games(t, "epaminondas", 5, 6, 1500, 2);
    random_games(t, "epaminondas", 3, 5, 1500, 3);
    random_games(t, "crossings", 0, 0, 1500, 4);
    random_games(t, "crossings", 4, 7, 1500, 5);
    random_games(t, "igfip", 8, 8, 1500, 6);
    random_games(t, "igfip", 4, 7, 1500, 8);
    random_games(t, "igfip", 3, 5, 1500, 9);
}

/* Random boards of random shape, obstacles and stones; half of them made mirror-symmetric and
 * then a white stone drawn back from Black's home rank, where the symmetry rule decides. */
static void random_board_text(uint64_t *seed, bool near_symmetric, char *out, size_t len)
{
    int w = 3 + (int)(next_random(seed) % 14), h = 5 + (int)(next_random(seed) % 12);
    char cell[16][16];
    static const char kinds[] = "..........WWWBBBx";
    for (int r = 0; r < h; r++)
        for (int f = 0; f < w; f++)
            cell[r][f] = kinds[next_random(seed) % (sizeof kinds - 1)];
    int side = (int)(next_random(seed) % 2);
    if (near_symmetric) {
        for (int r = 0; r < (h + 1) / 2; r++)
            for (int f = 0; f < w; f++) {
                char c = cell[r][f];
                if (r == h - 1 - r && (c == 'W' || c == 'B'))
                    c = cell[r][f] = '.';
                cell[h - 1 - r][f] = c == 'W' ? 'B' : c == 'B' ? 'W' : c;
            }
        int f = (int)(next_random(seed) % (uint64_t)w), back = (int)(next_random(seed) % 3) - 1;
        if (f + back >= 0 && f + back < w && cell[h - 2][f + back] == '.' && cell[h - 1][f] == 'W') {
            cell[h - 1][f] = '.';
            cell[h - 2][f + back] = 'W';
        }
        side = WHITE;
    }
    size_t n = 0;
    for (int r = h - 1; r >= 0; r--) {
        for (int f = 0; f < w;) {
            int run = 0;
            while (f < w && cell[r][f] == '.')
                run++, f++;
            if (run)
                n += (size_t)snprintf(out + n, len - n, "%d", run);
            else
                out[n++] = cell[r][f++];
        }
        out[n++] = r ? '/' : ' ';
    }
    snprintf(out + n, len - n, "%c", side == WHITE ? 'w' : 'b');
}

static void test_random_boards(TestContext *t)
{
    uint64_t seed = 42;
    static const char *variants[] = {"epaminondas", "crossings", "igfip"};
    int forbidden[3] = {0, 0, 0};
    for (int i = 0; i < 6000 && !t->failures; i++) {
        char text[1024];
        random_board_text(&seed, i % 2 == 1, text, sizeof text);
        Position pos;
        Game *g = test_open_position(t, variants[i % 6 / 2], text, &pos);
        if (!g)
            break;
        int failures = t->failures;
        check_against_reference(t, g, &pos, &forbidden[i % 6 / 2]);
        Move moves[MAX_MOVES];
        int n = game_gen_moves(g, &pos, moves);
        for (int k = 0; k < n && k < 40; k++) {
            Position scratch = pos;
            check_invariants(t, g, &scratch, moves[k]);
        }
        if (t->failures > failures)
            fprintf(stderr, "  on %s '%s'\n", g->name, text);
        game_free(g);
    }
    /* The boards must really exercise the symmetry and answering rules. */
    if (forbidden[0] < 50 || forbidden[1] < 50 || forbidden[2] < 50) {
        fprintf(stderr, "  only %d symmetry-rule, %d and %d answering-rule refusals seen\n", forbidden[0], forbidden[1],
                forbidden[2]);
        t->failures++;
    }
}

/* Igfip boards where most stones have crossed: each far rank holds its crosser's stones at
 * random, the home ranks the defenders', and at most two stones of each colour stand anywhere
 * else, so that the answering rule, the lost races and the draw (no stone that can move) all
 * come up; each checked against the reference, and each status must be seen. */
static void random_across_board_text(uint64_t *seed, char *out, size_t len)
{
    int w = 3 + (int)(next_random(seed) % 14), h = 5 + (int)(next_random(seed) % 12);
    char cell[16][16];
    for (int r = 0; r < h; r++)
        for (int f = 0; f < w; f++) {
            uint64_t x = next_random(seed) % 8;
            cell[r][f] = x == 0 ? 'x' : '.';
            if (r == h - 1 && x >= 5)
                cell[r][f] = x == 7 ? 'B' : 'W';
            if (r == 0 && x >= 5)
                cell[r][f] = x == 7 ? 'W' : 'B';
        }
    for (int c = 0; c < 2; c++)
        for (int k = (int)(next_random(seed) % 3); k > 0; k--) {
            int f = (int)(next_random(seed) % (uint64_t)w), r = 1 + (int)(next_random(seed) % (uint64_t)(h - 2));
            if (cell[r][f] == '.')
                cell[r][f] = c == WHITE ? 'W' : 'B';
        }
    size_t n = 0;
    for (int r = h - 1; r >= 0; r--) {
        for (int f = 0; f < w;) {
            int run = 0;
            while (f < w && cell[r][f] == '.')
                run++, f++;
            if (run)
                n += (size_t)snprintf(out + n, len - n, "%d", run);
            else
                out[n++] = cell[r][f++];
        }
        out[n++] = r ? '/' : ' ';
    }
    snprintf(out + n, len - n, "%c", next_random(seed) % 2 ? 'w' : 'b');
}

static void test_random_igfip_endgames(TestContext *t)
{
    uint64_t seed = 2024;
    int seen[4] = {0, 0, 0, 0}, forbidden = 0;
    for (int i = 0; i < 3000 && !t->failures; i++) {
        char text[1024];
        random_across_board_text(&seed, text, sizeof text);
        Position pos;
        Game *g = test_open_position(t, "igfip", text, &pos);
        if (!g)
            break;
        int failures = t->failures;
        check_against_reference(t, g, &pos, &forbidden);
        seen[game_status(g, &pos)]++;
        Move moves[MAX_MOVES];
        int n = game_gen_moves(g, &pos, moves);
        for (int k = 0; k < n && k < 20; k++) {
            Position scratch = pos;
            check_invariants(t, g, &scratch, moves[k]);     /* leaves the position after the move */
            check_against_reference(t, g, &scratch, NULL);
        }
        if (t->failures > failures)
            fprintf(stderr, "  on igfip '%s'\n", text);
        game_free(g);
    }
    if (seen[STATUS_ONGOING] < 100 || seen[STATUS_WHITE_WINS] < 100 || seen[STATUS_BLACK_WINS] < 100 ||
        seen[STATUS_DRAW] < 20 || forbidden < 100) {
        fprintf(stderr, "  statuses seen: %d ongoing, %d white, %d black, %d draws; %d refusals\n", seen[0], seen[1],
                seen[2], seen[3], forbidden);
        t->failures++;
    }
}

/* The fast playout (line counts kept per line, looked up in tables) must play exactly the games
 * of the plain one that lists every ply's moves: same generator, same moves, same end. */
static void compare_playouts(TestContext *t, const Game *g, const Position *start, uint64_t seed, int max_plies)
{
    Position fast = *start, listed = *start;
    Rng rng_fast = rng_seed(seed, 0), rng_listed = rng_seed(seed, 0);
    Move moves[MAX_MOVES];
    PlayoutResult a = playout_random(g, &fast, &rng_fast, max_plies, moves);
    PlayoutResult b = playout_random_listed(g, &listed, &rng_listed, max_plies, moves);
    if (a.plies != b.plies || a.status != b.status || game_hash(g, &fast) != game_hash(g, &listed)) {
        char text[1024];
        game_format_position(g, start, text, sizeof text);
        fprintf(stderr, "  %s seed %llu from '%s': fast playout %d plies status %d, listed %d plies status %d\n",
                g->name, (unsigned long long)seed, text, a.plies, (int)a.status, b.plies, (int)b.status);
        t->failures++;
    }
}

static void test_fast_playouts_match_listed(TestContext *t)
{
    static const struct { const char *variant; int w, h, games; } boards[] = {
        {"epaminondas", 0, 0, 60},      /* 14x12: every line has a table */
        {"epaminondas", 16, 16, 10},    /* rows and columns of 16 are counted, not looked up */
        {"epaminondas", 5, 6, 300},
        {"crossings", 0, 0, 200},       /* tower lines are counted, the others looked up */
        {"crossings", 4, 7, 300},
        {"igfip", 0, 0, 60},            /* lines through the far ranks are counted */
        {"igfip", 8, 8, 200},
        {"igfip", 4, 7, 300},
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0] && !t->failures; i++) {
        Position pos;
        Game *g = open_start(t, boards[i].variant, boards[i].w, boards[i].h, &pos);
        if (!g)
            return;
        for (int n = 0; n < boards[i].games && !t->failures; n++)
            compare_playouts(t, g, &pos, (uint64_t)(i * 1000 + n), 1000);
        game_free(g);
    }
    /* Random shapes with obstacles, every rule set.  Each new game builds its line tables on
     * its first playout (0.1 s for lines of 14), so there are fewer of these than of games. */
    static const char *variants[] = {"epaminondas", "crossings", "igfip"};
    uint64_t seed = 7;
    for (int i = 0; i < 300 && !t->failures; i++) {
        char text[1024];
        random_board_text(&seed, i % 4 == 1, text, sizeof text);
        Position pos;
        Game *g = test_open_position(t, variants[i % 3], text, &pos);
        if (!g)
            return;
        compare_playouts(t, g, &pos, (uint64_t)i, 300);
        game_free(g);
    }
}

const TestCase phalanx_tests[] = {
    {"perft_epaminondas_14x12", test_perft_epaminondas_14x12},
    {"perft_epaminondas_8x8", test_perft_epaminondas_8x8},
    {"perft_crossings_8x8", test_perft_crossings_8x8},
    {"perft_igfip_14x12", test_perft_igfip_14x12},
    {"perft_igfip_8x8", test_perft_igfip_8x8},
    {"perft_16x16", test_perft_16x16},
    {"perft_threads_agree", test_perft_threads_agree},
    {"capture_shorter_line", test_capture_shorter_line},
    {"no_capture_of_equal_line", test_no_capture_of_equal_line},
    {"whole_line_vs_struck_stone", test_whole_line_vs_struck_stone},
    {"win_at_start_of_turn", test_win_at_start_of_turn},
    {"far_rank_stone_moves_and_falls", test_far_rank_stone_moves_and_falls},
    {"symmetry_rule", test_symmetry_rule},
    {"towers", test_towers},
    {"answering_rule", test_answering_rule},
    {"no_move_loses", test_no_move_loses},
    {"obstacles", test_obstacles},
    {"sixteen_by_sixteen_with_obstacles", test_sixteen_by_sixteen_with_obstacles},
    {"bad_positions", test_bad_positions},
    {"position_must_fit_game", test_position_must_fit_game},
    {"bad_moves", test_bad_moves},
    {"random_games_epaminondas", test_random_games_epaminondas},
    {"random_games_small_boards", test_random_games_small_boards},
    {"random_boards", test_random_boards},
    {"random_igfip_endgames", test_random_igfip_endgames},
    {"fast_playouts_match_listed", test_fast_playouts_match_listed},
    TEST_END,
};
