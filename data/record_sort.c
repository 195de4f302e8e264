/*
 * record_sort.c - rewriting records files in canonical form: records_canonicalize (one file, at
 * the end of a run) and records_merge (shards into one file; records_merge_below keeps only the
 * games below an index, as a match stopped by its SPRT keeps the pairs it counted).
 *
 * The canonical file holds the games sorted by index, each index once, packed into chunks that
 * close after CANONICAL_CHUNK_BYTES of raw data; so its bytes depend only on the header and the
 * set of games, not on the order threads finished them in.  The rewrite first indexes every game
 * (32 bytes each, never the games themselves), sorts the index, then copies each game's encoded
 * bytes unchanged into the output, reading each input chunk once when the order allows (a
 * one-chunk cache per input).  The output is a temporary file renamed into place after fsync.
 */
#include "record_internal.h"
#include "output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

typedef struct {
    uint64_t index;
    uint64_t chunk;         /* offset of the chunk that holds the game */
    uint32_t input;         /* which input file */
    uint32_t within;        /* offset of the game in the chunk's inflated payload */
    uint32_t length;        /* its bytes, length prefix included */
} Entry;

typedef struct {
    int num_inputs;
    const char *const *paths;
    OpenedFile *files;
    ChunkScanner *scans;    /* one per input: the chunk cache */
    Entry *entries;
    size_t count, cap;
    bool refuse_different_duplicates;   /* merge: two different games with one index fail */
    uint64_t below;         /* games of this index or more are left out */
} Rewrite;

static int entry_order(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    if (x->input != y->input)
        return x->input < y->input ? -1 : 1;
    if (x->chunk != y->chunk)
        return x->chunk < y->chunk ? -1 : 1;
    return (x->within > y->within) - (x->within < y->within);
}

/* ---------------------------------------------------------------- inputs */

/* Readers take a shared lock, so that a file that a writer holds is not rewritten under it. */
static bool open_input(Rewrite *rw, int i, Error *err)
{
    if (!record_open_file(rw->paths[i], &rw->files[i], err))
        return false;
    if (flock(rw->files[i].fd, LOCK_SH | LOCK_NB) != 0) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: a writer has this file open", rw->paths[i]);
        record_close_file(&rw->files[i]);
        return false;
    }
    OpenedFile *f = &rw->files[i];
    record_scanner_init(&rw->scans[i], f->fd, rw->paths[i], f->first_chunk, f->size, &f->header);
    if (i > 0 && !record_header_same_board(&rw->files[0].header, &f->header)) {
        records_error(err, RECORDS_ERR_MISMATCH, 0, "%s: %s games on %s do not merge with %s's %s games on %s",
                      rw->paths[i], f->header.variant, f->header.board, rw->paths[0], rw->files[0].header.variant,
                      rw->files[0].header.board);
        return false;
    }
    return true;
}

static bool add_entry(Rewrite *rw, const Entry *e)
{
    if (rw->count == rw->cap) {
        size_t cap = rw->cap ? rw->cap * 2 : 4096;
        Entry *grown = realloc(rw->entries, cap * sizeof *grown);
        if (!grown)
            return false;
        rw->entries = grown;
        rw->cap = cap;
    }
    rw->entries[rw->count++] = *e;
    return true;
}

static bool index_chunk(Rewrite *rw, int input, const ChunkScanner *s)
{
    const unsigned char *start = s->raw.data, *p = start, *end = start + s->raw.len;
    while (p < end) {
        Entry e = {.chunk = s->offset, .input = (uint32_t)input, .within = (uint32_t)(p - start)};
        size_t used;
        if (!record_peek(p, (size_t)(end - p), &e.index, &used))
            return false;
        e.length = (uint32_t)used;
        if (e.index < rw->below && !add_entry(rw, &e))
            return false;
        p += used;
    }
    return true;
}

/* Indexes every game of one input; any damage refuses the rewrite (nothing is dropped silently). */
static bool index_input(Rewrite *rw, int input, Error *err)
{
    ChunkScanner *s = &rw->scans[input];
    for (;;) {
        ScanResult r = record_scanner_next(s, err);
        if (r == SCAN_END)
            return true;
        if (r != SCAN_CHUNK) {
            if (r == SCAN_DAMAGE)
                snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), " (not rewritten)");
            return false;
        }
        if (!index_chunk(rw, input, s)) {
            records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", rw->paths[input]);
            return false;
        }
    }
}

