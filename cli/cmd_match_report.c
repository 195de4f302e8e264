/*
 * cmd_match_report.c - what `leuctra match` prints at the end (cli/match_cli.h): for two
 * players, the first player's wins, draws and losses, Elo from games and from pairs, and the
 * SPRT state (text or --json); for a tournament, one line per matchup and a ratings table of all
 * players (eval/ratings.h); each player's time per move, clock left and losses on time.
 * Only counted games enter (match_mark_counted: an SPRT stop leaves games in flight out).  No
 * Elo is ever printed as infinite: a perfect score gets the bound its games support instead.
 */
#include "cli/match_cli.h"
#include "core/utf8.h"
#include "eval/ratings.h"

#include <math.h>
#include <stdio.h>

/* JSON has no infinities: a score of 0 or 1 gives an unbounded Elo, written as null. */
static void json_number(const char *key, double v)
{
    if (isfinite(v))
        printf("\"%s\":%.4f,", key, v);
    else
        printf("\"%s\":null,", key);
}

/* An estimate whose interval ends say what the data support: at a perfect score the point and
 * the normal interval are infinite, and the end that exists is the exact bound of n trials. */
static EloEstimate bounded(const EloEstimate *e, double trials)
{
    EloEstimate b = *e;
    if (b.elo == INFINITY)
        b.elo_lower = elo_perfect_score_bound(trials, 0.95);
    else if (b.elo == -INFINITY)
        b.elo_upper = -elo_perfect_score_bound(trials, 0.95);
    return b;
}

/* "Elo +12.3 [-4.5, +29.0]", with words where an end or the estimate is infinite. */
static void format_elo(const EloEstimate *e, double trials, const char *what, char *buf, size_t len)
{
    EloEstimate b = bounded(e, trials);
    char lo[48] = "no lower bound", hi[48] = "no upper bound";
    if (!isfinite(b.elo)) {
        snprintf(buf, len, "Elo %s %+.1f (95%%, exact: every %s %s, so no point estimate)", b.elo > 0 ? ">" : "<",
                 b.elo > 0 ? b.elo_lower : b.elo_upper, what, b.elo > 0 ? "won" : "lost");
        return;
    }
    if (isfinite(b.elo_lower))
        snprintf(lo, sizeof lo, "%+.1f", b.elo_lower);
    if (isfinite(b.elo_upper))
        snprintf(hi, sizeof hi, "%+.1f", b.elo_upper);
    snprintf(buf, len, "Elo %+.1f [%s, %s]", b.elo, lo, hi);
}

static void json_time(const char *key, const TimeTotals *t)
{
    printf("\"%s\":{\"moves\":%ld,\"mean\":%.4f,\"max\":%.4f,", key, t->moves,
           t->moves ? t->seconds / (double)t->moves : 0, t->max_seconds);
    json_number("clock_left", t->clocked ? t->clock_left / t->clocked : NAN);
    printf("\"clocked_games\":%d,\"forfeits\":%d}", t->clocked, t->forfeits);
}

/* An LLR that could not be computed is null, not 0: a number there would read as "even". */
static void print_sprt_json(const MatchSprt *s)
{
    printf("\"sprt\":{\"elo0\":%g,\"elo1\":%g,\"alpha\":%g,\"beta\":%g,\"model\":\"%s\",", s->test.elo0,
           s->test.elo1, s->test.alpha, s->test.beta, s->test.model == ELO_LOGISTIC ? "logistic" : "normalized");
    json_number("llr", s->llr);
    json_number("lower", sprt_lower_bound(&s->test));
    json_number("upper", sprt_upper_bound(&s->test));
    printf("\"pairs\":%d,\"decision\":\"%s\"},", s->next_pair, match_sprt_decision_name(s->decision));
}

