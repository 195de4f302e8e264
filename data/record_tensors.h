/*
 * record_tensors.h - the positions of a game record as a network trains on them
 * (docs/TENSORS.md): per position before each move its input planes, its legal actions, the
 * search's visit counts over them, the action played, the game's result and the search's root
 * value for the side to move, optionally once more under each board symmetry the rules allow.
 * The npz export (data/tensor_file.h) and the Python package's reader both take their rows here.
 *
 * Visit lists become actions straight from their stored squares (record_move_squares): each must
 * land on a legal move of its position, and be written as the rules write that move (its capture
 * mark included), or the game is refused; so must the move played.  The same replay without rows
 * (record_tensors_check) is how `records verify` and the CSV export check a game against the
 * rules.  Thread-safe: all state is in the RecordTensors.
 */
#ifndef LEUCTRA_RECORD_TENSORS_H
#define LEUCTRA_RECORD_TENSORS_H

#include "records.h"

/* One position (as one symmetry shows it).  The arrays belong to the RecordTensors and are
 * valid until the next row. */
typedef struct {
    uint64_t game;              /* the game's index */
    int ply;                    /* plies played before the position */
    int side;                   /* WHITE or BLACK to move */
    int symmetry;               /* 0, or the symmetry applied (core/tensors.h) */
    const unsigned char *planes;    /* PLANES_COUNT x height x width */
    int num_legal;
    const int *legal;           /* the legal actions, ascending */
    const uint32_t *visits;     /* visits[i]: the search's visits of legal[i] (all 0: no search) */
    uint64_t visit_sum;         /* their sum */
    int played;                 /* the action played */
    float result;               /* the game's result for the side to move: 1, 0.5 or 0 */
    float value;                /* the root value for the side to move in [0, 1], or NAN */
} TensorRow;

/* Called for each row; false stops the game (with *err set by the callee). */
typedef bool (*TensorRowFn)(const TensorRow *row, void *ctx, Error *err);

typedef struct RecordTensors RecordTensors;

/* For games of g; `symmetries` has bit s set for each symmetry wanted besides the identity
 * (those g does not allow are dropped).  NULL when memory runs out. */
RecordTensors *record_tensors_new(const Game *g, unsigned symmetries);
void record_tensors_free(RecordTensors *rt);
/* The symmetries each position is given, the identity included (1 + the allowed extras). */
int record_tensors_copies(const RecordTensors *rt);

/* Replays record r and calls fn for each position, ply order, symmetries in increasing order.
 * False with *err ("game N ply P: ...") when the record does not replay: a bad start, a stored
 * move the rules reject, a visited move that is no legal move of its position, a move (played or
 * visited) whose notation is not the rules' ("a2-b2" for a capture, which the rules write
 * "a2xb2"), a visit list that names a move twice. */
bool record_tensors_game(RecordTensors *rt, const GameRecord *r, TensorRowFn fn, void *ctx, Error *err);

/* The same replay and checks, without rows: whether every stored move of r, played or visited,
 * is a legal move of its position exactly as stored. */
bool record_tensors_check(RecordTensors *rt, const GameRecord *r, Error *err);

#endif
