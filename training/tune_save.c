/*
 * tune_save.c - the weights file a tune run writes (tune_run.h: training_tune_save): the fitted
 * weights with their provenance comments and the date, written atomically by weights_save.  Its
 * own file because both kinds of run end with it (tune_run.c, tune_run_net.c).
 */
#include "tune_run.h"

#include "data/weights.h"

#include <stdlib.h>
#include <time.h>

bool training_tune_save(const TuneOptions *o, TuneSummary *s, Error *err)
{
    if (o->date)
        snprintf(s->date, sizeof s->date, "%s", o->date);
    else {
        time_t now = time(NULL);
        struct tm utc;
        gmtime_r(&now, &utc);
        strftime(s->date, sizeof s->date, "%Y-%m-%d %H:%M:%S UTC", &utc);
    }
    char *comments = training_tune_provenance(s);
    Error e;
    if (!comments)
        return error_failed(err, "out of memory");
    bool ok = weights_save(s->game, &s->fit.weights, comments, o->out, &e);
    free(comments);
    return ok || error_failed(err, "%s", e.msg);
}
