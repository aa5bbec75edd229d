/* test_pp_nlo_events.c -- the hard events of --nlo 1 --process pp-z (src/process/mcatnlo.c with pp_z.c's functions,
 * doc/nlo.md section 11.8) without the shower: N events through gaps_process_generate().
 *   1. the mean weight is sigma_NLO of the quadrature of tests/test_pp_nlo.c (47937.96 pb;
 *      with --compat gaps21's Li2 47922.84 pb) within 4 standard errors of the weight spread;
 *   2. every record: S events q qbar Z, H events two incoming partons, the Z, one parton;
 *      incoming partons along +-z with E = x sqrt(s)/2 and x in (0, 1); momentum conserved
 *      (1e-9 of sqrt(s)); the Z on shell (1e-8 relative); colours: every tag once as a
 *      crossed colour and once as a crossed anticolour (incoming partons crossed), quarks
 *      carry one colour, gluons two; flavours conserved; t_start > 0 (the H event's = p_T^2
 *      of the parton, by default; s under gaps21);
 *   3. all H channels occur (q qbar -> Z g, q g, g q, qbar g, g qbar) and both S and H events;
 *      the fractions of H events and of negative weights are printed.
 * Usage: test_pp_nlo_events PDFSETS_DIR [N [SEED]] */
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/process.h"
#include "process/processes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int failures = 0;
#define CHECK(c, ...)                                                                          \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            ++failures;                                                                        \
            if (failures < 20) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); }        \
        }                                                                                      \
    } while (0)

#define SIGMA_NLO 47937.96        /* tests/test_pp_nlo.c, quadrature A */
#define SIGMA_NLO_GAPS21 47922.84 /* the same with GAPS 2.1's truncated Li2 */

static int is_quark(int f) { return f != 0 && abs(f) <= 5; }

static void check_record(const gaps_hard_event *ev, double ecm, int gaps21, long i)
{
    const double e = 0.5 * ecm;
    const int hard = ev->n == 4;
    CHECK(ev->n_in == 2 && (ev->n == 3 || ev->n == 4), "event %ld: n_in %d n %d", i, ev->n_in,
          ev->n);
    if (ev->n_in != 2 || ev->n < 3 || ev->n > 4) return;
    double sum[4] = { 0, 0, 0, 0 };
    for (int r = 0; r < 2; ++r) {
        const double *p = ev->p[r];
        CHECK(ev->x[r] > 0.0 && ev->x[r] < 1.0 && fabs(p[0] - ev->x[r] * e) <= 1e-12 * e
              && p[1] == 0.0 && p[2] == 0.0 && fabs(fabs(p[3]) - p[0]) <= 1e-12 * e,
              "event %ld: incoming row %d (x %g, E %g)", i, r, ev->x[r], p[0]);
        for (int m = 0; m < 4; ++m) sum[m] += p[m];
    }
    CHECK(ev->p[0][3] * ev->p[1][3] < 0.0, "event %ld: incoming partons not head on", i);
    for (int r = 2; r < ev->n; ++r)
        for (int m = 0; m < 4; ++m) sum[m] -= ev->p[r][m];
    for (int m = 0; m < 4; ++m)
        CHECK(fabs(sum[m]) < 1e-9 * ecm, "event %ld: momentum not conserved (%d: %g)", i, m,
              sum[m]);
    const double *z = ev->p[2];
    const double m2 = z[0] * z[0] - z[1] * z[1] - z[2] * z[2] - z[3] * z[3];
    CHECK(ev->flav[2] == GAPS_PDG_Z && fabs(m2 / (GAPS_MZ * GAPS_MZ) - 1.0) < 1e-8,
          "event %ld: the Z (flav %d, m^2 %.10g)", i, ev->flav[2], m2);
    /* flavour: the sum of quark numbers in = out */
    int qin = 0, qout = 0;
    for (int r = 0; r < ev->n; ++r) {
        if (!is_quark(ev->flav[r])) continue;
        if (r < 2) qin += ev->flav[r] > 0 ? 1 : -1;
        else qout += ev->flav[r] > 0 ? 1 : -1;
    }
    CHECK(qin == qout, "event %ld: quark number %d in, %d out", i, qin, qout);
    /* colours, crossed for incoming rows */
    int nc[8] = { 0 }, na[8] = { 0 };
    for (int r = 0; r < ev->n; ++r) {
        if (r == 2) { CHECK(ev->col[r] == 0 && ev->acol[r] == 0, "event %ld: coloured Z", i); continue; }
        const int xc = r < 2 ? ev->acol[r] : ev->col[r], xa = r < 2 ? ev->col[r] : ev->acol[r];
        const int f = ev->flav[r];
        if (f == GAPS_GLUON) CHECK(xc > 0 && xa > 0 && xc != xa, "event %ld: gluon row %d", i, r);
        else if (is_quark(f)) {
            /* a quark's colour (physical) is its col; crossed, an incoming quark's is an xacol */
            const int colour = f > 0 ? ev->col[r] : ev->acol[r];
            const int other = f > 0 ? ev->acol[r] : ev->col[r];
            CHECK(colour > 0 && other == 0, "event %ld: quark row %d (%d %d)", i, r,
                  ev->col[r], ev->acol[r]);
        } else CHECK(0, "event %ld: row %d flavour %d", i, r, f);
        if (xc > 0 && xc < 8) ++nc[xc];
        if (xa > 0 && xa < 8) ++na[xa];
        CHECK(xc < ev->next_tag && xa < ev->next_tag, "event %ld: tag beyond next_tag", i);
    }
    for (int c = 1; c < 8; ++c)
        CHECK(nc[c] == na[c] && nc[c] <= 1, "event %ld: tag %d %d times as colour, %d as anticolour",
              i, c, nc[c], na[c]);
    if (hard) {
        const double *k = ev->p[3];
        const double pt2 = k[1] * k[1] + k[2] * k[2];
        const double want = gaps21 ? ecm * ecm : pt2;
        CHECK(ev->t_start > 0.0 && fabs(ev->t_start - want) <= 1e-6 * want,
              "event %ld: H t_start %g, want %g", i, ev->t_start, want);
    } else {
        const double want = gaps21 ? ecm * ecm : GAPS_MZ * GAPS_MZ;
        CHECK(fabs(ev->t_start - want) <= 1e-9 * want, "event %ld: S t_start %g", i, ev->t_start);
    }
}

