/* e+ e- -> q qbar at NLO (src/process/ee_nlo.h, src/process/ee_qq_nlo.c, doc/nlo.md), piece by piece:
 *   1. the subtraction's splitting function is the shower's q -> q g kernel (kernels.h);
 *   2. the 3 -> 2 map inverts the shower's final-final map (kinematics.h);
 *   3. the exact real matrix element averaged over orientations is the textbook
 *      (x1^2 + x2^2) / ((1 - x1)(1 - x2)) form (exactly: the six beam directions +-x, +-y,
 *      +-z average every quadratic function of the beam direction);
 *   4. R - D_132 - D_231 vanishes relative to R in the soft and both collinear limits, like
 *      the approach parameter (the gluon's energy, the emission's k_T), for many
 *      configurations; negative controls (a dipole left out, a wrong splitting function,
 *      the Born at the wrong angle) must fail the same criterion;
 *   5. the integral of R - D over the dipole phase space is -1/2 C_F alpha_s/(2 pi) sigma_B
 *      (deterministic quadrature), so that with V + I = 2 C_F alpha_s/(2 pi) sigma_B the total
 *      is sigma_B (1 + alpha_s/pi);
 *   6. the events of the process: records (momentum, masses, colours, start scale), signed
 *      weights, the negative fraction, and the mean weight of N hard events against
 *      sigma_LO (1 + alpha_s(s)/pi) within 4 standard errors, for the default and for
 *      --compat gaps21.
 * Usage: test_nlo [N [SEED]]   (N hard events for 6, default 10^6; seed 7) */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime (check.h) */
#include "gaps/alphas.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "process/ee_nlo.h"
#include "gaps/process.h"
#include "process/ee_qq.h"   /* ee-qq's own constants (private header) */
#include "shower/kernels.h"
#include "shower/kinematics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static double mdot(const double a[4], const double b[4]) { return gaps_mdot(a, b); }

/* The Born pair: quark along (c, phi) from the e+, antiquark opposite, energy sqrt(s)/2. */
static void born_pair(double ecm, double c, double phi, double q[4], double qb[4])
{
    const double e = 0.5 * ecm, st = sqrt(1.0 - c * c);
    const double d[3] = { st * cos(phi), st * sin(phi), c };
    q[0] = qb[0] = e;
    for (int m = 0; m < 3; ++m) {
        q[m + 1] = e * d[m];
        qb[m + 1] = -e * d[m];
    }
}

/* ---- 1: the splitting function is the shower's ---- */
static void test_kernel(void)
{
    double worst = 0.0;
    for (int a = 1; a < 100; ++a)
        for (int b = 1; b < 100; ++b) {
            const double y = a / 100.0, z = b / 100.0;
            /* gaps_kernel_ratio = (1 - y) P / Q with Q = 2 C_F / (1 - z) */
            const double shower = gaps_kernel_ratio(GAPS_KERNEL_Q_QG, z, 1.0 - z, y);
            const double mine = (1.0 - y) * gaps_ff_qqg_kernel(y, z, 1.0 - z) * (1.0 - z)
                                / (2.0 * GAPS_CF);
            const double d = fabs(shower - mine) / fmax(fabs(shower), 1e-300);
            if (d > worst) worst = d;
        }
    printf("1. splitting function against the shower's kernel: largest relative difference "
           "%.2e\n", worst);
    CHECK(worst < 1e-12, "the subtraction's q -> q g function is not the shower's");
}

/* ---- 2: 3 -> 2 inverts 2 -> 3 ---- */
static void test_maps(void)
{
    gaps_rng r = gaps_rng_make(11, 0, 0);
    double worst = 0.0, worst_yz = 0.0;
    for (int k = 0; k < 10000; ++k) {
        double u[6];
        gaps_rng_uniform2(&r, &u[0], &u[1]);
        gaps_rng_uniform2(&r, &u[2], &u[3]);
        gaps_rng_uniform2(&r, &u[4], &u[5]);
        double pi[4], pk[4], qi[4], qj[4], qk[4], pij[4], pkt[4], y, z;
        born_pair(91.2, 2.0 * u[0] - 1.0, 2.0 * GAPS_PI * u[1], pi, pk);
        const double y0 = u[2], z0 = u[3];
        gaps_map_ff(pi, pk, z0, y0, 2.0 * GAPS_PI * u[4], qi, qj, qk);
        gaps_ff_map_32(qi, qj, qk, 2.0 * mdot(qi, qj), 2.0 * mdot(qi, qk), 2.0 * mdot(qj, qk),
                       &y, &z, pij, pkt);
        for (int m = 0; m < 4; ++m) {
            worst = fmax(worst, fabs(pij[m] - pi[m]) / pi[0]);
            worst = fmax(worst, fabs(pkt[m] - pk[m]) / pk[0]);
        }
        worst_yz = fmax(worst_yz, fmax(fabs(y - y0), fabs(z - z0)));
    }
    printf("2. 3 -> 2 map after the shower's 2 -> 3 map: momenta back to %.2e (relative), "
           "y and z to %.2e\n", worst, worst_yz);
    CHECK(worst < 1e-9 && worst_yz < 1e-9, "gaps_ff_map_32 does not invert gaps_map_ff");
}

