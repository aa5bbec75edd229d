/* leptons.c -- the lepton pair of the Drell-Yan-like processes (pp-ll, pp-w): its direction
 * in its rest frame, the leptons' momenta, and --leptons on their hard events
 * (process/processes.h). */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/processes.h"

#include <math.h>

GAPS_DEVICE_BEGIN

/* c from the density (3/8)[(1 + c^2) + beta c]: the mixture of (3/8)(1 + c^2) (probability
 * 1 - q) and (3/8)(1 + s c)^2, s the sign of beta (probability q = |beta| / 2), both sampled by
 * inverting their distribution functions: c^3 + 3c = 4v (v uniform in (-1, 1)) is
 * c = 2 sinh(asinh(2v) / 3), and (1 + s c)^3 = 8r is s c = 2 r^(1/3) - 1.  phi is uniform. */
void gaps_pp_lepton_direction(double beta, double rc, double rphi, double *c_out, double *st,
                              double *cphi, double *sphi, double *c_weight)
{
    const double q = 0.5 * fabs(beta);
    double c;
    if (rc < q) {
        const double r = rc / q;   /* uniform in (0, 1) */
        const double sc = 2.0 * gaps_exp(gaps_log(r) / 3.0) - 1.0;
        c = fmin(fmax(beta < 0.0 ? -sc : sc, -1.0), 1.0);
    } else {
        const double v = 2.0 * (rc - q) / (1.0 - q) - 1.0, av = fabs(2.0 * v);
        const double ex = gaps_exp(gaps_log(av + sqrt(av * av + 1.0)) / 3.0);
        c = fmin(ex - 1.0 / ex, 1.0) * (v < 0.0 ? -1.0 : 1.0);
    }
    /* the uniform density over the sampled one: (1/2) / ((3/8)[(1 + c^2) + beta c]) */
    const double c_density = (1.0 + c * c) + beta * c;
    *c_weight = c_density > 0.0 ? 4.0 / (3.0 * c_density) : 0.0;
    *st = sqrt(fmax(0.0, 1.0 - c * c));
    gaps_sincos(2.0 * GAPS_PI * rphi, sphi, cphi);
    *c_out = c;
}

/* (m/2)(1, st cphi, st sphi, +-c) boosted along z by y, written with x_a = (m / sqrt s) e^y
 * and x_b = (m / sqrt s) e^-y, so that E^2 - pz^2 = (x_a x_b s / 4)(1 - c^2) = pT^2 and the two
 * energies add up to (x_a + x_b) sqrt(s) / 2. */
void gaps_pp_lepton_momenta(double sqrt_s, double m, double xa, double xb, double c, double st,
                            double cphi, double sphi, double p[2][4])
{
    const double quarter = 0.25 * sqrt_s;
    const double pt_l = 0.5 * m * st;
    for (int l = 0; l < 2; ++l) {
        const double cl = l == 0 ? c : -c;
        const double sgn = l == 0 ? 1.0 : -1.0;
        const double ua = xa * (1.0 + cl), ub = xb * (1.0 - cl);
        p[l][0] = quarter * (ua + ub);
        p[l][1] = sgn * pt_l * cphi;
        p[l][2] = sgn * pt_l * sphi;
        p[l][3] = quarter * (ua - ub);
    }
}

void gaps_pp_lepton_flavour(int leptons, gaps_rng *rng, gaps_hard_event *ev)
{
    int mu = leptons == GAPS_LEPTONS_MU;
    if (leptons == GAPS_LEPTONS_E_MU) {
        mu = gaps_rng_uniform(rng) < 0.5;
        ev->weight *= 2.0;   /* a power of two: exact */
    }
    if (!mu) return;
    for (int r = 2; r < 4; ++r) {
        /* e -> mu, nu_e -> nu_mu, the sign (particle or antiparticle) kept */
        const int f = ev->flav[r], af = f < 0 ? -f : f, sgn = f < 0 ? -1 : 1;
        ev->flav[r] = sgn * (af == GAPS_PDG_ELECTRON ? GAPS_PDG_MUON : GAPS_PDG_NU_MU);
    }
}

GAPS_DEVICE_END
