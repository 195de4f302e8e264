/*
 * args.c - reading subcommand arguments and opening the game they describe; every malformed
 * argument ends the program with one line on stderr and exit status 2.
 */
#include "cli.h"
#include "core/number.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool arg_flag(ArgReader *r, const char *name)
{
    if (!r->operands_only && r->index < r->argc && strcmp(r->argv[r->index], name) == 0) {
        r->index++;
        return true;
    }
    return false;
}

bool arg_value(ArgReader *r, const char *name, const char **value)
{
    if (r->operands_only || r->index >= r->argc)
        return false;
    const char *arg = r->argv[r->index];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        r->index++;
        return true;
    }
    if (arg[n] != '\0')
        return false;
    if (r->index + 1 >= r->argc)
        fail_exit(r->command, EXIT_USAGE, "option %s needs a value", name);
    *value = r->argv[r->index + 1];
    r->index += 2;
    return true;
}

bool arg_game_option(ArgReader *r, GameOptions *opts)
{
    return arg_value(r, "--variant", &opts->variant) || arg_value(r, "--position", &opts->position) ||
           arg_value(r, "--size", &opts->size);
}

/* Consumes a "--" at the reader: the options end there. */
static bool end_of_options(ArgReader *r)
{
    if (r->operands_only || r->index >= r->argc || strcmp(r->argv[r->index], "--") != 0)
        return false;
    r->operands_only = true;
    r->index++;
    return true;
}

bool arg_operand(ArgReader *r)
{
    end_of_options(r);
    if (r->index >= r->argc)
        return false;
    const char *arg = r->argv[r->index];
    return r->operands_only || arg[0] != '-' || arg[1] == '\0';
}

void arg_common(ArgReader *r, const Command *cmd)
{
    if (end_of_options(r) || r->index >= r->argc)
        return;
    const char *arg = r->argv[r->index];
    if (!r->operands_only && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
        fputs(cmd->usage, stdout);
        exit(0);
    }
    if (r->operands_only || arg[0] != '-' || arg[1] == '\0')
        fail_exit(r->command, EXIT_USAGE, "unexpected argument '%s' (see leuctra %s --help)", arg, r->command);
    fail_exit(r->command, EXIT_USAGE, "unknown option '%s' (see leuctra %s --help)", arg, r->command);
}

long arg_integer(const char *command, const char *option, const char *text, long min, long max)
{
    long long v;
    if (number_read_integer(text, min, max, &v) != NUMBER_OK)
        fail_exit(command, EXIT_USAGE, "%s must be an integer from %ld to %ld, got '%s'", option, min, max, text);
    return (long)v;
}

int arg_threads(const char *command, const char *option, const char *text)
{
    long long v;
    Error e;
    if (number_read_integer(text, LLONG_MIN, LLONG_MAX, &v) != NUMBER_OK)
        fail_exit(command, EXIT_USAGE, "%s must be an integer from 1 to %d, got '%s'", option, (int)THREADS_MAX, text);
    if (!threads_check(v, 1, option, &e))
        fail_exit(command, EXIT_USAGE, "%s", e.msg);
    char note[200];
    if (threads_too_many((int)v, note, sizeof note))
        fprintf(stderr, "leuctra %s: warning: %s\n", command, note);
    return (int)v;
}

double arg_real(const char *command, const char *option, const char *text, double min, double max)
{
    double v;
    if (number_read_decimal(text, &v) != NUMBER_OK || v < min || v > max)
        fail_exit(command, EXIT_USAGE, "%s must be a number from %g to %g, got '%s'", option, min, max, text);
    return v;
}

Game *cli_open_game(const char *command, const GameOptions *opts, Position *pos)
{
    const char *variant = opts->variant ? opts->variant : "epaminondas";
    const char *position = opts->position ? opts->position : "start";
    Error err;
    int w = 0, h = 0;
    if (opts->size && !game_parse_size(opts->size, &w, &h, &err))
        fail_exit(command, EXIT_USAGE, "--size: %s", err.msg);
    Game *g;
    if (strcmp(position, "start") == 0) {
        g = game_new(variant, w, h, &err);
        if (g)
            game_start(g, pos);
    } else {
        g = game_new_for_position(variant, position, pos, &err);
        if (g && opts->size && (g->width != w || g->height != h)) {
            int gw = g->width, gh = g->height;
            game_free(g);
            fail_exit(command, EXIT_USAGE, "--size %s does not match the position's %dx%d board", opts->size, gw, gh);
        }
    }
    if (!g)
        fail_exit(command, EXIT_USAGE, "%s", err.msg);
    return g;
}
