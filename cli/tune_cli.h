/*
 * tune_cli.h - what the files of `leuctra tune` share: cli/cmd_tune.c reads the options and runs
 * the fit (training/tune_run.h); cli/cmd_tune_report.c prints the report for people (the JSON
 * one is the library's, training_tune_json).
 */
#ifndef LEUCTRA_TUNE_CLI_H
#define LEUCTRA_TUNE_CLI_H

#include "cli/cli.h"
#include "training/tune_run.h"

#include <stdio.h>

/* The report as a table. */
void cli_tune_print_text(const TuneSummary *s, FILE *out);

#endif
