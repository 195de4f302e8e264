/*
 * cmd_show.c - `leuctra show`: the board drawn in the terminal with coordinates, side to move,
 * status and the number of legal moves; in colour when stdout is a terminal and NO_COLOR is
 * unset (https://no-color.org).
 */
#include "cli.h"

#include <stdio.h>

static int run_show(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "show", false};
    GameOptions opts = {0};
    while (r.index < argc)
        if (!arg_game_option(&r, &opts))
            arg_common(&r, &command_show);
    Position pos;
    Game *g = cli_open_game("show", &opts, &pos);
    char text[1024];
    game_format_position(g, &pos, text, sizeof text);
    printf("%s %dx%d   %s\n\n", g->name, g->width, g->height, text);
    cli_draw_board(g, &pos, cli_color_wanted());
    printf("\nto move: %s   white stones: %d   black stones: %d\n",
           game_side_to_move(g, &pos) == WHITE ? "white" : "black", game_stones(g, &pos, WHITE),
           game_stones(g, &pos, BLACK));
    printf("status: %s   legal moves: %d\n", game_status_name(game_status(g, &pos)), game_count_moves(g, &pos));
    game_free(g);
    return 0;
}

const Command command_show = {
    "show", run_show, "draw a position in the terminal",
    "usage: leuctra show [--variant V] [--size WxH] [--position POS]\n\n"
    "Draws the board with coordinates (W white, B black, x obstacle, T/t stones that never\n"
    "move again: Crossings towers and Igfip crossings, . empty) and prints the side to move,\n"
    "the stones, the status and the legal move count.\n"
    "On a terminal the squares are coloured; set NO_COLOR to turn that off.\n\n"
    "  --variant V     epaminondas (default), crossings, igfip or reversi\n"
    "  --size WxH      start position on another board (phalanx games)\n"
    "  --position POS  a position string, or 'start' (default)\n\n"
    "example: leuctra show --variant crossings\n",
};
