/*
 * engine_nboard.c - the NBoard protocol (Chris Welty's, version 2), which the NBoard Othello GUI
 * speaks and Edax and NTest answer: `leuctra engine --protocol nboard`, Reversi only, with the
 * same search as the engine protocol behind it (engine_search.c's thread, this file's lines).
 * docs/PROTOCOL.md, "NBoard", lists what is answered and how.
 *
 *   nboard 2                    -> set myname leuctra
 *   set depth N                 the visit budget: 1000 x 1.25^N visits (an MCTS has no depth)
 *   set game (;GM[Othello]...;) the game (GGF): BO[] the start, B[]/W[] the moves, TI[] the clock
 *   set contempt N              accepted and ignored
 *   move F5[/EVAL[/TIME]]       plays a move (TIME seconds count on the mover's clock)
 *   hint N                      -> search PV EVAL 0 DEPTH ... for the best N moves
 *   go                          -> nodestats ..., === MOVE/EVAL/TIME (the board is not changed)
 *   ping N                      stops any search, -> pong N
 *   learn                       -> learned
 *   quit                        ends the session
 *
 * A line the engine does not understand is ignored, as the protocol asks; a line it cannot
 * carry out (a bad game, an illegal move) leaves the game as it was and is said in a `status`
 * line, the only free text NBoard shows.  Evals: NBoard shows discs, and an MCTS has a win
 * probability p instead; it is sent as 64 (2p - 1), from the side to move's view (+64 a sure
 * win, 0 even), and a proven result with the depth "100%W".
 */
#include "engine.h"

#include "core/clock.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int depth;              /* set depth */
    double game_time;       /* TI: each side's time for the game, seconds (0: no clock) */
    double used[2];         /* what each side has used of it, from the moves' time fields */
    int hint_moves;         /* the running search answers `hint N` (0: it answers `go`) */
} NBoard;

enum { NBOARD_DEFAULT_DEPTH = 20, NBOARD_MAX_DEPTH = 60 };

/* The visits of a depth: an alpha-beta search's cost grows by a constant factor a ply, and so
 * does this (depth 20: 87,000 visits, about 0.3 s; depth 30: 0.8 M). */
static long depth_visits(int depth)
{
    return lround(1000 * pow(1.25, depth));
}

static NBoard *state(Engine *e) { return e->protocol_state; }

/* --- moves and evals as NBoard writes them ---------------------------------------------------- */

/* "D3" for d3, "PA" for a pass. */
static void nboard_move(const Engine *e, const Position *pos, Move m, char *buf, size_t len)
{
    char text[8];
    game_format_move(e->game, pos, m, text, sizeof text);
    if (strcmp(text, "pass") == 0)
        snprintf(buf, len, "PA");
    else
        snprintf(buf, len, "%c%s", toupper((unsigned char)text[0]), text + 1);
}

/* A move of NBoard's ("F5", "f5", "PA", "pass") in pos; false with *err. */
static bool read_move(const Engine *e, const Position *pos, const char *text, Move *m, Error *err)
{
    char lower[16];
    size_t n = strlen(text);
    if (n == 0 || n >= sizeof lower) {
        error_set(err, "move '%.20s': not a move", text);
        return false;
    }
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)tolower((unsigned char)text[i]);
    if (strcmp(lower, "pa") == 0)
        strcpy(lower, "pass");
    return game_parse_move(e->game, pos, lower, m, err);
}

static double nboard_eval(double winprob)
{
    double p = isnan(winprob) ? 0.5 : winprob;
    return 64 * (2 * p - 1);
}

/* The depth field: the principal variation's length, or "100%W" for a proven result. */
static void depth_text(const MctsResult *r, char *buf, size_t len)
{
    if (r->proven != PROVEN_NONE)
        snprintf(buf, len, "100%%W");
    else
        snprintf(buf, len, "%d", r->pv_length > 0 ? r->pv_length : 1);
}

/* --- output from the search thread ------------------------------------------------------------- */

/* "search D3-C5-F6 12.34 0 7 visits 81234": the best line so far. */
static void put_best_line(Engine *e, const MctsResult *r)
{
    Position pos = e->search.root;
    char text[8], depth[16];
    depth_text(r, depth, sizeof depth);
    engine_line_begin(e);
    engine_put(e, "search ");
    for (int i = 0; i < r->pv_length; i++) {
        nboard_move(e, &pos, r->pv[i], text, sizeof text);
        engine_put(e, "%s%s", i ? "-" : "", text);
        Undo undo;
        game_make(e->game, &pos, r->pv[i], &undo);
    }
    if (r->pv_length == 0) {
        nboard_move(e, &pos, r->best, text, sizeof text);
        engine_put(e, "%s", text);
    }
    engine_put(e, " %.2f 0 %s visits %ld", nboard_eval(r->value), depth, r->tree_visits);
    engine_line_end(e);
}

