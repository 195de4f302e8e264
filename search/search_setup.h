/*
 * search_setup.h - one set-up for every search a program makes: the search's configuration
 * (mcts.h's MctsConfig), its limits (visits, time, a game clock and the time kept back on each
 * clocked move) and the evaluation it searches with; and ONE table of the options that set them
 * (name, kind, range, default, help, whether a change needs a new tree), which every syntax
 * reads through: player specs (`mcts:visits=400,cpuct=1.2`), the engine's `setoption`, the
 * flags of `analyze`, `selfplay` and `train`, and the C API.  So a range is written once, and
 * the handshake's announcement, the --help text and every refusal say the same.  (KataGo keeps
 * one SearchParams and one Setup::loadParams that every program uses; this is that.)
 *
 * Also here, the one place each is decided: the node budget of a search of N visits, and the
 * loading of an evaluation file ("this path, else the shipped weights"), with one set of
 * messages.
 */
#ifndef LEUCTRA_SEARCH_SETUP_H
#define LEUCTRA_SEARCH_SETUP_H

#include "core/game.h"
#include "core/value.h"
#include "search/mcts.h"
#include "search/time_control.h"

#include <stdbool.h>
#include <stddef.h>

/* The longest evaluation path accepted. */
enum { SEARCH_MAX_PATH = 4096 };

typedef struct {
    MctsConfig mcts;            /* threads, nodes, cpuct, fpu, playouts, seed, contempt, ... */
    MctsLimits limits;          /* visits and seconds per search (0: no such limit) */
    TimeControl tc;             /* a game clock the search plays on (players' tc=); 0 s: none */
    double overhead;            /* seconds kept back on every clocked move */
    bool seed_given;            /* seed= was set (a player mixes it into each game's seed) */
    char eval_path[SEARCH_MAX_PATH];    /* the weights file; "" for the shipped ones */
} SearchSetup;

/* The defaults: mcts_default_config, 800 visits, no time limit, no clock, the default overhead,
 * the shipped weights. */
void search_setup_default(SearchSetup *s);

/* The syntaxes an option is read in (SearchOption.where). */
enum {
    SEARCH_IN_PLAYER = 1,       /* mcts:key=value player specs */
    SEARCH_IN_ENGINE = 2,       /* the engine protocol's setoption */
    SEARCH_IN_FLAGS = 4,        /* --name flags of analyze (and the commands that search like it) */
    SEARCH_IN_API = 8,          /* the C API's search options */
    SEARCH_IN_ALL = 15
};

typedef enum {
    SEARCH_LONG, SEARCH_INT, SEARCH_SIZE, SEARCH_SEED, SEARCH_REAL, SEARCH_BOOL, SEARCH_PATH, SEARCH_CLOCK
} SearchOptionKind;

typedef struct {
    const char *name;
    SearchOptionKind kind;
    size_t offset;              /* of the value in SearchSetup */
    size_t also;                /* a second field that takes the same value (0: none) */
    double min, max;            /* the range of a number (inclusive) */
    unsigned where;             /* SEARCH_IN_* */
    bool needs_new_tree;        /* a tree built with the old value cannot go on */
    const char *help;           /* one line, no trailing period */
} SearchOption;

/* The table, in the order the handshake and the help list it. */
const SearchOption *search_options(int *count);
/* The option called `name` (case-insensitive), or NULL. */
const SearchOption *search_option_find(const char *name);

/* Sets option `name` from text read in syntax `where`: false with *err (input) naming the option
 * and its range, or saying that this syntax has no such option (the syntaxes' names:
 * "mcts:" in player specs, "setoption" ...; `context` prefixes the message). */
bool search_setup_set(SearchSetup *s, const char *name, const char *text, unsigned where, const char *context,
                      Error *err);
/* Text read as option `name`'s number (its grammar: integers for the integer options; its
 * range), for a syntax whose own name differs (selfplay's --visits, train's --gate-visits);
 * false with *err (input) as search_setup_set words it.  A seed past 2^53 loses digits here. */
bool search_option_read_number(const char *name, const char *text, const char *context, double *out, Error *err);
/* The same with a number (the C API): range-checked as text would be. */
bool search_setup_set_number(SearchSetup *s, const char *name, double value, unsigned where, const char *context,
                             Error *err);

/* The option's value in s as text (its default when s comes from search_setup_default). */
void search_option_value_text(const SearchOption *o, const SearchSetup *s, char *buf, size_t len);
/* "an integer from 1 to 1024", "a number from 0 to 100", "true or false", "a path", ... */
void search_option_range_text(const SearchOption *o, char *buf, size_t len);

/* The tree's node budget for a search of `visits` visits per move where the program does not
 * set one: 16 nodes a visit (a visit adds at most one node, and the subtree kept from the move
 * before is usually smaller than one search), at least 1024, at most the nodes option's
 * maximum.  Self-play records its budget in every file's settings. */
size_t search_node_budget(long visits);

/* The evaluation of a search: the weights file at `path`, or the shipped weights for g where
 * path is NULL or "" (or "shipped").  False with *err (input) naming the file and what is wrong,
 * or that g has no shipped weights. */
bool search_load_evaluation(const Game *g, const char *path, Weights *out, Error *err);

#endif
