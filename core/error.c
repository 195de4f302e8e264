/*
 * error.c - the library's error, always one line: error_set, error_failed and error_pass (declared in
 * game.h, which every module includes) write it into an Error, error_one_line makes any text
 * such a line.  They sit here, below game.c, because game.c calls the game modules' setup while
 * the modules report their errors through them.  Printing it and exiting is the command line's
 * (cli/fail.c).
 */
#include "game.h"
#include "utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Control characters from the input (a newline in a move, say) would break the promise of one
 * line per error, and bytes that are not UTF-8 (an argument's 0xff) would reach a terminal or a
 * log raw; both are shown as '?', one for each byte. */
void error_one_line(char *text)
{
    size_t n = strlen(text);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)text[i];
        size_t len = c < 0x80 ? 1 : utf8_char_length(text + i, n - i);
        if (c < 32 || c == 127 || len == 0) {
            text[i++] = '?';
            continue;
        }
        i += len;
    }
}

static void error_vset(Error *err, bool failure, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

static void error_vset(Error *err, bool failure, const char *fmt, va_list ap)
{
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    error_one_line(err->msg);
    err->failure = failure;
    err->kind = 0;
    err->offset = 0;
    err->elsewhere = false;
}

bool error_set(Error *err, const char *fmt, ...)
{
    if (!err)
        return false;
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, false, fmt, ap);
    va_end(ap);
    return false;
}

bool error_failed(Error *err, const char *fmt, ...)
{
    if (!err)
        return false;
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, true, fmt, ap);
    va_end(ap);
    return false;
}

bool error_pass(Error *err, const Error *from)
{
    if (err && err != from)
        *err = *from;
    return false;
}
