/*
 * prior_cache.c - priors by position hash (prior_cache.h): open addressing with linear probing
 * over a table of power-of-two size, at most half full; the priors themselves in one growing
 * pool of floats.
 */
#include "prior_cache.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t hash;          /* 0: an empty slot (a position of hash 0 is kept under 1) */
    uint32_t offset;        /* of its priors in the pool */
    uint32_t count;
} Entry;

struct PriorCache {
    Entry *slots;
    size_t capacity, used;  /* slots, and slots taken */
    float *pool;
    size_t pool_used, pool_capacity;
};

PriorCache *prior_cache_new(void) { return calloc(1, sizeof(PriorCache)); }

void prior_cache_free(PriorCache *c)
{
    if (!c)
        return;
    free(c->slots);
    free(c->pool);
    free(c);
}

void prior_cache_clear(PriorCache *c)
{
    if (c->slots)
        memset(c->slots, 0, c->capacity * sizeof *c->slots);
    c->used = 0;
    c->pool_used = 0;
}

static uint64_t key_of(uint64_t hash) { return hash ? hash : 1; }

static Entry *find(const PriorCache *c, uint64_t key)
{
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (c->capacity - 1);
    while (c->slots[i].hash && c->slots[i].hash != key)
        i = (i + 1) & (c->capacity - 1);
    return &c->slots[i];
}

static bool grow_slots(PriorCache *c)
{
    PriorCache bigger = *c;
    bigger.capacity = c->capacity ? 2 * c->capacity : 1024;
    bigger.slots = calloc(bigger.capacity, sizeof *bigger.slots);
    if (!bigger.slots)
        return false;
    for (size_t i = 0; i < c->capacity; i++)
        if (c->slots[i].hash)
            *find(&bigger, c->slots[i].hash) = c->slots[i];
    free(c->slots);
    c->slots = bigger.slots;
    c->capacity = bigger.capacity;
    return true;
}

static bool grow_pool(PriorCache *c, size_t need)
{
    if (c->pool_used + need <= c->pool_capacity)
        return true;
    size_t cap = c->pool_capacity ? c->pool_capacity : 65536;
    while (cap < c->pool_used + need)
        cap *= 2;
    if (cap > UINT32_MAX)
        return false;
    float *pool = realloc(c->pool, cap * sizeof *pool);
    if (!pool)
        return false;
    c->pool = pool;
    c->pool_capacity = cap;
    return true;
}

bool prior_cache_put(PriorCache *c, uint64_t hash, int n, const float *priors)
{
    if ((c->used + 1) * 2 > c->capacity && !grow_slots(c))
        return false;
    if (!grow_pool(c, (size_t)n))
        return false;
    Entry *e = find(c, key_of(hash));
    if (!e->hash)
        c->used++;
    *e = (Entry){key_of(hash), (uint32_t)c->pool_used, (uint32_t)n};
    if (n > 0)      /* a position without moves has no pool yet: memcpy takes no null pointer */
        memcpy(c->pool + c->pool_used, priors, (size_t)n * sizeof *priors);
    c->pool_used += (size_t)n;
    return true;
}

bool prior_cache_get(const PriorCache *c, uint64_t hash, int n, float *out)
{
    if (!c || !c->capacity)
        return false;
    const Entry *e = find(c, key_of(hash));
    if (!e->hash || e->count != (uint32_t)n)
        return false;
    memcpy(out, c->pool + e->offset, (size_t)n * sizeof *out);
    return true;
}

bool prior_cache_has(const PriorCache *c, uint64_t hash)
{
    return c && c->capacity && find(c, key_of(hash))->hash != 0;
}
