/*
 * error.c - error text for rejected input: error_set (declared in game.h, which every module
 * includes) writes one line into an Error.  It sits in its own file, below game.c, because
 * game.c calls the game modules' setup while the modules report their errors through it.
 */
#include "game.h"

#include <stdarg.h>
#include <stdio.h>

/* Control characters from the input (a newline in a move, say) would break the promise of one
 * line per error; they are shown as '?'. */
void error_set(Error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    for (char *c = err->msg; *c; c++)
        if ((unsigned char)*c < 32 || *c == 127)
            *c = '?';
}
