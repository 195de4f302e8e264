/*
 * external_process.c - a line-speaking child process with deadlines (see external_process.h).
 *
 * Why the details below: the pipes are made close-on-exec, because match threads start engines
 * concurrently and a pipe end leaked into another thread's child would keep an end-of-file from
 * ever arriving; our stdin end is non-blocking, so an engine that stops reading cannot block us
 * past a deadline; SIGPIPE is blocked in the writing thread only and a pending one is consumed,
 * so a crashed engine does not kill the match and no process-wide signal setting changes.
 */
#include "external_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

bool external_process_log_open(IoLog *log, const char *path, Error *err)
{
    log->start = clock_seconds();
    log->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (log->fd < 0)
        error_set(err, "%s: %s", path, strerror(errno));
    return log->fd >= 0;
}

void external_process_log_close(IoLog *log)
{
    if (log->fd >= 0)
        close(log->fd);
    log->fd = -1;
}

/* One line of the transcript: n bytes of text (no newline), sent ('>') or read ('<'). */
static void log_line(const ExternalProcess *ep, char direction, const char *text, size_t n)
{
    if (!ep->log || ep->log->fd < 0)
        return;
    char line[1024];
    int head = snprintf(line, sizeof line, "%.3f %c%s(%ld): ", clock_seconds() - ep->log->start, direction,
                        ep->name, (long)ep->pid);
    if (head < 0)
        return;
    size_t room = sizeof line - (size_t)head - 1, copy = n < room ? n : room;
    memcpy(line + head, text, copy);
    line[(size_t)head + copy] = '\n';
    ssize_t ignored = write(ep->log->fd, line, (size_t)head + copy + 1);
    (void)ignored;      /* a transcript that cannot be written must not stop the match */
}

/* Each line of text, for the transcript. */
static void log_lines(const ExternalProcess *ep, char direction, const char *text)
{
    while (ep->log && *text) {
        size_t n = strcspn(text, "\n");
        log_line(ep, direction, text, n);
        text += n + (text[n] == '\n');
    }
}

