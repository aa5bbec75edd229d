/* bench_pdf.c -- PDF evaluations per second (include/gaps/pdf.h) on the backend of the build:
 * one core in the serial build, the GPU in the offload build, with the same loop
 * (GAPS_PARALLEL_FOR over the points, backend/gaps_parallel.h).
 *
 *   bench_pdf [--n N] [--pdf NAME[/MEMBER]] [--pdf-path DIR]
 *
 * N points (default 2^21) are drawn on the host, deterministically: x log-uniform in
 * [1e-5, 1), Q^2 log-uniform in [Q^2_min, 1e8 GeV^2], the flavour cycling through the set's
 * list.  They are copied to where the loops run once.  Each call kind (one flavour per point;
 * all flavours per point, summed) runs once to warm up, then 5 times; the table gives the
 * median.  The checksums are computed on the host from the values copied back: the sum, and
 * an FNV-1a hash of their bits, which must be the same in every build (bit identity), since
 * the points are made with gaps_log/gaps_exp and not the C library's.  Last, every value of
 * the loops is compared bit for bit with the same call made on the host (in the offload build:
 * GPU code against x86 code).
 * Set search: --pdf-path, then $LHAPDF_DATA_PATH, then GAPS_PDF_SOURCE_DATADIR if the build
 * defines it, then share/pdfsets of the current directory.
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include "gaps/fpmath.h"
#include "gaps/pdf.h"
#include "gaps_parallel.h"
#include "gaps_runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPEATS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_state = 20260301;
static double rng_unit(void)   /* splitmix64, [0, 1) */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double log_uniform(double lo, double hi)
{
    return gaps_exp(gaps_log(lo) + (gaps_log(hi) - gaps_log(lo)) * rng_unit());
}

/* The loops: one value per point, written to out[i]. */
static void eval_single(const gaps_pdf *pdf, int n, const int *pid, const double *x,
                        const double *q2, double *out)
{
    GAPS_PARALLEL_FOR(n)
    for (int i = 0; i < n; ++i) out[i] = gaps_pdf_xfxq2(pdf, pid[i], x[i], q2[i]);
}

static void eval_all(const gaps_pdf *pdf, int n, const double *x, const double *q2,
                     double *out)
{
    GAPS_PARALLEL_FOR(n)
    for (int i = 0; i < n; ++i) {
        double xf[GAPS_PDF_NPARTONS];
        gaps_pdf_xfxq2_all(pdf, x[i], q2[i], xf);
        double sum = 0.0;
        for (int k = 0; k < GAPS_PDF_NPARTONS; ++k) sum += xf[k];
        out[i] = sum;
    }
}

/* Values of the loop that differ in any bit from the host's own evaluation. */
static long host_differences(int all, const gaps_pdf *pdf, int n, const int *pid,
                             const double *x, const double *q2, const double *out)
{
    long differ = 0;
    for (int i = 0; i < n; ++i) {
        double v;
        if (all) {
            double xf[GAPS_PDF_NPARTONS];
            gaps_pdf_xfxq2_all(pdf, x[i], q2[i], xf);
            v = 0.0;
            for (int k = 0; k < GAPS_PDF_NPARTONS; ++k) v += xf[k];
        } else {
            v = gaps_pdf_xfxq2(pdf, pid[i], x[i], q2[i]);
        }
        differ += memcmp(&v, &out[i], sizeof v) != 0;
    }
    return differ;
}

static int compare_doubles(const void *a, const void *b)
{
    const double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* Median seconds of REPEATS runs after one warm-up run. */
static double time_kind(int all, const gaps_pdf *pdf, int n, const int *pid, const double *x,
                        const double *q2, double *out)
{
    double t[REPEATS];
    for (int r = -1; r < REPEATS; ++r) {
        const double t0 = now();
        if (all) eval_all(pdf, n, x, q2, out);
        else eval_single(pdf, n, pid, x, q2, out);
        if (r >= 0) t[r] = now() - t0;
    }
    qsort(t, REPEATS, sizeof t[0], compare_doubles);
    return t[REPEATS / 2];
}

/* Sum and FNV-1a hash of the bits of the values (host). */
static void checksum(const double *v, int n, double *sum, uint64_t *hash)
{
    *sum = 0.0;
    *hash = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; ++i) {
        *sum += v[i];
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        for (int b = 0; b < 8; ++b) {
            *hash ^= (bits >> (8 * b)) & 0xff;
            *hash *= 0x100000001b3ull;
        }
    }
}

