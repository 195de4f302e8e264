/*
 * api_vec.c - many games in one handle, stepped together (leuctra_api.h's lt_vec_* calls): the
 * batched environment of a reinforcement-learning loop.
 *
 * Each slot holds a game so far (the driver's record, for the repetition rule), the legal
 * actions of its position in ascending order beside their moves, so that a step checks an
 * action by a binary search and plays it without generating the moves again, and the seed
 * stream of its present game.  The outputs are arrays the caller binds once (a numpy array's
 * buffer, say) and every step writes straight into; the legal mask is kept by clearing only the
 * entries the last position set, so a step costs the legal moves, not the size of the action
 * index.  Games run on OpenMP threads; each thread has its own scratch and its own copy of the
 * opponent, which starts afresh from a seed of the game it moves in, so no result depends on
 * which thread played it or how many there are.
 */
#include "leuctra_api.h"
#include "api_internal.h"
#include "core/game_so_far.h"
#include "core/number.h"
#include "core/rng.h"
#include "core/tensors.h"
#include "core/threads.h"
#include "selfplay/driver.h"
#include "selfplay/player.h"

#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fewer games than this are stepped on one thread: starting a team costs more than they take. */
enum { VEC_PARALLEL_MIN = 64 };
/* Tries at a game that the agent gets to move in: the opponent's reply to a random opening can
 * end a game first.  The last try has no random opening, and no first move from the start ends
 * a game on any board the rules allow (every one of them was tried), so it always succeeds. */
enum { VEC_BEGIN_TRIES = 8 };
enum { AGENT_WHITE = WHITE, AGENT_BLACK = BLACK, AGENT_ALTERNATE = 2 };

typedef struct {
    GameSoFar played;
    int32_t *actions;       /* the legal actions of played.now, ascending, where the agent moves */
    Move *moves;            /* moves[k]: the move of actions[k] */
    int count, capacity;
    Rng rng;                /* the present game's: its opening plies and the opponent's seeds */
    uint64_t games;         /* games begun in this slot; the next is seeded from (seed, slot, games) */
    int agent;              /* the agent's colour in the present game (with an opponent) */
    int reversible;         /* the first ply of the game's last stretch with its present number of
                               stones: no position before it can come again */
    uint8_t result, reason; /* how the game that ended at the last step ended (reason 0: none did) */
    int32_t ended_plies;    /* and its length */
} VecSlot;

typedef struct {
    Move moves[MAX_MOVES];  /* a thread's scratch */
    int actions[MAX_MOVES];
    uint64_t *seen;         /* a bit per action, all clear between calls */
    int *before;            /* for each word of seen, the bits set in the words before it */
    Player *opponent;       /* its copy of the opponent, or NULL */
} VecThread;

/* The outputs, by the names lt_vec_bind takes. */
enum {
    OUT_PLANES, OUT_MASK, OUT_LEGAL_COUNT, OUT_LEGAL_START, OUT_LEGAL, OUT_SIDE, OUT_REWARD, OUT_DONE, OUT_RESULT,
    OUT_REASON, OUT_PLIES, OUT_LENGTH, OUT_COUNT
};
static const struct {
    const char *name;
    size_t element;         /* bytes */
} outputs[OUT_COUNT] = {
    {"planes", 1}, {"mask", 1}, {"legal_count", 4}, {"legal_start", 8}, {"legal", 4}, {"side", 1},
    {"reward", 4}, {"done", 1}, {"result", 1}, {"reason", 1}, {"plies", 4}, {"length", 4},
};

typedef struct {
    int threads, max_plies, random_opening, agent_colour;
    bool repetition;
    const char *opponent;   /* the spec, or NULL */
} VecOptions;

struct LtVec {
    Game *game;
    Position start;
    int n, threads, num_actions;
    size_t planes_size;     /* bytes of one game's planes */
    uint64_t seed;
    VecOptions o;           /* o.opponent points at `opponent` */
    char *opponent;         /* the opponent's spec, or NULL */
    VecSlot *slots;
    VecThread *thread;      /* [threads] */
    Move *chosen;           /* [n]: the moves of a step's actions */
    int64_t *start_of;      /* [n]: where each game's actions begin in the flat list */
    int64_t total;          /* legal actions in all */
    void *out[OUT_COUNT];
    size_t out_len[OUT_COUNT];  /* elements */
};

