/*
 * npz.c - the .npz writer (npz.h): per array a raw deflate stream spooled to an unlinked
 * temporary file, and at the end a zip archive (PKWARE APPNOTE 6.3, ZIP64 where needed) whose
 * entries are the arrays as .npy files (numpy's format 1.0).
 *
 * The .npy header holds the array's length, known only at the end, so each entry's deflate data
 * is the header as one stored (uncompressed) block, then the body's own stream: deflate blocks
 * may follow one another whatever their kind, and the body never refers back into the header.
 * The entry's CRC-32 joins the two with crc32_combine.  Dates are fixed (1980-01-01) so that the
 * same arrays give the same bytes.
 */
#include "npz.h"
#include "output_file.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Each array's rows wait in a buffer of INPUT_BUFFER bytes; when one is full, every array's
 * waiting rows are deflated at once, one array per thread (the bytes do not depend on the number
 * of threads: when deflate runs depends only on the data). */
enum { INPUT_BUFFER = 1 << 20, OUTPUT_BUFFER = 1 << 16, COPY_BUFFER = 1 << 20, NPY_HEADER_MAX = 256 };
#define ZIP32_LIMIT 0xFFFFFFFFull

typedef struct {
    char name[NPZ_NAME_MAX + 4];    /* NAME.npy */
    char descr[32];                 /* numpy's dtype string: "<f4", "|u1", "|S12" */
    size_t item_size, row_bytes;
    int ndim;
    int64_t dims[NPZ_MAX_DIMS];
    bool scalar;                    /* a 0-d array (npz_add_bytes): shape () */
    uint64_t rows, body_bytes, spooled;
    uint32_t crc;                   /* CRC-32 of the body */
    int spool;                      /* the unlinked temporary file, -1 when none yet */
    z_stream z;
    bool z_open;
    size_t pending;                 /* bytes waiting in `input` */
    unsigned char *input, *output;
    uint64_t offset;                /* where its local header starts in the archive */
    uint32_t entry_crc;
    uint64_t entry_size, entry_compressed;
} NpzArray;

struct NpzWriter {
    OutputFile out;
    NpzOptions opt;
    char spool_dir[OUTPUT_PATH_MAX];
    int count;
    NpzArray arrays[NPZ_MAX_ARRAYS];
    uint64_t written;               /* archive bytes written at finish */
};

static const struct {
    const char *descr;
    size_t size;
} types[] = {
    [NPZ_UINT8] = {"|u1", 1}, [NPZ_INT8] = {"|i1", 1}, [NPZ_INT16] = {"<i2", 2},
    [NPZ_INT32] = {"<i4", 4}, [NPZ_INT64] = {"<i8", 8}, [NPZ_FLOAT32] = {"<f4", 4},
};

/* --- spooling ------------------------------------------------------------------------------- */

