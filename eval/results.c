/*
 * results.c - the ResultTable (results.h): player names with a hash index, and game totals per
 * pair of players with another, so that millions of games cost memory only per pair played.
 *
 * Both indexes are open-addressing tables of (index + 1), 0 marking an empty slot, kept at most
 * half full and doubled when they reach it; entries are never removed.
 */
#include "eval/results.h"

#include <stdlib.h>
#include <string.h>

struct ResultTable {
    char **names;
    Trinomial *totals;     /* per player, from its side */
    int players, player_capacity;
    int *name_slots;
    size_t name_mask;      /* slots - 1, a power of two minus one */

    PairTotals *pairs;
    int num_pairs, pair_capacity;
    int *pair_slots;
    size_t pair_mask;

    int64_t games;
};

enum { INITIAL_SLOTS = 64 };

/* FNV-1a: short keys, good spread, no state. */
static uint64_t hash_name(const char *s)
{
    uint64_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The splitmix64 finalizer over both indexes. */
static uint64_t hash_pair(int a, int b)
{
    uint64_t z = ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

ResultTable *results_new(void)
{
    ResultTable *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->name_slots = calloc(INITIAL_SLOTS, sizeof *t->name_slots);
    t->pair_slots = calloc(INITIAL_SLOTS, sizeof *t->pair_slots);
    if (!t->name_slots || !t->pair_slots) {
        results_free(t);
        return NULL;
    }
    t->name_mask = t->pair_mask = INITIAL_SLOTS - 1;
    return t;
}

void results_free(ResultTable *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->players; i++)
        free(t->names[i]);
    free(t->names);
    free(t->totals);
    free(t->name_slots);
    free(t->pairs);
    free(t->pair_slots);
    free(t);
}

/* --- names ------------------------------------------------------------------------------------ */

/* The slot holding `name`, or the empty slot where it would go. */
static size_t name_slot(const ResultTable *t, const char *name)
{
    size_t s = hash_name(name) & t->name_mask;
    while (t->name_slots[s] && strcmp(t->names[t->name_slots[s] - 1], name) != 0)
        s = (s + 1) & t->name_mask;
    return s;
}

static bool grow_name_index(ResultTable *t)
{
    size_t slots = (t->name_mask + 1) * 2;
    int *fresh = calloc(slots, sizeof *fresh), *old = t->name_slots;
    if (!fresh)
        return false;
    t->name_slots = fresh;
    t->name_mask = slots - 1;
    for (int i = 0; i < t->players; i++)
        t->name_slots[name_slot(t, t->names[i])] = i + 1;
    free(old);
    return true;
}

static bool reserve_player(ResultTable *t)
{
    if (2 * (size_t)(t->players + 1) > t->name_mask + 1 && !grow_name_index(t))
        return false;
    if (t->players < t->player_capacity)
        return true;
    int capacity = t->player_capacity ? 2 * t->player_capacity : 16;
    char **names = realloc(t->names, (size_t)capacity * sizeof *names);
    if (!names)
        return false;
    t->names = names;
    Trinomial *totals = realloc(t->totals, (size_t)capacity * sizeof *totals);
    if (!totals)
        return false;
    t->totals = totals;
    t->player_capacity = capacity;
    return true;
}

int results_find(const ResultTable *t, const char *name)
{
    return t->name_slots[name_slot(t, name)] - 1;
}

int results_player(ResultTable *t, const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len > RESULTS_NAME_MAX)
        return -1;
    int found = results_find(t, name);
    if (found >= 0)
        return found;
    if (t->players == 0x7fffffff - 1 || !reserve_player(t))
        return -1;
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, name, len + 1);
    int index = t->players++;
    t->names[index] = copy;
    t->totals[index] = (Trinomial){0, 0, 0};
    t->name_slots[name_slot(t, copy)] = index + 1;
    return index;
}

/* --- pairs ------------------------------------------------------------------------------------ */

