/*
 * utf8.c - checking UTF-8 and writing it safely into XML and JSON (utf8.h), after the
 * definition of well-formed UTF-8 in the Unicode standard (table 3-7): each lead byte allows a
 * narrower range for the byte after it, which is what rules out overlong forms, surrogates and
 * code points past U+10FFFF.
 */
#include "utf8.h"

#include <string.h>

static bool in(unsigned char c, unsigned lo, unsigned hi) { return c >= lo && c <= hi; }

size_t utf8_char_length(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    if (n == 0)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t len = in(c, 0xC2, 0xDF) ? 2 : in(c, 0xE0, 0xEF) ? 3 : in(c, 0xF0, 0xF4) ? 4 : 0;
    if (len == 0 || n < len)
        return 0;
    /* the second byte's range depends on the first */
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (!in(s[1], lo, hi))
        return 0;
    for (size_t i = 2; i < len; i++)
        if (!in(s[i], 0x80, 0xBF))
            return 0;
    return len;
}

bool utf8_valid(const char *s, size_t n, size_t *bad)
{
    for (size_t i = 0; i < n;) {
        size_t len = utf8_char_length(s + i, n - i);
        if (len == 0) {
            if (bad)
                *bad = i;
            return false;
        }
        i += len;
    }
    return true;
}

const char *utf8_skip_bom(const char *s)
{
    return strncmp(s, UTF8_BOM, 3) == 0 ? s + 3 : s;
}

void utf8_put_xml(FILE *out, const char *text)
{
    size_t n = strlen(text);
    for (size_t i = 0; i < n;) {
        size_t len = utf8_char_length(text + i, n - i);
        unsigned char c = (unsigned char)text[i];
        if (len == 0)
            fputs("\xEF\xBF\xBD", out);
        else if (len > 1)
            fwrite(text + i, 1, len, out);
        else if (c == '&')
            fputs("&amp;", out);
        else if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else if (c == '\'')
            fputs("&apos;", out);
        else
            fputc(c < 32 || c == 127 ? '?' : c, out);
        i += len ? len : 1;
    }
}

void utf8_put_json(FILE *out, const char *text)
{
    size_t n = strlen(text);
    fputc('"', out);
    for (size_t i = 0; i < n;) {
        size_t len = utf8_char_length(text + i, n - i);
        unsigned char c = (unsigned char)text[i];
        if (len == 0)
            fputs("\\ufffd", out);
        else if (len > 1)
            fwrite(text + i, 1, len, out);
        else if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c < 32 || c == 127)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
        i += len ? len : 1;
    }
    fputc('"', out);
}
