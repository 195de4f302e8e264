/*
 * test_reversi.c - the Reversi module through the public interface of core/game.h: perft against
 * the published counts, notation round trips and every rejection message, passes and game ends,
 * and random playouts that check make/unmake, hashing and move generation against a slow,
 * obviously-correct reference written here on a plain character board.
 */
#include "core/game.h"
#include "test.h"

#include <stdlib.h>

static const char *const START = "8/8/8/3WB3/3BW3/8/8/8 b";

static Game *new_reversi(TestContext *t)
{
    Error err = {0};
    Game *g = game_new("reversi", 0, 0, &err);
    CHECK(t, g != NULL);
    if (!g)
        fprintf(stderr, "  game_new: %s\n", err.msg);
    return g;
}

static bool parse_ok(TestContext *t, const Game *g, const char *text, Position *p)
{
    Error err = {0};
    const bool ok = game_parse_position(g, text, p, &err);
    CHECK(t, ok);
    if (!ok)
        fprintf(stderr, "  parse '%s': %s\n", text, err.msg);
    return ok;
}

/* Moves of a position as "d3 c4 f5 e6". */
static void moves_text(const Game *g, const Position *p, char *out, size_t len)
{
    Move moves[MAX_MOVES];
    const int n = game_gen_moves(g, p, moves);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used + 8 < len; i++) {
        char name[16];
        game_format_move(g, p, moves[i], name, sizeof name);
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "", name);
    }
}

/* ---------------------------------------------------------------- perft */

static void test_perft_from_start(TestContext *t)
{
    static const uint64_t expected[] = {1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    game_start(g, &p);
    for (int depth = 0; depth <= 9; depth++)
        CHECK_EQ_U64(t, game_perft(g, &p, depth), expected[depth]);
    game_free(g);
}

/* perft from a position reached by moves agrees with the sum over the start's children. */
static void test_perft_children_sum(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    game_start(g, &p);
    Move moves[MAX_MOVES];
    const int n = game_gen_moves(g, &p, moves);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        game_make(g, &p, moves[i], &u);
        sum += game_perft(g, &p, 7);
        game_unmake(g, &p, moves[i], &u);
    }
    CHECK_EQ_U64(t, sum, 390216);
    game_free(g);
}

/* ---------------------------------------------------------------- start, notation, drawing */

static void test_start_position(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position start, parsed;
    game_start(g, &start);
    char text[128];
    game_format_position(g, &start, text, sizeof text);
    CHECK_STR(t, text, START);
    if (parse_ok(t, g, START, &parsed))
        CHECK(t, memcmp(&start, &parsed, sizeof start) == 0);
    CHECK(t, game_side_to_move(g, &start) == BLACK);
    CHECK(t, game_stones(g, &start, WHITE) == 2);
    CHECK(t, game_stones(g, &start, BLACK) == 2);
    CHECK(t, game_status(g, &start) == STATUS_ONGOING);
    CHECK_EQ_U64(t, game_hash(g, &start), game_hash_fresh(g, &start));
    moves_text(g, &start, text, sizeof text);
    CHECK_STR(t, text, "d3 c4 f5 e6");
    CHECK(t, game_count_moves(g, &start) == 4);
    game_free(g);
}

/* square(): file from the left, rank 0 at the bottom of the printed board (Othello row 8). */
static void test_square_orientation(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    if (parse_ok(t, g, "W7/8/8/8/8/8/8/6BW w", &p)) {
        CHECK(t, game_square(g, &p, 0, 7) == 'W');  /* a1: top left */
        CHECK(t, game_square(g, &p, 6, 0) == 'B');  /* g8 */
        CHECK(t, game_square(g, &p, 7, 0) == 'W');  /* h8: bottom right */
        CHECK(t, game_square(g, &p, 1, 7) == '.');
        CHECK(t, game_square(g, &p, 8, 0) == '.');  /* off the board */
    }
    Position start;
    game_start(g, &start);
    CHECK(t, game_square(g, &start, 3, 4) == 'W');  /* d4 */
    CHECK(t, game_square(g, &start, 4, 4) == 'B');  /* e4 */
    CHECK(t, game_square(g, &start, 3, 3) == 'B');  /* d5 */
    CHECK(t, game_square(g, &start, 4, 3) == 'W');  /* e5 */
    game_free(g);
}

