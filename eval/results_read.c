/*
 * results_read.c - reading the plain results format into a ResultTable (results.h;
 * docs/RATINGS.md): one game a line, WHITE BLACK RESULT, fields separated by blanks, '#'
 * starting a comment where a field could start.  Any malformed line is an error that names it;
 * nothing is guessed or skipped, since a silently dropped game changes every rating.  The text
 * is UTF-8; a byte order mark at the start of a file is no part of the first name.
 */
#include "eval/results.h"
#include "core/utf8.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { FIELDS = 3 };

typedef struct {
    const char *start;
    size_t len;
} Field;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool is_control(char c)
{
    return ((unsigned char)c < 32 && !is_blank(c)) || c == 127;
}

/* Splits the line into at most FIELDS + 1 fields (one more to detect extra text); returns the
 * number found, or -1 with err set. */
static int split_fields(const char *line, Field *fields, Error *err)
{
    int n = 0;
    const char *c = line;
    for (;;) {
        while (is_blank(*c))
            c++;
        if (*c == '\0' || *c == '#')
            return n;
        const char *start = c;
        while (*c && *c != '#' && !is_blank(*c)) {
            if (is_control(*c)) {
                error_set(err, "control character (byte %d) in the line", (unsigned char)*c);
                return -1;
            }
            c++;
        }
        if (n == FIELDS + 1)
            return n;
        fields[n++] = (Field){start, (size_t)(c - start)};
    }
}

static bool field_is(const Field *f, const char *text)
{
    return f->len == strlen(text) && memcmp(f->start, text, f->len) == 0;
}

static bool parse_outcome(const Field *f, GameOutcome *outcome, Error *err)
{
    if (field_is(f, "1-0"))
        *outcome = OUTCOME_WHITE_WINS;
    else if (field_is(f, "0-1"))
        *outcome = OUTCOME_WHITE_LOSES;
    else if (field_is(f, "1/2-1/2"))
        *outcome = OUTCOME_DRAW;
    else {
        error_set(err, "result must be 1-0, 0-1 or 1/2-1/2, got '%.*s'", f->len > 40 ? 40 : (int)f->len, f->start);
        return false;
    }
    return true;
}

static bool name_length_ok(const Field *f, Error *err)
{
    if (f->len <= RESULTS_NAME_MAX)
        return true;
    error_set(err, "player name longer than %d bytes ('%.40s...')", RESULTS_NAME_MAX, f->start);
    return false;
}

/* The player named by the field (of a valid length), added if new; -1 with err set when memory
 * ran out. */
static int field_player(ResultTable *t, const Field *f, Error *err)
{
    char name[RESULTS_NAME_MAX + 1];
    memcpy(name, f->start, f->len);
    name[f->len] = '\0';
    int p = results_player(t, name);
    if (p < 0)
        error_set(err, "out of memory");
    return p;
}

/* Names end up in SVG and JSON, so the text must be UTF-8; and a byte order mark inside a name
 * (U+FEFF, invisible) would make two players of one. */
static bool text_ok(const char *line, Error *err)
{
    size_t n = strlen(line), bad;
    if (!utf8_valid(line, n, &bad)) {
        error_set(err, "invalid UTF-8 (byte 0x%02X at column %zu)", (unsigned char)line[bad], bad + 1);
        return false;
    }
    const char *bom = strstr(line, UTF8_BOM);
    if (bom) {
        error_set(err, "a byte order mark (U+FEFF) at column %zu", (size_t)(bom - line) + 1);
        return false;
    }
    return true;
}

bool results_parse_line(ResultTable *t, const char *line, Error *err)
{
    Field f[FIELDS + 1];
    if (!text_ok(line, err))
        return false;
    int n = split_fields(line, f, err);
    if (n < 0)
        return false;
    if (n == 0)
        return true;
    if (n != FIELDS) {
        error_set(err, "expected 3 fields WHITE BLACK RESULT, got %s", n < FIELDS ? "fewer" : "more");
        return false;
    }
    GameOutcome outcome;
    if (!parse_outcome(&f[2], &outcome, err) || !name_length_ok(&f[0], err) || !name_length_ok(&f[1], err))
        return false;
    if (f[0].len == f[1].len && memcmp(f[0].start, f[1].start, f[0].len) == 0) {
        error_set(err, "a player cannot play itself ('%.*s')", f[0].len > 40 ? 40 : (int)f[0].len, f[0].start);
        return false;
    }
    int white = field_player(t, &f[0], err);
    int black = white < 0 ? -1 : field_player(t, &f[1], err);
    if (black < 0)
        return false;
    if (!results_add_game(t, white, black, outcome)) {
        error_set(err, "too many games or out of memory");
        return false;
    }
    return true;
}

/* The next line of `in`, its newline dropped, into line[RESULTS_LINE_MAX + 1]; *len its length.
 * 0 at the end of the input, -1 for a line longer than RESULTS_LINE_MAX, which is read no
 * further (a device or a file with no newline must not be read to its end), -2 for a NUL. */
static int read_line(FILE *in, char *line, size_t *len)
{
    size_t n = 0;
    int c;
    bool nul = false;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n == RESULTS_LINE_MAX)
            return -1;
        nul |= c == '\0';
        line[n++] = (char)c;
    }
    line[n] = '\0';
    *len = n;
    return nul ? -2 : c != EOF || n > 0;
}

bool results_read(ResultTable *t, FILE *in, const char *source, Error *err)
{
    char *line = malloc(RESULTS_LINE_MAX + 1);
    if (!line) {
        error_set(err, "%s: out of memory", source);
        return false;
    }
    long number = 0;
    size_t len;
    int got;
    bool ok = true;
    Error line_err;
    while (ok && (got = read_line(in, line, &len)) != 0) {
        number++;
        if (got == -1)
            error_set(err, "%s:%ld: line longer than %d bytes", source, number, RESULTS_LINE_MAX);
        else if (got == -2)
            error_set(err, "%s:%ld: NUL byte in the line", source, number);
        else if (!results_parse_line(t, number == 1 ? utf8_skip_bom(line) : line, &line_err))
            error_set(err, "%s:%ld: %s", source, number, line_err.msg);
        else
            continue;
        ok = false;
    }
    if (ok && ferror(in)) {
        error_set(err, "%s: read error", source);
        ok = false;
    }
    free(line);
    return ok;
}

ResultTable *results_read_files(const char *const *files, int n, Error *err)
{
    ResultTable *t = results_new();
    if (!t) {
        error_failed(err, "out of memory");
        return NULL;
    }
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        bool is_stdin = strcmp(files[i], "-") == 0;
        FILE *in = is_stdin ? stdin : fopen(files[i], "r");
        if (!in) {
            ok = error_set(err, "cannot open '%s': %s", files[i], strerror(errno));
            continue;
        }
        ok = results_read(t, in, is_stdin ? "stdin" : files[i], err);
        if (!is_stdin)
            fclose(in);
    }
    if (ok && results_num_games(t) == 0)
        ok = error_set(err, "no games in the results");
    if (!ok) {
        results_free(t);
        return NULL;
    }
    return t;
}
