/*
 * cmd_records.c - `leuctra records`: the subcommand table (info, verify, dump, export, merge,
 * canonicalize) and the short ones (verify, merge, canonicalize); the helpers they all share are
 * cli/records_cli.c's.
 */
#include "records_cli.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const Command *const subcommands[] = {
    &records_info_command, &records_verify_command, &records_dump_command, &records_export_command,
    &records_merge_command, &records_canonicalize_command,
};
enum { NUM_SUBCOMMANDS = sizeof subcommands / sizeof subcommands[0] };

/* ---------------------------------------------------------------- verify */

/* One line per damaged chunk and per game the rules refuse, then the file's verdict; true when
 * undamaged. */
static bool verify_one(const char *path)
{
    RecordsVerifyReport rep;
    Error err = {0};
    if (!records_verify_games(path, &rep, &err))
        fail_with("records verify", &err);
    for (int i = 0; i < rep.num_damaged; i++)
        printf("%s\n", rep.damaged[i].msg);
    int chunks = rep.num_damaged - rep.num_refused;
    char refused[64] = "";
    if (rep.num_refused > 0)
        snprintf(refused, sizeof refused, "%s%d game%s the rules refuse", chunks ? ", " : "", rep.num_refused,
                 rep.num_refused == 1 ? "" : "s");
    if (rep.num_damaged == 0)
        printf("%s: ok, %llu games in %llu chunk%s\n", path, (unsigned long long)rep.games,
               (unsigned long long)rep.chunks, rep.chunks == 1 ? "" : "s");
    else if (chunks > 0)
        printf("%s: DAMAGED, %d damaged chunk%s%s; %llu games in %llu good chunks\n", path, chunks,
               chunks == 1 ? "" : "s", refused, (unsigned long long)rep.games, (unsigned long long)rep.chunks);
    else
        printf("%s: DAMAGED, %s; %llu games in %llu good chunks\n", path, refused, (unsigned long long)rep.games,
               (unsigned long long)rep.chunks);
    bool ok = rep.num_damaged == 0;
    records_verify_report_free(&rep);
    return ok;
}

static int run_verify(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "records verify", false};
    int n = cli_records_paths(&r, &records_verify_command, argv);
    if (n == 0)
        fail_exit("records verify", EXIT_USAGE, "missing FILE (see leuctra records verify --help)");
    bool all_ok = true;
    for (int i = 0; i < n; i++)
        all_ok = verify_one(argv[i]) && all_ok;
    return all_ok ? 0 : EXIT_FAILURE_RUN;
}

const Command records_verify_command = {
    "verify", run_verify, "check every chunk; name damage by its byte offset",
    "usage: leuctra records verify FILE...\n\n"
    "Checks every chunk of each file (header CRC, payload CRC-32, zlib, the games inside) and\n"
    "replays every game of the good chunks with the rules: every stored move, the one played and\n"
    "those of the visit lists, must be a legal move of its position exactly as stored (a capture\n"
    "written with 'x').  Prints one line per damaged chunk with its byte offset and one per game\n"
    "the rules refuse (game and ply), then one verdict line per file.\n"
    "Exit status 0 when every file is whole, 1 when any is damaged, 2 when a path is not a\n"
    "records file.\n\n"
    "example: leuctra records verify run1.lrec run2.lrec\n",
};

/* ---------------------------------------------------------------- merge, canonicalize */

/* Counts the games of a file just written (and checks it once more).  What went to stdout, a
 * device or a FIFO cannot be read back, and stdout carries no report beside the bytes. */
static void report_written(const char *command, const char *path)
{
    struct stat st;
    if (cli_output_is_stdout(path) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    RecordsVerifyReport rep;
    Error err = {0};
    if (!records_verify(path, &rep, &err))
        fail_with(command, &err);
    printf("%s: %llu games in %llu chunk%s\n", path, (unsigned long long)rep.games, (unsigned long long)rep.chunks,
           rep.chunks == 1 ? "" : "s");
    bool damaged = rep.num_damaged > 0;
    records_verify_report_free(&rep);
    if (damaged)
        fail_exit(command, EXIT_FAILURE_RUN, "%s: the file written does not verify", path);
}

static int run_merge(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "records merge", false};
    int n = cli_records_paths(&r, &records_merge_command, argv);
    if (n < 2)
        fail_exit("records merge", EXIT_USAGE, "needs OUT and at least one IN (see leuctra records merge --help)");
    cli_output_check("records merge", "OUT", argv[0]);
    /* OUT may be an input: the merge reads them all before OUT is renamed into place.  Not
     * stdout, though, when stdout is an input's file: that would be written as it is read. */
    if (cli_output_is_stdout(argv[0]))
        cli_output_apart("records merge", "OUT", argv[0], argv + 1, n - 1);
    Error err = {0};
    if (!records_merge(argv[0], (const char *const *)argv + 1, n - 1, &err))
        fail_with("records merge", &err);
    report_written("records merge", argv[0]);
    return 0;
}

