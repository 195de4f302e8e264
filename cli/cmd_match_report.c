/*
 * cmd_match_report.c - what `leuctra match` prints at the end (cli/match_cli.h): for two
 * players, the first player's wins, draws and losses, Elo from games and from pairs, and the
 * SPRT state (text or --json); for a tournament, one line per matchup and a ratings table of all
 * players (eval/ratings.h).
 * Only counted games enter (match_mark_counted: an SPRT stop leaves games in flight out).
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
    json_number("elo", have_elo ? e->elo : 0);
    json_number("elo_lower", have_elo ? e->elo_lower : 0);
    json_number("elo_upper", have_elo ? e->elo_upper : 0);
    json_number("los", have_elo ? e->los : 0.5);
    printf("\"pentanomial\":[%lld,%lld,%lld,%lld,%lld],\"adjudicated_draws\":%d,\"adjudicated_losses\":%d,"
           "\"mean_plies\":%.1f,",
           (long long)t->pairs.pairs[0], (long long)t->pairs.pairs[1], (long long)t->pairs.pairs[2],
           (long long)t->pairs.pairs[3], (long long)t->pairs.pairs[4], t->adjudicated, t->resigned,
           t->counted ? (double)t->plies / t->counted : 0);
    if (run->sprt)
        print_sprt_json(run->sprt);
    printf("\"incidents\":[%ld,%ld],\"resumed\":%d,\"played\":%d,\"seconds\":%.2f}\n", run->incidents[0],
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
    if (have_elo)
        printf("Elo %+.1f [%+.1f, %+.1f] (95%%), LOS %.1f%%\n", e->elo, e->elo_lower, e->elo_upper, 100 * e->los);
    EloEstimate ep;
    if (elo_pentanomial(&t->pairs, 0.95, &ep))
        printf("pairs (0, 1/2, 1, 3/2, 2 points): %lld %lld %lld %lld %lld, Elo %+.1f [%+.1f, %+.1f]\n",
               (long long)t->pairs.pairs[0], (long long)t->pairs.pairs[1], (long long)t->pairs.pairs[2],
               (long long)t->pairs.pairs[3], (long long)t->pairs.pairs[4], ep.elo, ep.elo_lower, ep.elo_upper);
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
    for (int i = 0; i < r.players; i++) {
        Trinomial c = results_player_totals(table, i);
        double games = (double)(c.wins + c.draws + c.losses);
        const PlayerRating *p = &r.rating[i];
        printf("%-32s %9.1f %7.1f %7.0f %6.1f%%  %s\n", results_name(table, i), p->elo, p->error, games,
               games > 0 ? 100 * ((double)c.wins + 0.5 * (double)c.draws) / games : 0,
               p->status == RATING_FINITE ? "" : rating_status_name(p->status));
    }
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

void match_report(const MatchRun *run, double seconds, void *report_options)
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
        if (run->num_matchups == 1)
            print_length_line(run, &t, seconds);
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
    if (run->num_matchups > 1)
        print_ratings(run);
}
