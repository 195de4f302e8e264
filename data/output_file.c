/*
 * output_file.c - whole-file outputs (output_file.h): the path's links followed to the name to
 * replace, a temporary file beside that name renamed over it at the end, and the paths that are
 * written in place (stdout, character devices, FIFOs) or refused; the temporary files and
 * folders, locked while their process lives, that a signal removes and a later run clears away
 * once their process is gone; and the check that no output is an input or another output.
 */
#include "output_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

/* --- temporary files that a signal removes ------------------------------------------------------ */

/* The temporary files this process has in flight.  The one global state of leuctra's library,
 * and global because a signal handler can reach nothing else: a handler that ends the process
 * must find every temporary file to remove it, with nothing but async-signal-safe calls (no
 * locks, no malloc, no stdio).  A slot's name is written while the slot is TEMP_CLAIMED and
 * published by the atomic store of TEMP_LIVE; the handler reads live slots only.  Slots are
 * claimed by compare-and-swap, so threads may make temporary files at once; a process with
 * more in flight than slots leaves the extra ones to the resume's clean-up. */
enum { TEMP_SLOTS = 16, TEMP_FREE = 0, TEMP_CLAIMED, TEMP_LIVE };
static char temp_names[TEMP_SLOTS][OUTPUT_PATH_MAX + 16];
static atomic_int temp_state[TEMP_SLOTS];
static atomic_flag temp_handlers = ATOMIC_FLAG_INIT;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler reads the slots' states: they must be lock-free");

/* The signals that end a process on a user's or a system's request. */
static const int ENDING_SIGNALS[] = {SIGINT, SIGTERM, SIGHUP};

/* Removes every live temporary file, then ends the process by the same signal (the disposition
 * was reset on entry, SA_RESETHAND, and the raised signal is delivered once this returns). */
static void remove_temps_on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&temp_state[i]) == TEMP_LIVE)
            unlink(temp_names[i]);
    raise(sig);
    errno = saved;
}

/* Once per process, on the first temporary file: a signal that is ignored (nohup, a background
 * job) stays ignored, and a handler the program installed is left to it. */
static void install_temp_handlers(void)
{
    if (atomic_flag_test_and_set(&temp_handlers))
        return;
    for (size_t i = 0; i < sizeof ENDING_SIGNALS / sizeof ENDING_SIGNALS[0]; i++) {
        struct sigaction old, sa = {.sa_handler = remove_temps_on_signal, .sa_flags = SA_RESETHAND};
        sigemptyset(&sa.sa_mask);
        if (sigaction(ENDING_SIGNALS[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
            !(old.sa_flags & SA_SIGINFO))
            sigaction(ENDING_SIGNALS[i], &sa, NULL);
    }
}

/* --- telling a live temporary file from a killed process's ----------------------------------- */

/* A temporary file or folder is locked (flock, exclusive) by the process that made it, from just
 * after it is made until it is renamed into place or removed.  flock's lock belongs to the open
 * file, so it lasts while any descriptor of it is open and ends with the process however it
 * ends (SIGKILL included): a lock that another process can take is the proof that its maker is
 * gone.  No pid in the name, which a reused pid or another pid namespace would fool.
 *
 * Takes the lock on what fd names, just made; false when output_temp_remove_stale of another
 * process found it unlocked in the moment before and removed it (make another).  A file system
 * without locks makes every temporary file look live: nothing is removed there. */
static bool lock_fresh(int fd)
{
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR)
            return true;
    struct stat st;
    return fstat(fd, &st) != 0 || st.st_nlink > 0;
}

/* A new file (mkstemp) or folder (mkdtemp, and a descriptor of it) named after temp's XXXXXX. */
static int make_one(char *temp, bool folder)
{
    if (!folder)        /* close-on-exec: a child of this process would hold its lock */
        return mkostemp(temp, O_CLOEXEC);
    if (!mkdtemp(temp))
        return -1;
    int fd = open(temp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int saved = errno;
        rmdir(temp);
        errno = saved;
    }
    return fd;
}

/* Makes temp (a name ending in XXXXXX) a new locked file or folder; tries new names while a
 * remover takes the fresh ones. */
static int make_locked(char *temp, bool folder)
{
    size_t n = strlen(temp);
    for (int tries = 0; tries < 100; tries++) {
        memcpy(temp + n - 6, "XXXXXX", 6);
        int fd = make_one(temp, folder);
        if (fd < 0 || lock_fresh(fd))
            return fd;
        close(fd);
    }
    errno = EAGAIN;
    return -1;
}

int output_temp_create(const char *target, char *temp, size_t len, mode_t mode)
{
    if (snprintf(temp, len, "%s.tmp.XXXXXX", target) >= (int)len || strlen(temp) >= sizeof temp_names[0]) {
        errno = ENAMETOOLONG;
        return -1;
    }
    install_temp_handlers();
    int slot = -1;
    for (int i = 0; i < TEMP_SLOTS && slot < 0; i++) {
        int free_state = TEMP_FREE;
        if (atomic_compare_exchange_strong(&temp_state[i], &free_state, TEMP_CLAIMED))
            slot = i;
    }
    int fd = make_locked(temp, false);
    if (fd >= 0 && slot >= 0) {
        memcpy(temp_names[slot], temp, strlen(temp) + 1);
        atomic_store(&temp_state[slot], TEMP_LIVE);
    } else if (slot >= 0) {
        atomic_store(&temp_state[slot], TEMP_FREE);
    }
    /* mkstemp makes 0600 */
    if (fd >= 0 && fchmod(fd, mode) != 0) {
        int saved = errno;
        close(fd);
        unlink(temp);
        output_temp_done(temp);
        errno = saved;
        return -1;
    }
    return fd;
}

void output_temp_done(const char *temp)
{
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&temp_state[i]) == TEMP_LIVE && strcmp(temp_names[i], temp) == 0) {
            atomic_store(&temp_state[i], TEMP_FREE);
            return;
        }
}

