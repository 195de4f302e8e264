/*
 * network.c - the network's inputs, its quantization and its integer inference (network.h,
 * docs/NETWORK.md).  The AVX2 kernels are network_simd.c's; everything here is plain C and is
 * the reference they must equal.
 */
#include "network.h"
#include "network_simd.h"

#include "pattern.h"
#include "rng.h"
#include "tensors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Square inputs: five planes square by square (own, opponent, obstacle, own frozen, opponent
 * frozen), then one input each for the planes that are all ones or all zeros (must answer,
 * symmetry rule, White to move); the on-board plane is always ones and adds nothing. */
static const int square_planes[] = {PLANE_OWN, PLANE_OPPONENT, PLANE_OBSTACLE, PLANE_OWN_FROZEN,
                                    PLANE_OPPONENT_FROZEN};
static const int flag_planes[] = {PLANE_MUST_ANSWER, PLANE_SYMMETRY_RULE, PLANE_WHITE_TO_MOVE};
enum { SQUARE_PLANES = 5, FLAG_PLANES = 3 };


struct NetworkScratch {
    const Network *net;         /* the network the accumulator was summed for */
    int count;                  /* input slots of the previous position (-1: none yet) */
    int32_t slot[NETWORK_MAX_ACTIVE];
    int16_t acc[NETWORK_MAX_H];
    uint8_t h2[NETWORK_L2];     /* the previous position's second layer */
    uint64_t hash;              /* ... and which position that was */
    bool have_h2;
};

static const PatternSet *input_patterns(const Network *net, const Game *g)
{
    return net->input_set & NETWORK_PATTERNS ? pattern_set_with(g, net->pattern_families) : NULL;
}

static int pattern_inputs(const Network *net, const Game *g)
{
    const PatternSet *ps = input_patterns(net, g);
    return ps ? (int)ps->canonical_phase_size : 0;
}

static int square_inputs(const Network *net, const Game *g)
{
    return net->input_set & NETWORK_SQUARES ? SQUARE_PLANES * g->width * g->height + FLAG_PLANES : 0;
}

/* --- making, copying, checking ------------------------------------------------------------------ */

int network_arrays(Network *net, float **arrays[NETWORK_ARRAYS], size_t lengths[NETWORK_ARRAYS])
{
    const size_t h = (size_t)net->h, inputs = (size_t)net->num_inputs, actions = (size_t)net->num_actions;
    float **all[NETWORK_ARRAYS] = {&net->w1, &net->b1, &net->w2, &net->b2, &net->wv, &net->bv, &net->we, &net->be};
    const size_t length[NETWORK_ARRAYS] = {inputs * h, h, h * NETWORK_L2, NETWORK_L2,
                                           (size_t)net->buckets * NETWORK_L2, (size_t)net->buckets,
                                           actions * NETWORK_L2, actions};
    memcpy(arrays, all, sizeof all);
    memcpy(lengths, length, sizeof length);
    return NETWORK_ARRAYS;
}

static bool alloc_floats(Network *net)
{
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS];
    for (int i = 0, n = network_arrays(net, arrays, lengths); i < n; i++)
        if (!(*arrays[i] = calloc(lengths[i] ? lengths[i] : 1, sizeof(float))))
            return false;
    return true;
}

bool network_init(Network *net, const Game *g, unsigned input_set, unsigned pattern_families, int h, Error *err)
{
    memset(net, 0, sizeof *net);
    if (h < NETWORK_MIN_H || h > NETWORK_MAX_H || h % 16 != 0)
        return error_set(err, "network: H must be a multiple of 16 from %d to %d, got %d", NETWORK_MIN_H,
                         NETWORK_MAX_H, h);
    if (!(input_set & (NETWORK_PATTERNS | NETWORK_SQUARES)) || input_set & ~(unsigned)(NETWORK_PATTERNS | NETWORK_SQUARES))
        return error_set(err, "network: the inputs must be patterns, squares or both");
    net->input_set = input_set;
    net->pattern_families = pattern_families;
    const PatternSet *ps = input_patterns(net, g);
    if ((input_set & NETWORK_PATTERNS) && !ps)
        return error_set(err, "network: %s has no pattern set for pattern inputs", g->name);
    net->pattern_id = ps ? ps->id : 0;
    net->h = h;
    net->buckets = ps ? ps->num_phases : (pattern_set_of(g) ? pattern_set_of(g)->num_phases : 1);
    net->num_inputs = pattern_inputs(net, g) + square_inputs(net, g);
    net->num_actions = game_num_actions(g);
    if (!alloc_floats(net)) {
        network_free(net);
        return error_failed(err, "network: out of memory for %d inputs x %d", net->num_inputs, h);
    }
    if (!network_quantize(net, g, NULL, 0)) {
        network_free(net);
        return error_failed(err, "network: out of memory");
    }
    return true;
}

