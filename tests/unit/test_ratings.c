/*
 * test_ratings.c - the results table and reader (eval/results.h) and the maximum-likelihood
 * ratings (eval/ratings.h): the results format line by line, two players where the answer is
 * known in closed form, round robins with known strengths (exact expected counts, which the fit
 * must return almost exactly, and simulated games, which it must return within the error bars),
 * the likelihood equations at the optimum, the error bars against a hand-inverted information
 * matrix, moving the anchor, and the players whose rating is infinite or undetermined.
 */
#include "core/rng.h"
#include "eval/ratings.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

#define CHECK_NEAR(t, got, want, tol)                                                                   \
    do {                                                                                                \
        double got_ = (got), want_ = (want);                                                            \
        if (!(fabs(got_ - want_) <= (tol))) {                                                           \
            fprintf(stderr, "  %s:%d: %s = %.12g, want %.12g (+/- %g)\n", __FILE__, __LINE__, #got, got_, \
                    want_, (double)(tol));                                                              \
            (t)->failures++;                                                                            \
        }                                                                                               \
    } while (0)

#define CHECK_CONTAINS(t, text, part)                                                                   \
    do {                                                                                                \
        if (!strstr((text), (part))) {                                                                  \
            fprintf(stderr, "  %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, (text), (part)); \
            (t)->failures++;                                                                            \
        }                                                                                               \
    } while (0)

static const double Z95 = 1.959963984540054;
static const double ELO_PER_NAT = 173.71779276130073;   /* 400 / ln 10 */

/* True strengths of the round robins, player 0 the anchor at 0. */
static const double TRUE_ELO[] = {0, -150, -60, 40, 100, 200};
enum { ROUND_ROBIN = sizeof TRUE_ELO / sizeof TRUE_ELO[0] };

static void add_named(ResultTable *t, const char *a, const char *b, int64_t wins, int64_t draws, int64_t losses)
{
    Trinomial c = {wins, draws, losses};
    int ia = results_player(t, a), ib = results_player(t, b);
    if (!results_add_games(t, ia, ib, &c))
        fprintf(stderr, "  cannot add %s-%s\n", a, b);
}

static bool fit_with_prior(TestContext *t, const ResultTable *table, int anchor, double anchor_elo, double prior,
                           Ratings *r)
{
    RatingsOptions o = {.anchor = anchor, .anchor_elo = anchor_elo, .confidence = 0.95, .prior_draws = prior};
    Error err;
    if (ratings_fit(table, &o, r, &err))
        return true;
    fprintf(stderr, "  ratings_fit: %s\n", err.msg);
    t->failures++;
    return false;
}

static bool fit(TestContext *t, const ResultTable *table, int anchor, double anchor_elo, Ratings *r)
{
    return fit_with_prior(t, table, anchor, anchor_elo, 0, r);
}

/* Every pair plays n games; 20% draws, wins and losses split so the expected score is the
 * logistic one (the draw rate needs every score inside [0.1, 0.9]: differences up to 380). */
static ResultTable *expected_round_robin(int64_t n)
{
    ResultTable *t = results_new();
    char name[16];
    for (int i = 0; i < ROUND_ROBIN; i++) {
        snprintf(name, sizeof name, "P%d", i);
        results_player(t, name);
    }
    for (int i = 0; i < ROUND_ROBIN; i++)
        for (int j = i + 1; j < ROUND_ROBIN; j++) {
            double s = elo_to_score(TRUE_ELO[i] - TRUE_ELO[j]);
            int64_t draws = n / 5, wins = llround((s - 0.1) * (double)n);
            Trinomial c = {wins, draws, n - wins - draws};
            results_add_games(t, i, j, &c);
        }
    return t;
}

static ResultTable *simulated_round_robin(int games_per_pair, uint64_t seed)
{
    ResultTable *t = expected_round_robin(0);
    Rng rng = rng_seed(seed, 0);
    for (int i = 0; i < ROUND_ROBIN; i++)
        for (int j = i + 1; j < ROUND_ROBIN; j++) {
            double s = elo_to_score(TRUE_ELO[i] - TRUE_ELO[j]);
            for (int g = 0; g < games_per_pair; g++) {
                double u = rng_double(&rng);
                GameOutcome o = u < s - 0.1 ? OUTCOME_WHITE_WINS : u < s + 0.1 ? OUTCOME_DRAW : OUTCOME_WHITE_LOSES;
                if (g % 2)   /* alternate colours: White is i on even games */
                    results_add_game(t, j, i, 2 - o);
                else
                    results_add_game(t, i, j, o);
            }
        }
    return t;
}

/* --- the results format ----------------------------------------------------------------------- */

static void test_parse_lines(TestContext *t)
{
    ResultTable *r = results_new();
    Error err;
    const char *good[] = {"alpha beta 1-0", "  beta\talpha 1/2-1/2   # a comment", "# only a comment", "", "\r\n",
                          "gamma alpha 0-1\r\n", "alpha gamma 1-0#tag"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK(t, results_parse_line(r, good[i], &err));
    CHECK(t, results_num_players(r) == 3);
    CHECK(t, results_num_games(r) == 4);
    CHECK(t, results_num_pairs(r) == 2);
    CHECK(t, results_find(r, "gamma") == 2);
    CHECK(t, results_find(r, "delta") == -1);
    CHECK_STR(t, results_name(r, 1), "beta");
    Trinomial alpha = results_player_totals(r, 0);
    CHECK(t, alpha.wins == 3);
    CHECK(t, alpha.draws == 1);
    CHECK(t, alpha.losses == 0);
    /* "alpha gamma 1-0#tag": the comment starts at the '#', even inside a field. */
    Trinomial gamma = results_player_totals(r, 2);
    CHECK(t, gamma.wins == 0);
    CHECK(t, gamma.losses == 2);
    results_free(r);
}

static void test_parse_errors(TestContext *t)
{
    static const struct {
        const char *line, *message;
    } bad[] = {
        {"alpha beta", "expected 3 fields"},
        {"alpha beta 1-0 extra", "expected 3 fields"},
        {"alpha beta 2-0", "result must be 1-0, 0-1 or 1/2-1/2, got '2-0'"},
        {"alpha beta *", "got '*'"},
        {"alpha alpha 1-0", "cannot play itself"},
        {"al\001pha beta 1-0", "control character"},
    };
    ResultTable *r = results_new();
    Error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(t, !results_parse_line(r, bad[i].line, &err));
        CHECK_CONTAINS(t, err.msg, bad[i].message);
    }
    char long_line[600];
    memset(long_line, 'x', 300);
    snprintf(long_line + 300, sizeof long_line - 300, " beta 1-0");
    CHECK(t, !results_parse_line(r, long_line, &err));
    CHECK_CONTAINS(t, err.msg, "longer than 255 bytes");
    CHECK(t, results_num_players(r) == 0);   /* nothing half-added by a rejected line */
    results_free(r);
}

static void test_read_stream(TestContext *t)
{
    ResultTable *r = results_new();
    Error err;
    const char text[] = "a b 1-0\nb c 1/2-1/2\nc a\n";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    CHECK(t, !results_read(r, f, "games.txt", &err));
    CHECK_STR(t, err.msg, "games.txt:3: expected 3 fields WHITE BLACK RESULT, got fewer");
    fclose(f);
    const char nul[] = "a b 1-0\nc\0d 1-0\n";
    f = fmemopen((void *)nul, sizeof nul - 1, "r");
    CHECK(t, !results_read(r, f, "nul.txt", &err));
    CHECK_STR(t, err.msg, "nul.txt:2: NUL byte in the line");
    fclose(f);
    const char fine[] = "x y 0-1\n\n# done";
    f = fmemopen((void *)fine, sizeof fine - 1, "r");
    CHECK(t, results_read(r, f, "fine.txt", &err));
    fclose(f);
    CHECK(t, results_player_totals(r, results_find(r, "y")).wins == 1);
    results_free(r);
}

static void test_table_growth_and_limits(TestContext *t)
{
    ResultTable *r = results_new();
    char a[16], b[16];
    for (int i = 0; i < 2000; i++) {
        snprintf(a, sizeof a, "v%d", i);
        snprintf(b, sizeof b, "v%d", (i * 7 + 1) % 2000);
        Trinomial one = {1, 0, 0};
        int ia = results_player(r, a), ib = results_player(r, b);
        CHECK(t, ia >= 0);
        CHECK(t, ib >= 0);
        CHECK(t, ia == ib || results_add_games(r, ia, ib, &one));
    }
    CHECK(t, results_num_players(r) == 2000);
    for (int i = 0; i < 2000; i++) {
        snprintf(a, sizeof a, "v%d", i);
        CHECK(t, results_find(r, a) >= 0 && strcmp(results_name(r, results_find(r, a)), a) == 0);
    }
    Trinomial negative = {-1, 0, 0}, one = {1, 0, 0};
    CHECK(t, !results_add_games(r, 0, 0, &one));
    CHECK(t, !results_add_games(r, 0, 5000, &one));
    CHECK(t, !results_add_games(r, 0, 1, &negative));
    CHECK(t, results_player(r, "") == -1);
    results_free(r);
}

/* --- two players: the closed form ------------------------------------------------------------- */

/* With two players the likelihood is that of one binomial proportion: the MLE puts the expected
 * score at the observed one, 30 wins and 10 losses -> 3/4 -> 400 log10 3 = 190.8485 Elo.  The
 * information is n p (1 - p) = 40 x 3/16 = 7.5 per natural unit squared, so the 95% error is
 * 1.959964 x (400 / ln 10) / sqrt(7.5) = 124.3259 Elo.  20 wins and 20 draws score the same 3/4
 * and, draws counting as half a win, give exactly the same answer. */
static void test_two_players(TestContext *t)
{
    ResultTable *decisive = results_new(), *drawish = results_new();
    add_named(decisive, "new", "base", 30, 0, 10);
    add_named(drawish, "new", "base", 20, 20, 0);
    double want_error = Z95 * ELO_PER_NAT / sqrt(7.5);
    ResultTable *tables[] = {decisive, drawish};
    for (int k = 0; k < 2; k++) {
        Ratings r;
        if (!fit(t, tables[k], 1, 0, &r))
            continue;
        CHECK_NEAR(t, r.rating[0].elo, 400 * log10(3.0), 1e-7);
        CHECK_NEAR(t, r.rating[0].error, want_error, 1e-6);
        CHECK_NEAR(t, r.rating[1].elo, 0, 0);
        CHECK_NEAR(t, r.rating[1].error, 0, 0);
        CHECK(t, r.fitted == 2);
        if (r.fitted == 2)
            CHECK(t, r.rating[0].status == RATING_FINITE);
        CHECK_NEAR(t, ratings_difference_error(&r, 0, 1, 0.95), want_error, 1e-6);
        CHECK_NEAR(t, ratings_covariance(&r, 0, 0), pow(want_error / Z95, 2), 1e-6);
        /* log-likelihood at the optimum: 30 log(3/4) + 10 log(1/4) */
        if (k == 0)
            CHECK_NEAR(t, r.log_likelihood, 30 * log(0.75) + 10 * log(0.25), 1e-9);
        ratings_free(&r);
    }
    CHECK_NEAR(t, 124.3259, want_error, 1e-4);
    results_free(decisive);
    results_free(drawish);
}

/* --- round robins ----------------------------------------------------------------------------- */

/* Exact expected counts: 20000 games a pair, the rounding of each win count moving a score by at
 * most 2.5e-5, i.e. well under 0.1 Elo. */
static void test_recovers_expected_strengths(TestContext *t)
{
    ResultTable *table = expected_round_robin(20000);
    Ratings r;
    if (fit(t, table, 0, 0, &r)) {
        for (int i = 0; i < ROUND_ROBIN; i++) {
            CHECK(t, r.rating[i].status == RATING_FINITE);
            CHECK_NEAR(t, r.rating[i].elo, TRUE_ELO[i], 0.1);
        }
        CHECK(t, r.iterations < 20);
        ratings_free(&r);
    }
    results_free(table);
}

/* Simulated games (400 a pair, fixed seed): every estimate within its error bar x 1.7, the
 * 99.9% band, and the likelihood equations hold at the optimum: each player's expected total
 * score under the fitted ratings equals its actual total (draws as halves). */
static void test_recovers_simulated_strengths(TestContext *t)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ResultTable *table = simulated_round_robin(400, seed);
        Ratings r;
        if (!fit(t, table, 0, 0, &r)) {
            results_free(table);
            continue;
        }
        for (int i = 1; i < ROUND_ROBIN; i++) {
            CHECK_NEAR(t, r.rating[i].elo, TRUE_ELO[i], 1.7 * r.rating[i].error);
            CHECK(t, r.rating[i].error > 15);
            if (r.rating[i].error > 15)
                CHECK(t, r.rating[i].error < 40);
        }
        double expected[ROUND_ROBIN] = {0};
        for (int k = 0; k < results_num_pairs(table); k++) {
            const PairTotals *p = results_pair(table, k);
            double n = (double)(p->wins_a + p->draws + p->wins_b);
            double s = elo_to_score(r.rating[p->a].elo - r.rating[p->b].elo);
            expected[p->a] += n * s;
            expected[p->b] += n * (1 - s);
        }
        for (int i = 0; i < ROUND_ROBIN; i++) {
            Trinomial c = results_player_totals(table, i);
            CHECK_NEAR(t, expected[i], (double)c.wins + 0.5 * (double)c.draws, 1e-6);
        }
        ratings_free(&r);
        results_free(table);
    }
}

/* Three players, anchor A: with w_XY = n p (1 - p) at the fitted ratings, the information
 * matrix of (B, C) is [[wAB + wBC, -wBC], [-wBC, wAC + wBC]], whose inverse's diagonal is
 * (wAC + wBC) / det and (wAB + wBC) / det, det = wAB wAC + wAB wBC + wAC wBC. */
static void test_error_bars_by_hand(TestContext *t)
{
    ResultTable *table = results_new();
    add_named(table, "A", "B", 50, 30, 20);
    add_named(table, "A", "C", 20, 10, 30);
    add_named(table, "B", "C", 15, 40, 45);
    Ratings r;
    if (fit(t, table, 0, 0, &r)) {
        double ra = r.rating[0].elo, rb = r.rating[1].elo, rc = r.rating[2].elo;
        double pab = elo_to_score(ra - rb), pac = elo_to_score(ra - rc), pbc = elo_to_score(rb - rc);
        double wab = 100 * pab * (1 - pab), wac = 60 * pac * (1 - pac), wbc = 100 * pbc * (1 - pbc);
        double det = wab * wac + wab * wbc + wac * wbc;
        CHECK_NEAR(t, r.rating[1].error, Z95 * ELO_PER_NAT * sqrt((wac + wbc) / det), 1e-6);
        CHECK_NEAR(t, r.rating[2].error, Z95 * ELO_PER_NAT * sqrt((wab + wbc) / det), 1e-6);
        CHECK_NEAR(t, ratings_covariance(&r, 1, 2), ELO_PER_NAT * ELO_PER_NAT * wbc / det, 1e-6);
        /* B - C: var B + var C - 2 cov = (wab + wac) / det, in natural units. */
        CHECK_NEAR(t, ratings_difference_error(&r, 1, 2, 0.95), Z95 * ELO_PER_NAT * sqrt((wab + wac) / det), 1e-6);
        ratings_free(&r);
    }
    results_free(table);
}

/* Another anchor or anchor Elo moves every rating by the same constant; the error bars follow
 * the anchor (an error bar is the uncertainty of a difference from it). */
static void test_anchor(TestContext *t)
{
    ResultTable *table = simulated_round_robin(200, 7);
    Ratings base, shifted, moved;
    if (fit(t, table, 0, 0, &base) && fit(t, table, 0, 1500, &shifted) && fit(t, table, 3, 40, &moved)) {
        double offset = moved.rating[0].elo - base.rating[0].elo;
        for (int i = 0; i < ROUND_ROBIN; i++) {
            CHECK_NEAR(t, shifted.rating[i].elo, base.rating[i].elo + 1500, 1e-6);
            CHECK_NEAR(t, shifted.rating[i].error, base.rating[i].error, 1e-9);
            CHECK_NEAR(t, moved.rating[i].elo, base.rating[i].elo + offset, 1e-6);
            CHECK_NEAR(t, ratings_difference_error(&moved, i, 3, 0.95), ratings_difference_error(&base, i, 3, 0.95),
                       1e-6);
        }
        CHECK_NEAR(t, moved.rating[3].elo, 40, 1e-12);
        CHECK_NEAR(t, moved.rating[3].error, 0, 0);
        CHECK_NEAR(t, moved.rating[0].error, base.rating[3].error, 1e-6);
        ratings_free(&base);
        ratings_free(&shifted);
        ratings_free(&moved);
    }
    Ratings bad;
    RatingsOptions nowhere = {.anchor = ROUND_ROBIN, .confidence = 0.95};
    Error err;
    CHECK(t, !ratings_fit(table, &nowhere, &bad, &err));
    CHECK_CONTAINS(t, err.msg, "anchor");
    results_free(table);
}

/* --- players without a finite rating ---------------------------------------------------------- */

/* Added to the simulated round robin: "loser" lost all its games (to P0 and P3): below;
 * "winner" beat P2 every time: above; "islandA"/"islandB" played only each other: unlinked;
 * "sideways" only beat "loser" and "victim" only lost to "winner": linked, but neither chain
 * runs both ways through the anchor's group, so undetermined.  The finite ratings do not move:
 * games with the flagged players carry no information on them in the limit. */
static void test_flags(TestContext *t)
{
    ResultTable *plain = simulated_round_robin(200, 11), *table = simulated_round_robin(200, 11);
    add_named(table, "P0", "loser", 10, 0, 0);
    add_named(table, "loser", "P3", 0, 0, 4);
    add_named(table, "winner", "P2", 5, 0, 0);
    add_named(table, "islandA", "islandB", 3, 4, 3);
    add_named(table, "sideways", "loser", 2, 0, 0);
    add_named(table, "victim", "winner", 0, 0, 6);
    Ratings r, base;
    if (fit(t, table, 0, 0, &r) && fit(t, plain, 0, 0, &base)) {
        static const struct {
            const char *name;
            RatingStatus status;
        } want[] = {{"loser", RATING_BELOW},         {"winner", RATING_ABOVE},         {"islandA", RATING_UNLINKED},
                    {"islandB", RATING_UNLINKED},     {"sideways", RATING_UNDETERMINED}, {"victim", RATING_UNDETERMINED}};
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
            int p = results_find(table, want[k].name);
            CHECK(t, r.rating[p].status == want[k].status);
            CHECK(t, isnan(r.rating[p].error));
        }
        CHECK(t, r.rating[results_find(table, "loser")].elo == -INFINITY);
        CHECK(t, r.rating[results_find(table, "winner")].elo == INFINITY);
        CHECK(t, isnan(r.rating[results_find(table, "victim")].elo));
        CHECK(t, r.fitted == ROUND_ROBIN);
        for (int i = 0; i < ROUND_ROBIN; i++) {
            CHECK_NEAR(t, r.rating[i].elo, base.rating[i].elo, 1e-9);
            CHECK_NEAR(t, r.rating[i].error, base.rating[i].error, 1e-9);
        }
        CHECK(t, isnan(ratings_covariance(&r, 0, results_find(table, "loser"))));
        CHECK_STR(t, ratings_status_name(RATING_BELOW), "below");
        ratings_free(&r);
        ratings_free(&base);
    }
    results_free(plain);
    results_free(table);
}

