/*
 * main.c - the `leuctra` command: finds the subcommand in the table and runs it.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const Command *const commands[] = {
    &command_moves, &command_perft, &command_status, &command_apply, &command_show, &command_bench,
    &command_analyze, &command_solve, &command_play, &command_match, &command_selfplay, &command_engine, &command_records,
    &command_tune, &command_train,
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
          "No output may be an input or another output (links and '-' included); a write to stdout\n"
          "that fails ends with exit status 1.\n"
          "\nexample: leuctra perft 4 --variant crossings\n", out);
}

/* Every command's stdout is checked once, at exit, whichever way it ends (a return, --help's
 * exit(0), an error): a dump, a report or a help text lost to a full disk or a closed pipe must
 * not end with status 0.  A write that failed while the command ran leaves the stream's error
 * flag; what is still buffered is flushed here, which names the cause when it fails.  A stdout
 * that was never open is no failure unless something was written to it (EBADF and nothing
 * pending), as coreutils' close_stdout.  fail_exit clears the flag: its line says why already. */
static void close_stdout(void)
{
    bool pending = __fpending(stdout) != 0, failed = ferror(stdout) != 0;
    int cause = 0;
    if (fflush(stdout) != 0) {
        failed = true;
        cause = errno;
    }
    errno = 0;
    if (fclose(stdout) != 0 && (pending || errno != EBADF)) {
        failed = true;
        cause = cause ? cause : errno;
    }
    if (!failed)
        return;
    fprintf(stderr, "leuctra: cannot write stdout: %s\n", cause ? strerror(cause) : "a write failed (output lost)");
    _exit(EXIT_FAILURE_RUN);
}

int main(int argc, char **argv)
{
    atexit(close_stdout);
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
