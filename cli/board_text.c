/*
 * board_text.c - the board as text for people: files and ranks around it, and ANSI colour when
 * the output is a terminal.  `show` and `play` draw with it.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void print_files(const Game *g)
{
    printf("    ");
    for (int f = 0; f < g->width; f++)
        printf(" %c", 'a' + f);
    putchar('\n');
}

/* Colour only for a person at a terminal: pipes and files keep the plain letters scripts read. */
bool cli_color_wanted(void)
{
    const char *no_color = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

/* ANSI attributes per square letter: bold white and bold red stones, towers and Igfip crossings
 * in reverse video of their side's colour, obstacles and empty squares dim. */
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

void cli_draw_board(const Game *g, const Position *pos, bool color)
{
    print_files(g);
    for (int rank = g->height - 1; rank >= 0; rank--) {
        printf(" %2d ", game_rank_label(g, rank));
        for (int f = 0; f < g->width; f++) {
            char c = game_square(g, pos, f, rank);
            if (color)
                printf(" \033[%sm%c\033[0m", square_color(c), c);
            else
                printf(" %c", c);
        }
        printf("  %-2d\n", game_rank_label(g, rank));
    }
    print_files(g);
}

