/* test_pp_h.c -- p p -> H through gluon fusion (the process pp-h, src/process/pp_h.c) against an
 * independent quadrature of its leading-order cross section.
 *
 *   test_pp_h PDFSETS_DIR [EVENTS]                  the full test (default 10^6 hard events)
 *   test_pp_h PDFSETS_DIR --sigma [ASMZ ORDER]      print the quadrature's sigma (pb) with
 *                                                   alpha_s(M_Z) = ASMZ at ORDER loops
 *                                                   (default 0.118, 2: the run's defaults)
 *                                                   and exit (tests/test_pp_h.sh)
 *
 * The quadrature knows nothing of the generator's process code: its own constants (m_H =
 * 125 GeV, G_F = 1.1663788e-5 GeV^-2, the GeV^-2 -> pb factor written out again), its own
 * partonic cross section in the textbook form (heavy-top limit, |A|^2 = 1)
 *   sigma_hat(g g -> H) = sigma_0 m_H^2 delta(s_hat - m_H^2),
 *   sigma_0 = G_F alpha_s(m_H^2)^2 / (288 sqrt(2) pi),
 * and its own integration, in the momentum fraction of the gluon along +z rather than the
 * rapidity:
 *   sigma = sigma_0 tau integral_tau^1 dx / x g(x) g(tau / x),  tau = m_H^2 / s,
 * with g(x) = [x g(x)] / x from gaps_pdf_xfxq2 (the project's PDF reader) at mu_F = m_H,
 * adaptive Gauss-Kronrod 7-15 in ln x.  alpha_s(m_H^2) comes from the project's alpha_s
 * module (gaps/alphas.h, the running the shower uses), the one piece shared with the run.
 *
 * Checked on the hard events of the process set up as a run sets it up (importance-sampling
 * table, the coupling handed over by gaps_process_set_coupling): every record (two gluons
 * along +-z with E = x sqrt(s)/2, colours g (1, 2) and g (2, 1), next tag 3; the Higgs,
 * PDG 25, colourless, carries the incoming momentum and has mass m_H; t_start = m_H^2), the
 * weights' spread (sd/mean < 0.1) and the mean weight against the quadrature within 4
 * standard errors, at the default coupling and at alpha_s(M_Z) = 0.130 at one loop.
 * Exit status 0 pass, 1 fail, 2 usage or the PDF set does not load. */
#define _POSIX_C_SOURCE 200809L   /* check.h's clock */
#include "gaps/alphas.h"
#include "gaps/constants.h"
#include "gaps/pdf.h"
#include "gaps/process.h"
#include "gaps/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kronrod.h"

/* ---- the physics, written out again ---- */
#define ECM 13000.0
#define MH 125.0
#define GF 1.1663788e-5
#define GEV2_TO_PB 3.89379656e8   /* (hbar c)^2 in GeV^2 pb */

typedef struct hctx { const gaps_pdf *pdf; double tau; } hctx;

/* d sigma / d ln x_a / (sigma_0 tau): g(x_a) g(tau / x_a) */
static double dsigma_dlnx(double lnx, void *vctx)
{
    const hctx *c = (const hctx *)vctx;
    const double xa = exp(lnx), xb = c->tau / xa;
    return gaps_pdf_xfxq2(c->pdf, 0, xa, MH * MH) / xa * gaps_pdf_xfxq2(c->pdf, 0, xb, MH * MH)
           / xb;
}

static double alphas_mh(double asmz, int order)
{
    gaps_alphas as;
    gaps_alphas_init(&as, order, asmz);
    return gaps_alphas_value(&as, MH * MH);
}

static double quadrature(const gaps_pdf *pdf, double alphas)
{
    hctx c = { pdf, MH * MH / (ECM * ECM) };
    const double sigma0 = GF * alphas * alphas / (288.0 * sqrt(2.0) * 3.14159265358979323846) * GEV2_TO_PB;
    return sigma0 * c.tau * integrate(dsigma_dlnx, &c, log(c.tau), 0.0, 1e-9);
}

/* ---- Monte Carlo statistics ---- */
typedef struct stats { double n, sw, sw2; } stats;
static void add(stats *s, double w) { s->n += 1; s->sw += w; s->sw2 += w * w; }

/* The hard events of pp-h with the coupling alpha_s(M_Z) = asmz at `order` loops (or the
 * process's own default where order < 0) against the quadrature. */
