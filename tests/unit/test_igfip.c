/*
 * test_igfip.c - Epaminondas as Igfip plays it (docs/RULES.md, "Igfip"): one hand-made position
 * for each rule and ruling, with the expected moves, messages and statuses, and the perft of
 * positions where those rules bite, engine against the plain reference generator.  The random
 * positions and the start perfts are in test_phalanx.c with the other phalanx games.
 */
#include "tests/reference/phalanx_reference.h"
#include "test.h"

static bool contains(const char *haystack, const char *needle) { return strstr(haystack, needle) != NULL; }

/* "" if the move is legal, else the engine's reason. */
static const char *move_error(const Game *g, const Position *pos, const char *text, Error *err)
{
    Move m;
    return game_parse_move(g, pos, text, &m, err) ? "" : err->msg;
}

/* Plays `text` and returns the resulting position string in buf (or why it is illegal). */
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

static GameStatus status_of(TestContext *t, const char *text)
{
    Position pos;
    Game *g = test_open_position(t, "igfip", text, &pos);
    if (!g)
        return STATUS_ONGOING;
    GameStatus s = game_status(g, &pos);
    game_free(g);
    return s;
}

/* The legal moves, sorted notation joined by spaces, into buf. */
static const char *moves_of(TestContext *t, const char *text, char *buf, size_t len)
{
    Position pos;
    Game *g = test_open_position(t, "igfip", text, &pos);
    buf[0] = '\0';
    if (!g)
        return buf;
    Move moves[MAX_MOVES];
    char names[64][12];
    int n = game_gen_moves(g, &pos, moves);
    for (int i = 0; i < n && i < 64; i++)
        game_format_move(g, &pos, moves[i], names[i], sizeof names[i]);
    for (int i = 1; i < n && i < 64; i++)       /* insertion sort: a handful of moves */
        for (int k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
            char tmp[12];
            memcpy(tmp, names[k], sizeof tmp);
            memcpy(names[k], names[k - 1], sizeof tmp);
            memcpy(names[k - 1], tmp, sizeof tmp);
        }
    size_t used = 0;
    for (int i = 0; i < n && i < 64; i++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i ? " " : "", names[i]);
    CHECK(t, game_count_moves(g, &pos) == n);
    game_free(g);
    return buf;
}

/* A crossing (white d8, black a1) never moves and blocks its own group, like a Crossings tower,
 * but unlike a tower it can be struck. */
static void test_crossing_frozen_but_capturable(TestContext *t)
{
    Position pos;
    Error err;
    char buf[256];
    Game *g = test_open_position(t, "igfip", "1BBW4/3W4/3W4/8/8/8/8/B7 w", &pos);
    CHECK(t, game_square(g, &pos, 3, 7) == 'T');
    CHECK(t, game_square(g, &pos, 0, 0) == 't');
    CHECK(t, game_square(g, &pos, 1, 7) == 'B');
    CHECK(t, game_square(g, &pos, 3, 6) == 'W');
    CHECK(t, contains(move_error(g, &pos, "d8-d7", &err), "the crossed stone on d8 never moves"));
    CHECK(t, contains(move_error(g, &pos, "d6-d8", &err), "blocked by a white stone on d8"));
    CHECK_STR(t, move_error(g, &pos, "d7-d5", &err), "");   /* d7,d6 are the whole group */
    game_free(g);
    /* Black b8,c8 strike the crossing on d8 (a line of one): now White is behind and must cross. */
    g = test_open_position(t, "igfip", "1BBW4/3W4/3W4/8/8/8/8/B7 b", &pos);
    CHECK_STR(t, after_move(g, &pos, "b8xc8", buf, sizeof buf), "2BB4/3W4/3W4/8/8/8/8/B7 w");
    game_free(g);
    /* d6,d7 answer by striking back on d8, or d7 crosses alone to e8 */
    CHECK_STR(t, moves_of(t, "2BB4/3W4/3W4/8/8/8/8/B7 w", buf, sizeof buf), "d6xd7 d7-e8");
    CHECK(t, status_of(t, "2BB4/8/8/3W4/8/8/8/B7 w") == STATUS_BLACK_WINS);
}

/* A crossing counts in the length of the line it ends and falls with the whole line. */
static void test_crossing_in_struck_line(TestContext *t)
{
    Position pos;
    Error err;
    char buf[256];
    Game *g = test_open_position(t, "igfip", "W7/8/8/8/2W5/2W5/2B5/2B5 w", &pos);
    CHECK(t, contains(move_error(g, &pos, "c4xc3", &err), "has 2 stones, not fewer than the group's 2"));
    game_free(g);
    g = test_open_position(t, "igfip", "W7/8/8/2W5/2W5/2W5/2B5/2B5 w", &pos);
    CHECK_STR(t, after_move(g, &pos, "c5xc4", buf, sizeof buf), "W7/8/8/8/2W5/2W5/2W5/8 b");
    game_free(g);
    /* Black, with no stones left and behind on the far ranks, has lost. */
    CHECK(t, status_of(t, "W7/8/8/8/2W5/2W5/2W5/8 b") == STATUS_WHITE_WINS);
}

