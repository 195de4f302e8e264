/*
 * tensors.h - positions and moves as a neural network reads them (docs/TENSORS.md): a fixed
 * action index per game and board, the input planes, and the board symmetries under which the
 * rules are the same.  Both are seen from the side to move: a phalanx position with Black to move
 * is mirrored top to bottom, so that the mover always plays "up" the planes and one network
 * serves both colours.
 *
 * The layout of each game lives in its module (the GameOps entries num_actions, action_of,
 * action_of_squares, planes, symmetries, transform_action); this file adds what is common: the
 * legal actions of a position, an action back to its move, and the symmetries of the planes.
 * A later network evaluation inside the search reads the same planes and action numbers.
 */
#ifndef LEUCTRA_TENSORS_H
#define LEUCTRA_TENSORS_H

#include "game.h"

/* The planes layout this code writes; a change of meaning or order takes a new version. */
enum { PLANES_VERSION = 1 };

/* The planes, in order: each is height x width bytes of 0 or 1, row 0 the top of the board as the
 * side to move sees it (the opponent's side). */
enum {
    PLANE_OWN,              /* the side to move's stones (frozen ones included) */
    PLANE_OPPONENT,         /* the opponent's stones */
    PLANE_OBSTACLE,         /* obstacle squares */
    PLANE_OWN_FROZEN,       /* the mover's stones that never move (Crossings towers, Igfip crossings) */
    PLANE_OPPONENT_FROZEN,  /* the opponent's */
    PLANE_MUST_ANSWER,      /* all ones when the mover must answer a crossing (Crossings, Igfip) */
    PLANE_SYMMETRY_RULE,    /* all ones when the Epaminondas symmetry rule may forbid a move */
    PLANE_WHITE_TO_MOVE,    /* all ones when White is to move */
    PLANE_ON_BOARD,         /* all ones: tells the board from padding in a larger input */
    PLANES_COUNT
};

/* Short names of the planes, for file metadata ("own", "opponent", ...). */
extern const char *const tensor_plane_names[PLANES_COUNT];

/* Symmetries of the board, as elements of the square's dihedral group: bit 0 mirrors the files
 * (left-right), bit 1 the rows (top-bottom), bit 2 transposes first (square boards only).  A
 * game allows those that map every legal position to a legal position with the mapped moves. */
enum { SYM_IDENTITY = 0, SYM_MIRROR_FILES = 1, SYM_COUNT = 8 };

/* The notation's view of a move (RULES.md section 5) with no rules applied: the square it names
 * first and, for a phalanx move, the square it names second (the rearmost stone's landing), each
 * as a file (0 = a) and the number the notation writes (1 = "a1"'s; Reversi numbers rows from
 * the top).  A placement has to == from; a pass has pass set. */
typedef struct MoveSquares {
    int from_file, from_number, to_file, to_number;
    bool pass;
} MoveSquares;

static inline int game_num_actions(const Game *g) { return g->ops->num_actions(g); }

/* The action of a legal move of p. */
static inline int game_action_of(const Game *g, const Position *p, Move m) { return g->ops->action_of(g, p, m); }

/* The action the notation's squares name with `side` to move, or -1 when they name none (off
 * the board, not on one line, farther than any group moves).  Legality is not checked. */
static inline int game_action_of_squares(const Game *g, int side, const MoveSquares *m)
{
    return g->ops->action_of_squares(g, side, m);
}

/* Writes the planes of p: PLANES_COUNT x height x width bytes. */
static inline void game_planes(const Game *g, const Position *p, unsigned char *out) { g->ops->planes(g, p, out); }

/* The symmetries the rules allow on this board: bit s set for symmetry s (bit 0 always). */
static inline unsigned game_symmetries(const Game *g) { return g->ops->symmetries(g); }

/* The action of the mapped move under an allowed symmetry s. */
static inline int game_transform_action(const Game *g, int s, int action) { return g->ops->transform_action(g, s, action); }

/* The actions of n legal moves of p (the game's own way of doing them all at once, where it has
 * one: GameOps.actions_of). */
void game_actions_of(const Game *g, const Position *p, const Move *moves, int n, int *actions);

/* The legal moves of p (as game_gen_moves, in its order) and the action of each; returns their
 * number.  `moves` and `actions` hold MAX_MOVES entries. */
int game_legal_actions(const Game *g, const Position *p, Move *moves, int *actions);

/* The legal move of p that `action` names, or false with the reason in *err (out of range, or no
 * legal move of this position). */
bool game_move_of(const Game *g, const Position *p, int action, Move *m, Error *err);

/* Planes of a position mapped by an allowed symmetry s (in and out: PLANES_COUNT x height x width
 * bytes, not overlapping). */
void game_transform_planes(const Game *g, int s, const unsigned char *in, unsigned char *out);

/* Where square (row, col) of a height x width grid goes under symmetry s (s & 4 needs a square
 * grid); the game modules map their actions with it. */
static inline void symmetry_map(int s, int height, int width, int *row, int *col)
{
    int r = *row, c = *col;
    if (s & 4) {
        int t = r;
        r = c;
        c = t;
    }
    if (s & SYM_MIRROR_FILES)
        c = width - 1 - c;
    if (s & 2)
        r = height - 1 - r;
    *row = r;
    *col = c;
}

#endif
