/* pp_ll_nlo.c -- the matrix elements of p p -> Z/gamma* -> e- e+ (Drell-Yan in the mass window
 * of pp_ll.c) at NLO with Catani-Seymour subtraction (declarations in src/process/pp_nlo.h and, for
 * gaps_pp_ll_born_pq, process/processes.h; doc/nlo.md section 12).
 *
 * The QCD corrections act on the quark line only.  The real matrix elements are those of
 * e+ e- -> q qbar g (ee_qq_nlo.c) crossed: the quarks become the incoming partons and the
 * leptons the outgoing pair; the dipoles are the initial-initial ones of pp_z_nlo.c with the
 * Drell-Yan Born evaluated at the mapped momenta (the map boosts both leptons, so the dilepton
 * mass is that of the real event).  V + I, K and P are those of p p -> Z with the Born of the
 * event (the builder of mcatnlo.c).  Pure functions: no allocation, no recursion, no state. */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/pp_nlo.h"
#include "shower/kinematics.h"
#include "process/pp_ll.h"

#include <math.h>
#include <stddef.h>

GAPS_DEVICE_BEGIN

void gaps_pp_ll_born_pq(const gaps_pp_ll *ll, int f, double m2, double *P, double *Q)
{
    const double dm = m2 - ll->mz2;
    const double den = dm * dm + ll->mz_gz * ll->mz_gz;
    const double km2 = ll->kappa * m2;
    const double chi1 = km2 * dm / den, chi2 = km2 * km2 / den;
    const double A = ll->a0[f] + ll->a1[f] * chi1 + ll->a2[f] * chi2;
    const double B = ll->b1[f] * chi1 + ll->b2[f] * chi2;
    const double e2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM, g = e2 * e2 / GAPS_NC;
    *P = g * (0.5 * A + 0.25 * B);
    *Q = g * (0.5 * A - 0.25 * B);
}

double gaps_pp_ll_born(double P, double Q, const double q[4], const double lm[4],
                       const double lp[4])
{
    const double m2 = 2.0 * gaps_mdot(lm, lp), a = gaps_mdot(q, lp), b = gaps_mdot(q, lm);
    return 16.0 * (P * a * a + Q * b * b) / (m2 * m2);
}

/* the crossed e+ e- -> q qbar g structure: q and qb the (physical or crossed) incoming quark
 * and antiquark momenta, g the outgoing gluon's (or a crossed one) */
static double real_core(double P, double Q, double alphas, const double q[4], const double qb[4],
                        const double lm[4], const double lp[4], const double g[4])
{
    const double m2 = 2.0 * gaps_mdot(lm, lp);
    const double mqb = gaps_mdot(lm, qb), pq = gaps_mdot(lp, q), mq = gaps_mdot(lm, q), pqb = gaps_mdot(lp, qb);
    const double num = P * (mqb * mqb + pq * pq) + Q * (mq * mq + pqb * pqb);
    return 128.0 * GAPS_PI * alphas * GAPS_CF / m2 * num
           / ((2.0 * gaps_mdot(q, g)) * (2.0 * gaps_mdot(qb, g)));
}

double gaps_pp_ll_qqbar_real(double P, double Q, double alphas, const double q[4],
                             const double qb[4], const double lm[4], const double lp[4],
                             const double k[4])
{
    return real_core(P, Q, alphas, q, qb, lm, lp, k);
}

double gaps_pp_ll_qg_real(double P, double Q, double alphas, int anti, const double a[4],
                          const double g[4], const double lm[4], const double lp[4],
                          const double k[4])
{
    double mk[4], mg[4];
    for (int m = 0; m < 4; ++m) {
        mk[m] = -k[m];
        mg[m] = -g[m];
    }
    const double r = anti ? real_core(P, Q, alphas, mk, a, lm, lp, mg)
                          : real_core(P, Q, alphas, a, mk, lm, lp, mg);
    return -GAPS_TR / GAPS_CF * r;
}

double gaps_pp_ll_ii_dipole(double P, double Q, double alphas, int gluon_initial,
                            int quark_at_a, const double pa[4], const double pb[4],
                            const double pi[4], const double lm[4], const double lp[4],
                            double lmt[4], double lpt[4])
{
    double x, v, at[4], bt[4], mt[4], ptt[4];
    gaps_ii_map_32(pa, pb, pi, &x, &v, at, bt, lm, mt);
    gaps_ii_map_32(pa, pb, pi, &x, &v, at, bt, lp, ptt);
    if (lmt)
        for (int m = 0; m < 4; ++m) lmt[m] = mt[m];
    if (lpt)
        for (int m = 0; m < 4; ++m) lpt[m] = ptt[m];
    const double born = gaps_pp_ll_born(P, Q, quark_at_a ? at : bt, mt, ptt);
    const double kern = gluon_initial ? gaps_ii_gq_kernel(x) : gaps_ii_qq_kernel(x);
    return 8.0 * GAPS_PI * alphas * kern * born / (2.0 * gaps_mdot(pa, pi) * x);
}

double gaps_pp_ll_qqbar_subtracted(double P, double Q, double alphas, const double q[4],
                                   const double qb[4], const double lm[4], const double lp[4],
                                   const double k[4], double *real, double *d)
{
    const double r = gaps_pp_ll_qqbar_real(P, Q, alphas, q, qb, lm, lp, k);
    const double dq = gaps_pp_ll_ii_dipole(P, Q, alphas, 0, 1, q, qb, k, lm, lp, NULL, NULL);
    const double dqb = gaps_pp_ll_ii_dipole(P, Q, alphas, 0, 0, qb, q, k, lm, lp, NULL, NULL);
    if (real) *real = r;
    if (d) { d[0] = dq; d[1] = dqb; }
    return r - dq - dqb;
}

double gaps_pp_ll_qg_subtracted(double P, double Q, double alphas, int anti, const double a[4],
                                const double g[4], const double lm[4], const double lp[4],
                                const double k[4], double *real, double *d)
{
    const double r = gaps_pp_ll_qg_real(P, Q, alphas, anti, a, g, lm, lp, k);
    /* the gluon (emitter) becomes the Born antiquark (anti = 0) or quark (anti = 1) */
    const double dg = gaps_pp_ll_ii_dipole(P, Q, alphas, 1, anti, g, a, k, lm, lp, NULL, NULL);
    if (real) *real = r;
    if (d) { d[0] = dg; d[1] = 0.0; }
    return r - dg;
}

GAPS_DEVICE_END