static bool open_spool(NpzWriter *w, NpzArray *a, Error *err)
{
    char path[OUTPUT_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/.leuctra-npz.XXXXXX", w->spool_dir);
    a->spool = mkstemp(path);
    if (a->spool < 0) {
        error_failed(err, "%s: cannot make a spool file in %s: %s", w->out.name, w->spool_dir, strerror(errno));
        return false;
    }
    unlink(path);
    return true;
}

/* Runs deflate over what is pending with `flush` and writes its output to the spool. */
static bool deflate_pending(NpzWriter *w, NpzArray *a, int flush, Error *err)
{
    a->z.next_in = a->input;
    a->z.avail_in = (uInt)a->pending;
    int rc;
    do {
        a->z.next_out = a->output;
        a->z.avail_out = OUTPUT_BUFFER;
        rc = deflate(&a->z, flush);
        size_t n = OUTPUT_BUFFER - a->z.avail_out;
        if (rc == Z_STREAM_ERROR || (n && !output_write_all(a->spool, a->output, n))) {
            error_failed(err, "%s: writing the spool of %s: %s", w->out.name, a->name,
                      rc == Z_STREAM_ERROR ? "zlib stream error" : strerror(errno));
            return false;
        }
        a->spooled += n;
    } while (a->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    a->pending = 0;
    return true;
}

/* Deflates what waits in every array, in parallel; Z_FINISH ends every stream.  Plain threads
 * made for the occasion (a few dozen times a file) rather than OpenMP's, whose idle workers spin
 * while the caller makes the next rows. */
typedef struct {
    NpzWriter *w;
    int flush;
    atomic_int next;
    bool failed[NPZ_MAX_ARRAYS];
    Error errors[NPZ_MAX_ARRAYS];
} DeflateJob;

static void *deflate_worker(void *arg)
{
    DeflateJob *job = arg;
    for (int i; (i = atomic_fetch_add(&job->next, 1)) < job->w->count;) {
        NpzArray *a = &job->w->arrays[i];
        if (a->pending || job->flush == Z_FINISH)
            job->failed[i] = !deflate_pending(job->w, a, job->flush, &job->errors[i]);
    }
    return NULL;
}

static int deflate_threads(const NpzWriter *w)
{
    long cores = w->opt.threads > 0 ? w->opt.threads : sysconf(_SC_NPROCESSORS_ONLN);
    return (int)(cores < 1 ? 1 : cores > w->count ? w->count : cores);
}

static bool deflate_all(NpzWriter *w, int flush, Error *err)
{
    DeflateJob job = {.w = w, .flush = flush};
    atomic_init(&job.next, 0);
    pthread_t helpers[NPZ_MAX_ARRAYS];
    int started = 0;
    for (int t = 1; t < deflate_threads(w); t++, started++)
        if (pthread_create(&helpers[started], NULL, deflate_worker, &job) != 0)
            break;      /* fewer helpers: the work gets done all the same */
    deflate_worker(&job);
    for (int t = 0; t < started; t++)
        pthread_join(helpers[t], NULL);
    for (int i = 0; i < w->count; i++)
        if (job.failed[i]) {
            *err = job.errors[i];
            return false;
        }
    return true;
}

static bool add_body(NpzWriter *w, NpzArray *a, const unsigned char *bytes, size_t n, Error *err)
{
    a->crc = (uint32_t)crc32_z(a->crc, bytes, n);
    a->body_bytes += n;
    while (n) {
        size_t take = INPUT_BUFFER - a->pending < n ? INPUT_BUFFER - a->pending : n;
        memcpy(a->input + a->pending, bytes, take);
        a->pending += take;
        bytes += take;
        n -= take;
        if (a->pending == INPUT_BUFFER && !deflate_all(w, Z_NO_FLUSH, err))
            return false;
    }
    return true;
}

/* --- the writer ----------------------------------------------------------------------------- */

static void spool_folder(const OutputFile *o, char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    if (o->kind != OUTPUT_REPLACE) {
        snprintf(dir, len, "%s", tmp && *tmp ? tmp : "/tmp");
        return;
    }
    const char *slash = strrchr(o->target, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else
        snprintf(dir, len, "%.*s", slash == o->target ? 1 : (int)(slash - o->target), o->target);
}

NpzWriter *npz_create(const char *path, const NpzOptions *opt, Error *err)
{
    NpzWriter *w = calloc(1, sizeof *w);
    if (!w) {
        error_failed(err, "out of memory");
        return NULL;
    }
    w->opt = opt ? *opt : (NpzOptions){6, false, 0};
    if (!output_file_open(&w->out, path, err)) {
        free(w);
        return NULL;
    }
    spool_folder(&w->out, w->spool_dir, sizeof w->spool_dir);
    return w;
}

static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > NPZ_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9')))
            return false;
    return true;
}

static NpzArray *new_array(NpzWriter *w, const char *name, Error *err)
{
    if (w->count == NPZ_MAX_ARRAYS || !valid_name(name)) {
        error_set(err, "npz: %s '%s'", w->count == NPZ_MAX_ARRAYS ? "too many arrays at" : "bad array name", name);
        return NULL;
    }
    NpzArray *a = &w->arrays[w->count];
    memset(a, 0, sizeof *a);
    a->spool = -1;
    snprintf(a->name, sizeof a->name, "%s.npy", name);
    a->input = malloc(INPUT_BUFFER);
    a->output = malloc(OUTPUT_BUFFER);
    if (!a->input || !a->output ||
        deflateInit2(&a->z, w->opt.level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(a->input);
        free(a->output);
        error_failed(err, "out of memory");
        return NULL;
    }
    a->z_open = true;
    w->count++;
    if (!open_spool(w, a, err))
        return NULL;
    return a;
}

int npz_add_array(NpzWriter *w, const char *name, NpzType type, int ndim, const int64_t *dims, Error *err)
{
    if (ndim < 0 || ndim > NPZ_MAX_DIMS - 1) {
        error_set(err, "npz: array '%s' has too many dimensions", name);
        return -1;
    }
    NpzArray *a = new_array(w, name, err);
    if (!a)
        return -1;
    snprintf(a->descr, sizeof a->descr, "%s", types[type].descr);
    a->item_size = types[type].size;
    a->ndim = ndim;
    a->row_bytes = a->item_size;
    for (int i = 0; i < ndim; i++) {
        a->dims[i] = dims[i];
        a->row_bytes *= (size_t)dims[i];
    }
    return w->count - 1;
}

void npz_prefer_runs(NpzWriter *w, int id)
{
    NpzArray *a = &w->arrays[id];
    if (a->body_bytes == 0 && w->opt.level > 0)
        deflateParams(&a->z, w->opt.level, Z_RLE);
}

bool npz_append(NpzWriter *w, int id, const void *data, size_t rows, Error *err)
{
    NpzArray *a = &w->arrays[id];
    a->rows += rows;
    return add_body(w, a, data, rows * a->row_bytes, err);
}

bool npz_add_bytes(NpzWriter *w, const char *name, const char *bytes, size_t len, Error *err)
{
    NpzArray *a = new_array(w, name, err);
    if (!a)
        return false;
    snprintf(a->descr, sizeof a->descr, "|S%zu", len ? len : 1);
    a->scalar = true;
    a->item_size = a->row_bytes = len ? len : 1;
    a->rows = 1;
    return len ? add_body(w, a, (const unsigned char *)bytes, len, err) : add_body(w, a, (const unsigned char *)"", 1, err);
}

uint64_t npz_rows(const NpzWriter *w, int id) { return w->arrays[id].rows; }

uint64_t npz_spooled_bytes(const NpzWriter *w)
{
    uint64_t n = 0;
    for (int i = 0; i < w->count; i++)
        n += w->arrays[i].spooled;
    return n;
}

static void free_arrays(NpzWriter *w)
{
    for (int i = 0; i < w->count; i++) {
        NpzArray *a = &w->arrays[i];
        if (a->z_open)
            deflateEnd(&a->z);
        if (a->spool >= 0)
            close(a->spool);
        free(a->input);
        free(a->output);
    }
    w->count = 0;
}

void npz_discard(NpzWriter *w)
{
    if (!w)
        return;
    free_arrays(w);
    output_file_discard(&w->out);
    free(w);
}

/* --- the archive ---------------------------------------------------------------------------- */

/* numpy format 1.0: magic, version, header length, then the header dict padded with spaces
 * and a newline so that the data starts at a multiple of 64 bytes. */
static size_t npy_header(const NpzArray *a, unsigned char *out)
{
    char shape[160];
    size_t n = 0;
    if (!a->scalar) {
        n += (size_t)snprintf(shape + n, sizeof shape - n, "%llu,", (unsigned long long)a->rows);
        for (int i = 0; i < a->ndim; i++)
            n += (size_t)snprintf(shape + n, sizeof shape - n, " %lld,", (long long)a->dims[i]);
        if (a->ndim > 0)
            shape[--n] = '\0';  /* (N,) keeps its comma, (N, C, H, W) drops it */
    } else {
        shape[0] = '\0';
    }
    char dict[200];
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", a->descr, shape);
    size_t total = 10 + (size_t)len + 1, padded = (total + 63) / 64 * 64;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (unsigned char)((padded - 10) & 0xFF);
    out[9] = (unsigned char)((padded - 10) >> 8);
    memcpy(out + 10, dict, (size_t)len);
    memset(out + 10 + len, ' ', padded - total);
    out[padded - 1] = '\n';
    return padded;
}

typedef struct {
    unsigned char bytes[512];
    size_t n;
} Bytes;

static void put16(Bytes *b, unsigned v)
{
    b->bytes[b->n++] = (unsigned char)(v & 0xFF);
    b->bytes[b->n++] = (unsigned char)(v >> 8 & 0xFF);
}
static void put32(Bytes *b, uint32_t v)
{
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}
static void put64(Bytes *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}
static void put_bytes(Bytes *b, const void *p, size_t n)
{
    memcpy(b->bytes + b->n, p, n);
    b->n += n;
}

static uint32_t clamp32(uint64_t v, bool zip64) { return zip64 || v >= ZIP32_LIMIT ? 0xFFFFFFFFu : (uint32_t)v; }

enum { DOS_TIME = 0, DOS_DATE = (0 << 9) | (1 << 5) | 1 };     /* 1980-01-01 00:00 */

static bool entry_zip64(const NpzWriter *w, const NpzArray *a)
{
    return w->opt.zip64 || a->entry_size >= ZIP32_LIMIT || a->entry_compressed >= ZIP32_LIMIT;
}

static bool emit(NpzWriter *w, const void *bytes, size_t n, Error *err)
{
    if (!output_file_write(&w->out, bytes, n)) {
        error_failed(err, "%s: %s", w->out.name, strerror(errno));
        return false;
    }
    w->written += n;
    return true;
}

static bool copy_spool(NpzWriter *w, NpzArray *a, unsigned char *buf, Error *err)
{
    if (lseek(a->spool, 0, SEEK_SET) != 0) {
        error_failed(err, "%s: rereading the spool of %s: %s", w->out.name, a->name, strerror(errno));
        return false;
    }
    for (uint64_t left = a->spooled; left;) {
        ssize_t got = read(a->spool, buf, left < COPY_BUFFER ? (size_t)left : COPY_BUFFER);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            error_failed(err, "%s: rereading the spool of %s: %s", w->out.name, a->name,
                      got < 0 ? strerror(errno) : "cut short");
            return false;
        }
        if (!emit(w, buf, (size_t)got, err))
            return false;
        left -= (uint64_t)got;
    }
    return true;
}

/* The local header, the .npy header as a stored deflate block, the spooled body. */
static bool write_entry(NpzWriter *w, NpzArray *a, unsigned char *buf, Error *err)
{
    unsigned char header[NPY_HEADER_MAX];
    size_t hn = npy_header(a, header);
    unsigned char stored[5] = {0x00, (unsigned char)(hn & 0xFF), (unsigned char)(hn >> 8),
                               (unsigned char)(~hn & 0xFF), (unsigned char)(~hn >> 8 & 0xFF)};
    a->entry_crc = (uint32_t)crc32_combine64(crc32_z(0, header, hn), a->crc, (z_off64_t)a->body_bytes);
    a->entry_size = hn + a->body_bytes;
    a->entry_compressed = sizeof stored + hn + a->spooled;
    a->offset = w->written;
    bool zip64 = entry_zip64(w, a);
    Bytes b = {.n = 0};
    size_t name_len = strlen(a->name);
    put32(&b, 0x04034b50);
    put16(&b, zip64 ? 45 : 20);
    put16(&b, 0);
    put16(&b, 8);
    put16(&b, DOS_TIME);
    put16(&b, DOS_DATE);
    put32(&b, a->entry_crc);
    put32(&b, clamp32(a->entry_compressed, zip64));
    put32(&b, clamp32(a->entry_size, zip64));
    put16(&b, (unsigned)name_len);
    put16(&b, zip64 ? 20 : 0);
    put_bytes(&b, a->name, name_len);
    if (zip64) {
        put16(&b, 0x0001);
        put16(&b, 16);
        put64(&b, a->entry_size);
        put64(&b, a->entry_compressed);
    }
    return emit(w, b.bytes, b.n, err) && emit(w, stored, sizeof stored, err) && emit(w, header, hn, err) &&
           copy_spool(w, a, buf, err);
}

static bool write_central_entry(NpzWriter *w, const NpzArray *a, Error *err)
{
    bool zip64 = entry_zip64(w, a), far = w->opt.zip64 || a->offset >= ZIP32_LIMIT;
    Bytes b = {.n = 0};
    size_t name_len = strlen(a->name);
    unsigned extra = (zip64 ? 16 : 0) + (far ? 8 : 0);
    put32(&b, 0x02014b50);
    put16(&b, 3 << 8 | 45);     /* made by: Unix, 4.5 */
    put16(&b, zip64 || far ? 45 : 20);
    put16(&b, 0);
    put16(&b, 8);
    put16(&b, DOS_TIME);
    put16(&b, DOS_DATE);
    put32(&b, a->entry_crc);
    put32(&b, clamp32(a->entry_compressed, zip64));
    put32(&b, clamp32(a->entry_size, zip64));
    put16(&b, (unsigned)name_len);
    put16(&b, extra ? extra + 4 : 0);
    put16(&b, 0);
    put16(&b, 0);
    put16(&b, 0);
    put32(&b, 0100644u << 16);  /* a regular file, rw-r--r-- */
    put32(&b, clamp32(a->offset, far));
    put_bytes(&b, a->name, name_len);
    if (extra) {
        put16(&b, 0x0001);
        put16(&b, extra);
        if (zip64) {
            put64(&b, a->entry_size);
            put64(&b, a->entry_compressed);
        }
        if (far)
            put64(&b, a->offset);
    }
    return emit(w, b.bytes, b.n, err);
}

static bool write_end(NpzWriter *w, uint64_t directory, Error *err)
{
    uint64_t size = w->written - directory, entries = (uint64_t)w->count;
    bool zip64 = w->opt.zip64 || directory >= ZIP32_LIMIT || size >= ZIP32_LIMIT;
    Bytes b = {.n = 0};
    if (zip64) {
        uint64_t record = w->written;
        put32(&b, 0x06064b50);
        put64(&b, 44);
        put16(&b, 3 << 8 | 45);
        put16(&b, 45);
        put32(&b, 0);
        put32(&b, 0);
        put64(&b, entries);
        put64(&b, entries);
        put64(&b, size);
        put64(&b, directory);
        put32(&b, 0x07064b50);
        put32(&b, 0);
        put64(&b, record);
        put32(&b, 1);
    }
    put32(&b, 0x06054b50);
    put16(&b, 0);
    put16(&b, 0);
    put16(&b, (unsigned)entries);
    put16(&b, (unsigned)entries);
    put32(&b, clamp32(size, zip64));
    put32(&b, clamp32(directory, zip64));
    put16(&b, 0);
    return emit(w, b.bytes, b.n, err);
}

bool npz_finish(NpzWriter *w, uint64_t *bytes, Error *err)
{
    unsigned char *buf = malloc(COPY_BUFFER);
    bool ok = buf != NULL;
    if (!ok)
        error_failed(err, "out of memory");
    ok = ok && deflate_all(w, Z_FINISH, err);
    for (int i = 0; ok && i < w->count; i++)
        ok = write_entry(w, &w->arrays[i], buf, err);
    free(buf);
    uint64_t directory = w->written;
    for (int i = 0; ok && i < w->count; i++)
        ok = write_central_entry(w, &w->arrays[i], err);
    ok = ok && write_end(w, directory, err);
    free_arrays(w);
    if (ok && !output_file_commit(&w->out, err))
        ok = false;
    else if (!ok)
        output_file_discard(&w->out);
    if (ok && bytes)
        *bytes = w->written;
    free(w);
    return ok;
}