static void test_move_round_trip(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    game_start(g, &p);
    Error err = {0};
    Move m = MOVE_NONE;
    CHECK(t, game_parse_move(g, &p, "d3", &m, &err));
    char name[16];
    game_format_move(g, &p, m, name, sizeof name);
    CHECK_STR(t, name, "d3");
    Undo u;
    game_make(g, &p, m, &u);
    char text[128];
    game_format_position(g, &p, text, sizeof text);
    CHECK_STR(t, text, "8/8/3B4/3BB3/3BW3/8/8/8 w");
    CHECK(t, game_stones(g, &p, BLACK) == 4);
    CHECK(t, game_stones(g, &p, WHITE) == 1);
    moves_text(g, &p, text, sizeof text);
    CHECK_STR(t, text, "c3 e3 c5");
    game_free(g);
}

static void test_hash_depends_on_side(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position black, white;
    if (parse_ok(t, g, START, &black) && parse_ok(t, g, "8/8/8/3WB3/3BW3/8/8/8 w", &white))
        CHECK(t, game_hash(g, &black) != game_hash(g, &white));
    game_free(g);
}

/* ---------------------------------------------------------------- passes and game ends */

/* White's discs cannot outflank anything; Black can take the last empty run. */
static void test_forced_pass(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    if (!parse_ok(t, g, "8/8/8/8/8/8/8/BW6 w", &p)) {
        game_free(g);
        return;
    }
    char text[128];
    moves_text(g, &p, text, sizeof text);
    CHECK_STR(t, text, "pass");
    CHECK(t, game_count_moves(g, &p) == 1);
    CHECK(t, game_status(g, &p) == STATUS_ONGOING);
    CHECK_EQ_U64(t, game_perft(g, &p, 1), 1);
    CHECK_EQ_U64(t, game_perft(g, &p, 2), 1);
    CHECK_EQ_U64(t, game_perft(g, &p, 3), 0);   /* after pass, c8 ends the game */

    Move m = MOVE_NONE;
    Error err = {0};
    CHECK(t, game_parse_move(g, &p, "pass", &m, &err));
    CHECK(t, !game_parse_move(g, &p, "c8", &m, &err) && strstr(err.msg, "the only move is pass"));
    const Position before = p;
    Undo u;
    game_make(g, &p, m, &u);
    CHECK(t, game_side_to_move(g, &p) == BLACK);
    CHECK_EQ_U64(t, game_hash(g, &p), game_hash_fresh(g, &p));
    moves_text(g, &p, text, sizeof text);
    CHECK_STR(t, text, "c8");
    game_unmake(g, &p, m, &u);
    CHECK(t, memcmp(&before, &p, sizeof p) == 0);
    game_free(g);
}

static void test_finished_game(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    if (!parse_ok(t, g, "8/8/8/8/8/8/8/BBB5 w", &p)) {
        game_free(g);
        return;
    }
    Move moves[MAX_MOVES];
    CHECK(t, game_status(g, &p) == STATUS_BLACK_WINS);
    CHECK(t, game_gen_moves(g, &p, moves) == 0);
    CHECK(t, game_count_moves(g, &p) == 0);
    CHECK_EQ_U64(t, game_perft(g, &p, 0), 1);
    CHECK_EQ_U64(t, game_perft(g, &p, 1), 0);
    CHECK_EQ_U64(t, game_perft(g, &p, 3), 0);
    Error err = {0};
    Move m;
    CHECK(t, !game_parse_move(g, &p, "pass", &m, &err) && strstr(err.msg, "the game is over"));
    CHECK(t, !game_parse_move(g, &p, "d3", &m, &err) && strstr(err.msg, "move 'd3': the game is over"));
    game_free(g);
}

/* Plays the last empty square and checks the result. */
static void play_last_square(TestContext *t, const char *position, const char *move, GameStatus result,
                             int white, int black)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    Move m = MOVE_NONE;
    Error err = {0};
    if (parse_ok(t, g, position, &p) && game_parse_move(g, &p, move, &m, &err)) {
        Undo u;
        CHECK(t, game_status(g, &p) == STATUS_ONGOING);
        game_make(g, &p, m, &u);
        CHECK(t, game_status(g, &p) == result);
        CHECK(t, game_stones(g, &p, WHITE) == white);
        CHECK(t, game_stones(g, &p, BLACK) == black);
        CHECK(t, game_count_moves(g, &p) == 0);
        CHECK_EQ_U64(t, game_perft(g, &p, 2), 0);
        CHECK_EQ_U64(t, game_hash(g, &p), game_hash_fresh(g, &p));
    } else {
        CHECK(t, !"last move parses");
        fprintf(stderr, "  %s\n", err.msg);
    }
    game_free(g);
}

