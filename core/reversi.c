/*
 * reversi.c - the Reversi (Othello) module: positions as two bitboards, legal moves and flips,
 * make/unmake with an incremental Zobrist hash, the position and move notations of RULES.md
 * (sections 1, 4, 5) and a bulk-counting perft (section 6).
 *
 * The Board, the bit helpers and the mobility and flip fills are in reversi.h, shared with
 * reversi_features.c and reversi_heuristic_priors.c (the evaluation features and the move priors).
 *
 * The position is kept relative to the mover (`own`, `opp`) rather than by colour, so the hot code
 * never asks whose turn it is; `side` records which colour `own` is.
 *
 * Mobility and flips use shift-based Kogge-Stone fills, four directions per vector (GCC/Clang
 * vector extensions: one AVX2 register with -march=native, plain SSE2 or scalar code elsewhere).
 * Neither needs a table, so perft runs on bare bitboards and never touches the Game.
 */
#include "modules.h"
#include "rng.h"
#include "reversi.h"
#include "policy.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- representation */

/* What unmake needs: the flipped discs (the placed square is the move itself) and the old hash. */
typedef struct {
    uint64_t flipped;
    uint64_t hash;
} UndoRecord;

static_assert(sizeof(UndoRecord) <= sizeof(Undo), "UndoRecord fits in Undo");

/* Zobrist keys: hash = XOR of disc[colour][square] over all discs, XOR side_black when Black is
 * to move.  flip[sq] = disc[WHITE][sq] ^ disc[BLACK][sq] turns one disc over. */
typedef struct {
    uint64_t disc[2][SQUARES];
    uint64_t flip[SQUARES];
    uint64_t side_black;
} ZobristKeys;

/* Every position starts from all-zero bytes, so positions with equal boards compare equal. */
static void phalanx_clear_position(Position *p)
{
    memset(p, 0, sizeof *p);
}

/* ---------------------------------------------------------------- perft */

/* Leaves one ply below (own, opp): its placements, or the single pass, or none when the game is
 * over. */
static inline uint64_t count_leaf_moves(uint64_t own, uint64_t opp)
{
    const uint64_t moves = legal_squares(own, opp);
    if (moves)
        return (uint64_t)popcount64(moves);
    return legal_squares(opp, own) != 0;
}

static uint64_t perft_bitboards(uint64_t own, uint64_t opp, int depth)
{
    uint64_t moves = legal_squares(own, opp);
    if (!moves) {
        if (!legal_squares(opp, own))
            return 0;   /* game over: no moves, no leaves */
        return depth == 1 ? 1 : perft_bitboards(opp, own, depth - 1);
    }
    if (depth == 1)
        return (uint64_t)popcount64(moves);
    uint64_t total = 0;
    /* Depth 2 counts its children's moves in place: this loop is where perft spends its time. */
    if (depth == 2) {
        for (; moves; moves &= moves - 1) {
            const int square = lowest_square(moves);
            const uint64_t flips = flipped_by(square, own, opp);
            total += count_leaf_moves(opp ^ flips, own | flips | (1ull << square));
        }
        return total;
    }
    for (; moves; moves &= moves - 1) {
        const int square = lowest_square(moves);
        const uint64_t flips = flipped_by(square, own, opp);
        total += perft_bitboards(opp ^ flips, own | flips | (1ull << square), depth - 1);
    }
    return total;
}

static uint64_t reversi_perft(const Game *g, const Position *p, int depth)
{
    (void)g;
    const Board b = load_board(p);
    return depth <= 0 ? 1 : perft_bitboards(b.own, b.opp, depth);
}

/* ---------------------------------------------------------------- hashing */

/* A fixed seed: hashes are the same in every run and on every machine (opening books and
 * regression logs may store them). */
enum { ZOBRIST_SEED = 0x52455653 }; /* "REVS" */

static void zobrist_init(ZobristKeys *keys)
{
    uint64_t state = ZOBRIST_SEED;
    for (int color = 0; color < 2; color++)
        for (int sq = 0; sq < SQUARES; sq++)
            keys->disc[color][sq] = splitmix64_next(&state);
    for (int sq = 0; sq < SQUARES; sq++)
        keys->flip[sq] = keys->disc[WHITE][sq] ^ keys->disc[BLACK][sq];
    keys->side_black = splitmix64_next(&state);
}

static uint64_t xor_keys(const uint64_t *keys, uint64_t squares)
{
    uint64_t h = 0;
    for (; squares; squares &= squares - 1)
        h ^= keys[lowest_square(squares)];
    return h;
}

