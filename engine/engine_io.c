/*
 * engine_io.c - the protocol's input and output: command lines read with a fixed bound, reply
 * lines written whole and flushed at once, and the small parsers (words, numbers) that turn
 * untrusted text into values (numbers through core/number.h, strict decimals only).
 */
#include "engine.h"
#include "core/number.h"

#include <stdarg.h>

/* --- input ------------------------------------------------------------------------------------- */

LineStatus engine_read_line(FILE *in, char *buf)
{
    size_t n = 0;
    bool too_long = false, nul = false;
    int c;
    /* Characters past the limit are read and dropped, so a huge line costs no memory and the
     * next line starts where it should. */
    while ((c = getc(in)) != EOF && c != '\n') {
        nul |= c == '\0';
        if (n < ENGINE_MAX_LINE)
            buf[n++] = (char)c;
        else
            too_long = true;
    }
    if (c == EOF && n == 0 && !too_long)
        return LINE_EOF;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return too_long ? LINE_TOO_LONG : nul ? LINE_NUL : LINE_OK;
}

/* --- output ------------------------------------------------------------------------------------ */

/* stdio locks a stream per call and lets one thread take that lock recursively (flockfile), so
 * holding it across a line keeps the search thread's info lines from cutting into a reply. */
void engine_hold_output(Engine *e) { flockfile(e->out); }
void engine_release_output(Engine *e) { funlockfile(e->out); }

void engine_line_begin(Engine *e) { flockfile(e->out); }

void engine_put(Engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(e->out, fmt, ap);
    va_end(ap);
}

void engine_line_end(Engine *e)
{
    putc('\n', e->out);
    /* A pipe peer must see each reply as soon as it is complete. */
    if (fflush(e->out) != 0 || ferror(e->out))
        atomic_store(&e->output_lost, true);
    funlockfile(e->out);
}

void engine_reply(Engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    engine_line_begin(e);
    vfprintf(e->out, fmt, ap);
    engine_line_end(e);
    va_end(ap);
}

void engine_error(Engine *e, const char *fmt, ...)
{
    char text[2 * ERROR_LEN + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    error_one_line(text);
    engine_reply(e, "error %s", text);
}

/* --- words and numbers ------------------------------------------------------------------------- */

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

char *engine_tokens_next(Tokens *t)
{
    char *p = t->rest;
    while (is_blank(*p))
        p++;
    if (*p == '\0') {
        t->rest = p;
        return NULL;
    }
    char *word = p;
    while (*p && !is_blank(*p))
        p++;
    if (*p)
        *p++ = '\0';
    t->rest = p;
    return word;
}

char *engine_tokens_rest(Tokens *t)
{
    char *p = t->rest;
    while (is_blank(*p))
        p++;
    char *end = p;
    while (*end)
        end++;
    while (end > p && is_blank(end[-1]))
        *--end = '\0';
    t->rest = end;
    return p;
}

bool engine_parse_integer(const char *text, long long min, long long max, long long *out)
{
    return number_read_integer(text, min, max, out) == NUMBER_OK;
}

bool engine_parse_real(const char *text, double min, double max, double *out)
{
    double v;
    if (number_read_decimal(text, &v) != NUMBER_OK || v < min || v > max)
        return false;
    *out = v;
    return true;
}
