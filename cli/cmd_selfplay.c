/*
 * cmd_selfplay.c - `leuctra selfplay`: reads the options, loads the weights, writes the settings
 * text, runs selfplay/selfplay.h, shows a live progress line on a terminal and a summary at the
 * end.  Bad options exit 2 with one line; a file that this run may not write (exists without
 * --resume, other settings or board) exits 2; failures while playing or writing exit 1.
 */
#include "cli.h"
#include "data/mpi_env.h"
#include "data/weights.h"
#include "records_cli.h"
#include "search_cli.h"
#include "selfplay/selfplay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const NAME = "selfplay";

typedef struct {
    GameOptions game;
    const char *out, *weights_path;
    long games;
    int threads;
    bool resume, quiet;
    /* The options as given, to fill in the config once the game (board size) is known. */
    const char *visits, *seed, *temperature, *temperature_plies, *noise, *noise_alpha, *cpuct, *random_opening,
        *max_plies;
    bool no_repetition;
} SelfplayOptions;

/* --- options ----------------------------------------------------------------------------------- */

/* One option into *o; false when argv[r->index] is none of selfplay's own. */
static bool read_option(ArgReader *r, SelfplayOptions *o)
{
    const char *text;
    if (arg_game_option(r, &o->game) || arg_value(r, "--out", &o->out) || arg_value(r, "-o", &o->out) ||
        arg_value(r, "--weights", &o->weights_path) || arg_value(r, "--visits", &o->visits) ||
        arg_value(r, "--seed", &o->seed) || arg_value(r, "--temperature", &o->temperature) ||
        arg_value(r, "--temperature-plies", &o->temperature_plies) || arg_value(r, "--noise", &o->noise) ||
        arg_value(r, "--noise-alpha", &o->noise_alpha) || arg_value(r, "--cpuct", &o->cpuct) ||
        arg_value(r, "--random-opening", &o->random_opening) || arg_value(r, "--max-plies", &o->max_plies))
        return true;
    if (arg_value(r, "--games", &text))
        o->games = arg_integer(NAME, "--games", text, 1, 100000000);
    else if (arg_value(r, "--threads", &text))
        o->threads = arg_threads(NAME, "--threads", text);
    else if (arg_flag(r, "--no-repetition"))
        o->no_repetition = true;
    else if (arg_flag(r, "--resume"))
        o->resume = true;
    else if (arg_flag(r, "--quiet") || arg_flag(r, "-q"))
        o->quiet = true;
    else
        return false;
    return true;
}

/* The run's settings from the options; defaults where none was given. */
static void make_config(const Game *g, const SelfplayOptions *o, SelfplayConfig *cfg)
{
    selfplay_default_config(g, cfg);
    SearchSetup read;      /* the search's numbers, read as every search option is */
    search_setup_default(&read);
    if (o->visits) {
        cli_search_set(NAME, &read, "--visits", "visits", o->visits);
        cfg->visits = read.limits.visits;
    }
    if (o->seed) {
        cli_search_set(NAME, &read, "--seed", "seed", o->seed);
        cfg->seed = read.mcts.seed;
    }
    if (o->temperature)
        cfg->temperature = arg_real(NAME, "--temperature", o->temperature, 0, 100);
    if (o->temperature_plies)
        cfg->temperature_plies = (int)arg_integer(NAME, "--temperature-plies", o->temperature_plies, 0, 100000);
    if (o->noise)
        cfg->noise = arg_real(NAME, "--noise", o->noise, 0, 1);
    if (o->noise_alpha)
        cfg->noise_alpha = arg_real(NAME, "--noise-alpha", o->noise_alpha, 0.001, 100);
    if (o->cpuct) {
        cli_search_set(NAME, &read, "--cpuct", "cpuct", o->cpuct);
        cfg->c_puct = read.mcts.c_puct;
    }
    if (o->random_opening)
        cfg->random_opening = (int)arg_integer(NAME, "--random-opening", o->random_opening, 0, 100000);
    if (o->max_plies)
        cfg->draw.max_plies = (int)arg_integer(NAME, "--max-plies", o->max_plies, 0, 100000);
    cfg->draw.repetition = !o->no_repetition;
}

/* --- the command line in the settings ---------------------------------------------------------- */

/* Options that do not change the games: where they go, how many, how fast, how loud.  Left out
 * of the recorded command line, so that a resumed, extended or differently threaded run writes
 * the same header as a plain one. */
