/*
 * player_external.c - another program as a player, over the engine protocol (see
 * player_external.h and docs/PROTOCOL.md, "Driving engines from matches").
 *
 * Each game: `newgame variant V [size WxH]`, `isready`; each move: `position fen START moves ...`
 * (the whole game, so the engine can keep its tree and see repetitions) and `go`, then the
 * `info` lines and the `bestmove`.  Any failure ends the engine process at once (killed and
 * reaped) and marks the game lost; the next game starts a fresh process.  All state is in the
 * player, which one match thread owns.
 */
#include "player_external.h"

#include "core/number.h"
#include "selfplay/external_process.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_ARGS = 32,
    MAX_OPTIONS = 8,                /* option.NAME=VALUE keys of a spec */
    SPEC_TEXT = 256,
    REPLY_LINE = 1024,              /* longer info lines are cut; nothing we read is that long */
    HISTORY_LIMIT = 60000,          /* below the engine's 64 KiB line limit, with room for the end */
};

static const double DEFAULT_TIMEOUT = 10;      /* seconds past the move time before a loss */
static const double QUIT_GRACE = 2;            /* seconds a quitting engine gets before SIGKILL */
static const double CRASH_GRACE = 0.3;         /* time to collect a crashed engine's exit status */
/* The least time for the handshake and `newgame`: starting a process (an interpreter, a weights
 * file) can take seconds on a loaded machine, and a move's short timeout= is no guide to it. */
static const double STARTUP_TIMEOUT = 10;

typedef struct {
    IncidentKind kind;
    char detail[200];
} Trouble;

typedef struct {
    char cmd[SPEC_TEXT], args[SPEC_TEXT], log[SPEC_TEXT], label[96], id_name[96];
    long protocol;                  /* the engine's `id protocol` (1 when it says none) */
    char *argv[MAX_ARGS + 2];
    char argv_text[SPEC_TEXT];
    char setoptions[MAX_OPTIONS * (SPEC_TEXT + 64)];   /* "setoption name N value V\n" lines */
    int option_count;
    long visits;
    double seconds, timeout;
    TimeControl tc;                 /* tc=: the game clock, sent with every go */
    GameClock own[2];               /* the clocks it keeps itself when the driver hands it none */
    int threads;                    /* option.threads, for the match's check against the cores */
    ExternalProcess *proc;
    bool lost;                      /* this game is lost already (an incident happened) */
    long move_number;               /* the engine's moves in this game */
    char *history;                  /* "position fen START moves ..." of this game */
    size_t history_length, history_capacity;
    bool history_has_moves;         /* " moves" has been written */
    int history_plies;              /* the game's plies that the text holds */
    Position history_pos;           /* the position after them */
    Move *scratch;
    ExternalCounts counts;
    char line[REPLY_LINE];
    PlayerOutput output;            /* where the notes go */
} ExternalState;

/* One note line (incident, retry, summary) to the output's note, if there is one. */
__attribute__((format(printf, 2, 3))) static void note(const ExternalState *s, const char *fmt, ...)
{
    if (!s->output.note)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    s->output.note(line, s->output.note_ctx);
}

const char *player_incident_kind_name(IncidentKind k)
{
    static const char *const names[INCIDENT_KINDS] = {"crash", "timeout", "illegal-move", "garbled", "error-reply"};
    return (unsigned)k < INCIDENT_KINDS ? names[k] : "unknown";
}

bool player_external_spec(const char *spec)
{
    return strcmp(spec, "engine") == 0 || strncmp(spec, "engine:", 7) == 0;
}

/* --- the spec ---------------------------------------------------------------------------------- */

static bool copy_text(char *dst, size_t len, const char *src, size_t n)
{
    if (n >= len)
        return false;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return true;
}