/* ---------------------------------------------------------------- options */

static bool option_integer(const char *name, const char *text, long long min, long long max, int *out, Error *e)
{
    long long v;
    NumberStatus st = number_read_integer(text, min, max, &v);
    if (st != NUMBER_OK)
        return error_set(e, "%s must be an integer from %lld to %lld, got '%.40s' (%s)", name, min, max, text,
                         number_problem(st));
    *out = (int)v;
    return true;
}

static bool option_set(VecOptions *o, const char *name, const char *text, Error *e)
{
    if (strcmp(name, "threads") == 0)
        return option_integer(name, text, 0, THREADS_MAX, &o->threads, e);
    if (strcmp(name, "max_plies") == 0)
        return option_integer(name, text, 1, 1000000, &o->max_plies, e);
    if (strcmp(name, "random_opening") == 0)
        return option_integer(name, text, 0, 1000000, &o->random_opening, e);
    if (strcmp(name, "repetition") == 0) {
        o->repetition = strcmp(text, "true") == 0 || strcmp(text, "1") == 0;
        return o->repetition || strcmp(text, "false") == 0 || strcmp(text, "0") == 0 ||
               error_set(e, "repetition must be true or false, got '%.40s'", text);
    }
    if (strcmp(name, "agent_colour") == 0) {
        static const char *const colours[3] = {"white", "black", "alternate"};
        for (int c = 0; c < 3; c++)
            if (strcmp(text, colours[c]) == 0)
                return o->agent_colour = c, true;
        return error_set(e, "agent_colour must be white, black or alternate, got '%.40s'", text);
    }
    if (strcmp(name, "opponent") == 0) {
        o->opponent = *text ? text : NULL;
        return true;
    }
    return error_set(e, "unknown option '%.40s' (options: threads, max_plies, repetition, random_opening, opponent, "
                        "agent_colour)", name);
}

/* The options from names and values (each name once), checked against each other. */
static bool options_read(VecOptions *o, int count, const char *const *names, const char *const *values, Error *e)
{
    DrawPolicy draw = driver_draw_policy_default();
    *o = (VecOptions){0, draw.max_plies, 0, AGENT_ALTERNATE, draw.repetition, NULL};
    bool agent_given = false;
    if (count < 0 || (count > 0 && (!names || !values)))
        return error_set(e, "the options: %d names and values", count);
    for (int i = 0; i < count; i++) {
        if (!names[i] || !values[i])
            return error_set(e, "an option without a name or a value");
        for (int j = 0; j < i; j++)
            if (strcmp(names[j], names[i]) == 0)
                return error_set(e, "option '%.40s' given twice", names[i]);
        if (!option_set(o, names[i], values[i], e))
            return false;
        agent_given |= strcmp(names[i], "agent_colour") == 0;
    }
    if (agent_given && !o->opponent)
        return error_set(e, "agent_colour needs an opponent (without one the agent plays both sides)");
    int before_agent = o->random_opening + (o->opponent ? 1 : 0);
    if (before_agent >= o->max_plies)
        return error_set(e, "random_opening (%d)%s must leave the agent a ply before max_plies (%d)",
                         o->random_opening, o->opponent ? " and the opponent's first move" : "", o->max_plies);
    return true;
}

/* ---------------------------------------------------------------- one slot's game */

static bool agent_to_move(const LtVec *v, const VecSlot *s)
{
    return !v->o.opponent || game_side_to_move(v->game, &s->played.now) == s->agent;
}

static uint8_t lt_status_of(GameStatus st)
{
    return st == STATUS_WHITE_WINS ? LT_WHITE_WINS : st == STATUS_BLACK_WINS ? LT_BLACK_WINS : LT_DRAW;
}

/* How often the position now occurred in the game, itself included: the driver's count
 * (game_so_far_occurrences) over fewer positions.  The side to move is part of every game's
 * hash and the sides alternate ply by ply (a pass is a move), so a position an odd number of
 * plies back is never the same; nor is one before the stones last changed in number, which in
 * every game only ever goes one way (captures, discs placed). */
