/*
 * engine_search.c - `go`, `stop` and `wait`: the search runs in its own thread so that the main
 * thread keeps reading commands (stop, isready, quit) while it thinks.  The thread writes `info`
 * lines while it searches, one more at the end, then exactly one `bestmove` (another protocol,
 * engine_nboard.c, writes its own lines through the same thread: EngineSearchOutput).  On a
 * clock (`go wtime ...`) the move's budget comes from search/time_control.h, and its timer,
 * called with the search's progress, ends the search.
 *
 * Hand-over: the main thread fills EngineSearch and starts the thread; from then until the
 * thread sets `finished` only the thread touches mcts and search (stop and the wake-up
 * excepted).  `finished` is set before bestmove is written, so a peer that has read bestmove
 * and sends the next command always finds the search over.
 */
#include "engine.h"

#include "core/clock.h"
#include "search/search_json.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Twice a second: often enough for a live display, rare enough to cost the search nothing. */
#define INFO_INTERVAL_SECONDS 0.5

/* MCTS needs a limit; `go infinite` gives it one that no search reaches. */
#define UNLIMITED_VISITS LONG_MAX
/* A clock a peer may hand over: 10^6 seconds (11 days) is beyond any real game. */
#define MAX_CLOCK_SECONDS 1e6

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

/* The result as one line `json {...}` (setoption name json value true), the schema of analyze
 * --json and Python's Game.analyze (search/search_json.h). */
static void print_json(Engine *e, const MctsResult *r)
{
    size_t need = search_result_json(e->game, &e->search.root, r, 0, 0, NULL, 0);
    char *json = malloc(need + 1);
    if (!json) {
        engine_error(e, "go: out of memory for the json line");
        return;
    }
    search_result_json(e->game, &e->search.root, r, 0, 0, json, need + 1);
    engine_reply(e, "json %s", json);
    free(json);
}

static void print_final(Engine *e, const MctsResult *r)
{
    print_info(e, r);
    if (e->options.json)
        print_json(e, r);
    char move[16] = "none";
    if (r->best != MOVE_NONE)
        game_format_move(e->game, &e->search.root, r->best, move, sizeof move);
    engine_reply(e, "bestmove %s", move);
}

static const EngineSearchOutput protocol_output = {print_info, print_final};

/* The search's progress: the clock's timer at every call, the protocol's report every
 * INFO_INTERVAL_SECONDS. */
static void on_progress(const MctsResult *so_far, void *ctx)
{
    Engine *e = ctx;
    EngineSearch *s = &e->search;
    if (s->timed)
        time_control_timer_check(so_far, &s->timer);
    double now = clock_seconds();
    if (now >= s->next_report) {
        s->output->progress(e, so_far);
        s->next_report = now + INFO_INTERVAL_SECONDS;
    }
}

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
    double interval = s->timed ? MOVE_TIMER_INTERVAL : INFO_INTERVAL_SECONDS;
    MctsResult r = mcts_search(e->mcts, &s->limits, &s->stop, on_progress, interval, e);
    if (s->infinite)
        wait_for_stop(s);
    atomic_store(&s->finished, true);
    s->output->finished(e, &r);
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

void engine_search_join(Engine *e)
{
    EngineSearch *s = &e->search;
    if (!s->running)
        return;
    pthread_join(s->thread, NULL);
    s->running = false;
}

/* A thread can fail to start for a passing reason (EAGAIN: no memory or thread slot just now):
 * it is tried once more after a moment before the search is refused. */
static bool start_thread(EngineSearch *s, Engine *e)
{
    if (pthread_create(&s->thread, NULL, search_main, e) == 0)
        return true;
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
    return pthread_create(&s->thread, NULL, search_main, e) == 0;
}

bool engine_search_start(Engine *e, const MctsLimits *limits, const TimeBudget *budget, double start, bool infinite,
                         const EngineSearchOutput *output)
{
    EngineSearch *s = &e->search;
    if (!e->mcts && !(e->mcts = mcts_new(e->game, &e->weights, &e->options.search.mcts))) {
        engine_error(e, "go: cannot allocate the search tree (%zu nodes)", e->options.search.mcts.max_nodes);
        return false;
    }
    mcts_set_game(e->mcts, &e->played);     /* keeps the subtree when the position follows on */
    s->root = e->played.now;
    s->infinite = infinite;
    s->output = output;
    s->timed = budget != NULL;
    atomic_store(&s->stop, false);
    atomic_store(&s->finished, false);
    s->limits = *limits;
    if (budget) {
        time_control_timer_start(&s->timer, *budget, start, &s->stop);
        s->limits = time_control_timer_limits(&s->timer, limits->visits);
    }
    s->next_report = clock_seconds() + INFO_INTERVAL_SECONDS;
    if (!start_thread(s, e)) {
        engine_error(e, "go: cannot start the search thread");
        return false;
    }
    s->running = true;
    return true;
}

