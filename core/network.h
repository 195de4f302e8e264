/*
 * network.h - a small network that adds to a weights file's evaluation: a correction to the value
 * logit and one to each legal move's prior logit (docs/NETWORK.md).
 *
 * Sparse inputs (pattern instances by their canonical index, and/or the set bits of the input
 * planes) sum columns of W1 into an int16 accumulator of H units; a clipped ReLU; a dense layer
 * of 32; then a value head per phase bucket and a policy head that meets each action's embedding.
 * The file's own logits (linear weights, tables, learned or heuristic priors) are the skip path:
 * with zero heads the network changes nothing.
 *
 * Inference is integers, with the shifts and scales the network records: a plain C path and an
 * AVX2 path chosen at run time compute exactly the same numbers (Network.simd says which; the
 * tests turn it off on a copy).  The float weights are the master copy, kept for the fits;
 * network_quantize makes the integers from them, the one quantization every writer of a file
 * goes through.
 */
#ifndef LEUCTRA_NETWORK_H
#define LEUCTRA_NETWORK_H

#include "game.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Input sets (bits): pattern instances, input-plane squares. */
enum { NETWORK_PATTERNS = 1, NETWORK_SQUARES = 2 };
/* The second layer's width, the range of H, and of the shifts. */
enum { NETWORK_L2 = 32, NETWORK_MIN_H = 16, NETWORK_MAX_H = 256, NETWORK_MAX_BUCKETS = 64, NETWORK_MAX_SHIFT = 10 };
/* The most inputs one position switches on (every pattern instance and every set plane bit of a
 * 16x16 board would be fewer). */
enum { NETWORK_MAX_ACTIVE = 4096 };

typedef struct Network {
    /* the architecture */
    unsigned input_set;         /* NETWORK_PATTERNS | NETWORK_SQUARES */
    unsigned pattern_families;  /* of the pattern set the pattern inputs come from */
    uint64_t pattern_id;        /* that set's id (0 without pattern inputs) */
    int h;                      /* first layer width: 16..256, a multiple of 16 */
    int buckets;                /* value head outputs: the pattern set's phases, or 1 */
    bool priors_only;           /* the value head is left out (zeros): the network corrects the
                                   priors alone, and a leaf's value costs no evaluation of it */
    int num_inputs;             /* pattern inputs (canonical_phase_size) + square inputs */
    int num_actions;
    /* float master weights, row-major */
    float *w1;                  /* num_inputs x h */
    float *b1;                  /* h */
    float *w2;                  /* h x 32 (input-major: w2[j * 32 + k]) */
    float *b2;                  /* 32 */
    float *wv;                  /* buckets x 32 */
    float *bv;                  /* buckets */
    float *we;                  /* num_actions x 32 */
    float *be;                  /* num_actions */
    /* the integers the search reads, from network_quantize */
    int shift1;                 /* h1 = clamp(acc >> shift1, 0, 127); W1 scale 127 << shift1 */
    int shift2;                 /* h2 = clamp(sum >> shift2, 0, 127); W2 scale 1 << shift2 */
    float scale_v, scale_e;     /* int8 scales of the heads (value = int / (127 * scale)) */
    int16_t *q_w1, *q_b1;
    int8_t *q_w2;               /* h x 32, laid out for the dense layer (see network.c) */
    int32_t *q_b2;
    int8_t *q_wv, *q_we;
    int32_t *q_bv, *q_be;
    bool simd;                  /* evaluate with AVX2 (network_quantize: where the CPU has it) */
} Network;

/* A network of zero weights for g with this architecture (a fit's start: it changes nothing);
 * false with *err for an architecture the game cannot have or no memory. */
bool network_init(Network *net, const Game *g, unsigned input_set, unsigned pattern_families, int h, Error *err);
void network_free(Network *net);
/* A deep copy; false when memory runs out. */
bool network_copy(Network *dst, const Network *src);
/* The float arrays in the file's order (w1, b1, w2, b2, wv, bv, we, be) and their lengths: for
 * the file code and the fits. */
enum { NETWORK_ARRAYS = 8 };
int network_arrays(Network *net, float **arrays[NETWORK_ARRAYS], size_t lengths[NETWORK_ARRAYS]);

/* Fills the hidden layers with small random weights from `seed` (the start of a fit: hidden
 * units that differ, so that their gradients do) and the heads with random ones too where
 * `heads`, else zeros (a network that still adds nothing).  Call network_quantize after. */
void network_randomize(Network *net, uint64_t seed, bool heads);

/* Whether net was made for game g as it is now (board, actions, pattern set); if not, err names
 * the mismatch. */
bool network_fits(const Network *net, const Game *g, Error *err);

/* Makes the integers from the float weights: the first layer's shift the largest that keeps
 * every unit's accumulator for `positions` (n of them; NULL: the worst case of the weights) at
 * most half the int16 range, the second layer's the largest that keeps its weights within int8,
 * the heads' scales from their largest weights.  False when memory runs out. */
bool network_quantize(Network *net, const Game *g, const Position *positions, int n);

/* The integers from the float weights with given shifts (0-10) and head scales (the file's: a
 * file's network evaluates the same wherever it is read); false when memory runs out. */
bool network_quantize_as(Network *net, int shift1, int shift2, float scale_v, float scale_e);

/* The inputs of p that are on, ascending; returns how many (at most NETWORK_MAX_ACTIVE). */
int network_active_inputs(const Network *net, const Game *g, const Position *p, uint32_t *out);

/* The value head's bucket of p (its phase; 0 with one bucket). */
int network_bucket(const Network *net, const Game *g, const Position *p);

/* One evaluation: the value logit's correction and, for the n moves given (may be 0), each
 * move's prior logit correction.  scratch may be NULL (a position met one after another reuses
 * the work of the previous one when it is not: network_scratch_new). */
typedef struct NetworkScratch NetworkScratch;
NetworkScratch *network_scratch_new(const Network *net);
void network_scratch_free(NetworkScratch *s);
double network_value(const Network *net, const Game *g, NetworkScratch *s, const Position *p);
void network_priors(const Network *net, const Game *g, NetworkScratch *s, const Position *p, const Move *moves, int n,
                    float *logits);

/* The float model on the same inputs (what a fit differentiates; the integers approximate it). */
double network_value_float(const Network *net, const Game *g, const Position *p);

/* Leaves the value head out (zeros, priors_only set): for a network whose value did not pay for
 * its cost in a fit. */
void network_drop_value_head(Network *net);

/* Whether this CPU runs the AVX2 path. */
bool network_simd_available(void);

#endif
