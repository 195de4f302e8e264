/*
 * error.c - error text, always one line: error_set (declared in game.h, which every module
 * includes) writes it into an Error; fail_exit (error.h) prints a command's failure and exits.
 * error_set sits here, below game.c, because game.c calls the game modules' setup while the
 * modules report their errors through it.
 */
#include "error.h"
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

void error_set(Error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    one_line(err->msg);
}

_Noreturn void fail_exit(const char *command, int status, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    one_line(line);
    fprintf(stderr, "leuctra%s%s: %s\n", *command ? " " : "", command, line);
    /* This line is the failure's one line: what stdout failed to take (cli/main.c checks it at
     * exit) is no second one.  A stream's failed flush drops what it held. */
    fflush(stdout);
    clearerr(stdout);
    exit(status);
}
