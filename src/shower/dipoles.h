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
#include "shower/colour.h"
#include "shower/isr.h"
#include "shower/kernels.h"
#include "shower/kinematics.h"

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
 * trial.  (Recomputing only the rows an emission changed, as the hadronic update does, made
 * 10^8 LEP events 1.7 % slower on an H200: the rows are cheap, and the test divides the
 * warp.) */
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

/* ---- Hadron collisions: dipoles with incoming legs (src/shower/isr.h) ----------------------
 * The dipole rows are the same (emitter p, side s), with the sides taken in crossed colours
 * (colour.h).  Per dipole the pool keeps s_ijk (dip_m2), z- and z+ of the sampling variable
 * and the rate of all its kernels.  The dipoles of an incoming c or b quark are trialled in
 * t - m^2 (their densities rise from zero at the quark's threshold, so that only a trial
 * density like dt/(t - m^2) bounds them): their rates are summed per incoming row in
 * rate_shift and left out of the running sums, which hold the dipoles trialled in t. */

/* The spectator of dipole (p, side) with n_in incoming rows, or -1. */
GAPS_ALWAYS_INLINE int gaps_dipole_spectator_x(const gaps_pool *pool, int e, int p, int side,
                                               int n_in)
{
    const int tag = side == 0 ? gaps_xcol(pool, e, p, n_in) : gaps_xacol(pool, e, p, n_in);
    if (tag == 0) return -1;
    return side == 0 ? pool->acol_owner[gaps_at(pool, tag, e)]
                     : pool->col_owner[gaps_at(pool, tag, e)];
}

/* Whether incoming row r belongs to an antiproton beam (gaps_process.beam_anti): the beam
 * its momentum points along, +z or -z (an incoming parton stays on its beam's axis).  0 for
 * every row of a p p run, without a look at the momentum. */
GAPS_ALWAYS_INLINE int gaps_row_anti(const gaps_pool *pool, const gaps_physics *phys, int e,
                                     int r)
{
    if (!(phys->proc.beam_anti[0] | phys->proc.beam_anti[1])) return 0;
    return phys->proc.beam_anti[pool->pz[gaps_at(pool, r, e)] < 0.0 ? 1 : 0];
}

/* Is flavour flav of an incoming row trialled in t - m^2 (a c or b quark)? */
GAPS_ALWAYS_INLINE int gaps_isr_shifted(const gaps_isr *isr, int flav)
{
    const int f = flav < 0 ? -flav : flav;
    return f <= 5 && isr->m2[f] > 0.0;
}

/* The kernels an emitter offers on one dipole, numbered 0 .. gaps_dipole_kernel_count()-1:
 * a final quark q -> q g; a final gluon g -> g g, g -> q qbar; an incoming quark I_QQ, I_GQ;
 * an incoming gluon I_GG and I_QG for the new incoming flavours -5..-1, 1..5. */
GAPS_ALWAYS_INLINE int gaps_dipole_kernel_count(int flav, int incoming)
{
    if (flav != GAPS_GLUON) return incoming ? 2 : 1;
    return incoming ? 1 + 2 * GAPS_N_FLAVOURS : 2;
}

GAPS_ALWAYS_INLINE int gaps_dipole_kernel(int flav, int incoming, int j, int *new_flav)
{
    *new_flav = 0;
    if (!incoming) return flav != GAPS_GLUON ? GAPS_KERNEL_Q_QG
                                             : (j == 0 ? GAPS_KERNEL_G_GG : GAPS_KERNEL_G_QQ);
    if (flav != GAPS_GLUON) return j == 0 ? GAPS_KERNEL_I_QQ : GAPS_KERNEL_I_GQ;
    if (j == 0) return GAPS_KERNEL_I_GG;
    *new_flav = j <= GAPS_N_FLAVOURS ? -j : j - GAPS_N_FLAVOURS;
    return GAPS_KERNEL_I_QG;
}

