/* tests/check.h -- what the C tests share: CHECK, which prints a failed condition and counts
 * it in `failures` (the test's exit status comes from that count), a monotonic clock for the
 * timings they print, and Gauss-Legendre rules for their numerical integrations.  Include it
 * after the system headers; a test that reads the clock defines _POSIX_C_SOURCE first. */
#ifndef GAPS_TESTS_CHECK_H
#define GAPS_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <time.h>

static int failures = 0;
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            printf("FAIL: " __VA_ARGS__);                                                      \
            printf("\n");                                                                      \
            ++failures;                                                                        \
        }                                                                                      \
    } while (0)

/* Seconds on a monotonic clock. */
static inline double test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The n-point Gauss-Legendre rule on [-1, 1] (n <= GL_MAX), by Newton's method on the
 * Legendre polynomial P_n. */
#define GL_MAX 64
typedef struct gl_rule { int n; double x[GL_MAX], w[GL_MAX]; } gl_rule;

static inline gl_rule gl_make(int n)
{
    gl_rule r;
    r.n = n;
    for (int i = 0; i < n; ++i) {
        double x = cos(3.14159265358979323846 * (i + 0.75) / (n + 0.5)), dp = 1.0;
        for (int it = 0; it < 100; ++it) {
            double p0 = 1.0, p1 = x;   /* P_0, P_1, then the recurrence up to P_n */
            for (int k = 2; k <= n; ++k) {
                const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = n * (x * p1 - p0) / (x * x - 1.0);   /* P_n'(x) */
            const double dx = p1 / dp;
            x -= dx;
            if (fabs(dx) < 1e-16) break;
        }
        r.x[i] = x;
        r.w[i] = 2.0 / ((1.0 - x * x) * dp * dp);
    }
    return r;
}

#endif
