/* test_isr_sudakov.c -- the k_T^2 of the first initial-state emission of q qbar -> Z and of
 * g g -> H follows the Sudakov form factor built from the same parton densities
 * (doc/physics.md section 15.6).
 *
 * From a fixed Born configuration (flavour f, momentum fractions x_a = x_b = eta, s = M_Z^2)
 * the only dipoles are the two initial-initial ones (emitter q with spectator qbar, emitter
 * qbar with spectator q; the Z has no colour).  doc/physics.md 15.2 gives the density of one
 * (dipole, kernel) as alpha_s(t)/(2 pi) dt/t dz0 V J R with, for II,
 *     t = s v (1 - x - v)/x,  z0 = x + v,  J = 1/(x + v),  R = f_new(eta/x, t)/f_old(eta, t),
 *     V(I_QQ) = C_F [2/(1 - x) - (1 + x)],  V(I_GQ) = T_R [1 - 2 x (1 - x)],
 * radiation above t_min (the set's Q_min^2) and only where eta/x < 1.  This test writes the
 * density in the variables (t, x) instead: dt/t dz0 / z0 = dx dv/(x v), and at fixed x the two
 * solutions v+- of t = s v (1-x-v)/x add up to
 *     rho(t) = alpha_s(t)/(2 pi t) sum_dipoles int_eta^x_max(t) dx
 *              [C_F (1 + x^2) X_q(x) + T_R (1 - x) (x^2 + (1-x)^2) X_g(x)] / w(x),
 *     w = sqrt((1 - x)^2 - 4 x t/s),  x_max = (sqrt(1 + t/s) - sqrt(t/s))^2,
 *     X_q = xf_q(eta/x, t)/xf_q(eta, t),  X_g = xf_g(eta/x, t)/xf_q(eta, t)
 * (R = x X; as t/s -> 0 this is the DGLAP backward density, P_qq X_q + P_gq X_g).  The
 * probability that the first emission lies below t is then
 *     F(t) = exp(-int_t^{t_start} rho),   t_lo <= t <= t_start = M_Z^2,
 * and F(t_lo) that of no emission at all.  t_lo = t_min for light quarks; an incoming b quark
 * has no density below its threshold m_b^2 and the shower stops it heavy_stop m_b^2 (1e-4) above it
 * (doc/physics.md 15.5), so there t_lo = m_b^2 (1 + heavy_stop).
 *
 * g g -> H (x_a = x_b = eta, s = m_H^2, t_start = m_H^2): the gluons carry colours (1, 2) and
 * (2, 1), so each is the emitter of two II dipoles, both with the other gluon as spectator and
 * the same s.  An incoming gluon's kernels (shower/isr.h, dipoles.h) are I_GG (g <- g, a gluon
 * emitted) and one I_QG per new incoming flavour q = -5..-1, 1..5 (g <- q, the quark q
 * emitted), each per dipole with half of Catani-Seymour's weight:
 *     V(I_GG) = C_A [1/(1 - x) + (1 - x)/x - 1 + x (1 - x)],
 *     V(I_QG) = C_F/2 [x + 2 (1 - x)/x]                       (per flavour),
 * J = 1/(x + v) and R = x X with X_g = xf_g(eta/x, t)/xf_g(eta, t) and
 * X_q = xf_q(eta/x, t)/xf_g(eta, t) (the new incoming quark's density: zero below its threshold
 * for c and b).  The same change
 * of variables (dz0 J x -> (1 - x) dx / w, both roots v+- together) gives per gluon, its two
 * dipoles summed,
 *     rho_g(t) = alpha_s(t)/(2 pi t) int_eta^x_max(t) dx
 *                [2 C_A (1-x+x^2)^2/x X_g(x) + C_F (1-x) (1+(1-x)^2)/x sum_q X_q(x)] / w(x)
 * (V(I_GG) (1 - x) = (1 - x + x^2)^2/x; as t/s -> 0 this is P_gg X_g + P_qg sum_q X_q of DGLAP,
 * without the delta term), and rho = rho_g(a) + rho_g(b).
 *
 * The test
 *   1. integrates F numerically (method A: x = x_max e^(-u^2), composite Gauss-Legendre; ln t
 *      split at every Q^2 knot of the set, at the alpha_s thresholds and the phase-space
 *      edges, then a Hermite table) and checks it against method B, the doc's own variables
 *      (z0 and J, Simpson in ln(t - t_thr) and in ln z0 / ln(1 - z0)), and against itself
 *      with refined rules;
 *   2. generates N events per configuration with the production shower functions (the
 *      library's pp-z process with its rapidity range set to 0 and one flavour left, or its
 *      pp-h process with its rapidity range set to 0: every event the same Born kinematics;
 *      the initial-state bounds of gaps_isr_init; default physics: two-loop alpha_s with
 *      thresholds, t_C = 1 GeV^2, no --compat) and records the t of the first accepted
 *      emission (0 if none);
 *   3. compares the sample with F: Kolmogorov-Smirnov distance (the no-emission point mass
 *      included) and a chi^2 of the histogram in ln t (plus the no-emission bin);
 *   4. proves the power of both: the same sample against F without the PDF ratio (R = 1),
 *      without the I_GQ kernel (no incoming gluon; for g g: without the I_QG kernels, no
 *      incoming quark), with the PDFs at t_start (M_Z^2, m_H^2) instead of t, for g g with C_F
 *      in place of C_A in I_GG, and with alpha_s 6 % larger must fail both comparisons (where
 *      a control's merged histogram has no degree of freedom, KS alone).  Also printed, not
 *      required: F in the collinear limit of the II phase space (w -> 1 - x), i.e. plain
 *      DGLAP on the same x range.
 *
 *   5. --vary pdf (doc/physics.md 17.10): for u ubar at x = M_Z/13 TeV and g g -> H at
 *      m_H/13 TeV, a member made here from the set (every gluon density times MEMBER_G, every
 *      quark's times MEMBER_Q: the Hermite table's values and slopes scaled per column, so its
 *      densities are exactly those multiples) is the one variation of a shower run with the
 *      run's headroom (GAPS_VARY_HEADROOM on the coupling and the PDF-ratio bounds, as
 *      generator.c sets them up for --vary); each event's variation weight is read when its
 *      first emission is accepted (or when it ends without one), so that the weighted sample
 *      has the first-emission density of a shower with the member's densities: its weighted
 *      histogram in ln t (the no-emission bin included, the same bins as 3, each bin's
 *      variance the sum of its squared weights) must agree with F of the member (chi^2 p above
 *      P_MIN), and, the controls, the weighted sample against F of the central set and the
 *      unweighted one against F of the member must fail (p below P_MIN).  The gluon's share
 *      moves by MEMBER_G/MEMBER_Q = 1.33: the I_GQ kernel of q qbar and the I_QG kernels of
 *      g g are the ones the member changes.
 *   6. --vary shower's initial-state variations (doc/physics.md 17): for the same two Born
 *      configurations, MUR_ISR=0.5 and MUR_ISR=2 are the variation weights of a shower run
 *      with the bounds generator.c makes for them (the coupling's bound at mu2 = 1/4, floored
 *      at t_C, times GAPS_VARY_HEADROOM); the weighted first-emission spectra must agree with
 *      F of the shower whose coupling is alpha_s(max(k^2 t, t_C)) (chi^2 p above P_MIN), every
 *      weight must be positive and no trial above its bound, and the controls (MUR_ISR=0.5
 *      weighted against the nominal F, the unweighted sample against each varied F) must fail.
 *
 * Usage: test_isr_sudakov [PDFSETS_DIR] (default: LHAPDF_DATA_PATH and the build's paths).
 * For studies, environment variables ISR_SUDAKOV_ONLY=i (configuration i only),
 * ISR_SUDAKOV_EVENTS=N and ISR_SUDAKOV_SEED=S change the run; the test as CI runs it sets none.
 * Exit status 0 if every check passes; each failure is printed.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/alphas.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/event_pool.h"
#include "gaps/pdf.h"
#include "gaps/process.h"
#include "gaps/shower.h"
#include "gaps/vary.h"
#include "gaps_runtime.h"
#include "shower/isr_bounds.h"
#include "shower/vary_bounds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- physics written out here (not taken from the library's headers) ---- */
#define CF (4.0 / 3.0)
#define CA 3.0
#define TR 0.5
#define NF 5                     /* flavours an incoming gluon can come from (I_QG: +-1 .. +-5) */
#define GLUON 21
#define M_H 125.0                /* pp-h's Higgs mass (process/pp_h.h: GAPS_PP_H_MH, checked) */
#define PI 3.14159265358979323846
#define ALPHA_SCALE_WRONG 1.06   /* negative control: alpha_s 6 % larger */

