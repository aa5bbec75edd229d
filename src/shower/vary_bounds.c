/* vary_bounds.c -- where the shower's overestimates need the headroom of a --vary run
 * (doc/physics.md 17.3).
 *
 * A rejected trial multiplies a variation's weight by (O - P')/(O - P) = (1 - r c)/(1 - r),
 * r = P/O its acceptance with the nominal coupling a, c = a'/a.  For a variation with the
 * smaller coupling (c < 1) this grows without bound as r -> 1: the band's weights become
 * heavy-tailed.  Bounding the overestimate O by GAPS_VARY_HEADROOM times the largest coupling
 * keeps r <= 2/3 and the factor below 3, but costs half as many trials again at every scale.
 * The largest coupling of the run bounds the nominal one loosely except near the cutoff,
 * where the floor of the varied arguments at t_C (veto.c, scaled_as_arg) makes the downward
 * variation's coupling alpha_s(t_C), which the nominal one reaches at t_C itself: only there
 * can r approach 1.  So the headroom goes only where without it the factor could exceed
 * GAPS_VARY_REJECTED_MAX, the same bound: the e+e- shower's constant overestimate below a
 * scale of gaps_vary_headroom_scale(), the initial-state shower's running one in the scale
 * bins that need it (isr_bounds.c, gaps_isr_bound_coupling_by_bin()).
 */
#include "shower/vary_bounds.h"
#include "gaps/vary.h"

#include <math.h>

#define GRID 4000   /* points in ln t */

double gaps_vary_coupling_at(const gaps_alphas *as, double mu2, double t_cut, double t)
{
    return gaps_alphas_value(as, fmax(mu2 * t, t_cut));
}

double gaps_vary_rejected_factor_max(const gaps_vary_couplings *vc, double a_bound, double t)
{
    const double a = gaps_vary_coupling_at(vc->nominal, vc->mu2_nominal, vc->t_cut, t);
    const double c = gaps_vary_coupling_at(vc->smallest, vc->mu2_largest, vc->t_cut, t) / a;
    if (!(c < 1.0)) return 1.0;   /* every factor (1 - r c)/(1 - r) <= 1 */
    const double rho = a / a_bound;   /* the largest r */
    if (!(rho < 1.0)) return INFINITY;
    return (1.0 - rho * c) / (1.0 - rho);
}

double gaps_vary_headroom_scale(const gaps_vary_couplings *vc, double a_max, double t_max)
{
    const double l_lo = log(vc->t_cut), l_hi = log(fmax(t_max, vc->t_cut));
    for (int i = GRID; i >= 0; --i) {   /* from the top: the largest scale that needs it */
        const double t = exp(l_lo + (l_hi - l_lo) * i / GRID);
        if (gaps_vary_rejected_factor_max(vc, a_max, t) > GAPS_VARY_REJECTED_MAX)
            return i == GRID ? t_max : exp(l_lo + (l_hi - l_lo) * (i + 1) / GRID);
    }
    return 0.0;
}
