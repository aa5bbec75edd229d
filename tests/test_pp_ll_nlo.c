/* p p -> Z/gamma* -> e- e+ at NLO (--nlo 1 --process pp-ll; src/process/pp_ll_nlo.c,
 * src/process/mcatnlo.c with pp_ll.c's functions; doc/nlo.md section 12):
 *   1. the Born of the matrix-element functions equals the leading-order |M|^2 of pp_ll.c;
 *      the real matrix elements and the subtracted reals, averaged over the lepton direction
 *      in the pair's rest frame (six directions +-e_i of a random frame: exact for the
 *      quadratic dependence on it), equal p p -> Z's (gaps_pp_qqbar_zg_real, _qg_zq_real,
 *      the subtracted closed forms) at M = m_ll with the averaged Born (4/3)(P + Q) -- an
 *      independent check of the crossing (sign, averages, normalisation) and of the mapped
 *      leptons in the dipoles;
 *   2. R - sum D vanishes relative to R towards the soft limit and the collinear limits of
 *      either beam (fitted slope of ln|R - D|/R against ln lambda >= 0.9 over lambda = 1e-2 ..
 *      1e-6) at several points and lepton directions; negative controls must fail: a dipole
 *      left out, the real with the helicity channels P and Q swapped, the dipole's Born with
 *      quark and antiquark swapped, q g without the crossing sign;
 *   3. sigma_NLO by quadrature: at each m_ll the lepton-angle integrated quark-line
 *      corrections are those of an on-shell boson of mass m_ll, so sigma_NLO is p p -> Z's
 *      Gauss-Legendre integral (y, x; the subtracted reals by their v-integrals) at M = m_ll
 *      with the Drell-Yan Born (8/3) A_f(m) and mu_F = m_ll, integrated over m_ll^2 in the
 *      window; error = difference to half the points; the LO part is checked against the
 *      leading-order events of pp_ll.c;
 *   4. N hard events of --nlo 1 (gaps_process_generate, no shower): mean weight against the
 *      quadrature of 3 within 4 standard errors; every record: gaps_event_check(), incoming partons along +-z with
 *      E = x sqrt(s)/2, the dilepton mass in the window, e- and e+, quark number, t_start;
 *      every H channel occurs; d sigma/dm_ll in five bins against the quadrature's (4 standard
 *      errors each); the same (bins excepted) for N/4 events of --compat gaps21 against the
 *      quadrature with GAPS 2.1's truncated Li2 (and t_start = s).
 * Usage: test_pp_ll_nlo PDFSETS_DIR [N [SEED]]   (N hard events, default 10^6)
 *        test_pp_ll_nlo --print-real   (points for tests/test_pp_ll_nlo_real.py: f P Q alpha_s,
 *        pa pb k l- l+ (4 components each), R of q(pa) qbar(pb) -> l- l+ g(k), of q(pa) g(pb)
 *        -> l- l+ q(k) and of qbar(pa) g(pb) -> l- l+ qbar(k)) */
#include "gaps/analysis.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/pdf.h"
#include "process/pp_nlo.h"
#include "gaps/process.h"
#include "process/pp_ll.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            ++failures;                                                                        \
            if (failures < 30) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); }        \
        }                                                                                      \
    } while (0)

#define ECM 13000.0
#define ALPHAS 0.118   /* alpha_s(M_Z^2) of the run: mu_R = M_Z */

static gaps_process PROC;   /* pp-ll at 13 TeV with --nlo 1 */