/* option.NAME=VALUE: a `setoption` sent after the handshake, before `isready`. */
static bool add_setoption(ExternalState *s, const char *spec, const char *name, const char *value, Error *err)
{
    size_t used = strlen(s->setoptions);
    if (s->option_count == MAX_OPTIONS) {
        error_set(err, "player '%.60s': more than %d option.NAME keys", spec, MAX_OPTIONS);
        return false;
    }
    s->option_count++;
    double threads;
    if (strcmp(name, "threads") == 0 && player_spec_number(value, 1, 1024, &threads))
        s->threads = (int)threads;
    snprintf(s->setoptions + used, sizeof s->setoptions - used, "setoption name %.30s value %.255s\n", name, value);
    return true;
}

/* Applies one key=value of the spec; false with *err on an unknown key or bad value. */
static bool apply_option(ExternalState *s, const char *spec, const char *key, const char *value, Error *err)
{
    double v;
    char *text[] = {s->cmd, s->log, s->label};
    const char *text_keys[] = {"cmd", "log", "name"};
    if (strncmp(key, "option.", 7) == 0 && key[7])
        return add_setoption(s, spec, key + 7, value, err);
    if (strcmp(key, "args") == 0) {
        /* args accumulate, so a spec without blanks (a match's player names have none) can still
         * pass several words: args=a,args=b. */
        size_t used = strlen(s->args), n = strlen(value);
        if (used + n + 2 > sizeof s->args) {
            error_set(err, "player '%.60s': args are too long", spec);
            return false;
        }
        if (used)
            s->args[used++] = ' ';
        memcpy(s->args + used, value, n + 1);
        return true;
    }
    for (int i = 0; i < 3; i++)
        if (strcmp(key, text_keys[i]) == 0)
            return copy_text(text[i], i == 2 ? sizeof s->label : SPEC_TEXT, value, strlen(value)) ||
                   (error_set(err, "player '%.60s': %s is too long", spec, key), false);
    if (strcmp(key, "visits") == 0 && player_spec_number(value, 1, 1e12, &v) && v == floor(v)) {
        s->visits = (long)v;
        return true;
    }
    if (strcmp(key, "time") == 0 && player_spec_number(value, 0.001, 1e6, &v)) {
        s->seconds = v;
        return true;
    }
    if (strcmp(key, "timeout") == 0 && player_spec_number(value, 0.01, 1e6, &v)) {
        s->timeout = v;
        return true;
    }
    if (strcmp(key, "tc") == 0)
        return player_spec_time_control(spec, value, &s->tc, err);
    if (strcmp(key, "visits") == 0 || strcmp(key, "time") == 0 || strcmp(key, "timeout") == 0)
        error_set(err, "player '%.60s': %s=%.40s is not a valid number", spec, key, value);
    else
        error_set(err, "player '%.60s': unknown option '%.40s' (engine keys: cmd, args, visits, time, timeout, "
                  "name, log, option.NAME)", spec, key);
    return false;
}

static bool parse_spec(ExternalState *s, const char *spec, Error *err)
{
    const char *at = strchr(spec, ':');
    while (at && *at) {
        at++;
        const char *comma = strchr(at, ','), *end = comma ? comma : at + strlen(at);
        const char *eq = memchr(at, '=', (size_t)(end - at));
        char key[32], value[SPEC_TEXT];
        if (!eq || !copy_text(key, sizeof key, at, (size_t)(eq - at)) ||
            !copy_text(value, sizeof value, eq + 1, (size_t)(end - eq - 1))) {
            error_set(err, "player '%.60s': bad option '%.*s' (expected key=value)", spec, (int)(end - at), at);
            return false;
        }
        if (!apply_option(s, spec, key, value, err))
            return false;
        at = comma;
    }
    if (!s->cmd[0]) {
        error_set(err, "player '%.60s': engine needs cmd=PATH", spec);
        return false;
    }
    if (time_control_on(&s->tc) && s->seconds > 0) {
        error_set(err, "player '%.60s': tc= is a game clock and time= a time per move: give one of them", spec);
        return false;
    }
    return true;
}

