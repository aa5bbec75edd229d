/* gaps/alphas.h -- the strong coupling alpha_s(t) of doc/physics.md section 2.
 *
 * Fixed, one-loop or two-loop running from alpha_s(M_Z^2) with flavour thresholds at m_b and
 * m_c.  gaps_alphas_init() precomputes the reference values of the three regions so that
 * gaps_alphas_value() is a pure function of (coupling, t), callable on every backend.
 */
#ifndef GAPS_ALPHAS_H
#define GAPS_ALPHAS_H

#include "gaps/decl.h"

GAPS_C_BEGIN

typedef struct gaps_alphas {
    int order;           /* 0 fixed, 1 one loop, 2 two loops */
    double asmz;         /* alpha_s(M_Z^2) */
    double t_ref[3];     /* reference scale of region nf = 5, 4, 3, GeV^2 (t_ref[1], t_ref[2]:
                            the thresholds m_b^2, m_c^2) */
    double a_ref[3];     /* alpha_s at t_ref */
    double b0[3], b1[3]; /* beta_0/(2 pi), beta_1/(2 pi)^2 for nf = 5, 4, 3 */
    double b1_b0[3];     /* b1 / b0 of each region, so that no value divides them again */
    double ln_t_ref[3];  /* ln t_ref of each region (gaps_alphas_from_log across regions) */
    int herwig;          /* 1: Herwig 7's form (gaps_alphas_set_herwig; --ablate alphas-herwig) */
    double lambda2[3];   /* its Lambda^2 of region nf = 5, 4, 3, GeV^2 */
} gaps_alphas;

/* Fill the coupling for the given order and alpha_s(M_Z^2).  Returns 0, or -1 if the order is
 * not 0, 1 or 2 or alpha_s(M_Z^2) is not in (0, 1). */
int gaps_alphas_init(gaps_alphas *as, int order, double asmz);

/* Move the flavour thresholds to m_c and m_b (GeV), the reference values of the regions
 * below M_Z recomputed from alpha_s(M_Z^2) with the same running (--ablate
 * alphas-thresholds). */
void gaps_alphas_set_thresholds(gaps_alphas *as, double m_c, double m_b);

/* Herwig 7's NLO coupling (its matchbox::nlo_alpha_s with "large_scale" evaluation, the
 * default of its dipole shower): with L = ln(t/Lambda^2), b0 = (33 - 2 nf)/(12 pi),
 * b1 = (153 - 19 nf)/(24 pi^2),
 *     alpha_s = 1/(b0 L) [1 - b1 ln L/(b0^2 L) + (b1/(b0^2 L))^2 ((ln L - 1/2)^2 - 5/4)],
 * Lambda^2 of nf = 5 from alpha_s(M_Z^2), those of nf = 4, 3 so that alpha_s is continuous at
 * the thresholds m_b = 4.2 and m_c = 1.25 GeV (its default quark masses); nothing for
 * order 0 (--ablate alphas-herwig). */
void gaps_alphas_set_herwig(gaps_alphas *as);

/* alpha_s at the scale t (GeV^2).  Below the Landau pole of the chosen running the result is
 * not finite; gaps_alphas_is_defined() says whether t is safe. */
GAPS_DEVICE_BEGIN
double gaps_alphas_value(const gaps_alphas *as, double t);
/* The same for a coupling known not to be Herwig's (as->herwig 0): the e+e- launches, which
 * runs with --ablate do not use, call it so that they carry no branch of the ablation. */
double gaps_alphas_value_own(const gaps_alphas *as, double t);

/* The running in two parts, for several couplings at related scales (the --vary factors of
 * one trial): the region of t (0, 1, 2: nf = 5, 4, 3) and, from l = ln(t / t_ref[region]),
 * the value: gaps_alphas_from_log(as, r, gaps_log(t / as->t_ref[r])) with
 * r = gaps_alphas_region(as, t) is gaps_alphas_value_own(as, t) up to rounding (one division
 * fewer; the bits are its own, so a run uses either for all its couplings).  A coupling at
 * k t has l + ln k + ln t_ref[r] - ln t_ref[r'] in its region r' (no logarithm of its own),
 * and two couplings with the same thresholds share l at one scale.  Not for Herwig's form. */
int gaps_alphas_region(const gaps_alphas *as, double t);
double gaps_alphas_from_log(const gaps_alphas *as, int region, double l);
GAPS_DEVICE_END

/* 1 if alpha_s is finite and positive for every scale >= t_min, else 0. */
int gaps_alphas_is_defined(const gaps_alphas *as, double t_min);

GAPS_C_END

#endif
