/*
 * tensor_shards.c - a set of .npz shards written apart and put in place as a whole
 * (tensor_shards.h): the names of a set, the temporary folder, the swap with the manifest last,
 * and the set's identity.
 */
#include "tensor_shards.h"
#include "output_file.h"
#include "records.h"
#include "core/utf8.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { INDEX_DIGITS = 5 };     /* TENSOR_SHARDS_MAX - 1 = 99999 */
static const char MANIFEST_SUFFIX[] = "-shards.json";

/* Where a set of output `out` lives: out with its links followed and without ".npz", the stem of
 * its files' names (STEM-00000.npz, STEM-shards.json), and its folder. */
typedef struct {
    char stem[OUTPUT_PATH_MAX];
    const char *base;                   /* the stem's last part */
    char dir[OUTPUT_PATH_MAX];
} SetPlace;

struct TensorShards {
    SetPlace at;
    char target[OUTPUT_PATH_MAX];       /* out with its links followed */
    char manifest[OUTPUT_PATH_MAX + 16];
    char temp[OUTPUT_PATH_MAX + 16];    /* the temporary folder */
    int lock;                           /* its descriptor, which holds its lock */
};

static bool place_of(const char *out, SetPlace *at, char *target, Error *err)
{
    bool exists;
    mode_t mode;
    if (!output_file_resolve(out, target, OUTPUT_PATH_MAX, &exists, &mode, err))
        return false;
    const char *slash = strrchr(target, '/');
    size_t n = strlen(target), name = slash ? (size_t)(slash + 1 - target) : 0;
    if (n - name > 4 && strcmp(target + n - 4, ".npz") == 0)
        n -= 4;
    memcpy(at->stem, target, n);
    at->stem[n] = '\0';
    at->base = at->stem + name;
    if (!slash)
        snprintf(at->dir, sizeof at->dir, ".");
    else
        snprintf(at->dir, sizeof at->dir, "%.*s", slash == target ? 1 : (int)(slash - target), target);
    return true;
}

/* Whether a folder entry is a shard of the set ("BASE-00042.npz"), and its index. */
static bool shard_index(const SetPlace *at, const char *entry, int *k)
{
    size_t n = strlen(at->base);
    if (strncmp(entry, at->base, n) != 0 || entry[n] != '-' || strlen(entry) != n + 1 + INDEX_DIGITS + 4 ||
        strcmp(entry + n + 1 + INDEX_DIGITS, ".npz") != 0)
        return false;
    *k = 0;
    for (int i = 0; i < INDEX_DIGITS; i++) {
        char c = entry[n + 1 + i];
        if (c < '0' || c > '9')
            return false;
        *k = *k * 10 + (c - '0');
    }
    return true;
}

static bool is_manifest(const SetPlace *at, const char *entry)
{
    size_t n = strlen(at->base);
    return strncmp(entry, at->base, n) == 0 && strcmp(entry + n, MANIFEST_SUFFIX) == 0;
}

/* --- the set's identity ---------------------------------------------------------------------- */

static void fnv(uint64_t *h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ p[i]) * 0x100000001B3ull;
}

/* A number as 8 bytes, least significant first: the id is the same on every machine. */
static void fnv_number(uint64_t *h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    fnv(h, b, sizeof b);
}

static bool hash_input(uint64_t *h, const char *path, Error *err)
{
    RecordsReader *rd = records_open(path, err);
    if (!rd)
        return false;
    const RecordsHeader *head = records_reader_header(rd);
    fnv(h, head->variant, strlen(head->variant) + 1);
    fnv_number(h, (uint64_t)head->width);
    fnv_number(h, (uint64_t)head->height);
    fnv(h, head->board, strlen(head->board) + 1);
    records_close(rd);
    RecordsChunk *chunks;
    size_t count;
    if (!records_chunks(path, &chunks, &count, err))
        return false;
    fnv_number(h, count);
    for (size_t i = 0; i < count; i++) {
        fnv_number(h, chunks[i].offset);
        fnv_number(h, chunks[i].games);
        fnv_number(h, chunks[i].crc);
    }
    free(chunks);
    return true;
}

