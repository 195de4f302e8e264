/*
 * search_cli.c - search options as command-line flags (search_cli.h).
 */
#include "search_cli.h"

#include <stdlib.h>
#include <string.h>

/* The argument at the reader when it is --NAME or --NAME=..., NAME an option that flags take. */
static const SearchOption *flag_option(const ArgReader *r)
{
    if (r->operands_only || r->index >= r->argc || strncmp(r->argv[r->index], "--", 2) != 0)
        return NULL;
    const char *arg = r->argv[r->index] + 2;
    char name[32];
    size_t n = strcspn(arg, "=");
    if (n == 0 || n >= sizeof name)
        return NULL;
    memcpy(name, arg, n);
    name[n] = '\0';
    const SearchOption *o = search_option_find(name);
    return o && (o->where & SEARCH_IN_FLAGS) && strcmp(o->name, name) == 0 ? o : NULL;
}

bool arg_search_option(ArgReader *r, SearchSetup *s)
{
    const SearchOption *o = flag_option(r);
    if (!o)
        return false;
    char flag[40];
    snprintf(flag, sizeof flag, "--%s", o->name);
    const char *text;
    if (o->kind == SEARCH_BOOL && strcmp(r->argv[r->index], flag) == 0) {
        r->index++;
        text = "true";
    } else if (!arg_value(r, flag, &text)) {
        return false;
    }
    Error err;
    if (!search_setup_set(s, o->name, text, SEARCH_IN_FLAGS, "--", &err))
        fail_with(r->command, &err);
    char note[200];
    if (o->offset == offsetof(SearchSetup, mcts.threads) && threads_too_many(s->mcts.threads, note, sizeof note))
        fprintf(stderr, "leuctra %s: warning: %s\n", r->command, note);
    return true;
}

void cli_search_set(const char *command, SearchSetup *s, const char *flag, const char *name, const char *text)
{
    char context[48];
    if (strncmp(flag, "--", 2) == 0 && strcmp(flag + 2, name) == 0)
        snprintf(context, sizeof context, "--");        /* "--visits must be ..." */
    else
        snprintf(context, sizeof context, "%s: ", flag); /* "--gate-visits: visits must be ..." */
    Error err;
    if (!search_setup_set(s, name, text, SEARCH_IN_ALL, context, &err))
        fail_with(command, &err);
}

long cli_search_visits(const char *command, const char *flag, const char *text)
{
    SearchSetup read;
    search_setup_default(&read);
    cli_search_set(command, &read, flag, "visits", text);
    return read.limits.visits;
}

void cli_print_search_options(FILE *out, const SearchSetup *defaults)
{
    int count;
    const SearchOption *table = search_options(&count);
    fputs("\nsearch options (the names, ranges and defaults of player specs and the engine's setoption):\n", out);
    for (int i = 0; i < count; i++) {
        const SearchOption *o = &table[i];
        if (!(o->where & SEARCH_IN_FLAGS))
            continue;
        char range[96], value[64];
        search_option_range_text(o, range, sizeof range);
        search_option_value_text(o, defaults, value, sizeof value);
        fprintf(out, "  --%-10s %s\n  %-12s %s; default %s\n", o->name, o->help, "", range, value);
    }
}

void arg_common_search(ArgReader *r, const Command *cmd, const SearchSetup *defaults)
{
    if (!r->operands_only && r->index < r->argc &&
        (strcmp(r->argv[r->index], "--help") == 0 || strcmp(r->argv[r->index], "-h") == 0)) {
        fputs(cmd->usage, stdout);
        cli_print_search_options(stdout, defaults);
        exit(0);
    }
    arg_common(r, cmd);
}

void cli_load_evaluation(const char *command, const Game *g, const SearchSetup *s, Weights *w)
{
    Error err;
    if (!search_load_evaluation(g, s->eval_path, w, &err))
        fail_with(command, &err);
}
