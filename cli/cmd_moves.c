/*
 * cmd_moves.c - `leuctra moves`: every legal move of a position, one a line.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

static int run_moves(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "moves", false};
    GameOptions opts = {0};
    while (r.index < argc)
        if (!arg_game_option(&r, &opts))
            arg_common(&r, &command_moves);
    Position pos;
    Game *g = cli_open_game("moves", &opts, &pos);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        fail_exit("moves", EXIT_FAILURE_RUN, "out of memory");
    int n = game_gen_moves(g, &pos, moves);
    for (int i = 0; i < n; i++) {
        char text[16];
        game_format_move(g, &pos, moves[i], text, sizeof text);
        puts(text);
    }
    free(moves);
    game_free(g);
    return 0;
}

const Command command_moves = {
    "moves", run_moves, "list the legal moves of a position",
    "usage: leuctra moves [--variant V] [--size WxH] [--position POS]\n\n"
    "Prints every legal move in docs/RULES.md notation, one a line; nothing when the game is over.\n\n"
    "  --variant V     epaminondas (default), crossings, igfip or reversi\n"
    "  --size WxH      start position on another board (phalanx games, 3-16 x 5-16)\n"
    "  --position POS  a position string, or 'start' (default)\n\n"
    "example: leuctra moves --variant reversi\n",
};
