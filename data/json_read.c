/*
 * json_read.c - a small recursive scanner over JSON text (json_read.h): it walks objects to
 * the requested key, skipping (and checking) every other value on the way.  Nesting is limited
 * so a hostile file cannot exhaust the stack.  The first fault met is described with its line.
 */
#include "json_read.h"
#include "core/number.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { MAX_NESTING = 64 };

typedef struct {
    const char *text, *source;
    Error *err;
} Json;

static int line_of(const Json *j, const char *at)
{
    int line = 1;
    for (const char *c = j->text; c < at && *c; c++)
        line += *c == '\n';
    return line;
}

/* Records the fault at `at` (the first one only) and returns false. */
static bool fault(Json *j, const char *at, const char *what)
{
    error_set(j->err, "%s:%d: %s", j->source, line_of(j, at), what);
    j->err = NULL;
    return false;
}

static void skip_space(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

/* A string at *p; *same says whether its raw bytes equal `key` (keys have no escapes). */
static bool read_string(Json *j, const char **p, const char *key, bool *same)
{
    if (**p != '"')
        return fault(j, *p, "expected a string");
    const char *start = ++*p;
    for (; **p != '"'; (*p)++) {
        if ((unsigned char)**p < 32)
            return fault(j, *p, **p ? "a control character in a string" : "the text ends inside a string");
        if (**p == '\\' && (unsigned char)*++*p < 32)
            return fault(j, *p, "a bad escape in a string");
    }
    size_t len = (size_t)(*p - start);
    *same = key && strlen(key) == len && memcmp(start, key, len) == 0;
    (*p)++;
    return true;
}

static bool skip_value(Json *j, const char **p, int depth);

/* The members of an object or the elements of an array, *p just past the opening bracket. */
static bool skip_items(Json *j, const char **p, char close, int depth)
{
    skip_space(p);
    if (**p == close) {
        (*p)++;
        return true;
    }
    for (;;) {
        bool same;
        if (close == '}') {
            if (!read_string(j, p, NULL, &same))
                return false;
            skip_space(p);
            if (**p != ':')
                return fault(j, *p, "expected ':'");
            (*p)++;
        }
        if (!skip_value(j, p, depth + 1))
            return false;
        skip_space(p);
        char c = **p;
        if (c != close && c != ',')
            return fault(j, *p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
        (*p)++;
        if (c == close)
            return true;
        skip_space(p);
    }
}

/* A number (or null: NAN): the characters up to the next delimiter must be one strict decimal. */
static bool read_number(Json *j, const char **p, double *out)
{
    if (strncmp(*p, "null", 4) == 0) {
        *p += 4;
        *out = NAN;
        return true;
    }
    size_t len = strcspn(*p, " \t\r\n,:]}");
    NumberStatus status = number_parse_decimal(*p, len, out);
    if (status != NUMBER_OK) {
        char what[120];
        snprintf(what, sizeof what, "bad number '%.*s' (%s)", len > 40 ? 40 : (int)len, *p, number_problem(status));
        return fault(j, *p, len ? what : "expected a value");
    }
    *p += len;
    return true;
}

static bool skip_word(Json *j, const char **p, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(*p, word, n) != 0)
        return fault(j, *p, "expected a value");
    *p += n;
    return true;
}

static bool skip_value(Json *j, const char **p, int depth)
{
    skip_space(p);
    if (depth > MAX_NESTING)
        return fault(j, *p, "nested too deeply");
    bool same;
    double number;
    switch (**p) {
    case '{': (*p)++; return skip_items(j, p, '}', depth);
    case '[': (*p)++; return skip_items(j, p, ']', depth);
    case '"': return read_string(j, p, NULL, &same);
    case 't': return skip_word(j, p, "true");
    case 'f': return skip_word(j, p, "false");
    default: return read_number(j, p, &number);
    }
}

/* Walks the object at *p to keys[0], then on down the path; *p ends at the value.  False with
 * *found false when the path is not there (and the text is good up to the object's end). */
static bool find(Json *j, const char **p, const char *const *keys, int depth, bool *found)
{
    skip_space(p);
    if (**p != '{')
        return fault(j, *p, "expected an object");
    (*p)++;
    skip_space(p);
    while (**p != '}') {
        bool same;
        if (!read_string(j, p, keys[0], &same))
            return false;
        skip_space(p);
        if (**p != ':')
            return fault(j, *p, "expected ':'");
        (*p)++;
        if (same)
            return depth == 1 || find(j, p, keys + 1, depth - 1, found);
        if (!skip_value(j, p, 1))
            return false;
        skip_space(p);
        if (**p == ',')
            (*p)++, skip_space(p);
        else if (**p != '}')
            return fault(j, *p, "expected ',' or '}'");
    }
    *found = false;
    return false;
}

bool json_number_at(const char *text, const char *source, const char *const *keys, int depth, double *out,
                    int *line, Error *err)
{
    Json j = {text, source, err};
    const char *p = text;
    bool found = true;
    if (depth < 1)
        return false;
    if (!find(&j, &p, keys, depth, &found)) {
        if (!found) {
            char path[200] = "";
            for (int i = 0; i < depth; i++)
                snprintf(path + strlen(path), sizeof path - strlen(path), "%s%s", i ? "." : "", keys[i]);
            error_set(err, "%s: no %s", source, path);
        }
        return false;
    }
    skip_space(&p);
    if (line)
        *line = line_of(&j, p);
    return read_number(&j, &p, out);
}
