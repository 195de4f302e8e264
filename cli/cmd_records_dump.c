/*
 * cmd_records_dump.c - `leuctra records dump`: one game per line in RULES.md notation, with its
 * index, seed, result and end reason, and on request each move's root value, visit list, time
 * and clock.
 * Needs no rules: stored moves print as notation directly.  scripts/leuctra_records.py prints
 * the same lines (its test compares them), so the format here is a contract: change both.
 */
#include "records_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    bool values, visits, times;
    bool one_game;
    uint64_t game;
} DumpOptions;

static const char *result_name(GameStatus s)
{
    return s == STATUS_WHITE_WINS ? "white-wins" : s == STATUS_BLACK_WINS ? "black-wins" : "draw";
}

/* A ply's time and clock as --times shows them: "t=0.123 clk=9.877", "-" for what is missing. */
static void print_times(const RecordPly *p, bool after_other)
{
    printf("%st=", after_other ? " " : "");
    if (p->time_ms == RECORD_NO_TIME)
        putchar('-');
    else
        printf("%.3f", p->time_ms / 1000.0);
    printf(" clk=");
    if (p->clock_ms == RECORD_NO_CLOCK)
        putchar('-');
    else
        printf("%.3f", record_clock_seconds(p->clock_ms));
}

/* "{0.5123 n=800 e2-e3:400;f2-f3:200 t=0.123 clk=9.877}": what --values, --visits and --times add
 * after a move. */
static void print_annotation(const GameRecord *r, const RecordPly *p, const DumpOptions *o)
{
    putchar('{');
    if (o->values) {
        if (p->value == RECORD_NO_VALUE)
            putchar('-');
        else
            printf("%.4f", record_value_double(p->value));
    }
    if (o->visits) {
        printf("%sn=%lu", o->values ? " " : "", (unsigned long)p->total_visits);
        for (uint32_t k = 0; k < p->num_visits; k++) {
            const RecordVisit *v = &r->visit[p->first_visit + k];
            char text[RECORD_MOVE_TEXT];
            record_move_format(v->move, text, sizeof text);
            printf("%c%s:%lu", k ? ';' : ' ', text, (unsigned long)v->visits);
        }
    }
    if (o->times)
        print_times(p, o->values || o->visits);
    putchar('}');
}

static void print_game(const GameRecord *r, const RecordsHeader *h, const DumpOptions *o)
{
    printf("game=%llu seed=%llu result=%s end=%s plies=%d", (unsigned long long)r->index, (unsigned long long)r->seed,
           result_name(r->result), record_end_name(r->end), r->plies);
    if (strcmp(r->start, h->board) != 0)
        printf(" start=\"%s\"", r->start);
    printf(" moves:");
    for (int i = 0; i < r->plies; i++) {
        char text[RECORD_MOVE_TEXT];
        record_move_format(r->ply[i].move, text, sizeof text);
        printf(" %s", text);
        if (o->values || o->visits || o->times)
            print_annotation(r, &r->ply[i], o);
    }
    putchar('\n');
}

static void read_options(int argc, char **argv, DumpOptions *o, const char **path)
{
    ArgReader r = {argc, argv, 1, "records dump", false};
    *path = NULL;
    while (r.index < argc) {
        const char *game = NULL;
        if (arg_operand(&r)) {
            if (*path)
                fail_exit("records dump", EXIT_USAGE, "one FILE only, got '%s' too", argv[r.index]);
            *path = argv[r.index++];
        } else if (arg_flag(&r, "--values")) {
            o->values = true;
        } else if (arg_flag(&r, "--visits")) {
            o->visits = true;
        } else if (arg_flag(&r, "--times")) {
            o->times = true;
        } else if (arg_value(&r, "--game", &game)) {
            o->one_game = true;
            o->game = (uint64_t)arg_integer("records dump", "--game", game, 0, 0x7FFFFFFFFFFFFFFF);
        } else {
            arg_common(&r, &records_dump_command);
        }
    }
    if (!*path)
        fail_exit("records dump", EXIT_USAGE, "missing FILE (see leuctra records dump --help)");
}

static int run_dump(int argc, char **argv)
{
    DumpOptions o = {0};
    const char *path;
    read_options(argc, argv, &o, &path);
    RecordsReader *rd = cli_records_open_or_fail("records dump", path);
    const RecordsHeader *h = records_reader_header(rd);
    GameRecord r;
    game_record_init(&r);
    Error err = {0};
    bool found = false;
    int rc = 0;
    /* Output lost (a full disk, cli/main.c says so at exit) ends the dump: the rest would be too. */
    while (!ferror(stdout) && (rc = records_next(rd, &r, &err)) == 1) {
        if (o.one_game && r.index != o.game)
            continue;
        print_game(&r, h, &o);
        found = true;
        if (o.one_game)
            break;
    }
    fflush(stdout);
    if (rc < 0)
        fail_with("records dump", &err);
    game_record_free(&r);
    records_close(rd);
    if (o.one_game && !found)
        fail_exit("records dump", EXIT_FAILURE_RUN, "%s: no game with index %llu", path, (unsigned long long)o.game);
    return 0;
}

const Command records_dump_command = {
    "dump", run_dump, "print games in docs/RULES.md notation, one per line",
    "usage: leuctra records dump FILE [--game N] [--values] [--visits] [--times]\n\n"
    "Prints each game of FILE on one line, in file order:\n"
    "  game=INDEX seed=SEED result=white-wins|black-wins|draw end=REASON plies=N [start=\"POS\"] moves: M M ...\n"
    "start= appears when the game began elsewhere than the board's start position.  Reasons:\n"
    "rules, ply-limit, repetition, no-move, resign, time (lost on time).\n\n"
    "  --game N    only the game with index N (exit 1 if there is none)\n"
    "  --values    after each move, {V}: the searcher's root value for the side to move, 0-1\n"
    "              (- when none was recorded)\n"
    "  --visits    after each move, {n=TOTAL MOVE:VISITS;...}: the search's root visits and the\n"
    "              visit list, most visited first (with --values: {V n=TOTAL ...})\n"
    "  --times     after each move, {t=SECONDS clk=SECONDS}: the time it took and the mover's\n"
    "              clock after it, - when not recorded (match records, format version 2)\n\n"
    "A damaged chunk stops the dump with its offset on stderr and exit status 1, after the games\n"
    "before it.\n\n"
    "example: leuctra records dump run1.lrec --game 12 --values\n",
};
