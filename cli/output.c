/*
 * output.c - output files that appear whole or not at all (cli.h: CliOutput): written to a
 * temporary file beside the target, synced, and renamed over it only when every write
 * succeeded, so a failure or a kill never leaves a half-written picture, page or table.
 * "-" means stdout, which is written directly.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_output_check(const char *command, const char *option, const char *path)
{
    if (strcmp(path, "-") == 0)
        return;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(dir, W_OK) != 0)
        fail_exit(command, EXIT_USAGE, "%s %s: cannot write in '%s': %s", option, path, dir, strerror(errno));
}

FILE *cli_output_open(const char *command, const char *path, CliOutput *o)
{
    o->path = path;
    o->temp[0] = '\0';
    if (strcmp(path, "-") == 0)
        return o->file = stdout;
    if (snprintf(o->temp, sizeof o->temp, "%s.tmp.XXXXXX", path) >= (int)sizeof o->temp)
        fail_exit(command, EXIT_USAGE, "%s: path too long", path);
    int fd = mkstemp(o->temp);
    o->file = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!o->file) {
        int saved = errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->temp);
        }
        fail_exit(command, EXIT_USAGE, "cannot write %s: %s", path, strerror(saved));
    }
    fchmod(fd, 0644);       /* mkstemp makes 0600; a picture is for everyone to read */
    return o->file;
}

void cli_output_commit(const char *command, CliOutput *o)
{
    if (!o->temp[0]) {
        if (fflush(stdout) != 0 || ferror(stdout))
            fail_exit(command, EXIT_FAILURE_RUN, "writing stdout: %s", strerror(errno));
        return;
    }
    bool ok = fflush(o->file) == 0 && !ferror(o->file) && fsync(fileno(o->file)) == 0;
    int saved = errno;
    ok = fclose(o->file) == 0 && ok;
    if (!ok || rename(o->temp, o->path) != 0) {
        saved = ok ? errno : saved;
        unlink(o->temp);
        fail_exit(command, EXIT_FAILURE_RUN, "cannot write %s: %s", o->path, strerror(saved));
    }
}

void cli_output_discard(CliOutput *o)
{
    if (o->temp[0]) {
        fclose(o->file);
        unlink(o->temp);
        o->temp[0] = '\0';
    }
}
