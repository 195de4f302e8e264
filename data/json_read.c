/*
 * json_read.c - a small recursive scanner over JSON text (json_read.h): it walks objects to
 * the requested key, skipping (and checking) every other value on the way.  Nesting is limited
 * so a hostile file cannot exhaust the stack.
 */
#include "json_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_NESTING = 64 };

static void skip_space(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

/* A string at *p; *same says whether its raw bytes equal `key` (keys have no escapes). */
static bool read_string(const char **p, const char *key, bool *same)
{
    if (**p != '"')
        return false;
    const char *start = ++*p;
    for (; **p != '"'; (*p)++) {
        if ((unsigned char)**p < 32)
            return false;            /* a control character, or the text ended */
        if (**p == '\\' && (unsigned char)*++*p < 32)
            return false;
    }
    size_t len = (size_t)(*p - start);
    *same = key && strlen(key) == len && memcmp(start, key, len) == 0;
    (*p)++;
    return true;
}

static bool skip_value(const char **p, int depth);

/* The members of an object or the elements of an array, *p just past the opening bracket. */
static bool skip_items(const char **p, char close, int depth)
{
    skip_space(p);
    if (**p == close) {
        (*p)++;
        return true;
    }
    for (;;) {
        bool same;
        if (close == '}') {
            if (!read_string(p, NULL, &same))
                return false;
            skip_space(p);
            if (*(*p)++ != ':')
                return false;
        }
        if (!skip_value(p, depth + 1))
            return false;
        skip_space(p);
        char c = *(*p)++;
        if (c == close)
            return true;
        if (c != ',')
            return false;
        skip_space(p);
    }
}

static bool read_number(const char **p, double *out)
{
    if (strncmp(*p, "null", 4) == 0) {
        *p += 4;
        *out = NAN;
        return true;
    }
    if (**p != '-' && (**p < '0' || **p > '9'))
        return false;
    char *end;
    *out = strtod(*p, &end);
    *p = end;
    return true;
}

static bool skip_value(const char **p, int depth)
{
    skip_space(p);
    if (depth > MAX_NESTING)
        return false;
    bool same;
    double number;
    switch (**p) {
    case '{': (*p)++; return skip_items(p, '}', depth);
    case '[': (*p)++; return skip_items(p, ']', depth);
    case '"': return read_string(p, NULL, &same);
    case 't': *p += 4; return strncmp(*p - 4, "true", 4) == 0;
    case 'f': *p += 5; return strncmp(*p - 5, "false", 5) == 0;
    default: return read_number(p, &number);
    }
}

/* Walks the object at *p to keys[0], then on down the path; *p ends at the value. */
static bool find(const char **p, const char *const *keys, int depth)
{
    skip_space(p);
    if (*(*p)++ != '{')
        return false;
    skip_space(p);
    while (**p != '}') {
        bool same;
        if (!read_string(p, keys[0], &same))
            return false;
        skip_space(p);
        if (*(*p)++ != ':')
            return false;
        if (same)
            return depth == 1 || find(p, keys + 1, depth - 1);
        if (!skip_value(p, 1))
            return false;
        skip_space(p);
        if (**p == ',')
            (*p)++, skip_space(p);
        else if (**p != '}')
            return false;
    }
    return false;
}

bool json_number_at(const char *text, const char *const *keys, int depth, double *out)
{
    const char *p = text;
    if (depth < 1 || !find(&p, keys, depth))
        return false;
    skip_space(&p);
    return read_number(&p, out);
}
