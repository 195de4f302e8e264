/*
 * default_weights.h - the shipped weights files, compiled in.  The Makefile runs
 * scripts/embed-weights.sh over data/weights/<game>.txt and <game>.lwt (table files) to write
 * $(BUILD)/gen/default_weights.c, which defines the table; weights.c parses them with the same
 * parsers as any file, so the files are the one source of truth.  Only data/weights*.c include this.
 */
#ifndef LEUCTRA_DEFAULT_WEIGHTS_H
#define LEUCTRA_DEFAULT_WEIGHTS_H

#include <stddef.h>

typedef struct {
    const char *game;   /* the file name without .txt or .lwt: the variant name (one of each at most) */
    const char *text;   /* a text file's text, byte for byte; NULL for a table file */
    const unsigned char *bytes;     /* a table file's bytes; NULL for a text file */
    const unsigned char *end;       /* just past them */
} EmbeddedWeights;

extern const EmbeddedWeights weights_embedded[];
extern const int weights_embedded_count;

#endif
