/*
 * record_io.c - the file operations under the records format: whole reads and writes at an
 * offset (retrying short transfers and EINTR).  Temporary files, for a new records file and a
 * rewrite alike, are data/output_file.c's.  Nothing here reads the format itself: opening a
 * records file with its header checked is record_header.c's, which reads through these.
 */
#include "record_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool record_read_full_at(int fd, void *buf, size_t n, uint64_t offset, size_t *got)
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

bool record_write_full_at(int fd, const void *buf, size_t n, uint64_t offset)
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
