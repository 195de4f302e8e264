/*
 * test_records_file.c - records files on disk: write and read back, resume after a kill at every
 * byte of the last chunk, damage named by chunk offset (and read past), the messages for empty,
 * foreign, truncated and future-version files, concurrent appends, canonicalize and merge.
 *
 * With LEUCTRA_RECORDS_FIXTURES=DIR set, test `fixtures` also leaves files in DIR for the Python
 * reader's test (tests/cli/test_records.py), which tests/run.sh runs next.
 */
#include "data/output_file.h"
#include "data/record_internal.h"
#include "data/tensor_shards.h"
#include "record_sample.h"
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { PATH_LEN = 512 };

typedef struct {
    char dir[PATH_LEN / 2];
} TempDir;

static bool temp_dir(TestContext *t, TempDir *d)
{
    const char *base = getenv("TMPDIR");
    snprintf(d->dir, sizeof d->dir, "%s/leuctra-records-XXXXXX", base && *base ? base : "/tmp");
    bool ok = mkdtemp(d->dir) != NULL;
    CHECK(t, ok);
    return ok;
}

static void temp_path(const TempDir *d, const char *name, char *out)
{
    snprintf(out, PATH_LEN, "%s/%s", d->dir, name);
}

/* Files in the directory whose names contain `part` (temporary files left behind). */
static int count_files(const TempDir *d, const char *part)
{
    DIR *dir = opendir(d->dir);
    int n = 0;
    for (struct dirent *e; dir && (e = readdir(dir));)
        n += e->d_name[0] != '.' && strstr(e->d_name, part) != NULL;
    if (dir)
        closedir(dir);
    return n;
}

static void remove_dir(const TempDir *d)
{
    DIR *dir = opendir(d->dir);
    char path[PATH_LEN * 2];
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", d->dir, e->d_name);
        unlink(path);
    }
    if (dir)
        closedir(dir);
    rmdir(d->dir);
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n + 1);
    *len = b ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    return b;
}

static bool write_file(const char *path, const unsigned char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(b, 1, len, f) == len;
    return f && fclose(f) == 0 && ok;
}

static bool files_equal(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    unsigned char *x = read_file(a, &na), *y = read_file(b, &nb);
    bool same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static Game *new_game(TestContext *t, const char *variant)
{
    Error err = {0};
    Game *g = game_new(variant, 0, 0, &err);
    CHECK(t, g != NULL);
    return g;
}

static const SampleOptions FULL = {true, true, 120, true};

/* Creates path holding games `indices` (sample games of seed 1) in that order. */
static bool write_games(TestContext *t, const Game *g, const char *path, const uint64_t *indices, int n,
                        const SampleOptions *o)
{
    RecordsHeader h;
    Error err = {0};
    CHECK(t, records_header_init(&h, g, "seed=1\nvisits=800\n", &err));
    RecordsWriter *w = records_create(path, &h, &err);
    CHECK(t, w != NULL);
    if (!w)
        fprintf(stderr, "  create: %s\n", err.msg);
    GameRecord r;
    game_record_init(&r);
    bool ok = w != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = sample_game(g, 1, indices[i], o, &r) && records_append(w, &r, &err);
    ok = records_writer_close(w, &err) && ok;
    CHECK(t, ok);
    game_record_free(&r);
    records_header_free(&h);
    return ok;
}

/* Reads every game of path; checks they are sample games `indices` in that order. */
static void check_games(TestContext *t, const Game *g, const char *path, const uint64_t *indices, int n,
                        const SampleOptions *o)
{
    Error err = {0};
    RecordsReader *rd = records_open(path, &err);
    CHECK(t, rd != NULL);
    if (!rd) {
        fprintf(stderr, "  open: %s\n", err.msg);
        return;
    }
    GameRecord got, want;
    game_record_init(&got);
    game_record_init(&want);
    int count = 0, rc;
    while ((rc = records_next(rd, &got, &err)) == 1) {
        if (count < n) {
            sample_game(g, 1, indices[count], o, &want);
            CHECK_EQ_U64(t, got.index, want.index);
            CHECK(t, got.plies == want.plies);
            if (got.plies == want.plies)
                CHECK(t, strcmp(got.start, want.start) == 0);
            CHECK(t, got.num_visits == want.num_visits);
            CHECK(t, got.result == want.result);
        }
        count++;
    }
    CHECK(t, rc == 0);
    CHECK(t, count == n);
    game_record_free(&got);
    game_record_free(&want);
    records_close(rd);
}

/* ---------------------------------------------------------------- write and read */

static void test_write_read(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    static const char *const variants[3] = {"epaminondas", "crossings", "reversi"};
    uint64_t indices[6] = {0, 1, 2, 3, 10, 1000000007};
    for (int v = 0; v < 3; v++) {
        Game *g = new_game(t, variants[v]);
        char path[PATH_LEN];
        temp_path(&d, variants[v], path);
        char again[PATH_LEN + 8];
        snprintf(again, sizeof again, "%s.again", path);
        if (g && write_games(t, g, path, indices, 6, &FULL))
            check_games(t, g, path, indices, 6, &FULL);
        CHECK(t, g);
        if (g)
            CHECK(t, write_games(t, g, again, indices, 6, &FULL) && files_equal(path, again));  /* same games, same bytes */
        Error err = {0};
        RecordsReader *rd = records_open(path, &err);
        if (rd) {
            const RecordsHeader *h = records_reader_header(rd);
            CHECK_STR(t, h->variant, variants[v]);
            CHECK_STR(t, h->settings, "seed=1\nvisits=800\n");
            CHECK(t, g);
            if (g) {
                CHECK(t, h->width == g->width);
                CHECK(t, h->height == g->height);
            }
        }
        records_close(rd);
        game_free(g);
    }
    CHECK(t, count_files(&d, ".tmp.") == 0);
    remove_dir(&d);
}

static void test_create_refuses_existing(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "crossings");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    uint64_t one = 0;
    write_games(t, g, path, &one, 1, &FULL);
    RecordsHeader h;
    Error err = {0};
    records_header_init(&h, g, "", &err);
    CHECK(t, records_create(path, &h, &err) == NULL);
    CHECK(t, strstr(err.msg, "already exists") != NULL);
    Game *other = new_game(t, "reversi");
    RecordsHeader other_h;
    RecordsResumeInfo info;
    records_header_init(&other_h, other, "", &err);
    CHECK(t, records_resume(path, &other_h, &info, &err) == NULL && err.kind == RECORDS_ERR_MISMATCH);
    records_header_free(&other_h);
    game_free(other);
    check_games(t, g, path, &one, 1, &FULL);
    CHECK(t, count_files(&d, ".tmp.") == 0);
    records_header_free(&h);
    game_free(g);
    remove_dir(&d);
}

