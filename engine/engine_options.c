/*
 * engine_options.c - the options a protocol peer can set (`setoption name N value V`) and their
 * announcement in the handshake.  The search's options are search/search_setup.h's one table,
 * read and announced through it, so the announced ranges are the ranges checked, the same as a
 * player spec's and analyze's flags; the protocol adds one of its own, `json` (docs/PROTOCOL.md).
 */
#include "engine.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

void engine_options_default(EngineOptions *o)
{
    memset(o, 0, sizeof *o);
    search_setup_default(&o->search);
}

bool engine_load_weights(const EngineOptions *o, const Game *g, Weights *out, Error *err)
{
    return search_load_evaluation(g, o->search.eval_path, out, err);
}

/* --- the handshake ----------------------------------------------------------------------------- */

static void announce(Engine *e, const SearchOption *o, const SearchSetup *defaults)
{
    char value[64];
    search_option_value_text(o, defaults, value, sizeof value);
    switch (o->kind) {
    case SEARCH_REAL:
        engine_reply(e, "option name %s type float default %s min %.10g max %.10g", o->name, value, o->min, o->max);
        break;
    case SEARCH_BOOL:
        engine_reply(e, "option name %s type bool default %s", o->name, value);
        break;
    case SEARCH_PATH:
    case SEARCH_CLOCK:
        engine_reply(e, "option name %s type string default %s", o->name, value);
        break;
    case SEARCH_SEED:
        engine_reply(e, "option name %s type int default %s min 0 max %lld", o->name, value, (long long)INT64_MAX);
        break;
    default:
        engine_reply(e, "option name %s type int default %s min %.0f max %.0f", o->name, value, o->min, o->max);
        break;
    }
}

void engine_options_announce(Engine *e)
{
    EngineOptions d;
    engine_options_default(&d);
    int count;
    const SearchOption *table = search_options(&count);
    for (int i = 0; i < count; i++)
        if (table[i].where & SEARCH_IN_ENGINE)
            announce(e, &table[i], &d.search);
    engine_reply(e, "option name json type bool default false");
}

/* --- setoption --------------------------------------------------------------------------------- */

/* `weights` takes a path (the rest of the line, spaces allowed) or `shipped`; the file is read
 * now, so a bad one is reported by this command and the old weights stay. */
static void set_weights(Engine *e, const char *value)
{
    EngineOptions next = e->options;
    Error err;
    if (!search_setup_set(&next.search, "weights", value, SEARCH_IN_ENGINE, "setoption: ", &err)) {
        engine_error(e, "%s", err.msg);
        return;
    }
    Weights w;
    if (!engine_load_weights(&next, e->game, &w, &err)) {
        engine_error(e, "setoption: weights: %s", err.msg);
        return;
    }
    strcpy(e->options.search.eval_path, next.search.eval_path);
    engine_drop_tree(e);    /* the search points at the old weights */
    weights_dispose(&e->weights);
    e->weights = w;
}

static void set_json(Engine *e, const char *value)
{
    bool yes = strcasecmp(value, "true") == 0 || strcmp(value, "1") == 0;
    if (!yes && strcasecmp(value, "false") != 0 && strcmp(value, "0") != 0) {
        engine_error(e, "setoption: json must be true or false (or 1 or 0), got '%.80s'", value);
        return;
    }
    e->options.json = yes;
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
    if (strcasecmp(name, "json") == 0) {
        set_json(e, value);
        return;
    }
    const SearchOption *o = search_option_find(name);
    if (o && o->kind == SEARCH_PATH) {
        set_weights(e, value);
        return;
    }
    Error err;
    if (!search_setup_set(&e->options.search, name, value, SEARCH_IN_ENGINE, "setoption: ", &err)) {
        engine_error(e, "%s", err.msg);
        return;
    }
    if (o->needs_new_tree)
        engine_drop_tree(e);
}
