/*
 * fuzz_parsers.c - libFuzzer harness for the text parsers of every game: position strings
 * (game_new_for_position, RULES.md section 1) and moves (parse_move, section 5).
 *
 * Input: one variant byte, the position text, a NUL, the move text (up to the next NUL or the
 * end).  The variant byte (mod 4) picks the game that gets the full treatment; the position text
 * is also read as a position of the other three games.  For each game whose parser accepts it:
 *
 *   - the string is canonical: format(parse(s)) == s (RULES.md: nothing is guessed), and
 *     parse(format(p)) formats identically, with the same hash, side, stones, status, moves;
 *   - the incremental hash equals the hash computed from scratch;
 *   - the move text is parsed on that position and on the game's start position (default board
 *     and, for the phalanx games, the parsed board's size); an accepted move is one of gen_moves,
 *     formats back to a text that parses to the same move, and make keeps hash == hash_fresh,
 *     gives a position whose string parses again, and unmake restores the position;
 *   - (selected game only) every legal move survives format_move -> parse_move and make/unmake.
 *
 * Every rejection must come with a message: non-empty, terminated within ERROR_LEN, and one line
 * for the position parsers.  Move and size messages quote the user's text; they are held to one
 * line only with -DLEUCTRA_FUZZ_STRICT_ERRORS (the phalanx move parser and game_parse_size copy
 * a newline of the input into the message).
 *
 * Any broken invariant stops the run with __builtin_trap().  Built and run by `make fuzz`.
 */
#include "core/game.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                  \
    do {                             \
        if (!(cond))                 \
            __builtin_trap();        \
    } while (0)

enum { TEXT_LEN = 1024, MAX_ROUND_TRIP_MOVES = 512 };

static const char *const variant_names[4] = {"epaminondas", "crossings", "reversi", "igfip"};

static Move moves_buf[MAX_MOVES];

/* A rejection's message: present, terminated, and (if `one_line`) without a line break. */
static void check_error(const Error *err, bool one_line)
{
    size_t n = strnlen(err->msg, ERROR_LEN);
    CHECK(n > 0 && n < ERROR_LEN);
    if (one_line)
        CHECK(memchr(err->msg, '\n', n) == NULL && memchr(err->msg, '\r', n) == NULL);
}

#ifdef LEUCTRA_FUZZ_STRICT_ERRORS
static const bool strict_errors = true;
#else
static const bool strict_errors = false;
#endif

static void format_checked(const Game *g, const Position *p, char *buf)
{
    buf[TEXT_LEN - 1] = '\x7f';
    game_format_position(g, p, buf, TEXT_LEN);
    CHECK(buf[TEXT_LEN - 1] == '\x7f' || buf[TEXT_LEN - 1] == '\0');
    CHECK(strnlen(buf, TEXT_LEN) < TEXT_LEN - 1); /* not cut short */
}

static bool is_move_of(const Game *g, const Position *p, Move m)
{
    int n = game_gen_moves(g, p, moves_buf);
    CHECK(n >= 0 && n <= MAX_MOVES);
    for (int i = 0; i < n; i++)
        if (moves_buf[i] == m)
            return true;
    return false;
}

/* Checks a position the parser accepted (or a child of one): hashes, counts and the string
 * round trip through a freshly built game. */
static void check_position(const Game *g, const Position *p, const char *variant)
{
    CHECK(game_hash(g, p) == game_hash_fresh(g, p));
    int side = game_side_to_move(g, p);
    CHECK(side == WHITE || side == BLACK);
    int n = game_gen_moves(g, p, moves_buf);
    CHECK(n >= 0 && n <= MAX_MOVES);
    CHECK(game_count_moves(g, p) == n);
    GameStatus status = game_status(g, p);
    CHECK((status == STATUS_ONGOING) == (n > 0));

    char text[TEXT_LEN], again[TEXT_LEN];
    format_checked(g, p, text);
    Position q;
    Error err;
    Game *g2 = game_new_for_position(variant, text, &q, &err);
    CHECK(g2 != NULL);
    CHECK(g2->width == g->width && g2->height == g->height);
    format_checked(g2, &q, again);
    CHECK(strcmp(text, again) == 0);
    CHECK(game_hash(g2, &q) == game_hash(g, p));
    CHECK(game_hash(g2, &q) == game_hash_fresh(g2, &q));
    CHECK(game_side_to_move(g2, &q) == side);
    CHECK(game_stones(g2, &q, WHITE) == game_stones(g, p, WHITE));
    CHECK(game_stones(g2, &q, BLACK) == game_stones(g, p, BLACK));
    CHECK(game_status(g2, &q) == status);
    CHECK(game_count_moves(g2, &q) == n);
    /* The same string read by the same game. */
    Position r;
    CHECK(game_parse_position(g, text, &r, &err));
    format_checked(g, &r, again);
    CHECK(strcmp(text, again) == 0);
    game_free(g2);
}

