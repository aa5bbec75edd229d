/* shower/dipoles.h -- the colour dipoles of an event in its slot and their trial rates
 * (doc/physics.md sections 3.2 and 3.5).
 *
 * A dipole is (emitter p, side s): side 0 runs along the emitter's colour line (the spectator
 * is the parton whose anticolour is the emitter's colour), side 1 along its anticolour line.
 * A quark has only side 0, an antiquark only side 1, a gluon both.  Dipole row d = 2 p + s.
 * The colour-tag owner maps find a spectator in O(1).  Per dipole the pool caches the mass,
 * z-, ln(z+/z-) and the trial rate; they change only when momenta or colours change, i.e.
 * at the start of the shower and after an accepted emission.
 */
#ifndef GAPS_SHOWER_DIPOLES_H
#define GAPS_SHOWER_DIPOLES_H

#include <math.h>

#include "gaps/constants.h"
#include "gaps/event_pool.h"
#include "gaps/fpmath.h"
#include "shower/kernels.h"

GAPS_DEVICE_BEGIN

/* The spectator of dipole (p, side) in slot e, or -1 if the emitter has no such colour line. */
static inline int gaps_dipole_spectator(const gaps_pool *pool, int e, int p, int side)
{
    const int tag = side == 0 ? pool->col[gaps_at(pool, p, e)] : pool->acol[gaps_at(pool, p, e)];
    if (tag == 0) return -1;
    return side == 0 ? pool->acol_owner[gaps_at(pool, tag, e)]
                     : pool->col_owner[gaps_at(pool, tag, e)];
}

/* 2 pi.pk of partons i and k of slot e: the dipole's mass^2 for massless partons. */
static inline double gaps_dipole_mass2(const gaps_pool *pool, int e, int i, int k)
{
    return 2.0 * (pool->E[gaps_at(pool, i, e)] * pool->E[gaps_at(pool, k, e)]
                  - pool->px[gaps_at(pool, i, e)] * pool->px[gaps_at(pool, k, e)]
                  - pool->py[gaps_at(pool, i, e)] * pool->py[gaps_at(pool, k, e)]
                  - pool->pz[gaps_at(pool, i, e)] * pool->pz[gaps_at(pool, k, e)]);
}

/* z- of a final-final dipole of mass^2 m2 at the cutoff t_C: (1 - sqrt(1 - 4 t_C/m2)) / 2,
 * written without cancellation. */
static inline double gaps_dipole_ff_z_minus(double m2, double t_cut)
{
    return 2.0 * t_cut / (m2 * (1.0 + sqrt(1.0 - 4.0 * t_cut / m2)));
}

/* Trial rates of the kernels an emitter offers on one dipole: r[0] for q -> q g or g -> g g,
 * r[1] for g -> q qbar (summed over flavours; 0 for a quark). */
static inline void gaps_dipole_kernel_rates(double zm, double lnz, int gluon, double a_max,
                                            double r[2])
{
    const double pref = gaps_kernel_prefactor(a_max);
    if (!gluon) {
        r[0] = gaps_kernel_rate(GAPS_KERNEL_Q_QG, pref, zm, lnz);
        r[1] = 0.0;
    } else {
        r[0] = gaps_kernel_rate(GAPS_KERNEL_G_GG, pref, zm, lnz);
        r[1] = gaps_kernel_rate(GAPS_KERNEL_G_QQ, pref, zm, lnz);
    }
}

/* Recompute every dipole's mass, z- range, ln(z+/z-) and rate, the running sums of the rates
 * (for the bisection in gaps_veto_select_winner) and their total.  The veto step reads the
 * cached values instead of recomputing a square root, a division and a logarithm for every
 * trial. */
static inline void gaps_dipoles_update(gaps_pool *pool, const gaps_physics *phys, int e)
{
    const int n = pool->n[e];
    double sum = 0.0;
    for (int p = 0; p < n; ++p) {
        const int gluon = pool->flav[gaps_at(pool, p, e)] == GAPS_GLUON;
        for (int side = 0; side < 2; ++side) {
            const int k = gaps_dipole_spectator(pool, e, p, side);
            const long at = gaps_at(pool, 2 * p + side, e);
            double r[2] = { 0.0, 0.0 };
            const double m2 = k >= 0 ? gaps_dipole_mass2(pool, e, p, k) : 0.0;
            if (m2 > 4.0 * phys->t_cut) {   /* lighter dipoles cannot radiate */
                const double zm = gaps_dipole_ff_z_minus(m2, phys->t_cut);
                const double lnz = gaps_log((1.0 - zm) / zm);
                gaps_dipole_kernel_rates(zm, lnz, gluon, phys->a_max, r);
                pool->dip_m2[at] = m2;
                pool->dip_zm[at] = zm;
                pool->dip_lnz[at] = lnz;
            }
            pool->rate[at] = r[0] + r[1];
            sum += r[0] + r[1];
            pool->rate_cum[at] = sum;
        }
    }
    pool->rate_sum[e] = sum;
}

GAPS_DEVICE_END

#endif
