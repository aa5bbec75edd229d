/* bench_fmt_double.c -- time gaps_fmt_g17 (src/io/fmt_double.c) against snprintf "%.17g".
 *
 * Build and run (no CMake target needed):
 *   cc -O2 -Isrc tools/bench_fmt_double.c src/io/fmt_double.c -lm -o bench_fmt_double
 *   ./bench_fmt_double [--n N] [--reps R] [--data FILE]
 * Numbers: a mix shaped like the program's outputs (momentum components and energies in GeV,
 * weights in pb, event shapes and jet resolutions spanning decades, round-off near 1e-17,
 * beam values like 45.6), or every number of a text file (--data: a CSV or HepMC file).
 * Prints the best-of-R time per number of each formatter, and checks that the texts agree. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */

#include "io/fmt_double.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state = 12345;
static double rng_unit(void)   /* splitmix64, [0, 1) */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double log_uniform(double lo, double hi)
{
    return exp(log(lo) + (log(hi) - log(lo)) * rng_unit());
}

static double typical(void)
{
    const double u = rng_unit();
    if (u < 0.30) return (rng_unit() - 0.5) * 91.2;                   /* px, py, pz */
    if (u < 0.55) return log_uniform(0.3, 45.6);                      /* parton energies */
    if (u < 0.62) return log_uniform(2e4, 1e5);                       /* weights, sigma */
    if (u < 0.92) return log_uniform(1e-5, 1.0);                      /* observables */
    if (u < 0.94) return log_uniform(1e-21, 1e-16);                   /* round-off */
    if (u < 0.97) return u < 0.955 ? 45.6 : 91.2;                     /* beams, boson */
    return 0.0;                                                       /* massless */
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static char sink[64 * 1024];   /* output buffer, reused: formatting cost only */

static double time_snprintf(const double *v, long n, int reps, size_t *bytes)
{
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        size_t total = 0;
        const double t0 = now();
        for (long i = 0; i < n; ++i) {
            char *s = sink + (size_t)(i & 1023) * 32;
            total += (size_t)snprintf(s, 32, "%.17g", v[i]);
        }
        const double t = now() - t0;
        if (t < best) best = t;
        *bytes = total;
    }
    return best / (double)n * 1e9;
}

static double time_fmt(const double *v, long n, int reps, size_t *bytes)
{
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        size_t total = 0;
        const double t0 = now();
        for (long i = 0; i < n; ++i) {
            char *s = sink + (size_t)(i & 1023) * 32;
            total += (size_t)(gaps_fmt_g17(s, v[i]) - s);
        }
        const double t = now() - t0;
        if (t < best) best = t;
        *bytes = total;
    }
    return best / (double)n * 1e9;
}

static void run(const char *name, const double *v, long n, int reps)
{
    size_t b1 = 0, b2 = 0;
    long differ = 0;
    for (long i = 0; i < n; ++i) {
        char a[64], b[GAPS_FMT_G17_SIZE];
        snprintf(a, sizeof a, "%.17g", v[i]);
        gaps_fmt_g17(b, v[i]);
        differ += strcmp(a, b) != 0;
    }
    const double ts = time_snprintf(v, n, reps, &b1), tf = time_fmt(v, n, reps, &b2);
    printf("%-26s %9ld numbers: snprintf %7.1f ns, gaps_fmt_g17 %6.1f ns, x%.1f "
           "(%.1f bytes/number, %ld texts differ)\n",
           name, n, ts, tf, ts / tf, (double)b1 / (double)n, differ);
    if (b1 != b2 || differ) printf("ERROR: the texts differ\n");
}

int main(int argc, char **argv)
{
    long n = 1000000;
    int reps = 5;
    const char *data = NULL;
    for (int i = 1; i < argc; ++i) {
        char *end = NULL;
        if (!strcmp(argv[i], "--n") && i + 1 < argc) {
            n = strtol(argv[++i], &end, 10);
            if (*end || n < 1) {
                fprintf(stderr, "bench_fmt_double: bad --n '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = (int)strtol(argv[++i], &end, 10);
            if (*end || reps < 1) {
                fprintf(stderr, "bench_fmt_double: bad --reps '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--data") && i + 1 < argc) {
            data = argv[++i];
        } else {
            fprintf(stderr, "usage: bench_fmt_double [--n N] [--reps R] [--data FILE]\n");
            return 2;
        }
    }
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) {
        fprintf(stderr, "bench_fmt_double: out of memory\n");
        return 2;
    }
    if (data) {
        FILE *f = fopen(data, "r");
        if (!f) {
            fprintf(stderr, "bench_fmt_double: cannot open %s\n", data);
            return 2;
        }
        /* every token with a decimal point or exponent, up to n of them */
        long m = 0;
        char tok[256];
        while (m < n && fscanf(f, " %255[^ ,\n]", tok) == 1) {
            char *end;
            const double x = strtod(tok, &end);
            if (*end == '\0' && end != tok && strpbrk(tok, ".e")) v[m++] = x;
            if (fscanf(f, "%*[ ,\n]") == EOF) break;
        }
        fclose(f);
        if (m == 0) {
            fprintf(stderr, "bench_fmt_double: no numbers in %s\n", data);
            return 2;
        }
        run(data, v, m, reps);
    } else {
        for (long i = 0; i < n; ++i) v[i] = typical();
        run("typical mix", v, n, reps);
        for (long i = 0; i < n; ++i) v[i] = log_uniform(0.01, 100.0);
        run("log-uniform [0.01, 100]", v, n, reps);
        for (long i = 0; i < n; ++i) v[i] = log_uniform(1e-21, 1e-16);
        run("log-uniform [1e-21, 1e-16]", v, n, reps);
        for (long i = 0; i < n; ++i) v[i] = log_uniform(1e-300, 1e300);   /* snprintf path */
        run("log-uniform [1e-300,1e300]", v, n, reps);
    }
    free(v);
    return 0;
}
