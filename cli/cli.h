/*
 * cli.h - what the subcommands of `leuctra` share: the command table, option reading, opening
 * the game and position that --variant/--size/--position describe, output files and the text
 * board, and failing with one line (fail.c).  The clock is core/clock.h's.
 */
#ifndef LEUCTRA_CLI_H
#define LEUCTRA_CLI_H

#include "core/clock.h"
#include "core/game.h"
#include "core/threads.h"
#include "data/output_file.h"

#include <stdbool.h>
#include <stdio.h>

/* Bad input of any kind (arguments, files that are not what they should be): 2; a run that
 * failed (I/O, memory, a damaged file): 1. */
enum { EXIT_FAILURE_RUN = 1, EXIT_USAGE = 2 };

/* Prints "leuctra CMD: message" on stderr (just "leuctra: message" when CMD is "") and exits with
 * `status`.  Control characters and bytes that are not UTF-8 in the message are shown as '?', so
 * it stays one line; a failed write to stdout before it is not reported again at exit (main.c). */
_Noreturn void fail_exit(const char *command, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same for a library Error: status 1 for a failure, 2 for bad input. */
_Noreturn void fail_with(const char *command, const Error *err);
/* fail_with in two halves, for a process under mpirun: the line said while MPI still runs (once
 * a rank has exited non-zero, mpirun may kill the others before they print), the exit after. */
void fail_say(const char *command, const Error *err);
int fail_status(const Error *err);

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);   /* argv[0] is the subcommand name */
    const char *summary;
    const char *usage;                   /* full --help text, with an example */
} Command;

/* The options every game-facing subcommand takes. */
typedef struct {
    const char *variant;    /* default "epaminondas" */
    const char *position;   /* default "start" */
    const char *size;       /* NULL: the variant's default board */
} GameOptions;

typedef struct {
    int argc;
    char **argv;
    int index;              /* next argument to read */
    const char *command;
    bool operands_only;     /* past "--": no more options */
} ArgReader;

/* True when the argument at the reader is `name` (a long option); its value, for options that
 * take one, comes from "--name=value" or the next argument.  Never after "--". */
bool arg_flag(ArgReader *r, const char *name);
bool arg_value(ArgReader *r, const char *name, const char **value);
/* Reads --variant, --position and --size; true if it consumed an argument. */
bool arg_game_option(ArgReader *r, GameOptions *opts);
/* True when the argument at the reader is an operand (a path, a depth, a player): it does not
 * start with '-', is "-" itself (stdin or stdout), or comes after "--", which this consumes
 * (false when nothing follows it). */
bool arg_operand(ArgReader *r);
/* Handles what no option of the command took: "--" (ends the options), --help for `cmd`
 * (prints its usage, exits 0); anything else is refused (exit 2): an unknown option, or an
 * argument the command takes no more of. */
void arg_common(ArgReader *r, const Command *cmd);
long arg_integer(const char *command, const char *option, const char *text, long min, long max);
double arg_real(const char *command, const char *option, const char *text, double min, double max);
/* A thread count option (--threads): from 1 to THREADS_MAX in core/threads.h's one wording, and
 * a warning line on stderr where it is far more than the processors (threads_too_many). */
int arg_threads(const char *command, const char *option, const char *text);

/* A library's one-line note (an external engine's incident, say) on stderr, as one write; ctx
 * unused.  output.c. */
void cli_note_line(const char *line, void *ctx);

/* output.c: the command's side of data/output_file.h, which says what a path means (a file
 * written whole or not at all through a temporary file, the file a symlink leads to, "-" for
 * stdout, devices and FIFOs written in place).  check fails (exit 2) early, before any work,
 * when PATH cannot take the output (prefixed by the option that named it); open fails with
 * exit 2 too, commit with exit 1 (a write error; the temporary file is removed).  discard
 * removes it when the command decides to write nothing after all.  cli_output_is_stdout says
 * whether the output goes to stdout, which a report must then leave alone. */
typedef OutputFile CliOutput;
void cli_output_check(const char *command, const char *option, const char *path);
FILE *cli_output_open(const char *command, const char *path, CliOutput *o);
void cli_output_commit(const char *command, CliOutput *o);
void cli_output_discard(CliOutput *o);
bool cli_output_is_stdout(const char *path);
/* Fails (exit 2, one line) when an output among `files` is the same file as an input or as
 * another output (data/output_file.h: output_files_distinct): every command that writes files
 * checks all its paths with this before it writes anything, since no output replaces an input. */
void cli_files_distinct(const char *command, const FileRole *files, int n);
/* The same for one output (named by `option`) and n inputs given as operands. */
void cli_output_apart(const char *command, const char *option, const char *out, char *const *inputs, int n);

/* Builds the game and position; on bad input prints the error and exits 2. */
Game *cli_open_game(const char *command, const GameOptions *opts, Position *pos);

/* board_text.c: the board with coordinates on stdout, coloured if `color`; whether colour is
 * wanted (stdout a terminal, no NO_COLOR). */
void cli_draw_board(const Game *g, const Position *pos, bool color);
bool cli_color_wanted(void);

/* One per subcommand file (cli/cmd_*.c); main.c lists them. */
extern const Command command_moves, command_perft, command_status, command_apply, command_show, command_bench,
    command_match, command_analyze, command_play, command_engine, command_records, command_selfplay,
    command_tune, command_train;
extern const Command command_ratings;
extern const Command command_render, command_view, command_chart;
extern const Command command_solve;

#endif