static void test_full_board_draw(TestContext *t)
{
    /* White's h8 flips b8-g8 only: 32 discs each. */
    play_last_square(t, "BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW/WBBBBBB1 w", "h8",
                     STATUS_DRAW, 32, 32);
    Game *g = new_reversi(t);
    Position p;
    if (g && parse_ok(t, g, "WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB b", &p))
        CHECK(t, game_status(g, &p) == STATUS_DRAW);
    game_free(g);
}

static void test_full_board_win(TestContext *t)
{
    /* Black's h8 flips g8, h5-h7 and e5-g7. */
    play_last_square(t, "BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/WWWWWWWW/WWWWWWWW/WWWWWWWW/BBBBBBW1 b", "h8",
                     STATUS_BLACK_WINS, 18, 46);
    Game *g = new_reversi(t);
    Position p;
    if (g && parse_ok(t, g, "WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB b", &p))
        CHECK(t, game_status(g, &p) == STATUS_WHITE_WINS);
    game_free(g);
}

/* ---------------------------------------------------------------- rejections */

typedef struct {
    const char *text;
    const char *message;    /* a substring of the error */
} Rejection;

static void check_move_rejections(TestContext *t, const Game *g, const Position *p, const Rejection *cases,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Error err = {0};
        Move m = MOVE_NONE;
        const bool ok = game_parse_move(g, p, cases[i].text, &m, &err);
        CHECK(t, !ok);
        CHECK(t, strchr(err.msg, '\n') == NULL);
        if (ok || !strstr(err.msg, cases[i].message)) {
            fprintf(stderr, "  move '%s': got \"%s\", want \"%s\"\n", cases[i].text, err.msg, cases[i].message);
            t->failures++;
        }
    }
}

static void test_move_errors(TestContext *t)
{
    static const Rejection at_start[] = {
        {"z9", "move 'z9': not a square"},
        {"", "not a square"},
        {"D3", "not a square"},
        {"d9", "not a square"},
        {"d3 ", "not a square"},
        {"d", "not a square"},
        {"passed", "not a square"},
        {"d4", "move 'd4': square is occupied"},
        {"a1", "move 'a1': flips nothing"},
        {"pass", "move 'pass': a placement is available"},
        {"\n\t", "move '?\?': not a square"},
        {"abcdefghijklmnopqrstuvwxyz", "move 'abcdefghijklmnop...': not a square"},
    };
    static const Rejection when_over[] = {
        {"d3", "move 'd3': the game is over"},
        {"pass", "move 'pass': the game is over"},
        {"q1", "not a square"},
    };
    Game *g = new_reversi(t);
    if (!g)
        return;
    Position p;
    game_start(g, &p);
    check_move_rejections(t, g, &p, at_start, sizeof at_start / sizeof at_start[0]);
    if (parse_ok(t, g, "8/8/8/8/8/8/8/WWW5 b", &p))
        check_move_rejections(t, g, &p, when_over, sizeof when_over / sizeof when_over[0]);
    game_free(g);
}

