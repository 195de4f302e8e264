/*
 * test_solve.c - the exact endgame solver (core/solve.h) against a plain reference solver
 * (reversi_reference_solve.c): stored positions whose scores the reference found offline
 * (reversi_endgames.h, 6-18 empties), fresh random positions solved by both here, published FFO
 * scores, and the solver's edges: passes, finished games, its stop flag and table sizes.
 */
#include "core/clock.h"
#include "core/solve.h"
#include "core/rng.h"
#include "data/ffo_suite.h"
#include "search/mcts.h"
#include "tests/reference/reversi_reference_solve.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *position;
    int score;
} KnownEndgame;

static const KnownEndgame KNOWN[] = {
#include "tests/reference/reversi_endgames.h"
};

/* FFO test suite position 40 (data/ffo_suite.c, 20 empties) with its published score;
 * `leuctra bench solve` times it with the rest of the suite. */
#define FFO_40 (*ffo_position(40))

static Game *open_reversi(TestContext *t)
{
    Error err;
    Game *g = game_new("reversi", 0, 0, &err);
    CHECK(t, g != NULL);
    return g;
}

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* Solves `text` exactly and by WLD; checks both against `want` and that the best move reaches
 * the score (the child's exact score is its negation). */
static void check_solves(TestContext *t, const Game *g, Solver *s, const char *text, int want)
{
    Position p;
    Error err;
    CHECK(t, game_parse_position(g, text, &p, &err));
    const SolveResult exact = solver_run(s, &p, SOLVE_EXACT, NULL);
    const SolveResult wld = solver_run(s, &p, SOLVE_WLD, NULL);
    CHECK(t, !exact.stopped);
    if (!exact.stopped)
        CHECK(t, !wld.stopped);
    if (exact.score != want || wld.score != sign(want)) {
        fprintf(stderr, "  %s: exact %d wld %d, want %d\n", text, exact.score, wld.score, want);
        t->failures++;
        return;
    }
    if (exact.best == MOVE_NONE) {
        CHECK(t, game_status(g, &p) != STATUS_ONGOING);
        return;
    }
    Position child = p;
    Undo undo;
    game_make(g, &child, exact.best, &undo);
    const SolveResult reply = solver_run(s, &child, SOLVE_EXACT, NULL);
    CHECK(t, reply.score == -want);
}

static void test_stored_endgames(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, (size_t)8 << 20);
    CHECK(t, s != NULL);
    const int n = (int)(sizeof KNOWN / sizeof KNOWN[0]);
    CHECK(t, n == 40);
    for (int i = 0; i < n; i++)
        check_solves(t, g, s, KNOWN[i].position, KNOWN[i].score);
    solver_free(s);
    game_free(g);
}

/* Three threads sharing a table find the stored scores and FFO #40's, with a best move that
 * keeps the score (the nodes from 10 empties on are the ones the threads split), and from a
 * cleared table the move one thread finds. */
static void test_threads(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new_threads(g, (size_t)8 << 20, 3);
    CHECK(t, s != NULL);
    for (int i = 0; i < (int)(sizeof KNOWN / sizeof KNOWN[0]); i++)
        check_solves(t, g, s, KNOWN[i].position, KNOWN[i].score);
    check_solves(t, g, s, FFO_40.position, FFO_40.score);
    /* From a cleared table the move is one thread's too. */
    Solver *one = solver_new(g, (size_t)8 << 20);
    Position p;
    Error err;
    for (int i = 0; i < (int)(sizeof KNOWN / sizeof KNOWN[0]); i++) {
        CHECK(t, game_parse_position(g, KNOWN[i].position, &p, &err));
        solver_clear(s);
        solver_clear(one);
        const SolveResult a = solver_run(one, &p, SOLVE_EXACT, NULL), b = solver_run(s, &p, SOLVE_EXACT, NULL);
        CHECK(t, a.best == b.best);
        CHECK(t, a.score == b.score);
    }
    solver_free(one);
    /* The stop flag ends every thread, not only the first (the others within their next polls:
     * the run returns, which it could not with one still searching). */
    CHECK(t, game_parse_position(g, FFO_40.position, &p, &err));
    atomic_bool stop = true;
    const SolveResult r = solver_run(s, &p, SOLVE_EXACT, &(SolveLimits){&stop, 0, 0});
    CHECK(t, r.stopped);
    if (r.stopped)
        CHECK(t, r.nodes < 2000000);
    solver_free(s);
    game_free(g);
}

