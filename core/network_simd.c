/*
 * network_simd.c - the network's AVX2 kernels (network_simd.h).  Compiled for AVX2 function by
 * function (the target attribute), so that one binary built for any x86-64 has them and takes
 * them only where the CPU runs them; on other machines they are the plain path.
 */
#include "network_simd.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

/* LEUCTRA_SIMD=0 in the environment takes the plain path on any CPU, so that one binary can show
 * that both paths give the same numbers end to end (the bench signature: tests/cli/cli_test.sh). */
bool network_simd_available(void)
{
    const char *setting = getenv("LEUCTRA_SIMD");
    if (setting && strcmp(setting, "0") == 0)
        return false;
    return __builtin_cpu_supports("avx2");
}

AVX2 static void add_columns(const Network *net, const uint32_t *rows, int n, __m256i *acc, int lanes, bool subtract)
{
    for (int k = 0; k < n; k++) {
        const __m256i *column = (const __m256i *)(const void *)(net->q_w1 + (size_t)rows[k] * (size_t)net->h);
        for (int i = 0; i < lanes; i++) {
            const __m256i c = _mm256_loadu_si256(column + i);
            acc[i] = subtract ? _mm256_sub_epi16(acc[i], c) : _mm256_add_epi16(acc[i], c);
        }
    }
}

AVX2 void network_accumulate_avx2(const Network *net, const uint32_t *active, int n, int16_t *out)
{
    __m256i acc[NETWORK_MAX_H / 16];
    const int lanes = net->h / 16;
    for (int i = 0; i < lanes; i++)
        acc[i] = _mm256_loadu_si256((const __m256i *)(const void *)(net->q_b1 + 16 * i));
    add_columns(net, active, n, acc, lanes, false);
    for (int i = 0; i < lanes; i++)
        _mm256_storeu_si256((__m256i *)(void *)(out + 16 * i), acc[i]);
}

AVX2 void network_update_avx2(const Network *net, const uint32_t *added, int na, const uint32_t *removed, int nr,
                              int16_t *out)
{
    __m256i acc[NETWORK_MAX_H / 16];
    const int lanes = net->h / 16;
    for (int i = 0; i < lanes; i++)
        acc[i] = _mm256_loadu_si256((const __m256i *)(const void *)(out + 16 * i));
    add_columns(net, added, na, acc, lanes, false);
    add_columns(net, removed, nr, acc, lanes, true);
    for (int i = 0; i < lanes; i++)
        _mm256_storeu_si256((__m256i *)(void *)(out + 16 * i), acc[i]);
}

/* The eight int32 lanes' sum. */
AVX2 static int32_t horizontal_sum(__m256i v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

AVX2 void network_dense_avx2(const Network *net, const int16_t *acc, uint8_t *h2)
{
    const int h = net->h, lanes = h / 32;
    /* clipped ReLU: negative sums are 0 (the arithmetic shift keeps them negative), then 127 at most */
    _Alignas(32) uint8_t h1[NETWORK_MAX_H];
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(127);
    const __m128i shift = _mm_cvtsi32_si128(net->shift1);
    for (int i = 0; i < h / 16; i += 2) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(acc + 16 * i));
        __m256i b = i + 1 < h / 16 ? _mm256_loadu_si256((const __m256i *)(const void *)(acc + 16 * (i + 1))) : zero;
        a = _mm256_min_epi16(_mm256_max_epi16(_mm256_sra_epi16(a, shift), zero), top);
        b = _mm256_min_epi16(_mm256_max_epi16(_mm256_sra_epi16(b, shift), zero), top);
        /* packus interleaves 128-bit halves: permute back to the units' order */
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
        if (i + 1 < h / 16)
            _mm256_store_si256((__m256i *)(void *)(h1 + 16 * i), packed);
        else
            _mm_store_si128((__m128i *)(void *)(h1 + 16 * i), _mm256_castsi256_si128(packed));
    }
    const __m256i ones = _mm256_set1_epi16(1);
    for (int k = 0; k < NETWORK_L2; k++) {
        const int8_t *w = net->q_w2 + (size_t)k * (size_t)h;
        __m256i sum = zero;
        int j = 0;
        for (int i = 0; i < lanes; i++, j += 32) {
            /* uint8 x int8 pairs into int16: at most 2 x 127 x 127, no saturation */
            const __m256i products = _mm256_maddubs_epi16(_mm256_load_si256((const __m256i *)(const void *)(h1 + j)),
                                                          _mm256_loadu_si256((const __m256i *)(const void *)(w + j)));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(products, ones));
        }
        int32_t total = net->q_b2[k] + horizontal_sum(sum);
        for (; j < h; j++)          /* an H of 16 mod 32 leaves 16 units */
            total += (int32_t)h1[j] * w[j];
        const int32_t v = total <= 0 ? 0 : total >> net->shift2;
        h2[k] = (uint8_t)(v > 127 ? 127 : v);
    }
}

#else

bool network_simd_available(void) { return false; }
void network_accumulate_avx2(const Network *net, const uint32_t *active, int n, int16_t *acc)
{
    (void)net, (void)active, (void)n, (void)acc;
}
void network_update_avx2(const Network *net, const uint32_t *added, int na, const uint32_t *removed, int nr,
                         int16_t *acc)
{
    (void)net, (void)added, (void)na, (void)removed, (void)nr, (void)acc;
}
void network_dense_avx2(const Network *net, const int16_t *acc, uint8_t *h2) { (void)net, (void)acc, (void)h2; }

#endif
