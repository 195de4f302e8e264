/*
 * phalanx.h - internals shared by the phalanx-game files (Epaminondas, Crossings, Igfip): the
 * position layout, the per-game tables and the move encoding.  Nothing outside core/phalanx_*.c
 * includes this; everyone else goes through game.h.
 *
 * The board is kept as rotated bitboards: every row, column, diagonal and anti-diagonal is a
 * 16-bit mask per colour.  All three rules of movement (runs of own stones, runs of empty squares
 * ahead, runs of enemy stones to capture) are runs along one line, so each is one count of
 * leading or trailing ones on one of these masks.
 */
#ifndef LEUCTRA_PHALANX_H
#define LEUCTRA_PHALANX_H

#include "game.h"
#include "pattern.h"
#include "policy.h"

/* Line indexes.  Rows: bit = file.  Columns, diagonals, anti-diagonals: bit = rank. */
enum {
    ROW0 = 0,           /* + rank */
    COL0 = 16,          /* + file */
    DIAG0 = 32,         /* + file - rank + 15; runs north-east */
    ANTI0 = 63,         /* + file + rank;      runs north-west */
    NUM_LINES = 94
};

/* Directions: 2*orientation + (0 = towards higher bits, 1 = towards lower bits). */
enum { DIR_E, DIR_W, DIR_N, DIR_S, DIR_NE, DIR_SW, DIR_NW, DIR_SE, NUM_DIRS };
enum { ORIENT_ROW, ORIENT_COL, ORIENT_DIAG, ORIENT_ANTI };

typedef struct {
    uint16_t lines[2][NUM_LINES];   /* [colour][line] */
    uint64_t hash;
    uint8_t side;                   /* WHITE or BLACK to move */
    uint16_t stones[2];             /* up to 256 of one colour */
} PhalanxPos;

/* phalanx_patterns.c: a board's pattern set of some families, and where its instances lie. */
typedef struct PhalanxPatterns PhalanxPatterns;

typedef struct {
    int width, height;
    /* The rule set: Epaminondas (both false), Crossings or Igfip (docs/RULES.md), and the rules
     * the last two share. */
    bool crossings;                 /* Crossings: towers that never fall, single-stone capture */
    bool igfip;                     /* Igfip: whole-line capture, crossings that can fall, draws */
    bool frozen;                    /* a stone on its far rank never moves (Crossings, Igfip) */
    bool answering;                 /* fewer stones across: cross or lose (Crossings, Igfip) */
    bool obstacles_mirror;          /* obstacles symmetric under the rank mirror */
    int num_active;
    uint8_t active[NUM_LINES];      /* lines that hold at least one playable square */
    uint16_t valid[NUM_LINES];      /* on-board squares that are not obstacles */
    uint16_t towers[2][NUM_LINES];  /* the squares where colour c's stones never move (frozen) */
    uint16_t shielded[2][NUM_LINES];/* the squares where colour c's stones cannot be struck
                                       (Crossings towers; none in Igfip, whose crossings fall) */
    int far_rank[2];                /* the opponent's home rank for each colour */
    /* phalanx_regions.c (Igfip's walled draw): whether some region of the obstacles misses a far
     * rank (without one, only crossings can wall a position in). */
    bool walls;
    uint64_t zobrist[2][256];
    uint64_t zobrist_black;         /* xor-ed in when Black is to move */
    _Atomic(struct LineTable *) line_table;   /* phalanx_line_table.c: built on first playout */
    PolicySet policy;               /* phalanx_learned_priors.c: the move features of learned priors */
    /* phalanx_patterns.c: the pattern set of each family mask, built on first use */
    _Atomic(PhalanxPatterns *) patterns[PATTERN_ALL_FAMILIES + 1];
} PhalanxTables;

typedef struct LineTable LineTable;

/* A square is rank * 16 + file. */
static inline int sq_file(int sq) { return sq & 15; }
static inline int sq_rank(int sq) { return sq >> 4; }
static inline int make_sq(int file, int rank) { return rank * 16 + file; }