static void test_position_errors(TestContext *t)
{
    static const Rejection cases[] = {
        {"", "position: empty string"},
        {"8/8/8/3WB3/3BW3/8/8/8", "missing side to move ('w' or 'b')"},
        {"8/8/8/3WB3/3BW3/8/8/8 ", "missing side to move"},
        {"8/8/8/3WB3/3BW3/8/8/8 x", "bad side to move 'x'"},
        {"8/8/8/3WB3/3BW3/8/8/8 B", "bad side to move 'B'"},
        {"8/8/8/3WB3/3BW3/8/8/8  b", "exactly one space"},
        {"8/8/8/3WB3/3BW3/8/8/8 b ", "unexpected text after the side to move"},
        {"8/8/8/3WB3/3BW3/8/8/8 bw", "unexpected text after the side to move"},
        {"8/8/8/3WB3/3BW3/8/8/8 b\n", "unexpected text after the side to move"},
        {"8/8/9/3WB3/3BW3/8/8/8 b", "position: rank 3 has 9 squares, expected 8"},
        {"8/8/8/3WB4/3BW3/8/8/8 b", "rank 4 has 9 squares"},
        {"8/8/8/3WB3/3BW3/8/8/7 b", "rank 8 has 7 squares"},
        {"8/8/8/3WB3/3BW3/8/8/WWWWWWWWW b", "rank 8 has 9 squares"},
        {"8//8/3WB3/3BW3/8/8/8 b", "rank 2 has 0 squares"},
        {"8/8/8/3WB3/3BW3/8/8/44 b", "bad empty-square count '44' at column 1 of rank 8"},
        {"8/Q7/8/3WB3/3BW3/8/8/8 b", "position: bad character 'Q' at column 1 of rank 2"},
        {"8/8/8/3WQ3/3BW3/8/8/8 b", "bad character 'Q' at column 5 of rank 4"},
        {"8/8/8/3wb3/3BW3/8/8/8 b", "bad character 'w' at column 4 of rank 4"},
        {"8/8/8/3WB3/3BW3/8/8/7\x01 b", "bad character '\\x01' at column 8 of rank 8"},
        {"8/8/8/3Wx3/3BW3/8/8/8 b", "obstacle 'x' at column 5 of rank 4"},
        {"8/8/8/3WB3/3BW3/8/8 b", "position: 7 ranks, expected 8"},
        {"8/8/8/3WB3/3BW3/8/8/8/8 b", "more than 8 ranks"},
        {"0/8/8/3WB3/3BW3/8/8/8 b", "bad empty-square count '0' at column 1 of rank 1"},
        {"08/8/8/3WB3/3BW3/8/8/8 b", "bad empty-square count '08'"},
        {"8/8/8/3WB3/3BW3/8/8/17 b", "bad empty-square count '17'"},
        {"8/8/8/3WB3/3BW3/8/8/99999999999999999999 b", "bad empty-square count '99999999...'"},
    };
    Game *g = new_reversi(t);
    if (!g)
        return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Error err = {0};
        Position p;
        const char *want = cases[i].message;
        const bool ok = game_parse_position(g, cases[i].text, &p, &err);
        CHECK(t, strchr(err.msg, '\n') == NULL);
        if (ok || !strstr(err.msg, want)) {
            fprintf(stderr, "  position '%s': got \"%s\", want \"%s\"\n", cases[i].text, ok ? "(accepted)" : err.msg,
                    want);
            t->failures++;
        }
    }
    game_free(g);
}

/* Hostile lengths: over the limit, and a rank just under it. */
static void test_position_length_limits(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    enum { LONG = 10000 };
    char *text = malloc(LONG + 1);
    CHECK(t, text != NULL);
    if (text) {
        Error err = {0};
        Position p;
        memset(text, '1', LONG);
        text[LONG] = '\0';
        CHECK(t, !game_parse_position(g, text, &p, &err) && strstr(err.msg, "longer than 4096"));
        memset(text, 'B', 4000);
        text[4000] = '\0';
        CHECK(t, !game_parse_position(g, text, &p, &err) && strstr(err.msg, "rank 1 has 4000 squares"));
        free(text);
    }
    game_free(g);
}

/* ---------------------------------------------------------------- reference and playouts */

/* A deliberately plain Reversi on a character board, read through game_square(), to check the
 * bitboard code against.  board[row][col], row 0 = Othello row 1. */
typedef struct {
    char board[8][8];
} Reference;

static Reference reference_of(const Game *g, const Position *p)
{
    Reference r;
    for (int row = 0; row < 8; row++)
        for (int col = 0; col < 8; col++)
            r.board[row][col] = game_square(g, p, col, 7 - row);
    return r;
}

/* Discs that `me` flips by placing on (row, col); 0 when the square is taken. */
static int reference_flip(Reference *r, int row, int col, char me, bool apply)
{
    static const int steps[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
    const char them = me == 'W' ? 'B' : 'W';
    if (r->board[row][col] != '.')
        return 0;
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int y = row + steps[d][0], x = col + steps[d][1], run = 0;
        while (y >= 0 && y < 8 && x >= 0 && x < 8 && r->board[y][x] == them)
            y += steps[d][0], x += steps[d][1], run++;
        if (run == 0 || y < 0 || y >= 8 || x < 0 || x >= 8 || r->board[y][x] != me)
            continue;
        total += run;
        for (int k = 1; apply && k <= run; k++)
            r->board[row + k * steps[d][0]][col + k * steps[d][1]] = me;
    }
    if (apply && total)
        r->board[row][col] = me;
    return total;
}

