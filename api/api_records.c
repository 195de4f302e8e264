/*
 * api_records.c - the records half of the C API (leuctra_api.h): a records file read as tensor
 * rows (data/record_tensors.h) into growing buffers, whole games at a time, for the caller to
 * copy out into its own arrays.
 */
#include "leuctra_api.h"
#include "core/tensors.h"
#include "data/record_tensors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing array of `size`-byte items. */
typedef struct {
    void *items;
    size_t count, capacity, size;
} Column;

static bool column_add(Column *c, const void *item, size_t n)
{
    if (c->count + n > c->capacity) {
        size_t cap = c->capacity ? c->capacity : 1024;
        while (cap < c->count + n)
            cap *= 2;
        void *p = realloc(c->items, cap * c->size);
        if (!p)
            return false;
        c->items = p;
        c->capacity = cap;
    }
    memcpy((char *)c->items + c->count * c->size, item, n * c->size);
    c->count += n;
    return true;
}

enum { C_PLANES, C_LEGAL_COUNT, C_LEGAL, C_VISITS, C_PLAYED, C_RESULT, C_VALUE, C_GAME, C_PLY, C_SIDE, C_SYMMETRY,
       NUM_COLUMNS };

struct LtRecords {
    RecordsReader *reader;
    Game *game;
    RecordTensors *rt;
    GameRecord record;
    Column col[NUM_COLUMNS];
    size_t plane_bytes;
    int16_t legal[MAX_MOVES];
    int32_t visits[MAX_MOVES];
};

static int fail(char *err, size_t err_len, int status, const char *msg)
{
    if (err && err_len)
        snprintf(err, err_len, "%s", msg);
    return status;
}

LtRecords *lt_records_open(const char *path, int augment, char *err, size_t err_len)
{
    LtRecords *r = calloc(1, sizeof *r);
    if (!r) {
        fail(err, err_len, LT_ERR_FAILED, "out of memory");
        return NULL;
    }
    static const size_t sizes[NUM_COLUMNS] = {1, 2, 2, 4, 2, 4, 4, 8, 4, 1, 1};
    for (int i = 0; i < NUM_COLUMNS; i++)
        r->col[i].size = sizes[i];
    game_record_init(&r->record);
    Error rerr = {0};
    Error e;
    r->reader = records_open(path ? path : "", &rerr);
    if (!r->reader) {
        fail(err, err_len, LT_ERR_INPUT, rerr.msg);
        lt_records_close(r);
        return NULL;
    }
    r->game = records_header_game(records_reader_header(r->reader), &e);
    if (!r->game) {
        char msg[ERROR_LEN + 400];
        snprintf(msg, sizeof msg, "%s: the header's board: %s", path, e.msg);
        fail(err, err_len, LT_ERR_FAILED, msg);
        lt_records_close(r);
        return NULL;
    }
    r->rt = record_tensors_new(r->game, augment ? ~0u : 0u);
    if (!r->rt) {
        fail(err, err_len, LT_ERR_FAILED, "out of memory");
        lt_records_close(r);
        return NULL;
    }
    r->plane_bytes = (size_t)PLANES_COUNT * (size_t)r->game->width * (size_t)r->game->height;
    r->col[C_PLANES].size = r->plane_bytes;
    return r;
}

const char *lt_records_variant(const LtRecords *r) { return r->game->name; }

void lt_records_shape(const LtRecords *r, int *width, int *height, int *num_actions, int *num_planes, int *copies)
{
    *width = r->game->width;
    *height = r->game->height;
    *num_actions = game_num_actions(r->game);
    *num_planes = PLANES_COUNT;
    *copies = record_tensors_copies(r->rt);
}

static bool add_row(const TensorRow *row, void *ctx, Error *err)
{
    LtRecords *r = ctx;
    for (int i = 0; i < row->num_legal; i++) {
        r->legal[i] = (int16_t)row->legal[i];
        r->visits[i] = (int32_t)row->visits[i];
    }
    int16_t count = (int16_t)row->num_legal, played = (int16_t)row->played;
    int64_t game = (int64_t)row->game;
    int32_t ply = row->ply;
    uint8_t side = (uint8_t)row->side, symmetry = (uint8_t)row->symmetry;
    Column *c = r->col;
    bool ok = column_add(&c[C_PLANES], row->planes, 1) && column_add(&c[C_LEGAL_COUNT], &count, 1) &&
              column_add(&c[C_LEGAL], r->legal, (size_t)row->num_legal) &&
              column_add(&c[C_VISITS], r->visits, (size_t)row->num_legal) && column_add(&c[C_PLAYED], &played, 1) &&
              column_add(&c[C_RESULT], &row->result, 1) && column_add(&c[C_VALUE], &row->value, 1) &&
              column_add(&c[C_GAME], &game, 1) && column_add(&c[C_PLY], &ply, 1) && column_add(&c[C_SIDE], &side, 1) &&
              column_add(&c[C_SYMMETRY], &symmetry, 1);
    if (!ok)
        error_failed(err, "out of memory");
    return ok;
}

int lt_records_read(LtRecords *r, long max_rows, long *rows, long *entries, char *err, size_t err_len)
{
    for (int i = 0; i < NUM_COLUMNS; i++)
        r->col[i].count = 0;
    *rows = *entries = 0;
    Error rerr = {0};
    int rc = 0;
    while (r->col[C_PLAYED].count < (size_t)(max_rows > 0 ? max_rows : 1) &&
           (rc = records_next(r->reader, &r->record, &rerr)) == 1) {
        Error e;
        if (!record_tensors_game(r->rt, &r->record, add_row, r, &e)) {
            char msg[ERROR_LEN + 400];
            snprintf(msg, sizeof msg, "%s", e.msg);
            return fail(err, err_len, LT_ERR_FAILED, msg);
        }
    }
    if (rc < 0)
        return fail(err, err_len, LT_ERR_FAILED, rerr.msg);
    *rows = (long)r->col[C_PLAYED].count;
    *entries = (long)r->col[C_LEGAL].count;
    return LT_OK;
}

void lt_records_fetch(const LtRecords *r, uint8_t *planes, int16_t *legal_count, int16_t *legal, int32_t *visits,
                      int16_t *played, float *result, float *value, int64_t *game, int32_t *ply, uint8_t *side,
                      uint8_t *symmetry)
{
    void *out[NUM_COLUMNS] = {planes, legal_count, legal, visits, played, result, value, game, ply, side, symmetry};
    for (int i = 0; i < NUM_COLUMNS; i++)
        if (out[i] && r->col[i].count)
            memcpy(out[i], r->col[i].items, r->col[i].count * r->col[i].size);
}

void lt_records_close(LtRecords *r)
{
    if (!r)
        return;
    for (int i = 0; i < NUM_COLUMNS; i++)
        free(r->col[i].items);
    game_record_free(&r->record);
    record_tensors_free(r->rt);
    game_free(r->game);
    records_close(r->reader);
    free(r);
}