/* White has crossed (a8): Black must cross at once (b2 to a1, b1 or c1) or lose. */
static void test_answering_rule(TestContext *t)
{
    Position pos;
    Error err;
    char buf[256];
    Game *g = test_open_position(t, "igfip", "W7/8/8/8/8/8/1B6/8 b", &pos);
    CHECK(t, contains(move_error(g, &pos, "b2-b3", &err),
                      "the crossing must be answered: only a move onto the far rank is legal"));
    CHECK_STR(t, moves_of(t, "W7/8/8/8/8/8/1B6/8 b", buf, sizeof buf), "b2-a1 b2-b1 b2-c1");
    game_free(g);
    CHECK(t, status_of(t, "W7/8/8/8/8/1B6/8/8 b") == STATUS_WHITE_WINS);
    /* Answered: play goes on and White need not cross (e4 has its eight king moves). */
    CHECK(t, status_of(t, "W7/8/8/8/4W3/8/8/1B6 w") == STATUS_ONGOING);
    CHECK(t, strlen(moves_of(t, "W7/8/8/8/4W3/8/8/1B6 w", buf, sizeof buf)) == 8 * 6 - 1);
    /* Striking the crossing is no answer: a8,b8 could take c8, but only crossings are legal. */
    g = test_open_position(t, "igfip", "BBW5/8/8/8/8/8/1B6/8 b", &pos);
    CHECK(t, contains(move_error(g, &pos, "a8xb8", &err), "the crossing must be answered"));
    game_free(g);
}

/* The race is counted, not remembered: level at one each, White strikes Black's crossing on b1
 * with d1,c1, and Black, behind now, must cross (b2-a1 is its only move). */
static void test_capture_reopens_race(TestContext *t)
{
    Position pos;
    char buf[256];
    Game *g = test_open_position(t, "igfip", "W7/8/8/8/8/8/1B6/1BWW4 w", &pos);
    CHECK_STR(t, after_move(g, &pos, "d1xc1", buf, sizeof buf), "W7/8/8/8/8/8/1B6/1WW5 b");
    game_free(g);
    CHECK_STR(t, moves_of(t, "W7/8/8/8/8/8/1B6/1WW5 b", buf, sizeof buf), "b2-a1");
    /* Two behind: an answer leaves Black one behind, so it must cross again on its next turn. */
    CHECK_STR(t, moves_of(t, "WW6/8/8/8/8/8/1B1B4/8 b", buf, sizeof buf), "b2-a1 b2-b1 b2-c1 d2-c1 d2-d1 d2-e1");
    CHECK_STR(t, moves_of(t, "WW6/8/8/8/8/2W5/3B4/1B6 b", buf, sizeof buf), "d2-c1 d2-d1 d2-e1");
}

/* Neither Abbott's win at the start of a turn nor his symmetry rule is played. */
static void test_no_turn_start_win_no_symmetry_rule(TestContext *t)
{
    char buf[256];
    CHECK(t, status_of(t, "W4/5/5/2W2/5/2B2 w") == STATUS_ONGOING);
    /* Black leads 1-0; a5-a6 would leave the board mirror-symmetric, and is legal here. */
    CHECK_STR(t, moves_of(t, "5/W1W2/5/5/2B2/B4 w", buf, sizeof buf), "a5-a6 a5-b6 c5-b6 c5-c6 c5-d6");
}

/* The draw: no stone on the board can move again (all stand on their far ranks), and the side
 * to move owes no answer.  Owing one, it has lost; with a stone left that can move, the rule
 * that a side without a legal move loses still holds. */
