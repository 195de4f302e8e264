/*
 * records_cli.c - the helpers the `leuctra records` subcommands share (records_cli.h): opening a file or failing, and reading path
 * arguments.  Apart from cmd_records.c, which dispatches to the subcommand files that use them.
 */
#include "records_cli.h"

#include <string.h>

RecordsReader *cli_records_open_or_fail(const char *command, const char *path)
{
    Error err = {0};
    RecordsReader *r = records_open(path, &err);
    if (!r)
        fail_with(command, &err);
    return r;
}

int cli_records_paths(ArgReader *r, const Command *cmd, char **paths)
{
    int n = 0;
    while (r->index < r->argc) {
        if (arg_operand(r))
            paths[n++] = r->argv[r->index++];
        else
            arg_common(r, cmd);
    }
    return n;
}
