/* shower/isr.h -- the dipoles of hadron collisions: final-final (FF), final-initial (FI),
 * initial-final (IF) and initial-initial (II) Catani-Seymour dipoles, their splitting kernels,
 * the overestimates the trials are drawn from and the bounds of the parton-distribution ratio
 * (doc/physics.md section 13).
 *
 * One emission of type T from a dipole of mass^2 s = 2 p~ij.p~k at evolution scale
 * t = k_T^2 has the density
 *     dP = alpha_s(t)/(2 pi) dt/t dz0  V(T; kernel) J(T) R_pdf            (FF: R_pdf = 1)
 * in the sampling variable z0 (z for FF and FI, x + u - x u for IF, x + v for II), with
 * R_pdf = f_new(eta/x, t) / f_old(eta, t) the ratio of parton densities of the incoming leg
 * whose momentum fraction eta changes.  Writing R_pdf = x X, X = xf_new(eta/x)/xf_old(eta) the
 * ratio of the x f that the grid holds, every kernel below satisfies
 *     V J x <= c E(z0)                    (x = 1 for FF; checked on a dense grid, section 13)
 * with E one of four shapes (1/(1-z0), 1/z0, 1/(z0 (1-z0)), 1) and a constant c, and X is
 * bounded by a table built from the PDF set at the start of the run (isr_bounds.c), and the
 * coupling by k/ln(t/Lambda^2) (isr_bounds.c; the constant alpha_max for the trials in
 * t - m^2 and in compat mode).  So the trial density k/ln(t/Lambda^2)/(2 pi) c E(z0) B(eta)
 * dt/t is a true overestimate, and the veto accepts with the product of ratios that are each
 * at most 1.
 *
 * With --compat gaps21 the overestimates, the kernels and the PDF ratio are GAPS 2.1's
 * (spec section 5): its E, a factor j0 = 2, its tuned pdf_max table, and a trial whose f
 * exceeds g is rejected.  The few places where that differs are marked "compat".
 */
#ifndef GAPS_SHOWER_ISR_H
#define GAPS_SHOWER_ISR_H

#include <math.h>

#include "gaps/ablate.h"
#include "gaps/alphas.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/event_pool.h"
#include "gaps/fpmath.h"
#include "shower/kernels.h"

GAPS_DEVICE_BEGIN

/* Dipole types: is the emitter / the spectator an incoming parton? */
enum gaps_dipole_type { GAPS_DIPOLE_FF = 0, GAPS_DIPOLE_FI = 1, GAPS_DIPOLE_IF = 2,
                        GAPS_DIPOLE_II = 3 };

GAPS_ALWAYS_INLINE enum gaps_dipole_type gaps_dipole_type_of(int emitter_in, int spectator_in)
{
    return (enum gaps_dipole_type)(2 * emitter_in + spectator_in);
}

/* Shapes of the overestimates E(z0). */
enum gaps_shape { GAPS_SHAPE_SOFT = 0,   /* 1/(1 - z0) */
                  GAPS_SHAPE_INV = 1,    /* 1/z0 */
                  GAPS_SHAPE_BOTH = 2,   /* 1/(z0 (1 - z0)) */
                  GAPS_SHAPE_FLAT = 3 }; /* 1 */

/* The overestimate of a kernel on a dipole type: E(z0) = coeff * shape(z0). */
typedef struct gaps_overestimate {
    int shape;
    double coeff;
} gaps_overestimate;