static size_t pair_slot(const ResultTable *t, int a, int b)
{
    size_t s = hash_pair(a, b) & t->pair_mask;
    while (t->pair_slots[s]) {
        const PairTotals *p = &t->pairs[t->pair_slots[s] - 1];
        if (p->a == a && p->b == b)
            break;
        s = (s + 1) & t->pair_mask;
    }
    return s;
}

static bool grow_pair_index(ResultTable *t)
{
    size_t slots = (t->pair_mask + 1) * 2;
    int *fresh = calloc(slots, sizeof *fresh), *old = t->pair_slots;
    if (!fresh)
        return false;
    t->pair_slots = fresh;
    t->pair_mask = slots - 1;
    for (int i = 0; i < t->num_pairs; i++)
        t->pair_slots[pair_slot(t, t->pairs[i].a, t->pairs[i].b)] = i + 1;
    free(old);
    return true;
}

/* The totals of players a < b, created empty if they had not met; NULL when out of memory. */
static PairTotals *pair_totals(ResultTable *t, int a, int b)
{
    size_t s = pair_slot(t, a, b);
    if (t->pair_slots[s])
        return &t->pairs[t->pair_slots[s] - 1];
    if (t->num_pairs == t->pair_capacity) {
        if (t->pair_capacity > 0x3fffffff)
            return NULL;
        int capacity = t->pair_capacity ? 2 * t->pair_capacity : 16;
        PairTotals *pairs = realloc(t->pairs, (size_t)capacity * sizeof *pairs);
        if (!pairs)
            return NULL;
        t->pairs = pairs;
        t->pair_capacity = capacity;
    }
    if (2 * (size_t)(t->num_pairs + 1) > t->pair_mask + 1) {
        if (!grow_pair_index(t))
            return NULL;
        s = pair_slot(t, a, b);
    }
    t->pairs[t->num_pairs] = (PairTotals){a, b, 0, 0, 0};
    t->pair_slots[s] = ++t->num_pairs;
    return &t->pairs[t->num_pairs - 1];
}

static bool count_valid(const Trinomial *c)
{
    const int64_t limit = INT64_MAX / 4;   /* totals of any player stay far from overflow */
    return c->wins >= 0 && c->draws >= 0 && c->losses >= 0 && c->wins <= limit && c->draws <= limit &&
           c->losses <= limit;
}

bool results_add_games(ResultTable *t, int a, int b, const Trinomial *from_a)
{
    if (a == b || a < 0 || b < 0 || a >= t->players || b >= t->players || !count_valid(from_a))
        return false;
    int64_t added = from_a->wins + from_a->draws + from_a->losses;
    if (t->games > INT64_MAX / 4 - added)
        return false;
    bool swap = a > b;
    PairTotals *p = swap ? pair_totals(t, b, a) : pair_totals(t, a, b);
    if (!p)
        return false;
    p->wins_a += swap ? from_a->losses : from_a->wins;
    p->wins_b += swap ? from_a->wins : from_a->losses;
    p->draws += from_a->draws;
    t->totals[a].wins += from_a->wins;
    t->totals[a].draws += from_a->draws;
    t->totals[a].losses += from_a->losses;
    t->totals[b].wins += from_a->losses;
    t->totals[b].draws += from_a->draws;
    t->totals[b].losses += from_a->wins;
    t->games += added;
    return true;
}

bool results_add_game(ResultTable *t, int white, int black, GameOutcome outcome)
{
    Trinomial one = {outcome == OUTCOME_WHITE_WINS, outcome == OUTCOME_DRAW, outcome == OUTCOME_WHITE_LOSES};
    return results_add_games(t, white, black, &one);
}

/* --- reading back ----------------------------------------------------------------------------- */

int results_num_players(const ResultTable *t)
{
    return t->players;
}

const char *results_name(const ResultTable *t, int player)
{
    return t->names[player];
}

int64_t results_num_games(const ResultTable *t)
{
    return t->games;
}

Trinomial results_player_totals(const ResultTable *t, int player)
{
    return t->totals[player];
}

int results_num_pairs(const ResultTable *t)
{
    return t->num_pairs;
}

const PairTotals *results_pair(const ResultTable *t, int index)
{
    return &t->pairs[index];
}
