/* pp_ll.c -- Drell-Yan p p -> Z/gamma* -> e- e+ at leading order, dilepton mass in the window
 * [GAPS_PP_LL_M_LO, GAPS_PP_LL_M_HI] (doc/physics.md, section "Hadronic hard processes").
 *
 * Partonic |M|^2, averaged over the spins and colours of q qbar and summed over the leptons'
 * spins: the e+e- -> q qbar one of ee_qq.c crossed, with the colour factor 1/N_c instead of
 * N_c and the quark's couplings on the incoming side:
 *   |M|^2 = (4 pi alpha)^2 / N_c [A_f (1 + c^2) + B_f c],
 *   A_f = q_l^2 q_f^2 + 2 q_l q_f v_l v_f chi1 + (a_l^2 + v_l^2)(a_f^2 + v_f^2) chi2,
 *   B_f = 4 q_l q_f a_l a_f chi1 + 8 a_l v_l a_f v_f chi2,
 *   chi1 = kappa m^2 (m^2 - M_Z^2) / D, chi2 = (kappa m^2)^2 / D,
 *   D = (m^2 - M_Z^2)^2 + Gamma_Z^2 M_Z^2, kappa = 1 / (4 sin^2 theta_W cos^2 theta_W),
 * where c is the cosine of the angle between the incoming QUARK and the outgoing l- in the
 * dilepton rest frame.  With that angle B_f > 0 means l- follows the quark (the textbook
 * forward-backward asymmetry: e.g. for u quarks B > 0 above the pole, B < 0 well below it).
 *
 * dsigma = sum_(f, orientation) [x_a f(x_a)] [x_b f'(x_b)] |M|^2 / (2 m^4)
 *          dm^2 dy dc dphi / (32 pi^2)   at mu_F = m.
 * Sampling: m^2 = M_Z^2 + M_Z Gamma_Z tan(rho), rho uniform between the window's edges (the
 * Z Breit-Wigner, flat in rho); y uniform in [-ln(sqrt s / m), ln(sqrt s / m)]; c uniform in
 * [-1, 1] and phi in [0, 2 pi) for the l- in the dilepton rest frame, whose z axis is the
 * beam axis (at LO the pair has no transverse momentum).  As in pp_z.c, the ten channels
 * (flavour, which proton gives the quark) are summed in the weight and one is chosen with
 * probability proportional to its contribution. */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/processes.h"

#include <math.h>

void gaps_pp_ll_init(gaps_pp_ll *ll, double ecm)
{
    const double sw2 = GAPS_SIN2_THETAW;
    const double ql = -1.0, al = -0.5, vl = al - 2.0 * ql * sw2;   /* the electron */
    ll->m_lo = GAPS_PP_LL_M_LO;
    ll->m_hi = GAPS_PP_LL_M_HI;
    ll->mz2 = GAPS_MZ * GAPS_MZ;
    ll->mz_gz = GAPS_MZ * GAPS_GAMMA_Z;
    /* host only, once per run: the values are copied wherever the loops run */
    ll->rho_lo = atan((ll->m_lo * ll->m_lo - ll->mz2) / ll->mz_gz);
    ll->rho_hi = atan((ll->m_hi * ll->m_hi - ll->mz2) / ll->mz_gz);
    ll->kappa = 1.0 / (4.0 * sw2 * (1.0 - sw2));
    ll->sqrt_s = ecm;
    ll->s = ecm * ecm;
    ll->a0[0] = ll->a1[0] = ll->a2[0] = ll->b1[0] = ll->b2[0] = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        double qf, vf, af;
        gaps_quark_couplings(f, &qf, &vf, &af);
        ll->a0[f] = ql * ql * qf * qf;
        ll->a1[f] = 2.0 * ql * qf * vl * vf;
        ll->a2[f] = (al * al + vl * vl) * (af * af + vf * vf);
        ll->b1[f] = 4.0 * ql * qf * al * af;
        ll->b2[f] = 8.0 * al * vl * af * vf;
    }
    const double e2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM;
    ll->norm = GAPS_GEV2_TO_PB * e2 * e2 / (16.0 * GAPS_PI * GAPS_NC);
}

/* A typical large weight: the weight at m = M_Z, c = +-1 for the largest channel at the parton
 * luminosity GAPS_PP_LL_UNIT_LUMINOSITY (constants.h). */
double gaps_pp_ll_weight_unit(const gaps_pp_ll *ll)
{
    const double jac_m = (ll->rho_hi - ll->rho_lo) * ll->mz_gz;   /* D / (M Gamma) at the pole */
    const double chi2 = ll->kappa * ll->mz2 * ll->kappa * ll->mz2 / (ll->mz_gz * ll->mz_gz);
    double mmax = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        mmax = fmax(mmax, 2.0 * (ll->a0[f] + ll->a2[f] * chi2) + fabs(ll->b2[f] * chi2));
    return GAPS_PP_LL_UNIT_LUMINOSITY * ll->norm * jac_m * gaps_log(ll->s / ll->mz2)
           / (ll->mz2 * ll->mz2) * mmax;
}

GAPS_DEVICE_BEGIN

