/*
 * engine_state.c - what changes together in a session: the game, its weights and the search
 * tree built on both.  newgame/position (engine_game.c) install a new game, setoption
 * (engine_options.c) drops the tree when a value it was built with changes.  Its own file because
 * engine.c starts a session with engine_options.c's defaults, and those files reached back into
 * engine.c for these two, a loop.
 */
#include "engine.h"

void engine_drop_tree(Engine *e)
{
    mcts_free(e->mcts);
    e->mcts = NULL;
}

void engine_install_game(Engine *e, Game *game, const Weights *w)
{
    engine_drop_tree(e);
    game_free(e->game);
    weights_dispose(&e->weights);
    e->game = game;
    e->weights = *w;    /* the engine owns them now: their tables go with the next install */
}
