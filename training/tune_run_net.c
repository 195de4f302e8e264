/*
 * tune_run_net.c - a `tune --model net` run (tune_run.h: training_tune_run_net): a network fitted
 * on top of the start weights, which stay as they are and become its skip path
 * (docs/NETWORK.md).  The steps: the game and the start weights, the games with their visit
 * lists, the positions read once for the widest input set (tuner/tune_network_data.h), one fit
 * per input set measured (each one's inputs selected from that reading), the best kept, and the
 * start weights with it written as a table file.
 *
 * The start: the start weights' network where they have one (its inputs and width; the fit goes
 * on from its weights), else a network from zero (hidden layers at random from a fixed seed,
 * heads zero: it evaluates as the start weights alone until the fit moves it); --new-network
 * drops the start's network first.
 *
 * Under mpirun each process reads its share of the games and their positions, which are then
 * gathered so that every process holds the one-process sets (tuner/tune_network_mpi.c); each
 * process then runs the same fit, to the same bits, and rank 0 writes the file (docs/CLUSTER.md).
 */
#include "tune_run.h"

#include "core/pattern.h"
#include "core/threads.h"
#include "data/weights.h"
#include "search/search_setup.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* The seed of a network from zero: fixed, so that a run is the same bits every time. */
enum { NET_SEED = 1 };

/* What the run needs besides the summary: the positions and the networks. */
typedef struct {
    TuneNetworkSet train, valid;            /* read for `read_inputs` */
    unsigned read_inputs;
    Network start;                          /* the start's network's architecture, or none */
    bool has_start;
    Network best;
    bool has_best;
    int best_index;                         /* its candidate */
} NetWork;

static void net_work_free(NetWork *n)
{
    tune_network_set_free(&n->train);
    tune_network_set_free(&n->valid);
    if (n->has_start)
        network_free(&n->start);
    if (n->has_best)
        network_free(&n->best);
}

bool training_tune_net_continues(int hidden, unsigned inputs, const Network *net, Error *err)
{
    if (hidden && hidden != net->h)
        return error_set(err, "--hidden %d: the start's network has H %d (a fit goes on from it with its "
                              "width)", hidden, net->h);
    if (inputs && inputs != net->input_set)
        return error_set(err, "--inputs %s: the start's network has the inputs %s", training_tune_inputs_name(inputs),
                         training_tune_inputs_name(net->input_set));
    return true;
}

/* The start weights' network: for this game and board, and the inputs and width the options name. */
static bool check_start_network(const TuneOptions *o, const TuneWork *w, Error *err)
{
    const Network *net = w->summary.init.net;
    return network_fits(net, w->game, err) && training_tune_net_continues(o->net.hidden, o->net.inputs, net, err);
}

/* The game, the start weights, and what the network will be. */
static bool prepare(const TuneOptions *o, TuneWork *w, NetWork *n, Error *err)
{
    TuneSummary *s = &w->summary;
    if (!tune_check_headers(o->data, o->num_data, &w->game, err))
        return false;
    Error e;
    if (!search_load_evaluation(w->game, o->init, &s->init, &e)) {
        s->init = (Weights){0};     /* unspecified after a failed load: nothing to dispose */
        return o->init ? error_set(err, "--init: %s", e.msg)
                       : error_set(err, "no shipped weights for %s: give --init", w->game->name);
    }
    const size_t len = strlen(o->out);
    if (len >= 4 && strcmp(o->out + len - 4, ".txt") == 0)
        return error_set(err, "--out %s: the weights will have a network, which only a table file holds: name it "
                              ".lwt", o->out);
    TuneNetSummary *ns = &s->net;
    ns->dropped_network = o->net.new_network && s->init.net;
    if (o->net.new_network)
        weights_drop_network(&s->init);
    ns->from_network = s->init.net != NULL;
    if (ns->from_network) {
        if (!check_start_network(o, w, err))
            return false;
        if (!network_copy(&n->start, s->init.net))
            return error_failed(err, "out of memory");
        n->has_start = true;
        ns->families = s->init.net->pattern_families;
        ns->hidden = s->init.net->h;
        ns->inputs = s->init.net->input_set;
        return true;
    }
    ns->families = s->init.tables ? s->init.pattern_families : PATTERN_BASE;
    ns->hidden = o->net.hidden ? o->net.hidden : TUNE_NET_HIDDEN;
    ns->inputs = o->net.inputs;
    ns->measured = o->net.inputs == 0;
    return true;
}

