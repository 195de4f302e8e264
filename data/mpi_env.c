/*
 * mpi_env.c - the MPI calls of leuctra (see mpi_env.h): starting and stopping MPI, and the
 * handful of collectives self-play and the tuner need.  With LEUCTRA_MPI undefined, or MPI not
 * started, every operation is the one-rank case: a copy, or nothing.
 */
#include "mpi_env.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifdef LEUCTRA_MPI
#include <mpi.h>
#endif

/* The tag of self-play's progress messages, the only point-to-point traffic. */
enum { PROGRESS_TAG = 17 };

bool mpi_env_built(void)
{
#ifdef LEUCTRA_MPI
    return true;
#else
    return false;
#endif
}

/* Started by mpirun/mpiexec (Open MPI, MPICH, Intel MPI) or srun (PMI, PMIx)?  A plain start of
 * an MPI build then stays a plain process: singleton MPI start-up is slow and noisy on some
 * machines, and gives nothing to one rank. */
static bool launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

#ifdef LEUCTRA_MPI
/* A process that exits without MPI_Finalize makes mpirun abort the whole job with a page of
 * explanation; an error that every rank meets alike (bad input) exits through here instead. */
static void finalize_at_exit(void)
{
    int finalized = 1;
    MPI_Finalized(&finalized);
    if (!finalized)
        MPI_Finalize();
}
#endif

MpiEnv mpi_env_start(void)
{
    MpiEnv env = {0, 1, false, true};
#ifdef LEUCTRA_MPI
    if (!launched())
        return env;
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &env.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &env.size);
    env.started = true;
    env.serialized = provided >= MPI_THREAD_SERIALIZED;
    atexit(finalize_at_exit);
#else
    (void)launched;
#endif
    return env;
}

void mpi_env_stop(MpiEnv *env)
{
#ifdef LEUCTRA_MPI
    if (env->started)
        MPI_Finalize();
#endif
    env->started = false;
}

#ifdef LEUCTRA_MPI
static bool active(const MpiEnv *env) { return env->started && env->size > 1; }

/* Counts and displacements in MPI's int; false when one does not fit. */
static bool int_counts(const size_t *counts, int n, size_t unit, int *out, int *displ)
{
    size_t at = 0;
    for (int r = 0; r < n; r++) {
        if (counts[r] * unit > INT_MAX || at > INT_MAX)
            return false;
        out[r] = (int)(counts[r] * unit);
        displ[r] = (int)at;
        at += counts[r] * unit;
    }
    return true;
}
#endif

bool mpi_env_all(const MpiEnv *env, bool mine)
{
#ifdef LEUCTRA_MPI
    if (active(env)) {
        int in = mine, out = 0;
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        return out != 0;
    }
#endif
    (void)env;
    return mine;
}

bool mpi_env_agree(const MpiEnv *env, bool ok, Error *err)
{
    if (env->size <= 1)
        return ok;
    /* 0: fine; 1: failed, a failure; 2: failed, bad input; 3: stopped by another rank's error */
    uint64_t mine = ok ? 0 : err->elsewhere ? 3 : err->failure ? 1 : 2, code = 0;
    uint64_t *all = malloc((size_t)env->size * sizeof *all);
    if (!mpi_env_all(env, all != NULL)) {
        if (all) {
            error_failed(err, "stopped: another process failed");
            err->elsewhere = true;
        } else {
            error_failed(err, "out of memory");
        }
        free(all);
        return false;
    }
    mpi_env_gather_u64(env, mine, all);
    int first = 0;
    while (first < env->size && all[first] == 0)
        first++;
    if (first < env->size)
        code = all[first];
    free(all);
    if (code == 0)
        return true;
    if (env->rank != first) {
        (void)(code == 2 ? error_set : error_failed)(err, "stopped: another process failed");
        err->elsewhere = true;
    }
    return false;
}