static const int dir_file[NUM_DIRS] = {1, -1, 0, 0, 1, -1, -1, 1};
static const int dir_rank[NUM_DIRS] = {0, 0, 1, -1, 1, -1, 1, -1};

/* Move: rear square (8 bits), direction (3), group size k-1 (4), distance j-1 (4). */
static inline Move move_encode(int rear, int dir, int k, int j)
{
    return (Move)rear | (Move)dir << 8 | (Move)(k - 1) << 11 | (Move)(j - 1) << 15;
}
static inline int move_rear(Move m) { return m & 255; }
static inline int move_dir(Move m) { return (m >> 8) & 7; }
static inline int move_group(Move m) { return ((m >> 11) & 15) + 1; }
static inline int move_dist(Move m) { return ((m >> 15) & 15) + 1; }
/* The rank where the group's head lands. */
static inline int move_land_rank(Move m)
{
    return sq_rank(move_rear(m)) + (move_group(m) - 1 + move_dist(m)) * dir_rank[move_dir(m)];
}

static inline const PhalanxTables *tables_of(const Game *g) { return (const PhalanxTables *)g->impl; }
static inline PhalanxPos *pos_of(Position *p) { return (PhalanxPos *)p->bytes; }
static inline const PhalanxPos *cpos_of(const Position *p) { return (const PhalanxPos *)p->bytes; }

/* phalanx_regions.c: Igfip's walled draw (docs/RULES.md).  phalanx_find_regions sets t->walls. */
void phalanx_find_regions(PhalanxTables *t);
/* Whether the game is drawn because no crossing and no stone can ever be made or taken again,
 * at level counts: always false outside Igfip, and on boards where every obstacle region
 * touches both far ranks while no crossing stands. */
bool phalanx_walled_draw(const PhalanxTables *t, const PhalanxPos *p);
/* The same test after the move m (which took `captured` stones) from a position that was not
 * drawn: only a capture or a new crossing can wall a game in, so other moves cost nothing. */
bool phalanx_move_walls_in(const PhalanxTables *t, const PhalanxPos *after, Move m, int captured);

/* phalanx_board.c */
bool phalanx_on_board(const PhalanxTables *t, int file, int rank);
bool phalanx_is_obstacle(const PhalanxTables *t, int sq);
int phalanx_colour_at(const PhalanxPos *p, int sq);             /* WHITE, BLACK or -1 for none */
void phalanx_toggle_stone(const PhalanxTables *t, PhalanxPos *p, int colour, int sq);
void phalanx_clear_position(const PhalanxTables *t, PhalanxPos *p, int side);
void phalanx_make(const PhalanxTables *t, PhalanxPos *p, Move m, int *captured);
void phalanx_unmake(const PhalanxTables *t, PhalanxPos *p, Move m, int captured, uint64_t hash);
uint64_t phalanx_hash_fresh(const PhalanxTables *t, const PhalanxPos *p);
int phalanx_home_rank_count(const PhalanxPos *p, int colour, int rank);
/* Stones a legal move whose front lands on `land` going `dir` removes: the enemy run from there
 * on along dir (Epaminondas, Igfip), or the struck stone alone (Crossings); 0 for a plain move. */
int phalanx_stones_captured(const PhalanxTables *t, const PhalanxPos *p, int land, int dir);
bool phalanx_is_mirror_symmetric(const PhalanxTables *t, const PhalanxPos *p);
/* A stone of `colour` on sq never moves again (a Crossings tower, an Igfip crossing). */
bool phalanx_is_frozen(const PhalanxTables *t, int colour, int sq);
/* A stone of `colour` on sq cannot be captured (a Crossings tower). */
bool phalanx_is_shielded(const PhalanxTables *t, int colour, int sq);
/* Igfip: neither colour has a stone off its far rank, so no stone can ever move again. */
bool phalanx_no_free_stones(const PhalanxTables *t, const PhalanxPos *p);