GAPS_ALWAYS_INLINE gaps_overestimate gaps_isr_overestimate(int kernel, int type, int compat)
{
    gaps_overestimate o;
    switch (kernel) {
    case GAPS_KERNEL_Q_QG: o.shape = GAPS_SHAPE_SOFT; o.coeff = 2.0 * GAPS_CF; break;
    case GAPS_KERNEL_G_GG: o.shape = GAPS_SHAPE_SOFT; o.coeff = GAPS_CA; break;
    case GAPS_KERNEL_G_QQ:   /* all flavours of one side of the gluon together */
        o.shape = GAPS_SHAPE_FLAT; o.coeff = GAPS_N_FLAVOURS * 0.5 * GAPS_TR; break;
    case GAPS_KERNEL_I_QQ: o.shape = GAPS_SHAPE_SOFT; o.coeff = 2.0 * GAPS_CF; break;
    case GAPS_KERNEL_I_GQ:
        /* IF: V J x grows like 1/sqrt(1 - z0) where the emitted parton is collinear to the
         * spectator at x -> 1; T_R/(4 z0 (1 - z0)) bounds it (max of V J x / E: 1/2) */
        if (compat) { o.shape = GAPS_SHAPE_FLAT; o.coeff = GAPS_TR; }
        else if (type == GAPS_DIPOLE_IF) { o.shape = GAPS_SHAPE_BOTH; o.coeff = 0.25 * GAPS_TR; }
        else { o.shape = GAPS_SHAPE_FLAT; o.coeff = GAPS_TR; }
        break;
    case GAPS_KERNEL_I_GG: o.shape = GAPS_SHAPE_BOTH; o.coeff = GAPS_CA; break;
    case GAPS_KERNEL_I_QG:   /* one flavour */
        if (compat) { o.shape = GAPS_SHAPE_INV; o.coeff = 2.0 * GAPS_CF; }
        else if (type == GAPS_DIPOLE_IF) { o.shape = GAPS_SHAPE_BOTH; o.coeff = GAPS_CF; }
        else { o.shape = GAPS_SHAPE_INV; o.coeff = GAPS_CF; }
        break;
    default: o.shape = GAPS_SHAPE_FLAT; o.coeff = 0.0; break;
    }
    return o;
}

/* The integrals of all four shapes over [zm, zp] from two logarithms (1/(z0(1-z0)) is the sum
 * of the other two), for the kernels of one dipole at once. */
GAPS_ALWAYS_INLINE void gaps_shape_integrals(double zm, double zp, double I[4])
{
    I[GAPS_SHAPE_SOFT] = gaps_log((1.0 - zm) / (1.0 - zp));
    I[GAPS_SHAPE_INV] = gaps_log(zp / zm);
    I[GAPS_SHAPE_BOTH] = I[GAPS_SHAPE_SOFT] + I[GAPS_SHAPE_INV];
    I[GAPS_SHAPE_FLAT] = zp - zm;
}

/* The shape at z0 (omz = 1 - z0). */
GAPS_ALWAYS_INLINE double gaps_shape_value(int shape, double z, double omz)
{
    switch (shape) {
    case GAPS_SHAPE_SOFT: return 1.0 / omz;
    case GAPS_SHAPE_INV: return 1.0 / z;
    case GAPS_SHAPE_BOTH: return 1.0 / (z * omz);
    default: return 1.0;
    }
}

/* z0 distributed as shape on [zm, zp] from the uniform number R. */
GAPS_ALWAYS_INLINE gaps_zpair gaps_shape_generate(int shape, double zm, double zp, double R)
{
    gaps_zpair v;
    switch (shape) {
    case GAPS_SHAPE_SOFT:   /* 1 - z = (1 - z-) ((1 - z+)/(1 - z-))^R */
        v.omz = (1.0 - zm) * gaps_exp(R * gaps_log((1.0 - zp) / (1.0 - zm)));
        v.z = 1.0 - v.omz;
        break;
    case GAPS_SHAPE_INV:    /* z = z- (z+/z-)^R */
        v.z = zm * gaps_exp(R * gaps_log(zp / zm));
        v.omz = 1.0 - v.z;
        break;
    case GAPS_SHAPE_BOTH: { /* z/(1 - z) = (z-/(1 - z-)) ((z+ (1 - z-))/(z- (1 - z+)))^R */
        const double q = zm / (1.0 - zm) * gaps_exp(R * gaps_log(zp * (1.0 - zm) / (zm * (1.0 - zp))));
        v.z = q / (1.0 + q);
        v.omz = 1.0 / (1.0 + q);
        break;
    }
    default:
        v.z = zm + (zp - zm) * R;
        v.omz = 1.0 - v.z;
        break;
    }
    return v;
}

