/*
 * output_file.c - whole-file outputs (output_file.h): the path's links followed to the name to
 * replace, a temporary file beside that name renamed over it at the end, and the paths that are
 * written in place (stdout, character devices, FIFOs) or refused.
 */
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* As the kernel's own limit on links followed in one lookup. */
enum { MAX_LINKS = 40 };

/* The folder part of path: "." for a bare name, "/" for a name in the root. */
static void folder_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Where the link at `at` leads, as a path usable from here: its text, relative to the link's
 * own folder unless it is absolute.  False when that does not fit in len. */
static bool follow(const char *at, const char *link, char *next, size_t len)
{
    const char *slash = strrchr(at, '/');
    int n = link[0] == '/' || !slash ? snprintf(next, len, "%s", link)
                                     : snprintf(next, len, "%.*s/%s", (int)(slash - at), at, link);
    return n >= 0 && (size_t)n < len;
}

bool output_file_resolve(const char *path, char *target, size_t len, bool *exists, mode_t *mode, Error *err)
{
    char at[OUTPUT_PATH_MAX], link[OUTPUT_PATH_MAX];
    if (!*path) {
        error_set(err, "an empty path");
        return false;
    }
    if (strlen(path) >= sizeof at || strlen(path) >= len) {
        error_set(err, "%.60s...: path longer than %zu bytes", path, (len < sizeof at ? len : sizeof at) - 1);
        return false;
    }
    strcpy(at, path);
    for (int links = 0;; links++) {
        struct stat st;
        if (lstat(at, &st) != 0) {
            if (errno != ENOENT) {
                error_set(err, "%s: %s", path, strerror(errno));
                return false;
            }
            *exists = false;
            *mode = 0;
            break;
        }
        if (!S_ISLNK(st.st_mode)) {
            *exists = true;
            *mode = st.st_mode;
            break;
        }
        ssize_t n = links < MAX_LINKS ? readlink(at, link, sizeof link - 1) : -1;
        if (links >= MAX_LINKS)
            errno = ELOOP;
        if (n >= 0)
            link[n] = '\0';
        if (n <= 0 || !follow(at, link, target, len)) {
            error_set(err, "%s: %s", path, n < 0 ? strerror(errno) : "a symbolic link that leads nowhere usable");
            return false;
        }
        strcpy(at, target);
    }
    strcpy(target, at);
    return true;
}

const char *output_file_type_name(mode_t mode)
{
    return S_ISDIR(mode) ? "a folder" : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket"
         : S_ISCHR(mode) ? "a character device" : S_ISFIFO(mode) ? "a FIFO" : S_ISREG(mode) ? "a regular file"
         : "a special file";
}

static bool written_in_place(mode_t mode) { return S_ISCHR(mode) || S_ISFIFO(mode); }

/* The resolved target of an output path, refused when it is neither a file to replace nor one to
 * write in place. */
static bool output_target(const char *path, char *target, bool *exists, mode_t *mode, Error *err)
{
    if (!output_file_resolve(path, target, OUTPUT_PATH_MAX, exists, mode, err))
        return false;
    if (*exists && !S_ISREG(*mode) && !written_in_place(*mode)) {
        error_set(err, "%s is %s, not a file to write", path, output_file_type_name(*mode));
        return false;
    }
    return true;
}

bool output_file_check(const char *path, Error *err)
{
    if (strcmp(path, "-") == 0)
        return true;
    char target[OUTPUT_PATH_MAX], dir[OUTPUT_PATH_MAX];
    bool exists;
    mode_t mode;
    if (!output_target(path, target, &exists, &mode, err))
        return false;
    if (exists && written_in_place(mode)) {
        if (access(target, W_OK) == 0)
            return true;
        error_set(err, "%s: cannot write: %s", path, strerror(errno));
        return false;
    }
    folder_of(target, dir, sizeof dir);
    if (access(dir, W_OK) == 0)
        return true;
    error_set(err, "%s: cannot write in '%s': %s", path, dir, strerror(errno));
    return false;
}