/* argv from cmd and the space-separated words of args. */
static bool build_argv(ExternalState *s, Error *err)
{
    int n = 0;
    s->argv[n++] = s->cmd;
    memcpy(s->argv_text, s->args, sizeof s->argv_text);
    for (char *c = s->argv_text; *c;) {
        while (*c == ' ' || *c == '\t')
            *c++ = '\0';
        if (!*c)
            break;
        if (n == MAX_ARGS + 1) {
            error_set(err, "engine '%.60s': more than %d args", s->cmd, MAX_ARGS);
            return false;
        }
        s->argv[n++] = c;
        while (*c && *c != ' ' && *c != '\t')
            c++;
    }
    s->argv[n] = NULL;
    return true;
}

/* --- talking to the engine --------------------------------------------------------------------- */

static void trouble(Trouble *t, IncidentKind kind, const char *what, const char *line)
{
    t->kind = kind;
    snprintf(t->detail, sizeof t->detail, "%.150s%s%.120s%s", what, line ? " '" : "", line ? line : "", line ? "'" : "");
}

/* Reads the next line into s->line; false with *t when the engine has crashed, is too slow,
 * garbles a line or answers `error`. */
static bool next_line(ExternalState *s, double deadline, const char *waiting_for, Trouble *t)
{
    ProcessRead r = external_process_read_line(s->proc, deadline, s->line, sizeof s->line);
    if (r == PROCESS_EOF) {
        trouble(t, INCIDENT_CRASH, "end of output while waiting for", waiting_for);
        return false;
    }
    if (r == PROCESS_TIMEOUT) {
        trouble(t, INCIDENT_TIMEOUT, "no answer in time; waiting for", waiting_for);
        return false;
    }
    if (r == PROCESS_GARBLED) {
        trouble(t, INCIDENT_GARBLED, "a line with control bytes or over 64 KiB, starting", s->line);
        return false;
    }
    if (strncmp(s->line, "error", 5) == 0 && (s->line[5] == ' ' || !s->line[5])) {
        trouble(t, INCIDENT_ERROR, "the engine answered", s->line);
        return false;
    }
    return true;
}

/* Reads lines until one equal to `word` (others are ignored, as the protocol lets a tool do). */
static bool wait_for(ExternalState *s, const char *word, double deadline, Trouble *t)
{
    while (next_line(s, deadline, word, t)) {
        if (strncmp(s->line, "id name ", 8) == 0)
            snprintf(s->id_name, sizeof s->id_name, "%.95s", s->line + 8);
        long long version;
        if (strncmp(s->line, "id protocol ", 12) == 0 && number_read_integer(s->line + 12, 1, 1000000, &version) == NUMBER_OK)
            s->protocol = (long)version;
        if (strcmp(s->line, word) == 0)
            return true;
    }
    return false;
}

static bool send_or_trouble(ExternalState *s, const char *text, double deadline, Trouble *t)
{
    if (external_process_send(s->proc, text, deadline))
        return true;
    trouble(t, INCIDENT_CRASH, "cannot write to the engine (it has exited or stopped reading)", NULL);
    return false;
}

/* Starts the process and completes the handshake: `leuctra` ... `leuctraok`, `isready` ... `readyok`. */
static bool start_engine(ExternalState *s, Trouble *t)
{
    Error err;
    if (!external_process_start(s->proc, s->argv, s->log[0] ? s->log : NULL, &err)) {
        trouble(t, INCIDENT_CRASH, err.msg, NULL);
        return false;
    }
    double deadline = clock_seconds() + fmax(s->timeout, STARTUP_TIMEOUT);
    s->protocol = 1;
    return send_or_trouble(s, "leuctra\n", deadline, t) && wait_for(s, "leuctraok", deadline, t) &&
           (!s->setoptions[0] || send_or_trouble(s, s->setoptions, deadline, t)) &&
           send_or_trouble(s, "isready\n", deadline, t) && wait_for(s, "readyok", deadline, t);
}

