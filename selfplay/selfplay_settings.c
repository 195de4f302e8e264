/*
 * selfplay_settings.c - a self-play run's settings: the defaults, the per-game seed, the settings
 * text that heads its records file, and the comparison that lets a resumed run add games to a
 * file only when it would play them exactly as the first run did.
 *
 * The text is written in one fixed order with numbers in their shortest exact form, so equal
 * settings give equal bytes: the canonical file of a run must not depend on how it was made.
 */
#include "selfplay.h"

#include "core/rng.h"
#include "core/solve.h"
#include "data/weights.h"
#include "search/mcts.h"
#include "search/search_setup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LEUCTRA_VERSION
#define LEUCTRA_VERSION "unknown"
#endif

enum { DEFAULT_BOARD_AREA = 14 * 12, DEFAULT_TEMPERATURE_PLIES = 20 };

int selfplay_default_temperature_plies(const Game *g)
{
    int area = g->width * g->height;
    int plies = (DEFAULT_TEMPERATURE_PLIES * area + DEFAULT_BOARD_AREA / 2) / DEFAULT_BOARD_AREA;
    return plies > 1 ? plies : 1;
}

void selfplay_default_config(const Game *g, SelfplayConfig *cfg)
{
    MctsConfig search;
    mcts_default_config(&search);
    *cfg = (SelfplayConfig){
        .visits = 800,
        .c_puct = search.c_puct,
        .temperature = 1.0,
        .temperature_plies = selfplay_default_temperature_plies(g),
        .noise = 0.25,          /* AlphaZero's fraction */
        .noise_alpha = 0.3,     /* about 10 / (legal moves): ~30 moves is typical mid-game */
        .random_opening = 0,
        .draw = driver_draw_policy_default(),
        .seed = 1,
    };
}

MctsConfig selfplay_search_config(const SelfplayConfig *cfg)
{
    MctsConfig search;
    mcts_default_config(&search);
    search.c_puct = cfg->c_puct;
    search.c_puct_learned = cfg->c_puct;    /* self-play explores: selfplay.h */
    search.threads = 1;
    search.max_nodes = search_node_budget(cfg->visits);
    search.root_noise = cfg->noise;
    search.noise_alpha = cfg->noise_alpha;
    return search;
}

/* The same derivation as `leuctra match`: independent streams per (seed, index). */
uint64_t selfplay_game_seed(uint64_t run_seed, uint64_t index)
{
    return rng_seed(run_seed, index).s[0];
}

/* --- writing the text -------------------------------------------------------------------------- */

typedef struct {
    char *text;
    size_t len, cap;
    bool failed;
} Text;

static bool text_grow(Text *t, size_t need)
{
    size_t cap = t->cap ? t->cap : 512;
    while (cap < need)
        cap *= 2;
    char *grown = realloc(t->text, cap);
    if (!grown)
        return false;
    t->text = grown;
    t->cap = cap;
    return true;
}

