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
    double t_ref[3];     /* reference scale of region nf = 5, 4, 3, GeV^2 */
    double a_ref[3];     /* alpha_s at t_ref */
    double b0[3], b1[3]; /* beta_0/(2 pi), beta_1/(2 pi)^2 for nf = 5, 4, 3 */
} gaps_alphas;

/* Fill the coupling for the given order and alpha_s(M_Z^2).  Returns 0, or -1 if the order is
 * not 0, 1 or 2 or alpha_s(M_Z^2) is not in (0, 1). */
int gaps_alphas_init(gaps_alphas *as, int order, double asmz);

/* alpha_s at the scale t (GeV^2).  Below the Landau pole of the chosen running the result is
 * not finite; gaps_alphas_is_defined() says whether t is safe. */
GAPS_DEVICE_BEGIN
double gaps_alphas_value(const gaps_alphas *as, double t);
GAPS_DEVICE_END

/* 1 if alpha_s is finite and positive for every scale >= t_min, else 0. */
int gaps_alphas_is_defined(const gaps_alphas *as, double t_min);

GAPS_C_END

#endif
