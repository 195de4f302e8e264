/*
 * cmd_apply.c - `leuctra apply`: the position string after a sequence of moves.
 */
#include "cli.h"

#include <stdio.h>

static int run_apply(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "apply", false};
    GameOptions opts = {0};
    int first_move = argc;
    while (r.index < argc) {
        /* A word like "-x" is taken for a move (and refused as one), not for an option. */
        const char *arg = argv[r.index];
        if (arg_operand(&r) || (arg[0] == '-' && arg[1] != '-' && arg[1] != 'h')) {
            first_move = r.index;
            break;
        }
        if (!arg_game_option(&r, &opts))
            arg_common(&r, &command_apply);
    }
    Position pos;
    Game *g = cli_open_game("apply", &opts, &pos);
    for (int i = first_move; i < argc; i++) {
        Move m;
        Error err;
        if (!game_parse_move(g, &pos, argv[i], &m, &err)) {
            game_free(g);
            fail_exit("apply", EXIT_USAGE, "%s (move %d of the list)", err.msg, i - first_move + 1);
        }
        Undo undo;
        game_make(g, &pos, m, &undo);
    }
    char text[1024];
    game_format_position(g, &pos, text, sizeof text);
    puts(text);
    game_free(g);
    return 0;
}

const Command command_apply = {
    "apply", run_apply, "play moves from a position and print the result",
    "usage: leuctra apply [--variant V] [--size WxH] [--position POS] MOVE...\n\n"
    "Plays the moves in order and prints the position string after them.  Options come before\n"
    "the moves.  An illegal move stops with the reason and exit status 2.\n\n"
    "  --variant V     epaminondas (default), crossings, igfip or reversi\n"
    "  --size WxH      start position on another board (phalanx games)\n"
    "  --position POS  a position string, or 'start' (default)\n\n"
    "example: leuctra apply --variant crossings b1-b3 b7-b6 b3xb5\n",
};
