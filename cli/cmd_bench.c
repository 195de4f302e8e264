/*
 * cmd_bench.c - `leuctra bench`: fixed speed benchmarks.  `rules` measures the rules engine
 * (perft leaves/s, random playouts/s); the figures go into docs/BENCHMARKS.md.
 */
#include "cli.h"
#include "core/perft.h"
#include "core/playout.h"
#include "core/rng.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static Game *open_variant(const char *variant, int w, int h, Position *pos)
{
    Error err;
    Game *g = game_new(variant, w, h, &err);
    if (!g)
        cli_fail("bench", EXIT_FAILURE_RUN, "%s", err.msg);
    game_start(g, pos);
    return g;
}

static void bench_perft(const char *variant, int depth, int threads, uint64_t expect)
{
    Position pos;
    Game *g = open_variant(variant, 0, 0, &pos);
    double start = seconds_now();
    uint64_t n = perft_parallel(g, &pos, depth, threads, NULL, NULL);
    double secs = seconds_now() - start;
    printf("perft   %-12s %dx%-2d depth %2d  %d thread%s  %12llu leaves  %7.3f s  %7.1f M leaves/s%s\n", variant,
           g->width, g->height, depth, threads, threads == 1 ? " " : "s", (unsigned long long)n, secs,
           (double)n / secs / 1e6, n == expect ? "" : "  WRONG COUNT");
    game_free(g);
}

static void bench_playouts(const char *variant, int w, int h, int games)
{
    Position start;
    Game *g = open_variant(variant, w, h, &start);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        cli_fail("bench", EXIT_FAILURE_RUN, "out of memory");
    Rng rng = rng_seed(2026, 0);
    long plies = 0;
    double t0 = seconds_now();
    for (int i = 0; i < games; i++) {
        Position pos = start;
        plies += playout_random(g, &pos, &rng, 1000, moves).plies;
    }
    double secs = seconds_now() - t0;
    printf("playout %-12s %dx%-2d %6d games  %7.3f s  %9.0f games/s  %6.2f M plies/s  mean %.1f plies\n", variant,
           g->width, g->height, games, secs, games / secs, (double)plies / secs / 1e6, (double)plies / games);
    free(moves);
    game_free(g);
}

static void bench_rules(int threads)
{
    bench_perft("epaminondas", 4, 1, 245799684);
    if (threads > 1)
        bench_perft("epaminondas", 4, threads, 245799684);
    bench_perft("reversi", 11, 1, 212258216);
    if (threads > 1)
        bench_perft("reversi", 11, threads, 212258216);
    bench_playouts("epaminondas", 0, 0, 20000);
    bench_playouts("crossings", 0, 0, 20000);
    bench_playouts("reversi", 0, 0, 200000);
}

static int run_bench(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "bench"};
    const char *threads_text = NULL, *what = "rules";
    while (r.index < argc) {
        if (arg_value(&r, "--threads", &threads_text))
            continue;
        if (argv[r.index][0] != '-')
            what = argv[r.index++];
        else
            arg_common(&r, &command_bench);
    }
    int threads = threads_text ? (int)arg_integer("bench", "--threads", threads_text, 1, 1024) : omp_get_num_procs();
    if (strcmp(what, "rules") != 0)
        cli_fail("bench", EXIT_USAGE, "unknown benchmark '%s' (expected: rules)", what);
    bench_rules(threads);
    return 0;
}

const Command command_bench = {
    "bench", run_bench, "speed benchmarks (rules: perft and random playouts)",
    "usage: leuctra bench [rules] [--threads N]\n\n"
    "rules: perft of the 14x12 Epaminondas start to depth 4 and of Reversi to depth 11 on one\n"
    "thread and on N threads (default: all cores), then uniformly random playouts (to the end of\n"
    "the game, at most 1000 plies) on one thread.  Seeds are fixed, so runs are comparable.\n\n"
    "example: leuctra bench rules --threads 2\n",
};
