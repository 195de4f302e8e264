/*
 * tensor_file.c - a dataset .npz (tensor_file.h): which arrays, in what types, and the JSON
 * description beside them.
 */
#include "tensor_file.h"
#include "core/tensors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { A_PLANES, A_LEGAL_COUNT, A_LEGAL, A_POLICY, A_LEGAL_MASK, A_PLAYED, A_RESULT, A_VALUE, A_GAME, A_PLY,
       A_SIDE, A_SYMMETRY, A_VISITS, NUM_ARRAYS };

struct TensorFile {
    NpzWriter *npz;
    const Game *g;
    TensorFileOptions opt;
    int id[NUM_ARRAYS];
    int num_actions;
    float *dense_policy;
    unsigned char *dense_mask;
    int16_t *legal;
    int32_t *visits;
    int16_t *narrow;
    unsigned char *bits;    /* a position's packed planes */
    size_t plane_bytes;
    bool overflowed;
};

static bool add(TensorFile *tf, int slot, const char *name, NpzType type, int ndim, const int64_t *dims, Error *err)
{
    tf->id[slot] = npz_add_array(tf->npz, name, type, ndim, dims, err);
    return tf->id[slot] >= 0;
}

static bool declare(TensorFile *tf, Error *err)
{
    int64_t planes[3] = {PLANES_COUNT, tf->g->height, tf->g->width}, actions = tf->num_actions;
    int64_t packed = (int64_t)((tf->plane_bytes + 7) / 8);
    bool ok = tf->opt.packed ? add(tf, A_PLANES, "planes_packed", NPZ_UINT8, 1, &packed, err)
                             : add(tf, A_PLANES, "planes", NPZ_UINT8, 3, planes, err);
    if (tf->opt.dense)
        ok = ok && add(tf, A_POLICY, "policy", NPZ_FLOAT32, 1, &actions, err) &&
             add(tf, A_LEGAL_MASK, "legal_mask", NPZ_UINT8, 1, &actions, err);
    else
        ok = ok && add(tf, A_LEGAL_COUNT, "legal_count", NPZ_INT16, 0, NULL, err) &&
             add(tf, A_LEGAL, "legal", NPZ_INT16, 0, NULL, err) &&
             add(tf, A_VISITS, "visits", tf->opt.wide_visits ? NPZ_INT32 : NPZ_INT16, 0, NULL, err);
    ok = ok && add(tf, A_PLAYED, "played", NPZ_INT16, 0, NULL, err) &&
         add(tf, A_RESULT, "result", NPZ_FLOAT32, 0, NULL, err) && add(tf, A_VALUE, "value", NPZ_FLOAT32, 0, NULL, err) &&
         add(tf, A_GAME, "game", NPZ_INT64, 0, NULL, err) && add(tf, A_PLY, "ply", NPZ_INT32, 0, NULL, err) &&
         add(tf, A_SIDE, "side", NPZ_UINT8, 0, NULL, err) && add(tf, A_SYMMETRY, "symmetry", NPZ_UINT8, 0, NULL, err);
    if (ok && !tf->opt.packed)
        npz_prefer_runs(tf->npz, tf->id[A_PLANES]);
    if (ok && tf->opt.dense)
        npz_prefer_runs(tf->npz, tf->id[A_LEGAL_MASK]);
    return ok;
}

TensorFile *tensor_file_create(const char *path, const Game *g, const TensorFileOptions *opt, Error *err)
{
    TensorFile *tf = calloc(1, sizeof *tf);
    if (!tf) {
        error_failed(err, "out of memory");
        return NULL;
    }
    tf->g = g;
    tf->opt = *opt;
    tf->num_actions = game_num_actions(g);
    tf->plane_bytes = (size_t)PLANES_COUNT * (size_t)g->width * (size_t)g->height;
    tf->bits = calloc((tf->plane_bytes + 7) / 8, 1);
    size_t a = (size_t)tf->num_actions;
    if (opt->dense) {
        tf->dense_policy = calloc(a, sizeof *tf->dense_policy);
        tf->dense_mask = calloc(a, 1);
    }
    tf->legal = malloc(MAX_MOVES * sizeof *tf->legal);
    tf->visits = malloc(MAX_MOVES * sizeof *tf->visits);
    tf->narrow = malloc(MAX_MOVES * sizeof *tf->narrow);
    if ((opt->dense && (!tf->dense_policy || !tf->dense_mask)) || !tf->legal || !tf->visits || !tf->narrow ||
        !tf->bits) {
        error_failed(err, "out of memory");
        tensor_file_discard(tf);
        return NULL;
    }
    tf->npz = npz_create(path, &opt->npz, err);
    if (!tf->npz || !declare(tf, err)) {
        tensor_file_discard(tf);
        return NULL;
    }
    return tf;
}

static bool add_sparse(TensorFile *tf, const TensorRow *row, Error *err)
{
    int n = row->num_legal;
    int16_t count = (int16_t)n;
    uint32_t most = 0;
    for (int i = 0; i < n; i++) {
        tf->legal[i] = (int16_t)row->legal[i];
        tf->visits[i] = (int32_t)(row->visits[i] < INT32_MAX ? row->visits[i] : INT32_MAX);
        tf->narrow[i] = (int16_t)row->visits[i];
        most = row->visits[i] > most ? row->visits[i] : most;
    }
    if (most > (tf->opt.wide_visits ? (uint32_t)INT32_MAX : (uint32_t)INT16_MAX)) {
        tf->overflowed = !tf->opt.wide_visits;
        error_set(err, "a visit count of %lu does not fit the visits array", (unsigned long)most);
        return false;
    }
    return npz_append(tf->npz, tf->id[A_LEGAL_COUNT], &count, 1, err) &&
           npz_append(tf->npz, tf->id[A_LEGAL], tf->legal, (size_t)n, err) &&
           (tf->opt.wide_visits ? npz_append(tf->npz, tf->id[A_VISITS], tf->visits, (size_t)n, err)
                                : npz_append(tf->npz, tf->id[A_VISITS], tf->narrow, (size_t)n, err));
}

