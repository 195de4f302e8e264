/*
 * leuctra_api.h - the small, stable C API of libleuctra.so, for other languages (the Python
 * package python/leuctra calls it through ctypes; docs/TENSORS.md, README).
 *
 * Plain C types only: handles, numbers, strings and caller-owned buffers.  Nothing here exits,
 * aborts or prints: every call that can fail returns a status (LT_OK, or LT_ERR_INPUT for bad
 * input: a variant, position, move, action, path, weights file; LT_ERR_FAILED for I/O, damage
 * or memory) and writes the library's one-line message into `err` (err_len bytes, may be NULL).
 * Every handle argument must be a live handle (not NULL, not freed).
 *
 * Threads: the library has no global state, so different handles may be used from different
 * threads at the same time.  One handle must not be: no call on a handle may overlap another
 * call on the same handle, not even two calls that take it `const` (lt_game_analyze keeps the
 * weights it loads in the handle and frees them when another file is asked for, so a search
 * running beside it would read freed memory).  A caller that shares a handle between threads
 * holds a lock around every call on it, lt_game_clone and lt_game_free included; the Python
 * package does (each leuctra.Game has its own lock).  The calls that take a thread count check
 * it (0 to lt_threads_max()) and never print; lt_threads_note says when a count is far more
 * than the machine's processors, for the caller to show.
 *
 * A new version of this API only adds functions; LT_API_VERSION counts the additions (2:
 * lt_threads_max, lt_threads_note; 3: lt_game_search, lt_search_options; 4: the lt_vec_* calls,
 * many games stepped at once; 5: the lt_network_* calls, a network trained outside the library;
 * 6: searches and self-play whose leaves the caller's evaluator judges, lt_search_batched,
 * lt_selfplay, lt_leaves_*).
 */
#ifndef LEUCTRA_API_H
#define LEUCTRA_API_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define LT_API __attribute__((visibility("default")))
#else
#define LT_API
#endif

enum { LT_API_VERSION = 6 };
enum { LT_OK = 0, LT_ERR_FAILED = 1, LT_ERR_INPUT = 2 };
/* Game status, as lt_game_status returns it. */
enum { LT_ONGOING = 0, LT_WHITE_WINS = 1, LT_BLACK_WINS = 2, LT_DRAW = 3 };

LT_API int lt_api_version(void);
LT_API const char *lt_version(void);

/* The most threads lt_game_perft and lt_game_analyze take (1024). */
LT_API int lt_threads_max(void);
/* 1, with one line saying so into note (note_len bytes; 200 suffice), when `threads` is far more
 * than this machine's processors (more than 4 per processor: slower than fewer would be); else
 * 0 and note "".  The library never prints it: the caller decides (Python warns). */
LT_API int lt_threads_note(int threads, char *note, size_t note_len);

/* ---------------------------------------------------------------- a game and its position */

typedef struct LtGame LtGame;

/* A game of `variant` on `size` ("WxH"; NULL or "" for the default board, or the board of the
 * position) at `position` (a position string; NULL, "" or "start" for the start).  NULL on error. */
LT_API LtGame *lt_game_new(const char *variant, const char *size, const char *position, char *err, size_t err_len);
/* A copy with its own position and history (the weights are loaded again when searched). */
LT_API LtGame *lt_game_clone(const LtGame *g, char *err, size_t err_len);
LT_API void lt_game_free(LtGame *g);

/* "epaminondas", "crossings", "igfip", "reversi"; the board; the action index's size; the number
 * of planes and the planes layout's version; the allowed symmetries (bit s: symmetry s). */
LT_API const char *lt_game_variant(const LtGame *g);
LT_API void lt_game_shape(const LtGame *g, int *width, int *height, int *num_actions, int *num_planes,
                          int *planes_version, unsigned *symmetries);

/* The position string into buf (len bytes; 400 always suffice). */
LT_API int lt_game_position(const LtGame *g, char *buf, size_t len);
/* Sets the position (same board) and clears the history. */
LT_API int lt_game_set_position(LtGame *g, const char *position, char *err, size_t err_len);
/* 0 White, 1 Black to move. */
LT_API int lt_game_side(const LtGame *g);
LT_API int lt_game_status(const LtGame *g);

