/*
 * cmd_perft.c - `leuctra perft`: the number of move paths of a given length, over threads, with
 * an optional breakdown by root move.  The last line of stdout is the bare count.
 */
#include "cli.h"
#include "core/perft.h"

#include <stdio.h>
#include <stdlib.h>

static int run_perft(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "perft", false};
    GameOptions opts = {0};
    const char *depth_text = NULL, *threads_text = "1";
    bool divide = false, timing = false;
    while (r.index < argc) {
        if (arg_game_option(&r, &opts) || arg_value(&r, "--threads", &threads_text))
            continue;
        if (arg_flag(&r, "--divide"))
            divide = true;
        else if (arg_flag(&r, "--time"))
            timing = true;
        else if (!depth_text && arg_operand(&r))
            depth_text = argv[r.index++];
        else
            arg_common(&r, &command_perft);
    }
    if (!depth_text)
        fail_exit("perft", EXIT_USAGE, "missing DEPTH (see leuctra perft --help)");
    int depth = (int)arg_integer("perft", "DEPTH", depth_text, 0, 64);
    int threads = arg_threads("perft", "--threads", threads_text);
    Position pos;
    Game *g = cli_open_game("perft", &opts, &pos);
    uint64_t *per_move = divide ? malloc(MAX_MOVES * sizeof *per_move) : NULL;
    Move *moves = divide ? malloc(MAX_MOVES * sizeof *moves) : NULL;
    if (divide && (!per_move || !moves))
        fail_exit("perft", EXIT_FAILURE_RUN, "out of memory");
    double start = clock_seconds();
    int n = 0;
    uint64_t total;
    Error err;
    if (!perft_parallel(g, &pos, depth, threads, &total, per_move, &n, &err))
        fail_exit("perft", EXIT_FAILURE_RUN, "%s", err.msg);
    double elapsed = clock_seconds() - start;
    if (divide) {
        game_gen_moves(g, &pos, moves);
        for (int i = 0; i < n; i++) {
            char text[16];
            game_format_move(g, &pos, moves[i], text, sizeof text);
            printf("%s %llu\n", text, (unsigned long long)per_move[i]);
        }
    }
    if (timing)
        fprintf(stderr, "perft %d: %.3f s, %.1f million leaves/s, %d thread%s\n", depth, elapsed,
                (double)total / (elapsed > 0 ? elapsed : 1e-9) / 1e6, threads, threads == 1 ? "" : "s");
    printf("%llu\n", (unsigned long long)total);
    free(per_move);
    free(moves);
    game_free(g);
    return 0;
}

const Command command_perft = {
    "perft", run_perft, "count move paths of a given depth (rules check and speed test)",
    "usage: leuctra perft DEPTH [--variant V] [--size WxH] [--position POS] [--divide]\n"
    "                     [--threads N] [--time]\n\n"
    "Counts the move paths of DEPTH plies as docs/RULES.md section 6 defines them and prints the\n"
    "count as the last line of stdout.\n\n"
    "  --divide        first one line per legal root move: the move and the count below it\n"
    "  --threads N     threads to use (default 1); the count is the same for any N\n"
    "  --time          report the time and leaves per second on stderr\n"
    "  --variant V     epaminondas (default), crossings, igfip or reversi\n"
    "  --size WxH      start position on another board (phalanx games)\n"
    "  --position POS  a position string, or 'start' (default)\n\n"
    "example: leuctra perft 4 --threads 2 --time     (prints 245799684)\n",
};
