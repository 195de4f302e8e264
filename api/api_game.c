/*
 * api_game.c - the game half of the C API (leuctra_api.h): a game and its position with a
 * history, moves in notation and as actions, planes, perft and a search.  Every failure comes
 * back as a status and a one-line message; nothing exits.
 */
#include "leuctra_api.h"
#include "core/perft.h"
#include "core/threads.h"
#include "core/tensors.h"
#include "data/weights.h"
#include "search/mcts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct LtGame {
    Game *game;
    Position pos;
    Position *history;      /* the positions before each move played */
    size_t plies, capacity;
    char *weights_path;     /* the weights loaded for analyze ("" for the shipped ones), or NULL */
    Weights weights;
};

static int fail(char *err, size_t err_len, int status, const char *msg)
{
    if (err && err_len)
        snprintf(err, err_len, "%s", msg);
    return status;
}

static int fail_error(char *err, size_t err_len, int status, const Error *e)
{
    return fail(err, err_len, status, e->msg);
}

int lt_api_version(void) { return LT_API_VERSION; }
const char *lt_version(void) { return LEUCTRA_VERSION; }

static bool is_start(const char *position) { return !position || !*position || strcmp(position, "start") == 0; }

LtGame *lt_game_new(const char *variant, const char *size, const char *position, char *err, size_t err_len)
{
    Error e;
    int w = 0, h = 0;
    if (size && *size && !game_parse_size(size, &w, &h, &e)) {
        fail_error(err, err_len, LT_ERR_INPUT, &e);
        return NULL;
    }
    LtGame *g = calloc(1, sizeof *g);
    if (!g) {
        fail(err, err_len, LT_ERR_FAILED, "out of memory");
        return NULL;
    }
    const char *name = variant && *variant ? variant : "epaminondas";
    if (is_start(position)) {
        g->game = game_new(name, w, h, &e);
        if (g->game)
            game_start(g->game, &g->pos);
    } else {
        g->game = game_new_for_position(name, position, &g->pos, &e);
        if (g->game && w && (g->game->width != w || g->game->height != h)) {
            snprintf(e.msg, sizeof e.msg, "the position is on a %dx%d board, not %s", g->game->width,
                     g->game->height, size);
            game_free(g->game);
            g->game = NULL;
        }
    }
    if (!g->game) {
        fail_error(err, err_len, LT_ERR_INPUT, &e);
        free(g);
        return NULL;
    }
    return g;
}

LtGame *lt_game_clone(const LtGame *src, char *err, size_t err_len)
{
    char text[400];
    game_format_position(src->game, &src->pos, text, sizeof text);
    LtGame *g = lt_game_new(src->game->name, NULL, text, err, err_len);
    if (!g)
        return NULL;
    if (src->plies) {
        g->history = malloc(src->plies * sizeof *g->history);
        if (!g->history) {
            lt_game_free(g);
            fail(err, err_len, LT_ERR_FAILED, "out of memory");
            return NULL;
        }
        memcpy(g->history, src->history, src->plies * sizeof *g->history);
        g->plies = g->capacity = src->plies;
    }
    return g;
}

void lt_game_free(LtGame *g)
{
    if (!g)
        return;
    if (g->weights_path)
        weights_dispose(&g->weights);
    free(g->weights_path);
    free(g->history);
    game_free(g->game);
    free(g);
}

const char *lt_game_variant(const LtGame *g) { return g->game->name; }

void lt_game_shape(const LtGame *g, int *width, int *height, int *num_actions, int *num_planes, int *planes_version,
                   unsigned *symmetries)
{
    *width = g->game->width;
    *height = g->game->height;
    *num_actions = game_num_actions(g->game);
    *num_planes = PLANES_COUNT;
    *planes_version = PLANES_VERSION;
    *symmetries = game_symmetries(g->game);
}

int lt_game_position(const LtGame *g, char *buf, size_t len)
{
    game_format_position(g->game, &g->pos, buf, len);
    return LT_OK;
}

