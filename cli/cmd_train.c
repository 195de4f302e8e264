/*
 * cmd_train.c - `leuctra train DIR`: the training run as one job (train_cli.h).  Generations
 * until a budget: self-play of the best weights so far, a fit of the whole model on a window of
 * recent games, an SPRT gate against the best, promotion, and a ladder of the promoted
 * generations against fixed anchors.  This file reads the options, makes or checks the folder
 * (a resumed run must have the settings it was started with), and runs the generations.
 */
#include "match_cli.h"
#include "training/train_run.h"

#include "core/pattern.h"
#include "core/threads.h"
#include "data/output_file.h"
#include "data/weights.h"
#include "eval/match.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const NAME = "train";

#ifndef LEUCTRA_VERSION
#define LEUCTRA_VERSION "unknown"
#endif

/* --- options ----------------------------------------------------------------------------------- */

static void read_options(int argc, char **argv, TrainOptions *o)
{
    ArgReader r = {argc, argv, 1, NAME, false};
    const char *t;
    while (r.index < argc) {
        if (arg_game_option(&r, &o->game) || arg_value(&r, "--start", &o->start) ||
            arg_value(&r, "--openings", &o->openings))
            continue;
        if (arg_value(&r, "--generations", &t))
            o->generations = (int)arg_integer(NAME, "--generations", t, 1, TRAIN_MAX_GENERATIONS);
        else if (arg_value(&r, "--hours", &t))
            o->hours = arg_real(NAME, "--hours", t, 0.001, 1e5);
        else if (arg_value(&r, "--games", &t))
            o->games = arg_integer(NAME, "--games", t, 2, 100000000);
        else if (arg_value(&r, "--visits", &t))
            o->visits = arg_integer(NAME, "--visits", t, 1, 100000000);
        else if (arg_value(&r, "--window", &t))
            o->window = (int)arg_integer(NAME, "--window", t, 1, TRAIN_MAX_GENERATIONS);
        else if (arg_value(&r, "--window-max", &t))
            o->window_max = (int)arg_integer(NAME, "--window-max", t, 1, TRAIN_MAX_GENERATIONS);
        else if (arg_value(&r, "--gate-games", &t))
            o->gate_games = arg_integer(NAME, "--gate-games", t, 2, 1000000);
        else if (arg_value(&r, "--gate-visits", &t))
            o->gate_visits = arg_integer(NAME, "--gate-visits", t, 1, 100000000);
        else if (arg_flag(&r, "--sprt"))
            match_read_sprt(&r, NAME, &o->sprt);
        else if (arg_value(&r, "--ladder-games", &t))
            o->ladder_games = arg_integer(NAME, "--ladder-games", t, 0, 1000000);
        else if (arg_value(&r, "--ladder-visits", &t))
            o->ladder_visits = arg_integer(NAME, "--ladder-visits", t, 1, 100000000);
        else if (arg_value(&r, "--make-openings", &t))
            o->make_openings = (int)arg_integer(NAME, "--make-openings", t, 1, 100000);
        else if (arg_value(&r, "--seed", &t))
            o->seed = (uint64_t)arg_integer(NAME, "--seed", t, 0, 0x7fffffffffffffffL);
        else if (arg_value(&r, "--threads", &t))
            o->threads = arg_threads(NAME, "--threads", t);
        else if (arg_flag(&r, "--linear-only"))
            o->linear_only = true;
        else if (arg_value(&r, "--lambda", &t))
            o->lambda = arg_real(NAME, "--lambda", t, 0, 1);
        else if (arg_value(&r, "--l2-tables", &t))
            o->l2_tables = arg_real(NAME, "--l2-tables", t, 1e-9, 1e12);
        else if (arg_value(&r, "--priors-generations", &t))
            o->priors_generations = (int)arg_integer(NAME, "--priors-generations", t, 1, 1000000);
        else if (arg_value(&r, "--shapes", &t)) {
            Error err;
            if (!pattern_families_parse(t, &o->shapes, &err))
                fail_exit(NAME, EXIT_USAGE, "--shapes: %s", err.msg);
        }
        else if (arg_flag(&r, "--resume"))
            o->resume = true;
        else if (arg_flag(&r, "--quiet") || arg_flag(&r, "-q"))
            o->quiet = true;
        else if (arg_operand(&r) && !o->dir)
            o->dir = argv[r.index++];
        else if (r.index < argc && (r.operands_only || argv[r.index][0] != '-'))
            fail_exit(NAME, EXIT_USAGE, "one DIR only, got '%s' too", argv[r.index]);
        else
            arg_common(&r, &command_train);
    }
    if (!o->dir || !*o->dir)
        fail_exit(NAME, EXIT_USAGE, "missing DIR, the run's folder (see leuctra train --help)");
    if (o->linear_only && (o->shapes || o->l2_tables || o->priors_generations))
        fail_exit(NAME, EXIT_USAGE, "--linear-only fits no tables or priors: it takes no %s",
                  o->shapes ? "--shapes" : o->l2_tables ? "--l2-tables" : "--priors-generations");
    if (o->window_max && o->window_max < o->window)
        fail_exit(NAME, EXIT_USAGE, "--window-max %d is less than --window %d", o->window_max, o->window);
    if (!o->window_max)
        o->window_max = o->window > TRAIN_WINDOW_MAX ? o->window : TRAIN_WINDOW_MAX;
    if (!o->generations && !o->hours)
        fail_exit(NAME, EXIT_USAGE, "no budget: give --generations N or --hours H (or both)");
    if (strlen(o->dir) > TRAIN_PATH - 64)
        fail_exit(NAME, EXIT_USAGE, "DIR is longer than %d bytes", TRAIN_PATH - 64);
    const char *sprt_problem = sprt_invalid(&o->sprt);
    if (sprt_problem)
        fail_exit(NAME, EXIT_USAGE, "--sprt: %s", sprt_problem);
}

