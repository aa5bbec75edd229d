/* pp_h_nlo.c -- the pieces of g g -> H (heavy-top limit, H stable) at NLO with Catani-Seymour
 * subtraction (declarations and formulas in process/pp_h_nlo.h; derivations in doc/nlo.md
 * section 16).  Pure functions: no allocation, no recursion, no state; callable on every
 * backend.  Logarithms through gaps_log (gaps/fpmath.h), the dilogarithm gaps_li2() and the
 * map gaps_ii_map_32() from pp_z_nlo.c (src/process/pp_nlo.h). */
#include "process/pp_h_nlo.h"
#include "process/pp_h.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/pp_nlo.h"
#include "shower/kinematics.h"

#include <stddef.h>

/* n_f = 5 light flavours: gamma_g = 11/6 C_A - 2/3 T_R n_f */
#define PP_H_NF ((double)GAPS_N_FLAVOURS)
#define PP_H_GAMMA_G (11.0 / 6.0 * GAPS_CA - 2.0 / 3.0 * GAPS_TR * PP_H_NF)

GAPS_DEVICE_BEGIN

double gaps_pp_h_born(double alphas, double mh2)
{
    return GAPS_PP_H_SIGMA0_OVER_AS2 * alphas * alphas * mh2 * mh2 / GAPS_PI;
}

double gaps_pp_h_gg_real(double born, double alphas, double mh2, const double pa[4],
                         const double pb[4], const double k[4])
{
    const double s = 2.0 * gaps_mdot(pa, pb), t = -2.0 * gaps_mdot(pa, k);
    const double u = -2.0 * gaps_mdot(pb, k);
    /* (m^8 + s^4 + t^4 + u^4) / m^4 written in ratios to m^2 (no overflow, same value) */
    const double rs = s / mh2, rt = t / mh2, ru = u / mh2;
    const double num = 1.0 + rs * rs * rs * rs + rt * rt * rt * rt + ru * ru * ru * ru;
    return 8.0 * GAPS_PI * alphas * GAPS_CA * born * num * mh2 * mh2 / (s * t * u);
}

double gaps_pp_h_qg_real(double born, double alphas, double mh2, const double pa[4],
                         const double pb[4], const double k[4])
{
    const double s = 2.0 * gaps_mdot(pa, pb), t = -2.0 * gaps_mdot(pa, k);
    const double u = -2.0 * gaps_mdot(pb, k);
    return 8.0 * GAPS_PI * alphas * GAPS_CF * born / (mh2 * mh2) * (s * s + u * u) / (-t);
}

double gaps_pp_h_qqbar_real(double born, double alphas, double mh2, const double pa[4],
                            const double pb[4], const double k[4])
{
    const double s = 2.0 * gaps_mdot(pa, pb), t = -2.0 * gaps_mdot(pa, k);
    const double u = -2.0 * gaps_mdot(pb, k);
    return 16.0 * GAPS_PI * alphas * GAPS_CF * GAPS_CF * born / (mh2 * mh2) * (t * t + u * u)
           / s;
}

double gaps_ii_gg_kernel(double x)
{
    const double omx = 1.0 - x;
    return 2.0 * GAPS_CA * (x / omx + omx / x + x * omx);
}

double gaps_ii_qg_kernel(double x)
{
    const double omx = 1.0 - x;
    return GAPS_CF * (1.0 + omx * omx) / x;
}

double gaps_pp_h_ii_dipole(double born, double alphas, int quark_emitter, const double pa[4],
                           const double pb[4], const double pi[4], const double h[4],
                           double pat[4], double pbt[4], double ht[4])
{
    double x, v, at[4], bt[4];
    gaps_ii_map_32(pa, pb, pi, &x, &v, pat ? pat : at, pbt ? pbt : bt, h, ht);
    const double kern = quark_emitter ? gaps_ii_qg_kernel(x) : gaps_ii_gg_kernel(x);
    return 8.0 * GAPS_PI * alphas * kern * born / (2.0 * gaps_mdot(pa, pi) * x);
}