/* What the kernel rates of one dipole share, computed once for all of its kernels: the
 * coupling prefactor, the shape integrals over [z-, z+] and the eta bin of the PDF-ratio
 * bounds (an incoming gluon has eleven kernels: one logarithm each instead of three). */
typedef struct gaps_dipole_rate_inputs {
    int tbin, type, flav, spec_flav, incoming, shifted, eta_bin;
    double eta, pref;
    double I[4];
    int anti;   /* the beam of the leg whose density changes is an antiproton (FF: 0) */
} gaps_dipole_rate_inputs;

GAPS_ALWAYS_INLINE gaps_dipole_rate_inputs
gaps_dipole_rate_inputs_make(const gaps_physics *phys, int tbin, int type, int flav,
                             int spec_flav, int incoming, double eta, double zm, double zp,
                             int anti)
{
    gaps_dipole_rate_inputs in;
    in.anti = anti;
    in.tbin = tbin;
    in.type = type;
    in.flav = flav;
    in.spec_flav = spec_flav;
    in.incoming = incoming;
    in.shifted = incoming && gaps_isr_shifted(&phys->isr, flav);
    in.eta = eta;
    in.eta_bin = type == GAPS_DIPOLE_FF ? 0 : gaps_isr_eta_bin(&phys->isr, eta);
    in.pref = gaps_kernel_prefactor(
        gaps_isr_coupling_max(&phys->isr, in.shifted ? (flav < 0 ? -flav : flav) : 0,
                              phys->a_max));
    gaps_shape_integrals(zm, zp, in.I);
    return in;
}

/* The trial rate of kernel j of a dipole. */
GAPS_ALWAYS_INLINE double gaps_dipole_kernel_rate(const gaps_physics *phys,
                                                  const gaps_dipole_rate_inputs *in, int j,
                                                  int *kernel, int *new_flav)
{
    const int compat = phys->isr.compat == GAPS_COMPAT_GAPS21;
    *kernel = gaps_dipole_kernel(in->flav, in->incoming, j, new_flav);
    /* --ablate isr-no-b: no trials of an incoming gluon that came from a b or bbar */
    if ((phys->ablate & GAPS_ABLATE_ISR_NO_B) && *kernel == GAPS_KERNEL_I_QG
        && (*new_flav == 5 || *new_flav == -5))
        return 0.0;
    const gaps_overestimate o = gaps_isr_overestimate(*kernel, in->type, compat);
    return in->pref * in->I[o.shape]
           * gaps_isr_rate_factor(&phys->isr, in->tbin, *kernel, in->type, in->flav,
                                  in->spec_flav, *new_flav, in->shifted, in->eta, in->eta_bin,
                                  o.coeff, in->anti);
}

/* The incoming leg whose momentum fraction (and density) a dipole's emission changes: the
 * emitter p if incoming, else the incoming spectator k, else -1 (FF). */
GAPS_ALWAYS_INLINE int gaps_dipole_pdf_leg(int p, int k, int n_in)
{
    return p < n_in ? p : (k >= 0 && k < n_in ? k : -1);
}

/* Whether that leg's beam is an antiproton (gaps_row_anti; 0 for FF). */
GAPS_ALWAYS_INLINE int gaps_dipole_anti(const gaps_pool *pool, const gaps_physics *phys, int e,
                                        int p, int k, int n_in)
{
    const int leg = gaps_dipole_pdf_leg(p, k, n_in);
    return leg >= 0 ? gaps_row_anti(pool, phys, e, leg) : 0;
}

/* Momentum fraction the PDF ratio of a dipole refers to: the incoming emitter's, or for FI the
 * incoming spectator's (0 for FF). */
GAPS_ALWAYS_INLINE double gaps_dipole_eta(const gaps_pool *pool, int e, int p, int k, int n_in)
{
    if (p < n_in) return pool->x_in[gaps_at(pool, p, e)];
    if (k < n_in) return pool->x_in[gaps_at(pool, k, e)];
    return 0.0;
}