static uint64_t hash_from_scratch(const ZobristKeys *keys, const Board *b)
{
    uint64_t h = xor_keys(keys->disc[WHITE], white_discs(b)) ^ xor_keys(keys->disc[BLACK], black_discs(b));
    return b->side == BLACK ? h ^ keys->side_black : h;
}

/* Game.impl: the tables the module builds once per game. */
typedef struct {
    ZobristKeys keys;
    _Atomic(ReversiPatterns *) patterns;    /* built on first use: most games never evaluate */
    ReversiPolicy policy;
} ReversiTables;

static const ZobristKeys *keys_of(const Game *g)
{
    return &((const ReversiTables *)g->impl)->keys;
}

/* Whoever finds no pattern set builds one and publishes it; a thread that loses the race frees
 * its identical copy (as the phalanx games' tables). */
static const PatternSet *reversi_pattern_set(const Game *g, unsigned families)
{
    if (families != PATTERN_BASE)   /* the Edax shapes are all Reversi has */
        return NULL;
    _Atomic(ReversiPatterns *) *slot = &((ReversiTables *)g->impl)->patterns;
    ReversiPatterns *rp = atomic_load_explicit(slot, memory_order_acquire);
    if (!rp) {
        ReversiPatterns *built = malloc(sizeof *built), *expected = NULL;
        if (!built || !reversi_patterns_init(built)) {
            free(built);
            return NULL;
        }
        if (atomic_compare_exchange_strong_explicit(slot, &expected, built, memory_order_acq_rel, memory_order_acquire))
            rp = built;
        else {
            reversi_patterns_free(built);
            free(built);
            rp = expected;
        }
    }
    return &rp->set;
}

const PolicySet *reversi_policy_set(const Game *g)
{
    return &((const ReversiTables *)g->impl)->policy.set;
}

/* ---------------------------------------------------------------- positions */

/* Builds a board from discs by colour, with its hash. */
static Board make_board(const Game *g, uint64_t white, uint64_t black, int side)
{
    Board b = {
        .own = side == WHITE ? white : black,
        .opp = side == WHITE ? black : white,
        .side = (uint32_t)side,
    };
    b.hash = hash_from_scratch(keys_of(g), &b);
    return b;
}

static void set_position(const Game *g, Position *p, uint64_t white, uint64_t black, int side)
{
    const Board b = make_board(g, white, black, side);
    phalanx_clear_position(p);
    store_board(p, &b);
}

static uint64_t square_bit(int row, int col)
{
    return 1ull << (row * BOARD_SIDE + col);
}

static void reversi_start(const Game *g, Position *p)
{
    const uint64_t white = square_bit(3, 3) | square_bit(4, 4); /* d4, e5 */
    const uint64_t black = square_bit(3, 4) | square_bit(4, 3); /* e4, d5 */
    set_position(g, p, white, black, BLACK);
}

/* A valid position has at most 73 characters; longer text is refused unread, which also keeps
 * every count in the parser far from overflow. */
enum { MAX_POSITION_TEXT = 4096 };

/* Renders one character for an error message so that the message stays on one line. */
static const char *char_name(unsigned char c, char out[8])
{
    if (c >= 0x20 && c < 0x7F) {
        out[0] = (char)c;
        out[1] = '\0';
    } else {
        snprintf(out, 8, "\\x%02X", c);
    }
    return out;
}

typedef struct {
    const char *text;
    size_t at;              /* index of the next character */
    uint64_t white, black;
} PositionReader;

/* Reads an empty-square count (1-16, no leading zero) at r->at; adds it to *squares. */
static bool read_empty_count(PositionReader *r, int rank, int *squares, Error *err)
{
    const size_t start = r->at;
    int value = 0;
    while (r->text[r->at] >= '0' && r->text[r->at] <= '9') {
        if (value <= 16)    /* stop growing: the count is wrong anyway, and must not overflow */
            value = value * 10 + (r->text[r->at] - '0');
        r->at++;
    }
    const int digits = (int)(r->at - start);
    if (r->text[start] == '0' || value > 16) {
        error_set(err, "position: bad empty-square count '%.*s%s' at column %d of rank %d (expected 1-8)",
                  digits > 8 ? 8 : digits, r->text + start, digits > 8 ? "..." : "", *squares + 1, rank);
        return false;
    }
    *squares += value;
    return true;
}

