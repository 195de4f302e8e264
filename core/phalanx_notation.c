/*
 * phalanx_notation.c - the text forms of RULES.md for the phalanx games: position strings
 * (reading, with an exact complaint for every malformed string, and writing) and moves
 * (`e1-e3`, `a1xa3`; a rejected move says which rule it breaks).
 */
#include "modules.h"
#include "phalanx.h"

#include <stdio.h>
#include <string.h>

enum { MAX_POSITION_TEXT = 4096 };

/* A position string read into cells, before it is checked against a game. */
typedef struct {
    int width, height;
    char cell[16][16];      /* [rank][file]: 'W', 'B', 'x' or '.' */
    int side;
} Grid;

/* Reads one '/'-separated field into row[]; returns its number of squares or -1 on error. */
static int read_field(const char *s, size_t start, size_t end, char *row, int field, Error *err)
{
    int n = 0;
    for (size_t i = start; i < end;) {
        char c = s[i];
        if (c == 'W' || c == 'B' || c == 'x') {
            if (n >= 16) {
                error_set(err, "position: field %d has more than 16 squares (character %zu)", field + 1, i + 1);
                return -1;
            }
            row[n++] = c;
            i++;
        } else if (c >= '1' && c <= '9') {
            int run = 0;
            size_t j = i;
            while (j < end && s[j] >= '0' && s[j] <= '9' && run <= 16)
                run = run * 10 + (s[j++] - '0');
            if (run > 16 || n + run > 16) {
                error_set(err, "position: field %d has more than 16 squares (number at character %zu)", field + 1, i + 1);
                return -1;
            }
            for (int k = 0; k < run; k++)
                row[n++] = '.';
            i = j;
        } else {
            if (c == '0')
                error_set(err, "position: bad number at character %zu (field %d); empty runs are 1-16 without leading zeros",
                          i + 1, field + 1);
            else if ((unsigned char)c < 33 || (unsigned char)c > 126)
                error_set(err, "position: bad byte 0x%02x at character %zu (field %d); expected W, B, x or 1-16",
                          (unsigned char)c, i + 1, field + 1);
            else
                error_set(err, "position: bad character '%c' at character %zu (field %d); expected W, B, x or 1-16",
                          c, i + 1, field + 1);
            return -1;
        }
    }
    return n;
}

static bool read_side(const char *s, size_t at, Grid *g, Error *err)
{
    if (s[at] != ' ') {
        error_set(err, "position: expected a space and the side to move ('w' or 'b') after the board, at character %zu", at + 1);
        return false;
    }
    char c = s[at + 1];
    if ((c != 'w' && c != 'b') || s[at + 2] != '\0') {
        error_set(err, "position: side to move must be 'w' or 'b' alone, at character %zu", at + 2);
        return false;
    }
    g->side = c == 'w' ? WHITE : BLACK;
    return true;
}

static bool read_grid(const char *s, Grid *g, Error *err)
{
    memset(g, 0, sizeof *g);
    size_t len = strnlen(s, MAX_POSITION_TEXT + 1);
    if (len == 0 || len > MAX_POSITION_TEXT) {
        error_set(err, len ? "position: longer than %d characters" : "position: empty string", MAX_POSITION_TEXT);
        return false;
    }
    size_t board_end = strcspn(s, " ");
    char rows[17][16];
    int fields = 0;
    size_t start = 0;
    for (;;) {
        size_t end = start;
        while (end < board_end && s[end] != '/')
            end++;
        if (fields == 16) {
            error_set(err, "position: more than 16 ranks");
            return false;
        }
        int n = read_field(s, start, end, rows[fields], fields, err);
        if (n < 0)
            return false;
        if (n == 0) {
            error_set(err, "position: field %d is empty (character %zu)", fields + 1, start + 1);
            return false;
        }
        if (fields > 0 && n != g->width) {
            error_set(err, "position: field %d from the top has %d squares, expected %d like the first field",
                      fields + 1, n, g->width);
            return false;
        }
        g->width = n;
        fields++;
        if (end >= board_end)
            break;
        start = end + 1;
    }
    g->height = fields;
    if (g->width < 3 || g->height < 5) {
        error_set(err, "position: board is %dx%d; phalanx boards are 3-16 files by 5-16 ranks", g->width, g->height);
        return false;
    }
    for (int i = 0; i < fields; i++)
        memcpy(g->cell[fields - 1 - i], rows[i], 16);
    return read_side(s, board_end, g, err);
}

