/*
 * error.c - the library's error, always one line: error_set and error_failed (declared in
 * game.h, which every module includes) write it into an Error.  They sit here, below game.c,
 * because game.c calls the game modules' setup while the modules report their errors through
 * them.  Printing it and exiting is the command line's (cli/fail.c).
 */
#include "game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Control characters from the input (a newline in a move, say) would break the promise of one
 * line per error; they are shown as '?'. */
static void one_line(char *text)
{
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 32 || *c == 127)
            *c = '?';
}

static void error_vset(Error *err, bool failure, const char *fmt, va_list ap)
{
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    one_line(err->msg);
    err->failure = failure;
}

void error_set(Error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, false, fmt, ap);
    va_end(ap);
}

void error_failed(Error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    error_vset(err, true, fmt, ap);
    va_end(ap);
}