const Command records_merge_command = {
    "merge", run_merge, "combine shards into one canonical file",
    "usage: leuctra records merge OUT IN...\n\n"
    "Writes the games of every IN into OUT in canonical form: sorted by game index, packed into\n"
    "chunks of about 64 KiB, written to a temporary file and renamed into place (OUT may be one\n"
    "of the inputs; through a symlink, the file it names; '-' is stdout, and a device or FIFO is\n"
    "written directly, without the report line).  The inputs must be of one variant and board.\n"
    "A game found in several inputs with identical bytes is kept once; two different games with\n"
    "one index stop the merge (exit 1) and nothing is written.  Settings: the inputs' own if they\n"
    "agree, otherwise every input's lines prefixed 'shardN.'.  A damaged input stops the merge.\n\n"
    "example: leuctra records merge all.lrec shard1.lrec shard2.lrec\n",
};

static int run_canonicalize(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "records canonicalize", false};
    int n = cli_records_paths(&r, &records_canonicalize_command, argv);
    if (n == 0)
        fail_exit("records canonicalize", EXIT_USAGE, "missing FILE (see leuctra records canonicalize --help)");
    for (int i = 0; i < n; i++) {
        Error err = {0};
        if (!records_canonicalize(argv[i], &err))
            fail_with("records canonicalize", &err);
        report_written("records canonicalize", argv[i]);
    }
    return 0;
}

const Command records_canonicalize_command = {
    "canonicalize", run_canonicalize, "rewrite a file sorted by game index (atomically)",
    "usage: leuctra records canonicalize FILE...\n\n"
    "Rewrites each file with its games sorted by index and each index once (the first in file\n"
    "order kept), so that its bytes depend only on its games: what self-play does at the end of\n"
    "a run, since threads finish games out of order.  Atomic: a temporary file, fsync, rename\n"
    "(through a symlink, over the file it names).  FILE must be a regular file.\n"
    "A damaged file is refused (exit 1) and left as it is.\n\n"
    "example: leuctra records canonicalize run1.lrec\n",
};

/* ---------------------------------------------------------------- the table */

static int run_records(int argc, char **argv)
{
    if (argc < 2) {
        fputs(command_records.usage, stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(command_records.usage, stdout);
        return 0;
    }
    for (int i = 0; i < NUM_SUBCOMMANDS; i++)
        if (strcmp(argv[1], subcommands[i]->name) == 0)
            return subcommands[i]->run(argc - 1, argv + 1);
    fail_exit("records", EXIT_USAGE, "unknown subcommand '%s' (see leuctra records --help)", argv[1]);
}

const Command command_records = {
    "records", run_records, "inspect, check, dump, export and merge self-play records",
    "usage: leuctra records info|verify|dump|export|merge|canonicalize ...\n\n"
    "Self-play records files (format: docs/FORMAT.md).  Each subcommand has --help.\n\n"
    "  info FILE... [--json] [--svg FILE]   games, plies, results, end reasons, lengths, size,\n"
    "                                       settings; --svg: a chart of lengths and results\n"
    "  verify FILE...                       check every chunk; damage named by byte offset (exit 1)\n"
    "  dump FILE [--game N] [--values] [--visits]   one game per line, docs/RULES.md notation\n"
    "  export FILE... -o OUT.csv            one CSV row per position, for training\n"
    "  merge OUT IN...                      shards into one canonical file\n"
    "  canonicalize FILE...                 sort a file by game index, atomically\n\n"
    "example: leuctra records dump run1.lrec --game 12 --values\n",
};
