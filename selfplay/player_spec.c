/*
 * player_spec.c - reading the numbers of a player spec ("visits=800", "time=0.5"), for the
 * in-process players (player.c) and the external engines (player_external.c) alike.  Its own
 * file, below both: player.c makes external players through player_external.c, which read its
 * numbers through player.c, a loop.
 */
#include "player.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool player_spec_number(const char *text, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || v < min || v > max)
        return false;
    *out = v;
    return true;
}
