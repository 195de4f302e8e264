/*
 * openings.c - reading opening suites (openings.h): one opening a line, `start` plus moves or a
 * position string, `game V` naming the variant, '#' comments.
 */
#include "data/openings.h"
#include "core/utf8.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPENINGS_LINE_MAX = 4096 };   /* a 16x16 position string with moves fits many times */

void openings_init(OpeningSuite *s)
{
    *s = (OpeningSuite){0, 0, NULL};
}

void openings_free(OpeningSuite *s)
{
    free(s->opening);
    openings_init(s);
}

static bool suite_add(OpeningSuite *s, const Position *pos, Error *err)
{
    if (s->count == s->capacity) {
        int grown = s->capacity ? 2 * s->capacity : 32;
        Position *more = realloc(s->opening, (size_t)grown * sizeof *more);
        if (!more) {
            error_set(err, "out of memory");
            return false;
        }
        s->opening = more;
        s->capacity = grown;
    }
    s->opening[s->count++] = *pos;
    return true;
}

/* The line without its comment and surrounding blanks, copied into buf. */
static void strip_line(const char *line, char *buf, size_t len)
{
    size_t n = strcspn(line, "#\r\n");
    while (n > 0 && isspace((unsigned char)line[n - 1]))
        n--;
    while (n > 0 && isspace((unsigned char)*line)) {
        line++;
        n--;
    }
    if (n >= len)
        n = len - 1;
    memcpy(buf, line, n);
    buf[n] = '\0';
}

static bool starts_with_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    return strncmp(text, word, n) == 0 && (text[n] == '\0' || isspace((unsigned char)text[n]));
}

/* `game V`: the suite is for variant V, which must be the match's. */
static bool parse_game_line(const Game *g, const char *text, Error *err)
{
    const char *name = text + strlen("game");
    while (isspace((unsigned char)*name))
        name++;
    if (strcmp(name, g->name) != 0) {
        error_set(err, "the suite is for '%s', the match plays %s", name, g->name);
        return false;
    }
    return true;
}

/* `start MOVE...`: the moves played from the start position, each legal where it is made. */
static bool parse_start_line(OpeningSuite *s, const Game *g, const Position *start, char *text, Error *err)
{
    Position pos = *start;
    char *save = NULL;
    strtok_r(text, " \t", &save);   /* the word "start" */
    for (char *word = strtok_r(NULL, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
        Move m;
        Error why;
        if (game_status(g, &pos) != STATUS_ONGOING) {
            error_set(err, "move '%s' after the game is over", word);
            return false;
        }
        if (!game_parse_move(g, &pos, word, &m, &why)) {
            error_set(err, "move '%s': %s", word, why.msg);
            return false;
        }
        Undo undo;
        game_make(g, &pos, m, &undo);
    }
    return suite_add(s, &pos, err);
}

bool openings_parse_line(OpeningSuite *s, const Game *g, const Position *start, const char *line, Error *err)
{
    char text[OPENINGS_LINE_MAX];
    if (strlen(line) >= sizeof text - 1) {
        error_set(err, "line longer than %d bytes", OPENINGS_LINE_MAX - 2);
        return false;
    }
    strip_line(line, text, sizeof text);
    if (text[0] == '\0')
        return true;
    if (starts_with_word(text, "game"))
        return parse_game_line(g, text, err);
    if (starts_with_word(text, "start"))
        return parse_start_line(s, g, start, text, err);
    Position pos;
    Error why;
    if (!game_parse_position(g, text, &pos, &why)) {
        error_set(err, "position '%s': %s", text, why.msg);
        return false;
    }
    if (game_status(g, &pos) != STATUS_ONGOING) {
        error_set(err, "position '%s' is already over", text);
        return false;
    }
    return suite_add(s, &pos, err);
}

/* The next line of `in` into line[OPENINGS_LINE_MAX], its newline dropped; false at the end of
 * the input.  *nul is the column of its first NUL byte (0: none), which fgets would have taken
 * for the end of the text; *too_long says it has more than OPENINGS_LINE_MAX - 2 bytes, and
 * nothing more is read (the line is refused: a device or a file without a newline must not be
 * read to its end). */
static bool read_line(FILE *in, char *line, size_t *nul, bool *too_long)
{
    size_t n = 0;
    int c;
    bool any = false;
    *nul = 0;
    *too_long = false;
    while ((c = getc(in)) != EOF) {
        any = true;
        if (c == '\n')
            break;
        if (n >= OPENINGS_LINE_MAX - 2) {
            *too_long = true;
            break;
        }
        if (c == '\0' && *nul == 0)
            *nul = n + 1;
        line[n++] = (char)c;
    }
    line[n] = '\0';
    return any;
}

bool openings_read(OpeningSuite *s, const Game *g, const Position *start, FILE *in, const char *source,
                   Error *err)
{
    char line[OPENINGS_LINE_MAX];
    size_t nul;
    bool too_long;
    for (long number = 1; read_line(in, line, &nul, &too_long); number++) {
        Error why;
        if (too_long) {
            error_set(err, "%s:%ld: line longer than %d bytes", source, number, OPENINGS_LINE_MAX - 2);
            return false;
        }
        if (nul) {
            error_set(err, "%s:%ld: NUL byte at column %zu", source, number, nul);
            return false;
        }
        /* a byte order mark is no part of the first line */
        if (!openings_parse_line(s, g, start, number == 1 ? utf8_skip_bom(line) : line, &why)) {
            error_set(err, "%s:%ld: %s", source, number, why.msg);
            return false;
        }
    }
    if (ferror(in)) {
        error_set(err, "%s: read error", source);
        return false;
    }
    if (s->count == 0) {
        error_set(err, "%s: no openings in the file", source);
        return false;
    }
    return true;
}

bool openings_load(OpeningSuite *s, const Game *g, const Position *start, const char *path, Error *err)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        error_set(err, "%s: %s", path, strerror(errno));
        return false;
    }
    bool ok = openings_read(s, g, start, in, path, err);
    fclose(in);
    return ok;
}
