/* shower.c -- the steps of the parallelised veto algorithm, one function per step.
 *
 * Conventions: slot e, parton p; X[p * nslots + e] is component X of parton p.  A dipole is
 * (emitter p, side s): side 0 runs along the emitter's colour line (spectator = the parton
 * whose anticolour is the emitter's colour), side 1 along its anticolour line.  A quark has
 * only side 0, an antiquark only side 1, a gluon both.  Dipole d = 2 p + s.  (In e+e- -> q qbar
 * no two partons share two colour lines, so an ordered pair never appears twice.)
 */
#include "gaps/shower.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps_parallel.h"

#include <math.h>

GAPS_DEVICE_BEGIN

static gaps_rng slot_rng(const gaps_pool *pool, const gaps_physics *phys, int e)
{
    return gaps_rng_make(phys->seed, (uint64_t)pool->event[e], pool->draw[e]);
}

/* The spectator of dipole (p, side), or -1 if the emitter has no such colour line. */
static int spectator(const gaps_pool *pool, int e, int p, int side)
{
    const int tag = side == 0 ? pool->col[gaps_at(pool, p, e)] : pool->acol[gaps_at(pool, p, e)];
    if (tag == 0) return -1;
    return side == 0 ? pool->acol_owner[gaps_at(pool, tag, e)] : pool->col_owner[gaps_at(pool, tag, e)];
}

static double pair_mass2(const gaps_pool *pool, int e, int i, int k)
{
    return 2.0 * (pool->E[gaps_at(pool, i, e)] * pool->E[gaps_at(pool, k, e)] - pool->px[gaps_at(pool, i, e)] * pool->px[gaps_at(pool, k, e)]
                  - pool->py[gaps_at(pool, i, e)] * pool->py[gaps_at(pool, k, e)] - pool->pz[gaps_at(pool, i, e)] * pool->pz[gaps_at(pool, k, e)]);
}

/* z- of a dipole of mass^2 m2: (1 - sqrt(1 - 4 t_C/m2)) / 2, written without cancellation. */
static double z_minus(double m2, double t_cut)
{
    return 2.0 * t_cut / (m2 * (1.0 + sqrt(1.0 - 4.0 * t_cut / m2)));
}

/* Constant trial rates of one dipole's kernels from its z- and L = ln(z+/z-): r[0] for
 * q -> q g or g -> g g, r[1] for g -> q qbar summed over flavours. */
static void kernel_rates(double zm, double lnz, int gluon, const gaps_physics *phys, double r[2])
{
    const double pref = phys->a_max / (2.0 * GAPS_PI);
    if (!gluon) {
        r[0] = pref * 2.0 * GAPS_CF * lnz;
        r[1] = 0.0;
    } else {
        r[0] = pref * GAPS_CA * lnz;
        r[1] = pref * GAPS_N_FLAVOURS * 0.5 * GAPS_TR * ((1.0 - zm) - zm);
    }
}

/* Recompute every dipole's mass, z- range, ln(z+/z-) and rate, and the sum of the rates:
 * after the start and after each accepted emission, the only times momenta or colours
 * change.  The veto step reads the cached values instead of recomputing a square root, a
 * division and a logarithm for every trial. */
