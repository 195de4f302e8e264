/*
 * cmd_solve.c - `leuctra solve`: the exact result of an endgame (core/solve.h): the score under
 * perfect play, a best move and the line that follows from it, or with --wld only who wins; with
 * --moves the score of every legal move.
 */
#include "cli.h"
#include "core/solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Beyond this many empties a solve without --time-limit is refused: at ~3x the time per empty
 * square, 30 already take hours and the 60 of the start would never end. */
enum { MAX_LINE = 64, MAX_UNLIMITED_EMPTIES = 30 };

typedef struct {
    const Game *game;
    Solver *solver;
    SolveMode mode;
    double deadline;        /* clock_seconds() when --time-limit runs out; 0: none */
    uint64_t nodes;
} SolveRun;

typedef struct {
    Move move;
    int score;              /* for the side to move at the root */
} MoveScore;

/* Solves p, counting nodes; exits 1 when the time limit stopped it. */
static SolveResult solve_or_fail(SolveRun *run, const Position *p)
{
    const double left = run->deadline > 0 ? run->deadline - clock_seconds() : 0;
    SolveResult r = {.stopped = true};
    if (run->deadline == 0 || left > 0)
        r = solver_run(run->solver, p, run->mode, &(SolveLimits){NULL, left, 0});
    run->nodes += r.nodes;
    if (r.stopped)
        fail_exit("solve", EXIT_FAILURE_RUN, "stopped by --time-limit before the position was solved");
    return r;
}

/* The principal line: each position's best move, re-solved one ply down (the table makes that
 * cheap: the root's search has seen every position of the line). */
static int principal_line(SolveRun *run, const Position *root, Move first, Move *line)
{
    Position p = *root;
    Move m = first;
    int n = 0;
    while (m != MOVE_NONE && n < MAX_LINE) {
        Undo undo;
        line[n++] = m;
        game_make(run->game, &p, m, &undo);
        m = solve_or_fail(run, &p).best;
    }
    return n;
}