/* ---- 3: the orientation average of the real matrix element ---- */
static void test_real_average(const gaps_me *me, double alphas)
{
    gaps_rng r = gaps_rng_make(12, 0, 0);
    double worst = 0.0;
    for (int k = 0; k < 2000; ++k) {
        double u[4];
        gaps_rng_uniform2(&r, &u[0], &u[1]);
        gaps_rng_uniform2(&r, &u[2], &u[3]);
        const int f = 1 + k % 5;
        double pi[4], pk[4], p[3][4];
        born_pair(me->ecm, 2.0 * u[0] - 1.0, 2.0 * GAPS_PI * u[1], pi, pk);
        gaps_map_ff(pi, pk, u[3], u[2], 1.234 * k, p[0], p[2], p[1]);
        const double s12 = 2.0 * mdot(p[0], p[1]), s13 = 2.0 * mdot(p[0], p[2]),
                     s23 = 2.0 * mdot(p[1], p[2]);
        if (s13 < 1e-6 * me->s || s23 < 1e-6 * me->s) continue;
        /* R depends on the beam direction n through E - p.n and E + p.n: put n along each of
         * +-x, +-y, +-z in turn (the partons' p_z replaced by +-p_x, +-p_y, +-p_z) */
        double sum = 0.0;
        for (int axis = 1; axis <= 3; ++axis)
            for (int sign = -1; sign <= 1; sign += 2) {
                double a[2][4];
                for (int j = 0; j < 2; ++j) {
                    memcpy(a[j], p[j], sizeof a[j]);
                    a[j][3] = sign * p[j][axis];
                }
                sum += gaps_ee_qqg_real(me, f, alphas, a[0], a[1], s13, s23);
            }
        const double avg = sum / 6.0;
        /* the Born averaged over orientations: A_f (1 + <c^2>) = 4/3 A_f */
        const double expect = gaps_ee_qqg_real_averaged(4.0 / 3.0 * me->A[f], alphas, me->s, s12,
                                                        s13, s23);
        worst = fmax(worst, fabs(avg / expect - 1.0));
    }
    printf("3. exact real matrix element averaged over orientations against "
           "(x1^2 + x2^2)/((1-x1)(1-x2)): largest relative difference %.2e\n", worst);
    CHECK(worst < 1e-10, "the real matrix element's orientation average is wrong");
}

/* ---- 4: the limits ---- */
enum limit { SOFT, COLL_13, COLL_23, N_LIMITS };
static const char *const limit_name[N_LIMITS] = { "soft gluon", "gluon || quark",
                                                  "gluon || antiquark" };
enum variant { GOOD, NO_D231, EIKONAL_ONLY, BORN_SWAPPED, N_VARIANTS };
static const char *const variant_name[N_VARIANTS] = {
    "R - D_132 - D_231", "control: D_231 left out", "control: splitting function 2/(1-z(1-y)) only",
    "control: Born with quark and antiquark swapped"
};

/* The point of limit `lim` at approach parameter lam: soft: y = 0.4 lam, 1 - z = 0.6 lam
 * (map of the quark; the gluon's energy ~ lam); collinear: y = lam^2 at fixed z (k_T ~ lam),
 * map of the quark (13) or the antiquark (23). */