static void count_and_log(Player *p, const Trouble *t)
{
    ExternalState *s = p->ctx;
    char how[64] = "not running";
    long pid = (long)s->proc->pid;
    external_process_stop(s->proc, NULL, t->kind == INCIDENT_CRASH ? CRASH_GRACE : 0, how, sizeof how);
    s->counts.incidents[t->kind]++;
    s->lost = true;
    /* One whole line per incident, so a match log can be grepped and counted. */
    note(s, "engine incident: %s: %s in game %ld, move %ld: %s (pid %ld, %s); it loses the game, "
         "engine restarted for the next one", s->label, player_incident_kind_name(t->kind), s->counts.games,
            s->move_number, t->detail, pid, how);
}

/* --- the game so far --------------------------------------------------------------------------- */

static bool append(ExternalState *s, const char *text)
{
    size_t n = strlen(text);
    if (s->history_length + n + 1 > s->history_capacity) {
        size_t cap = s->history_capacity ? 2 * s->history_capacity : 4096;
        while (cap < s->history_length + n + 1)
            cap *= 2;
        char *grown = realloc(s->history, cap);
        if (!grown)
            return false;
        s->history = grown;
        s->history_capacity = cap;
    }
    memcpy(s->history + s->history_length, text, n + 1);
    s->history_length += n;
    return true;
}

/* Writes the text afresh from `pos`, which is the position after `plies` plies of the game. */
static bool restart_history(Player *p, const Position *pos, int plies)
{
    ExternalState *s = p->ctx;
    char fen[1024];
    game_format_position(p->game, pos, fen, sizeof fen);
    s->history_length = 0;
    s->history_has_moves = false;
    s->history_plies = plies;
    s->history_pos = *pos;
    return append(s, "position fen ") && append(s, fen);
}

static bool append_move(Player *p, Move m)
{
    ExternalState *s = p->ctx;
    char text[32] = " ";
    game_format_move(p->game, &s->history_pos, m, text + 1, sizeof text - 1);
    if (!s->history_has_moves && !append(s, " moves"))
        return false;
    s->history_has_moves = true;
    Undo undo;
    game_make(p->game, &s->history_pos, m, &undo);
    s->history_plies++;
    return append(s, text);
}

/* Brings the text up to the game so far by appending the moves since the last call.  A game the
 * text does not lead to (a new game, moves taken back) is written afresh from its start, and a
 * game too long for one protocol line from its current position on. */
static bool update_history(Player *p, const GameSoFar *game)
{
    ExternalState *s = p->ctx;
    bool continues = s->history_length > 0 && s->history_plies <= game->plies &&
                     game->hashes[s->history_plies] == game_hash(p->game, &s->history_pos);
    if (!continues && !restart_history(p, &game->start, 0))
        return false;
    while (s->history_plies < game->plies && s->history_length < HISTORY_LIMIT)
        if (!append_move(p, game->moves[s->history_plies]))
            return false;
    return s->history_plies == game->plies || restart_history(p, &game->now, game->plies);
}

/* --- the player -------------------------------------------------------------------------------- */

/* The word after " KEY " in line, into word[len] (empty when there is none or it is too long). */
static void word_after(const char *line, const char *key, char *word, size_t len)
{
    char pattern[32];
    snprintf(pattern, sizeof pattern, " %s ", key);
    const char *at = strstr(line, pattern);
    size_t n = at ? strcspn(at + strlen(pattern), " \t") : 0;
    if (n >= len)
        n = 0;
    if (n)
        memcpy(word, at + strlen(pattern), n);
    word[n] = '\0';
}

/* An engine's numbers are read as strictly as any input (core/number.h); one it got wrong is
 * left out, as a missing one is. */
