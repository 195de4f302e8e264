/*
 * player.c - the in-process players and their spec strings (see player.h).
 */
#include "player.h"
#include "player_external.h"

#include "core/clock.h"
#include "core/rng.h"
#include "data/weights.h"
#include "search/search_setup.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Rng rng;
    Weights weights;
    Move moves[MAX_MOVES];
    Mcts *mcts;
    SearchSetup setup;      /* the spec's search: config, limits, tc= (copied into the Player) */
    MctsResult last;
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

/* Sets every option of a spec through the search set-up's table (search/search_setup.h). */
static bool apply_search_options(PlayerState *s, const char *spec, const SpecOption *opts, int n, Error *err)
{
    char context[96];
    snprintf(context, sizeof context, "player '%.60s': ", spec);
    for (int i = 0; i < n; i++)
        if (!search_setup_set(&s->setup, opts[i].key, opts[i].value, SEARCH_IN_PLAYER, context, err))
            return false;
    return true;
}

static bool has_key(const SpecOption *opts, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(opts[i].key, key) == 0)
            return true;
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
    TimeBudget budget = time_control_budget(given ? given : &own, mover, moves_left, s->setup.overhead);
    time_control_timer_start(&timer, budget, start, &s->stop);
    MctsLimits limits = time_control_timer_limits(&timer, s->setup.limits.visits);
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
        s->last = mcts_search(s->mcts, &s->setup.limits, NULL, NULL, 0, NULL);
    set_info(info, s->last.value, s->last.visits, &s->last);
    return s->last.best;
}

static void plain_new_game(Player *p, uint64_t seed)
{
    PlayerState *s = p->ctx;
    s->rng = rng_seed(seed, 0x9e3779b9);
}

/* A game's search seed: the game's own, mixed with the spec's seed= where one was given (two
 * players of one spec but for their seeds then play different games). */
static uint64_t search_seed(const PlayerState *s, uint64_t game_seed)
{
    return s->setup.seed_given ? rng_seed(s->setup.mcts.seed, game_seed).s[0] : game_seed;
}

static void mcts_new_game(Player *p, uint64_t seed)
{
    PlayerState *s = p->ctx;
    plain_new_game(p, seed);
    MctsConfig config = s->setup.mcts;
    config.seed = search_seed(s, seed);
    for (int side = 0; side < 2; side++)
        game_clock_start(&s->own[side], &p->tc);
    if (s->mcts)
        mcts_restart(s->mcts, config.seed);    /* reallocating the pools each game costs page faults */
    else
        s->mcts = mcts_new(p->game, &s->weights, &config);
}

static void destroy_player(Player *p)
{
    PlayerState *s = p->ctx;
    mcts_free(s->mcts);
    weights_dispose(&s->weights);
    free(s);
}

/* visits_given: the spec names visits= (else a time limit alone means no visit limit); a set-up
 * made by a program says what it means. */
static bool configure_mcts(Player *p, PlayerState *s, const char *spec, bool visits_given, Error *err)
{
    p->choose = mcts_choose;
    p->new_game = mcts_new_game;
    p->tc = s->setup.tc;
    p->threads = s->setup.mcts.threads;
    p->timed = time_control_on(&p->tc) || s->setup.limits.seconds > 0;
    if (time_control_on(&p->tc) && s->setup.limits.seconds > 0)
        return error_set(err, "player '%s': tc= is a game clock and time= a time per move: give one of them", spec);
    if (p->timed && !visits_given)
        s->setup.limits.visits = 0;     /* a time limit alone means no visit limit */
    return true;
}

/* What a spec and a set-up share once s->setup holds every option: the evaluation loaded, and
 * the greedy or mcts player configured. */
static bool configure_search(Player *p, PlayerState *s, const char *spec, bool greedy, bool visits_given, Error *err)
{
    char context[96];
    snprintf(context, sizeof context, "player '%.60s': weights: ", spec);
    Error why;
    if (!search_load_evaluation(p->game, s->setup.eval_path, &s->weights, &why))
        return error_set(err, "%s%s", context, why.msg);
    if (greedy) {
        p->choose = greedy_choose;
        return true;
    }
    return configure_mcts(p, s, spec, visits_given, err);
}

static bool configure(Player *p, PlayerState *s, const char *name, const char *spec, SpecOption *opts, int n,
                      Error *err)
{
    if (strcmp(name, "random") == 0) {
        p->choose = random_choose;
        return n == 0 || error_set(err, "player '%s': random takes no options", spec);
    }
    bool greedy = strcmp(name, "greedy") == 0;
    if (!greedy && strcmp(name, "mcts") != 0)
        return error_set(err, "unknown player '%s' (expected random, greedy, mcts or engine)", name);
    if (greedy && (n > 1 || (n == 1 && strcmp(opts[0].key, "weights") != 0)))
        return error_set(err, "player '%s': greedy takes only weights=FILE", spec);
    search_setup_default(&s->setup);
    if (!apply_search_options(s, spec, opts, n, err))
        return false;
    return configure_search(p, s, spec, greedy, has_key(opts, n, "visits"), err);
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
    return player_create_with_output(g, spec, NULL, err);
}