bool tensor_shards_set_id(char *const *inputs, int n, const char *options, char id[TENSOR_SHARDS_ID], Error *err)
{
    uint64_t h = 0xCBF29CE484222325ull;
    char version[32];
    snprintf(version, sizeof version, "leuctra-tensor-shards %d", TENSOR_SHARDS_VERSION);
    fnv(&h, version, strlen(version) + 1);
    fnv(&h, options, strlen(options) + 1);
    for (int i = 0; i < n; i++)
        if (!hash_input(&h, inputs[i], err))
            return false;
    snprintf(id, TENSOR_SHARDS_ID, "%016llx", (unsigned long long)h);
    return true;
}

/* --- the set there now ----------------------------------------------------------------------- */

static bool add_name(char ***names, int *count, const char *path)
{
    char **grown = realloc(*names, (size_t)(*count + 1) * sizeof *grown);
    if (!grown)
        return false;
    *names = grown;
    return (grown[*count] = strdup(path)) != NULL && ++*count > 0;
}

bool tensor_shards_existing(const char *out, char ***names, int *count, Error *err)
{
    SetPlace at;
    char target[OUTPUT_PATH_MAX], path[TENSOR_SHARDS_PATH];
    *names = NULL;
    *count = 0;
    if (!place_of(out, &at, target, err))
        return false;
    DIR *d = opendir(at.dir);
    if (!d && errno == ENOENT)     /* no folder, no set: the output shows the folder missing */
        return true;
    if (!d) {
        error_failed(err, "%s: cannot read the folder: %s", at.dir, strerror(errno));
        return false;
    }
    bool ok = true;
    int k;
    for (struct dirent *e; ok && (e = readdir(d)) != NULL;) {
        if (!shard_index(&at, e->d_name, &k) && !is_manifest(&at, e->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", at.dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
            error_set(err, "%s is %s, not a file of the set to replace", path, output_file_type_name(st.st_mode));
            ok = false;
        } else if (!add_name(names, count, path)) {
            error_failed(err, "out of memory");
            ok = false;
        }
    }
    closedir(d);
    if (!ok) {              /* nothing for the caller to free after a failure */
        for (int i = 0; i < *count; i++)
            free((*names)[i]);
        free(*names);
        *names = NULL;
        *count = 0;
    }
    return ok;
}

/* --- writing a set --------------------------------------------------------------------------- */

TensorShards *tensor_shards_begin(const char *out, Error *err)
{
    TensorShards *s = calloc(1, sizeof *s);
    if (!s) {
        error_failed(err, "out of memory");
        return NULL;
    }
    if (!place_of(out, &s->at, s->target, err)) {
        free(s);
        return NULL;
    }
    snprintf(s->manifest, sizeof s->manifest, "%s%s", s->at.stem, MANIFEST_SUFFIX);
    s->lock = output_temp_folder_create(s->target, s->temp, sizeof s->temp);
    if (s->lock < 0) {
        error_failed(err, "cannot make a folder beside %s: %s", out, strerror(errno));
        free(s);
        return NULL;
    }
    return s;
}

void tensor_shards_path(const TensorShards *s, int k, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s-%05d.npz", s->temp, s->at.base, k);
}

/* The name shard k has once in place. */
static void final_name(const TensorShards *s, int k, char *buf, size_t len)
{
    snprintf(buf, len, "%s-%05d.npz", s->at.stem, k);
}

void tensor_shards_discard(TensorShards *s)
{
    if (!s)
        return;
    output_temp_folder_remove(s->lock, s->temp);
    free(s);
}

/* The manifest's text: the set, its files in order, and the caller's members. */
static char *manifest_text(const TensorShards *s, int count, const char *id, const char *members)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "{\"format\": \"leuctra-tensor-shards\", \"version\": %d, \"set\": \"%s\", \"shards\": %d, \"files\": [",
            TENSOR_SHARDS_VERSION, id, count);
    char name[OUTPUT_PATH_MAX + 16];
    for (int k = 0; k < count; k++) {
        snprintf(name, sizeof name, "%s-%05d.npz", s->at.base, k);
        fputs(k ? ", " : "", f);
        utf8_put_json(f, name);
    }
    fprintf(f, "]%s%s}\n", members && *members ? ", " : "", members ? members : "");
    return fclose(f) == 0 ? text : (free(text), NULL);
}

