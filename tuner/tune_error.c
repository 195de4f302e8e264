/*
 * tune_error.c - filling a TuneError: one line, flagged as bad input or as a failure.
 */
#include "tune.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool tune_error_set(TuneError *err, bool bad_input, const char *fmt, ...)
{
    memset(err, 0, sizeof *err);
    err->bad_input = bad_input;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

bool tune_error_records(TuneError *err, const RecordsError *e)
{
    memset(err, 0, sizeof *err);
    err->from_records = true;
    err->records = *e;
    snprintf(err->msg, sizeof err->msg, "%s", e->msg);
    return false;
}
