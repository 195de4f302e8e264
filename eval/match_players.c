/*
 * match_players.c - the players of a match (eval/match.h), each made from its spec string or,
 * where the program gave one, from its search set-up; and the spec text the records keep of
 * each, which for a set-up is the spec that would make the same player.
 */
#include "eval/match.h"

#include <stdio.h>

Player *match_player_create(const Game *g, const MatchOptions *o, int i, const PlayerOutput *out, Error *err)
{
    if (o->setup[i])
        return player_create_search(g, o->setup[i], err);
    return player_create_with_output(g, o->spec[i], out, err);
}

void match_player_spec(const MatchOptions *o, int i, char *buf, size_t len)
{
    if (o->setup[i])
        player_search_spec(o->setup[i], buf, len);
    else
        snprintf(buf, len, "%s", o->spec[i]);
}
