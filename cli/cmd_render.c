/*
 * cmd_render.c - `leuctra render`: one position as an SVG picture (pictures/svg_board.c), from
 * --position or from a ply of a stored game, with the last move marked and optionally arrows
 * for the engine's top moves.
 */
#include "cli.h"
#include "data/weights.h"
#include "record_replay.h"
#include "records_cli.h"
#include "search_cli.h"
#include "pictures/svg_board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ARROWS = 32 };

typedef struct {
    GameOptions game;
    const char *last, *out, *records;
    int arrows;
    long visits;
    bool from_record;
    uint64_t game_index;
    int ply;                /* plies of the stored game to play; -1: all of them */
} RenderOptions;

static void read_options(int argc, char **argv, RenderOptions *o)
{
    ArgReader r = {argc, argv, 1, "render", false};
    const char *text;
    while (r.index < argc) {
        if (arg_game_option(&r, &o->game) || arg_value(&r, "--last", &o->last) ||
            arg_value(&r, "--records", &o->records))
            continue;
        if (arg_value(&r, "-o", &o->out) || arg_value(&r, "--out", &o->out))
            continue;
        if (arg_value(&r, "--arrows", &text))
            o->arrows = (int)arg_integer("render", "--arrows", text, 0, MAX_ARROWS);
        else if (arg_value(&r, "--visits", &text))
            o->visits = cli_search_visits("render", "--visits", text);
        else if (arg_value(&r, "--game", &text)) {
            o->from_record = true;
            o->game_index = (uint64_t)arg_integer("render", "--game", text, 0, 0x7FFFFFFFFFFFFFFF);
        } else if (arg_value(&r, "--ply", &text))
            o->ply = (int)arg_integer("render", "--ply", text, 0, 1000000);
        else
            arg_common(&r, &command_render);
    }
    if ((o->records != NULL) != o->from_record)
        fail_exit("render", EXIT_USAGE, "--game and --records go together");
    if (o->ply >= 0 && !o->from_record)
        fail_exit("render", EXIT_USAGE, "--ply needs --records and --game");
    if (o->from_record && (o->game.position || o->game.variant || o->game.size))
        fail_exit("render", EXIT_USAGE,
                  "--game takes the board from the records file, not --variant/--size/--position");
}

/* Arrows from a short search of the position: share = the move's part of the root's visits. */
static int search_arrows(const Game *g, const Position *pos, const RenderOptions *o, SvgArrow *arrows)
{
    SearchSetup setup;
    search_setup_default(&setup);
    setup.limits.visits = o->visits;
    setup.mcts.max_nodes = search_node_budget(o->visits);
    Weights w;
    cli_load_evaluation("render", g, &setup, &w);
    Mcts *m = mcts_new(g, &w, &setup.mcts);
    if (!m)
        fail_exit("render", EXIT_FAILURE_RUN, "cannot allocate the search tree");
    mcts_set_position(m, pos);
    MctsResult *res = malloc(sizeof *res);      /* a few tens of KiB: not for the stack */
    if (!res)
        fail_exit("render", EXIT_FAILURE_RUN, "out of memory");
    *res = mcts_search(m, &setup.limits, NULL, NULL, 0, NULL);
    long total = 0;
    for (int i = 0; i < res->num_stats; i++)
        total += res->stats[i].visits;
    int n = 0;
    for (; n < res->num_stats && n < o->arrows && res->stats[n].visits > 0; n++) {
        game_format_move(g, pos, res->stats[n].move, arrows[n].move, SVG_MOVE_TEXT);
        arrows[n].share = total ? (double)res->stats[n].visits / (double)total : 0;
    }
    free(res);
    mcts_free(m);
    weights_dispose(&w);
    return n;
}

/* Arrows from the visit list the record stored for the ply about to be played. */
static int record_arrows(const GameRecord *r, int ply, int max, SvgArrow *arrows)
{
    if (ply >= r->plies || r->ply[ply].num_visits == 0)
        return -1;
    const RecordPly *p = &r->ply[ply];
    double total = p->total_visits ? p->total_visits : 1;
    int n = 0;
    for (; n < max && (uint32_t)n < p->num_visits; n++) {
        const RecordVisit *v = &r->visit[p->first_visit + (uint32_t)n];
        record_move_format(v->move, arrows[n].move, SVG_MOVE_TEXT);
        arrows[n].share = v->visits / total;
    }
    return n;
}

