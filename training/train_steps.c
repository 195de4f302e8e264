/*
 * train_steps.c - one generation of `leuctra train` (train_cli.h): self-play of the best weights
 * so far, the fit of the whole model on the window's games, and the gate against the best.  A
 * step whose mark is in the folder is done and skipped; one that was under way resumes (the
 * self-play and the gate append their games crash-safely) or is run again (the fit, which is
 * deterministic).
 */
#include "train_run.h"

#include "core/pattern.h"
#include "data/weights.h"
#include "eval/elo.h"
#include "eval/match.h"
#include "cli/match_cli.h"
#include "cli/records_cli.h"
#include "selfplay/selfplay.h"
#include "tune_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const NAME = "train";

/* The likelihood of superiority at which an undecided gate still promotes. */
static const double LIKELY_BETTER = 0.95;

static void load_weights(const TrainRun *run, const char *rel, Weights *w)
{
    char path[TRAIN_PATH];
    train_path(run, path, "%s", rel);
    Error err;
    if (!weights_load(run->game, path, w, &err))
        fail_exit(NAME, EXIT_FAILURE_RUN, "%s", err.msg);
}

static bool best_has_priors(const TrainRun *run, const char *best_rel)
{
    Weights w;
    load_weights(run, best_rel, &w);
    const bool has = w.policy != NULL;
    weights_dispose(&w);
    return has;
}