static void update_rates(gaps_pool *pool, const gaps_physics *phys, int e)
{
    const int n = pool->n[e];
    double sum = 0.0;
    for (int p = 0; p < n; ++p) {
        const int gluon = pool->flav[gaps_at(pool, p, e)] == GAPS_GLUON;
        for (int side = 0; side < 2; ++side) {
            const int k = spectator(pool, e, p, side);
            const long at = gaps_at(pool, 2 * p + side, e);
            double r[2] = { 0.0, 0.0 };
            const double m2 = k >= 0 ? pair_mass2(pool, e, p, k) : 0.0;
            if (m2 > 4.0 * phys->t_cut) {   /* lighter dipoles cannot radiate */
                const double zm = z_minus(m2, phys->t_cut);
                const double lnz = gaps_log((1.0 - zm) / zm);
                kernel_rates(zm, lnz, gluon, phys, r);
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

void gaps_shower_start(gaps_pool *pool, const gaps_physics *phys, int e, int64_t event)
{
    pool->event[e] = event;
    pool->draw[e] = 0;
    gaps_rng rng = slot_rng(pool, phys, e);
    const gaps_me_point pt = gaps_me_generate(&phys->me, &rng);
    pool->draw[e] = rng.draw;

    const double E = 0.5 * phys->me.ecm;
    const double st = sqrt(fmax(0.0, 1.0 - pt.cos_theta * pt.cos_theta));
    double sphi, cphi;
    gaps_sincos(pt.phi, &sphi, &cphi);
    const double dir[3] = { st * cphi, st * sphi, pt.cos_theta };
    for (int p = 0; p < 2; ++p) {
        const double sign = p == 0 ? 1.0 : -1.0;
        pool->E[gaps_at(pool, p, e)] = E;
        pool->px[gaps_at(pool, p, e)] = sign * E * dir[0];
        pool->py[gaps_at(pool, p, e)] = sign * E * dir[1];
        pool->pz[gaps_at(pool, p, e)] = sign * E * dir[2];
    }
    /* quark (1, 0), antiquark (0, 1) */
    pool->flav[gaps_at(pool, 0, e)] = pt.flavour;
    pool->col[gaps_at(pool, 0, e)] = 1;
    pool->acol[gaps_at(pool, 0, e)] = 0;
    pool->flav[gaps_at(pool, 1, e)] = -pt.flavour;
    pool->col[gaps_at(pool, 1, e)] = 0;
    pool->acol[gaps_at(pool, 1, e)] = 1;
    pool->col_owner[gaps_at(pool, 1, e)] = 0;
    pool->acol_owner[gaps_at(pool, 1, e)] = 1;

    pool->n[e] = 2;
    pool->next_tag[e] = 2;
    pool->flags[e] = 0;
    pool->weight[e] = pt.weight;
    pool->t[e] = phys->me.s;
    pool->status[e] = GAPS_SLOT_SHOWERING;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;
    update_rates(pool, phys, e);
}

/* Veto step 1, select the winner (the paper's select_winner_split_func).  One trial scale from
 * the summed overestimate, t' = t R^(1/r_sum), and the (dipole, kernel) that emits it, chosen
 * with probability r / r_sum. */
void gaps_veto_select_winner(gaps_pool *pool, const gaps_physics *phys, int e)
{
    if (pool->status[e] != GAPS_SLOT_SHOWERING) return;
    gaps_rng rng = slot_rng(pool, phys, e);
    const double r_sum = pool->rate_sum[e];
    double R, u;
    gaps_rng_uniform2(&rng, &R, &u);
    u *= r_sum;
    pool->draw[e] = rng.draw;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;
    if (!(r_sum > 0.0)) { pool->trial_t[e] = 0.0; return; }
    pool->trial_t[e] = pool->t[e] * gaps_exp(gaps_log(R) / r_sum);

    /* The winner is the first dipole d whose cumulative rate exceeds u, found by bisection
     * over the sums that update_rates() kept: a few loads where a scan over the dipoles
     * takes up to 2n, and on a GPU the scan of the largest event holds up its warp.  The sums
     * are the ones a scan would form, in the same order, so the choice is the same to the
     * bit; a dipole of zero rate never wins (its sum equals its predecessor's). */
    const int nd = 2 * pool->n[e];
    int d;
    double acc;   /* the sum of the rates before d */
    if (u < pool->rate_cum[gaps_at(pool, nd - 1, e)]) {
        int lo = 0, hi = nd - 1;
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (u < pool->rate_cum[gaps_at(pool, mid, e)]) hi = mid;
            else lo = mid + 1;
        }
        d = lo;
        acc = d > 0 ? pool->rate_cum[gaps_at(pool, d - 1, e)] : 0.0;
    } else {   /* u rounded up to r_sum: the last dipole that can radiate */
        d = nd - 1;
        while (d > 0 && !(pool->rate[gaps_at(pool, d, e)] > 0.0)) --d;
        acc = pool->rate_cum[gaps_at(pool, nd - 1, e)];
    }
    const int p = d / 2;
    int kernel = GAPS_KERNEL_Q_QG;
    if (pool->flav[gaps_at(pool, p, e)] == GAPS_GLUON) {
        double r[2];
        kernel_rates(pool->dip_zm[gaps_at(pool, d, e)], pool->dip_lnz[gaps_at(pool, d, e)], 1, phys, r);
        kernel = (u - acc) < r[0] ? GAPS_KERNEL_G_GG : GAPS_KERNEL_G_QQ;
    }
    pool->trial_dipole[e] = d;
    pool->trial_kernel[e] = kernel;
}

/* Veto step 2, check the cutoff (the paper's check_cutoff).  Below the cutoff (or with nothing
 * left to radiate) the shower ends; otherwise the event moves on to the trial scale, whether
 * or not the emission is accepted later. */
void gaps_veto_check_cutoff(gaps_pool *pool, const gaps_physics *phys, int e)
{
    if (pool->status[e] != GAPS_SLOT_SHOWERING) return;
    if (pool->trial_t[e] <= phys->t_cut) {
        pool->trial_kernel[e] = GAPS_KERNEL_NONE;
        gaps_pool_finish_shower(pool, e);
        return;
    }
    pool->t[e] = pool->trial_t[e];
}

/* Veto step 3, accept or reject (the paper's as_shower_kernel and veto_alg in one).  Trial z
 * from the overestimate, y from t, and the veto: accept with probability
 * (1 - y) alpha_s(t) P(z, y) / (a_max Q(z)). */
void gaps_veto_accept_or_reject(gaps_pool *pool, const gaps_physics *phys, int e)
{
    if (pool->status[e] != GAPS_SLOT_SHOWERING || pool->trial_kernel[e] == GAPS_KERNEL_NONE)
        return;
    gaps_rng rng = slot_rng(pool, phys, e);
    double Rz, Ra;
    gaps_rng_uniform2(&rng, &Rz, &Ra);
    pool->draw[e] = rng.draw;

    const int d = pool->trial_dipole[e], kernel = pool->trial_kernel[e];
    const double m2 = pool->dip_m2[gaps_at(pool, d, e)];
    const double zm = pool->dip_zm[gaps_at(pool, d, e)], zp = 1.0 - zm;
    double z, omz;   /* z and 1 - z, each computed where it is accurate */
    if (kernel == GAPS_KERNEL_G_QQ) {
        z = zm + (zp - zm) * Rz;
        omz = 1.0 - z;
    } else {
        omz = zm * gaps_exp(Rz * pool->dip_lnz[gaps_at(pool, d, e)]);
        z = 1.0 - omz;
    }
    const double t = pool->t[e];
    const double y = t / (m2 * z * omz);
    double ratio = 0.0;   /* (1 - y) P / Q */
    if (y < 1.0) {
        const double den = omz + z * y;   /* 1 - z (1 - y) */
        if (kernel == GAPS_KERNEL_Q_QG) ratio = (2.0 / den - (1.0 + z)) * omz / 2.0;
        else if (kernel == GAPS_KERNEL_G_GG) ratio = (2.0 / den - 2.0 + z * omz) * omz / 2.0;
        else ratio = 1.0 - 2.0 * z * omz;
        ratio *= 1.0 - y;
    }
    /* alpha_s(t) / a_max <= 1, so a trial that fails the kinematic ratio alone fails the full
     * one too: the coupling (two logarithms) is computed only for the survivors */
    if (Ra < ratio) ratio *= gaps_alphas_value(&phys->as, t) / phys->a_max;
    if (!(Ra < ratio)) {
        pool->trial_kernel[e] = GAPS_KERNEL_NONE;
        return;
    }
    pool->trial_z[e] = z;
    pool->trial_y[e] = y;
}

static double mdot(const double a[4], const double b[4])
{
    return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Two unit space-like four-vectors n1, n2 orthogonal to the massless pi, pk and to each other.
 *
 * n1 = (0, u) with u = pi x pk (three-vectors) is orthogonal to both; when pi and pk are
 * (anti)parallel u is taken orthogonal to pi and a fixed coordinate axis instead, and n1 is
 * then projected onto the space orthogonal to pi and pk so that rounding never leaves a
 * component along them (which would give the new partons a mass).
 * n2 = (u . (pi x pk), Ei (pk x u) - Ek (pi x u)) is orthogonal to pi, pk and (0, u) for any u,
 * an identity of the triple product; unlike the time axis minus its projections it needs no
 * cancellation between large terms when pi and pk are nearly back to back. */
static void transverse_basis(const double pi[4], const double pk[4], double n1[4], double n2[4])
{
    const double *vi = pi + 1, *vk = pk + 1;
    double u[3], c[3], a[3], b[3];
    cross(vi, vk, u);
    cross(vi, vk, c);
    const double u2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const double vi2 = vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2];
    const double vk2 = vk[0] * vk[0] + vk[1] * vk[1] + vk[2] * vk[2];
    if (!(u2 > 1e-12 * vi2 * vk2)) {   /* reference axis: the one least aligned with pi */
        const double ax = fabs(vi[0]), ay = fabs(vi[1]), az = fabs(vi[2]);
        const double ref[3] = { (ax <= ay && ax <= az) ? 1.0 : 0.0,
                                (ay < ax && ay <= az) ? 1.0 : 0.0,
                                (az < ax && az < ay) ? 1.0 : 0.0 };
        cross(vi, ref, u);
    }
    n1[0] = 0.0;
    n1[1] = u[0]; n1[2] = u[1]; n1[3] = u[2];
    const double pipk = mdot(pi, pk);
    const double ai = mdot(n1, pk) / pipk, ak = mdot(n1, pi) / pipk;
    for (int m = 0; m < 4; ++m) n1[m] -= ai * pi[m] + ak * pk[m];
    const double norm1 = 1.0 / sqrt(-mdot(n1, n1));
    for (int m = 0; m < 4; ++m) n1[m] *= norm1;

    cross(vk, u, a);
    cross(vi, u, b);
    n2[0] = u[0] * c[0] + u[1] * c[1] + u[2] * c[2];
    for (int m = 0; m < 3; ++m) n2[m + 1] = pi[0] * a[m] - pk[0] * b[m];
    const double norm2 = 1.0 / sqrt(-mdot(n2, n2));
    for (int m = 0; m < 4; ++m) n2[m] *= norm2;
}

static void load(const gaps_pool *pool, int e, int p, double v[4])
{
    v[0] = pool->E[gaps_at(pool, p, e)]; v[1] = pool->px[gaps_at(pool, p, e)]; v[2] = pool->py[gaps_at(pool, p, e)]; v[3] = pool->pz[gaps_at(pool, p, e)];
}

static void store(gaps_pool *pool, int e, int p, const double v[4])
{
    pool->E[gaps_at(pool, p, e)] = v[0]; pool->px[gaps_at(pool, p, e)] = v[1]; pool->py[gaps_at(pool, p, e)] = v[2]; pool->pz[gaps_at(pool, p, e)] = v[3];
}

/* Veto step 4, do the splitting (the paper's do_splitting).  The accepted emission: new
 * momenta (Catani-Seymour final-final map), new colours, the emitted parton appended, and the
 * dipole rates brought up to date. */
void gaps_veto_do_splitting(gaps_pool *pool, const gaps_physics *phys, int e)
{
    if (pool->status[e] != GAPS_SLOT_SHOWERING || pool->trial_kernel[e] == GAPS_KERNEL_NONE)
        return;
    gaps_rng rng = slot_rng(pool, phys, e);
    double Rphi, Rf;
    gaps_rng_uniform2(&rng, &Rphi, &Rf);
    const double phi = 2.0 * GAPS_PI * Rphi;
    pool->draw[e] = rng.draw;

    const int j = pool->n[e];
    if (j >= pool->maxp) {   /* no room for the emitted parton: end the shower, report it */
        pool->trial_kernel[e] = GAPS_KERNEL_NONE;
        pool->flags[e] |= GAPS_FLAG_CAPACITY;
        gaps_pool_finish_shower(pool, e);
        return;
    }
    const int d = pool->trial_dipole[e], i = d / 2, side = d % 2, kernel = pool->trial_kernel[e];
    const int k = spectator(pool, e, i, side);
    const double z = pool->trial_z[e], y = pool->trial_y[e];

    double pi[4], pk[4], n1[4], n2[4], qi[4], qj[4], qk[4];
    load(pool, e, i, pi);
    load(pool, e, k, pk);
    transverse_basis(pi, pk, n1, n2);
    const double m2 = 2.0 * mdot(pi, pk);
    const double kt = sqrt(m2 * y * z * (1.0 - z));
    double sphi, cphi;
    gaps_sincos(phi, &sphi, &cphi);
    const double c = kt * cphi, s = kt * sphi;
    for (int m = 0; m < 4; ++m) {
        const double kperp = c * n1[m] + s * n2[m];
        qi[m] = z * pi[m] + (1.0 - z) * y * pk[m] + kperp;
        qj[m] = (1.0 - z) * pi[m] + z * y * pk[m] - kperp;
        qk[m] = (1.0 - y) * pk[m];
    }
    store(pool, e, i, qi);
    store(pool, e, j, qj);
    store(pool, e, k, qk);

    const int a = pool->col[gaps_at(pool, i, e)], b = pool->acol[gaps_at(pool, i, e)];
    if (kernel == GAPS_KERNEL_G_QQ) {
        /* g(a, b) -> q(a, 0) + qbar(0, b) */
        int f = 1 + (int)(GAPS_N_FLAVOURS * Rf);
        if (f > GAPS_N_FLAVOURS) f = GAPS_N_FLAVOURS;
        pool->flav[gaps_at(pool, i, e)] = f;
        pool->acol[gaps_at(pool, i, e)] = 0;
        pool->flav[gaps_at(pool, j, e)] = -f;
        pool->col[gaps_at(pool, j, e)] = 0;
        pool->acol[gaps_at(pool, j, e)] = b;
        pool->acol_owner[gaps_at(pool, b, e)] = j;
    } else {
        const int tag = pool->next_tag[e]++;
        pool->flav[gaps_at(pool, j, e)] = GAPS_GLUON;
        if (side == 0) {   /* along colour a: emitter (tag, b), gluon (a, tag) */
            pool->col[gaps_at(pool, i, e)] = tag;
            pool->col[gaps_at(pool, j, e)] = a;
            pool->acol[gaps_at(pool, j, e)] = tag;
            pool->col_owner[gaps_at(pool, tag, e)] = i;
            pool->col_owner[gaps_at(pool, a, e)] = j;
            pool->acol_owner[gaps_at(pool, tag, e)] = j;
        } else {           /* along anticolour b: emitter (a, tag), gluon (tag, b) */
            pool->acol[gaps_at(pool, i, e)] = tag;
            pool->col[gaps_at(pool, j, e)] = tag;
            pool->acol[gaps_at(pool, j, e)] = b;
            pool->acol_owner[gaps_at(pool, tag, e)] = i;
            pool->col_owner[gaps_at(pool, tag, e)] = j;
            pool->acol_owner[gaps_at(pool, b, e)] = j;
        }
    }
    pool->n[e] = j + 1;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;   /* the accepted trial is used up */
    update_rates(pool, phys, e);
}

/* One veto step of one slot. */
void gaps_veto_step(gaps_pool *pool, const gaps_physics *phys, int e, enum gaps_veto_step step)
{
    switch (step) {
    case GAPS_STEP_SELECT_WINNER: gaps_veto_select_winner(pool, phys, e); break;
    case GAPS_STEP_CHECK_CUTOFF: gaps_veto_check_cutoff(pool, phys, e); break;
    case GAPS_STEP_ACCEPT_OR_REJECT: gaps_veto_accept_or_reject(pool, phys, e); break;
    case GAPS_STEP_DO_SPLITTING: gaps_veto_do_splitting(pool, phys, e); break;
    default: break;
    }
}

/* One veto cycle of one slot: its steps in the order of enum gaps_veto_step.  This is the
 * only place where the order of the steps is spelled out; the one-loop-per-step launches on
 * the host follow the same enum.
 *
 * Splitting rounds.  Outside a splitting round the last step is held back: a slot whose
 * trial was accepted keeps it and sits out the following cycles until a splitting round,
 * where every such slot does its splitting.  Why wait: about 8 % of trials are accepted, so in
 * nearly every cycle some lane of a 32-lane GPU warp splits while the other lanes idle through
 * a splitting that costs as much as three trials; held back to every M-th cycle, the
 * splittings of a warp run side by side.  A waiting slot draws no random numbers, so the
 * events do not depend on the rounds (doc/physics.md section 6.6).  With every cycle a
 * splitting round this is the plain veto cycle. */
void gaps_veto_cycle(gaps_pool *pool, const gaps_physics *phys, int e, int splitting_round)
{
    if (pool->trial_kernel[e] == GAPS_KERNEL_NONE)   /* no accepted trial waiting */
        for (int step = 0; step < GAPS_STEP_DO_SPLITTING; ++step)
            gaps_veto_step(pool, phys, e, (enum gaps_veto_step)step);
    if (splitting_round) gaps_veto_do_splitting(pool, phys, e);
}

/* Refill one slot with the next event number, if any is left below `end`. */
static void refill(gaps_pool *pool, const gaps_physics *phys, int e)
{
    if (pool->status[e] != GAPS_SLOT_EMPTY) return;
    unsigned long long id, *next = pool->next_event, *cnt = pool->counters;
    GAPS_ATOMIC_CAPTURE
    id = (*next)++;
    if ((int64_t)id >= phys->end_event) return;
    gaps_shower_start(pool, phys, e, (int64_t)id);
    GAPS_ATOMIC_UPDATE
    cnt[GAPS_COUNT_STARTED] += 1u;
}

GAPS_DEVICE_END

void gaps_shower_launch_step(gaps_pool *pool, const gaps_physics *phys, int nslots,
                             enum gaps_veto_step step)
{
    GAPS_PARALLEL_FOR(nslots)
    for (int e = 0; e < nslots; ++e) gaps_veto_step(pool, phys, e, step);
}

void gaps_shower_launch_cycles(gaps_pool *pool, const gaps_physics *phys, int nslots,
                               int cycles, int split_every)
{
    GAPS_PARALLEL_FOR(nslots)
    for (int e = 0; e < nslots; ++e)
        for (int c = 0; c < cycles && pool->status[e] == GAPS_SLOT_SHOWERING; ++c) {
            /* the last cycle is always a splitting round: no accepted trial outlives a launch */
            const int splitting_round = (c + 1) % split_every == 0 || c == cycles - 1;
            gaps_veto_cycle(pool, phys, e, splitting_round);
        }
}

void gaps_shower_launch_refill(gaps_pool *pool, const gaps_physics *phys, int nslots)
{
    GAPS_PARALLEL_FOR(nslots)
    for (int e = 0; e < nslots; ++e) refill(pool, phys, e);
}