/* --- the folder -------------------------------------------------------------------------------- */

/* The settings that decide what the run makes, one key=value a line in a fixed order. */
static void settings_text(const TrainRun *run, const char *start_id, char *buf, size_t len)
{
    const TrainOptions *o = run->o;
    const Game *g = run->game;
    char fit[160] = "whole";    /* folders from before --shapes have no shapes on this line */
    char window[64];            /* and those from before --window-max a fixed window */
    if (o->window_max > o->window)
        snprintf(window, sizeof window, "%d widened to %d over the best's games", o->window, o->window_max);
    else
        snprintf(window, sizeof window, "%d", o->window);
    if (o->linear_only)
        snprintf(fit, sizeof fit, "linear");
    else if (o->shapes)
        pattern_families_format(o->shapes, fit + snprintf(fit, sizeof fit, "whole shapes "), sizeof fit - 13);
    train_fit_numbers(o, "", fit, sizeof fit);
    snprintf(buf, len,
             "generator=leuctra train %s\nvariant=%s\nsize=%dx%d\nstart=%s\nstart_weights=%s\ngames=%ld\nvisits=%ld\n"
             "window=%s\nfit=%s\ngate_games=%ld\ngate_visits=%ld\nsprt=elo0 %g elo1 %g alpha %g beta %g %s\n"
             "ladder_games=%ld\nladder_visits=%ld\nopenings=%s\nmake_openings=%d\nseed=%llu\n",
             LEUCTRA_VERSION, g->name, g->width, g->height, o->start, start_id, o->games, o->visits, window,
             fit, o->gate_games, o->gate_visits, o->sprt.elo0, o->sprt.elo1, o->sprt.alpha, o->sprt.beta, o->sprt.model == ELO_LOGISTIC ? "logistic" : "normalized", o->ladder_games,
             o->ladder_visits, o->openings ? o->openings : "made", o->openings ? 0 : o->make_openings,
             (unsigned long long)o->seed);
}

/* The start weights: all-zero linear weights (an engine that knows nothing), the shipped ones,
 * or a file's. */
static void load_start(const TrainRun *run, Weights *w)
{
    const char *start = run->o->start;
    Error err;
    if (strcmp(start, "zero") == 0) {
        weights_zero(run->game, w);
        return;
    }
    if (strcmp(start, "shipped") == 0 ? !weights_default(run->game, w) : !weights_load(run->game, start, w, &err))
        fail_exit(NAME, EXIT_USAGE, "--start %s: %s", start,
                  strcmp(start, "shipped") == 0 ? "no shipped weights for this board" : err.msg);
}

/* DIR/gen0: the start weights, saved with a note of where they came from (unless they are there:
 * the settings are written first, and a run stopped before this step does it on --resume). */
