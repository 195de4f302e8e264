/*
 * records_cli.h - what the `leuctra records` subcommands (cli/cmd_records*.c) and the commands
 * that read records files share: the subcommand entries, opening a records file or failing with
 * one line, and the exit status that a records error gets (cli/records_cli.c).
 */
#ifndef LEUCTRA_RECORDS_CLI_H
#define LEUCTRA_RECORDS_CLI_H

#include "cli.h"
#include "data/records.h"

/* `leuctra records info|verify|dump|export|merge|canonicalize`; argv[0] is the subcommand. */
extern const Command records_info_command, records_verify_command, records_dump_command, records_export_command,
    records_merge_command, records_canonicalize_command;

/* Opens a records file or fails with its error (cli/fail.h's fail_with: exit 2 when the path
 * names no readable records file, 1 for damage and I/O failures). */
RecordsReader *cli_records_open_or_fail(const char *command, const char *path);

/* For subcommands with no options but --help: the remaining arguments, which must be paths, are
 * copied to paths[0..n) (paths may be r->argv itself: it is filled from the front); returns n. */
int cli_records_paths(ArgReader *r, const Command *cmd, char **paths);

#endif