/* The legal moves in notation, separated by single spaces, into buf; returns their number, or
 * -1 when len is too small (LT_MOVES_TEXT always suffices). */
enum { LT_MOVES_TEXT = 8192 * 8 + 1 };
LT_API int lt_game_legal_moves(const LtGame *g, char *buf, size_t len);
/* The legal actions, ascending, into out (cap entries; 8192 always suffice); their number. */
LT_API int lt_game_legal_actions(const LtGame *g, int32_t *out, int cap);

/* Plays a move given in notation, or by its action; lt_game_undo takes back the last one. */
LT_API int lt_game_play(LtGame *g, const char *move, char *err, size_t err_len);
LT_API int lt_game_play_action(LtGame *g, int action, char *err, size_t err_len);
LT_API int lt_game_undo(LtGame *g, char *err, size_t err_len);

/* The action of a legal move given in notation (into *action), and the notation of a legal
 * action (into buf, 16 bytes suffice). */
LT_API int lt_game_action_of(const LtGame *g, const char *move, int32_t *action, char *err, size_t err_len);
LT_API int lt_game_move_of(const LtGame *g, int action, char *buf, size_t len, char *err, size_t err_len);

/* The input planes of the position: planes x height x width bytes of 0/1 into out (len bytes). */
LT_API int lt_game_planes(const LtGame *g, unsigned char *out, size_t len, char *err, size_t err_len);

/* perft(depth) of the position, depth 0 to LT_PERFT_MAX_DEPTH, with `threads` threads (at most
 * lt_threads_max(); 0: OpenMP's default, one per processor unless OMP_NUM_THREADS says). */
enum { LT_PERFT_MAX_DEPTH = 30 };
LT_API int lt_game_perft(const LtGame *g, int depth, int threads, uint64_t *count, char *err, size_t err_len);

/* Searches the game with the engine's MCTS (its positions before the current one count for the
 * repetition rule, as in the engine and self-play): `visits` visits (0 to LT_ANALYZE_MAX_VISITS)
 * and/or `seconds` (0 to LT_ANALYZE_MAX_SECONDS; 0: no such limit; both 0: 1,000 visits), the
 * weights file `weights` (NULL or "": the shipped ones; kept in the handle for the next search),
 * `seed`, `threads` (0 or 1: one thread; at most lt_threads_max()).  The result as one JSON
 * object into json: best move, value (the side to move's win probability), visits, the principal
 * variation and every root move's visits, prior, value and action. */
#define LT_ANALYZE_MAX_VISITS 1000000000000LL
#define LT_ANALYZE_MAX_SECONDS 1e6
LT_API int lt_game_analyze(LtGame *g, long visits, double seconds, const char *weights, uint64_t seed, int threads,
                           char *json, size_t json_len, char *err, size_t err_len);

/* The same search with any of the search options every leuctra search reads (the engine's
 * setoption, player specs, analyze's flags: docs/ENGINE.md), n names and their values as text
 * ("visits" "400", "cpuct" "1.2", "weights" PATH): checked against the one table, refused with
 * its message.  Defaults: 1,000 visits (none with time alone), the table's for the rest. */
LT_API int lt_game_search(LtGame *g, int n, const char *const *names, const char *const *values, char *json,
                          size_t json_len, char *err, size_t err_len);
/* The options lt_game_search takes, as a JSON list of {name, type, default, range, help}. */
LT_API int lt_search_options(char *json, size_t json_len);

/* ---------------------------------------------------------------- many games stepped at once */

/* An LtVec holds n games of one variant and board and plays one ply in each (one action per
 * game) per lt_vec_step, with OpenMP threads over the games: the batched environment of a
 * reinforcement-learning loop (docs/PYTHON.md, "VecGame").  Each game ends as the self-play
 * driver ends one (selfplay/driver.h): by the rules, on the third occurrence of a position
 * ("repetition"), or a draw once it has "max_plies" plies; and a game that ends starts again at
 * once (automatic reset): the step reports its end (done, result, reason, reward, length) and
 * the observation is already the new game's first position.  Game i's k-th game is seeded from
 * (seed, i, k), so the games never depend on the thread count.  An action that is no legal
 * move of its game refuses the whole step, naming the game and the action: nothing is played. */
