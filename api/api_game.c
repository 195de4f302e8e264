/*
 * api_game.c - the game half of the C API (leuctra_api.h): a game and its position with a
 * history, moves in notation and as actions, planes, perft and a search.  Every failure comes
 * back as a status and a one-line message; nothing exits.
 */
#include "api_internal.h"
#include "core/perft.h"
#include "core/threads.h"
#include "core/tensors.h"
#include "data/weights.h"
#include "search/search_json.h"
#include "search/search_setup.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct LtGame {
    Game *game;
    GameSoFar played;       /* the game from its start: the position now, and every position before
                               it for the search's repetition rule, as the engine and self-play keep it */
    char *weights_path;     /* the weights loaded for analyze ("" for the shipped ones), or NULL */
    Weights weights;
};

static const Position *now(const LtGame *g) { return &g->played.now; }

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
    Position start;
    if (is_start(position)) {
        g->game = game_new(name, w, h, &e);
        if (g->game)
            game_start(g->game, &start);
    } else {
        g->game = game_new_for_position(name, position, &start, &e);
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
    if (!game_so_far_begin(&g->played, g->game, &start)) {
        lt_game_free(g);
        fail(err, err_len, LT_ERR_FAILED, "out of memory");
        return NULL;
    }
    return g;
}

LtGame *lt_game_clone(const LtGame *src, char *err, size_t err_len)
{
    char text[400];
    game_format_position(src->game, &src->played.start, text, sizeof text);
    LtGame *g = lt_game_new(src->game->name, NULL, text, err, err_len);
    if (!g)
        return NULL;
    for (int i = 0; i < src->played.plies; i++)
        if (!game_so_far_play(&g->played, g->game, src->played.moves[i])) {
            lt_game_free(g);
            fail(err, err_len, LT_ERR_FAILED, "out of memory");
            return NULL;
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
    game_so_far_free(&g->played);
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
    game_format_position(g->game, now(g), buf, len);
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
    if (!game_so_far_begin(&g->played, g->game, &pos))
        return fail(err, err_len, LT_ERR_FAILED, "out of memory");
    return LT_OK;
}

int lt_game_side(const LtGame *g) { return game_side_to_move(g->game, now(g)); }

int lt_game_status(const LtGame *g)
{
    switch (game_status(g->game, now(g))) {
    case STATUS_WHITE_WINS: return LT_WHITE_WINS;
    case STATUS_BLACK_WINS: return LT_BLACK_WINS;
    case STATUS_DRAW: return LT_DRAW;
    default: return LT_ONGOING;
    }
}

int lt_game_legal_moves(const LtGame *g, char *buf, size_t len)
{
    Move moves[MAX_MOVES];
    int n = game_gen_moves(g->game, now(g), moves);
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[32];
        game_format_move(g->game, now(g), moves[i], text, sizeof text);
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
    int n = game_legal_actions(g->game, now(g), moves, actions);
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
    if (!game_so_far_play(&g->played, g->game, m))
        return fail(err, err_len, LT_ERR_FAILED, "out of memory");
    return LT_OK;
}

int lt_game_play(LtGame *g, const char *move, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!move || !game_parse_move(g->game, now(g), move, &m, &e))
        return move ? fail_error(err, err_len, LT_ERR_INPUT, &e) : fail(err, err_len, LT_ERR_INPUT, "no move");
    return play_move(g, m, err, err_len);
}

int lt_game_play_action(LtGame *g, int action, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!game_move_of(g->game, now(g), action, &m, &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    return play_move(g, m, err, err_len);
}

int lt_game_undo(LtGame *g, char *err, size_t err_len)
{
    if (g->played.plies == 0)
        return fail(err, err_len, LT_ERR_INPUT, "no move to take back");
    game_so_far_truncate(&g->played, g->game, g->played.plies - 1);
    return LT_OK;
}

int lt_game_action_of(const LtGame *g, const char *move, int32_t *action, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!move || !game_parse_move(g->game, now(g), move, &m, &e))
        return move ? fail_error(err, err_len, LT_ERR_INPUT, &e) : fail(err, err_len, LT_ERR_INPUT, "no move");
    *action = game_action_of(g->game, now(g), m);
    return LT_OK;
}

