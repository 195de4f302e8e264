/*
 * npz.h - writing numpy's .npz files without numpy: a zip archive of .npy arrays, each entry
 * deflated with zlib, ZIP64 where sizes or offsets pass 4 GiB (docs/TENSORS.md).  numpy's
 * np.load, Python's zipfile and unzip read the result.
 *
 * Arrays grow along their first axis while the file is written: rows are appended in any
 * number of calls, each array's rows deflated on the fly into a spool file of its own (a
 * temporary file, unlinked at once), so memory stays bounded however many rows there are; the
 * archive itself is assembled at npz_finish, when every array's length is known, and goes
 * through data/output_file.h (whole or absent).
 *
 * A writer belongs to one thread at a time; it deflates its arrays on several (NpzOptions).
 */
#ifndef LEUCTRA_NPZ_H
#define LEUCTRA_NPZ_H

#include "core/game.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { NPZ_UINT8, NPZ_INT8, NPZ_INT16, NPZ_INT32, NPZ_INT64, NPZ_FLOAT32 } NpzType;

enum { NPZ_MAX_ARRAYS = 32, NPZ_MAX_DIMS = 4, NPZ_NAME_MAX = 48 };

typedef struct {
    int level;              /* zlib level 0-9 (default 6) */
    bool zip64;             /* ZIP64 fields on every entry, needed or not (to test readers) */
    int threads;            /* threads that deflate the arrays side by side (0: one per core) */
} NpzOptions;

typedef struct NpzWriter NpzWriter;

/* Opens the output (output_file_open's rules: "-", devices, links).  Spool files go beside
 * the file written, or into $TMPDIR (else /tmp) for stdout and devices.  NULL plus *err. */
NpzWriter *npz_create(const char *path, const NpzOptions *opt, Error *err);

/* Declares an array NAME.npy of `type` whose rows have shape dims[0..ndim) (ndim 0: scalars);
 * returns its id, or -1 with *err (too many arrays, a bad name, out of memory). */
int npz_add_array(NpzWriter *w, const char *name, NpzType type, int ndim, const int64_t *dims, Error *err);

/* Array `id` (before any row) is deflated for runs of equal bytes only (zlib's Z_RLE): for
 * arrays of 0/1 planes, about as small as level 6 at the speed of level 1. */
void npz_prefer_runs(NpzWriter *w, int id);

/* Appends `rows` rows (rows x the row's elements, in C order) to array `id`; false with *err
 * when the spool cannot be written or memory runs out. */
bool npz_append(NpzWriter *w, int id, const void *data, size_t rows, Error *err);

/* A 0-d array of bytes (numpy dtype S<n>): file metadata such as JSON text. */
bool npz_add_bytes(NpzWriter *w, const char *name, const char *bytes, size_t len, Error *err);

/* The rows array `id` holds so far. */
uint64_t npz_rows(const NpzWriter *w, int id);

/* The bytes written to the spools so far (the compressed size of the archive to be). */
uint64_t npz_spooled_bytes(const NpzWriter *w);

/* Writes the archive, puts it in place and frees the writer; false with *err (nothing left
 * behind).  *bytes (may be NULL) receives the archive's size. */
bool npz_finish(NpzWriter *w, uint64_t *bytes, Error *err);

/* Frees the writer and writes nothing.  NULL is allowed. */
void npz_discard(NpzWriter *w);

#endif