static void free_quantized(Network *net)
{
    free(net->q_w1);
    free(net->q_b1);
    free(net->q_w2);
    free(net->q_b2);
    free(net->q_wv);
    free(net->q_we);
    free(net->q_bv);
    free(net->q_be);
    net->q_w1 = net->q_b1 = NULL;
    net->q_w2 = net->q_wv = net->q_we = NULL;
    net->q_b2 = net->q_bv = net->q_be = NULL;
}

void network_free(Network *net)
{
    if (!net)
        return;
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS];
    for (int i = 0, n = network_arrays(net, arrays, lengths); i < n; i++) {
        free(*arrays[i]);
        *arrays[i] = NULL;
    }
    free_quantized(net);
}

static bool fill_quantized(Network *net);

bool network_copy(Network *dst, const Network *src)
{
    *dst = *src;
    float **to[NETWORK_ARRAYS], **from[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS];
    network_arrays(dst, to, lengths);
    const int n = network_arrays((Network *)src, from, lengths);
    for (int i = 0; i < n; i++)
        *to[i] = NULL;
    dst->q_w1 = dst->q_b1 = NULL;
    dst->q_w2 = dst->q_wv = dst->q_we = NULL;
    dst->q_b2 = dst->q_bv = dst->q_be = NULL;
    for (int i = 0; i < n; i++) {
        if (!(*to[i] = malloc((lengths[i] ? lengths[i] : 1) * sizeof(float)))) {
            network_free(dst);
            return false;
        }
        memcpy(*to[i], *from[i], lengths[i] * sizeof(float));
    }
    if (!fill_quantized(dst)) {     /* the same shift and scales: the same integers */
        network_free(dst);
        return false;
    }
    dst->simd = src->simd;
    return true;
}

void network_drop_value_head(Network *net)
{
    memset(net->wv, 0, (size_t)net->buckets * NETWORK_L2 * sizeof *net->wv);
    memset(net->bv, 0, (size_t)net->buckets * sizeof *net->bv);
    net->priors_only = true;
}

void network_randomize(Network *net, uint64_t seed, bool heads)
{
    /* uniform in [-range, range] array by array: w1 small enough that a sum over a few hundred
     * inputs stays near the clipped ReLU's [0, 1], the biases in its middle */
    static const float range[NETWORK_ARRAYS] = {0.02f, 0.1f, 0.3f, 0.1f, 1.0f, 0.2f, 1.0f, 0.2f};
    static const float centre[NETWORK_ARRAYS] = {0, 0.5f, 0, 0.5f, 0, 0, 0, 0};
    float **arrays[NETWORK_ARRAYS];
    size_t lengths[NETWORK_ARRAYS];
    Rng rng = rng_seed(seed, 0x6e6574);
    for (int a = 0, n = network_arrays(net, arrays, lengths); a < n; a++) {
        const bool head = a >= 4;
        for (size_t i = 0; i < lengths[a]; i++)
            (*arrays[a])[i] = head && !heads ? 0.0f : centre[a] + (float)((rng_double(&rng) * 2 - 1) * range[a]);
    }
}

