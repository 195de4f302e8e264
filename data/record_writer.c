/*
 * record_writer.c - appending games to a records file safely: creating a file (it appears whole
 * or not at all), resuming one a killed run left behind (a partial trailing chunk removed), and
 * appending one game per chunk, synced to disk before the call returns.
 *
 * Why one chunk per game: a game is durable the moment it is appended, and a kill mid-write can
 * only damage the chunk being written, which resume recognises and removes.  Canonical files
 * (record_sort.c) pack many games per chunk for size.  Encoding and compression run outside the
 * writer's mutex, so threads only queue for the write and the sync.
 */
#include "record_internal.h"
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct RecordsWriter {
    int fd;
    char *path;
    RecordsHeader header;
    pthread_mutex_t lock;
    uint64_t end;           /* the end of the last whole chunk */
    bool broken;            /* a failed append could not be cut back: no more appends */
};

static RecordsWriter *new_writer(int fd, const char *path, const RecordsHeader *h, uint64_t end, Error *err)
{
    RecordsWriter *w = calloc(1, sizeof *w);
    bool ok = w && (w->path = strdup(path)) != NULL && record_header_copy(&w->header, h);
    if (!ok || pthread_mutex_init(&w->lock, NULL) != 0) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
        if (w) {
            records_header_free(&w->header);
            free(w->path);
        }
        free(w);
        close(fd);
        return NULL;
    }
    w->fd = fd;
    w->end = end;
    return w;
}

/* One writer per file: a second process (or a second writer here) fails instead of interleaving. */
static bool lock_file(int fd, const char *path, Error *err)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return true;
    if (errno == EWOULDBLOCK)
        records_error(err, RECORDS_ERR_IO, 0, "%s: another writer has this file open", path);
    else
        records_error(err, RECORDS_ERR_IO, 0, "%s: cannot lock: %s", path, strerror(errno));
    return false;
}

/* ---------------------------------------------------------------- create */

static bool header_fits(const RecordsHeader *h, Error *err)
{
    size_t name = strlen(h->variant), board = strlen(h->board);
    if (name == 0 || name >= RECORD_MAX_VARIANT || board == 0 || board >= RECORD_MAX_POSITION || h->width < 1 ||
        h->width > 255 || h->height < 1 || h->height > 255 || !h->settings || strlen(h->settings) > RECORDS_MAX_SETTINGS) {
        records_error(err, RECORDS_ERR_INVALID, 0, "records header: bad variant, board or settings");
        return false;
    }
    return true;
}

/* Puts the finished temporary file at path unless something is there already.  link() does
 * that atomically; file systems without hard links get a check followed by a rename. */
static bool place_new_file(const char *temp, const char *target, const char *path, Error *err)
{
    int rc = link(temp, target);
    if (rc != 0 && errno != EEXIST) {
        struct stat st;
        if (lstat(target, &st) == 0)
            errno = EEXIST;
        else
            rc = rename(temp, target);
    }
    if (rc != 0) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: %s", path,
                      errno == EEXIST ? "already exists (resume it, or choose another name)" : strerror(errno));
        unlink(temp);
        output_temp_done(temp);
        return false;
    }
    unlink(temp);
    output_temp_done(temp);
    output_file_sync_folder(target);
    return true;
}

static bool not_regular(const char *path, mode_t mode, Error *err)
{
    records_error(err, RECORDS_ERR_PATH, 0, "%s is %s, not a regular file (a records file must be one)", path,
                  output_file_type_name(mode));
    return false;
}

/* records_path_check's, with the name a new file would be linked at: where path's symbolic links
 * lead. */
static bool check_path(const char *path, char *target, Error *err)
{
    bool exists;
    mode_t mode;
    Error why;
    if (strcmp(path, "-") == 0) {
        records_error(err, RECORDS_ERR_PATH, 0, "'-': a records file must be a regular file, not stdout");
        return false;
    }
    if (!output_file_resolve(path, target, OUTPUT_PATH_MAX, &exists, &mode, &why)) {
        records_error(err, RECORDS_ERR_PATH, 0, "%s", why.msg);
        return false;
    }
    return !exists || S_ISREG(mode) || not_regular(path, mode, err);
}

bool records_path_check(const char *path, Error *err)
{
    char target[OUTPUT_PATH_MAX];
    return check_path(path, target, err);
}

