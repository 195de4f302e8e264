/*
 * results.h - game results between named players, kept as totals per pair of players: the
 * input of the ratings fit (ratings.h).  Reads the plain results format of docs/RATINGS.md,
 * one game a line: WHITE BLACK RESULT with RESULT 1-0, 0-1 or 1/2-1/2.
 *
 * A ResultTable belongs to one thread while it is being filled; once filled, any number of
 * threads may read it.
 */
#ifndef LEUCTRA_RESULTS_H
#define LEUCTRA_RESULTS_H

#include "core/game.h"
#include "eval/elo.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The longest player name accepted, in bytes. */
enum { RESULTS_NAME_MAX = 255 };
/* The longest line read: two names, a result and a long comment fit many times over. */
enum { RESULTS_LINE_MAX = 1 << 16 };

/* Everything played between players a < b, from a's side. */
typedef struct {
    int a, b;
    int64_t wins_a, draws, wins_b;
} PairTotals;

/* A game's result from White's side. */
typedef enum { OUTCOME_WHITE_LOSES, OUTCOME_DRAW, OUTCOME_WHITE_WINS } GameOutcome;

typedef struct ResultTable ResultTable;

/* NULL when out of memory. */
ResultTable *results_new(void);
void results_free(ResultTable *t);

/* The player's index (0, 1, ... in order of first appearance), adding the name if new; -1 when
 * out of memory or the name is empty or longer than RESULTS_NAME_MAX. */
int results_player(ResultTable *t, const char *name);
/* The player's index, or -1 if the name has not appeared. */
int results_find(const ResultTable *t, const char *name);

/* One game, or a batch of games of a against b counted from a's side.  False (nothing added)
 * when out of memory, a == b, or an index or count is out of range. */
bool results_add_game(ResultTable *t, int white, int black, GameOutcome outcome);
bool results_add_games(ResultTable *t, int a, int b, const Trinomial *from_a);

int results_num_players(const ResultTable *t);
const char *results_name(const ResultTable *t, int player);
int64_t results_num_games(const ResultTable *t);
/* Every game the player played, from its side. */
Trinomial results_player_totals(const ResultTable *t, int player);
int results_num_pairs(const ResultTable *t);
const PairTotals *results_pair(const ResultTable *t, int index);

/* Adds one line of the results format (without or with its newline).  A '#' anywhere starts a
 * comment running to the end of the line; blank lines add nothing.  On malformed text sets err
 * to what is wrong and returns false. */
bool results_parse_line(ResultTable *t, const char *line, Error *err);
/* Adds every line of a stream; on the first bad line sets err to "SOURCE:LINE: what" and
 * returns false.  source names the stream in messages. */
bool results_read(ResultTable *t, FILE *in, const char *source, Error *err);
/* Every game of the files ("-": standard input) in one new table; NULL with *err (input) for a
 * file that cannot be opened or has a bad line, or no games in them all (a failure when memory
 * runs out). */
ResultTable *results_read_files(const char *const *files, int n, Error *err);

#endif
