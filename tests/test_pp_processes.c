/* test_pp_processes.c -- the hadronic hard processes (src/process/pp_z.c, pp_ll.c) on the host,
 * without the shower.
 *
 *   test_pp_processes PDFSETS_DIR [EVENTS] [HEPMC_OUT]   the full test (default 10^6 events)
 *   test_pp_processes PDFSETS_DIR --dsigma-dy Y...       pp-z: d sigma / dy in pb at each Y
 *                                                        (for tests/test_pp_parton.py)
 *
 * 1. Records: every event of both processes is checked: incoming q (row 0) and qbar (row 1)
 *    along +-z with E = x sqrt(s)/2, massless; the Z (pp-z) or e- e+ (pp-ll) carry exactly
 *    the incoming momentum (to rounding), leptons massless, the pair mass in the window and
 *    the Z on shell; colours q (1, 0), qbar (0, 1), next_tag 2; t_start; weight finite, >= 0.
 *    The processes are set up as a run sets them up, with their importance-sampling tables
 *    (gaps_process_prepare): the weights' spread (sd/mean, mean/max) must stay small; the
 *    sampling without the tables is checked on a tenth of the events.
 * 2. Cross sections: an independent numerical integration (adaptive Gauss-Kronrod 7-15 written
 *    here, couplings written out again here, PDFs through gaps_pdf_xfxq2 flavour by flavour):
 *    pp-z 1-D in y, pp-ll 2-D in (m, y) of the cos(theta)-integrated cross section.  The mean
 *    weight of the events must agree within 4 standard errors (from the weight spread); so
 *    must, for pp-z, each flavour's share, and for pp-ll the forward-backward difference
 *    sigma(cos theta* > 0) - sigma(cos theta* < 0) of the e- with respect to the incoming
 *    quark in the pair's rest frame (which checks the sign of the |M|^2's odd term and that
 *    the record's quark is the one the weight assumed), whose integral is that of B_f.
 * 3. HEPMC_OUT (optional): the first 1000 events of each process written with
 *    gaps_hepmc_write_event, for a reader (tests/hepmc_pp_read.cc).
 * Exit status 0 pass, 1 fail, 2 usage or the PDF set does not load. */
#include "gaps/constants.h"
#include "gaps/generator.h"
#include "gaps/hepmc.h"
#include "gaps/analysis.h"
#include "gaps/pdf.h"
#include "gaps/process.h"
#include "gaps/rng.h"
#include "process/pp_ll.h"   /* the processes' own constants (private headers) */
#include "process/pp_z.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond, ...)                                                                    \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            if (failures < 20) {                                                            \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);                                 \
                printf(__VA_ARGS__);                                                        \
                printf("\n");                                                               \
            }                                                                               \
            ++failures;                                                                     \
        }                                                                                   \
    } while (0)

/* ------------------------------------------------------------------------------------------
 * Adaptive Gauss-Kronrod 7-15 (nodes and weights from the standard table, QUADPACK's qk15)
 * ------------------------------------------------------------------------------------------ */

#include "kronrod.h"

/* ------------------------------------------------------------------------------------------
 * The physics, written out again (textbook notation: g_V = T_3 - 2 Q sin^2, g_A = T_3)
 * ------------------------------------------------------------------------------------------ */

#define ECM 13000.0

static const double T3[6] = { 0, -0.5, 0.5, -0.5, 0.5, -0.5 };          /* d u s c b */
static const double QF[6] = { 0, -1.0 / 3, 2.0 / 3, -1.0 / 3, 2.0 / 3, -1.0 / 3 };

static double gv(int f) { return T3[f] - 2.0 * QF[f] * GAPS_SIN2_THETAW; }

typedef struct zctx {
    const gaps_pdf *pdf;
    double mu2;
    int flavour;     /* 0: all; else only that flavour */
} zctx;

/* q qbar -> Z: sigma_hat = (pi / 3) sqrt(2) G_F M_Z^2 (g_V^2 + g_A^2) delta(s_hat - M_Z^2),
 * sqrt(2) G_F = pi alpha / (sin^2 cos^2 M_Z^2), so d sigma / dy = sum_f (sigma_hat
 * coefficient / s) f(x_a) f(x_b) = coefficient / M_Z^2 [x_a f] [x_b f]. */