/* ---- statistics ---- */
#ifndef SEED
#define SEED 20250117u
#endif
#define MAX_PARTONS 4       /* q, qbar, Z and the first emission: a second ends the event */
#define MAX_CYCLES 100000   /* guard against a shower that never ends */
#define KS_CRIT 1.95        /* sqrt(N) D exceeds 1.95 with probability 0.1 % (Kolmogorov) */
#define P_MIN 1e-3          /* chi^2 p-value below which the spectrum disagrees */
#define CHI2_BINS 24        /* bins in ln t, before merging bins of few expected */
#define MIN_EXPECTED 20.0
/* step 5: the member's factors (MEMBER_G / MEMBER_Q = 1.33 < GAPS_VARY_HEADROOM, so that
 * every rejected trial's factor stays positive) */
#define MEMBER_G 1.2
#define MEMBER_Q 0.9

/* The Born configurations: flavour (21: g g -> H), eta = M/sqrt(s) for y = 0, events. */
typedef struct config {
    const char *name;
    int flav;
    double eta;
    long n_events;
    int member;   /* 1: also step 5, --vary pdf */
} config;

static const config configs[] = {
    /* central Z at 13 TeV: sea antiquark, the incoming-gluon kernel I_GQ matters */
    { "u ubar, x = M_Z/13 TeV", 2, GAPS_MZ / 13000.0, 200000, 1 },
    /* large x: valence d, the phase space ends below M_Z^2 (x_max(t) = eta at t = 0.41 s) */
    { "d dbar, x = 0.3", 1, 0.3, 100000, 0 },
    /* b bbar: the b density starts at m_b^2, its trials run in t - m_b^2 */
    { "b bbar, x = M_Z/13 TeV", 5, GAPS_MZ / 13000.0, 40000, 0 },
    /* g g -> H at 13 TeV: small x, the gluon's Sudakov exponent is large */
    { "g g -> H, x = m_H/13 TeV", GLUON, M_H / 13000.0, 150000, 1 },
    /* x = 0.1 (sqrt(s) = 1.25 TeV): the g <- q kernels carry more of the rate */
    { "g g -> H, x = 0.1", GLUON, 0.1, 100000, 0 },
    /* x = 0.3 (sqrt(s) = 417 GeV): the phase space ends below m_H^2 */
    { "g g -> H, x = 0.3", GLUON, 0.3, 100000, 0 },
};
#define N_CONFIGS ((int)(sizeof configs / sizeof configs[0]))

#include "check.h"
#include "pdf_set.h"
#include "process/pp_h.h"   /* pp-h's own constants (private header) */
#include "process/pp_z.h"   /* pp-z's own constants (private header) */

/* =========================================================================================
 * The density.  A variant changes one ingredient (the negative controls).
 * ========================================================================================= */
enum variant { V_TRUE = 0, V_NO_PDF_RATIO, V_NO_GQ, V_PDF_AT_MZ, V_COLLINEAR, V_CF_FOR_CA,
               N_VARIANTS };
static const char *variant_name[2][N_VARIANTS] = {
    { "true density", "no PDF ratio (R = 1)", "no I_GQ kernel", "PDFs at mu^2 = M_Z^2, not t",
      "collinear limit w = 1 - x", "-" },
    { "true density", "no PDF ratio (R = 1)", "no I_QG kernels (g <- q)",
      "PDFs at mu^2 = m_H^2, not t", "collinear limit w = 1 - x", "C_F for C_A in I_GG" }
};
/* the controls that must fail; the collinear limit of the II phase space (w -> 1 - x, the
 * same x range) is reported only: how well the test tells the exact map from DGLAP.  The
 * colour-factor control exists for incoming gluons only. */
static const int variant_must_fail[N_VARIANTS] = { 0, 1, 1, 1, 0, 1 };

typedef struct born {
    int pid[2];         /* the incoming quark and antiquark, or the two gluons */
    double eta[2];      /* their momentum fractions */
    double s;           /* 2 p_a.p_b */
    double t_start;     /* the shower's start scale */
    double t_min;       /* dipoles with an incoming leg radiate above it */
    double t_thr;       /* a heavy quark's threshold m^2 (0 for light quarks) */
    double t_lo;        /* lowest scale of an emission */
} born;

typedef struct density {
    const gaps_pdf *pdf;
    const gaps_alphas *as;
    born b;
    int variant;
    gl_rule inner;
    double inner_du;    /* panel width in u, x = x_max e^(-u^2) */
    double mu2;         /* step 6: alpha_s at max(mu2 t, t_C) (0: at t) */
} density;

/* The coupling of the density at t. */
static double coupling(const density *d, double t)
{
    if (d->mu2 > 0.0) return gaps_alphas_value(d->as, fmax(d->mu2 * t, GAPS_DEFAULT_TCUT));
    return gaps_alphas_value(d->as, t);
}

/* int dx [...] / w(x) of one dipole at t (without alpha_s/(2 pi t)). */
static double dipole_integral(const density *d, int i, double t)
{
    const double r = t / d->b.s, sr = sqrt(r), sr1 = sqrt(1.0 + r);
    const double x_max = 1.0 / ((sr1 + sr) * (sr1 + sr)), x_plus = (sr1 + sr) * (sr1 + sr);
    const double eta = d->b.eta[i];
    if (!(x_max > eta)) return 0.0;
    const int pid = d->b.pid[i];
    const double q2 = d->variant == V_PDF_AT_MZ ? d->b.t_start : t;
    const double xf_old = gaps_pdf_xfxq2(d->pdf, pid, eta, q2);
    if (!(xf_old > 0.0)) return 0.0;   /* (the shower rejects such trials too) */
    const double c_gg = d->variant == V_CF_FOR_CA ? CF : CA;
    /* x = x_max e^(-u^2), u in [0, u_max]: dx = 2 u x du, and x_max - x = x_max (1 - e^(-u^2)),
     * so dx / w = 2 x u / sqrt(x_max (1 - e^(-u^2)) (x_plus - x)): smooth at u = 0, where the
     * square-root end of the x range was; ln x is dense near x_max */
    const double u_max = sqrt(log(x_max / eta));
    const int panels = (int)ceil(u_max / d->inner_du);
    const double width = u_max / panels;
    double sum = 0.0;
    for (int p = 0; p < panels; ++p) {
        const double mid = (p + 0.5) * width;
        for (int k = 0; k < d->inner.n; ++k) {
            const double u = mid + 0.5 * width * d->inner.x[k];
            const double e = -expm1(-u * u);   /* 1 - e^(-u^2) */
            const double x = x_max * exp(-u * u);
            double dx_w = 2.0 * x * u / sqrt(x_max * e * (x_plus - x));
            if (d->variant == V_COLLINEAR) dx_w = 2.0 * x * u / (1.0 - x);
            double xf[GAPS_PDF_NPARTONS];
            gaps_pdf_xfxq2_all(d->pdf, eta / x, q2, xf);
            double f;
            if (pid == GLUON) {   /* the two dipoles of the gluon: I_GG and the ten I_QG */
                double Xg = xf[6] / xf_old, Xq = 0.0;
                for (int q = 1; q <= NF; ++q) Xq += (xf[6 + q] + xf[6 - q]) / xf_old;
                if (d->variant == V_NO_PDF_RATIO) { Xg = 1.0 / x; Xq = 2.0 * NF / x; }
                const double a = 1.0 - x + x * x;
                f = 2.0 * c_gg * a * a / x * Xg;
                if (d->variant != V_NO_GQ)
                    f += CF * (1.0 - x) * (1.0 + (1.0 - x) * (1.0 - x)) / x * Xq;
            } else {
                double Xq = xf[pid + 6] / xf_old, Xg = xf[6] / xf_old;
                if (d->variant == V_NO_PDF_RATIO) Xq = Xg = 1.0 / x;   /* R = x X = 1 */
                f = CF * (1.0 + x * x) * Xq;
                if (d->variant != V_NO_GQ)
                    f += TR * (1.0 - x) * (x * x + (1.0 - x) * (1.0 - x)) * Xg;
            }
            sum += d->inner.w[k] * f * dx_w;
        }
    }
    return 0.5 * width * sum;
}

