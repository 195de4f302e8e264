/*
 * record_chunk.c - chunks (docs/FORMAT.md, "Chunks"): building one from encoded games, and the
 * scanner that walks a file chunk by chunk, checks each (header CRC, payload CRC, inflate, the
 * games inside), names damage by the chunk's byte offset and finds the next good chunk after it.
 */
#include "record_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

const unsigned char records_chunk_magic[4] = {'L', 'R', 'C', 'K'};

/* Resynchronisation reads the file in blocks of this size looking for the chunk magic. */
enum { RESYNC_BLOCK = 1 << 16 };

static void chunk_header_bytes(const ChunkHeader *h, unsigned char b[CHUNK_HEADER_BYTES])
{
    memcpy(b, records_chunk_magic, 4);
    record_store_u32(b + 4, h->stored_bytes);
    record_store_u32(b + 8, h->raw_bytes);
    record_store_u32(b + 12, h->games);
    record_store_u64(b + 16, h->first_index);
    record_store_u32(b + 24, h->payload_crc);
    record_store_u32(b + 28, record_crc32(b, 28));
}

/* A header is believed when its magic and CRC match and its lengths are sane. */
static bool chunk_header_parse(const unsigned char b[CHUNK_HEADER_BYTES], ChunkHeader *h)
{
    if (memcmp(b, records_chunk_magic, 4) != 0 || record_crc32(b, 28) != record_load_u32(b + 28))
        return false;
    h->stored_bytes = record_load_u32(b + 4);
    h->raw_bytes = record_load_u32(b + 8);
    h->games = record_load_u32(b + 12);
    h->first_index = record_load_u64(b + 16);
    h->payload_crc = record_load_u32(b + 24);
    return h->stored_bytes <= CHUNK_MAX_BYTES && h->raw_bytes <= CHUNK_MAX_BYTES && h->games > 0 &&
           h->raw_bytes >= 2 * h->games;
}

bool record_chunk_build(const unsigned char *raw, size_t raw_len, uint32_t games, uint64_t first_index, ByteBuf *out)
{
    uLongf bound = compressBound((uLong)raw_len);
    if (raw_len > CHUNK_MAX_BYTES || bound > CHUNK_MAX_BYTES || !record_buf_reserve(out, CHUNK_HEADER_BYTES + bound))
        return false;
    unsigned char *header = out->data + out->len, *payload = header + CHUNK_HEADER_BYTES;
    uLongf stored = bound;
    if (compress2(payload, &stored, raw, (uLong)raw_len, RECORDS_ZLIB_LEVEL) != Z_OK)
        return false;
    ChunkHeader h = {(uint32_t)stored, (uint32_t)raw_len, games, first_index, record_crc32(payload, stored)};
    chunk_header_bytes(&h, header);
    out->len += CHUNK_HEADER_BYTES + stored;
    return true;
}

/* ---------------------------------------------------------------- scanning */

void record_scanner_init(ChunkScanner *s, int fd, const char *path, uint64_t first_chunk, uint64_t size,
                  const RecordsHeader *h)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    s->path = path;
    s->pos = s->next = first_chunk;
    s->size = size;
    s->board = h->board;
    s->version = h->version;
    game_record_init(&s->scratch);
}

void record_scanner_free(ChunkScanner *s)
{
    record_buf_free(&s->stored);
    record_buf_free(&s->raw);
    game_record_free(&s->scratch);
}

static ScanResult io_failure(ChunkScanner *s, Error *err)
{
    records_error(err, RECORDS_ERR_IO, s->offset, "%s: read error at offset %llu: %s", s->path,
                  (unsigned long long)s->offset, strerror(errno));
    return SCAN_FATAL;
}

/* Offsets within one block where a chunk magic starts. */
static bool find_header_in_block(ChunkScanner *s, const unsigned char *block, size_t got, uint64_t at,
                                 uint64_t *found)
{
    for (size_t i = 0; i + 4 <= got; i++) {
        if (block[i] != 'L' || memcmp(block + i, records_chunk_magic, 4) != 0)
            continue;
        unsigned char b[CHUNK_HEADER_BYTES];
        size_t n;
        ChunkHeader h;
        if (record_read_full_at(s->fd, b, sizeof b, at + i, &n) && n == sizeof b && chunk_header_parse(b, &h)) {
            *found = at + i;
            return true;
        }
    }
    return false;
}

/* The offset of the first believable chunk header at or after `from`, or the file's size. */
static uint64_t resync(ChunkScanner *s, uint64_t from)
{
    unsigned char *block = malloc(RESYNC_BLOCK);
    uint64_t at = from, found = s->size;
    while (block && at + CHUNK_HEADER_BYTES <= s->size) {
        size_t got;
        if (!record_read_full_at(s->fd, block, RESYNC_BLOCK, at, &got) || got < 4)
            break;
        if (find_header_in_block(s, block, got, at, &found))
            break;
        at += got - 3;      /* a magic may straddle two blocks */
    }
    free(block);
    return found;
}

/* Reports damage as "PATH: WHAT at offset N DETAIL" and sets where scanning goes on. */
static ScanResult damage(ChunkScanner *s, Error *err, RecordsErrorKind kind, uint64_t resume_at,
                         const char *what, const char *detail)
{
    records_error(err, kind, s->offset, "%s: %s at offset %llu%s", s->path, what, (unsigned long long)s->offset,
                  detail);
    s->pos = resume_at;
    return SCAN_DAMAGE;
}

