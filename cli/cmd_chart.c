/*
 * cmd_chart.c - `leuctra chart training DIR`: a training loop's folder (scripts/
 * training_loop.sh, leuctra train) drawn as one SVG chart: per generation the tuner's
 * log-losses before and after (genK/tune.json) and the Elo against gen0 with its interval, rated
 * from every genK/match.txt as `leuctra ratings --anchor gen0` rates them, marked by
 * genK/verdict.  This file reads the options; training/train_chart.c reads the folder and draws.
 */
#include "cli.h"
#include "training/train_chart.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *const NAME = "chart training";

typedef TrainingChartOptions ChartOptions;

static void read_options(int argc, char **argv, ChartOptions *o)
{
    ArgReader r = {argc, argv, 1, NAME, false};
    const char *text;
    while (r.index < argc) {
        if (arg_value(&r, "-o", &o->out) || arg_value(&r, "--out", &o->out))
            continue;
        if (arg_value(&r, "--confidence", &text))
            o->confidence = arg_real(NAME, "--confidence", text, 0.5, 0.999999);
        else if (arg_value(&r, "--prior", &text))
            o->prior = arg_real(NAME, "--prior", text, 0, 1e6);
        else if (arg_operand(&r) && !o->dir)
            o->dir = argv[r.index++];
        else if (r.index < argc && (r.operands_only || argv[r.index][0] != '-'))
            fail_exit(NAME, EXIT_USAGE, "one DIR only, got '%s' too", argv[r.index]);
        else
            arg_common(&r, &command_chart);
    }
    if (!o->dir)
        fail_exit(NAME, EXIT_USAGE, "missing DIR, the training loop's folder (see leuctra chart --help)");
    struct stat st;
    if (stat(o->dir, &st) != 0)
        fail_exit(NAME, EXIT_USAGE, "%s: %s", o->dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        fail_exit(NAME, EXIT_USAGE, "%s: not a folder (expected the training loop's output folder)", o->dir);
    if (o->out)
        cli_output_check(NAME, "-o", o->out);
}

static int run_chart(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
        fputs(command_chart.usage, stdout);
        return 0;
    }
    if (argc < 2 || strcmp(argv[1], "training") != 0)
        fail_exit("chart", EXIT_USAGE, "expected 'training' (see leuctra chart --help)");
    ChartOptions o = {NULL, NULL, 0.95, 0};
    read_options(argc - 1, argv + 1, &o);
    Error err;
    if (!training_chart(&o, &err))
        fail_with(NAME, &err);
    return 0;
}

const Command command_chart = {
    "chart", run_chart, "draw a training loop's losses and Elo per generation as SVG",
    "usage: leuctra chart training DIR [-o FILE.svg] [--confidence C] [--prior D]\n\n"
    "Draws the folder of scripts/training_loop.sh as one SVG chart (stdout without -o):\n"
    "  above, the tuner's log-loss of each generation on its self-play games, training and\n"
    "  validation positions, before (the best weights so far, dashed) and after (the candidate,\n"
    "  solid), from DIR/genK/tune.json (leuctra tune --json);\n"
    "  below, each generation's Elo against gen0 with its interval, rated from every\n"
    "  DIR/genK/match.txt together as `leuctra ratings --anchor gen0` rates them, marked by\n"
    "  DIR/genK/verdict: promoted (green dot), rejected (red cross), undecided (grey ring).\n"
    "Generations without a verdict file (not finished yet) are left out.  Other charts:\n"
    "leuctra ratings --svg and leuctra records info --svg (docs/PICTURES.md).\n\n"
    "  -o, --out FILE   the chart's file (written whole or not at all; '-': stdout, the\n"
    "                   default)\n"
    "  --confidence C   level of the Elo intervals (default 0.95)\n"
    "  --prior D        virtual draws per pair, as leuctra ratings --prior (default 0;\n"
    "                   scripts/training_loop.sh uses 2)\n\n"
    "example: leuctra chart training training-out -o training-out/training.svg\n",
};
