/*
 * records_cli.c - the helpers the `leuctra records` subcommands share (records_cli.h): the exit
 * status of a records error, failing with one line, opening a file or failing, and reading path
 * arguments.  Apart from cmd_records.c, which dispatches to the subcommand files that use them.
 */
#include "records_cli.h"

#include <string.h>

int records_exit_status(const RecordsError *e)
{
    switch (e->kind) {
    case RECORDS_ERR_EMPTY:
    case RECORDS_ERR_FOREIGN:
    case RECORDS_ERR_VERSION:
    case RECORDS_ERR_MISMATCH:
    case RECORDS_ERR_PATH:
        return EXIT_USAGE;
    case RECORDS_ERR_IO:
        return strstr(e->msg, "No such file") || strstr(e->msg, "is a directory") ? EXIT_USAGE : EXIT_FAILURE_RUN;
    default:
        return EXIT_FAILURE_RUN;
    }
}

_Noreturn void records_fail(const char *command, const RecordsError *e)
{
    fail_exit(command, records_exit_status(e), "%s", e->msg);
}

RecordsReader *records_open_or_fail(const char *command, const char *path)
{
    RecordsError err = {0};
    RecordsReader *r = records_open(path, &err);
    if (!r)
        records_fail(command, &err);
    return r;
}

int records_paths(ArgReader *r, const Command *cmd, char **paths)
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
