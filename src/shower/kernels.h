/* shower/kernels.h -- the Catani-Seymour splitting kernels of final-state emitters, as pure
 * functions (doc/physics.md section 3.5).
 *
 * Each kernel P(z, y) is sampled from a simpler overestimate Q(z) >= (1 - y) P(z, y):
 *   gaps_kernel_rate()          the integral of alpha_max/(2 pi) Q(z) over [z-, z+]: the rate
 *                               of trial emissions per unit ln t,
 *   gaps_kernel_generate_z()    a z distributed as Q(z) on [z-, z+] from one uniform number,
 *   gaps_kernel_ratio()         (1 - y) P(z, y) / Q(z), the acceptance probability before the
 *                               coupling ratio alpha_s(t)/alpha_max.
 * The dipole's range enters as z- and L = ln(z+/z-) (with z+ = 1 - z-), which the shower keeps
 * per dipole so that no trial recomputes a logarithm.  The arithmetic of each expression is
 * part of the events' bits: reordering a product changes the last bit of a rate, and with it
 * the shower history that follows.
 *
 * Sides and symmetry: a gluon radiates on both of its colour sides, so each side carries half
 * of the g -> g g kernel (C_A/(1 - z) as overestimate) and all of g -> q qbar is offered on
 * every side at half weight (T_R/2 per flavour, summed over GAPS_N_FLAVOURS flavours).
 */
#ifndef GAPS_SHOWER_KERNELS_H
#define GAPS_SHOWER_KERNELS_H

#include "gaps/constants.h"
#include "gaps/event_pool.h"   /* enum gaps_kernel */
#include "gaps/fpmath.h"

GAPS_DEVICE_BEGIN

/* The coupling prefactor of every trial rate, alpha_max / (2 pi). */
GAPS_ALWAYS_INLINE double gaps_kernel_prefactor(double a_max)
{
    return a_max / (2.0 * GAPS_PI);
}

/* Trial rate of kernel k on a dipole with z- = zm and L = ln(z+/z-) = lnz, given the coupling
 * prefactor pref = alpha_max / (2 pi). */
GAPS_ALWAYS_INLINE double gaps_kernel_rate(enum gaps_kernel k, double pref, double zm, double lnz)
{
    switch (k) {
    case GAPS_KERNEL_Q_QG: return pref * 2.0 * GAPS_CF * lnz;       /* Q = 2 C_F / (1 - z) */
    case GAPS_KERNEL_G_GG: return pref * GAPS_CA * lnz;             /* Q = C_A / (1 - z)   */
    case GAPS_KERNEL_G_QQ:                                          /* Q = n_f T_R / 2     */
        return pref * GAPS_N_FLAVOURS * 0.5 * GAPS_TR * ((1.0 - zm) - zm);
    default: return 0.0;
    }
}

/* A splitting variable z together with 1 - z, each computed where it is accurate (1 - z near
 * 0 for the soft-enhanced kernels); returned by value, so that nothing needs an address. */
typedef struct gaps_zpair {
    double z, omz;
} gaps_zpair;

/* z distributed as the overestimate of kernel k on [zm, 1 - zm], from the uniform number R. */
GAPS_ALWAYS_INLINE gaps_zpair gaps_kernel_generate_z(enum gaps_kernel k, double zm, double lnz,
                                                double R)
{
    gaps_zpair v;
    if (k == GAPS_KERNEL_G_QQ) {   /* flat */
        const double zp = 1.0 - zm;
        v.z = zm + (zp - zm) * R;
        v.omz = 1.0 - v.z;
    } else {                       /* 1/(1 - z): 1 - z = z- (z+/z-)^R */
        v.omz = zm * gaps_exp(R * lnz);
        v.z = 1.0 - v.omz;
    }
    return v;
}

/* (1 - y) P(z, y) / Q(z) for kernel k, 0 outside the dipole's phase space (y >= 1).
 *   q -> q g   P = C_F [2/(1 - z(1 - y)) - (1 + z)]
 *   g -> g g   P = C_A/2 [2/(1 - z(1 - y)) - 2 + z(1 - z)]   (one side of two)
 *   g -> q q   P = T_R [1 - 2 z (1 - z)]                     (per flavour) */
GAPS_ALWAYS_INLINE double gaps_kernel_ratio(enum gaps_kernel k, double z, double omz, double y)
{
    if (!(y < 1.0)) return 0.0;
    const double den = omz + z * y;   /* 1 - z (1 - y) */
    double ratio;
    if (k == GAPS_KERNEL_Q_QG) ratio = (2.0 / den - (1.0 + z)) * omz / 2.0;
    else if (k == GAPS_KERNEL_G_GG) ratio = (2.0 / den - 2.0 + z * omz) * omz / 2.0;
    else ratio = 1.0 - 2.0 * z * omz;
    return ratio * (1.0 - y);
}

GAPS_DEVICE_END

#endif
