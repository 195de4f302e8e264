/*
 * json_read.h - reading one number out of a JSON text that leuctra itself wrote (tune --json,
 * match --json): enough for `leuctra chart training` to read each generation's tune.json
 * without a JSON library.  It checks the syntax of everything it passes on the way to the
 * value, so a truncated or foreign file is refused rather than half read.
 */
#ifndef LEUCTRA_JSON_READ_H
#define LEUCTRA_JSON_READ_H

#include <stdbool.h>

/* The number at a path of object keys, e.g. {"log_loss", "train", "before"}; null reads as
 * NAN.  False when the text is not JSON up to there, or the path leads to nothing or to a
 * value that is neither a number nor null. */
bool json_number_at(const char *text, const char *const *keys, int depth, double *out);

#endif