/* Random games stopped at 1-11 empties (passes and finished games included), solved by both. */
static void test_random_positions_against_reference(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, 1 << 20);
    Rng rng = rng_seed(7, 0);
    int compared = 0, passes = 0;
    for (int game = 0; game < 120; game++) {
        const int stop_at = 1 + game % 11;
        Position p;
        game_start(g, &p);
        while (game_status(g, &p) == STATUS_ONGOING && solve_empties(g, &p) > stop_at) {
            Move moves[MAX_MOVES];
            Undo undo;
            const int n = game_gen_moves(g, &p, moves);
            game_make(g, &p, moves[rng_next(&rng) % (uint64_t)n], &undo);
        }
        char text[128];
        game_format_position(g, &p, text, sizeof text);
        int want;
        CHECK(t, ref_solve(text, &want, NULL));
        const SolveResult r = solver_run(s, &p, SOLVE_EXACT, NULL);
        if (r.score != want) {
            fprintf(stderr, "  %s: solver %d, reference %d\n", text, r.score, want);
            t->failures++;
        }
        char move[16] = "";
        if (r.best != MOVE_NONE)
            game_format_move(g, &p, r.best, move, sizeof move);
        passes += strcmp(move, "pass") == 0;
        compared++;
    }
    CHECK(t, compared == 120);
    CHECK(t, passes > 0);
    solver_free(s);
    game_free(g);
}

static void test_ffo_40(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, (size_t)16 << 20);
    check_solves(t, g, s, FFO_40.position, FFO_40.score);
    Position p;
    Error err;
    CHECK(t, game_parse_position(g, FFO_40.position, &p, &err));
    const SolveResult r = solver_run(s, &p, SOLVE_EXACT, NULL);
    char move[16];
    game_format_move(g, &p, r.best, move, sizeof move);
    CHECK_STR(t, move, "a2");   /* the only move that keeps +38 */
    solver_free(s);
    game_free(g);
}

