/*
 * record_move.c - moves as records store them (RecordMove): the RULES.md notation packed into
 * two bytes, a square and a shape, so that any reader prints "e2-e3", "a1xa3", "d3" or "pass"
 * with no rules engine.  Conversion from and to a core Move goes through the notation, the one
 * form every game module already writes and checks.
 */
#include "record_internal.h"

#include <stdio.h>
#include <string.h>

/* Shapes (the low byte of the code) that are not steps. */
enum { SHAPE_PLACE = 0, SHAPE_PASS = 1, MAX_FILES = 16, MAX_NUMBER = 16, MAX_DISTANCE = 15 };

/* Directions as steps of (file, number): N, NE, E, SE, S, SW, W, NW. */
static const int dir_file[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dir_number[8] = {1, 1, 0, -1, -1, -1, 0, 1};

static int square_file(unsigned square) { return (int)(square >> 4); }
static int square_number(unsigned square) { return (int)(square & 15) + 1; }

static RecordMove make_move(unsigned square, unsigned shape)
{
    return (RecordMove){(uint16_t)(square << 8 | shape)};
}

/* Reads "e2" or "p16" at *s (file a-p, number 1-16 without a leading zero); advances *s. */
static bool read_square(const char **s, unsigned *square)
{
    const char *c = *s;
    if (*c < 'a' || *c >= 'a' + MAX_FILES || c[1] < '1' || c[1] > '9')
        return false;
    int number = c[1] - '0';
    c += 2;
    if (*c >= '0' && *c <= '9')
        number = number * 10 + (*c++ - '0');
    if (number > MAX_NUMBER)
        return false;
    *square = ((unsigned)((*s)[0] - 'a') << 4) | (unsigned)(number - 1);
    *s = c;
    return true;
}

/* The direction from one square to another and the distance, or false when not on one line. */
static bool line_between(unsigned from, unsigned to, int *dir, int *distance)
{
    int df = square_file(to) - square_file(from), dn = square_number(to) - square_number(from);
    int adf = df < 0 ? -df : df, adn = dn < 0 ? -dn : dn;
    if ((df == 0 && dn == 0) || (df != 0 && dn != 0 && adf != adn))
        return false;
    *distance = adf > adn ? adf : adn;
    for (int d = 0; d < 8; d++)
        if (dir_file[d] * *distance == df && dir_number[d] * *distance == dn)
            *dir = d;
    return true;
}

static bool parse_step(const char *text, const char **s, unsigned from, RecordMove *out, Error *err)
{
    bool capture = **s == 'x';
    (*s)++;
    unsigned to;
    int dir = 0, distance = 0;
    if (!read_square(s, &to) || **s != '\0') {
        error_set(err, "move '%.24s': expected a square (a1-p16) after '%c'", text, capture ? 'x' : '-');
        return false;
    }
    if (!line_between(from, to, &dir, &distance)) {
        error_set(err, "move '%.24s': the squares are not on one line", text);
        return false;
    }
    *out = make_move(from, (unsigned)(dir << 5 | distance << 1 | capture));
    return true;
}

bool record_move_parse(const char *text, RecordMove *out, Error *err)
{
    if (strcmp(text, "pass") == 0) {
        *out = make_move(0, SHAPE_PASS);
        return true;
    }
    const char *s = text;
    unsigned from;
    if (!read_square(&s, &from)) {
        error_set(err, "move '%.24s': expected a square (a1-p16) or pass", text);
        return false;
    }
    if (*s == '\0') {
        *out = make_move(from, SHAPE_PLACE);
        return true;
    }
    if (*s != '-' && *s != 'x') {
        error_set(err, "move '%.24s': expected '-' or 'x' after the first square", text);
        return false;
    }
    return parse_step(text, &s, from, out, err);
}

/* The landing square of a step, or false when the shape leaves the 16x16 square grid. */
static bool step_target(RecordMove m, unsigned *to)
{
    unsigned square = m.code >> 8, shape = m.code & 0xFF;
    int dir = (int)(shape >> 5), distance = (int)(shape >> 1 & 15);
    int file = square_file(square) + dir_file[dir] * distance;
    int number = square_number(square) + dir_number[dir] * distance;
    if (distance == 0 || file < 0 || file >= MAX_FILES || number < 1 || number > MAX_NUMBER)
        return false;
    *to = (unsigned)(file << 4 | (number - 1));
    return true;
}

bool record_move_valid(RecordMove m)
{
    unsigned shape = m.code & 0xFF, to;
    if (shape == SHAPE_PLACE)
        return true;
    if (shape == SHAPE_PASS)
        return (m.code >> 8) == 0;
    return step_target(m, &to);
}

void record_move_format(RecordMove m, char *buf, size_t len)
{
    unsigned square = m.code >> 8, shape = m.code & 0xFF, to;
    char from_name = (char)('a' + square_file(square));
    if (!record_move_valid(m))
        snprintf(buf, len, "?");
    else if (shape == SHAPE_PASS)
        snprintf(buf, len, "pass");
    else if (shape == SHAPE_PLACE)
        snprintf(buf, len, "%c%d", from_name, square_number(square));
    else if (step_target(m, &to))
        snprintf(buf, len, "%c%d%c%c%d", from_name, square_number(square), (shape & 1) ? 'x' : '-',
                 'a' + square_file(to), square_number(to));
}

bool record_move_squares(RecordMove m, MoveSquares *out)
{
    unsigned square = m.code >> 8, shape = m.code & 0xFF, to = square;
    if (!record_move_valid(m))
        return false;
    if (shape != SHAPE_PLACE && shape != SHAPE_PASS)
        step_target(m, &to);
    *out = (MoveSquares){square_file(square), square_number(square), square_file(to), square_number(to),
                         shape == SHAPE_PASS};
    return true;
}

bool record_move_from_move(const Game *g, const Position *pos, Move m, RecordMove *out, Error *err)
{
    char text[RECORD_MOVE_TEXT * 2];
    game_format_move(g, pos, m, text, sizeof text);
    return record_move_parse(text, out, err);
}

bool record_move_to_move(const Game *g, const Position *pos, RecordMove m, Move *out, Error *err)
{
    char text[RECORD_MOVE_TEXT];
    record_move_format(m, text, sizeof text);
    if (!record_move_valid(m)) {
        error_set(err, "stored move 0x%04x names no move", m.code);
        return false;
    }
    return game_parse_move(g, pos, text, out, err);
}