/* A network of the run's width and families for `inputs`, from zero. */
static bool network_from_zero(const TuneWork *w, unsigned inputs, Network *net, Error *err)
{
    const TuneNetSummary *ns = &w->summary.net;
    if (!network_init(net, w->game, inputs, ns->families, ns->hidden, err))
        return false;
    network_randomize(net, NET_SEED, false);
    return true;
}

/* The input sets to fit: the start network's, the one asked for, or each the game can have. */
static int candidates(const TuneWork *w, unsigned out[3])
{
    const TuneNetSummary *ns = &w->summary.net;
    if (!ns->measured) {
        out[0] = ns->inputs;
        return 1;
    }
    if (!pattern_set_with(w->game, ns->families)) {
        out[0] = NETWORK_SQUARES;
        return 1;
    }
    out[0] = NETWORK_PATTERNS;
    out[1] = NETWORK_SQUARES;
    out[2] = NETWORK_PATTERNS | NETWORK_SQUARES;
    return 3;
}

/* The games' positions, read once for the widest input set of the run. */
static bool read_positions(const TuneOptions *o, const MpiEnv *env, TuneWork *w, NetWork *n, unsigned widest,
                           Error *err)
{
    TuneSummary *s = &w->summary;
    Network arch;
    const bool own = !n->has_start;
    if (own && !network_from_zero(w, widest, &arch, err))
        return false;
    TuneNetworkDataOptions d = tune_network_data_defaults();
    d.skip_opening = o->data_opts.skip_opening;
    d.validation = o->data_opts.validation;
    d.lambda = o->data_opts.lambda;
    d.min_visits = o->policy_opts.min_visits;
    d.threads = o->data_opts.threads;
    d.mpi = env;
    bool ok = tune_network_data(w->game, &w->games, &s->init, own ? &arch : &n->start, &d, &n->train, &n->valid,
                                &s->data, err);
    n->read_inputs = widest;
    if (own)
        network_free(&arch);
    if (ok && n->train.count == 0)
        ok = error_set(err, "too few positions: none for training (of %llu read)",
                       (unsigned long long)s->data.positions_read);
    s->net.policy_train = n->train.with_policy;
    s->net.policy_validation = n->valid.with_policy;
    return ok;
}

/* The part of the reading that `inputs` reads (all of it for the reading's own input set). */
static bool select_inputs(const NetWork *n, const Network *net, unsigned inputs, TuneNetworkSet *train,
                          TuneNetworkSet *valid)
{
    uint32_t first = 0;
    if (inputs != n->read_inputs && inputs == NETWORK_SQUARES)
        first = (uint32_t)(n->train.num_inputs - net->num_inputs);     /* after the pattern inputs */
    const uint32_t end = first + (uint32_t)net->num_inputs;
    if (tune_network_set_select(&n->train, first, end, train) && tune_network_set_select(&n->valid, first, end, valid))
        return true;
    tune_network_set_free(train);
    return false;
}

/* Whether a candidate beats the best so far: by the validation objective, or the training one
 * without a validation set. */
static bool better(const TuneNetCandidate *c, const TuneNetCandidate *best, bool judged)
{
    return judged ? c->validation.total < best->validation.total : c->train.total < best->train.total;
}

