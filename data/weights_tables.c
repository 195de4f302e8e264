/*
 * weights_tables.c - weights files with pattern tables and move priors (docs/WEIGHTS.md,
 * "Table files"): a fixed little-endian header, the linear weights as the text format, the
 * tables and priors as zlib-compressed float32, and CRC-32s of the header and of the whole file,
 * so that a truncated, damaged or mismatched file is refused with the reason instead of read.
 *
 *   bytes   what
 *   0-7     magic 89 'L' 'W' 'T' 0D 0A 1A 0A (a text transfer or an editor breaks it visibly)
 *   8-11    format version, 1
 *   12-19   the pattern set's id (0: no tables)
 *   20-23   phases
 *   24-27   canonical entries a phase
 *   28-35   the policy set's id (0: no priors)
 *   36-39   prior weights
 *   40-43   bytes of text
 *   44-47   bytes of the compressed values
 *   48-51   the pattern families of the tables (core/pattern.h; 0: the base set, as every file
 *           before the families has)
 *   52-55   version 2: bytes of the network section (0 in version 1: no network)
 *   56-59   reserved, 0
 *   60-63   CRC-32 of bytes 0-59
 *   64-     the text, then the compressed values (tables phase by phase, then the priors), then
 *           the network section (version 2)
 *   last 4  CRC-32 of everything before them
 *
 * A file is written as version 1 unless it has a network, so files without one keep their bytes.
 * The network section (docs/NETWORK.md):
 *
 *   0-3     "LNN1"
 *   4-7     input set (core/network.h: 1 patterns, 2 squares), + 256 for a network that gives
 *           priors only (no value head)
 *   8-11    pattern families of the inputs
 *   12-19   the inputs' pattern set id (0 without pattern inputs)
 *   20-23   H
 *   24-27   value buckets
 *   28-31   inputs
 *   32-35   actions
 *   36-39   the second layer's width (32)
 *   40-43   the second layer's shift (0-10)
 *   44-47   the first layer's shift (0-10)
 *   48-51   the value head's scale, float32
 *   52-55   the policy head's scale, float32
 *   56-59   bytes of the compressed weights that follow
 *   60-63   CRC-32 of bytes 0-59
 *   64-     the float32 weights, compressed: w1, b1, w2, b2, wv, bv, we, be (network_arrays)
 */
#include "weights.h"

#include "core/network.h"
#include "core/pattern.h"
#include "core/policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { HEADER_BYTES = 64, FORMAT_VERSION = 1, NETWORK_VERSION = 2, NETWORK_HEADER = 64, TEXT_MAX = 1 << 20,
       PRIORS_ONLY_FLAG = 256 };

const unsigned char weights_tables_magic[8] = {0x89, 'L', 'W', 'T', 0x0D, 0x0A, 0x1A, 0x0A};

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const unsigned char *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t crc_of(const unsigned char *p, size_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        const uInt step = n > (1u << 30) ? 1u << 30 : (uInt)n;
        crc = crc32(crc, p, step);
        p += step;
        n -= step;
    }
    return (uint32_t)crc;
}

bool weights_is_table_file(const unsigned char *bytes, size_t size)
{
    return size >= sizeof weights_tables_magic && memcmp(bytes, weights_tables_magic, sizeof weights_tables_magic) == 0;
}

/* ---------------------------------------------------------------- reading */

typedef struct {
    uint64_t pattern_id, policy_id;
    uint32_t phases, per_phase, policy_size, text_bytes, packed_bytes, families, network_bytes;
} Header;

/* The fixed header alone (the first `size` bytes of a file): its checksum, version, reserved
 * bytes and the length of the text, and the file's size as it declares it. */