/* rho(t), the density in t. */
static double rho(const density *d, double t)
{
    if (!(t > d->b.t_lo) || t > d->b.t_start) return 0.0;
    const double a = coupling(d, t);
    return a / (2.0 * PI * t) * (dipole_integral(d, 0, t) + dipole_integral(d, 1, t));
}

/* =========================================================================================
 * Method A: the exponent S(t) = int_t^{t_start} rho on a table in l = ln(t - t_thr).
 * dS/dl = -(t - t_thr) rho(t).  The breakpoints are every Q^2 knot of the set, the alpha_s
 * thresholds, t_lo, t_start and the edges t = s (1 - eta)^2/(4 eta) where a dipole's x range
 * closes; inside each interval rho is smooth (a cubic in ln Q^2 from the PDF grid, alpha_s of
 * one region), so Gauss-Legendre on pieces of at most H in l converges fast, and a cubic
 * Hermite polynomial through S and dS/dl at the piece ends (one-sided at the breakpoints)
 * gives S between them.
 * ========================================================================================= */
#define MAX_NODES 4096
typedef struct sudakov {
    density d;
    gl_rule outer;
    int n;                     /* nodes */
    double l[MAX_NODES];       /* ln(t - t_thr), increasing */
    double S[MAX_NODES];       /* S at the node */
    double dlo[MAX_NODES];     /* dS/dl just above the node (piece [k, k+1]) */
    double dhi[MAX_NODES];     /* dS/dl just below the node (piece [k-1, k]) */
} sudakov;

static double dS_dl(const density *d, double l)
{
    const double dt = exp(l), t = d->b.t_thr + dt;
    return -dt * rho(d, t);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The breakpoints in l, sorted, inside [l(t_lo), l(t_start)]. */
static int breakpoints(const density *d, double *bp, int max)
{
    const born *b = &d->b;
    const double lo = log(b->t_lo - b->t_thr), hi = log(b->t_start - b->t_thr);
    int n = 0;
    bp[n++] = lo;
    bp[n++] = hi;
    for (int j = 0; j < d->pdf->nq && n < max - 8; ++j) {
        const double t = exp(d->pdf->lnq2[j]);
        if (t > b->t_lo && t < b->t_start) bp[n++] = log(t - b->t_thr);
    }
    /* the coupling's kinks: its thresholds, and with mu2 the floor */
    const double f = d->mu2 > 0.0 ? d->mu2 : 1.0;
    for (int j = 1; j <= 3; ++j) {
        const double t = j < 3 ? d->as->t_ref[j] / f : (d->mu2 > 0.0 ? GAPS_DEFAULT_TCUT / f : 0.0);
        if (t > b->t_lo && t < b->t_start) bp[n++] = log(t - b->t_thr);
    }
    for (int i = 0; i < 2; ++i) {
        const double t = b->s * (1.0 - b->eta[i]) * (1.0 - b->eta[i]) / (4.0 * b->eta[i]);
        if (t > b->t_lo && t < b->t_start) bp[n++] = log(t - b->t_thr);
    }
    qsort(bp, n, sizeof *bp, cmp_double);
    int m = 0;   /* drop duplicates */
    for (int i = 0; i < n; ++i)
        if (m == 0 || bp[i] > bp[m - 1] + 1e-12) bp[m++] = bp[i];
    return m;
}

static void sudakov_init(sudakov *sd, const density *d, int outer_n, double H)
{
    sd->d = *d;
    sd->outer = gl_make(outer_n);
    double bp[512];
    const int nb = breakpoints(d, bp, 512);
    /* nodes: each breakpoint interval cut into equal pieces of at most H */
    int n = 0;
    for (int i = 0; i + 1 < nb; ++i) {
        const int pieces = (int)ceil((bp[i + 1] - bp[i]) / H);
        for (int k = 0; k < pieces && n < MAX_NODES - 1; ++k)
            sd->l[n++] = bp[i] + (bp[i + 1] - bp[i]) * k / pieces;
    }
    sd->l[n++] = bp[nb - 1];
    sd->n = n;
    /* S from the top down, piece by piece */
    sd->S[n - 1] = 0.0;
    for (int k = n - 2; k >= 0; --k) {
        const double a = sd->l[k], b = sd->l[k + 1], mid = 0.5 * (a + b), half = 0.5 * (b - a);
        double sum = 0.0;
        for (int i = 0; i < sd->outer.n; ++i) sum += sd->outer.w[i] * dS_dl(&sd->d, mid + half * sd->outer.x[i]);
        sd->S[k] = sd->S[k + 1] - half * sum;   /* S(a) = S(b) - int_a^b dS/dl */
        const double eps = 1e-9 * (b - a);
        sd->dlo[k] = dS_dl(&sd->d, a + eps);
        sd->dhi[k + 1] = dS_dl(&sd->d, b - eps);
    }
}

/* S at t (t_lo <= t <= t_start; below t_lo: S(t_lo), above t_start: 0). */
static double sudakov_S(const sudakov *sd, double t)
{
    const born *b = &sd->d.b;
    if (t >= b->t_start) return 0.0;
    if (!(t > b->t_lo)) return sd->S[0];
    const double l = log(t - b->t_thr);
    int lo = 0, hi = sd->n - 1;   /* the piece [lo, lo+1] holding l */
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (sd->l[mid] <= l) lo = mid;
        else hi = mid;
    }
    const double h = sd->l[lo + 1] - sd->l[lo], s = (l - sd->l[lo]) / h;
    const double h00 = (1.0 + 2.0 * s) * (1.0 - s) * (1.0 - s), h10 = s * (1.0 - s) * (1.0 - s);
    const double h01 = s * s * (3.0 - 2.0 * s), h11 = s * s * (s - 1.0);
    return h00 * sd->S[lo] + h10 * h * sd->dlo[lo] + h01 * sd->S[lo + 1] + h11 * h * sd->dhi[lo + 1];
}

/* =========================================================================================
 * Method B (only to check method A): the doc's variables.  At scale t the sampling variable
 * z0 = x + v runs over the interval where x(z0) = z0 (1 - z0)/(1 - z0 + t/s) > eta, with the
 * density (1/t) V(x) J x X, J = 1/z0; Simpson rules in ln z0 below z0 = 1/2 and in -ln(1 - z0)
 * above, and in l = ln(t - t_thr) on every breakpoint interval.
 * ========================================================================================= */
static double simpson_weight(int i, int n) { return (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0); }

