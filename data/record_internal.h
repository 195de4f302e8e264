/*
 * record_internal.h - what the record_*.c files share and nothing else includes: growable byte
 * buffers and a bounds-checked byte reader (varints, little-endian integers), the encoding of one
 * game, the file header and chunk layouts of docs/FORMAT.md, the chunk scanner that every reader
 * (records_next, verify, resume, canonicalize, merge) walks a file with, and file helpers.
 */
#ifndef LEUCTRA_RECORD_INTERNAL_H
#define LEUCTRA_RECORD_INTERNAL_H

#include "data/records.h"

#include <stdarg.h>

enum {
    FILE_MAGIC_BYTES = 8,
    FILE_HEADER_FIXED = 16,             /* magic, version, reserved, body length */
    FILE_HEADER_MAX_BODY = 1 << 21,     /* names, board, 1 MiB of settings, room to spare */
    RECORDS_MAX_SETTINGS = 1 << 20,
    CHUNK_HEADER_BYTES = 32,
    CHUNK_MAX_BYTES = 64 << 20,         /* a sanity bound on both lengths of a chunk */
    CANONICAL_CHUNK_BYTES = 64 << 10,   /* canonical files close a chunk at this much raw data */
    RECORDS_ZLIB_LEVEL = 6,             /* fixed: the level is part of the bytes a run produces */
};

extern const unsigned char records_file_magic[FILE_MAGIC_BYTES];
extern const unsigned char records_chunk_magic[4];

/* ---------------------------------------------------------------- bytes */

typedef struct {
    unsigned char *data;
    size_t len, cap;
    bool failed;            /* an allocation failed; the contents are incomplete */
} ByteBuf;

void record_buf_free(ByteBuf *b);
bool record_buf_reserve(ByteBuf *b, size_t extra);
void record_buf_put(ByteBuf *b, const void *src, size_t n);
void record_buf_u8(ByteBuf *b, unsigned v);
void record_buf_u16(ByteBuf *b, unsigned v);
void record_buf_u32(ByteBuf *b, uint32_t v);
void record_buf_u64(ByteBuf *b, uint64_t v);
void record_buf_varint(ByteBuf *b, uint64_t v);
/* The LEB128 bytes of v into out; returns how many (1-10). */
size_t record_varint_encode(uint64_t v, unsigned char out[10]);

typedef struct {
    const unsigned char *p, *end;
    bool bad;               /* a read ran past the end or a varint was malformed */
} ByteReader;

unsigned record_rd_u8(ByteReader *r);
unsigned record_rd_u16(ByteReader *r);
uint32_t record_rd_u32(ByteReader *r);
uint64_t record_rd_u64(ByteReader *r);
uint64_t record_rd_varint(ByteReader *r);
/* n bytes from the reader (NULL and r->bad when fewer remain). */
const unsigned char *record_rd_bytes(ByteReader *r, size_t n);

uint32_t record_load_u32(const unsigned char *p);
uint64_t record_load_u64(const unsigned char *p);
void record_store_u32(unsigned char *p, uint32_t v);
void record_store_u64(unsigned char *p, uint64_t v);

uint64_t record_zigzag(int64_t v);
int64_t record_unzigzag(uint64_t v);

uint32_t record_crc32(const unsigned char *p, size_t n);


/* ---------------------------------------------------------------- one game (record_codec.c) */

/* Room for at least `plies` plies and `visits` visit entries (record_game.c). */
bool game_record_reserve(GameRecord *r, int plies, size_t visits);
/* A visit list in memory order (most visits first, ties by move code) or in stored order. */
void record_visits_sort(RecordVisit *v, size_t n);
/* The same order for a list already sorted by move code (as decoded): a stable sort by visits,
 * several times faster than record_visits_sort on the ~150-move lists of the phalanx games. */
void record_visits_sort_from_move_order(RecordVisit *v, size_t n);
void record_visits_sort_by_move(RecordVisit *v, size_t n);

