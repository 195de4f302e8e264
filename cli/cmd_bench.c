/*
 * cmd_bench.c - `leuctra bench`: fixed benchmarks.  `search` (the default) searches fixed
 * positions and prints a signature of the search's behaviour and its speed; `rules` measures the
 * rules engine (perft leaves/s, random playouts/s).  The figures go into docs/BENCHMARKS.md.
 */
#include "cli.h"
#include "core/network.h"
#include "core/perft.h"
#include "core/playout.h"
#include "core/rng.h"
#include "core/solve.h"
#include "data/ffo_suite.h"
#include "data/weights.h"
#include "search_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Game *open_variant(const char *variant, int w, int h, Position *pos)
{
    Error err;
    Game *g = game_new(variant, w, h, &err);
    if (!g)
        fail_exit("bench", EXIT_FAILURE_RUN, "%s", err.msg);
    game_start(g, pos);
    return g;
}

static void bench_perft(const char *variant, int depth, int threads, uint64_t expect)
{
    Position pos;
    Game *g = open_variant(variant, 0, 0, &pos);
    double start = clock_seconds();
    uint64_t n;
    Error err;
    if (!perft_parallel(g, &pos, depth, threads, &n, NULL, NULL, &err))
        fail_exit("bench", EXIT_FAILURE_RUN, "%s", err.msg);
    double secs = clock_seconds() - start;
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
        fail_exit("bench", EXIT_FAILURE_RUN, "out of memory");
    /* One game first, timed apart: a game's first playout builds its tables (the phalanx
     * games' line tables, core/phalanx_line_table.c), a one-time cost per process. */
    Rng rng = rng_seed(2025, 0);
    Position pos = start;
    double t0 = clock_seconds();
    playout_random(g, &pos, &rng, 1000, moves);
    double setup = clock_seconds() - t0;
    rng = rng_seed(2026, 0);
    long plies = 0;
    t0 = clock_seconds();
    for (int i = 0; i < games; i++) {
        pos = start;
        plies += playout_random(g, &pos, &rng, 1000, moves).plies;
    }
    double secs = clock_seconds() - t0;
    printf("playout %-12s %dx%-2d %6d games  %7.3f s  %9.0f games/s  %6.2f M plies/s  mean %.1f plies  "
           "(first game %.3f s)\n", variant, g->width, g->height, games, secs, games / secs,
           (double)plies / secs / 1e6, (double)plies / games, setup);
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

/* The search benchmark's positions: each game's start and three positions from fixed random
 * play.  Changing this list changes the signature. */
static const struct {
    const char *variant, *position;
} bench_positions[] = {
    {"epaminondas", "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w"},
    {"epaminondas", "BBBBBBBBB1BB1B/BBBB2BBBB1BBB/5B5BB1/6B1B5/14/14/14/12W1/11W2/2W1W3W5/WWWWW1WWW1WWWW/1WWWWWW2WWWWW w"},
    {"epaminondas", "1B1B2B4BBB/BB4BBB1BBB1/1BBBBBBB1BB3/1B4BB2B3/B13/14/14/1WW11/1WW3W2W4/W12W/W1WWWW2W1WWWW/WW1WW1WWWW1WW1 w"},
    {"epaminondas", "BBBB1BB1BB1B1B/B1B1BBB1BBBBBB/2BB5B4/9B4/5B1W6/6W2B4/12W1/2WW6WW2/W9W3/W3WW4W3/2WWW1W1W1W1WW/2WW2WW2WWW1 w"},
    {"crossings", "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w"},
    {"crossings", "BBB4B/BBBBB2B/3B1B2/2BB2BB/1WW1W3/3W4/W2WW1WW/WWWW1WWW w"},
    {"crossings", "4BBB1/2B2BBB/W1BBB1BB/W2BB2B/2WW1B2/W2W2W1/1WWWWW2/1WWW4 w"},
    {"crossings", "3BB1B1/2B1BB1B/1B3BB1/B2B2B1/2B1W1BW/2WW1WW1/6WW/WW1WW1WW w"},
    {"reversi", "8/8/8/3WB3/3BW3/8/8/8 b"},
    {"reversi", "1B6/1BBW4/2BW1W2/3WBB2/3WBB2/2WB4/3B4/8 b"},
    {"reversi", "8/2W5/2BWW1B1/1B1WWWWW/2WWBBWW/1WWBWBWW/3WBBBW/3WWBBB b"},
    {"reversi", "WWWWWWBB/WWWWWBBB/WWWWBBBB/WWWWWBWB/WBWWWBWW/WWBBWBWW/WB1BBWWW/BWWWWWWW b"},
};

static uint64_t fnv1a(uint64_t h, const char *text)
{
    for (; *text; text++)
        h = (h ^ (unsigned char)*text) * 0x100000001B3ull;
    return h;
}

/* Searches every bench position with a fixed budget on one thread and prints the signature:
 * the total of tree nodes and a checksum of the chosen moves and of every root move's visits.
 * A change to search, priors or evaluation changes it (the visits move even when the chosen
 * move does not); a pure speed-up does not. */
static void bench_search(long visits)
{
    long total_visits = 0;
    size_t total_nodes = 0;
    uint64_t checksum = 0xCBF29CE484222325ull;
    double seconds = 0;
    for (size_t i = 0; i < sizeof bench_positions / sizeof bench_positions[0]; i++) {
        Position pos;
        Error err;
        Game *g = game_new_for_position(bench_positions[i].variant, bench_positions[i].position, &pos, &err);
        Weights w;
        if (!g || !weights_default(g, &w))
            fail_exit("bench", EXIT_FAILURE_RUN, "bench position %zu: %s", i + 1, g ? "no default weights" : err.msg);
        MctsConfig cfg;
        mcts_default_config(&cfg);
        Mcts *m = mcts_new(g, &w, &cfg);
        if (!m)
            fail_exit("bench", EXIT_FAILURE_RUN, "cannot allocate the search tree");
        mcts_set_position(m, &pos);
        MctsLimits limits = {visits, 0};
        MctsResult r = mcts_search(m, &limits, NULL, NULL, 0, NULL);
        char move[16] = "none";
        if (r.best != MOVE_NONE)
            game_format_move(g, &pos, r.best, move, sizeof move);
        printf("search  %-12s position %2zu  best %-8s win %5.1f%%  %7ld visits  %8zu nodes  %6.0f visits/s\n",
               g->name, i + 1, move, 100 * r.value, r.visits, r.nodes, r.visits / r.seconds);
        checksum = fnv1a(checksum, move);
        for (int k = 0; k < r.num_stats; k++) {
            char stat[48];
            snprintf(stat, sizeof stat, " %u:%ld", (unsigned)r.stats[k].move, r.stats[k].visits);
            checksum = fnv1a(checksum, stat);
        }
        total_visits += r.visits;
        total_nodes += r.nodes;
        seconds += r.seconds;
        mcts_free(m);
        weights_dispose(&w);
        game_free(g);
    }
    printf("signature %zu nodes, moves %016llx\n", total_nodes, (unsigned long long)checksum);
    printf("speed %.0f visits/s (%ld visits in %.2f s, one thread)\n", total_visits / seconds, total_visits, seconds);
}

/* Positions of random games from the start (seeded: every run times the same positions). */
static int random_game_positions(const Game *g, Position *out, int count)
{
    Rng rng = rng_seed(17, 3);
    int n = 0;
    while (n < count) {
        Position p;
        game_start(g, &p);
        Move moves[MAX_MOVES];
        for (int ply = 0; ply < 300 && n < count; ply++) {
            out[n++] = p;
            const int k = game_gen_moves(g, &p, moves);
            if (k == 0)
                break;
            Undo u;
            game_make(g, &p, moves[rng_below(&rng, (uint32_t)k)], &u);
        }
    }
    return n;
}

/* Evaluations a second of one network on one thread: value only, through one scratch (the
 * search's way: consecutive positions of games, each accumulator updated from the last). */
static double network_rate(const Network *net, const Game *g, const Position *positions, int n)
{
    NetworkScratch *s = network_scratch_new(net);
    if (!s)
        fail_exit("bench", EXIT_FAILURE_RUN, "out of memory");
    double sum = 0, t0 = clock_seconds(), seconds;
    long done = 0;
    do {
        for (int i = 0; i < n; i++)
            sum += network_value(net, g, s, &positions[i]);
        done += n;
    } while ((seconds = clock_seconds() - t0) < 0.3);
    network_scratch_free(s);
    return sum == sum ? (double)done / seconds : 0;     /* (the sum keeps the loop from being dropped) */
}

/* The network's evaluations per second for each game and a few widths, plain C and AVX2. */
static void bench_network(void)
{
    static const char *const games[] = {"epaminondas", "crossings", "igfip", "reversi"};
    static const int widths[] = {32, 64, 128, 256};
    enum { POSITIONS = 2000 };
    Position *positions = malloc(POSITIONS * sizeof *positions);
    if (!positions)
        fail_exit("bench", EXIT_FAILURE_RUN, "out of memory");
    const bool simd = network_simd_available();
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        Position start;
        Game *g = open_variant(games[i], 0, 0, &start);
        const int n = random_game_positions(g, positions, POSITIONS);
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            Network net;
            Error err;
            if (!network_init(&net, g, NETWORK_PATTERNS | NETWORK_SQUARES, 0, widths[k], &err))
                fail_exit("bench", EXIT_FAILURE_RUN, "%s", err.msg);
            network_randomize(&net, 1, true);
            network_quantize(&net, g, positions, 100);
            net.simd = false;
            const double plain = network_rate(&net, g, positions, n);
            net.simd = simd;
            const double fast = simd ? network_rate(&net, g, positions, n) : 0;
            printf("network %-12s %dx%-2d H %3d  %6d inputs  %9.0f evals/s plain  %9.0f evals/s avx2%s\n", games[i],
                   g->width, g->height, widths[k], net.num_inputs, plain, fast, simd ? "" : " (no AVX2 here, or LEUCTRA_SIMD=0)");
            network_free(&net);
        }
        game_free(g);
    }
    free(positions);
}

