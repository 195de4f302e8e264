/*
 * record_reader.c - reading a records file as a stream of games (records_open/next/close) and
 * its chunk list (records_chunks).  One chunk is in memory at a time, whatever the size of the
 * file.  Checking a whole file is record_verify.c's.
 */
#include "record_internal.h"

#include <stdlib.h>
#include <string.h>

struct RecordsReader {
    OpenedFile file;
    char *path;
    ChunkScanner scan;
    ByteReader games;           /* the games of the current chunk not yet returned */
    uint64_t chunk_offset;
    bool stopped;               /* an I/O or memory failure: nothing more can be read */
    Error stop_error;
};

RecordsReader *records_open(const char *path, Error *err)
{
    RecordsReader *r = calloc(1, sizeof *r);
    if (r)
        r->path = strdup(path);
    if (!r || !r->path) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
        free(r);
        return NULL;
    }
    if (!record_open_file(path, &r->file, err)) {
        free(r->path);
        free(r);
        return NULL;
    }
    record_scanner_init(&r->scan, r->file.fd, r->path, r->file.first_chunk, r->file.size, &r->file.header);
    return r;
}

const RecordsHeader *records_reader_header(const RecordsReader *r) { return &r->file.header; }
uint64_t records_reader_file_size(const RecordsReader *r) { return r->file.size; }
uint64_t records_reader_chunk_offset(const RecordsReader *r) { return r->chunk_offset; }

void records_close(RecordsReader *r)
{
    if (!r)
        return;
    record_scanner_free(&r->scan);
    record_close_file(&r->file);
    free(r->path);
    free(r);
}

int records_next(RecordsReader *r, GameRecord *out, Error *err)
{
    for (;;) {
        if (r->stopped) {
            *err = r->stop_error;
            return -1;
        }
        if (r->games.p < r->games.end) {
            char why[160];
            if (record_decode(&r->games, r->file.header.board, r->file.header.version, out, why, sizeof why))
                return 1;
            /* The scanner decoded this chunk once already; only memory can fail now. */
            records_error(&r->stop_error, RECORDS_ERR_MEMORY, r->chunk_offset, "%s: %s", r->path, why);
            r->stopped = true;
            continue;
        }
        ScanResult s = record_scanner_next(&r->scan, err);
        if (s == SCAN_END)
            return 0;
        if (s == SCAN_FATAL) {
            r->stop_error = *err;
            r->stopped = true;
        }
        if (s != SCAN_CHUNK)
            return -1;
        r->chunk_offset = r->scan.offset;
        r->games = (ByteReader){r->scan.raw.data, r->scan.raw.data + r->scan.raw.len, false};
    }
}

void records_seek(RecordsReader *r, uint64_t offset)
{
    r->scan.pos = r->scan.next = offset;
    r->games = (ByteReader){NULL, NULL, false};
}

/* ---------------------------------------------------------------- chunk list */

static bool add_chunk(RecordsChunk **list, size_t *n, size_t *cap, uint64_t offset, const ChunkHeader *h)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 256;
        RecordsChunk *p = realloc(*list, c * sizeof *p);
        if (!p)
            return false;
        *list = p;
        *cap = c;
    }
    (*list)[(*n)++] = (RecordsChunk){offset, h->games, h->payload_crc};
    return true;
}

bool records_chunks(const char *path, RecordsChunk **chunks, size_t *count, Error *err)
{
    *chunks = NULL;
    *count = 0;
    OpenedFile f;
    if (!record_open_file(path, &f, err))
        return false;
    ChunkScanner scan;
    record_scanner_init(&scan, f.fd, path, f.first_chunk, f.size, &f.header);
    size_t cap = 0;
    ScanResult s;
    bool ok = true;
    while (ok && (s = record_scanner_next_header(&scan, err)) != SCAN_END) {
        ok = s == SCAN_CHUNK;
        if (ok && !(ok = add_chunk(chunks, count, &cap, scan.offset, &scan.header)))
            records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
    }
    record_scanner_free(&scan);
    record_close_file(&f);
    if (!ok) {
        free(*chunks);
        *chunks = NULL;
        *count = 0;
    }
    return ok;
}
