/*
 * tune_error.c - the tuner's ways to fill the library's Error (core/game.h) and return false.
 */
#include "tune.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool tune_error_set(Error *err, bool bad_input, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    error_one_line(err->msg);
    err->failure = !bad_input;
    err->kind = 0;
    err->offset = 0;
    err->elsewhere = false;
    return false;
}

bool tune_error_pass(Error *err, const Error *e)
{
    if (err != e)
        *err = *e;
    return false;
}