TimeBudget engine_move_budget(const Engine *e, const ClockReading *clock)
{
    const Position *now = &e->played.now;
    int moves_left = time_control_moves_left(e->game, now, e->played.plies);
    return time_control_budget(clock, game_side_to_move(e->game, now), moves_left, e->options.search.overhead);
}

/* What a go line asks for. */
typedef struct {
    MctsLimits limits;
    ClockReading clock;
    bool clock_given[2];    /* wtime, btime */
    bool clocked;           /* any of wtime, btime, winc, binc, movestogo */
    bool infinite, limited;
} GoRequest;

/* Reads one key and value of go; false if the pair is not one.  Clock times may be negative (a
 * tool that lets a side overrun within a margin says so): they count as 0. */
static bool read_go_pair(const char *word, const char *value, GoRequest *g)
{
    static const char *const clock_keys[4] = {"wtime", "btime", "winc", "binc"};
    long long n;
    double t;
    if (strcmp(word, "visits") == 0 && search_option_read_number("visits", value, "", &t, NULL)) {
        g->limits.visits = (long)t;
        return g->limited = true;
    }
    if (strcmp(word, "time") == 0 && search_option_read_number("time", value, "", &t, NULL) && t > 0) {
        g->limits.seconds = t;
        return g->limited = true;
    }
    if (strcmp(word, "movestogo") == 0 && engine_parse_integer(value, 1, 100000, &n)) {
        g->clock.moves_to_go = (int)n;
        return g->clocked = true;
    }
    for (int k = 0; k < 4; k++) {
        if (strcmp(word, clock_keys[k]) != 0 || !engine_parse_real(value, k < 2 ? -MAX_CLOCK_SECONDS : 0, MAX_CLOCK_SECONDS, &t))
            continue;
        if (k < 2) {
            g->clock.left[k] = fmax(t, 0);
            g->clock_given[k] = true;
        } else {
            g->clock.increment[k - 2] = t;
        }
        return g->clocked = true;
    }
    return false;
}

/* The go line into *g; false after an error line. */
static bool read_go(Engine *e, Tokens *args, GoRequest *g)
{
    for (const char *word; (word = engine_tokens_next(args));) {
        if (strcmp(word, "infinite") == 0) {
            g->infinite = true;
            continue;
        }
        const char *value = engine_tokens_next(args);
        if (!value || !read_go_pair(word, value, g)) {
            engine_error(e, "go: expected 'go [wtime W btime B [winc WI] [binc BI] [movestogo N]] [visits N] [time "
                            "SECONDS]' or 'go infinite', got '%.40s%s%.40s'",
                         word, value ? " " : "", value ? value : "");
            return false;
        }
    }
    int mover = game_side_to_move(e->game, &e->played.now);
    if (g->infinite && (g->limited || g->clocked))
        engine_error(e, "go: infinite takes no visits, time or clock");
    else if (g->clocked && g->limits.seconds > 0)
        engine_error(e, "go: time is a fixed time per move and wtime/btime a clock: give one of them");
    else if (g->clocked && !g->clock_given[mover])
        engine_error(e, "go: a clock needs the time of the side to move (%s)", mover == WHITE ? "wtime" : "btime");
    else
        return true;
    return false;
}

/* go [wtime W btime B [winc WI] [binc BI] [movestogo N]] [visits N] [time SECONDS] | go infinite.
 * With no limit and no clock named, the options' limits apply. */
void engine_cmd_go(Engine *e, Tokens *args)
{
    double start = clock_seconds();
    GoRequest g = {{0, 0}, {{0, 0}, {0, 0}, 0}, {false, false}, false, false, false};
    if (!read_go(e, args, &g))
        return;
    if (!g.infinite && !g.limited && !g.clocked) {
        g.limits = e->options.search.limits;
    }
    if (g.infinite)
        g.limits.visits = UNLIMITED_VISITS;
    if (game_status(e->game, &e->played.now) != STATUS_ONGOING || game_count_moves(e->game, &e->played.now) == 0) {
        engine_reply(e, "bestmove none");
        return;
    }
    TimeBudget budget;
    if (g.clocked) {
        int mover = game_side_to_move(e->game, &e->played.now);
        if (!g.clock_given[!mover])
            g.clock.left[!mover] = g.clock.left[mover];
        budget = engine_move_budget(e, &g.clock);
    }
    engine_search_start(e, &g.limits, g.clocked ? &budget : NULL, start, g.infinite, &protocol_output);
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
    engine_search_join(e);
}
