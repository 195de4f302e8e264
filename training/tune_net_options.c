/*
 * tune_net_options.c - `tune --model net`'s options (tune_run.h): their defaults and the input
 * sets' and value head choices' names, which the run, its reports and the command line it records all use.
 */
#include "tune_run.h"

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
