/*
 * mcts.h - Monte-Carlo tree search (PUCT) for any game behind core/game.h.
 *
 * Priors come from the game's move_priors, leaf values from the static evaluation (or random
 * playouts).  Won and lost positions are proven in the tree (MCTS-solver): a node whose side to
 * move has a winning child is a win, one whose children all lose is a loss, and search never
 * samples a proven result again.  Threads share one tree (tree parallelism) and keep off each
 * other's paths with a virtual loss; with one thread a search is reproducible from its seed.
 * Memory is bounded by a node budget; the subtree of the moves played is kept between searches.
 */
#ifndef LEUCTRA_MCTS_H
#define LEUCTRA_MCTS_H

#include "core/game.h"
#include "core/game_so_far.h"
#include "core/value.h"

#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
    double c_puct;          /* exploration constant of PUCT (default 1.5) */
    double c_puct_learned;  /* the same where the weights have learned priors (default 0.7): they are
                               sharper and surer than the heuristic ones, and exploring less by them
                               measured +145 to +180 Elo at 1,000 visits in all three games (1.0
                               against 1.5), then 0.7 against 1.0 +45 (Reversi), +32 (Epaminondas)
                               and -1 (Crossings) on the 1,000-opening suites */
    double fpu_reduction;   /* unvisited child's value = parent's value minus this (default 0) */
    bool playouts;          /* leaf value from one random playout instead of the evaluation */
    int threads;            /* search threads (default 1) */
    size_t max_nodes;       /* node budget: visited nodes (default 4M); the tree's pool holds 16
                               nodes of 32 bytes for each (2 GiB reserved, committed as used) */
    uint64_t seed;          /* random choices: playouts, root noise, ties */
    double root_noise;      /* fraction of Dirichlet noise mixed into the root priors (0 = off) */
    double noise_alpha;     /* Dirichlet alpha for the root noise */
    double contempt;        /* a repetition draw is worth 0.5 - contempt to the root side (default 0.5: a loss) */
    /* Exact endgame search, for games that have one (core/solve.h; Reversi): a new leaf with at
     * most solve_empties empty squares is solved win/loss/draw and proven in the tree, and a
     * root with at most root_solve_empties is solved before any visit: a win or a draw is played
     * at once, a loss is searched as usual (the solver knows no swindles).  0 turns either off. */
    int solve_empties;      /* default 12 */
    int root_solve_empties; /* default 18 */
    /* The share of a leaf's value from the linear features alone where the weights have pattern
     * tables (value_search in core/value.h), which leads the search on to finish a won game;
     * negative (the default): the game's own share (GameOps.coarse_share). */
    double coarse_share;
} MctsConfig;

typedef struct {
    long visits;            /* stop after this many visits in this search (0 = no limit) */
    double seconds;         /* stop after this long (0 = no limit) */
} MctsLimits;

typedef enum { PROVEN_NONE = 0, PROVEN_WIN, PROVEN_LOSS, PROVEN_DRAW } Proven;

typedef struct {
    Move move;
    long visits;
    double prior;           /* normalised prior */
    double value;           /* mean value for the side to move at the root, in [0, 1] */
    Proven proven;          /* for the side to move at the root */
    int proven_plies;       /* a proven result's plies to the end of the game, this move included
                               (a solved endgame counts its empty squares; capped at 255) */
} MoveStat;

enum { MCTS_MAX_PV = 32, MCTS_MAX_STATS = 1024 };   /* root moves reported (phalanx positions have ~100-300) */

typedef struct {
    Move best;              /* MOVE_NONE when the root has no legal move */
    double value;           /* the root side's win probability (mean over the tree) */
    Proven proven;          /* the root's proven result for its side to move */
    int proven_plies;       /* ... in this many plies (as MoveStat's) */
    long visits;            /* visits made by this search */
    long tree_visits;       /* visits of the root, kept ones included */
    size_t nodes;           /* nodes in the tree: at most max_nodes, however many visits */
    double seconds;
    int pv_length;
    Move pv[MCTS_MAX_PV];
    int num_stats;          /* root moves, most visited first */
    MoveStat stats[MCTS_MAX_STATS];
    bool solved;            /* the root solve decided the move: no visits, one stat */
} MctsResult;

