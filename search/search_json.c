/*
 * search_json.c - a search's result as JSON (search_json.h).
 */
#include "search_json.h"

#include "core/tensors.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* Text appended as snprintf would, counting what does not fit. */
typedef struct {
    char *buf;
    size_t len, at;
} Json;

static void put(Json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(Json *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(j->at < j->len ? j->buf + j->at : NULL, j->at < j->len ? j->len - j->at : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        j->at += (size_t)n;
}

static void put_number(Json *j, double v)
{
    if (isfinite(v))
        put(j, "%.6f", v);
    else
        put(j, "null");
}

const char *search_proven_name(Proven p)
{
    return p == PROVEN_WIN ? "win" : p == PROVEN_LOSS ? "loss" : p == PROVEN_DRAW ? "draw" : "none";
}

static void put_pv(Json *j, const Game *g, const Position *root, const MctsResult *r)
{
    Position pos = *root;
    put(j, "\"pv\": [");
    for (int i = 0; i < r->pv_length; i++) {
        char text[32];
        game_format_move(g, &pos, r->pv[i], text, sizeof text);
        put(j, "%s\"%s\"", i ? ", " : "", text);
        Undo undo;
        game_make(g, &pos, r->pv[i], &undo);
    }
    put(j, "]");
}

static void put_moves(Json *j, const Game *g, const Position *root, const MctsResult *r, int top)
{
    put(j, "\"moves\": [");
    for (int i = 0; i < r->num_stats && (top <= 0 || i < top); i++) {
        const MoveStat *s = &r->stats[i];
        char text[32];
        game_format_move(g, root, s->move, text, sizeof text);
        put(j, "%s{\"move\": \"%s\", \"action\": %d, \"visits\": %ld, \"prior\": %.6f, \"value\": ", i ? ", " : "",
            text, game_action_of(g, root, s->move), s->visits, s->prior);
        put_number(j, s->value);
        put(j, ", \"proven\": \"%s\"}", search_proven_name(s->proven));
    }
    put(j, "]");
}

size_t search_result_json(const Game *g, const Position *root, const MctsResult *r, double setup_seconds, int top,
                          char *buf, size_t len)
{
    Json j = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    char best[32] = "";
    if (r->best != MOVE_NONE)
        game_format_move(g, root, r->best, best, sizeof best);
    if (*best)
        put(&j, "{\"best\": \"%s\", \"value\": ", best);
    else
        put(&j, "{\"best\": null, \"value\": ");
    put_number(&j, r->value);
    put(&j, ", \"proven\": \"%s\", \"proven_plies\": %d, \"visits\": %ld, \"tree_visits\": %ld, \"nodes\": %zu, "
        "\"seconds\": %.6f, \"setup_seconds\": %.6f, ", search_proven_name(r->proven), r->proven_plies, r->visits,
        r->tree_visits, r->nodes, r->seconds, setup_seconds);
    put_pv(&j, g, root, r);
    put(&j, ", ");
    put_moves(&j, g, root, r, top);
    put(&j, "}");
    return j.at;
}