/* Milliseconds left before a deadline, for poll(); 0 when it has passed. */
static int millis_left(double deadline)
{
    double left = deadline - clock_seconds();
    if (left <= 0)
        return 0;
    return left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static bool spawn_child(ExternalProcess *ep, char *const argv[], const char *log, int child_in, int child_out,
                        Error *err)
{
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) {
        error_set(err, "cannot start '%s': out of memory", argv[0]);
        return false;
    }
    /* dup2 clears close-on-exec on the copies, so only these two pipe ends reach the child. */
    posix_spawn_file_actions_adddup2(&actions, child_in, 0);
    posix_spawn_file_actions_adddup2(&actions, child_out, 1);
    posix_spawn_file_actions_addopen(&actions, 2, log ? log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
    int rc = posix_spawnp(&ep->pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        ep->pid = 0;
        error_set(err, "cannot start '%s': %s", argv[0], strerror(rc));
        return false;
    }
    return true;
}

bool external_process_start(ExternalProcess *ep, char *const argv[], const char *log, Error *err)
{
    int in[2], out[2];
    ep->pid = 0;
    ep->have = 0;
    ep->to_child = ep->from_child = -1;
    if (pipe2(in, O_CLOEXEC) != 0) {
        error_set(err, "cannot start '%s': pipe: %s", argv[0], strerror(errno));
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        error_set(err, "cannot start '%s': pipe: %s", argv[0], strerror(errno));
        close(in[0]);
        close(in[1]);
        return false;
    }
    bool started = spawn_child(ep, argv, log, in[0], out[1], err);
    close(in[0]);
    close(out[1]);
    if (!started) {
        close(in[1]);
        close(out[0]);
        return false;
    }
    ep->to_child = in[1];
    ep->from_child = out[0];
    fcntl(ep->to_child, F_SETFL, fcntl(ep->to_child, F_GETFL) | O_NONBLOCK);
    return true;
}

/* write() with SIGPIPE blocked in this thread; a SIGPIPE that the write raised is consumed. */
static ssize_t write_without_sigpipe(int fd, const char *data, size_t n)
{
    sigset_t pipe_set, old_mask, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigemptyset(&pending);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE);
    ssize_t written = write(fd, data, n);
    int saved = errno;
    if (written < 0 && saved == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    errno = saved;
    return written;
}

bool external_process_send(ExternalProcess *ep, const char *text, double deadline)
{
    size_t n = strlen(text), done = 0;
    if (ep->pid == 0 || ep->to_child < 0)
        return false;
    log_lines(ep, '>', text);
    while (done < n) {
        ssize_t w = write_without_sigpipe(ep->to_child, text + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return false;
        struct pollfd pfd = {ep->to_child, POLLOUT, 0};
        int ready = poll(&pfd, 1, millis_left(deadline));
        if (ready == 0 || (ready < 0 && errno != EINTR) || (pfd.revents & (POLLERR | POLLHUP)))
            return false;
    }
    return true;
}

static bool is_garbage_byte(unsigned char c)
{
    return (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f;
}

/* Takes the first buffered line, if there is one, into line[len]. */
static bool take_line(ExternalProcess *ep, char *line, size_t len, ProcessRead *status)
{
    char *newline = memchr(ep->pending, '\n', ep->have);
    if (!newline)
        return false;
    size_t n = (size_t)(newline - ep->pending), keep = n;
    if (keep > 0 && ep->pending[keep - 1] == '\r')
        keep--;
    size_t copy = keep < len - 1 ? keep : len - 1;
    memcpy(line, ep->pending, copy);
    line[copy] = '\0';
    *status = PROCESS_LINE;
    for (size_t i = 0; i < keep; i++)
        if (is_garbage_byte((unsigned char)ep->pending[i])) {
            *status = PROCESS_GARBLED;
            if (i < copy)
                line[i] = '?';  /* so the line can be shown in a log */
        }
    ep->have -= n + 1;
    memmove(ep->pending, newline + 1, ep->have);
    return true;
}

ProcessRead external_process_read_line(ExternalProcess *ep, double deadline, char *line, size_t len)
{
    ProcessRead status;
    line[0] = '\0';
    for (;;) {
        if (take_line(ep, line, len, &status)) {
            log_line(ep, '<', line, strlen(line));
            return status;
        }
        if (ep->have == EXTERNAL_PROCESS_MAX_LINE)
            return PROCESS_GARBLED;     /* a line longer than the protocol allows */
        if (ep->from_child < 0)
            return PROCESS_EOF;
        struct pollfd pfd = {ep->from_child, POLLIN, 0};
        int ready = poll(&pfd, 1, millis_left(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return PROCESS_TIMEOUT;
        ssize_t got = read(ep->from_child, ep->pending + ep->have, EXTERNAL_PROCESS_MAX_LINE - ep->have);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return PROCESS_EOF;
        ep->have += (size_t)got;
    }
}

static void describe_exit(int status, char *how, size_t how_len)
{
    if (!how)
        return;
    if (WIFEXITED(status))
        snprintf(how, how_len, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(how, how_len, "signal %d", WTERMSIG(status));
    else
        snprintf(how, how_len, "unknown status");
}

/* Waits until the deadline for the child to exit by itself; true when it has been reaped. */
static bool reaped_before(pid_t pid, double deadline, int *status)
{
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return true;
        if (clock_seconds() >= deadline)
            return false;
        struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);
    }
}

void external_process_stop(ExternalProcess *ep, const char *quit_line, double grace, char *how, size_t how_len)
{
    if (ep->pid == 0)
        return;
    double deadline = clock_seconds() + grace;
    if (quit_line && grace > 0)
        external_process_send(ep, quit_line, deadline);
    close_fd(&ep->to_child);    /* end of input asks a protocol engine to exit too */
    int status = 0;
    if (!reaped_before(ep->pid, deadline, &status)) {
        kill(ep->pid, SIGKILL);
        while (waitpid(ep->pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (how)
            snprintf(how, how_len, "killed");
    } else {
        describe_exit(status, how, how_len);
    }
    close_fd(&ep->from_child);
    ep->pid = 0;
    ep->have = 0;
}
