/*
 * perft.c - perft over threads.  The tree is cut two plies below the root into independent
 * tasks (enough of them to balance two or sixteen threads); each task is counted by the game's
 * own single-thread perft, and the results are summed per root move, so the totals are exact
 * and the same for every thread count.
 */
#include "perft.h"
#include "threads.h"

#include <stdlib.h>

typedef struct {
    Position pos;
    int root;           /* index of the root move this task lies under */
} PerftTask;

typedef struct {
    PerftTask *items;
    int count, capacity;
} TaskList;

static bool push_task(TaskList *list, const Position *pos, int root)
{
    if (list->count == list->capacity) {
        int cap = list->capacity ? list->capacity * 2 : 256;
        PerftTask *grown = realloc(list->items, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        list->items = grown;
        list->capacity = cap;
    }
    list->items[list->count].pos = *pos;
    list->items[list->count].root = root;
    list->count++;
    return true;
}

/* Positions `plies` below pos, each tagged with its root move. */
static bool collect_tasks(const Game *g, const Position *pos, int plies, int root, TaskList *list)
{
    if (plies == 0)
        return push_task(list, pos, root);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        return false;
    int n = game_gen_moves(g, pos, moves);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        Position child = *pos;
        Undo undo;
        game_make(g, &child, moves[i], &undo);
        ok = collect_tasks(g, &child, plies - 1, root < 0 ? i : root, list);
    }
    free(moves);
    return ok;
}

bool perft_parallel(const Game *g, const Position *pos, int depth, int threads, uint64_t *count, uint64_t *per_move,
                    int *num_moves, Error *err)
{
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves) {
        error_failed(err, "perft: out of memory");
        return false;
    }
    int n = game_gen_moves(g, pos, moves);
    free(moves);
    if (num_moves)
        *num_moves = n;
    if (per_move)
        for (int i = 0; i < n; i++)
            per_move[i] = 0;
    if (depth == 0) {
        *count = 1;
        return true;
    }

    int split = depth >= 4 ? 2 : 1;
    TaskList tasks = {0};
    uint64_t *counts = NULL;
    if (!collect_tasks(g, pos, split, -1, &tasks) || !(counts = calloc((size_t)tasks.count + 1, sizeof *counts))) {
        free(tasks.items);
        error_failed(err, "perft: out of memory while listing the positions %d plies down", split);
        return false;
    }
    threads = threads_or_default(threads);      /* never past THREADS_MAX, whoever calls */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int i = 0; i < tasks.count; i++)
        counts[i] = game_perft(g, &tasks.items[i].pos, depth - split);

    uint64_t total = 0;
    for (int i = 0; i < tasks.count; i++) {
        total += counts[i];
        if (per_move)
            per_move[tasks.items[i].root] += counts[i];
    }
    free(counts);
    free(tasks.items);
    *count = total;
    return true;
}
