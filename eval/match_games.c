/*
 * match_games.c - the table of a match's games (eval/match.h): which player is White in game k
 * and how it ended from the first player's side.  Every step reads it (the game loop, the
 * pair-order SPRT, the files, the report); its own file because the game loop feeds the SPRT,
 * which scored the pairs through the game loop's file, a loop.
 */
#include "eval/match.h"

bool match_first_is_white(const MatchRun *run, int k)
{
    return k % run->options->games % 2 == 0;
}

int match_first_score(const MatchRun *run, int k)
{
    const MatchGame *m = &run->games[k];
    if (m->result == STATUS_DRAW)
        return 0;
    bool white_won = m->result == STATUS_WHITE_WINS;
    return white_won == match_first_is_white(run, k) ? 1 : -1;
}
