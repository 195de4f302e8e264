/*
 * ratings_graph.h - which players have a finite maximum-likelihood rating relative to the
 * anchor, and where the others stand (ratings.h explains the statuses).  Internal to eval/.
 */
#ifndef LEUCTRA_RATINGS_GRAPH_H
#define LEUCTRA_RATINGS_GRAPH_H

#include "eval/ratings.h"

/* Sets status[p] for every player p of the table; false when out of memory.  With
 * any_game_scores, every pair that played counts as both players having scored (virtual draws). */
bool ratings_classify(const ResultTable *t, int anchor, bool any_game_scores, RatingStatus *status);

#endif