static bool read_fixed_header(const unsigned char *b, size_t size, const char *source, Header *h, uint64_t *declared,
                              Error *err)
{
    if (size < HEADER_BYTES + 4) {
        error_set(err, "%s: truncated weights file (%zu bytes; the header alone is %d)", source, size, HEADER_BYTES);
        return false;
    }
    if (get_u32(b + 60) != crc_of(b, 60)) {
        error_set(err, "%s: damaged weights file (header checksum mismatch)", source);
        return false;
    }
    const uint32_t version = get_u32(b + 8);
    if (version != FORMAT_VERSION && version != NETWORK_VERSION) {
        error_set(err, "%s: weights file format version %u (this build reads versions %d and %d)", source, version,
                  FORMAT_VERSION, NETWORK_VERSION);
        return false;
    }
    /* Reserved for later versions, which may give them meaning: a version-1 file has zeros. */
    for (int i = version == FORMAT_VERSION ? 52 : 56; i < 60; i++)
        if (b[i] != 0) {
            error_set(err, "%s: damaged weights file (reserved header byte %d is %u, not 0)", source, i, b[i]);
            return false;
        }
    *h = (Header){get_u64(b + 12), get_u64(b + 28), get_u32(b + 20), get_u32(b + 24), get_u32(b + 36),
                  get_u32(b + 40), get_u32(b + 44), get_u32(b + 48), version == NETWORK_VERSION ? get_u32(b + 52) : 0};
    if (version == NETWORK_VERSION && h->network_bytes < NETWORK_HEADER) {
        error_set(err, "%s: damaged weights file (a version-2 file with a network section of %u bytes)", source,
                  h->network_bytes);
        return false;
    }
    if (h->families > PATTERN_ALL_FAMILIES || (h->families && !h->pattern_id)) {
        error_set(err, "%s: damaged weights file (pattern families %u%s)", source, h->families,
                  h->pattern_id ? ", not a mask of the known ones" : " without tables");
        return false;
    }
    if (h->text_bytes > TEXT_MAX) {
        error_set(err, "%s: the text part is %u bytes (at most %d)", source, h->text_bytes, TEXT_MAX);
        return false;
    }
    *declared = (uint64_t)HEADER_BYTES + h->text_bytes + h->packed_bytes + h->network_bytes + 4;
    if (*declared > WEIGHTS_MAX_TABLE_FILE) {
        error_set(err, "%s: the header says %llu bytes, more than a table file may have (%d)", source,
                  (unsigned long long)*declared, WEIGHTS_MAX_TABLE_FILE);
        return false;
    }
    return true;
}

bool weights_table_file_size(const unsigned char *bytes, size_t size, const char *source, uint64_t *declared,
                             Error *err)
{
    Header h;
    return read_fixed_header(bytes, size < HEADER_BYTES + 4 ? size : HEADER_BYTES + 4, source, &h, declared, err);
}

static bool read_header(const unsigned char *b, size_t size, const char *source, Header *h, Error *err)
{
    uint64_t want;
    if (!read_fixed_header(b, size, source, h, &want, err))
        return false;
    if (size != want) {
        error_set(err, "%s: %s weights file (%zu bytes; the header says %llu)", source, size < want ? "truncated" : "overlong",
                  size, (unsigned long long)want);
        return false;
    }
    if (get_u32(b + size - 4) != crc_of(b, size - 4)) {
        error_set(err, "%s: damaged weights file (checksum mismatch)", source);
        return false;
    }
    return true;
}

/* The game the file's text names on its `game` line (the first line that is no comment), into
 * name; false when there is none. */
static bool text_game(const unsigned char *b, const Header *h, char *name, size_t len)
{
    const char *p = (const char *)b + HEADER_BYTES, *end = p + h->text_bytes;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = eol ? eol : end;
        while (p < line_end && (*p == ' ' || *p == '\t'))
            p++;
        if (p < line_end && *p != '#' && *p != '\r') {
            size_t n = 0;
            if ((size_t)(line_end - p) > 5 && strncmp(p, "game ", 5) == 0)
                for (p += 5; p + n < line_end && n + 1 < len && (unsigned char)p[n] > ' '; n++)
                    name[n] = p[n];
            name[n] = '\0';
            return n > 0;
        }
        p = line_end + 1;
    }
    return false;
}