static void print_json(const MatchRun *run, const MatchTotals *t, const EloEstimate *e, bool have_elo,
                       double seconds)
{
    const MatchOptions *o = run->options;
    printf("{\"first\":");
    utf8_put_json(stdout, o->name[0]);
    printf(",\"second\":");
    utf8_put_json(stdout, o->name[1]);
    printf(",\"games\":%d,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"score\":%.4f,", t->counted, (long long)t->games.wins, (long long)t->games.draws,
           (long long)t->games.losses, have_elo ? e->score : 0.5);
    EloEstimate b = have_elo ? bounded(e, t->counted) : *e;
    json_number("elo", have_elo ? b.elo : 0);
    json_number("elo_lower", have_elo ? b.elo_lower : 0);
    json_number("elo_upper", have_elo ? b.elo_upper : 0);
    json_number("los", have_elo ? b.los : 0.5);
    printf("\"pentanomial\":[%lld,%lld,%lld,%lld,%lld],\"adjudicated_draws\":%d,\"adjudicated_losses\":%d,"
           "\"mean_plies\":%.1f,",
           (long long)t->pairs.pairs[0], (long long)t->pairs.pairs[1], (long long)t->pairs.pairs[2],
           (long long)t->pairs.pairs[3], (long long)t->pairs.pairs[4], t->adjudicated, t->resigned,
           t->counted ? (double)t->plies / t->counted : 0);
    if (run->sprt)
        print_sprt_json(run->sprt);
    printf("\"time\":{");
    json_time("first", &t->time[0]);
    putchar(',');
    json_time("second", &t->time[1]);
    printf("},\"incidents\":[%ld,%ld],\"resumed\":%d,\"played\":%d,\"seconds\":%.2f}\n", run->incidents[0],
           run->incidents[1], run->resumed, run->played, seconds);
}

static void print_sprt(const MatchSprt *s)
{
    printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g (%s Elo, pairs): LLR %.2f [%.2f, %.2f] after %d pairs: %s\n",
           s->test.elo0, s->test.elo1, s->test.alpha, s->test.beta,
           s->test.model == ELO_LOGISTIC ? "logistic" : "normalized", s->llr, sprt_lower_bound(&s->test),
           sprt_upper_bound(&s->test), s->next_pair,
           s->decision == SPRT_ACCEPT_H1   ? "H1 accepted (first player stronger by elo1)"
           : s->decision == SPRT_ACCEPT_H0 ? "H0 accepted (not elo1 stronger)"
                                           : "no decision yet");
}

static void print_text(const MatchRun *run, int m, const MatchTotals *t, const EloEstimate *e, bool have_elo)
{
    const char *first = run->options->name[run->matchup[m].first];
    const char *second = run->options->name[run->matchup[m].second];
    double n = t->counted ? t->counted : 1;
    printf("%s vs %s: %d games, +%lld =%lld -%lld, score %.1f%% for %s\n", first, second, t->counted,
           (long long)t->games.wins, (long long)t->games.draws, (long long)t->games.losses,
           100 * ((double)t->games.wins + 0.5 * (double)t->games.draws) / n, first);
    char elo[160];
    if (have_elo) {
        format_elo(e, t->counted, "game", elo, sizeof elo);
        printf("%s%s, LOS %.1f%%\n", elo, isfinite(e->elo) ? " (95%)" : "", 100 * e->los);
    }
    EloEstimate ep;
    if (elo_pentanomial(&t->pairs, 0.95, &ep)) {
        format_elo(&ep, ep.games / 2, "pair", elo, sizeof elo);
        printf("pairs (0, 1/2, 1, 3/2, 2 points): %lld %lld %lld %lld %lld, %s\n", (long long)t->pairs.pairs[0],
               (long long)t->pairs.pairs[1], (long long)t->pairs.pairs[2], (long long)t->pairs.pairs[3],
               (long long)t->pairs.pairs[4], elo);
    }
}

/* One player's time: per move, the clock at the end, losses on time. */
static void print_player_time(const char *name, const TimeTotals *t)
{
    printf("  %s: %ld moves, %.3f s a move (max %.3f s)", name, t->moves, t->moves ? t->seconds / (double)t->moves : 0,
           t->max_seconds);
    if (t->clocked)
        printf(", %.2f s left at the end (mean of %d games), %d lost on time", t->clock_left / t->clocked, t->clocked,
               t->forfeits);
    putchar('\n');
}

static void print_time(const MatchRun *run, int m, const MatchTotals *t)
{
    printf("time:\n");
    print_player_time(run->options->name[run->matchup[m].first], &t->time[0]);
    print_player_time(run->options->name[run->matchup[m].second], &t->time[1]);
}