/* One input set's fit (fit: room for its report), kept in n->best where it is the best so far. */
static bool fit_candidate(const TuneOptions *o, TuneWork *w, NetWork *n, unsigned inputs, TuneNetworkFit *fit,
                          Error *err)
{
    TuneNetSummary *ns = &w->summary.net;
    Network net;
    if (n->has_start && !network_copy(&net, &n->start))
        return error_failed(err, "out of memory");
    if (!n->has_start && !network_from_zero(w, inputs, &net, err))
        return false;
    TuneNetworkSet train = {0}, valid = {0};
    TuneNetworkFitOptions fo = o->net.fit;
    fo.threads = o->data_opts.threads;
    bool ok = select_inputs(n, &net, inputs, &train, &valid) || error_failed(err, "out of memory");
    ok = ok && tune_network_fit(w->game, &net, &train, &valid, &fo, fit, err);
    bool kept = false;
    if (ok) {
        TuneNetCandidate *c = &ns->candidate[ns->num_candidates++];
        *c = (TuneNetCandidate){inputs, fit->train_after, fit->valid_after, fit->best_epoch, fit->num_epochs - 1,
                                fit->seconds};
        w->summary.fit.seconds += fit->seconds;
        kept = !n->has_best || better(c, &ns->candidate[n->best_index], n->valid.count > 0);
    }
    if (kept) {
        if (n->has_best)
            network_free(&n->best);
        n->best = net;
        n->has_best = true;
        n->best_index = ns->num_candidates - 1;
        ns->inputs = inputs;
        ns->fit = *fit;
    }
    tune_network_set_free(&train);
    tune_network_set_free(&valid);
    if (!kept)
        network_free(&net);
    return ok;
}

/* The start weights with the best network, and the summary's value losses. */
static bool finish(TuneWork *w, NetWork *n, Error *err)
{
    TuneSummary *s = &w->summary;
    const TuneNetworkFit *f = &s->net.fit;
    s->train_before = (TuneLoss){f->train_before.value, NAN};
    s->train_after = (TuneLoss){f->train_after.value, NAN};
    s->valid_before = (TuneLoss){f->valid_before.value, NAN};
    s->valid_after = (TuneLoss){f->valid_after.value, NAN};
    s->train_baseline = s->valid_baseline = (TuneLoss){NAN, NAN};
    Weights *out = &s->fit.weights;
    Network *net = malloc(sizeof *net);
    if (!net || !weights_copy(out, &s->init)) {
        free(net);
        return error_failed(err, "out of memory");
    }
    if (out->net) {
        network_free(out->net);
        free(out->net);
    }
    *net = n->best;     /* the weights own it now */
    n->has_best = false;
    out->net = net;
    return true;
}

static unsigned widest(const unsigned *sets, int count)
{
    unsigned all = 0;
    for (int k = 0; k < count; k++)
        all |= sets[k];
    return all;
}

bool training_tune_run_net(const TuneOptions *o, const MpiEnv *env, TuneWork *w, Error *err)
{
    memset(w, 0, sizeof *w);
    tune_games_init(&w->games);
    TuneSummary *s = &w->summary;
    *s = (TuneSummary){.opts = o, .threads = threads_or_default(o->data_opts.threads), .ranks = env->size};
    NetWork n = {0};
    unsigned sets[3];
    if (!prepare(o, w, &n, err)) {    /* alike on every process: rank 0 says why */
        err->elsewhere = env->rank != 0;
        net_work_free(&n);
        return false;
    }
    const int count = candidates(w, sets);
    w->games.keep_visits = true;
    const double t0 = omp_get_wtime();
    Game *read_game = NULL;
    /* each process its share of the games; every step below is reached by all or by none */
    bool ok = tune_read_share(o->data, o->num_data, o->data_opts.threads, env->rank, env->size, &w->games, &read_game,
                              err);
    game_free(read_game);   /* the same game as w->game: the headers were checked */
    ok = training_tune_agree(env, ok, err);
    s->read_seconds = omp_get_wtime() - t0;
    s->game = w->game;
    s->games = &w->games;
    ok = ok && read_positions(o, env, w, &n, widest(sets, count), err);
    TuneNetworkFit *fit = ok ? malloc(sizeof *fit) : NULL;
    if (ok && !fit)
        ok = error_failed(err, "out of memory");
    /* Every process fits the whole sets alike (the fit is the same bits wherever it runs), so
     * that each ends with the network and none waits; rank 0 writes it. */
    for (int k = 0; ok && k < count; k++)
        ok = fit_candidate(o, w, &n, sets[k], fit, err);
    free(fit);
    ok = training_tune_agree(env, ok && finish(w, &n, err), err);
    ok = ok && (env->rank != 0 || training_tune_save(o, s, err));
    net_work_free(&n);
    return ok;
}