/* The manifest, written and synced in the temporary folder (renamed out of it last). */
static bool write_manifest(const TensorShards *s, const char *path, int count, const char *id, const char *members,
                           Error *err)
{
    char *text = manifest_text(s, count, id, members);
    if (!text) {
        error_failed(err, "out of memory");
        return false;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    bool ok = fd >= 0 && output_write_all(fd, text, strlen(text)) && fsync(fd) == 0;
    if (!ok)
        error_failed(err, "cannot write %s: %s", path, strerror(errno));
    if (fd >= 0 && close(fd) != 0 && ok) {
        error_failed(err, "cannot write %s: %s", path, strerror(errno));
        ok = false;
    }
    free(text);
    return ok;
}

/* The old set's shards from index `count` on. */
static bool remove_beyond(const TensorShards *s, int count, Error *err)
{
    char path[TENSOR_SHARDS_PATH];
    DIR *d = opendir(s->at.dir);
    if (!d) {
        error_failed(err, "%s: cannot read the folder: %s", s->at.dir, strerror(errno));
        return false;
    }
    bool ok = true;
    int k;
    for (struct dirent *e; ok && (e = readdir(d)) != NULL;) {
        if (!shard_index(&s->at, e->d_name, &k) || k < count)
            continue;
        snprintf(path, sizeof path, "%s/%s", s->at.dir, e->d_name);
        if (unlink(path) != 0 && errno != ENOENT) {
            error_failed(err, "cannot remove the old shard %s: %s", path, strerror(errno));
            ok = false;
        }
    }
    closedir(d);
    return ok;
}

static bool move(const char *from, const char *to, Error *err)
{
    if (rename(from, to) == 0)
        return true;
    error_failed(err, "cannot put %s in place: %s", to, strerror(errno));
    return false;
}

bool tensor_shards_commit(TensorShards *s, int count, const char *id, const char *members, Error *err)
{
    char from[TENSOR_SHARDS_PATH], to[TENSOR_SHARDS_PATH];
    snprintf(from, sizeof from, "%s/%s%s", s->temp, s->at.base, MANIFEST_SUFFIX);
    bool ok = write_manifest(s, from, count, id, members, err);
    /* from here the old set is no longer whole: its manifest goes first */
    if (ok && unlink(s->manifest) != 0 && errno != ENOENT) {
        error_failed(err, "cannot remove the old manifest %s: %s", s->manifest, strerror(errno));
        ok = false;
    }
    if (ok)
        output_file_sync_folder(s->manifest);
    for (int k = 0; ok && k < count; k++) {
        tensor_shards_path(s, k, from, sizeof from);
        final_name(s, k, to, sizeof to);
        ok = move(from, to, err);
    }
    ok = ok && remove_beyond(s, count, err);
    if (ok)
        output_file_sync_folder(s->manifest);
    /* the new set is whole: its manifest says so, last */
    snprintf(from, sizeof from, "%s/%s%s", s->temp, s->at.base, MANIFEST_SUFFIX);
    ok = ok && move(from, s->manifest, err);
    if (ok)
        output_file_sync_folder(s->manifest);
    tensor_shards_discard(s);
    return ok;
}
