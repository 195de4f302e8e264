/*
 * cmd_solve.c - `leuctra solve`: the exact result of an endgame (core/solve.h): the score under
 * perfect play, a best move and the line that follows from it, or with --wld only who wins; with
 * --moves the score of every legal move; with --selective (or --level) first the probable scores of
 * the selective levels, the most accurate one reached within --time-limit reported.
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
    int level;              /* the selectivity level being searched (solve.h) */
    double deadline;        /* clock_seconds() when --time-limit runs out; 0: none */
    uint64_t nodes;
} SolveRun;

typedef struct {
    Move move;
    int score;              /* for the side to move at the root */
} MoveScore;

/* Solves p at run->level, counting nodes; stopped when the time limit ran out first. */
static SolveResult solve_in_time(SolveRun *run, const Position *p)
{
    const double left = run->deadline > 0 ? run->deadline - clock_seconds() : 0;
    SolveResult r = {.stopped = true};
    if (run->deadline == 0 || left > 0)
        r = solver_run_selective(run->solver, p, run->mode, run->level, &(SolveLimits){NULL, left, 0});
    run->nodes += r.nodes;
    return r;
}

/* The same, exiting 1 when the time limit stopped it. */
static SolveResult solve_or_fail(SolveRun *run, const Position *p)
{
    const SolveResult r = solve_in_time(run, p);
    if (r.stopped)
        fail_exit("solve", EXIT_FAILURE_RUN, "stopped by --time-limit before the position was solved");
    return r;
}

/* The principal line: each position's best move, re-solved one ply down (the table makes that
 * cheap: the root's search has seen every position of the line).  It ends early when the time
 * limit runs out: the score and move are found, and the line only shows them. */