RecordsWriter *records_create(const char *path, const RecordsHeader *h, Error *err)
{
    char target[OUTPUT_PATH_MAX];
    if (!header_fits(h, err) || !check_path(path, target, err))
        return NULL;
    ByteBuf bytes = {0};
    char temp[OUTPUT_PATH_MAX + 16];
    if (!record_header_encode(h, &bytes)) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
        record_buf_free(&bytes);
        return NULL;
    }
    int fd = output_temp_create(target, temp, sizeof temp, 0644);
    bool ok = fd >= 0 && output_write_all(fd, bytes.data, bytes.len) && fsync(fd) == 0;
    if (!ok) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: cannot create: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(temp);
            output_temp_done(temp);
        }
    } else if (!place_new_file(temp, target, path, err) || !lock_file(fd, path, err)) {
        close(fd);
        ok = false;
    }
    uint64_t end = bytes.len;
    record_buf_free(&bytes);
    return ok ? new_writer(fd, path, h, end, err) : NULL;
}

/* ---------------------------------------------------------------- resume */

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Adds the indices of the games of the scanner's current chunk to info. */
static bool collect_indices(const ChunkScanner *s, RecordsResumeInfo *info, size_t *cap)
{
    const unsigned char *p = s->raw.data, *end = s->raw.data + s->raw.len;
    while (p < end) {
        uint64_t index;
        size_t used;
        if (!record_peek(p, (size_t)(end - p), &index, &used))
            return false;
        if (info->count == *cap) {
            size_t n = *cap ? *cap * 2 : 1024;
            uint64_t *grown = realloc(info->indices, n * sizeof *grown);
            if (!grown)
                return false;
            info->indices = grown;
            *cap = n;
        }
        info->indices[info->count++] = index;
        info->games++;
        p += used;
    }
    return true;
}

static void sort_unique(RecordsResumeInfo *info)
{
    if (info->count == 0)
        return;
    qsort(info->indices, info->count, sizeof *info->indices, compare_u64);
    size_t n = 1;
    for (size_t i = 1; i < info->count; i++)
        if (info->indices[i] != info->indices[n - 1])
            info->indices[n++] = info->indices[i];
    info->count = n;
}

/* Scans every chunk: games of good chunks into info, *good_end after the last good chunk.
 * Damage followed by a good chunk is real damage, not a killed write: refused. */
static bool scan_for_resume(ChunkScanner *s, RecordsResumeInfo *info, uint64_t *good_end, Error *err)
{
    Error first_damage = {0};
    size_t cap = 0;
    for (;;) {
        ScanResult r = record_scanner_next(s, err);
        if (r == SCAN_END)
            break;
        if (r == SCAN_FATAL)
            return false;
        if (r == SCAN_DAMAGE && first_damage.msg[0] == '\0')
            first_damage = *err;
        if (r != SCAN_CHUNK)
            continue;
        if (first_damage.msg[0] != '\0') {
            *err = first_damage;
            snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                     ", before the last good chunk (not a killed write; see records verify)");
            return false;
        }
        if (!collect_indices(s, info, &cap)) {
            records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", s->path);
            return false;
        }
    }
    *good_end = s->next;
    return true;
}

static bool cut_tail(int fd, const char *path, uint64_t good_end, uint64_t size, RecordsResumeInfo *info,
                     Error *err)
{
    info->truncated_at = good_end;
    info->truncated_bytes = size - good_end;
    if (size == good_end)
        return true;
    if (ftruncate(fd, (off_t)good_end) != 0 || fsync(fd) != 0) {
        records_error(err, RECORDS_ERR_IO, good_end, "%s: cannot remove the partial chunk at offset %llu: %s", path,
                      (unsigned long long)good_end, strerror(errno));
        return false;
    }
    return true;
}

/* The file opened read-write and locked, its header read and checked against `expected`. */
static bool open_for_resume(const char *path, const RecordsHeader *expected, OpenedFile *f, Error *err)
{
    memset(f, 0, sizeof *f);
    struct stat st;
    /* Looked at before it is opened: opening a device can do things, and a FIFO opened to read
     * and write would wait for ever for a header. */
    if (!records_path_check(path, err))
        return false;
    f->fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (f->fd < 0 || fstat(f->fd, &st) != 0) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: %s", path, strerror(errno));
        if (f->fd >= 0)
            close(f->fd);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        close(f->fd);
        return not_regular(path, st.st_mode, err);
    }
    f->size = (uint64_t)st.st_size;
    if (!lock_file(f->fd, path, err) || !record_header_read(f->fd, path, &f->header, &f->first_chunk, err)) {
        close(f->fd);
        return false;
    }
    if (expected && !record_header_same_board(expected, &f->header)) {
        records_error(err, RECORDS_ERR_MISMATCH, 0, "%s: holds %s games on %s, not %s games on %s", path,
                      f->header.variant, f->header.board, expected->variant, expected->board);
        record_close_file(f);
        return false;
    }
    return true;
}