static double direct_z0(const density *d, int i, double t, double z0, double omz0)
{
    const double r = t / d->b.s, eta = d->b.eta[i];
    const double x = z0 * omz0 / (omz0 + r);
    if (!(x > eta) || !(x < 1.0)) return 0.0;
    const int pid = d->b.pid[i];
    const double q2 = d->variant == V_PDF_AT_MZ ? d->b.t_start : t;
    const double xf_old = gaps_pdf_xfxq2(d->pdf, pid, eta, q2);
    if (!(xf_old > 0.0)) return 0.0;
    const double J = 1.0 / z0;
    if (pid == GLUON) {   /* isr.h's II kernels of an incoming gluon, on each of its two dipoles */
        double xf[GAPS_PDF_NPARTONS];
        gaps_pdf_xfxq2_all(d->pdf, eta / x, q2, xf);
        double Xg = xf[6] / xf_old, Xq = 0.0;
        for (int q = 1; q <= NF; ++q) Xq += (xf[6 + q] + xf[6 - q]) / xf_old;
        if (d->variant == V_NO_PDF_RATIO) { Xg = 1.0 / x; Xq = 2.0 * NF / x; }
        const double c_gg = d->variant == V_CF_FOR_CA ? CF : CA;
        double f = c_gg * (1.0 / (1.0 - x) + (1.0 - x) / x - 1.0 + x * (1.0 - x)) * J * x * Xg;
        if (d->variant != V_NO_GQ) f += 0.5 * CF * (x + 2.0 * (1.0 - x) / x) * J * x * Xq;
        return 2.0 * f;
    }
    double Xq = gaps_pdf_xfxq2(d->pdf, pid, eta / x, q2) / xf_old;
    double Xg = gaps_pdf_xfxq2(d->pdf, 21, eta / x, q2) / xf_old;
    if (d->variant == V_NO_PDF_RATIO) Xq = Xg = 1.0 / x;
    double f = CF * (2.0 / (1.0 - x) - (1.0 + x)) * J * x * Xq;
    if (d->variant != V_NO_GQ) f += TR * (1.0 - 2.0 * x * (1.0 - x)) * J * x * Xg;
    return f;
}

static double direct_inner(const density *d, int i, double t, int n)
{
    const double r = t / d->b.s, eta = d->b.eta[i];
    const double disc = (1.0 - eta) * (1.0 - eta) - 4.0 * eta * r;
    if (!(disc > 0.0)) return 0.0;
    const double root = sqrt(disc);
    /* z0 of x = eta: (1 + eta -+ root)/2, the lower one without cancellation */
    const double zm = 2.0 * eta * (1.0 + r) / (1.0 + eta + root), zp = 0.5 * (1.0 + eta + root);
    double sum = 0.0;
    if (zm < 0.5) {   /* ln z0 from ln zm to ln min(zp, 1/2) */
        const double a = log(zm), b = log(fmin(zp, 0.5)), h = (b - a) / n;
        double s = 0.0;
        for (int k = 0; k <= n; ++k) {
            const double z = exp(a + k * h);
            s += simpson_weight(k, n) * direct_z0(d, i, t, z, 1.0 - z) * z;
        }
        sum += s * h / 3.0;
    }
    if (zp > 0.5) {   /* w = -ln(1 - z0) from -ln(1 - max(zm, 1/2)) to -ln(1 - zp) */
        const double a = -log1p(-fmax(zm, 0.5)), b = -log1p(-zp), h = (b - a) / n;
        double s = 0.0;
        for (int k = 0; k <= n; ++k) {
            const double omz = exp(-(a + k * h));
            s += simpson_weight(k, n) * direct_z0(d, i, t, 1.0 - omz, omz) * omz;
        }
        sum += s * h / 3.0;
    }
    return sum;
}

static double direct_dS_dl(const density *d, double l, int n)
{
    const double dt = exp(l), t = d->b.t_thr + dt;
    if (!(t > d->b.t_lo) || t > d->b.t_start) return 0.0;
    return -dt * coupling(d, t) / (2.0 * PI * t)
           * (direct_inner(d, 0, t, n) + direct_inner(d, 1, t, n));
}

/* S at every breakpoint, by Simpson with n_outer intervals per breakpoint interval. */
static int direct_S(const density *d, int n_outer, int n_inner, double *l_out, double *S_out)
{
    double bp[512];
    const int nb = breakpoints(d, bp, 512);
    S_out[nb - 1] = 0.0;
    l_out[nb - 1] = bp[nb - 1];
    for (int i = nb - 2; i >= 0; --i) {
        const double a = bp[i], b = bp[i + 1], h = (b - a) / n_outer, eps = 1e-9 * (b - a);
        double s = 0.0;
        for (int k = 0; k <= n_outer; ++k) {
            double l = a + k * h;
            if (k == 0) l += eps;          /* one-sided at the breakpoints */
            if (k == n_outer) l -= eps;
            s += simpson_weight(k, n_outer) * direct_dS_dl(d, l, n_inner);
        }
        S_out[i] = S_out[i + 1] - s * h / 3.0;
        l_out[i] = a;
    }
    return nb;
}

/* =========================================================================================
 * Statistics.
 * ========================================================================================= */

/* Kolmogorov-Smirnov distance of the sorted sample x (zeros first: no emission) from
 * F = exp(-scale S); S[i] = S at x[i]; S_lo = S(t_lo) (F there = the no-emission probability). */
static double ks_distance(const double *x, const double *S, long n, double S_lo, double scale)
{
    long n0 = 0;
    while (n0 < n && x[n0] == 0.0) ++n0;
    double d = fabs((double)n0 / n - exp(-scale * S_lo));
    for (long i = n0; i < n; ++i) {
        const double F = exp(-scale * S[i]);
        const double up = (double)(i + 1) / n - F, down = F - (double)i / n;
        if (up > d) d = up;
        if (down > d) d = down;
    }
    return d;
}

/* Regularised upper incomplete gamma Q(a, x) (series below a + 1, continued fraction above). */
static double gamma_q(double a, double x)
{
    if (!(x > 0.0)) return 1.0;
    const double lg = lgamma(a);
    if (x < a + 1.0) {
        double ap = a, del = 1.0 / a, sum = del;
        for (int n = 0; n < 10000; ++n) {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if (fabs(del) < fabs(sum) * 1e-15) break;
        }
        return 1.0 - sum * exp(-x + a * log(x) - lg);
    }
    double b = x + 1.0 - a, c = 1.0 / 1e-300, dd = 1.0 / b, h = dd;
    for (int i = 1; i < 10000; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        dd = an * dd + b;
        if (fabs(dd) < 1e-300) dd = 1e-300;
        c = b + an / c;
        if (fabs(c) < 1e-300) c = 1e-300;
        dd = 1.0 / dd;
        const double del = dd * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-15) break;
    }
    return exp(-x + a * log(x) - lg) * h;
}

/* The chi^2 of the histogram of the sorted sample against F = exp(-scale S): the no-emission
 * bin and CHI2_BINS bins equal in ln t between t_lo and the highest scale with
 * density, neighbours merged until each expects MIN_EXPECTED events.  Returns chi^2, *ndf. */
