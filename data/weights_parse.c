/*
 * weights_parse.c - reading weights text (docs/WEIGHTS.md): line by line, each line a comment, a
 * blank, the `game NAME` line, or `name value`.  Every way the text can be wrong gets its own
 * one-line message with the source name and the line number, because a weights file is edited
 * by hand and a silent default would make a tuning run quietly wrong.
 */
#include "weights.h"
#include "core/number.h"
#include "core/utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const Game *g;
    const char *source;
    Weights *out;
    Error *err;
    int line;                       /* number of the line being read, from 1 */
    int game_line;                  /* line of the `game` line, 0 before it */
    int set_on[MAX_FEATURES];       /* line that set each feature, 0 = not yet */
} Parser;

/* A token of the line: start and length. */
typedef struct {
    const char *at;
    size_t len;
} Token;

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* The next whitespace-separated token at or after *cursor; an empty token at the end of the line
 * or at a '#' (the rest of the line is a comment). */
static Token next_token(const char **cursor)
{
    const char *s = *cursor;
    while (is_blank(*s))
        s++;
    Token t = {s, 0};
    if (*s == '#')
        t.at = s + strlen(s);
    else
        while (s[t.len] && !is_blank(s[t.len]))
            t.len++;
    *cursor = t.at + t.len;
    return t;
}

static bool token_is(Token t, const char *word) { return t.len == strlen(word) && memcmp(t.at, word, t.len) == 0; }

