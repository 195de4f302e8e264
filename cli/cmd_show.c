/*
 * cmd_show.c - `leuctra show`: the board drawn in the terminal with coordinates, side to move,
 * status and the number of legal moves; in colour when stdout is a terminal and NO_COLOR is
 * unset (https://no-color.org).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Reversi names rows from the top (Othello style); the phalanx games number ranks from White's
 * side.  Either way the top of the drawing is the first rank of the position string. */
static int row_label(const Game *g, int rank)
{
    return g->variant == VARIANT_REVERSI ? g->height - rank : rank + 1;
}

static void print_files(const Game *g)
{
    printf("    ");
    for (int f = 0; f < g->width; f++)
        printf(" %c", 'a' + f);
    putchar('\n');
}

/* Colour only for a person at a terminal: pipes and files keep the plain letters scripts read. */
static bool use_color(void)
{
    const char *no_color = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

/* ANSI attributes per square letter: bold white and bold red stones, towers in reverse video
 * of their side's colour, obstacles and empty squares dim. */
static const char *square_color(char c)
{
    switch (c) {
    case 'W': return "1;97";
    case 'B': return "1;91";
    case 'T': return "1;97;7";
    case 't': return "1;91;7";
    default: return "2";
    }
}

static void draw_board(const Game *g, const Position *pos, bool color)
{
    print_files(g);
    for (int rank = g->height - 1; rank >= 0; rank--) {
        printf(" %2d ", row_label(g, rank));
        for (int f = 0; f < g->width; f++) {
            char c = game_square(g, pos, f, rank);
            if (color)
                printf(" \033[%sm%c\033[0m", square_color(c), c);
            else
                printf(" %c", c);
        }
        printf("  %-2d\n", row_label(g, rank));
    }
    print_files(g);
}

static int run_show(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "show"};
    GameOptions opts = {0};
    while (r.index < argc)
        if (!arg_game_option(&r, &opts))
            arg_common(&r, &command_show);
    Position pos;
    Game *g = cli_open_game("show", &opts, &pos);
    char text[1024];
    game_format_position(g, &pos, text, sizeof text);
    printf("%s %dx%d   %s\n\n", g->name, g->width, g->height, text);
    draw_board(g, &pos, use_color());
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
    "Draws the board with coordinates (W white, B black, x obstacle, T/t Crossings towers,\n"
    ". empty) and prints the side to move, the stones, the status and the legal move count.\n"
    "On a terminal the squares are coloured; set NO_COLOR to turn that off.\n\n"
    "  --variant V     epaminondas (default), crossings or reversi\n"
    "  --size WxH      start position on another board (phalanx games)\n"
    "  --position POS  a position string, or 'start' (default)\n\n"
    "example: leuctra show --variant crossings\n",
};