/* The range [z-, z+] of z0 on which a dipole of type `type` and mass^2 s can emit above the
 * scale t_min, eta the momentum fraction of its incoming leg (any value for FF).  Returns 0
 * when the dipole cannot emit at all.
 *   FF: z (1-z) >= t/s;                        FI: z (1-z) >= t eta / (s (1 - eta))
 *   IF: (1 - z0) and u: z0 in (1 + eta -+ (1-eta) sqrt(1 - 4 t eta/(s (1-eta))))/2
 *   II: the same with 4 t eta / (s (1 - eta)^2)
 * (the edges where the emitted parton takes all the momentum the beam can still give). */
GAPS_ALWAYS_INLINE int gaps_isr_zrange(int type, double s, double eta, double t_min,
                                       double *zm, double *zp)
{
    double f, lo, w;
    switch (type) {
    case GAPS_DIPOLE_FF: f = 4.0 * t_min / s; lo = 1.0; w = 1.0; break;
    case GAPS_DIPOLE_FI: f = 4.0 * t_min * eta / (s * (1.0 - eta)); lo = 1.0; w = 1.0; break;
    case GAPS_DIPOLE_IF:
        f = 4.0 * t_min * eta / (s * (1.0 - eta)); lo = 1.0 + eta; w = 1.0 - eta; break;
    default:
        f = 4.0 * t_min * eta / (s * (1.0 - eta) * (1.0 - eta)); lo = 1.0 + eta; w = 1.0 - eta;
        break;
    }
    if (!(f < 1.0) || !(eta < 1.0)) return 0;
    const double r = w * sqrt(1.0 - f);
    /* z- without cancellation: (lo - r)/2 = (lo^2 - r^2) / (2 (lo + r)) */
    *zm = (lo * lo - r * r) / (2.0 * (lo + r));
    *zp = 0.5 * (lo + r);
    return *zm > 0.0 && *zp < 1.0 && *zm < *zp;
}

/* The physical splitting variables of a trial (t, z0) on a dipole of mass^2 s:
 *   FF: z = z0, y = t/(s z (1-z));           FI: z = z0, x = 1/(1 + t/(s z (1-z)))
 *   IF: r = t/s, x the smaller root of r x^2 - (1 - z0 + r) x + z0 (1 - z0) = 0, u = r x/(1-z0)
 *   II: r = t/s, x = z0 (1-z0)/(1 - z0 + r), v = r x/(1-z0)
 * a = z (FF, FI) or x (IF, II); b = y, x, u or v.  Returns 0 outside the phase space. */
typedef struct gaps_split_vars {
    double a, b;
} gaps_split_vars;

GAPS_ALWAYS_INLINE int gaps_isr_variables(int type, double s, double t, double z0, double omz0,
                                          gaps_split_vars *v)
{
    const double r = t / s;
    switch (type) {
    case GAPS_DIPOLE_FF:
        v->a = z0;
        v->b = r / (z0 * omz0);
        return v->b < 1.0;
    case GAPS_DIPOLE_FI:
        v->a = z0;
        v->b = 1.0 / (1.0 + r / (z0 * omz0));
        return v->b > 0.0;
    case GAPS_DIPOLE_IF: {
        const double p = omz0 + r, d = p * p - 4.0 * r * z0 * omz0;
        if (!(d >= 0.0)) return 0;
        v->a = 2.0 * z0 * omz0 / (p + sqrt(d));   /* the smaller root, without cancellation */
        v->b = r * v->a / omz0;
        return v->a > 0.0 && v->a < 1.0 && v->b > 0.0 && v->b < 1.0;
    }
    default:
        v->a = z0 * omz0 / (omz0 + r);
        v->b = r * v->a / omz0;
        return v->a > 0.0 && v->b > 0.0 && v->a + v->b < 1.0;
    }
}