static void format_duration(double seconds, char *buf, size_t len)
{
    long s = seconds > 0 && isfinite(seconds) ? (long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
}

/* --- self-play ---------------------------------------------------------------------------------- */

typedef struct {
    const TrainRun *run;
    int generation;
    double last;            /* seconds into the step of the last line */
} SelfplayLine;

static void selfplay_progress(const SelfplayProgress *p, void *ctx)
{
    SelfplayLine *line = ctx;
    if (p->played < p->to_play && p->seconds - line->last < 0.25)
        return;
    line->last = p->seconds;
    double rate = p->seconds > 0 ? (double)p->played / p->seconds : 0;
    char eta[32];
    format_duration(rate > 0 ? (double)(p->to_play - p->played) / rate : 0, eta, sizeof eta);
    fprintf(stderr, "\rgen %d self-play: %llu/%llu games  %.2f games/s  mean %.0f plies  ETA %s   ", line->generation,
            (unsigned long long)(p->present + p->played), (unsigned long long)p->total, rate,
            p->played ? (double)p->plies / (double)p->played : 0.0, eta);
    fflush(stderr);
}

static void step_selfplay(TrainRun *run, int k)
{
    char mark[64];
    snprintf(mark, sizeof mark, "gen%d/selfplay.done", k);
    if (train_exists(run, mark))
        return;
    const TrainOptions *o = run->o;
    char best_rel[64], out[TRAIN_PATH], command[128];
    train_weights_of(run, run->best, best_rel, sizeof best_rel);
    train_path(run, out, "gen%d/selfplay.lrec", k);
    Weights w;
    load_weights(run, best_rel, &w);
    SelfplayConfig cfg;
    selfplay_default_config(run->game, &cfg);
    cfg.visits = o->visits;
    cfg.seed = o->seed + (uint64_t)k;
    snprintf(command, sizeof command, "leuctra train (generation %d, self-play of gen%d)", k, run->best);
    char *settings = selfplay_settings_text(run->game, &run->start, &w, &cfg, command);
    if (!settings)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    train_log(run, "gen %d: self-play of gen%d, %ld games at %ld visits", k, run->best, o->games, o->visits);
    SelfplayLine line = {run, k, -1};
    SelfplayRun sr = {.game = run->game, .start = &run->start, .weights = &w, .config = &cfg, .settings = settings,
                      .path = out, .games = (uint64_t)o->games, .threads = o->threads, .resume = true,
                      .progress = run->tty ? selfplay_progress : NULL, .progress_ctx = &line};
    SelfplayProgress done;
    Error err = {0};
    bool all_ok, ok = selfplay_mpi_run(run->env, &sr, &done, &all_ok, &err);
    if (run->tty && done.played > 0 && run->env->rank == 0)
        fputc('\n', stderr);
    free(settings);
    weights_dispose(&w);
    if (!ok)
        fail_with(NAME, &err);
    if (!all_ok)
        fail_exit(NAME, EXIT_FAILURE_RUN, "another process failed (its message is above): run again with --resume");
    char took[32], text[256];
    format_duration(done.seconds, took, sizeof took);
    /* the mark holds nothing that depends on the machine: a resumed run writes the same bytes */
    snprintf(text, sizeof text, "%llu games\n", (unsigned long long)(done.present + done.played));
    train_write_text(run, mark, text);
    train_log(run, "gen %d: self-play done: %llu games, %llu positions played now in %s", k,
              (unsigned long long)(done.present + done.played), (unsigned long long)done.plies, took);
}

/* --- the fit ------------------------------------------------------------------------------------ */

/* The first generation whose self-play the fit of generation k reads: the last --window ones, and
 * further back, up to --window-max in all, every one that the best so far played (all those
 * since its promotion).  While no candidate beats the best its games pile up, and a fit on more
 * of them finds a better model: on Crossings 26 generations of one best's games made a
 * candidate +41 Elo over it, where the fits on 3 had stayed level with it for 26 generations
 * (docs/BENCHMARKS.md). */
static int window_first(const TrainRun *run, int k)
{
    const TrainOptions *o = run->o;
    int first = k - o->window + 1;
    const int widest = run->best + 1 > k - o->window_max + 1 ? run->best + 1 : k - o->window_max + 1;
    if (widest < first)
        first = widest;
    return first > 1 ? first : 1;
}

static void step_tune(TrainRun *run, int k)
{
    char mark[64];
    snprintf(mark, sizeof mark, "gen%d/tune.json", k);
    if (train_exists(run, mark))
        return;
    const TrainOptions *o = run->o;
    const int first = window_first(run, k), count = k - first + 1;
    char best_rel[64], out_rel[64], init[TRAIN_PATH], out[TRAIN_PATH], note[TRAIN_PATH + 1024];
    train_weights_of(run, run->best, best_rel, sizeof best_rel);
    const bool text_out = o->linear_only && strstr(best_rel, ".txt");
    snprintf(out_rel, sizeof out_rel, "gen%d/weights.%s", k, text_out ? "txt" : "lwt");
    train_path(run, init, "%s", best_rel);
    train_path(run, out, "%s", out_rel);
    char (*paths)[TRAIN_PATH] = malloc((size_t)count * sizeof *paths);
    const char **data = malloc((size_t)count * sizeof *data);
    if (!paths || !data)
        fail_exit(NAME, EXIT_FAILURE_RUN, "out of memory");
    for (int j = first; j <= k; j++) {
        train_path(run, paths[j - first], "gen%d/selfplay.lrec", j);
        data[j - first] = paths[j - first];
    }
    /* the provenance's command is the options' (training_tune_command), paths relative to DIR:
     * the same words in every run of the folder */
    TuneOptions t = {.data = data, .num_data = count, .out = out, .init = init,
                     .data_opts = tune_data_defaults(), .fit_opts = tune_fit_defaults(),
                     .policy_opts = tune_policy_defaults(), .folder = o->dir,
                     .linear_only = o->linear_only, .date = ""};
    t.data_opts.threads = t.fit_opts.threads = o->threads;
    t.data_opts.lambda = o->lambda;
    if (!o->linear_only) {
        /* tables and priors from start weights without them; priors only where their fit can
         * run (one process, searches of enough visits) */
        t.tables = true;
        t.priors = run->env->size == 1 && o->visits >= t.policy_opts.min_visits;
        t.shapes = o->shapes;
        if (o->l2_tables)
            t.fit_opts.l2_tables = o->l2_tables;
        /* after --priors-generations the best's priors are kept: refitted to the visits of
         * searches they steer, they came to agree with themselves and the searches explored
         * less (docs/TRAINING.md); a best without any still has them fitted */
        if (o->priors_generations && k > o->priors_generations && best_has_priors(run, best_rel)) {
            t.priors = false;
            t.no_priors = true;
        }
    }
    char command[TRAIN_PATH + 512];
    train_command_text(run, command, sizeof command);
    snprintf(note, sizeof note, "generation %d of leuctra train, on the self-play of generations %d-%d\nrun: %s", k,
             first, k, command);
    t.note = note;
    train_log(run, "gen %d: fit of the %s model to the self-play of generations %d-%d", k,
              o->linear_only ? "linear" : "whole", first, k);
    TuneWork work;
    Error err = {0};
    bool ok = training_tune_run(&t, run->env, &work, &err);
    if (ok && run->env->rank == 0) {
        char path[TRAIN_PATH];
        train_path(run, path, "%s", mark);
        CliOutput report;
        training_tune_json(&work.summary, cli_output_open(NAME, path, &report));
        cli_output_commit(NAME, &report);
        char before[32], after[32];
        train_log(run, "gen %d: fit done: validation log-loss %s before, %s after", k,
                  tune_loss_text(work.summary.valid_before.target, before),
                  tune_loss_text(work.summary.valid_after.target, after));
    }
    training_tune_free(&work);
    free(data);
    free(paths);
    if (!ok) {
        if (err.elsewhere)
            exit(err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE);
        if (err.kind != 0)      /* a records file's error names its file */
            fail_with(NAME, &err);
        fail_exit(NAME, err.failure ? EXIT_FAILURE_RUN : EXIT_USAGE, "gen %d's fit: %s", k, err.msg);
    }
    mpi_env_all(run->env, true);
}

/* --- the gate ----------------------------------------------------------------------------------- */

void train_player(long visits, const char *weights, SearchSetup *setup)
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
}

