/*
 * weights.c - weights files on disk (see weights.h): loading, atomic saving, the compiled-in
 * defaults and the identity hash.  The parser is weights_parse.c.
 */
#include "weights.h"

#include "core/network.h"
#include "output_file.h"

#include "default_weights.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- loading ------------------------------------------------------------------------------------ */

/* Up to n bytes of fd into buf, again after EINTR; how many (fewer only at the end), or -1. */
static ssize_t read_upto(int fd, unsigned char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got > (1 << 30) ? 1 << 30 : n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* How many bytes the file may have, decided from its first bytes before the rest is read: a
 * table file (its magic) what its checked header declares, a text file WEIGHTS_MAX_FILE; and
 * refused at once when a regular file's size says it cannot be that (a 900 MB text file, an
 * endless device, is never read to its end). */
static bool size_limit(const char *path, const unsigned char *head, size_t n, const struct stat *st, size_t *limit,
                       Error *err)
{
    uint64_t declared = WEIGHTS_MAX_FILE;
    if (weights_is_table_file(head, n) && !weights_table_file_size(head, n, path, &declared, err))
        return false;
    bool table = weights_is_table_file(head, n);
    if (S_ISREG(st->st_mode) && (uint64_t)st->st_size != declared && (table || (uint64_t)st->st_size > declared)) {
        if (table)
            error_set(err, "%s: %s weights file (%lld bytes; the header says %llu)", path,
                      (uint64_t)st->st_size < declared ? "truncated" : "overlong", (long long)st->st_size,
                      (unsigned long long)declared);
        else
            error_set(err, "weights file '%s' is longer than %d bytes (%lld)", path, WEIGHTS_MAX_FILE,
                      (long long)st->st_size);
        return false;
    }
    *limit = (size_t)declared;
    return true;
}

/* The whole file in a new NUL-terminated buffer, once its first bytes have said how long it
 * may be (size_limit). */
