/*
 * player.h - anything that chooses moves, behind one interface: `random`, `greedy` (best move by
 * a one-ply evaluation), `mcts` (selfplay/mcts.h), and other programs over the engine protocol
 * (player_external.h).  A player is made from a spec string such as
 * "mcts:visits=800,weights=a.txt,threads=2".  Players are handed the game so far (its start,
 * moves and position hashes), never a bare position, so a search sees every repetition the
 * driver would score and an engine is sent the whole game.
 */
#ifndef LEUCTRA_PLAYER_H
#define LEUCTRA_PLAYER_H

#include "core/game.h"
#include "core/game_so_far.h"
#include "core/value.h"
#include "selfplay/mcts.h"

typedef struct {
    double value;           /* the mover's win probability as the player saw it; NAN if none */
    long visits;            /* search visits spent on the move (0 for non-searching players) */
    const MctsResult *search;   /* the search behind the move, or NULL; valid until the next call */
} MoveInfo;

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
};

/* Makes a player from a spec: NAME[:key=value,...].  Keys: weights=FILE (greedy, mcts),
 * visits=N, time=SECONDS, threads=N, cpuct=X, fpu=X, contempt=X, playouts=0|1, nodes=N,
 * solve=N, rootsolve=N, coarse=X (mcts); engine:... specs are player_external.h's. */
Player *player_create(const Game *g, const char *spec, Error *err);
/* A spec value as a finite number within [min, max] (whole text; no trailing junk); player_spec.c. */
bool player_spec_number(const char *text, double min, double max, double *out);
void player_free(Player *p);

/* The help text listing the player specs, for --help screens (a literal, to concatenate). */
#define PLAYER_SPECS_HELP                                                                           \
    "players:\n"                                                                                    \
    "  random                      uniformly random legal moves\n"                                  \
    "  greedy[:weights=FILE]       the move whose position evaluates best, one ply deep\n"          \
    "  mcts[:key=value,...]        Monte-Carlo tree search; keys: visits=N (default 800),\n"        \
    "                              time=SECONDS, threads=N (default 1), weights=FILE, cpuct=X\n"    \
    "                              (1.5; 1.0 with weights that have learned priors), fpu=X (0),\n"  \
    "                              contempt=X (0.5), playouts=1 (random playouts at the leaves),\n" \
    "                              nodes=N (tree budget, 32 bytes a node), solve=N (Reversi:\n"     \
    "                              leaves with <= N empties solved, default 12; 0: never),\n"       \
    "                              rootsolve=N (Reversi: the root solved first at <= N empties,\n"  \
    "                              default 18; 0: never), coarse=X (the share of a leaf's value\n"  \
    "                              from the linear features alone, with table weights: 0.3 in\n"    \
    "                              the phalanx games, 0 in Reversi)\n"

#endif
