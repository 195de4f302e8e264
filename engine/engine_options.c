/*
 * engine_options.c - the options a protocol peer can set (`setoption name N value V`) and their
 * announcement in the handshake.  The numeric options are one table (name, type, range, where
 * the value lives), so the announced ranges are the ranges checked and the announced defaults
 * are the values a session starts with.
 */
#include "engine.h"
#include "core/threads.h"
#include "data/weights.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

typedef enum { FIELD_LONG_LONG, FIELD_INT, FIELD_SIZE, FIELD_U64, FIELD_DOUBLE, FIELD_BOOL } FieldKind;

typedef struct {
    const char *name;
    FieldKind kind;
    size_t offset;              /* of the value in EngineOptions */
    long long int_min, int_max; /* FIELD_LONG_LONG, FIELD_INT, FIELD_SIZE, FIELD_U64 */
    double real_min, real_max;  /* FIELD_DOUBLE */
    bool needs_new_tree;        /* the search tree was built with the old value */
} NumericOption;

/* Ranges: THREADS_MAX (core/threads.h) caps every thread count; the node budget stops at 2^30
 * nodes (32 GiB), past which the machine would swap rather than the search fail. */
static const NumericOption numeric_options[] = {
    {"visits", FIELD_LONG_LONG, offsetof(EngineOptions, visits), 1, ENGINE_MAX_VISITS, 0, 0, false},
    {"time", FIELD_DOUBLE, offsetof(EngineOptions, seconds), 0, 0, 0, ENGINE_MAX_SECONDS, false},
    {"overhead", FIELD_DOUBLE, offsetof(EngineOptions, overhead), 0, 0, 0, 60, false},
    {"threads", FIELD_INT, offsetof(EngineOptions, mcts.threads), 1, THREADS_MAX, 0, 0, true},
    {"nodes", FIELD_SIZE, offsetof(EngineOptions, mcts.max_nodes), 1024, 1LL << 30, 0, 0, true},
    {"cpuct", FIELD_DOUBLE, offsetof(EngineOptions, mcts.c_puct), 0, 0, 0, 100, true},
    {"fpu", FIELD_DOUBLE, offsetof(EngineOptions, mcts.fpu_reduction), 0, 0, 0, 1, true},
    {"playouts", FIELD_BOOL, offsetof(EngineOptions, mcts.playouts), 0, 1, 0, 0, true},
    {"seed", FIELD_U64, offsetof(EngineOptions, mcts.seed), 0, LLONG_MAX, 0, 0, true},
    {"solve", FIELD_INT, offsetof(EngineOptions, mcts.solve_empties), 0, 64, 0, 0, true},
    {"rootsolve", FIELD_INT, offsetof(EngineOptions, mcts.root_solve_empties), 0, 64, 0, 0, true},
    {"coarse", FIELD_DOUBLE, offsetof(EngineOptions, mcts.coarse_share), 0, 0, -1, 1, true},
};
enum { NUM_NUMERIC = sizeof numeric_options / sizeof numeric_options[0] };

#define OPTION_NAMES "visits, time, overhead, threads, nodes, cpuct, fpu, playouts, seed, solve, rootsolve, coarse, weights"

void engine_options_default(EngineOptions *o)
{
    memset(o, 0, sizeof *o);
    mcts_default_config(&o->mcts);
    o->visits = 800;
    o->overhead = TIME_DEFAULT_OVERHEAD;
}

bool engine_load_weights(const EngineOptions *o, const Game *g, Weights *out, Error *err)
{
    if (o->weights_path[0])
        return weights_load(g, o->weights_path, out, err);
    if (weights_default(g, out))
        return true;
    error_set(err, "no shipped weights for %s", g->name);
    return false;
}

/* --- reading and writing a table entry --------------------------------------------------------- */

static long long read_integer(const EngineOptions *o, const NumericOption *spec)
{
    const char *at = (const char *)o + spec->offset;
    switch (spec->kind) {
    case FIELD_INT: return *(const int *)(const void *)at;
    case FIELD_SIZE: return (long long)*(const size_t *)(const void *)at;
    case FIELD_U64: return (long long)*(const uint64_t *)(const void *)at;
    case FIELD_BOOL: return *(const bool *)(const void *)at;
    default: return *(const long long *)(const void *)at;
    }
}

static void write_integer(EngineOptions *o, const NumericOption *spec, long long v)
{
    void *at = (char *)o + spec->offset;
    switch (spec->kind) {
    case FIELD_INT: *(int *)at = (int)v; break;
    case FIELD_SIZE: *(size_t *)at = (size_t)v; break;
    case FIELD_U64: *(uint64_t *)at = (uint64_t)v; break;
    case FIELD_BOOL: *(bool *)at = v != 0; break;
    default: *(long long *)at = v; break;
    }
}

static double *real_field(EngineOptions *o, const NumericOption *spec)
{
    return (double *)(void *)((char *)o + spec->offset);
}