static void read_info(const char *line, MoveInfo *info)
{
    char word[64];
    long long visits;
    double v;
    word_after(line, "visits", word, sizeof word);
    if (strncmp(line, "info visits ", 12) == 0 && number_read_integer(word, 0, LONG_MAX, &visits) == NUMBER_OK)
        info->visits = (long)visits;
    word_after(line, "winprob", word, sizeof word);
    if (number_read_decimal(word, &v) == NUMBER_OK && v >= 0 && v <= 1)
        info->value = v;
}

/* Reads `info` lines into *info up to the `bestmove`, whose move word goes into move[len]. */
static bool read_bestmove(ExternalState *s, double deadline, MoveInfo *info, char *move, size_t len, Trouble *t)
{
    while (next_line(s, deadline, "bestmove", t)) {
        if (strncmp(s->line, "info ", 5) == 0)
            read_info(s->line, info);
        if (strncmp(s->line, "bestmove", 8) != 0 || (s->line[8] != ' ' && s->line[8]))
            continue;
        const char *word = s->line + 8 + strspn(s->line + 8, " \t");
        size_t n = strcspn(word, " \t");
        if (n == 0 || n >= len) {
            trouble(t, INCIDENT_GARBLED, "a bestmove without a readable move:", s->line);
            return false;
        }
        memcpy(move, word, n);
        move[n] = '\0';
        return true;
    }
    return false;
}

static bool is_legal(ExternalState *s, const Game *g, const Position *pos, Move m)
{
    int n = game_gen_moves(g, pos, s->scratch);
    for (int i = 0; i < n; i++)
        if (s->scratch[i] == m)
            return true;
    return false;
}

static void set_info(MoveInfo *info, double value, long visits)
{
    if (!info)
        return;
    info->value = value;
    info->visits = visits;
    info->search = NULL;
}

/* The command that starts a search: the clocks on a timed game, the spec's limits, or the
 * engine's own when it names none.  An engine older than protocol 2 knows no clock: it is sent
 * the time that our own time manager would give the move (`go time T`), so it still plays on it. */
static void go_command(const Player *p, const GameSoFar *game, const ClockReading *clock, char *buf, size_t len)
{
    const ExternalState *s = p->ctx;
    int n = snprintf(buf, len, "\ngo");
    if (clock && s->protocol < 2) {
        int mover = game_side_to_move(p->game, &game->now);
        TimeBudget b = time_control_budget(clock, mover, time_control_moves_left(p->game, &game->now, game->plies),
                                   TIME_DEFAULT_OVERHEAD);
        n += snprintf(buf + n, len - (size_t)n, " time %.3f", fmax(b.target, 0.001));
    } else if (clock) {
        n += snprintf(buf + n, len - (size_t)n, " wtime %.3f btime %.3f winc %.3f binc %.3f", fmax(clock->left[WHITE], 0),
                      fmax(clock->left[BLACK], 0), clock->increment[WHITE], clock->increment[BLACK]);
        if (clock->moves_to_go > 0)
            n += snprintf(buf + n, len - (size_t)n, " movestogo %d", clock->moves_to_go);
    }
    if (s->visits > 0)
        n += snprintf(buf + n, len - (size_t)n, " visits %ld", s->visits);
    if (s->seconds > 0)
        snprintf(buf + n, len - (size_t)n, " time %.3f", s->seconds);
    strncat(buf, "\n", len - strlen(buf) - 1);
}

/* The clocks of this move: the driver's, or without one (play) the player's own. */
static const ClockReading *move_clock(const Player *p, const GameSoFar *game, const MoveInfo *info,
                                      ClockReading *own)
{
    const ExternalState *s = p->ctx;
    if (!time_control_on(&s->tc))
        return NULL;
    if (info && info->clock)
        return info->clock;
    *own = time_control_clock_reading(s->own, (const bool[2]){true, true}, game_side_to_move(p->game, &game->now));
    return own;
}

/* Sends the game and `go`, and reads the reply up to the bestmove's word; an `error` reply (a
 * failure inside the engine, such as a search thread that could not start) is given one more
 * try before it counts. */