static void test_draw_when_no_stone_can_move(TestContext *t)
{
    CHECK(t, status_of(t, "W1W5/8/8/8/8/8/8/B1B5 w") == STATUS_DRAW);
    CHECK(t, status_of(t, "W1W5/8/8/8/8/8/8/B1B5 b") == STATUS_DRAW);
    CHECK(t, status_of(t, "WWW5/8/8/8/8/8/8/B1B5 w") == STATUS_DRAW);        /* ahead, no move */
    CHECK(t, status_of(t, "WWW5/8/8/8/8/8/8/B1B5 b") == STATUS_WHITE_WINS);  /* behind */
    CHECK(t, status_of(t, "W1W5/8/8/8/8/8/1W6/B1B5 b") == STATUS_WHITE_WINS); /* b2 can move */
    CHECK(t, status_of(t, "8/8/8/8/8/8/8/8 w") == STATUS_DRAW);
    /* The last free stone crosses, evening the race at two each: a draw by the rules. */
    Position pos;
    Error err;
    char buf[256];
    Game *g = test_open_position(t, "igfip", "W2/1W1/3/3/B1B w", &pos);
    CHECK_STR(t, after_move(g, &pos, "b4-b5", buf, sizeof buf), "WW1/3/3/3/B1B b");
    game_free(g);
    g = test_open_position(t, "igfip", "WW1/3/3/3/B1B b", &pos);
    CHECK(t, game_status(g, &pos) == STATUS_DRAW);
    Move moves[MAX_MOVES];
    CHECK(t, game_gen_moves(g, &pos, moves) == 0);
    CHECK(t, game_count_moves(g, &pos) == 0);
    CHECK_EQ_U64(t, game_perft(g, &pos, 1), 0);
    CHECK(t, contains(move_error(g, &pos, "a1-a2", &err), "the game is over (draw)"));
    game_free(g);
}

/* The draws a flood fill decides: no stone can ever reach its far rank, or an enemy stone, so
 * nobody can lose (the draw comes before any move: the game is over, moves or not); and a side
 * with no move while the other has none either.  Both were losses or went on to the ply limit. */
static void test_walled_draw(TestContext *t)
{
    /* Neither side can move: White's c1 and Black's a5 are boxed in, a crossing each. */
    CHECK(t, status_of(t, "BxW/xx1/3/1xx/BxW w") == STATUS_DRAW);
    /* A rank of obstacles across the board: both sides can move, neither can ever cross. */
    CHECK(t, status_of(t, "1B1/B1B/xxx/1W1/W1W w") == STATUS_DRAW);
    CHECK(t, status_of(t, "1B1/B1B/xxx/1W1/W1W b") == STATUS_DRAW);
    /* A hole in the wall: play goes on. */
    CHECK(t, status_of(t, "1B1/B1B/x1x/1W1/W1W w") == STATUS_ONGOING);
    /* Walled, but Black is behind (White's a5 crossed): it cannot answer and loses; with White to
     * move, White makes any move and Black then loses, so play goes on. */
    CHECK(t, status_of(t, "Wxx/xxx/1B1/xxx/W1W b") == STATUS_WHITE_WINS);
    CHECK(t, status_of(t, "Wxx/xxx/1B1/xxx/W1W w") == STATUS_ONGOING);
    /* Black's stones can reach White's crossing at a5, though not rank 1: not walled. */
    CHECK(t, status_of(t, "W1B/xxx/3/xxx/W1W w") == STATUS_ONGOING);
    Position pos;
    Game *g = test_open_position(t, "igfip", "1B1/B1B/xxx/1W1/W1W w", &pos);
    Move moves[MAX_MOVES];
    CHECK(t, g);
    if (g) {
        CHECK(t, game_gen_moves(g, &pos, moves) == 0);
        CHECK(t, game_count_moves(g, &pos) == 0);
    }
    CHECK_EQ_U64(t, g ? game_perft(g, &pos, 2) : 1, 0);
    game_free(g);
}

/* Crossings are permanent walls too (docs/RULES.md): none can be taken where no enemy pair can
 * reach it, and a region where neither colour has two free stones sees no capture.  Each of
 * these positions went on (or was lost for want of a move) before that ruling. */
static void test_walled_by_crossings(TestContext *t)
{
    /* Both far ranks obstacles, a lone stone of each colour between them. */
    CHECK(t, status_of(t, "xxx/1B1/3/1W1/xxx w") == STATUS_DRAW);
    /* Both far ranks full of crossings, a lone free stone each: nothing can be made or taken. */
    CHECK(t, status_of(t, "WWW/1B1/3/1W1/BBB w") == STATUS_DRAW);
    CHECK(t, status_of(t, "WWW/1B1/3/1W1/BBB b") == STATUS_DRAW);
    /* White's own crossings hold its far rank: its last free stone can never cross. */
    CHECK(t, status_of(t, "WWW/3/1W1/3/BBB w") == STATUS_DRAW);
    /* Two white stones could take Black's lone stone, and Black's crossings: play goes on. */
    CHECK(t, status_of(t, "WWW/1B1/3/WW1/BBB w") == STATUS_ONGOING);
    CHECK(t, status_of(t, "WWW/3/3/WW1/BBB w") == STATUS_ONGOING);
    /* Black's pair can reach White's crossings: no draw, and White, with no move, loses. */
    CHECK(t, status_of(t, "WWW/BB1/3/3/BBB w") == STATUS_BLACK_WINS);
    /* A gap in the far rank: the lone stone can still cross. */
    CHECK(t, status_of(t, "W1W/1B1/3/1W1/B1B w") == STATUS_ONGOING);
    Position pos;
    Game *g = test_open_position(t, "igfip", "WWW/1B1/3/1W1/BBB w", &pos);
    CHECK(t, g);
    if (g)
        CHECK(t, game_count_moves(g, &pos) == 0);
    CHECK_EQ_U64(t, g ? game_perft(g, &pos, 1) : 1, 0);
    game_free(g);
}