/* An anchor that lost every game: it alone is finite and everyone who beat it, or drew with
 * someone who did, is above it. */
static void test_anchor_lost_everything(TestContext *t)
{
    ResultTable *table = results_new();
    add_named(table, "weak", "strong", 0, 0, 8);
    add_named(table, "strong", "peer", 2, 5, 3);
    Ratings r;
    if (fit(t, table, 0, 1000, &r)) {
        CHECK(t, r.fitted == 1);
        CHECK_NEAR(t, r.rating[0].elo, 1000, 0);
        CHECK(t, r.rating[1].status == RATING_ABOVE);
        if (r.rating[1].status == RATING_ABOVE)
            CHECK(t, r.rating[2].status == RATING_ABOVE);
        ratings_free(&r);
    }
    results_free(table);
}

/* A prior of D virtual draws is exactly D more drawn games in every pair that played: a
 * perfect 10-0 becomes 11 points of 12, 400 log10(11) Elo; the flagged players of test_flags
 * all become finite except the islands, which no game links to the anchor. */
static void test_prior_virtual_draws(TestContext *t)
{
    ResultTable *perfect = results_new();
    add_named(perfect, "weak", "strong", 0, 0, 10);
    Ratings r;
    if (fit_with_prior(t, perfect, 0, 0, 2, &r)) {
        CHECK(t, r.rating[1].status == RATING_FINITE);
        CHECK_NEAR(t, r.rating[1].elo, 400 * log10(11), 1e-7);
        ratings_free(&r);
    }
    ResultTable *table = simulated_round_robin(50, 5), *drawn = simulated_round_robin(50, 5);
    add_named(table, "P0", "loser", 10, 0, 0);
    add_named(drawn, "P0", "loser", 10, 3, 0);
    add_named(table, "islandA", "islandB", 3, 0, 0);
    add_named(drawn, "islandA", "islandB", 3, 3, 0);
    for (int i = 0; i < ROUND_ROBIN; i++)
        for (int j = i + 1; j < ROUND_ROBIN; j++)
            results_add_games(drawn, i, j, &(Trinomial){0, 3, 0});
    Ratings with_prior, with_draws;
    if (fit_with_prior(t, table, 0, 0, 3, &with_prior) && fit(t, drawn, 0, 0, &with_draws)) {
        for (int p = 0; p < results_num_players(table); p++) {
            CHECK(t, with_prior.rating[p].status == with_draws.rating[p].status);
            if (with_draws.rating[p].status == RATING_FINITE) {
                CHECK_NEAR(t, with_prior.rating[p].elo, with_draws.rating[p].elo, 1e-7);
                CHECK_NEAR(t, with_prior.rating[p].error, with_draws.rating[p].error, 1e-7);
            }
        }
        CHECK(t, with_prior.rating[results_find(table, "loser")].status == RATING_FINITE);
        CHECK(t, with_prior.rating[results_find(table, "islandA")].status == RATING_UNLINKED);
        ratings_free(&with_prior);
        ratings_free(&with_draws);
    }
    Ratings bad;
    Error err;
    RatingsOptions negative = {.confidence = 0.95, .prior_draws = -1};
    CHECK(t, !ratings_fit(table, &negative, &bad, &err));
    CHECK_CONTAINS(t, err.msg, "prior");
    results_free(perfect);
    results_free(table);
    results_free(drawn);
}

const TestCase ratings_tests[] = {
    {"parse_lines", test_parse_lines},
    {"parse_errors", test_parse_errors},
    {"read_stream", test_read_stream},
    {"table_growth_and_limits", test_table_growth_and_limits},
    {"two_players", test_two_players},
    {"recovers_expected_strengths", test_recovers_expected_strengths},
    {"recovers_simulated_strengths", test_recovers_simulated_strengths},
    {"error_bars_by_hand", test_error_bars_by_hand},
    {"anchor", test_anchor},
    {"flags", test_flags},
    {"anchor_lost_everything", test_anchor_lost_everything},
    {"prior_virtual_draws", test_prior_virtual_draws},
    TEST_END,
};