void mpi_env_sum_u64(const MpiEnv *env, uint64_t *v, int n)
{
#ifdef LEUCTRA_MPI
    if (active(env))
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
#endif
    (void)env;
    (void)v;
    (void)n;
}

void mpi_env_gather_u64(const MpiEnv *env, uint64_t mine, uint64_t *all)
{
#ifdef LEUCTRA_MPI
    if (active(env)) {
        MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
        return;
    }
#endif
    (void)env;
    all[0] = mine;
}

bool mpi_env_gather_doubles(const MpiEnv *env, const double *mine, const size_t *counts, double *all)
{
#ifdef LEUCTRA_MPI
    if (active(env)) {
        int *n = malloc(2 * (size_t)env->size * sizeof *n);
        bool ok = n && int_counts(counts, env->size, 1, n, n + env->size);
        if (ok)
            MPI_Allgatherv(mine, n[env->rank], MPI_DOUBLE, all, n, n + env->size, MPI_DOUBLE, MPI_COMM_WORLD);
        free(n);
        return ok;
    }
#endif
    (void)env;
    if (counts[0])
        memmove(all, mine, counts[0] * sizeof *all);
    return true;
}

bool mpi_env_broadcast(const MpiEnv *env, int root, void *buf, size_t bytes)
{
#ifdef LEUCTRA_MPI
    if (active(env)) {
        if (bytes > INT_MAX)
            return false;
        MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD);
        return true;
    }
#endif
    (void)env;
    (void)root;
    (void)buf;
    (void)bytes;
    return true;
}

bool mpi_env_exchange(const MpiEnv *env, const void *send, const size_t *send_bytes, void *recv,
                      const size_t *recv_bytes)
{
#ifdef LEUCTRA_MPI
    if (active(env)) {
        int *n = malloc(4 * (size_t)env->size * sizeof *n), r = env->size;
        bool ok = n && int_counts(send_bytes, r, 1, n, n + r) && int_counts(recv_bytes, r, 1, n + 2 * r, n + 3 * r);
        /* Every rank must take part even when its own counts do not fit; one that refuses makes
         * all refuse, so none waits for it. */
        if (mpi_env_all(env, ok))
            MPI_Alltoallv(send, n, n + r, MPI_BYTE, recv, n + 2 * r, n + 3 * r, MPI_BYTE, MPI_COMM_WORLD);
        else
            ok = false;
        free(n);
        return ok;
    }
#endif
    (void)env;
    (void)recv_bytes;
    if (send_bytes[0])
        memmove(recv, send, send_bytes[0]);
    return true;
}

void mpi_env_send_u64(const MpiEnv *env, int to, const uint64_t *v, int n)
{
#ifdef LEUCTRA_MPI
    if (active(env))
        MPI_Send(v, n, MPI_UINT64_T, to, PROGRESS_TAG, MPI_COMM_WORLD);
#endif
    (void)env;
    (void)to;
    (void)v;
    (void)n;
}

bool mpi_env_poll_u64(const MpiEnv *env, uint64_t *v, int n, int *from)
{
#ifdef LEUCTRA_MPI
    if (active(env)) {
        int waiting = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, PROGRESS_TAG, MPI_COMM_WORLD, &waiting, &st);
        if (!waiting)
            return false;
        MPI_Recv(v, n, MPI_UINT64_T, st.MPI_SOURCE, PROGRESS_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        *from = st.MPI_SOURCE;
        return true;
    }
#endif
    (void)env;
    (void)v;
    (void)n;
    (void)from;
    return false;
}

void mpi_env_recv_u64(const MpiEnv *env, uint64_t *v, int n, int *from)
{
#ifdef LEUCTRA_MPI
    if (active(env)) {
        MPI_Status st;
        MPI_Recv(v, n, MPI_UINT64_T, MPI_ANY_SOURCE, PROGRESS_TAG, MPI_COMM_WORLD, &st);
        *from = st.MPI_SOURCE;
        return;
    }
#endif
    (void)env;
    (void)v;
    (void)n;
    *from = 0;
}
