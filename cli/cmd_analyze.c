/*
 * cmd_analyze.c - `leuctra analyze`: search a position and report the best move, the principal
 * variation, the win probability and the top moves; live updates on a terminal, --json for
 * scripts.
 */
#include "cli.h"
#include "data/weights.h"
#include "selfplay/mcts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const Game *game;
    const Position *pos;
    int top;
    double setup_seconds;   /* the search's setup (mcts_new), apart from its own time */
} Report;

static const char *proven_name(Proven p)
{
    return p == PROVEN_WIN ? "win" : p == PROVEN_LOSS ? "loss" : p == PROVEN_DRAW ? "draw" : "";
}

static void format_pv(const Report *rep, const MctsResult *r, char *buf, size_t len)
{
    Position pos = *rep->pos;
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->pv_length && n + 16 < len; i++) {
        char text[16];
        game_format_move(rep->game, &pos, r->pv[i], text, sizeof text);
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", text);
        Undo undo;
        game_make(rep->game, &pos, r->pv[i], &undo);
    }
}

static void print_text(const Report *rep, const MctsResult *r, FILE *out)
{
    char pv[1024], move[16] = "none";
    format_pv(rep, r, pv, sizeof pv);
    if (r->best != MOVE_NONE)
        game_format_move(rep->game, rep->pos, r->best, move, sizeof move);
    char proven[48] = "";
    if (r->proven)
        snprintf(proven, sizeof proven, "  proven %s in %d pl%s", proven_name(r->proven), r->proven_plies,
                 r->proven_plies == 1 ? "y" : "ies");
    fprintf(out, "best %s  win %.1f%%%s  visits %ld  nodes %zu  %.2f s  %.0f visits/s\n", move, 100 * r->value,
            proven, r->visits, r->nodes, r->seconds, r->seconds > 0 ? r->visits / r->seconds : 0);
    fprintf(out, "pv   %s\n", pv);
    for (int i = 0; i < r->num_stats && i < rep->top; i++) {
        const MoveStat *s = &r->stats[i];
        game_format_move(rep->game, rep->pos, s->move, move, sizeof move);
        fprintf(out, "  %-8s visits %7ld  prior %5.1f%%  win %5.1f%% %s\n", move, s->visits, 100 * s->prior,
                isnan(s->value) ? 0.0 : 100 * s->value, proven_name(s->proven));
    }
}

static void print_json(const Report *rep, const MctsResult *r)
{
    char pv[1024], move[16] = "";
    format_pv(rep, r, pv, sizeof pv);
    if (r->best != MOVE_NONE)
        game_format_move(rep->game, rep->pos, r->best, move, sizeof move);
    printf("{\"best\":\"%s\",\"win_probability\":%.4f,\"proven\":\"%s\",\"proven_plies\":%d,\"visits\":%ld,"
           "\"nodes\":%zu,\"seconds\":%.3f,\"setup_seconds\":%.3f,\"pv\":\"%s\",\"moves\":[",
           move, r->value, proven_name(r->proven), r->proven_plies, r->visits, r->nodes, r->seconds,
           rep->setup_seconds, pv);
    for (int i = 0; i < r->num_stats && i < rep->top; i++) {
        const MoveStat *s = &r->stats[i];
        game_format_move(rep->game, rep->pos, s->move, move, sizeof move);
        printf("%s{\"move\":\"%s\",\"visits\":%ld,\"prior\":%.4f,\"win_probability\":%.4f,\"proven\":\"%s\"}",
               i ? "," : "", move, s->visits, s->prior, isnan(s->value) ? 0.5 : s->value, proven_name(s->proven));
    }
    printf("]}\n");
}

/* Live view on a terminal: redraw the report in place. */
static void live_update(const MctsResult *r, void *ctx)
{
    const Report *rep = ctx;
    fputs("\033[H\033[J", stderr);
    print_text(rep, r, stderr);
}

