/*
 * match_pgn.c - `leuctra match --pgn FILE`: the match's games as text that people and other
 * tools read, in the layout of chess's PGN (tag pairs, then the moves with {comments}): one
 * block a game, in game order, made from the canonical records file at the end of the match so
 * that resumed games are in it too.  docs/MATCHES.md gives the tags and the comments.
 */
#include "eval/match.h"

#include "data/output_file.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { LINE_WIDTH = 79 };

/* A tag pair; PGN escapes the quote and the backslash. */
static void put_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', out);
        fputc(*c, out);
    }
    fputs("\"]\n", out);
}

static const char *result_text(GameStatus s)
{
    return s == STATUS_WHITE_WINS ? "1-0" : s == STATUS_BLACK_WINS ? "0-1" : "1/2-1/2";
}

/* PGN's Termination for an end reason (the exact reason is in the Reason tag). */
static const char *termination(RecordEnd e)
{
    switch (e) {
    case RECORD_END_PLY_LIMIT:
    case RECORD_END_REPETITION:
    case RECORD_END_RESIGN: return "adjudication";
    case RECORD_END_NO_MOVE: return "rules infraction";
    case RECORD_END_TIME: return "time forfeit";
    default: return "normal";
    }
}

static void put_opening_tag(FILE *out, const MatchRun *run, int k)
{
    char text[160];
    int pair = k % run->options->games / 2;
    if (run->suite->count > 0)
        snprintf(text, sizeof text, "%s #%d", run->options->openings_path, pair % run->suite->count + 1);
    else
        snprintf(text, sizeof text, "%d random plies (pair %d)", run->options->opening_plies, pair);
    put_tag(out, "Opening", text);
}

static void put_clock_tags(FILE *out, const MatchRun *run, int white, int black, const GameRecord *r)
{
    char w[48], b[48];
    time_control_format(&run->options->tc[white], w, sizeof w);
    time_control_format(&run->options->tc[black], b, sizeof b);
    if (strcmp(w, b) == 0) {
        put_tag(out, "TimeControl", w);
    } else {
        put_tag(out, "WhiteTimeControl", w);
        put_tag(out, "BlackTimeControl", b);
    }
    const char *names[2] = {"WhiteClockLeft", "BlackClockLeft"};
    for (int side = 0; side < 2; side++) {
        if (r->final_clock_ms[side] == RECORD_NO_CLOCK)
            continue;
        snprintf(w, sizeof w, "%.3f", record_clock_seconds(r->final_clock_ms[side]));
        put_tag(out, names[side], w);
    }
}

static void put_tags(FILE *out, const MatchRun *run, const GameRecord *r)
{
    int k = (int)r->index;
    const Matchup *m = &run->matchup[k / run->options->games];
    bool first_white = match_first_is_white(run, k);
    int white = first_white ? m->first : m->second, black = first_white ? m->second : m->first;
    char text[64];
    put_tag(out, "Event", "leuctra match");
    put_tag(out, "Site", "?");
    put_tag(out, "Date", "????.??.??");
    snprintf(text, sizeof text, "%d", k + 1);
    put_tag(out, "Round", text);
    put_tag(out, "White", run->options->name[white]);
    put_tag(out, "Black", run->options->name[black]);
    put_tag(out, "Result", result_text(r->result));
    put_tag(out, "Variant", run->game->name);
    snprintf(text, sizeof text, "%dx%d", run->game->width, run->game->height);
    put_tag(out, "Board", text);
    put_opening_tag(out, run, k);
    put_tag(out, "FEN", r->start);
    put_tag(out, "Termination", termination(r->end));
    put_tag(out, "Reason", record_end_name(r->end));
    snprintf(text, sizeof text, "%d", r->plies);
    put_tag(out, "PlyCount", text);
    put_clock_tags(out, run, white, black, r);
}

/* A word of the move text, wrapped at LINE_WIDTH. */
static void put_word(FILE *out, const char *word, int *column)
{
    int n = (int)strlen(word);
    if (*column > 0 && *column + 1 + n > LINE_WIDTH) {
        fputc('\n', out);
        *column = 0;
    } else if (*column > 0) {
        fputc(' ', out);
        (*column)++;
    }
    fputs(word, out);
    *column += n;
}

/* A ply's comment: {p=value n=visits t=seconds clk=clock} with what it has; "" for nothing. */
static void ply_comment(const RecordPly *p, char *buf, size_t len)
{
    int n = 0;
    buf[0] = '\0';
    if (p->value != RECORD_NO_VALUE)
        n += snprintf(buf + n, len - (size_t)n, " p=%.4f", record_value_double(p->value));
    if (p->total_visits > 0)
        n += snprintf(buf + n, len - (size_t)n, " n=%lu", (unsigned long)p->total_visits);
    if (p->time_ms != RECORD_NO_TIME)
        n += snprintf(buf + n, len - (size_t)n, " t=%.3f", p->time_ms / 1000.0);
    if (p->clock_ms != RECORD_NO_CLOCK)
        n += snprintf(buf + n, len - (size_t)n, " clk=%.3f", record_clock_seconds(p->clock_ms));
    if (n > 0) {
        buf[0] = '{';
        snprintf(buf + n, len - (size_t)n, "}");
    }
}

/* The moves, numbered by pairs of plies from the start position (a first ply by the side that
 * moves second in the rules' order is numbered "1..."), then the result. */
static void put_moves(FILE *out, const MatchRun *run, const GameRecord *r)
{
    Position start, rules_start;
    Error err;
    game_start(run->game, &rules_start);
    bool second_first = game_parse_position(run->game, r->start, &start, &err) &&
                        game_side_to_move(run->game, &start) != game_side_to_move(run->game, &rules_start);
    int column = 0;
    for (int i = 0; i < r->plies; i++) {
        char word[160];
        int ply = i + second_first;
        if (ply % 2 == 0 || i == 0) {
            snprintf(word, sizeof word, "%d.%s", ply / 2 + 1, ply % 2 ? ".." : "");
            put_word(out, word, &column);
        }
        record_move_format(r->ply[i].move, word, sizeof word);
        put_word(out, word, &column);
        ply_comment(&r->ply[i], word, sizeof word);
        if (word[0])
            put_word(out, word, &column);
    }
    put_word(out, result_text(r->result), &column);
    fputs("\n\n", out);
}

bool match_write_pgn(const MatchRun *run, Error *err)
{
    Error e;
    RecordsReader *reader = records_open(run->options->out_path, &e);
    if (!reader) {
        error_failed(err, "%s", e.msg);
        return false;
    }
    OutputFile file;
    FILE *out = output_file_open(&file, run->options->pgn_path, err) ? output_file_stream(&file) : NULL;
    if (!out) {
        output_file_discard(&file);
        records_close(reader);
        return false;
    }
    GameRecord g;
    game_record_init(&g);
    int status;
    while ((status = records_next(reader, &g, &e)) == 1) {
        if (g.index >= (uint64_t)run->total)
            continue;
        put_tags(out, run, &g);
        fputc('\n', out);
        put_moves(out, run, &g);
    }
    game_record_free(&g);
    records_close(reader);
    if (status < 0) {
        output_file_discard(&file);
        error_failed(err, "%s", e.msg);
        return false;
    }
    return output_file_commit(&file, err);
}
