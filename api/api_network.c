/*
 * api_network.c - the network half of the C API (leuctra_api.h, "the network, trained
 * elsewhere"): the game, base weights and architecture every network call is given, checked
 * here once (api_network.h), lt_network_describe, and lt_network_save, which turns a network
 * trained outside the library into a weights file through the library's own quantization
 * (network_quantize) and writer (weights_save), so that a file has one format and one set of
 * integers whoever trained it.  The positions a fit reads are api_network_data.c's, the
 * evaluation of a file api_network_eval.c's.
 */
#include "api_network.h"
#include "leuctra_api.h"

#include "core/pattern.h"
#include "data/weights.h"
#include "search/search_setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const array_names[LT_NETWORK_ARRAYS] = {"w1", "b1", "w2", "b2", "wv", "bv", "we", "be"};

int api_network_fail(char *err, size_t err_len, const Error *e)
{
    if (err && err_len)
        snprintf(err, err_len, "%s", e->msg);
    return e->failure ? LT_ERR_FAILED : LT_ERR_INPUT;
}

Game *api_network_game(const char *variant, const char *size, Error *e)
{
    int w = 0, h = 0;
    if (size && *size && !game_parse_size(size, &w, &h, e))
        return NULL;
    return game_new(variant && *variant ? variant : "epaminondas", w, h, e);
}

bool api_network_load(ApiNetwork *a, Game *game, const char *weights, Error *e)
{
    memset(a, 0, sizeof *a);
    a->game = game;
    if (!game)
        return false;           /* *e says why: api_network_game's */
    if (!search_load_evaluation(game, weights ? weights : "", &a->base, e))
        return false;
    a->has_base = true;
    return true;
}

/* The shapes asked for, or the base weights' tables' (base where they have none). */
static bool choose_families(const ApiNetwork *a, const char *shapes, unsigned *families, Error *e)
{
    if (shapes && *shapes)
        return pattern_families_parse(shapes, families, e);
    *families = a->base.tables ? a->base.pattern_families : PATTERN_BASE;
    return true;
}

bool api_network_arch(ApiNetwork *a, int inputs, const char *shapes, int hidden, Error *e)
{
    unsigned families;
    if (inputs != LT_NETWORK_PATTERNS && inputs != LT_NETWORK_SQUARES && inputs != LT_NETWORK_BOTH)
        return error_set(e, "inputs must be %d (patterns), %d (squares) or %d (both), got %d", LT_NETWORK_PATTERNS,
                         LT_NETWORK_SQUARES, LT_NETWORK_BOTH, inputs);
    if (!choose_families(a, shapes, &families, e))
        return false;
    if (!network_init(&a->arch, a->game, (unsigned)inputs, families, hidden, e))
        return false;
    a->has_arch = true;
    return true;
}

void api_network_close(ApiNetwork *a)
{
    if (a->has_arch)
        network_free(&a->arch);
    if (a->has_base)
        weights_dispose(&a->base);
    game_free(a->game);
    memset(a, 0, sizeof *a);
}

static const char *inputs_name(unsigned inputs)
{
    return inputs == NETWORK_PATTERNS ? "patterns" : inputs == NETWORK_SQUARES ? "squares" : "both";
}

size_t api_network_json(const ApiNetwork *a, const Network *net, char *out, size_t len)
{
    char shapes[128], id[17];
    pattern_families_format(net->pattern_families, shapes, sizeof shapes);
    weights_id_text(&a->base, id);
    const Game *g = a->game;
    return (size_t)snprintf(out, len,
                            "\"variant\": \"%s\", \"width\": %d, \"height\": %d, \"inputs\": \"%s\", \"shapes\": \"%s\", "
                            "\"families\": %u, \"num_inputs\": %d, \"num_actions\": %d, \"buckets\": %d, "
                            "\"weights_id\": \"%s\"",
                            g->name, g->width, g->height, inputs_name(net->input_set), shapes, net->pattern_families,
                            net->num_inputs, net->num_actions, net->buckets, id);
}

/* "{" + the members + "}" into json; LT_ERR_INPUT when it does not fit. */
static int object_json(const ApiNetwork *a, const Network *net, char *json, size_t json_len, char *err,
                       size_t err_len)
{
    char body[1024];
    const size_t need = api_network_json(a, net, body, sizeof body);
    if (need >= sizeof body || need + 3 > json_len) {
        Error e;
        error_set(&e, "the JSON buffer is too small (%zu bytes; %zu needed)", json_len, need + 3);
        return api_network_fail(err, err_len, &e);
    }
    snprintf(json, json_len, "{%s}", body);
    return LT_OK;
}

int lt_network_describe(const char *variant, const char *size, const char *weights, int inputs, const char *shapes,
                        char *json, size_t json_len, char *err, size_t err_len)
{
    Error e;
    ApiNetwork a = {0};
    int status = LT_OK;
    if (!api_network_load(&a, api_network_game(variant, size, &e), weights, &e) ||
        !api_network_arch(&a, inputs, shapes, NETWORK_MIN_H, &e))
        status = api_network_fail(err, err_len, &e);
    else
        status = object_json(&a, &a.arch, json, json_len, err, err_len);
    api_network_close(&a);
    return status;
}

/* ---------------------------------------------------------------- lt_network_save */