static int run_analyze(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "analyze", false};
    GameOptions gopts = {0};
    const char *text, *weights_path = NULL;
    MctsConfig cfg;
    mcts_default_config(&cfg);
    MctsLimits limits = {0, 0};
    bool json = false;
    int top = 10;
    while (r.index < argc) {
        if (arg_game_option(&r, &gopts))
            continue;
        if (arg_value(&r, "--visits", &text))
            limits.visits = arg_integer("analyze", "--visits", text, 1, 1000000000000L);
        else if (arg_value(&r, "--time", &text))
            limits.seconds = arg_real("analyze", "--time", text, 0.001, 1e6);
        else if (arg_value(&r, "--threads", &text))
            cfg.threads = arg_threads("analyze", "--threads", text);
        else if (arg_value(&r, "--weights", &weights_path))
            continue;
        else if (arg_value(&r, "--top", &text))
            top = (int)arg_integer("analyze", "--top", text, 1, MCTS_MAX_STATS);
        else if (arg_value(&r, "--seed", &text))
            cfg.seed = (uint64_t)arg_integer("analyze", "--seed", text, 0, 0x7fffffffffffffffL);
        else if (arg_flag(&r, "--playouts"))
            cfg.playouts = true;
        else if (arg_flag(&r, "--json"))
            json = true;
        else
            arg_common(&r, &command_analyze);
    }
    if (limits.visits == 0 && limits.seconds == 0)
        limits.visits = 100000;
    Position pos;
    Game *g = cli_open_game("analyze", &gopts, &pos);
    Weights w;
    Error err;
    if (weights_path ? !weights_load(g, weights_path, &w, &err) : !weights_default(g, &w))
        fail_exit("analyze", EXIT_USAGE, "%s", weights_path ? err.msg : "no shipped weights for this game");
    Mcts *m = mcts_new(g, &w, &cfg);
    if (!m)
        fail_exit("analyze", EXIT_FAILURE_RUN, "cannot allocate the search tree (%zu nodes)", cfg.max_nodes);
    mcts_set_position(m, &pos);
    Report rep = {g, &pos, top, mcts_setup_seconds(m)};
    bool live = !json && isatty(2);
    MctsResult res = mcts_search(m, &limits, NULL, live ? live_update : NULL, 0.5, &rep);
    if (live)
        fputs("\033[H\033[J", stderr);
    if (json)
        print_json(&rep, &res);
    else
        print_text(&rep, &res, stdout);
    mcts_free(m);
    weights_dispose(&w);
    game_free(g);
    return 0;
}

const Command command_analyze = {
    "analyze", run_analyze, "search a position: best move, line, win probability, top moves",
    "usage: leuctra analyze [--variant V] [--size WxH] [--position POS] [--visits N] [--time S]\n"
    "                       [--threads N] [--weights FILE] [--top K] [--playouts] [--seed S] [--json]\n\n"
    "Searches the position with MCTS and prints the best move, the principal variation, the side\n"
    "to move's win probability (and 'proven win/loss/draw' when the search has proved it), and the\n"
    "top K moves with visits, priors and values.  On a terminal the report updates while the\n"
    "search runs.  Default budget: 100000 visits.\n\n"
    "  --visits N      visits of the search (default 100000, or no limit when --time is given)\n"
    "  --time S        seconds of the search, a decimal number such as 2.5 (default: no limit);\n"
    "                  with --visits too, the first limit reached ends it\n"
    "  --threads N     search threads, sharing one tree (default 1)\n"
    "  --top K         the K most visited moves to list (default 10)\n"
    "  --seed S        the search's random seed (default 1): with one thread and no --time, the\n"
    "                  same seed gives the same search\n"
    "  --weights FILE  evaluation weights (default: the shipped ones)\n"
    "  --playouts      random playouts at the leaves instead of the evaluation\n"
    "  --json          one JSON object on stdout, for scripts (seconds: the search;\n"
    "                  setup_seconds: building it, apart)\n\n"
    "example: leuctra analyze --variant reversi --visits 200000 --threads 2\n",
};
