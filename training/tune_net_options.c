/*
 * tune_net_options.c - `tune --model net`'s options (tune_run.h): their defaults, and the names
 * of the input sets and the value head's choices (and their parsers), which the command lines,
 * the run, its reports and the command line it records all use.
 */
#include "tune_run.h"

#include <string.h>

TuneNetOptions training_tune_net_defaults(void)
{
    return (TuneNetOptions){.fit = tune_network_fit_defaults()};
}

const char *training_tune_inputs_name(unsigned inputs)
{
    return inputs == NETWORK_PATTERNS ? "patterns" : inputs == NETWORK_SQUARES ? "squares" : "both";
}

const char *training_tune_value_head_name(TuneValueHead v)
{
    return v == TUNE_VALUE_HEAD_KEEP ? "keep" : v == TUNE_VALUE_HEAD_DROP ? "drop" : "auto";
}

unsigned training_tune_inputs_parse(const char *name)
{
    static const unsigned sets[] = {NETWORK_PATTERNS, NETWORK_SQUARES, NETWORK_PATTERNS | NETWORK_SQUARES};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (strcmp(name, training_tune_inputs_name(sets[i])) == 0)
            return sets[i];
    return 0;
}

bool training_tune_value_head_parse(const char *name, TuneValueHead *v)
{
    static const TuneValueHead choices[] = {TUNE_VALUE_HEAD_AUTO, TUNE_VALUE_HEAD_KEEP, TUNE_VALUE_HEAD_DROP};
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++)
        if (strcmp(name, training_tune_value_head_name(choices[i])) == 0) {
            *v = choices[i];
            return true;
        }
    return false;
}
