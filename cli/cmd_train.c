/*
 * cmd_train.c - `leuctra train DIR`: the training run as one job (training/train.h runs it).
 * This file reads the options, opens the game, and shows what the run says: its log lines on
 * stdout, the progress of its self-play and matches on a terminal, a failure as one line with
 * its exit status.
 */
#include "match_cli.h"
#include "search_cli.h"
#include "training/train.h"
#include "training/tune_run.h"

#include "core/network.h"
#include "core/pattern.h"
#include "core/threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const NAME = "train";

/* --- options ----------------------------------------------------------------------------------- */

typedef struct {
    TrainOptions run;
    GameOptions game;
    bool quiet;
} TrainArgs;

/* The options that take a number. */
static bool read_number(ArgReader *r, TrainOptions *o)
{
    const char *t;
    if (arg_value(r, "--generations", &t))
        o->generations = (int)arg_integer(NAME, "--generations", t, 1, TRAIN_MAX_GENERATIONS);
    else if (arg_value(r, "--hours", &t))
        o->hours = arg_real(NAME, "--hours", t, 0.001, 1e5);
    else if (arg_value(r, "--games", &t))
        o->games = arg_integer(NAME, "--games", t, 2, 100000000);
    else if (arg_value(r, "--visits", &t))
        o->visits = cli_search_visits(NAME, "--visits", t);
    else if (arg_value(r, "--window", &t))
        o->window = (int)arg_integer(NAME, "--window", t, 1, TRAIN_MAX_GENERATIONS);
    else if (arg_value(r, "--window-max", &t))
        o->window_max = (int)arg_integer(NAME, "--window-max", t, 1, TRAIN_MAX_GENERATIONS);
    else if (arg_value(r, "--gate-games", &t))
        o->gate_games = arg_integer(NAME, "--gate-games", t, 2, 1000000);
    else if (arg_value(r, "--gate-visits", &t))
        o->gate_visits = cli_search_visits(NAME, "--gate-visits", t);
    else if (arg_value(r, "--ladder-games", &t))
        o->ladder_games = arg_integer(NAME, "--ladder-games", t, 0, 1000000);
    else if (arg_value(r, "--ladder-visits", &t))
        o->ladder_visits = cli_search_visits(NAME, "--ladder-visits", t);
    else if (arg_value(r, "--make-openings", &t))
        o->make_openings = (int)arg_integer(NAME, "--make-openings", t, 1, 100000);
    else if (arg_value(r, "--seed", &t)) {
        SearchSetup read;
        search_setup_default(&read);
        cli_search_set(NAME, &read, "--seed", "seed", t);
        o->seed = read.mcts.seed;
    } else if (arg_value(r, "--threads", &t))
        o->threads = arg_threads(NAME, "--threads", t);
    else if (arg_value(r, "--lambda", &t))
        o->lambda = arg_real(NAME, "--lambda", t, 0, 1);
    else if (arg_value(r, "--l2-tables", &t))
        o->l2_tables = arg_real(NAME, "--l2-tables", t, 1e-9, 1e12);
    else if (arg_value(r, "--priors-generations", &t))
        o->priors_generations = (int)arg_integer(NAME, "--priors-generations", t, 1, 1000000);
    else if (arg_value(r, "--hidden", &t)) {
        o->hidden = (int)arg_integer(NAME, "--hidden", t, NETWORK_MIN_H, NETWORK_MAX_H);
        if (o->hidden % 16 != 0)
            fail_exit(NAME, EXIT_USAGE, "--hidden must be a multiple of 16, got %d", o->hidden);
    }
    else
        return false;
    return true;
}

static void read_options(int argc, char **argv, TrainArgs *a)
{
    TrainOptions *o = &a->run;
    ArgReader r = {argc, argv, 1, NAME, false};
    const char *t;
    while (r.index < argc) {
        if (arg_game_option(&r, &a->game) || arg_value(&r, "--start", &o->start) ||
            arg_value(&r, "--openings", &o->openings) || read_number(&r, o))
            continue;
        if (arg_flag(&r, "--sprt"))
            cli_match_read_sprt(&r, NAME, &o->sprt);
        else if (arg_flag(&r, "--linear-only"))
            o->linear_only = true;
        else if (arg_value(&r, "--model", &t)) {
            if (strcmp(t, "net") != 0 && strcmp(t, "tables") != 0)
                fail_exit(NAME, EXIT_USAGE, "--model must be tables or net, got '%s'", t);
            o->net = strcmp(t, "net") == 0;
        } else if (arg_value(&r, "--inputs", &t)) {
            if (!(o->inputs = training_tune_inputs_parse(t)))
                fail_exit(NAME, EXIT_USAGE, "--inputs must be patterns, squares or both, got '%s'", t);
        } else if (arg_value(&r, "--value-head", &t)) {
            if (!training_tune_value_head_parse(t, &o->value_head))
                fail_exit(NAME, EXIT_USAGE, "--value-head must be auto, keep or drop, got '%s'", t);
        }
        else if (arg_value(&r, "--shapes", &t)) {
            Error err;
            if (!pattern_families_parse(t, &o->shapes, &err))
                fail_exit(NAME, EXIT_USAGE, "--shapes: %s", err.msg);
        }
        else if (arg_flag(&r, "--resume"))
            o->resume = true;
        else if (arg_flag(&r, "--quiet") || arg_flag(&r, "-q"))
            a->quiet = true;
        else if (arg_operand(&r) && !o->dir)
            o->dir = argv[r.index++];
        else if (r.index < argc && (r.operands_only || argv[r.index][0] != '-'))
            fail_exit(NAME, EXIT_USAGE, "one DIR only, got '%s' too", argv[r.index]);
        else
            arg_common(&r, &command_train);
    }
    if (!o->dir || !*o->dir)
        fail_exit(NAME, EXIT_USAGE, "missing DIR, the run's folder (see leuctra train --help)");
    Error err;
    if (!training_check_options(o, &err))
        fail_with(NAME, &err);
}