typedef struct LtVec LtVec;

/* The most games one LtVec holds. */
enum { LT_VEC_MAX_GAMES = 1 << 20 };
/* Why a game ended, as the "reason" output gives it (0: it did not end at this step). */
enum { LT_END_NONE = 0, LT_END_RULES = 1, LT_END_REPETITION = 2, LT_END_PLY_LIMIT = 3 };

/* n games (1 to LT_VEC_MAX_GAMES) of `variant` on `size` (as lt_game_new), seeded by `seed`,
 * each begun at once.  Options, count names and their values as text (each at most once):
 *   threads         0 to lt_threads_max() (0: one per processor, or OMP_NUM_THREADS; default 0)
 *   max_plies       1 to 1000000: a game still going after this many plies is a draw (600)
 *   repetition      true/false: a draw on a position's third occurrence (true)
 *   random_opening  plies of uniformly random moves that begin each game (0); an opening ply
 *                   that would end the game is taken back and the opening stops there
 *   opponent        "random", "greedy[:weights=FILE]" or "mcts[:visits=N,...]" (player specs,
 *                   docs/MATCHES.md, on one thread and without time limits): the opponent plays
 *                   inside the step, so every observation has the agent to move
 *   agent_colour    "white", "black" or "alternate" (game i's k-th game: White when i + k is
 *                   even); only with an opponent (default alternate)
 * NULL on error (LT_ERR_INPUT in err's words for a bad option). */
LT_API LtVec *lt_vec_new(const char *variant, const char *size, int n, uint64_t seed, int count,
                         const char *const *names, const char *const *values, char *err, size_t err_len);
LT_API void lt_vec_free(LtVec *v);
LT_API const char *lt_vec_variant(const LtVec *v);
/* The number of games and lt_game_shape's numbers. */
LT_API void lt_vec_shape(const LtVec *v, int *n, int *width, int *height, int *num_actions, int *num_planes,
                         int *planes_version, unsigned *symmetries);

/* Binds a caller-owned output array by name (buf NULL, bytes 0: unbound); every step and reset
 * then writes it, and binding writes it at once with the present state.  The caller keeps it
 * alive until it is unbound or the LtVec freed.  Names, element types and shapes (bytes must be
 * exactly the size, buf aligned to its element):
 *   "planes"       uint8 [n, num_planes, height, width]: each game's planes (lt_game_planes)
 *   "mask"         uint8 [n, num_actions]: 1 for each legal action.  Kept up to date by
 *                  clearing only the entries the last position set, so the caller must not
 *                  write into it
 *   "legal_count"  int32 [n]: the number of legal actions of each game
 *   "legal_start"  int64 [n]: where each game's legal actions begin in "legal"
 *   "legal"        int32 [any length]: every game's legal actions, ascending, one game after the
 *                  other (the dataset export's layout, docs/TENSORS.md); written only when they
 *                  all fit (*legal_total of a step or reset says how many there are)
 *   "side"         int8 [n]: the side to move, 0 White, 1 Black
 *   "reward"       float32 [n, 2]: for White and for Black, +1 a win, -1 a loss, 0 a draw, for
 *                  the games that ended at this step; 0 for the others
 *   "done"         uint8 [n]: 1 where a game ended at this step (and a new one began)
 *   "result"       uint8 [n]: how it ended: LT_WHITE_WINS, LT_BLACK_WINS, LT_DRAW (else 0)
 *   "reason"       uint8 [n]: LT_END_RULES, LT_END_REPETITION, LT_END_PLY_LIMIT (else 0)
 *   "plies"        int32 [n]: the plies played in each game (of the position observed)
 *   "length"       int32 [n]: the length in plies of a game that ended at this step (else 0) */
LT_API int lt_vec_bind(LtVec *v, const char *name, void *buf, size_t bytes, char *err, size_t err_len);