/* The encoded bytes of an indexed game, through the input's one-chunk cache. */
static const unsigned char *game_bytes(Rewrite *rw, const Entry *e, Error *err)
{
    ChunkScanner *s = &rw->scans[e->input];
    if (s->raw.len == 0 || s->offset != e->chunk || s->pos != s->next) {
        s->pos = e->chunk;
        ScanResult r = record_scanner_next(s, err);
        if (r != SCAN_CHUNK) {
            if (r == SCAN_END)
                records_error(err, RECORDS_ERR_IO, e->chunk, "%s: the file changed while rewritten", rw->paths[e->input]);
            return NULL;
        }
    }
    if ((uint64_t)e->within + e->length > s->raw.len) {
        records_error(err, RECORDS_ERR_IO, e->chunk, "%s: the file changed while rewritten", rw->paths[e->input]);
        return NULL;
    }
    return s->raw.data + e->within;
}

/* ---------------------------------------------------------------- output */

typedef struct {
    int fd;
    const char *path;
    ByteBuf batch;          /* raw games of the chunk being filled */
    uint32_t games;
    uint64_t first_index;
    ByteBuf chunk;
} Output;

static bool flush_batch(Output *o, Error *err)
{
    if (o->games == 0)
        return true;
    o->chunk.len = 0;
    if (!record_chunk_build(o->batch.data, o->batch.len, o->games, o->first_index, &o->chunk)) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: cannot compress a chunk", o->path);
        return false;
    }
    if (!output_write_all(o->fd, o->chunk.data, o->chunk.len)) {
        records_error(err, RECORDS_ERR_IO, 0, "%s: cannot write: %s", o->path, strerror(errno));
        return false;
    }
    o->batch.len = 0;
    o->games = 0;
    return true;
}

static bool output_game(Output *o, uint64_t index, const unsigned char *bytes, size_t len, Error *err)
{
    if (o->games == 0)
        o->first_index = index;
    record_buf_put(&o->batch, bytes, len);
    o->games++;
    if (o->batch.failed) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", o->path);
        return false;
    }
    return o->batch.len < CANONICAL_CHUNK_BYTES || flush_batch(o, err);
}

/* A later game with the index of the one kept: dropped if equal; for a merge, refused if not. */
static bool check_duplicate(Rewrite *rw, const Entry *kept, const ByteBuf *kept_bytes, const Entry *e,
                            Error *err)
{
    if (!rw->refuse_different_duplicates)
        return true;
    const unsigned char *b = game_bytes(rw, e, err);
    if (!b)
        return false;
    if (e->length == kept_bytes->len && memcmp(b, kept_bytes->data, e->length) == 0)
        return true;
    records_error(err, RECORDS_ERR_DUPLICATE, e->chunk, "%s and %s hold two different games with index %llu",
                  rw->paths[kept->input], rw->paths[e->input], (unsigned long long)e->index);
    return false;
}

static bool write_games(Rewrite *rw, Output *o, Error *err)
{
    ByteBuf kept_bytes = {0};
    const Entry *kept = NULL;
    bool ok = true;
    for (size_t i = 0; ok && i < rw->count; i++) {
        const Entry *e = &rw->entries[i];
        if (kept && kept->index == e->index) {
            ok = check_duplicate(rw, kept, &kept_bytes, e, err);
            continue;
        }
        const unsigned char *b = game_bytes(rw, e, err);
        kept = e;
        kept_bytes.len = 0;
        record_buf_put(&kept_bytes, b, b ? e->length : 0);
        ok = b && !kept_bytes.failed && output_game(o, e->index, b, e->length, err);
    }
    record_buf_free(&kept_bytes);
    return ok && flush_batch(o, err);
}