static bool search_reply(Player *p, double deadline, MoveInfo *info, char *word, size_t len, Trouble *t)
{
    ExternalState *s = p->ctx;
    for (int attempt = 0;; attempt++) {
        if (send_or_trouble(s, s->history, deadline, t) && read_bestmove(s, deadline, info, word, len, t))
            return true;
        if (t->kind != INCIDENT_ERROR || attempt == 1)
            return false;
        note(s, "engine retry: %s: %s in game %ld, move %ld; sent once more", s->label, t->detail, s->counts.games,
             s->move_number);
        s->counts.retries++;
    }
}

/* Asks the engine for its move in game->now; MOVE_NONE with *t when it fails. */
static Move ask_move(Player *p, const GameSoFar *game, MoveInfo *info, const ClockReading *clock, Trouble *t)
{
    ExternalState *s = p->ctx;
    char go[160], word[64];
    Error err;
    Move m;
    int mover = game_side_to_move(p->game, &game->now);
    double allowed = clock ? fmax(clock->left[mover], 0) : s->seconds;
    double deadline = clock_seconds() + allowed + s->timeout;
    go_command(p, game, clock, go, sizeof go);
    if (!update_history(p, game) || !append(s, go)) {
        trouble(t, INCIDENT_CRASH, "out of memory for the game's moves", NULL);
        return MOVE_NONE;
    }
    if (!search_reply(p, deadline, info, word, sizeof word, t))
        return MOVE_NONE;
    s->history_length -= strlen(go);    /* the go line is not part of the game */
    s->history[s->history_length] = '\0';
    if (!game_parse_move(p->game, &game->now, word, &m, &err) || !is_legal(s, p->game, &game->now, m)) {
        trouble(t, INCIDENT_ILLEGAL, "bestmove is not a legal move here:", word);
        return MOVE_NONE;
    }
    return m;
}

static Move external_choose(Player *p, const GameSoFar *game, MoveInfo *info)
{
    ExternalState *s = p->ctx;
    MoveInfo seen = MOVE_INFO_INIT;
    ClockReading own;
    const ClockReading *clock = move_clock(p, game, info, &own);
    double start = clock_seconds();
    Trouble t;
    s->move_number++;
    set_info(info, NAN, 0);
    if (s->lost)
        return MOVE_NONE;       /* already logged: one incident per game */
    if (s->proc->pid == 0) {
        trouble(&t, INCIDENT_CRASH, "the engine is not running", NULL);
        count_and_log(p, &t);
        return MOVE_NONE;
    }
    Move m = ask_move(p, game, &seen, clock, &t);
    if (clock == &own)
        game_clock_charge(&s->own[game_side_to_move(p->game, &game->now)], clock_seconds() - start, INFINITY);
    if (m == MOVE_NONE) {
        count_and_log(p, &t);
        return MOVE_NONE;
    }
    set_info(info, seen.value, seen.visits);
    return m;
}

/* `newgame` for the match's game; the board size is sent for the phalanx games only. */
static bool begin_game(Player *p, Trouble *t)
{
    ExternalState *s = p->ctx;
    const Game *g = p->game;
    char command[128];
    if (g->variant == VARIANT_REVERSI)
        snprintf(command, sizeof command, "newgame variant %s\nisready\n", g->name);
    else
        snprintf(command, sizeof command, "newgame variant %s size %dx%d\nisready\n", g->name, g->width, g->height);
    double deadline = clock_seconds() + fmax(s->timeout, STARTUP_TIMEOUT);
    return send_or_trouble(s, command, deadline, t) && wait_for(s, "readyok", deadline, t);
}