bool output_file_open(OutputFile *o, const char *path, Error *err)
{
    o->kind = OUTPUT_REPLACE;
    o->fd = -1;
    o->stream = NULL;
    o->name = path;
    o->target[0] = o->temp[0] = '\0';
    if (strcmp(path, "-") == 0) {
        o->kind = OUTPUT_STDOUT;
        o->fd = STDOUT_FILENO;
        return true;
    }
    bool exists;
    mode_t mode;
    if (!output_target(path, o->target, &exists, &mode, err))
        return false;
    if (exists && written_in_place(mode)) {
        /* A FIFO's open waits for its reader, as any writer's does. */
        o->kind = OUTPUT_DIRECT;
        o->fd = open(o->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (o->fd < 0) {
            error_set(err, "cannot write %s: %s", path, strerror(errno));
            return false;
        }
        return true;
    }
    snprintf(o->temp, sizeof o->temp, "%s.tmp.XXXXXX", o->target);
    o->fd = mkstemp(o->temp);
    if (o->fd < 0)
        o->temp[0] = '\0';     /* nothing was made, nothing to remove */
    /* mkstemp makes 0600; a replaced file keeps its permissions, a new one is for all to read */
    if (o->fd < 0 || fchmod(o->fd, exists ? mode & 07777 : 0644) != 0) {
        error_set(err, "cannot write %s: %s", path, strerror(errno));
        output_file_discard(o);
        return false;
    }
    return true;
}

FILE *output_file_stream(OutputFile *o)
{
    if (!o->stream)
        o->stream = o->kind == OUTPUT_STDOUT ? stdout : fdopen(o->fd, "w");
    return o->stream;
}

bool output_write_all(int fd, const void *bytes, size_t n)
{
    const char *p = bytes;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

bool output_file_write(OutputFile *o, const void *bytes, size_t n)
{
    return output_write_all(o->fd, bytes, n);
}

void output_file_sync_folder(const char *path)
{
    char dir[OUTPUT_PATH_MAX];
    folder_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

bool output_file_commit(OutputFile *o, Error *err)
{
    bool ok = true;
    int saved = 0;
    if (o->stream && (fflush(o->stream) != 0 || ferror(o->stream))) {
        ok = false;
        saved = errno ? errno : EIO;
    }
    if (o->kind == OUTPUT_STDOUT) {
        o->stream = NULL;
        if (!ok)
            error_failed(err, "writing stdout: %s", strerror(saved));
        return ok;
    }
    /* Devices and FIFOs have nothing to sync (fsync fails on them). */
    if (ok && o->kind == OUTPUT_REPLACE && fsync(o->fd) != 0) {
        ok = false;
        saved = errno;
    }
    int closed = o->stream ? fclose(o->stream) : close(o->fd);
    if (closed != 0 && ok) {
        ok = false;
        saved = errno;
    }
    o->stream = NULL;
    o->fd = -1;
    if (o->kind == OUTPUT_REPLACE) {
        if (ok && rename(o->temp, o->target) != 0) {
            ok = false;
            saved = errno;
        }
        if (ok)
            output_file_sync_folder(o->target);
        else
            unlink(o->temp);
        o->temp[0] = '\0';
    }
    if (!ok)
        error_failed(err, "cannot write %s: %s", o->name, strerror(saved));
    return ok;
}

void output_file_discard(OutputFile *o)
{
    if (o->kind == OUTPUT_STDOUT) {
        if (o->stream)
            fflush(o->stream);
        o->stream = NULL;
        return;
    }
    if (o->stream)
        fclose(o->stream);
    else if (o->fd >= 0)
        close(o->fd);
    o->stream = NULL;
    o->fd = -1;
    if (o->temp[0])
        unlink(o->temp);
    o->temp[0] = '\0';
}
