/*
 * player.c - the in-process players and their spec strings (see player.h).
 */
#include "player.h"
#include "player_external.h"

#include "core/clock.h"
#include "core/rng.h"
#include "core/threads.h"
#include "data/weights.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Rng rng;
    Weights weights;
    Move moves[MAX_MOVES];
    Mcts *mcts;
    MctsLimits limits;
    MctsConfig config;
    MctsResult last;
    TimeControl tc;         /* tc=, the game clock (copied into the Player) */
    double overhead;        /* seconds kept back on every clocked move (overhead=) */
    GameClock own[2];       /* the clocks it keeps itself when the driver hands it none */
    atomic_bool stop;       /* a clocked search's stop flag, set by its MoveTimer */
} PlayerState;

/* --- spec parsing ----------------------------------------------------------------------------- */

typedef struct {
    char key[32];
    char value[256];
} SpecOption;

/* Splits "name:k=v,k=v" into the name and options; false with *err on malformed text. */
static int split_spec(const char *spec, char *name, size_t name_len, SpecOption *opts, int max, Error *err)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n == 0 || n >= name_len) {
        error_set(err, "player '%s': expected NAME[:key=value,...]", spec);
        return -1;
    }
    memcpy(name, spec, n);
    name[n] = '\0';
    int count = 0;
    for (const char *s = colon ? colon + 1 : NULL; s && *s;) {
        const char *comma = strchr(s, ','), *end = comma ? comma : s + strlen(s);
        const char *eq = memchr(s, '=', (size_t)(end - s));
        if (count == max || !eq || eq == s || (size_t)(eq - s) >= sizeof opts[0].key ||
            (size_t)(end - eq - 1) >= sizeof opts[0].value) {
            error_set(err, "player '%s': bad option '%.*s' (expected key=value)", spec, (int)(end - s), s);
            return -1;
        }
        memcpy(opts[count].key, s, (size_t)(eq - s));
        opts[count].key[eq - s] = '\0';
        memcpy(opts[count].value, eq + 1, (size_t)(end - eq - 1));
        opts[count].value[end - eq - 1] = '\0';
        count++;
        s = comma ? comma + 1 : NULL;
    }
    return count;
}

static bool load_weights(const Game *g, const char *path, Weights *w, Error *err)
{
    if (!path)
        return weights_default(g, w) || (error_set(err, "no shipped weights for %s", g->name), false);
    return weights_load(g, path, w, err);
}

/* Applies one mcts option; false with *err if the key or value is bad. */
static bool apply_mcts_option(PlayerState *s, const char *spec, const SpecOption *o, Error *err)
{
    double v;
    struct { const char *key; double min, max; } ranges[] = {
        {"visits", 1, 1e12}, {"time", 0.001, 1e6}, {"threads", 1, THREADS_MAX}, {"cpuct", 0, 100},
        {"playouts", 0, 1}, {"nodes", 1024, 4e9}, {"fpu", 0, 1}, {"contempt", 0, 0.5},
        {"solve", 0, 64}, {"rootsolve", 0, 64}, {"coarse", 0, 1}, {"overhead", 0, 60},
    };
    if (strcmp(o->key, "tc") == 0)
        return player_spec_time_control(spec, o->value, &s->tc, err);
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        if (strcmp(o->key, ranges[i].key) != 0)
            continue;
        if (!player_spec_number(o->value, ranges[i].min, ranges[i].max, &v)) {
            error_set(err, "player '%s': %s=%s is not a number from %g to %g", spec, o->key, o->value, ranges[i].min,
                      ranges[i].max);
            return false;
        }
        switch (i) {
        case 0: s->limits.visits = (long)v; break;
        case 1: s->limits.seconds = v; break;
        case 2: s->config.threads = (int)v; break;
        case 3: s->config.c_puct = s->config.c_puct_learned = v; break;   /* an explicit value serves both */
        case 4: s->config.playouts = v != 0; break;
        case 5: s->config.max_nodes = (size_t)v; break;
        case 6: s->config.fpu_reduction = v; break;
        case 7: s->config.contempt = v; break;
        case 8: s->config.solve_empties = (int)v; break;
        case 9: s->config.root_solve_empties = (int)v; break;
        case 10: s->config.coarse_share = v; break;
        default: s->overhead = v; break;
        }
        return true;
    }
    error_set(err, "player '%s': unknown option '%s'", spec, o->key);
    return false;
}

