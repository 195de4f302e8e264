/*
 * search_setup.c - the search set-up's defaults, its option table and the one reader of each
 * option's value, the node budget and the evaluation loader (search_setup.h).
 */
#include "search_setup.h"

#include "core/number.h"
#include "core/threads.h"
#include "data/weights.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The node budget's ceiling: 2^30 nodes reserve 512 GiB of address space (16 nodes of 32 bytes
 * each), past which the machine would swap rather than the search fail. */
#define MAX_NODES (1LL << 30)
/* 10^12 visits is beyond any real search, 10^6 seconds (11 days) beyond any real game. */
#define MAX_VISITS 1e12
#define MAX_SECONDS 1e6

#define AT(field) offsetof(SearchSetup, field)

static const SearchOption options[] = {
    {"visits", SEARCH_LONG, AT(limits.visits), 0, 1, MAX_VISITS, SEARCH_IN_ALL, false,
     "visits of a search (with time too, the first limit reached ends it)"},
    {"time", SEARCH_REAL, AT(limits.seconds), 0, 0, MAX_SECONDS, SEARCH_IN_ALL, false,
     "seconds of a search, a decimal number (0: no time limit)"},
    {"tc", SEARCH_CLOCK, AT(tc), 0, 0, 0, SEARCH_IN_PLAYER, false,
     "a game clock, SECONDS[+INC] or MOVES/SECONDS[+INC], that the engine manages"},
    {"overhead", SEARCH_REAL, AT(overhead), 0, 0, 60, SEARCH_IN_PLAYER | SEARCH_IN_ENGINE, false,
     "seconds kept back on every clocked move"},
    {"threads", SEARCH_INT, AT(mcts.threads), 0, 1, THREADS_MAX, SEARCH_IN_ALL, true,
     "search threads, sharing one tree"},
    {"nodes", SEARCH_SIZE, AT(mcts.max_nodes), 0, 1024, (double)MAX_NODES, SEARCH_IN_ALL, true,
     "the tree's node budget (32 bytes a node)"},
    {"cpuct", SEARCH_REAL, AT(mcts.c_puct), AT(mcts.c_puct_learned), 0, 100, SEARCH_IN_ALL, true,
     "PUCT exploration (default 1.5, and 0.7 with weights that have learned priors; a value "
     "given serves both)"},
    {"fpu", SEARCH_REAL, AT(mcts.fpu_reduction), 0, 0, 1, SEARCH_IN_ALL, true,
     "an unvisited move's value: its parent's less this"},
    {"contempt", SEARCH_REAL, AT(mcts.contempt), 0, 0, 0.5, SEARCH_IN_ALL, true,
     "a repetition draw is worth 0.5 less this to the side that searches (0.5: a loss)"},
    {"playouts", SEARCH_BOOL, AT(mcts.playouts), 0, 0, 1, SEARCH_IN_ALL, true,
     "random playouts at the leaves instead of the evaluation"},
    {"seed", SEARCH_SEED, AT(mcts.seed), 0, 0, (double)INT64_MAX, SEARCH_IN_ALL, true,
     "the search's random seed (a player's is mixed into each game's)"},
    {"solve", SEARCH_INT, AT(mcts.solve_empties), 0, 0, 64, SEARCH_IN_ALL, true,
     "Reversi: leaves with at most this many empty squares are solved (0: never)"},
    {"rootsolve", SEARCH_INT, AT(mcts.root_solve_empties), 0, 0, 64, SEARCH_IN_ALL, true,
     "Reversi: the root is solved first at most this many empty squares (0: never)"},
    {"coarse", SEARCH_REAL, AT(mcts.coarse_share), 0, -1, 1, SEARCH_IN_ALL, true,
     "with table weights, the linear features' share of a leaf's value (negative: the game's)"},
    {"weights", SEARCH_PATH, AT(eval_path), 0, 0, 0, SEARCH_IN_ALL, true,
     "the evaluation weights file (default: the shipped ones)"},
};
enum { NUM_OPTIONS = sizeof options / sizeof options[0] };

void search_setup_default(SearchSetup *s)
{
    memset(s, 0, sizeof *s);
    mcts_default_config(&s->mcts);
    s->limits.visits = 800;
    s->overhead = TIME_DEFAULT_OVERHEAD;
}