bool phalanx_scan_shape(const char *text, int *width, int *height, unsigned char obstacles[256], Error *err)
{
    Grid g;
    if (!read_grid(text, &g, err))
        return false;
    *width = g.width;
    *height = g.height;
    memset(obstacles, 0, 256);
    for (int r = 0; r < g.height; r++)
        for (int f = 0; f < g.width; f++)
            obstacles[make_sq(f, r)] = g.cell[r][f] == 'x';
    return true;
}

bool phalanx_parse_position(const Game *g, const char *text, Position *pos, Error *err)
{
    const PhalanxTables *t = tables_of(g);
    Grid grid;
    if (!read_grid(text, &grid, err))
        return false;
    if (grid.width != t->width || grid.height != t->height) {
        error_set(err, "position: board is %dx%d, this game is played on %dx%d",
                  grid.width, grid.height, t->width, t->height);
        return false;
    }
    memset(pos, 0, sizeof *pos);
    PhalanxPos *p = pos_of(pos);
    phalanx_clear_position(t, p, grid.side);
    for (int r = 0; r < t->height; r++)
        for (int f = 0; f < t->width; f++) {
            char c = grid.cell[r][f];
            if ((c == 'x') != phalanx_is_obstacle(t, make_sq(f, r))) {
                error_set(err, "position: %c%d %s an obstacle, unlike this game's board",
                          'a' + f, r + 1, c == 'x' ? "is" : "is not");
                return false;
            }
            if (c == 'W' || c == 'B') {
                int colour = c == 'W' ? WHITE : BLACK;
                phalanx_toggle_stone(t, p, colour, make_sq(f, r));
                p->stones[colour]++;
            }
        }
    return true;
}

void phalanx_format_position(const Game *g, const Position *pos, char *buf, size_t len)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    size_t n = 0;
    for (int r = t->height - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < t->width; f++) {
            int sq = make_sq(f, r), c = phalanx_colour_at(p, sq);
            if (c < 0 && !phalanx_is_obstacle(t, sq)) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%d", empty);
            empty = 0;
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%c", c < 0 ? 'x' : c == WHITE ? 'W' : 'B');
        }
        if (empty)
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%d", empty);
        if (r > 0)
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "/");
    }
    snprintf(buf + n, n < len ? len - n : 0, " %c", p->side == WHITE ? 'w' : 'b');
}

/* --- moves ----------------------------------------------------------------------------------- */

/* Writes "e2" or "n12" at buf (no terminator); returns its length.  By hand rather than with
 * snprintf, which was most of the cost of listing a position's moves in notation. */
static int put_square(int sq, char *buf)
{
    int number = (sq_rank(sq) & 15) + 1, n = 0;
    buf[n++] = (char)('a' + sq_file(sq));
    if (number >= 10)
        buf[n++] = (char)('0' + number / 10);
    buf[n++] = (char)('0' + number % 10);
    return n;
}

static int square_name(int sq, char buf[static 8])
{
    int n = put_square(sq, buf);
    buf[n] = '\0';
    return n;
}

