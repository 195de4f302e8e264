/*
 * train_folder.c - the folder of a training run (train_run.h): paths in it, the marks that say a
 * step is done (the same answer on every rank), files written whole, the log, which weights file
 * a generation has, the time the run has taken, the lock, and the run's command line for its
 * weights.
 */
#include "train_run.h"
#include "train_output.h"
#include "tune_run.h"

#include "core/clock.h"
#include "core/pattern.h"
#include "eval/elo.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <sys/file.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void training_path(const TrainRun *run, char *buf, const char *fmt, ...)
{
    char rel[63];           /* with DIR's TRAIN_PATH - 64 bytes and the '/', TRAIN_PATH in all */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rel, sizeof rel, fmt, ap);
    va_end(ap);
    snprintf(buf, TRAIN_PATH, "%.*s/%s", TRAIN_PATH - 64, run->o->dir, rel);
}

bool training_exists(const TrainRun *run, const char *rel)
{
    char path[TRAIN_PATH];
    training_path(run, path, "%s", rel);
    return mpi_env_all(run->env, access(path, F_OK) == 0);
}

bool training_write_text(const TrainRun *run, const char *rel, const char *text, Error *err)
{
    if (run->env->rank == 0) {
        char path[TRAIN_PATH];
        training_path(run, path, "%s", rel);
        if (!training_output_text(path, text, err))
            return false;
    }
    mpi_env_all(run->env, true);
    return true;
}

bool training_log(const TrainRun *run, Error *err, const char *fmt, ...)
{
    if (run->env->rank != 0)
        return true;
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    strcat(line, "\n");
    if (run->out->print)
        run->out->print(line, run->out->ctx);
    char path[TRAIN_PATH];
    training_path(run, path, "train.log");
    FILE *log = fopen(path, "a");
    if (!log || fputs(line, log) < 0 || fclose(log) != 0) {
        int saved = errno;
        if (log)
            fclose(log);
        return error_failed(err, "cannot append to %s: %s", path, strerror(saved));
    }
    return true;
}

void training_weights_of(const TrainRun *run, int k, char *rel, size_t len)
{
    char lwt[64];
    snprintf(lwt, sizeof lwt, "gen%d/weights.lwt", k);
    snprintf(rel, len, "gen%d/weights.%s", k, training_exists(run, lwt) ? "lwt" : "txt");
}

