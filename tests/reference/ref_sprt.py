#!/usr/bin/env python3
"""ref_sprt.py - an independent reference for the match statistics of eval/ (docs/STATISTICS.md).

Written in plain Python (standard library only) from the published descriptions, not from the C
code, so that tests/unit/test_elo.c compares two separate implementations:

  * Michel Van den Bergh, "Comments on normalized Elo"
    (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf), section 4.1, and
    "Maximum likelihood estimation of a multinomial distribution with given expectation value"
    (https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf), proposition 1.1;
  * as fishtest applies them in server/fishtest/stats/LLRcalc.py (regularize, results_to_pdf,
    MLE_expected, MLE_t_value, LLR_logistic, LLR_normalized) and stat_util.py (get_elo,
    the SPRT bounds);
  * the t-value confidence interval of fishtest's raw-statistics page (tests_stats: t_conf);
  * cutechess's projects/lib/src/elo.cpp (trinomial Elo, its error margin, LOS).

Usage:
    python3 tests/reference/ref_sprt.py          prints the C tables that tests/unit/test_elo.c embeds
    python3 tests/reference/ref_sprt.py --show   prints the same numbers readably

The one deliberate difference from fishtest: fishtest solves the secular equation with scipy's
brentq (absolute tolerance 2e-12); this script bisects to the last bit, so the two agree to
about 1e-10 in the LLR, far below the tolerance the C tests use (1e-7 relative).
"""
import math
import sys
from statistics import NormalDist

NELO_PER_T = 800 / math.log(10)  # fishtest's nelo_divided_by_nt = 347.43558552260146
PHI = NormalDist()


# --- empirical distributions (fishtest LLRcalc) ----------------------------------------------

def regularize(counts):
    """fishtest: an empty outcome gets 1e-3 of a count so every logarithm stays finite."""
    return [c if c != 0 else 1e-3 for c in counts]


def results_to_pdf(counts):
    """Counts ordered from worst to best outcome -> (N, [(score per game, probability)])."""
    counts = regularize(counts)
    n = sum(counts)
    k = len(counts)
    return n, [(i / (k - 1), c / n) for i, c in enumerate(counts)]


def mean_var(pdf):
    mu = sum(p * a for a, p in pdf)
    return mu, sum(p * (a - mu) ** 2 for a, p in pdf)


def moments(pdf):
    mu, var = mean_var(pdf)
    m3 = sum(p * (a - mu) ** 3 for a, p in pdf)
    m4 = sum(p * (a - mu) ** 4 for a, p in pdf)
    return mu, var, m3 / var ** 1.5, m4 / var ** 2 - 3


# --- the secular equation sum_i p_i a_i / (1 + x a_i) = 0 ------------------------------------

