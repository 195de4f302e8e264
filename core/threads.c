/*
 * threads.c - the capped default thread count, the one check of a count given from outside, and
 * the note for a count far past the processors (threads.h).
 */
#include "threads.h"

#include <omp.h>
#include <stdio.h>

int threads_default(void)
{
    int n = omp_get_max_threads();
    return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : n;
}

int threads_or_default(int n)
{
    return n > THREADS_MAX ? THREADS_MAX : n > 0 ? n : threads_default();
}

bool threads_check(long long n, int least, const char *name, Error *err)
{
    if (n >= least && n <= THREADS_MAX)
        return true;
    error_set(err, "%s must be an integer from %d to %d, got %lld", name, least, (int)THREADS_MAX, n);
    return false;
}

bool threads_too_many(int n, char *note, size_t note_len)
{
    int processors = omp_get_num_procs();
    if (processors < 1)
        processors = 1;
    if (n <= THREADS_PER_PROCESSOR_WARN * processors)
        return false;
    if (note && note_len)
        snprintf(note, note_len, "%d threads on %d processor%s: more than %d per processor runs slower than fewer "
                 "threads would, not faster", n, processors, processors == 1 ? "" : "s", (int)THREADS_PER_PROCESSOR_WARN);
    return true;
}