/* Two threads-worth of writers in one process: the second is refused by the lock. */
static void test_second_writer_refused(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "reversi");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    RecordsHeader h;
    Error err = {0};
    records_header_init(&h, g, "", &err);
    RecordsWriter *w = records_create(path, &h, &err);
    RecordsResumeInfo info;
    CHECK(t, w != NULL);
    CHECK(t, records_resume(path, &h, &info, &err) == NULL && strstr(err.msg, "another writer"));
    records_writer_close(w, &err);
    RecordsWriter *again = records_resume(path, &h, &info, &err);
    CHECK(t, again != NULL);
    if (again != NULL)
        CHECK(t, info.count == 0);
    records_writer_close(again, &err);
    records_resume_info_free(&info);
    records_header_free(&h);
    game_free(g);
    remove_dir(&d);
}

/* ---------------------------------------------------------------- resume after a kill */

/* The file as a killed writer could leave it: whole, then cut `cut` bytes into the last chunk.
 * Resume must keep the complete games, drop the partial one, and take new games after them. */
static void resume_after_cut(TestContext *t, const Game *g, const char *path, const unsigned char *whole,
                             size_t last_chunk, size_t cut, const uint64_t *indices, int n, const SampleOptions *last)
{
    CHECK(t, write_file(path, whole, last_chunk + cut));
    RecordsHeader h;
    Error err = {0};
    RecordsResumeInfo info;
    records_header_init(&h, g, "", &err);
    RecordsWriter *w = records_resume(path, &h, &info, &err);
    CHECK(t, w != NULL);
    if (!w) {
        fprintf(stderr, "  cut %zu: %s\n", cut, err.msg);
        records_header_free(&h);
        return;
    }
    CHECK(t, info.count == (size_t)n - 1);
    CHECK(t, info.truncated_bytes == cut);
    CHECK(t, info.truncated_at == last_chunk);
    CHECK_STR(t, info.header.settings, "seed=1\nvisits=800\n");
    GameRecord r;
    game_record_init(&r);
    sample_game(g, 1, indices[n - 1], last, &r);
    CHECK(t, records_append(w, &r, &err));
    CHECK(t, records_writer_close(w, &err));
    game_record_free(&r);
    records_resume_info_free(&info);
    records_header_free(&h);
}

static void test_resume_every_cut(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "crossings");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN], before[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    temp_path(&d, "before.lrec", before);
    uint64_t indices[4] = {5, 2, 9, 4};
    SampleOptions small = FULL;
    small.max_plies = 12;       /* a short last game keeps the every-byte loop quick */
    write_games(t, g, before, indices, 3, &FULL);
    size_t last_chunk = 0, len = 0;
    free(read_file(before, &last_chunk));
    unlink(before);
    write_games(t, g, path, indices, 3, &FULL);
    Error err = {0};
    RecordsResumeInfo info;
    RecordsWriter *w = records_resume(path, NULL, &info, &err);
    GameRecord r;
    game_record_init(&r);
    sample_game(g, 1, indices[3], &small, &r);
    CHECK(t, w);
    if (w)
        CHECK(t, records_append(w, &r, &err) && records_writer_close(w, &err));
    records_resume_info_free(&info);
    game_record_free(&r);
    unsigned char *whole = read_file(path, &len);
    CHECK(t, whole);
    if (whole)
        CHECK(t, len > last_chunk + CHUNK_HEADER_BYTES);
    for (size_t cut = 0; whole && cut < len - last_chunk; cut++) {
        resume_after_cut(t, g, path, whole, last_chunk, cut, indices, 4, &small);
        size_t again_len = 0;
        unsigned char *again = read_file(path, &again_len);
        CHECK(t, again);
        if (again) {
            CHECK(t, again_len == len);
            if (again_len == len)
                CHECK(t, memcmp(again, whole, len) == 0);
        }
        free(again);
    }
    free(whole);
    game_free(g);
    remove_dir(&d);
}

