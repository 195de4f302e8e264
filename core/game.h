/*
 * game.h - the interface through which everything above core/ talks to a game.
 *
 * A Game is one rule set on one board: the variant, its geometry and rule flags, and the tables
 * derived from them (Zobrist keys, line masks).  It is built once, never changes afterwards and
 * may be shared by any number of threads.  A Position is plain data of fixed size that any code
 * may copy with `=`; its bytes belong to the game module that wrote them.
 *
 * Each game module (phalanx.c for Epaminondas, Crossings and Igfip, reversi.c) fills a GameOps
 * table; the inline wrappers below dispatch through it.  Hot loops (perft, playouts) live inside the
 * modules and call their concrete code directly.
 */
#ifndef LEUCTRA_GAME_H
#define LEUCTRA_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint32_t Move;
#define MOVE_NONE ((Move)0xFFFFFFFFu)

/* The most evaluation features any game has (core/value.h). */
enum { MAX_FEATURES = 48 };

/* An upper bound on the legal moves of any position of any game (phalanx.c explains the bound). */
enum { MAX_MOVES = 8192 };

enum { WHITE = 0, BLACK = 1 };

typedef enum { STATUS_ONGOING, STATUS_WHITE_WINS, STATUS_BLACK_WINS, STATUS_DRAW } GameStatus;

/* Appended, never reordered: weights identities hash the number (data/weights.c). */
typedef enum { VARIANT_EPAMINONDAS, VARIANT_CROSSINGS, VARIANT_REVERSI, VARIANT_IGFIP } Variant;

/* Opaque storage; each module static-asserts that its own struct fits. */
typedef struct { _Alignas(16) unsigned char bytes[448]; } Position;
typedef struct { _Alignas(8) unsigned char bytes[24]; } Undo;

/* The library's one error: one line saying what and where, and whose fault it was.  Library code
 * fills it and returns; only the command line (cli/) prints it and exits, with status 2 for bad
 * input and 1 for a failure.  Modules that say more fill the rest: the records files their
 * kind of damage and where it is (data/records.h), an MPI run that the error is another
 * process's. */
enum { ERROR_LEN = 600 };
typedef struct {
    char msg[ERROR_LEN];
    bool failure;           /* the run failed (I/O, memory); false: the input was wrong */
    unsigned kind;          /* a module's finer kind (RecordsErrorKind); 0: none */
    uint64_t offset;        /* the byte offset of a damaged chunk (the records' damage kinds) */
    bool elsewhere;         /* another process of an MPI run failed (and says why); not this one */
} Error;

typedef struct Game Game;

typedef struct {
    GameStatus status;      /* STATUS_DRAW when the ply limit ran out first */
    int plies;
} PlayoutResult;

typedef struct Rng Rng;
struct MoveSquares;   /* core/tensors.h */

typedef struct GameOps {
    void (*start)(const Game *, Position *);
    bool (*parse_position)(const Game *, const char *text, Position *, Error *);
    void (*format_position)(const Game *, const Position *, char *buf, size_t len);
    int (*gen_moves)(const Game *, const Position *, Move *moves);
    int (*count_moves)(const Game *, const Position *);
    void (*make)(const Game *, Position *, Move, Undo *);
    void (*unmake)(const Game *, Position *, Move, const Undo *);
    GameStatus (*status)(const Game *, const Position *);
    uint64_t (*hash)(const Game *, const Position *);
    uint64_t (*hash_fresh)(const Game *, const Position *);
    int (*side_to_move)(const Game *, const Position *);
    int (*stones)(const Game *, const Position *, int color);
    void (*format_move)(const Game *, const Position *, Move, char *buf, size_t len);
    bool (*parse_move)(const Game *, const Position *, const char *text, Move *, Error *);
    uint64_t (*perft)(const Game *, const Position *, int depth);
    /* Evaluation features (core/value.h): names, one-line descriptions, and the feature vector of
     * a position from the side to move's point of view (own minus opponent where it applies). */
    int num_features;
    const char *const *feature_names;
    const char *const *feature_help;
    void (*features)(const Game *, const Position *, float *out);
    /* Optional (0 and NULL: none): the same vector for positions met one after the other, reusing
     * the work done for the previous one (value_features_cached in core/value.h).  The cache is
     * feature_cache_size bytes, all zero to start. */
    size_t feature_cache_size;
    void (*features_cached)(const Game *, void *cache, const Position *, float *out);
    /* Search priors: a non-negative score per legal move (any scale; search normalises). */
    void (*move_priors)(const Game *, const Position *, const Move *moves, int n, float *out);
    /* Optional fast uniformly random playout (NULL: core/playout.c lists moves each ply). */
    PlayoutResult (*playout)(const Game *, Position *, Rng *, int max_plies);
    /* Optional pattern evaluation (core/pattern.h; NULL: none): the game's PatternSet of the
     * given families (a mask of PATTERN_BASE ..., never 0), or NULL where it has none such. */
    const struct PatternSet *(*patterns)(const Game *, unsigned families);
    /* Optional learned move priors (core/policy.h; NULL: none): the game's PolicySet. */
    const struct PolicySet *(*policy)(const Game *);
    /* Optional exact endgame search (core/solve.h; NULL: none). */
    const struct SolverOps *solver;
    /* The fixed action index and the input planes for neural networks (core/tensors.h,
     * docs/TENSORS.md): actions 0 .. num_actions-1 in the side to move's frame, the action of a
     * legal move and of the notation's squares (-1: none), the planes of a position, the
     * symmetries the rules allow (a bit per symmetry) and an action under one of them. */
    int (*num_actions)(const Game *);
    int (*action_of)(const Game *, const Position *, Move);
    /* Optional (NULL: action_of move by move): the actions of n legal moves of one position at
     * once, the position's frame worked out once (a third less time for a batched step's
     * legal lists, api/api_vec.c). */
    void (*actions_of)(const Game *, const Position *, const Move *moves, int n, int *out);
    int (*action_of_squares)(const Game *, int side, const struct MoveSquares *);
    void (*planes)(const Game *, const Position *, unsigned char *out);
    unsigned (*symmetries)(const Game *);
    int (*transform_action)(const Game *, int symmetry, int action);
    /* The share of a search's leaf value taken from the linear features alone, where the weights
     * have pattern tables (value_search in core/value.h; 0: none). */
    double coarse_share;
    /* No position can come back (every Reversi move adds a disc): search skips its repetition
     * checks, 4% of a Reversi visit's instructions. */
    bool never_repeats;
    /* Optional (0: all of them): the leading bytes of a Position that hold all of its state.
     * Where they are few and positions never repeat, search keeps each expanded node's position
     * in its tree instead of replaying the moves from the root on every visit. */
    size_t position_bytes;
    /* Square contents for drawing: 'W', 'B', '.', 'x' (obstacle) or 'T'/'t' (a white/black stone
     * that never moves again: a Crossings tower, an Igfip crossing). */
    char (*square)(const Game *, const Position *, int file, int rank);
} GameOps;