static ScanResult read_header(ChunkScanner *s, Error *err)
{
    unsigned char b[CHUNK_HEADER_BYTES];
    size_t got;
    if (!record_read_full_at(s->fd, b, sizeof b, s->offset, &got))
        return io_failure(s, err);
    if (got < sizeof b) {
        char detail[96];
        snprintf(detail, sizeof detail, " (the file ends %zu bytes into its header)", got);
        return damage(s, err, RECORDS_ERR_TRUNCATED, s->size, "truncated chunk", detail);
    }
    if (!chunk_header_parse(b, &s->header))
        return damage(s, err, RECORDS_ERR_CHUNK, resync(s, s->offset + 1), "damaged chunk header", "");
    uint64_t end = s->offset + CHUNK_HEADER_BYTES + s->header.stored_bytes;
    if (end > s->size) {
        char detail[128];
        snprintf(detail, sizeof detail, " (the file holds %llu of its %llu bytes)",
                 (unsigned long long)(s->size - s->offset), (unsigned long long)(end - s->offset));
        return damage(s, err, RECORDS_ERR_TRUNCATED, resync(s, s->offset + 1), "truncated chunk", detail);
    }
    return SCAN_CHUNK;
}

/* Inflates the stored payload into s->raw (reserved by the caller); a reason in why if not. */
static bool inflate_payload(ChunkScanner *s, char *why, size_t why_len)
{
    z_stream z = {0};
    z.next_in = s->stored.data;
    z.avail_in = s->header.stored_bytes;
    z.next_out = s->raw.data;
    z.avail_out = s->header.raw_bytes + 1u;     /* one spare byte catches a stream that is too long */
    int rc = inflateInit(&z);
    if (rc == Z_OK)
        rc = inflate(&z, Z_FINISH);
    bool ok = rc == Z_STREAM_END && z.avail_in == 0 && z.total_out == s->header.raw_bytes;
    if (!ok)
        snprintf(why, why_len, ": %s",
                 z.msg ? z.msg : rc == Z_STREAM_END ? "wrong length or trailing bytes" : "stream cut short");
    inflateEnd(&z);
    s->raw.len = ok ? s->header.raw_bytes : 0;
    return ok;
}

/* Every game of the inflated payload decodes, there are as many as the header says, and the
 * first has the header's index. */
static bool check_games(ChunkScanner *s, char *why, size_t why_len)
{
    ByteReader r = {s->raw.data, s->raw.data + s->raw.len, false};
    uint32_t count = 0;
    char reason[160];
    while (r.p < r.end) {
        if (!record_decode(&r, s->board, s->version, &s->scratch, reason, sizeof reason)) {
            snprintf(why, why_len, ": game %u of the chunk: %s", count + 1, reason);
            return false;
        }
        if (count++ == 0 && s->scratch.index != s->header.first_index) {
            snprintf(why, why_len, ": its first game is not the one its header names");
            return false;
        }
    }
    if (count != s->header.games)
        snprintf(why, why_len, ": %u games where its header says %u", count, s->header.games);
    return count == s->header.games;
}

static ScanResult read_payload(ChunkScanner *s, Error *err)
{
    uint64_t end = s->offset + CHUNK_HEADER_BYTES + s->header.stored_bytes;
    size_t got;
    s->stored.len = s->raw.len = 0;
    if (!record_buf_reserve(&s->stored, s->header.stored_bytes + 1u) || !record_buf_reserve(&s->raw, s->header.raw_bytes + 1u)) {
        records_error(err, RECORDS_ERR_MEMORY, s->offset, "%s: out of memory", s->path);
        return SCAN_FATAL;
    }
    if (!record_read_full_at(s->fd, s->stored.data, s->header.stored_bytes, s->offset + CHUNK_HEADER_BYTES, &got))
        return io_failure(s, err);
    if (got < s->header.stored_bytes)
        return damage(s, err, RECORDS_ERR_TRUNCATED, s->size, "truncated chunk", " (the file shrank while read)");
    s->stored.len = got;
    if (record_crc32(s->stored.data, got) != s->header.payload_crc)
        return damage(s, err, RECORDS_ERR_CRC, end, "CRC mismatch in chunk", "");
    char why[256];
    if (!inflate_payload(s, why, sizeof why))
        return damage(s, err, RECORDS_ERR_ZLIB, end, "zlib error in chunk", why);
    if (!check_games(s, why, sizeof why))
        return damage(s, err, RECORDS_ERR_MALFORMED, end, "malformed game record in chunk", why);
    s->pos = s->next = end;
    return SCAN_CHUNK;
}

ScanResult record_scanner_next(ChunkScanner *s, Error *err)
{
    if (s->pos >= s->size)
        return SCAN_END;
    s->offset = s->pos;
    ScanResult r = read_header(s, err);
    return r == SCAN_CHUNK ? read_payload(s, err) : r;
}

ScanResult record_scanner_next_header(ChunkScanner *s, Error *err)
{
    if (s->pos >= s->size)
        return SCAN_END;
    s->offset = s->pos;
    ScanResult r = read_header(s, err);
    if (r == SCAN_CHUNK)
        s->pos = s->next = s->offset + CHUNK_HEADER_BYTES + s->header.stored_bytes;
    return r;
}