/* Reads the squares of one rank (1-based `rank`, counted from the top) up to '/', ' ' or the end. */
static bool read_rank(PositionReader *r, int rank, Error *err)
{
    int squares = 0;
    char name[8];
    for (char c; (c = r->text[r->at]) != '/' && c != ' ' && c != '\0';) {
        if (c == 'W' || c == 'B') {
            const uint64_t bit = squares < BOARD_SIDE ? square_bit(rank - 1, squares) : 0;
            if (c == 'W')
                r->white |= bit;
            else
                r->black |= bit;
            squares++;
            r->at++;
        } else if (c >= '0' && c <= '9') {
            if (!read_empty_count(r, rank, &squares, err))
                return false;
        } else if (c == 'x') {
            error_set(err, "position: obstacle 'x' at column %d of rank %d (Reversi has no obstacles)",
                      squares + 1, rank);
            return false;
        } else {
            error_set(err, "position: bad character '%s' at column %d of rank %d (expected W, B or a number)",
                      char_name((unsigned char)c, name), squares + 1, rank);
            return false;
        }
    }
    if (squares != BOARD_SIDE) {
        error_set(err, "position: rank %d has %d squares, expected %d", rank, squares, BOARD_SIDE);
        return false;
    }
    return true;
}

static bool read_ranks(PositionReader *r, Error *err)
{
    for (int rank = 1;; rank++) {
        if (!read_rank(r, rank, err))
            return false;
        if (r->text[r->at] != '/') {
            if (rank == BOARD_SIDE)
                return true;
            error_set(err, "position: %d ranks, expected %d", rank, BOARD_SIDE);
            return false;
        }
        if (rank == BOARD_SIDE) {
            error_set(err, "position: more than %d ranks", BOARD_SIDE);
            return false;
        }
        r->at++;
    }
}

/* After the ranks: exactly one space, 'w' or 'b', and the end of the string. */
static bool read_side(PositionReader *r, int *side, Error *err)
{
    char name[8];
    if (r->text[r->at] == '\0') {
        error_set(err, "position: missing side to move ('w' or 'b') after the ranks");
        return false;
    }
    r->at++;    /* the space that ended the last rank */
    const char c = r->text[r->at];
    if (c == '\0') {
        error_set(err, "position: missing side to move ('w' or 'b') after the space");
        return false;
    }
    if (c == ' ') {
        error_set(err, "position: expected exactly one space before the side to move");
        return false;
    }
    if (c != 'w' && c != 'b') {
        error_set(err, "position: bad side to move '%s' (expected 'w' or 'b')", char_name((unsigned char)c, name));
        return false;
    }
    if (r->text[r->at + 1] != '\0') {
        error_set(err, "position: unexpected text after the side to move");
        return false;
    }
    *side = c == 'w' ? WHITE : BLACK;
    return true;
}

static bool reversi_parse_position(const Game *g, const char *text, Position *p, Error *err)
{
    if (!text || text[0] == '\0') {
        error_set(err, "position: empty string");
        return false;
    }
    if (strnlen(text, MAX_POSITION_TEXT + 1) > MAX_POSITION_TEXT) {
        error_set(err, "position: longer than %d characters", MAX_POSITION_TEXT);
        return false;
    }
    PositionReader r = {.text = text};
    int side;
    if (!read_ranks(&r, err) || !read_side(&r, &side, err))
        return false;
    set_position(g, p, r.white, r.black, side);
    return true;
}

/* Appends to a bounded buffer; the result is always terminated, and cut short if it must be. */
typedef struct {
    char *buf;
    size_t len, used;
} TextSink;

static void sink_put(TextSink *s, char c)
{
    if (s->used + 1 < s->len)
        s->buf[s->used++] = c;
    if (s->len)
        s->buf[s->used] = '\0';
}

static char disc_char(uint64_t white, uint64_t black, uint64_t bit)
{
    return (white & bit) ? 'W' : (black & bit) ? 'B' : '.';
}

static void reversi_format_position(const Game *g, const Position *p, char *buf, size_t len)
{
    (void)g;
    const Board b = load_board(p);
    const uint64_t white = white_discs(&b), black = black_discs(&b);
    TextSink s = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    for (int row = 0; row < BOARD_SIDE; row++) {
        int empties = 0;
        for (int col = 0; col < BOARD_SIDE; col++) {
            const char c = disc_char(white, black, square_bit(row, col));
            if (c == '.') {
                empties++;
                continue;
            }
            if (empties)
                sink_put(&s, (char)('0' + empties));
            empties = 0;
            sink_put(&s, c);
        }
        if (empties)
            sink_put(&s, (char)('0' + empties));
        sink_put(&s, row + 1 < BOARD_SIDE ? '/' : ' ');
    }
    sink_put(&s, b.side == WHITE ? 'w' : 'b');
}

