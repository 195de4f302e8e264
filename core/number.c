/*
 * number.c - strict decimal and integer numbers (number.h): the grammar is checked here byte by
 * byte, and only text that passes it is handed to strtod, so strtod's extras (blanks, hex, inf,
 * nan, the locale's own forms) never reach a value.
 */
#include "number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t digits(const char *s, size_t len)
{
    size_t n = 0;
    while (n < len && s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

size_t number_decimal_prefix(const char *s, size_t len)
{
    size_t n = len > 0 && (s[0] == '+' || s[0] == '-');
    size_t whole = digits(s + n, len - n), frac = 0;
    n += whole;
    if (n < len && s[n] == '.') {
        frac = digits(s + n + 1, len - n - 1);
        n += 1 + frac;
    }
    if (whole + frac == 0)
        return 0;
    if (n < len && (s[n] == 'e' || s[n] == 'E')) {
        size_t at = n + 1;
        at += at < len && (s[at] == '+' || s[at] == '-');
        size_t exp = digits(s + at, len - at);
        if (exp)
            n = at + exp;
    }
    return n;
}

NumberStatus number_parse_decimal(const char *s, size_t len, double *out)
{
    size_t n = number_decimal_prefix(s, len);
    if (n == 0)
        return NUMBER_SYNTAX;
    if (n < len)
        return NUMBER_TRAILING;
    /* A long run of digits is still a valid decimal; strtod reads it however long it is. */
    char small[64], *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf)
        return NUMBER_MEMORY;
    memcpy(buf, s, len);
    buf[len] = '\0';
    double v = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    if (!isfinite(v))
        return NUMBER_NOT_FINITE;
    *out = v;
    return NUMBER_OK;
}

NumberStatus number_read_decimal(const char *text, double *out)
{
    return number_parse_decimal(text, strlen(text), out);
}

NumberStatus number_read_integer(const char *text, long long min, long long max, long long *out)
{
    size_t sign = text[0] == '+' || text[0] == '-', n = digits(text + sign, strlen(text + sign));
    if (n == 0)
        return number_decimal_prefix(text, strlen(text)) ? NUMBER_TRAILING : NUMBER_SYNTAX;
    if (text[sign + n] != '\0')
        return NUMBER_TRAILING;
    errno = 0;
    long long v = strtoll(text, NULL, 10);
    if (errno == ERANGE || v < min || v > max)
        return NUMBER_RANGE;
    *out = v;
    return NUMBER_OK;
}

const char *number_problem(NumberStatus s)
{
    switch (s) {
    case NUMBER_OK: return "a number";
    case NUMBER_SYNTAX: return "not a decimal number";
    case NUMBER_TRAILING: return "characters after the number";
    case NUMBER_NOT_FINITE: return "too large to be a number";
    case NUMBER_RANGE: return "out of range";
    default: return "out of memory";
    }
}
