/*
 * fail.c - a command's failure as one line: "leuctra CMD: message" on stderr, and the exit status
 * that says whose fault it was (cli.h: fail_exit).  Only the command line exits: the library
 * returns an Error (core/game.h) and lets the command decide.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>

static void say_line(const char *command, const char *line_in)
{
    char line[1024];
    snprintf(line, sizeof line, "%s", line_in);
    error_one_line(line);   /* input echoed in it stays one line, and UTF-8 */
    fprintf(stderr, "leuctra%s%s: %s\n", *command ? " " : "", command, line);
    /* This line is the failure's one line: what stdout failed to take (cli/main.c checks it at
     * exit) is no second one.  A stream's failed flush drops what it held. */
    fflush(stdout);
    clearerr(stdout);
}

_Noreturn void fail_exit(const char *command, int status, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    say_line(command, line);
    exit(status);
}

int fail_status(const Error *err)
{
    return err->failure ? EXIT_FAILURE_RUN : EXIT_USAGE;
}

void fail_say(const char *command, const Error *err)
{
    say_line(command, err->msg);
}

_Noreturn void fail_with(const char *command, const Error *err)
{
    fail_exit(command, fail_status(err), "%s", err->msg);
}