static void external_new_game(Player *p, uint64_t seed)
{
    ExternalState *s = p->ctx;
    Trouble t;
    (void)seed;     /* the engine seeds itself; openings vary the games */
    s->counts.games++;
    s->lost = false;
    s->move_number = 0;
    s->history_length = 0;
    for (int side = 0; side < 2; side++)
        game_clock_start(&s->own[side], &s->tc);
    if (s->proc->pid == 0) {
        s->counts.restarts++;
        /* A start can fail for a passing reason (no memory, no process slot): once more first. */
        if (!start_engine(s, &t) && (external_process_stop(s->proc, NULL, 0, NULL, 0), !start_engine(s, &t))) {
            count_and_log(p, &t);
            return;
        }
    }
    if (!begin_game(p, &t))
        count_and_log(p, &t);
}

static void print_summary(const ExternalState *s)
{
    long total = 0;
    char kinds[160] = "";
    for (int k = 0; k < INCIDENT_KINDS; k++) {
        total += s->counts.incidents[k];
        snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s %ld", k ? ", " : "",
                 player_incident_kind_name((IncidentKind)k), s->counts.incidents[k]);
    }
    char retries[64] = "";
    if (s->counts.retries)
        snprintf(retries, sizeof retries, ", %ld searches asked again", s->counts.retries);
    note(s, "engine summary: %s (%s): %ld games, %ld incidents (%s), %ld restarts%s", s->label,
         s->id_name[0] ? s->id_name : "no id", s->counts.games, total, kinds, s->counts.restarts, retries);
}

static void free_state(ExternalState *s)
{
    free(s->proc);
    free(s->history);
    free(s->scratch);
    free(s);
}

static void external_destroy(Player *p)
{
    ExternalState *s = p->ctx;
    external_process_stop(s->proc, "quit\n", QUIT_GRACE, NULL, 0);
    if (s->counts.games > 0)
        print_summary(s);
    free_state(s);
}

bool player_external_counts(const Player *p, ExternalCounts *out)
{
    memset(out, 0, sizeof *out);
    if (p->destroy != external_destroy)
        return false;
    *out = ((const ExternalState *)p->ctx)->counts;
    return true;
}

static ExternalState *new_state(const char *spec, Error *err)
{
    ExternalState *s = calloc(1, sizeof *s);
    if (s) {
        s->proc = calloc(1, sizeof *s->proc);
        s->scratch = malloc(MAX_MOVES * sizeof *s->scratch);
    }
    if (!s || !s->proc || !s->scratch) {
        if (s)
            free_state(s);
        error_set(err, "out of memory");
        return NULL;
    }
    s->timeout = DEFAULT_TIMEOUT;
    s->threads = 1;
    if (!parse_spec(s, spec, err) || !build_argv(s, err)) {
        free_state(s);
        return NULL;
    }
    if (!s->label[0])
        snprintf(s->label, sizeof s->label, "%.95s", s->cmd);
    return s;
}

Player *player_external_create(const Game *g, const char *spec, const PlayerOutput *out, Error *err)
{
    ExternalState *s = new_state(spec, err);
    if (!s)
        return NULL;
    if (out)
        s->output = *out;
    s->proc->log = s->output.io_log;
    snprintf(s->proc->name, sizeof s->proc->name, "%.63s", s->label);
    Trouble t;
    if (!start_engine(s, &t)) {
        error_set(err, "player '%.60s': the engine did not start: %.110s", spec, t.detail);
        external_process_stop(s->proc, NULL, 0, NULL, 0);
        free_state(s);
        return NULL;
    }
    Player *p = calloc(1, sizeof *p);
    if (!p) {
        external_process_stop(s->proc, NULL, 0, NULL, 0);
        free_state(s);
        error_set(err, "out of memory");
        return NULL;
    }
    snprintf(p->name, sizeof p->name, "%s", s->label);
    p->game = g;
    p->tc = s->tc;
    p->threads = s->threads;
    p->timed = time_control_on(&s->tc) || s->seconds > 0;
    p->ctx = s;
    p->choose = external_choose;
    p->new_game = external_new_game;
    p->destroy = external_destroy;
    return p;
}
