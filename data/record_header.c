/*
 * record_header.c - the file header of a records file (docs/FORMAT.md, "File header"): the
 * magic that tells a records file from any other, the format version, the variant and board the
 * games were played on, and the writer's settings text; all under one CRC-32.  Also opening a
 * records file for reading with its header checked, what every reading entry point starts with.
 */
#include "record_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* PNG's trick: a high-bit byte catches 7-bit transfers, CR LF catches newline conversion. */
const unsigned char records_file_magic[FILE_MAGIC_BYTES] = {0x89, 'L', 'R', 'E', 'C', '\r', '\n', 0x1A};

bool records_header_init(RecordsHeader *h, const Game *g, const char *settings, Error *err)
{
    memset(h, 0, sizeof *h);
    h->version = RECORDS_VERSION_FIRST;
    snprintf(h->variant, sizeof h->variant, "%s", g->name);
    h->width = g->width;
    h->height = g->height;
    Position start;
    game_start(g, &start);
    game_format_position(g, &start, h->board, sizeof h->board);
    if (!settings)
        settings = "";
    if (strlen(settings) > RECORDS_MAX_SETTINGS) {
        records_error(err, RECORDS_ERR_INVALID, 0, "settings text longer than 1 MiB");
        return false;
    }
    h->settings = strdup(settings);
    if (!h->settings)
        records_error(err, RECORDS_ERR_MEMORY, 0, "out of memory");
    return h->settings != NULL;
}

void records_header_free(RecordsHeader *h)
{
    free(h->settings);
    h->settings = NULL;
}

bool record_header_copy(RecordsHeader *dst, const RecordsHeader *src)
{
    *dst = *src;
    dst->settings = strdup(src->settings ? src->settings : "");
    return dst->settings != NULL;
}

bool record_header_same_board(const RecordsHeader *a, const RecordsHeader *b)
{
    return strcmp(a->variant, b->variant) == 0 && a->width == b->width && a->height == b->height &&
           strcmp(a->board, b->board) == 0;
}

Game *records_header_game(const RecordsHeader *h, Error *err)
{
    Position pos;
    return game_new_for_position(h->variant, h->board, &pos, err);
}

bool record_header_encode(const RecordsHeader *h, ByteBuf *out)
{
    size_t name = strlen(h->variant), board = strlen(h->board), settings = strlen(h->settings);
    size_t start = out->len;
    record_buf_put(out, records_file_magic, FILE_MAGIC_BYTES);
    record_buf_u16(out, (unsigned)h->version);
    record_buf_u16(out, 0);
    record_buf_u32(out, (uint32_t)(1 + name + 2 + 2 + board + 4 + settings));
    record_buf_u8(out, (unsigned)name);
    record_buf_put(out, h->variant, name);
    record_buf_u8(out, (unsigned)h->width);
    record_buf_u8(out, (unsigned)h->height);
    record_buf_u16(out, (unsigned)board);
    record_buf_put(out, h->board, board);
    record_buf_u32(out, (uint32_t)settings);
    record_buf_put(out, h->settings, settings);
    if (!out->failed)
        record_buf_u32(out, record_crc32(out->data + start, out->len - start));
    return !out->failed;
}

/* ---------------------------------------------------------------- reading */