static bool parse_flag(const char *text, long long *out)
{
    bool yes = strcasecmp(text, "true") == 0 || strcmp(text, "1") == 0;
    bool no = strcasecmp(text, "false") == 0 || strcmp(text, "0") == 0;
    *out = yes;
    return yes || no;
}

/* Stores text as the option's value; false (and nothing changed) if it is out of range. */
static bool store_value(EngineOptions *o, const NumericOption *spec, const char *text)
{
    long long integer;
    double real;
    switch (spec->kind) {
    case FIELD_DOUBLE:
        if (!engine_parse_real(text, spec->real_min, spec->real_max, &real))
            return false;
        *real_field(o, spec) = real;
        return true;
    case FIELD_BOOL:
        if (!parse_flag(text, &integer))
            return false;
        break;
    default:
        if (!engine_parse_integer(text, spec->int_min, spec->int_max, &integer))
            return false;
        break;
    }
    write_integer(o, spec, integer);
    return true;
}

static void report_bad_value(Engine *e, const NumericOption *spec, const char *text)
{
    if (spec->kind == FIELD_BOOL)
        engine_error(e, "setoption: %s must be true or false, got '%.80s'", spec->name, text);
    else if (spec->kind == FIELD_DOUBLE)
        engine_error(e, "setoption: %s must be a number from %.10g to %.10g, got '%.80s'", spec->name, spec->real_min,
                     spec->real_max, text);
    else
        engine_error(e, "setoption: %s must be an integer from %lld to %lld, got '%.80s'", spec->name,
                     spec->int_min, spec->int_max, text);
}

/* --- the handshake and setoption --------------------------------------------------------------- */

void engine_options_announce(Engine *e)
{
    EngineOptions d;
    engine_options_default(&d);
    for (int i = 0; i < NUM_NUMERIC; i++) {
        const NumericOption *spec = &numeric_options[i];
        if (spec->kind == FIELD_DOUBLE)
            engine_reply(e, "option name %s type float default %.10g min %.10g max %.10g", spec->name,
                         *real_field(&d, spec), spec->real_min, spec->real_max);
        else if (spec->kind == FIELD_BOOL)
            engine_reply(e, "option name %s type bool default %s", spec->name,
                         read_integer(&d, spec) ? "true" : "false");
        else
            engine_reply(e, "option name %s type int default %lld min %lld max %lld", spec->name,
                         read_integer(&d, spec), spec->int_min, spec->int_max);
    }
    engine_reply(e, "option name weights type string default shipped");
}

/* `weights` takes a path (the rest of the line, spaces allowed) or `shipped`; the file is read
 * now, so a bad one is reported by this command and the old weights stay. */
static void set_weights(Engine *e, const char *value)
{
    bool shipped = strcmp(value, "shipped") == 0;
    if (strlen(value) >= ENGINE_MAX_PATH) {
        engine_error(e, "setoption: weights path longer than %d bytes", ENGINE_MAX_PATH - 1);
        return;
    }
    EngineOptions next = e->options;
    strcpy(next.weights_path, shipped ? "" : value);
    Weights w;
    Error err;
    if (!engine_load_weights(&next, e->game, &w, &err)) {
        engine_error(e, "setoption: weights: %s", err.msg);
        return;
    }
    strcpy(e->options.weights_path, next.weights_path);
    engine_drop_tree(e);    /* the search points at the old weights */
    weights_dispose(&e->weights);
    e->weights = w;
}

void engine_cmd_setoption(Engine *e, Tokens *args)
{
    const char *name_word = engine_tokens_next(args), *name = engine_tokens_next(args), *value_word = engine_tokens_next(args);
    if (!name_word || strcmp(name_word, "name") != 0 || !name || !value_word || strcmp(value_word, "value") != 0) {
        engine_error(e, "setoption: expected 'setoption name NAME value VALUE'");
        return;
    }
    const char *value = engine_tokens_rest(args);
    if (*value == '\0') {
        engine_error(e, "setoption: %.40s needs a value", name);
        return;
    }
    if (strcasecmp(name, "weights") == 0) {
        set_weights(e, value);
        return;
    }
    for (int i = 0; i < NUM_NUMERIC; i++) {
        const NumericOption *spec = &numeric_options[i];
        if (strcasecmp(name, spec->name) != 0)
            continue;
        if (!store_value(&e->options, spec, value)) {
            report_bad_value(e, spec, value);
            return;
        }
        if (spec->offset == offsetof(EngineOptions, mcts.c_puct))  /* a value set serves learned priors too */
            e->options.mcts.c_puct_learned = e->options.mcts.c_puct;
        if (spec->needs_new_tree)
            engine_drop_tree(e);
        return;
    }
    engine_error(e, "setoption: unknown option '%.40s' (options: " OPTION_NAMES ")", name);
}