static double dot4(const double a[4], const double b[4])
{
    return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

/* splitmix64, uniform in (0, 1) */
static uint64_t rng_state = 12345;
static double uni(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* ------------------------------------------------------------------------------------------ */
/* A real point in the partonic frame: pa along +z, pb along -z, s = m2 / x, the parton k at
 * polar angle theta from +z (cos theta = c, 1 - cos theta = omc given separately), azimuth
 * phi; the pair V = pa + pb - k decays to l- along the unit vector n of its rest frame
 * (rest-frame axes those of the partonic frame), l+ = V - l-. */
static void boost_from_rest(const double V[4], double m, const double p[4], double out[4])
{
    const double vp = V[1] * p[1] + V[2] * p[2] + V[3] * p[3];
    const double f = vp / (m * (V[0] + m)) + p[0] / m;
    out[0] = (V[0] * p[0] + vp) / m;
    for (int i = 1; i < 4; ++i) out[i] = p[i] + f * V[i];
}

static void real_point(double m2, double x, double c, double omc, double phi, const double n[3],
                       double pa[4], double pb[4], double k[4], double lm[4], double lp[4])
{
    const double s = m2 / x, rs = sqrt(s), ek = 0.5 * rs * (1.0 - x), m = sqrt(m2);
    const double st = sqrt(omc * (2.0 - omc));
    pa[0] = 0.5 * rs; pa[1] = 0.0; pa[2] = 0.0; pa[3] = 0.5 * rs;
    pb[0] = 0.5 * rs; pb[1] = 0.0; pb[2] = 0.0; pb[3] = -0.5 * rs;
    k[0] = ek; k[1] = ek * st * cos(phi); k[2] = ek * st * sin(phi); k[3] = ek * c;
    double V[4], l[4] = { 0.5 * m, 0.5 * m * n[0], 0.5 * m * n[1], 0.5 * m * n[2] };
    for (int i = 0; i < 4; ++i) V[i] = pa[i] + pb[i] - k[i];
    boost_from_rest(V, m, l, lm);
    for (int i = 0; i < 4; ++i) lp[i] = V[i] - lm[i];
}

/* a random orthonormal frame (rows e[0], e[1], e[2]) */
static void random_frame(double e[3][3])
{
    const double ct = 2.0 * uni() - 1.0, st = sqrt(1.0 - ct * ct), ph = 2.0 * GAPS_PI * uni();
    const double a[3] = { st * cos(ph), st * sin(ph), ct };
    double b[3] = { -a[1], a[0], 0.0 };
    double nb = sqrt(b[0] * b[0] + b[1] * b[1]);
    if (nb < 1e-3) { b[0] = 1.0; b[1] = 0.0; nb = 1.0; }
    const double ps = 2.0 * GAPS_PI * uni(), cp = cos(ps), sp = sin(ps);
    double b1[3] = { b[0] / nb, b[1] / nb, 0.0 };
    double c1[3] = { a[1] * b1[2] - a[2] * b1[1], a[2] * b1[0] - a[0] * b1[2],
                     a[0] * b1[1] - a[1] * b1[0] };
    for (int i = 0; i < 3; ++i) {
        e[0][i] = a[i];
        e[1][i] = cp * b1[i] + sp * c1[i];
        e[2][i] = -sp * b1[i] + cp * c1[i];
    }
}

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(b), 1e-300); }

