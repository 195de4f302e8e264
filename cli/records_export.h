/*
 * records_export.h - the .npz side of `leuctra records export` (cli/records_export_npz.c);
 * cmd_records_export.c reads the options and writes CSV itself.
 */
#ifndef LEUCTRA_RECORDS_EXPORT_H
#define LEUCTRA_RECORDS_EXPORT_H

#include "records_cli.h"

typedef struct {
    const char *out_path;
    bool augment;               /* every symmetry the rules allow, as extra rows */
    bool dense;                 /* dense policy and mask */
    bool packed;                /* planes as bits */
    long shard_positions;       /* 0: one file */
    int level;                  /* zlib level */
    int threads;                /* deflating threads (0: every core) */
    bool quiet;
} NpzExport;

/* Writes the positions of every game of paths[0..n) to x->out_path, or as a set of shards beside
 * it (data/tensor_shards.h); exits with one line on failure (2 for bad input, 1 for damage and
 * write errors), leaving what was there before. */
void export_npz(const NpzExport *x, char **paths, int n);

#endif