int output_temp_folder_create(const char *target, char *temp, size_t len)
{
    if (snprintf(temp, len, "%s.tmp.XXXXXX", target) >= (int)len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return make_locked(temp, true);
}

/* The regular files of a temporary folder (what one that output_temp_folder_create made holds),
 * then the folder; anything else in it keeps it there. */
static bool remove_folder(int fd, const char *name)
{
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
    if (!d && copy >= 0)
        close(copy);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        struct stat st;
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            unlinkat(fd, e->d_name, 0);
    }
    if (d)
        closedir(d);
    return rmdir(name) == 0;
}

void output_temp_folder_remove(int fd, const char *temp)
{
    remove_folder(fd, temp);
    close(fd);
}

/* Removes the temporary file or folder `name` unless a live process holds its lock. */
static bool remove_if_stale(const char *name, bool folder)
{
    int flags = (folder ? O_DIRECTORY : 0) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
    int fd = open(name, O_RDONLY | flags);
    if (fd < 0 && errno == EACCES && !folder)
        fd = open(name, O_WRONLY | flags);     /* a replaced file's permissions, kept: maybe 0200 */
    if (fd < 0)
        return false;
    struct stat held, now;
    bool removed = false;
    /* the lock taken, the name must still be the file locked (not one made since) */
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &held) == 0 && lstat(name, &now) == 0 &&
        held.st_dev == now.st_dev && held.st_ino == now.st_ino)
        removed = folder ? remove_folder(fd, name) : unlink(name) == 0;
    close(fd);
    return removed;
}

