/*
 * pattern.c - the game-independent half of the pattern evaluation (pattern.h): building a
 * PatternSet from shape lists, the canonical numbering of each shape's configurations under its
 * own symmetries, and reading a position's table entries.
 */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t power_of_three(int n)
{
    uint32_t p = 1;
    while (n-- > 0)
        p *= 3;
    return p;
}

static uint32_t permuted_number(uint32_t number, int cells, const int *perm, const uint32_t *pow3)
{
    uint32_t out = 0;
    for (int k = 0; k < cells; k++, number /= 3)
        out += (number % 3) * pow3[perm[k]];
    return out;
}

/* canonical[raw] for one shape: the smallest number among the readings of a configuration under
 * the shape's own symmetries, renumbered densely in increasing order. */
static bool build_canonical(PatternShape *shape, const PatternShapeSpec *spec)
{
    uint32_t pow3[PATTERN_MAX_CELLS];
    for (int k = 0; k < shape->cells; k++)
        pow3[k] = power_of_three(k);
    const int num_perms = spec->num_self;
    const int (*perms)[PATTERN_MAX_CELLS] = spec->self;
    shape->canonical = malloc(shape->raw_size * sizeof *shape->canonical);
    if (!shape->canonical)
        return false;
    for (uint32_t raw = 0; raw < shape->raw_size; raw++) {
        uint32_t least = raw;
        for (int p = 0; p < num_perms; p++) {
            const uint32_t other = permuted_number(raw, shape->cells, perms[p], pow3);
            if (other < least)
                least = other;
        }
        shape->canonical[raw] = least;  /* a representative for now; numbered below */
    }
    /* Representatives are their own least reading, so numbering them in order of raw is dense. */
    uint32_t next = 0;
    for (uint32_t raw = 0; raw < shape->raw_size; raw++)
        shape->canonical[raw] = shape->canonical[raw] == raw ? next++ : shape->canonical[shape->canonical[raw]];
    shape->canonical_size = next;
    return true;
}

static uint64_t hash_int(uint64_t h, int64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (uint64_t)(v >> (8 * i)) & 0xFF;
        h *= 0x100000001B3ull;
    }
    return h;
}

bool pattern_set_init(PatternSet *set, const PatternShapeSpec *specs, int num_shapes, int num_phases,
                      int num_squares)
{
    memset(set, 0, sizeof *set);
    if (num_shapes < 1 || num_shapes > PATTERN_MAX_SHAPES || num_phases < 1 || num_phases > PATTERN_MAX_PHASES)
        return false;
    uint64_t id = 0xCBF29CE484222325ull;
    id = hash_int(hash_int(id, num_phases), num_squares);
    for (int s = 0; s < num_shapes; s++) {
        const PatternShapeSpec *spec = &specs[s];
        PatternShape *shape = &set->shape[s];
        if (spec->cells < 1 || spec->cells > PATTERN_MAX_CELLS || spec->instances < 1 ||
            set->num_instances + spec->instances > PATTERN_MAX_INSTANCES || spec->num_self < 0 ||
            spec->num_self > PATTERN_MAX_SELF)
            goto fail;
        snprintf(shape->name, sizeof shape->name, "%s", spec->name);
        shape->cells = spec->cells;
        shape->instances = spec->instances;
        shape->raw_size = power_of_three(spec->cells);
        shape->raw_offset = set->raw_phase_size;
        shape->canonical_offset = set->canonical_phase_size;
        for (int i = 0; i < spec->instances * spec->cells; i++)
            if (spec->squares[i] < 0 || spec->squares[i] >= num_squares)
                goto fail;
        for (int p = 0; p < spec->num_self; p++)
            for (int k = 0; k < spec->cells; k++)
                if (spec->self[p][k] < 0 || spec->self[p][k] >= spec->cells)
                    goto fail;
        if (!build_canonical(shape, spec))
            goto fail;
        set->raw_phase_size += shape->raw_size;
        set->canonical_phase_size += shape->canonical_size;
        for (int i = 0; i < spec->instances; i++)
            set->instance_shape[set->num_instances++] = (uint8_t)s;
        id = hash_int(hash_int(id, spec->cells), spec->instances);
        for (int i = 0; i < spec->instances * spec->cells; i++)
            id = hash_int(id, spec->squares[i]);
        set->num_shapes = s + 1;
    }
    set->num_phases = num_phases;
    set->id = id;
    return true;
fail:
    pattern_set_free(set);
    return false;
}

void pattern_set_free(PatternSet *set)
{
    for (int s = 0; s < PATTERN_MAX_SHAPES; s++) {
        free(set->shape[s].canonical);
        set->shape[s].canonical = NULL;
    }
}