static void limit_point(const gaps_me *me, enum limit lim, double lam, double c, double phi_b,
                        double z_c, double phi, double p[3][4], double sij[3])
{
    double q[4], qb[4];
    born_pair(me->ecm, c, phi_b, q, qb);
    double y, z, omz;
    if (lim == SOFT) { y = 0.4 * lam; omz = 0.6 * lam; z = 1.0 - omz; }
    else { y = lam * lam; z = z_c; omz = 1.0 - z_c; }
    const int emitter = lim == COLL_23 ? 1 : 0;
    gaps_map_ff(emitter ? qb : q, emitter ? q : qb, z, y, phi, p[emitter], p[2], p[1 - emitter]);
    const double s = me->s;
    const double s_ij = y * s, s_ik = z * (1.0 - y) * s, s_jk = omz * (1.0 - y) * s;
    sij[0] = s_ik;                              /* s12 */
    sij[1] = emitter ? s_jk : s_ij;             /* s13 */
    sij[2] = emitter ? s_ij : s_jk;             /* s23 */
}

/* |R - D| / R for a subtraction variant. */
static double residual(const gaps_me *me, int f, double alphas, enum variant v,
                       const double p[3][4], const double sij[3])
{
    double real, d[2];
    const double rd = gaps_ee_qqg_subtracted(me, f, alphas, p, sij[0], sij[1], sij[2], &real, d);
    double sub = real - rd;   /* D_132 + D_231 */
    if (v == NO_D231) sub = d[0];
    if (v == EIKONAL_ONLY || v == BORN_SWAPPED) {
        /* rebuilt from the pieces: D = 8 pi alphas / s_ij * V * Born */
        sub = 0.0;
        for (int e = 0; e < 2; ++e) {
            const int i = e == 0 ? 0 : 1, k = 1 - i;
            const double s_ij = sij[e == 0 ? 1 : 2], s_ik = sij[0], s_jk = sij[e == 0 ? 2 : 1];
            double y, z, pij[4], pkt[4];
            gaps_ff_map_32(p[i], p[2], p[k], s_ij, s_ik, s_jk, &y, &z, pij, pkt);
            const int swap = v == BORN_SWAPPED;
            const double *quark = (e == 0) != swap ? pij : pkt;
            const double born = gaps_me_squared(me, f, quark[3] / quark[0]);
            const double omz = s_jk / (s_ik + s_jk);
            const double kern = v == EIKONAL_ONLY ? GAPS_CF * 2.0 / (omz + z * y)
                                                  : gaps_ff_qqg_kernel(y, z, omz);
            sub += 8.0 * GAPS_PI * alphas / s_ij * kern * born;
        }
    }
    return fabs(real - sub) / real;
}

/* Walk lam = 10^-1 .. 10^-6.  The residual must fall at least like lam: the log-log slope over
 * the last three decades >= 0.85, and residual / lam bounded (<= 50, and at lam = 1e-6 at
 * most 3 times its value at 1e-4).  Returns 1 if the walk passes; the slope in *slope. */
static int walk(const gaps_me *me, int f, double alphas, enum variant v, enum limit lim,
                double c, double phi_b, double z_c, double phi, double *slope, double *last)
{
    double res[6], lam[6];
    for (int k = 0; k < 6; ++k) {
        lam[k] = pow(10.0, -(k + 1));
        double p[3][4], sij[3];
        limit_point(me, lim, lam[k], c, phi_b, z_c, phi, p, sij);
        res[k] = residual(me, f, alphas, v, (const double(*)[4])p, sij);
    }
    *slope = (log10(res[2]) - log10(res[5])) / 3.0;
    *last = res[5];
    const int ok = *slope >= 0.85 && res[5] / lam[5] <= 50.0
                   && res[5] / lam[5] <= 3.0 * res[3] / lam[3];
    if (getenv("GAPS_TEST_VERBOSE"))
        printf("      walk %d %d: %.3e %.3e %.3e %.3e %.3e %.3e slope %.3f%s\n", v, lim, res[0],
               res[1], res[2], res[3], res[4], res[5], *slope, ok ? "" : "  FAILS");
    return ok;
}