RecordsWriter *records_resume(const char *path, const RecordsHeader *expected, RecordsResumeInfo *info,
                              Error *err)
{
    memset(info, 0, sizeof *info);
    OpenedFile f;
    if (!open_for_resume(path, expected, &f, err))
        return NULL;
    /* The lock is ours: no writer owns them now (a canonical rewrite, a create, killed). */
    info->stale_temps = output_temp_remove_stale(path);
    ChunkScanner scan;
    record_scanner_init(&scan, f.fd, path, f.first_chunk, f.size, &f.header);
    uint64_t good_end = f.first_chunk;
    bool ok = scan_for_resume(&scan, info, &good_end, err) && cut_tail(f.fd, path, good_end, f.size, info, err);
    record_scanner_free(&scan);
    if (ok && !record_header_copy(&info->header, &f.header)) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
        ok = false;
    }
    RecordsWriter *w = NULL;
    if (ok) {
        sort_unique(info);
        w = new_writer(f.fd, path, &f.header, good_end, err);
        f.fd = -1;      /* the writer owns it now (and closes it on failure) */
    }
    record_close_file(&f);
    if (!w)
        records_resume_info_free(info);
    return w;
}

bool records_indices(const char *path, RecordsResumeInfo *info, Error *err)
{
    memset(info, 0, sizeof *info);
    OpenedFile f;
    if (!records_path_check(path, err) || !record_open_file(path, &f, err))
        return false;
    ChunkScanner scan;
    record_scanner_init(&scan, f.fd, path, f.first_chunk, f.size, &f.header);
    size_t cap = 0;
    ScanResult r;
    bool ok = true;
    while (ok && (r = record_scanner_next(&scan, err)) != SCAN_END) {
        ok = r == SCAN_CHUNK;
        if (ok && !(ok = collect_indices(&scan, info, &cap)))
            records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
    }
    record_scanner_free(&scan);
    if (ok && !(ok = record_header_copy(&info->header, &f.header)))
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
    record_close_file(&f);
    if (ok)
        sort_unique(info);
    else
        records_resume_info_free(info);
    return ok;
}

void records_resume_info_free(RecordsResumeInfo *info)
{
    free(info->indices);
    records_header_free(&info->header);
    memset(info, 0, sizeof *info);
}

/* ---------------------------------------------------------------- append and close */

/* Writes and syncs one chunk at the end; on failure cuts the file back to its last whole chunk. */
static bool write_chunk_locked(RecordsWriter *w, const ByteBuf *chunk, Error *err)
{
    if (w->broken) {
        records_error(err, RECORDS_ERR_IO, w->end, "%s: an earlier append failed and could not be undone", w->path);
        return false;
    }
    if (record_write_full_at(w->fd, chunk->data, chunk->len, w->end) && fdatasync(w->fd) == 0) {
        w->end += chunk->len;
        return true;
    }
    records_error(err, RECORDS_ERR_IO, w->end, "%s: cannot append at offset %llu: %s", w->path,
                  (unsigned long long)w->end, strerror(errno));
    if (ftruncate(w->fd, (off_t)w->end) != 0 || fdatasync(w->fd) != 0)
        w->broken = true;
    return false;
}

bool records_append(RecordsWriter *w, const GameRecord *game, Error *err)
{
    ByteBuf raw = {0}, chunk = {0};
    char why[200];
    bool ok = record_encode(game, w->header.board, w->header.version, &raw, why, sizeof why);
    if (!ok)
        records_error(err, strcmp(why, "out of memory") == 0 ? RECORDS_ERR_MEMORY : RECORDS_ERR_INVALID, 0,
                      "%s: cannot store game %llu: %s", w->path, (unsigned long long)game->index, why);
    else if (!(ok = record_chunk_build(raw.data, raw.len, 1, game->index, &chunk)))
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: cannot compress game %llu", w->path,
                      (unsigned long long)game->index);
    if (ok) {
        pthread_mutex_lock(&w->lock);
        ok = write_chunk_locked(w, &chunk, err);
        pthread_mutex_unlock(&w->lock);
    }
    record_buf_free(&raw);
    record_buf_free(&chunk);
    return ok;
}

bool records_writer_close(RecordsWriter *w, Error *err)
{
    if (!w)
        return true;
    bool ok = fsync(w->fd) == 0;
    ok = close(w->fd) == 0 && ok;
    if (!ok)
        records_error(err, RECORDS_ERR_IO, 0, "%s: closing: %s", w->path, strerror(errno));
    pthread_mutex_destroy(&w->lock);
    records_header_free(&w->header);
    free(w->path);
    free(w);
    return ok;
}
