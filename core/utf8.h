/*
 * utf8.h - text as UTF-8, both ways.  In: the readers of text files and names check that what
 * reaches a picture, a page or JSON is valid UTF-8 (no overlong forms, surrogates or code points
 * past U+10FFFF) and drop a byte order mark at the start of a file.  Out: the XML and JSON
 * writers escape what those formats need and write U+FFFD for any byte that is not valid UTF-8
 * (a path is bytes, and a cut string may end inside a character), so their output always
 * parses.  No state.
 */
#ifndef LEUCTRA_UTF8_H
#define LEUCTRA_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The UTF-8 byte order mark, EF BB BF. */
#define UTF8_BOM "\xEF\xBB\xBF"

/* The length (1-4) of the valid UTF-8 character at s[0, n), or 0 when the bytes there are not
 * one (n == 0 included). */
size_t utf8_char_length(const char *s, size_t n);

/* Whether s[0, n) is valid UTF-8; if not, *bad (may be NULL) is the offset of the first byte
 * that is not. */
bool utf8_valid(const char *s, size_t n, size_t *bad);

/* s past a byte order mark at its start. */
const char *utf8_skip_bom(const char *s);

/* Character data or an attribute value for XML: & < > " ' as entities, control characters
 * (which XML 1.0 does not allow) as '?', invalid UTF-8 as U+FFFD. */
void utf8_put_xml(FILE *out, const char *text);

/* A JSON string with its quotes: " and \ escaped, control characters as \u00XX, invalid UTF-8
 * as \ufffd. */
void utf8_put_json(FILE *out, const char *text);

#endif