static int score_moves(SolveRun *run, const Position *root, MoveScore *out)
{
    Move moves[MAX_MOVES];
    const int n = game_gen_moves(run->game, root, moves);
    for (int i = 0; i < n; i++) {
        Position child = *root;
        Undo undo;
        game_make(run->game, &child, moves[i], &undo);
        out[i] = (MoveScore){moves[i], -solve_or_fail(run, &child).score};
    }
    for (int i = 1; i < n; i++)     /* best first; ties keep the move order */
        for (int j = i; j > 0 && out[j].score > out[j - 1].score; j--) {
            MoveScore t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static const char *outcome_text(int score, int side)
{
    if (score == 0)
        return "draw";
    const bool white_wins = (score > 0) == (side == WHITE);
    return white_wins ? "white wins" : "black wins";
}

static void move_text(const Game *g, const Position *root, const Move *line, int n, int upto, char *out, size_t len)
{
    Position p = *root;
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && i < upto; i++) {
        char text[16];
        Undo undo;
        game_format_move(g, &p, line[i], text, sizeof text);
        used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s", i ? " " : "", text);
        game_make(g, &p, line[i], &undo);
    }
}

typedef struct {
    int empties, score, line_length, num_moves;
    Move best;
    Move line[MAX_LINE];
    MoveScore *moves;
    double seconds;
} SolveReport;

static void print_text(const SolveRun *run, const Position *root, const SolveReport *rep)
{
    const int side = game_side_to_move(run->game, root);
    char best[16] = "none", line[MAX_LINE * 8];
    if (rep->best != MOVE_NONE)
        game_format_move(run->game, root, rep->best, best, sizeof best);
    printf("empties   %d\n", rep->empties);
    if (run->mode == SOLVE_EXACT)
        printf("score     %+d for %s (%s)\n", rep->score, side == WHITE ? "white" : "black",
               outcome_text(rep->score, side));
    else
        printf("result    %s for %s (%s)\n", rep->score > 0 ? "win" : rep->score < 0 ? "loss" : "draw",
               side == WHITE ? "white" : "black", outcome_text(rep->score, side));
    printf("best      %s\n", best);
    if (rep->line_length) {
        move_text(run->game, root, rep->line, rep->line_length, rep->line_length, line, sizeof line);
        printf("line      %s\n", line);
    }
    for (int i = 0; i < rep->num_moves; i++) {
        char text[16];
        game_format_move(run->game, root, rep->moves[i].move, text, sizeof text);
        printf("move      %-5s %+d\n", text, rep->moves[i].score);
    }
    printf("nodes     %llu in %.3f s (%.1f million/s)\n", (unsigned long long)run->nodes, rep->seconds,
           (double)run->nodes / (rep->seconds > 0 ? rep->seconds : 1e-9) / 1e6);
}

static void print_json(const SolveRun *run, const Position *root, const SolveReport *rep)
{
    char best[16] = "";
    if (rep->best != MOVE_NONE)
        game_format_move(run->game, root, rep->best, best, sizeof best);
    printf("{\"empties\": %d, \"mode\": \"%s\", \"score\": %d, \"best\": ", rep->empties,
           run->mode == SOLVE_EXACT ? "exact" : "wld", rep->score);
    if (rep->best != MOVE_NONE)
        printf("\"%s\"", best);
    else
        printf("null");
    printf(", \"line\": [");
    Position p = *root;
    for (int i = 0; i < rep->line_length; i++) {
        char text[16];
        Undo undo;
        game_format_move(run->game, &p, rep->line[i], text, sizeof text);
        printf("%s\"%s\"", i ? ", " : "", text);
        game_make(run->game, &p, rep->line[i], &undo);
    }
    printf("], \"moves\": [");
    for (int i = 0; i < rep->num_moves; i++) {
        char text[16];
        game_format_move(run->game, root, rep->moves[i].move, text, sizeof text);
        printf("%s{\"move\": \"%s\", \"score\": %d}", i ? ", " : "", text, rep->moves[i].score);
    }
    printf("], \"nodes\": %llu, \"seconds\": %.6f}\n", (unsigned long long)run->nodes, rep->seconds);
}

typedef struct {
    GameOptions game;
    bool wld, all_moves, json;
    const char *hash_text, *time_text, *threads_text;
} SolveOptions;

static void read_options(int argc, char **argv, SolveOptions *o)
{
    ArgReader r = {argc, argv, 1, "solve", false};
    *o = (SolveOptions){.game = {.variant = "reversi"}, .hash_text = "64", .time_text = "0",
                      .threads_text = "1"};
    while (r.index < argc) {
        if (arg_game_option(&r, &o->game) || arg_value(&r, "--hash", &o->hash_text) ||
            arg_value(&r, "--time-limit", &o->time_text) || arg_value(&r, "--threads", &o->threads_text))
            continue;
        if (arg_flag(&r, "--wld"))
            o->wld = true;
        else if (arg_flag(&r, "--moves"))
            o->all_moves = true;
        else if (arg_flag(&r, "--json"))
            o->json = true;
        else
            arg_common(&r, &command_solve);
    }
}

static int run_solve(int argc, char **argv)
{
    SolveOptions o;
    read_options(argc, argv, &o);
    const long hash_mb = arg_integer("solve", "--hash", o.hash_text, 0, 1 << 16);
    const double time_limit = arg_real("solve", "--time-limit", o.time_text, 0, 1e9);
    const int threads = (int)arg_integer("solve", "--threads", o.threads_text, 1, THREADS_MAX);
    Position root;
    Game *g = cli_open_game("solve", &o.game, &root);
    if (!solve_available(g))
        fail_exit("solve", EXIT_USAGE, "%s has no exact solver (only reversi has one)", g->name);
    SolveRun run = {.game = g, .mode = o.wld ? SOLVE_WLD : SOLVE_EXACT};
    run.solver = solver_new_threads(g, (size_t)hash_mb << 20, threads);
    if (!run.solver)
        fail_exit("solve", EXIT_FAILURE_RUN, "out of memory for a %ld MiB table", hash_mb);
    SolveReport rep = {.empties = solve_empties(g, &root)};
    if (rep.empties > MAX_UNLIMITED_EMPTIES && time_limit == 0)
        fail_exit("solve", EXIT_USAGE, "%d empties is beyond an exact solve's reach (hours from %d on): "
                  "give --time-limit SECONDS, or a position with at most %d empties",
                  rep.empties, MAX_UNLIMITED_EMPTIES, MAX_UNLIMITED_EMPTIES);
    rep.moves = malloc(MAX_MOVES * sizeof *rep.moves);
    if (!rep.moves)
        fail_exit("solve", EXIT_FAILURE_RUN, "out of memory");
    const double start = clock_seconds();
    run.deadline = time_limit > 0 ? start + time_limit : 0;
    const SolveResult r = solve_or_fail(&run, &root);
    rep.score = r.score;
    rep.best = r.best;
    if (run.mode == SOLVE_EXACT)
        rep.line_length = principal_line(&run, &root, r.best, rep.line);
    if (o.all_moves && game_status(g, &root) == STATUS_ONGOING)
        rep.num_moves = score_moves(&run, &root, rep.moves);
    rep.seconds = clock_seconds() - start;
    if (o.json)
        print_json(&run, &root, &rep);
    else
        print_text(&run, &root, &rep);
    free(rep.moves);
    solver_free(run.solver);
    game_free(g);
    return 0;
}

const Command command_solve = {
    "solve", run_solve, "exact endgame score, best move and line (Reversi)",
    "usage: leuctra solve [--variant reversi] [--position POS] [--wld] [--moves] [--hash MB]\n"
    "                     [--time-limit S] [--threads N] [--json]\n\n"
    "Searches a Reversi position to the end of the game and prints its exact score for the side\n"
    "to move (final disc difference, empty squares to the winner, as in tournaments and the FFO\n"
    "test suite), a best move and the perfect-play line that follows.  Time grows about 3x per\n"
    "empty square: 20 empties take about a second, 24 about a minute.\n\n"
    "  --wld           only win, loss or draw (several times faster)\n"
    "  --moves         also the exact score of every legal move, best first\n"
    "  --hash MB       transposition table size (default 64; 0 for none)\n"
    "  --time-limit S  give up after S seconds (exit 1); required above 30 empties\n"
    "  --threads N     search with N threads sharing the table (default 1): the same score and\n"
    "                  best move, sooner\n"
    "  --json          one JSON object on stdout: empties, mode, score, best, line, moves, nodes, seconds\n"
    "  --variant V     reversi (the default here; the phalanx games have no solver)\n"
    "  --position POS  a position string, or 'start'\n\n"
    "example: leuctra solve --position 'W2WWWWB/1WWWWWWB/WWBBWWWB/WWBWWWBB/WWWWWWBB/3WWWWB/4W2B/8 b'\n"
    "         (FFO #40: score +38 for black, best a2)\n",
};
