/*
 * tune_notation.c - the text of a stored move, written without printf.  The replay turns every
 * recorded move into a core Move through the notation (the one form every game module parses
 * and checks); record_move_format prints it with snprintf, which was a tenth of the replay's
 * cost.  The text is the same as record_move_format's for every code (the tests compare all
 * 65536), following the layout docs/FORMAT.md gives.
 */
#include "tune.h"

#include <string.h>

/* "e2", "p16": files a-p, numbers 1-16. */
static char *put_square(char *p, int file, int number)
{
    *p++ = (char)('a' + file);
    if (number >= 10) {
        *p++ = '1';
        number -= 10;
    }
    *p++ = (char)('0' + number);
    return p;
}

bool tune_move_notation(RecordMove m, char out[RECORD_MOVE_TEXT])
{
    /* Steps of (file, number) for the eight directions of a shape: N, NE, E, SE, S, SW, W, NW. */
    static const int step_file[8] = {0, 1, 1, 1, 0, -1, -1, -1}, step_number[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    if (!record_move_valid(m))
        return false;
    unsigned square = m.code >> 8, shape = m.code & 0xFF;
    if (shape == 1) {
        memcpy(out, "pass", 5);
        return true;
    }
    int file = (int)(square >> 4), number = (int)(square & 15) + 1;
    char *p = put_square(out, file, number);
    if (shape != 0) {
        int dir = (int)(shape >> 5), distance = (int)(shape >> 1 & 15);
        *p++ = (shape & 1) ? 'x' : '-';
        p = put_square(p, file + step_file[dir] * distance, number + step_number[dir] * distance);
    }
    *p = '\0';
    return true;
}