/* --- what the run says ------------------------------------------------------------------------- */

/* The progress line on stderr: self-play's or a match's, rewritten in place. */
typedef struct {
    double last;                /* seconds into the self-play of the last line (-1: none yet) */
    bool shown;                 /* a self-play line is on the terminal */
    MatchProgressLine match;
} TrainProgress;

static void print_text(const char *text, void *ctx)
{
    (void)ctx;
    fputs(text, stdout);
    fflush(stdout);
}

static void selfplay_line(int generation, const SelfplayProgress *p, void *ctx)
{
    TrainProgress *line = ctx;
    if (p->played < p->to_play && p->seconds - line->last < 0.25)
        return;
    line->last = p->seconds;
    line->shown = true;
    double rate = p->seconds > 0 ? (double)p->played / p->seconds : 0;
    char eta[32];
    training_duration_text(rate > 0 ? (double)(p->to_play - p->played) / rate : 0, eta, sizeof eta);
    fprintf(stderr, "\rgen %d self-play: %llu/%llu games  %.2f games/s  mean %.0f plies  ETA %s   ", generation,
            (unsigned long long)(p->present + p->played), (unsigned long long)p->total, rate,
            p->played ? (double)p->plies / (double)p->played : 0.0, eta);
    fflush(stderr);
}

static void match_line(const MatchProgress *p, void *ctx)
{
    TrainProgress *line = ctx;
    cli_match_progress_line(p, &line->match);
}

static void progress_end(void *ctx)
{
    TrainProgress *line = ctx;
    if (line->shown)
        fputc('\n', stderr);
    cli_match_progress_end(&line->match);
    *line = (TrainProgress){.last = -1};
}

static int run_train(int argc, char **argv)
{
    TrainArgs a = {.quiet = false};
    training_defaults(&a.run);
    read_options(argc, argv, &a);
    MpiEnv env = mpi_env_start();
    Position start;
    Game *game = cli_open_game(NAME, &a.game, &start);
    /* live progress on a terminal; the log's lines on stdout unless --quiet */
    const bool tty = isatty(STDERR_FILENO) && !a.quiet;
    TrainProgress progress = {.last = -1};
    TrainOutput out = {.print = a.quiet ? NULL : print_text, .selfplay_progress = tty ? selfplay_line : NULL,
                       .match_progress = tty ? match_line : NULL, .progress_end = tty ? progress_end : NULL,
                       .note = cli_note_line, .ctx = &progress};
    Error err = {0};
    if (!training_run(&a.run, game, &start, &env, &out, &err)) {
        if (err.elsewhere)      /* another process failed, and says why */
            exit(fail_status(&err));
        fail_with(NAME, &err);
    }
    mpi_env_stop(&env);
    game_free(game);
    return 0;
}

