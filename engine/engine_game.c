/*
 * engine_game.c - `newgame` and `position`: which game is played and where it stands.  Both
 * build the new state aside and install it only when every part of the line was good, so a
 * rejected command leaves the session exactly as it was.  `position ... moves` keeps the moves,
 * not just where they lead: the search scores a return to any position of the game as a
 * repetition, as the match driver does.
 */
#include "engine.h"

#include <stdio.h>
#include <string.h>

/* newgame [variant V] [size WxH]: the start position of a variant (default: the current one) on a
 * board (default: the current board if the variant stays, else the new variant's own board). */
void engine_cmd_newgame(Engine *e, Tokens *args)
{
    const char *variant = e->game->name;
    int width = e->game->width, height = e->game->height;
    bool size_given = false;
    Error err;
    for (const char *key; (key = engine_tokens_next(args));) {
        const char *value = engine_tokens_next(args);
        if (strcmp(key, "variant") != 0 && strcmp(key, "size") != 0) {
            engine_error(e, "newgame: expected 'newgame [variant V] [size WxH]', got '%.40s'", key);
            return;
        }
        if (!value) {
            engine_error(e, "newgame: %s needs a value", key);
            return;
        }
        if (strcmp(key, "variant") == 0)
            variant = value;
        else if (!game_parse_size(value, &width, &height, &err)) {
            engine_error(e, "newgame: %s", err.msg);
            return;
        }
        size_given |= strcmp(key, "size") == 0;
    }
    if (!size_given && strcmp(variant, e->game->name) != 0)
        width = height = 0;
    Game *g = game_new(variant, width, height, &err);
    Weights w;
    if (!g || !engine_load_weights(&e->options, g, &w, &err)) {
        engine_error(e, "newgame: %s", err.msg);
        game_free(g);
        return;
    }
    Position start;
    game_start(g, &start);
    if (!game_so_far_begin(&e->played, g, &start)) {
        engine_error(e, "newgame: out of memory");
        weights_dispose(&w);
        game_free(g);
        return;
    }
    engine_install_game(e, g, &w);
}

/* Plays the words left in args as moves of the game; false with *err naming the bad one. */
static bool play_moves(const Game *g, GameSoFar *played, Tokens *args, Error *err)
{
    int number = 0;
    for (const char *text; (text = engine_tokens_next(args));) {
        number++;
        const Position *pos = &played->now;
        GameStatus status = game_status(g, pos);
        Move m;
        if (status != STATUS_ONGOING) {
            error_set(err, "move '%.20s': the game is over (%s) (move %d of the list)", text, game_status_name(status),
                      number);
            return false;
        }
        if (!game_parse_move(g, pos, text, &m, err)) {
            char reason[ERROR_LEN];
            snprintf(reason, sizeof reason, "%s", err->msg);
            error_set(err, "%s (move %d of the list)", reason, number);
            return false;
        }
        if (!game_so_far_play(played, g, m)) {
            error_set(err, "out of memory at move %d of the list", number);
            return false;
        }
    }
    return true;
}

/* Reads "BOARD SIDE" into *pos: on the current game when the board fits it, else on a new game
 * built for that board (another size, or obstacles), returned in *fresh. */
static bool read_position_string(Engine *e, const char *board, const char *side, Position *pos, Game **fresh,
                                 Error *err)
{
    char text[1024];
    if ((size_t)snprintf(text, sizeof text, "%s %s", board, side) >= sizeof text) {
        error_set(err, "position string longer than %zu bytes", sizeof text - 1);
        return false;
    }
    *fresh = NULL;
    if (game_parse_position(e->game, text, pos, err))
        return true;
    *fresh = game_new_for_position(e->game->name, text, pos, err);
    return *fresh != NULL;
}

static bool expect_moves_word(const char *word, Error *err)
{
    if (!word || strcmp(word, "moves") == 0)
        return true;
    error_set(err, "expected 'moves' or the end of the line after the position, got '%.40s'", word);
    return false;
}

/* position start | fen BOARD SIDE | BOARD SIDE, then optionally: moves M1 M2 ... */
void engine_cmd_position(Engine *e, Tokens *args)
{
    const char *first = engine_tokens_next(args);
    Position pos;
    Game *fresh = NULL;
    Error err;
    if (first && strcmp(first, "start") == 0) {
        game_start(e->game, &pos);
    } else {
        const char *board = first && strcmp(first, "fen") == 0 ? engine_tokens_next(args) : first;
        const char *side = board ? engine_tokens_next(args) : NULL;
        if (!side) {
            engine_error(e, "position: expected 'position start|fen BOARD SIDE [moves M...]'");
            return;
        }
        if (!read_position_string(e, board, side, &pos, &fresh, &err)) {
            /* The rules modules already begin their message with "position: ". */
            bool prefixed = strncmp(err.msg, "position: ", 10) == 0;
            engine_error(e, "%s%s", prefixed ? "" : "position: ", err.msg);
            return;
        }
    }
    const Game *g = fresh ? fresh : e->game;
    Weights w;
    GameSoFar played = GAME_SO_FAR_EMPTY;
    if (!game_so_far_begin(&played, g, &pos))
        error_set(&err, "out of memory");
    if (!played.hashes || !expect_moves_word(engine_tokens_next(args), &err) || !play_moves(g, &played, args, &err) ||
        (fresh && !engine_load_weights(&e->options, fresh, &w, &err))) {
        engine_error(e, "position: %s", err.msg);
        game_so_far_free(&played);
        game_free(fresh);
        return;
    }
    if (fresh)
        engine_install_game(e, fresh, &w);
    game_so_far_free(&e->played);
    e->played = played;
}
