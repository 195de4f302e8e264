/*
 * train_gate.c - the gate of a generation (train_run.h): the candidate against the best so far
 * under an SPRT, its verdict (the gate's mark, DIR/genK/verdict) and report; and the matches of
 * the run, the gate's and the ladder's, with players made from search set-ups, their game pairs
 * spread over the processes under mpirun.
 */
#include "train_run.h"

#include "core/clock.h"
#include "data/openings.h"
#include "eval/elo.h"
#include "eval/match.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The likelihood of superiority at which an undecided gate still promotes. */
static const double LIKELY_BETTER = 0.95;

void training_player(long visits, const char *weights, SearchSetup *setup)
{
    search_setup_default(setup);
    setup->limits.visits = visits;
    snprintf(setup->eval_path, sizeof setup->eval_path, "%s", weights ? weights : "");
}

static void gate_report(const MatchRun *m, double seconds, void *ctx)
{
    (void)seconds;
    TrainMatchResult *g = ctx;
    g->totals = match_totals(m, 0);
    g->decision = m->sprt ? m->sprt->decision : SPRT_CONTINUE;
    g->llr = m->sprt ? m->sprt->llr : NAN;
    g->reported = true;
    training_shares_text(m->mpi, m->played_by, "games played", NULL, NULL, g->shares, sizeof g->shares);
}

static const char *decision_word(SprtDecision d)
{
    return d == SPRT_ACCEPT_H1 ? "H1" : d == SPRT_ACCEPT_H0 ? "H0" : "none";
}

bool training_match(const TrainRun *run, const SearchSetup *const setup[2], const char *const name[2], long games,
                    uint64_t seed, const SprtTest *sprt, const char *records, const char *results,
                    TrainMatchResult *out, Error *err)
{
    const TrainOutput *o = run->out;
    const bool say = run->env->rank == 0;   /* the output is process 0's */
    MatchOptions mo = {.games = (int)games, .concurrency = run->o->threads, .max_plies = 600, .opening_plies = 4,
                       .repetition = true, .seed = seed, .openings_path = run->openings_path, .out_path = records,
                       .results_path = results, .resume = true, .sprt_on = sprt != NULL,
                       .progress = say ? o->match_progress : NULL, .progress_ctx = o->ctx,
                       .player_output = {.note = say ? o->note : NULL, .note_ctx = o->ctx}, .mpi = run->env};
    if (sprt)
        mo.sprt = *sprt;
    for (int i = 0; i < 2; i++) {
        mo.setup[i] = setup[i];
        snprintf(mo.name[i], sizeof mo.name[i], "%s", name[i]);
    }
    mo.players = 2;
    OpeningSuite suite;
    openings_init(&suite);
    const bool loaded = openings_load(&suite, run->game, &run->start, run->openings_path, err);
    if (!mpi_env_agree(run->env, loaded, err)) {
        if (loaded)
            openings_free(&suite);
        return false;
    }
    *out = (TrainMatchResult){0};
    const double t0 = clock_seconds();
    bool ok = match_run(run->game, &run->start, &mo, &suite, gate_report, out, err);
    out->seconds = clock_seconds() - t0;
    if (o->progress_end && say)
        o->progress_end(o->ctx);
    openings_free(&suite);
    return ok;
}

/* The gate's players, candidate k and the best, and its match (every process its share). */
static bool play_gate(TrainRun *run, int k, TrainMatchResult *g, Error *err)
{
    const TrainOptions *o = run->o;
    char cand_rel[64], best_rel[64], cand[TRAIN_PATH], best[TRAIN_PATH], records[TRAIN_PATH], results[TRAIN_PATH];
    training_weights_of(run, k, cand_rel, sizeof cand_rel);
    training_weights_of(run, run->best, best_rel, sizeof best_rel);
    training_path(run, cand, "%s", cand_rel);
    training_path(run, best, "%s", best_rel);
    training_path(run, records, "gen%d/match.lrec", k);
    training_path(run, results, "gen%d/match.txt", k);
    SearchSetup setup_a, setup_b;
    training_player(o->gate_visits, cand, &setup_a);
    training_player(o->gate_visits, best, &setup_b);
    char name_a[32], name_b[32];
    snprintf(name_a, sizeof name_a, "gen%d", k);
    snprintf(name_b, sizeof name_b, "gen%d", run->best);
    if (!training_log(run, err, "gen %d: gate against gen%d, SPRT elo0=%g elo1=%g, at most %ld games at %ld visits", k,
                      run->best, o->sprt.elo0, o->sprt.elo1, o->gate_games, o->gate_visits))
        return false;
    const SearchSetup *const setup[2] = {&setup_a, &setup_b};
    const char *const name[2] = {name_a, name_b};
    return training_match(run, setup, name, o->gate_games, o->seed + (uint64_t)k, &o->sprt, records, results, g, err);
}

