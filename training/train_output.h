/*
 * train_output.h - the files the training room writes whole (data/output_file.h), with the
 * statuses the command line gives them: a path that cannot take the file is the input's fault
 * (error_set), a write that failed is a failure (error_failed).
 */
#ifndef LEUCTRA_TRAIN_OUTPUT_H
#define LEUCTRA_TRAIN_OUTPUT_H

#include "data/output_file.h"

#include <stdbool.h>
#include <stdio.h>

/* Opens path; the stream to write, or NULL with *err (nothing to discard then). */
FILE *training_output_open(OutputFile *o, const char *path, Error *err);
/* Puts the file in place; false with *err (a failure) when a write failed, the file removed. */
bool training_output_commit(OutputFile *o, Error *err);
/* The whole of text into path. */
bool training_output_text(const char *path, const char *text, Error *err);

#endif