/* Which rows a rate update recomputes.  A row's rate depends on its emitter's and spectator's
 * momenta and flavours, the colour line between them, the momentum fraction of an incoming
 * leg among them and the scale bin of the bounds; a row whose inputs did not change keeps its
 * rate, which a recomputation would give again to the bit.
 *   keep_ff   only the scale bin changed: the final-final rows keep theirs (no bound enters
 *             them);
 *   moved     the partons an emission changed (emitter, emitted, spectator: the FF, FI and IF
 *             maps move only these, and the colour flow changes only between the first two),
 *             so only rows of theirs and rows whose spectator is one of them change; moved[0]
 *             < 0: every row (the shower's start, a move to the next bin, an II emission,
 *             whose recoil boosts the whole final state and so changes every row's bits).
 * The rows whose spectator is p are the rows (q, 1 - s) of p's colour partners q =
 * spectator(p, s): a colour line joins the two ends both ways.  So an emission's rows are
 * found without a scan: at most 12, the candidates of gaps_rows_candidate(). */
typedef struct gaps_rows_due {
    int keep_ff;
    int moved[3];
} gaps_rows_due;

GAPS_ALWAYS_INLINE gaps_rows_due gaps_rows_all(int keep_ff)
{
    const gaps_rows_due due = { keep_ff, { -1, -1, -1 } };
    return due;
}

/* The rate of dipole row d = 2 p + side as above, stored with (for a dipole that can emit) its
 * s, z- and z+ (with due.keep_ff a final-final row keeps what it has).  A row reads the
 * event's momenta, flavours and colours and writes only its own entries, so the rows of an
 * event can be computed side by side (gaps_dipoles_rates_hadronic). */
GAPS_ALWAYS_INLINE void gaps_dipole_rate_hadronic(gaps_pool *pool, const gaps_physics *phys,
                                                  int e, int d, gaps_rows_due due)
{
    const int n_in = pool->n_in[e], tbin = pool->rate_tbin[e];
    const int compat = phys->isr.compat == GAPS_COMPAT_GAPS21;
    const int p = d / 2, side = d % 2;
    const int flav = pool->flav[gaps_at(pool, p, e)], incoming = p < n_in;
    const int is_parton = flav == GAPS_GLUON || (flav != 0 && flav >= -5 && flav <= 5);
    const long at = gaps_at(pool, d, e);
    const int k = is_parton ? gaps_dipole_spectator_x(pool, e, p, side, n_in) : -1;
    if (k >= 0 && due.keep_ff && !incoming && k >= n_in) return;
    double r = 0.0, zm, zp;
    if (k >= 0) {
        const int type = gaps_dipole_type_of(incoming, k < n_in);
        /* both momenta physical, one of them possibly incoming: 2 p.k all the same */
        const double s = gaps_dipole_mass2(pool, e, p, k);
        const double eta = gaps_dipole_eta(pool, e, p, k, n_in);
        const int kflav = pool->flav[gaps_at(pool, k, e)];
        /* the z0 range where the dipole can emit at the lowest scale the rates serve: a
         * dipole with an incoming leg, the lower edge of the scale bin (the range narrows as
         * t grows, so the edge's range holds every t of the bin: fewer trials that fail
         * x > eta; GAPS 2.1, compat: t_min for every bin) */
        const double tmin = type == GAPS_DIPOLE_FF ? phys->t_cut
                            : compat || tbin < 0 ? phys->isr.t_min
                                                 : phys->isr.tbin_edge[tbin];
        /* compat: GAPS 2.1 leaves II dipoles with a leg below x = 1e-5 out */
        const int skip = compat && type == GAPS_DIPOLE_II
                         && (eta < 1e-5 || pool->x_in[gaps_at(pool, k, e)] < 1e-5);
        /* below t_min (tbin -1) only the final-final dipoles radiate */
        const int off = type != GAPS_DIPOLE_FF && tbin < 0;
        if (!skip && !off && s > 0.0 && gaps_isr_zrange(type, s, eta, tmin, &zm, &zp)) {
            const int nk = gaps_dipole_kernel_count(flav, incoming);
            const gaps_dipole_rate_inputs in = gaps_dipole_rate_inputs_make(
                phys, tbin, type, flav, kflav, incoming, eta, zm, zp,
                gaps_dipole_anti(pool, phys, e, p, k, n_in));
            for (int j = 0; j < nk; ++j) {
                int kernel, nf;
                r += gaps_dipole_kernel_rate(phys, &in, j, &kernel, &nf);
            }
            pool->dip_m2[at] = s;
            pool->dip_zm[at] = zm;
            pool->dip_zp[at] = zp;
        }
    }
    pool->rate[at] = r;
}

