/*
 * tune_mpi.c - the tuner over several processes (MPI through data/mpi_env.h): repeats found
 * across every process's games, the position sets moved into whole blocks per process, and the
 * agreement on failures that keeps every process at the same collective step.
 *
 * The one-process result is the contract: the same positions in the same rows, and the same sums
 * bit for bit.  Both follow from the one-process structure (tune.h, tune_sums.h):
 *   - repeats: "first occurrence in game order" with the games numbered across the processes in
 *     rank order.  Each hash goes to the process that owns its part of the hash space, which
 *     receives the hashes of its part from ranks 0, 1, ... in order (each in its own order), so
 *     it sees them in global order and marks first occurrences exactly as tune_dedup would;
 *   - sums: a block's sum is sequential over its rows, and the blocks are added in block order.
 *     Rows are moved so that each process holds whole blocks (tune_spread); each block's sum is
 *     then computed whole by one process, and every process gathers all block sums and adds
 *     them in block order (tune_sums.c).
 */
#include "tune_sums.h"

#include <stdlib.h>
#include <string.h>

bool tune_agree(const MpiEnv *env, bool ok, Error *err)
{
    bool all = mpi_env_all(env, ok);
    if (ok && !all) {
        error_failed(err, "stopped: another process failed");
        err->elsewhere = true;
    }
    return all;
}

bool tune_agree_first(const MpiEnv *env, bool ok, Error *err)
{
    if (!env || env->size <= 1)
        return ok;
    uint64_t *failed = malloc((size_t)env->size * sizeof *failed);
    if (!mpi_env_all(env, failed != NULL)) {
        if (failed) {
            free(failed);
            error_failed(err, "stopped: another process failed");
            err->elsewhere = true;
        } else {
            error_failed(err, "out of memory");
        }
        return false;
    }
    mpi_env_gather_u64(env, !ok, failed);
    int first = 0;
    while (first < env->size && !failed[first])
        first++;
    free(failed);
    if (first == env->size)
        return true;
    /* Error is plain bytes (a message array, flags and numbers): the same on every machine of one
     * build, which is what mpirun starts. */
    mpi_env_broadcast(env, first, err, sizeof *err);
    err->elsewhere = false;
    return false;
}

void tune_sum_stats(const MpiEnv *env, TuneDataStats *s)
{
    uint64_t v[] = {s->games, s->games_train, s->games_validation, s->positions_read, s->positions_opening,
                    s->positions_duplicate, s->positions_train, s->positions_validation, s->positions_valued};
    mpi_env_sum_u64(env, v, (int)(sizeof v / sizeof v[0]));
    *s = (TuneDataStats){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], s->seconds, s->seconds_replay,
                         s->seconds_features, s->seconds_exchange};
}

/* --- repeats across processes ---------------------------------------------------------------------- */

/* The process that owns a hash: its top 32 bits scaled to [0, ranks), as tune_dedup cuts. */
static inline int owner_of(uint64_t hash, int ranks)
{
    return (int)(((hash >> 32) * (uint64_t)ranks) >> 32);
}

/* Per-rank element counts to byte counts. */
static void to_bytes(const size_t *n, int ranks, size_t unit, size_t *bytes)
{
    for (int r = 0; r < ranks; r++)
        bytes[r] = n[r] * unit;
}

typedef struct {
    int ranks;
    size_t *send_n, *recv_n;        /* hashes to and from each rank */
    size_t *bytes_a, *bytes_b;
    uint64_t *send, *recv;          /* this rank's hashes grouped by owner; the owned ones */
    uint8_t *flags_in, *flags_out;  /* first-occurrence flags of the owned hashes; of ours */
    size_t received;
} Dedup;

static void dedup_free(Dedup *d)
{
    free(d->send_n);
    free(d->recv_n);
    free(d->bytes_a);
    free(d->bytes_b);
    free(d->send);
    free(d->recv);
    free(d->flags_in);
    free(d->flags_out);
}

/* Groups this rank's hashes by owner (each group in array order) and learns how many hashes
 * every rank sends here. */
