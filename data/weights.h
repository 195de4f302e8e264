/*
 * weights.h - evaluation weights as text files (format: docs/WEIGHTS.md): reading and checking
 * them against a game's feature names, writing them atomically, the shipped defaults (compiled
 * into the library from data/weights/<game>.txt) and a short identity for records.
 *
 * Every function here is thread-safe: no global state, results only through the arguments.
 */
#ifndef LEUCTRA_WEIGHTS_H
#define LEUCTRA_WEIGHTS_H

#include "core/value.h"

/* The longest line a weights file may have, newline excluded. */
enum { WEIGHTS_MAX_LINE = 1024 };

/* The largest weights file read (a real one is under 2 KiB). */
enum { WEIGHTS_MAX_FILE = 1 << 20 };

/* Parses weights text for game g.  source_name names the text in error messages (a path, or
 * "built-in reversi weights").  On error *out is unspecified and err says what and where
 * ("source:line: ..."). */
bool weights_parse(const Game *g, const char *text, const char *source_name, Weights *out, Error *err);

/* Reads and parses the file at path. */
bool weights_load(const Game *g, const char *path, Weights *out, Error *err);

/* Writes w to path atomically: a temporary file in the same directory, flushed to disk, then
 * renamed over path, so a crash leaves either the old file or the new one, never half of one.
 * `comments` (may be NULL) is free text written as '#' lines above the weights: provenance. */
bool weights_save(const Game *g, const Weights *w, const char *comments, const char *path, Error *err);

/* The shipped default weights of g's variant (data/weights/<name>.txt, compiled in).  False only
 * if the library was built without them. */
bool weights_default(const Game *g, Weights *out);

/* A short stable identity of a weights set (a hash of the variant and the exact values), for
 * game records and logs; weights_id_text writes it as 16 lower-case hex digits. */
uint64_t weights_id(const Weights *w);
void weights_id_text(const Weights *w, char out[17]);

#endif