/* The reference generator agrees with the expectations above, the draw included. */
static void test_reference_agrees(TestContext *t)
{
    static const struct {
        const char *text;
        GameStatus status;
    } cases[] = {
        {"W1W5/8/8/8/8/8/8/B1B5 w", STATUS_DRAW},
        {"WWW5/8/8/8/8/8/8/B1B5 w", STATUS_DRAW},
        {"WWW5/8/8/8/8/8/8/B1B5 b", STATUS_WHITE_WINS},
        {"W1W5/8/8/8/8/8/1W6/B1B5 b", STATUS_WHITE_WINS},
        {"2BB4/8/8/3W4/8/8/8/B7 w", STATUS_BLACK_WINS},
        {"2BB4/3W4/3W4/8/8/8/8/B7 w", STATUS_ONGOING},
        {"W4/5/5/2W2/5/2B2 w", STATUS_ONGOING},
        {"BxW/xx1/3/1xx/BxW w", STATUS_DRAW},
        {"1B1/B1B/xxx/1W1/W1W w", STATUS_DRAW},
        {"1B1/B1B/x1x/1W1/W1W w", STATUS_ONGOING},
        {"Wxx/xxx/1B1/xxx/W1W b", STATUS_WHITE_WINS},
        {"Wxx/xxx/1B1/xxx/W1W w", STATUS_ONGOING},
        {"W1B/xxx/3/xxx/W1W w", STATUS_ONGOING},
        {"xxx/1B1/3/1W1/xxx w", STATUS_DRAW},
        {"WWW/1B1/3/1W1/BBB w", STATUS_DRAW},
        {"WWW/3/1W1/3/BBB w", STATUS_DRAW},
        {"WWW/1B1/3/WW1/BBB w", STATUS_ONGOING},
        {"WWW/3/3/WW1/BBB w", STATUS_ONGOING},
        {"WWW/BB1/3/3/BBB w", STATUS_BLACK_WINS},
        {"W1W/1B1/3/1W1/B1B w", STATUS_ONGOING},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos;
        Game *g = test_open_position(t, "igfip", cases[i].text, &pos);
        if (!g)
            continue;
        RefBoard b;
        ref_load(g, &pos, &b);
        CHECK(t, ref_status(&b) == cases[i].status);
        game_free(g);
    }
}

/* perft where the Igfip rules bite (crossings on both far ranks, a race to answer, lines that
 * end in crossings), engine and reference; the counts are in docs/RULES.md. */
static void test_perft_positions(TestContext *t)
{
    static const struct {
        const char *text;
        uint64_t want[4];
    } cases[] = {
        {"1BBW4/3W4/3W4/8/8/8/8/B7 b", {8, 99, 815, 12167}},
        {"W1B2W2/1B6/2BB4/8/3W4/2W5/1W2B3/B2WW2W w", {39, 48, 1822, 48593}},
        {"1W1B1/W1B2/5/5/1B2W/4B/W1BB1 b", {23, 23, 520, 3264}},
        {"WB1W/4/1B2/W1W1/4/1BB1/B1WB w", {13, 286, 3347, 71120}},
        {"W1W5/1W6/8/8/8/8/6B1/B1B5 w", {6, 43, 169, 1001}},   /* draws from depth 2 on */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos;
        Game *g = test_open_position(t, "igfip", cases[i].text, &pos);
        if (!g)
            continue;
        RefBoard b;
        ref_load(g, &pos, &b);
        for (int d = 1; d <= 4; d++) {
            CHECK_EQ_U64(t, game_perft(g, &pos, d), cases[i].want[d - 1]);
            CHECK_EQ_U64(t, ref_perft(&b, d), cases[i].want[d - 1]);
        }
        game_free(g);
    }
}

const TestCase igfip_tests[] = {
    {"crossing_frozen_but_capturable", test_crossing_frozen_but_capturable},
    {"crossing_in_struck_line", test_crossing_in_struck_line},
    {"answering_rule", test_answering_rule},
    {"capture_reopens_race", test_capture_reopens_race},
    {"no_turn_start_win_no_symmetry_rule", test_no_turn_start_win_no_symmetry_rule},
    {"draw_when_no_stone_can_move", test_draw_when_no_stone_can_move},
    {"walled_draw", test_walled_draw},
    {"walled_by_crossings", test_walled_by_crossings},
    {"reference_agrees", test_reference_agrees},
    {"perft_positions", test_perft_positions},
    TEST_END,
};
