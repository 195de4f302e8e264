/*
 * cholesky.c - dense Cholesky factorization, solve and inverse (cholesky.h): the textbook
 * row-oriented algorithm, O(n^3 / 3) to factor and O(n^3) to invert by solving for each column
 * of the identity.
 */
#include "eval/cholesky.h"

#include <math.h>
#include <stddef.h>

bool cholesky_factor(double *a, int n)
{
    for (int i = 0; i < n; i++) {
        double *row_i = a + (size_t)i * n;
        for (int j = 0; j <= i; j++) {
            const double *row_j = a + (size_t)j * n;
            double sum = row_i[j];
            for (int k = 0; k < j; k++)
                sum -= row_i[k] * row_j[k];
            if (j < i) {
                row_i[j] = sum / row_j[j];
            } else {
                if (!(sum > 0))
                    return false;
                row_i[i] = sqrt(sum);
            }
        }
    }
    return true;
}

void cholesky_solve(const double *l, int n, double *b)
{
    for (int i = 0; i < n; i++) {            /* L y = b */
        const double *row = l + (size_t)i * n;
        double sum = b[i];
        for (int k = 0; k < i; k++)
            sum -= row[k] * b[k];
        b[i] = sum / row[i];
    }
    for (int i = n - 1; i >= 0; i--) {       /* L^T x = y */
        double sum = b[i];
        for (int k = i + 1; k < n; k++)
            sum -= l[(size_t)k * n + i] * b[k];
        b[i] = sum / l[(size_t)i * n + i];
    }
}

void cholesky_inverse(const double *l, int n, double *inverse, double *work)
{
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            work[i] = i == j;
        cholesky_solve(l, n, work);
        for (int i = 0; i < n; i++)
            inverse[(size_t)i * n + j] = work[i];
    }
}