/* The caller's arrays into the network's, their lengths and values checked. */
static bool copy_arrays(Network *net, const float *const *arrays, const int64_t *lengths, Error *e)
{
    float **to[NETWORK_ARRAYS];
    size_t want[NETWORK_ARRAYS];
    if (!arrays || !lengths)
        return error_set(e, "no arrays: a network needs its %d float arrays (w1, b1, w2, b2, wv, bv, we, be)",
                         LT_NETWORK_ARRAYS);
    const int n = network_arrays(net, to, want);
    for (int i = 0; i < n; i++) {
        if (lengths[i] < 0 || (uint64_t)lengths[i] != (uint64_t)want[i])
            return error_set(e, "%s has %lld values; this network's has %zu", array_names[i], (long long)lengths[i],
                             want[i]);
        if (!arrays[i] && want[i])
            return error_set(e, "%s is missing (NULL)", array_names[i]);
        for (size_t k = 0; k < want[i]; k++)
            if (!(fabsf(arrays[i][k]) <= (float)WEIGHTS_MAX_VALUE))
                return error_set(e, "%s[%zu] is %g: a weight must be a finite number within +-%g", array_names[i], k,
                                 (double)arrays[i][k], WEIGHTS_MAX_VALUE);
        if (want[i])
            memcpy(*to[i], arrays[i], want[i] * sizeof(float));
    }
    return true;
}

/* The positions given as strings of the game; NULL with *e (or for none: *e says nothing). */
static Position *parse_positions(const Game *g, const char *const *texts, int n, Error *e)
{
    if (n < 0 || n > LT_NETWORK_MAX_POSITIONS) {
        error_set(e, "the number of positions must be from 0 to %d, got %d", LT_NETWORK_MAX_POSITIONS, n);
        return NULL;
    }
    if (n > 0 && !texts) {
        error_set(e, "%d positions, and no array of them", n);
        return NULL;
    }
    Position *p = malloc((size_t)(n ? n : 1) * sizeof *p);
    if (!p) {
        error_failed(e, "out of memory for %d positions", n);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        Error why;
        if (!texts[i] || !game_parse_position(g, texts[i], &p[i], &why)) {
            error_set(e, "position %d: %s", i, texts[i] ? why.msg : "missing (NULL)");
            free(p);
            return NULL;
        }
    }
    return p;
}

/* Whether two paths name one file (the output must not replace its own base weights). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return a && b && *b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool check_out(const char *path, const char *weights, Error *e)
{
    if (!path || !*path)
        return error_set(e, "no output path");
    const size_t len = strlen(path);
    if (len >= 4 && strcmp(path + len - 4, ".txt") == 0)
        return error_set(e, "%s: a weights file with a network is a table file: name it .lwt", path);
    if (same_file(path, weights))
        return error_set(e, "%s is the base weights file: write the network beside it, not over it", path);
    return true;
}

/* The file's provenance lines, then the caller's note. */
static char *provenance(const ApiNetwork *a, const char *weights, int positions, const char *note)
{
    const Network *n = &a->arch;
    char shapes[128], id[17], *text = NULL;
    size_t size = 0;
    pattern_families_format(n->pattern_families, shapes, sizeof shapes);
    weights_id_text(&a->base, id);
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    fprintf(f, "network trained outside the library, written by lt_network_save (docs/NETWORK.md)\n");
    fprintf(f, "network: inputs %s (shapes %s), H %d, %d inputs, %d value buckets, %d actions\n",
            inputs_name(n->input_set), shapes, n->h, n->num_inputs, n->buckets, n->num_actions);
    if (positions)
        fprintf(f, "quantized over %d positions: ", positions);
    else
        fprintf(f, "quantized for the weights' worst case: ");
    fprintf(f, "shift1 %d, shift2 %d, value scale %.9g, policy scale %.9g\n", n->shift1, n->shift2,
            (double)n->scale_v, (double)n->scale_e);
    fprintf(f, "base: %s%s (id %s); its linear weights, tables and priors kept, the network's skip path\n",
            weights && *weights ? "" : "the shipped weights", weights && *weights ? weights : "", id);
    if (note && *note)
        fprintf(f, "%s\n", note);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int lt_network_save(const char *path, const char *variant, const char *size, const char *weights, int inputs,
                    const char *shapes, int hidden, const float *const *arrays, const int64_t *lengths,
                    const char *const *positions, int num_positions, const char *note, char *err, size_t err_len)
{
    Error e;
    ApiNetwork a = {0};
    Position *sample = NULL;
    char *comments = NULL;
    bool ok = check_out(path, weights, &e) && api_network_load(&a, api_network_game(variant, size, &e), weights, &e);
    ok = ok && api_network_arch(&a, inputs, shapes, hidden, &e) && copy_arrays(&a.arch, arrays, lengths, &e);
    ok = ok && (sample = parse_positions(a.game, positions, num_positions, &e)) != NULL;
    if (ok && !network_quantize(&a.arch, a.game, num_positions ? sample : NULL, num_positions))
        ok = error_failed(&e, "out of memory quantizing the network");
    if (ok && !(comments = provenance(&a, weights, num_positions, note)))
        ok = error_failed(&e, "out of memory");
    if (ok) {
        Weights out = a.base;           /* borrows the base's tables and priors */
        out.net = &a.arch;
        ok = weights_save(a.game, &out, comments, path, &e);
    }
    free(comments);
    free(sample);
    api_network_close(&a);
    return ok ? LT_OK : api_network_fail(err, err_len, &e);
}