static int principal_line(SolveRun *run, const Position *root, Move first, Move *line)
{
    Position p = *root;
    Move m = first;
    int n = 0;
    while (m != MOVE_NONE && n < MAX_LINE) {
        Undo undo;
        line[n++] = m;
        game_make(run->game, &p, m, &undo);
        const SolveResult r = solve_in_time(run, &p);
        m = r.stopped ? MOVE_NONE : r.best;
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

/* One selectivity level's result, and the nodes and seconds of the search until it was found. */
typedef struct {
    int score;
    Move best;
    uint64_t nodes;
    double seconds;
} LevelResult;

typedef struct {
    int empties, score, line_length, num_moves;
    int level;              /* the level of the score: SOLVE_EXACT_LEVEL when proven */
    Move best;
    Move line[MAX_LINE];
    MoveScore *moves;
    LevelResult levels[SOLVE_EXACT_LEVEL + 1];
    int num_levels;         /* 0 without --selective or --level */
    double seconds;
} SolveReport;

static void format_best(const Game *g, const Position *root, Move best, char *out, size_t len)
{
    if (best == MOVE_NONE)
        snprintf(out, len, "none");
    else
        game_format_move(g, root, best, out, len);
}

/* A score as the text report words it: the disc difference, or with --wld the result. */
static const char *result_text(SolveMode mode, int score, char *out, size_t len)
{
    if (mode == SOLVE_EXACT)
        snprintf(out, len, "%+d", score);
    else
        snprintf(out, len, "%s", score > 0 ? "win" : score < 0 ? "loss" : "draw");
    return out;
}

static void print_text(const SolveRun *run, const Position *root, const SolveReport *rep)
{
    const int side = game_side_to_move(run->game, root);
    char best[16], line[MAX_LINE * 8], result[16], probable[64] = "";
    format_best(run->game, root, rep->best, best, sizeof best);
    if (rep->level < SOLVE_EXACT_LEVEL)
        snprintf(probable, sizeof probable, ", probable: selective level %d of %d", rep->level, SOLVE_EXACT_LEVEL);
    printf("empties   %d\n", rep->empties);
    printf("%s %s for %s (%s%s)\n", run->mode == SOLVE_EXACT ? "score    " : "result   ",
           result_text(run->mode, rep->score, result, sizeof result), side == WHITE ? "white" : "black",
           outcome_text(rep->score, side), probable);
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

static void print_json_move(const Game *g, const Position *root, Move m)
{
    char text[16];
    if (m == MOVE_NONE) {
        printf("null");
        return;
    }
    game_format_move(g, root, m, text, sizeof text);
    printf("\"%s\"", text);
}

static void print_json(const SolveRun *run, const Position *root, const SolveReport *rep)
{
    printf("{\"empties\": %d, \"mode\": \"%s\", \"score\": %d, \"level\": %d, \"probable\": %s, \"best\": ",
           rep->empties, run->mode == SOLVE_EXACT ? "exact" : "wld", rep->score, rep->level,
           rep->level < SOLVE_EXACT_LEVEL ? "true" : "false");
    print_json_move(run->game, root, rep->best);
    if (rep->num_levels) {
        printf(", \"levels\": [");
        for (int i = 0; i < rep->num_levels; i++) {
            const LevelResult *l = &rep->levels[i];
            printf("%s{\"level\": %d, \"score\": %d, \"best\": ", i ? ", " : "", i, l->score);
            print_json_move(run->game, root, l->best);
            printf(", \"nodes\": %llu, \"seconds\": %.6f}", (unsigned long long)l->nodes, l->seconds);
        }
        printf("]");
    }
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
    bool wld, all_moves, json, selective;
    const char *hash_text, *time_text, *threads_text, *level_text;
} SolveOptions;

static void read_options(int argc, char **argv, SolveOptions *o)
{
    ArgReader r = {argc, argv, 1, "solve", false};
    *o = (SolveOptions){.game = {.variant = "reversi"}, .hash_text = "64", .time_text = "0",
                      .threads_text = "1"};
    while (r.index < argc) {
        if (arg_game_option(&r, &o->game) || arg_value(&r, "--hash", &o->hash_text) ||
            arg_value(&r, "--time-limit", &o->time_text) || arg_value(&r, "--threads", &o->threads_text) ||
            arg_value(&r, "--level", &o->level_text))
            continue;
        if (arg_flag(&r, "--selective"))
            o->selective = true;
        else if (arg_flag(&r, "--wld"))
            o->wld = true;
        else if (arg_flag(&r, "--moves"))
            o->all_moves = true;
        else if (arg_flag(&r, "--json"))
            o->json = true;
        else
            arg_common(&r, &command_solve);
    }
}

/* Searches the root at selectivity levels 0 .. max_level in turn on one table (each level starts
 * from the best moves of the last), printing each result as it comes in the text report; the
 * report keeps the last level finished before the time limit.  Exits 1 when none finished. */
static void solve_levels(SolveRun *run, const Position *root, int max_level, bool json, SolveReport *rep,
                         double start)
{
    for (int level = 0; level <= max_level; level++) {
        run->level = level;
        const SolveResult r = solve_in_time(run, root);
        if (r.stopped)
            break;
        LevelResult *l = &rep->levels[rep->num_levels++];
        *l = (LevelResult){r.score, r.best, run->nodes, clock_seconds() - start};
        rep->level = level;
        rep->score = r.score;
        rep->best = r.best;
        if (!json) {
            char best[16], result[16];
            format_best(run->game, root, r.best, best, sizeof best);
            printf("level %d   %-5s best %-4s %12llu nodes %9.3f s%s\n", level,
                   result_text(run->mode, r.score, result, sizeof result), best,
                   (unsigned long long)l->nodes, l->seconds, level == SOLVE_EXACT_LEVEL ? "  (exact)" : "");
            fflush(stdout);
        }
    }
    if (!rep->num_levels)
        fail_exit("solve", EXIT_FAILURE_RUN, "stopped by --time-limit before selective level 0 was searched");
    run->level = rep->level;
}

static int run_solve(int argc, char **argv)
{
    SolveOptions o;
    read_options(argc, argv, &o);
    const long hash_mb = arg_integer("solve", "--hash", o.hash_text, 0, 1 << 16);
    const double time_limit = arg_real("solve", "--time-limit", o.time_text, 0, 1e9);
    const int threads = arg_threads("solve", "--threads", o.threads_text);
    const int max_level = o.level_text ? (int)arg_integer("solve", "--level", o.level_text, 0, SOLVE_EXACT_LEVEL)
                        : o.selective ? SOLVE_EXACT_LEVEL : -1;
    if (max_level >= 0 && o.all_moves)
        fail_exit("solve", EXIT_USAGE, "--moves scores every move exactly: not with --selective or --level");
    Position root;
    Game *g = cli_open_game("solve", &o.game, &root);
    if (!solve_available(g))
        fail_exit("solve", EXIT_USAGE, "%s has no exact solver (only reversi has one)", g->name);
    SolveRun run = {.game = g, .mode = o.wld ? SOLVE_WLD : SOLVE_EXACT, .level = SOLVE_EXACT_LEVEL};
    run.solver = solver_new_threads(g, (size_t)hash_mb << 20, threads);
    if (!run.solver)
        fail_exit("solve", EXIT_FAILURE_RUN, "out of memory for a %ld MiB table", hash_mb);
    SolveReport rep = {.empties = solve_empties(g, &root), .level = SOLVE_EXACT_LEVEL};
    const bool exact_search = max_level < 0 || max_level == SOLVE_EXACT_LEVEL;
    if (rep.empties > MAX_UNLIMITED_EMPTIES && time_limit == 0 && exact_search)
        fail_exit("solve", EXIT_USAGE, "%d empties is beyond an exact solve's reach (hours from %d on): "
                  "give --time-limit SECONDS, or --level %d or lower for a probable score, or a position "
                  "with at most %d empties", rep.empties, MAX_UNLIMITED_EMPTIES, SOLVE_EXACT_LEVEL - 1,
                  MAX_UNLIMITED_EMPTIES);
    rep.moves = malloc(MAX_MOVES * sizeof *rep.moves);
    if (!rep.moves)
        fail_exit("solve", EXIT_FAILURE_RUN, "out of memory");
    const double start = clock_seconds();
    run.deadline = time_limit > 0 ? start + time_limit : 0;
    if (max_level >= 0) {
        solve_levels(&run, &root, max_level, o.json, &rep, start);
    } else {
        const SolveResult r = solve_or_fail(&run, &root);
        rep.score = r.score;
        rep.best = r.best;
    }
    if (run.mode == SOLVE_EXACT)
        rep.line_length = principal_line(&run, &root, rep.best, rep.line);
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
    "                     [--selective | --level L] [--time-limit S] [--threads N] [--json]\n\n"
    "Searches a Reversi position to the end of the game and prints its exact score for the side\n"
    "to move (final disc difference, empty squares to the winner, as in tournaments and the FFO\n"
    "test suite), a best move and the perfect-play line that follows.  Time grows about 3x per\n"
    "empty square: 20 empties take about a second, 24 about a minute.\n\n"
    "Beyond that reach, --selective first searches at four selective levels (0-3), each trying\n"
    "only the first moves of the nodes far from the end, more at each level, and prints each\n"
    "level's probable score as it finishes, then the exact search (level 4); the report is the\n"
    "last level finished within --time-limit.  On FFO #40-#49 levels 0-3 came within 4.6, 3.0,\n"
    "1.8 and 0.2 discs of the exact score on average, in about a twentieth, a tenth, a fifth and\n"
    "two fifths of the exact search's time.\n\n"
    "  --wld           only win, loss or draw (several times faster)\n"
    "  --moves         also the exact score of every legal move, best first\n"
    "  --hash MB       transposition table size (default 64; 0 for none)\n"
    "  --time-limit S  give up after S seconds (exit 1; with --selective, report the last level\n"
    "                  finished, exit 1 only when none did); required above 30 empties unless\n"
    "                  --level is below 4\n"
    "  --selective     probable scores first, level by level, then the exact one\n"
    "  --level L       the same, stopping after level L (0-4; 4 is exact); not with --moves\n"
    "  --threads N     search with N threads sharing the table (default 1): the same score and\n"
    "                  best move, sooner\n"
    "  --json          one JSON object on stdout: empties, mode, score, level, probable, best,\n"
    "                  levels (with --selective or --level), line, moves, nodes, seconds\n"
    "  --variant V     reversi (the default here; the phalanx games have no solver)\n"
    "  --position POS  a position string, or 'start'\n\n"
    "example: leuctra solve --position 'W2WWWWB/1WWWWWWB/WWBBWWWB/WWBWWWBB/WWWWWWBB/3WWWWB/4W2B/8 b'\n"
    "         (FFO #40: score +38 for black, best a2)\n"
    "         leuctra solve --selective --time-limit 60 --position \\\n"
    "           '8/B1B5/1BBBBWWW/WWBWBB2/WWWBBBB1/WWBBBB2/W1WWWB2/3WW3 w'\n"
    "         (FFO #55, 29 empties: probable scores within the minute; exact takes about half an hour)\n",
};