struct Game {
    Variant variant;
    const char *name;       /* "epaminondas", "crossings", "reversi", "igfip" */
    int width, height;
    const GameOps *ops;
    void *impl;             /* module tables, owned by the game */
};

/* Creates a game; width/height 0 select the variant's default board.  NULL plus *err on bad input. */
Game *game_new(const char *variant_name, int width, int height, Error *err);
/* The same rules on the board (and obstacles) of a position string, which may differ from the
 * default size; *pos receives the parsed position. */
Game *game_new_for_position(const char *variant_name, const char *position, Position *pos, Error *err);
void game_free(Game *game);

/* Parses "WxH" (e.g. "8x8"). */
bool game_parse_size(const char *text, int *width, int *height, Error *err);

/* One line of error text into *err (nothing when err is NULL); core/error.c.  error_set: the
 * input is wrong; error_failed: the run failed.  Both return false, for `return error_set(...)`;
 * error_pass copies another Error in (when it is not the same) and returns false too. */
bool error_set(Error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool error_failed(Error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool error_pass(Error *err, const Error *from);
/* Makes text one safe line in place: control characters and bytes that are not UTF-8 become
 * '?', one for each byte.  Every Error's text passes through it, and so does any other echo of
 * input in an error (cli/fail.c's lines, the engine protocol's error lines). */
void error_one_line(char *text);

static inline void game_start(const Game *g, Position *p) { g->ops->start(g, p); }
static inline bool game_parse_position(const Game *g, const char *s, Position *p, Error *e) { return g->ops->parse_position(g, s, p, e); }
static inline void game_format_position(const Game *g, const Position *p, char *b, size_t n) { g->ops->format_position(g, p, b, n); }
static inline int game_gen_moves(const Game *g, const Position *p, Move *m) { return g->ops->gen_moves(g, p, m); }
static inline int game_count_moves(const Game *g, const Position *p) { return g->ops->count_moves(g, p); }
static inline void game_make(const Game *g, Position *p, Move m, Undo *u) { g->ops->make(g, p, m, u); }
static inline void game_unmake(const Game *g, Position *p, Move m, const Undo *u) { g->ops->unmake(g, p, m, u); }
static inline GameStatus game_status(const Game *g, const Position *p) { return g->ops->status(g, p); }
static inline uint64_t game_hash(const Game *g, const Position *p) { return g->ops->hash(g, p); }
static inline uint64_t game_hash_fresh(const Game *g, const Position *p) { return g->ops->hash_fresh(g, p); }
static inline int game_side_to_move(const Game *g, const Position *p) { return g->ops->side_to_move(g, p); }
static inline int game_stones(const Game *g, const Position *p, int c) { return g->ops->stones(g, p, c); }
static inline void game_format_move(const Game *g, const Position *p, Move m, char *b, size_t n) { g->ops->format_move(g, p, m, b, n); }
static inline bool game_parse_move(const Game *g, const Position *p, const char *s, Move *m, Error *e) { return g->ops->parse_move(g, p, s, m, e); }
static inline uint64_t game_perft(const Game *g, const Position *p, int d) { return g->ops->perft(g, p, d); }
static inline char game_square(const Game *g, const Position *p, int f, int r) { return g->ops->square(g, p, f, r); }

/* The number a rank goes by in the notation and beside a drawn board: Reversi names rows from the
 * top (Othello style, "d3"); the phalanx games number ranks from White's side, from 1.  Either
 * way the top of a drawing is the first rank of the position string. */
static inline int game_rank_label(const Game *g, int rank)
{
    return g->variant == VARIANT_REVERSI ? g->height - rank : rank + 1;
}

/* "ongoing", "white-wins", "black-wins", "draw".  Inline, so that the modules' notation code can
 * name a state without calling back into game.c. */
static inline const char *game_status_name(GameStatus s)
{
    switch (s) {
    case STATUS_WHITE_WINS: return "white-wins";
    case STATUS_BLACK_WINS: return "black-wins";
    case STATUS_DRAW: return "draw";
    default: return "ongoing";
    }
}

#endif