static void *device_copy_or_die(const void *host, size_t bytes)
{
    void *p = gaps_device_copy(host, bytes);
    if (!p) {
        fprintf(stderr, "bench_pdf: cannot allocate %zu bytes where the loops run\n", bytes);
        exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    int n = 1 << 21;
    const char *spec = "CT14lo", *dir = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--pdf") == 0 && i + 1 < argc) spec = argv[++i];
        else if (strcmp(argv[i], "--pdf-path") == 0 && i + 1 < argc) dir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_pdf [--n N] [--pdf NAME[/MEMBER]] [--pdf-path DIR]\n");
            return 2;
        }
    }
    if (n < 1) {
        fprintf(stderr, "bench_pdf: --n must be a positive integer\n");
        return 2;
    }
    char path[8192], err[1024], where[256];
    const char *env = getenv("LHAPDF_DATA_PATH");
#if defined(GAPS_PDF_SOURCE_DATADIR)
    const char *source_dir = GAPS_PDF_SOURCE_DATADIR;
#else
    const char *source_dir = "share/pdfsets";
#endif
    snprintf(path, sizeof path, "%s:%s:%s", dir ? dir : "", env ? env : "", source_dir);
    if (gaps_runtime_init(0, where, sizeof where, err, sizeof err) != 0) {
        fprintf(stderr, "bench_pdf: %s\n", err);
        return 1;
    }
    gaps_pdf pdf, view;
    if (gaps_pdf_load(&pdf, spec, path, err, sizeof err) != 0) {
        fprintf(stderr, "bench_pdf: %s\n", err);
        return 1;
    }

    int *pid = malloc((size_t)n * sizeof *pid);
    double *x = malloc((size_t)n * sizeof *x), *q2 = malloc((size_t)n * sizeof *q2);
    double *out = malloc((size_t)n * sizeof *out);
    if (!pid || !x || !q2 || !out) {
        fprintf(stderr, "bench_pdf: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; ++i) {
        pid[i] = pdf.pid[i % pdf.nfl];
        x[i] = log_uniform(1e-5, 1.0);
        q2[i] = log_uniform(pdf.q2min, 1e8);
    }
    if (gaps_pdf_to_device(&pdf, &view) != 0) {
        fprintf(stderr, "bench_pdf: cannot copy the PDF tables to the device\n");
        return 1;
    }
    const gaps_pdf *d_pdf = device_copy_or_die(&view, sizeof view);
    const int *d_pid = device_copy_or_die(pid, (size_t)n * sizeof *pid);
    const double *d_x = device_copy_or_die(x, (size_t)n * sizeof *x);
    const double *d_q2 = device_copy_or_die(q2, (size_t)n * sizeof *q2);
    double *d_out = device_copy_or_die(out, (size_t)n * sizeof *out);

    printf("PDF evaluations, %s/%d on %s (%s build)\n", pdf.name, pdf.member, where,
           GAPS_BACKEND_NAME);
    printf("%d points: x log-uniform in [1e-5, 1), Q^2 log-uniform in [%.6g, 1e8] GeV^2; "
           "median of %d runs after a warm-up\n", n, pdf.q2min, REPEATS);
    printf("%-8s %-26s %10s %11s %14s %14s  %s\n", "backend", "call", "points", "seconds",
           "points/s", "values/s", "checksum (sum, FNV-1a of the bits)");
    long differ[2];
    for (int all = 0; all <= 1; ++all) {
        const double t = time_kind(all, d_pdf, n, d_pid, d_x, d_q2, d_out);
        gaps_device_to_host(out, d_out, (size_t)n * sizeof *out);
        double sum;
        uint64_t hash;
        checksum(out, n, &sum, &hash);
        const int per_point = all ? pdf.nfl : 1;
        char call[64];
        snprintf(call, sizeof call, all ? "xfxq2_all (%d flavours)" : "xfxq2 (1 flavour)",
                 pdf.nfl);
        printf("%-8s %-26s %10d %11.4g %14.4g %14.4g  %.17g %016llx\n", GAPS_BACKEND_NAME, call,
               n, t, n / t, (double)n * per_point / t, sum, (unsigned long long)hash);
        differ[all] = host_differences(all, &pdf, n, pid, x, q2, out);
    }
    printf("bit identity: %ld (one flavour) and %ld (all flavours) of %d values differ from the "
           "host's\n", differ[0], differ[1], n);

    gaps_device_free(d_out);
    gaps_device_free((void *)d_q2);
    gaps_device_free((void *)d_x);
    gaps_device_free((void *)d_pid);
    gaps_device_free((void *)d_pdf);
    gaps_pdf_device_free(&view);
    gaps_pdf_free(&pdf);
    free(pid);
    free(x);
    free(q2);
    free(out);
    return differ[0] || differ[1] ? 1 : 0;
}