const PatternSet *pattern_set_of(const Game *g)
{
    return pattern_set_with(g, PATTERN_BASE);
}

const PatternSet *pattern_set_with(const Game *g, unsigned families)
{
    families = families ? families : PATTERN_BASE;
    if (families > PATTERN_ALL_FAMILIES || !g->ops->patterns)
        return NULL;
    return g->ops->patterns(g, families);
}

static const struct {
    const char *name;
    unsigned bit;
} FAMILY_NAMES[] = {{"base", PATTERN_BASE}, {"2x4", PATTERN_2X4}, {"4x2", PATTERN_4X2}, {"3x3", PATTERN_3X3},
                    {"segments", PATTERN_BASE}, {"all", PATTERN_ALL_FAMILIES}};
enum { NUM_FAMILY_NAMES = sizeof FAMILY_NAMES / sizeof FAMILY_NAMES[0] };

bool pattern_families_parse(const char *list, unsigned *out, Error *err)
{
    unsigned mask = 0;
    for (const char *p = list;;) {
        const size_t n = strcspn(p, ",");
        int found = -1;
        for (int i = 0; i < NUM_FAMILY_NAMES; i++)
            if (strlen(FAMILY_NAMES[i].name) == n && strncmp(p, FAMILY_NAMES[i].name, n) == 0)
                found = i;
        if (found < 0) {
            error_set(err, "shapes '%s': unknown family '%.*s' (base or segments, 2x4, 4x2, 3x3, all)", list, (int)(n > 24 ? 24 : n), p);
            return false;
        }
        mask |= FAMILY_NAMES[found].bit;
        if (p[n] == '\0')
            break;
        p += n + 1;
    }
    *out = mask;
    return true;
}

void pattern_families_format(unsigned families, char *out, size_t len)
{
    families = families ? families : PATTERN_BASE;
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < 4; i++)
        if (families & FAMILY_NAMES[i].bit) {
            const int w = snprintf(out + at, len - at, "%s%s", at ? "," : "", FAMILY_NAMES[i].name);
            at = w > 0 && (size_t)w < len - at ? at + (size_t)w : len - 1;
        }
}

int pattern_raw_entries(const PatternSet *set, const Game *g, const Position *p, uint32_t *out)
{
    set->raw_indices(set, g, p, out);
    const uint32_t base = (uint32_t)set->phase(g, p) * set->raw_phase_size;
    for (int i = 0; i < set->num_instances; i++)
        out[i] += base;
    return set->num_instances;
}

int pattern_canonical_entries(const PatternSet *set, const Game *g, const Position *p, uint32_t *out)
{
    set->raw_indices(set, g, p, out);
    const uint32_t base = (uint32_t)set->phase(g, p) * set->canonical_phase_size;
    for (int i = 0; i < set->num_instances; i++) {
        const PatternShape *shape = &set->shape[set->instance_shape[i]];
        out[i] = base + shape->canonical_offset + shape->canonical[out[i] - shape->raw_offset];
    }
    return set->num_instances;
}

double pattern_sum(const PatternSet *set, const float *tables, const Game *g, const Position *p)
{
    uint32_t index[PATTERN_MAX_INSTANCES];
    set->raw_indices(set, g, p, index);
    const float *phase = tables + (size_t)set->phase(g, p) * set->raw_phase_size;
    float sum = 0;
    for (int i = 0; i < set->num_instances; i++)
        sum += phase[index[i]];
    return sum;
}

void pattern_expand(const PatternSet *set, const float *canonical, float *raw)
{
    for (int ph = 0; ph < set->num_phases; ph++)
        for (int s = 0; s < set->num_shapes; s++) {
            const PatternShape *shape = &set->shape[s];
            const float *from = canonical + (size_t)ph * set->canonical_phase_size + shape->canonical_offset;
            float *to = raw + (size_t)ph * set->raw_phase_size + shape->raw_offset;
            for (uint32_t r = 0; r < shape->raw_size; r++)
                to[r] = from[shape->canonical[r]];
        }
}

void pattern_compress(const PatternSet *set, const float *raw, float *canonical)
{
    for (int ph = 0; ph < set->num_phases; ph++)
        for (int s = 0; s < set->num_shapes; s++) {
            const PatternShape *shape = &set->shape[s];
            const float *from = raw + (size_t)ph * set->raw_phase_size + shape->raw_offset;
            float *to = canonical + (size_t)ph * set->canonical_phase_size + shape->canonical_offset;
            for (uint32_t r = shape->raw_size; r-- > 0;)   /* downwards: the first raw entry wins */
                to[shape->canonical[r]] = from[r];
        }
}