/* 1. Born against LO; lepton-averaged reals and subtracted reals against p p -> Z's */
static void test_born_and_averages(void)
{
    const gaps_pp_ll *ll = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo;
    const double e2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM;
    double worst_born = 0.0, worst[8] = { 0 };
    for (int it = 0; it < 400; ++it) {
        const int f = 1 + it % 5;
        const double mlo = ll->m_lo, mhi = ll->m_hi;
        const double m = mlo + (mhi - mlo) * uni(), m2 = m * m;
        double P, Q;
        gaps_pp_ll_born_pq(ll, f, m2, &P, &Q);
        /* the LO |M|^2 of pp_ll.c: (4 pi alpha)^2 / N_c [A (1 + c^2) + B c], c = cos(q, l-) */
        const double dm = m2 - ll->mz2, den = dm * dm + ll->mz_gz * ll->mz_gz;
        const double chi1 = ll->kappa * m2 * dm / den, chi2 = ll->kappa * m2 * ll->kappa * m2 / den;
        const double A = ll->a0[f] + ll->a1[f] * chi1 + ll->a2[f] * chi2;
        const double B = ll->b1[f] * chi1 + ll->b2[f] * chi2;
        const double c = 2.0 * uni() - 1.0, sn = sqrt(1.0 - c * c), ph = 2.0 * GAPS_PI * uni();
        const double q[4] = { 0.5 * m, 0.0, 0.0, 0.5 * m };
        const double lm[4] = { 0.5 * m, 0.5 * m * sn * cos(ph), 0.5 * m * sn * sin(ph), 0.5 * m * c };
        const double lp[4] = { 0.5 * m, -lm[1], -lm[2], -lm[3] };
        const double lo = e2 * e2 / GAPS_NC * (A * (1.0 + c * c) + B * c);
        worst_born = fmax(worst_born, rel(gaps_pp_ll_born(P, Q, q, lm, lp), lo));

        /* a real point, averaged over six lepton directions */
        const double x = 0.05 + 0.9 * uni(), ck = 2.0 * uni() - 1.0, phk = 2.0 * GAPS_PI * uni();
        double fr[3][3];
        random_frame(fr);
        double avg[8] = { 0 };
        double pa[4], pb[4], k[4], l1[4], l2[4];
        for (int d = 0; d < 6; ++d) {
            double n[3];
            for (int i = 0; i < 3; ++i) n[i] = (d < 3 ? 1.0 : -1.0) * fr[d % 3][i];
            real_point(m2, x, ck, 1.0 - ck, phk, n, pa, pb, k, l1, l2);
            avg[0] += gaps_pp_ll_qqbar_real(P, Q, ALPHAS, pa, pb, l1, l2, k) / 6.0;
            avg[1] += gaps_pp_ll_qqbar_real(P, Q, ALPHAS, pb, pa, l1, l2, k) / 6.0;
            avg[2] += gaps_pp_ll_qg_real(P, Q, ALPHAS, 0, pa, pb, l1, l2, k) / 6.0;
            avg[3] += gaps_pp_ll_qg_real(P, Q, ALPHAS, 1, pa, pb, l1, l2, k) / 6.0;
            avg[4] += gaps_pp_ll_qqbar_subtracted(P, Q, ALPHAS, pa, pb, l1, l2, k, NULL, NULL) / 6.0;
            avg[5] += gaps_pp_ll_qqbar_subtracted(P, Q, ALPHAS, pb, pa, l1, l2, k, NULL, NULL) / 6.0;
            avg[6] += gaps_pp_ll_qg_subtracted(P, Q, ALPHAS, 0, pa, pb, l1, l2, k, NULL, NULL) / 6.0;
            avg[7] += gaps_pp_ll_qg_subtracted(P, Q, ALPHAS, 1, pa, pb, l1, l2, k, NULL, NULL) / 6.0;
        }
        const double bavg = 4.0 / 3.0 * (P + Q);
        const double want[8] = {
            gaps_pp_qqbar_zg_real(bavg, ALPHAS, m2, pa, pb, k),
            gaps_pp_qqbar_zg_real(bavg, ALPHAS, m2, pa, pb, k),
            gaps_pp_qg_zq_real(bavg, ALPHAS, m2, pa, pb, k),
            gaps_pp_qg_zq_real(bavg, ALPHAS, m2, pa, pb, k),
            gaps_pp_qqbar_zg_subtracted(bavg, ALPHAS, m2, pa, pb, k, NULL, NULL),
            gaps_pp_qqbar_zg_subtracted(bavg, ALPHAS, m2, pa, pb, k, NULL, NULL),
            gaps_pp_qg_zq_subtracted(bavg, ALPHAS, m2, pa, pb, k, NULL, NULL),
            gaps_pp_qg_zq_subtracted(bavg, ALPHAS, m2, pa, pb, k, NULL, NULL),
        };
        for (int j = 0; j < 8; ++j) worst[j] = fmax(worst[j], rel(avg[j], want[j]));
    }
    printf("1. Born of the NLO functions against pp_ll.c's LO |M|^2: worst %.1e\n", worst_born);
    CHECK(worst_born < 1e-12, "Born differs from LO by %g", worst_born);
    static const char *name[8] = { "R q qbar", "R qbar q", "R q g", "R qbar g",
                                   "R-D q qbar", "R-D qbar q", "R-D q g", "R-D qbar g" };
    printf("   lepton-averaged against p p -> Z at M = m_ll, Born (4/3)(P + Q), 400 points:");
    for (int j = 0; j < 8; ++j) {
        printf(" %s %.1e%s", name[j], worst[j], j < 7 ? "," : "\n");
        /* R - D: a difference of numbers up to 1/(1 - x) larger */
        CHECK(worst[j] < (j < 4 ? 1e-12 : 1e-9), "%s: lepton average off by %g", name[j],
              worst[j]);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* 2. limits */
enum { V_OK, V_DROP, V_PQSWAP, V_BORNSWAP, V_NOSIGN, N_VARIANTS };
static const char *variant_name[N_VARIANTS] = {
    "library", "dipole of the limit's beam left out", "real with P and Q swapped",
    "dipole Born with q and qbar swapped", "q g without the crossing sign"
};

/* |R - sum D| / |R|; ch = 0: q(pa) qbar(pb) -> l l g, 1: q(pa) g(pb) -> l l q, 2: qbar(pa) g(pb)
 * -> l l qbar; beam: the limit's beam (0 pa, 1 pb, -1 soft) for V_DROP */
static double ratio(int variant, int ch, int beam, double P, double Q, const double pa[4],
                    const double pb[4], const double k[4], const double lm[4], const double lp[4])
{
    if (ch == 0) {
        double r, d[2];
        gaps_pp_ll_qqbar_subtracted(P, Q, ALPHAS, pa, pb, lm, lp, k, &r, d);
        if (variant == V_DROP) d[beam == 1 ? 1 : 0] = 0.0;
        if (variant == V_PQSWAP) r = gaps_pp_ll_qqbar_real(Q, P, ALPHAS, pa, pb, lm, lp, k);
        if (variant == V_BORNSWAP) {
            d[0] = gaps_pp_ll_ii_dipole(P, Q, ALPHAS, 0, 0, pa, pb, k, lm, lp, NULL, NULL);
            d[1] = gaps_pp_ll_ii_dipole(P, Q, ALPHAS, 0, 1, pb, pa, k, lm, lp, NULL, NULL);
        }
        return fabs(r - d[0] - d[1]) / fabs(r);
    }
    const int anti = ch == 2;
    double r, d[2];
    gaps_pp_ll_qg_subtracted(P, Q, ALPHAS, anti, pa, pb, lm, lp, k, &r, d);
    if (variant == V_DROP) d[0] = 0.0;
    if (variant == V_PQSWAP) r = gaps_pp_ll_qg_real(Q, P, ALPHAS, anti, pa, pb, lm, lp, k);
    if (variant == V_BORNSWAP)
        d[0] = gaps_pp_ll_ii_dipole(P, Q, ALPHAS, 1, !anti, pb, pa, k, lm, lp, NULL, NULL);
    if (variant == V_NOSIGN) r = -r;
    return fabs(r - d[0]) / fabs(r);
}

/* walk towards a limit: kind 0 collinear to pa, 1 collinear to pb (lambda = the angle theta
 * to that beam, proportional to k_T), 2 soft (lambda = 1 - x); the fitted slope of ln ratio
 * against ln lambda */
static double walk(int variant, int ch, int kind, double m2, double x0, double c0, double phi,
                   const double n[3], double P, double Q, double *last)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int cnt = 0;
    for (double lam = 1e-2; lam > 0.5e-6; lam /= 10.0, ++cnt) {
        double pa[4], pb[4], k[4], lm[4], lp[4];
        const double sh = sin(0.5 * lam), omc = 2.0 * sh * sh;   /* 1 - cos(lambda) */
        if (kind == 0) real_point(m2, x0, cos(lam), omc, phi, n, pa, pb, k, lm, lp);
        else if (kind == 1) real_point(m2, x0, -cos(lam), 2.0 - omc, phi, n, pa, pb, k, lm, lp);
        else real_point(m2, 1.0 - lam, c0, 1.0 - c0, phi, n, pa, pb, k, lm, lp);
        const double r = ratio(variant, ch, kind == 2 ? -1 : kind, P, Q, pa, pb, k, lm, lp);
        const double lx = log(lam), ly = log(fmax(r, 1e-300));
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
        *last = r;
    }
    return (cnt * sxy - sx * sy) / (cnt * sxx - sx * sx);
}

static void test_limits(void)
{
    static const double xs[3] = { 0.1, 0.5, 0.9 }, cs[3] = { -0.6, 0.0, 0.7 };
    static const double ms[3] = { 70.0, 91.1876, 110.0 };
    static const char *kind_name[3] = { "collinear to pa", "collinear to pb", "soft" };
    static const char *ch_name[3] = { "q qbar -> l l g", "q g -> l l q", "qbar g -> l l qbar" };
    printf("2. R - D towards the limits (3 points x 2 lepton directions each; up quarks):\n");
    for (int ch = 0; ch < 3; ++ch)
        for (int kind = 0; kind < 3; ++kind) {
            if (ch && kind == 0) continue;   /* q g: the parton along the quark beam is regular */
            for (int variant = 0; variant < N_VARIANTS; ++variant) {
                if (ch == 0 && variant == V_NOSIGN) continue;
                double smin = 1e30, rmax = 0.0, last;
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 2; ++j) {
                        double P, Q;
                        gaps_pp_ll_born_pq(&GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo, 2, ms[i] * ms[i], &P, &Q);
                        const double ct = j ? -0.8 : 0.3, st = sqrt(1.0 - ct * ct);
                        const double n[3] = { st * cos(1.0 + i), st * sin(1.0 + i), ct };
                        const double s = walk(variant, ch, kind, ms[i] * ms[i], xs[i], cs[i],
                                              0.4 + i, n, P, Q, &last);
                        if (getenv("VERBOSE_LIMITS"))
                            printf("    ch %d kind %d variant %d point %d dir %d: slope %.3f last %.2e\n",
                                   ch, kind, variant, i, j, s, last);
                        smin = fmin(smin, s);
                        rmax = fmax(rmax, last);
                    }
                const int pass = smin >= 0.9;
                printf("  %-19s %-16s %-36s min slope %5.2f, |R-D|/R at 1e-6 <= %.1e  %s\n",
                       ch_name[ch], kind_name[kind], variant_name[variant], smin, rmax,
                       variant == V_OK ? (pass ? "ok" : "FAIL")
                                       : (pass ? "CONTROL PASSED (bad)" : "control fails (good)"));
                if (variant == V_OK) CHECK(pass, "limit %d/%d: slope %.2f", ch, kind, smin);
                else CHECK(!pass, "negative control %s passed (slope %.2f)",
                           variant_name[variant], smin);
            }
        }
}