/* Whether move is one of the comma-separated moves of list. */
static bool move_listed(const char *list, const char *move)
{
    const size_t n = strlen(move);
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (strncmp(p, move, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return true;
    }
    return false;
}

/* Solves FFO positions first..last exactly (and with wld first for the win/loss/draw search),
 * each with a fresh 64 MiB table, and checks every score and exact best move against the
 * published ones.  Exits 1 when one differs. */
static void bench_solve(int first, int last, bool wld, int threads)
{
    Position pos;
    Game *g = open_variant("reversi", 0, 0, &pos);
    uint64_t nodes = 0;
    double total = 0, total_cpu = 0;
    int wrong = 0;
    for (int number = first; number <= last; number++) {
        const FfoPosition *ffo = ffo_position(number);
        Error err;
        if (!game_parse_position(g, ffo->position, &pos, &err))
            fail_exit("bench", EXIT_FAILURE_RUN, "FFO #%d: %s", number, err.msg);
        for (int mode = wld ? SOLVE_WLD : SOLVE_EXACT; mode >= SOLVE_EXACT; mode--) {
            Solver *s = solver_new_threads(g, (size_t)64 << 20, threads);
            if (!s)
                fail_exit("bench", EXIT_FAILURE_RUN, "out of memory");
            const double t0 = clock_seconds(), cpu0 = clock_cpu_seconds();
            const SolveResult r = solver_run(s, &pos, (SolveMode)mode, NULL);
            const double secs = clock_seconds() - t0, cpu = clock_cpu_seconds() - cpu0;
            solver_free(s);
            char best[16] = "none";
            if (r.best != MOVE_NONE)
                game_format_move(g, &pos, r.best, best, sizeof best);
            const bool exact = mode == SOLVE_EXACT;
            const int want = exact ? ffo->score : (ffo->score > 0) - (ffo->score < 0);
            const bool right = r.score == want && (!exact || move_listed(ffo->best, best));
            wrong += !right;
            printf("solve   FFO #%d  %2d empties  %-5s  score %+3d  best %-3s  %12llu nodes  %8.3f s  %8.3f cpu s  "
                   "%5.1f M nodes/s%s\n", number, solve_empties(g, &pos), exact ? "exact" : "wld", r.score, best,
                   (unsigned long long)r.nodes, secs, cpu, (double)r.nodes / (secs > 0 ? secs : 1e-9) / 1e6,
                   right ? "" : "  WRONG");
            if (!right)
                printf("        FFO #%d: published score %+d, best %s\n", number, want, ffo->best);
            fflush(stdout);
            nodes += exact ? r.nodes : 0;
            total += exact ? secs : 0;
            total_cpu += exact ? cpu : 0;
        }
    }
    printf("solve   FFO #%d-#%d exact total %llu nodes in %.2f s, %.2f cpu s (%.1f M nodes/s, %d thread%s)%s\n",
           first, last, (unsigned long long)nodes, total, total_cpu, (double)nodes / (total > 0 ? total : 1e-9) / 1e6,
           threads, threads == 1 ? "" : "s",
           wrong ? "; SOME RESULTS WRONG" : ", every score and best move right");
    game_free(g);
    if (wrong)
        exit(EXIT_FAILURE_RUN);
}

/* The selective levels on FFO positions first..last: each position searched at levels
 * 0..max_level in turn on one fresh 64 MiB table (as `solve --selective` does), each level's score
 * against the published one and the seconds until it was found; then per level the positions
 * scored exactly, the mean distance from the exact score and the total seconds. */
static void bench_selective(int first, int last, int max_level, int threads)
{
    Position pos;
    Game *g = open_variant("reversi", 0, 0, &pos);
    int exact[SOLVE_EXACT_LEVEL + 1] = {0}, off[SOLVE_EXACT_LEVEL + 1] = {0};
    double seconds[SOLVE_EXACT_LEVEL + 1] = {0};
    for (int number = first; number <= last; number++) {
        const FfoPosition *ffo = ffo_position(number);
        Error err;
        if (!game_parse_position(g, ffo->position, &pos, &err))
            fail_exit("bench", EXIT_FAILURE_RUN, "FFO #%d: %s", number, err.msg);
        Solver *s = solver_new_threads(g, (size_t)64 << 20, threads);
        if (!s)
            fail_exit("bench", EXIT_FAILURE_RUN, "out of memory");
        const double t0 = clock_seconds();
        for (int level = 0; level <= max_level; level++) {
            const SolveResult r = solver_run_selective(s, &pos, SOLVE_EXACT, level, NULL);
            const double secs = clock_seconds() - t0;
            char best[16] = "none";
            if (r.best != MOVE_NONE)
                game_format_move(g, &pos, r.best, best, sizeof best);
            const int distance = abs(r.score - ffo->score);
            printf("select  FFO #%d  %2d empties  level %d  score %+3d  best %-3s  published %+3d  off %2d  %8.3f s\n",
                   number, solve_empties(g, &pos), level, r.score, best, ffo->score, distance, secs);
            fflush(stdout);
            exact[level] += distance == 0;
            off[level] += distance;
            seconds[level] += secs;
        }
        solver_free(s);
    }
    const int count = last - first + 1;
    for (int level = 0; level <= max_level; level++)
        printf("select  FFO #%d-#%d level %d: %d of %d scores exact, %.1f discs off on average, %.2f s in all%s\n",
               first, last, level, exact[level], count, (double)off[level] / count, seconds[level],
               level == SOLVE_EXACT_LEVEL ? " (the exact search)" : "");
    game_free(g);
    if (max_level == SOLVE_EXACT_LEVEL && exact[max_level] != count)
        exit(EXIT_FAILURE_RUN);
}

/* "--ffo FIRST-LAST" or "--ffo N" into a range inside the suite. */
static void parse_ffo_range(const char *text, int *first, int *last)
{
    char *end;
    long a = strtol(text, &end, 10), b = a;
    if (end != text && *end == '-')
        b = strtol(end + 1, &end, 10);
    if (end == text || *end || a < FFO_FIRST || b > FFO_LAST || a > b)
        fail_exit("bench", EXIT_USAGE, "--ffo '%s': expected N or FIRST-LAST within %d-%d", text, FFO_FIRST,
                  FFO_LAST);
    *first = (int)a;
    *last = (int)b;
}

static int run_bench(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "bench", false};
    const char *threads_text = NULL, *visits_text = "20000", *ffo_text = "40-49", *what = NULL, *level_text = NULL;
    bool wld = false;
    while (r.index < argc) {
        if (arg_value(&r, "--threads", &threads_text) || arg_value(&r, "--visits", &visits_text) ||
            arg_value(&r, "--ffo", &ffo_text) || arg_value(&r, "--level", &level_text))
            continue;
        if (arg_flag(&r, "--wld")) {
            wld = true;
            continue;
        }
        if (!arg_operand(&r))
            arg_common(&r, &command_bench);
        else if (what)
            fail_exit("bench", EXIT_USAGE, "one benchmark at a time: got '%s' and '%s'", what, argv[r.index]);
        else
            what = argv[r.index++];
    }
    if (!what)
        what = "search";
    int threads = threads_text ? arg_threads("bench", "--threads", threads_text) : threads_default();
    long visits = cli_search_visits("bench", "--visits", visits_text);
    if (strcmp(what, "search") == 0)
        bench_search(visits);
    else if (strcmp(what, "rules") == 0)
        bench_rules(threads);
    else if (strcmp(what, "network") == 0)
        bench_network();
    else if (strcmp(what, "solve") == 0) {
        int first, last;
        parse_ffo_range(ffo_text, &first, &last);
        if (level_text)
            bench_selective(first, last, (int)arg_integer("bench", "--level", level_text, 0, SOLVE_EXACT_LEVEL),
                            threads_text ? threads : 1);
        else
            bench_solve(first, last, wld, threads_text ? threads : 1);
    }
    else
        fail_exit("bench", EXIT_USAGE, "unknown benchmark '%s' (expected search, rules, network or solve)", what);
    return 0;
}