/* Whether m is one of p's legal moves. */
static bool is_legal(const Game *g, const Position *p, Move m)
{
    Move moves[MAX_MOVES];
    const int n = game_gen_moves(g, p, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

/* The selective levels on FFO #40, in turn on one table, on one thread and on two: each a legal
 * move and a possible score, the first searching fewer nodes than the exact search; and the
 * exact search after them on the same table still exact (their bounds must not pass for it). */
static void test_selective_levels(TestContext *t)
{
    Game *g = open_reversi(t);
    Position p;
    Error err;
    CHECK(t, game_parse_position(g, FFO_40.position, &p, &err));
    Solver *fresh = solver_new(g, (size_t)16 << 20);
    const SolveResult exact = solver_run(fresh, &p, SOLVE_EXACT, NULL);
    for (int threads = 1; threads <= 2; threads++) {
        Solver *s = solver_new_threads(g, (size_t)16 << 20, threads);
        for (int level = 0; level < SOLVE_EXACT_LEVEL; level++) {
            const SolveResult r = solver_run_selective(s, &p, SOLVE_EXACT, level, NULL);
            CHECK(t, !r.stopped);
            if (!r.stopped)
                CHECK(t, is_legal(g, &p, r.best));
            CHECK(t, r.score >= -64);
            CHECK(t, r.score <= 64);
            CHECK(t, r.score % 2 == 0);
            if (level == 0)
                CHECK(t, r.nodes < exact.nodes / 4);
        }
        const SolveResult r = solver_run_selective(s, &p, SOLVE_EXACT, SOLVE_EXACT_LEVEL, NULL);
        CHECK(t, r.score == FFO_40.score);
        char move[16];
        game_format_move(g, &p, r.best, move, sizeof move);
        CHECK_STR(t, move, "a2");
        /* And a win/loss/draw search at level 0 after them: a result, and the exact table's win. */
        const SolveResult wld = solver_run_selective(s, &p, SOLVE_WLD, 0, NULL);
        CHECK(t, !wld.stopped);
        if (!wld.stopped)
            CHECK(t, wld.score == 1);
        solver_free(s);
    }
    solver_free(fresh);
    game_free(g);
}

/* The FFO data: every position of #40-#59 parses, has the empties and side to move the suite
 * lists (a copying slip in one square changes them), and its published best moves are legal.
 * Their scores: #40 above, the rest by `leuctra bench solve`, which checks each. */
static void test_ffo_suite(TestContext *t)
{
    Game *g = open_reversi(t);
    CHECK(t, ffo_position(FFO_FIRST - 1) == NULL && ffo_position(FFO_LAST + 1) == NULL);
    for (int number = FFO_FIRST; number <= FFO_LAST; number++) {
        const FfoPosition *ffo = ffo_position(number);
        Position p;
        Error err;
        CHECK(t, ffo->number == number);
        if (!game_parse_position(g, ffo->position, &p, &err)) {
            fprintf(stderr, "  FFO #%d: %s\n", number, err.msg);
            t->failures++;
            continue;
        }
        CHECK(t, solve_empties(g, &p) == ffo->empties);
        CHECK(t, game_status(g, &p) == STATUS_ONGOING);
        char list[32];
        snprintf(list, sizeof list, "%s", ffo->best);
        for (char *save = NULL, *move = strtok_r(list, ",", &save); move; move = strtok_r(NULL, ",", &save)) {
            Move m;
            if (!game_parse_move(g, &p, move, &m, &err)) {
                fprintf(stderr, "  FFO #%d best move %s: %s\n", number, move, err.msg);
                t->failures++;
            }
        }
    }
    game_free(g);
}

static void test_pass_and_finished(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, 0);
    Position p;
    Error err;
    /* White to move has no placement; Black does: a pass. */
    CHECK(t, game_parse_position(g, "BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBWW/BBBBBB2 w", &p, &err));
    SolveResult r = solver_run(s, &p, SOLVE_EXACT, NULL);
    char move[16] = "";
    if (r.best != MOVE_NONE)
        game_format_move(g, &p, r.best, move, sizeof move);
    CHECK_STR(t, move, "pass");
    int want;
    char text[128];
    game_format_position(g, &p, text, sizeof text);
    CHECK(t, ref_solve(text, &want, NULL));
    CHECK(t, r.score == want);
    /* A finished game: 63 black discs and one white, nothing to play. */
    CHECK(t, game_parse_position(g, "BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBW w", &p, &err));
    r = solver_run(s, &p, SOLVE_EXACT, NULL);
    CHECK(t, r.best == MOVE_NONE);
    CHECK(t, r.score == -62);
    r = solver_run(s, &p, SOLVE_WLD, NULL);
    CHECK(t, r.score == -1);
    /* Empties of a finished game go to the winner: 61 black, 3 empty -> -64 for White. */
    CHECK(t, game_parse_position(g, "BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBB3 w", &p, &err));
    r = solver_run(s, &p, SOLVE_EXACT, NULL);
    CHECK(t, r.best == MOVE_NONE);
    CHECK(t, r.score == -64);
    solver_free(s);
    game_free(g);
}

static void test_stop_flag(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, 1 << 20);
    Position p;
    Error err;
    CHECK(t, game_parse_position(g, FFO_40.position, &p, &err));
    atomic_bool stop = true;
    SolveResult r = solver_run(s, &p, SOLVE_EXACT, &(SolveLimits){&stop, 0, 0});
    CHECK(t, r.stopped);
    CHECK(t, r.nodes < 10000);
    /* A time limit far below FFO #40's second: stopped after a few clock polls. */
    r = solver_run(s, &p, SOLVE_EXACT, &(SolveLimits){NULL, 0.001, 0});
    CHECK(t, r.stopped);
    CHECK(t, r.nodes < 5000000);
    solver_free(s);
    game_free(g);
}

/* A node budget ends a solve within a poll (4,096 nodes) of it. */
static void test_node_budget(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, 1 << 20);
    Position p;
    Error err;
    CHECK(t, game_parse_position(g, FFO_40.position, &p, &err));
    const SolveResult r = solver_run(s, &p, SOLVE_EXACT, &(SolveLimits){NULL, 0, 100000});
    CHECK(t, r.stopped);
    if (r.stopped) {
        CHECK(t, r.nodes >= 100000);
        CHECK(t, r.nodes < 100000 + 5000);
    }
    solver_free(s);
    game_free(g);
}

