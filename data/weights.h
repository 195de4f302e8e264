/*
 * weights.h - evaluation weights files (format: docs/WEIGHTS.md): text files of linear weights,
 * and table files that add pattern tables and move priors to them (weights_tables.c); reading
 * and checking them against a game, writing them atomically, the shipped defaults (compiled
 * into the library from data/weights/<game>.txt or .lwt) and a short identity for records.
 *
 * Every function here is thread-safe: no global state, results only through the arguments.
 */
#ifndef LEUCTRA_WEIGHTS_H
#define LEUCTRA_WEIGHTS_H

#include "core/value.h"

/* The longest line a weights file may have, newline excluded. */
enum { WEIGHTS_MAX_LINE = 1024 };

/* The largest magnitude of any weight, table entry or prior a file may hold.  They are log-odds:
 * a million is no evaluation any more (e^-1e6 underflows every probability) and a thousand times
 * beyond what a fit makes (the shipped ones stay under 10), yet summed over every feature and
 * pattern instance it stays far from what overflows to infinity (a float table entry of 3e38
 * made `eval` print logit inf). */
#define WEIGHTS_MAX_VALUE 1e6

/* The largest text weights file read (a real one is under 2 KiB), and the largest table file. */
enum { WEIGHTS_MAX_FILE = 1 << 20, WEIGHTS_MAX_TABLE_FILE = 1 << 30 };

/* Parses weights text for game g.  source_name names the text in error messages (a path, or
 * "built-in reversi weights").  On error *out is unspecified and err says what and where
 * ("source:line: ..."). */
bool weights_parse(const Game *g, const char *text, const char *source_name, Weights *out, Error *err);

/* Reads and parses the file at path, a text file or a table file (told apart by the latter's
 * magic bytes).  Tables and priors are allocated: release them with weights_dispose. */
bool weights_load(const Game *g, const char *path, Weights *out, Error *err);

/* Table files: whether bytes start like one; parsing one (errors name `source`: truncation,
 * checksums, a version or pattern set this build does not have, bad text); and the bytes of
 * one for w with `text` as its linear part (NULL when memory runs out). */
bool weights_is_table_file(const unsigned char *bytes, size_t size);
/* The size a table file's fixed header (its first 68 bytes, of `size` read) declares, once the
 * header is checked (checksum, version, reserved bytes): what a reader needs before it reads
 * the rest.  False with err as weights_parse_tables says it. */
bool weights_table_file_size(const unsigned char *bytes, size_t size, const char *source, uint64_t *declared,
                             Error *err);
bool weights_parse_tables(const Game *g, const unsigned char *bytes, size_t size, const char *source, Weights *out,
                          Error *err);
unsigned char *weights_tables_encode(const Game *g, const Weights *w, const char *text, size_t *size);
/* The linear weights' text inside a table file (not NUL-terminated; *len bytes), or NULL. */
const char *weights_table_file_text(const unsigned char *bytes, size_t size, size_t *len);

/* Writes w to path atomically: a temporary file in the same directory, flushed to disk, then
 * renamed over path, so a crash leaves either the old file or the new one, never half of one.
 * `comments` (may be NULL) is free text written as '#' lines above the weights: provenance.
 * Weights with tables or priors are written as a table file, others as text. */
bool weights_save(const Game *g, const Weights *w, const char *comments, const char *path, Error *err);

/* The shipped default weights of g's variant, compiled in: data/weights/<name>.lwt where its
 * tables are for g's board, else data/weights/<name>.txt (linear weights fitted without tables,
 * for any board).  False only if the library was built without them. */
bool weights_default(const Game *g, Weights *out);

/* A short stable identity of a weights set (a hash of the variant and the exact values, tables
 * and priors included), for game records and logs; weights_id_text writes it as 16 lower-case
 * hex digits. */
uint64_t weights_id(const Weights *w);
void weights_id_text(const Weights *w, char out[17]);

#endif