void gaps_pp_ll_generate(const gaps_pp_ll *ll, const gaps_pdf *pdf, gaps_rng *rng,
                         gaps_hard_event *ev)
{
    double rrho, ry, rc, rphi;
    gaps_rng_uniform2(rng, &rrho, &ry);
    gaps_rng_uniform2(rng, &rc, &rphi);
    const double rch = gaps_rng_uniform(rng);

    /* m^2 from the Breit-Wigner: dm^2 = D / (M Gamma) drho */
    const double rho = ll->rho_lo + (ll->rho_hi - ll->rho_lo) * rrho;
    double srho, crho;
    gaps_sincos(rho, &srho, &crho);
    const double m2 = ll->mz2 + ll->mz_gz * (srho / crho);
    const double m = sqrt(m2);
    const double dm = m2 - ll->mz2;
    const double den = dm * dm + ll->mz_gz * ll->mz_gz;
    const double jac_m = (ll->rho_hi - ll->rho_lo) * den / ll->mz_gz;

    /* rapidity of the pair, uniform where both x stay below 1 */
    const double y_range = gaps_log(ll->s / m2);   /* 2 ln(sqrt s / m): the Jacobian */
    const double y = 0.5 * y_range * (2.0 * ry - 1.0);
    const double sqrt_tau = m / ll->sqrt_s;
    const double xa = sqrt_tau * gaps_exp(y);
    const double xb = sqrt_tau * gaps_exp(-y);

    /* the l- direction in the pair's rest frame */
    const double c = 2.0 * rc - 1.0;
    const double st = sqrt(fmax(0.0, 1.0 - c * c));
    double sphi, cphi;
    gaps_sincos(2.0 * GAPS_PI * rphi, &sphi, &cphi);

    /* |M|^2 coefficients at this m^2 */
    const double km2 = ll->kappa * m2;
    const double chi1 = km2 * dm / den;
    const double chi2 = km2 * km2 / den;

    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, xa, m2, fa);
    gaps_pdf_xfxq2_all(pdf, xb, m2, fb);
    /* channel 2(f-1) + o: quark from the proton along +z (o = 0: the angle to the quark is
     * theta, c_q = c) or along -z (o = 1: c_q = -c) */
    double ch[2 * GAPS_N_FLAVOURS];
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        const double A = ll->a0[f] + ll->a1[f] * chi1 + ll->a2[f] * chi2;
        const double B = ll->b1[f] * chi1 + ll->b2[f] * chi2;
        const double even = A * (1.0 + c * c);
        ch[2 * (f - 1)] = (fa[6 + f] * fb[6 - f]) * (even + B * c);
        ch[2 * (f - 1) + 1] = (fa[6 - f] * fb[6 + f]) * (even - B * c);
    }
    double sum, sign;
    const int k = gaps_choose_channel(ch, 2 * GAPS_N_FLAVOURS, rch, &sum, &sign);
    const int f = 1 + k / 2;
    const int quark_along_minus_z = k % 2;

    /* incoming partons: rows 0 (quark) and 1 (antiquark) */
    const double half = 0.5 * ll->sqrt_s;
    const double xq = quark_along_minus_z ? xb : xa;
    const double xqb = quark_along_minus_z ? xa : xb;
    const double zq = quark_along_minus_z ? -1.0 : 1.0;
    ev->p[0][0] = xq * half;
    ev->p[0][1] = ev->p[0][2] = 0.0;
    ev->p[0][3] = zq * ev->p[0][0];
    ev->p[1][0] = xqb * half;
    ev->p[1][1] = ev->p[1][2] = 0.0;
    ev->p[1][3] = -zq * ev->p[1][0];

    /* outgoing leptons: (m/2)(1, st cphi, st sphi, +-c) boosted along z by y, written with
     * x_a = (m / sqrt s) e^y and x_b = (m / sqrt s) e^-y, so that E^2 - pz^2 = (x_a x_b s / 4)
     * (1 - c^2) = pT^2 and the two energies add up to (x_a + x_b) sqrt(s) / 2 */
    const double quarter = 0.25 * ll->sqrt_s;
    const double pt = 0.5 * m * st;
    for (int l = 0; l < 2; ++l) {
        const double cl = l == 0 ? c : -c;   /* row 2: l-, row 3: l+ (back to back) */
        const double sgn = l == 0 ? 1.0 : -1.0;
        const double ua = xa * (1.0 + cl), ub = xb * (1.0 - cl);
        ev->p[2 + l][0] = quarter * (ua + ub);
        ev->p[2 + l][1] = sgn * pt * cphi;
        ev->p[2 + l][2] = sgn * pt * sphi;
        ev->p[2 + l][3] = quarter * (ua - ub);
    }

    ev->flav[0] = f;
    ev->col[0] = 1;
    ev->acol[0] = 0;
    ev->flav[1] = -f;
    ev->col[1] = 0;
    ev->acol[1] = 1;
    ev->flav[2] = GAPS_PDG_ELECTRON;
    ev->flav[3] = -GAPS_PDG_ELECTRON;
    ev->col[2] = ev->acol[2] = ev->col[3] = ev->acol[3] = 0;
    ev->x[0] = xq;
    ev->x[1] = xqb;
    ev->n_in = 2;
    ev->n = 4;
    ev->next_tag = 2;
    ev->weight = sign * sum * ll->norm * jac_m * y_range / (m2 * m2);
    ev->t_start = m2;   /* the mass^2 of the colour-connected q qbar pair */
}

GAPS_DEVICE_END
