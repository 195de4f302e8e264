/*
 * output.c - the subcommands' output files (cli.h: CliOutput): data/output_file.c's whole-file
 * outputs, failing with one line and the exit status the rules give (a path that cannot take
 * the file: 2; a write that failed: 1).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

bool cli_output_is_stdout(const char *path) { return strcmp(path, "-") == 0; }

/* One fprintf for the whole line: the players of a match's threads end at the same time, and
   the writes of one call are not interleaved with another thread's. */
void cli_note_line(const char *line, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

void cli_output_check(const char *command, const char *option, const char *path)
{
    Error err;
    if (!output_file_check(path, &err))
        fail_exit(command, EXIT_USAGE, "%s %s", option, err.msg);
}

FILE *cli_output_open(const char *command, const char *path, CliOutput *o)
{
    Error err;
    if (!output_file_open(o, path, &err))
        fail_exit(command, EXIT_USAGE, "%s", err.msg);
    FILE *f = output_file_stream(o);
    if (!f) {
        output_file_discard(o);
        fail_exit(command, EXIT_FAILURE_RUN, "out of memory");
    }
    return f;
}

void cli_output_commit(const char *command, CliOutput *o)
{
    Error err;
    if (!output_file_commit(o, &err))
        fail_exit(command, EXIT_FAILURE_RUN, "%s", err.msg);
}

void cli_output_discard(CliOutput *o) { output_file_discard(o); }

void cli_files_distinct(const char *command, const FileRole *files, int n)
{
    Error err;
    if (!output_files_distinct(files, n, &err))
        fail_exit(command, EXIT_USAGE, "%s", err.msg);
}

void cli_output_apart(const char *command, const char *option, const char *out, char *const *inputs, int n)
{
    FileRole *files = malloc((size_t)(n + 1) * sizeof *files);
    if (!files)
        fail_exit(command, EXIT_FAILURE_RUN, "out of memory");
    files[0] = (FileRole){option, out, true, false};
    for (int i = 0; i < n; i++)
        files[i + 1] = (FileRole){"", inputs[i], false, false};
    cli_files_distinct(command, files, n + 1);
    free(files);
}
