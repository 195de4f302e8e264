/*
 * record_io.c - the file operations under the records format: whole reads at an offset and whole
 * writes (retrying short transfers and EINTR), the temporary-file-then-rename commit that makes a
 * rewrite atomic, and opening a records file for reading with its header checked.
 */
#include "record_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool read_full_at(int fd, void *buf, size_t n, uint64_t offset, size_t *got)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = pread(fd, (char *)buf + *got, n - *got, (off_t)(offset + *got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return false;
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return true;
}

bool write_full(int fd, const void *buf, size_t n)
{
    const char *p = buf;
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

bool write_full_at(int fd, const void *buf, size_t n, uint64_t offset)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = pwrite(fd, p, n, (off_t)offset);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
        offset += (uint64_t)w;
    }
    return true;
}

/* Makes a new directory entry (a rename, a link) durable; failure loses nothing already safe. */
void sync_directory_of(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int temp_file_beside(const char *path, char *temp, size_t temp_len)
{
    if (snprintf(temp, temp_len, "%s.tmp.XXXXXX", path) >= (int)temp_len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(temp);
    if (fd >= 0 && fchmod(fd, 0644) != 0) {
        close(fd);
        unlink(temp);
        return -1;
    }
    return fd;
}

bool commit_temp(int fd, const char *temp, const char *path, RecordsError *err)
{
    bool synced = fsync(fd) == 0;
    int saved = errno;
    bool closed = close(fd) == 0;
    if (!synced || !closed || rename(temp, path) != 0) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: cannot write: %s", path, strerror(synced && closed ? errno : saved));
        unlink(temp);
        return false;
    }
    sync_directory_of(path);
    return true;
}

bool open_records_file(const char *path, OpenedFile *f, RecordsError *err)
{
    memset(f, 0, sizeof *f);
    f->fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (f->fd < 0 || fstat(f->fd, &st) != 0) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: %s", path, strerror(errno));
        if (f->fd >= 0)
            close(f->fd);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: is a directory", path);
        close(f->fd);
        return false;
    }
    f->size = (uint64_t)st.st_size;
    if (!header_read(f->fd, path, &f->header, &f->first_chunk, err)) {
        close(f->fd);
        return false;
    }
    return true;
}

void close_records_file(OpenedFile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    records_header_free(&f->header);
}