static int occurrences(const VecSlot *s)
{
    const GameSoFar *h = &s->played;
    const uint64_t now = h->hashes[h->plies];
    int count = 0;
    for (int i = h->plies; i >= s->reversible; i -= 2)
        count += h->hashes[i] == now;
    return count;
}

/* The driver's adjudication after a ply (selfplay/driver.c): the rules once the mover has no
 * move, the third occurrence of a position, the ply limit; false while the game goes on. */
static bool slot_ended(const LtVec *v, const VecSlot *s, int moves_left, uint8_t *result, uint8_t *reason)
{
    const GameSoFar *h = &s->played;
    if (moves_left == 0) {
        *result = lt_status_of(game_status(v->game, &h->now));
        *reason = LT_END_RULES;
    } else if (v->o.repetition && !v->game->ops->never_repeats && occurrences(s) >= 3) {
        *result = LT_DRAW;
        *reason = LT_END_REPETITION;
    } else if (h->plies >= v->o.max_plies) {
        *result = LT_DRAW;
        *reason = LT_END_PLY_LIMIT;
    } else {
        return false;
    }
    return true;
}

/* Room in slot s's lists for n legal actions. */
static bool slot_reserve(VecSlot *s, int n)
{
    if (n <= s->capacity)
        return true;
    int cap = s->capacity ? s->capacity : 64;
    while (cap < n)
        cap *= 2;
    int32_t *actions = realloc(s->actions, (size_t)cap * sizeof *actions);
    if (actions)
        s->actions = actions;
    Move *moves = realloc(s->moves, (size_t)cap * sizeof *moves);
    if (moves)
        s->moves = moves;
    if (!actions || !moves)
        return false;
    s->capacity = cap;
    return true;
}

/* The legal actions of the slot's position, ascending, beside their moves.  The generator lists
 * the moves a line at a time, far from action order, so they are sorted through a bit set over
 * the action index: each action's place is the number of set bits before its own, counted
 * without a branch that depends on the position (an insertion sort took a third of a step, and
 * reading the bits back one by one mispredicted a branch at every word). */
static bool slot_list_moves(const LtVec *v, VecSlot *s, VecThread *th)
{
    int n = game_legal_actions(v->game, &s->played.now, th->moves, th->actions);
    if (!slot_reserve(s, n)) {
        s->count = 0;       /* no action of the old list is taken for the new position */
        return false;
    }
    uint64_t *seen = th->seen;
    int low = v->num_actions, high = -1;
    for (int i = 0; i < n; i++) {
        int w = th->actions[i] >> 6;
        seen[w] |= 1ull << (th->actions[i] & 63);
        low = w < low ? w : low;
        high = w > high ? w : high;
    }
    for (int w = low, before = 0; w <= high; w++) {
        th->before[w] = before;
        before += __builtin_popcountll(seen[w]);
    }
    for (int i = 0; i < n; i++) {
        int a = th->actions[i], w = a >> 6;
        int at = th->before[w] + __builtin_popcountll(seen[w] & ((1ull << (a & 63)) - 1));
        s->actions[at] = a;
        s->moves[at] = th->moves[i];
    }
    if (high >= low)
        memset(seen + low, 0, (size_t)(high - low + 1) * sizeof *seen);
    s->count = n;      /* an action names one legal move (core/tensors.h), so the n places differ */
    return true;
}

/* After a ply: the legal list where the agent moves next, and whether the game is over.
 * -1: out of memory; 1: over (*result, *reason); 0: it goes on. */
static int slot_settle(const LtVec *v, VecSlot *s, VecThread *th, uint8_t *result, uint8_t *reason)
{
    int left;
    if (agent_to_move(v, s)) {
        if (!slot_list_moves(v, s, th))
            return -1;
        left = s->count;
    } else {
        s->count = 0;
        left = game_count_moves(v->game, &s->played.now);
    }
    return slot_ended(v, s, left, result, reason) ? 1 : 0;
}

static int stones(const LtVec *v, const Position *p)
{
    return game_stones(v->game, p, WHITE) + game_stones(v->game, p, BLACK);
}

