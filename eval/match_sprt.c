/*
 * match_sprt.c - the SPRT of `leuctra match --sprt`, fed in pair order: pair j enters the
 * pentanomial counts only once both its games and every earlier pair are done, so the point
 * where the test stops depends on the games alone, never on which game finished first.
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

void match_mark_counted(MatchRun *run)
{
    /* A decided test counts exactly the pairs it saw: games still in flight when it stopped
     * finished (and are in the records file) but would bias the result towards fast games. */
    int limit = run->total;
    if (run->sprt && run->sprt->decision != SPRT_CONTINUE)
        limit = 2 * run->sprt->next_pair;
    for (int k = 0; k < run->total; k++)
        run->games[k].counted = run->games[k].done && k < limit;
}

const char *match_sprt_decision_name(SprtDecision d)
{
    switch (d) {
    case SPRT_ACCEPT_H0: return "H0";
    case SPRT_ACCEPT_H1: return "H1";
    default: return "none";
    }
}