/* --- the players ------------------------------------------------------------------------------ */

static void set_info(MoveInfo *info, double value, long visits, const MctsResult *search)
{
    if (!info)
        return;
    info->value = value;
    info->visits = visits;
    info->search = search;
}

static Move random_choose(Player *p, const GameSoFar *game, MoveInfo *info)
{
    PlayerState *s = p->ctx;
    int n = game_gen_moves(p->game, &game->now, s->moves);
    set_info(info, NAN, 0, NULL);
    return n ? s->moves[rng_below(&s->rng, (uint32_t)n)] : MOVE_NONE;
}

/* The mover's value of the position after a move: a finished game is exact, else one minus the
 * opponent's evaluation. */
static double value_after(const Game *g, const Weights *w, const Position *after, int mover, Move *scratch)
{
    if (game_gen_moves(g, after, scratch) == 0) {
        GameStatus st = game_status(g, after);
        if (st == STATUS_DRAW || st == STATUS_ONGOING)
            return 0.5;
        return (st == STATUS_WHITE_WINS) == (mover == WHITE) ? 1.0 : 0.0;
    }
    return 1.0 - value_win_probability(g, w, after);
}

static Move greedy_choose(Player *p, const GameSoFar *game, MoveInfo *info)
{
    PlayerState *s = p->ctx;
    const Game *g = p->game;
    const Position *pos = &game->now;
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        return random_choose(p, game, info);
    int n = game_gen_moves(g, pos, moves), mover = game_side_to_move(g, pos), ties = 0;
    Move best = MOVE_NONE;
    double best_value = -1;
    for (int i = 0; i < n; i++) {
        Position after = *pos;
        Undo undo;
        game_make(g, &after, moves[i], &undo);
        double v = value_after(g, &s->weights, &after, mover, s->moves);
        if (v > best_value + 1e-12) {
            best_value = v;
            best = moves[i];
            ties = 1;
        } else if (fabs(v - best_value) <= 1e-12 && rng_below(&s->rng, (uint32_t)++ties) == 0) {
            best = moves[i];
        }
    }
    free(moves);
    set_info(info, best_value, 0, NULL);
    return best;
}

/* A search on a game clock: the driver's reading of the clocks, or without one (play, analyze)
 * the player's own clock, charged with the time the move took. */
static MctsResult clocked_search(Player *p, const GameSoFar *game, const ClockReading *given, double start)
{
    PlayerState *s = p->ctx;
    int mover = game_side_to_move(p->game, &game->now);
    ClockReading own = time_control_clock_reading(s->own, (const bool[2]){true, true}, mover);
    int moves_left = time_control_moves_left(p->game, &game->now, game->plies);
    MoveTimer timer;
    time_control_timer_start(&timer, time_control_budget(given ? given : &own, mover, moves_left, s->overhead), start, &s->stop);
    MctsLimits limits = time_control_timer_limits(&timer, s->limits.visits);
    MctsResult r = mcts_search(s->mcts, &limits, &s->stop, time_control_timer_check, MOVE_TIMER_INTERVAL, &timer);
    if (!given)
        game_clock_charge(&s->own[mover], clock_seconds() - start, INFINITY);
    return r;
}

static Move mcts_choose(Player *p, const GameSoFar *game, MoveInfo *info)
{
    PlayerState *s = p->ctx;
    double start = clock_seconds();
    mcts_set_game(s->mcts, game);
    if (time_control_on(&p->tc))
        s->last = clocked_search(p, game, info ? info->clock : NULL, start);
    else
        s->last = mcts_search(s->mcts, &s->limits, NULL, NULL, 0, NULL);
    set_info(info, s->last.value, s->last.visits, &s->last);
    return s->last.best;
}

static void plain_new_game(Player *p, uint64_t seed)
{
    PlayerState *s = p->ctx;
    s->rng = rng_seed(seed, 0x9e3779b9);
}