int output_temp_remove_stale(const char *path)
{
    char target[OUTPUT_PATH_MAX], dir[OUTPUT_PATH_MAX], prefix[OUTPUT_PATH_MAX + 8], name[2 * OUTPUT_PATH_MAX + 2];
    bool exists;
    mode_t mode;
    Error ignored;
    if (!output_file_resolve(path, target, sizeof target, &exists, &mode, &ignored))
        return 0;
    folder_of(target, dir, sizeof dir);
    const char *slash = strrchr(target, '/');
    snprintf(prefix, sizeof prefix, "%s.tmp.", slash ? slash + 1 : target);
    size_t n = strlen(prefix);
    DIR *d = opendir(dir);
    int removed = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        /* exactly mkstemp's six characters after the prefix */
        if (strncmp(e->d_name, prefix, n) != 0 || strlen(e->d_name) != n + 6)
            continue;
        snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(name, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
            removed += remove_if_stale(name, S_ISDIR(st.st_mode));
    }
    if (d)
        closedir(d);
    return removed;
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
    /* a replaced file keeps its permissions, a new one is for all to read */
    o->fd = output_temp_create(o->target, o->temp, sizeof o->temp, exists ? mode & 07777 : 0644);
    if (o->fd < 0) {
        o->temp[0] = '\0';     /* nothing was made, nothing to remove */
        error_set(err, "cannot write %s: %s", path, strerror(errno));
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
    /* the temporary file's lock (see lock_fresh) is held through the rename, so that no remover
       of stale ones takes the finished file between close and rename */
    int lock = o->kind == OUTPUT_REPLACE ? fcntl(o->fd, F_DUPFD_CLOEXEC, 0) : -1;
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
        if (!ok)
            unlink(o->temp);
        if (lock >= 0)      /* the temporary name is gone: its lock has nothing more to guard */
            close(lock);
        if (ok)
            output_file_sync_folder(o->target);
        output_temp_done(o->temp);
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
    if (o->temp[0]) {
        unlink(o->temp);
        output_temp_done(o->temp);
    }
    o->temp[0] = '\0';
}

/* --- outputs apart from inputs ------------------------------------------------------------------ */

/* What a path names, as far as telling two apart needs. */
typedef struct {
    enum { FILE_UNKNOWN, FILE_INODE, FILE_NEW, FILE_STDOUT } kind;
    dev_t dev;
    ino_t ino;
    char name[OUTPUT_PATH_MAX + PATH_MAX];    /* FILE_NEW: its folder's real path, '/', its name */
} FileIdentity;

/* A file not there yet, by the name it would get: where the path's links lead, in its folder's
 * real path (so "new", "./new" and "sub/../new" are one name). */
static void identify_new(const char *path, FileIdentity *id)
{
    char target[OUTPUT_PATH_MAX], dir[OUTPUT_PATH_MAX], real[PATH_MAX];
    bool exists;
    mode_t mode;
    Error ignored;
    if (!output_file_resolve(path, target, sizeof target, &exists, &mode, &ignored) || exists)
        return;
    folder_of(target, dir, sizeof dir);
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (realpath(dir, real))
        snprintf(id->name, sizeof id->name, "%s/%s", real, base);
    else
        snprintf(id->name, sizeof id->name, "%s", target);
    id->kind = FILE_NEW;
}

static FileIdentity identify(const FileRole *f)
{
    FileIdentity id = {.kind = FILE_UNKNOWN};
    struct stat st;
    bool dash = strcmp(f->path, "-") == 0;
    int got = dash ? fstat(f->output ? STDOUT_FILENO : STDIN_FILENO, &st) : stat(f->path, &st);
    if (got == 0 && S_ISREG(st.st_mode)) {
        id.kind = FILE_INODE;
        id.dev = st.st_dev;
        id.ino = st.st_ino;
    } else if (dash) {
        id.kind = f->output ? FILE_STDOUT : FILE_UNKNOWN;
    } else if (got != 0 && errno == ENOENT && f->output) {
        identify_new(f->path, &id);
    }
    return id;
}

static bool same_file(const FileIdentity *a, const FileIdentity *b)
{
    if (a->kind != b->kind || a->kind == FILE_UNKNOWN)
        return false;
    if (a->kind == FILE_INODE)
        return a->dev == b->dev && a->ino == b->ino;
    return a->kind == FILE_STDOUT || strcmp(a->name, b->name) == 0;
}

/* "-o x.csv", "weights=w.lwt" or "x.lrec" (an operand); "-" as "- (stdout)" or "- (stdin)". */
static void describe(const FileRole *f, char *buf, size_t len)
{
    size_t n = strlen(f->option);
    snprintf(buf, len, "%s%s%.300s%s", f->option, n && f->option[n - 1] != '=' ? " " : "", f->path,
             strcmp(f->path, "-") != 0 ? "" : f->output ? " (stdout)" : " (stdin)");
}

bool output_files_distinct(const FileRole *files, int n, Error *err)
{
    FileIdentity *ids = malloc((size_t)(n > 0 ? n : 1) * sizeof *ids);
    if (!ids) {
        error_set(err, "out of memory");
        return false;
    }
    for (int i = 0; i < n; i++)
        ids[i] = identify(&files[i]);
    bool ok = true;
    for (int i = 0; ok && i < n; i++)
        for (int j = 0; ok && j < n; j++) {
            const FileRole *a = &files[i], *b = &files[j];
            /* each pair once, the output first; two inputs, or two shared outputs, may be one */
            bool pair = a->output && (b->output ? j > i && !(a->shared && b->shared) : true);
            if (!pair || !same_file(&ids[i], &ids[j]))
                continue;
            char first[400], second[400];
            describe(a, first, sizeof first);
            describe(b, second, sizeof second);
            error_set(err, "%s and %s are the same file: %s", first, second,
                      b->output ? "one output would overwrite the other" : "the output would replace the input");
            ok = false;
        }
    free(ids);
    return ok;
}
