/* gaps/observables.h -- jet rates and event shapes of one event (doc/physics.md section 4).
 *
 * Input is a plain array of massless final-state momenta p[i] = (E, px, py, pz) in GeV, in the
 * centre-of-mass frame.  Every function is pure, allocates nothing and recurses nowhere, so the
 * analysis runs unchanged inside a device loop.  n may not exceed GAPS_MAX_PARTONS.
 */
#ifndef GAPS_OBSERVABLES_H
#define GAPS_OBSERVABLES_H

#include "gaps/constants.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

typedef struct gaps_observables {
    int n_partons;
    /* Durham y_{n,n+1} = smallest y_ij at the step from n+1 to n clusters, normalised to
     * s = E_vis^2; 0 when the event has fewer than n+1 partons. */
    double y23, y34, y45, y56;
    double tau;                /* 1 - thrust */
    double rho_H, rho_L;       /* heavy / light hemisphere mass^2 over E_vis^2 */
    double B_T, B_W, B_N;      /* total / wide / narrow jet broadening */
    double C;                  /* C-parameter */
    double thrust_axis[3];     /* unit vector n_T */
} gaps_observables;

GAPS_DEVICE_BEGIN

/* Durham clustering with E-scheme recombination: y[0..3] = y23, y34, y45, y56. */
void gaps_observables_durham(int n, const double p[][4], double y[4]);

/* Thrust T (exact) and its axis; returns T.  T = 1 and axis = direction of p[0] for n <= 2. */
double gaps_observables_thrust(int n, const double p[][4], double axis[3]);

/* Everything of gaps_observables for one event. */
void gaps_observables_compute(int n, const double p[][4], gaps_observables *out);

GAPS_DEVICE_END

GAPS_C_END

#endif