/* Begins a new game in every slot (reseed: from `seed`, the games a new LtVec of that seed
 * begins; else each slot's next game) and writes the outputs; *legal_total (may be NULL) is the
 * number of legal actions in all.  The outputs of ends (reward, done, result, reason, length)
 * are zeros. */
LT_API int lt_vec_reset(LtVec *v, int reseed, uint64_t seed, int64_t *legal_total, char *err, size_t err_len);
/* Plays actions[i] (n entries, the number of games) in game i, then the opponent's reply where
 * there is one, restarts the games that ended and writes the outputs.  LT_ERR_INPUT, with
 * nothing played, when an action is no legal move of its game (the message names the first such
 * game and its action). */
LT_API int lt_vec_step(LtVec *v, const int32_t *actions, size_t n, int64_t *legal_total, char *err, size_t err_len);
/* Game i's position string (as lt_game_position). */
LT_API int lt_vec_position(const LtVec *v, int i, char *buf, size_t len, char *err, size_t err_len);
/* Game i as an LtGame: its start and every move played since (NULL on error). */
LT_API LtGame *lt_vec_game(const LtVec *v, int i, char *err, size_t err_len);

/* ---------------------------------------------------------------- searches judged by the caller */

/* The search asks the caller's evaluator (a network) for batches of leaf evaluations: the
 * leaves of many games' trees at once, with a virtual loss within a tree (docs/PYTHON.md,
 * "Searches guided by your network").  An evaluator gets n leaves:
 *   planes       uint8 [n, num_planes, height, width]: each leaf's planes (as lt_game_planes)
 *   legal_start  int32 [n + 1]: leaf i's legal actions are legal[legal_start[i] .. legal_start[i + 1])
 *   legal        int32 [legal_start[n]]: ascending within each leaf (the export's layout)
 * and writes
 *   values_out   double [n]: the side to move's win probability, from 0 to 1
 *   policy_out   float [legal_start[n]]: a score for each legal action, finite and >= 0; the
 *                search normalises each leaf's (all 0: uniform)
 * Every entry of both must be written (they hold NaN until then).  It returns 0, or nonzero to
 * stop the search: the call then returns LT_ERR_FAILED at once (a Python exception inside the
 * evaluator ends so).  An answer outside those ranges stops it too, with LT_ERR_INPUT and a
 * message naming the leaf.  `leaves` is valid during the call, for lt_leaves_*.  The buffers
 * are the search's, valid during the call only. */
typedef struct LtLeaves LtLeaves;
typedef int (*LtEvaluateFn)(void *ctx, int n, const uint8_t *planes, const int32_t *legal_start, const int32_t *legal,
                            double *values_out, float *policy_out, const LtLeaves *leaves);

/* Leaf i's position string (as lt_game_position). */
LT_API int lt_leaves_position(const LtLeaves *leaves, int i, char *buf, size_t len, char *err, size_t err_len);
/* The leaves as leuctra's own evaluation judges them, with the weights of the search's "weights"
 * option (loaded at the first call where the search did not load them), in the evaluator's
 * layout: to mix with a network's answer, or to check a caller's plumbing (passed through an
 * evaluator, a search is the one lt_game_search makes).  LT_ERR_INPUT when the weights do not
 * load or the leaves are no longer being evaluated. */
LT_API int lt_leaves_evaluate(const LtLeaves *leaves, double *values_out, float *policy_out, char *err,
                              size_t err_len);

/* The most games one lt_search_batched searches, and the largest batch. */
enum { LT_SEARCH_MAX_GAMES = 1024, LT_SEARCH_MAX_BATCH = 1024 };