static const char *decision_word(SprtDecision d)
{
    return d == SPRT_ACCEPT_H1 ? "H1" : d == SPRT_ACCEPT_H0 ? "H0" : "none";
}

void train_match(const TrainRun *run, const SearchSetup *const setup[2], const char *const name[2], long games,
                 uint64_t seed, const SprtTest *sprt, const char *records, const char *results, TrainMatchResult *out)
{
    MatchOptions mo = {.games = (int)games, .concurrency = run->o->threads, .max_plies = 600, .opening_plies = 4,
                       .repetition = true, .seed = seed, .openings_path = run->openings_path, .out_path = records,
                       .results_path = results, .resume = true, .sprt_on = sprt != NULL,
                       .progress = run->tty ? match_progress_line : NULL, .player_output.note = cli_note_line};
    if (sprt)
        mo.sprt = *sprt;
    for (int i = 0; i < 2; i++) {
        mo.setup[i] = setup[i];
        snprintf(mo.name[i], sizeof mo.name[i], "%s", name[i]);
    }
    mo.players = 2;
    OpeningSuite suite;
    openings_init(&suite);
    Error err;
    if (!openings_load(&suite, run->game, &run->start, run->openings_path, &err))
        fail_with(NAME, &err);
    *out = (TrainMatchResult){0};
    MatchProgressLine line = {false};
    mo.progress_ctx = &line;
    bool ok = match_run(run->game, &run->start, &mo, &suite, gate_report, out, &err);
    match_progress_end(&line);
    openings_free(&suite);
    if (!ok)
        fail_with(NAME, &err);
}

