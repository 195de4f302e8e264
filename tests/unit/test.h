/*
 * test.h - the unit-test harness: a suite is an array of named test functions; CHECK records a
 * failure with file and line and lets the test go on, so one run shows every broken expectation.
 */
#ifndef LEUCTRA_TEST_H
#define LEUCTRA_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "core/rng.h"

typedef struct {
    int failures;       /* failed checks in the running test */
} TestContext;

typedef struct {
    const char *name;
    void (*run)(TestContext *t);
} TestCase;

typedef struct {
    const char *name;
    const TestCase *cases;
} TestSuite;

#define CHECK(t, cond)                                                                 \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            (t)->failures++;                                                           \
        }                                                                              \
    } while (0)

#define CHECK_EQ_U64(t, got, want)                                                          \
    do {                                                                                    \
        uint64_t got_ = (got), want_ = (want);                                              \
        if (got_ != want_) {                                                                \
            fprintf(stderr, "  %s:%d: %s = %" PRIu64 ", want %" PRIu64 "\n", __FILE__, __LINE__, \
                    #got, got_, want_);                                                     \
            (t)->failures++;                                                                \
        }                                                                                   \
    } while (0)

#define CHECK_STR(t, got, want)                                                                  \
    do {                                                                                         \
        const char *got_ = (got), *want_ = (want);                                               \
        if (strcmp(got_, want_) != 0) {                                                          \
            fprintf(stderr, "  %s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got, got_, \
                    want_);                                                                      \
            (t)->failures++;                                                                     \
        }                                                                                        \
    } while (0)

/* The game of a position string, or NULL with a failure recorded (tests/unit/unit_main.c). */
Game *test_open_position(TestContext *t, const char *variant, const char *text, Position *pos);

/* The start after `plies` uniformly random moves drawn from rng (fewer if the game ends). */
void test_random_position(const Game *g, Rng *rng, int plies, Position *p);

/* Each test_*.c file defines one suite; tests/unit/unit_main.c lists them. */
#define TEST_END {NULL, NULL}

#endif
