/*
 * tune_games.c - the tuner's compact copy of recorded games: per game its start position, result
 * and the range of its moves; per ply the stored move and the search's value.  Visit
 * distributions are kept only for fitting move priors (keep_visits): without them a ply is 6
 * bytes instead of hundreds, so millions of positions fit in memory before replaying them.
 */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tune_games_init(TuneGames *games) { memset(games, 0, sizeof *games); }

void tune_games_free(TuneGames *games)
{
    for (int i = 0; i < games->num_sources; i++)
        free(games->source[i].name);
    free(games->source);
    free(games->game);
    free(games->move);
    free(games->value);
    free(games->visit);
    free(games->visit_at);
    free(games->visit_count);
    free(games->start);
    tune_games_init(games);
}

static bool out_of_memory(Error *err) { return error_failed(err, "out of memory reading the games"); }

/* Makes room for `need` items of `size` bytes in *array (capacity doubling). */
static bool reserve(void **array, size_t *capacity, size_t need, size_t size)
{
    if (need <= *capacity)
        return true;
    size_t grown = *capacity ? *capacity : 64;
    while (grown < need)
        grown *= 2;
    void *p = realloc(*array, grown * size);
    if (!p)
        return false;
    *array = p;
    *capacity = grown;
    return true;
}

int tune_games_add_source(TuneGames *games, const char *name, Error *err)
{
    char *copy = strdup(name);
    size_t need = (size_t)games->num_sources + 1;
    if (!copy || !reserve((void **)&games->source, &games->source_capacity, need, sizeof *games->source)) {
        free(copy);
        out_of_memory(err);
        return -1;
    }
    games->source[games->num_sources] = (TuneSource){copy, 0};
    return games->num_sources++;
}

/* The index of the record's start position, parsing it only when it differs from the last. */
static bool start_index(TuneGames *games, const Game *g, const GameRecord *r, const char *source, uint32_t *out,
                        Error *err)
{
    if (games->num_starts > 0 && strcmp(r->start, games->last_start) == 0) {
        *out = (uint32_t)(games->num_starts - 1);
        return true;
    }
    if (!reserve((void **)&games->start, &games->start_capacity, games->num_starts + 1, sizeof *games->start))
        return out_of_memory(err);
    Error e;
    if (!game_parse_position(g, r->start, &games->start[games->num_starts], &e)) {
        return error_set(err, "%s: game %llu: bad start position: %s", source,
                              (unsigned long long)r->index, e.msg);
    }
    snprintf(games->last_start, sizeof games->last_start, "%s", r->start);
    *out = (uint32_t)games->num_starts++;
    return true;
}

/* The record's visit lists after those already kept. */
static bool add_visits(TuneGames *games, const GameRecord *record)
{
    const size_t need = games->plies + (size_t)record->plies;
    if (!reserve((void **)&games->visit_at, &games->visit_at_capacity, need, sizeof *games->visit_at) ||
        !reserve((void **)&games->visit_count, &games->visit_count_capacity, need, sizeof *games->visit_count) ||
        !reserve((void **)&games->visit, &games->visit_capacity, games->num_visits + record->num_visits,
                 sizeof *games->visit))
        return false;
    for (int i = 0; i < record->plies; i++) {
        const RecordPly *ply = &record->ply[i];
        const uint32_t n = ply->num_visits > UINT16_MAX ? UINT16_MAX : ply->num_visits;
        games->visit_at[games->plies + (size_t)i] = games->num_visits;
        games->visit_count[games->plies + (size_t)i] = (uint16_t)n;
        memcpy(games->visit + games->num_visits, record->visit + ply->first_visit, n * sizeof *games->visit);
        games->num_visits += n;
    }
    return true;
}

bool tune_games_add(TuneGames *games, const Game *g, const GameRecord *record, int source, Error *err)
{
    const char *name = games->source[source].name;
    if (record->result != STATUS_WHITE_WINS && record->result != STATUS_BLACK_WINS && record->result != STATUS_DRAW) {
        return error_set(err, "%s: game %llu has no result", name, (unsigned long long)record->index);
    }
    uint32_t start = 0;
    if (!start_index(games, g, record, name, &start, err))
        return false;
    size_t need = games->plies + (size_t)record->plies;
    if (!reserve((void **)&games->game, &games->game_capacity, games->count + 1, sizeof *games->game) ||
        !reserve((void **)&games->move, &games->move_capacity, need, sizeof *games->move) ||
        !reserve((void **)&games->value, &games->value_capacity, need, sizeof *games->value))
        return out_of_memory(err);
    for (int i = 0; i < record->plies; i++) {
        games->move[games->plies + (size_t)i] = record->ply[i].move;
        games->value[games->plies + (size_t)i] = record->ply[i].value;
    }
    if (games->keep_visits && !add_visits(games, record))
        return out_of_memory(err);
    games->game[games->count++] = (TuneGame){record->index, record->seed, games->plies, record->plies, start, source,
                                             record->result};
    games->plies = need;
    games->source[source].games++;
    return true;
}

/* Copies n items of `size` bytes to the end of *array (count items there, capacity doubling). */
static bool append_items(void **array, size_t *capacity, size_t count, const void *items, size_t n, size_t size)
{
    if (!reserve(array, capacity, count + n, size))
        return false;
    if (n > 0)
        memcpy((char *)*array + count * size, items, n * size);
    return true;
}

bool tune_games_append(TuneGames *dst, const TuneGames *src, bool continues_last, Error *err)
{
    size_t game_base = dst->count, ply_base = dst->plies, start_base = dst->num_starts;
    int merged = continues_last && dst->num_sources > 0 && src->num_sources > 0;
    int source_base = dst->num_sources - merged;
    for (int i = merged; i < src->num_sources; i++) {
        if (tune_games_add_source(dst, src->source[i].name, err) < 0)
            return false;
        dst->source[source_base + i].games = src->source[i].games;
    }
    if (!append_items((void **)&dst->game, &dst->game_capacity, game_base, src->game, src->count, sizeof *src->game) ||
        !append_items((void **)&dst->move, &dst->move_capacity, ply_base, src->move, src->plies, sizeof *src->move) ||
        !append_items((void **)&dst->value, &dst->value_capacity, ply_base, src->value, src->plies,
                      sizeof *src->value) ||
        !append_items((void **)&dst->start, &dst->start_capacity, start_base, src->start, src->num_starts,
                      sizeof *src->start))
        return out_of_memory(err);
    if (dst->keep_visits) {
        const size_t visit_base = dst->num_visits;
        if (!append_items((void **)&dst->visit, &dst->visit_capacity, visit_base, src->visit, src->num_visits,
                          sizeof *src->visit) ||
            !append_items((void **)&dst->visit_at, &dst->visit_at_capacity, ply_base, src->visit_at, src->plies,
                          sizeof *src->visit_at) ||
            !append_items((void **)&dst->visit_count, &dst->visit_count_capacity, ply_base, src->visit_count,
                          src->plies, sizeof *src->visit_count))
            return out_of_memory(err);
        for (size_t i = 0; i < src->plies; i++)
            dst->visit_at[ply_base + i] += visit_base;
        dst->num_visits += src->num_visits;
    }
    for (size_t i = 0; i < src->count; i++) {
        TuneGame *g = &dst->game[game_base + i];
        g->first_ply += ply_base;
        g->start += (uint32_t)start_base;
        g->source += source_base;
    }
    dst->count += src->count;
    dst->plies += src->plies;
    dst->num_starts += src->num_starts;
    if (src->num_starts > 0)
        memcpy(dst->last_start, src->last_start, sizeof dst->last_start);
    return true;
}