/* The most moves known in a Reversi position (33 and more; the solver once held 32 and wrote
 * past its list): the solver and the search take them. */
static void test_most_moves(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, 1 << 20);
    Position p;
    Error err;
    CHECK(t, game_parse_position(g, "7B/1WB1WWB1/BBB1BBW1/1WB1WB2/2W2BW1/1BB2B2/1WBWWWW1/2B3B1 b", &p, &err));
    Move moves[MAX_MOVES];
    CHECK(t, game_gen_moves(g, &p, moves) == 34);
    const SolveResult r = solver_run(s, &p, SOLVE_WLD, &(SolveLimits){NULL, 0, 200000});
    CHECK(t, r.nodes > 0);
    solver_free(s);
    game_free(g);
}

/* Solves inside a search honour its limits: with the solvers reaching every position, a
 * 100-visit search ends (its visits buy the solves a node budget) and a 0.2 s one ends near its
 * deadline (the leaves' solves of ~30 empties would each take hours). */
static void test_search_solves_within_limits(TestContext *t)
{
    Game *g = open_reversi(t);
    MctsConfig cfg;
    mcts_default_config(&cfg);
    cfg.solve_empties = cfg.root_solve_empties = 64;
    Mcts *m = mcts_new(g, NULL, &cfg);
    Position p;
    game_start(g, &p);
    mcts_set_position(m, &p);
    MctsResult r = mcts_search(m, &(MctsLimits){.visits = 100}, NULL, NULL, 0, NULL);
    CHECK(t, r.visits == 100);
    CHECK(t, r.best != MOVE_NONE);
    const double start = clock_seconds();
    r = mcts_search(m, &(MctsLimits){.seconds = 0.2}, NULL, NULL, 0, NULL);
    CHECK(t, r.best != MOVE_NONE);
    CHECK(t, clock_seconds() - start < 3.0);
    atomic_bool stop = true;
    r = mcts_search(m, &(MctsLimits){.visits = 1000000}, &stop, NULL, 0, NULL);
    CHECK(t, r.visits == 0);
    mcts_free(m);
    game_free(g);
}

/* Under a deadline a root solve that cannot finish (the start's 60 empties) leaves half the time
 * to the search, which then has visits to choose its move by. */
static void test_root_solve_leaves_time(TestContext *t)
{
    Game *g = open_reversi(t);
    MctsConfig cfg;
    mcts_default_config(&cfg);
    cfg.root_solve_empties = 64;
    Mcts *m = mcts_new(g, NULL, &cfg);
    Position p;
    game_start(g, &p);
    mcts_set_position(m, &p);
    const double start = clock_seconds();
    const MctsResult r = mcts_search(m, &(MctsLimits){.seconds = 0.2}, NULL, NULL, 0, NULL);
    const double seconds = clock_seconds() - start;
    CHECK(t, !r.solved);
    if (!r.solved) {
        CHECK(t, r.best != MOVE_NONE);
        CHECK(t, r.visits >= 50);
        CHECK(t, seconds < 1.0);
    }
    mcts_free(m);
    game_free(g);
}

/* The table changes the work, never the score. */
static void test_table_sizes(TestContext *t)
{
    Game *g = open_reversi(t);
    const size_t sizes[] = {0, 24, 4096, (size_t)4 << 20};
    const int n = (int)(sizeof KNOWN / sizeof KNOWN[0]);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        Solver *s = solver_new(g, sizes[k]);
        CHECK(t, s != NULL);
        for (int i = 0; i < n; i++) {
            Position p;
            Error err;
            CHECK(t, game_parse_position(g, KNOWN[i].position, &p, &err));
            if (solve_empties(g, &p) > 14)
                continue;
            CHECK(t, solver_run(s, &p, SOLVE_EXACT, NULL).score == KNOWN[i].score);
        }
        solver_free(s);
    }
    game_free(g);
}