static void mcts_new_game(Player *p, uint64_t seed)
{
    PlayerState *s = p->ctx;
    plain_new_game(p, seed);
    s->config.seed = seed;
    for (int side = 0; side < 2; side++)
        game_clock_start(&s->own[side], &p->tc);
    if (s->mcts)
        mcts_restart(s->mcts, seed);   /* reallocating the pools each game costs page faults */
    else
        s->mcts = mcts_new(p->game, &s->weights, &s->config);
}

static void destroy_player(Player *p)
{
    PlayerState *s = p->ctx;
    mcts_free(s->mcts);
    weights_dispose(&s->weights);
    free(s);
}

static bool configure(Player *p, PlayerState *s, const char *name, const char *spec, SpecOption *opts, int n,
                      Error *err)
{
    const char *weights_path = NULL;
    for (int i = 0; i < n; i++)
        if (strcmp(opts[i].key, "weights") == 0)
            weights_path = opts[i].value;
    if (strcmp(name, "random") == 0) {
        p->choose = random_choose;
        if (n) {
            error_set(err, "player '%s': random takes no options", spec);
            return false;
        }
        return true;
    }
    if (!load_weights(p->game, weights_path, &s->weights, err))
        return false;
    if (strcmp(name, "greedy") == 0) {
        p->choose = greedy_choose;
        for (int i = 0; i < n; i++)
            if (strcmp(opts[i].key, "weights") != 0) {
                error_set(err, "player '%s': greedy takes only weights=FILE", spec);
                return false;
            }
        return true;
    }
    if (strcmp(name, "mcts") == 0) {
        p->choose = mcts_choose;
        p->new_game = mcts_new_game;
        mcts_default_config(&s->config);
        s->limits.visits = 0;
        s->overhead = TIME_DEFAULT_OVERHEAD;
        for (int i = 0; i < n; i++)
            if (strcmp(opts[i].key, "weights") != 0 && !apply_mcts_option(s, spec, &opts[i], err))
                return false;
        p->tc = s->tc;
        p->threads = s->config.threads;
        p->timed = time_control_on(&p->tc) || s->limits.seconds > 0;
        if (time_control_on(&p->tc) && s->limits.seconds > 0) {
            error_set(err, "player '%s': tc= is a game clock and time= a time per move: give one of them", spec);
            return false;
        }
        if (s->limits.visits == 0 && s->limits.seconds == 0 && !time_control_on(&p->tc))
            s->limits.visits = 800;     /* a time limit alone means no visit limit */
        return true;
    }
    error_set(err, "unknown player '%s' (expected random, greedy, mcts or engine)", name);
    return false;
}

/* Drops the name= options, which only the match reads (player_spec_name); returns how many are left. */
static int drop_names(SpecOption *opts, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(opts[i].key, "name") != 0)
            opts[kept++] = opts[i];
    return kept;
}

Player *player_create(const Game *g, const char *spec, Error *err)
{
    return player_create_logged(g, spec, NULL, err);
}

Player *player_create_logged(const Game *g, const char *spec, IoLog *io_log, Error *err)
{
    if (player_external_spec(spec))
        return player_external_create(g, spec, io_log, err);
    char name[32];
    SpecOption opts[16];
    int n = split_spec(spec, name, sizeof name, opts, 16, err);
    if (n < 0)
        return NULL;
    n = drop_names(opts, n);
    Player *p = calloc(1, sizeof *p);
    PlayerState *s = calloc(1, sizeof *s);
    if (!p || !s) {
        free(p);
        free(s);
        error_set(err, "out of memory");
        return NULL;
    }
    snprintf(p->name, sizeof p->name, "%s", spec);
    p->game = g;
    p->threads = 1;
    p->ctx = s;
    p->new_game = plain_new_game;
    p->destroy = destroy_player;
    if (!configure(p, s, name, spec, opts, n, err)) {
        destroy_player(p);
        free(p);
        return NULL;
    }
    p->new_game(p, 1);
    if (p->choose == mcts_choose && !s->mcts) {
        error_set(err, "player '%s': cannot allocate the search tree", spec);
        player_free(p);
        return NULL;
    }
    return p;
}

void player_free(Player *p)
{
    if (!p)
        return;
    p->destroy(p);
    free(p);
}
