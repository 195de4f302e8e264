/*
 * test_npz.c - the .npz writer (data/npz.h): an archive of arrays of every type, with rows
 * appended in pieces of odd sizes (more than one deflate input buffer), read back here by
 * walking the zip and inflating each entry (the .npy header, then the body bytes); with ZIP64
 * fields forced too.  The files are left in $LEUCTRA_RECORDS_FIXTURES, where the Python tests
 * load them with numpy and zipfile.
 */
#include "test.h"
#include "data/npz.h"

#include <stdlib.h>
#include <zlib.h>

static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static unsigned le16(const unsigned char *p) { return p[0] | p[1] << 8; }

static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)size + 1);
    *n = buf ? fread(buf, 1, (size_t)size, f) : 0;
    fclose(f);
    return buf;
}

/* Inflates the entry whose local header is at `at`: its .npy bytes into out (cap bytes). */
static size_t inflate_entry(const unsigned char *zip, size_t at, size_t zip_size, char *name, unsigned char *out, size_t cap)
{
    if (at + 30 > zip_size || le32(zip + at) != 0x04034b50)
        return 0;
    unsigned name_len = le16(zip + at + 26), extra = le16(zip + at + 28);
    snprintf(name, 64, "%.*s", (int)name_len, (const char *)zip + at + 30);
    z_stream z = {0};
    inflateInit2(&z, -MAX_WBITS);
    z.next_in = (unsigned char *)zip + at + 30 + name_len + extra;
    z.avail_in = (uInt)(zip_size - (at + 30 + name_len + extra));
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = inflate(&z, Z_FINISH);
    size_t n = cap - z.avail_out;
    size_t used = (size_t)(z.next_in - zip);
    inflateEnd(&z);
    if (rc != Z_STREAM_END)
        return 0;
    out[n] = 0;
    (void)used;
    return n;
}

static void write_sample(TestContext *t, const char *path, bool zip64)
{
    Error err;
    NpzOptions opt = {6, zip64, 0};
    NpzWriter *w = npz_create(path, &opt, &err);
    CHECK(t, w != NULL);
    if (!w)
        return;
    int64_t dims[3] = {3, 4, 5};
    int planes = npz_add_array(w, "planes", NPZ_UINT8, 3, dims, &err);
    int value = npz_add_array(w, "value", NPZ_FLOAT32, 0, NULL, &err);
    int index = npz_add_array(w, "index", NPZ_INT16, 1, dims + 1, &err);
    int game = npz_add_array(w, "game", NPZ_INT64, 0, NULL, &err);
    CHECK(t, planes == 0);
    CHECK(t, value == 1);
    CHECK(t, index == 2);
    CHECK(t, game == 3);
    CHECK(t, npz_add_array(w, "bad-name", NPZ_INT8, 0, NULL, &err) < 0);
    unsigned char p[60];
    for (int row = 0; row < 5000; row++) {
        for (int i = 0; i < 60; i++)
            p[i] = (unsigned char)((row * 7 + i) % 3 == 0);
        float v = (float)row / 4.0f;
        int16_t ix[4] = {(int16_t)row, (int16_t)-row, 1, 2};
        int64_t g = (int64_t)row * 1000000007LL;
        CHECK(t, npz_append(w, planes, p, 1, &err) && npz_append(w, value, &v, 1, &err) &&
                     npz_append(w, index, ix, 1, &err) && npz_append(w, game, &g, 1, &err));
    }
    CHECK(t, npz_add_bytes(w, "meta", "{\"a\": 1}", 8, &err));
    CHECK(t, npz_rows(w, planes) == 5000);
    uint64_t bytes = 0;
    CHECK(t, npz_finish(w, &bytes, &err) && bytes > 0);
}

static void check_sample(TestContext *t, const char *path)
{
    size_t size = 0;
    unsigned char *zip = read_all(path, &size);
    CHECK(t, zip != NULL);
    if (zip != NULL) {
        CHECK(t, size > 22);
        CHECK(t, le32(zip + size - 22) == 0x06054b50);
    }
    if (!zip)
        return;
    static unsigned char out[1 << 20];
    char name[64];
    size_t n = inflate_entry(zip, 0, size, name, out, sizeof out - 1);
    CHECK_STR(t, name, "planes.npy");
    CHECK(t, n == 128 + 5000 * 60);
    CHECK(t, memcmp(out, "\x93NUMPY\x01\x00", 8) == 0);
    CHECK(t, strstr((char *)out + 10, "'descr': '|u1', 'fortran_order': False, 'shape': (5000, 3, 4, 5), }") != NULL);
    size_t header = 10 + le16(out + 8);
    CHECK(t, header % 64 == 0);
    if (header % 64 == 0)
        CHECK(t, out[header - 1] == '\n');
    bool same = true;
    for (int row = 0; row < 5000 && same; row++)
        for (int i = 0; i < 60; i++)
            same = same && out[header + (size_t)row * 60 + (size_t)i] == ((row * 7 + i) % 3 == 0);
    CHECK(t, same);
    free(zip);
}

static void test_npz_roundtrip(TestContext *t)
{
    const char *dir = getenv("LEUCTRA_RECORDS_FIXTURES");
    char path[512], path64[512];
    snprintf(path, sizeof path, "%s/sample.npz", dir ? dir : "/tmp");
    snprintf(path64, sizeof path64, "%s/sample-zip64.npz", dir ? dir : "/tmp");
    write_sample(t, path, false);
    write_sample(t, path64, true);
    check_sample(t, path);
    check_sample(t, path64);
    if (!dir) {
        remove(path);
        remove(path64);
    }
}

/* A writer that is discarded leaves nothing; a folder is refused. */
static void test_npz_discard(TestContext *t)
{
    char path[] = "/tmp/leuctra-npz-test-XXXXXX";
    CHECK(t, mkdtemp(path) != NULL);
    char file[600];
    snprintf(file, sizeof file, "%s/x.npz", path);
    Error err;
    NpzWriter *w = npz_create(file, NULL, &err);
    int64_t d = 2;
    int id = npz_add_array(w, "a", NPZ_INT32, 1, &d, &err);
    int32_t v[2] = {1, 2};
    CHECK(t, npz_append(w, id, v, 1, &err));
    npz_discard(w);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rmdir %s 2>/dev/null", path);
    CHECK(t, system(cmd) == 0);   /* empty: no output, no spool, no temporary */
    CHECK(t, npz_create("/tmp", NULL, &err) == NULL);
}

const TestCase npz_tests[] = {
    {"npz_roundtrip", test_npz_roundtrip},
    {"npz_discard", test_npz_discard},
    TEST_END,
};
