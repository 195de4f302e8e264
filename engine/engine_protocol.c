/*
 * engine_protocol.c - the command table of `leuctra engine` and the commands that only look at
 * the session: the handshake, isready, quit, moves, show, status, eval, perft and help.  Each
 * line gets its command from the table; the table says which commands take words and which may
 * run while a search does (those that read nothing the search could be using the old value of).
 */
#include "engine.h"
#include "core/perft.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    void (*run)(Engine *e, Tokens *args);
    bool takes_args;
    bool while_searching;
    const char *syntax;
    const char *help;
} EngineCommand;

/* The protocol's own version: a peer can tell which commands it may send (docs/PROTOCOL.md).
 * 2: go on a clock (wtime, btime, winc, binc, movestogo) and the overhead option. */
#define PROTOCOL_VERSION 2

static void cmd_help(Engine *e, Tokens *args);

static void cmd_hello(Engine *e, Tokens *args)
{
    (void)args;
    engine_hold_output(e);
    engine_reply(e, "id name leuctra " LEUCTRA_VERSION);
    engine_reply(e, "id author the leuctra authors");
    engine_reply(e, "id protocol %d", PROTOCOL_VERSION);
    engine_reply(e, "id variants epaminondas crossings reversi igfip");
    engine_options_announce(e);
    engine_reply(e, "leuctraok");
    engine_release_output(e);
}

/* The search tree is built here when nothing has built it yet (or an option or a new game dropped
 * it), so that the next go starts searching at once: match tools send isready before a game's
 * first go, UCI's place for setup.  A tree that cannot be allocated is left to go to report. */
static void cmd_isready(Engine *e, Tokens *args)
{
    (void)args;
    if (!e->mcts && !engine_search_busy(e))
        e->mcts = mcts_new(e->game, &e->weights, &e->options.search.mcts);
    engine_reply(e, "readyok");
}

static void cmd_quit(Engine *e, Tokens *args)
{
    (void)args;
    e->quit = true;
}

static void cmd_moves(Engine *e, Tokens *args)
{
    (void)args;
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves) {
        engine_error(e, "moves: out of memory");
        return;
    }
    int n = game_status(e->game, &e->played.now) == STATUS_ONGOING ? game_gen_moves(e->game, &e->played.now, moves) : 0;
    engine_line_begin(e);
    engine_put(e, "moves");
    for (int i = 0; i < n; i++) {
        char text[16];
        game_format_move(e->game, &e->played.now, moves[i], text, sizeof text);
        engine_put(e, " %s", text);
    }
    engine_line_end(e);
    free(moves);
}

/* Reversi numbers rows from the top (Othello style), the phalanx games from White's side. */

static void put_files(Engine *e)
{
    engine_line_begin(e);
    engine_put(e, "board    ");
    for (int f = 0; f < e->game->width; f++)
        engine_put(e, " %c", 'a' + f);
    engine_line_end(e);
}

static void cmd_show(Engine *e, Tokens *args)
{
    (void)args;
    const Game *g = e->game;
    const Position *pos = &e->played.now;
    char text[1024];
    game_format_position(g, pos, text, sizeof text);
    engine_hold_output(e);
    put_files(e);
    for (int rank = g->height - 1; rank >= 0; rank--) {
        engine_line_begin(e);
        engine_put(e, "board  %2d ", game_rank_label(g, rank));
        for (int f = 0; f < g->width; f++)
            engine_put(e, " %c", game_square(g, pos, f, rank));
        engine_put(e, "  %d", game_rank_label(g, rank));
        engine_line_end(e);
    }
    put_files(e);
    engine_reply(e, "game %s size %dx%d tomove %s whitestones %d blackstones %d status %s legalmoves %d", g->name,
                 g->width, g->height, game_side_to_move(g, pos) == WHITE ? "white" : "black",
                 game_stones(g, pos, WHITE), game_stones(g, pos, BLACK), game_status_name(game_status(g, pos)),
                 game_status(g, pos) == STATUS_ONGOING ? game_count_moves(g, pos) : 0);
    engine_reply(e, "fen %s", text);
    engine_release_output(e);
}

static void cmd_status(Engine *e, Tokens *args)
{
    (void)args;
    engine_reply(e, "status %s", game_status_name(game_status(e->game, &e->played.now)));
}

