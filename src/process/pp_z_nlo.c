/* pp_z_nlo.c -- the pieces of p p -> Z (on shell) at NLO with Catani-Seymour subtraction
 * (declarations and formulas in src/process/pp_nlo.h; derivations in doc/nlo.md, "p p -> Z").
 * Pure functions: no allocation, no recursion, no state; callable on every backend.  Logarithms
 * through gaps_log (gaps/fpmath.h) like the rest of the weights, so that they are bit-identical
 * across backends. */
#include "process/pp_nlo.h"
#include "shower/kinematics.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"

#include <math.h>
#include <stddef.h>

GAPS_DEVICE_BEGIN

double gaps_pp_z_born(int f)
{
    const double sw2 = GAPS_SIN2_THETAW;
    const double mz2 = GAPS_MZ * GAPS_MZ;
    const int up = (f % 2 == 0);               /* u and c */
    const double q = up ? 2.0 / 3.0 : -1.0 / 3.0;
    const double a = up ? 0.5 : -0.5;
    const double v = a - 2.0 * q * sw2;
    const double g = 4.0 * GAPS_PI * GAPS_ALPHA_EM / (mz2 * sw2 * (1.0 - sw2));
    return g * mz2 * mz2 * (a * a + v * v) / (4.0 * GAPS_NC);
}

double gaps_pp_qqbar_zg_real(double born, double alphas, double mz2, const double pa[4],
                             const double pb[4], const double k[4])
{
    const double s = 2.0 * gaps_mdot(pa, pb), t = -2.0 * gaps_mdot(pa, k), u = -2.0 * gaps_mdot(pb, k);
    return 8.0 * GAPS_PI * alphas * GAPS_CF * born / mz2 * (t * t + u * u + 2.0 * s * mz2)
           / (t * u);
}

double gaps_pp_qg_zq_real(double born, double alphas, double mz2, const double pa[4],
                          const double pb[4], const double k[4])
{
    const double s = 2.0 * gaps_mdot(pa, pb), t = -2.0 * gaps_mdot(pa, k), u = -2.0 * gaps_mdot(pb, k);
    return -8.0 * GAPS_PI * alphas * GAPS_TR * born / mz2 * (s * s + u * u + 2.0 * t * mz2)
           / (s * u);
}

void gaps_ii_map_32(const double pa[4], const double pb[4], const double pi[4], double *x,
                    double *v, double pat[4], double pbt[4], const double q[4], double qt[4])
{
    const double ab = gaps_mdot(pa, pb), ai = gaps_mdot(pa, pi), bi = gaps_mdot(pb, pi);
    const double xx = (ab - ai - bi) / ab;
    *x = xx;
    *v = ai / ab;
    double K[4], Kt[4], S[4];
    for (int m = 0; m < 4; ++m) {
        pat[m] = xx * pa[m];
        pbt[m] = pb[m];
        K[m] = pa[m] + pb[m] - pi[m];
        Kt[m] = pat[m] + pbt[m];
        S[m] = K[m] + Kt[m];
    }
    if (q && qt) {
        const double s2 = gaps_mdot(S, S), k2 = gaps_mdot(K, K);
        const double cs = 2.0 * gaps_mdot(q, S) / s2, ck = 2.0 * gaps_mdot(q, K) / k2;
        for (int m = 0; m < 4; ++m) qt[m] = q[m] - cs * S[m] + ck * Kt[m];
    }
}

double gaps_ii_qq_kernel(double x) { return GAPS_CF * (2.0 / (1.0 - x) - (1.0 + x)); }

double gaps_ii_gq_kernel(double x) { return GAPS_TR * (1.0 - 2.0 * x * (1.0 - x)); }

double gaps_pp_ii_dipole(double born, double alphas, int gluon_initial, const double pa[4],
                         const double pb[4], const double pi[4], const double z[4],
                         double pat[4], double pbt[4], double zt[4])
{
    double x, v, at[4], bt[4];
    gaps_ii_map_32(pa, pb, pi, &x, &v, pat ? pat : at, pbt ? pbt : bt, z, zt);
    const double kern = gluon_initial ? gaps_ii_gq_kernel(x) : gaps_ii_qq_kernel(x);
    return 8.0 * GAPS_PI * alphas * kern * born / (2.0 * gaps_mdot(pa, pi) * x);
}

double gaps_pp_qqbar_zg_subtracted(double born, double alphas, double mz2, const double pa[4],
                                   const double pb[4], const double k[4], double *real,
                                   double *d)
{
    const double r = gaps_pp_qqbar_zg_real(born, alphas, mz2, pa, pb, k);
    const double da = gaps_pp_ii_dipole(born, alphas, 0, pa, pb, k, NULL, NULL, NULL, NULL);
    const double db = gaps_pp_ii_dipole(born, alphas, 0, pb, pa, k, NULL, NULL, NULL, NULL);
    if (real) *real = r;
    if (d) { d[0] = da; d[1] = db; }
    return r - da - db;
}