/* Kernel value V times the Jacobian J from dt dz0 / t to the Catani-Seymour measure, at the
 * physical variables (a, b) of gaps_isr_variables (doc/physics.md 13.3).  A gluon radiates
 * through its two dipoles, so its kernels carry half of Catani-Seymour's per dipole, as the
 * final-state ones do (gaps_kernel_ratio).  compat: GAPS 2.1 gives the IF
 * incoming-gluon -> quark kernel its full weight on every dipole (spec 11, item 3). */
GAPS_ALWAYS_INLINE double gaps_isr_value_jacobian(int kernel, int type, int compat, double a,
                                                  double b)
{
    switch (type) {
    case GAPS_DIPOLE_FF: {
        const double z = a, y = b, omz = 1.0 - z, den = omz + z * y;
        double V;
        if (kernel == GAPS_KERNEL_Q_QG) V = GAPS_CF * (2.0 / den - (1.0 + z));
        else if (kernel == GAPS_KERNEL_G_GG) V = 0.5 * GAPS_CA * (2.0 / den - 2.0 + z * omz);
        else V = GAPS_N_FLAVOURS * 0.5 * GAPS_TR * (1.0 - 2.0 * z * omz);
        return V * (1.0 - y);
    }
    case GAPS_DIPOLE_FI: {
        const double z = a, x = b, omz = 1.0 - z, den = omz + (1.0 - x);
        if (kernel == GAPS_KERNEL_Q_QG) return GAPS_CF * (2.0 / den - (1.0 + z));
        if (kernel == GAPS_KERNEL_G_GG) return 0.5 * GAPS_CA * (2.0 / den - 2.0 + z * omz);
        return GAPS_N_FLAVOURS * 0.5 * GAPS_TR * (1.0 - 2.0 * z * omz);
    }
    case GAPS_DIPOLE_IF: {
        const double x = a, u = b, J = 1.0 / (x + u - 2.0 * x * u), soft = 1.0 - x + u;
        double V;
        switch (kernel) {
        case GAPS_KERNEL_I_QQ: V = GAPS_CF * (2.0 / soft - (1.0 + x)); break;
        case GAPS_KERNEL_I_GQ: V = GAPS_TR * (1.0 - 2.0 * x * (1.0 - x)); break;
        case GAPS_KERNEL_I_GG:
            V = GAPS_CA * (1.0 / soft + (1.0 - x) / x - 1.0 + x * (1.0 - x)); break;
        default:
            V = (compat ? GAPS_CF : 0.5 * GAPS_CF) * (x + 2.0 * (1.0 - x) / x); break;
        }
        return V * J;
    }
    default: {
        const double x = a, v = b, J = 1.0 / (x + v);
        double V;
        switch (kernel) {
        case GAPS_KERNEL_I_QQ: V = GAPS_CF * (2.0 / (1.0 - x) - (1.0 + x)); break;
        case GAPS_KERNEL_I_GQ: V = GAPS_TR * (1.0 - 2.0 * x * (1.0 - x)); break;
        case GAPS_KERNEL_I_GG:
            V = GAPS_CA * (1.0 / (1.0 - x) + (1.0 - x) / x - 1.0 + x * (1.0 - x)); break;
        default: V = 0.5 * GAPS_CF * (x + 2.0 * (1.0 - x) / x); break;
        }
        return V * J;
    }
    }
}