static double chi2_spectrum(const sudakov *sd, const double *x, long n, double scale, int *ndf,
                            int print)
{
    const born *b = &sd->d.b;
    double t_top = b->t_start;   /* the highest scale where a dipole can emit */
    double t_edge = 0.0;
    for (int i = 0; i < 2; ++i)
        t_edge = fmax(t_edge, b->s * (1.0 - b->eta[i]) * (1.0 - b->eta[i]) / (4.0 * b->eta[i]));
    if (t_edge < t_top) t_top = t_edge;
    const double l0 = log(b->t_lo), l1 = log(t_top);
    double edge[CHI2_BINS + 1], expect[CHI2_BINS + 2];
    long count[CHI2_BINS + 2];
    for (int k = 0; k <= CHI2_BINS; ++k) edge[k] = exp(l0 + (l1 - l0) * k / CHI2_BINS);
    edge[0] = b->t_lo;
    edge[CHI2_BINS] = t_top;
    /* bin 0: no emission; bin k: (edge[k-1], edge[k]] */
    expect[0] = n * exp(-scale * sudakov_S(sd, b->t_lo));
    for (int k = 1; k <= CHI2_BINS; ++k)
        expect[k] = n * (exp(-scale * sudakov_S(sd, edge[k])) - exp(-scale * sudakov_S(sd, edge[k - 1])));
    for (int k = 0; k <= CHI2_BINS; ++k) count[k] = 0;
    long above = 0;
    for (long i = 0; i < n; ++i) {
        if (x[i] == 0.0) { ++count[0]; continue; }
        int k = 1;
        while (k < CHI2_BINS && x[i] > edge[k]) ++k;
        if (x[i] > edge[CHI2_BINS]) ++above;
        ++count[k];
    }
    /* merge from the top down: a bin with too few expected joins the one below it */
    double e_m[CHI2_BINS + 2];
    long c_m[CHI2_BINS + 2];
    int m = 0;
    double e_acc = 0.0;
    long c_acc = 0;
    for (int k = CHI2_BINS; k >= 1; --k) {
        e_acc += expect[k];
        c_acc += count[k];
        if (e_acc >= MIN_EXPECTED) { e_m[m] = e_acc; c_m[m] = c_acc; ++m; e_acc = 0.0; c_acc = 0; }
    }
    if (c_acc > 0 || e_acc > 0.0) {   /* rest joins the lowest bin formed */
        if (m > 0) { e_m[m - 1] += e_acc; c_m[m - 1] += c_acc; }
        else { e_m[m] = e_acc; c_m[m] = c_acc; ++m; }
    }
    int bins = m;
    double chi2 = 0.0;
    if (expect[0] >= MIN_EXPECTED) {   /* the no-emission bin, where it is not empty */
        chi2 += (count[0] - expect[0]) * (count[0] - expect[0]) / expect[0];
        ++bins;
    } else if (m > 0) {                /* otherwise it joins the lowest bin */
        const double e = e_m[m - 1] + expect[0];
        const long c = c_m[m - 1] + count[0];
        e_m[m - 1] = e;
        c_m[m - 1] = c;
    }
    for (int k = 0; k < m; ++k) chi2 += (c_m[k] - e_m[k]) * (c_m[k] - e_m[k]) / e_m[k];
    if (above) chi2 += 1e30;   /* an emission where no dipole can emit */
    *ndf = bins - 1;
    if (print) {
        printf("    histogram (t in GeV^2: generated / expected):\n");
        printf("      none: %ld / %.1f\n", count[0], expect[0]);
        for (int k = 1; k <= CHI2_BINS; ++k)
            printf("      %9.4g - %9.4g: %6ld / %8.1f  (%+.2f sigma)\n", edge[k - 1], edge[k],
                   count[k], expect[k],
                   expect[k] > 0.0 ? (count[k] - expect[k]) / sqrt(expect[k]) : 0.0);
    }
    return chi2;
}

/* =========================================================================================
 * Generation: the production shower on a pool of N slots, every slot the same Born event.
 *
 * The library's pp-z process draws y in [-y_max, y_max] (uniformly when no importance table
 * was prepared, y_bins = 0) and then one of the ten (flavour, orientation) channels with
 * probability proportional to norm[f] x_a f(x_a) x_b f(x_b).  With y_max = 0 every event has
 * y = 0, x_a = x_b = M_Z/sqrt(s), and with norm[f] = 0 for the other flavours every event is
 * f fbar -> Z (the quark along +z or along -z: mirror images, the same shower).  pp-h has one
 * channel, g g -> H, and the same rapidity sampling: y_max = 0 makes every event g g -> H at
 * x_a = x_b = m_H/sqrt(s).  The test reads the started events back and checks exactly that.
 * Then, as in test_sudakov.c, the four veto steps run over all slots; the cycle after which a
 * slot first holds n = 4 partons is the one whose emission was accepted, and the slot's t is
 * its scale.  The record has room for one emission only, so a slot ends at its second
 * accepted emission.
 * ========================================================================================= */
typedef struct gen_result {
    double seconds;
    int cycles;
    unsigned long long overestimate;   /* trials with f/g > 1 (GAPS_COUNT_OVERESTIMATE) */
    born b;                            /* the Born configuration read back from the pool */
} gen_result;

static unsigned seed = SEED;

/* The variations of step 6: mu_R of the initial-state shower times 1/2 and 2. */
static const double mur_vary_k2[2] = { 0.25, 4.0 };

