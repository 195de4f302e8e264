/*
 * ratings.c - the maximum-likelihood fit of ratings.h: Newton's method with a backtracking line
 * search on the Bradley-Terry log-likelihood, then the inverse observed information for the
 * error bars.
 *
 * Work in natural units, theta = Elo * ln 10 / 400, so P(a beats b) = sigmoid(theta_a -
 * theta_b).  For a pair with n games of which a scored s_a points (draws as halves) and b
 * scored s_b, the negative log-likelihood is -s_a log sigmoid(d) - s_b log sigmoid(-d) with
 * d = theta_a - theta_b; its gradient in theta_a is n sigmoid(d) - s_a, its curvature
 * w = n sigmoid(d) sigmoid(-d), entering the Hessian as a weighted graph Laplacian.  With the
 * anchor's row and column removed and the fitted players strongly connected (ratings_graph.c),
 * the Hessian is positive definite and the negative log-likelihood strictly convex, so Newton
 * with backtracking converges to the unique optimum.  The Hessian here is also the Fisher
 * information (it does not depend on the results, only on the predictions), so its inverse is
 * the usual asymptotic covariance of the estimates.
 */
#include "eval/ratings.h"

#include "eval/cholesky.h"
#include "eval/ratings_graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Elo per natural unit: 400 / ln 10. */
static const double ELO_PER_NAT = 173.71779276130073;

/* Newton stops when no rating moves by more than this (natural units: about 2e-9 Elo). */
static const double STEP_TOLERANCE = 1e-11;
/* Steps shorter than this (about 2e-4 Elo) are taken whole, without the line search: so close
 * to the optimum the objective changes by less than its own rounding, so Armijo's test cannot
 * tell better from worse, while the quadratic model Newton uses is all but exact. */
static const double FULL_STEP_BELOW = 1e-6;
enum { MAX_NEWTON_STEPS = 200, MAX_HALVINGS = 60 };

typedef struct {
    const ResultTable *table;
    int anchor;
    int rows;              /* fitted players but the anchor */
    const int *row;        /* player -> row, -1 for the anchor and unfitted players */
    int *pairs;            /* indexes of the pairs between fitted players */
    int num_pairs;
    double half_prior;     /* points each side of a pair gets from the virtual draws */
} Problem;

static double sigmoid(double x)
{
    return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
}