/* Plays m, keeping the start of the stretch that repetitions are looked for in. */
static bool slot_advance(const LtVec *v, VecSlot *s, Move m)
{
    int before = stones(v, &s->played.now);
    if (!game_so_far_play(&s->played, v->game, m))
        return false;
    if (stones(v, &s->played.now) != before)
        s->reversible = s->played.plies;
    return true;
}

static int slot_play(const LtVec *v, VecSlot *s, Move m, VecThread *th, uint8_t *result, uint8_t *reason)
{
    return slot_advance(v, s, m) ? slot_settle(v, s, th, result, reason) : -1;
}

/* The opponent's plies until the agent is to move; as slot_settle, and -3 when it chose no move. */
static int slot_opponent_moves(const LtVec *v, VecSlot *s, VecThread *th, uint8_t *result, uint8_t *reason)
{
    while (!agent_to_move(v, s)) {
        Player *p = th->opponent;
        p->new_game(p, rng_next(&s->rng));      /* afresh from the game's seed: no thread's past counts */
        MoveInfo info = MOVE_INFO_INIT;
        Move m = p->choose(p, &s->played, &info);
        if (m == MOVE_NONE)
            return -3;
        int r = slot_play(v, s, m, th, result, reason);
        if (r != 0)
            return r;
    }
    return 0;
}

/* Uniformly random opening plies; one that would end the game is taken back, and the opening
 * stops there. */
static int slot_opening(const LtVec *v, VecSlot *s, int plies, VecThread *th)
{
    for (int k = 0; k < plies; k++) {
        int n = game_gen_moves(v->game, &s->played.now, th->moves);
        int reversible = s->reversible;
        if (n == 0 || !slot_advance(v, s, th->moves[rng_below(&s->rng, (uint32_t)n)]))
            return n == 0 ? 0 : -1;
        uint8_t result, reason;
        if (slot_ended(v, s, game_count_moves(v->game, &s->played.now), &result, &reason)) {
            game_so_far_truncate(&s->played, v->game, s->played.plies - 1);
            s->reversible = reversible;
            return 0;
        }
    }
    return 0;
}

/* Begins slot i's next game, up to the agent's first move.  -1: out of memory; -2: no try gave
 * the agent a move (VEC_BEGIN_TRIES says why it cannot happen); -3: the opponent chose no move. */
static int slot_begin(const LtVec *v, int i, VecThread *th)
{
    VecSlot *s = &v->slots[i];
    for (int attempt = 0; attempt < VEC_BEGIN_TRIES; attempt++) {
        uint64_t k = s->games++;
        s->rng = rng_seed(rng_seed(v->seed, (uint64_t)i).s[0], k);
        s->agent = v->o.agent_colour == AGENT_ALTERNATE ? (int)(((uint64_t)i + k) & 1) : v->o.agent_colour;
        if (!game_so_far_begin(&s->played, v->game, &v->start))
            return -1;
        s->reversible = 0;
        if (slot_opening(v, s, attempt + 1 < VEC_BEGIN_TRIES ? v->o.random_opening : 0, th) < 0)
            return -1;
        uint8_t result, reason;
        int r = slot_settle(v, s, th, &result, &reason);
        if (r == 0 && v->o.opponent)
            r = slot_opponent_moves(v, s, th, &result, &reason);
        if (r <= 0)
            return r;
    }
    return -2;
}

/* ---------------------------------------------------------------- outputs */

enum { WRITE_ALL = (1u << OUT_COUNT) - 1 };

static void mask_clear(const LtVec *v, int i)
{
    uint8_t *row = v->out[OUT_MASK];
    if (!row)
        return;
    row += (size_t)i * (size_t)v->num_actions;
    const VecSlot *s = &v->slots[i];
    for (int k = 0; k < s->count; k++)
        row[s->actions[k]] = 0;
}