static void test_phalanx_games_have_none(TestContext *t)
{
    Error err;
    Game *g = game_new("epaminondas", 0, 0, &err);
    CHECK(t, g);
    if (g)
        CHECK(t, !solve_available(g));
    CHECK(t, solver_new(g, 0) == NULL);
    Position p;
    game_start(g, &p);
    CHECK(t, solve_empties(g, &p) == -1);
    game_free(g);
}

/* A random-game position with `empties` empties whose side to move wins (score > 0). */
static bool won_position(const Game *g, Solver *s, int empties, uint64_t seed, Position *out)
{
    Rng rng = rng_seed(seed, 0);
    for (int tries = 0; tries < 200; tries++) {
        game_start(g, out);
        while (game_status(g, out) == STATUS_ONGOING && solve_empties(g, out) > empties) {
            Move moves[MAX_MOVES];
            Undo undo;
            game_make(g, out, moves[rng_next(&rng) % (uint64_t)game_gen_moves(g, out, moves)], &undo);
        }
        if (game_status(g, out) == STATUS_ONGOING && solve_empties(g, out) == empties &&
            solver_run(s, out, SOLVE_WLD, NULL).score > 0)
            return true;
    }
    return false;
}

/* The search with its solvers: a won root within reach is solved at once and its move wins; a
 * root that a leaf solve proved (kept from the search before, no moves listed) is still
 * searched to a legal move. */
static void test_search_solves(TestContext *t)
{
    Game *g = open_reversi(t);
    Solver *s = solver_new(g, 1 << 20);
    MctsConfig cfg;
    mcts_default_config(&cfg);
    Position p;
    CHECK(t, won_position(g, s, 16, 3, &p));
    Mcts *m = mcts_new(g, NULL, &cfg);
    mcts_set_position(m, &p);
    MctsResult r = mcts_search(m, &(MctsLimits){.visits = 500}, NULL, NULL, 0, NULL);
    CHECK(t, r.solved);
    if (r.solved) {
        CHECK(t, r.proven == PROVEN_WIN);
        CHECK(t, r.visits == 0);
        CHECK(t, r.best != MOVE_NONE);
    }
    Position child = p;
    Undo undo;
    game_make(g, &child, r.best, &undo);
    CHECK(t, solver_run(s, &child, SOLVE_WLD, NULL).score < 0);
    /* 13 empties, root solving off: the children are solved leaves; then the lost child. */
    CHECK(t, won_position(g, s, 13, 5, &p));
    cfg.root_solve_empties = 0;
    mcts_free(m);
    m = mcts_new(g, NULL, &cfg);
    mcts_set_position(m, &p);
    r = mcts_search(m, &(MctsLimits){.visits = 300}, NULL, NULL, 0, NULL);
    CHECK(t, !r.solved);
    if (!r.solved) {
        CHECK(t, r.proven == PROVEN_WIN);
        CHECK(t, r.best != MOVE_NONE);
    }
    child = p;
    game_make(g, &child, r.best, &undo);
    mcts_set_position(m, &child);
    r = mcts_search(m, &(MctsLimits){.visits = 100}, NULL, NULL, 0, NULL);
    Move moves[MAX_MOVES];
    const int n = game_gen_moves(g, &child, moves);
    bool legal = false;
    for (int i = 0; i < n; i++)
        legal = legal || moves[i] == r.best;
    CHECK(t, legal);
    if (legal)
        CHECK(t, r.proven == PROVEN_LOSS);
    mcts_free(m);
    solver_free(s);
    game_free(g);
}

const TestCase solve_tests[] = {
    {"stored_endgames", test_stored_endgames},
    {"random_positions_against_reference", test_random_positions_against_reference},
    {"ffo_40", test_ffo_40},
    {"ffo_suite", test_ffo_suite},
    {"selective_levels", test_selective_levels},
    {"threads", test_threads},
    {"pass_and_finished", test_pass_and_finished},
    {"stop_flag", test_stop_flag},
    {"table_sizes", test_table_sizes},
    {"node_budget", test_node_budget},
    {"most_moves", test_most_moves},
    {"search_solves_within_limits", test_search_solves_within_limits},
    {"root_solve_leaves_time", test_root_solve_leaves_time},
    {"phalanx_games_have_none", test_phalanx_games_have_none},
    {"search_solves", test_search_solves},
    TEST_END,
};