static void nboard_progress(Engine *e, const MctsResult *so_far)
{
    engine_reply(e, "nodestats %ld %.2f", so_far->visits, so_far->seconds);
    if (state(e)->hint_moves > 0 && so_far->best != MOVE_NONE)
        put_best_line(e, so_far);
}

/* hint N: the best line, then the next N-1 root moves, each with its own value. */
static void hint_finished(Engine *e, const MctsResult *r)
{
    engine_hold_output(e);
    engine_reply(e, "nodestats %ld %.2f", r->visits, r->seconds);
    if (r->best != MOVE_NONE)
        put_best_line(e, r);
    for (int i = 1; i < r->num_stats && i < state(e)->hint_moves; i++) {
        const MoveStat *s = &r->stats[i];
        char text[8];
        if (s->visits == 0)
            break;
        nboard_move(e, &e->search.root, s->move, text, sizeof text);
        engine_reply(e, "search %s %.2f 0 %s visits %ld", text, nboard_eval(s->value),
                     s->proven != PROVEN_NONE ? "100%W" : "1", s->visits);
    }
    engine_reply(e, "status leuctra is waiting");
    engine_release_output(e);
}

/* go: "=== MOVE/EVAL/TIME"; the board waits for the GUI's `move`. */
static void go_finished(Engine *e, const MctsResult *r)
{
    char text[8] = "PA";
    if (r->best != MOVE_NONE)
        nboard_move(e, &e->search.root, r->best, text, sizeof text);
    engine_hold_output(e);
    engine_reply(e, "nodestats %ld %.2f", r->visits, r->seconds);
    engine_reply(e, "=== %s/%.2f/%.3f", text, nboard_eval(r->value), r->seconds);
    engine_reply(e, "status leuctra is waiting");
    engine_release_output(e);
}

static void search_finished(Engine *e, const MctsResult *r)
{
    if (state(e)->hint_moves > 0)
        hint_finished(e, r);
    else
        go_finished(e, r);
}

static const EngineSearchOutput nboard_output = {nboard_progress, search_finished};

/* --- GGF: set game ---------------------------------------------------------------------------- */

/* "15:00", "1:02:03", "90" (the first field of a GGF time) in seconds; false if not one. */
static bool read_clock_time(const char *text, size_t n, double *out)
{
    double total = 0;
    size_t i = 0;
    int fields = 0;
    while (i < n && fields < 3) {
        char part[32];
        size_t k = strcspn(text + i, ":/,");
        if (i + k > n)
            k = n - i;
        if (k == 0 || k >= sizeof part)
            return false;
        memcpy(part, text + i, k);
        part[k] = '\0';
        double v;
        if (!engine_parse_real(part, 0, 1e6, &v))
            return false;
        total = total * 60 + v;
        fields++;
        i += k;
        if (i >= n || text[i] != ':')
            break;
        i++;
    }
    *out = total;
    return fields > 0;
}

/* BO[8 <64 squares> <side>] as a position string of the rules ("8/8/... b"). */
static bool board_position(const char *value, char *out, size_t len, Error *err)
{
    const char *p = value;
    while (*p == ' ')
        p++;
    if (strncmp(p, "8", 1) != 0 || (p[1] != ' ' && p[1] != '\0')) {
        error_set(err, "set game: only 8x8 boards (BO[8 ...]) are played");
        return false;
    }
    p++;
    char squares[64];
    int count = 0;
    for (; *p && count < 64; p++) {
        if (*p == ' ')
            continue;
        if (!strchr("-*O.", *p))
            break;
        squares[count++] = *p == '*' ? 'B' : *p == 'O' ? 'W' : '.';
    }
    while (*p == ' ')
        p++;
    if (count != 64 || (*p != '*' && *p != 'O')) {
        error_set(err, "set game: BO[] needs 64 squares (- * O) and the side to move (* or O)");
        return false;
    }
    size_t n = 0;
    for (int row = 0; row < 8; row++) {
        int empty = 0;
        for (int col = 0; col < 8; col++) {
            char c = squares[row * 8 + col];
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(out + n, len - n, "%d", empty);
            empty = 0;
            n += (size_t)snprintf(out + n, len - n, "%c", c);
        }
        if (empty)
            n += (size_t)snprintf(out + n, len - n, "%d", empty);
        n += (size_t)snprintf(out + n, len - n, "%s", row < 7 ? "/" : "");
    }
    snprintf(out + n, len - n, " %c", *p == '*' ? 'b' : 'w');
    return true;
}