int lt_game_set_position(LtGame *g, const char *position, char *err, size_t err_len)
{
    Position pos;
    Error e;
    if (is_start(position))
        game_start(g->game, &pos);
    else if (!game_parse_position(g->game, position, &pos, &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    g->pos = pos;
    g->plies = 0;
    return LT_OK;
}

int lt_game_side(const LtGame *g) { return game_side_to_move(g->game, &g->pos); }

int lt_game_status(const LtGame *g)
{
    switch (game_status(g->game, &g->pos)) {
    case STATUS_WHITE_WINS: return LT_WHITE_WINS;
    case STATUS_BLACK_WINS: return LT_BLACK_WINS;
    case STATUS_DRAW: return LT_DRAW;
    default: return LT_ONGOING;
    }
}

int lt_game_legal_moves(const LtGame *g, char *buf, size_t len)
{
    Move moves[MAX_MOVES];
    int n = game_gen_moves(g->game, &g->pos, moves);
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[32];
        game_format_move(g->game, &g->pos, moves[i], text, sizeof text);
        size_t k = strlen(text);
        if (at + k + 2 > len)
            return -1;
        if (i)
            buf[at++] = ' ';
        memcpy(buf + at, text, k + 1);
        at += k;
    }
    return n;
}

int lt_game_legal_actions(const LtGame *g, int32_t *out, int cap)
{
    Move moves[MAX_MOVES];
    int actions[MAX_MOVES];
    int n = game_legal_actions(g->game, &g->pos, moves, actions);
    if (n > cap)
        return -1;
    for (int i = 0; i < n; i++) {     /* insertion sort: moves come a line at a time, nearly in order */
        int j = i;
        for (; j > 0 && out[j - 1] > actions[i]; j--)
            out[j] = out[j - 1];
        out[j] = actions[i];
    }
    return n;
}

static int play_move(LtGame *g, Move m, char *err, size_t err_len)
{
    if (g->plies == g->capacity) {
        size_t cap = g->capacity ? 2 * g->capacity : 64;
        Position *h = realloc(g->history, cap * sizeof *h);
        if (!h)
            return fail(err, err_len, LT_ERR_FAILED, "out of memory");
        g->history = h;
        g->capacity = cap;
    }
    g->history[g->plies++] = g->pos;
    Undo u;
    game_make(g->game, &g->pos, m, &u);
    return LT_OK;
}

int lt_game_play(LtGame *g, const char *move, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!move || !game_parse_move(g->game, &g->pos, move, &m, &e))
        return move ? fail_error(err, err_len, LT_ERR_INPUT, &e) : fail(err, err_len, LT_ERR_INPUT, "no move");
    return play_move(g, m, err, err_len);
}

int lt_game_play_action(LtGame *g, int action, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!game_move_of(g->game, &g->pos, action, &m, &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    return play_move(g, m, err, err_len);
}

int lt_game_undo(LtGame *g, char *err, size_t err_len)
{
    if (g->plies == 0)
        return fail(err, err_len, LT_ERR_INPUT, "no move to take back");
    g->pos = g->history[--g->plies];
    return LT_OK;
}

int lt_game_action_of(const LtGame *g, const char *move, int32_t *action, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!move || !game_parse_move(g->game, &g->pos, move, &m, &e))
        return move ? fail_error(err, err_len, LT_ERR_INPUT, &e) : fail(err, err_len, LT_ERR_INPUT, "no move");
    *action = game_action_of(g->game, &g->pos, m);
    return LT_OK;
}

