/*
 * match_openings.c - where each game of a match starts (a suite's opening, or random plies from
 * the start position), and `leuctra match --make-openings`: random openings kept only when a
 * short search finds them balanced, written as a suite (data/openings.h).
 */
#include "eval/match.h"

#include "data/output_file.h"
#include "core/rng.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `plies` uniformly random moves from start, drawn from (seed, stream): fewer if the game ends. */
static Position random_opening(const Game *g, const Position *start, int plies, uint64_t seed, uint64_t stream)
{
    Position pos = *start;
    Rng rng = rng_seed(seed ^ 0x0BE1157ull, stream);
    Move moves[MAX_MOVES];      /* 32 KiB: on the stack, so an opening cannot fail */
    for (int i = 0; i < plies && game_status(g, &pos) == STATUS_ONGOING; i++) {
        int n = game_gen_moves(g, &pos, moves);
        if (n == 0)
            break;
        Undo undo;
        game_make(g, &pos, moves[rng_below(&rng, (uint32_t)n)], &undo);
    }
    return pos;
}

/* Games 2j and 2j+1 of a matchup share opening j, so neither player gets the easier side of it;
 * a suite is used in file order, cycling, so every matchup sees the same openings. */
Position match_opening(const MatchRun *run, int k)
{
    int pair = k % run->options->games / 2;
    if (run->suite->count > 0)
        return run->suite->opening[pair % run->suite->count];
    return random_opening(run->game, run->start, run->options->opening_plies, run->options->seed, (uint64_t)pair);
}

/* --- the generator */

/* The side to move's value of pos by the evaluating search, NAN when it reports none. */
static double evaluate(Player *judge, const Position *pos, uint64_t seed)
{
    MoveInfo info = MOVE_INFO_INIT;
    GameSoFar game = GAME_SO_FAR_EMPTY;
    if (!game_so_far_begin(&game, judge->game, pos))
        return NAN;
    judge->new_game(judge, seed);
    judge->choose(judge, &game, &info);
    game_so_far_free(&game);
    return info.value;
}

static bool already_kept(char (*kept)[RECORD_MAX_POSITION], int count, const char *text)
{
    for (int i = 0; i < count; i++)
        if (strcmp(kept[i], text) == 0)
            return true;
    return false;
}

/* Candidate after candidate until `want` balanced, distinct openings are found; gives up after
 * 200 tries per opening (a --plies so deep that the games are decided). */
static int find_balanced(const Game *g, const Position *start, const MatchOptions *o, Player *judge,
                         char (*kept)[RECORD_MAX_POSITION])
{
    int count = 0;
    long limit = 200L * o->make_openings;
    for (long tries = 0; tries < limit && count < o->make_openings; tries++) {
        Position pos = random_opening(g, start, o->opening_plies, o->seed, (uint64_t)tries);
        if (game_status(g, &pos) != STATUS_ONGOING)
            continue;
        char text[RECORD_MAX_POSITION];
        game_format_position(g, &pos, text, sizeof text);
        if (already_kept(kept, count, text))
            continue;
        double v = evaluate(judge, &pos, o->seed + (uint64_t)tries);
        if (v >= o->make_low && v <= o->make_high)
            memcpy(kept[count++], text, sizeof text);
    }
    return count;
}

static bool write_suite(const Game *g, const MatchOptions *o, char (*kept)[RECORD_MAX_POSITION], int count,
                        Error *err)
{
    OutputFile file;
    FILE *out = output_file_open(&file, o->out_path, err) ? output_file_stream(&file) : NULL;
    if (!out) {
        output_file_discard(&file);
        return false;
    }
    fprintf(out, "# %d openings: %d random plies, kept when mcts:visits=%d gives the side to move\n"
                 "# a value in [%.2f, %.2f] (leuctra match --make-openings, seed %llu)\n",
            count, o->opening_plies, o->make_visits, o->make_low, o->make_high, (unsigned long long)o->seed);
    fprintf(out, "game %s\n", g->name);
    for (int i = 0; i < count; i++)
        fprintf(out, "%s\n", kept[i]);
    return output_file_commit(&file, err);
}

bool match_make_openings(const Game *g, const Position *start, const MatchOptions *o, Error *err)
{
    SearchSetup setup;
    search_setup_default(&setup);
    setup.limits.visits = o->make_visits;
    Player *judge = player_create_search(g, &setup, err);
    char (*kept)[RECORD_MAX_POSITION] = malloc((size_t)o->make_openings * sizeof *kept);
    bool ok = judge && kept;
    if (judge && !kept)
        error_failed(err, "out of memory");
    int count = ok ? find_balanced(g, start, o, judge, kept) : 0;
    player_free(judge);
    if (ok && count < o->make_openings) {
        error_failed(err, "found only %d balanced openings of %d; try fewer random plies", count, o->make_openings);
        ok = false;
    }
    ok = ok && write_suite(g, o, kept, count, err);
    free(kept);
    return ok;
}
