/*
 * engine.h - one session of `leuctra engine`, the line protocol that match tools and GUIs drive
 * (docs/PROTOCOL.md), and the modules that serve it:
 *
 *   engine.c           creating a session and the read-dispatch loop
 *   engine_state.c     the game, its weights and the search tree, replaced together
 *   engine_io.c        reading bounded lines, writing flushed replies, tokens and numbers
 *   engine_protocol.c  the command table and the commands that only look at the position
 *   engine_game.c      newgame and position: the game, the position and the moves played
 *   engine_options.c   the options (setoption) and their announcement in the handshake
 *   engine_search.c    go and stop: the search in its own thread, on a clock or not
 *   engine_nboard.c    the NBoard protocol of Reversi GUIs (leuctra engine --protocol nboard)
 *
 * Threads: the main thread reads commands and owns every field.  While a search runs, the search
 * thread reads game, weights, mcts and search.root; the commands that would change them are
 * refused until the search has ended (EngineCommand.while_searching), so they need no lock.  Both
 * threads write replies only through engine_reply/engine_put, which hold the output stream's own
 * lock for a whole line, so lines never interleave.
 */
#ifndef LEUCTRA_ENGINE_H
#define LEUCTRA_ENGINE_H

#include "core/game.h"
#include "core/game_so_far.h"
#include "core/value.h"
#include "search/mcts.h"
#include "search/search_setup.h"
#include "search/time_control.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

/* The longest command line accepted, newline excluded.  A position with its moves is the longest
 * real command: 64 KiB holds over 8000 moves.  Longer lines are discarded as they are read. */
enum { ENGINE_MAX_LINE = 65536 };

/* What `setoption` changes: the search's set-up (search/search_setup.h has the names, ranges
 * and defaults) and whether a search's result is also written as one JSON line. */
typedef struct {
    SearchSetup search;             /* a go that names no limit searches search.limits */
    bool json;
} EngineOptions;

typedef struct Engine Engine;

/* What a protocol writes about a search: its progress (about twice a second) and its end (the
 * move); called in the search thread. */
typedef struct {
    void (*progress)(Engine *e, const MctsResult *so_far);
    void (*finished)(Engine *e, const MctsResult *result);
} EngineSearchOutput;

typedef struct {
    pthread_t thread;
    bool running;                   /* started and not yet joined (main thread only) */
    atomic_bool finished;           /* the search is over; set just before bestmove is written */
    atomic_bool stop;               /* `stop`, `quit` or end of input asks the search to end */
    pthread_mutex_t lock;           /* with `wake`: an infinite search that ends by itself (a */
    pthread_cond_t wake;            /* proven result) waits for stop before it answers */
    bool infinite;
    MctsLimits limits;
    Position root;                  /* the position searched (for the pv of info lines) */
    bool timed;                     /* on a clock: the timer ends the search */
    MoveTimer timer;
    double next_report;             /* when the next progress report is due */
    const EngineSearchOutput *output;
} EngineSearch;

struct Engine {
    FILE *in, *out;
    atomic_bool output_lost;        /* a write failed: the peer is gone, so the session ends */
    bool quit;
    Game *game;
    GameSoFar played;               /* the game from `position`: its moves for the search's repetition
                                       rule, and .now, the current position */
    EngineOptions options;
    Weights weights;                /* for game's variant, from options.search.eval_path */
    Mcts *mcts;                     /* NULL until the next go needs it */
    EngineSearch search;
    void *protocol_state;           /* another protocol's own state (engine_nboard.c), else NULL */
    char line[ENGINE_MAX_LINE + 1];
};

/* --- engine.c ---------------------------------------------------------------------------------- */

/* A session on `game` (which it then owns) at `pos` with the shipped weights; NULL plus *err. */
Engine *engine_new(FILE *in, FILE *out, Game *game, const Position *pos, Error *err);
void engine_free(Engine *e);
/* Serves commands until quit, end of input or a failed write; any search is ended on the way out. */
void engine_serve(Engine *e);

