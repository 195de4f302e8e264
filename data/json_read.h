/*
 * json_read.h - reading one number out of a JSON text that leuctra itself wrote (tune --json,
 * match --json): enough for `leuctra chart training` to read each generation's tune.json
 * without a JSON library.  It checks the syntax of everything it passes on the way to the
 * value, so a truncated or foreign file is refused rather than half read, and it reads every
 * number as core/number.h reads all input: a strict decimal, finite (no -inf, nan, hex or lone
 * sign, which strtod would have taken).
 */
#ifndef LEUCTRA_JSON_READ_H
#define LEUCTRA_JSON_READ_H

#include "core/game.h"

#include <stdbool.h>

/* The number at a path of object keys, e.g. {"log_loss", "train", "before"}; null reads as
 * NAN; *line (may be NULL) is the value's line, for the caller's own checks of it.  False with
 * err when the text is not JSON up to there, or the value there is neither a number nor null
 * ("SOURCE:LINE: what"), or the path leads to nothing ("SOURCE: no a.b.c"). */
bool json_number_at(const char *text, const char *source, const char *const *keys, int depth, double *out,
                    int *line, Error *err);

#endif