static void test_limits(const gaps_me *me, double alphas)
{
    printf("4. (R - D)/R towards the limits, lam = 1e-1 .. 1e-6 (soft: E_g ~ lam; collinear: "
           "k_T ~ lam); 60 configurations each\n");
    for (int v = 0; v < N_VARIANTS; ++v) {
        for (int lim = 0; lim < N_LIMITS; ++lim) {
            int passed = 0, n = 0;
            double smin = 1e9, smax = -1e9, worst_last = 0.0;
            gaps_rng r = gaps_rng_make(13, (uint64_t)lim, 0);
            for (int k = 0; k < 60; ++k) {
                double u[4];
                gaps_rng_uniform2(&r, &u[0], &u[1]);
                gaps_rng_uniform2(&r, &u[2], &u[3]);
                double slope, last;
                const int f = 1 + k % 5;
                const int ok = walk(me, f, alphas, (enum variant)v, (enum limit)lim,
                                    2.0 * u[0] - 1.0, 2.0 * GAPS_PI * u[1], 0.05 + 0.9 * u[2],
                                    2.0 * GAPS_PI * u[3], &slope, &last);
                passed += ok;
                ++n;
                smin = fmin(smin, slope);
                smax = fmax(smax, slope);
                worst_last = fmax(worst_last, last);
            }
            printf("   %-46s %-19s slope %.3f .. %.3f, (R-D)/R at 1e-6 <= %.2e: %d/%d pass\n",
                   variant_name[v], limit_name[lim], smin, smax, worst_last, passed, n);
            if (v == GOOD)
                CHECK(passed == n, "R - D does not vanish like lam in the %s limit",
                      limit_name[lim]);
        }
    }
    /* each negative control must fail where it is wrong: a missing D_231 in the soft and the
     * gluon || antiquark limits, the eikonal-only function in both collinear limits, the
     * Born at the antiquark's angle (its forward-backward term has the wrong sign) in all */
    struct { enum variant v; enum limit lim; } must_fail[] = {
        { NO_D231, SOFT }, { NO_D231, COLL_23 }, { EIKONAL_ONLY, COLL_13 },
        { EIKONAL_ONLY, COLL_23 }, { BORN_SWAPPED, SOFT }, { BORN_SWAPPED, COLL_13 },
        { BORN_SWAPPED, COLL_23 }
    };
    for (size_t i = 0; i < sizeof must_fail / sizeof must_fail[0]; ++i) {
        gaps_rng r = gaps_rng_make(13, (uint64_t)must_fail[i].lim, 0);
        int passed = 0;
        for (int k = 0; k < 60; ++k) {
            double u[4], slope, last;
            gaps_rng_uniform2(&r, &u[0], &u[1]);
            gaps_rng_uniform2(&r, &u[2], &u[3]);
            passed += walk(me, 1 + k % 5, alphas, must_fail[i].v, must_fail[i].lim,
                           2.0 * u[0] - 1.0, 2.0 * GAPS_PI * u[1], 0.05 + 0.9 * u[2],
                           2.0 * GAPS_PI * u[3], &slope, &last);
        }
        CHECK(passed == 0, "negative control '%s' passes the %s limit in %d of 60 walks",
              variant_name[must_fail[i].v], limit_name[must_fail[i].lim], passed);
    }
}

/* ---- 5: the integral of R - D ---- */

/* (1 - y)(R - D) / (8 pi alpha_s C_F Born / s) in the orientation average at (y, z) of the
 * quark's map, s = 1: the functions under test with alphas = 1 / (8 pi C_F), born = 1. */
static double averaged_integrand(double y, double omz)
{
    const double z = 1.0 - omz;
    const double s12 = z * (1.0 - y), s13 = y, s23 = omz * (1.0 - y);
    const double a = 1.0 / (8.0 * GAPS_PI * GAPS_CF);
    const double real = gaps_ee_qqg_real_averaged(1.0, a, 1.0, s12, s13, s23);
    const double d132 = gaps_ff_qqg_kernel(s13, s12 / (s12 + s23), s23 / (s12 + s23)) / GAPS_CF
                        / s13;
    const double d231 = gaps_ff_qqg_kernel(s23, s12 / (s12 + s13), s13 / (s12 + s13)) / GAPS_CF
                        / s23;
    return (1.0 - y) * (real - d132 - d231);
}