static int run_option_arity(const char *arg)
{
    static const char *const with_value[] = {"--out", "-o", "--games", "--threads"};
    static const char *const flags[] = {"--resume", "--quiet", "-q"};
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; i++) {
        size_t n = strlen(with_value[i]);
        if (strncmp(arg, with_value[i], n) == 0 && (arg[n] == '\0' || arg[n] == '='))
            return arg[n] == '=' ? 1 : 2;
    }
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(arg, flags[i]) == 0)
            return 1;
    return 0;
}

/* Appends one argument, single-quoted when the shell would split or expand it. */
static void append_word(char *buf, size_t len, const char *word)
{
    size_t used = strlen(buf);
    bool plain = *word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@") ==
                              strlen(word);
    snprintf(buf + used, len - used, plain ? " %s" : " '%s'", word);
}

/* "leuctra selfplay" and the arguments that decide the games, as given. */
static char *recorded_command_line(int argc, char **argv)
{
    size_t len = 32;
    for (int i = 1; i < argc; i++)
        len += strlen(argv[i]) + 3;
    char *line = malloc(len);
    if (!line)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    snprintf(line, len, "leuctra selfplay");
    for (int i = 1; i < argc;) {
        int skip = run_option_arity(argv[i]);
        if (skip) {
            i += skip;
            continue;
        }
        append_word(line, len, argv[i++]);
    }
    for (char *c = line; *c; c++)     /* one settings line, whatever the arguments held */
        if ((unsigned char)*c < 32 || *c == 127)
            *c = '?';
    return line;
}

/* --- progress and summary ---------------------------------------------------------------------- */

typedef struct {
    double last_print;      /* seconds into the run of the last line */
    double every;           /* seconds between lines */
    uint64_t shown;         /* the games done that the last line showed (one line per count) */
    bool tty;               /* rewrite one line in place; else a line each time (a log file) */
} ProgressLine;

/* Under mpirun nothing is a terminal (mpirun forwards the output), and a batch job's stderr is a
 * log file: rank 0 then writes a whole progress line this often. */
static const double LOG_PROGRESS_SECONDS = 30;

static void format_duration(double seconds, char *buf, size_t len)
{
    if (seconds < 0 || !isfinite(seconds))
        seconds = 0;
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(buf, len, "%.1fs", seconds);
}