static int generate(const gaps_pdf *host_pdf, const config *cf, double *first_t,
                    gen_result *res, const gaps_pdf *member, int mur_vary, double *w)
{
    const long N = cf->n_events;
    gaps_physics phys;   /* as generator.c's physics_init, default physics */
    memset(&phys, 0, sizeof phys);
    char why[256];
    const int higgs = cf->flav == GLUON;
    const double ecm = (higgs ? M_H : GAPS_MZ) / cf->eta;
    if (gaps_process_init(&phys.proc, higgs ? GAPS_PROCESS_PP_H : GAPS_PROCESS_PP_Z, ecm, why,
                          sizeof why) != 0) {
        printf("FAIL: %s\n", why);
        return -1;
    }
    if (higgs) {
        gaps_pp_h *pph = GAPS_PROCESS_DATA(gaps_pp_h, &phys.proc);
        CHECK(pph->mh2 == M_H * M_H, "pp-h's m_H^2 is %g, the test's %g", pph->mh2, M_H * M_H);
        pph->y_max = 0.0;   /* y = 0: x_a = x_b = m_H/sqrt(s) */
        pph->y_bins = 0;
    } else {
        gaps_pp_z *ppz = &GAPS_PROCESS_DATA(gaps_pp_z_data, &phys.proc)->lo;
        ppz->y_max = 0.0;   /* y = 0: x_a = x_b = M_Z/sqrt(s) */
        ppz->y_bins = 0;
        for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
            if (f != cf->flav) ppz->norm[f] = 0.0;
    }
    gaps_alphas_init(&phys.as, 2, GAPS_DEFAULT_ALPHAS_MZ);
    phys.t_cut = GAPS_DEFAULT_TCUT;
    /* with a member (step 5): one variation weight and the run's headroom (generator.c);
     * with mu_R variations (step 6), two, and the bounds generator.c makes for them: the
     * coupling's at mu2 = 1/4 (floored at t_C) times the headroom */
    const double headroom = member || mur_vary ? GAPS_VARY_HEADROOM : 1.0;
    const double mu2_bound = mur_vary ? mur_vary_k2[0] : 1.0;
    phys.a_max = headroom * gaps_alphas_value(&phys.as, phys.t_cut);
    const int n_vary = member ? 1 : mur_vary ? 2 : 0;
    phys.seed = seed;
    phys.end_event = N;
    gaps_pdf member_view;
    memset(&member_view, 0, sizeof member_view);
    gaps_pdf *member_dev = NULL;
    if (member) {
        phys.n_vary = 1;
        phys.vary_shower = 1;
        phys.vary_pdf_member[0] = 1;
        if (gaps_pdf_to_device(member, &member_view) != 0
            || !(member_dev = gaps_device_copy(&member_view, sizeof member_view))) {
            printf("FAIL: the member where the loops run\n");
            return -1;
        }
        phys.vary_pdf[0] = member_dev;
    }
    if (mur_vary) {
        phys.n_vary = 2;
        phys.vary_shower = 1;
        for (int v = 0; v < 2; ++v) {
            phys.vary_mu2[v][0] = 1.0;   /* the final-state shower: none here */
            phys.vary_mu2[v][1] = mur_vary_k2[v];
        }
        gaps_vary_prepare(&phys);
    }

    double *table = NULL;
    gaps_pdf view;
    memset(&view, 0, sizeof view);
    double *bound_dev = NULL;
    gaps_pdf *pdf_dev = NULL;
    int ok = gaps_isr_init_scaled(&phys.isr, host_pdf, &phys.as, mu2_bound, headroom,
                                  GAPS_COMPAT_NONE, phys.t_cut, ecm * ecm, &table) == 0
             && (bound_dev = gaps_device_copy(table, gaps_isr_table_bytes(&phys.isr))) != NULL
             && gaps_pdf_to_device(host_pdf, &view) == 0
             && (pdf_dev = gaps_device_copy(&view, sizeof view)) != NULL;
    free(table);
    phys.isr.bound = bound_dev;
    phys.proc.pdf = pdf_dev;

    gaps_pool pool;
    if (!ok || gaps_pool_create(&pool, (int)N, MAX_PARTONS, NULL) != 0
        || gaps_pool_alloc_vary(&pool, phys.n_vary) != 0) {
        printf("FAIL: cannot set up the physics or the pool\n");
        return -1;
    }
    gaps_pool *pool_dev = gaps_device_copy(&pool, sizeof pool);
    gaps_physics *phys_dev = gaps_device_copy(&phys, sizeof phys);
    int *n = malloc(N * sizeof *n), *status = malloc(N * sizeof *status);
    int *flav = malloc(2 * N * sizeof *flav);
    double *t = malloc(N * sizeof *t), *xin = malloc(2 * N * sizeof *xin);
    double *E = malloc(2 * N * sizeof *E), *pz = malloc(2 * N * sizeof *pz);
    char *recorded = calloc(N, 1);
    double *vw = n_vary ? malloc(n_vary * N * sizeof *vw) : NULL;
    int rc = (pool_dev && phys_dev && n && status && flav && t && xin && E && pz && recorded
              && (vw || !n_vary)) ? 0 : -1;
    if (rc) printf("FAIL: out of memory\n");

    const double t0 = test_now();
    long remaining = N, bad = 0;
    int cycles = 0;
    if (rc == 0) {
        gaps_shower_launch_refill(pool_dev, phys_dev, (int)N, GAPS_LAUNCH_GENERAL, 0);
        unsigned long long c[GAPS_N_COUNTERS];
        gaps_pool_read_counters(&pool, c);
        CHECK(c[GAPS_COUNT_STARTED] == (unsigned long long)N, "%llu events started, want %ld",
              c[GAPS_COUNT_STARTED], N);
        /* every event the same Born configuration */
        gaps_device_to_host(n, pool.n, N * sizeof *n);
        gaps_device_to_host(flav, pool.flav, 2 * N * sizeof *flav);
        gaps_device_to_host(xin, pool.x_in, 2 * N * sizeof *xin);
        gaps_device_to_host(E, pool.E, 2 * N * sizeof *E);
        gaps_device_to_host(pz, pool.pz, 2 * N * sizeof *pz);
        long wrong = 0;
        const double x_ref = xin[0];
        for (long e = 0; e < N; ++e)
            if (n[e] != 3 || xin[e] != x_ref || xin[N + e] != x_ref
                || (higgs ? flav[e] != GLUON || flav[N + e] != GLUON
                          : flav[e] != -flav[N + e] || abs(flav[e]) != cf->flav))
                ++wrong;
        CHECK(wrong == 0, "%ld events are not %d %d -> %s at x = %.6g", wrong, cf->flav,
              higgs ? GLUON : -cf->flav, higgs ? "H" : "Z", x_ref);
        /* the dipoles' s = 2 p_a.p_b (both along the beam, opposite directions) */
        const double s = 2.0 * (E[0] * E[N] - pz[0] * pz[N]);
        res->b.pid[0] = cf->flav;
        res->b.pid[1] = higgs ? GLUON : -cf->flav;
        res->b.eta[0] = res->b.eta[1] = x_ref;
        res->b.s = s;
        /* pp_z.c: t_start = M_Z^2; pp_h.c: t_start = m_H^2 */
        res->b.t_start = higgs ? M_H * M_H : GAPS_MZ * GAPS_MZ;
        res->b.t_min = phys.isr.t_min;
        res->b.t_thr = !higgs && cf->flav >= 4 ? phys.isr.m2[cf->flav] : 0.0;
        res->b.t_lo = res->b.t_thr > 0.0 ? res->b.t_thr * (1.0 + phys.isr.heavy_stop) : res->b.t_min;
        if (res->b.t_lo < res->b.t_min) res->b.t_lo = res->b.t_min;
        if (wrong) rc = -1;
    }
    while (rc == 0 && remaining > 0 && cycles < MAX_CYCLES) {
        const int showering = gaps_shower_gather(&pool, pool_dev, (int)N);
        for (int step = 0; step < GAPS_N_VETO_STEPS; ++step)
            gaps_shower_launch_step(pool_dev, phys_dev, showering, (enum gaps_veto_step)step,
                                    gaps_runtime_event_lanes(showering));
        ++cycles;
        gaps_device_to_host(n, pool.n, N * sizeof *n);
        gaps_device_to_host(status, pool.status, N * sizeof *status);
        gaps_device_to_host(t, pool.t, N * sizeof *t);
        if (n_vary) gaps_device_to_host(vw, pool.vary_w, n_vary * N * sizeof *vw);
        for (long e = 0; e < N; ++e) {
            if (recorded[e]) continue;
            /* kept only where the event is recorded now */
            for (int v = 0; v < n_vary; ++v) w[v * N + e] = vw[v * N + e];
            if (n[e] == 4) {
                first_t[e] = t[e];
                recorded[e] = 1;
                --remaining;
                if (!(t[e] > res->b.t_lo && t[e] <= res->b.t_start)) ++bad;
            } else if (n[e] != 3) {
                ++bad;
                recorded[e] = 1;
                --remaining;
            } else if (status[e] != GAPS_SLOT_SHOWERING) {
                first_t[e] = 0.0;
                recorded[e] = 1;
                --remaining;
            }
        }
    }
    res->seconds = test_now() - t0;
    res->cycles = cycles;
    unsigned long long c[GAPS_N_COUNTERS];
    gaps_pool_read_counters(&pool, c);
    res->overestimate = c[GAPS_COUNT_OVERESTIMATE];
    if (rc == 0) {
        CHECK(remaining == 0, "%ld events still without a first emission after %d cycles",
              remaining, cycles);
        CHECK(bad == 0, "%ld events with an impossible first emission", bad);
    }
    free(n);
    free(status);
    free(flav);
    free(t);
    free(xin);
    free(E);
    free(pz);
    free(recorded);
    free(vw);
    gaps_device_free(pool_dev);
    gaps_device_free(phys_dev);
    gaps_pool_destroy(&pool);
    gaps_device_free(member_dev);
    gaps_pdf_device_free(&member_view);
    gaps_device_free(pdf_dev);
    gaps_pdf_device_free(&view);
    gaps_device_free(bound_dev);
    return rc == 0 && remaining == 0 && bad == 0 ? 0 : -1;
}

/* Step 5: the weighted histogram of first-emission scales x (weights w; NULL: 1) against
 * F = exp(-S) of sd, in the bins of chi2_spectrum (the no-emission bin, CHI2_BINS in ln t,
 * merged from the top until each expects MIN_EXPECTED events), each bin's variance the sum of
 * its squared weights (the merged bins' variances add).  Returns chi^2, *ndf (the bins: the
 * weights' total is free). */
static double chi2_weighted(const sudakov *sd, const double *x, const double *w, long n,
                            int *ndf)
{
    const born *b = &sd->d.b;
    double t_top = b->t_start, t_edge = 0.0;   /* as chi2_spectrum */
    for (int i = 0; i < 2; ++i)
        t_edge = fmax(t_edge, b->s * (1.0 - b->eta[i]) * (1.0 - b->eta[i]) / (4.0 * b->eta[i]));
    if (t_edge < t_top) t_top = t_edge;
    const double l0 = log(b->t_lo), l1 = log(t_top);
    double edge[CHI2_BINS + 1], expect[CHI2_BINS + 1], sw[CHI2_BINS + 1], sw2[CHI2_BINS + 1];
    for (int k = 0; k <= CHI2_BINS; ++k) edge[k] = exp(l0 + (l1 - l0) * k / CHI2_BINS);
    edge[0] = b->t_lo;
    edge[CHI2_BINS] = t_top;
    expect[0] = n * exp(-sudakov_S(sd, b->t_lo));
    for (int k = 1; k <= CHI2_BINS; ++k)
        expect[k] = n * (exp(-sudakov_S(sd, edge[k])) - exp(-sudakov_S(sd, edge[k - 1])));
    for (int k = 0; k <= CHI2_BINS; ++k) sw[k] = sw2[k] = 0.0;
    for (long i = 0; i < n; ++i) {
        const double wi = w ? w[i] : 1.0;
        int k = 0;
        if (x[i] != 0.0) {
            k = 1;
            while (k < CHI2_BINS && x[i] > edge[k]) ++k;
        }
        sw[k] += wi;
        sw2[k] += wi * wi;
    }
    double chi2 = 0.0, e_acc = 0.0, w_acc = 0.0, v_acc = 0.0;
    int bins = 0;
    for (int k = CHI2_BINS; k >= 0; --k) {   /* from the top down, the no-emission bin last */
        e_acc += expect[k];
        w_acc += sw[k];
        v_acc += sw2[k];
        if ((e_acc >= MIN_EXPECTED || k == 0) && v_acc > 0.0) {
            chi2 += (w_acc - e_acc) * (w_acc - e_acc) / v_acc;
            ++bins;
            e_acc = w_acc = v_acc = 0.0;
        }
    }
    *ndf = bins;
    return chi2;
}