/* ---------------------------------------------------------------- damage */

/* The offsets of every chunk of a file (walking the chunk headers' lengths). */
static int chunk_offsets(const unsigned char *b, size_t len, size_t *out, int max)
{
    size_t at = FILE_HEADER_FIXED + record_load_u32(b + 12) + 4;
    int n = 0;
    while (at + CHUNK_HEADER_BYTES <= len && n < max) {
        out[n++] = at;
        at += CHUNK_HEADER_BYTES + record_load_u32(b + at + 4);
    }
    return n;
}

/* Reads a damaged file to the end; returns the games read and the damage met. */
static int read_through(const char *path, int *damage, uint64_t *first_offset, RecordsErrorKind *kind)
{
    Error err = {0};
    RecordsReader *rd = records_open(path, &err);
    GameRecord r;
    game_record_init(&r);
    int games = 0, rc;
    *damage = 0;
    while (rd && (rc = records_next(rd, &r, &err)) != 0) {
        if (rc == 1) {
            games++;
        } else if ((*damage)++ == 0) {
            *first_offset = err.offset;
            *kind = err.kind;
        }
    }
    game_record_free(&r);
    records_close(rd);
    return games;
}

static void check_verify(TestContext *t, const char *path, uint64_t offset, RecordsErrorKind kind)
{
    RecordsVerifyReport rep;
    Error err = {0};
    CHECK(t, records_verify(path, &rep, &err));
    CHECK(t, rep.num_damaged == 1);
    if (rep.num_damaged >= 1) {
        CHECK_EQ_U64(t, rep.damaged[0].offset, offset);
        CHECK(t, rep.damaged[0].kind == kind);
        char want[64];
        snprintf(want, sizeof want, "at offset %llu", (unsigned long long)offset);
        CHECK(t, strstr(rep.damaged[0].msg, want) != NULL);
    }
    records_verify_report_free(&rep);
}

static void damage_byte(TestContext *t, const char *path, const unsigned char *whole, size_t len, size_t at,
                        uint64_t chunk, RecordsErrorKind kind)
{
    unsigned char *copy = malloc(len);
    memcpy(copy, whole, len);
    copy[at] ^= 0x40;
    CHECK(t, write_file(path, copy, len));
    check_verify(t, path, chunk, kind);
    int damage = 0;
    uint64_t offset = 0;
    RecordsErrorKind got = RECORDS_OK;
    CHECK(t, read_through(path, &damage, &offset, &got) == 4);   /* every game but the damaged one */
    CHECK(t, damage == 1);
    CHECK(t, offset == chunk);
    CHECK(t, got == kind);
    Error err = {0};
    RecordsResumeInfo info;
    CHECK(t, records_resume(path, NULL, &info, &err) == NULL && err.offset == chunk);
    CHECK(t, !records_canonicalize(path, &err) && err.offset == chunk);
    size_t after_len = 0;
    unsigned char *after = read_file(path, &after_len);
    CHECK(t, after);
    if (after) {
        CHECK(t, after_len == len);
        if (after_len == len)
            CHECK(t, memcmp(after, copy, len) == 0);   /* refused: left alone */
    }
    free(after);
    free(copy);
}

static void test_damage(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "epaminondas");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN], damaged[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    temp_path(&d, "damaged.lrec", damaged);
    uint64_t indices[5] = {0, 1, 2, 3, 4};
    write_games(t, g, path, indices, 5, &FULL);
    size_t len = 0, at[8];
    unsigned char *whole = read_file(path, &len);
    int n = whole ? chunk_offsets(whole, len, at, 8) : 0;
    CHECK(t, n == 5);
    if (n == 5) {
        damage_byte(t, damaged, whole, len, at[2] + CHUNK_HEADER_BYTES + 9, at[2], RECORDS_ERR_CRC);
        damage_byte(t, damaged, whole, len, at[2] + 5, at[2], RECORDS_ERR_CHUNK);
        damage_byte(t, damaged, whole, len, at[1], at[1], RECORDS_ERR_CHUNK);
        CHECK(t, files_equal(path, path));
    }
    CHECK(t, count_files(&d, ".tmp.") == 0);
    free(whole);
    game_free(g);
    remove_dir(&d);
}

/* records_indices: a file's game indices ascending and distinct, read without a lock or a change,
 * and the same list that records_resume reports; a file damaged anywhere is refused. */
