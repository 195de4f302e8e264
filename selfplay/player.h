/*
 * player.h - anything that chooses moves, behind one interface: `random`, `greedy` (best move by
 * a one-ply evaluation), `mcts` (search/mcts.h), and other programs over the engine protocol
 * (player_external.h).  A player is made from a spec string such as
 * "mcts:visits=800,weights=a.txt,threads=2", or an mcts one from the search set-up a program
 * filled (search/search_setup.h).  Players are handed the game so far (its start,
 * moves and position hashes), never a bare position, so a search sees every repetition the
 * driver would score and an engine is sent the whole game.
 */
#ifndef LEUCTRA_PLAYER_H
#define LEUCTRA_PLAYER_H

#include "core/game.h"
#include "core/game_so_far.h"
#include "core/value.h"
#include "search/mcts.h"
#include "search/search_setup.h"
#include "search/time_control.h"

#include <math.h>

/* One move between the driver and a player: what the player is told (the clocks), what it
 * reports (value, visits, search) and what the driver measured (time, clock left). */
typedef struct {
    double value;           /* the mover's win probability as the player saw it; NAN if none */
    long visits;            /* search visits spent on the move (0 for non-searching players) */
    const MctsResult *search;   /* the search behind the move, or NULL; valid until the next call */
    const ClockReading *clock;  /* in: the clocks before the move when the mover plays on one, else NULL */
    double seconds;         /* set by the driver: the time the move took (0 when not measured) */
    double clock_left;      /* set by the driver: the mover's clock after the move; NAN without one */
} MoveInfo;

/* What a driver sets before asking for a move: no clock, nothing measured yet. */
#define MOVE_INFO_INIT ((MoveInfo){NAN, 0, NULL, NULL, 0, NAN})

/* A transcript of the lines sent to and read from engines (player_external.h; --debug). */
typedef struct IoLog IoLog;

typedef struct Player Player;

struct Player {
    char name[96];          /* the spec it was made from, e.g. "mcts:visits=800" */
    const Game *game;
    /* Picks a legal move of game->now, a position that is not over. */
    Move (*choose)(Player *p, const GameSoFar *game, MoveInfo *info);
    /* A new game begins (search trees are dropped). */
    void (*new_game)(Player *p, uint64_t seed);
    void (*destroy)(Player *p);
    void *ctx;
    TimeControl tc;         /* the game clock its spec asks for (tc=); seconds 0: none */
    int threads;            /* the search threads it runs (for the match's check against the cores) */
    bool timed;             /* its moves depend on time (tc= or time=), not on visits alone */
};

/* Where a player's own output goes, for the command to print (library code prints nothing): an
 * external engine's transcript (`io_log`, --debug) and its one-line notes (`note`: incidents,
 * retries, the summary; called from the thread that plays, one whole line at a time).  Any
 * member may be NULL: the output is then dropped. */
typedef struct {
    IoLog *io_log;
    void (*note)(const char *line, void *ctx);
    void *note_ctx;
} PlayerOutput;

/* Makes a player from a spec: NAME[:key=value,...].  Keys: name=NAME (any player), weights=FILE
 * (greedy, mcts), visits=N, time=SECONDS, tc=TIME_CONTROL, overhead=SECONDS, threads=N, cpuct=X,
 * fpu=X, contempt=X, playouts=0|1, nodes=N, solve=N, rootsolve=N, coarse=X (mcts); engine:...
 * specs are player_external.h's.  player_create drops an external engine's output. */
Player *player_create(const Game *g, const char *spec, Error *err);
Player *player_create_with_output(const Game *g, const char *spec, const PlayerOutput *out, Error *err);
/* An mcts player from a search set-up (search/search_setup.h) that a program filled itself (the
 * visits and weights of a training run's gate), with no spec text to write and parse back: the
 * same player as player_create makes from player_search_spec's text of it, whose name it takes.
 * False with *err (input) for weights that do not load or a search without any limit. */
Player *player_create_search(const Game *g, const SearchSetup *setup, Error *err);
/* The spec of an mcts player of set-up s: "mcts:visits=N", then every other option of the
 * table that players take whose value is not the default, in the table's order (so
 * "mcts:visits=400,weights=run/gen1/weights.lwt"); player_create reads it back to the same
 * set-up.  A match writes it in its records' settings for a player made from a set-up. */
void player_search_spec(const SearchSetup *s, char *buf, size_t len);
/* The value of a spec's name= key into buf (false, buf untouched, when it has none). */
bool player_spec_name(const char *spec, char *buf, size_t len);
/* A spec's tc= value into *tc; false with *err naming the spec (player_spec.c). */
bool player_spec_time_control(const char *spec, const char *value, TimeControl *tc, Error *err);
/* A spec value as a finite number within [min, max] (whole text; no trailing junk); player_spec.c. */
bool player_spec_number(const char *text, double min, double max, double *out);
void player_free(Player *p);

/* The help text listing the player specs, for --help screens (a literal, to concatenate). */
#define PLAYER_SPECS_HELP                                                                           \
    "players:\n"                                                                                    \
    "  random                      uniformly random legal moves\n"                                  \
    "  greedy[:weights=FILE]       the move whose position evaluates best, one ply deep\n"          \
    "  mcts[:key=value,...]        Monte-Carlo tree search; keys: visits=N (default 800),\n"        \
    "                              time=SECONDS (a fixed time per move), tc=SECONDS[+INC] or\n"    \
    "                              tc=MOVES/SECONDS[+INC] (a game clock, managed by the engine),\n" \
    "                              overhead=SECONDS (kept back per clocked move, default 0.02),\n"  \
    "                              threads=N (default 1), weights=FILE, cpuct=X\n"                  \
    "                              (1.5; 0.7 with weights that have learned priors), fpu=X (0),\n"  \
    "                              contempt=X (0.5), playouts=1 (random playouts at the leaves),\n" \
    "                              nodes=N (tree budget, 32 bytes a node), solve=N (Reversi:\n"     \
    "                              leaves with <= N empties solved, default 12; 0: never),\n"       \
    "                              rootsolve=N (Reversi: the root solved first at <= N empties,\n"  \
    "                              default 18; 0: never), coarse=X (the share of a leaf's value\n"  \
    "                              from the linear features alone, with table weights: 0.3 in\n"    \
    "                              the phalanx games, 0 in Reversi)\n"                             \
    "  any player also takes name=NAME (its name in reports and results files)\n"

#endif