int lt_game_move_of(const LtGame *g, int action, char *buf, size_t len, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!game_move_of(g->game, &g->pos, action, &m, &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    game_format_move(g->game, &g->pos, m, buf, len);
    return LT_OK;
}

int lt_game_planes(const LtGame *g, unsigned char *out, size_t len, char *err, size_t err_len)
{
    size_t need = (size_t)PLANES_COUNT * (size_t)g->game->width * (size_t)g->game->height;
    if (len < need)
        return fail(err, err_len, LT_ERR_INPUT, "the planes buffer is too small");
    game_planes(g->game, &g->pos, out);
    return LT_OK;
}

int lt_game_perft(const LtGame *g, int depth, int threads, uint64_t *count, char *err, size_t err_len)
{
    Error e;
    if (depth < 0 || depth > LT_PERFT_MAX_DEPTH) {
        snprintf(e.msg, sizeof e.msg, "depth must be an integer from 0 to %d, got %d", LT_PERFT_MAX_DEPTH, depth);
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    }
    if (!threads_check(threads, 0, "threads", &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    if (!perft_parallel(g->game, &g->pos, depth, threads, count, NULL, NULL, &e))
        return fail_error(err, err_len, LT_ERR_FAILED, &e);
    return LT_OK;
}

int lt_threads_max(void) { return THREADS_MAX; }

int lt_threads_note(int threads, char *note, size_t note_len)
{
    if (note && note_len)
        note[0] = '\0';
    return threads_too_many(threads, note, note_len) ? 1 : 0;
}

/* The weights for analyze, kept while the same path is asked for. */
static int load_weights(LtGame *g, const char *path, char *err, size_t err_len)
{
    const char *want = path ? path : "";
    if (g->weights_path && strcmp(g->weights_path, want) == 0)
        return LT_OK;
    if (g->weights_path) {
        weights_dispose(&g->weights);
        free(g->weights_path);
        g->weights_path = NULL;
    }
    Error e;
    if (*want ? !weights_load(g->game, want, &g->weights, &e) : !weights_default(g->game, &g->weights))
        return *want ? fail_error(err, err_len, LT_ERR_INPUT, &e)
                     : fail(err, err_len, LT_ERR_FAILED, "no shipped weights for this game");
    g->weights_path = strdup(want);
    if (!g->weights_path) {
        weights_dispose(&g->weights);
        return fail(err, err_len, LT_ERR_FAILED, "out of memory");
    }
    return LT_OK;
}

typedef struct {
    char *buf;
    size_t len, at;
    bool full;
} Json;

static void json_put(Json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void json_put(Json *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(j->buf + j->at, j->at < j->len ? j->len - j->at : 0, fmt, ap);
    va_end(ap);
    if (n < 0 || j->at + (size_t)n >= j->len)
        j->full = true;
    else
        j->at += (size_t)n;
}

/* JSON has no NaN: an unknown value (a move never visited) is null. */
static void json_number(Json *j, double v)
{
    if (isfinite(v))
        json_put(j, "%.6f", v);
    else
        json_put(j, "null");
}

static const char *proven_name(Proven p)
{
    return p == PROVEN_WIN ? "win" : p == PROVEN_LOSS ? "loss" : p == PROVEN_DRAW ? "draw" : "none";
}

static void write_result(const LtGame *g, const MctsResult *r, Json *j)
{
    char text[32] = "";
    if (r->best != MOVE_NONE)
        game_format_move(g->game, &g->pos, r->best, text, sizeof text);
    json_put(j, "{\"best\": %s%s%s, \"value\": ", *text ? "\"" : "", *text ? text : "null", *text ? "\"" : "");
    json_number(j, r->value);
    json_put(j, ", \"proven\": \"%s\", \"visits\": %ld, \"seconds\": %.6f, \"pv\": [", proven_name(r->proven),
             r->tree_visits, r->seconds);
    Position pos = g->pos;
    for (int i = 0; i < r->pv_length; i++) {
        game_format_move(g->game, &pos, r->pv[i], text, sizeof text);
        json_put(j, "%s\"%s\"", i ? ", " : "", text);
        Undo u;
        game_make(g->game, &pos, r->pv[i], &u);
    }
    json_put(j, "], \"moves\": [");
    for (int i = 0; i < r->num_stats; i++) {
        const MoveStat *s = &r->stats[i];
        game_format_move(g->game, &g->pos, s->move, text, sizeof text);
        json_put(j, "%s{\"move\": \"%s\", \"action\": %d, \"visits\": %ld, \"prior\": %.6f, \"value\": ",
                 i ? ", " : "", text, game_action_of(g->game, &g->pos, s->move), s->visits, s->prior);
        json_number(j, s->value);
        json_put(j, "}");
    }
    json_put(j, "]}");
}

int lt_game_analyze(LtGame *g, long visits, double seconds, const char *weights, uint64_t seed, int threads,
                    char *json, size_t json_len, char *err, size_t err_len)
{
    Error e;
    if (visits < 0 || visits > LT_ANALYZE_MAX_VISITS) {
        snprintf(e.msg, sizeof e.msg, "visits must be an integer from 0 to %lld, got %ld", LT_ANALYZE_MAX_VISITS, visits);
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    }
    if (!(seconds >= 0 && seconds <= LT_ANALYZE_MAX_SECONDS)) {     /* NaN too */
        snprintf(e.msg, sizeof e.msg, "seconds must be a number from 0 to %g, got %g", LT_ANALYZE_MAX_SECONDS, seconds);
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    }
    if (!threads_check(threads, 0, "threads", &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    int status = load_weights(g, weights, err, err_len);
    if (status != LT_OK)
        return status;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    cfg.seed = seed;
    cfg.threads = threads ? threads : 1;         /* 0: one thread, as the header says */
    MctsLimits limits = {visits, seconds};
    if (visits == 0 && seconds == 0)
        limits.visits = 1000;
    if (limits.visits && !limits.seconds && (size_t)limits.visits * 2 + 4096 < cfg.max_nodes)
        cfg.max_nodes = (size_t)limits.visits * 2 + 4096;   /* a small search needs no 128 MiB tree */
    Mcts *m = mcts_new(g->game, &g->weights, &cfg);
    if (!m)
        return fail(err, err_len, LT_ERR_FAILED, "cannot allocate the search tree");
    mcts_set_position(m, &g->pos);
    MctsResult *r = malloc(sizeof *r);
    if (!r) {
        mcts_free(m);
        return fail(err, err_len, LT_ERR_FAILED, "out of memory");
    }
    *r = mcts_search(m, &limits, NULL, NULL, 0, NULL);
    mcts_free(m);
    Json j = {json, json_len, 0, false};
    write_result(g, r, &j);
    free(r);
    if (j.full)
        return fail(err, err_len, LT_ERR_INPUT, "analyze: the JSON buffer is too small");
    return LT_OK;
}