static void test_indices(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "crossings");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN], damaged[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    temp_path(&d, "damaged.lrec", damaged);
    uint64_t indices[5] = {7, 3, 9, 3, 0};
    write_games(t, g, path, indices, 5, &FULL);
    Error err = {0};
    RecordsResumeInfo info;
    CHECK(t, records_indices(path, &info, &err));
    CHECK(t, info.count == 4);
    if (info.count == 4) {
        CHECK(t, info.games == 5);
        if (info.games == 5)
            CHECK(t, strcmp(info.header.variant, "crossings") == 0);
    }
    const uint64_t want[4] = {0, 3, 7, 9};
    for (size_t i = 0; i < info.count && i < 4; i++)
        CHECK(t, info.indices[i] == want[i]);
    records_resume_info_free(&info);
    size_t len = 0, at[8];
    unsigned char *whole = read_file(path, &len);
    int n = whole ? chunk_offsets(whole, len, at, 8) : 0;
    CHECK(t, n == 5);
    if (n == 5) {
        whole[at[2] + CHUNK_HEADER_BYTES + 9] ^= 0x40;
        FILE *f = fopen(damaged, "wb");
        CHECK(t, f);
        if (f) {
            CHECK(t, fwrite(whole, 1, len, f) == len);
            CHECK(t, fclose(f) == 0);
        }
        CHECK(t, !records_indices(damaged, &info, &err) && err.kind == RECORDS_ERR_CRC && err.offset == at[2]);
    }
    free(whole);
    game_free(g);
    remove_dir(&d);
}

/* Random bytes flipped anywhere, and random cuts: every reader copes (no crash, no overrun under
 * the sanitizers), damage is reported at a chunk offset, and the good chunks are still read. */
static void test_random_damage(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "reversi");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN], bad[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    temp_path(&d, "bad.lrec", bad);
    uint64_t indices[6] = {0, 1, 2, 3, 4, 5};
    write_games(t, g, path, indices, 6, &FULL);
    size_t len = 0, at[8];
    unsigned char *whole = read_file(path, &len);
    int chunks = whole ? chunk_offsets(whole, len, at, 8) : 0;
    Rng rng = rng_seed(2024, 1);
    for (int trial = 0; whole && trial < 300; trial++) {
        unsigned char *copy = malloc(len);
        memcpy(copy, whole, len);
        size_t cut = trial % 3 == 0 ? rng_below(&rng, (uint32_t)len) : len;
        for (int k = 0; k < 1 + trial % 3; k++)
            copy[rng_below(&rng, (uint32_t)len)] ^= (unsigned char)(1 + rng_below(&rng, 255));
        write_file(bad, copy, cut);
        int damage = 0;
        uint64_t offset = 0;
        RecordsErrorKind kind = RECORDS_OK;
        int games = read_through(bad, &damage, &offset, &kind);
        CHECK(t, games <= 6);
        CHECK(t, damage == 0 || offset >= at[0]);
        bool at_chunk = damage == 0;
        for (int c = 0; c < chunks; c++)
            at_chunk = at_chunk || offset == at[c];
        CHECK(t, at_chunk || kind == RECORDS_ERR_CHUNK || kind == RECORDS_ERR_TRUNCATED);
        RecordsVerifyReport rep;
        Error err = {0};
        if (records_verify(bad, &rep, &err))
            CHECK(t, rep.games == (uint64_t)games);
        records_verify_report_free(&rep);
        free(copy);
    }
    free(whole);
    game_free(g);
    remove_dir(&d);
}

/* ---------------------------------------------------------------- files that are not whole */

static void check_open_fails(TestContext *t, const char *path, const unsigned char *b, size_t len,
                             RecordsErrorKind kind, const char *words)
{
    CHECK(t, write_file(path, b, len));
    Error err = {0};
    RecordsReader *rd = records_open(path, &err);
    CHECK(t, rd == NULL);
    if (rd == NULL) {
        CHECK(t, err.kind == kind);
        if (err.kind == kind) {
            CHECK(t, strstr(err.msg, words));
            CHECK(t, strstr(err.msg, path));
        }
    }
    /* The one Error says whose fault it is: a file that is not records (or not yet readable
     * ones) is the input's (exit 2), damage a failure (exit 1). */
    const bool input = kind == RECORDS_ERR_EMPTY || kind == RECORDS_ERR_FOREIGN || kind == RECORDS_ERR_VERSION;
    CHECK(t, err.failure == !input);
    if (rd || err.kind != kind || !strstr(err.msg, words))
        fprintf(stderr, "  got '%s' (kind %d) for %s\n", err.msg, (int)err.kind, words);
    records_close(rd);
    RecordsVerifyReport rep;
    CHECK(t, !records_verify(path, &rep, &err) && err.kind == kind);
    RecordsResumeInfo info;
    CHECK(t, records_resume(path, NULL, &info, &err) == NULL && err.kind == kind);
}

