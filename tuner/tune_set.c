/*
 * tune_set.c - a set of positions (TuneSet, tune.h): its rows allocated and freed.  Its own file
 * because both tune_extract.c (which fills sets) and tune_mpi.c (which moves rows between the
 * processes) allocate them, and tune_extract.c calls tune_mpi.c.
 */
#include "tune.h"

#include <stdlib.h>
#include <string.h>

bool tune_set_alloc(TuneSet *set, int num_features, int num_entries, size_t count)
{
    size_t rows = count ? count : 1;
    memset(set, 0, sizeof *set);
    set->num_features = num_features;
    set->num_entries = num_entries;
    set->count = count;
    set->total = count;
    set->features = malloc(rows * (size_t)num_features * sizeof *set->features);
    set->target = malloc(rows * sizeof *set->target);
    set->result = malloc(rows * sizeof *set->result);
    set->entries = num_entries ? malloc(rows * (size_t)num_entries * sizeof *set->entries) : NULL;
    if (set->features && set->target && set->result && (!num_entries || set->entries))
        return true;
    tune_set_free(set);
    return false;
}

void tune_set_free(TuneSet *set)
{
    free(set->features);
    free(set->target);
    free(set->result);
    free(set->entries);
    free(set->offset);
    memset(set, 0, sizeof *set);
}