/* The ratings of every player from the counted games, the first player anchored at 0. */
static void print_ratings(const MatchRun *run)
{
    ResultTable *table = match_results_table(run);
    if (!table)
        fail_exit("match", EXIT_FAILURE_RUN, "out of memory");
    RatingsOptions ro = {.anchor = 0, .confidence = 0.95};
    Ratings r;
    Error err;
    if (!ratings_fit(table, &ro, &r, &err))
        fail_exit("match", EXIT_FAILURE_RUN, "%s", err.msg);
    printf("\n%-32s %9s %7s %7s %7s\n", "name", "Elo", "+/-", "games", "score");
    bool unplaced = false;
    for (int i = 0; i < r.players; i++) {
        Trinomial c = results_player_totals(table, i);
        double games = (double)(c.wins + c.draws + c.losses);
        const PlayerRating *p = &r.rating[i];
        char elo[16] = "-", error[16] = "-";
        if (p->status == RATING_FINITE) {
            snprintf(elo, sizeof elo, "%.1f", p->elo);
            snprintf(error, sizeof error, "%.1f", p->error);
        }
        unplaced = unplaced || p->status != RATING_FINITE;
        printf("%-32s %9s %7s %7.0f %6.1f%%  %s\n", results_name(table, i), elo, error, games,
               games > 0 ? 100 * ((double)c.wins + 0.5 * (double)c.draws) / games : 0,
               p->status == RATING_FINITE ? "" : ratings_status_name(p->status));
    }
    if (unplaced)
        printf("above / below: won / lost every game linking it to %s, so the games give no finite rating;\n"
               "undetermined / unlinked: not placed by these games (leuctra ratings --prior 2 gives every one a "
               "number)\n", results_name(table, 0));
    ratings_free(&r);
    results_free(table);
}

static void print_length_line(const MatchRun *run, const MatchTotals *t, double seconds)
{
    char adjudicated[64];
    if (run->options->resign_moves)
        snprintf(adjudicated, sizeof adjudicated, "%d draws and %d losses", t->adjudicated, t->resigned);
    else
        snprintf(adjudicated, sizeof adjudicated, "%d draws", t->adjudicated);
    printf("mean length %.1f plies, %s adjudicated, %.1f s (%.2f games/min)\n",
           t->counted ? (double)t->plies / t->counted : 0, adjudicated, seconds,
           seconds > 0 ? run->played / seconds * 60 : 0);
}

void cli_match_report(const MatchRun *run, double seconds, void *report_options)
{
    const MatchReportOptions *how = report_options;
    for (int m = 0; m < run->num_matchups; m++) {
        MatchTotals t = match_totals(run, m);
        EloEstimate e;
        bool have_elo = elo_trinomial(&t.games, 0.95, &e);
        if (how->json && run->num_matchups == 1) {
            print_json(run, &t, &e, have_elo, seconds);
            return;
        }
        print_text(run, m, &t, &e, have_elo);
        if (run->num_matchups == 1) {
            print_length_line(run, &t, seconds);
            print_time(run, m, &t);
        }
    }
    if (run->sprt)
        print_sprt(run->sprt);
    for (int i = 0; i < run->options->players; i++)
        if (run->incidents[i])
            printf("incidents: %s had %ld (each lost its game; stderr lists them)\n", run->options->name[i],
                   run->incidents[i]);
    if (run->resumed)
        printf("resumed: %d games read from %s, %d played now\n", run->resumed, run->options->out_path, run->played);
    if (run->removed_temps)
        printf("resume removed %d temporary file%s (%s.tmp.*) that a stopped run left\n", run->removed_temps,
               run->removed_temps == 1 ? "" : "s", run->options->out_path);
    if (run->played_by) {
        printf("processes: %d (mpirun), games played by each:", run->mpi->size);
        for (int r = 0; r < run->mpi->size; r++)
            printf("%s%llu", r ? "+" : " ", (unsigned long long)run->played_by[r]);
        printf("\n");
    }
    if (run->num_matchups > 1)
        print_ratings(run);
}