typedef struct Mcts Mcts;

/* Called from the search about every `interval` seconds with the result so far. */
typedef void (*MctsInfoFn)(const MctsResult *so_far, void *ctx);

void mcts_default_config(MctsConfig *cfg);
/* NULL on allocation failure.  The game and weights must outlive the search.  It does the setup
 * every search needs (the tree's first pages touched, each thread's state made), so that even
 * the first search's time is all search; mcts_setup_seconds says how long that took. */
Mcts *mcts_new(const Game *g, const Weights *w, const MctsConfig *cfg);
/* The exploration constant a search with these weights uses: c_puct_learned where the weights
 * have learned priors for the game, c_puct with the heuristic ones. */
double mcts_exploration(const MctsConfig *cfg, const Weights *w);
/* The coarse share a search with these weights uses: cfg's, or the game's where cfg's is
 * negative; 0 where the weights have no tables (it would change nothing). */
double mcts_coarse_share(const MctsConfig *cfg, const Game *g, const Weights *w);
double mcts_setup_seconds(const Mcts *m);
void mcts_free(Mcts *m);

/* Sets the position to search.  When it is the root or lies one or two plies below it, the
 * subtree is kept (tree reuse); otherwise the tree starts afresh. */
void mcts_set_position(Mcts *m, const Position *pos);
void mcts_clear(Mcts *m);
/* As a fresh mcts_new with this seed, without reallocating the pools (a new game). */
void mcts_restart(Mcts *m, uint64_t seed);

/* The hashes of the game's positions before the root (oldest first).  Search scores a position
 * that repeats one of them, or one earlier on its own path, as a draw: the game driver
 * adjudicates repetitions as draws, and a winning side must not drift into one. */
void mcts_set_history(Mcts *m, const uint64_t *hashes, int n);
/* Both: the game's current position as the root, the positions before it as the history. */
void mcts_set_game(Mcts *m, const GameSoFar *game);

/* Searches until a limit is reached, `stop` becomes true (may be NULL), or the root is proven. */
MctsResult mcts_search(Mcts *m, const MctsLimits *limits, const atomic_bool *stop, MctsInfoFn info,
                       double info_interval, void *info_ctx);

/* --- searches whose leaves an evaluator outside the search judges (mcts_batch.c) --------------- */

/* One leaf for the evaluator: its position and legal moves (the game's order) in, the side to
 * move's win probability and a score for each move out.  The scores are normalised by the search
 * as the evaluation's priors are (a score that is not a positive number counts as no chance). */
typedef struct {
    int tree;                   /* which of the searches it belongs to */
    const Position *position;
    const Move *moves;
    int num_moves;
    double value;               /* out, in [0, 1] */
    float *priors;              /* out, num_moves of them */
} MctsLeaf;

/* Evaluates n leaves at once; false stops the searches (an error of the evaluator's own). */
typedef bool (*MctsEvaluateFn)(MctsLeaf *leaves, int n, void *ctx);

/* Searches `count` trees (each from the game mcts_set_game gave it) `visits` visits each, on this
 * thread, asking `evaluate` for up to `batch` leaves at a time across all of them, at most
 * `per_tree` of one tree (0: no limit but the batch; 1: each tree's visits one after the other,
 * as a search without a batch makes them, the batch spread across the trees).  Within a tree
 * the visits in flight keep off each other's paths by their virtual loss, and a visit that meets
 * a leaf still waiting for its evaluation is taken back and that tree waits for the next round.
 * Proofs, finished games, repetitions and Reversi's solved endgames need no evaluator, as in
 * mcts_search.  With batch 1 and an evaluator that answers as the evaluation of the tree's
 * weights does, every tree's result is the one mcts_search gives on one thread.  results[i] gets
 * tree i's; false when the evaluator failed or memory ran out (results then hold what was done). */
bool mcts_search_batched(Mcts *const *trees, int count, long visits, int batch, int per_tree, MctsEvaluateFn evaluate,
                         void *ctx, MctsResult *results);

/* Bytes of one tree node (for memory figures). */
size_t mcts_node_bytes(void);

#endif
