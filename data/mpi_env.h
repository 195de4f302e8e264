/*
 * mpi_env.h - the few MPI operations that self-play and the tuner use across machines, behind one
 * small interface, so that <mpi.h> is included by data/mpi_env.c alone.
 *
 * Built with -DLEUCTRA_MPI (make MPI=1) these talk to MPI; otherwise, and in an MPI build started
 * without a launcher (no mpirun/srun in the environment), they act for one process of one rank:
 * every collective is a copy.  Callers never test which: code written for `size` ranks is the
 * one-process code when size is 1.
 *
 * Threads: MPI is started with MPI_THREAD_SERIALIZED where the library gives it; callers make at
 * most one MPI call at a time per process (self-play's progress messages are sent from inside
 * an OpenMP critical section).  Counts larger than MPI's int are refused with a message.
 */
#ifndef LEUCTRA_MPI_ENV_H
#define LEUCTRA_MPI_ENV_H

#include "core/game.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int rank, size;         /* this process and how many there are (0 and 1 without MPI) */
    bool started;           /* MPI_Init ran here; mpi_env_stop must finalize */
    bool serialized;        /* MPI calls from any one thread at a time are allowed */
} MpiEnv;

/* Whether this build can use MPI at all (make MPI=1). */
bool mpi_env_built(void);

/* Starts MPI when the build has it and a launcher started this process; else one rank.  MPI is
 * then finalized at exit if mpi_env_stop has not been called (an error that ends every rank). */
MpiEnv mpi_env_start(void);
void mpi_env_stop(MpiEnv *env);

/* True on every rank when `mine` is true on every rank. */
bool mpi_env_all(const MpiEnv *env, bool mine);
/* After a step each rank did on its own share: true when `ok` holds on every rank.  Otherwise
 * the first rank in rank order where it failed keeps its *err (what one process doing all the
 * work in order would have met first), and every other rank gets "stopped: another process
 * failed" of that error's kind (input or failure), err->elsewhere set.  Collective. */
bool mpi_env_agree(const MpiEnv *env, bool ok, Error *err);
/* v[0 .. n) summed over the ranks, in place (integers: exact in any order). */
void mpi_env_sum_u64(const MpiEnv *env, uint64_t *v, int n);
/* all[r] = rank r's `mine`, on every rank. */
void mpi_env_gather_u64(const MpiEnv *env, uint64_t mine, uint64_t *all);
/* Every rank's doubles, one rank's after the other's, on every rank: rank r gives counts[r]
 * values (counts known everywhere).  False when a count is beyond MPI's int. */
bool mpi_env_gather_doubles(const MpiEnv *env, const double *mine, const size_t *counts, double *all);
/* `bytes` bytes of rank `root`'s buf into every rank's buf.  False when the count is beyond MPI's
 * int. */
bool mpi_env_broadcast(const MpiEnv *env, int root, void *buf, size_t bytes);
/* Bytes from every rank to every rank: send holds the parts for ranks 0, 1, ... one after the
 * other (send_bytes[r] each), recv gets the parts from ranks 0, 1, ... likewise.  False when a
 * count is beyond MPI's int. */
bool mpi_env_exchange(const MpiEnv *env, const void *send, const size_t *send_bytes, void *recv,
                      const size_t *recv_bytes);

/* Point to point, for progress: n integers to rank `to`; a poll that receives one waiting
 * message (false when none waits), and a receive that waits for one.  *from gets the sender. */
void mpi_env_send_u64(const MpiEnv *env, int to, const uint64_t *v, int n);
bool mpi_env_poll_u64(const MpiEnv *env, uint64_t *v, int n, int *from);
void mpi_env_recv_u64(const MpiEnv *env, uint64_t *v, int n, int *from);

#endif