static void test_bad_files(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "reversi");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN], bad[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    temp_path(&d, "bad.lrec", bad);
    uint64_t indices[2] = {0, 1};
    write_games(t, g, path, indices, 2, &FULL);
    size_t len = 0, at[4];
    unsigned char *whole = read_file(path, &len);
    if (!whole || chunk_offsets(whole, len, at, 4) != 2) {
        CHECK(t, false);
        free(whole);
        game_free(g);
        return;
    }
    Error missing = {0};
    char nowhere[PATH_LEN];
    temp_path(&d, "missing.lrec", nowhere);
    CHECK(t, !records_open(nowhere, &missing) && missing.kind == RECORDS_ERR_IO && !missing.failure);
    check_open_fails(t, bad, whole, 0, RECORDS_ERR_EMPTY, "empty file");
    check_open_fails(t, bad, (const unsigned char *)"# leuctra weights\n", 18, RECORDS_ERR_FOREIGN, "not a leuctra records file");
    check_open_fails(t, bad, whole, 5, RECORDS_ERR_HEADER, "cut short");
    check_open_fails(t, bad, whole, at[0] - 1, RECORDS_ERR_HEADER, "cut short");
    unsigned char *copy = malloc(len);
    memcpy(copy, whole, len);
    copy[8] = 3;    /* a version this build does not know yet */
    check_open_fails(t, bad, copy, len, RECORDS_ERR_VERSION, "version 3 is not supported");
    memcpy(copy, whole, len);
    copy[20] ^= 1;
    check_open_fails(t, bad, copy, len, RECORDS_ERR_HEADER, "damaged file header");
    free(copy);
    /* Truncated inside the last chunk: readers name it; verify lists it. */
    CHECK(t, write_file(bad, whole, len - 3));
    int damage = 0;
    uint64_t offset = 0;
    RecordsErrorKind kind = RECORDS_OK;
    CHECK(t, read_through(bad, &damage, &offset, &kind) == 1);
    CHECK(t, damage == 1);
    CHECK(t, offset == at[1]);
    CHECK(t, kind == RECORDS_ERR_TRUNCATED);
    check_verify(t, bad, at[1], RECORDS_ERR_TRUNCATED);
    CHECK(t, write_file(bad, whole, at[1] + 7));
    check_verify(t, bad, at[1], RECORDS_ERR_TRUNCATED);
    free(whole);
    game_free(g);
    remove_dir(&d);
}

/* ---------------------------------------------------------------- threads, canonical form */

typedef struct {
    RecordsWriter *w;
    const Game *g;
    int first, step, count;
    bool ok;
} AppendJob;

static void *append_job(void *arg)
{
    AppendJob *j = arg;
    GameRecord r;
    game_record_init(&r);
    Error err;
    j->ok = true;
    for (int i = j->first; i < j->count; i += j->step)
        j->ok = j->ok && sample_game(j->g, 1, (uint64_t)i, &FULL, &r) && records_append(j->w, &r, &err);
    game_record_free(&r);
    return NULL;
}

/* Writes games 0..count-1 from `threads` threads (in whatever order they finish). */
static bool write_threaded(TestContext *t, const Game *g, const char *path, int count, int threads)
{
    RecordsHeader h;
    Error err = {0};
    records_header_init(&h, g, "seed=1\n", &err);
    RecordsWriter *w = records_create(path, &h, &err);
    records_header_free(&h);
    CHECK(t, w != NULL);
    if (!w)
        return false;
    pthread_t tid[8];
    AppendJob jobs[8];
    bool ok = true;
    for (int i = 0; i < threads; i++) {
        jobs[i] = (AppendJob){w, g, i, threads, count, false};
        pthread_create(&tid[i], NULL, append_job, &jobs[i]);
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
        ok = ok && jobs[i].ok;
    }
    CHECK(t, ok);
    return records_writer_close(w, &err) && ok;
}

static void test_threads_canonical(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "crossings");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char one[PATH_LEN], four[PATH_LEN];
    temp_path(&d, "one.lrec", one);
    temp_path(&d, "four.lrec", four);
    write_threaded(t, g, one, 40, 1);
    write_threaded(t, g, four, 40, 4);
    Error err = {0};
    CHECK(t, records_canonicalize(one, &err));
    CHECK(t, records_canonicalize(four, &err));
    CHECK(t, files_equal(one, four));
    uint64_t indices[40];
    for (int i = 0; i < 40; i++)
        indices[i] = (uint64_t)i;
    check_games(t, g, four, indices, 40, &FULL);
    size_t len = 0;
    unsigned char *before = read_file(four, &len);
    CHECK(t, records_canonicalize(four, &err));     /* a canonical file is its own canonical form */
    size_t len2 = 0;
    unsigned char *after = read_file(four, &len2);
    CHECK(t, before);
    if (before) {
        CHECK(t, after);
        if (after) {
            CHECK(t, len == len2);
            if (len == len2)
                CHECK(t, memcmp(before, after, len) == 0);
        }
    }
    free(before);
    free(after);
    CHECK(t, count_files(&d, ".tmp.") == 0);
    game_free(g);
    remove_dir(&d);
}

static void test_canonicalize_sorts_and_drops(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "epaminondas");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    uint64_t written[7] = {30, 4, 17, 4, 0, 30, 9}, sorted[5] = {0, 4, 9, 17, 30};
    write_games(t, g, path, written, 7, &FULL);
    Error err = {0};
    CHECK(t, records_canonicalize(path, &err));
    check_games(t, g, path, sorted, 5, &FULL);
    RecordsVerifyReport rep;
    CHECK(t, records_verify(path, &rep, &err) && rep.num_damaged == 0 && rep.games == 5 && rep.chunks >= 1);
    records_verify_report_free(&rep);
    CHECK(t, count_files(&d, ".tmp.") == 0);
    game_free(g);
    remove_dir(&d);
}

