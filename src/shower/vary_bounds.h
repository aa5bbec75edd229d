/* shower/vary_bounds.h -- the coupling that the overestimates of a --vary run must reach,
 * scale by scale (host set-up, vary_bounds.c; doc/physics.md 17.3). */
#ifndef GAPS_SHOWER_VARY_BOUNDS_H
#define GAPS_SHOWER_VARY_BOUNDS_H

#include "gaps/alphas.h"
#include "gaps/event_pool.h"

/* The couplings a run's shower takes, each at the argument max(mu2 t, t_cut) (veto.c,
 * scaled_as_arg): the nominal one, and the largest that any variation takes at any scale (the
 * larger alpha_s(M_Z^2) at the smallest argument factor); headroom the factor the overestimate
 * keeps above the nominal coupling. */
typedef struct gaps_vary_couplings {
    const gaps_alphas *nominal;
    double mu2_nominal;
    const gaps_alphas *largest;
    double mu2_smallest;
    double headroom;
    double t_cut;
} gaps_vary_couplings;

/* The coupling an overestimate must reach at scale t: the largest variation's (so that no
 * varied density exceeds it, P' <= O) and headroom times the nominal one (so that a trial's
 * acceptance r stays below 1/headroom, and a rejected trial's factor (1 - r a'/a)/(1 - r)
 * below 1/(1 - 1/headroom)). */
double gaps_vary_bound_at(const gaps_vary_couplings *vc, double t);

/* The constant overestimate a_max (the largest variation's coupling at t_C) of a shower over
 * [t_cut, t_max] (e+e-): the scale at and below which it falls short of gaps_vary_bound_at(),
 * the largest t of a dense grid in ln t where it does (rounded up to the grid's next point), or
 * 0 where it never does. */
double gaps_vary_headroom_scale(const gaps_vary_couplings *vc, double a_max, double t_max);

/* What the veto derives from a run's variations: phys->vary_ln_k2 from vary_mu2 and the
 * nominal argument factor (mur2 where mur_scaled, else 1), the logarithm each variation adds
 * to the nominal coupling's (veto.c, varied_coupling); vary_a_floor, the couplings at t_C;
 * vary_two_stage (GAPS_VARY_PRESELECT).  Once t_cut, as, n_vary, vary_mu2, vary_coupling,
 * vary_as, vary_pdf_member, vary_shower, mur_scaled and mur2 are set. */
void gaps_vary_prepare(gaps_physics *phys);

#endif
