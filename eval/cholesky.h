/*
 * cholesky.h - Cholesky factorization, solve and inverse of a dense symmetric positive-definite
 * matrix (row-major, n x n), for the Newton steps and error bars of the ratings fit.
 *
 * Written here rather than taken from GSL because GSL reports a matrix that is not positive
 * definite through its error handler, which aborts the process unless switched off, and the
 * switch is process-wide state; these return false instead.  Internal to eval/; thread-safe.
 */
#ifndef LEUCTRA_CHOLESKY_H
#define LEUCTRA_CHOLESKY_H

#include <stdbool.h>

/* Replaces the lower triangle of a with L, a = L L^T; false if a is not (numerically)
 * positive definite. */
bool cholesky_factor(double *a, int n);
/* Solves L L^T x = b in place, with l from cholesky_factor. */
void cholesky_solve(const double *l, int n, double *b);
/* inverse = (L L^T)^-1, all n x n entries; work holds n doubles. */
void cholesky_inverse(const double *l, int n, double *inverse, double *work);

#endif
