/* process/ee_nlo.h -- e+ e- -> Z/gamma* -> q qbar at next-to-leading order, matched to the shower
 * with MC@NLO and Catani-Seymour subtraction (doc/nlo.md; src/process/ee_qq_nlo.c).
 *
 * Every event starts from a leading-order point (gaps_me_generate()) and becomes either
 *   an S event: the Born partons, weight (B + V + I) = B (1 + C_F alpha_s/pi), shower from s;
 *   an H event: q qbar g from the final-final map of the Born pair, weight R - D_132 - D_231
 *               (the exact real matrix element minus the two Catani-Seymour dipoles, whose
 *               splitting functions are the shower's own q -> q g kernel), shower from the
 *               scale of the emission.
 * Weights are signed.  The pieces are pure functions so that the tests can take them apart:
 * the real matrix element, the final-final splitting function, the 3 -> 2 map, one dipole,
 * the subtracted real, the S-event factor.
 *
 * Conventions: four-vectors double[4] = (E, px, py, pz) in GeV in the centre-of-mass frame,
 * the e+ along +z and the e- along -z, each with energy sqrt(s)/2 (as at leading order,
 * doc/physics.md section 1.3).  Partons 1 = quark, 2 = antiquark, 3 = gluon;
 * s_ab = 2 p_a.p_b.  "|M|^2" is summed over final spins and colours and averaged over the
 * e+ e- spins, like gaps_me_squared(); multiplied by dPhi / (2 s) it is a cross section.
 */
#ifndef GAPS_EE_NLO_H
#define GAPS_EE_NLO_H

#include "gaps/matrix_element.h"
#include "gaps/rng.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* Run constants of --nlo 1 (plain data, copied to the device inside gaps_process). */
typedef struct gaps_ee_nlo {
    int on;              /* 1: events are S and H events; 0: leading order */
    int gaps21;          /* --compat gaps21: GAPS 2.1's S/H choice and H-event start scale */
    double alphas;       /* alpha_s(mu_R^2 = s) of the run's coupling */
    double k_s;          /* (B + V + I) / B = 1 + C_F alpha_s / pi */
    double h_fraction;   /* gaps21: probability of an H event (GAPS 2.1's w_s = 0.25) */
} gaps_ee_nlo;

/* GAPS 2.1's fixed probability of an H event (spec 4.2). */
#define GAPS_NLO_GAPS21_H_FRACTION 0.25

/* An H event whose s_13 or s_23 lies below this fraction of s gets weight 0 (R - D is finite
 * there, the region has measure 1e-10, and R and D are each beyond 1e10 / s). */
#define GAPS_NLO_MIN_SIJ 1e-10

/* Host: the constants for alpha_s = alpha_s(s), and compat (enum gaps_compat). */
void gaps_ee_nlo_init(gaps_ee_nlo *nlo, double alphas, int compat);

/* The exact total cross section at NLO (massless quarks, mu_R^2 = s): sigma_LO (1 + alpha_s/pi),
 * pb. */
double gaps_ee_nlo_sigma_exact(const gaps_me *me, double alphas);

GAPS_DEVICE_BEGIN

/* The shower's final-final q -> q g splitting function, C_F [2/(1 - z(1 - y)) - (1 + z)]
 * (doc/physics.md section 3.5), which is Catani and Seymour's V_{qg,k}/(8 pi alpha_s).  omz is
 * 1 - z, given in the form in which it is accurate (near z = 1 the difference 1 - z of a
 * rounded z is not), as the shower's gaps_kernel_ratio() takes it; 1 - z(1 - y) is evaluated
 * as omz + z y. */
double gaps_ff_qqg_kernel(double y, double z, double omz);

/* The Catani-Seymour final-final 3 -> 2 map: emitter i, emitted j and spectator k (massless,
 * their invariants s_ij, s_ik, s_jk given) to the dipole variables
 *   y = s_ij / (s_ij + s_ik + s_jk),   z = s_ik / (s_ik + s_jk)
 * and the reduced momenta  pij = p_i + p_j - y/(1 - y) p_k,  pkt = p_k / (1 - y)
 * (massless, pij + pkt = p_i + p_j + p_k).  Inverse of gaps_map_ff() for the same (y, z). */
void gaps_ff_map_32(const double pi[4], const double pj[4], const double pk[4], double s_ij,
                    double s_ik, double s_jk, double *y, double *z, double pij[4],
                    double pkt[4]);

/* |M|^2 of e+ e- -> q(p1) qbar(p2) g(p3), GeV^-2, for flavour f, coupling alphas and the
 * invariants s13, s23 (s = s12 + s13 + s23 = me->s):
 *   (32 g_s^2 C_F / s) [S_f^same ((k+.p1)^2 + (k-.p2)^2) + S_f^opp ((k+.p2)^2 + (k-.p1)^2)]
 *   / (s13 s23),   g_s^2 = 4 pi alphas,  S^same = A_f/2 - B_f/4,  S^opp = A_f/2 + B_f/4,
 * k+ and k- the e+ and e- momenta.  Exact at tree level, the Z and photon included. */
double gaps_ee_qqg_real(const gaps_me *me, int f, double alphas, const double p1[4],
                        const double p2[4], double s13, double s23);

/* The orientation average of gaps_ee_qqg_real() (GAPS 2.1's real matrix element, spec 4.2):
 *   8 pi alphas C_F (born / s) (s23/s13 + s13/s23 + 2 s12 s / (s13 s23))
 * with born the Born |M|^2 of any orientation; used by the tests. */
double gaps_ee_qqg_real_averaged(double born, double alphas, double s, double s12, double s13,
                                 double s23);

/* The dipole D_{ij,k} for the quark or antiquark i, the gluon j and the spectator k:
 *   8 pi alphas / s_ij * gaps_ff_qqg_kernel(y, z, 1 - z) * |M_Born|^2(reduced momenta)
 * with (y, z) and the reduced momenta from gaps_ff_map_32(); the Born angle is that of the
 * reduced quark (pij if the emitter is the quark, pkt if it is the antiquark). */
double gaps_ee_qqg_dipole(const gaps_me *me, int f, double alphas, const double pi[4],
                          const double pj[4], const double pk[4], double s_ij, double s_ik,
                          double s_jk, int emitter_is_quark);

/* R - D_{13,2} - D_{23,1} at the point p[0] = quark, p[1] = antiquark, p[2] = gluon with the
 * invariants s12, s13, s23; the three terms in *real and d[0], d[1] if not NULL. */
double gaps_ee_qqg_subtracted(const gaps_me *me, int f, double alphas, const double p[3][4],
                              double s12, double s13, double s23, double *real, double d[2]);

GAPS_DEVICE_END

GAPS_C_END

#endif