/* ---------------------------------------------------------------- moves */

static int reversi_gen_moves(const Game *g, const Position *p, Move *moves)
{
    (void)g;
    const Board b = load_board(p);
    uint64_t squares = legal_squares(b.own, b.opp);
    if (!squares) {
        if (!legal_squares(b.opp, b.own))
            return 0;
        moves[0] = MOVE_PASS;
        return 1;
    }
    int n = 0;
    for (; squares; squares &= squares - 1)
        moves[n++] = (Move)lowest_square(squares);
    return n;
}

static int reversi_count_moves(const Game *g, const Position *p)
{
    (void)g;
    const Board b = load_board(p);
    return (int)count_leaf_moves(b.own, b.opp);
}

/* make and unmake take a legal move (one that gen_moves returns or parse_move accepts). */
static void reversi_make(const Game *g, Position *p, Move m, Undo *u)
{
    assert(m <= MOVE_PASS);
    const ZobristKeys *keys = keys_of(g);
    Board b = load_board(p);
    UndoRecord record = {.flipped = 0, .hash = b.hash};
    uint64_t hash = b.hash ^ keys->side_black;
    uint64_t own = b.opp, opp = b.own;    /* the turn passes in every case */
    if (m != MOVE_PASS) {
        const int square = (int)m;
        record.flipped = flipped_by(square, b.own, b.opp);
        own = b.opp ^ record.flipped;
        opp = b.own | record.flipped | (1ull << square);
        hash ^= keys->disc[b.side][square] ^ xor_keys(keys->flip, record.flipped);
    }
    b.own = own;
    b.opp = opp;
    b.hash = hash;
    b.side ^= 1;
    store_board(p, &b);
    memcpy(u->bytes, &record, sizeof record);
}

static void reversi_unmake(const Game *g, Position *p, Move m, const Undo *u)
{
    (void)g;
    UndoRecord record;
    memcpy(&record, u->bytes, sizeof record);
    Board b = load_board(p);
    uint64_t own = b.opp, opp = b.own;
    if (m != MOVE_PASS) {
        own = b.opp ^ record.flipped ^ (1ull << m);
        opp = b.own ^ record.flipped;
    }
    b.own = own;
    b.opp = opp;
    b.hash = record.hash;
    b.side ^= 1;
    store_board(p, &b);
}

static GameStatus reversi_status(const Game *g, const Position *p)
{
    (void)g;
    const Board b = load_board(p);
    if (legal_squares(b.own, b.opp) || legal_squares(b.opp, b.own))
        return STATUS_ONGOING;
    const int white = popcount64(white_discs(&b)), black = popcount64(black_discs(&b));
    return white > black ? STATUS_WHITE_WINS : black > white ? STATUS_BLACK_WINS : STATUS_DRAW;
}

static uint64_t reversi_hash(const Game *g, const Position *p)
{
    (void)g;
    return load_board(p).hash;
}

static uint64_t reversi_hash_fresh(const Game *g, const Position *p)
{
    const Board b = load_board(p);
    return hash_from_scratch(keys_of(g), &b);
}

static int reversi_side_to_move(const Game *g, const Position *p)
{
    (void)g;
    return (int)load_board(p).side;
}

static int reversi_stones(const Game *g, const Position *p, int color)
{
    (void)g;
    const Board b = load_board(p);
    return popcount64(color == WHITE ? white_discs(&b) : black_discs(&b));
}

static void reversi_format_move(const Game *g, const Position *p, Move m, char *buf, size_t len)
{
    (void)g;
    (void)p;
    if (m == MOVE_PASS)
        snprintf(buf, len, "pass");
    else if (m < SQUARES)
        snprintf(buf, len, "%c%d", 'a' + (int)(m % BOARD_SIDE), 1 + (int)(m / BOARD_SIDE));
    else
        snprintf(buf, len, "?");
}

