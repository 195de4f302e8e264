/*
 * cmd_status.c - `leuctra status`: whether a position's game is over, and who won.
 */
#include "cli.h"

#include <stdio.h>

static int run_status(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "status", false};
    GameOptions opts = {0};
    while (r.index < argc)
        if (!arg_game_option(&r, &opts))
            arg_common(&r, &command_status);
    Position pos;
    Game *g = cli_open_game("status", &opts, &pos);
    puts(game_status_name(game_status(g, &pos)));
    game_free(g);
    return 0;
}

const Command command_status = {
    "status", run_status, "print ongoing, white-wins, black-wins or draw",
    "usage: leuctra status [--variant V] [--size WxH] [--position POS]\n\n"
    "Prints the state of the game by the rules alone: ongoing, white-wins, black-wins or draw.\n"
    "(Draws by move limit or repetition are decided by the game driver, not by a position.)\n\n"
    "  --variant V     epaminondas (default), crossings, igfip or reversi\n"
    "  --size WxH      start position on another board (phalanx games)\n"
    "  --position POS  a position string, or 'start' (default)\n\n"
    "example: leuctra status --position '5/5/5/W4/5/5/B4 b'\n",
};
