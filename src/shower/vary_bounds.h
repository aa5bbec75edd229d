/* shower/vary_bounds.h -- where the overestimates of a --vary run need headroom (host set-up,
 * vary_bounds.c; doc/physics.md 17.3). */
#ifndef GAPS_SHOWER_VARY_BOUNDS_H
#define GAPS_SHOWER_VARY_BOUNDS_H

#include "gaps/alphas.h"

/* The couplings a run's shower takes, each at the argument max(mu2 t, t_cut) (veto.c,
 * scaled_as_arg): the nominal one, and the smallest that any variation takes at any scale (the
 * smallest alpha_s(M_Z^2) at the largest argument factor), which gives the largest rejected
 * factors. */
typedef struct gaps_vary_couplings {
    const gaps_alphas *nominal;
    double mu2_nominal;
    const gaps_alphas *smallest;
    double mu2_largest;
    double t_cut;
} gaps_vary_couplings;

/* alpha_s(max(mu2 t, t_cut)). */
double gaps_vary_coupling_at(const gaps_alphas *as, double mu2, double t_cut, double t);

/* The largest factor (1 - r a'/a)/(1 - r) that a rejected trial at scale t gives a variation,
 * where the trial's coupling was drawn from a_bound >= every coupling of the run at t (its
 * other factors at most 1, so r <= a/a_bound): INFINITY where a_bound does not exceed the
 * nominal coupling, 1 where no variation's coupling is below the nominal one. */
double gaps_vary_rejected_factor_max(const gaps_vary_couplings *vc, double a_bound, double t);

/* The constant overestimate a_max of a shower over [t_cut, t_max] (e+e-): the scale at and
 * below which it needs the headroom, the largest t on a dense grid where the factor above could
 * exceed GAPS_VARY_REJECTED_MAX (rounded up to the grid's next point), or 0 where none. */
double gaps_vary_headroom_scale(const gaps_vary_couplings *vc, double a_max, double t_max);

#endif
