/*
 * tensor_file.h - a training dataset as one .npz file (docs/TENSORS.md): the arrays of the
 * rows record_tensors.h makes, streamed through data/npz.h in bounded memory, with a JSON
 * description of the game, board, layout versions and sources.
 *
 * Sparse layout (the default): per position `legal_count` legal actions, listed ascending in
 * `legal`, with `visits` (the search's visits of each: int16, or int32 where a count needs it)
 * beside them: the positions' lists one after the other.  Dense layout: `policy` (the visit
 * shares, float32) and `legal_mask` of shape [N, num_actions].
 */
#ifndef LEUCTRA_TENSOR_FILE_H
#define LEUCTRA_TENSOR_FILE_H

#include "npz.h"
#include "record_tensors.h"

enum { TENSOR_FILE_VERSION = 1 };

typedef struct {
    bool dense;             /* dense policy and mask instead of the legal lists */
    bool packed;            /* planes as bits (planes_packed: 8 to a byte, numpy's packbits
                               order "little" over each position's flattened planes) */
    bool wide_visits;       /* visits as int32; else int16, and a larger count fails the row
                               (tensor_file_overflowed) so that the caller starts again wide */
    NpzOptions npz;
} TensorFileOptions;

typedef struct TensorFile TensorFile;

/* Opens path (data/output_file.h rules) for rows of game g.  `sources` is text for the
 * description (the records files read; may be NULL).  NULL plus *err. */
TensorFile *tensor_file_create(const char *path, const Game *g, const TensorFileOptions *opt, Error *err);

/* Appends one row; false with *err when the file cannot be written. */
bool tensor_file_add(TensorFile *tf, const TensorRow *row, Error *err);

/* A TensorRowFn for record_tensors_game whose ctx is a TensorFile. */
bool tensor_file_add_row(const TensorRow *row, void *ctx, Error *err);

/* Whether a row failed because a visit count did not fit int16. */
bool tensor_file_overflowed(const TensorFile *tf);

uint64_t tensor_file_rows(const TensorFile *tf);
/* The compressed bytes written so far (the file's size to be, near enough, for progress). */
uint64_t tensor_file_bytes(const TensorFile *tf);

/* Writes the description (`description`: a JSON object's members to add, without braces, or
 * NULL) and the archive; false with *err, leaving nothing.  Frees tf. */
bool tensor_file_finish(TensorFile *tf, const char *description, uint64_t *bytes, Error *err);
void tensor_file_discard(TensorFile *tf);

#endif