void phalanx_format_move(const Game *g, const Position *pos, Move m, char *buf, size_t len)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    int d = move_dir(m), step = dir_rank[d] * 16 + dir_file[d];
    int rear = move_rear(m), to = rear + move_dist(m) * step;
    int land = rear + (move_group(m) - 1 + move_dist(m)) * step;
    bool capture = phalanx_on_board(t, sq_file(land), sq_rank(land)) && phalanx_colour_at(p, land) == !p->side;
    char text[16];
    int n = put_square(rear, text);
    text[n++] = capture ? 'x' : '-';
    n += put_square(to, text + n);
    text[n] = '\0';
    if (len) {      /* copied by hand too: the exporters format every visited move */
        size_t k = (size_t)n < len - 1 ? (size_t)n : len - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
    }
}

/* Reads a square such as "e2" or "n12"; advances *s.  File and rank may be off the board. */
static bool read_square(const char **s, int *file, int *rank)
{
    const char *c = *s;
    if (*c < 'a' || *c > 'z' || c[1] < '1' || c[1] > '9')
        return false;
    *file = *c - 'a';
    *rank = c[1] - '0';
    c += 2;
    if (*c >= '0' && *c <= '9')
        *rank = *rank * 10 + (*c++ - '0');
    *rank -= 1;
    *s = c;
    return true;
}

typedef struct {
    const PhalanxTables *t;
    const PhalanxPos *p;
    const char *text;
    Error *err;
} MoveReader;

static bool reject(const MoveReader *r, const char *why)
{
    error_set(r->err, "move '%s': %s", r->text, why);
    return false;
}

static const char *occupant_name(const MoveReader *r, int sq)
{
    if (phalanx_is_obstacle(r->t, sq))
        return "an obstacle";
    int c = phalanx_colour_at(r->p, sq);
    return c < 0 ? "empty" : c == WHITE ? "a white stone" : "a black stone";
}

/* Checks the squares the group passes and lands on; *capture says whether it strikes. */
static bool check_path(const MoveReader *r, int front, int dir, int k, int j, bool *capture)
{
    char why[160], name[8];
    int us = r->p->side;
    for (int i = 1; i <= j; i++) {
        int f = sq_file(front) + i * dir_file[dir], rk = sq_rank(front) + i * dir_rank[dir];
        if (!phalanx_on_board(r->t, f, rk))
            return reject(r, "the head of the group would leave the board");
        int sq = make_sq(f, rk), c = phalanx_colour_at(r->p, sq);
        if (c < 0 && !phalanx_is_obstacle(r->t, sq))
            continue;
        /* names only for the messages: snprintf was most of the cost of checking a legal move */
        if (i < j || c != !us) {
            square_name(sq, name);
            snprintf(why, sizeof why, "blocked by %s on %s", occupant_name(r, sq), name);
            return reject(r, why);
        }
        if (phalanx_is_shielded(r->t, c, sq)) {
            square_name(sq, name);
            snprintf(why, sizeof why, "the tower on %s cannot be captured", name);
            return reject(r, why);
        }
        int m = 0;
        while (phalanx_on_board(r->t, f, rk) && phalanx_colour_at(r->p, make_sq(f, rk)) == c) {
            m++;
            f += dir_file[dir];
            rk += dir_rank[dir];
        }
        if (m >= k) {
            square_name(sq, name);
            snprintf(why, sizeof why, "cannot capture: the enemy line from %s has %d stone%s, not fewer than the group's %d",
                     name, m, m == 1 ? "" : "s", k);
            return reject(r, why);
        }
        *capture = true;
    }
    return true;
}

static int direction_between(int df, int dr)
{
    for (int d = 0; d < NUM_DIRS; d++)
        if (dir_file[d] == (df > 0) - (df < 0) && dir_rank[d] == (dr > 0) - (dr < 0))
            return d;
    return -1;
}