static bool write_output(Rewrite *rw, const char *out, const RecordsHeader *h, Error *err)
{
    OutputFile file;
    Error why;
    if (!output_file_open(&file, out, &why)) {
        records_error(err, RECORDS_ERR_PATH, 0, "%s", why.msg);
        return false;
    }
    Output o = {.path = out, .fd = file.fd};
    ByteBuf header = {0};
    bool ok = record_header_encode(h, &header) && output_write_all(o.fd, header.data, header.len);
    if (!ok)
        records_error(err, RECORDS_ERR_IO, 0, "%s: cannot write: %s", out, strerror(errno));
    ok = ok && write_games(rw, &o, err);
    record_buf_free(&header);
    record_buf_free(&o.batch);
    record_buf_free(&o.chunk);
    if (!ok) {
        output_file_discard(&file);
        return false;
    }
    if (!output_file_commit(&file, &why)) {
        records_error(err, RECORDS_ERR_IO, 0, "%s", why.msg);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the two entry points */

static void free_rewrite(Rewrite *rw)
{
    for (int i = 0; i < rw->num_inputs; i++) {
        if (rw->scans)
            record_scanner_free(&rw->scans[i]);
        if (rw->files && rw->files[i].header.settings)
            record_close_file(&rw->files[i]);
    }
    free(rw->files);
    free(rw->scans);
    free(rw->entries);
}

/* Opens and indexes every input and sorts the index. */
static bool prepare(Rewrite *rw, Error *err)
{
    rw->files = calloc((size_t)rw->num_inputs, sizeof *rw->files);
    rw->scans = calloc((size_t)rw->num_inputs, sizeof *rw->scans);
    if (!rw->files || !rw->scans) {
        records_error(err, RECORDS_ERR_MEMORY, 0, "out of memory");
        return false;
    }
    for (int i = 0; i < rw->num_inputs; i++)
        if (!open_input(rw, i, err) || !index_input(rw, i, err))
            return false;
    if (rw->count > 0)
        qsort(rw->entries, rw->count, sizeof *rw->entries, entry_order);
    return true;
}

bool records_canonicalize(const char *path, Error *err)
{
    /* rewritten in place: a file to read back and rename over, not stdout, a device or a FIFO */
    if (!records_path_check(path, err))
        return false;
    Rewrite rw = {.num_inputs = 1, .paths = &path, .below = UINT64_MAX};
    bool ok = prepare(&rw, err) && write_output(&rw, path, &rw.files[0].header, err);
    free_rewrite(&rw);
    return ok;
}

/* The merged settings: the inputs' own if they agree, else each line prefixed "shardN.". */
static char *merged_settings(const Rewrite *rw)
{
    bool same = true;
    for (int i = 1; i < rw->num_inputs; i++)
        same = same && strcmp(rw->files[i].header.settings, rw->files[0].header.settings) == 0;
    if (same)
        return strdup(rw->files[0].header.settings);
    ByteBuf b = {0};
    char line[64];
    snprintf(line, sizeof line, "merged=%d\n", rw->num_inputs);
    record_buf_put(&b, line, strlen(line));
    for (int i = 0; i < rw->num_inputs; i++) {
        for (const char *s = rw->files[i].header.settings; *s;) {
            size_t n = strcspn(s, "\n");
            if (n > 0) {
                snprintf(line, sizeof line, "shard%d.", i + 1);
                record_buf_put(&b, line, strlen(line));
                record_buf_put(&b, s, n);
                record_buf_u8(&b, '\n');
            }
            s += n + (s[n] == '\n');
        }
    }
    record_buf_u8(&b, '\0');
    return b.failed ? (record_buf_free(&b), NULL) : (char *)b.data;
}

bool records_merge(const char *out, const char *const *inputs, int num_inputs, Error *err)
{
    return records_merge_below(out, inputs, num_inputs, UINT64_MAX, err);
}

bool records_merge_below(const char *out, const char *const *inputs, int num_inputs, uint64_t below, Error *err)
{
    if (num_inputs < 1) {
        records_error(err, RECORDS_ERR_INVALID, 0, "merge: no input files");
        return false;
    }
    Rewrite rw = {.num_inputs = num_inputs, .paths = inputs, .refuse_different_duplicates = true, .below = below};
    bool ok = prepare(&rw, err);
    RecordsHeader h;
    memset(&h, 0, sizeof h);
    if (ok) {
        h = rw.files[0].header;
        for (int i = 1; i < num_inputs; i++)    /* a newer version reads the older one's games */
            h.version = rw.files[i].header.version > h.version ? rw.files[i].header.version : h.version;
        h.settings = merged_settings(&rw);
        if (!h.settings || strlen(h.settings) > RECORDS_MAX_SETTINGS) {
            records_error(err, RECORDS_ERR_INVALID, 0, "%s: the merged settings text is over 1 MiB", out);
            ok = false;
        }
    }
    ok = ok && write_output(&rw, out, &h, err);
    free(h.settings);
    free_rewrite(&rw);
    return ok;
}
