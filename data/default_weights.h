/*
 * default_weights.h - the shipped weights files, compiled in.  The Makefile runs
 * scripts/embed-weights.sh over data/weights/<game>.txt to write $(BUILD)/gen/default_weights.c,
 * which defines the table; weights.c parses the text with the same parser as any file, so the
 * text files are the one source of truth.  Only data/weights*.c include this.
 */
#ifndef LEUCTRA_DEFAULT_WEIGHTS_H
#define LEUCTRA_DEFAULT_WEIGHTS_H

typedef struct {
    const char *game;   /* the file name without .txt: the variant name */
    const char *text;   /* the file's text, byte for byte */
} EmbeddedWeights;

extern const EmbeddedWeights embedded_weights[];
extern const int embedded_weights_count;

#endif
