/*
 * api_internal.h - what the C API's files share and nothing outside api/ includes: the failing
 * of a call (api_error.c); a game handle's rules, its game so far and its weights (api_game.c
 * owns LtGame), for the searches of api_search.c; and the bridge between an evaluator of the C API (LtEvaluateFn: planes and
 * ascending legal actions) and the search's (MctsEvaluateFn: positions and moves in the game's
 * order), api_evaluate.c, for api_search.c and api_selfplay.c.
 */
#ifndef LEUCTRA_API_INTERNAL_H
#define LEUCTRA_API_INTERNAL_H

#include "leuctra_api.h"
#include "core/game.h"
#include "core/game_so_far.h"
#include "core/value.h"
#include "search/mcts.h"

#include <stdbool.h>
#include <stddef.h>

/* --- api_error.c ------------------------------------------------------------------------------- */

/* Writes the message (printf's format) into err as one line, where err is given, and returns
 * status: every failing call of the C API ends with it. */
int api_fail(char *err, size_t err_len, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* --- api_game.c -------------------------------------------------------------------------------- */

const Game *api_game_rules(const LtGame *g);
const GameSoFar *api_game_played(const LtGame *g);
/* The weights file `path` ("" or NULL: the shipped ones), loaded into the handle and kept there
 * for the next search (as lt_game_analyze keeps them); LT_OK with *out, or a status and message. */
int api_game_weights(LtGame *g, const char *path, const Weights **out, char *err, size_t err_len);

/* --- api_evaluate.c ---------------------------------------------------------------------------- */

typedef struct ApiEvaluator ApiEvaluator;

/* A bridge to `evaluate` for searches of game g; w and coarse: the weights' own evaluation that
 * lt_leaves_evaluate gives (as the search would evaluate with them), or w NULL: the weights file
 * `path` ("": the shipped ones) loaded into `holder` at lt_leaves_evaluate's first call, and
 * the coarse share cfg gives with them (a search through an evaluator needs no weights, and
 * loading them costs up to a tenth of a second on a board of their own).  NULL when memory
 * runs out. */
ApiEvaluator *api_evaluator_new(const Game *g, const Weights *w, double coarse, LtGame *holder, const char *path,
                                const MctsConfig *cfg, LtEvaluateFn evaluate, void *ctx);
void api_evaluator_free(ApiEvaluator *e);
/* The search's evaluator (an MctsEvaluateFn; ctx: the ApiEvaluator): the leaves as planes and
 * ascending legal actions to the caller's function, its answer checked and put back in the
 * game's move order.  False when the caller's function failed, answered what no search can use
 * (a value outside 0 to 1, a negative or NaN score), or memory ran out. */
bool api_evaluator_call(MctsLeaf *leaves, int n, void *ctx);
/* Why the evaluator stopped a search: LT_OK when it did not, else the status (LT_ERR_INPUT: an
 * answer out of range; LT_ERR_FAILED: the function's own failure, or memory) and message. */
int api_evaluator_error(const ApiEvaluator *e, char *err, size_t err_len);

#endif
