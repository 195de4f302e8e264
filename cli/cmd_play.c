/*
 * cmd_play.c - `leuctra play`: a game against the engine in the terminal.  The human types
 * moves; `moves` lists the legal ones, `undo` takes back the last move pair, `quit` ends.
 */
#include "cli.h"
#include "selfplay/player.h"
#include "selfplay/player_external.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_GAME = 4096 };

typedef struct {
    const Game *game;
    GameSoFar played;
} Session;

static void show_board(const Session *s)
{
    const Game *g = s->game;
    const Position *pos = &s->played.now;
    putchar('\n');
    cli_draw_board(g, pos, cli_color_wanted());
    printf("\nmove %d, %s to move\n", s->played.plies / 2 + 1, game_side_to_move(g, pos) == WHITE ? "white" : "black");
}

static void list_moves(const Session *s)
{
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        return;
    int n = game_gen_moves(s->game, &s->played.now, moves);
    printf("%d legal moves:", n);
    for (int i = 0; i < n; i++) {
        char text[16];
        game_format_move(s->game, &s->played.now, moves[i], text, sizeof text);
        printf("%s%s", i % 12 ? " " : "\n  ", text);
    }
    putchar('\n');
    free(moves);
}

static void push(Session *s, Move m)
{
    if (!game_so_far_play(&s->played, s->game, m))
        fail_exit("play", EXIT_FAILURE_RUN, "out of memory");
}

/* False when the engine found no move: an external engine that failed (its incident is on
 * stderr). */
static bool engine_move(Session *s, Player *engine)
{
    MoveInfo info = {0};
    Move m = engine->choose(engine, &s->played, &info);
    if (m == MOVE_NONE)
        return false;
    char text[16];
    game_format_move(s->game, &s->played.now, m, text, sizeof text);
    printf("engine plays %s", text);
    if (info.search) {
        const MctsResult *r = info.search;
        Position pos = s->played.now;
        printf("  (win %.1f%%, %ld visits, line:", 100 * r->value, r->visits);
        for (int i = 0; i < r->pv_length && i < 8; i++) {
            game_format_move(s->game, &pos, r->pv[i], text, sizeof text);
            Undo undo;
            game_make(s->game, &pos, r->pv[i], &undo);
            printf(" %s", text);
        }
        putchar(')');
    }
    putchar('\n');
    push(s, m);
    return true;
}

/* Handles one line of input; returns false to quit. */
static bool human_turn(Session *s, int human)
{
    char line[256];
    printf("your move (moves, undo, quit)> ");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin))
        return false;
    line[strcspn(line, "\r\n")] = '\0';
    if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0)
        return false;
    if (strcmp(line, "moves") == 0 || strcmp(line, "help") == 0 || line[0] == '\0') {
        list_moves(s);
        return true;
    }
    if (strcmp(line, "undo") == 0) {
        int back = game_side_to_move(s->game, &s->played.now) == human ? 2 : 1;
        if (s->played.plies < back)
            printf("nothing to undo\n");
        else
            game_so_far_truncate(&s->played, s->game, s->played.plies - back);
        show_board(s);
        return true;
    }
    Move m;
    Error err;
    if (!game_parse_move(s->game, &s->played.now, line, &m, &err)) {
        printf("illegal: %s\n", err.msg);
        return true;
    }
    push(s, m);
    return true;
}

static int run_play(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "play", false};
    GameOptions gopts = {0};
    const char *engine_spec = "mcts:visits=5000", *colour = "white";
    while (r.index < argc) {
        if (arg_game_option(&r, &gopts) || arg_value(&r, "--engine", &engine_spec) ||
            arg_value(&r, "--colour", &colour) || arg_value(&r, "--color", &colour))
            continue;
        arg_common(&r, &command_play);
    }
    if (strcmp(colour, "white") != 0 && strcmp(colour, "black") != 0)
        fail_exit("play", EXIT_USAGE, "--colour must be white or black, got '%s'", colour);
    Session session = {0}, *s = &session;
    Position start;
    Game *g = cli_open_game("play", &gopts, &start);
    s->game = g;
    if (!game_so_far_begin(&s->played, g, &start))
        fail_exit("play", EXIT_FAILURE_RUN, "out of memory");
    Error err;
    Player *engine = player_create_with_output(g, engine_spec, &(PlayerOutput){.note = cli_note_line}, &err);
    if (!engine)
        fail_exit("play", EXIT_USAGE, "%s", err.msg);
    engine->new_game(engine, 1);    /* an external engine learns the game here */
    int human = strcmp(colour, "white") == 0 ? WHITE : BLACK;
    bool failed = false;
    show_board(s);
    while (s->played.plies < MAX_GAME && game_count_moves(g, &s->played.now) > 0) {
        if (game_side_to_move(g, &s->played.now) == human) {
            if (!human_turn(s, human))
                break;
            continue;
        }
        if (!engine_move(s, engine)) {
            puts("game over: the engine failed to move (see stderr)");
            failed = true;
            break;
        }
        show_board(s);
    }
    GameStatus st = game_status(g, &s->played.now);
    if (!failed && st != STATUS_ONGOING) {
        show_board(s);
        printf("game over: %s\n", game_status_name(st));
    }
    player_free(engine);
    game_so_far_free(&s->played);
    game_free(g);
    return failed ? EXIT_FAILURE_RUN : 0;
}

const Command command_play = {
    "play", run_play, "play against the engine in the terminal",
    "usage: leuctra play [--variant V] [--size WxH] [--position POS] [--colour white|black]\n"
    "                    [--engine PLAYER]\n\n"
    "You play --colour (default white; --color is the same option) against the engine, any\n"
    "PLAYER below (default mcts:visits=5000), another program included.  Type a move in\n"
    "docs/RULES.md notation (e2-e3, a1xa3; Reversi d3 or pass); 'moves' lists the legal ones,\n"
    "'undo' takes back your last move and the engine's reply, 'quit' leaves.  An mcts engine\n"
    "shows its win probability and the line it expects; an external engine that fails to move\n"
    "ends the game (exit 1).\n\n"
    PLAYER_SPECS_HELP PLAYER_EXTERNAL_SPECS_HELP "\n"
    "example: leuctra play --variant crossings --colour black --engine mcts:visits=20000\n",
};