/* An in-process player named `spec`, not configured yet; NULL with *err when memory runs out. */
static Player *new_player(const Game *g, const char *spec, Error *err)
{
    Player *p = calloc(1, sizeof *p);
    PlayerState *s = calloc(1, sizeof *s);
    if (!p || !s) {
        free(p);
        free(s);
        error_set(err, "out of memory");
        return NULL;
    }
    snprintf(p->name, sizeof p->name, "%.*s", (int)sizeof p->name - 1, spec);
    p->game = g;
    p->threads = 1;
    p->ctx = s;
    p->new_game = plain_new_game;
    p->destroy = destroy_player;
    return p;
}

/* The player once configure (ok) has run: ready for its first game, or freed (NULL). */
static Player *finish_player(Player *p, bool configured, const char *spec, Error *err)
{
    PlayerState *s = p->ctx;
    if (!configured) {
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

Player *player_create_with_output(const Game *g, const char *spec, const PlayerOutput *out, Error *err)
{
    if (player_external_spec(spec))
        return player_external_create(g, spec, out, err);
    char name[32];
    SpecOption opts[16];
    int n = split_spec(spec, name, sizeof name, opts, 16, err);
    if (n < 0)
        return NULL;
    n = drop_names(opts, n);
    Player *p = new_player(g, spec, err);
    return p ? finish_player(p, configure(p, p->ctx, name, spec, opts, n, err), spec, err) : NULL;
}

Player *player_create_search(const Game *g, const SearchSetup *setup, Error *err)
{
    char spec[SEARCH_MAX_PATH + 512];
    player_search_spec(setup, spec, sizeof spec);
    Player *p = new_player(g, spec, err);
    if (!p)
        return NULL;
    PlayerState *s = p->ctx;
    s->setup = *setup;
    bool ok = setup->limits.visits > 0 || setup->limits.seconds > 0 || time_control_on(&setup->tc) ||
              error_set(err, "player '%.60s': a search needs a limit: visits, time or a clock", spec);
    return finish_player(p, ok && configure_search(p, s, spec, false, true, err), spec, err);
}

/* A real as the shortest text that reads back to the same number. */
static void exact_real(double v, char *buf, size_t len)
{
    for (int digits = 10; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        double back;
        if (player_spec_number(buf, -INFINITY, INFINITY, &back) && back == v)
            return;
    }
}

/* Whether a spec of set-up s names option o: visits always (the limit a reader sees first), the
 * seed where one was given, any other where it is not the default. */
static bool spec_names(const SearchOption *o, const SearchSetup *s, const SearchSetup *defaults)
{
    if (o->offset == offsetof(SearchSetup, limits.visits))
        return s->limits.visits > 0;    /* none: a time limit alone */
    if (o->kind == SEARCH_SEED)
        return s->seed_given;
    if (o->kind == SEARCH_REAL)
        return *(const double *)((const char *)s + o->offset) != *(const double *)((const char *)defaults + o->offset);
    char value[SEARCH_MAX_PATH + 8], fallback[SEARCH_MAX_PATH + 8];
    search_option_value_text(o, s, value, sizeof value);
    search_option_value_text(o, defaults, fallback, sizeof fallback);
    return strcmp(value, fallback) != 0;
}

void player_search_spec(const SearchSetup *s, char *buf, size_t len)
{
    SearchSetup defaults;
    search_setup_default(&defaults);
    int count;
    const SearchOption *table = search_options(&count);
    size_t n = (size_t)snprintf(buf, len, "mcts");
    for (int i = 0; i < count && n < len; i++) {
        const SearchOption *o = &table[i];
        if (!(o->where & SEARCH_IN_PLAYER) || !spec_names(o, s, &defaults))
            continue;
        char value[SEARCH_MAX_PATH + 8];
        if (o->kind == SEARCH_REAL)
            exact_real(*(const double *)((const char *)s + o->offset), value, sizeof value);
        else
            search_option_value_text(o, s, value, sizeof value);
        n += (size_t)snprintf(buf + n, len - n, "%c%s=%s", n == 4 ? ':' : ',', o->name, value);
    }
}

void player_free(Player *p)
{
    if (!p)
        return;
    p->destroy(p);
    free(p);
}
