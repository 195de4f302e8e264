/*
 * search_cli.h - the command line's side of search/search_setup.h: a search option as a flag
 * (--visits 400, --cpuct=1.2, --playouts), the options' list in --help, and the evaluation
 * loaded or the command failed with the loader's one line.  analyze, render and bench read their
 * search through it; selfplay and train check their search numbers against the same table.
 */
#ifndef LEUCTRA_SEARCH_CLI_H
#define LEUCTRA_SEARCH_CLI_H

#include "cli/cli.h"
#include "search/search_setup.h"

/* --NAME VALUE or --NAME=VALUE for any option of the table that flags take, and --NAME alone
 * for a true-or-false one; true if it consumed an argument.  A bad value fails (exit 2) with the
 * table's message. */
bool arg_search_option(ArgReader *r, SearchSetup *s);
/* Text for option `name` into *s as the table reads it (its grammar, range and message), for a
 * command whose flag may have another name (selfplay's --visits, train's --gate-visits); fails
 * with exit 2 naming the flag. */
void cli_search_set(const char *command, SearchSetup *s, const char *flag, const char *name, const char *text);
/* A visit count read as the table's `visits` (the commonest case of cli_search_set). */
long cli_search_visits(const char *command, const char *flag, const char *text);
/* arg_common, whose --help also lists the search options after the command's usage, with the
 * command's own defaults (`defaults`). */
void arg_common_search(ArgReader *r, const Command *cmd, const SearchSetup *defaults);
/* The search options that flags take, each with its help, range and default, for --help. */
void cli_print_search_options(FILE *out, const SearchSetup *defaults);
/* The set-up's evaluation into *w, or fail (exit 2) with the loader's line. */
void cli_load_evaluation(const char *command, const Game *g, const SearchSetup *s, Weights *w);

#endif