/* Searches n games (1 to LT_SEARCH_MAX_GAMES; one variant and board), each from its game so far
 * (its earlier positions count for the repetition rule), on this thread, their leaves judged by
 * `evaluate`, at most `batch` (1 to LT_SEARCH_MAX_BATCH) per call, spread over the games: at
 * most ceil(batch / n) of one game's visits in flight.  With batch 1 (or batch n with n games)
 * each search is the one a search without an evaluator makes, visit for visit.  Options: those
 * of lt_game_search (visits, default 1,000; cpuct, fpu, seed, nodes, weights, ...), except that
 * the search runs on one thread with a visit limit (threads above 1, time and playouts are
 * refused).  The evaluator's priors count as learned ones: cpuct defaults to 0.7.
 * The results, for any output that is not NULL: legal_start int32 [n + 1] (game i's root
 * actions are actions[legal_start[i] .. legal_start[i + 1]), actions and visits int32 [capacity]
 * (each game's legal actions, ascending, and their root visit counts: the export's layout),
 * root_values double [n] (the side to move's win probability), best int32 [n] (the best move's
 * action; -1 where the game is over), json (a JSON list of n search results, each as
 * lt_game_search's).  LT_ERR_INPUT when capacity or json_len is too small. */
LT_API int lt_search_batched(LtGame *const *games, int n, int count, const char *const *names,
                             const char *const *values, int batch, LtEvaluateFn evaluate, void *ctx,
                             int32_t *legal_start, int32_t *actions, int32_t *visits, size_t capacity,
                             double *root_values, int32_t *best, char *json, size_t json_len, char *err,
                             size_t err_len);

/* Self-play of `games` games (1 to 100,000,000) of variant on size from position (as
 * lt_game_new) into the records file at path, as `leuctra selfplay` plays them (docs/FORMAT.md;
 * `leuctra records export` and leuctra.read_records read it), each move one batched search of
 * the games in play, their leaves judged by `evaluate`.  Each game is appended as it ends
 * (crash-safe), and the file is canonical at the end.  Options, names and their values as text:
 *   visits, seed, cpuct, weights   as selfplay's --visits (800), --seed (1), --cpuct (1.5), --weights
 *   temperature, temperature_plies, noise, noise_alpha, random_opening, max_plies   as selfplay's
 *   repetition      true/false (true)
 *   games_at_once   1 to LT_SEARCH_MAX_GAMES: games played in step (64, at most `games`)
 *   batch           1 to LT_SEARCH_MAX_BATCH: leaves per call (games_at_once: one per game)
 *   evaluator       the evaluator's name for the settings (one line; a network's file and
 *                   generation): a resumed run with another name is refused ("external")
 *   resume          true/false: complete an existing file written with the same settings
 * A game's search has at most ceil(batch / games_at_once) visits in flight.  At 1 (a batch no
 * larger than games_at_once, as the default) a game's visits go one after another, and each game
 * is a function of its seed and the evaluator alone: the one `leuctra selfplay` plays where the
 * evaluator answers as its evaluation does.  Beyond, a game depends on the games beside it.
 * The settings text ends with "evaluator=external NAME" and "evaluator_in_flight=K".
 * summary (may be NULL): a
 * JSON object {"total", "present", "played", "white_wins", "black_wins", "draws", "plies",
 * "seconds"}. */
LT_API int lt_selfplay(const char *variant, const char *size, const char *position, const char *path, long games,
                       int count, const char *const *names, const char *const *values, LtEvaluateFn evaluate,
                       void *ctx, char *summary, size_t summary_len, char *err, size_t err_len);

/* ---------------------------------------------------------------- records files as arrays */

typedef struct LtRecords LtRecords;

/* Opens a records file for reading as tensor rows (data/record_tensors.h); `augment` adds each
 * position's symmetric copies. */
LT_API LtRecords *lt_records_open(const char *path, int augment, char *err, size_t err_len);
/* The file's game: variant name, board and shape as lt_game_shape; copies per position. */
LT_API const char *lt_records_variant(const LtRecords *r);
LT_API void lt_records_shape(const LtRecords *r, int *width, int *height, int *num_actions, int *num_planes,
                             int *copies);
/* Reads whole games until at least max_rows rows are buffered (or the file ends): *rows rows and
 * *entries legal-list entries.  *rows 0: the end of the file. */
LT_API int lt_records_read(LtRecords *r, long max_rows, long *rows, long *entries, char *err, size_t err_len);
/* Copies the buffered rows out (any pointer may be NULL): planes [rows, planes, h, w],
 * legal_count [rows], legal and visits [entries], played, result, value (NaN: none), game,
 * ply, side, symmetry [rows]. */