/* The magic, version and body length; the checks that tell what kind of file this is. */
static bool check_fixed_part(const unsigned char *b, size_t got, const char *path, uint32_t *body_len,
                             int *version_out, Error *err)
{
    if (got == 0) {
        records_error(err, RECORDS_ERR_EMPTY, 0, "%s: empty file (no records header)", path);
        return false;
    }
    size_t compare = got < FILE_MAGIC_BYTES ? got : FILE_MAGIC_BYTES;
    if (memcmp(b, records_file_magic, compare) != 0) {
        records_error(err, RECORDS_ERR_FOREIGN, 0, "%s: not a leuctra records file (no records magic at offset 0)", path);
        return false;
    }
    if (got < FILE_HEADER_FIXED) {
        records_error(err, RECORDS_ERR_HEADER, 0, "%s: file header cut short (%zu of %d bytes)", path, got,
                      FILE_HEADER_FIXED);
        return false;
    }
    unsigned version = (unsigned)b[8] | (unsigned)b[9] << 8;
    if (version < RECORDS_VERSION_FIRST || version > RECORDS_VERSION) {
        records_error(err, RECORDS_ERR_VERSION, 0,
                      "%s: records format version %u is not supported (this build reads versions %d to %d)", path,
                      version, RECORDS_VERSION_FIRST, RECORDS_VERSION);
        return false;
    }
    *version_out = (int)version;
    *body_len = record_load_u32(b + 12);
    if (*body_len > FILE_HEADER_MAX_BODY) {
        records_error(err, RECORDS_ERR_HEADER, 0, "%s: damaged file header (body length %u)", path, *body_len);
        return false;
    }
    return true;
}

/* A length-prefixed string of the body into dst (NUL-terminated; no NUL inside). */
static bool read_text(ByteReader *r, size_t len, char *dst, size_t cap)
{
    const unsigned char *p = record_rd_bytes(r, len);
    if (!p || len >= cap || memchr(p, '\0', len))
        return false;
    memcpy(dst, p, len);
    dst[len] = '\0';
    return true;
}

static bool parse_body(const unsigned char *body, uint32_t len, RecordsHeader *h)
{
    ByteReader r = {body, body + len, false};
    if (!read_text(&r, record_rd_u8(&r), h->variant, sizeof h->variant) || h->variant[0] == '\0')
        return false;
    h->width = (int)record_rd_u8(&r);
    h->height = (int)record_rd_u8(&r);
    if (!read_text(&r, record_rd_u16(&r), h->board, sizeof h->board) || h->board[0] == '\0')
        return false;
    uint32_t settings = record_rd_u32(&r);
    if (r.bad || settings > RECORDS_MAX_SETTINGS || !(h->settings = malloc((size_t)settings + 1)))
        return false;
    /* Bytes after the settings are fields of a later revision of the version: skipped. */
    return read_text(&r, settings, h->settings, (size_t)settings + 1) && h->width > 0 && h->height > 0;
}

bool record_header_read(int fd, const char *path, RecordsHeader *h, uint64_t *end, Error *err)
{
    memset(h, 0, sizeof *h);
    unsigned char fixed[FILE_HEADER_FIXED];
    size_t got;
    uint32_t body_len;
    int version = 0;
    if (!record_read_full_at(fd, fixed, sizeof fixed, 0, &got)) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: %s", path, strerror(errno));
        return false;
    }
    if (!check_fixed_part(fixed, got, path, &body_len, &version, err))
        return false;
    size_t total = FILE_HEADER_FIXED + (size_t)body_len + 4;
    unsigned char *all = malloc(total);
    if (!all) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
        return false;
    }
    bool ok = false;
    if (!record_read_full_at(fd, all, total, 0, &got))
        records_error(err, RECORDS_ERR_IO, 0, "%s: %s", path, strerror(errno));
    else if (got < total)
        records_error(err, RECORDS_ERR_HEADER, 0, "%s: file header cut short (%zu of %zu bytes)", path, got, total);
    else if (record_crc32(all, total - 4) != record_load_u32(all + total - 4))
        records_error(err, RECORDS_ERR_HEADER, 0, "%s: damaged file header (CRC mismatch at offset 0)", path);
    else if (!parse_body(all + FILE_HEADER_FIXED, body_len, h))
        records_error(err, RECORDS_ERR_HEADER, 0, "%s: malformed file header (its fields do not fit)", path);
    else
        ok = true;
    h->version = version;
    if (ok)
        *end = total;
    else
        records_header_free(h);
    free(all);
    return ok;
}

/* ---------------------------------------------------------------- opening a file */

bool record_open_file(const char *path, OpenedFile *f, Error *err)
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
    if (!record_header_read(f->fd, path, &f->header, &f->first_chunk, err)) {
        close(f->fd);
        return false;
    }
    return true;
}

void record_close_file(OpenedFile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    records_header_free(&f->header);
}
