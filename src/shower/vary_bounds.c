/* vary_bounds.c -- the coupling that the shower's overestimates must reach in a --vary run
 * (doc/physics.md 17.3).
 *
 * A rejected trial multiplies a variation's weight by (O - P')/(O - P) = (1 - r c)/(1 - r),
 * r = P/O its acceptance with the nominal coupling a, c = a'/a.  Two things are asked of O:
 * that it bound every variation (P' <= O, or the factor can turn negative), and that r stay
 * away from 1, where the factor has no bound and its variance, r (1 - c)^2/(1 - r) per trial,
 * grows without limit: band weights with heavy tails.  GAPS_VARY_HEADROOM times the nominal
 * coupling does the second (r < 2/3, a factor below 3).  Taken everywhere on top of the
 * largest variation's coupling, as the shower once did, it costs half as many trials again at
 * every scale.  The e+e- shower's constant overestimate alpha_s(t_C) already lies that far
 * above the nominal coupling at every scale but those near the cutoff: it gets the headroom
 * below the scale of gaps_vary_headroom_scale() alone, and above it the trials are those of
 * the nominal shower.  (The initial-state shower keeps the headroom everywhere: generator.c,
 * shower_headroom_by_scale().)
 */
#include "shower/vary_bounds.h"
#include "gaps/fpmath.h"

#include <math.h>

#define GRID 4000   /* points in ln t */

/* alpha_s(max(mu2 t, t_cut)), the argument of veto.c's scaled_as_arg() */
static double coupling_at(const gaps_alphas *as, double mu2, double t_cut, double t)
{
    return gaps_alphas_value(as, fmax(mu2 * t, t_cut));
}

double gaps_vary_bound_at(const gaps_vary_couplings *vc, double t)
{
    return fmax(vc->headroom * coupling_at(vc->nominal, vc->mu2_nominal, vc->t_cut, t),
                coupling_at(vc->largest, vc->mu2_smallest, vc->t_cut, t));
}

double gaps_vary_headroom_scale(const gaps_vary_couplings *vc, double a_max, double t_max)
{
    const double l_lo = log(vc->t_cut), l_hi = log(fmax(t_max, vc->t_cut));
    for (int i = GRID; i >= 0; --i) {   /* from the top: the largest scale that needs it */
        const double t = exp(l_lo + (l_hi - l_lo) * i / GRID);
        if (gaps_vary_bound_at(vc, t) > a_max)
            return i == GRID ? t_max : exp(l_lo + (l_hi - l_lo) * (i + 1) / GRID);
    }
    return 0.0;
}

void gaps_vary_prepare(gaps_physics *phys)
{
    /* a PDF member's factor depends on the densities, which are in the first stage */
    phys->vary_two_stage = phys->vary_shower;
    for (int v = 0; v < phys->n_vary; ++v)
        if (phys->vary_pdf_member[v]) phys->vary_two_stage = 0;
    const double nominal = phys->mur_scaled ? phys->mur2 : 1.0;
    for (int v = 0; v < phys->n_vary; ++v)
        for (int leg = 0; leg < 2; ++leg)
            phys->vary_ln_k2[v][leg] = gaps_log(phys->vary_mu2[v][leg] / nominal);
    /* made as the veto makes the variations' couplings (gaps_alphas_from_log) */
    for (int k = 0; k < 3; ++k) {
        int used = k == 0;
        for (int v = 0; v < phys->n_vary; ++v) used |= phys->vary_coupling[v] == k;
        const gaps_alphas *as = k == 0 ? &phys->as : &phys->vary_as[k - 1];
        const int r = used ? gaps_alphas_region(as, phys->t_cut) : 0;
        phys->vary_a_floor[k] = used ? gaps_alphas_from_log(as, r, gaps_log(phys->t_cut
                                                                            / as->t_ref[r]))
                                     : 0.0;
    }
}