/* Whether game g's sets are the ones the header names. */
static bool sets_fit(const Game *g, const Header *h)
{
    const PatternSet *ps = pattern_set_with(g, h->families);
    const PolicySet *pol = policy_set_of(g);
    bool tables = !h->pattern_id || (ps && h->pattern_id == ps->id && h->phases == (uint32_t)ps->num_phases &&
                                     h->per_phase == ps->canonical_phase_size);
    bool priors = !h->policy_id || (pol && h->policy_id == pol->id && h->policy_size == pol->size);
    return tables && priors;
}

/* What the file was made for, in words: "reversi 8x8", the game its text names and the board
 * whose sets have the header's ids (boards up to 26x26 are tried: this runs only to explain a
 * refusal); "crossings on another board" when none has them; "another game's" without a name. */
static void made_for(const unsigned char *b, const Header *h, char *out, size_t len)
{
    char name[32];
    snprintf(out, len, "another game's");
    if (!text_game(b, h, name, sizeof name))
        return;
    snprintf(out, len, "%s on another board", name);
    for (int w = 1; w <= 26; w++)
        for (int r = 1; r <= 26; r++) {
            Game *g = game_new(name, w, r, NULL);
            bool fits = g && (g->width == w && g->height == r) && sets_fit(g, h);
            if (fits)
                snprintf(out, len, "%s %dx%d", name, w, r);
            game_free(g);
            if (fits)
                return;
        }
}

/* The header's tables and priors against the game's sets; a refusal names the game and board
 * the file is for. */
static bool check_shapes(const Game *g, const unsigned char *b, const Header *h, const char *source, Error *err)
{
    if (sets_fit(g, h))
        return true;
    if (h->pattern_id && !pattern_set_with(g, h->families)) {
        char shapes[64];
        pattern_families_format(h->families, shapes, sizeof shapes);
        error_set(err, "%s: the file has pattern tables of the shapes %s, which %s %dx%d has not", source, shapes,
                  g->name, g->width, g->height);
        return false;
    }
    char origin[96];
    made_for(b, h, origin, sizeof origin);
    const PatternSet *ps = pattern_set_with(g, h->families);
    const bool tables = h->pattern_id && !(ps && ps->id == h->pattern_id);
    error_set(err, "%s: the %s are for %s, not %s %dx%d (pattern set %016llx, prior set %016llx)", source,
              tables ? "pattern tables" : "move priors", origin, g->name, g->width, g->height,
              (unsigned long long)h->pattern_id, (unsigned long long)h->policy_id);
    return false;
}

/* Inflates exactly `count` float32 values of `what` ("table", "network"). */
static bool unpack_values(const unsigned char *packed, size_t packed_bytes, float *out, size_t count,
                          const char *source, const char *what, Error *err)
{
    unsigned char *raw = malloc(count * 4 + 1);
    if (!raw) {
        error_set(err, "%s: out of memory for the %s values", source, what);
        return false;
    }
    uLongf raw_len = (uLongf)(count * 4 + 1);
    uLong used = (uLong)packed_bytes;
    const int rc = uncompress2(raw, &raw_len, packed, &used);
    bool ok = rc == Z_OK && raw_len == count * 4;
    if (!ok)
        error_set(err, "%s: damaged weights file (the %s values do not inflate to %zu)", source, what, count);
    else if (used != packed_bytes) {
        /* the header's length is the stream's: bytes after its end are no part of the file's tables */
        error_set(err, "%s: damaged weights file (%zu bytes after the end of the compressed %s values)", source,
                  packed_bytes - (size_t)used, what);
        ok = false;
    }
    for (size_t i = 0; ok && i < count; i++) {
        const uint32_t bits = get_u32(raw + 4 * i);
        memcpy(&out[i], &bits, sizeof bits);
        if (!isfinite(out[i])) {
            error_set(err, "%s: %s value %zu is not finite", source, what, i);
            ok = false;
        } else if (fabsf(out[i]) > WEIGHTS_MAX_VALUE) {
            error_set(err, "%s: %s value %zu is %g, beyond +-%g", source, what, i, (double)out[i], WEIGHTS_MAX_VALUE);
            ok = false;
        }
    }
    free(raw);
    return ok;
}

/* ---------------------------------------------------------------- the network section */

