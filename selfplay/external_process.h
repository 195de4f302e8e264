/*
 * external_process.h - a child process spoken to by lines over two pipes, with deadlines: start it,
 * send a line, read a line before a deadline, and end it (kill and reap, so no zombie is left).
 * The external-engine player (player_external.c) is built on it.  One ExternalProcess belongs to
 * one thread; there is no shared state, and a dead peer never raises SIGPIPE in the process.
 * Deadlines are seconds on core/clock.h's clock_seconds().
 */
#ifndef LEUCTRA_EXTERNAL_PROCESS_H
#define LEUCTRA_EXTERNAL_PROCESS_H

#include "core/clock.h"
#include "core/game.h"

#include <stddef.h>
#include <sys/types.h>

/* A reply line of the protocol is at most 64 KiB (docs/PROTOCOL.md section 1). */
enum { EXTERNAL_PROCESS_MAX_LINE = 65536 };

/* A transcript of every line sent to and read from engines, for finding out what went wrong
 * (`leuctra match --debug FILE`): one line each, "SECONDS >NAME(PID): text" for a line sent,
 * '<' for one read, SECONDS since the log was opened.  Each line is one write(2) to a file
 * opened for appending, so the lines of concurrent engines never mix. */
struct IoLog {
    int fd;
    double start;
};
typedef struct IoLog IoLog;

/* Creates (or truncates) the file; false with *err when it cannot be opened. */
bool external_process_log_open(IoLog *log, const char *path, Error *err);
void external_process_log_close(IoLog *log);

typedef struct {
    pid_t pid;              /* 0 when no child is running */
    int to_child;           /* write end of the child's stdin (non-blocking) */
    int from_child;         /* read end of the child's stdout */
    size_t have;            /* bytes buffered in `pending` */
    IoLog *log;             /* NULL, or where the lines go (set by the owner) */
    char name[64];          /* the engine's name in the log */
    char pending[EXTERNAL_PROCESS_MAX_LINE + 1];
} ExternalProcess;

typedef enum {
    PROCESS_LINE,           /* a whole line (without "\n" or "\r") */
    PROCESS_EOF,            /* the child closed its output: it exited or crashed */
    PROCESS_TIMEOUT,        /* the deadline passed first */
    PROCESS_GARBLED         /* a line with a NUL or control byte, or longer than the limit */
} ProcessRead;

/* Starts argv[0] (searched in PATH) with argv; its stderr goes to the file `log` (appended) or to
 * /dev/null when log is NULL.  False with *err when it cannot be started. */
bool external_process_start(ExternalProcess *ep, char *const argv[], const char *log, Error *err);

/* Writes `text` (whole lines) before the deadline; false when the child is gone or too slow. */
bool external_process_send(ExternalProcess *ep, const char *text, double deadline);

/* Reads one line into line[len] (cut to fit) before the deadline. */
ProcessRead external_process_read_line(ExternalProcess *ep, double deadline, char *line, size_t len);

/* Ends the child: sends `quit_line` (may be NULL) and waits up to grace seconds for it to exit,
 * then kills it; always reaps it.  Writes how it ended ("exit status 3", "signal 9") into
 * how[how_len] when how is not NULL.  Nothing happens when no child is running. */
void external_process_stop(ExternalProcess *ep, const char *quit_line, double grace, char *how, size_t how_len);

#endif