static void test_merge(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "reversi"), *other = new_game(t, "crossings");
    if (!g || !other || !temp_dir(t, &d)) {
        game_free(g);
        game_free(other);
        return;
    }
    char a[PATH_LEN], b[PATH_LEN], c[PATH_LEN], x[PATH_LEN], out[PATH_LEN];
    temp_path(&d, "a.lrec", a);
    temp_path(&d, "b.lrec", b);
    temp_path(&d, "c.lrec", c);
    temp_path(&d, "x.lrec", x);
    temp_path(&d, "out.lrec", out);
    uint64_t even[3] = {4, 0, 2}, odd[3] = {1, 3, 4}, all[5] = {0, 1, 2, 3, 4}, other_games[1] = {0};
    write_games(t, g, a, even, 3, &FULL);
    write_games(t, g, b, odd, 3, &FULL);      /* game 4 in both shards, the same game */
    write_games(t, other, x, other_games, 1, &FULL);
    Error err = {0};
    const char *ins[2] = {a, b};
    CHECK(t, records_merge(out, ins, 2, &err));
    check_games(t, g, out, all, 5, &FULL);
    /* A different game 4 in a third shard is refused, and nothing is written. */
    SampleOptions moves_only = {false, false, 60, false};
    uint64_t four[1] = {4};
    write_games(t, g, c, four, 1, &moves_only);
    const char *conflict[3] = {a, b, c};
    unlink(out);
    CHECK(t, !records_merge(out, conflict, 3, &err) && err.kind == RECORDS_ERR_DUPLICATE);
    CHECK(t, strstr(err.msg, "index 4") != NULL);
    CHECK(t, access(out, F_OK) != 0);
    const char *mixed[2] = {a, x};
    CHECK(t, !records_merge(out, mixed, 2, &err) && err.kind == RECORDS_ERR_MISMATCH);
    /* Below an index: the games from 3 on are left out (a match cut at its SPRT's pairs), and a
     * file merged into itself keeps the rest. */
    uint64_t first_three[3] = {0, 1, 2}, first_two[2] = {0, 1};
    CHECK(t, records_merge_below(out, ins, 2, 3, &err));
    check_games(t, g, out, first_three, 3, &FULL);
    const char *self[1] = {out};
    CHECK(t, records_merge_below(out, self, 1, 2, &err));
    check_games(t, g, out, first_two, 2, &FULL);
    CHECK(t, count_files(&d, ".tmp.") == 0);
    game_free(g);
    game_free(other);
    remove_dir(&d);
}

/* ---------------------------------------------------------------- fixtures for the Python test */

static void write_fixture(TestContext *t, const char *dir, const char *variant, const char *name,
                          const SampleOptions *o, int games)
{
    char path[PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    Game *g = new_game(t, variant);
    uint64_t indices[64];
    for (int i = 0; i < games && i < 64; i++)
        indices[i] = (uint64_t)(games - 1 - i) * 3;     /* out of order, as threads finish */
    if (g)
        write_games(t, g, path, indices, games, o);
    game_free(g);
}

/* Issue 47's record (record_sample.h): game 7 names a2-b2 in its visit list where the rules
 * write a2xb2.  Whole as a file: only a replay with the rules tells. */
static void write_wrong_capture_fixture(TestContext *t, const char *path)
{
    unlink(path);
    Error err = {0};
    Game *g = game_new("epaminondas", 3, 5, &err);
    RecordsHeader h;
    bool ok = g && records_header_init(&h, g, "crafted=issue 47\n", &err);
    CHECK(t, ok);
    if (!ok) {
        game_free(g);
        return;
    }
    RecordsWriter *w = records_create(path, &h, &err);
    GameRecord r;
    game_record_init(&r);
    ok = w != NULL;
    for (int k = 0; ok && k < SAMPLE_WRONG_CAPTURE_GAMES; k++)
        ok = sample_wrong_capture_visit(k, &r) && records_append(w, &r, &err);
    CHECK(t, records_writer_close(w, &err) && ok);
    game_record_free(&r);
    records_header_free(&h);
    game_free(g);
}

/* Issue 47: a visit move with the wrong capture mark passed verify, which checked the bytes only.
 * records_verify_games replays every game: game 7 is refused, by name and ply, its chunk
 * counted good; records_verify (merge's check of what it wrote) still looks at bytes alone. */
static void test_verify_replays_visits(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    char path[PATH_LEN], want[PATH_LEN + 200];
    temp_path(&d, "crafted.lrec", path);
    write_wrong_capture_fixture(t, path);
    RecordsVerifyReport rep;
    Error err = {0};
    CHECK(t, records_verify(path, &rep, &err) && rep.num_damaged == 0 && rep.games == 2);
    records_verify_report_free(&rep);
    CHECK(t, records_verify_games(path, &rep, &err));
    CHECK(t, rep.num_damaged == 1);
    CHECK(t, rep.num_refused == 1);
    CHECK(t, rep.games == 2);
    CHECK(t, rep.chunks == 2);
    if (rep.num_damaged == 1) {
        snprintf(want, sizeof want, "%s: game 7 ply 1: the visit list's notation is not the rules': a2-b2 (the rules "
                 "write a2xb2), in the chunk at offset %llu", path, (unsigned long long)rep.damaged[0].offset);
        CHECK_STR(t, rep.damaged[0].msg, want);
        CHECK(t, rep.damaged[0].kind == RECORDS_ERR_RULES);
        CHECK(t, rep.damaged[0].offset > 0);
    }
    records_verify_report_free(&rep);
    remove_dir(&d);
}

/* A set of shards (data/tensor_shards.h): its id is the content's and the options' (a copy of
 * an input under another name gives the same id, another file or option another), and a commit
 * leaves exactly the new set, manifest last; a folder among the old set's names is refused. */
static void test_shard_set(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "crossings");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char a[PATH_LEN], copy[PATH_LEN], b[PATH_LEN], out[PATH_LEN], old[PATH_LEN], path[TENSOR_SHARDS_PATH];
    temp_path(&d, "a.lrec", a);
    temp_path(&d, "copy.lrec", copy);
    temp_path(&d, "b.lrec", b);
    uint64_t first[2] = {0, 1}, other[2] = {0, 2};
    write_games(t, g, a, first, 2, &FULL);
    write_games(t, g, copy, first, 2, &FULL);
    write_games(t, g, b, other, 2, &FULL);
    char id[4][TENSOR_SHARDS_ID];
    Error err = {0};
    char *in[4] = {a, copy, b, a};
    for (int i = 0; i < 4; i++)
        CHECK(t, tensor_shards_set_id(in + i, 1, i == 3 ? "level=6" : "level=4", id[i], &err));
    CHECK(t, strcmp(id[0], id[1]) == 0);
    CHECK(t, strcmp(id[0], id[2]) != 0);
    CHECK(t, strcmp(id[0], id[3]) != 0);
    temp_path(&d, "x.npz", out);
    temp_path(&d, "x-00005.npz", old);
    CHECK(t, write_file(old, (const unsigned char *)"old", 3));
    TensorShards *set = tensor_shards_begin(out, &err);
    CHECK(t, set != NULL);
    for (int k = 0; set && k < 2; k++) {
        tensor_shards_path(set, k, path, sizeof path);
        CHECK(t, write_file(path, (const unsigned char *)"new", 3));
    }
    CHECK(t, set);
    if (set) {
        CHECK(t, count_files(&d, "x-") == 1);
        CHECK(t, tensor_shards_commit(set, 2, id[0], "\"games\": 2", &err));
    }
    CHECK(t, count_files(&d, "x-0000") == 2);
    CHECK(t, count_files(&d, "x-shards.json") == 1);
    CHECK(t, count_files(&d, ".tmp.") == 0);
    temp_path(&d, "x-shards.json", path);
    size_t len = 0;
    unsigned char *manifest = read_file(path, &len);
    CHECK(t, manifest);
    if (manifest) {
        CHECK(t, strstr((char *)manifest, id[0]));
        CHECK(t, strstr((char *)manifest, "\"shards\": 2"));
        CHECK(t, strstr((char *)manifest, "[\"x-00000.npz\", \"x-00001.npz\"]"));
        CHECK(t, strstr((char *)manifest, "\"games\": 2"));
    }
    free(manifest);
    char **names = NULL;
    int count = 0;
    CHECK(t, tensor_shards_existing(out, &names, &count, &err) && count == 3);
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
    CHECK(t, mkdir(old, 0755) == 0);
    CHECK(t, !tensor_shards_existing(out, &names, &count, &err) && strstr(err.msg, "is a folder") != NULL);
    rmdir(old);
    game_free(g);
    remove_dir(&d);
}

