/*
 * match_sprt.c - the SPRT of `leuctra match --sprt`, fed in pair order: pair j enters the
 * pentanomial counts only once both its games and every earlier pair are done, so the point
 * where the test stops depends on the games alone, never on which game finished first; and the
 * match it decided is exactly those pairs (match_keep_decided).
 */
#include "eval/match.h"

void match_sprt_init(MatchSprt *s, const SprtTest *test)
{
    *s = (MatchSprt){*test, {{0, 0, 0, 0, 0}}, 0, 0.0, SPRT_CONTINUE};
}

bool match_sprt_advance(MatchSprt *s, const MatchRun *run)
{
    int pairs = run->options->games / 2;
    while (s->decision == SPRT_CONTINUE && s->next_pair < pairs) {
        int k = 2 * s->next_pair;
        if (!run->games[k].done || !run->games[k + 1].done)
            return false;
        s->counts.pairs[match_first_score(run, k) + match_first_score(run, k + 1) + 2]++;
        s->next_pair++;
        s->llr = sprt_llr_pentanomial(&s->counts, &s->test);
        s->decision = sprt_decide(&s->test, s->llr);
        if (s->decision != SPRT_CONTINUE)
            return true;
    }
    return false;
}

void match_keep_decided(MatchRun *run)
{
    /* A decided test is the match of exactly the pairs it saw: games still in flight when it
     * stopped would bias the result towards fast games if counted, and how many there were
     * depends on the timing, the concurrency and the processes; so they are left out of the
     * files too, which then hold the same games however the match was played. */
    run->limit = run->total;
    if (run->sprt && run->sprt->decision != SPRT_CONTINUE)
        run->limit = 2 * run->sprt->next_pair;
    run->played = run->resumed = 0;
    for (int k = 0; k < run->total; k++) {
        MatchGame *g = &run->games[k];
        if (k >= run->limit)
            g->done = false;
        run->played += g->done && !g->resumed;
        run->resumed += g->done && g->resumed;
    }
}

void match_mark_counted(MatchRun *run)
{
    for (int k = 0; k < run->total; k++)
        run->games[k].counted = run->games[k].done && k < run->limit;
}

const char *match_sprt_decision_name(SprtDecision d)
{
    switch (d) {
    case SPRT_ACCEPT_H0: return "H0";
    case SPRT_ACCEPT_H1: return "H1";
    default: return "none";
    }
}