/* What the section's header says. */
typedef struct {
    uint32_t input_set, families, h, buckets, inputs, actions, l2, w2_shift, shift1, packed_bytes;
    uint64_t pattern_id;
    float scale_v, scale_e;
} NetworkHeader;

static float get_f32(const unsigned char *p)
{
    const uint32_t bits = get_u32(p);
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static bool read_network_header(const unsigned char *b, size_t size, const char *source, NetworkHeader *n, Error *err)
{
    if (memcmp(b, "LNN1", 4) != 0 || get_u32(b + 60) != crc_of(b, 60))
        return error_set(err, "%s: damaged weights file (the network section's header is not whole)", source);
    *n = (NetworkHeader){get_u32(b + 4), get_u32(b + 8), get_u32(b + 20), get_u32(b + 24), get_u32(b + 28),
                         get_u32(b + 32), get_u32(b + 36), get_u32(b + 40), get_u32(b + 44), get_u32(b + 56),
                         get_u64(b + 12), get_f32(b + 48), get_f32(b + 52)};
    if (n->packed_bytes != size - NETWORK_HEADER)
        return error_set(err, "%s: damaged weights file (the network section has %zu bytes of weights, its header "
                         "says %u)", source, size - NETWORK_HEADER, n->packed_bytes);
    if (n->l2 != NETWORK_L2)
        return error_set(err, "%s: the network's second layer is %u wide; this build's is %d", source, n->l2,
                         NETWORK_L2);
    if (n->shift1 > NETWORK_MAX_SHIFT || n->w2_shift > NETWORK_MAX_SHIFT || !(n->scale_v > 0 && n->scale_v <= 4096) ||
        !(n->scale_e > 0 && n->scale_e <= 4096))
        return error_set(err, "%s: damaged weights file (the network's quantization: shifts %u and %u, scales %g and "
                         "%g)", source, n->shift1, n->w2_shift, (double)n->scale_v, (double)n->scale_e);
    return true;
}

/* The section's architecture against the network this build makes for g from it. */
static bool network_matches(const Network *net, const NetworkHeader *n, const char *source, Error *err)
{
    if (net->pattern_id != n->pattern_id)
        return error_set(err, "%s: the network's pattern inputs are for the pattern set %016llx, not this board's "
                         "%016llx", source, (unsigned long long)n->pattern_id, (unsigned long long)net->pattern_id);
    if ((uint32_t)net->num_inputs != n->inputs || (uint32_t)net->num_actions != n->actions ||
        (uint32_t)net->buckets != n->buckets)
        return error_set(err, "%s: the network has %u inputs, %u actions and %u value buckets; this board's has %d, "
                         "%d and %d", source, n->inputs, n->actions, n->buckets, net->num_inputs, net->num_actions,
                         net->buckets);
    return true;
}

static bool read_network(const Game *g, const unsigned char *b, size_t size, const char *source, Weights *out,
                         Error *err)
{
    NetworkHeader n = {0};
    if (!read_network_header(b, size, source, &n, err))
        return false;
    Network *net = calloc(1, sizeof *net);
    Error why;
    if (!net)
        return error_set(err, "%s: out of memory for the network", source);
    if (!network_init(net, g, n.input_set & ~(uint32_t)PRIORS_ONLY_FLAG, n.families, (int)n.h, &why)) {
        free(net);
        return error_set(err, "%s: %s", source, why.msg);
    }
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS], count = 0;
    const int parts = network_arrays(net, arrays, lengths);
    for (int i = 0; i < parts; i++)
        count += lengths[i];
    float *values = network_matches(net, &n, source, err) ? malloc(count * sizeof *values) : NULL;
    bool ok = values && unpack_values(b + NETWORK_HEADER, n.packed_bytes, values, count, source, "network", err);
    for (size_t at = 0, i = 0; ok && i < (size_t)parts; at += lengths[i], i++)
        memcpy(*arrays[i], values + at, lengths[i] * sizeof *values);
    free(values);
    net->priors_only = (n.input_set & PRIORS_ONLY_FLAG) != 0;
    if (ok && !network_quantize_as(net, (int)n.shift1, (int)n.w2_shift, n.scale_v, n.scale_e))
        ok = error_set(err, "%s: out of memory for the network", source);
    if (!ok) {
        network_free(net);
        free(net);
        return false;
    }
    out->net = net;
    return true;
}