/* V J of gaps_isr_value_jacobian (vj, at the same variables a, b) as the shower variants of
 * --ablate (gaps/ablate.h, bits `ablate`, not 0) have it; nf is the new incoming flavour of
 * an I_QG kernel.  Herwig 7's kernels (its FIqx2qgx, FIgx2ggx and IFqx2qgx DipoleKernel):
 *   FI q -> q g   C_F [2/(1-z+(1-x)) - (1+z) + (1-x)(1+3xz)]
 *   FI g -> g g   C_A [S1 + NS/2], or with fi-gg-asym (its AsymmetryOption 1) C_A z [S1 + S2 + NS],
 *                 S1 = 1/(1-z+(1-x)), S2 = 1/(z+(1-x)), NS = -2 + z(1-z) [+ (1-x)(1+xz(1-z))]
 *   IF q -> q g   C_F [2/(1-x+u) - (1+x) + u(1+3x(1-u))], times J = 1/(x+u-2xu)
 * (the bracketed terms with fi-kernels, if-kernels).  Each stays below the default's
 * overestimate: the largest V J x / (c E) on a 3000 x 3000 grid is 0.974, as for the default
 * kernels (it tends to 1 at the soft edge).  isr-no-b: 0 for I_QG with nf = +-5. */
GAPS_ALWAYS_INLINE double gaps_isr_ablate_value_jacobian(int ablate, int kernel, int type,
                                                         int nf, double a, double b, double vj)
{
    if (type == GAPS_DIPOLE_FI && (ablate & (GAPS_ABLATE_FI_KERNELS | GAPS_ABLATE_FI_GG_ASYM))) {
        const double z = a, x = b, omz = 1.0 - z, omx = 1.0 - x;
        const int extra = (ablate & GAPS_ABLATE_FI_KERNELS) != 0;
        if (kernel == GAPS_KERNEL_Q_QG && extra) return vj + GAPS_CF * omx * (1.0 + 3.0 * x * z);
        if (kernel == GAPS_KERNEL_G_GG) {
            const double s1 = 1.0 / (omz + omx);
            const double ns = -2.0 + z * omz + (extra ? omx * (1.0 + x * z * omz) : 0.0);
            if (ablate & GAPS_ABLATE_FI_GG_ASYM) return GAPS_CA * z * (s1 + 1.0 / (z + omx) + ns);
            return GAPS_CA * (s1 + 0.5 * ns);
        }
    }
    if (type == GAPS_DIPOLE_IF && kernel == GAPS_KERNEL_I_QQ && (ablate & GAPS_ABLATE_IF_KERNELS)) {
        const double x = a, u = b;
        return vj + GAPS_CF * u * (1.0 + 3.0 * x * (1.0 - u)) / (x + u - 2.0 * x * u);
    }
    if ((ablate & GAPS_ABLATE_ISR_NO_B) && kernel == GAPS_KERNEL_I_QG && (nf == 5 || nf == -5))
        return 0.0;
    return vj;
}

/* PDG id of the incoming parton after a backward step of `kernel` from an incoming `flav`
 * (new_flav: the flavour a gluon turns into for GAPS_KERNEL_I_QG). */
GAPS_ALWAYS_INLINE int gaps_isr_new_incoming(int kernel, int flav, int new_flav)
{
    switch (kernel) {
    case GAPS_KERNEL_I_GQ: return GAPS_GLUON;
    case GAPS_KERNEL_I_QG: return new_flav;
    default: return flav;
    }
}

/* The flavour of the proton's parton densities that gives those of parton pid of a beam:
 * pid itself for a proton (anti 0), its antiparticle for an antiproton (anti 1: f_{q/pbar} =
 * f_{qbar/p}; the gluon stays the gluon).  Every PDF lookup and PDF-ratio bound of an incoming
 * leg goes through it (gaps_process.beam_anti). */
GAPS_ALWAYS_INLINE int gaps_isr_beam_pid(int anti, int pid)
{
    return anti && pid != GAPS_GLUON ? -pid : pid;
}

/* Row of a parton in the PDF-ratio tables: pid -5..5 at pid + 5, the gluon at 5. */
GAPS_ALWAYS_INLINE int gaps_isr_pid_row(int pid)
{
    return pid == GAPS_GLUON ? 5 : pid + 5;
}

/* The scale bin of t: j with tbin_edge[j] < t <= tbin_edge[j + 1] (the last bin open above),
 * or -1 at and below t_min, where only final-final dipoles radiate. */
