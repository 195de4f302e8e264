/*
 * engine.c - a `leuctra engine` session from start to end: the state it begins with, the loop
 * that reads one command line at a time and hands it to the dispatcher, and the orderly end
 * (quit, end of input or a vanished peer) that stops any search before the state goes.
 */
#include "engine.h"

#include <stdlib.h>

Engine *engine_new(FILE *in, FILE *out, Game *game, const Position *pos, Error *err)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        error_set(err, "out of memory");
        return NULL;
    }
    e->in = in;
    e->out = out;
    atomic_init(&e->output_lost, false);
    engine_options_default(&e->options);
    if (!engine_load_weights(&e->options, game, &e->weights, err)) {
        free(e);
        return NULL;
    }
    if (!game_so_far_begin(&e->played, game, pos)) {
        weights_dispose(&e->weights);
        free(e);
        error_set(err, "out of memory");
        return NULL;
    }
    e->game = game;
    engine_search_init(&e->search);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    engine_search_end(e);
    engine_search_destroy(&e->search);
    mcts_free(e->mcts);
    game_so_far_free(&e->played);
    game_free(e->game);
    weights_dispose(&e->weights);
    free(e);
}

void engine_serve(Engine *e)
{
    while (!e->quit && !atomic_load(&e->output_lost)) {
        switch (engine_read_line(e->in, e->line)) {
        case LINE_EOF:
            e->quit = true;
            break;
        case LINE_TOO_LONG:
            engine_error(e, "line longer than %d bytes ignored", ENGINE_MAX_LINE);
            break;
        case LINE_NUL:
            engine_error(e, "line with a NUL byte ignored");
            break;
        case LINE_OK:
            engine_dispatch(e, e->line);
            break;
        }
    }
    engine_search_end(e);
}
