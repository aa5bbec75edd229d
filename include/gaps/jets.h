/* gaps/jets.h -- anti-k_T jets of a hadron-collider event and the kinematics they use
 * (doc/physics.md section 13, the LHC analysis).
 *
 * Pure functions of plain arrays: no allocation, no recursion, no shared state, so they run
 * unchanged inside a device loop.  Every logarithm and angle goes through gaps/fpmath.h, so
 * that the same event gives the same jets, bit for bit, on every backend.
 */
#ifndef GAPS_JETS_H
#define GAPS_JETS_H

#include "gaps/constants.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

typedef struct gaps_jet {
    double p[4];      /* (E, px, py, pz), GeV: the sum of its constituents (E-scheme) */
    double pt;        /* transverse momentum, GeV */
    double eta;       /* pseudorapidity (gaps_pseudorapidity) */
    double phi;       /* azimuth (gaps_azimuth) */
} gaps_jet;

GAPS_DEVICE_BEGIN

/* Pseudorapidity -ln tan(theta/2) of a 3-momentum, written as sign(pz) ln((|p| + |pz|)/p_T)
 * (no cancellation for either sign of pz); +-infinity along the beam (p_T = 0), 0 for p = 0. */
double gaps_pseudorapidity(double px, double py, double pz);

/* Azimuth atan2(py, px) in (-pi, pi]; 0 when px = py = 0 (the spec's convention, which puts a
 * Z without transverse momentum at phi = 0 whatever the signs of its zeros). */
double gaps_azimuth(double px, double py);

/* a - b wrapped into [-pi, pi], for azimuths a and b in [-pi, pi]. */
double gaps_delta_phi(double a, double b);

/* Anti-k_T clustering of n <= GAPS_MAX_PARTONS momenta p[i] = (E, px, py, pz):
 *   d_ij = min(p_T,i^-2, p_T,j^-2) Delta R_ij^2 / R^2,  d_iB = p_T,i^-2,
 *   Delta R^2 = Delta eta^2 + Delta phi^2 with the pseudorapidity eta,
 * E-scheme merging.  Each step takes the smallest of all d_ij and d_iB, scanned as "for each
 * cluster i in input order, the pairs (i, j < i), then d_iB", the first one strictly below
 * the others winning; a d_iB makes cluster i a jet.  Clustering stops once max_jets jets are
 * made, or when no distance is below d_max (GeV^-2).  Writes the jets to jets[0 ..] ordered
 * by decreasing p_T (equal p_T: the order they were made) and returns their number
 * (<= max_jets).  With max_jets >= n and d_max = +infinity this is plain anti-k_T: every
 * cluster with p_T > 0 ends as a jet. */
int gaps_antikt(int n, const double p[][4], double R, int max_jets, double d_max,
                gaps_jet *jets);

GAPS_DEVICE_END

GAPS_C_END

#endif