static unsigned char *read_file(const char *path, size_t *size, Error *err)
{
    enum { HEAD = 68 };     /* a table file's fixed header and then some */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        error_set(err, "cannot read weights file '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    unsigned char head[HEAD], *buf = NULL;
    size_t limit = 0;
    ssize_t n = S_ISDIR(st.st_mode) ? (errno = EISDIR, -1) : read_upto(fd, head, HEAD), rest = 0;
    bool ok = n >= 0 && size_limit(path, head, (size_t)n, &st, &limit, err);
    if (ok && !(buf = malloc(limit + 2)))
        error_set(err, "cannot read weights file '%s': out of memory", path);
    if (buf) {
        memcpy(buf, head, (size_t)n);
        /* one byte past the limit tells a file that is too long from one that just fits */
        rest = (size_t)n < limit + 1 ? read_upto(fd, buf + n, limit + 1 - (size_t)n) : 0;
    }
    if (n < 0 || rest < 0)
        error_set(err, "cannot read weights file '%s': %s", path, strerror(errno));
    close(fd);
    if (!buf || rest < 0) {
        free(buf);
        return NULL;
    }
    *size = (size_t)n + (size_t)rest;
    buf[*size] = '\0';
    return buf;
}

/* The line number of the first NUL byte, which would otherwise end the text silently. */
static int line_of_nul(const char *buf, size_t size)
{
    int line = 1;
    for (size_t i = 0; i < size && buf[i]; i++)
        line += buf[i] == '\n';
    return line;
}

static bool parse_text_file(const Game *g, const char *text, size_t size, const char *path, Weights *out, Error *err)
{
    if (size > WEIGHTS_MAX_FILE) {
        error_set(err, "weights file '%s' is longer than %d bytes", path, WEIGHTS_MAX_FILE);
        return false;
    }
    if (strlen(text) != size) {
        error_set(err, "%s:%d: NUL byte (a weights file is text)", path, line_of_nul(text, size));
        return false;
    }
    return weights_parse(g, text, path, out, err);
}

bool weights_load(const Game *g, const char *path, Weights *out, Error *err)
{
    size_t size;
    unsigned char *bytes = read_file(path, &size, err);
    if (!bytes)
        return false;
    const bool ok = weights_is_table_file(bytes, size) ? weights_parse_tables(g, bytes, size, path, out, err)
                                                        : parse_text_file(g, (const char *)bytes, size, path, out, err);
    free(bytes);
    return ok;
}

/* --- saving ------------------------------------------------------------------------------------- */

/* Each line of the comment text as a '#' line; a line longer than a file's lines may be is cut
 * into several (a path in a command line can be 4,096 bytes), so that the file reads back. */
static void write_comments(FILE *f, const char *comments)
{
    enum { WIDTH = WEIGHTS_MAX_LINE - 2 };     /* after "# " */
    while (comments && *comments) {
        size_t len = strcspn(comments, "\n"), part = len > WIDTH ? WIDTH : len;
        fprintf(f, part ? "# %.*s\n" : "#\n", (int)part, comments);
        comments += part + (part == len && comments[len] == '\n');
    }
}

static void write_weights(FILE *f, const Game *g, const Weights *w, const char *comments)
{
    char id[17];
    weights_id_text(w, id);
    fprintf(f, "# leuctra weights (format: docs/WEIGHTS.md)\n");
    write_comments(f, comments);
    fprintf(f, "# id %s\ngame %s\n", id, g->name);
    for (int i = 0; i < w->count; i++)
        fprintf(f, "%s %.17g\n", g->ops->feature_names[i], w->w[i]);
}

/* The file's bytes: the text format, or a table file around it. */
static unsigned char *encode(const Game *g, const Weights *w, const char *comments, size_t *size)
{
    char *text = NULL;
    size_t text_size = 0;
    FILE *f = open_memstream(&text, &text_size);
    if (!f)
        return NULL;
    write_weights(f, g, w, comments);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    if (!w->tables && !w->policy && !w->net) {
        *size = text_size;
        return (unsigned char *)text;
    }
    unsigned char *bytes = weights_tables_encode(g, w, text, size);
    free(text);
    return bytes;
}

/* The first value beyond WEIGHTS_MAX_VALUE (which no file may hold) as "tables entry 5", or
 * false when all are within it. */
static bool beyond_limit(const Game *g, const Weights *w, char *what, size_t len)
{
    for (int i = 0; i < w->count; i++)
        if (!(fabs(w->w[i]) <= WEIGHTS_MAX_VALUE))
            return snprintf(what, len, "%s is %g", g->ops->feature_names[i], w->w[i]), true;
    const float *parts[2] = {w->tables, w->policy};
    const size_t counts[2] = {w->tables ? w->num_tables : 0, w->policy ? w->num_policy : 0};
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < counts[p]; i++)
            if (!(fabsf(parts[p][i]) <= WEIGHTS_MAX_VALUE))
                return snprintf(what, len, "%s entry %zu is %g", p ? "prior" : "table", i, (double)parts[p][i]), true;
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS];
    for (int a = 0, n = w->net ? network_arrays(w->net, arrays, lengths) : 0; a < n; a++)
        for (size_t i = 0; i < lengths[a]; i++)
            if (!(fabsf((*arrays[a])[i]) <= WEIGHTS_MAX_VALUE))
                return snprintf(what, len, "network weight %zu of array %d is %g", i, a, (double)(*arrays[a])[i]), true;
    return false;
}

bool weights_save(const Game *g, const Weights *w, const char *comments, const char *path, Error *err)
{
    char what[96];
    if (w->variant != g->variant || w->count != g->ops->num_features) {
        error_set(err, "cannot save '%s': the weights are not %s weights", path, g->name);
        return false;
    }
    if (beyond_limit(g, w, what, sizeof what)) {
        error_set(err, "cannot save '%s': %s, beyond +-%g (a fit that diverged?)", path, what, WEIGHTS_MAX_VALUE);
        return false;
    }
    size_t size;
    unsigned char *bytes = encode(g, w, comments, &size);
    if (!bytes) {
        error_set(err, "cannot save weights to '%s': out of memory", path);
        return false;
    }
    OutputFile out;
    Error why;
    bool ok = output_file_open(&out, path, &why);
    if (!ok)
        error_set(err, "cannot save weights: %s", why.msg);
    else if (!output_file_write(&out, bytes, size)) {
        error_set(err, "cannot save weights to '%s': %s", path, strerror(errno));
        output_file_discard(&out);
        ok = false;
    } else if (!output_file_commit(&out, &why)) {
        error_set(err, "cannot save weights: %s", why.msg);
        ok = false;
    }
    free(bytes);
    return ok;
}