/* A game being read from GGF: its moves go into `played`, their times into `used`. */
typedef struct {
    GameSoFar played;
    double used[2], game_time;
    bool started;
} GgfGame;

/* Plays "F5[/EVAL[/TIME]]" for `color` ('B' or 'W'); a side whose turn it is not, when the side to
 * move has nothing but a pass, gets the pass first (GGF may leave passes out). */
static bool play_ggf_move(const Engine *e, GgfGame *gg, char color, const char *value, Error *err)
{
    char word[32];
    size_t n = strcspn(value, "/");
    if (n == 0 || n >= sizeof word) {
        error_set(err, "set game: bad move '%.20s'", value);
        return false;
    }
    memcpy(word, value, n);
    word[n] = '\0';
    int side = color == 'W' ? WHITE : BLACK;
    Move m;
    const Position *pos = &gg->played.now;
    if (game_side_to_move(e->game, pos) != side) {
        /* only a forced pass may be left out; any other move out of turn is no game */
        if (!read_move(e, pos, "pass", &m, err)) {
            error_set(err, "set game: %c[%s] is played out of turn (%s is to move and can move)", color, word,
                      side == WHITE ? "black" : "white");
            return false;
        }
        if (!game_so_far_play(&gg->played, e->game, m)) {
            error_set(err, "out of memory");
            return false;
        }
    }
    if (!read_move(e, &gg->played.now, word, &m, err) || !game_so_far_play(&gg->played, e->game, m))
        return false;
    const char *time = strchr(value + n + (value[n] == '/'), '/');
    double t;
    if (time && read_clock_time(time + 1, strlen(time + 1), &t))
        gg->used[side] += t;
    return true;
}

/* One GGF property NAME[VALUE]. */
static bool ggf_property(const Engine *e, GgfGame *gg, const char *name, const char *value, Error *err)
{
    if (strcmp(name, "BO") == 0) {
        char text[128];
        Position start;
        if (!board_position(value, text, sizeof text, err) || !game_parse_position(e->game, text, &start, err))
            return false;
        gg->started = true;
        return game_so_far_begin(&gg->played, e->game, &start) || (error_set(err, "out of memory"), false);
    }
    if (strcmp(name, "TI") == 0) {
        if (!read_clock_time(value, strlen(value), &gg->game_time))
            gg->game_time = 0;
        return true;
    }
    if (strcmp(name, "B") == 0 || strcmp(name, "W") == 0) {
        if (!gg->started) {
            error_set(err, "set game: a move before the board (BO[])");
            return false;
        }
        return play_ggf_move(e, gg, name[0], value, err);
    }
    return true;    /* GM, PC, DT, PB, PW, RE, TY, ...: nothing the engine needs */
}

/* "(;GM[Othello]...BO[8 ... *]B[F5]W[F6]...;)" into *gg; false with *err. */
static bool read_ggf(const Engine *e, const char *text, GgfGame *gg, Error *err)
{
    const char *p = strstr(text, "(;");
    if (!p) {
        error_set(err, "set game: expected a GGF game '(;GM[Othello]...;)'");
        return false;
    }
    p += 2;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p == ';' || *p == ')' || *p == '\0')
            break;
        char name[8];
        size_t n = 0;
        while (isupper((unsigned char)*p) && n < sizeof name - 1)
            name[n++] = *p++;
        name[n] = '\0';
        const char *close = *p == '[' ? strchr(p, ']') : NULL;
        if (n == 0 || !close) {
            error_set(err, "set game: expected NAME[VALUE] at '%.20s'", p);
            return false;
        }
        char value[256];
        size_t len = (size_t)(close - p - 1);
        snprintf(value, sizeof value, "%.*s", (int)(len < sizeof value ? len : sizeof value - 1), p + 1);
        if (!ggf_property(e, gg, name, value, err))
            return false;
        p = close + 1;
    }
    if (!gg->started)
        error_set(err, "set game: the game has no board (BO[])");
    return gg->started;
}

/* --- the commands ------------------------------------------------------------------------------- */

static void set_game(Engine *e, const char *ggf)
{
    GgfGame gg;
    memset(&gg, 0, sizeof gg);     /* an empty game so far owns nothing */
    Error err;
    if (!read_ggf(e, ggf, &gg, &err)) {
        engine_reply(e, "status leuctra: %s", err.msg);
        game_so_far_free(&gg.played);
        return;
    }
    game_so_far_free(&e->played);
    e->played = gg.played;
    state(e)->game_time = gg.game_time;
    state(e)->used[WHITE] = gg.used[WHITE];
    state(e)->used[BLACK] = gg.used[BLACK];
}