static double pp_z_dsigma_dy(double y, void *vctx)
{
    const zctx *z = vctx;
    const double sw2 = GAPS_SIN2_THETAW, mz2 = GAPS_MZ * GAPS_MZ;
    const double rt2gf = GAPS_PI * GAPS_ALPHA_EM / (sw2 * (1.0 - sw2) * mz2);
    const double xa = GAPS_MZ / ECM * exp(y), xb = GAPS_MZ / ECM * exp(-y);
    double sum = 0.0;
    for (int f = 1; f <= 5; ++f) {
        if (z->flavour && f != z->flavour) continue;
        const double coef = GAPS_PI / 3.0 * rt2gf * mz2 * (gv(f) * gv(f) + T3[f] * T3[f]);
        const double lum = gaps_pdf_xfxq2(z->pdf, f, xa, mz2) * gaps_pdf_xfxq2(z->pdf, -f, xb, mz2)
                         + gaps_pdf_xfxq2(z->pdf, -f, xa, mz2) * gaps_pdf_xfxq2(z->pdf, f, xb, mz2);
        sum += coef / mz2 * lum;
    }
    return sum * GAPS_GEV2_TO_PB;
}

/* q qbar -> Z/gamma* -> e- e+ at s_hat = m^2 (the e+ e- -> mu+ mu- formula of Ellis, Stirling
 * and Webber, crossed, with g_V, g_A of the quark and of the electron):
 * d sigma_hat / dc = (1 / N_c) pi alpha^2 / (2 m^2) [A (1 + c^2) + B c], c the angle between
 * the quark and the e-; the integral over c gives 8/3 A, the forward minus backward part B. */
typedef struct llctx {
    const gaps_pdf *pdf;
    double m;        /* inner integration: the mass */
    int odd;         /* 0: sigma (8/3 A); 1: sigma_F - sigma_B (B, quark-direction signed) */
} llctx;

static void ll_coefficients(double m2, int f, double *A, double *B)
{
    const double sw2 = GAPS_SIN2_THETAW, mz2 = GAPS_MZ * GAPS_MZ;
    const double k = 1.0 / (4.0 * sw2 * (1.0 - sw2));
    const double d = (m2 - mz2) * (m2 - mz2) + GAPS_GAMMA_Z * GAPS_GAMMA_Z * mz2;
    const double re = k * m2 * (m2 - mz2) / d, sq = k * k * m2 * m2 / d;
    const double ql = -1.0, val = -0.5 + 2.0 * sw2, aal = -0.5;
    *A = ql * ql * QF[f] * QF[f] + 2.0 * ql * QF[f] * val * gv(f) * re
       + (val * val + aal * aal) * (gv(f) * gv(f) + T3[f] * T3[f]) * sq;
    *B = 4.0 * ql * QF[f] * aal * T3[f] * re + 8.0 * val * aal * gv(f) * T3[f] * sq;
}

/* d sigma / (dm dy) (or its forward-minus-backward part) */
static double pp_ll_dsigma_dmdy(double y, void *vctx)
{
    const llctx *c = vctx;
    const double m = c->m, m2 = m * m;
    const double xa = m / ECM * exp(y), xb = m / ECM * exp(-y);
    const double pref = GAPS_PI * GAPS_ALPHA_EM * GAPS_ALPHA_EM / (2.0 * m2) / GAPS_NC;
    double sum = 0.0;
    for (int f = 1; f <= 5; ++f) {
        double A, B;
        ll_coefficients(m2, f, &A, &B);
        const double qa = gaps_pdf_xfxq2(c->pdf, f, xa, m2) * gaps_pdf_xfxq2(c->pdf, -f, xb, m2);
        const double qb = gaps_pdf_xfxq2(c->pdf, -f, xa, m2) * gaps_pdf_xfxq2(c->pdf, f, xb, m2);
        /* dx_a dx_b f f = dy dm^2 / s (x_a f)(x_b f) / (x_a x_b) = dy 2m dm (xf)(xf) / m^2 */
        sum += (qa + qb) * (c->odd ? B : 8.0 / 3.0 * A);
    }
    return sum * pref * 2.0 * m / m2 * GAPS_GEV2_TO_PB;
}

static double pp_ll_dsigma_dm(double m, void *vctx)
{
    llctx c = *(const llctx *)vctx;
    c.m = m;
    const double ymax = log(ECM / m);
    return integrate(pp_ll_dsigma_dmdy, &c, -ymax, ymax, 1e-9);
}

/* ------------------------------------------------------------------------------------------
 * Records
 * ------------------------------------------------------------------------------------------ */

static double rel_diff(double a, double b, double scale) { return fabs(a - b) / scale; }