/* --- engine_state.c ---------------------------------------------------------------------------- */

/* Replaces the game (owned from now on) and its weights; the search tree goes with the old game. */
void engine_install_game(Engine *e, Game *game, const Weights *w);
/* Drops the search tree, so that the next go builds one with the current options and weights. */
void engine_drop_tree(Engine *e);

/* --- engine_io.c ------------------------------------------------------------------------------- */

typedef enum { LINE_OK, LINE_TOO_LONG, LINE_NUL, LINE_EOF } LineStatus;

/* Reads one line into buf (ENGINE_MAX_LINE + 1 bytes) without its newline or a final '\r'. */
LineStatus engine_read_line(FILE *in, char *buf);

/* One reply line, written and flushed at once. */
void engine_reply(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "error <text>" with control characters shown as '?', so that echoed input cannot break lines. */
void engine_error(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A reply line built piece by piece: begin, put..., end (which adds the newline and flushes). */
void engine_line_begin(Engine *e);
void engine_put(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void engine_line_end(Engine *e);
/* Holds the output across several lines, so a multi-line reply is never split by an info line. */
void engine_hold_output(Engine *e);
void engine_release_output(Engine *e);

/* Whitespace-separated words of a line, split in place. */
typedef struct {
    char *rest;
} Tokens;

char *engine_tokens_next(Tokens *t);           /* NULL after the last word */
char *engine_tokens_rest(Tokens *t);           /* the rest of the line, trimmed ("" if none) */

bool engine_parse_integer(const char *text, long long min, long long max, long long *out);
bool engine_parse_real(const char *text, double min, double max, double *out);

/* --- the command handlers (engine_protocol.c dispatches them) --------------------------------- */

void engine_dispatch(Engine *e, char *line);

void engine_cmd_newgame(Engine *e, Tokens *args);
void engine_cmd_position(Engine *e, Tokens *args);
void engine_cmd_setoption(Engine *e, Tokens *args);
void engine_cmd_go(Engine *e, Tokens *args);
void engine_cmd_stop(Engine *e, Tokens *args);
void engine_cmd_wait(Engine *e, Tokens *args);

/* --- engine_options.c -------------------------------------------------------------------------- */

void engine_options_default(EngineOptions *o);
/* The `option name ...` lines of the handshake. */
void engine_options_announce(Engine *e);
/* The weights that options name, for game g: the file, or the shipped ones. */
bool engine_load_weights(const EngineOptions *o, const Game *g, Weights *out, Error *err);

/* --- engine_search.c --------------------------------------------------------------------------- */

void engine_search_init(EngineSearch *s);
void engine_search_destroy(EngineSearch *s);
/* True while a search runs and has not been told to stop; otherwise joins its thread (after
 * stop, that waits the moment it takes the search to write its bestmove). */
bool engine_search_busy(Engine *e);
/* Asks a running search to end (its bestmove still comes); nothing if none runs. */
void engine_search_request_stop(Engine *e);
/* Stops and joins any search, for the end of the session. */
void engine_search_end(Engine *e);
/* Waits for a running search to end by itself (nothing when none runs). */
void engine_search_join(Engine *e);
/* Starts a search of e->played.now in the search thread, reported through `output`; `budget`
 * (NULL: none) puts it on a clock, timed from `start`.  False after an `error` line when the tree
 * or the thread cannot be made. */
bool engine_search_start(Engine *e, const MctsLimits *limits, const TimeBudget *budget, double start, bool infinite,
                         const EngineSearchOutput *output);
/* The budget of a move on these clocks for the side to move now, with the session's overhead. */
TimeBudget engine_move_budget(const Engine *e, const ClockReading *clock);

/* --- engine_nboard.c --------------------------------------------------------------------------- */

/* Serves the NBoard protocol (Reversi GUIs: NBoard, and the protocol of Edax and NTest) until
 * quit or end of input; the session's game must be Reversi. */
void engine_serve_nboard(Engine *e);

#endif
