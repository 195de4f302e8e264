/*
 * train_settings.c - a run's settings (train_run.h): DIR/settings, the text that decides what the
 * run makes, written first by a new run and checked by a resumed one; and whether a folder may
 * take a run at all (a new run begins only in a new or empty folder, since a step whose file is
 * there counts as done).
 */
#include "train_run.h"

#include "core/pattern.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef LEUCTRA_VERSION
#define LEUCTRA_VERSION "unknown"
#endif

void training_settings_text(const TrainRun *run, const char *start_id, char *buf, size_t len)
{
    const TrainOptions *o = run->o;
    const Game *g = run->game;
    char fit[160] = "whole";    /* folders from before --shapes have no shapes on this line */
    char window[64];            /* and those from before --window-max a fixed window */
    if (o->window_max > o->window)
        snprintf(window, sizeof window, "%d widened to %d over the best's games", o->window, o->window_max);
    else
        snprintf(window, sizeof window, "%d", o->window);
    if (o->net)
        training_net_words(o, "", fit, sizeof fit);
    else if (o->linear_only)
        snprintf(fit, sizeof fit, "linear");
    else if (o->shapes)
        pattern_families_format(o->shapes, fit + snprintf(fit, sizeof fit, "whole shapes "), sizeof fit - 13);
    training_fit_numbers(o, "", fit, sizeof fit);
    snprintf(buf, len,
             "generator=leuctra train %s\nvariant=%s\nsize=%dx%d\nstart=%s\nstart_weights=%s\ngames=%ld\nvisits=%ld\n"
             "window=%s\nfit=%s\ngate_games=%ld\ngate_visits=%ld\nsprt=elo0 %g elo1 %g alpha %g beta %g %s\n"
             "ladder_games=%ld\nladder_visits=%ld\nopenings=%s\nmake_openings=%d\nseed=%llu\n",
             LEUCTRA_VERSION, g->name, g->width, g->height, o->start, start_id, o->games, o->visits, window,
             fit, o->gate_games, o->gate_visits, o->sprt.elo0, o->sprt.elo1, o->sprt.alpha, o->sprt.beta, o->sprt.model == ELO_LOGISTIC ? "logistic" : "normalized", o->ladder_games,
             o->ladder_visits, o->openings ? o->openings : "made", o->openings ? 0 : o->make_openings,
             (unsigned long long)o->seed);
}

/* --- a folder for a new run ---------------------------------------------------------------------- */

/* What a run stopped before it wrote its settings leaves (its lock, the settings' temporary
 * file): all that a folder may hold besides for a new run to begin in it. */
static bool left_by_new_run(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, "lock") == 0 ||
           fnmatch("settings.tmp.??????", name, 0) == 0;
}

/* The first entry of the folder that a new run did not put there, into name (*found false if
 * none); false with *err when the folder cannot be read. */
static bool foreign_entry(const char *dir, char *name, size_t len, bool *found, Error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return error_failed(err, "cannot read the folder %s: %s", dir, strerror(errno));
    *found = false;
    const struct dirent *e;
    while (!*found && (e = readdir(d)) != NULL)
        if (!left_by_new_run(e->d_name)) {
            snprintf(name, len, "%s", e->d_name);
            *found = true;
        }
    closedir(d);
    return true;
}

bool training_folder_started(const TrainRun *run, bool *started, Error *err)
{
    const TrainOptions *o = run->o;
    struct stat st;
    *started = false;
    if (stat(o->dir, &st) != 0)
        return errno == ENOENT || error_failed(err, "cannot reach %s: %s", o->dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return error_set(err, "%s is not a folder", o->dir);
    if (access(run->settings_path, F_OK) == 0) {
        if (!o->resume)
            return error_set(err, "%s holds a training run already (--resume continues it; or choose another DIR)",
                             o->dir);
        *started = true;
        return true;
    }
    char entry[256];
    bool found;
    if (!foreign_entry(o->dir, entry, sizeof entry, &found, err))
        return false;
    if (found)
        return error_set(err, "%s has no settings file%s and is not empty (it holds '%s'): a new run begins only "
                         "in an empty or new folder (choose another DIR)", o->dir,
                         o->resume ? ", so no training run to resume," : "", entry);
    return true;
}

/* --- a resumed run's settings ------------------------------------------------------------------- */

/* Up to 60 bytes of a line for a message, each byte that is not printable as '?'. */
static const char *printable(const char *line, int len, char *buf, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < len && n + 1 < cap && n < 60; i++)
        buf[n++] = (unsigned char)line[i] < 0x20 || (unsigned char)line[i] >= 0x7f ? '?' : line[i];
    buf[n] = '\0';
    return buf;
}

/* The line that begins at *at (without its newline), *at moved past it; false at the end. */
static bool next_line(const char **at, const char **line, int *len)
{
    if (!**at)
        return false;
    const char *end = strchr(*at, '\n');
    *line = *at;
    *len = end ? (int)(end - *at) : (int)strlen(*at);
    *at = end ? end + 1 : *at + *len;
    return true;
}

/* The settings file against the text this run would write (training_settings_text: the same keys
 * in the same order).  A line without the key expected there is a file that is not a run's
 * settings (damaged, or another program's), told by its line; the same key with another value is
 * a setting that differs, told by its name and both values. */
static bool compare_settings(const TrainRun *run, const char *old, const char *expected, Error *err)
{
    char got[64], want[64];
    const char *a = old, *b = expected, *la = NULL, *lb = NULL;
    for (int line = 1;; line++) {
        int na = 0, nb = 0;
        const bool has_a = next_line(&a, &la, &na), has_b = next_line(&b, &lb, &nb);
        if (!has_a && !has_b)
            return true;
        if (!has_b)
            return error_set(err, "%s, line %d: expected the end of the file, got '%s': not the settings of a "
                             "training run", run->settings_path, line, printable(la, na, got, sizeof got));
        const int key = (int)(strchr(lb, '=') - lb) + 1;   /* "name=" */
        if (!has_a || na < key || memcmp(la, lb, (size_t)key) != 0)
            return error_set(err, "%s, line %d: expected '%.*s...', got %s%s%s: not the settings of a training run",
                             run->settings_path, line, key, lb, has_a ? "'" : "the end of the file",
                             has_a ? printable(la, na, got, sizeof got) : "", has_a ? "'" : "");
        if (na != nb || memcmp(la, lb, (size_t)na) != 0)
            return error_set(err, "%s was started with other settings (%.*s: the file has %s, this run %s): "
                             "resume it with the same options, or start another DIR", run->o->dir, key - 1, lb,
                             printable(la + key, na - key, got, sizeof got),
                             printable(lb + key, nb - key, want, sizeof want));
    }
}

bool training_check_settings(const TrainRun *run, const char *expected, Error *err)
{
    char old[8192];
    FILE *in = fopen(run->settings_path, "rb");
    const size_t n = in ? fread(old, 1, sizeof old - 1, in) : 0;
    if (!in || ferror(in)) {
        int saved = errno;
        if (in)
            fclose(in);
        return error_failed(err, "cannot read %s: %s", run->settings_path, strerror(saved));
    }
    fclose(in);
    old[n] = '\0';
    if (strlen(old) != n)
        return error_set(err, "%s is not a text file: not the settings of a training run", run->settings_path);
    return compare_settings(run, old, expected, err);
}