GAPS_ALWAYS_INLINE int gaps_isr_tbin(const gaps_isr *isr, double t)
{
    int j = -1;
    for (int k = 0; k < GAPS_ISR_T_BINS_MAX; ++k)
        if (k < isr->n_tbins && t > isr->tbin_edge[k]) j = k;
    return j;
}

/* Upper bound of xf_new(y, t)/xf_old(eta, t) over y >= eta and the scales t of bin tbin
 * (times gaps_isr_heavy_factor when `shifted`: an incoming c or b emitter, see
 * isr_bounds.c). */
GAPS_ALWAYS_INLINE int gaps_isr_eta_bin(const gaps_isr *isr, double eta)
{
    int bin = (int)((gaps_log(eta) - isr->ln_eta_min) * isr->inv_dln_eta);
    if (bin < 0) bin = 0;
    if (bin >= GAPS_ISR_ETA_BINS) bin = GAPS_ISR_ETA_BINS - 1;
    return bin;
}

/* ... with eta given by its bin (gaps_isr_eta_bin). */
GAPS_ALWAYS_INLINE double gaps_isr_pdf_bound(const gaps_isr *isr, int tbin, int shifted,
                                             int old_pid, int new_pid, int bin)
{
    const int row = ((tbin * 2 + shifted) * GAPS_ISR_PIDS + gaps_isr_pid_row(old_pid))
                    * GAPS_ISR_PIDS + gaps_isr_pid_row(new_pid);
    return isr->bound[(long)row * GAPS_ISR_ETA_BINS + bin];
}

/* GAPS 2.1's tuned bound of the PDF ratio (spec 5.5; compat only): eta the emitter's
 * momentum fraction, flav its flavour, new_flav the new incoming parton's. */
GAPS_ALWAYS_INLINE double gaps_gaps21_pdf_max(int kernel, int flav, int new_flav, double eta)
{
    if (kernel == GAPS_KERNEL_I_GQ) {
        switch (flav) {
        case 1: case 2: case -1: case -2: return 150.0;
        case 3: case -3: return fmax(50.0, 600.0 * eta);
        case 4: case -4: return fmax(100.0, 450.0 * eta);
        case 5: return fmax(150.0, 650.0 * eta);
        case -5: return fmax(150.0, 700.0 * eta);
        default: return 1.0;
        }
    }
    if (kernel == GAPS_KERNEL_I_QG && new_flav == -1) return 5.0 * sqrt(eta);
    if (kernel == GAPS_KERNEL_I_QG && new_flav == -2) return 10.0 * sqrt(eta);
    return 1.0;
}

/* The coupling of the trial rates: k of the running overestimate alpha_s(t) <= k/ln(t/Lambda^2)
 * (gaps_isr.as_k), or with --compat gaps21 the constant alpha_max; for the trials of an
 * incoming c or b (heavy = 4 or 5; 0 for every other dipole) the constant a_heavy. */
GAPS_ALWAYS_INLINE double gaps_isr_coupling_max(const gaps_isr *isr, int heavy, double a_max)
{
    if (heavy) return isr->a_heavy[heavy];
    return isr->as_k > 0.0 ? isr->as_k : a_max;
}

/* The trials of an incoming c or b quark of mass^2 m2.  Its density falls to zero at the
 * threshold (x f_Q(t -> m^2) -> 0 like ln(t/m^2)), so the ratio of parton densities grows
 * like 1/ln(t/m^2) there and only a trial density with that pole bounds it:
 *     alpha/(2 pi) dt/(t ln(t/m^2)) c E(z0) B,   B >= ln(t/m^2) X,
 * whose trial scale is t' = m^2 (t/m^2)^(R^(1/r)).  compat: GAPS 2.1's dt/(t - m^2) with
 * B >= (t - m^2)/t X, t' = m^2 + (t - m^2) R^(1/r).  The factor that f carries: */
GAPS_ALWAYS_INLINE double gaps_isr_heavy_factor(const gaps_isr *isr, double m2, double t)
{
    return isr->heavy_loglog ? gaps_log(t / m2) : (t - m2) / t;
}

