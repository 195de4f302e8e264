/*
 * unit_main.c - runs every unit-test suite (or those named on the command line) and ends with
 * the line "N passed, N failed" that CI reads.
 */
#include "test.h"

#include <stdlib.h>
#include <time.h>

extern const TestCase phalanx_tests[];
extern const TestCase igfip_tests[];
extern const TestCase reversi_tests[];
extern const TestCase solve_tests[];
extern const TestCase tables_tests[];
extern const TestCase tune_tables_tests[];
extern const TestCase records_tests[];
extern const TestCase records_file_tests[];
extern const TestCase value_tests[];
extern const TestCase network_tests[];
extern const TestCase tune_network_tests[];
extern const TestCase weights_tests[];
extern const TestCase elo_tests[];
extern const TestCase ratings_tests[];
extern const TestCase tune_tests[];
extern const TestCase tune_data_tests[];
extern const TestCase selfplay_tests[];
extern const TestCase driver_tests[];
extern const TestCase text_tests[];
extern const TestCase mcts_tests[];
extern const TestCase tensors_tests[];
extern const TestCase npz_tests[];
extern const TestCase api_tests[];
extern const TestCase api_vec_tests[];
extern const TestCase api_search_tests[];
extern const TestCase match_tests[];
extern const TestCase time_control_tests[];
extern const TestCase training_tests[];

static const TestSuite suites[] = {
    {"phalanx", phalanx_tests},
    {"igfip", igfip_tests},
    {"reversi", reversi_tests},
    {"solve", solve_tests},
    {"tables", tables_tests},
    {"tune_tables", tune_tables_tests},
    {"records", records_tests},
    {"records_file", records_file_tests},
    {"value", value_tests},
    {"network", network_tests},
    {"tune_network", tune_network_tests},
    {"weights", weights_tests},
    {"elo", elo_tests},
    {"ratings", ratings_tests},
    {"tune", tune_tests},
    {"tune_data", tune_data_tests},
    {"selfplay", selfplay_tests},
    {"driver", driver_tests},
    {"text", text_tests},
    {"mcts", mcts_tests},
    {"tensors", tensors_tests},
    {"npz", npz_tests},
    {"api", api_tests},
    {"api_vec", api_vec_tests},
    {"api_search", api_search_tests},
    {"match", match_tests},
    {"time_control", time_control_tests},
    {"training", training_tests},
};

Game *test_open_position(TestContext *t, const char *variant, const char *text, Position *pos)
{
    Error err;
    Game *g = game_new_for_position(variant, text, pos, &err);
    if (!g) {
        fprintf(stderr, "  cannot open %s '%s': %s\n", variant, text, err.msg);
        t->failures++;
    }
    return g;
}

void test_random_position(const Game *g, Rng *rng, int plies, Position *p)
{
    game_start(g, p);
    Move moves[MAX_MOVES];
    for (int i = 0; i < plies && game_status(g, p) == STATUS_ONGOING; i++) {
        const int n = game_gen_moves(g, p, moves);
        Undo undo;
        game_make(g, p, moves[rng_next(rng) % (uint64_t)n], &undo);
    }
}

static int wanted(int argc, char **argv, const char *suite, const char *test)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], suite) == 0 || strcmp(argv[i], test) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        for (const TestCase *c = suites[s].cases; c->name; c++) {
            if (!wanted(argc, argv, suites[s].name, c->name))
                continue;
            TestContext t = {0};
            clock_t start = clock();
            c->run(&t);
            double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
            printf("%-4s %s.%s (%.2fs)\n", t.failures ? "FAIL" : "ok", suites[s].name, c->name, secs);
            fflush(stdout);
            if (t.failures)
                failed++;
            else
                passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
