/*
 * train_output.c - whole-file outputs with the command line's statuses (train_output.h).
 */
#include "train_output.h"

FILE *training_output_open(OutputFile *o, const char *path, Error *err)
{
    if (!output_file_open(o, path, err)) {
        err->failure = false;
        return NULL;
    }
    FILE *f = output_file_stream(o);
    if (!f) {
        output_file_discard(o);
        error_failed(err, "out of memory");
    }
    return f;
}

bool training_output_commit(OutputFile *o, Error *err)
{
    if (output_file_commit(o, err))
        return true;
    err->failure = true;
    return false;
}

bool training_output_text(const char *path, const char *text, Error *err)
{
    OutputFile out;
    FILE *f = training_output_open(&out, path, err);
    if (!f)
        return false;
    fputs(text, f);
    return training_output_commit(&out, err);
}