bool network_fits(const Network *net, const Game *g, Error *err)
{
    const PatternSet *ps = input_patterns(net, g);
    if ((net->input_set & NETWORK_PATTERNS) && (!ps || ps->id != net->pattern_id))
        return error_set(err, "the network's pattern inputs were made for another pattern set than %s %dx%d's",
                         g->name, g->width, g->height);
    if (net->num_actions != game_num_actions(g))
        return error_set(err, "the network has %d actions, %s %dx%d has %d", net->num_actions, g->name, g->width,
                         g->height, game_num_actions(g));
    const int inputs = pattern_inputs(net, g) + square_inputs(net, g);
    if (net->num_inputs != inputs)
        return error_set(err, "the network has %d inputs, %s %dx%d gives %d", net->num_inputs, g->name, g->width,
                         g->height, inputs);
    return true;
}

/* --- inputs ------------------------------------------------------------------------------------- */

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A position's inputs as slots: one per pattern instance (its input) and one per square of each
 * square plane and per flag plane (its input, or -1 when the bit is off).  The slots of any two
 * positions of a game line up, so the difference of two positions is a walk over them. */
static int input_slots(const Network *net, const Game *g, const Position *p, int32_t *slot)
{
    int n = 0;
    const PatternSet *ps = input_patterns(net, g);
    if (ps) {
        uint32_t entries[PATTERN_MAX_INSTANCES];
        const int count = pattern_canonical_entries(ps, g, p, entries);
        for (int i = 0; i < count; i++)
            slot[n++] = (int32_t)(entries[i] % ps->canonical_phase_size);  /* every phase reads the same inputs */
    }
    if (!(net->input_set & NETWORK_SQUARES))
        return n;
    unsigned char planes[PLANES_COUNT * 256];
    game_planes(g, p, planes);
    const int area = g->width * g->height, offset = pattern_inputs(net, g);
    for (int k = 0; k < SQUARE_PLANES; k++) {
        const unsigned char *plane = planes + square_planes[k] * area;
        for (int sq = 0; sq < area; sq++)
            slot[n++] = plane[sq] ? offset + k * area + sq : -1;
    }
    for (int k = 0; k < FLAG_PLANES; k++)
        slot[n++] = planes[flag_planes[k] * area] ? offset + SQUARE_PLANES * area + k : -1;
    return n;
}

int network_active_inputs(const Network *net, const Game *g, const Position *p, uint32_t *out)
{
    int32_t slot[NETWORK_MAX_ACTIVE];
    int n = 0;
    for (int k = 0, count = input_slots(net, g, p, slot); k < count; k++)
        if (slot[k] >= 0)
            out[n++] = (uint32_t)slot[k];
    qsort(out, (size_t)n, sizeof *out, compare_u32);
    return n;
}

int network_bucket(const Network *net, const Game *g, const Position *p)
{
    const PatternSet *ps = net->input_set & NETWORK_PATTERNS ? input_patterns(net, g) : pattern_set_of(g);
    int b = ps && net->buckets > 1 ? ps->phase(g, p) : 0;
    return b < net->buckets ? b : net->buckets - 1;
}

/* --- quantization ------------------------------------------------------------------------------ */