static bool read_move_text(const MoveReader *r, int *from, int *to, char *sep)
{
    const char *s = r->text;
    int ff, fr, tf, tr;
    if (!read_square(&s, &ff, &fr) || (*s != '-' && *s != 'x'))
        return reject(r, "expected <from>-<to> or <from>x<to>, e.g. e2-e3");
    *sep = *s++;
    if (!read_square(&s, &tf, &tr) || *s != '\0')
        return reject(r, "expected <from>-<to> or <from>x<to>, e.g. e2-e3");
    char why[96];
    if (!phalanx_on_board(r->t, ff, fr) || !phalanx_on_board(r->t, tf, tr)) {
        bool bad_from = !phalanx_on_board(r->t, ff, fr);
        snprintf(why, sizeof why, "square %c%d is not on the %dx%d board", 'a' + (bad_from ? ff : tf),
                 (bad_from ? fr : tr) + 1, r->t->width, r->t->height);
        return reject(r, why);
    }
    *from = make_sq(ff, fr);
    *to = make_sq(tf, tr);
    return true;
}

/* Group size: the rear stone and every movable own stone ahead of it along dir. */
static int group_size(const MoveReader *r, int rear, int dir)
{
    int k = 0, f = sq_file(rear), rk = sq_rank(rear), us = r->p->side;
    while (phalanx_on_board(r->t, f, rk) && phalanx_colour_at(r->p, make_sq(f, rk)) == us && !phalanx_is_frozen(r->t, us, make_sq(f, rk))) {
        k++;
        f += dir_file[dir];
        rk += dir_rank[dir];
    }
    return k;
}

static bool check_move_shape(const MoveReader *r, int from, int to, char sep, Move *out)
{
    char why[160], name[8];
    int us = r->p->side;
    if (phalanx_colour_at(r->p, from) != us) {
        square_name(from, name);
        snprintf(why, sizeof why, "no %s stone on %s (it is %s)", us == WHITE ? "white" : "black", name,
                 occupant_name(r, from));
        return reject(r, why);
    }
    if (phalanx_is_frozen(r->t, us, from)) {
        square_name(from, name);
        snprintf(why, sizeof why, "the %s on %s never moves", r->t->crossings ? "tower" : "crossed stone", name);
        return reject(r, why);
    }
    int df = sq_file(to) - sq_file(from), dr = sq_rank(to) - sq_rank(from);
    if (df == 0 && dr == 0)
        return reject(r, "<from> and <to> are the same square");
    if (df != 0 && dr != 0 && df != dr && df != -dr)
        return reject(r, "<from> and <to> are not on one line");
    int dir = direction_between(df, dr), j = df ? (df > 0 ? df : -df) : (dr > 0 ? dr : -dr);
    int k = group_size(r, from, dir);
    if (j > k) {
        snprintf(why, sizeof why, "too far: a group of %d stone%s moves at most %d square%s", k, k == 1 ? "" : "s", k,
                 k == 1 ? "" : "s");
        return reject(r, why);
    }
    int front = from + (k - 1) * (dir_rank[dir] * 16 + dir_file[dir]);
    bool capture = false;
    if (!check_path(r, front, dir, k, j, &capture))
        return false;
    if (capture != (sep == 'x'))
        return reject(r, capture ? "this move captures: write it with 'x'" : "nothing to capture: write it with '-'");
    *out = move_encode(from, dir, k, j);
    return true;
}

bool phalanx_parse_move(const Game *g, const Position *pos, const char *text, Move *out, Error *err)
{
    MoveReader r = {tables_of(g), cpos_of(pos), text, err};
    if (strnlen(text, 16) > 8)
        return reject(&r, "expected <from>-<to> or <from>x<to>, e.g. e2-e3");
    GameStatus status = phalanx_status(r.t, r.p);
    if (status != STATUS_ONGOING) {
        char why[64];
        snprintf(why, sizeof why, "the game is over (%s)", game_status_name(status));
        return reject(&r, why);
    }
    int from, to;
    char sep;
    Move m;
    if (!read_move_text(&r, &from, &to, &sep) || !check_move_shape(&r, from, to, sep, &m))
        return false;
    const char *forbidden = phalanx_forbidden_reason(r.t, r.p, m);
    if (forbidden)
        return reject(&r, forbidden);
    *out = m;
    return true;
}
