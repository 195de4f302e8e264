/*
 * record_replay.h - a game record replayed through the rules engine, for the commands that
 * draw games (render, view): the game a records file holds, a record's start position, and
 * each stored move played with game_parse_move/game_make - the path `leuctra apply` takes, so a
 * drawing shows exactly the positions apply gives.
 */
#ifndef LEUCTRA_RECORD_REPLAY_H
#define LEUCTRA_RECORD_REPLAY_H

#include "cli.h"
#include "data/records.h"

/* The game of the file's header and the record's start position; fails with one line. */
Game *replay_start(const char *command, const RecordsHeader *h, const GameRecord *r, Position *pos);

/* Plays ply `ply` of the record on *pos and writes its notation to move (RECORD_MOVE_TEXT
 * bytes); fails with one line when the rules reject the stored move. */
void replay_ply(const char *command, const Game *g, Position *pos, const GameRecord *r, int ply, char *move);

/* Reads games from the file until the one with `index`; false when the file has none.  A
 * damaged file fails with one line. */
bool replay_find_game(const char *command, RecordsReader *rd, uint64_t index, GameRecord *out);

#endif