void training_duration_text(double seconds, char *buf, size_t len)
{
    long s = seconds > 0 && isfinite(seconds) ? (long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
}

double training_elapsed(const TrainRun *run) { return run->elapsed_before + clock_seconds() - run->started; }

bool training_save_elapsed(const TrainRun *run, Error *err)
{
    char text[64];
    snprintf(text, sizeof text, "%.1f\n", training_elapsed(run));
    return training_write_text(run, "elapsed", text, err);
}

/* "a+b+c" of the counts at buf + *n. */
static void list_counts(int ranks, const uint64_t *counts, const char *unit, char *buf, size_t len, size_t *n)
{
    for (int r = 0; r < ranks && *n < len; r++)
        *n += (size_t)snprintf(buf + *n, len - *n, "%s%llu", r ? "+" : "", (unsigned long long)counts[r]);
    if (*n < len)
        *n += (size_t)snprintf(buf + *n, len - *n, " %s", unit);
}

void training_shares_text(const MpiEnv *env, const uint64_t *counts, const char *unit, const uint64_t *counts2,
                          const char *unit2, char *buf, size_t len)
{
    buf[0] = '\0';
    if (env->size <= 1 || !counts)
        return;
    size_t n = (size_t)snprintf(buf, len, " (%d processes: ", env->size);
    list_counts(env->size, counts, unit, buf, len, &n);
    if (counts2 && n < len) {
        n += (size_t)snprintf(buf + n, len - n, ", ");
        list_counts(env->size, counts2, unit2, buf, len, &n);
    }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

uint64_t *training_gather_counts(const TrainRun *run, uint64_t mine)
{
    const MpiEnv *env = run->env;
    if (env->size <= 1)
        return NULL;
    uint64_t *all = malloc((size_t)env->size * sizeof *all);
    if (!mpi_env_all(env, all != NULL)) {
        free(all);
        return NULL;
    }
    mpi_env_gather_u64(env, mine, all);
    if (env->rank != 0) {
        free(all);
        return NULL;
    }
    return all;
}

bool training_lock(TrainRun *run, Error *err)
{
    if (run->env->rank != 0)
        return true;
    char path[TRAIN_PATH];
    training_path(run, path, "lock");
    /* Held until the run ends (training_unlock, or the process's end): one run a folder at a
     * time. */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return error_failed(err, "cannot open %s: %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return error_set(err, "%s: another leuctra train runs in this folder", run->o->dir);
    }
    run->lock_fd = fd;
    return true;
}

void training_unlock(TrainRun *run)
{
    if (run->lock_fd >= 0)
        close(run->lock_fd);
    run->lock_fd = -1;
}

int training_remove_stale_temps(const TrainRun *run)
{
    int removed = 0;
    static const char *const patterns[] = {"*.tmp.??????", "*/*.tmp.??????"};
    for (int i = 0; run->env->rank == 0 && i < 2; i++) {
        char pattern[TRAIN_PATH];
        training_path(run, pattern, "%s", patterns[i]);
        glob_t found;
        if (glob(pattern, 0, NULL, &found) != 0)
            continue;
        for (size_t k = 0; k < found.gl_pathc; k++)
            removed += unlink(found.gl_pathv[k]) == 0;
        globfree(&found);
    }
    mpi_env_all(run->env, true);
    return removed;
}

void training_score_text(const Trinomial *c, char *buf, size_t len)
{
    EloEstimate e;
    int at = snprintf(buf, len, "+%lld =%lld -%lld  ", (long long)c->wins, (long long)c->draws, (long long)c->losses);
    if (at < 0 || (size_t)at >= len || !elo_trinomial(c, 0.95, &e))
        return;
    if (isfinite(e.elo) && isfinite(e.elo_lower) && isfinite(e.elo_upper))
        snprintf(buf + at, len - (size_t)at, "%+.0f [%+.0f, %+.0f]", e.elo, e.elo_lower, e.elo_upper);
    else if (isfinite(e.elo))   /* a score interval that reaches 0 or 1: one bound only */
        snprintf(buf + at, len - (size_t)at, "%+.0f (at %s %+.0f)", e.elo, isfinite(e.elo_lower) ? "least" : "most",
                 isfinite(e.elo_lower) ? e.elo_lower : e.elo_upper);
    else
        snprintf(buf + at, len - (size_t)at, "%s every game", e.elo > 0 ? "won" : "lost");
}

void training_fit_numbers(const TrainOptions *o, const char *dashes, char *buf, size_t len)
{
    /* each only where set: folders from before the option have no word for it */
    if (o->l2_tables)
        snprintf(buf + strlen(buf), len - strlen(buf), " %sl2-tables %g", dashes, o->l2_tables);
    if (o->lambda != 1)
        snprintf(buf + strlen(buf), len - strlen(buf), " %slambda %g", dashes, o->lambda);
    if (o->priors_generations)
        snprintf(buf + strlen(buf), len - strlen(buf), " %spriors-generations %d", dashes, o->priors_generations);
}

void training_net_words(const TrainOptions *o, const char *dashes, char *buf, size_t len)
{
    /* settings: "net hidden 16 inputs both"; options: "--model net --hidden 16 --inputs both"; the
     * value head's word only where not auto, so that folders from before the option resume */
    snprintf(buf, len, "%s%snet", *dashes ? dashes : "", *dashes ? "model " : "");
    if (o->hidden)
        snprintf(buf + strlen(buf), len - strlen(buf), " %shidden %d", dashes, o->hidden);
    if (o->inputs)
        snprintf(buf + strlen(buf), len - strlen(buf), " %sinputs %s", dashes, training_tune_inputs_name(o->inputs));
    if (o->value_head != TUNE_VALUE_HEAD_AUTO)
        snprintf(buf + strlen(buf), len - strlen(buf), " %svalue-head %s", dashes,
                 training_tune_value_head_name(o->value_head));
}

void training_command_text(const TrainRun *run, char *buf, size_t len)
{
    const TrainOptions *o = run->o;
    const Game *g = run->game;
    char shapes[64], fit[160] = "";
    if (o->net) {
        fit[0] = ' ';
        training_net_words(o, "--", fit + 1, sizeof fit - 1);
    } else if (o->linear_only)
        snprintf(fit, sizeof fit, " --linear-only");
    else if (o->shapes) {
        pattern_families_format(o->shapes, shapes, sizeof shapes);
        snprintf(fit, sizeof fit, " --shapes %s", shapes);
    }
    training_fit_numbers(o, "--", fit, sizeof fit);
    char suite[TRAIN_PATH + 16];
    if (o->openings)
        snprintf(suite, sizeof suite, "--openings %s", o->openings);
    else
        snprintf(suite, sizeof suite, "--make-openings %d", o->make_openings);
    snprintf(buf, len,
             "leuctra train DIR --variant %s --size %dx%d --start %s --games %ld --visits %ld --window %d "
             "--window-max %d%s --gate-games %ld --gate-visits %ld --sprt elo0=%g elo1=%g alpha=%g beta=%g "
             "model=%s --ladder-games %ld --ladder-visits %ld %s --seed %llu",
             g->name, g->width, g->height, o->start, o->games, o->visits, o->window, o->window_max, fit,
             o->gate_games, o->gate_visits, o->sprt.elo0, o->sprt.elo1, o->sprt.alpha, o->sprt.beta,
             o->sprt.model == ELO_LOGISTIC ? "logistic" : "normalized", o->ladder_games, o->ladder_visits, suite,
             (unsigned long long)o->seed);
}
