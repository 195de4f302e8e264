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
#include <omp.h>
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

/* Candidates are evaluated a batch at a time, try i of a batch by process i mod R on one of its
 * threads (each with its own judge), and every process gathers the batch's values; then each
 * keeps the balanced ones in try order, exactly as one judge taking the tries one by one would
 * (a try's value depends only on its position and seed).  So the suite is the same for any
 * threads and processes; the tries evaluated past the last opening kept are the only waste. */
typedef struct {
    const Game *g;
    const Position *start;
    const MatchOptions *o;
    const MpiEnv *env;
    int threads;
    Player **judge;             /* one a thread */
    Position *pos;              /* the batch's candidates */
    double *mine, *value;       /* this process's values; the whole batch's, by process */
    size_t *counts;             /* tries of the batch each process evaluates */
    int batch;
} Generator;

/* Try `first + i` of the batch, i = rank, rank + R, ...: its value, NAN where the opening ended
 * the game (never kept). */
static void evaluate_share(Generator *gen, long first)
{
    const int R = gen->env->size, rank = gen->env->rank;
    const int n = (gen->batch - rank + R - 1) / R;
#pragma omp parallel for schedule(dynamic, 1) num_threads(gen->threads)
    for (int j = 0; j < n; j++) {
        const long tries = first + rank + (long)j * R;
        const Position *pos = &gen->pos[rank + j * R];
        gen->mine[j] = game_status(gen->g, pos) != STATUS_ONGOING
                           ? NAN
                           : evaluate(gen->judge[omp_get_thread_num()], pos, gen->o->seed + (uint64_t)tries);
    }
}

/* The value of the batch's try i among the gathered ones (process i mod R's, in its order). */
static double value_of(const Generator *gen, int i)
{
    const int R = gen->env->size;
    size_t at = 0;
    for (int r = 0; r < i % R; r++)
        at += gen->counts[r];
    return gen->value[at + (size_t)(i / R)];
}

/* Candidate after candidate until `want` balanced, distinct openings are found; gives up after
 * 200 tries per opening (a --plies so deep that the games are decided).  False when a count is
 * beyond MPI's. */
static bool find_balanced(Generator *gen, char (*kept)[RECORD_MAX_POSITION], int *count)
{
    const MatchOptions *o = gen->o;
    const long limit = 200L * o->make_openings;
    *count = 0;
    for (long first = 0; first < limit && *count < o->make_openings; first += gen->batch) {
        for (int i = 0; i < gen->batch; i++)
            gen->pos[i] = random_opening(gen->g, gen->start, o->opening_plies, o->seed, (uint64_t)(first + i));
        evaluate_share(gen, first);
        if (!mpi_env_gather_doubles(gen->env, gen->mine, gen->counts, gen->value))
            return false;
        for (int i = 0; i < gen->batch && first + i < limit && *count < o->make_openings; i++) {
            if (game_status(gen->g, &gen->pos[i]) != STATUS_ONGOING)
                continue;
            char text[RECORD_MAX_POSITION];
            game_format_position(gen->g, &gen->pos[i], text, sizeof text);
            if (already_kept(kept, *count, text))
                continue;
            const double v = value_of(gen, i);
            if (v >= o->make_low && v <= o->make_high)
                memcpy(kept[(*count)++], text, sizeof text);
        }
    }
    return true;
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

/* The generator's judges and buffers; false with *err when one cannot be made. */
static bool generator_init(Generator *gen, Error *err)
{
    const int R = gen->env->size;
    SearchSetup setup;
    search_setup_default(&setup);
    setup.limits.visits = gen->o->make_visits;
    gen->batch = R * gen->threads * 4;      /* a few tries a thread: short waits at the gather */
    gen->judge = calloc((size_t)gen->threads, sizeof *gen->judge);
    gen->pos = malloc((size_t)gen->batch * sizeof *gen->pos);
    gen->mine = malloc((size_t)gen->batch * sizeof *gen->mine);
    gen->value = malloc((size_t)gen->batch * sizeof *gen->value);
    gen->counts = calloc((size_t)R, sizeof *gen->counts);
    if (!gen->judge || !gen->pos || !gen->mine || !gen->value || !gen->counts)
        return error_failed(err, "out of memory");
    for (int i = 0; i < gen->batch; i++)
        gen->counts[i % R]++;
    for (int t = 0; t < gen->threads; t++)
        if (!(gen->judge[t] = player_create_search(gen->g, &setup, err)))
            return false;
    return true;
}

static void generator_free(Generator *gen)
{
    for (int t = 0; gen->judge && t < gen->threads; t++)
        player_free(gen->judge[t]);
    free(gen->judge);
    free(gen->pos);
    free(gen->mine);
    free(gen->value);
    free(gen->counts);
}

bool match_make_openings(const Game *g, const Position *start, const MatchOptions *o, Error *err)
{
    static const MpiEnv one = {0, 1, false, true};
    Generator gen = {.g = g, .start = start, .o = o, .env = o->mpi && o->mpi->size > 1 ? o->mpi : &one,
                     .threads = o->concurrency > 0 ? o->concurrency : 1};
    char (*kept)[RECORD_MAX_POSITION] = malloc((size_t)o->make_openings * sizeof *kept);
    bool ok = mpi_env_agree(gen.env, (kept || error_failed(err, "out of memory")) && generator_init(&gen, err), err);
    int count = 0;
    /* the rest every process meets alike: the same values, the same suite */
    if (ok && !find_balanced(&gen, kept, &count))
        ok = error_failed(err, "too many openings to evaluate at once for MPI");
    generator_free(&gen);
    if (ok && count < o->make_openings)
        ok = error_failed(err, "found only %d balanced openings of %d; try fewer random plies", count, o->make_openings);
    if (ok && gen.env->rank == 0)
        ok = write_suite(g, o, kept, count, err);
    free(kept);
    return mpi_env_agree(gen.env, ok, err);
}
