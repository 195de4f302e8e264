/*
 * clock.h - monotonic wall-clock seconds, for rates, progress lines and time limits, and the
 * process's CPU seconds, for benchmarks on a shared machine: one definition for every layer
 * instead of a copy per file.
 */
#ifndef LEUCTRA_CLOCK_H
#define LEUCTRA_CLOCK_H

#include <time.h>

static inline double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the whole process, every thread's. */
static inline double clock_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