/* phalanx_movegen.c */
int phalanx_gen(const PhalanxTables *t, const PhalanxPos *p, Move *moves);
int phalanx_count(const PhalanxTables *t, const PhalanxPos *p);
/* The moves along line l for colour us (both directions; upwards first), rules not applied. */
int phalanx_gen_line(const PhalanxTables *t, const PhalanxPos *p, int us, int l, Move *out);
GameStatus phalanx_status(const PhalanxTables *t, const PhalanxPos *p);
bool phalanx_wins_at_turn_start(const PhalanxTables *t, const PhalanxPos *p);
bool phalanx_must_answer_crossing(const PhalanxTables *t, const PhalanxPos *p);
bool phalanx_symmetry_rule_applies(const PhalanxTables *t, const PhalanxPos *p);
/* Any of the three: the side to move has won, or must answer, or the symmetry rule may bite
 * (the Igfip draws need no care here: the frozen board leaves no stone that can move, and the
 * walled board comes only after a capture or a crossing, phalanx_move_walls_in). */
bool phalanx_special_rules_apply(const PhalanxTables *t, const PhalanxPos *p);
/* Why the rules forbid a move the lines allow (symmetry, answering), or NULL if they do not. */
const char *phalanx_forbidden_reason(const PhalanxTables *t, const PhalanxPos *p, Move m);
uint64_t phalanx_perft(const PhalanxTables *t, PhalanxPos *p, int depth);

/* phalanx_playout.c */
PlayoutResult phalanx_playout(const Game *g, Position *pos, Rng *rng, int max_plies);

/* phalanx_notation.c */
bool phalanx_parse_position(const Game *g, const char *text, Position *pos, Error *err);
void phalanx_format_position(const Game *g, const Position *pos, char *buf, size_t len);
void phalanx_format_move(const Game *g, const Position *pos, Move m, char *buf, size_t len);
bool phalanx_parse_move(const Game *g, const Position *pos, const char *text, Move *m, Error *err);

/* phalanx_features.c: the evaluation features (docs/FEATURES.md) */
enum { PHALANX_NUM_FEATURES = 18 };
extern const char *const phalanx_feature_names[PHALANX_NUM_FEATURES];
extern const char *const phalanx_feature_help[PHALANX_NUM_FEATURES];
void phalanx_features(const Game *g, const Position *pos, float *out);
/* The same vector, rescanning only the lines that changed since the cache's last position (a
 * zeroed block of PHALANX_FEATURE_CACHE_SIZE bytes to start; phalanx_features.c checks the size). */
enum { PHALANX_FEATURE_CACHE_SIZE = 13 * 1024 };
void phalanx_features_cached(const Game *g, void *cache, const Position *pos, float *out);

/* phalanx_heuristic_priors.c: heuristic move scores for search */
void phalanx_move_priors(const Game *g, const Position *pos, const Move *moves, int n, float *out);

/* phalanx_learned_priors.c: the move features of learned priors */
void phalanx_policy_init(PolicySet *set);

/* phalanx_patterns.c: the board's pattern set of the families (a non-zero mask), built by the
 * first caller (NULL when the board has none or memory runs out). */
const PatternSet *phalanx_pattern_set(const PhalanxTables *t, unsigned families);
void phalanx_patterns_free(PhalanxPatterns *pp);

/* phalanx_tensors.c: the action index and input planes (core/tensors.h) */
int phalanx_num_actions(const Game *g);
int phalanx_action_of(const Game *g, const Position *pos, Move m);
void phalanx_actions_of(const Game *g, const Position *pos, const Move *moves, int n, int *out);
int phalanx_action_of_squares(const Game *g, int side, const struct MoveSquares *m);
void phalanx_planes(const Game *g, const Position *pos, unsigned char *out);
unsigned phalanx_symmetries(const Game *g);
int phalanx_transform_action(const Game *g, int s, int action);

/* phalanx.c */
extern const GameOps phalanx_ops;

#endif