static void check_events(const gaps_pdf *pdf, long events, double asmz, int order)
{
    gaps_process proc;
    char msg[256];
    if (gaps_process_init(&proc, GAPS_PROCESS_PP_H, ECM, msg, sizeof msg) != 0) {
        CHECK(0, "gaps_process_init: %s", msg);
        return;
    }
    if (order >= 0) {
        gaps_alphas as;
        gaps_alphas_init(&as, order, asmz);
        gaps_process_set_coupling(&proc, &as);
    }
    gaps_process_prepare(&proc, pdf);
    proc.pdf = pdf;
    const double sigma = quadrature(pdf, alphas_mh(asmz, order >= 0 ? order : 2));
    stats all = { 0 };
    long bad = 0;
    for (long i = 0; i < events; ++i) {
        gaps_rng rng = gaps_rng_make(11, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(&proc, &rng, &ev);
        int ok = ev.n == 3 && ev.n_in == 2 && isfinite(ev.weight) && ev.weight > 0.0;
        ok = ok && ev.flav[0] == 21 && ev.flav[1] == 21 && ev.flav[2] == 25;
        ok = ok && ev.col[0] == 1 && ev.acol[0] == 2 && ev.col[1] == 2 && ev.acol[1] == 1
             && ev.col[2] == 0 && ev.acol[2] == 0 && ev.next_tag == 3;
        for (int r = 0; r < 2; ++r) {
            const double *p = ev.p[r];
            ok = ok && p[1] == 0.0 && p[2] == 0.0 && fabs(fabs(p[3]) - p[0]) < 1e-12 * p[0]
                 && fabs(p[0] - ev.x[r] * ECM / 2) < 1e-9 * ECM && ev.x[r] > 0.0 && ev.x[r] <= 1.0;
        }
        ok = ok && ev.p[0][3] > 0.0 && ev.p[1][3] < 0.0;
        for (int k = 0; k < 4; ++k)
            ok = ok && fabs(ev.p[0][k] + ev.p[1][k] - ev.p[2][k]) < 1e-10 * ECM;
        const double *h = ev.p[2];
        const double m2 = h[0] * h[0] - h[1] * h[1] - h[2] * h[2] - h[3] * h[3];
        ok = ok && fabs(sqrt(m2) - MH) < 1e-8 * MH && fabs(ev.t_start - MH * MH) < 1e-9 * MH * MH;
        if (!ok && bad++ < 5) printf("FAIL event %ld: record\n", i);
        add(&all, ev.weight);
    }
    CHECK(bad == 0, "%ld records fail", bad);
    const double n = (double)events, m = all.sw / n;
    const double sd = sqrt(all.sw2 / n - m * m), e = sd / sqrt(n - 1), p = (m - sigma) / e;
    printf("  alpha_s(M_Z) %.3f (order %d): %ld events, weights sd/mean %.4f; MC %.5f +- %.5f "
           "pb, quadrature %.5f pb, pull %+.2f\n", asmz, order >= 0 ? order : 2, events, sd / m,
           m, e, sigma, p);
    CHECK(sd / m < 0.1, "weight spread sd/mean %.4f beyond 0.1", sd / m);
    CHECK(fabs(p) < 4.0, "pull %.2f beyond 4", p);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pp_h PDFSETS_DIR [EVENTS | --sigma [ASMZ ORDER]]\n");
        return 2;
    }
    gaps_pdf pdf;
    char err[512];
    if (gaps_pdf_load(&pdf, GAPS_DEFAULT_PDF, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "test_pp_h: %s\n", err);
        return 2;
    }
    if (argc > 2 && strcmp(argv[2], "--sigma") == 0) {
        const double asmz = argc > 4 ? atof(argv[3]) : 0.118;
        const int order = argc > 4 ? atoi(argv[4]) : 2;
        printf("%.10g\n", quadrature(&pdf, alphas_mh(asmz, order)));
        gaps_pdf_free(&pdf);
        return 0;
    }
    const long events = argc > 2 ? atol(argv[2]) : 1000000L;
    printf("quadrature: sigma %.6f pb (alpha_s(m_H) %.6f)\n",
           quadrature(&pdf, alphas_mh(0.118, 2)), alphas_mh(0.118, 2));
    check_events(&pdf, events, 0.118, -1);        /* the process's own default coupling */
    check_events(&pdf, events / 4, 0.130, 1);     /* a run's other coupling, handed over */
    gaps_pdf_free(&pdf);
    printf(failures ? "test_pp_h: %d FAILURES\n" : "test_pp_h: all checks passed\n", failures);
    return failures ? 1 : 0;
}