double gaps_pp_qg_zq_subtracted(double born, double alphas, double mz2, const double pa[4],
                                const double pb[4], const double k[4], double *real,
                                double *d)
{
    const double r = gaps_pp_qg_zq_real(born, alphas, mz2, pa, pb, k);
    const double db = gaps_pp_ii_dipole(born, alphas, 1, pb, pa, k, NULL, NULL, NULL, NULL);
    if (real) *real = r;
    if (d) { d[0] = db; d[1] = 0.0; }
    return r - db;
}

double gaps_pp_qq_subtracted_vint(double alphas, double x)
{
    return alphas / (2.0 * GAPS_PI) * GAPS_CF * (-2.0 * (1.0 - x));
}

double gaps_pp_gq_subtracted_vint(double alphas, double x)
{
    const double omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * GAPS_TR * (2.0 * x * omx + 0.5 * omx * omx);
}

double gaps_pp_z_virtual_i(double alphas) { return alphas / (2.0 * GAPS_PI) * GAPS_CF * 2.0; }

/* Li2 on [0, 1/2] by its power series (0.5^60 / 3600 < 1e-21) */
static double li2_series(double y)
{
    double term = y, sum = 0.0;
    for (int n = 1; n <= 60; ++n) {
        sum += term / ((double)n * (double)n);
        term *= y;
    }
    return sum;
}

/* Li2 on [0, 1]: the series, or the reflection Li2(y) = pi^2/6 - ln y ln(1-y) - Li2(1-y) */
static double li2_unit(double y)
{
    if (y <= 0.5) return li2_series(y);
    if (y >= 1.0) return GAPS_PI * GAPS_PI / 6.0;
    return GAPS_PI * GAPS_PI / 6.0 - gaps_log(y) * gaps_log(1.0 - y) - li2_series(1.0 - y);
}

double gaps_li2(double y)
{
    if (y >= 0.0) return li2_unit(y);
    /* Landen: Li2(y) = -Li2(y/(y-1)) - ln^2(1-y)/2, y/(y-1) in (0, 1) for y < 0 */
    const double l = gaps_log(1.0 - y);
    return -li2_unit(y / (y - 1.0)) - 0.5 * l * l;
}

double gaps_li2_gaps21(double y)
{
    double term = y, sum = 0.0;
    for (int n = 1; n <= 99; ++n) {
        const double t = term / ((double)n * (double)n);
        if (fabs(t) < 1e-12) break;
        sum += t;
        term *= y;
    }
    return sum;
}

/* L = ln((1-x)/x) + ln(1-x) = 2 ln(1-x) - ln x */
static double k_log(double x) { return 2.0 * gaps_log(1.0 - x) - gaps_log(x); }

double gaps_pp_k_qq_integrand(double alphas, double x, double rho)
{
    const double L = k_log(x);
    return alphas / (2.0 * GAPS_PI) * GAPS_CF
           * (2.0 * L / (1.0 - x) * (rho - 1.0) + (-(1.0 + x) * L + (1.0 - x)) * rho);
}

double gaps_pp_k_gq_integrand(double alphas, double x, double rho)
{
    const double L = k_log(x), omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * GAPS_TR * (2.0 * x * omx + (x * x + omx * omx) * L) * rho;
}

double gaps_pp_k_qq_endpoint(double alphas, double eta, int gaps21)
{
    const double pi2 = GAPS_PI * GAPS_PI, l = gaps_log(1.0 - eta);
    const double li = gaps21 ? gaps_li2_gaps21(1.0 - eta) : gaps_li2(1.0 - eta);
    return alphas / (2.0 * GAPS_PI) * GAPS_CF
           * (-(5.0 - 2.0 * pi2 / 3.0) - 2.0 * (pi2 / 6.0 - l * l - li));
}

double gaps_pp_p_qq_integrand(double alphas, double lf, double x, double rho)
{
    return alphas / (2.0 * GAPS_PI) * lf * GAPS_CF * (1.0 + x * x) / (1.0 - x) * (rho - 1.0);
}

double gaps_pp_p_qq_endpoint(double alphas, double lf, double eta)
{
    return alphas / (2.0 * GAPS_PI) * lf * GAPS_CF
           * (2.0 * gaps_log(1.0 - eta) + eta + 0.5 * eta * eta);
}

double gaps_pp_p_gq_integrand(double alphas, double lf, double x, double rho)
{
    const double omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * lf * GAPS_TR * (x * x + omx * omx) * rho;
}

GAPS_DEVICE_END
