/* veto.c -- the steps of the parallelised veto algorithm, one function per step, and the
 * launches that run them over a pool (doc/physics.md sections 3.6 and 6).
 *
 * The physics of one emission is in the headers beside this file: the dipoles and their
 * trial rates (dipoles.h), the splitting kernels (kernels.h), the momentum maps
 * (kinematics.h) and the colour flow (colour.h).  This file strings them together in the
 * order of the veto algorithm; slot e, parton p, X[p * nslots + e] is component X of
 * parton p (gaps_at()).
 */
#include "gaps/shower.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps_parallel.h"
#include "shower/colour.h"
#include "shower/dipoles.h"
#include "shower/kernels.h"
#include "shower/kinematics.h"

#include <math.h>

GAPS_DEVICE_BEGIN

static gaps_rng slot_rng(const gaps_pool *pool, const gaps_physics *phys, int e)
{
    return gaps_rng_make(phys->seed, (uint64_t)pool->event[e], pool->draw[e]);
}

void gaps_shower_start(gaps_pool *pool, const gaps_physics *phys, int e, int64_t event)
{
    pool->event[e] = event;
    pool->draw[e] = 0;
    gaps_rng rng = slot_rng(pool, phys, e);
    gaps_hard_event ev;
    gaps_process_generate(&phys->proc, &rng, &ev);
    pool->draw[e] = rng.draw;

    /* a loop of constant length (unrolled: the hard event stays in registers on a GPU) */
    for (int p = 0; p < GAPS_HARD_MAX; ++p) {
        if (p >= ev.n) break;
        const long at = gaps_at(pool, p, e);
        pool->E[at] = ev.p[p][0];
        pool->px[at] = ev.p[p][1];
        pool->py[at] = ev.p[p][2];
        pool->pz[at] = ev.p[p][3];
        pool->flav[at] = ev.flav[p];
        pool->col[at] = ev.col[p];
        pool->acol[at] = ev.acol[p];
        if (ev.col[p] > 0) pool->col_owner[gaps_at(pool, ev.col[p], e)] = p;
        if (ev.acol[p] > 0) pool->acol_owner[gaps_at(pool, ev.acol[p], e)] = p;
    }
    for (int b = 0; b < 2; ++b)
        if (b < ev.n_in) pool->x_in[gaps_at(pool, b, e)] = ev.x[b];

    pool->n[e] = ev.n;
    pool->n_in[e] = ev.n_in;
    pool->next_tag[e] = ev.next_tag;
    pool->flags[e] = 0;
    pool->weight[e] = ev.weight;
    pool->t[e] = ev.t_start;
    pool->status[e] = GAPS_SLOT_SHOWERING;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;
    gaps_dipoles_update(pool, phys, e);
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
     * over the sums that gaps_dipoles_update() kept: a few loads where a scan over the dipoles
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
        const double r_gg = gaps_kernel_rate(GAPS_KERNEL_G_GG,
                                             gaps_kernel_prefactor(phys->a_max),
                                             pool->dip_zm[gaps_at(pool, d, e)],
                                             pool->dip_lnz[gaps_at(pool, d, e)]);
        kernel = (u - acc) < r_gg ? GAPS_KERNEL_G_GG : GAPS_KERNEL_G_QQ;
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

    const int d = pool->trial_dipole[e];
    const enum gaps_kernel kernel = (enum gaps_kernel)pool->trial_kernel[e];
    const double m2 = pool->dip_m2[gaps_at(pool, d, e)];
    const gaps_zpair zz = gaps_kernel_generate_z(kernel, pool->dip_zm[gaps_at(pool, d, e)],
                                                 pool->dip_lnz[gaps_at(pool, d, e)], Rz);
    const double z = zz.z, omz = zz.omz;
    const double t = pool->t[e];
    const double y = t / (m2 * z * omz);
    double ratio = gaps_kernel_ratio(kernel, z, omz, y);   /* (1 - y) P / Q */
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
    const int k = gaps_dipole_spectator(pool, e, i, side);

    double pi[4], pk[4], qi[4], qj[4], qk[4];
    load(pool, e, i, pi);
    load(pool, e, k, pk);
    gaps_map_ff(pi, pk, pool->trial_z[e], pool->trial_y[e], phi, qi, qj, qk);
    store(pool, e, i, qi);
    store(pool, e, j, qj);
    store(pool, e, k, qk);

    if (kernel == GAPS_KERNEL_G_QQ) {
        int f = 1 + (int)(GAPS_N_FLAVOURS * Rf);
        if (f > GAPS_N_FLAVOURS) f = GAPS_N_FLAVOURS;
        gaps_colour_split_gluon(pool, e, i, j, f);
    } else {
        gaps_colour_emit_gluon(pool, e, i, j, side, pool->next_tag[e]++);
    }
    pool->n[e] = j + 1;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;   /* the accepted trial is used up */
    gaps_dipoles_update(pool, phys, e);
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