/* Scale the columns of a loaded set: every gluon density times g, every quark's times q
 * (values and slopes of the Hermite table alike: the interpolated density is exactly
 * multiplied, below x_min too). */
static void scale_columns(gaps_pdf *pdf, double g, double q)
{
    const size_t cells = (size_t)pdf->nq * (pdf->nx - 1);
    for (size_t c = 0; c < cells; ++c)
        for (int k = 0; k < pdf->nfl; ++k) {
            const double f = pdf->pid[k] == GLUON || pdf->pid[k] == 0 ? g : q;
            double *h = pdf->hermite + (c * pdf->nfl + k) * 4;
            for (int j = 0; j < 4; ++j) h[j] *= f;
        }
}

/* Step 5 for one configuration. */
/* A weighted sample's checks of steps 5 and 6: each against its Sudakov form factor, where
 * the right one must pass and the wrong ones (the controls) must fail. */
typedef struct weighted_check {
    const char *what;
    const sudakov *sd;
    const double *weights;   /* NULL: the sample unweighted */
    int must_pass;
} weighted_check;

static void check_weighted(const config *cf, const char *option, const weighted_check *c,
                           int n_checks, const double *x, long N)
{
    for (int i = 0; i < n_checks; ++i) {
        int ndf;
        const double chi2 = chi2_weighted(c[i].sd, x, c[i].weights, N, &ndf);
        const double p = gamma_q(0.5 * ndf, 0.5 * chi2);
        printf("  %-40s chi2/ndf = %9.1f/%d  p = %.3g\n", c[i].what, chi2, ndf, p);
        if (c[i].must_pass)
            CHECK(p > P_MIN, "%s: %s: %s: p = %.2g < %g", cf->name, option, c[i].what, p,
                  P_MIN);
        else
            CHECK(p < P_MIN, "%s: %s: no power: %s passes (p = %.2g)", cf->name, option,
                  c[i].what, p);
    }
}

static void run_member(const gaps_pdf *pdf, const gaps_pdf *member, const gaps_alphas *as,
                       const config *cf)
{
    const long N = cf->n_events;
    double *x = malloc(N * sizeof *x), *w = malloc(N * sizeof *w);
    gen_result gr;
    memset(&gr, 0, sizeof gr);
    if (!x || !w || generate(pdf, cf, x, &gr, member, 0, w) != 0) {
        printf("FAIL: generation with a member\n");
        ++failures;
        free(x);
        free(w);
        return;
    }
    static sudakov sd_member, sd_central;
    density dm = { member, as, gr.b, V_TRUE, gl_make(8), 0.25, 0.0 };
    density dc = { pdf, as, gr.b, V_TRUE, gl_make(8), 0.25, 0.0 };
    sudakov_init(&sd_member, &dm, 6, 0.05);
    sudakov_init(&sd_central, &dc, 6, 0.05);
    double sw = 0.0, sw2 = 0.0, wmin = INFINITY, wmax = -INFINITY;
    for (long i = 0; i < N; ++i) {
        sw += w[i];
        sw2 += w[i] * w[i];
        wmin = fmin(wmin, w[i]);
        wmax = fmax(wmax, w[i]);
    }
    printf("  --vary pdf (gluons x %.2f, quarks x %.2f): %ld events, weights %.4f .. %.4f, "
           "mean %.5f, %d veto cycles; F(t_lo) member %.5f, central %.5f\n", MEMBER_G,
           MEMBER_Q, N, wmin, wmax, sw / N, gr.cycles,
           exp(-sudakov_S(&sd_member, gr.b.t_lo)), exp(-sudakov_S(&sd_central, gr.b.t_lo)));
    CHECK(wmin > 0.0, "%s: a non-positive variation weight (%g): a rejected factor below 0",
          cf->name, wmin);
    const weighted_check c[3] = {
        { "weighted against F of the member", &sd_member, w, 1 },
        { "weighted against F of the central set", &sd_central, w, 0 },
        { "unweighted against F of the member", &sd_member, NULL, 0 } };
    check_weighted(cf, "--vary pdf", c, 3, x, N);
    printf("  effective events of the weights: %.0f of %ld\n", sw * sw / sw2, N);
    free(x);
    free(w);
}

/* Step 6: the mu_R variations of the initial-state shower, k = 1/2 and 2, with the bounds of
 * a --vary shower run: the weighted samples against F with alpha_s at max(k^2 t, t_C). */
static void run_mur(const gaps_pdf *pdf, const gaps_alphas *as, const config *cf)
{
    const long N = cf->n_events;
    double *x = malloc(N * sizeof *x), *w = malloc(2 * N * sizeof *w);
    gen_result gr;
    memset(&gr, 0, sizeof gr);
    if (!x || !w || generate(pdf, cf, x, &gr, NULL, 1, w) != 0) {
        printf("FAIL: generation with mu_R variations\n");
        ++failures;
        free(x);
        free(w);
        return;
    }
    static sudakov sd_down, sd_up, sd_nominal;
    density dd = { pdf, as, gr.b, V_TRUE, gl_make(8), 0.25, mur_vary_k2[0] };
    density du = { pdf, as, gr.b, V_TRUE, gl_make(8), 0.25, mur_vary_k2[1] };
    density dn = { pdf, as, gr.b, V_TRUE, gl_make(8), 0.25, 0.0 };
    sudakov_init(&sd_down, &dd, 6, 0.05);
    sudakov_init(&sd_up, &du, 6, 0.05);
    sudakov_init(&sd_nominal, &dn, 6, 0.05);
    double wmin = INFINITY, wmax = -INFINITY;
    for (long i = 0; i < 2 * N; ++i) {
        wmin = fmin(wmin, w[i]);
        wmax = fmax(wmax, w[i]);
    }
    printf("  --vary shower, MUR_ISR = 0.5, 2: %ld events, weights %.4f .. %.4f, %d veto cycles, "
           "%llu trials above their bound; F(t_lo) %.5f, %.5f (nominal %.5f)\n", N, wmin,
           wmax, gr.cycles, gr.overestimate,
           exp(-sudakov_S(&sd_down, gr.b.t_lo)), exp(-sudakov_S(&sd_up, gr.b.t_lo)),
           exp(-sudakov_S(&sd_nominal, gr.b.t_lo)));
    CHECK(wmin > 0.0, "%s: a non-positive variation weight (%g): a rejected factor below 0",
          cf->name, wmin);
    CHECK(gr.overestimate == 0, "%s: %llu trials above their bounds", cf->name,
          gr.overestimate);
    const weighted_check c[5] = {
        { "MUR_ISR=0.5 weighted against its F", &sd_down, w, 1 },
        { "MUR_ISR=2 weighted against its F", &sd_up, w + N, 1 },
        { "MUR_ISR=0.5 weighted against F nominal", &sd_nominal, w, 0 },
        { "unweighted against F of MUR_ISR=0.5", &sd_down, NULL, 0 },
        { "unweighted against F of MUR_ISR=2", &sd_up, NULL, 0 } };
    check_weighted(cf, "--vary shower", c, 5, x, N);
    free(x);
    free(w);
}

/* =========================================================================================
 * One configuration: integrate, generate, compare.
 * ========================================================================================= */