static void check_record(const gaps_process *proc, const gaps_hard_event *ev, long i)
{
    const double half = 0.5 * proc->ecm;
    const int ll = proc->id == GAPS_PROCESS_PP_LL;
    CHECK(ev->n_in == 2 && ev->n == (ll ? 4 : 3), "event %ld: n_in %d n %d", i, ev->n_in, ev->n);
    if (ev->n_in != 2 || ev->n != (ll ? 4 : 3)) return;
    const int f = ev->flav[0];
    CHECK(f >= 1 && f <= 5 && ev->flav[1] == -f, "event %ld: flavours %d %d", i, f, ev->flav[1]);
    CHECK(ev->col[0] == 1 && ev->acol[0] == 0 && ev->col[1] == 0 && ev->acol[1] == 1
          && ev->next_tag == 2, "event %ld: colours", i);
    for (int r = 2; r < ev->n; ++r)
        CHECK(ev->col[r] == 0 && ev->acol[r] == 0, "event %ld: row %d coloured", i, r);
    double sum_in[4] = { 0 }, sum_out[4] = { 0 };
    for (int r = 0; r < 2; ++r) {
        const double *p = ev->p[r];
        CHECK(p[0] > 0.0 && p[1] == 0.0 && p[2] == 0.0 && fabs(p[3]) == p[0],
              "event %ld: incoming row %d not massless along z", i, r);
        CHECK(ev->x[r] > 0.0 && ev->x[r] < 1.0 && rel_diff(p[0], ev->x[r] * half, p[0]) < 1e-15,
              "event %ld: x[%d] = %.17g against E = %.17g", i, r, ev->x[r], p[0]);
        for (int m = 0; m < 4; ++m) sum_in[m] += p[m];
    }
    CHECK(ev->p[0][3] * ev->p[1][3] < 0.0, "event %ld: incoming partons not opposite", i);
    for (int r = 2; r < ev->n; ++r)
        for (int m = 0; m < 4; ++m) sum_out[m] += ev->p[r][m];
    for (int m = 0; m < 4; ++m)
        CHECK(fabs(sum_in[m] - sum_out[m]) <= 1e-13 * sum_in[0],
              "event %ld: momentum component %d: in %.17g out %.17g", i, m, sum_in[m], sum_out[m]);
    const double shat = 4.0 * ev->p[0][0] * ev->p[1][0];
    CHECK(rel_diff(shat, ev->x[0] * ev->x[1] * proc->s, shat) < 1e-14, "event %ld: x_a x_b s", i);
    if (!ll) {
        const double *z = ev->p[2];
        const double m2 = z[0] * z[0] - z[1] * z[1] - z[2] * z[2] - z[3] * z[3];
        CHECK(ev->flav[2] == 23, "event %ld: row 2 is %d, not the Z", i, ev->flav[2]);
        CHECK(rel_diff(m2, GAPS_MZ * GAPS_MZ, z[0] * z[0]) < 1e-12, "event %ld: Z mass^2 %.17g",
              i, m2);
        CHECK(ev->t_start == GAPS_MZ * GAPS_MZ, "event %ld: t_start %.17g", i, ev->t_start);
    } else {
        CHECK(ev->flav[2] == 11 && ev->flav[3] == -11, "event %ld: leptons %d %d", i,
              ev->flav[2], ev->flav[3]);
        for (int r = 2; r < 4; ++r) {
            const double *p = ev->p[r];
            const double m2 = p[0] * p[0] - p[1] * p[1] - p[2] * p[2] - p[3] * p[3];
            CHECK(p[0] > 0.0 && fabs(m2) <= 1e-12 * p[0] * p[0], "event %ld: lepton %d mass^2 "
                  "%.3g", i, r, m2);
        }
        const double mll = sqrt(shat);
        CHECK(mll >= GAPS_PP_LL_M_LO * (1 - 1e-12) && mll <= GAPS_PP_LL_M_HI * (1 + 1e-12),
              "event %ld: m_ll %.17g outside the window", i, mll);
        CHECK(rel_diff(ev->t_start, shat, shat) < 1e-12, "event %ld: t_start %.17g, m^2 %.17g", i,
              ev->t_start, shat);
    }
    CHECK(isfinite(ev->weight) && ev->weight >= 0.0, "event %ld: weight %g", i, ev->weight);
}

/* cos theta* of the e- with respect to the quark's direction, in the pair's rest frame (a
 * boost along z: the pair has no transverse momentum before the shower) */
