/*
 * match_cli.h - what the files of `leuctra match` share: cli/cmd_match.c reads the options and
 * runs the match through eval/match.h; cli/cmd_match_report.c prints what it came to.
 */
#ifndef LEUCTRA_MATCH_CLI_H
#define LEUCTRA_MATCH_CLI_H

#include "cli/cli.h"
#include "eval/match.h"

/* How the report is printed. */
typedef struct {
    bool json;                  /* one JSON object for two players */
} MatchReportOptions;

/* The report on stdout (a MatchReportFn; report_options is a MatchReportOptions): for two
 * players, the first player's wins, draws and losses, Elo from games and from pairs, and the
 * SPRT state (text or --json); for a tournament, one line per matchup and a ratings table of
 * all players.  `seconds`: the match's wall time. */
void cli_match_report(const MatchRun *run, double seconds, void *report_options);

/* The progress line on stderr (a MatchProgressFn; ctx is a MatchProgressLine): games done, rate,
 * ETA and the SPRT's LLR, rewritten in place; cli_match_progress_end ends it with a newline. */
typedef struct {
    bool shown;
} MatchProgressLine;
void cli_match_progress_line(const MatchProgress *progress, void *ctx);
void cli_match_progress_end(MatchProgressLine *line);

/* The key=value words after --sprt (elo0, elo1, alpha, beta, model) into *test; fails with one
 * line on a word it does not know.  cmd_match.c; `train` reads its gate's the same way. */
void cli_match_read_sprt(ArgReader *r, const char *command, SprtTest *test);

#endif