int lt_game_move_of(const LtGame *g, int action, char *buf, size_t len, char *err, size_t err_len)
{
    Move m;
    Error e;
    if (!game_move_of(g->game, now(g), action, &m, &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    game_format_move(g->game, now(g), m, buf, len);
    return LT_OK;
}

int lt_game_planes(const LtGame *g, unsigned char *out, size_t len, char *err, size_t err_len)
{
    size_t need = (size_t)PLANES_COUNT * (size_t)g->game->width * (size_t)g->game->height;
    if (len < need)
        return fail(err, err_len, LT_ERR_INPUT, "the planes buffer is too small");
    game_planes(g->game, now(g), out);
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
    if (!perft_parallel(g->game, now(g), depth, threads, count, NULL, NULL, &e))
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

/* The weights for a search, kept while the same path is asked for. */
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
    if (!search_load_evaluation(g->game, want, &g->weights, &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    g->weights_path = strdup(want);
    if (!g->weights_path) {
        weights_dispose(&g->weights);
        return fail(err, err_len, LT_ERR_FAILED, "out of memory");
    }
    return LT_OK;
}

const Game *api_game_rules(const LtGame *g) { return g->game; }
const GameSoFar *api_game_played(const LtGame *g) { return &g->played; }

int api_game_weights(LtGame *g, const char *path, const Weights **out, char *err, size_t err_len)
{
    int status = load_weights(g, path, err, err_len);
    *out = status == LT_OK ? &g->weights : NULL;
    return status;
}

/* A search of the game so far (its positions before now count for the repetition rule, as the
 * engine's and self-play's do) with set-up s; the result as search_json.h's JSON.  A search
 * limited by visits alone gets the tree search_node_budget sizes, where the set-up keeps the
 * default: a small search needs no 128 MiB tree. */
static int run_search(LtGame *g, SearchSetup *s, char *json, size_t json_len, char *err, size_t err_len)
{
    int status = load_weights(g, s->eval_path, err, err_len);
    if (status != LT_OK)
        return status;
    MctsConfig defaults;
    mcts_default_config(&defaults);
    if (s->limits.visits && !s->limits.seconds && s->mcts.max_nodes == defaults.max_nodes &&
        search_node_budget(s->limits.visits) < defaults.max_nodes)
        s->mcts.max_nodes = search_node_budget(s->limits.visits);
    Mcts *m = mcts_new(g->game, &g->weights, &s->mcts);
    MctsResult *r = m ? malloc(sizeof *r) : NULL;
    if (!r) {
        mcts_free(m);
        return fail(err, err_len, LT_ERR_FAILED, m ? "out of memory" : "cannot allocate the search tree");
    }
    mcts_set_game(m, &g->played);
    double setup_seconds = mcts_setup_seconds(m);
    *r = mcts_search(m, &s->limits, NULL, NULL, 0, NULL);
    mcts_free(m);
    size_t need = search_result_json(g->game, now(g), r, setup_seconds, 0, json, json_len);
    free(r);
    if (need >= json_len)
        return fail(err, err_len, LT_ERR_INPUT, "analyze: the JSON buffer is too small");
    return LT_OK;
}

/* Sets one option of s from the C API; LT_OK or LT_ERR_INPUT with the table's message. */
static int set_number(SearchSetup *s, const char *name, double value, const char *context, char *err, size_t err_len)
{
    Error e;
    return search_setup_set_number(s, name, value, SEARCH_IN_API, context, &e)
               ? LT_OK : fail_error(err, err_len, LT_ERR_INPUT, &e);
}

int lt_game_analyze(LtGame *g, long visits, double seconds, const char *weights, uint64_t seed, int threads,
                    char *json, size_t json_len, char *err, size_t err_len)
{
    SearchSetup s;
    search_setup_default(&s);
    s.limits.visits = visits == 0 && !(seconds > 0) ? 1000 : 0;    /* 0: no visit limit, or 1,000 */
    char seed_text[32];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    Error e;
    /* 0 means a default for visits and threads here, so their ranges start at 0 */
    if (visits < 0 || visits > LT_ANALYZE_MAX_VISITS)
        return error_set(&e, "visits must be an integer from 0 to %lld, got %ld", LT_ANALYZE_MAX_VISITS, visits),
               fail_error(err, err_len, LT_ERR_INPUT, &e);
    if (!threads_check(threads, 0, "threads", &e))
        return fail_error(err, err_len, LT_ERR_INPUT, &e);
    int status = visits ? set_number(&s, "visits", (double)visits, "", err, err_len) : LT_OK;
    if (status == LT_OK)
        status = set_number(&s, "time", seconds, "seconds: ", err, err_len);
    if (status == LT_OK)
        status = set_number(&s, "threads", threads ? threads : 1, "", err, err_len);   /* 0: one thread */
    if (status == LT_OK && !search_setup_set(&s, "seed", seed_text, SEARCH_IN_API, "", &e))
        status = fail_error(err, err_len, LT_ERR_INPUT, &e);
    if (status == LT_OK && weights && !search_setup_set(&s, "weights", weights, SEARCH_IN_API, "", &e))
        status = fail_error(err, err_len, LT_ERR_INPUT, &e);
    return status == LT_OK ? run_search(g, &s, json, json_len, err, err_len) : status;
}

static bool has_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return true;
    return false;
}

int lt_game_search(LtGame *g, int n, const char *const *names, const char *const *values, char *json,
                   size_t json_len, char *err, size_t err_len)
{
    SearchSetup s;
    search_setup_default(&s);
    s.limits.visits = 1000;
    Error e;
    for (int i = 0; i < n; i++) {
        if (!names[i] || !values[i])
            return fail(err, err_len, LT_ERR_INPUT, "search: an option without a name or a value");
        if (!search_setup_set(&s, names[i], values[i], SEARCH_IN_API, "", &e))
            return fail_error(err, err_len, LT_ERR_INPUT, &e);
        if (strcmp(names[i], "time") == 0 && s.limits.seconds > 0 && !has_name(names, n, "visits"))
            s.limits.visits = 0;        /* a time limit alone means no visit limit */
    }
    return run_search(g, &s, json, json_len, err, err_len);
}

int lt_search_options(char *json, size_t json_len)
{
    SearchSetup defaults;
    search_setup_default(&defaults);
    defaults.limits.visits = 1000;          /* a C API search's own default */
    int count;
    const SearchOption *table = search_options(&count);
    size_t at = 0;
    at += (size_t)snprintf(json, json_len, "[");
    for (int i = 0, listed = 0; i < count; i++) {
        const SearchOption *o = &table[i];
        if (!(o->where & SEARCH_IN_API))
            continue;
        char value[64], range[96];
        search_option_value_text(o, &defaults, value, sizeof value);
        search_option_range_text(o, range, sizeof range);
        const char *type = o->kind == SEARCH_REAL ? "float" : o->kind == SEARCH_BOOL ? "bool"
                           : o->kind == SEARCH_PATH ? "path" : "int";
        char bounds[96] = "";
        if (o->kind == SEARCH_SEED)
            snprintf(bounds, sizeof bounds, "\"min\": 0, \"max\": %lld, ", (long long)INT64_MAX);
        else if (o->kind != SEARCH_PATH && o->kind != SEARCH_CLOCK)
            snprintf(bounds, sizeof bounds, "\"min\": %.17g, \"max\": %.17g, ", o->min, o->max);
        at += (size_t)snprintf(at < json_len ? json + at : NULL, at < json_len ? json_len - at : 0,
                               "%s{\"name\": \"%s\", \"type\": \"%s\", \"default\": \"%s\", %s\"range\": \"%s\", "
                               "\"help\": \"%s\"}", listed++ ? ", " : "", o->name, type, value, bounds, range, o->help);
    }
    at += (size_t)snprintf(at < json_len ? json + at : NULL, at < json_len ? json_len - at : 0, "]");
    return at < json_len ? LT_OK : LT_ERR_INPUT;
}
