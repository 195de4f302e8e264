/*
 * tensor_shards.h - a dataset cut into .npz shards (docs/TENSORS.md, "Shards"), replaced as a
 * whole: for an output OUT.npz (its links followed) the shards OUT-00000.npz, OUT-00001.npz ...
 * and the manifest OUT-shards.json that names them.
 *
 * A set is written into a temporary folder beside OUT (OUT.npz.tmp.XXXXXX, locked while its
 * writer lives: data/output_file.h), where the old set cannot see it, and put in place at the
 * end (tensor_shards_commit): the old manifest goes, each new shard is renamed over its name,
 * the old set's shards beyond the new count go, and the new manifest comes last.  So the old set
 * stays whole (manifest included) until the new one is complete, and in the few renames between
 * there is no manifest, while each shard's own description names its set, its index and whether
 * it is the last: a mix of two sets never looks whole.  A writer killed before the end leaves
 * the old set and the temporary folder, which the next export removes.
 *
 * A set's identity (tensor_shards_set_id) is a hash of what the export read and how: the
 * inputs' headers and chunk lists (each chunk's CRC-32) and the options, so that the same
 * export gives the same bytes again and another gives another id.
 */
#ifndef LEUCTRA_TENSOR_SHARDS_H
#define LEUCTRA_TENSOR_SHARDS_H

#include "core/game.h"

#include <stdbool.h>
#include <stddef.h>

#include "output_file.h"

/* The manifest's format version; the most shards a set has; the length of a set id's text, and
 * of any path these functions write. */
enum { TENSOR_SHARDS_VERSION = 1, TENSOR_SHARDS_MAX = 100000, TENSOR_SHARDS_ID = 17,
       TENSOR_SHARDS_PATH = 2 * OUTPUT_PATH_MAX + 64 };

typedef struct TensorShards TensorShards;

/* The 16 hex digits of a set that exports inputs[0..n) with the options spelled in `options`
 * (everything that shapes the bytes but the thread count).  False with *err when an input's
 * header or a chunk header cannot be read. */
bool tensor_shards_set_id(char *const *inputs, int n, const char *options, char id[TENSOR_SHARDS_ID], Error *err);

/* The files that the set of output `out` has now, a manifest and shards of any index: malloc'd
 * paths in *names (free each, then the array), *count of them.  False with *err when one is
 * neither a file nor a link (a folder is no file to replace) or the folder cannot be read, and
 * then nothing to free. */
bool tensor_shards_existing(const char *out, char ***names, int *count, Error *err);

/* Starts a new set for `out` (its temporary folder); NULL with *err. */
TensorShards *tensor_shards_begin(const char *out, Error *err);

/* The path to write shard k at (in the temporary folder). */
void tensor_shards_path(const TensorShards *s, int k, char *buf, size_t len);

/* Puts the `count` shards written (0 .. count-1) in place of the old set, as above, with the
 * manifest {"format": "leuctra-tensor-shards", "version", "set": id, "shards": count, "files":
 * [...], and `members` (JSON members without braces, or NULL)}; frees s.  False with *err when a
 * rename or write fails (the set then has no manifest: not whole). */
bool tensor_shards_commit(TensorShards *s, int count, const char *id, const char *members, Error *err);

/* Removes the temporary folder and what was written in it; the old set stays.  Frees s (NULL
 * is allowed). */
void tensor_shards_discard(TensorShards *s);

#endif
