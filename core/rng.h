/*
 * rng.h - the random numbers of the whole toolkit: xoshiro256** seeded through splitmix64.
 * State is a value the caller owns (one per thread, per game, per search), never a global, so
 * every run is reproducible from its seeds whatever the thread count.
 */
#ifndef LEUCTRA_RNG_H
#define LEUCTRA_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

static inline uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Streams for different (seed, stream) pairs are independent: a game's generator is
 * rng_seed(run_seed, game_index), whichever thread plays it. */
static inline Rng rng_seed(uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    Rng r;
    for (int i = 0; i < 4; i++)
        r.s[i] = splitmix64_next(&x);
    return r;
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 for our n). */
static inline uint32_t rng_below(Rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform double in [0, 1). */
static inline double rng_double(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

#endif
