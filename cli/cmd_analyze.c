/*
 * cmd_analyze.c - `leuctra analyze`: search a position and report the best move, the principal
 * variation, the win probability and the top moves; live updates on a terminal, --json for
 * scripts.
 */
#include "cli.h"
#include "data/weights.h"
#include "search/search_json.h"
#include "search_cli.h"

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
        snprintf(proven, sizeof proven, "  proven %s in %d pl%s", search_proven_name(r->proven), r->proven_plies,
                 r->proven_plies == 1 ? "y" : "ies");
    fprintf(out, "best %s  win %.1f%%%s  visits %ld  nodes %zu  %.2f s  %.0f visits/s\n", move, 100 * r->value,
            proven, r->visits, r->nodes, r->seconds, r->seconds > 0 ? r->visits / r->seconds : 0);
    fprintf(out, "pv   %s\n", pv);
    for (int i = 0; i < r->num_stats && i < rep->top; i++) {
        const MoveStat *s = &r->stats[i];
        game_format_move(rep->game, rep->pos, s->move, move, sizeof move);
        fprintf(out, "  %-8s visits %7ld  prior %5.1f%%  win %5.1f%% %s\n", move, s->visits, 100 * s->prior,
                isnan(s->value) ? 0.0 : 100 * s->value, s->proven ? search_proven_name(s->proven) : "");
    }
}

static void print_json(const Report *rep, const MctsResult *r)
{
    size_t need = search_result_json(rep->game, rep->pos, r, rep->setup_seconds, rep->top, NULL, 0);
    char *json = malloc(need + 1);
    if (!json)
        fail_exit("analyze", EXIT_FAILURE_RUN, "out of memory");
    search_result_json(rep->game, rep->pos, r, rep->setup_seconds, rep->top, json, need + 1);
    printf("%s\n", json);
    free(json);
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
    const char *text;
    SearchSetup setup, defaults;
    search_setup_default(&defaults);
    defaults.limits.visits = 100000;
    setup = defaults;
    setup.limits.visits = 0;        /* none given: 100000, or no limit with --time alone */
    bool json = false;
    int top = 10;
    while (r.index < argc) {
        if (arg_game_option(&r, &gopts) || arg_search_option(&r, &setup))
            continue;
        if (arg_value(&r, "--top", &text))
            top = (int)arg_integer("analyze", "--top", text, 1, MCTS_MAX_STATS);
        else if (arg_flag(&r, "--json"))
            json = true;
        else
            arg_common_search(&r, &command_analyze, &defaults);
    }
    if (setup.limits.visits == 0 && setup.limits.seconds == 0)
        setup.limits.visits = 100000;
    Position pos;
    Game *g = cli_open_game("analyze", &gopts, &pos);
    Weights w;
    cli_load_evaluation("analyze", g, &setup, &w);
    Mcts *m = mcts_new(g, &w, &setup.mcts);
    if (!m)
        fail_exit("analyze", EXIT_FAILURE_RUN, "cannot allocate the search tree (%zu nodes)", setup.mcts.max_nodes);
    mcts_set_position(m, &pos);
    Report rep = {g, &pos, top, mcts_setup_seconds(m)};
    bool live = !json && isatty(2);
    MctsResult res = mcts_search(m, &setup.limits, NULL, live ? live_update : NULL, 0.5, &rep);
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
    "                       [--threads N] [--weights FILE] [--top K] [--json] [search options]\n\n"
    "Searches the position with MCTS and prints the best move, the principal variation, the side\n"
    "to move's win probability (and 'proven win/loss/draw' when the search has proved it), and the\n"
    "top K moves with visits, priors and values.  On a terminal the report updates while the\n"
    "search runs.  Default budget: 100000 visits (no visit limit when --time alone is given);\n"
    "with one thread and no --time, the same --seed gives the same search.\n\n"
    "  --top K         the K most visited moves to list (default 10)\n"
    "  --json          one JSON object on stdout, for scripts: the schema the engine protocol's\n"
    "                  json lines and Python's Game.analyze share (docs/ENGINE.md)\n"
    "example: leuctra analyze --variant reversi --visits 200000 --threads 2\n",
};
