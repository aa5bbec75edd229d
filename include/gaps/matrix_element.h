/* gaps/matrix_element.h -- leading-order e+e- -> Z/gamma* -> q qbar (doc/physics.md section 1).
 *
 * gaps_me_init() precomputes the electroweak couplings for one centre-of-mass energy;
 * gaps_me_generate() draws one phase-space point (cos theta, phi, flavour) and returns its
 * weight in pb.  The mean weight is the total cross section.
 */
#ifndef GAPS_MATRIX_ELEMENT_H
#define GAPS_MATRIX_ELEMENT_H

#include "gaps/rng.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

typedef struct gaps_me {
    double ecm;          /* sqrt(s), GeV */
    double s;            /* GeV^2 */
    /* |M|^2(c) = A_f (1 + c^2) + B_f c, per flavour 1..5 (index 0 unused), GeV^0 */
    double A[6], B[6];
    double w_norm;       /* pb per unit |M|^2: 5 * conversion / (8 pi) / (2 s) */
    double w_max;        /* the largest possible event weight, pb */
} gaps_me;

typedef struct gaps_me_point {
    double cos_theta, phi;
    int flavour;         /* PDG code 1..5 of the quark */
    double weight;       /* pb */
} gaps_me_point;

void gaps_me_init(gaps_me *me, double ecm);

GAPS_DEVICE_BEGIN
/* |M|^2 summed over spins and colours for flavour f at c = cos(theta). */
double gaps_me_squared(const gaps_me *me, int flavour, double cos_theta);

/* Draw a point: three uniform numbers (two Philox blocks) from the event's stream. */
gaps_me_point gaps_me_generate(const gaps_me *me, gaps_rng *rng);
GAPS_DEVICE_END

/* The exact total cross section (analytic integral over cos theta), pb. */
double gaps_me_sigma_exact(const gaps_me *me);

GAPS_C_END

#endif