def secular(pdf):
    """The root lies between -1/max(a) and -1/min(a), where the function falls from +inf to
    -inf; fishtest brackets it 1e-9 inside those poles and so do we, then bisect."""
    values = [a for a, _ in pdf]
    lo, hi = -1 / max(values) + 1e-9, -1 / min(values) - 1e-9

    def f(x):
        return sum(p * a / (1 + x * a) for a, p in pdf)

    assert min(values) < 0 < max(values) and f(lo) > 0 > f(hi)
    for _ in range(2000):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_expected(pdf, s):
    """Proposition 1.1: the most likely distribution on the same outcomes with mean s."""
    x = secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def mle_t_value(pdf, ref, t):
    """Section 4.1: the most likely distribution with (mu - ref) / sigma = t, by the fixed-point
    iteration fishtest runs (at most 10 rounds, stopping when no probability moves by 1e-9)."""
    mle = [(a, 1 / len(pdf)) for a, _ in pdf]
    for _ in range(10):
        previous = mle
        mu, var = mean_var(mle)
        sigma = var ** 0.5
        shifted = [(a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = secular(shifted)
        mle = [(a, p / (1 + x * b)) for (a, p), (b, _) in zip(pdf, shifted)]
        if max(abs(u[1] - v[1]) for u, v in zip(previous, mle)) < 1e-9:
            break
    return mle


def llr(pdf, pdf0, pdf1):
    return sum(p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdf, pdf0, pdf1))


def logistic_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr_logistic(elo0, elo1, counts):
    n, pdf = results_to_pdf(counts)
    return n * llr(pdf, mle_expected(pdf, logistic_score(elo0)), mle_expected(pdf, logistic_score(elo1)))


def llr_normalized(nelo0, nelo1, counts):
    """Pairs: the t-value of the pair mean is sqrt(2) times the per-game one."""
    n, pdf = results_to_pdf(counts)
    scale = 2 ** 0.5 if len(counts) == 5 else 1.0
    t0, t1 = (nelo / NELO_PER_T * scale for nelo in (nelo0, nelo1))
    return n * llr(pdf, mle_t_value(pdf, 0.5, t0), mle_t_value(pdf, 0.5, t1))


def sprt_bounds(alpha, beta):
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# --- Elo estimates ----------------------------------------------------------------------------

def elo(score):
    return -400 * math.log10(1 / score - 1)


def elo_summary(counts, confidence=0.95):
    """counts: [L, D, W] or the five pair counts, worst first; no regularization (the C code
    reports Elo from the raw counts).  Returns score, Elo, its interval ends, the +/- margin
    (half the interval, as cutechess and fishtest print), LOS, nElo and its interval."""
    n = sum(counts)
    k = len(counts)
    pdf = [(i / (k - 1), c / n) for i, c in enumerate(counts)]
    mu, var, skew, exkurt = moments(pdf)
    z = PHI.inv_cdf(0.5 + confidence / 2)
    sd_mean = (var / n) ** 0.5
    lo, hi = elo(mu - z * sd_mean), elo(mu + z * sd_mean)
    if k == 3:
        wins, losses = counts[2], counts[0]
        los = PHI.cdf((wins - losses) / (wins + losses) ** 0.5)
        scale = 1.0
    else:
        los = PHI.cdf((mu - 0.5) / sd_mean)
        scale = 2 ** 0.5
    t = (mu - 0.5) / var ** 0.5
    var_t = max(1 - t * skew + 0.25 * t * t * (exkurt + 2), 0)
    t_lo, t_hi = t - z * (var_t / n) ** 0.5, t + z * (var_t / n) ** 0.5
    nelo = [NELO_PER_T * v / scale for v in (t, t_lo, t_hi)]
    return [mu, elo(mu), lo, hi, (hi - lo) / 2, los] + nelo


# --- the cases tests/unit/test_elo.c checks ----------------------------------------------------------

# (counts worst first, model, elo0, elo1); sources of the counts are in tests/unit/test_elo.c.
SPRT_CASES = [
    ([352, 579, 1264, 743, 464], "normalized", 9.0, 16.0),
    ([0, 0, 1, 8, 1], "normalized", 0.0, 50.0),
    ([39, 8843, 26675, 9240, 44], "normalized", 0.5, 2.5),
    ([10789, 19328, 33806, 19402, 10543], "normalized", 0.0, 2.0),
    ([10789, 19328, 33806, 19402, 10543], "logistic", -3.0, 1.0),
    ([1187, 7410, 13475, 7378, 1164], "normalized", -1.75, 0.25),
    ([39, 2226, 31451, 2412, 40], "normalized", 0.764, 3.439),
    ([39, 2226, 31451, 2412, 40], "logistic", 0.2, 0.9),
    ([5, 22, 48, 18, 7], "normalized", 0.0, 5.0),
    ([1, 20, 300, 900, 779], "normalized", 0.0, 2.0),
    ([13624, 34333, 13543], "logistic", -3.0, 1.0),
    ([65804, 56553, 65388], "logistic", -3.0, 1.0),
    ([591, 2163, 716], "logistic", 0.0, 6.0),
    ([0, 20, 10], "logistic", 0.0, 5.0),
    ([22569, 44137, 22976], "normalized", 0.5, 2.5),
]

ELO_CASES = [
    [352, 579, 1264, 743, 464],
    [0, 0, 1, 8, 1],
    [1, 10, 78, 48, 13],
    [10789, 19328, 33806, 19402, 10543],
    [16, 206, 78],
    [591, 2163, 716],
    [2330, 1756, 2718],
]


def c_counts(counts):
    return "{" + ", ".join(str(c) for c in counts) + "}"


def print_c():
    print("/* Generated by tests/reference/ref_sprt.py; regenerate with: python3 tests/reference/ref_sprt.py */")
    print("static const SprtCase sprt_cases[] = {")
    for counts, model, e0, e1 in SPRT_CASES:
        f = llr_logistic if model == "logistic" else llr_normalized
        model_c = "ELO_LOGISTIC" if model == "logistic" else "ELO_NORMALIZED"
        print(f"    {{{len(counts)}, {c_counts(counts)}, {model_c}, {e0!r}, {e1!r}, {f(e0, e1, counts)!r}}},")
    print("};")
    print("static const EloCase elo_cases[] = {")
    for counts in ELO_CASES:
        values = ", ".join(repr(v) for v in elo_summary(counts))
        print(f"    {{{len(counts)}, {c_counts(counts)}, {{{values}}}}},")
    print("};")


def show():
    for counts, model, e0, e1 in SPRT_CASES:
        f = llr_logistic if model == "logistic" else llr_normalized
        print(f"{counts} {model} [{e0}, {e1}]: LLR {f(e0, e1, counts):.6f}")
    for counts in ELO_CASES:
        v = elo_summary(counts)
        print(f"{counts}: score {v[0]:.5f} Elo {v[1]:.2f} +/- {v[4]:.2f} [{v[2]:.2f}, {v[3]:.2f}] "
              f"LOS {v[5]:.5f} nElo {v[6]:.2f} [{v[7]:.2f}, {v[8]:.2f}]")
    print("bounds alpha=beta=0.05: [%.6f, %.6f]" % sprt_bounds(0.05, 0.05))


if __name__ == "__main__":
    show() if "--show" in sys.argv[1:] else print_c()