static void step_gate(TrainRun *run, int k)
{
    char mark[64];
    snprintf(mark, sizeof mark, "gen%d/verdict", k);
    if (train_exists(run, mark))
        return;
    const TrainOptions *o = run->o;
    char cand_rel[64], best_rel[64], cand[TRAIN_PATH], best[TRAIN_PATH], records[TRAIN_PATH], results[TRAIN_PATH];
    train_weights_of(run, k, cand_rel, sizeof cand_rel);
    train_weights_of(run, run->best, best_rel, sizeof best_rel);
    train_path(run, cand, "%s", cand_rel);
    train_path(run, best, "%s", best_rel);
    train_path(run, records, "gen%d/match.lrec", k);
    train_path(run, results, "gen%d/match.txt", k);
    SearchSetup setup_a, setup_b;
    train_player(o->gate_visits, cand, &setup_a);
    train_player(o->gate_visits, best, &setup_b);
    char name_a[32], name_b[32];
    snprintf(name_a, sizeof name_a, "gen%d", k);
    snprintf(name_b, sizeof name_b, "gen%d", run->best);
    train_log(run, "gen %d: gate against gen%d, SPRT elo0=%g elo1=%g, at most %ld games at %ld visits", k, run->best,
              o->sprt.elo0, o->sprt.elo1, o->gate_games, o->gate_visits);
    TrainMatchResult g = {0};
    if (run->env->rank == 0) {
        const SearchSetup *const setup[2] = {&setup_a, &setup_b};
        const char *const name[2] = {name_a, name_b};
        train_match(run, setup, name, o->gate_games, o->seed + (uint64_t)k, &o->sprt, records, results, &g);
    }
    EloEstimate e;
    bool have_elo = elo_trinomial(&g.totals.games, 0.95, &e);
    /* H1 promotes, H0 rejects; a test the game cap left undecided promotes when the candidate
     * is better with 95% likelihood of superiority, so that a run with a modest gate still
     * climbs where the test would need thousands of games to be sure of a small gain. */
    const bool likely = g.decision == SPRT_CONTINUE && have_elo && e.los >= LIKELY_BETTER;
    const char *verdict = g.decision == SPRT_ACCEPT_H1 || likely ? "promoted"
                          : g.decision == SPRT_ACCEPT_H0         ? "rejected"
                                                                 : "undecided";
    char json[1024], text[64];
    snprintf(json, sizeof json, "{\"generation\":%d,\"against\":%d,\"decision\":\"%s\",\"verdict\":\"%s\","
             "\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"llr\":%.4f,\"elo\":%.1f,\"elo_lower\":%.1f,"
             "\"elo_upper\":%.1f,\"los\":%.4f}\n", k, run->best, decision_word(g.decision), verdict,
             (long long)g.totals.games.wins, (long long)g.totals.games.draws, (long long)g.totals.games.losses,
             isfinite(g.llr) ? g.llr : 0.0, have_elo && isfinite(e.elo) ? e.elo : 0.0,
             have_elo && isfinite(e.elo_lower) ? e.elo_lower : 0.0, have_elo && isfinite(e.elo_upper) ? e.elo_upper : 0.0,
             have_elo ? e.los : 0.5);
    char json_rel[64];
    snprintf(json_rel, sizeof json_rel, "gen%d/match.json", k);
    train_write_text(run, json_rel, json);
    snprintf(text, sizeof text, "%s\n", verdict);
    train_write_text(run, mark, text);
    char score[96];
    train_score_text(&g.totals.games, score, sizeof score);
    train_log(run, "gen %d: %s%s: %s against gen%d, LLR %.2f, LOS %.1f%%", k, verdict,
              likely ? " (SPRT undecided at the game cap, LOS >= 95%)" : "", score, run->best,
              isfinite(g.llr) ? g.llr : 0.0, have_elo ? 100 * e.los : 50.0);
}

/* --- a generation ------------------------------------------------------------------------------ */

const char *train_verdict(const TrainRun *run, int k)
{
    static const char *const verdicts[] = {"promoted", "rejected", "undecided"};
    char path[TRAIN_PATH], word[32] = "";
    train_path(run, path, "gen%d/verdict", k);
    FILE *in = fopen(path, "r");
    if (!mpi_env_all(run->env, in != NULL)) {
        if (in)
            fclose(in);
        return NULL;
    }
    int got = fscanf(in, "%31s", word);
    fclose(in);
    for (int i = 0; got == 1 && i < 3; i++)
        if (strcmp(word, verdicts[i]) == 0)
            return verdicts[i];
    fail_exit(NAME, EXIT_USAGE, "%s: expected promoted, rejected or undecided, got '%s'", path, word);
}

void train_generation(TrainRun *run, int k)
{
    char folder[TRAIN_PATH];
    train_path(run, folder, "gen%d", k);
    if (run->env->rank == 0 && mkdir(folder, 0777) != 0 && errno != EEXIST)
        fail_exit(NAME, EXIT_FAILURE_RUN, "cannot make %s: %s", folder, strerror(errno));
    mpi_env_all(run->env, true);
    step_selfplay(run, k);
    train_save_elapsed(run);
    step_tune(run, k);
    train_save_elapsed(run);
    step_gate(run, k);
}