static void write_gen0(TrainRun *run, const Weights *w)
{
    if (train_exists(run, "gen0/weights.txt") || train_exists(run, "gen0/weights.lwt"))
        return;
    char rel[64], path[TRAIN_PATH], comments[512];
    snprintf(rel, sizeof rel, "gen0/weights.%s", w->tables || w->policy ? "lwt" : "txt");
    train_path(run, path, "%s", rel);
    snprintf(comments, sizeof comments, "generation 0 of leuctra train: the start (--start %.400s)\n", run->o->start);
    Error err;
    if (run->env->rank == 0 && !weights_save(run->game, w, comments, path, &err))
        fail_exit(NAME, EXIT_FAILURE_RUN, "%s", err.msg);
    mpi_env_all(run->env, true);
}

static void make_folder(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        fail_exit(NAME, EXIT_FAILURE_RUN, "cannot make %s: %s", path, strerror(errno));
}

/* What a run stopped before it wrote its settings leaves (its lock, the settings' temporary
 * file): all that a folder may hold besides for a new run to begin in it. */
static bool left_by_new_run(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, "lock") == 0 ||
           fnmatch("settings.tmp.??????", name, 0) == 0;
}

/* The first entry of the folder that a new run did not put there, into name; false if none. */
static bool foreign_entry(const char *dir, char *name, size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_exit(NAME, EXIT_FAILURE_RUN, "cannot read the folder %s: %s", dir, strerror(errno));
    bool found = false;
    const struct dirent *e;
    while (!found && (e = readdir(d)) != NULL)
        if (!left_by_new_run(e->d_name)) {
            snprintf(name, len, "%s", e->d_name);
            found = true;
        }
    closedir(d);
    return found;
}

/* Whether DIR holds a run (its settings, with --resume), or is new or empty (a new run begins
 * there); anything else stops with one line.  A new run must not take step files it did not
 * write for its own: a step whose file is there counts as done. */
static bool folder_started(const TrainRun *run)
{
    const TrainOptions *o = run->o;
    struct stat st;
    if (stat(o->dir, &st) != 0) {
        if (errno != ENOENT)
            fail_exit(NAME, EXIT_FAILURE_RUN, "cannot reach %s: %s", o->dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode))
        fail_exit(NAME, EXIT_USAGE, "%s is not a folder", o->dir);
    if (access(run->settings_path, F_OK) == 0) {
        if (!o->resume)
            fail_exit(NAME, EXIT_USAGE, "%s holds a training run already (--resume continues it; or choose another DIR)",
                      o->dir);
        return true;
    }
    char entry[256];
    if (foreign_entry(o->dir, entry, sizeof entry))
        fail_exit(NAME, EXIT_USAGE, "%s has no settings file%s and is not empty (it holds '%s'): a new run begins only "
                  "in an empty or new folder (choose another DIR)", o->dir,
                  o->resume ? ", so no training run to resume," : "", entry);
    return false;
}

/* Up to 60 bytes of a line for a message, each byte that is not printable as '?'. */
static const char *printable(const char *line, int len, char *buf, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < len && n + 1 < cap && n < 60; i++)
        buf[n++] = (unsigned char)line[i] < 0x20 || (unsigned char)line[i] >= 0x7f ? '?' : line[i];
    buf[n] = '\0';
    return buf;
}

/* The line that begins at *at (without its newline), *at moved past it; false at the end. */
static bool next_line(const char **at, const char **line, int *len)
{
    if (!**at)
        return false;
    const char *end = strchr(*at, '\n');
    *line = *at;
    *len = end ? (int)(end - *at) : (int)strlen(*at);
    *at = end ? end + 1 : *at + *len;
    return true;
}

/* A resumed run's settings file against the text it would write (settings_text: the same keys
 * in the same order).  A line without the key expected there is a file that is not a run's
 * settings (damaged, or another program's), told by its line; the same key with another value is
 * a setting that differs, told by its name and both values. */