static int run(const gaps_pdf *pdf, int compat, long n, uint32_t seed, double expect)
{
    gaps_process proc;
    char msg[256];
    const double ecm = GAPS_DEFAULT_ECM_PP;
    if (gaps_process_init(&proc, GAPS_PROCESS_PP_Z, ecm, msg, sizeof msg) != 0
        || gaps_process_set_nlo(&proc, 0.118, compat, msg, sizeof msg) != 0) {
        printf("FAIL: %s\n", msg);
        return 1;
    }
    proc.pdf = pdf;
    gaps_process_prepare(&proc, pdf);
    const int gaps21 = compat == GAPS_COMPAT_GAPS21;
    double s = 0.0, s2 = 0.0;
    long n_h = 0, n_neg = 0, chan[5] = { 0 };
    for (long i = 0; i < n; ++i) {
        gaps_rng rng = gaps_rng_make(seed, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(&proc, &rng, &ev);
        CHECK(isfinite(ev.weight), "event %ld: weight %g", i, ev.weight);
        s += ev.weight;
        s2 += ev.weight * ev.weight;
        n_neg += ev.weight < 0.0;
        check_record(&ev, ecm, gaps21, i);
        if (ev.n == 4) {
            ++n_h;
            const int g0 = ev.flav[0] == GAPS_GLUON, g1 = ev.flav[1] == GAPS_GLUON;
            const int q = g0 ? ev.flav[1] : ev.flav[0];
            chan[ev.flav[3] == GAPS_GLUON ? 0 : g0 ? (q > 0 ? 3 : 4) : (q > 0 ? 1 : 2)] += 1;
            (void)g1;
        }
    }
    const double mean = s / n, err = sqrt(fmax(s2 / n - mean * mean, 0.0) / (n - 1));
    const double pull = (mean - expect) / err;
    printf("%s: sigma_NLO = %.2f +- %.2f pb (expected %.2f, pull %+.2f); std/mean %.2f; "
           "H events %.2f %%, negative weights %.2f %%\n",
           gaps21 ? "gaps21" : "default", mean, err, expect, pull, err * sqrt((double)n) / mean,
           100.0 * n_h / n, 100.0 * n_neg / n);
    printf("  H channels: q qbar -> Z g %ld, q g %ld, qbar g %ld, g q %ld, g qbar %ld\n", chan[0],
           chan[1], chan[2], chan[3], chan[4]);
    CHECK(fabs(pull) < 4.0, "sigma_NLO pull %+.2f", pull);
    for (int c = 0; c < 5; ++c) CHECK(chan[c] > 0, "H channel %d never chosen", c);
    CHECK(n_h > 0 && n_h < n && n_neg > 0, "S and H events, negative weights");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pp_nlo_events PDFSETS_DIR [N [SEED]]\n");
        return 2;
    }
    const long n = argc > 2 ? atol(argv[2]) : 1000000L;
    const uint32_t seed = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1u;
    const clock_t t0 = clock();
    gaps_pdf pdf;
    char err[512];
    if (gaps_pdf_load(&pdf, GAPS_DEFAULT_PDF, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "test_pp_nlo_events: %s\n", err);
        return 2;
    }
    run(&pdf, GAPS_COMPAT_NONE, n, seed, SIGMA_NLO);
    run(&pdf, GAPS_COMPAT_GAPS21, n / 4, seed + 1, SIGMA_NLO_GAPS21);
    gaps_pdf_free(&pdf);
    printf("%s (%d failures), %.1f s\n", failures ? "FAILED" : "passed", failures,
           (double)(clock() - t0) / CLOCKS_PER_SEC);
    return failures ? 1 : 0;
}
