/*
 * engine_search.c - `go`, `stop` and `wait`: the search runs in its own thread so that the main
 * thread keeps reading commands (stop, isready, quit) while it thinks.  The thread writes `info`
 * lines while it searches, one more at the end, then exactly one `bestmove`.
 *
 * Hand-over: the main thread fills EngineSearch and starts the thread; from then until the
 * thread sets `finished` only the thread touches mcts and search (stop and the wake-up
 * excepted).  `finished` is set before bestmove is written, so a peer that has read bestmove
 * and sends the next command always finds the search over.
 */
#include "engine.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* Twice a second: often enough for a live display, rare enough to cost the search nothing. */
#define INFO_INTERVAL_SECONDS 0.5

/* MCTS needs a limit; `go infinite` gives it one that no search reaches. */
#define UNLIMITED_VISITS LONG_MAX

void engine_search_init(EngineSearch *s)
{
    memset(s, 0, sizeof *s);
    atomic_init(&s->finished, false);
    atomic_init(&s->stop, false);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
}

void engine_search_destroy(EngineSearch *s)
{
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
}

/* --- the search thread ------------------------------------------------------------------------- */

static const char *proven_word(Proven p)
{
    return p == PROVEN_WIN ? "win" : p == PROVEN_LOSS ? "loss" : "draw";
}

static void print_info(Engine *e, const MctsResult *r)
{
    Position pos = e->search.root;
    double winprob = isnan(r->value) ? 0.5 : r->value;
    engine_line_begin(e);
    engine_put(e, "info visits %ld treevisits %ld nodes %zu winprob %.4f time %.3f vps %.0f", r->visits,
               r->tree_visits, r->nodes, winprob, r->seconds, r->seconds > 0 ? r->visits / r->seconds : 0.0);
    if (r->proven != PROVEN_NONE)
        engine_put(e, " proven %s plies %d", proven_word(r->proven), r->proven_plies);
    engine_put(e, " pv");
    for (int i = 0; i < r->pv_length; i++) {
        char text[16];
        Undo undo;
        game_format_move(e->game, &pos, r->pv[i], text, sizeof text);
        engine_put(e, " %s", text);
        game_make(e->game, &pos, r->pv[i], &undo);
    }
    engine_line_end(e);
}

static void report_progress(const MctsResult *so_far, void *ctx) { print_info(ctx, so_far); }

/* An infinite search answers only after stop, even when it proved the result early (as UCI's
 * `go infinite` does), so a peer never gets a bestmove it did not ask for yet. */
static void wait_for_stop(EngineSearch *s)
{
    pthread_mutex_lock(&s->lock);
    while (!atomic_load(&s->stop))
        pthread_cond_wait(&s->wake, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

static void *search_main(void *arg)
{
    Engine *e = arg;
    EngineSearch *s = &e->search;
    MctsResult r = mcts_search(e->mcts, &s->limits, &s->stop, report_progress, INFO_INTERVAL_SECONDS, e);
    if (s->infinite)
        wait_for_stop(s);
    print_info(e, &r);
    char move[16] = "none";
    if (r.best != MOVE_NONE)
        game_format_move(e->game, &s->root, r.best, move, sizeof move);
    atomic_store(&s->finished, true);
    engine_reply(e, "bestmove %s", move);
    return NULL;
}

/* --- the main thread's side -------------------------------------------------------------------- */

bool engine_search_busy(Engine *e)
{
    EngineSearch *s = &e->search;
    if (!s->running)
        return false;
    /* A search told to stop ends within a visit, so a command sent right after stop waits for
     * that bestmove instead of being refused: "stop, position, go" needs no round trip. */
    if (!atomic_load(&s->finished) && !atomic_load(&s->stop))
        return true;
    pthread_join(s->thread, NULL);
    s->running = false;
    return false;
}

void engine_search_request_stop(Engine *e)
{
    EngineSearch *s = &e->search;
    if (!s->running)
        return;
    pthread_mutex_lock(&s->lock);
    atomic_store(&s->stop, true);
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

void engine_search_end(Engine *e)
{
    EngineSearch *s = &e->search;
    if (!s->running)
        return;
    engine_search_request_stop(e);
    pthread_join(s->thread, NULL);
    s->running = false;
}

static void start_search(Engine *e, const MctsLimits *limits, bool infinite)
{
    EngineSearch *s = &e->search;
    if (!e->mcts && !(e->mcts = mcts_new(e->game, &e->weights, &e->options.mcts))) {
        engine_error(e, "go: cannot allocate the search tree (%zu nodes)", e->options.mcts.max_nodes);
        return;
    }
    mcts_set_game(e->mcts, &e->played);     /* keeps the subtree when the position follows on */
    s->root = e->played.now;
    s->limits = *limits;
    s->infinite = infinite;
    atomic_store(&s->stop, false);
    atomic_store(&s->finished, false);
    if (pthread_create(&s->thread, NULL, search_main, e) != 0) {
        engine_error(e, "go: cannot start the search thread");
        return;
    }
    s->running = true;
}

/* Reads one limit of go ("visits N" or "time SECONDS"); false if the pair is not one. */
static bool read_limit(const char *word, const char *value, MctsLimits *limits)
{
    long long visits;
    if (strcmp(word, "visits") == 0 && parse_integer(value, 1, ENGINE_MAX_VISITS, &visits)) {
        limits->visits = (long)visits;
        return true;
    }
    return strcmp(word, "time") == 0 && parse_real(value, 0.001, ENGINE_MAX_SECONDS, &limits->seconds);
}

/* go [visits N] [time SECONDS] | go infinite.  With no limit named, the options' limits apply. */
void engine_cmd_go(Engine *e, Tokens *args)
{
    MctsLimits limits = {0, 0};
    bool infinite = false, limited = false;
    for (const char *word; (word = tokens_next(args));) {
        if (strcmp(word, "infinite") == 0) {
            infinite = true;
            continue;
        }
        const char *value = tokens_next(args);
        if (!value || !read_limit(word, value, &limits)) {
            engine_error(e, "go: expected 'go [visits N] [time SECONDS]' (N from 1 to 10^12, SECONDS from 0.001 "
                            "to 10^6) or 'go infinite', got '%.40s%s%.40s'",
                         word, value ? " " : "", value ? value : "");
            return;
        }
        limited = true;
    }
    if (infinite && limited) {
        engine_error(e, "go: infinite takes no visits or time");
        return;
    }
    if (!infinite && !limited) {
        limits.visits = (long)e->options.visits;
        limits.seconds = e->options.seconds;
    }
    if (infinite)
        limits.visits = UNLIMITED_VISITS;
    if (game_status(e->game, &e->played.now) != STATUS_ONGOING || game_count_moves(e->game, &e->played.now) == 0) {
        engine_reply(e, "bestmove none");
        return;
    }
    start_search(e, &limits, infinite);
}

void engine_cmd_stop(Engine *e, Tokens *args)
{
    (void)args;
    engine_search_request_stop(e);
}

/* Scripts that pipe a fixed list of commands use `wait` to let a search finish before the next
 * line (end of input would stop it).  An infinite search would never finish, so it is refused. */
void engine_cmd_wait(Engine *e, Tokens *args)
{
    (void)args;
    EngineSearch *s = &e->search;
    if (!s->running)
        return;
    if (s->infinite && !atomic_load(&s->stop)) {
        engine_error(e, "wait: the search is infinite; send stop");
        return;
    }
    pthread_join(s->thread, NULL);
    s->running = false;
}