/* Writes game i's entries of the bound outputs that `which` names (bits 1 << OUT_...). */
static void slot_write(const LtVec *v, int i, unsigned which)
{
    const VecSlot *s = &v->slots[i];
    void *const *out = v->out;
    which &= ~(1u << OUT_LEGAL | 1u << OUT_LEGAL_START);     /* the flat list is written whole */
    if ((which & 1u << OUT_PLANES) && out[OUT_PLANES])
        game_planes(v->game, &s->played.now, (uint8_t *)out[OUT_PLANES] + (size_t)i * v->planes_size);
    if ((which & 1u << OUT_MASK) && out[OUT_MASK]) {
        uint8_t *row = (uint8_t *)out[OUT_MASK] + (size_t)i * (size_t)v->num_actions;
        for (int k = 0; k < s->count; k++)
            row[s->actions[k]] = 1;
    }
    if ((which & 1u << OUT_LEGAL_COUNT) && out[OUT_LEGAL_COUNT])
        ((int32_t *)out[OUT_LEGAL_COUNT])[i] = s->count;
    if ((which & 1u << OUT_SIDE) && out[OUT_SIDE])
        ((int8_t *)out[OUT_SIDE])[i] = (int8_t)game_side_to_move(v->game, &s->played.now);
    if ((which & 1u << OUT_REWARD) && out[OUT_REWARD]) {
        bool white = s->result == LT_WHITE_WINS, black = s->result == LT_BLACK_WINS;
        ((float *)out[OUT_REWARD])[2 * (size_t)i] = white ? 1.0f : black ? -1.0f : 0.0f;
        ((float *)out[OUT_REWARD])[2 * (size_t)i + 1] = black ? 1.0f : white ? -1.0f : 0.0f;
    }
    if ((which & 1u << OUT_DONE) && out[OUT_DONE])
        ((uint8_t *)out[OUT_DONE])[i] = s->reason != LT_END_NONE;
    if ((which & 1u << OUT_RESULT) && out[OUT_RESULT])
        ((uint8_t *)out[OUT_RESULT])[i] = s->result;
    if ((which & 1u << OUT_REASON) && out[OUT_REASON])
        ((uint8_t *)out[OUT_REASON])[i] = s->reason;
    if ((which & 1u << OUT_PLIES) && out[OUT_PLIES])
        ((int32_t *)out[OUT_PLIES])[i] = s->played.plies;
    if ((which & 1u << OUT_LENGTH) && out[OUT_LENGTH])
        ((int32_t *)out[OUT_LENGTH])[i] = s->reason != LT_END_NONE ? s->ended_plies : 0;
}

/* Where each game's actions begin in the flat list; whether the list fits its output. */
static bool legal_offsets(LtVec *v)
{
    int64_t at = 0;
    for (int i = 0; i < v->n; i++) {
        v->start_of[i] = at;
        at += v->slots[i].count;
    }
    v->total = at;
    if (v->out[OUT_LEGAL_START])
        memcpy(v->out[OUT_LEGAL_START], v->start_of, (size_t)v->n * sizeof *v->start_of);
    return v->out[OUT_LEGAL] && (size_t)at <= v->out_len[OUT_LEGAL];
}

static void legal_copy(const LtVec *v, int i)
{
    memcpy((int32_t *)v->out[OUT_LEGAL] + v->start_of[i], v->slots[i].actions,
           (size_t)v->slots[i].count * sizeof(int32_t));
}

/* The offsets, and the list itself where it fits. */
static void legal_flatten(LtVec *v)
{
    if (legal_offsets(v))
        for (int i = 0; i < v->n; i++)
            legal_copy(v, i);
}

/* The mask rebuilt whole: after a failure may have left it apart from the lists. */
static void mask_rebuild(const LtVec *v)
{
    if (!v->out[OUT_MASK])
        return;
    memset(v->out[OUT_MASK], 0, v->out_len[OUT_MASK]);
    for (int i = 0; i < v->n; i++)
        slot_write(v, i, 1u << OUT_MASK);
}

/* ---------------------------------------------------------------- the games, on threads */

/* One slot's share of a step or a reset: its game moved on (or begun again), its outputs written. */
static int slot_step(const LtVec *v, int i, bool reset, VecThread *th)
{
    VecSlot *s = &v->slots[i];
    mask_clear(v, i);
    s->result = LT_ONGOING;
    s->reason = LT_END_NONE;
    int r = 0;
    if (!reset) {
        uint8_t result, reason;
        r = slot_play(v, s, v->chosen[i], th, &result, &reason);
        if (r == 0 && v->o.opponent)
            r = slot_opponent_moves(v, s, th, &result, &reason);
        if (r == 1) {
            s->result = result;
            s->reason = reason;
            s->ended_plies = s->played.plies;
        }
    }
    if (reset || r == 1)
        r = slot_begin(v, i, th);
    slot_write(v, i, WRITE_ALL);
    return r;
}