/* The section for net: its header and compressed weights, malloc'd, *size bytes; NULL on no memory. */
static unsigned char *encode_network(Network *net, size_t *size)
{
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS], count = 0;
    const int parts = network_arrays(net, arrays, lengths);
    for (int i = 0; i < parts; i++)
        count += lengths[i];
    unsigned char *raw = malloc(count * 4 + 1);
    uLongf packed = compressBound((uLong)(count * 4));
    unsigned char *out = malloc(NETWORK_HEADER + packed);
    bool ok = raw && out;
    for (size_t at = 0, i = 0; ok && i < (size_t)parts; i++)
        for (size_t k = 0; k < lengths[i]; k++, at++) {
            uint32_t bits;
            memcpy(&bits, &(*arrays[i])[k], sizeof bits);
            put_u32(raw + 4 * at, bits);
        }
    ok = ok && compress2(out + NETWORK_HEADER, &packed, raw, (uLong)(count * 4), 9) == Z_OK;
    free(raw);
    if (!ok) {
        free(out);
        return NULL;
    }
    memset(out, 0, NETWORK_HEADER);
    memcpy(out, "LNN1", 4);
    const uint32_t fields[] = {net->input_set | (net->priors_only ? PRIORS_ONLY_FLAG : 0), net->pattern_families};
    put_u32(out + 4, fields[0]);
    put_u32(out + 8, fields[1]);
    put_u64(out + 12, net->pattern_id);
    put_u32(out + 20, (uint32_t)net->h);
    put_u32(out + 24, (uint32_t)net->buckets);
    put_u32(out + 28, (uint32_t)net->num_inputs);
    put_u32(out + 32, (uint32_t)net->num_actions);
    put_u32(out + 36, NETWORK_L2);
    put_u32(out + 40, (uint32_t)net->shift2);
    put_u32(out + 44, (uint32_t)net->shift1);
    uint32_t bits;
    memcpy(&bits, &net->scale_v, sizeof bits);
    put_u32(out + 48, bits);
    memcpy(&bits, &net->scale_e, sizeof bits);
    put_u32(out + 52, bits);
    put_u32(out + 56, (uint32_t)packed);
    put_u32(out + 60, crc_of(out, 60));
    *size = NETWORK_HEADER + packed;
    return out;
}

bool weights_parse_tables(const Game *g, const unsigned char *b, size_t size, const char *source, Weights *out,
                          Error *err)
{
    Header h;
    if (!read_header(b, size, source, &h, err) || !check_shapes(g, b, &h, source, err))
        return false;
    char *text = malloc((size_t)h.text_bytes + 1);
    if (!text) {
        error_set(err, "%s: out of memory", source);
        return false;
    }
    memcpy(text, b + HEADER_BYTES, h.text_bytes);
    text[h.text_bytes] = '\0';
    bool ok = strlen(text) == h.text_bytes;
    if (!ok)
        error_set(err, "%s: NUL byte in the text part", source);
    ok = ok && weights_parse(g, text, source, out, err);
    free(text);
    if (!ok)
        return false;
    const size_t tables = (size_t)h.phases * h.per_phase * (h.pattern_id != 0);
    const size_t count = tables + (h.policy_id ? h.policy_size : 0);
    float *values = malloc((count ? count : 1) * sizeof *values);
    if (!values || !unpack_values(b + HEADER_BYTES + h.text_bytes, h.packed_bytes, values, count, source, "table", err)) {
        if (!values)
            error_set(err, "%s: out of memory", source);
        free(values);
        return false;
    }
    if (h.pattern_id) {
        const PatternSet *ps = pattern_set_with(g, h.families);
        out->num_tables = (size_t)ps->num_phases * ps->raw_phase_size;
        out->tables = malloc(out->num_tables * sizeof *out->tables);
        if (out->tables)
            pattern_expand(ps, values, out->tables);
        out->pattern_id = ps->id;
        out->pattern_families = ps->families;
    }
    if (h.policy_id) {
        out->num_policy = h.policy_size;
        out->policy = malloc((size_t)h.policy_size * sizeof *out->policy);
        if (out->policy)
            memcpy(out->policy, values + tables, (size_t)h.policy_size * sizeof *out->policy);
        out->policy_id = h.policy_id;
    }
    free(values);
    if ((h.pattern_id && !out->tables) || (h.policy_id && !out->policy)) {
        weights_dispose(out);
        error_set(err, "%s: out of memory for the tables", source);
        return false;
    }
    if (h.network_bytes &&
        !read_network(g, b + HEADER_BYTES + h.text_bytes + h.packed_bytes, h.network_bytes, source, out, err)) {
        weights_dispose(out);
        return false;
    }
    return true;
}

