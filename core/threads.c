/*
 * threads.c - the capped default thread count (threads.h).
 */
#include "threads.h"

#include <omp.h>

int threads_default(void)
{
    int n = omp_get_max_threads();
    return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : n;
}

int threads_or_default(int n)
{
    return n > 0 ? n : threads_default();
}