/* An accepted move: legal, formats back to itself, and make/unmake keep the position sound. */
static void check_move(const Game *g, const Position *p, Move m, const char *variant)
{
    CHECK(game_status(g, p) == STATUS_ONGOING);
    CHECK(is_move_of(g, p, m));

    char name[64];
    Move back;
    Error err;
    game_format_move(g, p, m, name, sizeof name);
    CHECK(name[0] != '\0');
    CHECK(game_parse_move(g, p, name, &back, &err));
    CHECK(back == m);

    char before[TEXT_LEN], after[TEXT_LEN];
    format_checked(g, p, before);
    uint64_t hash = game_hash(g, p);
    Position child = *p;
    Undo undo;
    game_make(g, &child, m, &undo);
    CHECK(game_hash(g, &child) == game_hash_fresh(g, &child));
    CHECK(game_side_to_move(g, &child) != game_side_to_move(g, p));
    format_checked(g, &child, after);
    Position reread;
    CHECK(game_parse_position(g, after, &reread, &err));
    CHECK(game_hash(g, &reread) == game_hash(g, &child));
    game_unmake(g, &child, m, &undo);
    CHECK(game_hash(g, &child) == hash);
    format_checked(g, &child, after);
    CHECK(strcmp(before, after) == 0);
    (void)variant;
}

/* Parses the move text on a position; checks what comes back either way. */
static void try_move_text(const Game *g, const Position *p, const char *move_text, const char *variant)
{
    Move m = MOVE_NONE;
    Error err;
    memset(&err, 0x55, sizeof err);
    if (game_parse_move(g, p, move_text, &m, &err)) {
        check_move(g, p, m, variant);
    } else {
        check_error(&err, strict_errors || g->variant == VARIANT_REVERSI);
    }
}

/* Every legal move of the position: format_move -> parse_move gives it back, make/unmake. */
static void check_all_moves(const Game *g, const Position *p, const char *variant)
{
    static Move list[MAX_MOVES];
    int n = game_gen_moves(g, p, list);
    CHECK(n >= 0 && n <= MAX_MOVES);
    if (n > MAX_ROUND_TRIP_MOVES)
        n = MAX_ROUND_TRIP_MOVES;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            CHECK(list[j] != list[i]);  /* each move listed once */
        check_move(g, p, list[i], variant);
    }
}

static void fuzz_variant(int v, const char *position_text, const char *move_text, bool full)
{
    const char *variant = variant_names[v];
    Position pos;
    Error err;
    memset(&err, 0x55, sizeof err);
    Game *g = game_new_for_position(variant, position_text, &pos, &err);
    if (!g) {
        check_error(&err, true);
    } else {
        CHECK(g->width >= 3 && g->width <= 16 && g->height >= 5 && g->height <= 16);
        char text[TEXT_LEN];
        format_checked(g, &pos, text);
        CHECK(strcmp(text, position_text) == 0);    /* accepted strings are canonical */
        check_position(g, &pos, variant);
        try_move_text(g, &pos, move_text, variant);
        if (full)
            check_all_moves(g, &pos, variant);

        /* The start position on the parsed board's size (no obstacles). */
        if (g->variant != VARIANT_REVERSI) {
            Game *sized = game_new(variant, g->width, g->height, &err);
            CHECK(sized != NULL);
            Position start;
            game_start(sized, &start);
            check_position(sized, &start, variant);
            try_move_text(sized, &start, move_text, variant);
            game_free(sized);
        }
        game_free(g);
    }

    /* The variant's default start position. */
    Game *d = game_new(variant, 0, 0, &err);
    CHECK(d != NULL);
    Position start;
    game_start(d, &start);
    try_move_text(d, &start, move_text, variant);
    game_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int selected = data[0] % 4;
    const uint8_t *rest = data + 1;
    size_t rest_len = size - 1;
    const uint8_t *nul = memchr(rest, '\0', rest_len);
    size_t pos_len = nul ? (size_t)(nul - rest) : rest_len;
    const uint8_t *move_start = nul ? nul + 1 : rest + rest_len;
    size_t move_avail = (size_t)(rest + rest_len - move_start);
    const uint8_t *move_nul = memchr(move_start, '\0', move_avail);
    size_t move_len = move_nul ? (size_t)(move_nul - move_start) : move_avail;

    /* Exact-size heap copies, so that ASan sees any read past the terminator. */
    char *position_text = malloc(pos_len + 1);
    char *move_text = malloc(move_len + 1);
    CHECK(position_text && move_text);
    memcpy(position_text, rest, pos_len);
    position_text[pos_len] = '\0';
    memcpy(move_text, move_start, move_len);
    move_text[move_len] = '\0';

    for (int i = 0; i < 4; i++) {
        int v = (selected + i) % 4;
        fuzz_variant(v, position_text, move_text, i == 0);
    }

    /* Board sizes ("8x8") share the move text. */
    int w = 0, h = 0;
    Error err;
    memset(&err, 0x55, sizeof err);
    if (game_parse_size(move_text, &w, &h, &err)) {
        CHECK(w >= 3 && w <= 16 && h >= 5 && h <= 16);
        /* and the text was digits, one x, digits: no blanks or signs */
        size_t a = strspn(move_text, "0123456789"), b = strspn(move_text + a + 1, "0123456789");
        CHECK(a > 0 && (move_text[a] == 'x' || move_text[a] == 'X') && b > 0 && move_text[a + 1 + b] == '\0');
    } else
        check_error(&err, strict_errors);

    free(position_text);
    free(move_text);
    return 0;
}
