/*
 * output_file.h - the one way leuctra writes a whole file: pictures, pages, tables, weights,
 * merged and canonical records, match results and opening suites all go through here, so every
 * output path means the same thing:
 *
 *   a regular file, or a name not there yet: written to PATH.tmp.XXXXXX beside it, synced, and
 *     renamed over it only once every write succeeded, so it appears whole or not at all (a
 *     file it replaces keeps its permissions; a new one is 0644);
 *   a symbolic link: followed, however many links deep and dangling or not, to the name it
 *     leads to, which is written as above, so the link stays a link and its file is replaced;
 *   "-": stdout, written directly;
 *   a character device (/dev/null, a terminal) or a FIFO: written directly, since a rename
 *     would put a regular file in its place;
 *   anything else (a folder, a block device, a socket): refused.
 *
 * Records files that are appended to (records_create, records_resume) are no whole-file
 * output, but name their file through output_file_resolve too.
 *
 * No output may be an input or another output (output_files_distinct): a command checks all
 * its paths together before it writes anything.  The one global state is the table of temporary
 * files in flight, which a signal handler removes (output_temp_create says why).
 */
#ifndef LEUCTRA_OUTPUT_FILE_H
#define LEUCTRA_OUTPUT_FILE_H

#include "core/game.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

enum { OUTPUT_PATH_MAX = 4096 };

typedef enum {
    OUTPUT_REPLACE,     /* a temporary file renamed over the target */
    OUTPUT_DIRECT,      /* a character device or a FIFO, written in place */
    OUTPUT_STDOUT       /* "-" */
} OutputKind;

typedef struct {
    OutputKind kind;
    int fd;                         /* the temporary file, the device or FIFO, or 1 */
    FILE *stream;                   /* output_file_stream's, NULL until asked for */
    const char *name;               /* the path as given, for messages */
    char target[OUTPUT_PATH_MAX];   /* OUTPUT_REPLACE: the name renamed over (where links lead) */
    char temp[OUTPUT_PATH_MAX + 16];
} OutputFile;

/* What a path names once its symbolic links are followed: *target the last name (the path
 * itself when it is no link), *exists whether that name is there, *mode its type and
 * permissions when it is.  False with err ("PATH: ...") for a loop of links or a name that
 * cannot be looked at (a folder on the way that is missing or unreadable is not such a name:
 * it shows when the file is made). */
bool output_file_resolve(const char *path, char *target, size_t len, bool *exists, mode_t *mode, Error *err);

/* "a folder", "a block device", ... for a file type, as messages name it. */
const char *output_file_type_name(mode_t mode);

/* Whether path can take an output, checked before any work is done: false with err when it is
 * refused (see above) or the folder of the file to replace is not writable. */
bool output_file_check(const char *path, Error *err);

/* Opens the output; false with err when the path is refused or cannot be written. */
bool output_file_open(OutputFile *o, const char *path, Error *err);

/* A stdio stream on the output, owned by o (NULL when memory ran out). */
FILE *output_file_stream(OutputFile *o);

/* All of bytes to the output's descriptor (not through the stream); false with errno set. */
bool output_file_write(OutputFile *o, const void *bytes, size_t n);
/* The same for any descriptor: write() until all is written, again after EINTR. */
bool output_write_all(int fd, const void *bytes, size_t n);

/* Flushes and syncs the output and puts it in place; false with err when a write failed, in
 * which case the temporary file is removed (a device or FIFO has had what was written). */
bool output_file_commit(OutputFile *o, Error *err);

/* Ends without output: the temporary file is removed.  Safe after a failed open. */
void output_file_discard(OutputFile *o);

/* A path a command reads or writes, for output_files_distinct. */
typedef struct {
    const char *option;     /* the option that names it, for messages ("-o", "--data"); "" for an operand */
    const char *path;
    bool output;            /* written (else read) */
    bool shared;            /* an output appended to, which other shared ones may name too (an engine's log) */
} FileRole;

/* False with err ("-o x.lrec and x.lrec are the same file: ...") when an output of `files` is the
 * same file as an input or as another output: the same device and inode once links are followed
 * (hard links too), or for a file not there yet the same name in the same folder.  "-" is the
 * file stdout (an output) or stdin (an input) is.  Devices and FIFOs are written in place and
 * replace nothing, so only two outputs to stdout count among them. */
bool output_files_distinct(const FileRole *files, int n, Error *err);

/* A new temporary file beside target, "target.tmp.XXXXXX" (mkstemp), with `mode`; its name in
 * temp.  Until output_temp_done names it, SIGINT, SIGTERM or SIGHUP removes it before the
 * process ends by that signal (whose disposition is left alone where the process ignores it or
 * handles it itself).  The file is locked (flock) while its descriptor is open, which is how
 * output_temp_remove_stale tells it from one a killed process left.  -1 with errno set. */
int output_temp_create(const char *target, char *temp, size_t len, mode_t mode);
/* temp was renamed into place or removed: a signal leaves that name alone from now on. */
void output_temp_done(const char *temp);
/* A new temporary folder beside target, "target.tmp.XXXXXX" (mkdtemp), for an output of several
 * files put in place together; its name in temp.  Returns a descriptor of the folder that holds
 * its lock, as output_temp_create's does, until closed (no signal removes it: a later
 * output_temp_remove_stale does).  -1 with errno set. */
int output_temp_folder_create(const char *target, char *temp, size_t len);
/* Removes such a folder of this process with the regular files in it, and closes fd. */
void output_temp_folder_remove(int fd, const char *temp);
/* Removes the temporary files and folders "PATH.tmp.XXXXXX" beside where path's links lead that
 * a process killed while writing (SIGKILL, a crash) left: those whose lock no live process holds
 * (a folder with the regular files in it); a live writer's, another process's included, stay.
 * Returns how many went. */
int output_temp_remove_stale(const char *path);

/* Makes a new or renamed directory entry for path durable; a failure loses nothing. */
void output_file_sync_folder(const char *path);

#endif