GAPS_ALWAYS_INLINE double gaps_isr_heavy_trial(const gaps_isr *isr, double m2, double t,
                                               double R, double r)
{
    const double p = gaps_exp(gaps_log(R) / r);
    if (isr->heavy_loglog) return m2 * gaps_exp(gaps_log(t / m2) * p);
    return m2 + (t - m2) * p;
}

/* The next trial scale below t of the dipoles trialled in t, from the uniform number R, with
 * r_sum the sum of their rates per unit of the coupling's trial density: the solution t' of
 *   R = exp(-r_sum int_t'^t dtau/tau k/ln(tau/Lambda^2)) = (ln(t'/Lambda^2)/ln(t/Lambda^2))^r_sum
 * (r_sum carrying k), or t' = t R^(1/r_sum) with the constant coupling. */
GAPS_ALWAYS_INLINE double gaps_isr_trial_scale(const gaps_isr *isr, double t, double R,
                                               double r_sum)
{
    const double p = gaps_exp(gaps_log(R) / r_sum);
    if (!(isr->as_k > 0.0)) return t * p;
    return isr->as_lambda2 * gaps_exp(gaps_log(t / isr->as_lambda2) * p);
}

/* The coupling a of a trial at scale t (alpha_s(t), or alpha_s(k^2 t) with
 * --shower-mur-factor) over the coupling the trial was drawn with (<= 1); heavy as for
 * gaps_isr_coupling_max. */
GAPS_ALWAYS_INLINE double gaps_isr_coupling_ratio_of(const gaps_isr *isr, int heavy,
                                                     double a_max, double t, double a)
{
    if (heavy) return a / isr->a_heavy[heavy];
    if (isr->as_k > 0.0) return a * gaps_log(t / isr->as_lambda2) / isr->as_k;
    return a / a_max;
}

/* The same with the coupling a = alpha_s(t) computed here. */
GAPS_ALWAYS_INLINE double gaps_isr_coupling_ratio(const gaps_isr *isr, const gaps_alphas *as,
                                                  int heavy, double a_max, double t)
{
    return gaps_isr_coupling_ratio_of(isr, heavy, a_max, t, gaps_alphas_value(as, t));
}

/* The factor of the trial rate besides alpha_max/(2 pi) and the shape's integral: the
 * constant of the overestimate times the PDF-ratio bound (compat: times j0 = 2 and pdf_max).
 * flav is the emitter's flavour, spec_flav the spectator's (whose density an FI dipole
 * changes); anti says whether the beam of the incoming leg whose density changes (FI: the
 * spectator, IF and II: the emitter) is an antiproton: the bounds, tabulated for the proton's
 * flavours, are then those of the conjugate flavours (gaps_isr_beam_pid). */
GAPS_ALWAYS_INLINE double gaps_isr_rate_factor(const gaps_isr *isr, int tbin, int kernel, int type,
                                               int flav, int spec_flav, int new_flav,
                                               int shifted, double eta, int eta_bin,
                                               double coeff, int anti)
{
    if (type == GAPS_DIPOLE_FF) return coeff;
    const int compat = isr->compat == GAPS_COMPAT_GAPS21;
    flav = gaps_isr_beam_pid(anti, flav);
    spec_flav = gaps_isr_beam_pid(anti, spec_flav);
    new_flav = gaps_isr_beam_pid(anti, new_flav);
    if (type == GAPS_DIPOLE_FI)   /* the spectator's density, its own flavour */
        return coeff * (compat ? 2.0
                               : gaps_isr_pdf_bound(isr, tbin, 0, spec_flav, spec_flav, eta_bin));
    const int nf = gaps_isr_new_incoming(kernel, flav, new_flav);
    return coeff * (compat ? 2.0 * gaps_gaps21_pdf_max(kernel, flav, new_flav, eta)
                           : gaps_isr_pdf_bound(isr, tbin, shifted, flav, nf, eta_bin));
}

GAPS_DEVICE_END

#endif