static void test_fixtures(TestContext *t)
{
    const char *dir = getenv("LEUCTRA_RECORDS_FIXTURES");
    if (!dir || !*dir)
        return;
    SampleOptions moves_only = {false, false, 300, true};
    write_fixture(t, dir, "epaminondas", "epaminondas.lrec", &FULL, 12);
    write_fixture(t, dir, "crossings", "crossings.lrec", &FULL, 12);
    write_fixture(t, dir, "reversi", "reversi.lrec", &FULL, 12);
    write_fixture(t, dir, "crossings", "moves-only.lrec", &moves_only, 20);
    char path[PATH_LEN];
    snprintf(path, sizeof path, "%s/wrong-capture-visit.lrec", dir);
    write_wrong_capture_fixture(t, path);
    snprintf(path, sizeof path, "%s/crossings.lrec", dir);
    Error err = {0};
    CHECK(t, records_canonicalize(path, &err));
}

/* A process that SIGINT, SIGTERM or SIGHUP ends while it writes a whole-file output (a rewrite,
 * tune's weights) leaves no temporary file, and still ends by that signal; a signal the process
 * ignores stays ignored (the temporary file stays until the process itself removes it). */
static void test_signal_removes_temp(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    char path[PATH_LEN];
    temp_path(&d, "out.txt", path);
    const int signals[] = {SIGTERM, SIGINT, SIGHUP};
    int left = 0;   /* temporary files that ignored signals leave */
    for (int i = 0; i < 4; i++) {
        int sig = i == 3 ? SIGHUP : signals[i];
        /* A run under nohup inherits SIGHUP ignored, and an ignored signal stays ignored. */
        struct sigaction now;
        bool ignored = i == 3 || (sigaction(sig, NULL, &now) == 0 && now.sa_handler == SIG_IGN);
        pid_t pid = fork();
        if (pid == 0) {
            if (ignored)
                signal(sig, SIG_IGN);
            OutputFile o;
            Error err;
            if (!output_file_open(&o, path, &err) || !output_file_write(&o, "half", 4))
                _exit(90);
            raise(sig);
            _exit(ignored ? 91 : 92);
        }
        int status = 0;
        CHECK(t, pid > 0);
        CHECK(t, waitpid(pid, &status, 0) == pid);
        left += ignored;
        if (ignored)
            CHECK(t, WIFEXITED(status) && WEXITSTATUS(status) == 91 && count_files(&d, ".tmp.") == left);
        else
            CHECK(t, WIFSIGNALED(status) && WTERMSIG(status) == sig && count_files(&d, ".tmp.") == left);
        CHECK(t, access(path, F_OK) != 0);
    }
    remove_dir(&d);
}

