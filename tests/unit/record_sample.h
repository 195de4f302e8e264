/*
 * record_sample.h - random game records for the records tests: games between uniformly random
 * players, optionally with an imitation of a search's output per ply (a root value that drifts
 * like a search's, and a visit distribution over a few legal moves, the played one included), so
 * that every field of the format is exercised on legal games of every variant.  Reproducible:
 * a record depends only on (game, seed, index, options).
 */
#ifndef LEUCTRA_RECORD_SAMPLE_H
#define LEUCTRA_RECORD_SAMPLE_H

#include "core/game.h"
#include "core/rng.h"
#include "data/records.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    bool values;            /* a root value on every ply (some missing, as from mixed players) */
    bool visits;            /* a visit distribution on every ply */
    int max_plies;          /* the ply limit (a draw by RECORD_END_PLY_LIMIT) */
    bool openings;          /* odd indices start from a position a few random plies in */
} SampleOptions;

/* A value for the side to move that drifts slowly and flips with the side, like a search's. */
static inline int32_t sample_value(Rng *rng, double *belief)
{
    *belief = 1.0 - *belief + (rng_double(rng) - 0.5) * 0.1;
    if (*belief < 0.02)
        *belief = 0.02;
    if (*belief > 0.98)
        *belief = 0.98;
    return rng_below(rng, 20) == 0 ? RECORD_NO_VALUE : record_value_quantise(*belief);
}

/* Visits over up to 24 distinct legal moves, the played one (moves[played]) first. */
static inline int sample_visits(const Game *g, const Position *pos, const Move *moves, int n, int played, Rng *rng,
                                RecordVisit *out, uint32_t *total)
{
    int k = 1 + (int)rng_below(rng, 24);
    k = k > n ? n : k;
    int *pick = malloc((size_t)n * sizeof *pick);
    if (!pick)
        return 0;
    for (int i = 0; i < n; i++)
        pick[i] = i;
    pick[played] = 0;
    pick[0] = played;
    uint32_t budget = 64 + rng_below(rng, 1600), sum = 0;
    for (int i = 0; i < k; i++) {
        int j = i + (i == 0 ? 0 : (int)rng_below(rng, (uint32_t)(n - i)));
        int t = pick[i];
        pick[i] = pick[j];
        pick[j] = t;
        Error err;
        record_move_from_move(g, pos, moves[pick[i]], &out[i].move, &err);
        out[i].visits = budget / (uint32_t)(i + 1 + (int)rng_below(rng, 3));
        sum += out[i].visits;
    }
    free(pick);
    *total = sum + rng_below(rng, 2);
    return k;
}

/* Plays a few random plies from the start: the opening of an odd-indexed game. */
static inline void sample_opening(const Game *g, Position *pos, Rng *rng, Move *moves)
{
    int plies = 1 + (int)rng_below(rng, 4);
    for (int i = 0; i < plies; i++) {
        int n = game_gen_moves(g, pos, moves);
        if (n == 0)
            return;
        Undo u;
        game_make(g, pos, moves[rng_below(rng, (uint32_t)n)], &u);
    }
}

static inline void sample_finish(const Game *g, const Position *pos, GameRecord *r, bool over)
{
    r->result = over ? game_status(g, pos) : STATUS_DRAW;
    r->end = over ? RECORD_END_RULES : RECORD_END_PLY_LIMIT;
    if (r->result == STATUS_ONGOING)        /* cannot happen: no legal move means the game is over */
        r->result = STATUS_DRAW;
}

/* Fills r (initialised) with game `index` of a run seeded `seed`; false when memory runs out. */
static inline bool sample_game(const Game *g, uint64_t seed, uint64_t index, const SampleOptions *o, GameRecord *r)
{
    Rng rng = rng_seed(seed, index);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    RecordVisit *visits = malloc(24 * sizeof *visits);
    if (!moves || !visits) {
        free(moves);
        free(visits);
        return false;
    }
    game_record_clear(r);
    r->index = index;
    r->seed = rng_seed(seed, index).s[0];
    Position pos;
    game_start(g, &pos);
    if (o->openings && index % 2 == 1)
        sample_opening(g, &pos, &rng, moves);
    game_format_position(g, &pos, r->start, sizeof r->start);
    double belief = 0.5;
    bool ok = true, over = false;
    while (ok && !over && r->plies < o->max_plies) {
        int n = game_gen_moves(g, &pos, moves);
        over = n == 0;
        if (over)
            break;
        int played = (int)rng_below(&rng, (uint32_t)n), k = 0;
        uint32_t total = 0;
        RecordMove m;
        Error err;
        int32_t value = o->values ? sample_value(&rng, &belief) : RECORD_NO_VALUE;
        if (o->visits)
            k = sample_visits(g, &pos, moves, n, played, &rng, visits, &total);
        ok = record_move_from_move(g, &pos, moves[played], &m, &err) &&
             game_record_add_ply(r, m, value, visits, k, total);
        Undo u;
        game_make(g, &pos, moves[played], &u);
    }
    if (!over && game_count_moves(g, &pos) == 0)
        over = true;
    sample_finish(g, &pos, r, over);
    free(moves);
    free(visits);
    return ok;
}

/* Issue 47's record, which no search writes: Epaminondas on 3x5 from BB1/BB1/W1B/WWB/WW1 w,
 * game 6 with the visit list {b1-c1: 5, a2xb2: 1} and game 7 with {b1-c1: 5, a2-b2: 1}, both
 * playing b1-c1.  a2-b2 names a legal move by its squares but without the capture mark that the
 * rules write (a2xb2): game 7 ply 1 must be refused wherever visit lists are read.  The game of
 * its header is game_new("epaminondas", 3, 5). */
enum { SAMPLE_WRONG_CAPTURE_GAMES = 2 };
static inline bool sample_wrong_capture_visit(int k, GameRecord *r)
{
    static const char *const capture[SAMPLE_WRONG_CAPTURE_GAMES] = {"a2xb2", "a2-b2"};
    RecordVisit visits[2];
    RecordMove played;
    Error err;
    game_record_clear(r);
    r->index = 6 + (uint64_t)k;
    r->seed = r->index;
    snprintf(r->start, sizeof r->start, "%s", "BB1/BB1/W1B/WWB/WW1 w");
    r->result = STATUS_DRAW;
    r->end = RECORD_END_PLY_LIMIT;
    visits[0].visits = 5;
    visits[1].visits = 1;
    return record_move_parse("b1-c1", &played, &err) && record_move_parse("b1-c1", &visits[0].move, &err) &&
           record_move_parse(capture[k], &visits[1].move, &err) &&
           game_record_add_ply(r, played, RECORD_NO_VALUE, visits, 2, 6);
}

#endif
