/*
 * player_spec.c - reading the numbers of a player spec ("visits=800", "time=0.5"), for the
 * in-process players (player.c) and the external engines (player_external.c) alike.  Its own
 * file, below both: player.c makes external players through player_external.c, which read its
 * numbers through player.c, a loop.
 */
#include "player.h"
#include "core/number.h"

#include <stdio.h>
#include <string.h>

bool player_spec_number(const char *text, double min, double max, double *out)
{
    double v;
    if (number_read_decimal(text, &v) != NUMBER_OK || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool player_spec_name(const char *spec, char *buf, size_t len)
{
    const char *at = strchr(spec, ':');
    while (at) {
        at++;
        size_t n = strcspn(at, ",");
        if (strncmp(at, "name=", 5) == 0 && n > 5) {
            snprintf(buf, len, "%.*s", (int)(n - 5), at + 5);
            return true;
        }
        at = at[n] ? at + n : NULL;
    }
    return false;
}

bool player_spec_time_control(const char *spec, const char *value, TimeControl *tc, Error *err)
{
    Error why;
    if (time_control_parse(value, tc, &why))
        return true;
    error_set(err, "player '%.60s': %s", spec, why.msg);
    return false;
}