/* The live line, at most every quarter second (and for the last game). */
static void show_progress(const SelfplayProgress *p, void *ctx)
{
    ProgressLine *line = ctx;
    uint64_t done = p->present + p->played;
    if ((p->played < p->to_play && p->seconds - line->last_print < line->every) || (done == line->shown && done))
        return;
    line->shown = done;
    line->last_print = p->seconds;
    double rate = p->seconds > 0 ? (double)p->played / p->seconds : 0;
    char eta[32];
    format_duration(rate > 0 ? (double)(p->to_play - p->played) / rate : 0, eta, sizeof eta);
    fprintf(stderr, "%s%llu/%llu games  %.2f games/s  white %llu  black %llu  draws %llu  mean %.1f plies  ETA %s%s",
            line->tty ? "\r" : "", (unsigned long long)done, (unsigned long long)p->total, rate,
            (unsigned long long)p->results[0], (unsigned long long)p->results[1], (unsigned long long)p->results[2],
            p->played ? (double)p->plies / (double)p->played : 0.0, eta, line->tty ? "   " : "\n");
    fflush(stderr);
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_summary(const char *path, const SelfplayProgress *p, int ranks)
{
    if (ranks > 1)
        printf("%d processes (mpirun), one shard each, merged into %s\n", ranks, path);
    printf("%s: %llu games (%llu played now, %llu were there)\n", path, (unsigned long long)(p->present + p->played),
           (unsigned long long)p->played, (unsigned long long)p->present);
    if (p->beyond > 0)
        printf("the file also holds %llu games of indices past %llu (from a run with more --games)\n",
               (unsigned long long)p->beyond, (unsigned long long)(p->total - 1));
    if (p->removed_bytes > 0 && ranks > 1)
        printf("resume removed %llu bytes of partial last chunks from the shards (stopped runs' last writes)\n",
               (unsigned long long)p->removed_bytes);
    else if (p->removed_bytes > 0)
        printf("resume removed %llu bytes of a partial last chunk at offset %llu (a stopped run's last write)\n",
               (unsigned long long)p->removed_bytes, (unsigned long long)p->removed_at);
    if (p->stale_temps > 0)
        printf("resume removed %llu temporary file%s (%s.tmp.*) that a stopped run's rewrite left\n",
               (unsigned long long)p->stale_temps, p->stale_temps == 1 ? "" : "s", path);
    if (p->played == 0)
        return;
    printf("results: white %llu (%.1f%%), black %llu (%.1f%%), draws %llu (%.1f%%: %llu ply limit, %llu repetition)\n",
           (unsigned long long)p->results[0], percent(p->results[0], p->played), (unsigned long long)p->results[1],
           percent(p->results[1], p->played), (unsigned long long)p->results[2], percent(p->results[2], p->played),
           (unsigned long long)p->ends[RECORD_END_PLY_LIMIT], (unsigned long long)p->ends[RECORD_END_REPETITION]);
    char took[32];
    format_duration(p->seconds, took, sizeof took);
    printf("mean length %.1f plies, %llu positions, %s, %.0f games/hour\n", (double)p->plies / (double)p->played,
           (unsigned long long)p->plies, took, p->seconds > 0 ? 3600.0 * (double)p->played / p->seconds : 0.0);
}

/* --- the command ------------------------------------------------------------------------------- */

static void load_weights(const Game *g, const char *path, Weights *w)
{
    Error err;
    if (!search_load_evaluation(g, path, w, &err))
        fail_with(NAME, &err);
}

static void parse_options(int argc, char **argv, SelfplayOptions *o)
{
    ArgReader r = {argc, argv, 1, NAME, false};
    while (r.index < argc)
        if (!read_option(&r, o))
            arg_common(&r, &command_selfplay);
    if (o->games == 0)
        fail_exit(NAME, EXIT_USAGE, "--games N is required (see leuctra selfplay --help)");
    if (!o->out || !*o->out)
        fail_exit(NAME, EXIT_USAGE, "--out FILE is required (see leuctra selfplay --help)");
    if (o->weights_path)
        cli_files_distinct(NAME, (FileRole[]){{"--out", o->out, true, false}, {"--weights", o->weights_path, false, false}},
                           2);
}

/* The end on every rank: the failing rank's message (and rank 0's word on it) while MPI still runs,
 * since once a rank has exited non-zero mpirun may kill the others before they print; then MPI
 * stopped (a rank that exits without it makes mpirun abort the others), the exit, or rank 0's
 * summary. */
static void finish(MpiEnv *env, const SelfplayOptions *o, const SelfplayProgress *done, bool ok, bool all_ok,
                   const Error *err)
{
    int rank = env->rank, ranks = env->size;
    if (!ok)
        fail_say(NAME, err);
    else if (!all_ok && rank == 0) {
        Error others = {.failure = true};
        snprintf(others.msg, sizeof others.msg, "another process failed (its message is above); the finished games "
                 "are in %s.rank*-of-%d: run the same command with --resume", o->out, ranks);
        fail_say(NAME, &others);
    }
    mpi_env_stop(env);
    if (!ok)
        exit(fail_status(err));
    if (!all_ok)
        exit(EXIT_FAILURE_RUN);
    if (!o->quiet && rank == 0)
        print_summary(o->out, done, ranks);
}

static int run_selfplay(int argc, char **argv)
{
    SelfplayOptions o = {.threads = threads_default()};
    parse_options(argc, argv, &o);
    Position start;
    Game *g = cli_open_game(NAME, &o.game, &start);
    SelfplayConfig cfg;
    make_config(g, &o, &cfg);
    Weights weights;
    load_weights(g, o.weights_path, &weights);
    Error path_err;
    if (!records_path_check(o.out, &path_err))
        fail_with(NAME, &path_err);
    if (!o.resume && access(o.out, F_OK) == 0)
        fail_exit(NAME, EXIT_USAGE, "%s already exists (--resume completes it; or choose another name)", o.out);
    char *command_line = recorded_command_line(argc, argv);
    char *settings = selfplay_settings_text(g, &start, &weights, &cfg, command_line);
    if (!settings)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    MpiEnv env = mpi_env_start();
    bool tty = isatty(STDERR_FILENO);
    ProgressLine line = {0, tty ? 0.25 : LOG_PROGRESS_SECONDS, 0, tty};
    bool live = !o.quiet && (tty || env.size > 1);
    SelfplayRun run = {.game = g, .start = &start, .weights = &weights, .config = &cfg, .settings = settings,
                       .path = o.out, .games = (uint64_t)o.games, .threads = o.threads, .resume = o.resume,
                       .progress = live ? show_progress : NULL, .progress_ctx = &line};
    SelfplayProgress done;
    Error err = {0};
    bool all_ok, ok = selfplay_mpi_run(&env, &run, &done, &all_ok, &err);
    if (live && tty && done.played > 0 && env.rank == 0)
        fputc('\n', stderr);
    finish(&env, &o, &done, ok, all_ok, &err);
    free(settings);
    free(command_line);
    weights_dispose(&weights);
    game_free(g);
    return 0;
}

const Command command_selfplay = {
    "selfplay", run_selfplay, "play the engine against itself; write the games as records",
    "usage: leuctra selfplay --games N --out FILE [--threads T] [--visits V] [--seed S]\n"
    "                        [--weights FILE] [--variant V] [--size WxH] [--position POS]\n"
    "                        [--temperature T] [--temperature-plies K] [--noise F] [--noise-alpha A]\n"
    "                        [--cpuct C] [--random-opening N] [--max-plies N] [--no-repetition]\n"
    "                        [--resume] [--quiet]\n\n"
    "Plays N games of the engine (MCTS with the evaluation weights) against itself and writes\n"
    "them to FILE as game records (docs/FORMAT.md): the moves, the result and how the game ended,\n"
    "its seed and start, and for every move the search's root value and visit counts.  Games run\n"
    "one per thread, each with a one-thread search; game i is played from a seed made of --seed\n"
    "and i, so the same options give the same file, byte for byte, whatever --threads is.\n\n"
    "Each game is on disk when it finishes; a run that is stopped (Ctrl-C, kill, crash) is\n"
    "completed by the same command with --resume, which plays only the games the file lacks\n"
    "(and can raise --games to extend a finished file).  At the end the file is sorted by game\n"
    "index, through a temporary file that Ctrl-C or kill removes and --resume removes when a\n"
    "SIGKILL left it.  An existing FILE is never overwritten.\n\n"
    "  --games N               games in the file, indices 0 .. N-1 (required)\n"
    "  --out FILE, -o FILE     the records file (required)\n"
    "  --threads T             games played at once (default: every core, or\n"
    "                          OMP_NUM_THREADS; at most 1024)\n"
    "  --visits V              search visits per move (default 800)\n"
    "  --seed S                the run seed (default 1)\n"
    "  --weights FILE          evaluation weights (default: the shipped ones)\n"
    "  --variant, --size, --position   the game and start (default Epaminondas 14x12)\n"
    "  --temperature T         for the first K plies, play a move with probability proportional\n"
    "                          to visits^(1/T) (default 1; 0: the most visited)\n"
    "  --temperature-plies K   (default 20 on 14x12, scaled by the board's area: 8 on 8x8)\n"
    "  --noise F               fraction of Dirichlet noise in the root priors (default 0.25; 0 off)\n"
    "  --noise-alpha A         its Dirichlet alpha (default 0.3)\n"
    "  --cpuct C               the search's exploration constant (default 1.5, with learned priors\n"
    "                          too: self-play explores more than play's 1.0, docs/ENGINE.md)\n"
    "  --random-opening N      first play N uniformly random plies, recorded without search\n"
    "  --max-plies N           adjudicate a draw after N plies (default 600; 0: none)\n"
    "  --no-repetition         no draw on the third occurrence of a position\n"
    "  --resume                complete FILE (created if missing); its settings must be this run's\n"
    "  --quiet, -q             no progress line, no summary\n\n"
    "On a terminal a progress line shows games done, games/s, results, mean length and ETA; a\n"
    "summary follows on stdout.  `leuctra records info FILE` shows the settings recorded.\n\n"
    "Under mpirun (a build made with `make MPI=1`; docs/CLUSTER.md) R processes split the games:\n"
    "process r plays the games i with i % R == r, --threads at a time, into its own shard\n"
    "FILE.rank<r>-of-<R>; process 0 prints a progress line for the whole run every 30 s, and\n"
    "at the end merges the shards into FILE, the same bytes one process writes.  After a stop,\n"
    "the same command with --resume (and as many processes) completes every shard.\n\n"
    "example: leuctra selfplay --games 1000 --visits 400 --out run1.lrec\n"
    "         leuctra selfplay --games 1000 --visits 400 --out run1.lrec --resume   (after a stop)\n"
    "         mpirun -np 4 build-mpi/leuctra selfplay --games 1000 --threads 8 --out run1.lrec\n",
};
