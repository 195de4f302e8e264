/*
 * selfplay_lockstep.c - self-play whose leaves an evaluator outside the search judges (a Python
 * network through the C API: api/api_search.c): many games played in step, each move one batched
 * search (search/mcts.h: mcts_search_batched) of every game that needs a search now, so that the
 * evaluator sees many leaves per call.
 *
 * Each game is played by selfplay_game.c's stepwise calls, the very code selfplay_game_play
 * runs: the same random opening, root noise, sampling by visits, adjudication and records; only
 * the search is made here.  With batches of one leaf and an evaluator that answers as the
 * weights' own evaluation does, every game is the one `leuctra selfplay` plays (the unit test
 * api_search.selfplay_through_evaluator compares the files byte for byte); so it is with one
 * leaf of each game per call, since each tree's visits still go one after another.  With more
 * visits of a tree in flight, they depend on the other trees in the batch, so a game depends
 * on the games played beside it.
 *
 * One thread: the evaluator is the caller's and may not be thread-safe (Python's is not).
 */
#include "selfplay.h"

#include <stdlib.h>

/* One game being played: its player (tree, random generator), record and index. */
typedef struct {
    SelfplayGame *player;
    GameRecord record;
    bool playing;
} Slot;

typedef struct {
    const SelfplayRun *run;
    const uint64_t *todo;
    uint64_t count, next;       /* the games to play, and the next one to begin */
    Slot *slots;
    int num_slots;
    Mcts **trees;               /* the trees searched this round ... */
    int *searching;             /* ... and their slots */
    MctsResult *results;
} Lockstep;

static bool begin_next(Lockstep *l, Slot *s)
{
    s->playing = l->next < l->count;
    if (!s->playing)
        return true;
    const uint64_t index = l->todo[l->next++];
    return selfplay_game_start(s->player, l->run->start, index, selfplay_game_seed(l->run->config->seed, index),
                               &s->record);
}

/* Plays slot s on to its next search, handing each game that ends to `done` and beginning the
 * next game in its place; false with *status set when something fails. */
static bool advance_slot(Lockstep *l, Slot *s, SelfplayGameDone done, void *ctx, SelfplayLockstepStatus *status)
{
    while (s->playing) {
        const SelfplayStep step = selfplay_game_advance(s->player);
        if (step == SELFPLAY_SEARCH)
            return true;
        if (step == SELFPLAY_FAILED || !selfplay_game_finish(s->player)) {
            *status = SELFPLAY_LOCKSTEP_MEMORY;
            return false;
        }
        if (!done(ctx, &s->record)) {
            *status = SELFPLAY_LOCKSTEP_STOPPED;
            return false;
        }
        if (!begin_next(l, s)) {
            *status = SELFPLAY_LOCKSTEP_MEMORY;
            return false;
        }
    }
    return true;
}

/* One round: every game on to its next search, then one batched search of them all. */
static bool round_of_searches(Lockstep *l, SelfplayGameDone done, void *ctx, bool *any, SelfplayLockstepStatus *status)
{
    const SelfplayEvaluator *e = l->run->evaluator;
    int n = 0;
    for (int i = 0; i < l->num_slots; i++) {
        Slot *s = &l->slots[i];
        if (!advance_slot(l, s, done, ctx, status))
            return false;
        if (s->playing) {
            l->trees[n] = selfplay_game_tree(s->player);
            l->searching[n++] = i;
        }
    }
    *any = n > 0;
    if (!n)
        return true;
    if (!mcts_search_batched(l->trees, n, l->run->config->visits, e->batch, selfplay_lockstep_in_flight(e),
                             e->evaluate, e->ctx,
                             l->results)) {
        *status = SELFPLAY_LOCKSTEP_EVALUATOR;
        return false;
    }
    for (int k = 0; k < n; k++)
        selfplay_game_searched(l->slots[l->searching[k]].player, &l->results[k]);
    return true;
}

static void lockstep_free(Lockstep *l)
{
    for (int i = 0; l->slots && i < l->num_slots; i++) {
        selfplay_game_free(l->slots[i].player);
        game_record_free(&l->slots[i].record);
    }
    free(l->slots);
    free(l->trees);
    free(l->searching);
    free(l->results);
}

/* The share of the games at once, not of the games left, so that the last games of a run are
 * searched as the first. */
int selfplay_lockstep_in_flight(const SelfplayEvaluator *e)
{
    const int at_once = e->games_at_once > 0 ? e->games_at_once : 1, batch = e->batch > 0 ? e->batch : 1;
    return (batch + at_once - 1) / at_once;
}

SelfplayLockstepStatus selfplay_lockstep(const SelfplayRun *run, const uint64_t *todo, uint64_t count,
                                         SelfplayGameDone done, void *ctx)
{
    const SelfplayEvaluator *e = run->evaluator;
    const int at_once = e->games_at_once > 0 ? e->games_at_once : 1;
    Lockstep l = {run, todo, count, 0, NULL, (uint64_t)at_once < count ? at_once : (int)count, NULL, NULL, NULL};
    SelfplayLockstepStatus status = SELFPLAY_LOCKSTEP_OK;
    if (l.num_slots == 0)
        return status;
    l.slots = calloc((size_t)l.num_slots, sizeof *l.slots);
    l.trees = malloc((size_t)l.num_slots * sizeof *l.trees);
    l.searching = malloc((size_t)l.num_slots * sizeof *l.searching);
    l.results = malloc((size_t)l.num_slots * sizeof *l.results);
    bool ok = l.slots && l.trees && l.searching && l.results;
    for (int i = 0; ok && i < l.num_slots; i++) {
        game_record_init(&l.slots[i].record);
        ok = (l.slots[i].player = selfplay_game_new(run->game, run->weights, run->config)) != NULL &&
             begin_next(&l, &l.slots[i]);
    }
    if (!ok)
        status = SELFPLAY_LOCKSTEP_MEMORY;
    bool any = ok;
    while (ok && any)
        ok = round_of_searches(&l, done, ctx, &any, &status);
    lockstep_free(&l);
    return status;
}