/* The stored game's position after o->ply plies, its last move, and arrows when asked. */
static Game *open_record(const RenderOptions *o, Position *pos, char *last, SvgArrow *arrows, int *num_arrows)
{
    RecordsReader *rd = cli_records_open_or_fail("render", o->records);
    GameRecord r;
    game_record_init(&r);
    if (!replay_find_game("render", rd, o->game_index, &r))
        fail_exit("render", EXIT_FAILURE_RUN, "%s: no game with index %llu", o->records,
                  (unsigned long long)o->game_index);
    int ply = o->ply < 0 ? r.plies : o->ply;
    if (ply > r.plies)
        fail_exit("render", EXIT_USAGE, "--ply %d: game %llu has %d plies", ply, (unsigned long long)r.index, r.plies);
    Game *g = replay_start("render", records_reader_header(rd), &r, pos);
    for (int i = 0; i < ply; i++)
        replay_ply("render", g, pos, &r, i, last);
    *num_arrows = o->arrows ? record_arrows(&r, ply, o->arrows, arrows) : 0;
    game_record_free(&r);
    records_close(rd);
    return g;
}

static void write_picture(const RenderOptions *o, const Game *g, const Position *pos, const SvgMarks *marks)
{
    CliOutput out;
    svg_board_write(cli_output_open("render", o->out ? o->out : "-", &out), g, pos, marks);
    cli_output_commit("render", &out);
}

static int run_render(int argc, char **argv)
{
    RenderOptions o = {.visits = 2000, .ply = -1};
    read_options(argc, argv, &o);
    if (o.out) {
        cli_output_check("render", "-o", o.out);
        cli_output_apart("render", "-o", o.out, (char *const *)&o.records, o.records ? 1 : 0);
    }
    Position pos;
    char last[RECORD_MOVE_TEXT] = "";
    SvgArrow arrows[MAX_ARROWS];
    int num_arrows = 0;
    Game *g = o.from_record ? open_record(&o, &pos, last, arrows, &num_arrows) : cli_open_game("render", &o.game, &pos);
    if (o.last) {
        int files[2], ranks[2];
        if (svg_move_squares(g, o.last, files, ranks) < 0)
            fail_exit("render", EXIT_USAGE, "--last '%s' is not a move on a %dx%d board", o.last, g->width, g->height);
        snprintf(last, sizeof last, "%s", o.last);
    }
    if (o.arrows && (!o.from_record || num_arrows < 0))
        num_arrows = search_arrows(g, &pos, &o, arrows);
    SvgMarks marks = {last[0] ? last : NULL, arrows, num_arrows};
    write_picture(&o, g, &pos, &marks);
    game_free(g);
    return 0;
}

const Command command_render = {
    "render", run_render, "draw a position as an SVG picture",
    "usage: leuctra render [--variant V] [--size WxH] [--position POS] [--last MOVE]\n"
    "                      [--arrows N [--visits V]] [-o FILE.svg]\n"
    "       leuctra render --records FILE --game N [--ply K] [--arrows N] [-o FILE.svg]\n\n"
    "Writes the board as SVG (stdout without -o): coordinates (files a.., ranks 1.. from\n"
    "White's side; Reversi rows 1.. from the top), stones, obstacles (grey crossed squares),\n"
    "stones that never move again (Crossings towers, Igfip crossings: a stone with a red\n"
    "square inside), the last move tinted and joined by a line, and arrows (Reversi: dots)\n"
    "for the engine's top moves, wider and darker with more of the visits.\n\n"
    "  --last MOVE     mark this move (notation) as the one that led to the position\n"
    "  --arrows N      the N most visited moves of a short search (0-32; default 0)\n"
    "  --visits V      that search's visits (default 2000)\n"
    "  --records FILE  with --game N: the stored game with index N, replayed by the rules\n"
    "  --ply K         the position after K plies (default: the end); its last move is marked,\n"
    "                  and --arrows uses the visits the record stored for ply K+1 if any\n"
    "  -o, --out FILE  the picture's file (written whole or not at all; '-': stdout, the\n"
    "                  default)\n\n"
    "example: leuctra render --variant crossings --arrows 5 -o crossings.svg\n",
};
