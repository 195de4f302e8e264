/*
 * fail.c - a command's failure as one line: "leuctra CMD: message" on stderr, and the exit status
 * that says whose fault it was (cli.h: fail_exit).  Only the command line exits: the library
 * returns an Error (core/game.h) and lets the command decide.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>

_Noreturn void fail_exit(const char *command, int status, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    error_one_line(line);   /* input echoed in it stays one line, and UTF-8 */
    fprintf(stderr, "leuctra%s%s: %s\n", *command ? " " : "", command, line);
    /* This line is the failure's one line: what stdout failed to take (cli/main.c checks it at
     * exit) is no second one.  A stream's failed flush drops what it held. */
    fflush(stdout);
    clearerr(stdout);
    exit(status);
}

_Noreturn void fail_with(const char *command, const Error *err)
{
    fail_exit(command, err->failure ? EXIT_FAILURE_RUN : EXIT_USAGE, "%s", err->msg);
}