/* ------------------------------------------------------------------------------------------ */
/* 3. sigma_NLO by quadrature over (m^2, y, x) with p p -> Z's pieces at M = m */
typedef struct { double lo, vi, kend, kend21, kx, rqq, rgq; } parts;

static double total(const parts *p, int gaps21)
{
    return p->lo + p->vi + (gaps21 ? p->kend21 : p->kend) + p->kx + p->rqq + p->rgq;
}

static void add_scaled(parts *acc, const parts *p, double w)
{
    acc->lo += w * p->lo; acc->vi += w * p->vi; acc->kend += w * p->kend;
    acc->kend21 += w * p->kend21;
    acc->kx += w * p->kx; acc->rqq += w * p->rqq; acc->rgq += w * p->rgq;
}

#define GL 16
static double gl_x[GL], gl_w[GL];
static void gl_init(void)
{
    for (int i = 0; i < GL; ++i) {
        double z = cos(GAPS_PI * (i + 0.75) / (GL + 0.5)), pp = 0.0;
        for (int it = 0; it < 100; ++it) {
            double p1 = 1.0, p2 = 0.0;
            for (int j = 1; j <= GL; ++j) {
                const double p3 = p2;
                p2 = p1;
                p1 = ((2.0 * j - 1.0) * z * p2 - (j - 1.0) * p3) / j;
            }
            pp = GL * (z * p1 - p2) / (z * z - 1.0);
            const double dz = p1 / pp;
            z -= dz;
            if (fabs(dz) < 1e-16) break;
        }
        gl_x[i] = z;
        gl_w[i] = 2.0 / ((1.0 - z * z) * pp * pp);
    }
}