/* --- defaults and identity ----------------------------------------------------------------------- */

/* The shipped weights of a game: its table file where the tables fit this board (a phalanx
 * game's tables are made for one board); else its text file, the linear weights fitted without
 * tables, which serve any board; else the table file's own linear part. */
bool weights_default(const Game *g, Weights *out)
{
    char source[64];
    snprintf(source, sizeof source, "built-in %s weights", g->name);
    const EmbeddedWeights *table = NULL, *text = NULL;
    for (int i = 0; i < weights_embedded_count; i++)
        if (strcmp(weights_embedded[i].game, g->name) == 0)
            *(weights_embedded[i].bytes ? &table : &text) = &weights_embedded[i];
    Error err;
    const size_t size = table ? (size_t)(table->end - table->bytes) : 0;
    if (table && weights_parse_tables(g, table->bytes, size, source, out, &err))
        return true;
    if (text)
        return weights_parse(g, text->text, source, out, &err);
    size_t len;
    const char *part = table ? weights_table_file_text(table->bytes, size, &len) : NULL;
    char *copy = part ? strndup(part, len) : NULL;
    const bool ok = copy && weights_parse(g, copy, source, out, &err);
    free(copy);
    return ok;
}

/* FNV-1a over the variant, the count and the bits of every value, byte by byte from the least
 * significant so the identity is the same on every machine.  Any change of any weight, however
 * small, changes it; 0 and -0 count as the same value. */
static uint64_t fnv_word(uint64_t h, uint64_t word)
{
    for (int b = 0; b < 8; b++)
        h = (h ^ (word >> (8 * b) & 0xFF)) * 0x100000001B3ull;
    return h;
}

static uint64_t hash_float(uint64_t h, float v)
{
    const float value = v == 0 ? 0.0f : v;
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return fnv_word(h, bits);
}

/* A network's part of the identity: its architecture, quantization and every weight (weights
 * without a network keep their old identity). */
static uint64_t network_id(uint64_t h, Network *net)
{
    const uint64_t shape[] = {net->input_set | (net->priors_only ? 256u : 0u), net->pattern_families,
                              net->pattern_id, (uint64_t)net->h,
                              (uint64_t)net->buckets, (uint64_t)net->num_inputs, (uint64_t)net->num_actions,
                              (uint64_t)net->shift1};
    for (size_t i = 0; i < sizeof shape / sizeof shape[0]; i++)
        h = fnv_word(h, shape[i]);
    h = hash_float(hash_float(h, net->scale_v), net->scale_e);
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS];
    for (int a = 0, n = network_arrays(net, arrays, lengths); a < n; a++)
        for (size_t i = 0; i < lengths[a]; i++)
            h = hash_float(h, (*arrays[a])[i]);
    return h;
}

uint64_t weights_id(const Weights *w)
{
    uint64_t h = fnv_word(fnv_word(0xCBF29CE484222325ull, (uint64_t)w->variant), (uint64_t)w->count);
    for (int i = 0; i < w->count && i < MAX_FEATURES; i++) {
        double value = w->w[i] == 0 ? 0.0 : w->w[i];
        uint64_t bits;
        memcpy(&bits, &value, sizeof bits);
        h = fnv_word(h, bits);
    }
    /* Tables and priors, where there are any (so weights without them keep their old identity). */
    const float *parts[2] = {w->tables, w->policy};
    const size_t counts[2] = {w->tables ? w->num_tables : 0, w->policy ? w->num_policy : 0};
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < counts[p]; i++) {
            const float value = parts[p][i] == 0 ? 0.0f : parts[p][i];
            uint32_t bits;
            memcpy(&bits, &value, sizeof bits);
            h = fnv_word(h, bits);
        }
    return w->net ? network_id(h, w->net) : h;
}

void weights_id_text(const Weights *w, char out[17])
{
    snprintf(out, 17, "%016" PRIx64, weights_id(w));
}