/* Quotes user text in an error message: at most 16 characters, non-printing ones as '?'. */
static const char *quoted_move(const char *text, char out[24])
{
    size_t n = 0;
    for (; n < 16 && text[n]; n++)
        out[n] = (text[n] >= 0x20 && text[n] < 0x7F) ? text[n] : '?';
    if (text[n]) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

/* "a1".."h8" to a square index, or -1. */
static int parse_square(const char *text)
{
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8' || text[2] != '\0')
        return -1;
    return (text[1] - '1') * BOARD_SIDE + (text[0] - 'a');
}

static bool reversi_parse_move(const Game *g, const Position *p, const char *text, Move *m, Error *err)
{
    (void)g;
    char shown[24];
    if (!text)
        text = "";
    const bool is_pass = strcmp(text, "pass") == 0;
    const int square = is_pass ? -1 : parse_square(text);
    if (!is_pass && square < 0) {
        error_set(err, "move '%s': not a square (expected a1-h8 or pass)", quoted_move(text, shown));
        return false;
    }
    const Board b = load_board(p);
    const uint64_t placements = legal_squares(b.own, b.opp);
    if (!placements && !legal_squares(b.opp, b.own)) {
        error_set(err, "move '%s': the game is over", quoted_move(text, shown));
        return false;
    }
    if (is_pass) {
        if (placements) {
            error_set(err, "move 'pass': a placement is available");
            return false;
        }
        *m = MOVE_PASS;
        return true;
    }
    const uint64_t bit = 1ull << square;
    if ((b.own | b.opp) & bit) {
        error_set(err, "move '%s': square is occupied", text);
        return false;
    }
    if (!(placements & bit)) {
        error_set(err, "move '%s': flips nothing%s", text, placements ? "" : " (the only move is pass)");
        return false;
    }
    *m = (Move)square;
    return true;
}

/* file 0..7 from the left, rank 0 = the bottom row of a printed board (Othello row 8). */
static char reversi_square(const Game *g, const Position *p, int file, int rank)
{
    (void)g;
    if (file < 0 || file >= BOARD_SIDE || rank < 0 || rank >= BOARD_SIDE)
        return '.';
    const Board b = load_board(p);
    return disc_char(white_discs(&b), black_discs(&b), square_bit(BOARD_SIDE - 1 - rank, file));
}

/* ---------------------------------------------------------------- module */

static const GameOps reversi_ops = {
    .start = reversi_start,
    .parse_position = reversi_parse_position,
    .format_position = reversi_format_position,
    .gen_moves = reversi_gen_moves,
    .count_moves = reversi_count_moves,
    .make = reversi_make,
    .unmake = reversi_unmake,
    .status = reversi_status,
    .hash = reversi_hash,
    .hash_fresh = reversi_hash_fresh,
    .side_to_move = reversi_side_to_move,
    .stones = reversi_stones,
    .format_move = reversi_format_move,
    .parse_move = reversi_parse_move,
    .perft = reversi_perft,
    .num_features = REVERSI_NUM_FEATURES,
    .feature_names = reversi_feature_names,
    .feature_help = reversi_feature_help,
    .features = reversi_features,
    .move_priors = reversi_move_priors,
    .solver = &reversi_solver_ops,
    .patterns = reversi_pattern_set,
    .policy = reversi_policy_set,
    .num_actions = reversi_num_actions,
    .action_of = reversi_action_of,
    .action_of_squares = reversi_action_of_squares,
    .planes = reversi_planes,
    .symmetries = reversi_symmetries,
    .transform_action = reversi_transform_action,
    /* None: the exact solver finishes Reversi's games, and 0.3 of the linear value lost 80 Elo
     * at 1,000 visits (docs/BENCHMARKS.md, "Finishing won games"). */
    .coarse_share = 0,
    .never_repeats = true,
    .position_bytes = sizeof(Board),
    .square = reversi_square,
};

bool reversi_setup(Game *g, Error *err)
{
    if (g->width != BOARD_SIDE || g->height != BOARD_SIDE) {
        error_set(err, "reversi is played on 8x8 only");
        return false;
    }
    ReversiTables *tables = calloc(1, sizeof *tables);
    if (!tables) {
        error_set(err, "out of memory");
        return false;
    }
    zobrist_init(&tables->keys);
    if (!reversi_policy_init(&tables->policy)) {
        free(tables);
        error_set(err, "internal error: the priors' neighbourhood tables do not add up");
        return false;
    }
    g->ops = &reversi_ops;
    g->impl = tables;
    return true;
}

void reversi_teardown(Game *g)
{
    ReversiTables *tables = g->impl;
    if (tables && tables->patterns) {
        reversi_patterns_free(tables->patterns);
        free(tables->patterns);
    }
    free(tables);
    g->impl = NULL;
}
