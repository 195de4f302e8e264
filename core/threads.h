/*
 * threads.h - how many threads a job may use, and the one check every front end puts a count
 * through: the command line's --threads options, the C API's perft and analyze (and so the
 * Python package), the engine protocol's setting.  A count runs from 1 (or 0, "the default",
 * where a caller allows it) to THREADS_MAX.  Uncapped, OMP_NUM_THREADS=100000 or a perft with
 * threads=100000 asks libgomp for a hundred thousand threads, which it cannot make and crashes
 * on (a stack overflow inside libgomp); no count leuctra runs with comes from outside without
 * passing through this cap.
 *
 * A count inside the cap can still be far more than the machine has processors: `bench solve
 * --threads 1024` on two cores takes minutes where two threads take seconds.  threads_too_many
 * says so in one line; the front ends show it (the command line on stderr, Python as a
 * RuntimeWarning), the library never prints.
 */
#ifndef LEUCTRA_THREADS_H
#define LEUCTRA_THREADS_H

#include "game.h"

#include <stdbool.h>
#include <stddef.h>

/* Past a thousand threads a machine is better used by processes (MPI, docs/CLUSTER.md). */
enum { THREADS_MAX = 1024 };
/* More threads than this per processor only add switching: each waits for the others' turns. */
enum { THREADS_PER_PROCESSOR_WARN = 4 };

/* OpenMP's default team size, at least 1 and at most THREADS_MAX. */
int threads_default(void);

/* n when it is positive (a count the user gave; THREADS_MAX past that), else threads_default(). */
int threads_or_default(int n);

/* Whether n is a thread count from `least` (0 or 1) to THREADS_MAX; if not, err says so, in the
 * wording every front end shares: "<name> must be an integer from <least> to 1024, got <n>". */
bool threads_check(long long n, int least, const char *name, Error *err);

/* Whether n threads are more than THREADS_PER_PROCESSOR_WARN per processor of this machine
 * (omp_get_num_procs); if so, and note is not NULL, the line that says so into note. */
bool threads_too_many(int n, char *note, size_t note_len);

#endif