static double cos_theta_star(const gaps_hard_event *ev)
{
    const double E = ev->p[2][0] + ev->p[3][0], pz = ev->p[2][3] + ev->p[3][3];
    const double m = sqrt(E * E - pz * pz);
    const double gamma = E / m, bg = pz / m;
    const double *l = ev->p[2];
    const double lz = gamma * l[3] - bg * l[0], le = gamma * l[0] - bg * l[3];
    const double c = lz / le;
    return ev->p[0][3] > 0.0 ? c : -c;
}

/* ------------------------------------------------------------------------------------------ */

typedef struct stats {
    double n, sw, sw2, wmax;
} stats;

static void add(stats *s, double w)
{
    s->n += 1;
    s->sw += w;
    s->sw2 += w * w;
    if (w > s->wmax) s->wmax = w;
}
static double mean(const stats *s) { return s->sw / s->n; }
static double stderr_of(const stats *s)
{
    const double m = mean(s);
    return sqrt((s->sw2 / s->n - m * m) / (s->n - 1));
}

static void pull(const char *what, const stats *s, double exact)
{
    const double p = (mean(s) - exact) / stderr_of(s);
    printf("  %-28s MC %.6f +- %.6f pb, integral %.6f pb, pull %+.2f\n", what, mean(s),
           stderr_of(s), exact, p);
    CHECK(fabs(p) < 4.0, "%s: pull %.2f beyond 4", what, p);
}

static int load(gaps_pdf *pdf, const char *dir)
{
    char err[512];
    if (gaps_pdf_load(pdf, GAPS_DEFAULT_PDF, dir, err, sizeof err) != 0) {
        fprintf(stderr, "test_pp_processes: %s\n", err);
        return -1;
    }
    return 0;
}

/* The process as the generator sets it up: with its importance-sampling tables
 * (gaps_process_prepare) where prepare is set, else sampled without them (uniformly). */
static int init(gaps_process *proc, enum gaps_process_id id, const gaps_pdf *pdf, int prepare)
{
    char msg[256];
    if (gaps_process_init(proc, id, ECM, msg, sizeof msg) != 0) {
        printf("FAIL gaps_process_init: %s\n", msg);
        return -1;
    }
    if (prepare) gaps_process_prepare(proc, pdf);
    proc->pdf = pdf;
    return 0;
}

/* The spread of the weights: standard deviation over mean, and mean over largest (the
 * efficiency of unweighting). */
static void spread(const char *what, const stats *s, double max_rsd, double min_eff)
{
    const double m = mean(s), rsd = sqrt(s->sw2 / s->n - m * m) / m, eff = m / s->wmax;
    printf("  %-28s weights: sd/mean %.4f, mean/max %.4f\n", what, rsd, eff);
    CHECK(rsd < max_rsd && eff > min_eff, "%s: weight spread sd/mean %.4f (limit %.2f), "
          "mean/max %.4f (limit %.2f)", what, rsd, max_rsd, eff, min_eff);
}

/* The mean weight of n events of proc (seed 8) against the integral: the sampling without
 * the tables, which a run uses only where a table cannot be made. */
