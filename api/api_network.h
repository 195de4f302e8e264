/*
 * api_network.h - what the network calls of the C API share (api_network.c): a game, its base
 * weights and a network architecture made from the API's arguments, each checked with one line
 * of error, and their description as JSON.  Internal to api/ (api_network_data.c,
 * api_network_eval.c and api_network.c itself); leuctra_api.h is the public side.
 */
#ifndef LEUCTRA_API_NETWORK_H
#define LEUCTRA_API_NETWORK_H

#include "core/network.h"
#include "core/value.h"

#include <stddef.h>

/* A game, its base weights (the skip path) and an architecture of a network for them. */
typedef struct {
    Game *game;                 /* owned */
    Weights base;               /* loaded: the weights file, or the shipped ones */
    bool has_base;
    Network arch;               /* zero weights of the architecture (or the base's own network) */
    bool has_arch;
} ApiNetwork;

/* The status of a failed call from its error (LT_ERR_FAILED for a failure, else LT_ERR_INPUT), with
 * the message copied into err (err_len bytes, may be NULL). */
int api_network_fail(char *err, size_t err_len, const Error *e);

/* The game of `variant` on `size` (as lt_game_new: NULL or "" the default board); NULL with *e. */
Game *api_network_game(const char *variant, const char *size, Error *e);

/* Takes `game` (freed by api_network_close, also after a failure) with the base weights `weights`
 * (NULL or "": the shipped ones); false with *e (for a NULL game, *e as api_network_game left
 * it).  api_network_close may be called on a zeroed ApiNetwork too. */
bool api_network_load(ApiNetwork *a, Game *game, const char *weights, Error *e);
/* The architecture for the loaded game and base: `inputs` (LT_NETWORK_*), `shapes` (NULL or "":
 * the base's tables' shapes, or base) and H `hidden`; false with *e. */
bool api_network_arch(ApiNetwork *a, int inputs, const char *shapes, int hidden, Error *e);
void api_network_close(ApiNetwork *a);

/* The members of lt_network_describe's object for net (game and base weights of a), without the
 * braces, into out (len bytes); the length it needs (as snprintf). */
size_t api_network_json(const ApiNetwork *a, const Network *net, char *out, size_t len);

#endif