static void cmd_eval(Engine *e, Tokens *args)
{
    (void)args;
    const Game *g = e->game;
    float features[MAX_FEATURES];
    value_features(g, &e->played.now, features);
    engine_line_begin(e);
    engine_put(e, "eval winprob %.4f logit %.4f", value_win_probability(g, &e->weights, &e->played.now),
               value_logit(g, &e->weights, &e->played.now));
    for (int i = 0; i < g->ops->num_features; i++)
        engine_put(e, " %s=%g", g->ops->feature_names[i], (double)features[i]);
    engine_line_end(e);
}

/* perft DEPTH.  It runs on the main thread and blocks the session until it is done, so the depth
 * is capped where every game still answers in seconds to minutes. */
static void cmd_perft(Engine *e, Tokens *args)
{
    const char *text = engine_tokens_next(args);
    long long depth;
    if (!text || !engine_parse_integer(text, 0, 10, &depth) || engine_tokens_next(args)) {
        engine_error(e, "perft: expected 'perft DEPTH' with DEPTH from 0 to 10");
        return;
    }
    uint64_t count;
    Error err;
    if (!perft_parallel(e->game, &e->played.now, (int)depth, e->options.search.mcts.threads, &count, NULL, NULL, &err)) {
        engine_error(e, "%s", err.msg);
        return;
    }
    engine_reply(e, "perft %lld %llu", depth, (unsigned long long)count);
}

static const EngineCommand commands[] = {
    {"leuctra", cmd_hello, false, true, "leuctra", "handshake: id lines, option lines, leuctraok"},
    {"hello", cmd_hello, false, true, "hello", "the same as leuctra"},
    {"isready", cmd_isready, false, true, "isready", "readyok once every earlier command is done"},
    {"setoption", engine_cmd_setoption, true, false, "setoption name NAME value VALUE", "sets an option"},
    {"newgame", engine_cmd_newgame, true, false, "newgame [variant V] [size WxH]",
     "the start position of a new game; the search tree is dropped"},
    {"position", engine_cmd_position, true, false, "position start|fen BOARD SIDE [moves M...]",
     "sets the position"},
    {"go", engine_cmd_go, true, false,
     "go [wtime W btime B [winc WI] [binc BI] [movestogo N]] [visits N] [time SECONDS] | go infinite",
     "searches in the background (on a clock: the engine budgets the move): info lines, then bestmove"},
    {"stop", engine_cmd_stop, false, true, "stop", "ends the search now; its bestmove follows"},
    {"wait", engine_cmd_wait, false, true, "wait", "reads no further command until the search is over"},
    {"quit", cmd_quit, false, true, "quit", "stops any search and exits"},
    {"moves", cmd_moves, false, true, "moves", "the legal moves"},
    {"show", cmd_show, false, true, "show", "the board, the game and the position string"},
    {"d", cmd_show, false, true, "d", "the same as show"},
    {"status", cmd_status, false, true, "status", "ongoing, white-wins, black-wins or draw"},
    {"eval", cmd_eval, false, true, "eval", "the static evaluation and its features"},
    {"perft", cmd_perft, true, false, "perft DEPTH", "counts move paths (blocks until done)"},
    {"help", cmd_help, false, true, "help", "this list"},
};
enum { NUM_COMMANDS = sizeof commands / sizeof commands[0] };

static void cmd_help(Engine *e, Tokens *args)
{
    (void)args;
    engine_hold_output(e);
    for (int i = 0; i < NUM_COMMANDS; i++)
        engine_reply(e, "help %-45s %s", commands[i].syntax, commands[i].help);
    engine_reply(e, "helpok");
    engine_release_output(e);
}

void engine_dispatch(Engine *e, char *line)
{
    Tokens args = {line};
    const char *name = engine_tokens_next(&args);
    if (!name)
        return;     /* blank lines are no command, as in UCI */
    const EngineCommand *c = NULL;
    for (int i = 0; i < NUM_COMMANDS && !c; i++)
        if (strcmp(name, commands[i].name) == 0)
            c = &commands[i];
    if (!c)
        engine_error(e, "unknown command '%.40s' (send help for the list)", name);
    else if (!c->takes_args && engine_tokens_next(&args))
        engine_error(e, "%s takes no arguments", c->name);
    else if (!c->while_searching && engine_search_busy(e))
        engine_error(e, "%s: search running; send stop first", c->name);
    else
        c->run(e, &args);
}