/* Appends game r (its length prefix included) to out.  board is the header's board position:
 * a start equal to it is stored empty.  False with a reason in why when a field cannot be
 * stored (an invalid move code, a start that is too long, visits out of order). */
bool record_encode(const GameRecord *r, const char *board, int version, ByteBuf *out, char *why, size_t why_len);
/* Reads one game from in into out; an empty stored start becomes board.  False with a reason,
 * also for a field that the file's format version does not have. */
bool record_decode(ByteReader *in, const char *board, int version, GameRecord *out, char *why, size_t why_len);
/* The index of the game at p (its length prefix first) and the bytes it takes, prefix included;
 * false when the bytes do not hold a whole record. */
bool record_peek(const unsigned char *p, size_t avail, uint64_t *index, size_t *record_bytes);

/* ---------------------------------------------------------------- file header (record_header.c) */

bool record_header_encode(const RecordsHeader *h, ByteBuf *out);
/* Reads and checks the header at the start of fd; *end is where the first chunk begins. */
bool record_header_read(int fd, const char *path, RecordsHeader *h, uint64_t *end, Error *err);
bool record_header_copy(RecordsHeader *dst, const RecordsHeader *src);
/* The same variant and board (settings aside). */
bool record_header_same_board(const RecordsHeader *a, const RecordsHeader *b);

/* ---------------------------------------------------------------- chunks (record_chunk.c) */

typedef struct {
    uint32_t stored_bytes;      /* compressed payload bytes after the header */
    uint32_t raw_bytes;         /* payload bytes once inflated */
    uint32_t games;
    uint64_t first_index;
    uint32_t payload_crc;
} ChunkHeader;

/* Compresses `raw` (the encoded games) and appends header plus payload to out. */
bool record_chunk_build(const unsigned char *raw, size_t raw_len, uint32_t games, uint64_t first_index, ByteBuf *out);

/* Walks the chunks of an open file in order.  Each call gives one whole, checked chunk (its
 * games decoded once, so that a malformed one is caught here) or one piece of damage; after
 * damage it carries on with the next good chunk (the header CRC makes a false start unlikely). */
typedef struct {
    int fd;
    const char *path;
    uint64_t pos, size;
    ChunkHeader header;
    uint64_t offset;            /* where the last chunk or damage began */
    uint64_t next;              /* where the chunk after the last good one begins */
    ByteBuf stored, raw;        /* the last chunk's bytes, compressed and inflated */
    const char *board;          /* the header's board position, for decoding */
    int version;                /* the file's format version, for decoding */
    GameRecord scratch;
} ChunkScanner;

typedef enum { SCAN_CHUNK, SCAN_END, SCAN_DAMAGE, SCAN_FATAL } ScanResult;

void record_scanner_init(ChunkScanner *s, int fd, const char *path, uint64_t first_chunk, uint64_t size,
                  const RecordsHeader *h);
void record_scanner_free(ChunkScanner *s);
/* SCAN_DAMAGE and SCAN_FATAL (I/O, memory) describe themselves in *err. */
ScanResult record_scanner_next(ChunkScanner *s, Error *err);
/* The next chunk's header only (s->header, s->offset), checked; the payload is skipped. */
ScanResult record_scanner_next_header(ChunkScanner *s, Error *err);

/* ---------------------------------------------------------------- files (record_io.c) */

bool record_read_full_at(int fd, void *buf, size_t n, uint64_t offset, size_t *got);
bool record_write_full_at(int fd, const void *buf, size_t n, uint64_t offset);

/* ---------------------------------------------------------------- opening a file (record_header.c) */

/* A file opened for reading with its header: what every reading entry point starts with. */
typedef struct {
    int fd;
    uint64_t size, first_chunk;
    RecordsHeader header;
} OpenedFile;

bool record_open_file(const char *path, OpenedFile *f, Error *err);
void record_close_file(OpenedFile *f);

#endif
