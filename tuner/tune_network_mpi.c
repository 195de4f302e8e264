/*
 * tune_network_mpi.c - the network fit's positions gathered from several processes
 * (tune_network_mpi.h).  Each process's rows are the one-process rows first .. first + count - 1
 * (its games are the next share of the games in order, and the repeats were marked across every
 * process's, tune_plan), so the whole set is the processes' rows laid end to end in rank order:
 * each array is sent piece by piece, rank 0's first, and the CSR starts are renumbered past the
 * lower ranks' inputs and moves.
 */
#include "tune_network_mpi.h"

#include <stdlib.h>
#include <string.h>

/* MPI counts are ints: an array is sent in pieces of at most this many bytes. */
#define PIECE ((size_t)1 << 30)

bool tune_network_place(const MpiEnv *env, uint64_t count, uint64_t *first, uint64_t *total)
{
    uint64_t *all = malloc((size_t)env->size * sizeof *all);
    if (!mpi_env_all(env, all != NULL)) {
        free(all);
        return false;
    }
    mpi_env_gather_u64(env, count, all);
    *first = *total = 0;
    for (int r = 0; r < env->size; r++) {
        if (r == env->rank)
            *first = *total;
        *total += all[r];
    }
    free(all);
    return true;
}

/* What each rank holds: rows, inputs, moves, positions kept whole, rows with moves (R each). */
enum { ROWS, INPUTS, MOVES, SAMPLE, POLICY, PARTS };

static uint64_t sum(const uint64_t *n, int ranks)
{
    uint64_t s = 0;
    for (int r = 0; r < ranks; r++)
        s += n[r];
    return s;
}

/* Every rank's n[r] items of `unit` bytes one after the other into `all`, this rank's from
 * `mine`.  The pieces are within MPI's counts, so the broadcasts cannot refuse. */
static void gather_array(const MpiEnv *env, const void *mine, void *all, const uint64_t *n, size_t unit)
{
    size_t at = 0;
    for (int r = 0; r < env->size; r++) {
        char *part = (char *)all + at * unit;
        const size_t bytes = (size_t)n[r] * unit;
        if (r == env->rank && bytes)
            memcpy(part, mine, bytes);
        for (size_t k = 0; k < bytes; k += PIECE)
            mpi_env_broadcast(env, r, part + k, bytes - k < PIECE ? bytes - k : PIECE);
        at += (size_t)n[r];
    }
}

/* A CSR start array: each rank's starts (its rows') gathered, then moved past the lower ranks'
 * items (items: per rank), and the end. */
static void gather_starts(const MpiEnv *env, const uint64_t *mine, uint64_t *all, const uint64_t *rows,
                          const uint64_t *items)
{
    gather_array(env, mine, all, rows, sizeof *all);
    size_t at = 0;
    uint64_t base = 0;
    for (int r = 0; r < env->size; r++) {
        for (uint64_t i = 0; i < rows[r]; i++)
            all[at + i] += base;
        at += (size_t)rows[r];
        base += items[r];
    }
    all[at] = base;
}

static bool whole_alloc(TuneNetworkSet *w, const uint64_t *total, int num_inputs)
{
    memset(w, 0, sizeof *w);
    const size_t n = (size_t)total[ROWS], inputs = (size_t)total[INPUTS], moves = (size_t)total[MOVES],
                 sample = (size_t)total[SAMPLE];
    w->count = n;
    w->num_inputs = num_inputs;
    w->with_policy = (size_t)total[POLICY];
    w->num_sample = sample;
    w->input_start = malloc((n + 1) * sizeof *w->input_start);
    w->input = malloc((inputs ? inputs : 1) * sizeof *w->input);
    w->bucket = malloc((n ? n : 1) * sizeof *w->bucket);
    w->skip_value = malloc((n ? n : 1) * sizeof *w->skip_value);
    w->target = malloc((n ? n : 1) * sizeof *w->target);
    w->result = malloc((n ? n : 1) * sizeof *w->result);
    w->move_start = malloc((n + 1) * sizeof *w->move_start);
    w->action = malloc((moves ? moves : 1) * sizeof *w->action);
    w->skip_prior = malloc((moves ? moves : 1) * sizeof *w->skip_prior);
    w->share = malloc((moves ? moves : 1) * sizeof *w->share);
    w->sample_row = malloc((sample ? sample : 1) * sizeof *w->sample_row);
    w->sample = malloc((sample ? sample : 1) * sizeof *w->sample);
    return w->input_start && w->input && w->bucket && w->skip_value && w->target && w->result && w->move_start &&
           w->action && w->skip_prior && w->share && w->sample_row && w->sample;
}

/* Every rank's counts: n[part * R + r]. */
static void gather_counts(const MpiEnv *env, const TuneNetworkSet *s, uint64_t *n)
{
    const uint64_t mine[PARTS] = {s->count, s->input_start[s->count], s->move_start[s->count], s->num_sample,
                                  s->with_policy};
    for (int p = 0; p < PARTS; p++)
        mpi_env_gather_u64(env, mine[p], n + (size_t)p * (size_t)env->size);
}

static void gather_all(const MpiEnv *env, const TuneNetworkSet *s, TuneNetworkSet *w, const uint64_t *n)
{
    const size_t R = (size_t)env->size;
    const uint64_t *rows = n + ROWS * R, *inputs = n + INPUTS * R, *moves = n + MOVES * R;
    gather_starts(env, s->input_start, w->input_start, rows, inputs);
    gather_array(env, s->input, w->input, inputs, sizeof *w->input);
    gather_array(env, s->bucket, w->bucket, rows, sizeof *w->bucket);
    gather_array(env, s->skip_value, w->skip_value, rows, sizeof *w->skip_value);
    gather_array(env, s->target, w->target, rows, sizeof *w->target);
    gather_array(env, s->result, w->result, rows, sizeof *w->result);
    gather_starts(env, s->move_start, w->move_start, rows, moves);
    gather_array(env, s->action, w->action, moves, sizeof *w->action);
    gather_array(env, s->skip_prior, w->skip_prior, moves, sizeof *w->skip_prior);
    gather_array(env, s->share, w->share, moves, sizeof *w->share);
    gather_array(env, s->sample, w->sample, n + SAMPLE * R, sizeof *w->sample);
}

/* A whole set that could not be gathered, freed here (the set's own free is its reader's). */
static void whole_free(TuneNetworkSet *w)
{
    free(w->input_start);
    free(w->input);
    free(w->bucket);
    free(w->skip_value);
    free(w->target);
    free(w->result);
    free(w->move_start);
    free(w->action);
    free(w->skip_prior);
    free(w->share);
    free(w->sample_row);
    free(w->sample);
    memset(w, 0, sizeof *w);
}

bool tune_network_set_gather(const MpiEnv *env, const TuneNetworkSet *set, size_t stride, TuneNetworkSet *whole)
{
    const size_t R = (size_t)env->size;
    uint64_t *n = malloc(PARTS * R * sizeof *n);
    if (!mpi_env_all(env, n != NULL)) {
        free(n);
        return false;
    }
    gather_counts(env, set, n);
    uint64_t total[PARTS];
    for (int p = 0; p < PARTS; p++)
        total[p] = sum(n + (size_t)p * R, env->size);
    const bool ok = mpi_env_all(env, whole_alloc(whole, total, set->num_inputs));
    if (ok) {
        gather_all(env, set, whole, n);
        for (size_t k = 0; k < whole->num_sample; k++)
            whole->sample_row[k] = (uint64_t)(k * stride);
    } else {
        whole_free(whole);
    }
    free(n);
    return ok;
}
