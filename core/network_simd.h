/*
 * network_simd.h - the network's AVX2 kernels (network_simd.c), each the same integers as its
 * plain twin in network.c: the first layer's sum (wrapping int16 adds), its incremental update,
 * and the clipped ReLU with the dense layer (uint8 x int8 products, exact in int16 pairs and
 * int32 sums).  Called only where network_simd_available() says the CPU has AVX2.
 */
#ifndef LEUCTRA_NETWORK_SIMD_H
#define LEUCTRA_NETWORK_SIMD_H

#include "network.h"

void network_accumulate_avx2(const Network *net, const uint32_t *active, int n, int16_t *acc);
void network_update_avx2(const Network *net, const uint32_t *added, int na, const uint32_t *removed, int nr,
                         int16_t *acc);
void network_dense_avx2(const Network *net, const int16_t *acc, uint8_t *h2);

#endif