static void plain_sampling(const char *what, const gaps_process *proc, long n, double exact)
{
    stats st = { 0 };
    for (long i = 0; i < n; ++i) {
        gaps_rng rng = gaps_rng_make(8, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(proc, &rng, &ev);
        add(&st, ev.weight);
    }
    pull(what, &st, exact);
    spread(what, &st, INFINITY, 0.0);   /* reported only */
}

/* Records for the HepMC3 output: one row per particle, as the analysis hands them on. */
static void write_hepmc(FILE *f, const gaps_process *proc, const gaps_hard_event *ev, long i,
                        const stats *s)
{
    double p[GAPS_HARD_MAX * 4], x[GAPS_HARD_MAX], weight = ev->weight;
    int64_t event = i;
    int n = ev->n, flav[GAPS_HARD_MAX], col[GAPS_HARD_MAX], acol[GAPS_HARD_MAX];
    int status[GAPS_HARD_MAX];
    for (int r = 0; r < ev->n; ++r) {
        memcpy(p + 4 * r, ev->p[r], sizeof ev->p[r]);
        x[r] = r < ev->n_in ? ev->x[r] : 0.0;
        flav[r] = ev->flav[r];
        col[r] = ev->col[r];
        acol[r] = ev->acol[r];
        status[r] = r < ev->n_in ? GAPS_STATUS_INCOMING : GAPS_STATUS_OUTGOING;
    }
    gaps_records rec = { GAPS_HARD_MAX, p, x, &weight, &event, &n, flav, col, acol, status,
                         0, NULL };
    gaps_hepmc_xsec xs;
    memset(&xs, 0, sizeof xs);
    xs.sigma = mean(s);
    xs.sigma_err = s->n > 1 ? stderr_of(s) : 0.0;
    xs.events = (int64_t)s->n;
    gaps_hepmc_write_event(f, proc, &rec, 0, &xs);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pp_processes PDFSETS_DIR [EVENTS] [HEPMC_OUT] | "
                        "PDFSETS_DIR --dsigma-dy Y...\n");
        return 2;
    }
    gaps_pdf pdf;
    if (load(&pdf, argv[1]) != 0) return 2;
    if (argc > 2 && strcmp(argv[2], "--dsigma-dy") == 0) {
        zctx z = { &pdf, GAPS_MZ * GAPS_MZ, 0 };
        for (int k = 3; k < argc; ++k)
            printf("%.17g %.17g\n", atof(argv[k]), pp_z_dsigma_dy(atof(argv[k]), &z));
        gaps_pdf_free(&pdf);
        return 0;
    }
    const long events = argc > 2 ? atol(argv[2]) : 1000000L;
    FILE *hepmc = NULL;
    if (argc > 3) {
        hepmc = fopen(argv[3], "w");
        if (!hepmc) { perror(argv[3]); return 2; }
        gaps_hepmc_write_header(hepmc, NULL, 0);
    }

    /* ---------------- pp-z ---------------- */
    gaps_process proc;
    if (init(&proc, GAPS_PROCESS_PP_Z, &pdf, 1) != 0) return 1;
    CHECK(GAPS_PROCESS_CDATA(gaps_pp_z_data, &proc)->lo.y_bins == GAPS_PP_Y_BINS, "pp-z: no rapidity table");
    zctx z = { &pdf, GAPS_MZ * GAPS_MZ, 0 };
    const double ymax = log(ECM / GAPS_MZ);
    const double sigma_z = integrate(pp_z_dsigma_dy, &z, -ymax, ymax, 1e-9);
    double sigma_zf[6] = { 0 };
    for (int f = 1; f <= 5; ++f) {
        z.flavour = f;
        sigma_zf[f] = integrate(pp_z_dsigma_dy, &z, -ymax, ymax, 1e-9);
    }
    printf("pp-z at sqrt(s) = %g GeV, CT14lo, mu_F = M_Z: integral %.4f pb (spec 8.2: "
           "43142.28); flavour shares", ECM, sigma_z);
    for (int f = 1; f <= 5; ++f) printf(" %.4f", sigma_zf[f] / sigma_z);
    printf("\n");
    CHECK(fabs(sigma_z - 43142.28) < 0.5, "pp-z integral %.4f pb, the specification's 43142.28",
          sigma_z);
    stats sz = { 0 }, szf[6];
    memset(szf, 0, sizeof szf);
    for (long i = 0; i < events; ++i) {
        gaps_rng rng = gaps_rng_make(7, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(&proc, &rng, &ev);
        check_record(&proc, &ev, i);
        add(&sz, ev.weight);
        for (int f = 1; f <= 5; ++f) add(&szf[f], ev.flav[0] == f ? ev.weight : 0.0);
        if (hepmc && i < 1000) write_hepmc(hepmc, &proc, &ev, i, &sz);
    }
    printf("pp-z: %ld host events (seed 7), weight unit %.6g pb, largest weight %.6g pb\n",
           events, proc.w_unit, sz.wmax);
    pull("sigma", &sz, sigma_z);
    spread("sigma", &sz, 0.05, 0.95);
    for (int f = 1; f <= 5; ++f) {
        char name[32];
        snprintf(name, sizeof name, "sigma(flavour %d)", f);
        pull(name, &szf[f], sigma_zf[f]);
    }

    if (init(&proc, GAPS_PROCESS_PP_Z, &pdf, 0) != 0) return 1;
    plain_sampling("sigma, y uniform", &proc, events / 10, sigma_z);

    /* ---------------- pp-ll ---------------- */
    if (init(&proc, GAPS_PROCESS_PP_LL, &pdf, 1) != 0) return 1;
    CHECK(GAPS_PROCESS_CDATA(gaps_pp_ll_data, &proc)->lo.cells == GAPS_PP_LL_CELLS, "pp-ll: no (mass, rapidity) table");
    llctx c = { &pdf, 0.0, 0 };
    const double sigma_ll = integrate(pp_ll_dsigma_dm, &c, GAPS_PP_LL_M_LO, GAPS_PP_LL_M_HI,
                                      1e-7);
    c.odd = 1;
    const double fb_ll = integrate(pp_ll_dsigma_dm, &c, GAPS_PP_LL_M_LO, GAPS_PP_LL_M_HI, 1e-7);
    printf("pp-ll (e- e+, %g < m < %g GeV), mu_F = m: integral %.4f pb, sigma_F - sigma_B "
           "(e- along the quark) %.4f pb\n", GAPS_PP_LL_M_LO, GAPS_PP_LL_M_HI, sigma_ll, fb_ll);
    stats sl = { 0 }, sfb = { 0 };
    for (long i = 0; i < events; ++i) {
        gaps_rng rng = gaps_rng_make(7, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(&proc, &rng, &ev);
        check_record(&proc, &ev, i);
        add(&sl, ev.weight);
        if (ev.n == 4) add(&sfb, cos_theta_star(&ev) > 0.0 ? ev.weight : -ev.weight);
        if (hepmc && i < 1000) write_hepmc(hepmc, &proc, &ev, i, &sl);
    }
    printf("pp-ll: %ld host events (seed 7), weight unit %.6g pb, largest weight %.6g pb\n",
           events, proc.w_unit, sl.wmax);
    pull("sigma", &sl, sigma_ll);
    spread("sigma", &sl, 0.12, 0.8);
    pull("sigma_F - sigma_B", &sfb, fb_ll);
    if (init(&proc, GAPS_PROCESS_PP_LL, &pdf, 0) != 0) return 1;
    plain_sampling("sigma, rho and y uniform", &proc, events / 10, sigma_ll);

    /* ---------------- refusals ---------------- */
    char msg[256];
    CHECK(gaps_process_init(&proc, GAPS_PROCESS_PP_Z, GAPS_MZ, msg, sizeof msg) == -1,
          "pp-z at sqrt(s) = M_Z accepted");
    CHECK(gaps_process_init(&proc, GAPS_PROCESS_PP_LL, GAPS_PP_LL_M_HI, msg, sizeof msg) == -1,
          "pp-ll at sqrt(s) = the window's upper edge accepted");
    CHECK(gaps_process_init(&proc, GAPS_PROCESS_PP_Z, 91.2, msg, sizeof msg) == 0,
          "pp-z just above M_Z refused: %s", msg);

    /* the configuration: the process's sqrt(s) limit, the PDF set found or refused */
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_config_set_process(&cfg, GAPS_PROCESS_PP_Z);   /* with its defaults (analysis, ...) */
    cfg.ecm = 90.0;
    CHECK(gaps_config_check(&cfg, msg, sizeof msg) == -1, "pp-z at 90 GeV passes the check");
    cfg.ecm = ECM;
    CHECK(gaps_config_check(&cfg, msg, sizeof msg) == 0, "pp-z at 13 TeV refused: %s", msg);
    snprintf(cfg.pdf_path, sizeof cfg.pdf_path, "%s", argv[1]);
    CHECK(gaps_config_check_pdf(&cfg, msg, sizeof msg) == 0, "default set refused: %s", msg);
    snprintf(cfg.pdf, sizeof cfg.pdf, "CT14lo/0");
    CHECK(gaps_config_check_pdf(&cfg, msg, sizeof msg) == 0, "CT14lo/0 refused: %s", msg);
    snprintf(cfg.pdf, sizeof cfg.pdf, "NoSuchSet_gaps_test");
    msg[0] = '\0';
    CHECK(gaps_config_check_pdf(&cfg, msg, sizeof msg) == -1 && strstr(msg, "NoSuchSet_gaps_test")
          && !strchr(msg, '\n'), "a missing set: %s", msg);
    gaps_run run;
    msg[0] = '\0';
    cfg.events = 10;
    CHECK(gaps_generate(&cfg, &run, msg, sizeof msg) == -1 && strstr(msg, "NoSuchSet_gaps_test"),
          "a run with a missing set: '%s'", msg);
    gaps_config_set_process(&cfg, GAPS_PROCESS_EE_QQ);
    cfg.pdf[0] = '\0';
    CHECK(gaps_config_check_pdf(&cfg, msg, sizeof msg) == 0, "e+ e- needs no PDF: %s", msg);

    if (hepmc) {
        gaps_hepmc_write_footer(hepmc);
        if (fclose(hepmc) != 0) CHECK(0, "writing %s failed", argv[3]);
    }
    gaps_pdf_free(&pdf);
    printf("test_pp_processes: %s (%d failures)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