/* Candidate c (0 .. 11) of an emission's rows: for moved parton m = c / 4 and side s = c / 2
 * mod 2, its own row (c even) or its partner's row that points back at it (c odd); -1 where
 * that partner does not exist or is itself moved (its own rows are candidates already), so
 * that no row comes twice. */
GAPS_ALWAYS_INLINE int gaps_rows_candidate(const gaps_pool *pool, int e, const gaps_rows_due *due,
                                           int c)
{
    const int p = due->moved[c / 4], side = (c / 2) % 2;
    if (c % 2 == 0) return 2 * p + side;
    const int q = gaps_dipole_spectator_x(pool, e, p, side, pool->n_in[e]);
    if (q < 0 || q == due->moved[0] || q == due->moved[1] || q == due->moved[2]) return -1;
    return 2 * q + 1 - side;
}

/* The rows `due` of slot e by lane `lane` of `lanes` (all of them: lane 0 of 1): every lanes-th
 * row, or every lanes-th candidate of an emission's rows. */
GAPS_ALWAYS_INLINE void gaps_dipoles_rates_hadronic(gaps_pool *pool, const gaps_physics *phys,
                                                    int e, gaps_rows_due due, int lane,
                                                    int lanes)
{
    if (due.moved[0] < 0) {
        const int nd = 2 * pool->n[e];
        for (int d = lane; d < nd; d += lanes) gaps_dipole_rate_hadronic(pool, phys, e, d, due);
        return;
    }
    for (int c = lane; c < 12; c += lanes) {
        const int d = gaps_rows_candidate(pool, e, &due, c);
        if (d >= 0) gaps_dipole_rate_hadronic(pool, phys, e, d, due);
    }
}

/* The running sums of the rows' rates in row order (the same sums, to the bit, whichever lanes
 * computed the rows), their total, and the rates of the incoming c and b rows per row. */
GAPS_ALWAYS_INLINE void gaps_dipoles_sum_hadronic(gaps_pool *pool, const gaps_physics *phys,
                                                  int e)
{
    const int nd = 2 * pool->n[e], n_in = pool->n_in[e];
    double sum = 0.0, shift[2] = { 0.0, 0.0 };
    for (int d = 0; d < nd; ++d) {
        const long at = gaps_at(pool, d, e);
        const int p = d / 2;
        if (p < n_in && gaps_isr_shifted(&phys->isr, pool->flav[gaps_at(pool, p, e)]))
            shift[p] += pool->rate[at];
        else
            sum += pool->rate[at];
        pool->rate_cum[at] = sum;
    }
    pool->rate_sum[e] = sum;
    pool->rate_shift[gaps_at(pool, 0, e)] = shift[0];
    pool->rate_shift[gaps_at(pool, 1, e)] = shift[1];
}

/* The rates `due`, and the sums. */
GAPS_ALWAYS_INLINE void gaps_dipoles_update_hadronic(gaps_pool *pool, const gaps_physics *phys,
                                                     int e, gaps_rows_due due)
{
    gaps_dipoles_rates_hadronic(pool, phys, e, due, 0, 1);
    gaps_dipoles_sum_hadronic(pool, phys, e);
}

GAPS_DEVICE_END

#endif