double gaps_pp_h_gg_subtracted(double born, double alphas, double mh2, const double pa[4],
                               const double pb[4], const double k[4], double *real, double *d)
{
    const double r = gaps_pp_h_gg_real(born, alphas, mh2, pa, pb, k);
    const double da = gaps_pp_h_ii_dipole(born, alphas, 0, pa, pb, k, NULL, NULL, NULL, NULL);
    const double db = gaps_pp_h_ii_dipole(born, alphas, 0, pb, pa, k, NULL, NULL, NULL, NULL);
    if (real) *real = r;
    if (d) { d[0] = da; d[1] = db; }
    return r - da - db;
}

double gaps_pp_h_qg_subtracted(double born, double alphas, double mh2, const double pa[4],
                               const double pb[4], const double k[4], double *real, double *d)
{
    const double r = gaps_pp_h_qg_real(born, alphas, mh2, pa, pb, k);
    const double da = gaps_pp_h_ii_dipole(born, alphas, 1, pa, pb, k, NULL, NULL, NULL, NULL);
    if (real) *real = r;
    if (d) { d[0] = da; d[1] = 0.0; }
    return r - da;
}

double gaps_pp_h_qqbar_subtracted(double born, double alphas, double mh2, const double pa[4],
                                  const double pb[4], const double k[4], double *real,
                                  double *d)
{
    const double r = gaps_pp_h_qqbar_real(born, alphas, mh2, pa, pb, k);
    if (real) *real = r;
    if (d) { d[0] = 0.0; d[1] = 0.0; }
    return r;
}

double gaps_pp_h_gg_subtracted_vint(double alphas, double x)
{
    const double omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * (-11.0 * GAPS_CA / 3.0) * omx * omx * omx / x;
}

double gaps_pp_h_qg_subtracted_vint(double alphas, double x)
{
    const double omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * (-1.5 * GAPS_CF) * omx * omx / x;
}

double gaps_pp_h_qqbar_subtracted_vint(double alphas, double x)
{
    const double omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * (4.0 / 3.0) * GAPS_CF * GAPS_CF * omx * omx * omx / x;
}

double gaps_pp_h_virtual_i(double alphas, double lr)
{
    return alphas / (2.0 * GAPS_PI)
           * (11.0 + 100.0 / 9.0 * GAPS_CA - 32.0 / 9.0 * GAPS_TR * PP_H_NF
              + 2.0 * PP_H_GAMMA_G * lr);
}

/* L = ln((1-x)/x) + ln(1-x) = 2 ln(1-x) - ln x */
static double k_log(double x) { return 2.0 * gaps_log(1.0 - x) - gaps_log(x); }

double gaps_pp_k_gg_integrand(double alphas, double x, double rho)
{
    const double L = k_log(x), omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * GAPS_CA
           * (2.0 * L / omx * (rho - 1.0) + 2.0 * (omx / x - 1.0 + x * omx) * L * rho);
}

double gaps_pp_k_qg_integrand(double alphas, double x, double rho)
{
    const double L = k_log(x), omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * GAPS_CF * ((1.0 + omx * omx) / x * L + x) * rho;
}

double gaps_pp_k_gg_endpoint(double alphas, double eta)
{
    const double pi2 = GAPS_PI * GAPS_PI, l = gaps_log(1.0 - eta);
    const double delta = -(GAPS_CA * (50.0 / 9.0 - 2.0 * pi2 / 3.0) - 16.0 / 9.0 * GAPS_TR * PP_H_NF);
    return alphas / (2.0 * GAPS_PI)
           * (delta - 2.0 * GAPS_CA * (pi2 / 6.0 - l * l - gaps_li2(1.0 - eta)));
}

double gaps_pp_p_gg_integrand(double alphas, double lf, double x, double rho)
{
    const double omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * lf * 2.0 * GAPS_CA
           * ((rho - 1.0) / omx + (omx / x - 1.0 + x * omx) * rho);
}

double gaps_pp_p_gg_endpoint(double alphas, double lf, double eta)
{
    return alphas / (2.0 * GAPS_PI) * lf * (2.0 * GAPS_CA * gaps_log(1.0 - eta) + PP_H_GAMMA_G);
}

double gaps_pp_p_qg_integrand(double alphas, double lf, double x, double rho)
{
    const double omx = 1.0 - x;
    return alphas / (2.0 * GAPS_PI) * lf * GAPS_CF * (1.0 + omx * omx) / x * rho;
}

GAPS_DEVICE_END