static bool dedup_send_plan(const MpiEnv *env, Dedup *d, const uint64_t *hash, size_t n)
{
    int R = env->size;
    d->ranks = R;
    d->send_n = calloc((size_t)R, sizeof *d->send_n);
    d->recv_n = calloc((size_t)R, sizeof *d->recv_n);
    d->bytes_a = calloc((size_t)R, sizeof *d->bytes_a);
    d->bytes_b = calloc((size_t)R, sizeof *d->bytes_b);
    d->send = malloc((n ? n : 1) * sizeof *d->send);
    d->flags_out = malloc(n ? n : 1);
    size_t *at = calloc((size_t)R, sizeof *at);
    bool ok = d->send_n && d->recv_n && d->bytes_a && d->bytes_b && d->send && d->flags_out && at;
    if (ok) {
        for (size_t i = 0; i < n; i++)
            d->send_n[owner_of(hash[i], R)]++;
        for (int r = 1; r < R; r++)
            at[r] = at[r - 1] + d->send_n[r - 1];
        for (size_t i = 0; i < n; i++)
            d->send[at[owner_of(hash[i], R)]++] = hash[i];
    }
    free(at);
    if (!mpi_env_all(env, ok))
        return false;
    /* Counts as one size_t from every rank to every rank. */
    for (int r = 0; r < R; r++)
        d->bytes_a[r] = d->bytes_b[r] = sizeof(size_t);
    return mpi_env_exchange(env, d->send_n, d->bytes_a, d->recv_n, d->bytes_b);
}

bool tune_dedup_ranks(const MpiEnv *env, const uint64_t *hash, size_t n, uint8_t *keep, int threads)
{
    Dedup d = {0};
    bool ok = dedup_send_plan(env, &d, hash, n);
    if (ok) {
        for (int r = 0; r < d.ranks; r++)
            d.received += d.recv_n[r];
        d.recv = malloc((d.received ? d.received : 1) * sizeof *d.recv);
        d.flags_in = malloc(d.received ? d.received : 1);
        ok = mpi_env_all(env, d.recv && d.flags_in);
    }
    if (ok) {
        to_bytes(d.send_n, d.ranks, sizeof *d.send, d.bytes_a);
        to_bytes(d.recv_n, d.ranks, sizeof *d.recv, d.bytes_b);
        ok = mpi_env_exchange(env, d.send, d.bytes_a, d.recv, d.bytes_b);
    }
    /* The owned hashes, in global order: first occurrences as one process would mark them. */
    ok = ok && mpi_env_all(env, tune_dedup(d.recv, d.received, d.flags_in, threads));
    if (ok) {
        to_bytes(d.recv_n, d.ranks, 1, d.bytes_a);
        to_bytes(d.send_n, d.ranks, 1, d.bytes_b);
        ok = mpi_env_exchange(env, d.flags_in, d.bytes_a, d.flags_out, d.bytes_b);
    }
    if (ok) {
        /* Back to array order: the flags of each owner's group come in that group's order. */
        size_t *at = calloc((size_t)d.ranks, sizeof *at);
        ok = mpi_env_all(env, at != NULL);
        for (int r = 1; ok && r < d.ranks; r++)
            at[r] = at[r - 1] + d.send_n[r - 1];
        for (size_t i = 0; ok && i < n; i++)
            keep[i] = d.flags_out[at[owner_of(hash[i], d.ranks)]++];
        free(at);
    }
    dedup_free(&d);
    return ok;
}

/* --- rows into whole blocks ------------------------------------------------------------------------ */

/* Rows [lo, hi) of a set of `total` rows that rank r of R holds once spread. */
static void spread_range(uint64_t total, int r, int R, uint64_t *lo, uint64_t *hi)
{
    uint64_t blocks = (total + TUNE_BLOCK - 1) / TUNE_BLOCK;
    uint64_t b0 = blocks / (uint64_t)R * (uint64_t)r + blocks % (uint64_t)R * (uint64_t)r / (uint64_t)R;
    uint64_t b1 = blocks / (uint64_t)R * (uint64_t)(r + 1) + blocks % (uint64_t)R * (uint64_t)(r + 1) / (uint64_t)R;
    *lo = b0 * TUNE_BLOCK < total ? b0 * TUNE_BLOCK : total;
    *hi = b1 * TUNE_BLOCK < total ? b1 * TUNE_BLOCK : total;
}