LT_API void lt_records_fetch(const LtRecords *r, uint8_t *planes, int16_t *legal_count, int16_t *legal,
                             int32_t *visits, int16_t *played, float *result, float *value, int64_t *game,
                             int32_t *ply, uint8_t *side, uint8_t *symmetry);
LT_API void lt_records_close(LtRecords *r);

/* ---------------------------------------------------------------- the network, trained elsewhere */

/* The calls by which a network (docs/NETWORK.md) is trained outside the library (Python's
 * leuctra.net, in PyTorch) and yet written, quantized and evaluated by the library's one code:
 * the positions it learns from, the file it becomes, and the integer evaluation of that file.
 *
 * The architecture is given the same way to each: `inputs` (LT_NETWORK_PATTERNS, _SQUARES or
 * _BOTH), `shapes` (the pattern inputs' shape families as `tune --shapes` reads them, "base,2x4";
 * NULL or "": the base weights' tables' shapes, or base), the base weights `weights` (a weights
 * file, or NULL or "" for the shipped ones), whose linear weights, tables and priors are the
 * network's skip path, and, for a file, H `hidden` (16 to 256, a multiple of 16). */
enum { LT_NETWORK_PATTERNS = 1, LT_NETWORK_SQUARES = 2, LT_NETWORK_BOTH = 3 };
/* The float arrays of a network, in the file's order: w1 [num_inputs x hidden], b1 [hidden], w2
 * [hidden x 32], b2 [32], wv [buckets x 32], bv [buckets], we [num_actions x 32], be
 * [num_actions], each row-major. */
enum { LT_NETWORK_ARRAYS = 8, LT_NETWORK_L2 = 32 };
/* The most positions lt_network_save quantizes over, and lt_network_eval_run evaluates, a call;
 * the most records files a data call reads. */
enum { LT_NETWORK_MAX_POSITIONS = 1 << 22, LT_NETWORK_MAX_FILES = 4096 };

/* The architecture for `variant` on `size` (as lt_game_new) as one JSON object into json: variant,
 * width, height, inputs ("patterns", "squares", "both"), shapes (text), families (the mask),
 * num_inputs, num_actions, buckets, weights_id (the base weights' id, 16 hex digits).  Refused
 * (LT_ERR_INPUT) for a game without the pattern set the inputs need, or a bad argument. */
LT_API int lt_network_describe(const char *variant, const char *size, const char *weights, int inputs,
                               const char *shapes, char *json, size_t json_len, char *err, size_t err_len);

/* What a fit learns from (tuner/tune_network_data.h): every position of the records files
 * (`paths`, 1 to LT_NETWORK_MAX_FILES of them, one game and board) past `skip_opening` plies (0 to
 * 100,000), each repeat kept where it first appears, whole games held out for validation
 * (`validation`, 0 to 0.9, by the hash every fit uses), the value target lambda x the result + (1
 * - lambda) x the search's value (`lambda` 0 to 1), visit shares where a ply's visits sum to
 * `min_visits` (1 to 2^30), read with `threads` (0 to lt_threads_max(); 0: OpenMP's default).
 * NULL on error. */
typedef struct LtNetworkData LtNetworkData;
LT_API LtNetworkData *lt_network_data_new(const char *const *paths, int num_paths, const char *weights, int inputs,
                                          const char *shapes, int skip_opening, double validation, double lambda,
                                          int min_visits, int threads, char *err, size_t err_len);
LT_API void lt_network_data_free(LtNetworkData *d);
/* lt_network_describe's object, plus the counts: games, games_train, games_validation,
 * positions_read, positions_train, positions_validation, policy_train, policy_validation (the
 * positions with visit shares) and the options read. */
LT_API int lt_network_data_info(const LtNetworkData *d, char *json, size_t json_len);
/* The sizes of set `set` (0 training, 1 validation): positions, their inputs in all, their moves
 * in all (the moves of the positions with visit shares), and the positions kept whole (the
 * sample, at most 20,000, every k-th row). */
