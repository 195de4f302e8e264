/*
 * error.h - a command's failure as one line: "leuctra CMD: message" on stderr and the exit
 * status that says whose fault it was (core/error.c).  The `leuctra` subcommands end with it, and
 * so does the library code that runs a whole command's work (eval/match_*.c); a library call that
 * can fail on its own input reports an Error (game.h: error_set) and lets its caller decide.
 */
#ifndef LEUCTRA_ERROR_H
#define LEUCTRA_ERROR_H

/* Bad input of any kind (arguments, files that are not what they should be): 2; a run that
 * failed (I/O, memory, a damaged file): 1. */
enum { EXIT_FAILURE_RUN = 1, EXIT_USAGE = 2 };

/* Prints "leuctra CMD: message" on stderr (just "leuctra: message" when CMD is "") and exits with
 * `status`.  Control characters in the message are shown as '?', so it stays one line; a
 * failed write to stdout before it is not reported again at exit (cli/main.c). */
_Noreturn void fail_exit(const char *command, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Makes text one safe line in place: control characters and bytes that are not UTF-8 become
 * '?', one for each byte (error_set and fail_exit pass every message through it, and so does
 * whatever else echoes input in an error: the engine protocol's error lines). */
void error_one_line(char *text);

#endif