static void text_add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void text_add(Text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (t->len + (size_t)n + 1 > t->cap && !text_grow(t, t->len + (size_t)n + 1))) {
        t->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(t->text + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* A double in the shortest of %.15g / %.17g that reads back exactly: 0.25, not 0.25000000000000000. */
static void format_number(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, len, "%.17g", v);
}

static void add_number(Text *t, const char *key, double v)
{
    char num[40];
    format_number(v, num, sizeof num);
    text_add(t, "%s=%s\n", key, num);
}

/* The text, with the evaluator lines of a run whose leaves an outside evaluator judges where
 * `evaluator` is not NULL. */
static char *settings_text(const Game *g, const Position *start, const Weights *w, const SelfplayConfig *cfg,
                           const char *evaluator, int in_flight, const char *command_line)
{
    Text t = {0};
    char position[RECORD_MAX_POSITION], weights[17];
    game_format_position(g, start, position, sizeof position);
    weights_id_text(w, weights);
    const MctsConfig search = selfplay_search_config(cfg);
    text_add(&t, "generator=leuctra selfplay %s\n", LEUCTRA_VERSION);
    text_add(&t, "variant=%s\nsize=%dx%d\nstart=%s\n", g->name, g->width, g->height, position);
    text_add(&t, "visits=%ld\n", cfg->visits);
    add_number(&t, "cpuct", search.c_puct);
    /* Only where they apply, so that the settings of other runs stay as they were. */
    if (w->policy)
        add_number(&t, "cpuct_learned", search.c_puct_learned);
    add_number(&t, "contempt", search.contempt);
    if (solve_available(g))
        text_add(&t, "solve=%d\nrootsolve=%d\n", search.solve_empties, search.root_solve_empties);
    const double coarse = mcts_coarse_share(&search, g, w);
    if (coarse > 0)
        add_number(&t, "coarse", coarse);
    text_add(&t, "search_threads=%d\nnodes=%zu\n", search.threads, search.max_nodes);
    add_number(&t, "temperature", cfg->temperature);
    text_add(&t, "temperature_plies=%d\n", cfg->temperature_plies);
    add_number(&t, "noise", cfg->noise);
    add_number(&t, "noise_alpha", cfg->noise_alpha);
    text_add(&t, "random_opening=%d\n", cfg->random_opening);
    text_add(&t, "max_plies=%d\nrepetition=%s\n", cfg->draw.max_plies, cfg->draw.repetition ? "on" : "off");
    text_add(&t, "seed=%llu\ngame_seed=rng_seed(seed, index).s[0]\n", (unsigned long long)cfg->seed);
    text_add(&t, "weights=%s\n", weights);
    if (evaluator)
        text_add(&t, "evaluator=external %s\nevaluator_in_flight=%d\n", evaluator, in_flight);
    if (command_line)
        text_add(&t, "command=%s\n", command_line);
    if (t.failed) {
        free(t.text);
        return NULL;
    }
    return t.text;
}

char *selfplay_settings_text(const Game *g, const Position *start, const Weights *w, const SelfplayConfig *cfg,
                             const char *command_line)
{
    return settings_text(g, start, w, cfg, NULL, 0, command_line);
}

char *selfplay_settings_text_external(const Game *g, const Position *start, const Weights *w,
                                      const SelfplayConfig *cfg, const char *evaluator, int in_flight,
                                      const char *command_line)
{
    return settings_text(g, start, w, cfg, evaluator ? evaluator : "", in_flight, command_line);
}

/* --- comparing --------------------------------------------------------------------------------- */

/* The next line of *text (without its newline) into line/len; false at the end. */
static bool next_line(const char **text, const char **line, size_t *len)
{
    if (!**text)
        return false;
    const char *end = strchr(*text, '\n');
    *line = *text;
    *len = end ? (size_t)(end - *text) : strlen(*text);
    *text = end ? end + 1 : *text + *len;
    return true;
}

/* The next line that decides games (any line but command=). */
static bool next_setting(const char **text, const char **line, size_t *len)
{
    while (next_line(text, line, len))
        if (!(*len >= 8 && strncmp(*line, "command=", 8) == 0))
            return true;
    return false;
}

/* A settings line split at its '='. */
typedef struct {
    const char *key, *value;
    int key_len, value_len;
} Setting;

static Setting split_setting(const char *line, size_t len)
{
    const char *eq = memchr(line, '=', len);
    Setting s = {line, eq ? eq + 1 : "", eq ? (int)(eq - line) : (int)len, 0};
    s.value_len = eq ? (int)(len - (size_t)s.key_len - 1) : 0;
    return s;
}

/* The setting of `text` with the key of `want` (compared by key, not by place, so that a line
 * one file lacks is named as missing instead of shifting every line after it); false if none. */
static bool find_setting(const char *text, const Setting *want, Setting *out)
{
    const char *line;
    size_t len;
    while (next_setting(&text, &line, &len)) {
        Setting s = split_setting(line, len);
        if (s.key_len == want->key_len && memcmp(s.key, want->key, (size_t)s.key_len) == 0) {
            *out = s;
            return true;
        }
    }
    return false;
}

static int clip(int n) { return n > 80 ? 80 : n; }

/* The first setting of `a` that `b` has with another value or not at all, into why (with `a` as
 * the file when a_is_file); true if there is one. */
static bool first_difference(const char *a, const char *b, bool a_is_file, char *why, size_t why_len)
{
    const char *line;
    size_t len;
    while (next_setting(&a, &line, &len)) {
        Setting mine = split_setting(line, len), theirs;
        const bool found = find_setting(b, &mine, &theirs);
        if (found && theirs.value_len == mine.value_len && memcmp(theirs.value, mine.value, (size_t)mine.value_len) == 0)
            continue;
        const Setting *file = a_is_file ? &mine : found ? &theirs : NULL, *run = a_is_file ? (found ? &theirs : NULL) : &mine;
        snprintf(why, why_len, "%.*s: the file has %.*s%s, this run %.*s%s", clip(mine.key_len), mine.key,
                 file ? clip(file->value_len) : 0, file ? file->value : "", file ? "" : "no such line",
                 run ? clip(run->value_len) : 0, run ? run->value : "", run ? "" : "no such line");
        return true;
    }
    return false;
}

bool selfplay_settings_agree(const char *file_settings, const char *run_settings, char *why, size_t why_len)
{
    return !first_difference(run_settings, file_settings, false, why, why_len) &&
           !first_difference(file_settings, run_settings, true, why, why_len);
}
