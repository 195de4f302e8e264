/*
 * tune_agree.c - the processes of a tune run agreeing after a step where each worked on its own
 * share of the games (tune_run.h: training_tune_agree), for the tables' run (tune_run.c) and the
 * network's (tune_run_net.c): the error one process reading all the data would have met first is
 * the one said, once.
 */
#include "tune_run.h"

#include <stdlib.h>

bool training_tune_agree(const MpiEnv *env, bool ok, Error *err)
{
    if (env->size <= 1)
        return ok;
    uint64_t *status = malloc((size_t)env->size * sizeof *status);
    if (!status) {
        error_failed(err, "out of memory");
        return false;
    }
    mpi_env_gather_u64(env, ok || err->elsewhere ? 0 : err->failure ? 1 : 2, status);
    int first = 0;
    while (first < env->size && status[first] == 0)
        first++;
    const uint64_t code = first < env->size ? status[first] : 0;
    free(status);
    if (first == env->size)
        return true;
    if (env->rank != first) {
        (code == 2 ? error_set : error_failed)(err, "stopped: another process failed");
        err->elsewhere = true;
    }
    return false;
}
