/*
 * number.h - the one way leuctra reads a number from text it did not write itself: arguments,
 * protocol lines, weights, JSON and every other file.  One grammar (docs/WEIGHTS.md):
 *
 *   decimal   [+-] DIGITS [. DIGITS] [(e|E) [+-] DIGITS], with digits on at least one side of
 *             the point: 0.25, -3, +1.5e-3, .5, 2.
 *   integer   [+-] DIGITS
 *
 * Nothing else: no blanks around it, no hex (0x1p-3), no inf or nan, no lone sign; and a decimal
 * must be finite once read (1e999 is refused, not infinity).  strtod and strtol take all of those
 * and skip leading blanks, so no input goes to them unchecked.  The callers say what and where
 * (file and line, option, command) with number_problem's words.
 */
#ifndef LEUCTRA_NUMBER_H
#define LEUCTRA_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    NUMBER_OK,
    NUMBER_SYNTAX,          /* not a decimal (or an integer) at all */
    NUMBER_TRAILING,        /* a number followed by other characters */
    NUMBER_NOT_FINITE,      /* a decimal too large for a double */
    NUMBER_RANGE,           /* an integer outside the range asked for */
    NUMBER_MEMORY           /* a decimal of thousands of digits, and no memory to copy it */
} NumberStatus;

/* The length of the longest decimal at the start of s[0, len); 0 when there is none. */
size_t number_decimal_prefix(const char *s, size_t len);

/* Exactly the len bytes at s as a decimal, into *out (left alone unless NUMBER_OK). */
NumberStatus number_parse_decimal(const char *s, size_t len, double *out);
/* The whole string text. */
NumberStatus number_read_decimal(const char *text, double *out);

/* The whole string text as an integer from min to max. */
NumberStatus number_read_integer(const char *text, long long min, long long max, long long *out);

/* Words for a status: "not a decimal number", "trailing characters", ... */
const char *number_problem(NumberStatus s);

#endif