/* d sigma / dm^2 dy per unit of [xf][xf], flavour f: the LO weight's norm (pp_ll.c) times
 * (1/2) integral dc [A_f (1 + c^2) + B_f c] / m^4 = norm (4/3) A_f(m) / m^4 (pb GeV^-2) */
static void lo_norm(double m2, double nf[6])
{
    const gaps_pp_ll *ll = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo;
    const double dm = m2 - ll->mz2, den = dm * dm + ll->mz_gz * ll->mz_gz;
    const double chi1 = ll->kappa * m2 * dm / den, chi2 = ll->kappa * m2 * ll->kappa * m2 / den;
    nf[0] = 0.0;
    for (int f = 1; f <= 5; ++f)
        nf[f] = ll->norm * (4.0 / 3.0) * (ll->a0[f] + ll->a1[f] * chi1 + ll->a2[f] * chi2)
                / (m2 * m2);
}

static void leg_parts(const gaps_pdf *pdf, double m2, const double nf[6], double eta, double x,
                      const double F[13], const double O[13], parts *out)
{
    double G[13];
    gaps_pdf_xfxq2_all(pdf, eta / x, m2, G);
    const double k0 = gaps_pp_k_qq_integrand(ALPHAS, x, 0.0);
    const double k1 = gaps_pp_k_qq_integrand(ALPHAS, x, 1.0) - k0;
    const double kg = gaps_pp_k_gq_integrand(ALPHAS, x, 1.0);
    const double rq = gaps_pp_qq_subtracted_vint(ALPHAS, x);
    const double rg = gaps_pp_gq_subtracted_vint(ALPHAS, x);
    memset(out, 0, sizeof *out);
    for (int f = 1; f <= 5; ++f)
        for (int sgn = -1; sgn <= 1; sgn += 2) {   /* Born parton of this leg: sgn f */
            const double o = nf[f] * O[6 - sgn * f];
            const double fb = F[6 + sgn * f], gb = G[6 + sgn * f];
            out->kx += o * (k0 * fb + k1 * gb + kg * G[6]);
            out->rqq += o * 0.5 * rq * gb;   /* either emitter's map: half per leg */
            out->rgq += o * rg * G[6];
        }
}

/* d sigma / dm^2 at m2: y in nyp panels, x of each leg x = eta^(w^2) in nwp panels */
static void mass_slice(const gaps_pdf *pdf, double m2, int nyp, int nwp, parts *res)
{
    double nf[6];
    lo_norm(m2, nf);
    const double ymax = 0.5 * log(ECM * ECM / m2), st = sqrt(m2) / ECM;
    memset(res, 0, sizeof *res);
    for (int p = 0; p < nyp; ++p)
        for (int i = 0; i < GL; ++i) {
            const double y = -ymax + 2.0 * ymax * (p + 0.5 + 0.5 * gl_x[i]) / nyp;
            const double wy = 2.0 * ymax * 0.5 * gl_w[i] / nyp;
            const double e1 = st * exp(y), e2 = st * exp(-y);
            double F1[13], F2[13];
            gaps_pdf_xfxq2_all(pdf, e1, m2, F1);
            gaps_pdf_xfxq2_all(pdf, e2, m2, F2);
            parts b;
            memset(&b, 0, sizeof b);
            for (int f = 1; f <= 5; ++f) b.lo += nf[f] * (F1[6 + f] * F2[6 - f] + F1[6 - f] * F2[6 + f]);
            b.vi = b.lo * gaps_pp_z_virtual_i(ALPHAS);
            b.kend = b.lo * (gaps_pp_k_qq_endpoint(ALPHAS, e1, 0) + gaps_pp_k_qq_endpoint(ALPHAS, e2, 0));
            b.kend21 = b.lo * (gaps_pp_k_qq_endpoint(ALPHAS, e1, 1) + gaps_pp_k_qq_endpoint(ALPHAS, e2, 1));
            for (int leg = 0; leg < 2; ++leg) {
                const double eta = leg ? e2 : e1, le = log(eta);
                const double *F = leg ? F2 : F1, *O = leg ? F1 : F2;
                for (int q = 0; q < nwp; ++q)
                    for (int j = 0; j < GL; ++j) {
                        const double w = (q + 0.5 + 0.5 * gl_x[j]) / nwp, ww = 0.5 * gl_w[j] / nwp;
                        const double x = exp(le * w * w);
                        if (!(x < 1.0)) continue;
                        parts lp;
                        leg_parts(pdf, m2, nf, eta, x, F, O, &lp);
                        add_scaled(&b, &lp, ww * x * (-le) * 2.0 * w);
                    }
            }
            add_scaled(res, &b, wy);
        }
}