static int8_t to_int8(double v)
{
    double r = nearbyint(v);
    return (int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
}

static int16_t to_int16(double v)
{
    double r = nearbyint(v);
    return (int16_t)(r > 32767 ? 32767 : r < -32767 ? -32767 : r);
}

static int32_t to_int32(double v)
{
    double r = nearbyint(v);
    return (int32_t)(r > 2147483647.0 ? 2147483647.0 : r < -2147483647.0 ? -2147483647.0 : r);
}

static float largest_magnitude(const float *a, size_t n)
{
    float m = 0;
    for (size_t i = 0; i < n; i++)
        m = fabsf(a[i]) > m ? fabsf(a[i]) : m;
    return m;
}

/* The largest first-layer sum, in float, over the positions (or the worst case of any position). */
static double largest_sum(const Network *net, const Game *g, const Position *positions, int n)
{
    const int h = net->h;
    double worst = 0;
    if (!positions) {
        const float column = largest_magnitude(net->w1, (size_t)net->num_inputs * (size_t)h);
        return largest_magnitude(net->b1, (size_t)h) + (double)column * NETWORK_MAX_ACTIVE / 8;
    }
    uint32_t active[NETWORK_MAX_ACTIVE];
    for (int i = 0; i < n; i++) {
        int count = network_active_inputs(net, g, &positions[i], active);
        for (int u = 0; u < h; u++) {
            double a = net->b1[u];
            for (int k = 0; k < count; k++)
                a += net->w1[(size_t)active[k] * (size_t)h + (size_t)u];
            worst = fabs(a) > worst ? fabs(a) : worst;
        }
    }
    return worst;
}

/* The largest shift (finest layer) that keeps `largest` times scale << shift within `limit`. */
static int choose_shift(double largest, double scale, double limit)
{
    int shift = 0;
    while (shift < NETWORK_MAX_SHIFT && largest * scale * (double)(1 << (shift + 1)) <= limit)
        shift++;
    return shift;
}

static bool alloc_quantized(Network *net)
{
    const size_t h = (size_t)net->h, inputs = (size_t)net->num_inputs, actions = (size_t)net->num_actions;
    free_quantized(net);
    net->q_w1 = malloc((inputs ? inputs : 1) * h * sizeof *net->q_w1);
    net->q_b1 = malloc(h * sizeof *net->q_b1);
    net->q_w2 = malloc(h * NETWORK_L2 * sizeof *net->q_w2);
    net->q_b2 = malloc(NETWORK_L2 * sizeof *net->q_b2);
    net->q_wv = malloc((size_t)net->buckets * NETWORK_L2 * sizeof *net->q_wv);
    net->q_bv = malloc((size_t)net->buckets * sizeof *net->q_bv);
    net->q_we = malloc((actions ? actions : 1) * NETWORK_L2 * sizeof *net->q_we);
    net->q_be = malloc((actions ? actions : 1) * sizeof *net->q_be);
    return net->q_w1 && net->q_b1 && net->q_w2 && net->q_b2 && net->q_wv && net->q_bv && net->q_we && net->q_be;
}

/* The integers from the floats with the shift and scales already chosen. */
static bool fill_quantized(Network *net)
{
    if (!alloc_quantized(net))
        return false;
    const size_t h = (size_t)net->h;
    const double s1 = 127.0 * (double)(1 << net->shift1);
    for (size_t i = 0; i < (size_t)net->num_inputs * h; i++)
        net->q_w1[i] = to_int16(net->w1[i] * s1);
    for (size_t u = 0; u < h; u++)
        net->q_b1[u] = to_int16(net->b1[u] * s1);
    /* W2 output-major for the dense layer: q_w2[k * h + j] */
    for (size_t j = 0; j < h; j++)
        for (size_t k = 0; k < NETWORK_L2; k++)
            net->q_w2[k * h + j] = to_int8(net->w2[j * NETWORK_L2 + k] * (double)(1 << net->shift2));
    for (size_t k = 0; k < NETWORK_L2; k++)
        net->q_b2[k] = to_int32(net->b2[k] * 127.0 * (double)(1 << net->shift2));
    for (size_t i = 0; i < (size_t)net->buckets * NETWORK_L2; i++)
        net->q_wv[i] = to_int8(net->wv[i] * net->scale_v);
    for (int b = 0; b < net->buckets; b++)
        net->q_bv[b] = to_int32(net->bv[b] * 127.0 * net->scale_v);
    for (size_t i = 0; i < (size_t)net->num_actions * NETWORK_L2; i++)
        net->q_we[i] = to_int8(net->we[i] * net->scale_e);
    for (int a = 0; a < net->num_actions; a++)
        net->q_be[a] = to_int32(net->be[a] * 127.0 * net->scale_e);
    net->simd = network_simd_available();
    return true;
}

/* A head's int8 scale: its largest weight at 127, and never past 2^12 (a head of zeros). */
static float head_scale(const float *w, size_t n)
{
    const float m = largest_magnitude(w, n);
    return m > 127.0f / 4096.0f ? 127.0f / m : 4096.0f;
}

bool network_quantize_as(Network *net, int shift1, int shift2, float scale_v, float scale_e)
{
    net->shift1 = shift1;
    net->shift2 = shift2;
    net->scale_v = scale_v;
    net->scale_e = scale_e;
    return fill_quantized(net);
}

bool network_quantize(Network *net, const Game *g, const Position *positions, int n)
{
    net->shift1 = choose_shift(largest_sum(net, g, positions, n), 127.0, 16383.0);
    net->shift2 = choose_shift(largest_magnitude(net->w2, (size_t)net->h * NETWORK_L2), 1.0, 127.0);
    net->scale_v = head_scale(net->wv, (size_t)net->buckets * NETWORK_L2);
    net->scale_e = head_scale(net->we, (size_t)net->num_actions * NETWORK_L2);
    return fill_quantized(net);
}

/* --- inference --------------------------------------------------------------------------------- */

/* The plain path's first layer: the accumulator (wrapping int16 adds: associative, so an
 * incremental update gives the same bits as a fresh sum). */
static void accumulate_plain(const Network *net, const uint32_t *active, int n, int16_t *acc)
{
    const int h = net->h;
    for (int u = 0; u < h; u++)
        acc[u] = net->q_b1[u];
    for (int k = 0; k < n; k++) {
        const int16_t *column = net->q_w1 + (size_t)active[k] * (size_t)h;
        for (int u = 0; u < h; u++)
            acc[u] = (int16_t)(uint16_t)((uint16_t)acc[u] + (uint16_t)column[u]);
    }
}

static void update_plain(const Network *net, const uint32_t *added, int na, const uint32_t *removed, int nr,
                         int16_t *acc)
{
    const int h = net->h;
    for (int k = 0; k < na; k++) {
        const int16_t *column = net->q_w1 + (size_t)added[k] * (size_t)h;
        for (int u = 0; u < h; u++)
            acc[u] = (int16_t)(uint16_t)((uint16_t)acc[u] + (uint16_t)column[u]);
    }
    for (int k = 0; k < nr; k++) {
        const int16_t *column = net->q_w1 + (size_t)removed[k] * (size_t)h;
        for (int u = 0; u < h; u++)
            acc[u] = (int16_t)(uint16_t)((uint16_t)acc[u] - (uint16_t)column[u]);
    }
}

/* Clipped ReLU of the accumulator and the dense layer: h2 = clamp((b2 + W2 h1) >> 6, 0, 127). */
static void dense_plain(const Network *net, const int16_t *acc, uint8_t *h2)
{
    const int h = net->h;
    uint8_t h1[NETWORK_MAX_H];
    for (int u = 0; u < h; u++) {
        const int a = acc[u];
        const int v = a <= 0 ? 0 : a >> net->shift1;
        h1[u] = (uint8_t)(v > 127 ? 127 : v);
    }
    for (int k = 0; k < NETWORK_L2; k++) {
        int32_t sum = net->q_b2[k];
        const int8_t *w = net->q_w2 + (size_t)k * (size_t)h;
        for (int j = 0; j < h; j++)
            sum += (int32_t)h1[j] * w[j];
        const int32_t v = sum <= 0 ? 0 : sum >> net->shift2;
        h2[k] = (uint8_t)(v > 127 ? 127 : v);
    }
}

/* The columns to add and to take away between two positions' slots. */
static void difference(const int32_t *before, const int32_t *now, int n, uint32_t *added, int *na, uint32_t *removed,
                       int *nr)
{
    *na = *nr = 0;
    for (int k = 0; k < n; k++)
        if (before[k] != now[k]) {
            if (before[k] >= 0)
                removed[(*nr)++] = (uint32_t)before[k];
            if (now[k] >= 0)
                added[(*na)++] = (uint32_t)now[k];
        }
}

/* The accumulator of p's slots into s->acc: the previous position's corrected where the scratch
 * has one for this network and fewer columns differ than p has, else a fresh sum. */
static void accumulate(const Network *net, NetworkScratch *s, const int32_t *slot, int n)
{
    uint32_t added[NETWORK_MAX_ACTIVE], removed[NETWORK_MAX_ACTIVE];
    int na = 0, nr = 0;
    const bool reuse = s->net == net && s->count == n;
    if (reuse)
        difference(s->slot, slot, n, added, &na, removed, &nr);
    int active = 0;
    for (int k = 0; k < n; k++)
        active += slot[k] >= 0;
    if (reuse && na + nr < active) {
        if (net->simd)
            network_update_avx2(net, added, na, removed, nr, s->acc);
        else
            update_plain(net, added, na, removed, nr, s->acc);
    } else {
        for (int k = 0, m = 0; k < n; k++)
            if (slot[k] >= 0)
                added[m++] = (uint32_t)slot[k];
        if (net->simd)
            network_accumulate_avx2(net, added, active, s->acc);
        else
            accumulate_plain(net, added, active, s->acc);
    }
    memcpy(s->slot, slot, (size_t)n * sizeof *slot);
    s->count = n;
    s->net = net;
}

/* The second layer of p, from the scratch when p was its last position. */
static const uint8_t *second_layer(const Network *net, const Game *g, NetworkScratch *s, const Position *p)
{
    const uint64_t hash = game_hash(g, p);
    if (s->net == net && s->have_h2 && s->hash == hash)
        return s->h2;
    int32_t slot[NETWORK_MAX_ACTIVE];
    const int n = input_slots(net, g, p, slot);
    accumulate(net, s, slot, n);
    if (net->simd)
        network_dense_avx2(net, s->acc, s->h2);
    else
        dense_plain(net, s->acc, s->h2);
    s->hash = hash;
    s->have_h2 = true;
    return s->h2;
}

NetworkScratch *network_scratch_new(const Network *net)
{
    NetworkScratch *s = malloc(sizeof *s);
    if (s) {
        s->net = net;
        s->count = -1;
        s->have_h2 = false;
    }
    return s;
}

void network_scratch_free(NetworkScratch *s) { free(s); }

static int32_t dot32(const int8_t *w, const uint8_t *h2)
{
    int32_t sum = 0;
    for (int k = 0; k < NETWORK_L2; k++)
        sum += (int32_t)w[k] * h2[k];
    return sum;
}

double network_value(const Network *net, const Game *g, NetworkScratch *s, const Position *p)
{
    NetworkScratch local = {.count = -1};
    if (!s)
        s = &local;
    const uint8_t *h2 = second_layer(net, g, s, p);
    const int b = network_bucket(net, g, p);
    const int32_t v = net->q_bv[b] + dot32(net->q_wv + (size_t)b * NETWORK_L2, h2);
    return (double)v / (127.0 * (double)net->scale_v);
}

void network_priors(const Network *net, const Game *g, NetworkScratch *s, const Position *p, const Move *moves, int n,
                    float *logits)
{
    NetworkScratch local = {.count = -1};
    if (!s)
        s = &local;
    const uint8_t *h2 = second_layer(net, g, s, p);
    for (int i = 0; i < n; i++) {
        const int a = game_action_of(g, p, moves[i]);
        const int32_t v = net->q_be[a] + dot32(net->q_we + (size_t)a * NETWORK_L2, h2);
        logits[i] = (float)((double)v / (127.0 * (double)net->scale_e));
    }
}

double network_value_float(const Network *net, const Game *g, const Position *p)
{
    uint32_t active[NETWORK_MAX_ACTIVE];
    const int n = network_active_inputs(net, g, p, active), h = net->h;
    double h1[NETWORK_MAX_H], h2[NETWORK_L2];
    for (int u = 0; u < h; u++) {
        double a = net->b1[u];
        for (int k = 0; k < n; k++)
            a += net->w1[(size_t)active[k] * (size_t)h + (size_t)u];
        h1[u] = a < 0 ? 0 : a > 1 ? 1 : a;
    }
    for (int k = 0; k < NETWORK_L2; k++) {
        double a = net->b2[k];
        for (int j = 0; j < h; j++)
            a += h1[j] * net->w2[(size_t)j * NETWORK_L2 + (size_t)k];
        h2[k] = a < 0 ? 0 : a > 1 ? 1 : a;
    }
    const int b = network_bucket(net, g, p);
    double v = net->bv[b];
    for (int k = 0; k < NETWORK_L2; k++)
        v += h2[k] * net->wv[(size_t)b * NETWORK_L2 + (size_t)k];
    return v;
}