/* Resuming a records file removes the temporary files a killed rewrite of it left (exactly
 * PATH.tmp. and mkstemp's six characters), and says how many; no other file. */
static void test_resume_removes_stale_temps(TestContext *t)
{
    TempDir d;
    Game *g = new_game(t, "crossings");
    if (!g || !temp_dir(t, &d)) {
        game_free(g);
        return;
    }
    char path[PATH_LEN], other[PATH_LEN];
    temp_path(&d, "a.lrec", path);
    uint64_t one = 0;
    write_games(t, g, path, &one, 1, &FULL);
    const char *names[] = {"a.lrec.tmp.AbC123", "a.lrec.tmp.xyZ789", "a.lrec.tmp.toolong", "b.lrec.tmp.AbC123"};
    for (int i = 0; i < 4; i++) {
        temp_path(&d, names[i], other);
        int fd = open(other, O_CREAT | O_WRONLY, 0644);
        CHECK(t, fd >= 0);
        CHECK(t, write(fd, "x", 1) == 1);
        close(fd);
    }
    RecordsHeader h;
    Error err = {0};
    RecordsResumeInfo info;
    records_header_init(&h, g, "seed=1\nvisits=800\n", &err);
    RecordsWriter *w = records_resume(path, &h, &info, &err);
    CHECK(t, w != NULL);
    if (w != NULL)
        CHECK(t, info.stale_temps == 2);
    CHECK(t, count_files(&d, "a.lrec.tmp.") == 1);
    CHECK(t, count_files(&d, "b.lrec.tmp.") == 1);
    if (w) {
        records_resume_info_free(&info);
        CHECK(t, records_writer_close(w, &err));
    }
    records_header_free(&h);
    game_free(g);
    remove_dir(&d);
}

/* Issue 47: temporary files and folders that a killed process left ("OUT.tmp.XXXXXX") are what
 * a later run removes; a live writer's stay, whichever process it is (here this one: the locks of
 * two opens of one file exclude each other within a process too).  A writer that ended without
 * removing its own (a child's _exit, as SIGKILL) leaves them to the next. */
static void test_remove_stale_spares_live_temps(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    char path[PATH_LEN], live[PATH_LEN + 16], folder[PATH_LEN + 16], stale[PATH_LEN], stale_folder[PATH_LEN],
        inside[PATH_LEN + 16];
    temp_path(&d, "out.npz", path);
    int fd = output_temp_create(path, live, sizeof live, 0644);
    int folder_fd = output_temp_folder_create(path, folder, sizeof folder);
    CHECK(t, fd >= 0);
    CHECK(t, folder_fd >= 0);
    temp_path(&d, "out.npz.tmp.AbC123", stale);
    temp_path(&d, "out.npz.tmp.Fo1der", stale_folder);
    snprintf(inside, sizeof inside, "%s/out-00000.npz", stale_folder);
    CHECK(t, mkdir(stale_folder, 0755) == 0);
    CHECK(t, write_file(stale, (const unsigned char *)"x", 1) && write_file(inside, (const unsigned char *)"x", 1));
    CHECK(t, output_temp_remove_stale(path) == 2);
    CHECK(t, access(live, F_OK) == 0 && access(folder, F_OK) == 0);
    CHECK(t, access(stale, F_OK) != 0 && access(stale_folder, F_OK) != 0);
    pid_t child = fork();
    if (child == 0) {
        char mine[PATH_LEN + 16];
        _exit(output_temp_create(path, mine, sizeof mine, 0644) >= 0 ? 0 : 1);
    }
    int status = 0;
    CHECK(t, child > 0);
    CHECK(t, waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(t, count_files(&d, "out.npz.tmp.") == 3);
    CHECK(t, output_temp_remove_stale(path) == 1);
    close(fd);
    output_temp_done(live);
    close(folder_fd);
    CHECK(t, output_temp_remove_stale(path) == 2);
    CHECK(t, count_files(&d, ".tmp.") == 0);
    remove_dir(&d);
}

const TestCase records_file_tests[] = {
    {"write_read", test_write_read},
    {"create_refuses_existing", test_create_refuses_existing},
    {"second_writer_refused", test_second_writer_refused},
    {"resume_every_cut", test_resume_every_cut},
    {"damage", test_damage},
    {"bad_files", test_bad_files},
    {"indices", test_indices},
    {"random_damage", test_random_damage},
    {"threads_canonical", test_threads_canonical},
    {"canonicalize_sorts_and_drops", test_canonicalize_sorts_and_drops},
    {"merge", test_merge},
    {"signal_removes_temp", test_signal_removes_temp},
    {"resume_removes_stale_temps", test_resume_removes_stale_temps},
    {"remove_stale_spares_live_temps", test_remove_stale_spares_live_temps},
    {"verify_replays_visits", test_verify_replays_visits},
    {"shard_set", test_shard_set},
    {"fixtures", test_fixtures},
    TEST_END,
};
