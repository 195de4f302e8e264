/*
 * api_error.c - the C API's one way to fail a call (api_internal.h: api_fail): the message
 * written into the caller's buffer as one line, the status returned, so that every lt_* call
 * that fails says what and where the same way.
 */
#include "api_internal.h"

#include <stdarg.h>
#include <stdio.h>

int api_fail(char *err, size_t err_len, int status, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
        error_one_line(err);
    }
    return status;
}
