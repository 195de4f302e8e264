/*
 * test_text.c - the readers every text input goes through and the writers of XML and JSON text:
 * strict decimal and integer numbers (core/number.h), UTF-8 checks and escapes (core/utf8.h).
 */
#include "test.h"
#include "core/number.h"
#include "core/utf8.h"

#include <math.h>

static void test_decimals_accepted(TestContext *t)
{
    static const struct {
        const char *text;
        double value;
    } good[] = {
        {"0", 0},       {"-3", -3},      {"+1.5e-3", 1.5e-3}, {".5", 0.5},     {"2.", 2},
        {"1E10", 1e10}, {"0.25", 0.25},  {"-0", 0},           {"1e308", 1e308}, {"1e-400", 0},
        {"007", 7},     {"1e+2", 100},   {"-.5e1", -5},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = NAN;
        NumberStatus s = number_read_decimal(good[i].text, &v);
        if (s != NUMBER_OK || v != good[i].value) {
            fprintf(stderr, "  '%s': status %d, value %g\n", good[i].text, (int)s, v);
            t->failures++;
        }
    }
}

static void test_decimals_refused(TestContext *t)
{
    static const struct {
        const char *text;
        NumberStatus status;
    } bad[] = {
        {"", NUMBER_SYNTAX},          {"-", NUMBER_SYNTAX},         {"+", NUMBER_SYNTAX},
        {".", NUMBER_SYNTAX},         {" 1", NUMBER_SYNTAX},        {"1 ", NUMBER_TRAILING},
        {"0x1p-3", NUMBER_TRAILING},  {"inf", NUMBER_SYNTAX},       {"-inf", NUMBER_SYNTAX},
        {"nan", NUMBER_SYNTAX},       {"NAN", NUMBER_SYNTAX},       {"Infinity", NUMBER_SYNTAX},
        {"1e309", NUMBER_NOT_FINITE}, {"-1e999", NUMBER_NOT_FINITE}, {"1e", NUMBER_TRAILING},
        {"1e+", NUMBER_TRAILING},     {"1.5.2", NUMBER_TRAILING},   {"1,5", NUMBER_TRAILING},
        {"--1", NUMBER_SYNTAX},       {"e5", NUMBER_SYNTAX},        {"\t2", NUMBER_SYNTAX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = 42;
        NumberStatus s = number_read_decimal(bad[i].text, &v);
        if (s != bad[i].status || v != 42) {
            fprintf(stderr, "  '%s': status %d (want %d), value %g\n", bad[i].text, (int)s, (int)bad[i].status, v);
            t->failures++;
        }
    }
    /* a length-bounded token: what follows it is not read */
    double v = 0;
    CHECK(t, number_parse_decimal("12x", 2, &v) == NUMBER_OK && v == 12);
    CHECK(t, number_parse_decimal("1e5", 2, &v) == NUMBER_TRAILING);
    CHECK(t, number_decimal_prefix("0x1p-3", 6) == 1);
    CHECK(t, number_decimal_prefix("-", 1) == 0);
    /* a long run of digits is still a number */
    char longer[600];
    memset(longer, '1', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK(t, number_read_decimal(longer, &v) == NUMBER_NOT_FINITE);
    longer[1] = '.';
    CHECK(t, number_read_decimal(longer, &v) == NUMBER_OK && v > 1.1 && v < 1.2);
}

static void test_integers(TestContext *t)
{
    long long v = 0;
    CHECK(t, number_read_integer("12", 0, 100, &v) == NUMBER_OK && v == 12);
    CHECK(t, number_read_integer("-12", -100, 100, &v) == NUMBER_OK && v == -12);
    CHECK(t, number_read_integer("+3", 0, 100, &v) == NUMBER_OK && v == 3);
    CHECK(t, number_read_integer("101", 0, 100, &v) == NUMBER_RANGE);
    CHECK(t, number_read_integer("99999999999999999999", 0, 100, &v) == NUMBER_RANGE);
    CHECK(t, number_read_integer("1.0", 0, 100, &v) == NUMBER_TRAILING);
    CHECK(t, number_read_integer("1e3", 0, 10000, &v) == NUMBER_TRAILING);
    CHECK(t, number_read_integer("0x10", 0, 100, &v) == NUMBER_TRAILING);
    CHECK(t, number_read_integer(" 5", 0, 100, &v) == NUMBER_SYNTAX);
    CHECK(t, number_read_integer("5 ", 0, 100, &v) == NUMBER_TRAILING);
    CHECK(t, number_read_integer("", 0, 100, &v) == NUMBER_SYNTAX);
    CHECK(t, number_read_integer("-", 0, 100, &v) == NUMBER_SYNTAX);
    CHECK(t, number_read_integer(".5", 0, 100, &v) == NUMBER_TRAILING);
    CHECK(t, v == 3);
}

static void test_utf8_checks(TestContext *t)
{
    static const char *const good[] = {"", "abc", "caf\xC3\xA9", "\xE6\x97\xA5", "\xF0\x9F\x98\x80",
                                       "\xF4\x8F\xBF\xBF", "\xEF\xBB\xBF", "\xED\x9F\xBF"};
    static const char *const bad[] = {"caf\xE9", "\xC0\xAF", "\xC1\xBF", "\xE0\x80\xAF", "\xED\xA0\x80",
                                      "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "\x80", "\xE6\x97",
                                      "\xF0\x9F\x98"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK(t, utf8_valid(good[i], strlen(good[i]), NULL));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t at = 99;
        CHECK(t, !utf8_valid(bad[i], strlen(bad[i]), &at) && at < strlen(bad[i]));
    }
    size_t at = 0;
    CHECK(t, !utf8_valid("ab\xFF", 3, &at) && at == 2);
    CHECK(t, strcmp(utf8_skip_bom("\xEF\xBB\xBFgame"), "game") == 0);
    CHECK(t, strcmp(utf8_skip_bom("game\xEF\xBB\xBF"), "game\xEF\xBB\xBF") == 0);
    CHECK(t, strcmp(utf8_skip_bom("\xEF\xBB"), "\xEF\xBB") == 0);
}

/* What the writers make of text, as a string. */
static void written(void (*put)(FILE *, const char *), const char *text, char *out, size_t len)
{
    FILE *f = fmemopen(out, len, "w");
    put(f, text);
    fclose(f);
}

static void test_utf8_writers(TestContext *t)
{
    char out[200];
    written(utf8_put_xml, "a<b>&\"c'\x01", out, sizeof out);
    CHECK(t, strcmp(out, "a&lt;b&gt;&amp;&quot;c&apos;?") == 0);
    written(utf8_put_xml, "caf\xC3\xA9 caf\xE9 \xE6\x97", out, sizeof out);
    CHECK(t, strcmp(out, "caf\xC3\xA9 caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD") == 0);
    written(utf8_put_json, "say \"hi\\\n\x1f caf\xE9 \xE6\x97\xA5", out, sizeof out);
    CHECK(t, strcmp(out, "\"say \\\"hi\\\\\\n\\u001f caf\\ufffd \xE6\x97\xA5\"") == 0);
}

const TestCase text_tests[] = {
    {"utf8_checks", test_utf8_checks},
    {"utf8_writers", test_utf8_writers},
    {"decimals_accepted", test_decimals_accepted},
    {"decimals_refused", test_decimals_refused},
    {"integers", test_integers},
    {NULL, NULL},
};
