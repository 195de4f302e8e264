/*
 * solve.h - exact endgame search, for the games that have one (Reversi): the game-theoretic
 * result of a position by a full-width alpha-beta search to the end of the game.
 *
 * A score is the final disc difference for the side to move under perfect play, with the empty
 * squares of a finished game counted for the winner (the tournament convention, the one Edax
 * and the FFO test suite use): +64 ... -64, 0 a draw.  A win/loss/draw search asks only for the
 * sign, with the window (-1, 1), and is several times faster.
 *
 * A Solver is used by one thread at a time (it may run threads of its own inside a solve); the
 * Game may be shared.
 */
#ifndef LEUCTRA_SOLVE_H
#define LEUCTRA_SOLVE_H

#include "game.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Solver Solver;

typedef enum { SOLVE_EXACT, SOLVE_WLD } SolveMode;

typedef struct {
    int score;              /* exact score, or in WLD mode -1, 0 or +1 */
    Move best;              /* a move that reaches the score; MOVE_NONE when the game is over */
    uint64_t nodes;         /* positions visited */
    bool stopped;           /* a limit ended the search: score and best mean nothing */
} SolveResult;

/* When to give up: a flag another thread may set (NULL: none), a time limit in seconds (0:
 * none) and a node budget (0: none), all checked every few thousand nodes.  A solver with
 * several threads applies them to its first thread, and the others stop with it. */
typedef struct {
    const atomic_bool *stop;
    double seconds;
    uint64_t max_nodes;
} SolveLimits;

/* Selectivity, for positions beyond an exact solve's reach (Edax's and Zebra's probable score): a
 * search at level 0 .. SOLVE_EXACT_LEVEL - 1 tries only the first few moves, in its own order,
 * of the nodes far from the end whose window is null (more moves at each level), so its score is
 * probable, not proven; SOLVE_EXACT_LEVEL searches every move.  Its accuracy on the FFO positions
 * is in docs/ENGINE.md. */
enum { SOLVE_EXACT_LEVEL = 4 };

/* What a game module that has a solver puts in GameOps.solver (core/game.h). */
typedef struct SolverOps {
    void *(*create)(const Game *g, size_t table_bytes, int threads);
    void (*destroy)(void *impl);
    int (*empties)(const Game *g, const Position *p);
    SolveResult (*run)(void *impl, const Position *p, SolveMode mode, int level, const SolveLimits *limits);
    void (*clear)(void *impl);
} SolverOps;

/* Whether the game has an exact solver. */
bool solve_available(const Game *g);

/* NULL when the game has none or memory runs out.  table_bytes sizes the transposition table
 * (0: none; it pays from about 12 empties on). */
Solver *solver_new(const Game *g, size_t table_bytes);
/* The same with `threads` threads searching each solve together (sharing the table; one
 * without a table).  The score is the same for any count, and so is the move from a fresh or
 * cleared table (with a used one a single thread may pick another equally good move); the node
 * count is every thread's. */
Solver *solver_new_threads(const Game *g, size_t table_bytes, int threads);
void solver_free(Solver *s);

/* Empty squares of a position: what the solver's time depends on. */
int solve_empties(const Game *g, const Position *p);

/* Forgets the table: later solves then do not depend on earlier ones (which move of several
 * equally good ones is found first can). */
void solver_clear(Solver *s);

/* Solves p within the limits (NULL: none). */
SolveResult solver_run(Solver *s, const Position *p, SolveMode mode, const SolveLimits *limits);
/* The same at a selectivity level (SOLVE_EXACT_LEVEL: solver_run).  The table keeps what each
 * level found: a later search at a higher level starts from its best moves, never its scores. */
SolveResult solver_run_selective(Solver *s, const Position *p, SolveMode mode, int level,
                                 const SolveLimits *limits);

#endif
