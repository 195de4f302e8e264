/*
 * tune_dedup.c - marking repeated positions: keep[i] is 1 exactly for the first occurrence of
 * each hash, in array order.  Parallel yet deterministic: the hash space is cut into as many
 * parts as there are threads, and each thread scans the whole array in order but remembers only
 * the hashes of its own part, so "first" means first in the array however many parts there are.
 */
#include "tune.h"
#include "core/threads.h"

#include <omp.h>
#include <stdlib.h>

/* The part of the hash space a hash falls in: its top 32 bits scaled to [0, parts). */
static inline unsigned part_of(uint64_t hash, unsigned parts)
{
    return (unsigned)(((hash >> 32) * parts) >> 32);
}

/* An open-addressing set of 64-bit hashes; slot value 0 means empty, so the hash 0 itself is
 * tracked by a flag. */
typedef struct {
    uint64_t *slot;
    size_t mask;
    bool has_zero;
} HashSet;

static bool set_init(HashSet *s, size_t expected)
{
    size_t size = 16;
    while (size < 2 * expected)
        size *= 2;
    s->slot = calloc(size, sizeof *s->slot);
    s->mask = size - 1;
    s->has_zero = false;
    return s->slot != NULL;
}

/* Adds h; true when it was not there before. */
static bool set_insert(HashSet *s, uint64_t h)
{
    if (h == 0) {
        bool fresh = !s->has_zero;
        s->has_zero = true;
        return fresh;
    }
    for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
        if (s->slot[i] == h)
            return false;
        if (s->slot[i] == 0) {
            s->slot[i] = h;
            return true;
        }
    }
}

/* The first-occurrence flags of the hashes in one part; false when memory runs out. */
static bool dedup_part(const uint64_t *hash, size_t n, uint8_t *keep, unsigned part, unsigned parts)
{
    size_t members = 0;
    for (size_t i = 0; i < n; i++)
        members += part_of(hash[i], parts) == part;
    HashSet set;
    if (!set_init(&set, members))
        return false;
    for (size_t i = 0; i < n; i++)
        if (part_of(hash[i], parts) == part)
            keep[i] = set_insert(&set, hash[i]);
    free(set.slot);
    return true;
}

bool tune_dedup(const uint64_t *hash, size_t n, uint8_t *keep, int threads)
{
    int team = threads_or_default(threads);
    bool ok = true;
#pragma omp parallel num_threads(team) reduction(&& : ok)
    ok = dedup_part(hash, n, keep, (unsigned)omp_get_thread_num(), (unsigned)omp_get_num_threads());
    return ok;
}