static bool worth_threads(const LtVec *v)
{
    return v->threads > 1 && (v->n >= VEC_PARALLEL_MIN || v->o.opponent);
}

static void slot_run(const LtVec *v, int i, bool reset, VecThread *th, int *failed)
{
    int r = slot_step(v, i, reset, th);
    if (r < 0) {
#pragma omp atomic write
        *failed = r;
    }
}

/* Every slot stepped (reset: begun again); 0, or a slot_begin failure. */
static int vec_run(LtVec *v, bool reset)
{
    int failed = 0;
    bool fits = false;
#pragma omp parallel num_threads(v->threads) if (worth_threads(v))
    {
        VecThread *th = &v->thread[omp_get_thread_num()];
        if (v->o.opponent) {            /* a search costs what it costs: the games are dealt as they go */
#pragma omp for schedule(dynamic, 1)
            for (int i = 0; i < v->n; i++)
                slot_run(v, i, reset, th, &failed);
        } else {                        /* each thread keeps its games, and their memory in its cache */
#pragma omp for schedule(static)
            for (int i = 0; i < v->n; i++)
                slot_run(v, i, reset, th, &failed);
        }
#pragma omp single
        fits = legal_offsets(v);
        /* the copy on every thread: on one, the others would wait for it */
        if (fits) {
#pragma omp for schedule(static)
            for (int i = 0; i < v->n; i++)
                legal_copy(v, i);
        }
    }
    if (failed)
        mask_rebuild(v);
    return failed;
}

static int run_status(LtVec *v, bool reset, int64_t *legal_total, char *err, size_t err_len)
{
    int r = vec_run(v, reset);
    if (legal_total)
        *legal_total = v->total;
    if (r == -1)
        return api_fail(err, err_len, LT_ERR_FAILED, "out of memory (the games are left as they came out: reset them)");
    if (r == -2)
        return api_fail(err, err_len, LT_ERR_FAILED, "no game could be begun with the agent to move");
    if (r == -3)
        return api_fail(err, err_len, LT_ERR_FAILED, "the opponent chose no move");
    return LT_OK;
}