static void test_integral(void)
{
    enum { NG = 48, NP = 16 };
    const gl_rule gl = gl_make(NG);
    const double *x = gl.x, *w = gl.w;
    /* panels [10^-(k+1), 10^-k] in y and in 1 - z (and the last down to 0) */
    double sum = 0.0;
    for (int a = 0; a < NP; ++a) {
        const double ylo = a == NP - 1 ? 0.0 : pow(10.0, -(a + 1)), yhi = pow(10.0, -a);
        for (int b = 0; b < NP; ++b) {
            const double olo = b == NP - 1 ? 0.0 : pow(10.0, -(b + 1)), ohi = pow(10.0, -b);
            for (int i = 0; i < NG; ++i)
                for (int j = 0; j < NG; ++j) {
                    const double y = 0.5 * (ylo + yhi) + 0.5 * (yhi - ylo) * x[i];
                    const double omz = 0.5 * (olo + ohi) + 0.5 * (ohi - olo) * x[j];
                    sum += 0.25 * (yhi - ylo) * (ohi - olo) * w[i] * w[j]
                           * averaged_integrand(y, omz);
                }
        }
    }
    printf("5. integral of (1 - y)(R - D) dy dz in units of C_F alpha_s/(2 pi) sigma_B: %.9f "
           "(expected -1/2)\n", sum);
    CHECK(fabs(sum + 0.5) < 1e-6, "the subtracted real does not integrate to -1/2");
}

/* ---- 6: events ---- */
static void check_record(const gaps_process *proc, const gaps_hard_event *ev, int gaps21,
                         long *bad)
{
    const double s = proc->s, ecm = proc->ecm;
    double sum[4] = { 0, 0, 0, 0 };
    int ok = ev->n == 2 || ev->n == 3;
    for (int a = 0; a < ev->n && ok; ++a) {
        for (int m = 0; m < 4; ++m) sum[m] += ev->p[a][m];
        const double m2 = mdot(ev->p[a], ev->p[a]);
        if (fabs(m2) > 1e-10 * ev->p[a][0] * ecm || !(ev->p[a][0] > 0.0)) ok = 0;
    }
    ok = ok && fabs(sum[0] - ecm) + fabs(sum[1]) + fabs(sum[2]) + fabs(sum[3]) < 1e-10 * ecm;
    if (ev->n == 2)
        ok = ok && ev->col[0] == 1 && ev->acol[0] == 0 && ev->col[1] == 0 && ev->acol[1] == 1
             && ev->next_tag == 2 && ev->t_start == s && ev->flav[0] == -ev->flav[1];
    if (ev->n == 3) {
        ok = ok && ev->flav[2] == GAPS_GLUON && ev->flav[0] == -ev->flav[1] && ev->flav[0] >= 1
             && ev->flav[0] <= 5 && ev->col[0] == ev->acol[2] && ev->col[2] == ev->acol[1]
             && ev->col[0] != ev->col[2] && ev->acol[0] == 0 && ev->col[1] == 0
             && ev->next_tag == 3 && ev->t_start > 0.0 && ev->t_start <= 0.25 * s;
        if (ok && !gaps21) {   /* the smaller k_T^2 of the two clusterings */
            const double s12 = 2 * mdot(ev->p[0], ev->p[1]), s13 = 2 * mdot(ev->p[0], ev->p[2]),
                         s23 = 2 * mdot(ev->p[1], ev->p[2]);
            const double k1 = s13 * s12 * s23 / ((s12 + s23) * (s12 + s23));
            const double k2 = s23 * s12 * s13 / ((s12 + s13) * (s12 + s13));
            ok = fabs(ev->t_start / fmin(k1, k2) - 1.0) < 1e-6;
        }
    }
    if (!ok) ++*bad;
}

