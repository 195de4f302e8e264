/*
 * record_bytes.c - the byte-level pieces of the records format: a growable output buffer, a
 * reader that never reads past its end, LEB128 varints and record_zigzag for signed deltas, fixed
 * little-endian integers, CRC-32 (zlib's) and the error setter every record_*.c file uses.
 */
#include "record_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A varint of a uint64 takes at most 10 bytes (7 bits each). */
enum { VARINT_MAX_BYTES = 10 };

void record_buf_free(ByteBuf *b)
{
    free(b->data);
    *b = (ByteBuf){0};
}

bool record_buf_reserve(ByteBuf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    unsigned char *d = realloc(b->data, cap);
    if (!d) {
        b->failed = true;
        return false;
    }
    b->data = d;
    b->cap = cap;
    return true;
}

void record_buf_put(ByteBuf *b, const void *src, size_t n)
{
    if (n == 0 || !record_buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, src, n);
    b->len += n;
}

void record_buf_u8(ByteBuf *b, unsigned v)
{
    unsigned char c = (unsigned char)v;
    record_buf_put(b, &c, 1);
}

void record_buf_u16(ByteBuf *b, unsigned v)
{
    unsigned char c[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    record_buf_put(b, c, 2);
}

void record_buf_u32(ByteBuf *b, uint32_t v)
{
    unsigned char c[4];
    record_store_u32(c, v);
    record_buf_put(b, c, 4);
}

void record_buf_u64(ByteBuf *b, uint64_t v)
{
    unsigned char c[8];
    record_store_u64(c, v);
    record_buf_put(b, c, 8);
}

size_t record_varint_encode(uint64_t v, unsigned char out[10])
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (unsigned char)v;
    return n;
}

void record_buf_varint(ByteBuf *b, uint64_t v)
{
    unsigned char c[VARINT_MAX_BYTES];
    record_buf_put(b, c, record_varint_encode(v, c));
}

const unsigned char *record_rd_bytes(ByteReader *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    const unsigned char *p = r->p;
    r->p += n;
    return p;
}

unsigned record_rd_u8(ByteReader *r)
{
    const unsigned char *p = record_rd_bytes(r, 1);
    return p ? p[0] : 0;
}

unsigned record_rd_u16(ByteReader *r)
{
    const unsigned char *p = record_rd_bytes(r, 2);
    return p ? (unsigned)p[0] | (unsigned)p[1] << 8 : 0;
}

uint32_t record_rd_u32(ByteReader *r)
{
    const unsigned char *p = record_rd_bytes(r, 4);
    return p ? record_load_u32(p) : 0;
}

uint64_t record_rd_u64(ByteReader *r)
{
    const unsigned char *p = record_rd_bytes(r, 8);
    return p ? record_load_u64(p) : 0;
}

/* Rejects varints longer than 10 bytes and a 10th byte with bits beyond 64. */
uint64_t record_rd_varint(ByteReader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < VARINT_MAX_BYTES; i++) {
        const unsigned char *p = record_rd_bytes(r, 1);
        if (!p)
            return 0;
        if (i == VARINT_MAX_BYTES - 1 && *p > 1)
            break;
        v |= (uint64_t)(*p & 0x7F) << (7 * i);
        if (!(*p & 0x80))
            return v;
    }
    r->bad = true;
    return 0;
}

uint32_t record_load_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t record_load_u64(const unsigned char *p)
{
    return (uint64_t)record_load_u32(p) | (uint64_t)record_load_u32(p + 4) << 32;
}

void record_store_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

void record_store_u64(unsigned char *p, uint64_t v)
{
    record_store_u32(p, (uint32_t)v);
    record_store_u32(p + 4, (uint32_t)(v >> 32));
}

/* Small magnitudes of either sign to small unsigned numbers: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ... */
uint64_t record_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

int64_t record_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

uint32_t record_crc32(const unsigned char *p, size_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt step = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, p, step);
        p += step;
        n -= step;
    }
    return (uint32_t)crc;
}

static bool records_kind_is_failure(RecordsErrorKind kind, const char *msg)
{
    switch (kind) {
    case RECORDS_ERR_EMPTY:
    case RECORDS_ERR_FOREIGN:
    case RECORDS_ERR_VERSION:
    case RECORDS_ERR_MISMATCH:
    case RECORDS_ERR_PATH:
        return false;
    case RECORDS_ERR_IO:    /* the errno text the message ends with says whose fault it is */
        return !strstr(msg, "No such file") && !strstr(msg, "is a directory");
    default:
        return true;
    }
}

void records_error(Error *e, RecordsErrorKind kind, uint64_t offset, const char *fmt, ...)
{
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    error_one_line(e->msg);
    e->failure = records_kind_is_failure(kind, e->msg);
    e->kind = (unsigned)kind;
    e->offset = offset;
    e->elsewhere = false;
}