static void check_settings(const TrainRun *run, const char *expected)
{
    char old[8192], got[64], want[64];
    FILE *in = fopen(run->settings_path, "rb");
    const size_t n = in ? fread(old, 1, sizeof old - 1, in) : 0;
    if (!in || ferror(in))
        fail_exit(NAME, EXIT_FAILURE_RUN, "cannot read %s: %s", run->settings_path, strerror(errno));
    fclose(in);
    old[n] = '\0';
    if (strlen(old) != n)
        fail_exit(NAME, EXIT_USAGE, "%s is not a text file: not the settings of a training run", run->settings_path);
    const char *a = old, *b = expected, *la = NULL, *lb = NULL;
    for (int line = 1;; line++) {
        int na = 0, nb = 0;
        const bool has_a = next_line(&a, &la, &na), has_b = next_line(&b, &lb, &nb);
        if (!has_a && !has_b)
            return;
        if (!has_b)
            fail_exit(NAME, EXIT_USAGE, "%s, line %d: expected the end of the file, got '%s': not the settings of a "
                      "training run", run->settings_path, line, printable(la, na, got, sizeof got));
        const int key = (int)(strchr(lb, '=') - lb) + 1;   /* "name=" */
        if (!has_a || na < key || memcmp(la, lb, (size_t)key) != 0)
            fail_exit(NAME, EXIT_USAGE, "%s, line %d: expected '%.*s...', got %s%s%s: not the settings of a training run",
                      run->settings_path, line, key, lb, has_a ? "'" : "the end of the file",
                      has_a ? printable(la, na, got, sizeof got) : "", has_a ? "'" : "");
        if (na != nb || memcmp(la, lb, (size_t)na) != 0)
            fail_exit(NAME, EXIT_USAGE, "%s was started with other settings (%.*s: the file has %s, this run %s): "
                      "resume it with the same options, or start another DIR", run->o->dir, key - 1, lb,
                      printable(la + key, na - key, got, sizeof got), printable(lb + key, nb - key, want, sizeof want));
    }
}

/* A new run makes its folder and settings first (the settings make it a run); a resumed one
 * must find the settings it would write.  Then gen0, unless it is there. */
static void open_folder(TrainRun *run)
{
    const TrainOptions *o = run->o;
    train_path(run, run->settings_path, "settings");
    Weights w;
    load_start(run, &w);        /* a bad --start stops before the folder is touched */
    folder_started(run);        /* ... and so does a folder a new run may not begin in */
    if (run->env->rank == 0)
        make_folder(o->dir);
    mpi_env_all(run->env, true);
    train_lock(run);
    mpi_env_all(run->env, true);
    const bool started = folder_started(run);   /* again under the lock: no run began meanwhile */
    const int stale = train_remove_stale_temps(run);
    char id[17], text[4096];
    weights_id_text(&w, id);
    settings_text(run, id, text, sizeof text);
    if (started)
        check_settings(run, text);
    else
        train_write_text(run, "settings", text);
    if (stale > 0)
        train_log(run, "removed %d temporary file%s that a stopped run left", stale, stale == 1 ? "" : "s");
    if (run->env->rank == 0) {
        char sub[TRAIN_PATH];
        train_path(run, sub, "gen0");
        make_folder(sub);
        train_path(run, sub, "ladder");
        make_folder(sub);
    }
    mpi_env_all(run->env, true);
    write_gen0(run, &w);
    weights_dispose(&w);
}

/* The suite the gates and the ladder play: the given one copied into the folder, or one made
 * for the run (balanced openings, as match --make-openings makes them). */
static void prepare_openings(TrainRun *run)
{
    train_path(run, run->openings_path, "openings.txt");
    if (train_exists(run, "openings.txt"))
        return;
    const TrainOptions *o = run->o;
    if (run->env->rank == 0) {
        Error err;
        if (o->openings) {
            OpeningSuite suite;
            openings_init(&suite);
            if (!openings_load(&suite, run->game, &run->start, o->openings, &err))
                fail_exit(NAME, EXIT_USAGE, "--openings %s", err.msg);
            openings_free(&suite);
            FILE *in = fopen(o->openings, "rb");
            CliOutput out;
            FILE *to = cli_output_open(NAME, run->openings_path, &out);
            char buf[65536];
            size_t n;
            while (in && (n = fread(buf, 1, sizeof buf, in)) > 0)
                fwrite(buf, 1, n, to);
            if (!in)
                fail_exit(NAME, EXIT_USAGE, "--openings %s: %s", o->openings, strerror(errno));
            fclose(in);
            cli_output_commit(NAME, &out);
        } else {
            train_log(run, "making %d balanced openings for the gates and the ladder", o->make_openings);
            MatchOptions mo = {.make_openings = o->make_openings, .out_path = run->openings_path, .opening_plies = 4,
                               .make_visits = 200, .make_low = 0.4, .make_high = 0.6, .seed = o->seed};
            if (run->game->variant == VARIANT_REVERSI)
                mo.opening_plies = 8;   /* only 172 balanced positions exist after 4 plies */
            if (!match_make_openings(run->game, &run->start, &mo, &err))
                fail_with(NAME, &err);
        }
    }
    mpi_env_all(run->env, true);
}

