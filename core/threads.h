/*
 * threads.h - how many threads a job uses when the user does not say: OpenMP's default team
 * (OMP_NUM_THREADS, else one per processor), capped at THREADS_MAX, the bound every --threads
 * option and protocol setting has too.  Uncapped, OMP_NUM_THREADS=100000 asks libgomp for a
 * hundred thousand threads, which it cannot make and crashes on; no count leuctra runs with
 * comes from outside without passing through this cap or an option's bounds.
 */
#ifndef LEUCTRA_THREADS_H
#define LEUCTRA_THREADS_H

/* Past a thousand threads a machine is better used by processes (MPI, docs/CLUSTER.md). */
enum { THREADS_MAX = 1024 };

/* OpenMP's default team size, at least 1 and at most THREADS_MAX. */
int threads_default(void);

/* n when it is positive (a count the user gave), else threads_default(). */
int threads_or_default(int n);

#endif