static void test_events(long n, uint32_t seed)
{
    gaps_alphas as;
    gaps_alphas_init(&as, 2, GAPS_DEFAULT_ALPHAS_MZ);
    for (int compat = 0; compat < GAPS_N_COMPAT; ++compat) {
        gaps_process proc;
        char msg[200];
        CHECK(gaps_process_init(&proc, GAPS_PROCESS_EE_QQ, GAPS_DEFAULT_ECM, msg, sizeof msg) == 0,
              "init: %s", msg);
        const double alphas = gaps_alphas_value(&as, proc.s);
        CHECK(gaps_process_set_nlo(&proc, alphas, compat, msg, sizeof msg) == 0, "nlo: %s", msg);
        const double lo = gaps_me_sigma_exact(&GAPS_PROCESS_CDATA(gaps_ee_qq_data, &proc)->lo);
        const double exact = gaps_process_sigma_exact(&proc);
        double sw = 0.0, sw2 = 0.0, sw_h = 0.0;
        long neg = 0, hard = 0, bad = 0, neg_s = 0;
        for (long k = 0; k < n; ++k) {
            gaps_rng r = gaps_rng_make(seed, (uint64_t)k, 0);
            gaps_hard_event ev;
            gaps_process_generate(&proc, &r, &ev);
            const double w = ev.weight;
            sw += w;
            sw2 += w * w;
            neg += w < 0.0;
            if (ev.n == 3) { ++hard; sw_h += w; }
            else neg_s += w < 0.0;
            if (k < 200000) check_record(&proc, &ev, compat == GAPS_COMPAT_GAPS21, &bad);
        }
        const double mean = sw / n, err = sqrt((sw2 / n - mean * mean) / n);
        const double pull = (mean - exact) / err;
        printf("6. %s: %ld hard events: sigma = %.2f +- %.2f pb, sigma_LO (1 + alpha_s/pi) = "
               "%.2f pb (alpha_s(s) = %.6f), pull %+.2f; sigma/sigma_LO = %.5f +- %.5f "
               "(1 + alpha_s/pi = %.5f)\n", compat ? "--compat gaps21" : "default", n, mean, err,
               exact, alphas, pull, mean / lo, err / lo, 1.0 + alphas / GAPS_PI);
        printf("   H events %.3f %%, negative weights %.3f %% (of them S: %ld), H part of sigma "
               "%.2f pb, effective events %.4g of %ld\n", 100.0 * hard / n, 100.0 * neg / n,
               neg_s, sw_h / n, sw * sw / sw2, n);
        CHECK(fabs(exact / (lo * (1.0 + alphas / GAPS_PI)) - 1.0) < 1e-14, "exact NLO sigma");
        CHECK(fabs(pull) < 4.0, "NLO cross section %.2f +- %.2f against %.2f", mean, err, exact);
        CHECK(neg > 0 && neg_s == 0, "negative weights: %ld, of S events %ld", neg, neg_s);
        CHECK(bad == 0, "%ld records fail the checks", bad);
    }
}

/* --print-real: 200 random q qbar g points, one line each: flavour, alpha_s, A_f, B_f, the
 * momenta p1, p2, p3 (E px py pz) and gaps_ee_qqg_real(), all %.17g; tests/test_nlo_real.py
 * recomputes R there from Dirac traces. */
static int print_real(const gaps_me *me, double alphas)
{
    gaps_rng r = gaps_rng_make(14, 0, 0);
    for (int k = 0; k < 200; ++k) {
        double u[4], q[4], qb[4], p[3][4];
        gaps_rng_uniform2(&r, &u[0], &u[1]);
        gaps_rng_uniform2(&r, &u[2], &u[3]);
        const int f = 1 + k % 5;
        born_pair(me->ecm, 2.0 * u[0] - 1.0, 2.0 * GAPS_PI * u[1], q, qb);
        const int emitter = k % 2;
        gaps_map_ff(emitter ? qb : q, emitter ? q : qb, 0.02 + 0.96 * u[3], 0.02 + 0.96 * u[2],
                    0.7 * k, p[emitter], p[2], p[1 - emitter]);
        const double s13 = 2.0 * mdot(p[0], p[2]), s23 = 2.0 * mdot(p[1], p[2]);
        printf("%d %.17g %.17g %.17g", f, alphas, me->A[f], me->B[f]);
        for (int a = 0; a < 3; ++a)
            for (int m = 0; m < 4; ++m) printf(" %.17g", p[a][m]);
        printf(" %.17g\n", gaps_ee_qqg_real(me, f, alphas, p[0], p[1], s13, s23));
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--print-real")) {
        gaps_me me;
        gaps_me_init(&me, GAPS_DEFAULT_ECM);
        return print_real(&me, 0.118);
    }
    const long n = argc > 1 ? atol(argv[1]) : 1000000;
    const uint32_t seed = argc > 2 ? (uint32_t)atol(argv[2]) : 7;
    gaps_me me;
    gaps_me_init(&me, GAPS_DEFAULT_ECM);
    gaps_alphas as;
    gaps_alphas_init(&as, 2, GAPS_DEFAULT_ALPHAS_MZ);
    const double alphas = gaps_alphas_value(&as, me.s);
    test_kernel();
    test_maps();
    test_real_average(&me, alphas);
    test_limits(&me, alphas);
    test_integral();
    test_events(n, seed);
    printf(failures ? "%d FAILURES\n" : "all passed\n", failures);
    return failures != 0;
}