const char *weights_table_file_text(const unsigned char *bytes, size_t size, size_t *len)
{
    if (size < HEADER_BYTES || get_u32(bytes + 60) != crc_of(bytes, 60))
        return NULL;
    *len = get_u32(bytes + 40);
    return *len <= size - HEADER_BYTES ? (const char *)bytes + HEADER_BYTES : NULL;
}

/* ---------------------------------------------------------------- writing */

/* The whole file in memory: header, text, packed values, checksum.  NULL on no memory. */
unsigned char *weights_tables_encode(const Game *g, const Weights *w, const char *text, size_t *size)
{
    const PatternSet *ps = w->tables ? pattern_set_with(g, w->pattern_families) : NULL;
    const PolicySet *pol = w->policy ? policy_set_of(g) : NULL;
    const size_t tables = ps ? (size_t)ps->num_phases * ps->canonical_phase_size : 0;
    const size_t count = tables + (pol ? pol->size : 0);
    unsigned char *raw = malloc(count * 4 + 1);
    float *canonical = malloc((tables ? tables : 1) * sizeof *canonical);
    const size_t text_bytes = strlen(text);
    uLongf packed_bytes = compressBound((uLong)(count * 4));
    size_t network_bytes = 0;
    unsigned char *network = w->net ? encode_network(w->net, &network_bytes) : NULL;
    unsigned char *out = malloc(HEADER_BYTES + text_bytes + packed_bytes + network_bytes + 4);
    bool ok = raw && canonical && out && (network || !w->net);
    if (ok) {
        if (ps)
            pattern_compress(ps, w->tables, canonical);
        for (size_t i = 0; i < count; i++) {
            const float v = i < tables ? canonical[i] : w->policy[i - tables];
            uint32_t bits;
            memcpy(&bits, &v, sizeof bits);
            put_u32(raw + 4 * i, bits);
        }
        ok = compress2(out + HEADER_BYTES + text_bytes, &packed_bytes, raw, (uLong)(count * 4), 9) == Z_OK;
    }
    free(raw);
    free(canonical);
    if (!ok) {
        free(network);
        free(out);
        return NULL;
    }
    memset(out, 0, HEADER_BYTES);
    memcpy(out, weights_tables_magic, sizeof weights_tables_magic);
    put_u32(out + 8, network ? NETWORK_VERSION : FORMAT_VERSION);
    put_u64(out + 12, ps ? ps->id : 0);
    put_u32(out + 20, ps ? (uint32_t)ps->num_phases : 0);
    put_u32(out + 24, ps ? ps->canonical_phase_size : 0);
    put_u64(out + 28, pol ? pol->id : 0);
    put_u32(out + 36, pol ? pol->size : 0);
    put_u32(out + 40, (uint32_t)text_bytes);
    put_u32(out + 44, (uint32_t)packed_bytes);
    put_u32(out + 48, ps && ps->families != PATTERN_BASE ? ps->families : 0);
    put_u32(out + 52, (uint32_t)network_bytes);
    put_u32(out + 60, crc_of(out, 60));
    memcpy(out + HEADER_BYTES, text, text_bytes);
    if (network)
        memcpy(out + HEADER_BYTES + text_bytes + packed_bytes, network, network_bytes);
    free(network);
    *size = HEADER_BYTES + text_bytes + packed_bytes + network_bytes + 4;
    put_u32(out + *size - 4, crc_of(out, *size - 4));
    return out;
}
