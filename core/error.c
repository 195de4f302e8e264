/*
 * error.c - error text, always one line: error_set (declared in game.h, which every module
 * includes) writes it into an Error; fail_exit (error.h) prints a command's failure and exits.
 * error_set sits here, below game.c, because game.c calls the game modules' setup while the
 * modules report their errors through it.
 */
#include "error.h"
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

void error_set(Error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    error_one_line(err->msg);
}

_Noreturn void fail_exit(const char *command, int status, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    error_one_line(line);
    fprintf(stderr, "leuctra%s%s: %s\n", *command ? " " : "", command, line);
    /* This line is the failure's one line: what stdout failed to take (cli/main.c checks it at
     * exit) is no second one.  A stream's failed flush drops what it held. */
    fflush(stdout);
    clearerr(stdout);
    exit(status);
}