size_t tune_spread_blocks(uint64_t total, int r, int R)
{
    uint64_t lo, hi;
    spread_range(total, r, R, &lo, &hi);
    return (size_t)((hi - lo + TUNE_BLOCK - 1) / TUNE_BLOCK);
}

/* The length of [a0, a1) ∩ [b0, b1). */
static size_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
    uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? (size_t)(hi - lo) : 0;
}

/* Rows this rank sends to and receives from every rank: *send_n, *recv_n (R entries each). */
static void spread_plan(const uint64_t *counts, int me, int R, uint64_t total, size_t *send_n, size_t *recv_n)
{
    uint64_t my_lo, my_hi, first = 0;
    spread_range(total, me, R, &my_lo, &my_hi);
    uint64_t mine = 0;
    for (int r = 0; r < me; r++)
        mine += counts[r];
    for (int r = 0; r < R; r++) {
        uint64_t lo, hi;
        spread_range(total, r, R, &lo, &hi);
        send_n[r] = overlap(mine, mine + counts[me], lo, hi);
        recv_n[r] = overlap(first, first + counts[r], my_lo, my_hi);
        first += counts[r];
    }
}

/* One column of the set (unit bytes per row) moved by the plan. */
static bool move_column(const MpiEnv *env, const void *from, void *to, const size_t *send_n, const size_t *recv_n,
                        size_t unit, size_t *bytes)
{
    int R = env->size;
    to_bytes(send_n, R, unit, bytes);
    to_bytes(recv_n, R, unit, bytes + R);
    return mpi_env_exchange(env, from, bytes, to, bytes + R);
}

bool tune_spread(const MpiEnv *env, TuneSet *set)
{
    int R = env->size;
    uint64_t *counts = calloc((size_t)R, sizeof *counts);
    size_t *plan = calloc(4 * (size_t)R, sizeof *plan);
    TuneSet moved = {0};
    bool ok = mpi_env_all(env, counts && plan);
    uint64_t total = 0, lo = 0, hi = 0;
    if (ok) {
        mpi_env_gather_u64(env, set->count, counts);
        for (int r = 0; r < R; r++)
            total += counts[r];
        spread_range(total, env->rank, R, &lo, &hi);
        spread_plan(counts, env->rank, R, total, plan, plan + R);
        ok = mpi_env_all(env, tune_set_alloc(&moved, set->num_features, set->num_entries, (size_t)(hi - lo)));
    }
    size_t f = (size_t)set->num_features;
    ok = ok && move_column(env, set->features, moved.features, plan, plan + R, f * sizeof(float), plan + 2 * R);
    ok = ok && move_column(env, set->target, moved.target, plan, plan + R, sizeof(double), plan + 2 * R);
    ok = ok && move_column(env, set->result, moved.result, plan, plan + R, sizeof(double), plan + 2 * R);
    if (set->num_entries)
        ok = ok && move_column(env, set->entries, moved.entries, plan, plan + R,
                               (size_t)set->num_entries * sizeof(uint32_t), plan + 2 * R);
    if (ok) {
        moved.families = set->families;    /* which pattern set the entries index */
        tune_set_free(set);
        *set = moved;
        set->mpi = env;
        set->total = total;
        set->first_row = (size_t)lo;
    } else {
        tune_set_free(&moved);
    }
    free(counts);
    free(plan);
    return ok;
}

bool tune_gather_blocks(const TuneSet *set, const double *mine, size_t stride, double *all)
{
    const MpiEnv *env = set->mpi;
    size_t *counts = malloc((size_t)env->size * sizeof *counts);
    bool ok = mpi_env_all(env, counts != NULL);
    for (int r = 0; ok && r < env->size; r++)
        counts[r] = tune_spread_blocks(set->total, r, env->size) * stride;
    ok = ok && mpi_env_gather_doubles(env, mine, counts, all);
    free(counts);
    return ok;
}