static bool add_dense(TensorFile *tf, const TensorRow *row, Error *err)
{
    for (int i = 0; i < row->num_legal; i++) {
        tf->dense_mask[row->legal[i]] = 1;
        tf->dense_policy[row->legal[i]] =
            row->visit_sum ? (float)((double)row->visits[i] / (double)row->visit_sum) : 0.0f;
    }
    bool ok = npz_append(tf->npz, tf->id[A_POLICY], tf->dense_policy, 1, err) &&
              npz_append(tf->npz, tf->id[A_LEGAL_MASK], tf->dense_mask, 1, err);
    for (int i = 0; i < row->num_legal; i++) {
        tf->dense_mask[row->legal[i]] = 0;
        tf->dense_policy[row->legal[i]] = 0.0f;
    }
    return ok;
}

static const unsigned char *planes_of(TensorFile *tf, const TensorRow *row)
{
    if (!tf->opt.packed)
        return row->planes;
    memset(tf->bits, 0, (tf->plane_bytes + 7) / 8);
    for (size_t i = 0; i < tf->plane_bytes; i++)
        tf->bits[i >> 3] |= (unsigned char)((row->planes[i] & 1) << (i & 7));
    return tf->bits;
}

bool tensor_file_add(TensorFile *tf, const TensorRow *row, Error *err)
{
    int16_t played = (int16_t)row->played;
    int64_t game = (int64_t)row->game;
    int32_t ply = row->ply;
    unsigned char side = (unsigned char)row->side, symmetry = (unsigned char)row->symmetry;
    NpzWriter *w = tf->npz;
    return npz_append(w, tf->id[A_PLANES], planes_of(tf, row), 1, err) &&
           (tf->opt.dense ? add_dense(tf, row, err) : add_sparse(tf, row, err)) &&
           npz_append(w, tf->id[A_PLAYED], &played, 1, err) && npz_append(w, tf->id[A_RESULT], &row->result, 1, err) &&
           npz_append(w, tf->id[A_VALUE], &row->value, 1, err) && npz_append(w, tf->id[A_GAME], &game, 1, err) &&
           npz_append(w, tf->id[A_PLY], &ply, 1, err) && npz_append(w, tf->id[A_SIDE], &side, 1, err) &&
           npz_append(w, tf->id[A_SYMMETRY], &symmetry, 1, err);
}

bool tensor_file_add_row(const TensorRow *row, void *ctx, Error *err)
{
    return tensor_file_add(ctx, row, err);
}

bool tensor_file_overflowed(const TensorFile *tf) { return tf->overflowed; }

uint64_t tensor_file_rows(const TensorFile *tf) { return npz_rows(tf->npz, tf->id[A_PLANES]); }

uint64_t tensor_file_bytes(const TensorFile *tf) { return npz_spooled_bytes(tf->npz); }

/* The description: what a reader needs to interpret the arrays without this code. */
static char *describe(const TensorFile *tf, const char *extra)
{
    size_t cap = 4096 + (extra ? strlen(extra) : 0);
    char *s = malloc(cap);
    if (!s)
        return NULL;
    int n = snprintf(s, cap,
                     "{\"format\": \"leuctra-tensors\", \"version\": %d, \"planes_version\": %d, "
                     "\"variant\": \"%s\", \"width\": %d, \"height\": %d, \"num_actions\": %d, "
                     "\"layout\": \"%s\", \"visits\": \"%s\", \"planes_packed\": %s, \"positions\": %llu, "
                     "\"planes\": [",
                     TENSOR_FILE_VERSION, PLANES_VERSION, tf->g->name, tf->g->width, tf->g->height, tf->num_actions,
                     tf->opt.dense ? "dense" : "sparse", tf->opt.dense ? "none" : tf->opt.wide_visits ? "int32" : "int16",
                     tf->opt.packed ? "true" : "false", (unsigned long long)tensor_file_rows(tf));
    for (int i = 0; i < PLANES_COUNT; i++)
        n += snprintf(s + n, cap - (size_t)n, "%s\"%s\"", i ? ", " : "", tensor_plane_names[i]);
    snprintf(s + n, cap - (size_t)n, "]%s%s}", extra && *extra ? ", " : "", extra ? extra : "");
    return s;
}

bool tensor_file_finish(TensorFile *tf, const char *description, uint64_t *bytes, Error *err)
{
    char *text = describe(tf, description);
    bool ok = text && npz_add_bytes(tf->npz, "meta", text, strlen(text), err);
    if (!text)
        error_failed(err, "out of memory");
    free(text);
    if (ok)
        ok = npz_finish(tf->npz, bytes, err);
    else
        npz_discard(tf->npz);
    tf->npz = NULL;
    tensor_file_discard(tf);
    return ok;
}

void tensor_file_discard(TensorFile *tf)
{
    if (!tf)
        return;
    npz_discard(tf->npz);
    free(tf->dense_policy);
    free(tf->dense_mask);
    free(tf->legal);
    free(tf->visits);
    free(tf->narrow);
    free(tf->bits);
    free(tf);
}