/* The generations finished in an earlier run: their verdicts give the best so far. */
static void read_state(TrainRun *run)
{
    run->best = 0;
    run->done = 0;
    const char *verdict;
    while (run->done < TRAIN_MAX_GENERATIONS && (verdict = train_verdict(run, run->done + 1)) != NULL) {
        run->done++;
        if (strcmp(verdict, "promoted") == 0)
            run->best = run->done;
    }
    char path[TRAIN_PATH];
    train_path(run, path, "elapsed");
    FILE *in = fopen(path, "r");
    if (in) {
        if (fscanf(in, "%lf", &run->elapsed_before) != 1 || !(run->elapsed_before >= 0))
            run->elapsed_before = 0;
        fclose(in);
    }
}


/* Whether the budget lets generation k begin. */
static bool budget_allows(const TrainRun *run, int k)
{
    const TrainOptions *o = run->o;
    if (o->generations && k > o->generations)
        return false;
    return !o->hours || train_elapsed(run) < o->hours * 3600;
}

static void defaults(TrainOptions *o)
{
    *o = (TrainOptions){.start = "shipped", .games = 2000, .visits = 400, .window = 3, .lambda = 0.5,
                        .gate_games = 400, .gate_visits = 400, .sprt = {0, 10, 0.05, 0.05, ELO_NORMALIZED},
                        .ladder_games = 100, .ladder_visits = 400, .make_openings = 1000, .seed = 1,
                        .threads = threads_default()};
}

static int run_train(int argc, char **argv)
{
    TrainOptions o;
    defaults(&o);
    read_options(argc, argv, &o);
    MpiEnv env = mpi_env_start();
    TrainRun run = {.o = &o, .env = &env, .tty = isatty(STDERR_FILENO) && !o.quiet, .started = clock_seconds()};
    run.game = cli_open_game(NAME, &o.game, &run.start);
    Weights shipped;
    run.has_shipped = weights_default(run.game, &shipped);
    if (run.has_shipped)
        weights_dispose(&shipped);
    open_folder(&run);
    prepare_openings(&run);
    read_state(&run);
    if (run.done > 0) {
        train_log(&run, "resumed: %d generation%s with a verdict, best gen%d, %.0f s so far", run.done,
                  run.done == 1 ? "" : "s", run.best, run.elapsed_before);
        /* a run stopped after the last verdict, in the ladder: finish it whatever the budget */
        train_ladder_step(&run);
        train_save_elapsed(&run);
    }
    for (int k = run.done + 1; budget_allows(&run, k); k++) {
        train_generation(&run, k);
        run.done = k;
        if (strcmp(train_verdict(&run, k), "promoted") == 0)
            run.best = k;
        train_save_elapsed(&run);
        train_ladder_step(&run);
        train_save_elapsed(&run);
    }
    if (run.done == 0)
        train_ladder(&run);     /* the table's head and nothing more: no generation yet */
    train_log(&run, "end of the budget: %d generation%s, best gen%d, %.0f s in all", run.done,
              run.done == 1 ? "" : "s", run.best, train_elapsed(&run));
    mpi_env_stop(&env);
    game_free(run.game);
    return 0;
}

const Command command_train = {
    "train", run_train, "the training loop as one job: self-play, fit, gate, ladder, generations",
    "usage: leuctra train DIR (--generations N | --hours H) [--resume] [--variant V] [--size WxH]\n"
    "                     [--start zero|shipped|FILE] [--games N] [--visits N] [--window K]\n"
    "                     [--window-max M] [--gate-games N] [--gate-visits N]\n"
    "                     [--sprt elo0=X elo1=Y ...] [--ladder-games N] [--ladder-visits N]\n"
    "                     [--openings FILE] [--make-openings N] [--linear-only | --shapes LIST]\n"
    "                     [--lambda X] [--l2-tables X] [--priors-generations N] [--seed S]\n"
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
    "  --seed S              the run's seed (default 1): generation K's self-play and gate use S+K\n"
    "  --threads T           games at once (default: every core)\n"
    "  --quiet, -q           no progress lines (DIR/train.log has every step anyway)\n"
    "  --variant, --size     the game and board (default Epaminondas 14x12)\n\n"
    "On a terminal each step shows its progress (games, rate, ETA); a line per step goes to\n"
    "stdout and DIR/train.log.  Under mpirun (a build made with `make MPI=1`) the self-play and\n"
    "the fits spread over the processes as `selfplay` and `tune` do, and process 0 plays the\n"
    "matches (learned priors are then refitted only by a run without mpirun).\n\n"
    "example: leuctra train run1 --variant crossings --start zero --generations 8 --games 3000\n"
    "         leuctra train run1 --variant crossings --start zero --generations 12 --resume\n",
};