/* The index of action a in slot s's legal list, or -1. */
static int slot_find(const VecSlot *s, int32_t a)
{
    int lo = 0, hi = s->count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->actions[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->count && s->actions[lo] == a ? lo : -1;
}

/* The moves of the actions into v->chosen; the first game whose action is illegal, or n. */
static int check_actions(LtVec *v, const int32_t *actions)
{
    int bad = v->n;
#pragma omp parallel for num_threads(v->threads) if (worth_threads(v)) reduction(min : bad) schedule(static)
    for (int i = 0; i < v->n; i++) {
        int k = slot_find(&v->slots[i], actions[i]);
        if (k < 0)
            bad = i < bad ? i : bad;
        else
            v->chosen[i] = v->slots[i].moves[k];
    }
    return bad;
}

/* ---------------------------------------------------------------- the handle */

/* The opponent's spec made into one player per thread. */
static bool opponents_create(LtVec *v, Error *e)
{
    const char *spec = v->o.opponent;
    size_t name_len = strcspn(spec, ":");
    if (!((name_len == 6 && strncmp(spec, "random", 6) == 0) || (name_len == 6 && strncmp(spec, "greedy", 6) == 0) ||
          (name_len == 4 && strncmp(spec, "mcts", 4) == 0)))
        return error_set(e, "opponent '%.60s': expected random, greedy[:weights=FILE] or mcts[:key=value,...]", spec);
    for (int t = 0; t < v->threads; t++) {
        Player *p = player_create(v->game, spec, e);
        if (!p)
            return false;
        v->thread[t].opponent = p;
        if (p->threads != 1 || p->timed)
            return error_set(e, "opponent '%.60s': runs on one thread and without a time limit (threads= and time= "
                                "would make the games depend on the machine); VecGame's threads run the games",
                             spec);
    }
    return true;
}

void lt_vec_free(LtVec *v)
{
    if (!v)
        return;
    for (int i = 0; v->slots && i < v->n; i++) {
        game_so_far_free(&v->slots[i].played);
        free(v->slots[i].actions);
        free(v->slots[i].moves);
    }
    for (int t = 0; v->thread && t < v->threads; t++) {
        player_free(v->thread[t].opponent);
        free(v->thread[t].seen);
        free(v->thread[t].before);
    }
    free(v->slots);
    free(v->thread);
    free(v->chosen);
    free(v->start_of);
    free(v->opponent);
    game_free(v->game);
    free(v);
}

/* The handle's memory and game, its options taken over (the opponent's spec copied). */
static LtVec *vec_alloc(const char *variant, int w, int h, int n, const VecOptions *o, Error *e)
{
    LtVec *v = calloc(1, sizeof *v);
    if (!v)
        return error_failed(e, "out of memory"), NULL;
    v->o = *o;
    v->o.opponent = NULL;
    v->n = n;
    v->game = game_new(variant && *variant ? variant : "epaminondas", w, h, e);
    if (!v->game) {
        lt_vec_free(v);
        return NULL;
    }
    game_start(v->game, &v->start);
    v->threads = threads_or_default(o->threads);
    v->num_actions = game_num_actions(v->game);
    v->planes_size = (size_t)PLANES_COUNT * (size_t)v->game->width * (size_t)v->game->height;
    v->slots = calloc((size_t)n, sizeof *v->slots);
    v->thread = calloc((size_t)v->threads, sizeof *v->thread);
    v->chosen = calloc((size_t)n, sizeof *v->chosen);
    v->start_of = calloc((size_t)n, sizeof *v->start_of);
    v->opponent = o->opponent ? strdup(o->opponent) : NULL;
    v->o.opponent = v->opponent;
    bool ok = v->slots && v->thread && v->chosen && v->start_of && (!o->opponent || v->opponent);
    for (int t = 0; ok && t < v->threads; t++) {
        v->thread[t].seen = calloc((size_t)v->num_actions / 64 + 1, sizeof *v->thread[t].seen);
        v->thread[t].before = malloc(((size_t)v->num_actions / 64 + 1) * sizeof *v->thread[t].before);
        ok = v->thread[t].seen && v->thread[t].before;
    }
    if (!ok) {
        lt_vec_free(v);
        return error_failed(e, "out of memory for %d games", n), NULL;
    }
    return v;
}

LtVec *lt_vec_new(const char *variant, const char *size, int n, uint64_t seed, int count, const char *const *names,
                  const char *const *values, char *err, size_t err_len)
{
    Error e;
    VecOptions o;
    int w = 0, h = 0;
    if (n < 1 || n > LT_VEC_MAX_GAMES) {
        api_fail(err, err_len, LT_ERR_INPUT, "n must be an integer from 1 to %d, got %d", (int)LT_VEC_MAX_GAMES, n);
        return NULL;
    }
    if (!options_read(&o, count, names, values, &e) || (size && *size && !game_parse_size(size, &w, &h, &e))) {
        api_fail(err, err_len, LT_ERR_INPUT, "%s", e.msg);
        return NULL;
    }
    LtVec *v = vec_alloc(variant, w, h, n, &o, &e);
    if (v && v->o.opponent && !opponents_create(v, &e)) {
        lt_vec_free(v);
        v = NULL;
    }
    if (!v) {
        api_fail(err, err_len, e.failure ? LT_ERR_FAILED : LT_ERR_INPUT, "%s", e.msg);
        return NULL;
    }
    v->seed = seed;
    if (lt_vec_reset(v, 1, seed, NULL, err, err_len) != LT_OK) {
        lt_vec_free(v);
        return NULL;
    }
    return v;
}

const char *lt_vec_variant(const LtVec *v) { return v->game->name; }

void lt_vec_shape(const LtVec *v, int *n, int *width, int *height, int *num_actions, int *num_planes,
                  int *planes_version, unsigned *symmetries)
{
    *n = v->n;
    *width = v->game->width;
    *height = v->game->height;
    *num_actions = v->num_actions;
    *num_planes = PLANES_COUNT;
    *planes_version = PLANES_VERSION;
    *symmetries = game_symmetries(v->game);
}

/* The elements an output holds per game (0: any number, the flat legal list). */
static size_t per_game(const LtVec *v, int which)
{
    switch (which) {
    case OUT_PLANES: return v->planes_size;
    case OUT_MASK: return (size_t)v->num_actions;
    case OUT_REWARD: return 2;
    case OUT_LEGAL: return 0;
    default: return 1;
    }
}

int lt_vec_bind(LtVec *v, const char *name, void *buf, size_t bytes, char *err, size_t err_len)
{
    int k = 0;
    while (k < OUT_COUNT && !(name && strcmp(outputs[k].name, name) == 0))
        k++;
    if (k == OUT_COUNT)
        return api_fail(err, err_len, LT_ERR_INPUT, "bind: unknown output '%.40s' (planes, mask, legal_count, legal_start, "
                    "legal, side, reward, done, result, reason, plies, length)", name ? name : "(null)");
    size_t element = outputs[k].element, want = per_game(v, k) * (size_t)v->n * element;
    if (!buf && bytes)
        return api_fail(err, err_len, LT_ERR_INPUT, "bind '%s': no buffer for %zu bytes", outputs[k].name, bytes);
    if (buf && ((uintptr_t)buf % element || (want ? bytes != want : bytes % element)))
        return api_fail(err, err_len, LT_ERR_INPUT, "bind '%s': %zu bytes at an address %s; expected %s%zu bytes aligned "
                    "to %zu", outputs[k].name, bytes, (uintptr_t)buf % element ? "misaligned" : "aligned",
                    want ? "" : "a multiple of ", want ? want : element, element);
    v->out[k] = buf;
    v->out_len[k] = bytes / element;
    if (!buf)
        return LT_OK;
    if (k == OUT_MASK)
        mask_rebuild(v);
    else if (k == OUT_LEGAL || k == OUT_LEGAL_START)
        legal_flatten(v);
    else
        for (int i = 0; i < v->n; i++)
            slot_write(v, i, 1u << k);
    return LT_OK;
}

int lt_vec_reset(LtVec *v, int reseed, uint64_t seed, int64_t *legal_total, char *err, size_t err_len)
{
    if (reseed) {
        v->seed = seed;
        for (int i = 0; i < v->n; i++)
            v->slots[i].games = 0;
    }
    return run_status(v, true, legal_total, err, err_len);
}

int lt_vec_step(LtVec *v, const int32_t *actions, size_t n, int64_t *legal_total, char *err, size_t err_len)
{
    if (!actions || n != (size_t)v->n)
        return api_fail(err, err_len, LT_ERR_INPUT, "step: %zu actions for %d games", actions ? n : 0, v->n);
    int bad = check_actions(v, actions);
    if (bad < v->n)
        return api_fail(err, err_len, LT_ERR_INPUT, "step: game %d: action %d is not one of its %d legal actions (nothing "
                    "was played)", bad, (int)actions[bad], v->slots[bad].count);
    return run_status(v, false, legal_total, err, err_len);
}

static int check_index(const LtVec *v, int i, char *err, size_t err_len)
{
    if (i < 0 || i >= v->n)
        return api_fail(err, err_len, LT_ERR_INPUT, "game index must be an integer from 0 to %d, got %d", v->n - 1, i);
    return LT_OK;
}

int lt_vec_position(const LtVec *v, int i, char *buf, size_t len, char *err, size_t err_len)
{
    int status = check_index(v, i, err, err_len);
    if (status == LT_OK)
        game_format_position(v->game, &v->slots[i].played.now, buf, len);
    return status;
}

LtGame *lt_vec_game(const LtVec *v, int i, char *err, size_t err_len)
{
    if (check_index(v, i, err, err_len) != LT_OK)
        return NULL;
    char size[32];
    snprintf(size, sizeof size, "%dx%d", v->game->width, v->game->height);
    LtGame *g = lt_game_new(v->game->name, size, NULL, err, err_len);
    const GameSoFar *h = &v->slots[i].played;
    Position p = h->start;
    for (int k = 0; g && k < h->plies; k++) {
        if (lt_game_play_action(g, game_action_of(v->game, &p, h->moves[k]), err, err_len) != LT_OK) {
            lt_game_free(g);
            return NULL;
        }
        Undo undo;
        game_make(v->game, &p, h->moves[k], &undo);
    }
    return g;
}
