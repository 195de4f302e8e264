/*
 * openings.h - opening suites for matches: a text file of start positions, one a line, that a
 * match plays in pairs with colours swapped (docs/MATCHES.md gives the format):
 *
 *   # comment (a '#' anywhere starts one)
 *   game crossings                        optional; must name the match's variant
 *   start b1-b3 b7-b6                     the start position, then moves in RULES.md notation
 *   BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w      or a position string
 *
 * Positions are parsed against one Game (its rules and board), so a suite for another board is
 * rejected with the line that does not fit.  A suite is plain data once read: any number of
 * threads may read it.
 */
#ifndef LEUCTRA_OPENINGS_H
#define LEUCTRA_OPENINGS_H

#include "core/game.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    int count;
    int capacity;
    Position *opening;      /* count positions, in file order */
} OpeningSuite;

void openings_init(OpeningSuite *s);
void openings_free(OpeningSuite *s);

/* Adds one line of the format to the suite.  `start` is what the word `start` means (the
 * match's start position).  On bad text sets err to what is wrong and returns false. */
bool openings_parse_line(OpeningSuite *s, const Game *g, const Position *start, const char *line, Error *err);

/* Reads every line of a stream; on the first bad line sets err to "SOURCE:LINE: what" and
 * returns false.  A stream with no opening at all is an error too. */
bool openings_read(OpeningSuite *s, const Game *g, const Position *start, FILE *in, const char *source,
                   Error *err);
/* openings_read on a file by name. */
bool openings_load(OpeningSuite *s, const Game *g, const Position *start, const char *path, Error *err);

#endif
