/*
 * solve.c - the game-independent face of the exact endgame solvers (solve.h): a Solver is the
 * game's own solver state behind the operations its module lists in GameOps.solver.
 */
#include "solve.h"

#include <stdlib.h>

struct Solver {
    const SolverOps *ops;
    void *impl;
};

bool solve_available(const Game *g)
{
    return g->ops->solver != NULL;
}

Solver *solver_new(const Game *g, size_t table_bytes)
{
    return solver_new_threads(g, table_bytes, 1);
}

Solver *solver_new_threads(const Game *g, size_t table_bytes, int threads)
{
    if (!solve_available(g))
        return NULL;
    Solver *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->ops = g->ops->solver;
    s->impl = s->ops->create(g, table_bytes, threads);
    if (!s->impl) {
        free(s);
        return NULL;
    }
    return s;
}

void solver_free(Solver *s)
{
    if (!s)
        return;
    s->ops->destroy(s->impl);
    free(s);
}

int solve_empties(const Game *g, const Position *p)
{
    return solve_available(g) ? g->ops->solver->empties(g, p) : -1;
}

void solver_clear(Solver *s)
{
    s->ops->clear(s->impl);
}

SolveResult solver_run(Solver *s, const Position *p, SolveMode mode, const SolveLimits *limits)
{
    return solver_run_selective(s, p, mode, SOLVE_EXACT_LEVEL, limits);
}

SolveResult solver_run_selective(Solver *s, const Position *p, SolveMode mode, int level,
                                 const SolveLimits *limits)
{
    static const SolveLimits none = {NULL, 0, 0};
    return s->ops->run(s->impl, p, mode, level, limits ? limits : &none);
}