const SearchOption *search_options(int *count)
{
    *count = NUM_OPTIONS;
    return options;
}

const SearchOption *search_option_find(const char *name)
{
    for (int i = 0; i < NUM_OPTIONS; i++)
        if (strcasecmp(name, options[i].name) == 0)
            return &options[i];
    return NULL;
}

static void *field(SearchSetup *s, size_t offset) { return (char *)s + offset; }
static const void *cfield(const SearchSetup *s, size_t offset) { return (const char *)s + offset; }

/* --- storing a value --------------------------------------------------------------------------- */

static bool is_integer_kind(SearchOptionKind k)
{
    return k == SEARCH_LONG || k == SEARCH_INT || k == SEARCH_SIZE || k == SEARCH_SEED;
}

/* A number already checked against the option's range, into its field (and its twin's). */
static void store_number(SearchSetup *s, const SearchOption *o, double v)
{
    size_t at[2] = {o->offset, o->also};
    for (int i = 0; i < 2 && (i == 0 || at[i]); i++) {
        void *f = field(s, at[i]);
        switch (o->kind) {
        case SEARCH_LONG: *(long *)f = (long)v; break;
        case SEARCH_INT: *(int *)f = (int)v; break;
        case SEARCH_SIZE: *(size_t *)f = (size_t)v; break;
        case SEARCH_BOOL: *(bool *)f = v != 0; break;
        default: *(double *)f = v; break;
        }
    }
}

void search_option_range_text(const SearchOption *o, char *buf, size_t len)
{
    if (o->kind == SEARCH_SEED)
        snprintf(buf, len, "an integer from 0 to %lld", (long long)INT64_MAX);
    else if (is_integer_kind(o->kind))
        snprintf(buf, len, "an integer from %.0f to %.0f", o->min, o->max);
    else if (o->kind == SEARCH_REAL)
        snprintf(buf, len, "a number from %g to %g", o->min, o->max);
    else if (o->kind == SEARCH_BOOL)
        snprintf(buf, len, "true or false (or 1 or 0)");
    else if (o->kind == SEARCH_CLOCK)
        snprintf(buf, len, "a time control such as 60+0.5 or 40/120");
    else
        snprintf(buf, len, "a path of at most %d bytes", SEARCH_MAX_PATH - 1);
}

static bool refuse(const SearchOption *o, const char *context, const char *text, Error *err)
{
    char range[96];
    search_option_range_text(o, range, sizeof range);
    return error_set(err, "%s%s must be %s, got '%.80s'", context, o->name, range, text);
}

/* The names of the options that syntax `where` reads, for a message about one it does not. */
static void names_for(unsigned where, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < NUM_OPTIONS && n + 1 < len; i++)
        if (options[i].where & where)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", options[i].name);
}

static const SearchOption *option_for(const char *name, unsigned where, const char *context, Error *err)
{
    const SearchOption *o = search_option_find(name);
    if (o && (o->where & where))
        return o;
    char names[256];
    names_for(where, names, sizeof names);
    error_set(err, "%sunknown option '%.40s' (options: %s)", context, name, names);
    return NULL;
}

static bool parse_bool(const char *text, double *out)
{
    bool yes = strcasecmp(text, "true") == 0 || strcmp(text, "1") == 0;
    bool no = strcasecmp(text, "false") == 0 || strcmp(text, "0") == 0;
    *out = yes;
    return yes || no;
}

/* Text as the option's number: the integer grammar for integers (so "1.5" visits is refused,
 * not cut to 1), the decimal one for reals. */
static bool parse_number(const SearchOption *o, const char *text, double *out)
{
    if (o->kind == SEARCH_BOOL)
        return parse_bool(text, out);
    if (is_integer_kind(o->kind)) {
        long long v, max = o->kind == SEARCH_SEED ? INT64_MAX : (long long)o->max;
        if (number_read_integer(text, (long long)o->min, max, &v) != NUMBER_OK)
            return false;
        *out = (double)v;
        return true;
    }
    return number_read_decimal(text, out) == NUMBER_OK && *out >= o->min && *out <= o->max;
}

