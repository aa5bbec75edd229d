/* gaps/ablate.h -- shower variants for ablation studies (--ablate): each bit replaces one
 * piece of the default shower of hadron collisions by the choice Herwig 7's dipole shower makes
 * there, so that a difference between the two programs' histograms can be traced to its cause
 * (doc/validation-lhc.md section 8, where each variant is described with its source).
 *
 * The default (0, "none") is the physics of doc/physics.md, and a run with it takes none of
 * the branches below: its events keep their bits.  The value is run-uniform: device code tests
 * it in branches that every event of a run takes the same way.  Only for leading-order runs
 * with --compat none; the variants of dipoles with incoming partons only with hadron beams
 * (gaps_config_check()).
 */
#ifndef GAPS_ABLATE_H
#define GAPS_ABLATE_H

enum gaps_ablate_bit {
    /* alpha_s as Herwig's NLO coupling (matchbox::nlo_alpha_s, "large_scale"): the two-loop
     * expansion in 1/L, L = ln(t/Lambda^2), with its next term, Lambda fixed by
     * alpha_s(M_Z^2) and matched for continuity at thresholds m_c = 1.25, m_b = 4.2 GeV */
    GAPS_ABLATE_ALPHAS_HERWIG = 1 << 0,
    /* only the flavour thresholds of alpha_s moved to m_c = 1.25, m_b = 4.2 GeV (gaps's own
     * running, doc/physics.md section 2) */
    GAPS_ABLATE_ALPHAS_THRESHOLDS = 1 << 1,
    /* final-initial kernels with Herwig's added finite terms: q -> q g + C_F (1-x)(1+3xz),
     * g -> g g + C_A/2 (1-x)(1+xz(1-z)) */
    GAPS_ABLATE_FI_KERNELS = 1 << 2,
    /* final-initial g -> g g as Herwig's default AsymmetryOption 1: C_A z [1/(1-z+(1-x))
     * + 1/(z+(1-x)) - 2 + z(1-z) (+ the finite term of fi-kernels)] */
    GAPS_ABLATE_FI_GG_ASYM = 1 << 3,
    /* initial-final q -> q g with Herwig's added finite term C_F u(1+3x(1-u)) */
    GAPS_ABLATE_IF_KERNELS = 1 << 4,
    /* g -> q qbar of a final gluon (FF, FI) with alpha_s at the virtuality t/(z(1-z)), as
     * Herwig's VirtualitySplittingScale (set by its snippet DipoleShowerParameters.in) */
    GAPS_ABLATE_GQQ_VIRTUALITY = 1 << 5,
    /* no incoming gluon traced back to a b or bbar (the I_QG kernels of flavour 5 off) */
    GAPS_ABLATE_ISR_NO_B = 1 << 6
};

#define GAPS_N_ABLATE 7
#define GAPS_ABLATE_ALL ((1 << GAPS_N_ABLATE) - 1)
/* the variants of alpha_s and of the final-state shower, which apply to every process (the
 * others change dipoles with incoming partons: hadron beams only) */
#define GAPS_ABLATE_ANY_PROCESS                                                                \
    (GAPS_ABLATE_ALPHAS_HERWIG | GAPS_ABLATE_ALPHAS_THRESHOLDS | GAPS_ABLATE_GQQ_VIRTUALITY)

#endif