bool training_gate(TrainRun *run, int k, Error *err)
{
    char mark[64];
    snprintf(mark, sizeof mark, "gen%d/verdict", k);
    if (training_exists(run, mark))
        return true;
    TrainMatchResult g = {0};
    if (!play_gate(run, k, &g, err))
        return false;
    EloEstimate e;
    bool have_elo = elo_trinomial(&g.totals.games, 0.95, &e);
    /* H1 promotes, H0 rejects; a test the game cap left undecided promotes when the candidate
     * is better with 95% likelihood of superiority, so that a run with a modest gate still
     * climbs where the test would need thousands of games to be sure of a small gain. */
    const bool likely = g.decision == SPRT_CONTINUE && have_elo && e.los >= LIKELY_BETTER;
    const char *verdict = g.decision == SPRT_ACCEPT_H1 || likely ? "promoted"
                          : g.decision == SPRT_ACCEPT_H0         ? "rejected"
                                                                 : "undecided";
    char json[1024], text[64], json_rel[64], score[96], took[32];
    training_duration_text(g.seconds, took, sizeof took);
    snprintf(json, sizeof json, "{\"generation\":%d,\"against\":%d,\"decision\":\"%s\",\"verdict\":\"%s\","
             "\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"llr\":%.4f,\"elo\":%.1f,\"elo_lower\":%.1f,"
             "\"elo_upper\":%.1f,\"los\":%.4f}\n", k, run->best, decision_word(g.decision), verdict,
             (long long)g.totals.games.wins, (long long)g.totals.games.draws, (long long)g.totals.games.losses,
             isfinite(g.llr) ? g.llr : 0.0, have_elo && isfinite(e.elo) ? e.elo : 0.0,
             have_elo && isfinite(e.elo_lower) ? e.elo_lower : 0.0, have_elo && isfinite(e.elo_upper) ? e.elo_upper : 0.0,
             have_elo ? e.los : 0.5);
    snprintf(json_rel, sizeof json_rel, "gen%d/match.json", k);
    snprintf(text, sizeof text, "%s\n", verdict);
    training_score_text(&g.totals.games, score, sizeof score);
    return training_write_text(run, json_rel, json, err) && training_write_text(run, mark, text, err) &&
           training_log(run, err, "gen %d: %s%s: %s against gen%d, LLR %.2f, LOS %.1f%% in %s%s", k, verdict,
                        likely ? " (SPRT undecided at the game cap, LOS >= 95%)" : "", score, run->best,
                        isfinite(g.llr) ? g.llr : 0.0, have_elo ? 100 * e.los : 50.0, took, g.shares);
}

bool training_verdict(const TrainRun *run, int k, const char **verdict, Error *err)
{
    static const char *const verdicts[] = {"promoted", "rejected", "undecided"};
    char path[TRAIN_PATH], word[32] = "";
    training_path(run, path, "gen%d/verdict", k);
    *verdict = NULL;
    FILE *in = fopen(path, "r");
    if (!mpi_env_all(run->env, in != NULL)) {
        if (in)
            fclose(in);
        return true;
    }
    int got = fscanf(in, "%31s", word);
    fclose(in);
    for (int i = 0; got == 1 && i < 3; i++)
        if (strcmp(word, verdicts[i]) == 0) {
            *verdict = verdicts[i];
            return true;
        }
    return error_set(err, "%s: expected promoted, rejected or undecided, got '%s'", path, word);
}