static void set_command(Engine *e, Tokens *args)
{
    const char *what = engine_tokens_next(args);
    if (!what)
        return;
    if (strcmp(what, "depth") == 0) {
        long long depth;
        const char *value = engine_tokens_next(args);
        if (value && engine_parse_integer(value, 1, NBOARD_MAX_DEPTH, &depth))
            state(e)->depth = (int)depth;
        else
            engine_reply(e, "status leuctra: set depth takes a number from 1 to %d", NBOARD_MAX_DEPTH);
    } else if (strcmp(what, "game") == 0) {
        set_game(e, engine_tokens_rest(args));
    }
    /* set contempt, and any other setting: the protocol lets an engine ignore them */
}

/* move F5[/EVAL[/TIME]] */
static void move_command(Engine *e, const char *text)
{
    char word[32];
    size_t n = strcspn(text, "/");
    Move m;
    Error err;
    int side = game_side_to_move(e->game, &e->played.now);
    if (n >= sizeof word) {
        engine_reply(e, "status leuctra: move '%.20s': not a move", text);
        return;
    }
    memcpy(word, text, n);
    word[n] = '\0';
    if (!read_move(e, &e->played.now, word, &m, &err) || !game_so_far_play(&e->played, e->game, m)) {
        engine_reply(e, "status leuctra: %s", err.msg);
        return;
    }
    const char *time = text[n] ? strchr(text + n + 1, '/') : NULL;
    double t;
    if (time && engine_parse_real(time + 1, 0, 1e6, &t))
        state(e)->used[side] += t;
}

/* hint N or go: a search of the position with the depth's visits, and for go the clock of TI. */
static void search_command(Engine *e, int hint_moves)
{
    NBoard *nb = state(e);
    double start = clock_seconds();
    if (game_status(e->game, &e->played.now) != STATUS_ONGOING) {
        engine_reply(e, "status leuctra: the game is over");
        return;
    }
    MctsLimits limits = {depth_visits(nb->depth), 0};
    nb->hint_moves = hint_moves;
    int mover = game_side_to_move(e->game, &e->played.now);
    TimeBudget budget;
    bool clocked = hint_moves == 0 && nb->game_time > 0;
    if (clocked) {
        ClockReading clock = {{nb->game_time - nb->used[WHITE], nb->game_time - nb->used[BLACK]}, {0, 0}, 0};
        clock.left[mover] = fmax(clock.left[mover], 0);
        budget = engine_move_budget(e, &clock);
    }
    engine_reply(e, "status leuctra is thinking");
    engine_search_start(e, &limits, clocked ? &budget : NULL, start, false, &nboard_output);
}

static void hint_command(Engine *e, Tokens *args)
{
    const char *value = engine_tokens_next(args);
    long long n = 1;
    if (value && !engine_parse_integer(value, 1, 64, &n))
        n = 1;
    search_command(e, (int)n);
}

static void nboard_dispatch(Engine *e, char *line)
{
    Tokens args = {line};
    const char *command = engine_tokens_next(&args);
    if (!command)
        return;
    bool ping = strcmp(command, "ping") == 0;
    /* A command waits for a running search's answer (it may change what the search reads);
     * ping and quit stop it first. */
    if (ping || strcmp(command, "quit") == 0)
        engine_search_end(e);
    else
        engine_search_join(e);
    if (ping)
        engine_reply(e, "pong %s", engine_tokens_rest(&args));
    else if (strcmp(command, "nboard") == 0)
        engine_reply(e, "set myname leuctra");
    else if (strcmp(command, "set") == 0)
        set_command(e, &args);
    else if (strcmp(command, "move") == 0)
        move_command(e, engine_tokens_rest(&args));
    else if (strcmp(command, "hint") == 0)
        hint_command(e, &args);
    else if (strcmp(command, "go") == 0)
        search_command(e, 0);
    else if (strcmp(command, "learn") == 0)
        engine_reply(e, "learned");
    else if (strcmp(command, "quit") == 0)
        e->quit = true;
    else if (strlen(command) == 2 && isalpha((unsigned char)command[0]))
        move_command(e, command);   /* protocol version 1 sent a bare "F5" */
    /* anything else: ignored, as the protocol asks */
}

void engine_serve_nboard(Engine *e)
{
    NBoard nb = {NBOARD_DEFAULT_DEPTH, 0, {0, 0}, 0};
    e->protocol_state = &nb;
    while (!e->quit && !atomic_load(&e->output_lost)) {
        LineStatus status = engine_read_line(e->in, e->line);
        if (status == LINE_EOF)
            break;
        if (status == LINE_OK)
            nboard_dispatch(e, e->line);
    }
    engine_search_end(e);
    e->protocol_state = NULL;
}