/* over m^2 = M_Z^2 + w tan(rho), rho uniform in nm panels */
static void quadrature(const gaps_pdf *pdf, int nm, int nyp, int nwp, parts *res)
{
    const gaps_pp_ll *ll = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo;
    memset(res, 0, sizeof *res);
    for (int p = 0; p < nm; ++p)
        for (int i = 0; i < GL; ++i) {
            const double rho = ll->rho_lo + (ll->rho_hi - ll->rho_lo) * (p + 0.5 + 0.5 * gl_x[i]) / nm;
            const double wr = (ll->rho_hi - ll->rho_lo) * 0.5 * gl_w[i] / nm;
            const double m2 = ll->mz2 + ll->map_w * tan(rho), dm = m2 - ll->mz2;
            const double jac = (dm * dm + ll->map_w * ll->map_w) / ll->map_w;
            parts sl;
            mass_slice(pdf, m2, nyp, nwp, &sl);
            add_scaled(res, &sl, wr * jac);
        }
}

/* d sigma / dm_ll in bins of m_ll: the same integrand over each bin (fewer y and x points; the
 * bins' statistical errors in the events are 0.2 % and more) */
#define NBINS 5
static const double BIN_EDGE[NBINS + 1] = { 66.0, 80.0, 88.0, 94.0, 102.0, 116.0 };
static void quadrature_bins(const gaps_pdf *pdf, double sig[NBINS])
{
    const gaps_pp_ll *ll = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo;
    for (int b = 0; b < NBINS; ++b) {
        const double r0 = atan((BIN_EDGE[b] * BIN_EDGE[b] - ll->mz2) / ll->map_w);
        const double r1 = atan((BIN_EDGE[b + 1] * BIN_EDGE[b + 1] - ll->mz2) / ll->map_w);
        sig[b] = 0.0;
        for (int i = 0; i < GL; ++i) {
            const double rho = r0 + (r1 - r0) * (0.5 + 0.5 * gl_x[i]), wr = (r1 - r0) * 0.5 * gl_w[i];
            const double m2 = ll->mz2 + ll->map_w * tan(rho), dm = m2 - ll->mz2;
            parts sl;
            mass_slice(pdf, m2, 8, 2, &sl);
            sig[b] += wr * (dm * dm + ll->map_w * ll->map_w) / ll->map_w * total(&sl, 0);
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* 4. hard events */
static int is_quark(int f) { return f != 0 && abs(f) <= 5; }

static void check_record(const gaps_hard_event *ev, long i, int gaps21)
{
    const double e = 0.5 * ECM;
    const int hard = ev->n == 5;
    CHECK(ev->n_in == 2 && (ev->n == 4 || ev->n == 5), "event %ld: n_in %d n %d", i, ev->n_in, ev->n);
    if (ev->n_in != 2 || ev->n < 4 || ev->n > 5) return;
    const double zero[4] = { 0, 0, 0, 0 };
    const int flags = gaps_event_check(ev->n_in, ev->n, (const double(*)[4])ev->p, ev->flav,
                                       ev->col, ev->acol, zero, ECM);
    CHECK(flags == 0, "event %ld (n %d): gaps_event_check flags %d", i, ev->n, flags);
    for (int r = 0; r < 2; ++r)
        CHECK(ev->x[r] > 0.0 && ev->x[r] < 1.0 && fabs(ev->p[r][0] - ev->x[r] * e) <= 1e-12 * e,
              "event %ld: incoming row %d (x %g, E %g)", i, r, ev->x[r], ev->p[r][0]);
    CHECK(ev->p[0][3] * ev->p[1][3] < 0.0, "event %ld: incoming partons not head on", i);
    CHECK(ev->flav[2] == GAPS_PDG_ELECTRON && ev->flav[3] == -GAPS_PDG_ELECTRON,
          "event %ld: leptons %d %d", i, ev->flav[2], ev->flav[3]);
    double v[4];
    for (int m = 0; m < 4; ++m) v[m] = ev->p[2][m] + ev->p[3][m];
    const double mll = sqrt(dot4(v, v));
    CHECK(mll >= GAPS_PP_LL_M_LO * (1 - 1e-12) && mll <= GAPS_PP_LL_M_HI * (1 + 1e-12),
          "event %ld: m_ll %g", i, mll);
    int qin = 0, qout = 0;
    for (int r = 0; r < ev->n; ++r) {
        if (!is_quark(ev->flav[r])) continue;
        if (r < 2) qin += ev->flav[r] > 0 ? 1 : -1;
        else qout += ev->flav[r] > 0 ? 1 : -1;
    }
    CHECK(qin == qout, "event %ld: quark number %d in, %d out", i, qin, qout);
    if (hard) {
        const double *k = ev->p[4];
        const double pt2 = k[1] * k[1] + k[2] * k[2];
        const double want = gaps21 ? ECM * ECM : pt2;
        CHECK(ev->t_start > 0.0 && fabs(ev->t_start - want) <= 1e-6 * want,
              "event %ld: H t_start %g, want %g", i, ev->t_start, want);
    } else {
        const double want = gaps21 ? ECM * ECM : mll * mll;
        CHECK(fabs(ev->t_start - want) <= 1e-9 * want, "event %ld: S t_start %g", i,
              ev->t_start);
    }
}

static double BIN_S[NBINS], BIN_S2[NBINS];   /* sum w, sum w^2 per m_ll bin of the last mc() */

static void mc(const gaps_process *proc, long n, uint32_t seed, double *mean, double *err,
               int nlo)
{
    double s = 0.0, s2 = 0.0;
    for (int b = 0; b < NBINS; ++b) BIN_S[b] = BIN_S2[b] = 0.0;
    long n_h = 0, n_neg = 0, chan[5] = { 0 };
    for (long i = 0; i < n; ++i) {
        gaps_rng rng = gaps_rng_make(seed, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(proc, &rng, &ev);
        CHECK(isfinite(ev.weight), "event %ld: weight %g", i, ev.weight);
        s += ev.weight;
        s2 += ev.weight * ev.weight;
        n_neg += ev.weight < 0.0;
        if (!nlo) continue;
        check_record(&ev, i, GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc)->nlo.nlo.gaps21);
        double v[4];
        for (int m = 0; m < 4; ++m) v[m] = ev.p[2][m] + ev.p[3][m];
        const double mll = sqrt(fmax(dot4(v, v), 0.0));
        for (int b = 0; b < NBINS; ++b)
            if (mll >= BIN_EDGE[b] && mll < BIN_EDGE[b + 1]) {
                BIN_S[b] += ev.weight;
                BIN_S2[b] += ev.weight * ev.weight;
            }
        if (ev.n == 5) {
            ++n_h;
            const int g0 = ev.flav[0] == GAPS_GLUON;
            const int q = g0 ? ev.flav[1] : ev.flav[0];
            chan[ev.flav[4] == GAPS_GLUON ? 0 : g0 ? (q > 0 ? 3 : 4) : (q > 0 ? 1 : 2)] += 1;
        }
    }
    *mean = s / n;
    *err = sqrt(fmax(s2 / n - *mean * *mean, 0.0) / (n - 1));
    if (!nlo) return;
    printf("   H events %.2f %%, negative weights %.2f %%, std/mean %.2f; H channels: q qbar %ld, "
           "q g %ld, qbar g %ld, g q %ld, g qbar %ld\n", 100.0 * n_h / n, 100.0 * n_neg / n,
           *err * sqrt((double)n) / *mean, chan[0], chan[1], chan[2], chan[3], chan[4]);
    for (int c = 0; c < 5; ++c) CHECK(chan[c] > 0, "H channel %d never chosen", c);
    CHECK(n_h > 0 && n_h < n && n_neg > 0, "S and H events, negative weights");
}

/* points for the Dirac-trace check (tests/test_pp_ll_nlo_real.py) */
static int print_real(void)
{
    char msg[256];
    if (gaps_process_init(&PROC, GAPS_PROCESS_PP_LL, ECM, msg, sizeof msg) != 0) return 1;
    for (int it = 0; it < 120; ++it) {
        const int f = 1 + it % 5;
        const double m = GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo.m_lo + (GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo.m_hi - GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo.m_lo) * uni();
        double P, Q;
        gaps_pp_ll_born_pq(&GAPS_PROCESS_CDATA(gaps_pp_ll_data, &PROC)->lo, f, m * m, &P, &Q);
        const double x = 0.05 + 0.9 * uni(), ck = 2.0 * uni() - 1.0, phk = 2.0 * GAPS_PI * uni();
        const double ct = 2.0 * uni() - 1.0, st = sqrt(1.0 - ct * ct), ph = 2.0 * GAPS_PI * uni();
        const double n[3] = { st * cos(ph), st * sin(ph), ct };
        double pa[4], pb[4], k[4], lm[4], lp[4];
        real_point(m * m, x, ck, 1.0 - ck, phk, n, pa, pb, k, lm, lp);
        printf("%d %.17g %.17g %.17g", f, P, Q, ALPHAS);
        const double *v[5] = { pa, pb, k, lm, lp };
        for (int a = 0; a < 5; ++a)
            for (int i = 0; i < 4; ++i) printf(" %.17g", v[a][i]);
        printf(" %.17g %.17g %.17g\n", gaps_pp_ll_qqbar_real(P, Q, ALPHAS, pa, pb, lm, lp, k),
               gaps_pp_ll_qg_real(P, Q, ALPHAS, 0, pa, pb, lm, lp, k),
               gaps_pp_ll_qg_real(P, Q, ALPHAS, 1, pa, pb, lm, lp, k));
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--print-real") == 0) return print_real();
    if (argc < 2) {
        fprintf(stderr, "usage: test_pp_ll_nlo PDFSETS_DIR [N [SEED]]\n");
        return 2;
    }
    const long n = argc > 2 ? atol(argv[2]) : 1000000L;
    const uint32_t seed = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1u;
    const clock_t t0 = clock();
    gaps_pdf pdf;
    char msg[512];
    if (gaps_pdf_load(&pdf, GAPS_DEFAULT_PDF, argv[1], msg, sizeof msg) != 0) {
        fprintf(stderr, "test_pp_ll_nlo: %s\n", msg);
        return 2;
    }
    gaps_process lo;
    if (gaps_process_init(&PROC, GAPS_PROCESS_PP_LL, ECM, msg, sizeof msg) != 0
        || gaps_process_set_nlo(&PROC, ALPHAS, GAPS_COMPAT_NONE, msg, sizeof msg) != 0
        || gaps_process_init(&lo, GAPS_PROCESS_PP_LL, ECM, msg, sizeof msg) != 0) {
        printf("FAIL: %s\n", msg);
        return 1;
    }
    PROC.pdf = lo.pdf = &pdf;
    gaps_process_prepare(&PROC, &pdf);
    gaps_process_prepare(&lo, &pdf);
    CHECK(fabs(gaps_process_nlo_mu_r2(&PROC) / (GAPS_MZ * GAPS_MZ) - 1.0) < 1e-15, "mu_R^2 = M_Z^2");

    test_born_and_averages();
    test_limits();

    gl_init();
    parts qa, qb;
    quadrature(&pdf, 2, 8, 2, &qa);
    quadrature(&pdf, 4, 16, 4, &qb);
    const double sig = total(&qb, 0), qerr = fabs(total(&qa, 0) - sig);
    const double sig21 = total(&qb, 1), qerr21 = fabs(total(&qa, 1) - sig21);
    printf("3. quadrature (13 TeV, CT14lo, mu_F = m_ll, mu_R = M_Z, alpha_s 0.118), pb:\n"
           "   LO %.3f, V+I %.3f, K endpoints %.3f, K x-integrals %.3f, R-D q qbar %.3f, "
           "R-D q g %.3f\n   sigma_NLO = %.3f +- %.3f (half the points: %.3f), K = %.4f\n",
           qb.lo, qb.vi, qb.kend, qb.kx, qb.rqq, qb.rgq, sig, qerr, total(&qa, 0), sig / qb.lo);
    printf("   with GAPS 2.1's truncated Li2 (--compat gaps21): K endpoints %.3f, sigma_NLO %.3f\n",
           qb.kend21, sig21);
    CHECK(qerr < 1e-4 * sig, "quadrature not converged (%g)", qerr);

    double mean, err;
    mc(&lo, n / 5, seed + 7, &mean, &err, 0);
    const double pull_lo = (mean - qb.lo) / sqrt(err * err + 1e-8 * qb.lo * qb.lo);
    printf("   LO events of pp_ll.c (%ld): %.3f +- %.3f pb, pull against the quadrature %+.2f\n",
           n / 5, mean, err, pull_lo);
    CHECK(fabs(pull_lo) < 4.0, "LO quadrature against LO events: pull %+.2f", pull_lo);

    printf("4. %ld hard events of --nlo 1 --process pp-ll (seed %u):\n", n, seed);
    mc(&PROC, n, seed, &mean, &err, 1);
    const double pull = (mean - sig) / sqrt(err * err + qerr * qerr);
    printf("   sigma_NLO = %.2f +- %.2f pb, pull against the quadrature %+.2f\n", mean, err, pull);
    CHECK(fabs(pull) < 4.0, "sigma_NLO pull %+.2f", pull);
    double sb[NBINS], sum_bins = 0.0;
    quadrature_bins(&pdf, sb);
    printf("   d sigma / dm_ll, pb per bin: m_ll bin, quadrature, events, pull\n");
    for (int b = 0; b < NBINS; ++b) {
        const double mb = BIN_S[b] / n;
        const double eb = sqrt(fmax(BIN_S2[b] / n - mb * mb, 0.0) / (n - 1));
        const double pb = (mb - sb[b]) / eb;
        sum_bins += sb[b];
        printf("     [%5.1f, %5.1f) GeV  %9.3f  %9.3f +- %6.3f  %+.2f\n", BIN_EDGE[b],
               BIN_EDGE[b + 1], sb[b], mb, eb, pb);
        CHECK(fabs(pb) < 4.0, "m_ll bin %d: pull %+.2f", b, pb);
    }
    CHECK(fabs(sum_bins / sig - 1.0) < 1e-4, "the bins add up to %.3f, not %.3f", sum_bins, sig);

    gaps_process c21;
    if (gaps_process_init(&c21, GAPS_PROCESS_PP_LL, ECM, msg, sizeof msg) != 0
        || gaps_process_set_nlo(&c21, ALPHAS, GAPS_COMPAT_GAPS21, msg, sizeof msg) != 0) {
        printf("FAIL: %s\n", msg);
        return 1;
    }
    c21.pdf = &pdf;
    gaps_process_prepare(&c21, &pdf);
    printf("   %ld hard events with --compat gaps21 (seed %u):\n", n / 4, seed + 1);
    mc(&c21, n / 4, seed + 1, &mean, &err, 1);
    const double pull21 = (mean - sig21) / sqrt(err * err + qerr21 * qerr21);
    printf("   sigma_NLO = %.2f +- %.2f pb, pull against the quadrature with GAPS's Li2 %+.2f\n",
           mean, err, pull21);
    CHECK(fabs(pull21) < 4.0, "gaps21 sigma_NLO pull %+.2f", pull21);

    gaps_pdf_free(&pdf);
    printf("%s (%d failures), %.1f s\n", failures ? "FAILED" : "passed", failures,
           (double)(clock() - t0) / CLOCKS_PER_SEC);
    return failures ? 1 : 0;
}