/* User text for a message: at most 32 characters, anything unprintable as '?'. */
static const char *shown(Token t, char out[40])
{
    size_t n = 0;
    for (; n < t.len && n < 32; n++)
        out[n] = t.at[n] >= 0x20 && t.at[n] < 0x7F ? t.at[n] : '?';
    if (t.len > 32) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

/* --- numbers ---------------------------------------------------------------------------------- */

/* A weight is a decimal as core/number.h reads every number: the grammar of docs/WEIGHTS.md. */
static bool parse_value(Parser *p, Token name, Token value, double *out)
{
    char nm[40], val[40];
    NumberStatus status = number_parse_decimal(value.at, value.len, out);
    if (status == NUMBER_SYNTAX) {
        error_set(p->err, "%s:%d: bad number '%s' for '%s' (expected a decimal number such as -0.25 or 1.5e-3)",
                  p->source, p->line, shown(value, val), shown(name, nm));
        return false;
    }
    if (status == NUMBER_TRAILING) {
        size_t n = number_decimal_prefix(value.at, value.len);
        Token junk = {value.at + n, value.len - n};
        char j[40];
        error_set(p->err, "%s:%d: bad number '%s' for '%s': trailing junk '%s'", p->source, p->line,
                  shown(value, val), shown(name, nm), shown(junk, j));
        return false;
    }
    if (status != NUMBER_OK) {
        error_set(p->err, "%s:%d: number '%s' for '%s' is not finite", p->source, p->line, shown(value, val),
                  shown(name, nm));
        return false;
    }
    if (fabs(*out) > WEIGHTS_MAX_VALUE) {
        error_set(p->err, "%s:%d: weight '%s' for '%s' is beyond +-%g", p->source, p->line, shown(value, val),
                  shown(name, nm), WEIGHTS_MAX_VALUE);
        return false;
    }
    return true;
}

/* --- lines ------------------------------------------------------------------------------------ */

static bool nothing_after(Parser *p, const char **cursor, const char *what)
{
    char extra[40];
    Token t = next_token(cursor);
    if (t.len == 0)
        return true;
    error_set(p->err, "%s:%d: unexpected text '%s' after %s", p->source, p->line, shown(t, extra), what);
    return false;
}

static bool game_line(Parser *p, const char **cursor)
{
    char name[40];
    if (p->game_line) {
        error_set(p->err, "%s:%d: second 'game' line (the first is line %d)", p->source, p->line, p->game_line);
        return false;
    }
    Token t = next_token(cursor);
    if (t.len == 0) {
        error_set(p->err, "%s:%d: 'game' without a name (expected e.g. 'game %s')", p->source, p->line, p->g->name);
        return false;
    }
    if (!token_is(t, p->g->name)) {
        error_set(p->err, "%s:%d: weights are for %s, this game is %s", p->source, p->line, shown(t, name), p->g->name);
        return false;
    }
    p->game_line = p->line;
    return nothing_after(p, cursor, "the game name");
}

static bool weight_line(Parser *p, Token name, const char **cursor)
{
    char nm[40];
    if (!p->game_line) {
        error_set(p->err, "%s:%d: '%s' before the game line (the first line that is not a comment must be 'game %s')",
                  p->source, p->line, shown(name, nm), p->g->name);
        return false;
    }
    char key[WEIGHTS_MAX_LINE + 1];
    memcpy(key, name.at, name.len);
    key[name.len] = '\0';
    int i = value_feature_index(p->g, key);
    if (i < 0) {
        error_set(p->err, "%s:%d: unknown feature '%s' for %s", p->source, p->line, shown(name, nm), p->g->name);
        return false;
    }
    if (p->set_on[i]) {
        error_set(p->err, "%s:%d: duplicate feature '%s' (first set on line %d)", p->source, p->line, shown(name, nm),
                  p->set_on[i]);
        return false;
    }
    Token value = next_token(cursor);
    if (value.len == 0) {
        error_set(p->err, "%s:%d: feature '%s' has no value", p->source, p->line, shown(name, nm));
        return false;
    }
    if (!parse_value(p, name, value, &p->out->w[i]))
        return false;
    p->set_on[i] = p->line;
    return nothing_after(p, cursor, "the value");
}

static bool parse_line(Parser *p, const char *line)
{
    const char *cursor = line;
    Token first = next_token(&cursor);
    if (first.len == 0)
        return true;    /* blank or comment */
    if (token_is(first, "game"))
        return game_line(p, &cursor);
    return weight_line(p, first, &cursor);
}

/* --- the whole text ---------------------------------------------------------------------------- */

/* Names the features no line set, as many as fit in the message. */
static bool check_complete(Parser *p)
{
    if (!p->game_line) {
        error_set(p->err, "%s: missing 'game' line (expected 'game %s' before the weights)", p->source, p->g->name);
        return false;
    }
    /* at most ~100 characters of names: the message stays a line a terminal shows whole */
    char list[100] = "";
    size_t used = 0;
    int missing = 0;
    bool full = false;
    for (int i = 0; i < p->g->ops->num_features; i++) {
        if (p->set_on[i])
            continue;
        const char *name = p->g->ops->feature_names[i];
        full = full || used + strlen(name) + 8 >= sizeof list;
        if (!full)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", missing ? ", " : "", name);
        missing++;
    }
    if (full)
        snprintf(list + used, sizeof list - used, ", ...");
    if (missing)
        error_set(p->err, "%s: %d feature%s missing: %s", p->source, missing, missing > 1 ? "s" : "", list);
    return missing == 0;
}

/* Copies the line at s into `line` (without its newline or CR); returns the start of the next
 * line, or NULL if the line is too long. */
static const char *read_line(Parser *p, const char *s, char line[WEIGHTS_MAX_LINE + 1])
{
    size_t len = strcspn(s, "\n");
    const char *next = s[len] ? s + len + 1 : s + len;
    if (len && s[len - 1] == '\r')
        len--;  /* CRLF line ends */
    if (len > WEIGHTS_MAX_LINE) {
        error_set(p->err, "%s:%d: line longer than %d characters", p->source, p->line, WEIGHTS_MAX_LINE);
        return NULL;
    }
    memcpy(line, s, len);
    line[len] = '\0';
    return next;
}

bool weights_parse(const Game *g, const char *text, const char *source_name, Weights *out, Error *err)
{
    Parser p = {.g = g, .source = source_name ? source_name : "weights", .out = out, .err = err};
    weights_zero(g, out);
    /* an editor's byte order mark is no part of the first line */
    for (const char *s = utf8_skip_bom(text ? text : ""); *s;) {
        char line[WEIGHTS_MAX_LINE + 1];
        p.line++;
        s = read_line(&p, s, line);
        if (!s || !parse_line(&p, line))
            return false;
    }
    return check_complete(&p);
}