static bool set_text_value(SearchSetup *s, const SearchOption *o, const char *text, const char *context,
                           Error *err)
{
    if (o->kind == SEARCH_PATH) {
        if (strlen(text) >= SEARCH_MAX_PATH)
            return refuse(o, context, text, err);
        snprintf(s->eval_path, sizeof s->eval_path, "%s", strcmp(text, "shipped") == 0 ? "" : text);
        return true;
    }
    Error why;
    if (!time_control_parse(text, &s->tc, &why))
        return error_set(err, "%s%s", context, why.msg);
    return true;
}

bool search_option_read_number(const char *name, const char *text, const char *context, double *out, Error *err)
{
    const SearchOption *o = search_option_find(name);
    if (!o || o->kind == SEARCH_PATH || o->kind == SEARCH_CLOCK)
        return error_set(err, "%s%.40s is not a number option", context, name);
    if (!parse_number(o, text, out))
        return refuse(o, context, text, err);
    return true;
}

bool search_setup_set(SearchSetup *s, const char *name, const char *text, unsigned where, const char *context,
                      Error *err)
{
    const SearchOption *o = option_for(name, where, context, err);
    if (!o)
        return false;
    if (o->kind == SEARCH_PATH || o->kind == SEARCH_CLOCK)
        return set_text_value(s, o, text, context, err);
    double v;
    if (!search_option_read_number(o->name, text, context, &v, err))
        return false;
    if (o->kind == SEARCH_SEED) {   /* past 2^53 a double cannot hold every seed */
        long long exact;
        number_read_integer(text, 0, INT64_MAX, &exact);
        s->mcts.seed = (uint64_t)exact;
        s->seed_given = true;
        return true;
    }
    store_number(s, o, v);
    return true;
}

bool search_setup_set_number(SearchSetup *s, const char *name, double value, unsigned where, const char *context,
                             Error *err)
{
    const SearchOption *o = option_for(name, where, context, err);
    if (!o)
        return false;
    char text[64];
    snprintf(text, sizeof text, "%.17g", value);
    double max = o->kind == SEARCH_SEED ? 0x1p63 : o->max;   /* a seed is below 2^63 */
    bool in_range = value >= o->min && (o->kind == SEARCH_SEED ? value < max : value <= max);
    bool whole = is_integer_kind(o->kind) || o->kind == SEARCH_BOOL;
    if (o->kind == SEARCH_PATH || o->kind == SEARCH_CLOCK || !in_range || (whole && value != (double)(long long)value))
        return refuse(o, context, text, err);
    if (o->kind == SEARCH_SEED) {
        s->mcts.seed = (uint64_t)value;
        s->seed_given = true;
    } else {
        store_number(s, o, value);
    }
    return true;
}

/* --- reading a value back ---------------------------------------------------------------------- */

void search_option_value_text(const SearchOption *o, const SearchSetup *s, char *buf, size_t len)
{
    const void *f = cfield(s, o->offset);
    switch (o->kind) {
    case SEARCH_LONG: snprintf(buf, len, "%ld", *(const long *)f); break;
    case SEARCH_INT: snprintf(buf, len, "%d", *(const int *)f); break;
    case SEARCH_SIZE: snprintf(buf, len, "%zu", *(const size_t *)f); break;
    case SEARCH_SEED: snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case SEARCH_BOOL: snprintf(buf, len, "%s", *(const bool *)f ? "true" : "false"); break;
    case SEARCH_REAL: snprintf(buf, len, "%.10g", *(const double *)f); break;
    case SEARCH_CLOCK: time_control_format(&s->tc, buf, len); break;
    default: snprintf(buf, len, "%s", s->eval_path[0] ? s->eval_path : "shipped"); break;
    }
}

/* --- the node budget and the evaluation -------------------------------------------------------- */

size_t search_node_budget(long visits)
{
    double wanted = 16.0 * (double)visits;
    if (wanted < 1024)
        return 1024;
    return wanted > (double)MAX_NODES ? (size_t)MAX_NODES : (size_t)wanted;
}

bool search_load_evaluation(const Game *g, const char *path, Weights *out, Error *err)
{
    if (path && *path && strcmp(path, "shipped") != 0)
        return weights_load(g, path, out, err);
    if (weights_default(g, out))
        return true;
    return error_set(err, "no shipped weights for %s: give a weights file", g->name);
}
