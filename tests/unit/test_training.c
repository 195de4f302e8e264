/*
 * test_training.c - the train and tune workflows as a library (training/): the fit's recorded
 * command is built from its options; a training run's options are checked and its failures are
 * returned as errors (never an exit); a run in a folder says its log lines through the output's
 * callback and leaves the folder's files.
 */
#include "core/pattern.h"
#include "training/train.h"
#include "training/tune_run.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The command's words joined by spaces, into buf. */
static void joined(const TuneOptions *o, char *buf, size_t len)
{
    int argc = 0;
    char **argv = training_tune_command(o, &argc);
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; argv && i < argc; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", argv[i]);
    training_tune_command_free(argv, argc);
}

static void test_tune_command_from_options(TestContext *t)
{
    const char *data[2] = {"run/gen1/selfplay.lrec", "run/gen2/selfplay.lrec"};
    TuneOptions o = {.data = data, .num_data = 2, .out = "run/gen2/weights.lwt", .init = "run/gen1/weights.lwt",
                     .data_opts = tune_data_defaults(), .fit_opts = tune_fit_defaults(),
                     .policy_opts = tune_policy_defaults(), .folder = "run", .tables = true, .priors = true};
    o.data_opts.lambda = 0.5;
    char text[1024];
    joined(&o, text, sizeof text);
    CHECK_STR(t, text, "tune --data gen1/selfplay.lrec gen2/selfplay.lrec --init gen1/weights.lwt --out "
                       "gen2/weights.lwt --lambda 0.5 --tables --priors");
    o.shapes = PATTERN_BASE;
    o.fit_opts.l2_tables = 500;
    o.priors = false;
    o.no_priors = true;
    joined(&o, text, sizeof text);
    CHECK(t, strstr(text, "--lambda 0.5 --tables --shapes base --l2-tables 500 --no-priors") != NULL);
    o = (TuneOptions){.data = data, .num_data = 1, .out = "/elsewhere/w.txt", .data_opts = tune_data_defaults(),
                      .fit_opts = tune_fit_defaults(), .linear_only = true};
    joined(&o, text, sizeof text);
    CHECK_STR(t, text, "tune --data run/gen1/selfplay.lrec --out /elsewhere/w.txt --lambda 0.5 --linear-only");
}

static void test_train_options_checked(TestContext *t)
{
    TrainOptions o;
    training_defaults(&o);
    o.dir = "somewhere";
    Error err = {0};
    CHECK(t, !training_check_options(&o, &err) && !err.failure && strstr(err.msg, "no budget"));
    o.generations = 1;
    o.window = 5;
    o.window_max = 2;
    CHECK(t, !training_check_options(&o, &err) && strstr(err.msg, "--window-max 2 is less than --window 5"));
    o.window_max = 0;
    CHECK(t, training_check_options(&o, &err) && o.window_max == TRAIN_WINDOW_MAX);
}

typedef struct {
    int lines;
    char first[200];
} Said;

static void said(const char *text, void *ctx)
{
    Said *s = ctx;
    if (s->lines++ == 0)
        snprintf(s->first, sizeof s->first, "%s", text);
}

/* A run of one generation returns with its folder made and its log said through the callback;
 * failures come back as errors with the command line's words. */
static void test_train_run_returns(TestContext *t)
{
    Game *g = game_new("crossings", 5, 6, NULL);
    Position start;
    game_start(g, &start);
    char dir[] = "/tmp/leuctra-training-XXXXXX", run[64], path[128];
    CHECK(t, mkdtemp(dir) != NULL);
    snprintf(run, sizeof run, "%s/run", dir);
    TrainOptions o;
    training_defaults(&o);
    o.dir = run;
    o.start = "zero";
    o.generations = 1;
    o.games = 16;
    o.visits = 10;
    o.gate_games = 2;
    o.gate_visits = 5;
    o.ladder_games = 0;
    o.make_openings = 4;
    o.threads = 1;
    MpiEnv env = {0, 1, false, false};
    Said s = {0};
    TrainOutput out = {.print = said, .ctx = &s};
    Error err = {0};
    CHECK(t, training_run(&o, g, &start, &env, &out, &err));
    CHECK(t, s.lines >= 8);
    if (s.lines >= 8)
        CHECK(t, strcmp(s.first, "making 4 balanced openings for the gates and the ladder\n") == 0);
    snprintf(path, sizeof path, "%s/gen1/verdict", run);
    CHECK(t, access(path, F_OK) == 0);
    /* resumed with other settings: the setting that differs, as an error */
    o.games = 18;
    o.resume = true;
    CHECK(t, !training_run(&o, g, &start, &env, &out, &err) && !err.failure &&
             strstr(err.msg, "(games: the file has 16, this run 18)"));
    /* a start that is no weights file */
    o.start = "/nonexistent/w.txt";
    snprintf(run, sizeof run, "%s/other", dir);
    CHECK(t, !training_run(&o, g, &start, &env, &out, &err) && strstr(err.msg, "--start /nonexistent/w.txt"));
    char command[256];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    CHECK(t, system(command) == 0);
    game_free(g);
}

const TestCase training_tests[] = {
    {"tune_command_from_options", test_tune_command_from_options},
    {"train_options_checked", test_train_options_checked},
    {"train_run_returns", test_train_run_returns},
    {NULL, NULL},
};
