/*
 * main.c - the `leuctra` command: finds the subcommand in the table and runs it.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const Command *const commands[] = {
    &command_moves, &command_perft, &command_status, &command_apply, &command_show, &command_bench,
    &command_analyze, &command_solve, &command_play, &command_match, &command_selfplay, &command_engine, &command_records,
    &command_tune,
    &command_ratings,
    &command_render, &command_view, &command_chart,
};
enum { NUM_COMMANDS = sizeof commands / sizeof commands[0] };

static void print_help(FILE *out)
{
    fputs("leuctra - self-play, tuning and analysis for Epaminondas, Crossings, Igfip and Reversi\n\n"
          "usage: leuctra <command> [options]     leuctra <command> --help\n\ncommands:\n", out);
    for (int i = 0; i < NUM_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fputs("\nOptions may come in any order; '--' ends them, for a path that starts with '-'.\n"
          "\nexample: leuctra perft 4 --variant crossings\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("leuctra " LEUCTRA_VERSION);
        return 0;
    }
    for (int i = 0; i < NUM_COMMANDS; i++)
        if (strcmp(argv[1], commands[i]->name) == 0)
            return commands[i]->run(argc - 1, argv + 1);
    fail_exit("", EXIT_USAGE, "unknown command '%s' (see leuctra --help)", argv[1]);
}