/* log(1 + e^x) without overflow. */
static double softplus(double x)
{
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

static double points_a(const Problem *pr, const PairTotals *p)
{
    return (double)p->wins_a + 0.5 * (double)p->draws + pr->half_prior;
}

static double points_b(const Problem *pr, const PairTotals *p)
{
    return (double)p->wins_b + 0.5 * (double)p->draws + pr->half_prior;
}

static double negative_log_likelihood(const Problem *pr, const double *theta)
{
    double sum = 0;
    for (int k = 0; k < pr->num_pairs; k++) {
        const PairTotals *p = results_pair(pr->table, pr->pairs[k]);
        double d = theta[p->a] - theta[p->b];
        sum += points_a(pr, p) * softplus(-d) + points_b(pr, p) * softplus(d);
    }
    return sum;
}

/* Gradient (rows entries) and Hessian (rows x rows) of the negative log-likelihood. */
static void derivatives(const Problem *pr, const double *theta, double *gradient, double *hessian)
{
    int m = pr->rows;
    memset(gradient, 0, (size_t)m * sizeof *gradient);
    memset(hessian, 0, (size_t)m * m * sizeof *hessian);
    for (int k = 0; k < pr->num_pairs; k++) {
        const PairTotals *p = results_pair(pr->table, pr->pairs[k]);
        double d = theta[p->a] - theta[p->b], n = points_a(pr, p) + points_b(pr, p);
        double g = n * sigmoid(d) - points_a(pr, p), w = n * sigmoid(d) * sigmoid(-d);
        int ra = pr->row[p->a], rb = pr->row[p->b];
        if (ra >= 0) {
            gradient[ra] += g;
            hessian[(size_t)ra * m + ra] += w;
        }
        if (rb >= 0) {
            gradient[rb] -= g;
            hessian[(size_t)rb * m + rb] += w;
        }
        if (ra >= 0 && rb >= 0) {
            hessian[(size_t)ra * m + rb] -= w;
            hessian[(size_t)rb * m + ra] -= w;
        }
    }
}

typedef struct {
    double *theta, *trial;   /* per player */
    double *gradient, *step; /* per row */
    double *hessian;         /* rows x rows; its Cholesky factor after a step */
} Workspace;

/* Moves theta along the Newton direction in step, halving it until the objective falls by
 * Armijo's sufficient decrease; false if no halving does. */
static bool line_search(const Problem *pr, Workspace *w, int players, double *objective)
{
    double slope = 0;
    for (int r = 0; r < pr->rows; r++)
        slope += w->gradient[r] * w->step[r];
    double scale = 1;
    for (int halving = 0; halving <= MAX_HALVINGS; halving++, scale /= 2) {
        memcpy(w->trial, w->theta, (size_t)players * sizeof *w->trial);
        for (int v = 0; v < players; v++)
            if (pr->row[v] >= 0)
                w->trial[v] += scale * w->step[pr->row[v]];
        double value = negative_log_likelihood(pr, w->trial);
        if (value <= *objective + 1e-4 * scale * slope) {
            *objective = value;
            memcpy(w->theta, w->trial, (size_t)players * sizeof *w->theta);
            return true;
        }
    }
    return false;
}

static void take_full_step(const Problem *pr, Workspace *w, int players)
{
    for (int v = 0; v < players; v++)
        if (pr->row[v] >= 0)
            w->theta[v] += w->step[pr->row[v]];
}

static double largest_entry(const double *v, int n)
{
    double largest = 0;
    for (int i = 0; i < n; i++)
        largest = fmax(largest, fabs(v[i]));
    return largest;
}

/* Newton's method from all ratings equal, until a full step would move no rating by more than
 * STEP_TOLERANCE; false if a Hessian is not positive definite or the steps never settle
 * (neither happens for a strongly connected group). */
static bool newton(const Problem *pr, Workspace *w, int players, int *iterations)
{
    double objective = negative_log_likelihood(pr, w->theta);
    for (int it = 1; it <= MAX_NEWTON_STEPS; it++) {
        derivatives(pr, w->theta, w->gradient, w->hessian);
        if (!cholesky_factor(w->hessian, pr->rows))
            return false;
        for (int r = 0; r < pr->rows; r++)
            w->step[r] = -w->gradient[r];
        cholesky_solve(w->hessian, pr->rows, w->step);
        *iterations = it;
        double largest = largest_entry(w->step, pr->rows);
        if (largest < STEP_TOLERANCE)
            return true;
        if (largest < FULL_STEP_BELOW)
            take_full_step(pr, w, players);
        else if (!line_search(pr, w, players, &objective))
            return false;
    }
    return false;
}

/* The pairs whose both players are fitted; false when out of memory. */
static bool select_pairs(Problem *pr, const RatingStatus *status)
{
    int total = results_num_pairs(pr->table);
    pr->pairs = malloc((size_t)total * sizeof *pr->pairs + 1);
    if (!pr->pairs)
        return false;
    pr->num_pairs = 0;
    for (int k = 0; k < total; k++) {
        const PairTotals *p = results_pair(pr->table, k);
        bool played = p->wins_a + p->draws + p->wins_b > 0;   /* virtual draws only where games were */
        if (played && status[p->a] == RATING_FINITE && status[p->b] == RATING_FINITE)
            pr->pairs[pr->num_pairs++] = k;
    }
    return true;
}

static bool allocate_workspace(Workspace *w, int players, int rows)
{
    w->theta = calloc((size_t)players + 1, sizeof *w->theta);
    w->trial = calloc((size_t)players + 1, sizeof *w->trial);
    w->gradient = calloc((size_t)rows + 1, sizeof *w->gradient);
    w->step = calloc((size_t)rows + 1, sizeof *w->step);
    w->hessian = calloc((size_t)rows * rows + 1, sizeof *w->hessian);
    return w->theta && w->trial && w->gradient && w->step && w->hessian;
}

static void free_workspace(Workspace *w)
{
    free(w->theta);
    free(w->trial);
    free(w->gradient);
    free(w->step);
    free(w->hessian);
}

/* Ratings and error bars from the solution; the covariance from the Hessian at it. */
static bool finish(const Problem *pr, Workspace *w, const RatingsOptions *o, const RatingStatus *status, Ratings *out)
{
    int m = pr->rows;
    derivatives(pr, w->theta, w->gradient, w->hessian);
    if (!cholesky_factor(w->hessian, m))
        return false;
    cholesky_inverse(w->hessian, m, out->covariance, w->step);
    for (size_t i = 0; i < (size_t)m * m; i++)
        out->covariance[i] *= ELO_PER_NAT * ELO_PER_NAT;
    double z = elo_normal_quantile(0.5 + o->confidence / 2);
    for (int v = 0; v < out->players; v++) {
        PlayerRating *r = &out->rating[v];
        r->status = status[v];
        r->elo = status[v] == RATING_FINITE ? o->anchor_elo + w->theta[v] * ELO_PER_NAT
                 : status[v] == RATING_ABOVE ? INFINITY
                 : status[v] == RATING_BELOW ? -INFINITY
                                             : NAN;
        int row = pr->row[v];
        r->error = v == pr->anchor ? 0 : row >= 0 ? z * sqrt(out->covariance[(size_t)row * m + row]) : NAN;
    }
    out->log_likelihood = -negative_log_likelihood(pr, w->theta);   /* virtual draws included */
    return true;
}

static bool options_valid(const ResultTable *t, const RatingsOptions *o, Error *err)
{
    if (o->anchor < 0 || o->anchor >= results_num_players(t)) {
        error_set(err, "the anchor is not one of the %d players", results_num_players(t));
        return false;
    }
    if (!isfinite(o->anchor_elo) || !(o->confidence > 0 && o->confidence < 1)) {
        error_set(err, "the anchor's Elo must be finite and the confidence inside (0, 1)");
        return false;
    }
    if (!(o->prior_draws >= 0 && o->prior_draws <= 1e6)) {
        error_set(err, "the prior must be between 0 and 1000000 virtual draws");
        return false;
    }
    return true;
}

/* Numbers the fitted players but the anchor; returns how many, or -1 if over the limit. */
static int assign_rows(const RatingStatus *status, int players, int anchor, int *row)
{
    int rows = 0;
    for (int v = 0; v < players; v++)
        row[v] = status[v] == RATING_FINITE && v != anchor ? rows++ : -1;
    return rows + 1 > RATINGS_MAX_FITTED ? -1 : rows;
}

static bool fit_classified(const ResultTable *t, const RatingsOptions *o, const RatingStatus *status, Ratings *out,
                           Error *err)
{
    Problem pr = {t, o->anchor, 0, out->row, NULL, 0, o->prior_draws / 2};
    pr.rows = assign_rows(status, out->players, o->anchor, out->row);
    if (pr.rows < 0) {
        error_set(err, "more than %d players to rate together", RATINGS_MAX_FITTED);
        return false;
    }
    out->fitted = pr.rows + 1;
    Workspace w = {0};
    out->covariance = calloc((size_t)pr.rows * pr.rows + 1, sizeof *out->covariance);
    bool ok = out->covariance && select_pairs(&pr, status) && allocate_workspace(&w, out->players, pr.rows);
    if (!ok)
        error_set(err, "out of memory");
    else if (!(ok = newton(&pr, &w, out->players, &out->iterations) && finish(&pr, &w, o, status, out)))
        error_set(err, "the ratings fit did not converge");
    free_workspace(&w);
    free(pr.pairs);
    return ok;
}

bool ratings_fit(const ResultTable *t, const RatingsOptions *o, Ratings *out, Error *err)
{
    *out = (Ratings){.players = results_num_players(t)};
    if (!options_valid(t, o, err))
        return false;
    size_t n = (size_t)out->players;
    RatingStatus *status = malloc(n * sizeof *status);
    out->rating = calloc(n, sizeof *out->rating);
    out->row = malloc(n * sizeof *out->row);
    bool ok = status && out->rating && out->row && ratings_classify(t, o->anchor, o->prior_draws > 0, status);
    if (!ok)
        error_set(err, "out of memory");
    else
        ok = fit_classified(t, o, status, out, err);
    free(status);
    if (!ok)
        ratings_free(out);
    return ok;
}

void ratings_free(Ratings *r)
{
    free(r->rating);
    free(r->row);
    free(r->covariance);
    *r = (Ratings){0};
}

double ratings_covariance(const Ratings *r, int i, int j)
{
    if (r->rating[i].status != RATING_FINITE || r->rating[j].status != RATING_FINITE)
        return NAN;
    int ri = r->row[i], rj = r->row[j], m = r->fitted - 1;
    return ri < 0 || rj < 0 ? 0 : r->covariance[(size_t)ri * m + rj];
}

double ratings_difference_error(const Ratings *r, int i, int j, double confidence)
{
    double var = ratings_covariance(r, i, i) + ratings_covariance(r, j, j) - 2 * ratings_covariance(r, i, j);
    if (isnan(var))
        return NAN;
    return elo_normal_quantile(0.5 + confidence / 2) * sqrt(var > 0 ? var : 0);
}

const char *ratings_status_name(RatingStatus status)
{
    static const char *const names[] = {"finite", "above", "below", "undetermined", "unlinked"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "?";
}

/* --- the table's order ------------------------------------------------------------------------ */

/* Above the anchor's group first, then the finite ratings high to low, then those below, then
 * the players the games do not place. */
static int status_order(RatingStatus s)
{
    static const int order[] = {[RATING_ABOVE] = 0, [RATING_FINITE] = 1, [RATING_BELOW] = 2,
                                [RATING_UNDETERMINED] = 3, [RATING_UNLINKED] = 4};
    return order[s];
}

/* A player with the keys it is sorted by. */
typedef struct {
    int player, order;
    double elo;
} SortRow;

static int compare_rows(const void *x, const void *y)
{
    const SortRow *a = x, *b = y;
    if (a->order != b->order)
        return a->order - b->order;
    if (a->elo != b->elo && !isnan(a->elo) && !isnan(b->elo))
        return a->elo > b->elo ? -1 : 1;
    return a->player - b->player;
}

bool ratings_rank(const Ratings *r, RatingsRank *rows)
{
    SortRow *sort = malloc((size_t)r->players * sizeof *sort + 1);
    if (!sort)
        return false;
    for (int i = 0; i < r->players; i++)
        sort[i] = (SortRow){i, status_order(r->rating[i].status), r->rating[i].elo};
    qsort(sort, (size_t)r->players, sizeof *sort, compare_rows);
    for (int i = 0; i < r->players; i++) {
        RatingStatus s = r->rating[sort[i].player].status;
        rows[i] = (RatingsRank){sort[i].player, s == RATING_UNDETERMINED || s == RATING_UNLINKED ? 0 : i + 1};
    }
    free(sort);
    return true;
}