static void run_config(const gaps_pdf *pdf, const gaps_alphas *as, const config *cf)
{
    const long N = cf->n_events;
    printf("\n== %s: %ld events ==\n", cf->name, N);
    double *x = malloc(N * sizeof *x), *S = malloc(N * sizeof *S);
    gen_result gr;
    memset(&gr, 0, sizeof gr);
    if (!x || !S || generate(pdf, cf, x, &gr, NULL, 0, NULL) != 0) {
        printf("FAIL: generation\n");
        ++failures;
        free(x);
        free(S);
        return;
    }
    const born *b = &gr.b;
    printf("  Born: %d %d at x = %.8g each, s = %.6f GeV^2; t_start %.4f, t_lo %.6f GeV^2 "
           "(t_min %.4f, threshold %.4f)\n", b->pid[0], b->pid[1], b->eta[0], b->s,
           b->t_start, b->t_lo, b->t_min, b->t_thr);
    printf("  generated in %.2f s, %d veto cycles; trials with f/g > 1: %llu\n", gr.seconds,
           gr.cycles, gr.overestimate);

    /* ---- 1. F, and checks of its integration ---- */
    const double ti = test_now();
    static sudakov sd[N_VARIANTS], fine;
    const int gluons = b->pid[0] == GLUON;
    const int n_variants = gluons ? N_VARIANTS : V_CF_FOR_CA;   /* C_F for C_A: gluons only */
    for (int v = 0; v < n_variants; ++v) {
        density d = { pdf, as, *b, v, gl_make(8), 0.25, 0.0 };
        sudakov_init(&sd[v], &d, 6, 0.05);
    }
    {
        density d = { pdf, as, *b, V_TRUE, gl_make(12), 0.125, 0.0 };
        sudakov_init(&fine, &d, 10, 0.025);
    }
    double worst_fine = 0.0, worst_direct = 0.0;
    {
        static double lB[512], SB[512];
        density d = { pdf, as, *b, V_TRUE, gl_make(8), 0.25, 0.0 };
        const int nb = direct_S(&d, 16, 400, lB, SB);
        for (int i = 0; i < nb; ++i) {
            const double t = b->t_thr + exp(lB[i]);
            const double FA = exp(-sudakov_S(&sd[V_TRUE], t)), Ff = exp(-sudakov_S(&fine, t));
            worst_fine = fmax(worst_fine, fabs(FA - Ff));
            worst_direct = fmax(worst_direct, fabs(FA - exp(-SB[i])));
        }
        /* between the nodes, where both tables interpolate (on different nodes) */
        const double l0 = log(b->t_lo - b->t_thr), l1 = log(b->t_start - b->t_thr);
        for (int k = 1; k < 997; ++k) {
            const double t = b->t_thr + exp(l0 + (l1 - l0) * k / 997.0);
            worst_fine = fmax(worst_fine, fabs(exp(-sudakov_S(&sd[V_TRUE], t))
                                               - exp(-sudakov_S(&fine, t))));
        }
        printf("  F(t_lo) = %.6g (no emission), F(100) = %.6f, F(1000) = %.6f\n",
               exp(-sudakov_S(&sd[V_TRUE], b->t_lo)), exp(-sudakov_S(&sd[V_TRUE], 100.0)),
               exp(-sudakov_S(&sd[V_TRUE], 1000.0)));
        printf("  integration: refined rules change F by %.2e (at 996 scales and the "
               "breakpoints), method B differs by %.2e (at %d breakpoints), %.2f s\n",
               worst_fine, worst_direct, nb, test_now() - ti);
    }
    CHECK(worst_fine < 1e-6, "%s: the integration has not converged (%.2e)", cf->name, worst_fine);
    CHECK(worst_direct < 1e-5, "%s: the two integrations disagree (%.2e)", cf->name, worst_direct);

    /* ---- 2. KS and chi^2 ---- */
    qsort(x, N, sizeof *x, cmp_double);
    const double crit = KS_CRIT / sqrt((double)N);
    printf("  KS: sqrt(N) D against the critical value %.2f; chi^2: p against %g\n", KS_CRIT,
           P_MIN);
    for (int v = 0; v < n_variants; ++v) {
        for (long i = 0; i < N; ++i) S[i] = sudakov_S(&sd[v], x[i]);
        const int nscale = v == V_TRUE ? 2 : 1;
        for (int sc = 0; sc < nscale; ++sc) {
            const double scale = sc ? ALPHA_SCALE_WRONG : 1.0;
            const double D = ks_distance(x, S, N, sudakov_S(&sd[v], b->t_lo), scale);
            int ndf;
            const double chi2 = chi2_spectrum(&sd[v], x, N, scale, &ndf, v == V_TRUE && !sc);
            const double p = chi2 < 1e29 ? gamma_q(0.5 * ndf, 0.5 * chi2) : 0.0;
            char name[96];
            if (sc) snprintf(name, sizeof name, "alpha_s x %.2f", ALPHA_SCALE_WRONG);
            else snprintf(name, sizeof name, "%s", variant_name[gluons][v]);
            printf("  %-30s sqrt(N) D = %7.3f   chi2/ndf = %9.1f/%d  p = %.3g\n", name,
                   sqrt((double)N) * D, chi2, ndf, p);
            if (v == V_TRUE && !sc) {
                CHECK(D < crit, "%s: first-emission t does not follow the Sudakov: sqrt(N) D = "
                      "%.3f >= %.2f", cf->name, sqrt((double)N) * D, KS_CRIT);
                CHECK(p > P_MIN, "%s: first-emission spectrum: chi2/ndf = %.1f/%d, p = %.2g < %g",
                      cf->name, chi2, ndf, p, P_MIN);
            } else if (sc || variant_must_fail[v]) {
                CHECK(D > crit, "%s: no power: KS against '%s' passes (sqrt(N) D = %.3f)",
                      cf->name, name, sqrt((double)N) * D);
                /* ndf = 0: the control expects (nearly) every event in one bin of scales, the
                 * merged histogram has no degree of freedom and only KS can judge it */
                if (ndf < 1) printf("    (chi^2 has no degree of freedom here: KS only)\n");
                else CHECK(p < P_MIN, "%s: no power: chi2 against '%s' passes (p = %.2g)",
                           cf->name, name, p);
            }
        }
    }
    free(x);
    free(S);
}

int main(int argc, char **argv)
{
    const double t_start = test_now();
    gaps_pdf pdf;
    if (test_load_default_pdf(argc, argv, &pdf) != 0) return 1;
    gaps_pdf member;   /* step 5's member: the same set, gluons and quarks scaled */
    if (test_load_default_pdf(argc, argv, &member) != 0) return 1;
    scale_columns(&member, MEMBER_G, MEMBER_Q);
    gaps_alphas as;   /* the default coupling, as the generator sets it up */
    gaps_alphas_init(&as, 2, GAPS_DEFAULT_ALPHAS_MZ);
    printf("PDF set %s (Q^2 %g .. %g GeV^2), alpha_s two loops, alpha_s(M_Z^2) = %g, seed %u\n",
           pdf.name, pdf.q2min, pdf.q2max, GAPS_DEFAULT_ALPHAS_MZ, seed);
    const char *only = getenv("ISR_SUDAKOV_ONLY"), *nev = getenv("ISR_SUDAKOV_EVENTS");
    if (getenv("ISR_SUDAKOV_SEED")) seed = (unsigned)strtoul(getenv("ISR_SUDAKOV_SEED"), NULL, 10);
    for (int c = 0; c < N_CONFIGS; ++c) {
        if (only && atoi(only) != c) continue;
        config cf = configs[c];
        if (nev) cf.n_events = atol(nev);
        run_config(&pdf, &as, &cf);
        if (cf.member) run_member(&pdf, &member, &as, &cf);
        if (cf.member) run_mur(&pdf, &as, &cf);
    }
    gaps_pdf_free(&member);
    gaps_pdf_free(&pdf);
    printf("\ntotal time %.2f s\n", test_now() - t_start);
    if (!failures) printf("isr_sudakov: first initial-state emissions follow the Sudakov form factor\n");
    return failures != 0;
}