static bool reference_can_place(Reference *r, char me)
{
    for (int row = 0; row < 8; row++)
        for (int col = 0; col < 8; col++)
            if (reference_flip(r, row, col, me, false))
                return true;
    return false;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The generated moves equal the reference's, and each formats and parses back to itself. */
static void check_moves(TestContext *t, const Game *g, const Position *p, const Move *moves, int n)
{
    Reference r = reference_of(g, p);
    const char me = game_side_to_move(g, p) == WHITE ? 'W' : 'B';
    int expected = 0;
    for (int row = 0; row < 8; row++)
        for (int col = 0; col < 8; col++)
            expected += reference_flip(&r, row, col, me, false) > 0;
    if (expected == 0 && reference_can_place(&r, me == 'W' ? 'B' : 'W'))
        expected = 1;   /* the pass */
    CHECK(t, n == expected);
    CHECK(t, game_count_moves(g, p) == n);
    for (int i = 0; i < n; i++) {
        char name[16];
        Move back = MOVE_NONE;
        Error err = {0};
        game_format_move(g, p, moves[i], name, sizeof name);
        CHECK(t, game_parse_move(g, p, name, &back, &err));
        CHECK(t, back == moves[i]);
        if (strcmp(name, "pass") != 0)
            CHECK(t, reference_flip(&r, name[1] - '1', name[0] - 'a', me, false) > 0);
    }
}

/* After `m`: the board equals the reference's, the disc counts moved by 1 + flips, the hash is
 * right, and the position survives a format/parse round trip. */
static void check_after_make(TestContext *t, const Game *g, const Position *before, const Position *after, Move m)
{
    const int mover = game_side_to_move(g, before);
    char name[16];
    game_format_move(g, before, m, name, sizeof name);
    Reference r = reference_of(g, before);
    int flips = 0;
    if (strcmp(name, "pass") != 0)
        flips = reference_flip(&r, name[1] - '1', name[0] - 'a', mover == WHITE ? 'W' : 'B', true);
    const Reference got = reference_of(g, after);
    CHECK(t, memcmp(&got, &r, sizeof r) == 0);
    CHECK(t, game_side_to_move(g, after) == !mover);
    const int placed = strcmp(name, "pass") != 0;
    CHECK(t, game_stones(g, after, mover) == game_stones(g, before, mover) + placed + flips);
    CHECK(t, game_stones(g, after, !mover) == game_stones(g, before, !mover) - flips);
    CHECK_EQ_U64(t, game_hash(g, after), game_hash_fresh(g, after));
    char text[128];
    Position parsed;
    Error err = {0};
    game_format_position(g, after, text, sizeof text);
    CHECK(t, game_parse_position(g, text, &parsed, &err));
    CHECK(t, memcmp(&parsed, after, sizeof parsed) == 0);
}

static void play_random_game(TestContext *t, const Game *g, uint64_t *rng)
{
    Position p;
    game_start(g, &p);
    Move moves[MAX_MOVES];
    for (int ply = 0; ply < 200; ply++) {
        const int n = game_gen_moves(g, &p, moves);
        check_moves(t, g, &p, moves, n);
        if (n == 0) {
            CHECK(t, game_status(g, &p) != STATUS_ONGOING);
            return;
        }
        CHECK(t, game_status(g, &p) == STATUS_ONGOING);
        const Move m = moves[splitmix64(rng) % (uint64_t)n];
        const Position before = p;
        Undo u;
        game_make(g, &p, m, &u);
        check_after_make(t, g, &before, &p, m);
        Position undone = p;
        game_unmake(g, &undone, m, &u);
        CHECK(t, memcmp(&undone, &before, sizeof undone) == 0);
        CHECK_EQ_U64(t, game_hash(g, &undone), game_hash(g, &before));
        if (t->failures)
            return;     /* one broken game says enough */
    }
    CHECK(t, !"a game ends within 200 plies");
}

static void test_random_playouts(TestContext *t)
{
    Game *g = new_reversi(t);
    if (!g)
        return;
    uint64_t rng = 20240601;
    for (int game = 0; game < 2000 && !t->failures; game++)
        play_random_game(t, g, &rng);
    game_free(g);
}

const TestCase reversi_tests[] = {
    {"perft_from_start", test_perft_from_start},
    {"perft_children_sum", test_perft_children_sum},
    {"start_position", test_start_position},
    {"square_orientation", test_square_orientation},
    {"move_round_trip", test_move_round_trip},
    {"hash_depends_on_side", test_hash_depends_on_side},
    {"forced_pass", test_forced_pass},
    {"finished_game", test_finished_game},
    {"full_board_draw", test_full_board_draw},
    {"full_board_win", test_full_board_win},
    {"move_errors", test_move_errors},
    {"position_errors", test_position_errors},
    {"position_length_limits", test_position_length_limits},
    {"random_playouts", test_random_playouts},
    TEST_END,
};