const Command command_bench = {
    "bench", run_bench, "search signature and speed; rules engine and solver speed",
    "usage: leuctra bench [search|rules|network|solve] [--visits N] [--threads N] [--ffo FIRST-LAST] [--wld]\n"
    "                     [--level L]\n\n"
    "search (default): 12 fixed positions, 4 each of Epaminondas, Crossings and Reversi, searched\n"
    "with --visits (default 20000) on one thread with the shipped weights.  Ends with the signature\n"
    "(the total of tree nodes and a checksum of the chosen moves and of every root move's visits:\n"
    "any change to search, priors or evaluation changes it, a pure speed-up keeps it) and the\n"
    "speed.  It is also the profile run of `make pgo`.\n\n"
    "rules: perft of the 14x12 Epaminondas start to depth 4 and of Reversi to depth 11 on one\n"
    "thread and on N threads (default: all cores), then uniformly random playouts (to the end of\n"
    "the game, at most 1000 plies) on one thread.  Seeds are fixed, so runs are comparable.\n\n"
    "network: the network's evaluations per second on one thread (docs/NETWORK.md), random networks\n"
    "of H 32 to 256 on the positions of random games, value only, each accumulator updated from the\n"
    "last position's as in a search: the plain C path and the AVX2 one (the same numbers).\n\n"
    "solve: the Reversi endgame solver on the FFO test positions --ffo (default 40-49, 20-26\n"
    "empties, a few minutes; the suite here is 40-59, up to 34 empties, which takes hours), each\n"
    "solved exactly on one thread (--threads N: N threads) with a fresh 64 MiB table (--wld: a\n"
    "win/loss/draw solve first) and checked against its published score and best moves; per\n"
    "position the nodes, wall and CPU seconds (every thread's) and nodes/s, then the total.\n"
    "Exits 1 when a result differs from the published one.  With --level L, the selective levels\n"
    "0..L instead (`leuctra solve --selective`), in turn on one table per position: each level's\n"
    "score, its distance from the published one and the seconds until it was found, then per\n"
    "level the exact scores, the mean distance and the total seconds (L = 4 ends with the exact\n"
    "search, and exits 1 when it differs).\n\n"
    "example: leuctra bench            leuctra bench rules --threads 2     leuctra bench solve --ffo 40-44\n"
    "         leuctra bench solve --ffo 40-49 --level 3\n",
};