LT_API int lt_network_data_size(const LtNetworkData *d, int set, int64_t *positions, int64_t *inputs, int64_t *moves,
                                int64_t *samples, char *err, size_t err_len);
/* Copies set `set` out (any pointer may be NULL), compressed rows: position i's inputs are
 * input[input_start[i] .. input_start[i + 1]) (ascending; an input that two pattern instances
 * read is listed twice), its moves action/skip_prior/share[move_start[i] .. move_start[i + 1]);
 * input_start and move_start [positions + 1], bucket, skip_value (the base weights' value logit),
 * target, result [positions]; action, skip_prior (the log of the base weights' prior of the move,
 * at least -69), share (of the visits) [moves]. */
LT_API int lt_network_data_fetch(const LtNetworkData *d, int set, uint64_t *input_start, uint32_t *input,
                                 uint8_t *bucket, double *skip_value, double *target, float *result,
                                 uint64_t *move_start, uint32_t *action, float *skip_prior, float *share, char *err,
                                 size_t err_len);
/* Sample position k of set `set`: its row (into *row) and its position string (into buf; 400
 * bytes suffice), for lt_network_save's quantization. */
LT_API int lt_network_data_sample(const LtNetworkData *d, int set, int64_t k, int64_t *row, char *buf, size_t len,
                                  char *err, size_t err_len);

/* Writes the weights file `path` (a table file; a name ending .txt is refused, and so is the base
 * weights file itself): the base weights with a network of the architecture given, whose float
 * weights are `arrays` (LT_NETWORK_ARRAYS of them, of lengths `lengths`, checked), quantized by
 * the library's one quantization over the positions given (`positions`, 0 to
 * LT_NETWORK_MAX_POSITIONS strings of the game: the first layer's shift the largest that keeps
 * their sums in range; 0 of them: the worst case of the weights), written atomically, with the
 * library's provenance lines and `note` (may be NULL) as its comments.  A weight that is not a
 * finite number, or beyond the largest a file holds, is refused and names its array. */
LT_API int lt_network_save(const char *path, const char *variant, const char *size, const char *weights, int inputs,
                           const char *shapes, int hidden, const float *const *arrays, const int64_t *lengths,
                           const char *const *positions, int num_positions, const char *note, char *err,
                           size_t err_len);

/* The evaluation of a weights file's network for tests and tools (integer path, as the search
 * reads it): the weights file `weights` (NULL or "": the shipped ones) for `variant` on `size`,
 * which must have a network.  NULL on error. */
typedef struct LtNetworkEval LtNetworkEval;
LT_API LtNetworkEval *lt_network_eval_new(const char *variant, const char *size, const char *weights, char *err,
                                          size_t err_len);
LT_API void lt_network_eval_free(LtNetworkEval *e);
/* lt_network_describe's object for the file's network, plus hidden, shift1, shift2, scale_v and
 * scale_e (its quantization). */
LT_API int lt_network_eval_info(const LtNetworkEval *e, char *json, size_t json_len);
/* Evaluates n positions (0 to LT_NETWORK_MAX_POSITIONS strings of the game): *inputs and *moves
 * the totals of what lt_network_eval_fetch then copies.  LT_ERR_INPUT names the first position
 * that does not parse. */
LT_API int lt_network_eval_run(LtNetworkEval *e, const char *const *positions, int n, int64_t *inputs, int64_t *moves,
                               char *err, size_t err_len);
/* The last run's results (any pointer may be NULL), rows as lt_network_data_fetch's: inputs and
 * bucket; value (the whole value logit, network included) and skip_value (the base weights'
 * alone) [n]; every legal move (in the order the rules generate them) with its action, prior
 * (the log of the base weights' prior, at least -69, plus the network's correction: the prior
 * logit the search's softmax reads) and skip_prior (the log alone) [moves]. */
LT_API void lt_network_eval_fetch(const LtNetworkEval *e, uint64_t *input_start, uint32_t *input, uint8_t *bucket,
                                  double *value, double *skip_value, uint64_t *move_start, uint32_t *action,
                                  float *prior, float *skip_prior);

#endif
