/*
 * record_replay.c - replaying stored games through the rules engine (record_replay.h).
 */
#include "record_replay.h"
#include "records_cli.h"

Game *replay_start(const char *command, const RecordsHeader *h, const GameRecord *r, Position *pos)
{
    Error err;
    Game *g = records_header_game(h, &err);
    if (!g)
        fail_exit(command, EXIT_FAILURE_RUN, "%s", err.msg);
    if (r->start[0] == '\0') {
        game_start(g, pos);
    } else if (!game_parse_position(g, r->start, pos, &err)) {
        game_free(g);
        fail_exit(command, EXIT_FAILURE_RUN, "game %llu: start position: %s", (unsigned long long)r->index, err.msg);
    }
    return g;
}

void replay_ply(const char *command, const Game *g, Position *pos, const GameRecord *r, int ply, char *move)
{
    record_move_format(r->ply[ply].move, move, RECORD_MOVE_TEXT);
    Move m;
    Error err;
    if (!game_parse_move(g, pos, move, &m, &err))
        fail_exit(command, EXIT_FAILURE_RUN, "game %llu ply %d: %s", (unsigned long long)r->index, ply + 1, err.msg);
    Undo undo;
    game_make(g, pos, m, &undo);
}

bool replay_find_game(const char *command, RecordsReader *rd, uint64_t index, GameRecord *out)
{
    Error err = {0};
    int rc;
    while ((rc = records_next(rd, out, &err)) == 1)
        if (out->index == index)
            return true;
    if (rc < 0)
        fail_with(command, &err);
    return false;
}
