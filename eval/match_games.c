/*
 * match_games.c - the table of a match's games (eval/match.h): which player is White in game k
 * and how it ended from the first player's side, and the counted games summed per matchup or
 * gathered into a results table for ratings.  Every step reads it (the game loop, the pair-order
 * SPRT, the files, the report); its own file because the game loop feeds the SPRT, which scored
 * the pairs through the game loop's file, a loop.
 */
#include "eval/match.h"

#include <math.h>

bool match_first_is_white(const MatchRun *run, int k)
{
    return k % run->options->games % 2 == 0;
}

int match_first_score(const MatchRun *run, int k)
{
    const MatchGame *m = &run->games[k];
    if (m->result == STATUS_DRAW)
        return 0;
    bool white_won = m->result == STATUS_WHITE_WINS;
    return white_won == match_first_is_white(run, k) ? 1 : -1;
}

MatchGame match_game_of_record(const MatchRun *run, const GameRecord *r)
{
    MatchGame m = {.done = true, .result = r->result, .reason = driver_end_reason_of_record(r->end),
                   .plies = r->plies, .time = {{0, 0, 0, NAN}, {0, 0, 0, NAN}}};
    Position start;
    Error err;
    int mover = game_parse_position(run->game, r->start, &start, &err) ? game_side_to_move(run->game, &start) : WHITE;
    for (int i = 0; i < r->plies; i++, mover = !mover) {
        SideTime *t = &m.time[mover];
        if (r->ply[i].time_ms == RECORD_NO_TIME)
            continue;
        float seconds = (float)(r->ply[i].time_ms / 1000.0);
        t->moves++;
        t->seconds += seconds;
        t->max_seconds = fmaxf(t->max_seconds, seconds);
    }
    for (int side = 0; side < 2; side++)
        m.time[side].clock_left = (float)record_clock_seconds(r->final_clock_ms[side]);
    return m;
}

/* One game's time into a player's totals; `lost` when that player lost the game. */
static void add_time(TimeTotals *t, const MatchGame *g, int side, bool lost)
{
    const SideTime *s = &g->time[side];
    t->moves += s->moves;
    t->seconds += s->seconds;
    t->max_seconds = fmax(t->max_seconds, s->max_seconds);
    if (!isnan(s->clock_left)) {
        t->clocked++;
        t->clock_left += s->clock_left;
    }
    t->forfeits += lost && g->reason == END_TIME_FORFEIT;
}

/* Counted games of matchup m from its first player's side; a pair counts when both games do. */
MatchTotals match_totals(const MatchRun *run, int m)
{
    MatchTotals t = {{0, 0, 0}, {{0, 0, 0, 0, 0}}, 0, 0, 0, 0, {{0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}}};
    int base = m * run->options->games;
    for (int k = base; k < base + run->options->games; k++) {
        const MatchGame *g = &run->games[k];
        if (!g->counted)
            continue;
        int s = match_first_score(run, k);
        t.games.wins += s > 0;
        t.games.draws += s == 0;
        t.games.losses += s < 0;
        t.counted++;
        t.adjudicated += g->reason == END_PLY_LIMIT || g->reason == END_REPETITION;
        t.resigned += g->reason == END_RESIGN;
        t.plies += g->plies;
        int first_side = match_first_is_white(run, k) ? WHITE : BLACK;
        add_time(&t.time[0], g, first_side, s < 0);
        add_time(&t.time[1], g, !first_side, s > 0);
        if ((k - base) % 2 == 1 && run->games[k - 1].counted)
            t.pairs.pairs[match_first_score(run, k - 1) + s + 2]++;
    }
    return t;
}

ResultTable *match_results_table(const MatchRun *run)
{
    ResultTable *table = results_new();
    if (!table)
        return NULL;
    for (int i = 0; i < run->options->players; i++)
        results_player(table, run->options->name[i]);
    for (int k = 0; k < run->total; k++) {
        if (!run->games[k].counted)
            continue;
        const Matchup *m = &run->matchup[k / run->options->games];
        bool fw = match_first_is_white(run, k);
        GameStatus s = run->games[k].result;
        results_add_game(table, fw ? m->first : m->second, fw ? m->second : m->first,
                         s == STATUS_WHITE_WINS ? OUTCOME_WHITE_WINS
                         : s == STATUS_BLACK_WINS ? OUTCOME_WHITE_LOSES : OUTCOME_DRAW);
    }
    return table;
}