const Command command_train = {
    "train", run_train, "the training loop as one job: self-play, fit, gate, ladder, generations",
    "usage: leuctra train DIR (--generations N | --hours H) [--resume] [--variant V] [--size WxH]\n"
    "                     [--start zero|shipped|FILE] [--games N] [--visits N] [--window K]\n"
    "                     [--window-max M] [--gate-games N] [--gate-visits N]\n"
    "                     [--sprt elo0=X elo1=Y ...] [--ladder-games N] [--ladder-visits N]\n"
    "                     [--openings FILE] [--make-openings N] [--linear-only | --shapes LIST]\n"
    "                     [--lambda X] [--l2-tables X] [--priors-generations N]\n"
    "                     [--model net [--hidden H] [--inputs patterns|squares|both]\n"
    "                     [--value-head auto|keep|drop]] [--seed S]\n"
    "                     [--threads T] [--quiet]\n\n"
    "Runs generations of the training loop in DIR until the budget is spent: each generation\n"
    "plays --games self-play games of the best weights so far at --visits, fits a new model to\n"
    "the games of the last --window generations and of every earlier one the best played, up\n"
    "to --window-max (the linear weights, the pattern tables and the learned move priors: tune\n"
    "--tables --priors; --linear-only fits the linear weights alone), and plays the candidate\n"
    "against the best under an SPRT of at most --gate-games games at --gate-visits from an\n"
    "opening suite (each game pair its own opening); accepting H1 promotes it, and so does a\n"
    "test still undecided at the game cap whose likelihood of superiority is 95% or more (H0\n"
    "rejects).  Every promoted generation then plays --ladder-games games against each fixed\n"
    "anchor, gen0 and the shipped weights, and DIR/ladder.txt lists its Elo against each with\n"
    "the 95% interval; DIR/ratings.svg and DIR/training.svg chart the run.  docs/TRAINING.md\n"
    "has the layout of DIR and a walk through a run.\n\n"
    "Stopped at any moment (Ctrl-C, kill -9, a crash), the same command with --resume goes on\n"
    "from the step that was running, and redoes nothing that finished; every step is\n"
    "deterministic, so DIR ends byte for byte as an uninterrupted run leaves it (--hours aside:\n"
    "a time budget depends on the machine).  A resumed run must have the settings it was\n"
    "started with (the budget and --threads may change).  A new run begins in a new or empty\n"
    "DIR: a folder holding other files is refused, since a step whose file is there is done.\n\n"
    "  --generations N       generations at most, the ones already finished included\n"
    "  --hours H             no generation begins after H hours of the run (all its resumptions)\n"
    "  --resume              continue DIR's run (in a new or empty DIR: begin it)\n"
    "  --start S             gen0: zero (all-zero linear weights, an engine that knows nothing),\n"
    "                        shipped (default), or a weights file\n"
    "  --games N             self-play games a generation (default 2000)\n"
    "  --visits N            self-play visits a move (default 400)\n"
    "  --window K            the fit reads the self-play of the last K generations (default 3)\n"
    "  --window-max M        and of every earlier generation that the best so far played, up to\n"
    "                        M generations in all (default 20, at least K; M = K: a fixed window):\n"
    "                        while the best stays, its games pile up and the fit sees more\n"
    "                        of them (and holds them in memory: docs/TRAINING.md)\n"
    "  --gate-games N        the gate's games at most (default 400), in pairs\n"
    "  --gate-visits N       the gate's visits a move (default 400)\n"
    "  --sprt ...            the gate's test, as match --sprt (default elo0=0 elo1=10\n"
    "                        alpha=0.05 beta=0.05, normalized Elo)\n"
    "  --ladder-games N      games against each anchor (default 100; 0: no ladder)\n"
    "  --ladder-visits N     the ladder's visits a move (default 400)\n"
    "  --openings FILE       the suite (default: --make-openings N balanced openings, 1000, made\n"
    "                        for the run and kept in DIR/openings.txt)\n"
    "  --linear-only         fit the linear weights alone\n"
    "  --shapes LIST         the pattern tables' shape families, as tune --shapes (base, 2x4,\n"
    "                        4x2, 3x3, all; default: the start's, else base)\n"
    "  --lambda X            the game result's share of the fit's targets, the rest the search's\n"
    "                        root value, as tune --lambda (default 0.5: on Epaminondas 60-100\n"
    "                        Elo stronger than the result alone, docs/TRAINING.md; runs begun\n"
    "                        before it was the default name no lambda: resume them with 1)\n"
    "  --l2-tables X         the fit's penalty on each table entry, as tune --l2-tables (default\n"
    "                        100); the 2-D families on 14x12 want 1000 or more (docs/TRAINING.md)\n"
    "  --priors-generations N  the learned priors are refitted by the fits of generations 1-N\n"
    "                        only; later candidates keep the best's (default: every fit)\n"
    "  --model net           fit a network on top of the start weights instead (tune --model net,\n"
    "                        docs/NETWORK.md): the start's linear weights, tables and priors stay\n"
    "                        as they are, its skip path, and each fit goes on from the best's\n"
    "                        network (the first from zero)\n"
    "  --hidden H            --model net: the network's width, as tune --hidden (default 64)\n"
    "  --inputs SET          --model net: patterns, squares or both, as tune --inputs (default:\n"
    "                        each measured by the first fit, the best kept, and then the best's)\n"
    "  --value-head WHAT     --model net: auto, keep or drop, as tune --value-head (default auto)\n"
    "  --seed S              the run's seed (default 1): generation K's self-play and gate use S+K\n"
    "  --threads T           games at once (default: every core)\n"
    "  --quiet, -q           no progress lines (DIR/train.log has every step anyway)\n"
    "  --variant, --size     the game and board (default Epaminondas 14x12)\n\n"
    "On a terminal each step shows its progress (games, rate, ETA); a line per step goes to\n"
    "stdout and DIR/train.log.  Under mpirun (a build made with `make MPI=1`) every step spreads\n"
    "over the processes as `selfplay`, `tune` and `match` spread theirs, and the folder ends as\n"
    "one process leaves it, byte for byte but for the timings (docs/TRAINING.md).\n\n"
    "example: leuctra train run1 --variant crossings --start zero --generations 8 --games 3000\n"
    "         leuctra train run1 --variant crossings --start zero --generations 12 --resume\n",
};
