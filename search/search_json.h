/*
 * search_json.h - a search's result as one JSON object, the one schema that `analyze --json`,
 * the engine protocol's `json` lines and Python's Game.analyze share (docs/ENGINE.md, "The
 * result as JSON"):
 *
 *   {"best": "e2-e3" | null, "value": 0.5312 | null, "proven": "win" | "loss" | "draw" | "none",
 *    "proven_plies": 0, "visits": 1000, "tree_visits": 1000, "nodes": 1001, "seconds": 0.25,
 *    "setup_seconds": 0.01, "pv": ["e2-e3", ...],
 *    "moves": [{"move": "e2-e3", "action": 123, "visits": 400, "prior": 0.12, "value": 0.55 | null,
 *               "proven": "none"}, ...]}
 *
 * value is the side to move's win probability; JSON has no NaN, so an unknown value (a move
 * never visited) is null.  moves are the root's, most visited first.
 */
#ifndef LEUCTRA_SEARCH_JSON_H
#define LEUCTRA_SEARCH_JSON_H

#include "core/game.h"
#include "search/mcts.h"

#include <stddef.h>

/* "win", "loss", "draw" or "none". */
const char *search_proven_name(Proven p);

/* The result of a search from `root` as JSON into buf (len bytes, NUL-terminated, cut short when
 * it does not fit), at most `top` root moves (0: all); returns the length the whole text needs,
 * as snprintf does, so a caller can size its buffer with len 0. */
size_t search_result_json(const Game *g, const Position *root, const MctsResult *r, double setup_seconds, int top,
                          char *buf, size_t len);

#endif
