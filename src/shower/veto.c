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
#include "gaps/hard_batch.h"
#include "gaps_parallel.h"
#include "shower/colour.h"
#include "shower/dipoles.h"
#include "shower/kernels.h"
#include "shower/isr.h"
#include "shower/kinematics.h"

#include <math.h>

GAPS_DEVICE_BEGIN

static gaps_rng slot_rng(const gaps_pool *pool, const gaps_physics *phys, int e)
{
    return gaps_rng_make(phys->seed, (uint64_t)pool->event[e], pool->draw[e]);
}

/* launch, in every function below that takes it, is the enum gaps_launch of the launch that
 * runs it (gaps/shower.h), a constant in each kernel: the e+e- launches hold no hadronic code
 * (on an H200, 10^8 LEP events took 1.880 s against 1.895 s with the hadronic code in the
 * fused kernel), and those of plain LEP runs no code of --vary either. */
GAPS_ALWAYS_INLINE int ee_launch(int launch)
{
    return launch != GAPS_LAUNCH_GENERAL;
}

/* Is the run's process a hadron collision? */
GAPS_ALWAYS_INLINE int is_hadronic(const gaps_physics *phys, int launch)
{
    return !ee_launch(launch) && phys->proc.hadronic;
}

/* Does the run carry --vary weights (or --shower-mur-factor)?  Never in the plain e+e-
 * launches (GAPS_LAUNCH_EE): an e+e- run with them takes GAPS_LAUNCH_EE_VARY. */
GAPS_ALWAYS_INLINE int varies(const gaps_physics *phys, int launch)
{
    return launch != GAPS_LAUNCH_EE && phys->n_vary;
}

/* What every start shares, once the rows are in the slot: the event's header, then its
 * dipoles' rates. */
GAPS_ALWAYS_INLINE void start_showering(gaps_pool *pool, const gaps_physics *phys, int e,
                                        int n, int n_in, int next_tag, double weight,
                                        double t_start, int launch)
{
    pool->n[e] = n;
    pool->n_in[e] = n_in;
    pool->next_tag[e] = next_tag;
    pool->weight[e] = weight;
    pool->t[e] = t_start;
    pool->status[e] = GAPS_SLOT_SHOWERING;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;
    if (varies(phys, launch)) {
        /* --vary: every variation starts at the nominal weight, but those the hard process
         * weighted (vary_hard_first and on: its factors are in their rows already) */
        const int first = phys->vary_hard_first, n_hard = phys->proc.scales.n;
        for (int v = 0; v < phys->n_vary; ++v)
            if (v < first || v >= first + n_hard) pool->vary_w[gaps_at(pool, v, e)] = 1.0;
        pool->vary_flags[e] = 0;
    }
    if (is_hadronic(phys, launch)) {
        pool->rate_tbin[e] = gaps_isr_tbin(&phys->isr, t_start);
        gaps_dipoles_update_hadronic(pool, phys, e, gaps_rows_all(0));
    } else {
        gaps_dipoles_update(pool, phys, e);
    }
}

GAPS_OUT_OF_LINE void shower_start_from_batch(gaps_pool *pool, const gaps_physics *phys,
                                              int e, int64_t event);

/* from_file: the run's hard events come from a batch (a process with source LHE); a
 * constant in the refill kernels, so that those of the built-in processes hold no code for it
 * (it cost pp-z's refill 10 % on an H200, doc/benchmarks.md) */
GAPS_ALWAYS_INLINE void shower_start(gaps_pool *pool, const gaps_physics *phys, int e,
                                     int64_t event, int launch, int from_file)
{
    if (from_file) {
        shower_start_from_batch(pool, phys, e, event);
        return;
    }
    pool->event[e] = event;
    pool->draw[e] = 0;
    gaps_rng rng = slot_rng(pool, phys, e);
    gaps_hard_event ev;
    /* --vary scales, alphas, pdf: the process writes its factors into the slot's rows */
    ev.vary = varies(phys, launch) ? pool->vary_w + gaps_at(pool, phys->vary_hard_first, e)
                                    : NULL;
    ev.vary_stride = pool->nslots;
    if (ee_launch(launch)) gaps_process_generate_ee(&phys->proc, &rng, &ev);
    else gaps_process_generate(&phys->proc, &rng, &ev);
    pool->draw[e] = rng.draw;

    /* Every write below stays inside the record: rows 0 .. n-1 of maxp, dipole rows
     * 0 .. 2n-1 of 2 maxp, colour tags 1 .. next_tag-1 of maxp + 2, x_in rows 0 .. n_in-1 of
     * 2.  gaps_config_check() refuses a capacity below the process's hard events
     * (gaps_process_min_partons()), so this never fails in a run it let through; should a
     * process hand over more than its table row declares, nothing of the hard event is
     * written: the slot starts empty with the capacity flag, ends in its first cycle and fails
     * the event check (counted, exit status 3), instead of writing past the arrays.
     * next_tag <= n + 2 holds for every hard event (a colour line per quark pair or gluon) and
     * is kept by each emission (one parton, at most one tag): with the splitting's check
     * n < maxp it keeps every new tag below maxp + 2, so the splitting need not test tags. */
    int fits = ev.n >= 0 && ev.n <= pool->maxp && ev.n <= GAPS_HARD_MAX && ev.n_in >= 0
               && ev.n_in <= 2 && ev.n_in <= ev.n && ev.next_tag >= 1
               && ev.next_tag <= ev.n + 2;
    for (int p = 0; p < GAPS_HARD_MAX; ++p)   /* every tag below next_tag */
        if (p < ev.n && !(ev.col[p] >= 0 && ev.col[p] < ev.next_tag && ev.acol[p] >= 0
                          && ev.acol[p] < ev.next_tag))
            fits = 0;
    if (!fits) {
        ev.n = ev.n_in = 0;
        ev.next_tag = 1;
        ev.t_start = 0.0;
        pool->flags[e] = GAPS_FLAG_CAPACITY;
    } else {
        pool->flags[e] = 0;
    }

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
        /* owner maps in crossed colours: an incoming parton's colour is an anticolour */
        const int xc = p < ev.n_in ? ev.acol[p] : ev.col[p];
        const int xa = p < ev.n_in ? ev.col[p] : ev.acol[p];
        if (xc > 0) pool->col_owner[gaps_at(pool, xc, e)] = p;
        if (xa > 0) pool->acol_owner[gaps_at(pool, xa, e)] = p;
    }
    for (int b = 0; b < 2; ++b)
        if (b < ev.n_in) pool->x_in[gaps_at(pool, b, e)] = ev.x[b];

    start_showering(pool, phys, e, ev.n, ev.n_in, ev.next_tag, ev.weight, ev.t_start, launch);
}

/* The start of an event whose hard event another generator made (a process with source LHE:
 * gaps/hard_batch.h): its rows copied from the batch's entry, any number up to the record's
 * capacity (the program refused a file whose events do not fit, src/program/lhe_feed.c; an
 * entry that still does not fit starts empty with the capacity flag, as in shower_start).
 * The random stream continues where the file says (a gaps-written file's draw index, so that
 * its events are those of the run that wrote it), else at 0. */
GAPS_OUT_OF_LINE void shower_start_from_batch(gaps_pool *pool, const gaps_physics *phys,
                                              int e, int64_t event)
{
    const gaps_hard_batch *b = gaps_process_batch(&phys->proc);
    const int64_t i = event - b->first;
    int fits = i >= 0 && i < b->count;
    const int r0 = fits ? b->row0[i] : 0;
    const int n = fits ? b->row0[i + 1] - r0 : 0;
    const int n_in = fits ? b->n_in[i] : 0;
    const int next_tag = fits ? b->next_tag[i] : 1;
    fits = fits && n >= 0 && n <= pool->maxp && n_in >= 0 && n_in <= 2 && n_in <= n
           && next_tag >= 1 && next_tag <= n + 2;
    for (int p = 0; fits && p < n; ++p)
        fits = b->col[r0 + p] >= 0 && b->col[r0 + p] < next_tag && b->acol[r0 + p] >= 0
               && b->acol[r0 + p] < next_tag;
    pool->event[e] = event;
    pool->draw[e] = fits ? b->draw[i] : 0;
    pool->flags[e] = fits ? 0 : GAPS_FLAG_CAPACITY;
    if (!fits) {
        start_showering(pool, phys, e, 0, 0, 1, 0.0, 0.0, GAPS_LAUNCH_GENERAL);
        return;
    }
    for (int p = 0; p < n; ++p) {
        const long at = gaps_at(pool, p, e);
        const double *q = &b->p[4 * (r0 + p)];
        pool->E[at] = q[0];
        pool->px[at] = q[1];
        pool->py[at] = q[2];
        pool->pz[at] = q[3];
        pool->flav[at] = b->flav[r0 + p];
        pool->col[at] = b->col[r0 + p];
        pool->acol[at] = b->acol[r0 + p];
        pool->t_start_row[at] = b->t_start_row[r0 + p];
        const int xc = p < n_in ? b->acol[r0 + p] : b->col[r0 + p];
        const int xa = p < n_in ? b->col[r0 + p] : b->acol[r0 + p];
        if (xc > 0) pool->col_owner[gaps_at(pool, xc, e)] = p;
        if (xa > 0) pool->acol_owner[gaps_at(pool, xa, e)] = p;
    }
    for (int k = 0; k < n_in; ++k) pool->x_in[gaps_at(pool, k, e)] = b->x[2 * i + k];
    start_showering(pool, phys, e, n, n_in, next_tag, b->weight[i], b->t_start[i], GAPS_LAUNCH_GENERAL);
}

void gaps_shower_start(gaps_pool *pool, const gaps_physics *phys, int e, int64_t event)
{
    if (phys->proc.from_file) shower_start(pool, phys, e, event, GAPS_LAUNCH_GENERAL, 1);
    else shower_start(pool, phys, e, event, GAPS_LAUNCH_GENERAL, 0);
}

static void load(const gaps_pool *pool, int e, int p, double v[4])
{
    v[0] = pool->E[gaps_at(pool, p, e)]; v[1] = pool->px[gaps_at(pool, p, e)]; v[2] = pool->py[gaps_at(pool, p, e)]; v[3] = pool->pz[gaps_at(pool, p, e)];
}

static void store(gaps_pool *pool, int e, int p, const double v[4])
{
    pool->E[gaps_at(pool, p, e)] = v[0]; pool->px[gaps_at(pool, p, e)] = v[1]; pool->py[gaps_at(pool, p, e)] = v[2]; pool->pz[gaps_at(pool, p, e)] = v[3];
}

/* Hard events from a file: may the dipoles of emitter p radiate at t?  Each row has the scale
 * its dipoles start from (gaps_pool.t_start_row: SCALUP^2, or a decay system's resonance
 * mass squared), the event evolves from the largest, and a trial above the start of its
 * emitter's row is rejected: the veto algorithm with a density of zero above each dipole's
 * start, which is the shower started at each dipole's own scale (the trials above it only
 * cost time).  The runs of built-in processes have no such rows (NULL): every dipole starts
 * at the event's t. */
GAPS_ALWAYS_INLINE int above_row_start(const gaps_pool *pool, int e, int p, double t)
{
    return pool->t_start_row && t > pool->t_start_row[gaps_at(pool, p, e)];
}

/* The emitted parton j of emitter i starts where i did (only rows of a run from a file). */
GAPS_ALWAYS_INLINE void inherit_row_start(gaps_pool *pool, int e, int i, int j)
{
    if (pool->t_start_row)
        pool->t_start_row[gaps_at(pool, j, e)] = pool->t_start_row[gaps_at(pool, i, e)];
}

/* The argument of the shower's coupling at the emission scale t: t, or with
 * --shower-mur-factor k, k^2 t kept at or above the cutoff t_C (doc/physics.md 17.1: the
 * shower never takes alpha_s below its own lowest scale, where alpha_s(t_C/4) = 0.95 would be
 * far from perturbative; no product at all by default: the events keep their bits). */
GAPS_ALWAYS_INLINE double scaled_as_arg(const gaps_physics *phys, double mu2, double t)
{
    const double a = mu2 * t;
    return a > phys->t_cut ? a : phys->t_cut;
}

GAPS_ALWAYS_INLINE double shower_as_arg(const gaps_physics *phys, double t, int launch)
{
    return launch != GAPS_LAUNCH_EE && phys->mur_scaled ? scaled_as_arg(phys, phys->mur2, t) : t;
}

/* The nominal coupling of a trial in the parts that its --vary factors share (gaps/alphas.h):
 * the region of its argument and the logarithm l of the argument over the region's
 * reference scale.  exact: the argument is mu2 t itself, not raised to the cutoff, so that a
 * variation's argument mu2' t has the logarithm l + ln(mu2'/mu2), plus the step between the
 * regions' reference scales where it lies in another (varied_coupling). */
typedef struct trial_coupling {
    double a, l;
    int region, exact;
} trial_coupling;

/* The shower's coupling at the trial scale t, alpha_s at shower_as_arg(t).  In a run that
 * reweights the shower (--vary) it is made from its parts, which c keeps for vary_trial(): the
 * same value up to rounding (gaps_alphas_from_log(); --vary is refused with --ablate, so the
 * coupling is the project's own), the logarithm of its argument then shared by every
 * variation's coupling, which is made the same way. */
GAPS_ALWAYS_INLINE double shower_coupling(const gaps_physics *phys, double t, int launch,
                                          trial_coupling *c)
{
    const double arg = shower_as_arg(phys, t, launch);
    if (!varies(phys, launch) || !phys->vary_shower)
        return ee_launch(launch) ? gaps_alphas_value_own(&phys->as, arg)
                                 : gaps_alphas_value(&phys->as, arg);
    c->region = gaps_alphas_region(&phys->as, arg);
    c->l = gaps_log(arg / phys->as.t_ref[c->region]);
    c->exact = !phys->mur_scaled || phys->mur2 * t > phys->t_cut;
    c->a = gaps_alphas_from_log(&phys->as, c->region, c->l);
    return c->a;
}

/* Variation coupling k (as: phys->as for 0, vary_as[k - 1]) at the argument max(mu2 t, t_C) of
 * a trial whose nominal coupling is c, ln_k2 = ln(mu2 / the nominal factor).  At the floor it
 * is the run's constant alpha_s(t_C); above it its logarithm is c's plus ln_k2 and the step
 * between the two regions' reference scales (no logarithm of its own), unless c's own
 * argument was raised to the floor (--shower-mur-factor below 1 near the cutoff), where it
 * takes its own.  No branch of a GPU warp then holds a logarithm the others skip. */
GAPS_ALWAYS_INLINE double varied_coupling(const gaps_physics *phys, int k,
                                          const gaps_alphas *as, const trial_coupling *c,
                                          double mu2, double ln_k2, double t)
{
    const double arg = mu2 * t;
    if (!(arg > phys->t_cut)) return phys->vary_a_floor[k];   /* scaled_as_arg's floor */
    const int region = gaps_alphas_region(as, arg);
    const double l = c->exact
                     ? c->l + ln_k2 + (as->ln_t_ref[c->region] - as->ln_t_ref[region])
                     : gaps_log(arg / as->t_ref[region]);
    return gaps_alphas_from_log(as, region, l);
}

/* --vary: the veto of a trial in two stages (gaps/vary.h, doc/physics.md 17.3).  With k the
 * trial's ratio before the coupling and r_c the coupling's (a over its overestimate), one
 * stage accepts with probability k r_c.  Two: the first with s_1 = min(1, M k), M =
 * GAPS_VARY_PRESELECT, the second with k r_c / s_1 = g r_c, g = max(k, 1/M); the nominal
 * acceptance is the same, and with Ra < s_1 the same number decides both (Ra < k r_c).  The
 * coupling variations change r_c alone, so a trial that fails the first stage (Ra >= M k)
 * takes the factor 1 for each, and only the second stage's are reweighted, with acceptance
 * g r_c.  Does the trial reach the second stage?  (An accepted one always does: Ra < k r_c <= k;
 * the test keeps it so should an overestimate fail, r_c > 1.) */
GAPS_ALWAYS_INLINE int vary_second_stage(const gaps_physics *phys, double k, double Ra,
                                         int accepted)
{
    return !phys->vary_two_stage || accepted || (k > 0.0 && Ra < GAPS_VARY_PRESELECT * k);
}

/* g of the second stage: k, or 1/M for a trial of small k (k itself in a run of one stage) */
GAPS_ALWAYS_INLINE double vary_stage_ratio(const gaps_physics *phys, double k)
{
    return !phys->vary_two_stage || GAPS_VARY_PRESELECT * k >= 1.0 ? k
                                                                   : 1.0 / GAPS_VARY_PRESELECT;
}

/* A coupling variation's factor of a trial with nominal coupling a, variation coupling a' and
 * acceptance r: a'/a accepted, (1 - r a'/a)/(1 - r) rejected, written as N/D so that the
 * variations of a trial share the one division 1/D. */
GAPS_ALWAYS_INLINE double trial_factor_denominator(double a, double r, int accepted)
{
    return accepted ? a : a * (1.0 - r);
}

GAPS_ALWAYS_INLINE double trial_factor_numerator(double a, double a_var, double r, int accepted)
{
    return accepted ? a_var : a - r * a_var;
}

/* --vary (gaps/vary.h, doc/physics.md 17): the variation weights of one trial of slot e at
 * scale t (the emission's k_T^2).  r = P/O is the trial's acceptance ratio with the nominal
 * coupling c->a in it, isr 1 for an incoming emitter (the initial-state factors of vary_mu2),
 * accepted the veto's decision.  Each variation's density is P' = P a'/a with a' the coupling
 * at its argument max(mu2 t, t_C) (scaled_as_arg, varied_coupling),
 * and its weight takes P'/P = a'/a for an accepted trial and (O - P')/(O - P) =
 * (1 - r a'/a)/(1 - r) for a rejected one.  A rejected trial has r < 1 (Ra < 1 accepts any
 * r >= 1).  The coupling is computed once per distinct argument (two for --vary shower); a
 * variation that leaves this emission's coupling alone takes no factor. */
/* The parton-density ratio of a trial whose dipole has an incoming leg, X = xf(pid_new,
 * eta_new, t) / xf(pid_old, eta_old, t) in the proton set's flavours (--vary pdf: each
 * member's X' / X is its density's factor). */
typedef struct trial_densities {
    int pid_old, pid_new;
    double eta_old, eta_new, X;
} trial_densities;

GAPS_OUT_OF_LINE void vary_trial(gaps_pool *pool, const gaps_physics *phys, int e, int isr,
                                 int accepted, double r, const trial_coupling *c, double t,
                                 const trial_densities *td)
{
    /* a rejection with r >= 1 cannot happen (Ra < 1); should rounding make one, its factor
     * would divide by 1 - r <= 0: it is counted and left out */
    if (!accepted && !(r < 1.0)) {
        pool->vary_flags[e] |= GAPS_VARY_FLAG_OVER;
        return;
    }
    const double nominal = phys->mur_scaled ? phys->mur2 : 1.0;
    /* one division for every factor: a coupling variation's is N/D with D = a (accepted) or
     * a (1 - r), N = a' or a - r a' (trial_factor_denominator) */
    const double inv_d = 1.0 / trial_factor_denominator(c->a, r, accepted);
    const double inv_reject = accepted ? 1.0 : c->a * inv_d;   /* 1/(1 - r) */
    double mu2_seen[2] = { -1.0, -1.0 }, f_seen[2] = { 1.0, 1.0 };
    int over = 0;
    for (int v = 0; v < phys->n_vary; ++v) {
        const gaps_pdf *member = phys->vary_pdf[v];
        if (member) {   /* --vary pdf: P'/P = X'/X; a final-final trial has no densities */
            if (!td) continue;
            const double lo = gaps_pdf_xfxq2(member, td->pid_old, td->eta_old, t);
            const double hi = gaps_pdf_xfxq2(member, td->pid_new, td->eta_new, t);
            const double q = lo > 0.0 && hi >= 0.0 && isfinite(lo) && isfinite(hi)
                             ? (hi / lo) / td->X : 0.0;
            double f = q;
            if (!accepted) {
                const double rv = r * q;
                f = (1.0 - rv) * inv_reject;
                over |= rv > 1.0;
            }
            pool->vary_w[gaps_at(pool, v, e)] *= f;
            continue;
        }
        const double mu2 = phys->vary_mu2[v][isr];
        const int k = phys->vary_coupling[v];
        if (mu2 == nominal && k == 0) continue;
        double f;
        /* the factors of the shower's mu_R variations are shared by argument; those of
         * another coupling (--vary alphas, at the nominal argument) are their own */
        if (k == 0 && mu2 == mu2_seen[0]) f = f_seen[0];
        else if (k == 0 && mu2 == mu2_seen[1]) f = f_seen[1];
        else {
            const gaps_alphas *as = k == 0 ? &phys->as : &phys->vary_as[k - 1];
            const double av = varied_coupling(phys, k, as, c, mu2, phys->vary_ln_k2[v][isr], t);
            f = trial_factor_numerator(c->a, av, r, accepted) * inv_d;
            over |= !accepted && r * av > c->a;
            if (k == 0) {
                const int slot = mu2_seen[0] < 0.0 ? 0 : 1;
                mu2_seen[slot] = mu2;
                f_seen[slot] = f;
            }
        }
        pool->vary_w[gaps_at(pool, v, e)] *= f;
    }
    if (over) pool->vary_flags[e] |= GAPS_VARY_FLAG_OVER;
}

/* The same for a trial of the e+e- launches with --vary (GAPS_LAUNCH_EE_VARY), in line: no
 * incoming legs and no PDF members there (gaps_config_check() refuses --vary pdf without
 * hadrons), so only the couplings' factors, each variation's from its own argument (the
 * factors are those of vary_trial(), to the bit).  vary_trial() is a call with a stack frame of
 * its own (232 bytes on an H200), which every trial of a LEP run would make. */
GAPS_ALWAYS_INLINE void vary_trial_ee(gaps_pool *pool, const gaps_physics *phys, int e,
                                      int accepted, double r, const trial_coupling *c,
                                      double t)
{
    if (!accepted && !(r < 1.0)) {
        pool->vary_flags[e] |= GAPS_VARY_FLAG_OVER;
        return;
    }
    const double nominal = phys->mur_scaled ? phys->mur2 : 1.0;
    const double inv_d = 1.0 / trial_factor_denominator(c->a, r, accepted);
    int over = 0;
    for (int v = 0; v < phys->n_vary; ++v) {
        const double mu2 = phys->vary_mu2[v][0];
        const int k = phys->vary_coupling[v];
        if (mu2 == nominal && k == 0) continue;
        const gaps_alphas *as = k == 0 ? &phys->as : &phys->vary_as[k - 1];
        const double av = varied_coupling(phys, k, as, c, mu2, phys->vary_ln_k2[v][0], t);
        over |= !accepted && r * av > c->a;
        pool->vary_w[gaps_at(pool, v, e)] *= trial_factor_numerator(c->a, av, r, accepted)
                                             * inv_d;
    }
    if (over) pool->vary_flags[e] |= GAPS_VARY_FLAG_OVER;
}

/* ---- Hadron collisions (src/shower/isr.h): the same four steps with FF, FI, IF and II
 * dipoles, parton densities in the veto and incoming c and b quarks trialled in t - m^2. ---- */

/* The kernel of dipole row d (emitter p) that the residual u (0 <= u < the dipole's rate)
 * picks, in the order of gaps_dipole_kernel(). */
static void choose_kernel(gaps_pool *pool, const gaps_physics *phys, int e, int d,
                          double u)
{
    const int p = d / 2, n_in = pool->n_in[e], incoming = p < n_in;
    const int flav = pool->flav[gaps_at(pool, p, e)];
    const int k = gaps_dipole_spectator_x(pool, e, p, d % 2, n_in);
    const int type = gaps_dipole_type_of(incoming, k < n_in);
    const double eta = gaps_dipole_eta(pool, e, p, k, n_in);
    const double zm = pool->dip_zm[gaps_at(pool, d, e)], zp = pool->dip_zp[gaps_at(pool, d, e)];
    const int nk = gaps_dipole_kernel_count(flav, incoming);
    const gaps_dipole_rate_inputs in = gaps_dipole_rate_inputs_make(
        phys, pool->rate_tbin[e], type, flav, pool->flav[gaps_at(pool, k, e)], incoming, eta,
        zm, zp, gaps_dipole_anti(pool, phys, e, p, k, n_in));
    int kernel = GAPS_KERNEL_NONE, nf = 0;
    for (int j = 0; j < nk; ++j) {
        const double r = gaps_dipole_kernel_rate(phys, &in, j, &kernel, &nf);
        if (u < r) break;   /* rounding: past the end the last kernel takes it */
        u -= r;
    }
    pool->trial_dipole[e] = d;
    pool->trial_kernel[e] = kernel;
    pool->trial_flav[e] = nf;
}

/* Step 1: a trial scale for the dipoles trialled in t (t' = t R^(1/r_sum)) and one for each
 * incoming c or b quark (t' = m^2 + (t - m^2) R^(1/r)); the largest wins. */
GAPS_OUT_OF_LINE void select_winner_hadronic(gaps_pool *pool, const gaps_physics *phys, int e)
{
    gaps_rng rng = slot_rng(pool, phys, e);
    double R, u, Rs[2];
    gaps_rng_uniform2(&rng, &R, &u);
    gaps_rng_uniform2(&rng, &Rs[0], &Rs[1]);
    pool->draw[e] = rng.draw;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;
    const double t = pool->t[e], r_sum = pool->rate_sum[e];
    double t_win = r_sum > 0.0 ? gaps_isr_trial_scale(&phys->isr, t, R, r_sum) : 0.0;
    int winner = -1;   /* -1: the dipoles trialled in t; b: incoming row b */
    const int n_in = pool->n_in[e];
    for (int b = 0; b < n_in; ++b) {
        const double r = pool->rate_shift[gaps_at(pool, b, e)];
        const int f = pool->flav[gaps_at(pool, b, e)];
        const double m2 = phys->isr.m2[f < 0 ? -f : (f <= 5 ? f : 0)];
        if (!(r > 0.0) || !(t > m2)) continue;
        const double tb = gaps_isr_heavy_trial(&phys->isr, m2, t, Rs[b], r);
        /* trials pile up at the threshold, where the grid's x f_c or x f_b ends in zero
         * (below about 1e-5 m^2 above it; the bounds are sampled down to heavy_stop m^2):
         * there the quark stops trying (GAPS 2.1 at 1e-9 GeV^2, compat) */
        if (tb - m2 > phys->isr.heavy_stop * m2 && tb > t_win) { t_win = tb; winner = b; }
    }
    /* The rates hold the bounds of the scale bin of t (isr_bounds.c), valid down to the bin's
     * lower edge.  With no trial above that edge the evolution restarts there with the next
     * bin's smaller rates: the chance of no trial in between is the same either way, so the
     * emissions keep their density; below t_min only the final-final dipoles remain.  The new
     * rates are computed in the next splitting round, where the other slots of a GPU warp do
     * their splittings: a dipole update costs about as much as one. */
    const int tbin = pool->rate_tbin[e];
    if (tbin >= 0 && !(t_win > phys->isr.tbin_edge[tbin])) {
        pool->trial_t[e] = phys->isr.tbin_edge[tbin];
        pool->rate_tbin[e] = tbin - 1;
        pool->trial_kernel[e] = GAPS_KERNEL_NEW_BIN;
        return;
    }
    pool->trial_t[e] = t_win;
    if (!(t_win > 0.0)) return;
    if (winner >= 0) {   /* the sides of incoming row `winner`, then its kernels */
        double v = u * pool->rate_shift[gaps_at(pool, winner, e)];
        const double r0 = pool->rate[gaps_at(pool, 2 * winner, e)];
        const int d = (v < r0 || !(pool->rate[gaps_at(pool, 2 * winner + 1, e)] > 0.0))
                      ? 2 * winner : 2 * winner + 1;
        if (d != 2 * winner) v -= r0;
        choose_kernel(pool, phys, e, d, v < pool->rate[gaps_at(pool, d, e)] ? v : 0.0);
        return;
    }
    /* the first dipole whose running sum exceeds u r_sum, by bisection */
    const double w = u * r_sum;
    const int nd = 2 * pool->n[e];
    int lo = 0, hi = nd - 1;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (w < pool->rate_cum[gaps_at(pool, mid, e)]) hi = mid;
        else lo = mid + 1;
    }
    /* rounding can leave w at the total: step back to a dipole that has a rate in the sums */
    while (lo > 0 && !(pool->rate_cum[gaps_at(pool, lo, e)]
                       > pool->rate_cum[gaps_at(pool, lo - 1, e)]))
        --lo;
    const double before = lo > 0 ? pool->rate_cum[gaps_at(pool, lo - 1, e)] : 0.0;
    const double res = w - before;
    choose_kernel(pool, phys, e, lo, res < pool->rate[gaps_at(pool, lo, e)] ? res : 0.0);
}

/* Step 3: the trial's variables, the checks of its phase space and momentum fractions, and
 * the veto with the ratio f/g of the true density to the overestimate (isr.h):
 *   f = alpha_s(t) V J x X (t - m^2)/t,   g = alpha_max c E(z0) B(eta)
 * X the ratio of x f of the incoming leg that changes.  In the default physics f <= g; a trial
 * with f > g is counted (GAPS_COUNT_OVERESTIMATE), and with --compat gaps21 rejected as GAPS
 * 2.1 does. */
GAPS_OUT_OF_LINE void accept_or_reject_hadronic(gaps_pool *pool, const gaps_physics *phys, int e)
{
    gaps_rng rng = slot_rng(pool, phys, e);
    double Rz, Ra;
    gaps_rng_uniform2(&rng, &Rz, &Ra);
    pool->draw[e] = rng.draw;

    const gaps_isr *isr = &phys->isr;
    const int compat = isr->compat == GAPS_COMPAT_GAPS21;
    const int d = pool->trial_dipole[e], p = d / 2, n_in = pool->n_in[e];

    const int kernel = pool->trial_kernel[e], nf = pool->trial_flav[e];
    const int k = gaps_dipole_spectator_x(pool, e, p, d % 2, n_in);
    const int incoming = p < n_in, type = gaps_dipole_type_of(incoming, k < n_in);
    const int flav = pool->flav[gaps_at(pool, p, e)];
    const double t = pool->t[e];
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;   /* rejected unless accepted below */
    /* dipoles with an incoming leg stop at the PDF set's lowest scale: a trial of theirs
     * below it is thinned away, which leaves the final-final dipoles' rate below it */
    if (type != GAPS_DIPOLE_FF && !(t > isr->t_min)) return;
    /* above the start of the emitter's row: P = 0, and so P' = 0 for every --vary weight,
     * whose factor (O - P')/(O - P) is 1 */
    if (above_row_start(pool, e, p, t)) return;

    const double s = pool->dip_m2[gaps_at(pool, d, e)];
    const double zm = pool->dip_zm[gaps_at(pool, d, e)], zp = pool->dip_zp[gaps_at(pool, d, e)];
    const gaps_overestimate o = gaps_isr_overestimate(kernel, type, compat);
    const gaps_zpair zz = gaps_shape_generate(o.shape, zm, zp, Rz);
    gaps_split_vars v;
    if (!gaps_isr_variables(type, s, t, zz.z, zz.omz, &v)) return;

    const double eta = gaps_dipole_eta(pool, e, p, k, n_in);
    const int anti = gaps_dipole_anti(pool, phys, e, p, k, n_in);
    const int shifted = incoming && gaps_isr_shifted(isr, flav);
    trial_densities td = { 0, 0, 0.0, 0.0, 0.0 };   /* (FF: none) */
    double f = gaps_isr_value_jacobian(kernel, type, compat, v.a, v.b);
    if (phys->ablate)
        f = gaps_isr_ablate_value_jacobian(phys->ablate, kernel, type, nf, v.a, v.b, f);
    if (type != GAPS_DIPOLE_FF) {
        /* the leg whose momentum fraction eta becomes eta/x; GAPS 2.1 takes the FI ratio and
         * its checks at z instead of x (compat, spec 11 item 1) */
        const double x = type == GAPS_DIPOLE_FI ? (compat ? v.a : v.b) : v.a;
        if (!(eta < x)) return;                                   /* eta/x below 1 */
        if (compat && !(eta > 1e-9 && eta / x > 1e-9)) return;
        if (type == GAPS_DIPOLE_FI && compat && !(eta < v.b)) return;   /* its beam check */
        const int old_pid = type == GAPS_DIPOLE_FI ? pool->flav[gaps_at(pool, k, e)] : flav;
        const int new_pid = type == GAPS_DIPOLE_FI ? old_pid
                                                    : gaps_isr_new_incoming(kernel, flav, nf);
        /* in the proton set's flavours: those of an antiproton's leg conjugated */
        td.pid_old = gaps_isr_beam_pid(anti, old_pid);
        td.pid_new = gaps_isr_beam_pid(anti, new_pid);
        td.eta_old = eta;
        td.eta_new = eta / x;
        const double lo = gaps_pdf_xfxq2(phys->proc.pdf, td.pid_old, td.eta_old, t);
        const double hi = gaps_pdf_xfxq2(phys->proc.pdf, td.pid_new, td.eta_new, t);
        if (!(lo > 0.0) || !(hi >= 0.0) || !isfinite(lo) || !isfinite(hi)) return;
        const double X = hi / lo;
        td.X = X;
        if (compat && X > 1e6) return;
        f *= x * X;
        const int fa = flav < 0 ? -flav : flav;
        /* the mass factor of the trials of an incoming c or b; compat: GAPS 2.1 also gives
         * (t - m^2)/t to a final c or b emitter of an FI dipole (spec 11 item 2) */
        if (shifted) f *= gaps_isr_heavy_factor(isr, isr->m2[fa], t);
        else if (compat && type == GAPS_DIPOLE_FI && fa >= 4 && fa <= 5)
            f *= (t - isr->m2[fa]) / t;
        if (!(f >= 0.0)) return;
    }
    const double g = gaps_shape_value(o.shape, zz.z, zz.omz)
                     * gaps_isr_rate_factor(isr, pool->rate_tbin[e], kernel, type, flav,
                                            pool->flav[gaps_at(pool, k, e)], nf, shifted, eta,
                                            type == GAPS_DIPOLE_FF ? 0 : gaps_isr_eta_bin(isr, eta),
                                            o.coeff, anti);
    double ratio = f / g;
    const double k_pre = ratio;   /* the ratio before the coupling */
    const int heavy = shifted ? (flav < 0 ? -flav : flav) : 0;
    double a = 0.0;   /* the coupling, where computed */

    /* alpha_s(t) over its overestimate, <= 1: computed only where it can matter (--vary:
     * always, below) */
    trial_coupling tc = { 0.0, 0.0, 0, 0 };   /* --vary: the coupling's parts */
    if (Ra < ratio || ratio > 1.0) {
        a = shower_coupling(phys, t, GAPS_LAUNCH_GENERAL, &tc);
        ratio *= gaps_isr_coupling_ratio_of(isr, heavy, phys->a_max, t, a);
        /* --ablate gqq-virtuality: alpha_s of g -> q qbar at the virtuality t/(z(1-z)) >= t,
         * at most alpha_s(t): the ratio stays a probability */
        if ((phys->ablate & GAPS_ABLATE_GQQ_VIRTUALITY) && kernel == GAPS_KERNEL_G_QQ)
            ratio *= gaps_alphas_value(&phys->as, t / (zz.z * zz.omz))
                     / gaps_alphas_value(&phys->as, t);
    }
    if (ratio > 1.0) {
        unsigned long long *cnt = pool->counters;
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_OVERESTIMATE] += 1u;
        if (compat) return;
    }
    const int accepted = Ra < ratio;
    /* --vary is refused with compat and --ablate (gaps_config_check); the trials of its
     * second stage are reweighted (vary_second_stage) */
    if (phys->vary_shower && vary_second_stage(phys, k_pre, Ra, accepted)) {
        if (a == 0.0) a = shower_coupling(phys, t, GAPS_LAUNCH_GENERAL, &tc);
        const double r = vary_stage_ratio(phys, k_pre)
                         * gaps_isr_coupling_ratio_of(isr, heavy, phys->a_max, t, a);
        vary_trial(pool, phys, e, incoming, accepted, r, &tc, t,
                   type != GAPS_DIPOLE_FF && td.X > 0.0 ? &td : NULL);
    }
    if (!accepted) return;
    pool->trial_kernel[e] = kernel;
    pool->trial_z[e] = v.a;
    pool->trial_y[e] = v.b;
}

/* What step 4 leaves to the lanes of its event (do_splitting()): the rows of the dipole rates
 * that are due (gaps_rows_due, dipoles.h), or none (no emission; e+e-, whose rates the
 * splitting brought up to date). */
GAPS_ALWAYS_INLINE gaps_rows_due rows_none(void)
{
    const gaps_rows_due due = { -1, { -1, -1, -1 } };
    return due;
}

/* Step 4: momenta (the Catani-Seymour map of the dipole type; after an II emission the whole
 * final state follows the new initial state), flavours, colours, momentum fractions; returns
 * the rows of the rates that changed, which are left to the caller. */
GAPS_OUT_OF_LINE gaps_rows_due do_splitting_hadronic(gaps_pool *pool, int e, double Rphi,
                                                     double Rf)
{
    const double phi = 2.0 * GAPS_PI * Rphi;
    const int j = pool->n[e], n_in = pool->n_in[e];
    const int d = pool->trial_dipole[e], i = d / 2, side = d % 2, kernel = pool->trial_kernel[e];
    const int k = gaps_dipole_spectator_x(pool, e, i, side, n_in);
    const int type = gaps_dipole_type_of(i < n_in, k < n_in);
    const double a = pool->trial_z[e], b = pool->trial_y[e], t = pool->t[e];
    double pi[4], pk[4], qi[4], qj[4], qk[4];
    load(pool, e, i, pi);
    load(pool, e, k, pk);
    switch (type) {
    case GAPS_DIPOLE_FF:
        gaps_map_ff(pi, pk, a, b, phi, qi, qj, qk);
        store(pool, e, k, qk);
        break;
    case GAPS_DIPOLE_FI:
        gaps_map_fi(pi, pk, a, b, t, phi, qi, qj, qk);
        store(pool, e, k, qk);
        pool->x_in[gaps_at(pool, k, e)] /= b;
        break;
    case GAPS_DIPOLE_IF:
        gaps_map_if(pi, pk, a, b, t, phi, qi, qj, qk);
        store(pool, e, k, qk);
        pool->x_in[gaps_at(pool, i, e)] /= a;
        break;
    default: {
        double Kt[4], K[4], q[4];
        gaps_map_ii(pi, pk, a, b, t, phi, qi, qj);
        for (int m = 0; m < 4; ++m) {
            Kt[m] = pi[m] + pk[m];
            K[m] = qi[m] + pk[m] - qj[m];
        }
        for (int r = n_in; r < j; ++r) {
            load(pool, e, r, q);
            gaps_boost_ii(Kt, K, q);
            store(pool, e, r, q);
        }
        pool->x_in[gaps_at(pool, i, e)] /= a;
        break;
    }
    }
    store(pool, e, i, qi);
    store(pool, e, j, qj);
    inherit_row_start(pool, e, i, j);

    if (i >= n_in) {   /* a final-state emitter: the colour flow of the final-state shower */
        if (kernel == GAPS_KERNEL_G_QQ) {
            int f = 1 + (int)(GAPS_N_FLAVOURS * Rf);
            if (f > GAPS_N_FLAVOURS) f = GAPS_N_FLAVOURS;
            gaps_colour_split_gluon(pool, e, i, j, f);
        } else {
            gaps_colour_emit_gluon(pool, e, i, j, side, pool->next_tag[e]++);
        }
    } else {
        const int flav = pool->flav[gaps_at(pool, i, e)], nf = pool->trial_flav[e];
        const int new_in = gaps_isr_new_incoming(kernel, flav, nf);
        /* the emitted parton: a gluon, the emitter's antiparticle (I_GQ) or the quark nf */
        const int out = kernel == GAPS_KERNEL_I_GQ ? -flav
                        : kernel == GAPS_KERNEL_I_QG ? nf : GAPS_GLUON;
        pool->flav[gaps_at(pool, j, e)] = out;
        if (gaps_colour_backward(pool, e, i, j, n_in, side, kernel, nf, pool->next_tag[e]))
            pool->next_tag[e]++;
        pool->flav[gaps_at(pool, i, e)] = new_in;
    }
    pool->n[e] = j + 1;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;
    if (type == GAPS_DIPOLE_II) return gaps_rows_all(0);
    const gaps_rows_due due = { 0, { i, j, k } };
    return due;
}

/* The coupling overestimate of an e+e- trial at scale t: a_max, but in a --vary run at or
 * below vary_t_headroom the larger a_max_headroom (doc/physics.md 17.3).  The rates hold
 * a_max; where the overestimate is larger they count a_max_headroom/a_max times as much. */
GAPS_ALWAYS_INLINE double ee_coupling_max(const gaps_physics *phys, double t, int launch)
{
    return varies(phys, launch) && !(t > phys->vary_t_headroom) ? phys->a_max_headroom
                                                                 : phys->a_max;
}

/* Veto step 1, select the winner (the paper's select_winner_split_func).  One trial scale from
 * the summed overestimate, t' = t R^(1/r_sum), and the (dipole, kernel) that emits it, chosen
 * with probability r / r_sum. */
GAPS_ALWAYS_INLINE void select_winner(gaps_pool *pool, const gaps_physics *phys, int e,
                                      int launch)
{
    if (pool->status[e] != GAPS_SLOT_SHOWERING) return;
    if (is_hadronic(phys, launch)) {
        select_winner_hadronic(pool, phys, e);
        return;
    }
    gaps_rng rng = slot_rng(pool, phys, e);
    const double r_sum = pool->rate_sum[e];
    double R, u;
    gaps_rng_uniform2(&rng, &R, &u);
    u *= r_sum;
    pool->draw[e] = rng.draw;
    pool->trial_kernel[e] = GAPS_KERNEL_NONE;
    if (!(r_sum > 0.0)) { pool->trial_t[e] = 0.0; return; }
    const double t = pool->t[e];
    if (varies(phys, launch) && phys->vary_t_headroom > 0.0) {
        /* the overestimate grows at vary_t_headroom: a trial from above that falls below it
         * stops there without an emission, and the evolution goes on from there with the
         * larger rate (the chance of no trial in between is the same either way) */
        const double o = ee_coupling_max(phys, t, launch);
        const double t_trial = t * gaps_exp(gaps_log(R) / (r_sum * (o / phys->a_max)));
        if (t > phys->vary_t_headroom && !(t_trial > phys->vary_t_headroom)) {
            pool->trial_t[e] = phys->vary_t_headroom;
            return;   /* trial_kernel NONE: no emission */
        }
        pool->trial_t[e] = t_trial;
    } else {
        pool->trial_t[e] = t * gaps_exp(gaps_log(R) / r_sum);
    }

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

void gaps_veto_select_winner(gaps_pool *pool, const gaps_physics *phys, int e)
{
    select_winner(pool, phys, e, GAPS_LAUNCH_GENERAL);
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
GAPS_ALWAYS_INLINE void accept_or_reject(gaps_pool *pool, const gaps_physics *phys, int e,
                                         int launch)
{
    if (pool->status[e] != GAPS_SLOT_SHOWERING || pool->trial_kernel[e] == GAPS_KERNEL_NONE
        || pool->trial_kernel[e] == GAPS_KERNEL_NEW_BIN)
        return;
    if (is_hadronic(phys, launch)) {
        accept_or_reject_hadronic(pool, phys, e);
        return;
    }
    gaps_rng rng = slot_rng(pool, phys, e);
    double Rz, Ra;
    gaps_rng_uniform2(&rng, &Rz, &Ra);
    pool->draw[e] = rng.draw;

    const int d = pool->trial_dipole[e];
    if (!ee_launch(launch) && above_row_start(pool, e, d / 2, pool->t[e])) {
        pool->trial_kernel[e] = GAPS_KERNEL_NONE;   /* as in accept_or_reject_hadronic */
        return;
    }
    const enum gaps_kernel kernel = (enum gaps_kernel)pool->trial_kernel[e];
    const double m2 = pool->dip_m2[gaps_at(pool, d, e)];
    const gaps_zpair zz = gaps_kernel_generate_z(kernel, pool->dip_zm[gaps_at(pool, d, e)],
                                                 pool->dip_lnz[gaps_at(pool, d, e)], Rz);
    const double z = zz.z, omz = zz.omz;
    const double t = pool->t[e];
    const double y = t / (m2 * z * omz);
    double ratio = gaps_kernel_ratio(kernel, z, omz, y);   /* (1 - y) P / Q */
    const double k_pre = ratio;   /* the ratio before the coupling */
    double a = 0.0;   /* the coupling, where computed */
    trial_coupling tc = { 0.0, 0.0, 0, 0 };   /* --vary: its parts */
    /* alpha_s(t) / a_max <= 1, so a trial that fails the kinematic ratio alone fails the full
     * one too: the coupling (two logarithms) is computed only for the survivors (--vary:
     * always, below) */
    if (Ra < ratio) {
        /* the e+e- launches run without --ablate (gaps_shower_launch_*): their coupling is
         * the project's own and they hold no branch of the ablations */
        a = shower_coupling(phys, t, launch, &tc);
        ratio *= a / ee_coupling_max(phys, t, launch);
        /* --ablate gqq-virtuality: alpha_s of g -> q qbar at t/(z(1-z)) (gaps/ablate.h) */
        if (!ee_launch(launch) && (phys->ablate & GAPS_ABLATE_GQQ_VIRTUALITY) && kernel == GAPS_KERNEL_G_QQ)
            ratio *= gaps_alphas_value(&phys->as, t / (z * omz)) / gaps_alphas_value(&phys->as, t);
    }
    const int accepted = Ra < ratio;
    /* the trials of the second stage are reweighted (vary_second_stage; k = 0: P = 0 = P',
     * the factor 1) */
    if (varies(phys, launch) && phys->vary_shower && k_pre > 0.0
        && vary_second_stage(phys, k_pre, Ra, accepted)) {
        if (a == 0.0) a = shower_coupling(phys, t, launch, &tc);
        const double r = vary_stage_ratio(phys, k_pre) * (a / ee_coupling_max(phys, t, launch));
        if (launch == GAPS_LAUNCH_EE_VARY) vary_trial_ee(pool, phys, e, accepted, r, &tc, t);
        else vary_trial(pool, phys, e, 0, accepted, r, &tc, t, NULL);
    }
    if (!accepted) {
        pool->trial_kernel[e] = GAPS_KERNEL_NONE;
        return;
    }
    pool->trial_z[e] = z;
    pool->trial_y[e] = y;
}

void gaps_veto_accept_or_reject(gaps_pool *pool, const gaps_physics *phys, int e)
{
    accept_or_reject(pool, phys, e, GAPS_LAUNCH_GENERAL);
}

/* Veto step 4, do the splitting (the paper's do_splitting), up to the dipole rates of hadron
 * collisions, which it returns as due.  The accepted emission: new momenta (Catani-Seymour
 * final-final map), new colours, the emitted parton appended. */
GAPS_ALWAYS_INLINE gaps_rows_due splitting_moves(gaps_pool *pool, const gaps_physics *phys,
                                                 int e, int launch)
{
    if (pool->status[e] != GAPS_SLOT_SHOWERING || pool->trial_kernel[e] == GAPS_KERNEL_NONE)
        return rows_none();
    if (is_hadronic(phys, launch) && pool->trial_kernel[e] == GAPS_KERNEL_NEW_BIN) {
        /* from select_winner_hadronic: no emission, the rates of the next scale bin */
        pool->trial_kernel[e] = GAPS_KERNEL_NONE;
        return gaps_rows_all(1);
    }
    gaps_rng rng = slot_rng(pool, phys, e);
    double Rphi, Rf;
    gaps_rng_uniform2(&rng, &Rphi, &Rf);
    const double phi = 2.0 * GAPS_PI * Rphi;
    pool->draw[e] = rng.draw;

    const int j = pool->n[e];
    /* no room for the emitted parton (row j): end the shower, report it.  The new colour tag
     * needs no test of its own: next_tag <= n + 2 from the start (shower_start), so a tag of
     * an emission at j < maxp is below maxp + 2, the owner maps' rows.  The dipole rows
     * 2 p + s that the rates write follow the partons: below 2 maxp. */
    if (j >= pool->maxp) {
        pool->trial_kernel[e] = GAPS_KERNEL_NONE;
        pool->flags[e] |= GAPS_FLAG_CAPACITY;
        gaps_pool_finish_shower(pool, e);
        return rows_none();
    }
    if (is_hadronic(phys, launch)) return do_splitting_hadronic(pool, e, Rphi, Rf);
    const int d = pool->trial_dipole[e], i = d / 2, side = d % 2, kernel = pool->trial_kernel[e];
    const int k = gaps_dipole_spectator(pool, e, i, side);

    double pi[4], pk[4], qi[4], qj[4], qk[4];
    load(pool, e, i, pi);
    load(pool, e, k, pk);
    gaps_map_ff(pi, pk, pool->trial_z[e], pool->trial_y[e], phi, qi, qj, qk);
    store(pool, e, i, qi);
    store(pool, e, j, qj);
    store(pool, e, k, qk);
    if (!ee_launch(launch)) inherit_row_start(pool, e, i, j);

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
    return rows_none();
}

/* Step 4 by the `lanes` lanes that share slot e, this one being `lane` (on a CPU, or in a
 * launch of one lane per slot, lane 0 of 1).  The first lane moves the partons; then every
 * lane computes its rows of the dipole rates (an event of n partons has 2n, each with its
 * PDF-ratio bounds: alone, a lane takes as long for them as for a few trials, while a warp's
 * other lanes idle or wait for it), and the first adds them up in row order, so the sums do
 * not depend on the lanes. */
GAPS_ALWAYS_INLINE void do_splitting(gaps_pool *pool, const gaps_physics *phys, int e,
                                     int launch, int lane, int lanes)
{
    const unsigned group = gaps_lanes_group(lanes);
    gaps_rows_due due = lane == 0 ? splitting_moves(pool, phys, e, launch) : rows_none();
    if (lanes > 1) {
        due.keep_ff = gaps_lanes_share(group, due.keep_ff);
        for (int m = 0; m < 3; ++m) due.moved[m] = gaps_lanes_share(group, due.moved[m]);
    }
    if (ee_launch(launch) || due.keep_ff < 0) return;
    gaps_dipoles_rates_hadronic(pool, phys, e, due, lane, lanes);
    if (lanes > 1) gaps_lanes_rejoin(group);
    if (lane == 0) gaps_dipoles_sum_hadronic(pool, phys, e);
}

void gaps_veto_do_splitting(gaps_pool *pool, const gaps_physics *phys, int e)
{
    do_splitting(pool, phys, e, GAPS_LAUNCH_GENERAL, 0, 1);
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

/* The trial of one slot: veto steps 1 to 3 in their order (a cycle without its splitting;
 * the trial launch runs it for each slot, gaps_shower_launch_trial()). */
GAPS_ALWAYS_INLINE void trial(gaps_pool *pool, const gaps_physics *phys, int e, int launch)
{
    select_winner(pool, phys, e, launch);
    gaps_veto_check_cutoff(pool, phys, e);
    accept_or_reject(pool, phys, e, launch);
}

/* One veto cycle of one slot: its steps in the order of enum gaps_veto_step.  This and trial()
 * are the only places where the order of the steps is spelled out; the one-loop-per-step
 * launches on the host follow the same enum.  The steps are written out, not looped over with
 * gaps_veto_step(): once the steps grew, clang kept such a loop as a loop around a switch in the
 * fused kernel, which cost LEP 15 % more GPU instructions per event (on an H200, Nsight
 * Compute: the same floating-point work per lane, issued by less converged warps, plus the
 * dispatch and a reload of the slot's status per step).
 *
 * Splitting rounds.  Outside a splitting round the last step is held back: a slot whose
 * trial was accepted keeps it and sits out the following cycles until a splitting round,
 * where every such slot does its splitting.  Why wait: about 8 % of trials are accepted, so in
 * nearly every cycle some lane of a 32-lane GPU warp splits while the other lanes idle through
 * a splitting that costs as much as three trials; held back to every M-th cycle, the
 * splittings of a warp run side by side.  A waiting slot draws no random numbers, so the
 * events do not depend on the rounds (doc/physics.md section 6.6).  With every cycle a
 * splitting round this is the plain veto cycle. */
GAPS_ALWAYS_INLINE void veto_cycle(gaps_pool *pool, const gaps_physics *phys, int e,
                                   int splitting_round, int launch, int lane, int lanes)
{
    if (lane == 0 && pool->trial_kernel[e] == GAPS_KERNEL_NONE)   /* no accepted trial waits */
        trial(pool, phys, e, launch);
    if (splitting_round) do_splitting(pool, phys, e, launch, lane, lanes);
}

void gaps_veto_cycle(gaps_pool *pool, const gaps_physics *phys, int e, int splitting_round)
{
    veto_cycle(pool, phys, e, splitting_round, GAPS_LAUNCH_GENERAL, 0, 1);
}

/* Refill one slot with the next event number, if any is left below `end`. */
GAPS_ALWAYS_INLINE void refill(gaps_pool *pool, const gaps_physics *phys, int e, int launch,
                               int from_file)
{
    if (pool->status[e] != GAPS_SLOT_EMPTY) return;
    unsigned long long id, *next = pool->next_event, *cnt = pool->counters;
    GAPS_ATOMIC_CAPTURE
    id = (*next)++;
    if ((int64_t)id >= phys->end_event) return;
    shower_start(pool, phys, e, (int64_t)id, launch, from_file);
    GAPS_ATOMIC_UPDATE
    cnt[GAPS_COUNT_STARTED] += 1u;
}

GAPS_DEVICE_END

/* The step loops: one launch per veto step, each a kernel of its own on a GPU (so that each
 * gets the registers it needs, not the most that any step needs; --loops steps, the paper's
 * structure), or one launch for the trial (steps 1 to 3) and one for the splitting (--loops
 * trials, the GPU's default for hadron collisions).  Steps 1 to 3 of a slot need nothing of
 * any other slot, so one kernel can run them back to back; the splitting runs over the list
 * that the trial gathers.  Two launches per cycle instead of four: on an H200 pp-z 10^6
 * events 245 -> 219 ns, 10^7 events 225 -> 207 ns (doc/benchmarks.md).  Much of a cycle's
 * cost does not grow with the slots (0.7 of 1.8 ms with 2^20 of them): the launches, and
 * their ends, where a few slow warps hold up the machine.
 *
 * The showering list.  Once per pass of the host loop (a few cycles, then the analysis and
 * the refill), gaps_shower_gather() puts the slots whose event is showering on a list,
 * and the step launches of the pass run over the list instead of over every slot.  In the
 * middle of a long run that changes little (nearly every slot is showering), but where the
 * pool empties (the end of a run, the whole of a run no larger than the pool) the launches
 * shrink with it: over every slot, most warps would start only to find their lanes idle, and
 * an empty launch over 2^20 slots costs as much as a tenth of a full one.
 *
 * The splitting list.  A fifth of the hadronic trials end in an emission or a move to the
 * next scale bin of the rates, and either recomputes dipole rates of the event: run over all
 * slots, the splitting launch kept 2.3 of 32 lanes of a GPU warp busy and took three quarters
 * of a cycle (doc/benchmarks.md).  So the launch of accept_or_reject puts the slots with work
 * for the splitting step on a list (emissions from the front, moves from the back: a warp
 * then does one kind of work), and the splitting launch runs over the list, with every lane
 * busy.  Its two counters must be zero when a cycle's trial begins: in the step loops the
 * launch of select_winner, which adds nothing to the list, sets them to zero.  The trial
 * launch cannot (its threads add to them), so it uses one of two pairs of counters, by the
 * parity the host gives it, and sets the other pair to zero for the next cycle's trial, the
 * splitting of this cycle reading the pair of its parity (split_counter()).
 *
 * Lanes to an event.  Where fewer events shower than the GPU has lanes (a run no larger than
 * the pool, the end of any run), the splitting launch and the end-of-run launch give each
 * event a group of lanes of one warp (gaps_runtime_event_lanes()): the first does the event's
 * steps, all of them compute its dipole rates (do_splitting()), so that a large event no
 * longer holds up its launch for 2n rows computed one after another.
 *
 * Each slot's steps depend on that slot alone (its random numbers are its event's own), so the
 * order of either list, which the atomic counters make differ from run to run, does not
 * change the events. */
GAPS_DEVICE_BEGIN
/* The counter of the splitting list's emissions (move 0) or moves (move 1) of a parity. */
static int split_counter(int parity, int move)
{
    return parity ? (move ? GAPS_COUNT_SPLIT_MOVE_ODD : GAPS_COUNT_SPLIT_EMIT_ODD)
                  : (move ? GAPS_COUNT_SPLIT_MOVE : GAPS_COUNT_SPLIT_EMIT);
}

static void split_list_add(gaps_pool *pool, int e, int parity)
{
    const int kernel = pool->status[e] == GAPS_SLOT_SHOWERING ? pool->trial_kernel[e]
                                                              : GAPS_KERNEL_NONE;
    const int move = kernel == GAPS_KERNEL_NEW_BIN;
    const int emit = kernel != GAPS_KERNEL_NONE && !move;
    const long i_emit = gaps_lanes_append(pool->counters + split_counter(parity, 0), emit);
    const long i_move = gaps_lanes_append(pool->counters + split_counter(parity, 1), move);
    if (i_emit >= 0) pool->split_list[i_emit] = e;
    if (i_move >= 0) pool->split_list[pool->nslots - 1 - i_move] = e;
}

/* Entry i of the splitting list (its emissions first, then its moves), or -1 past its end. */
static int split_list_entry(const gaps_pool *pool, int i, int parity)
{
    const long n_emit = (long)pool->counters[split_counter(parity, 0)];
    const long n_move = (long)pool->counters[split_counter(parity, 1)];
    if (i < n_emit) return pool->split_list[i];
    if (i - n_emit < n_move) return pool->split_list[pool->nslots - 1 - (i - n_emit)];
    return -1;
}
GAPS_DEVICE_END

static void launch_gather(gaps_pool *pool, int nslots)
{
    GAPS_PARALLEL_FOR(nslots)
    for (int e = 0; e < nslots; ++e) {
        const long i = gaps_lanes_append(pool->counters + GAPS_COUNT_SHOWERING,
                                         pool->status[e] == GAPS_SLOT_SHOWERING);
        if (i >= 0) pool->showering_list[i] = e;
    }
}

int gaps_shower_gather(gaps_pool *pool_host, gaps_pool *pool, int nslots)
{
    gaps_pool_set_counter(pool_host, GAPS_COUNT_SHOWERING, 0);
    launch_gather(pool, nslots);
    return (int)gaps_pool_read_counter(pool_host, GAPS_COUNT_SHOWERING);
}

/* A group width the lanes functions can take: a power of two from 1 to 32 (the largest not
 * above the one asked for). */
static int lanes_width(int lanes)
{
    int w = 1;
    while (w < 32 && 2 * w <= lanes) w *= 2;
    return w;
}

void gaps_shower_launch_step(gaps_pool *pool, const gaps_physics *phys, int n,
                             enum gaps_veto_step step, int lanes)
{
    lanes = lanes_width(lanes);
    switch (step) {
    case GAPS_STEP_SELECT_WINNER:
        GAPS_PARALLEL_FOR(n)
        for (int i = 0; i < n; ++i) {
            if (i == 0)
                pool->counters[GAPS_COUNT_SPLIT_EMIT] = pool->counters[GAPS_COUNT_SPLIT_MOVE] = 0;
            gaps_veto_select_winner(pool, phys, pool->showering_list[i]);
        }
        break;
    case GAPS_STEP_CHECK_CUTOFF:
        GAPS_PARALLEL_FOR(n)
        for (int i = 0; i < n; ++i) gaps_veto_check_cutoff(pool, phys, pool->showering_list[i]);
        break;
    case GAPS_STEP_ACCEPT_OR_REJECT:
        GAPS_PARALLEL_FOR(n)
        for (int i = 0; i < n; ++i) {
            const int e = pool->showering_list[i];
            gaps_veto_accept_or_reject(pool, phys, e);
            split_list_add(pool, e, 0);
        }
        break;
    case GAPS_STEP_DO_SPLITTING:
        gaps_shower_launch_splitting(pool, phys, n, lanes, 0);
        break;
    default:
        break;
    }
}

void gaps_shower_launch_trial(gaps_pool *pool, const gaps_physics *phys, int n, int parity)
{
    GAPS_PARALLEL_FOR(n)
    for (int i = 0; i < n; ++i) {
        if (i == 0)   /* the other pair, for the next cycle's trial */
            pool->counters[split_counter(!parity, 0)] = pool->counters[split_counter(!parity, 1)]
                = 0;
        const int e = pool->showering_list[i];
        trial(pool, phys, e, 0);
        split_list_add(pool, e, parity);
    }
}

void gaps_shower_launch_splitting(gaps_pool *pool, const gaps_physics *phys, int n, int lanes,
                                  int parity)
{
    lanes = lanes_width(lanes);
    const long m = (long)n * lanes;   /* the splitting list holds at most n entries */
    GAPS_PARALLEL_FOR(m)
    for (long i = 0; i < m; ++i) {
        const int lane = (int)(i % lanes);
        const int e = split_list_entry(pool, (int)(i / lanes), parity);
        if (e >= 0 && lane < gaps_lanes_in_group(lanes))
            do_splitting(pool, phys, e, GAPS_LAUNCH_GENERAL, lane, gaps_lanes_in_group(lanes));
    }
}

/* `cycles` veto cycles of slot e, as lane `lane` of the `lanes` that share it.  The lanes of a
 * warp that arrive together run their cycles together (a lane whose event has ended passes
 * through them doing nothing) and wait for each other at the top of each cycle
 * (gaps_lanes_rejoin(), gaps_parallel.h), so a warp divided by one cycle's paths runs the next
 * one whole; they leave together once none of their events is showering. */
GAPS_DEVICE_BEGIN
GAPS_ALWAYS_INLINE void cycles_of_slot(gaps_pool *pool, const gaps_physics *phys, int e,
                                       int cycles, int split_every, int launch, int lane,
                                       int lanes)
{
    const unsigned together = gaps_lanes_together();
    for (int c = 0; c < cycles; ++c) {
        gaps_lanes_rejoin(together);
        if (!gaps_lanes_any(together, pool->status[e] == GAPS_SLOT_SHOWERING)) break;
        /* the last cycle is always a splitting round: no accepted trial outlives a launch */
        const int splitting_round = (c + 1) % split_every == 0 || c == cycles - 1;
        veto_cycle(pool, phys, e, splitting_round, launch, lane, lanes);
    }
}
GAPS_DEVICE_END

void gaps_shower_launch_cycles(gaps_pool *pool, const gaps_physics *phys, int nslots,
                               int cycles, int split_every, int launch)
{
    /* a kernel for each kind of launch: the constant decides which code it holds */
    if (launch == GAPS_LAUNCH_EE) {
        GAPS_PARALLEL_FOR(nslots)
        for (int e = 0; e < nslots; ++e)
            cycles_of_slot(pool, phys, e, cycles, split_every, GAPS_LAUNCH_EE, 0, 1);
    } else if (launch == GAPS_LAUNCH_EE_VARY) {
        GAPS_PARALLEL_FOR(nslots)
        for (int e = 0; e < nslots; ++e)
            cycles_of_slot(pool, phys, e, cycles, split_every, GAPS_LAUNCH_EE_VARY, 0, 1);
    } else {
        GAPS_PARALLEL_FOR(nslots)
        for (int e = 0; e < nslots; ++e)
            cycles_of_slot(pool, phys, e, cycles, split_every, GAPS_LAUNCH_GENERAL, 0, 1);
    }
}

void gaps_shower_launch_cycles_listed(gaps_pool *pool, const gaps_physics *phys, int n,
                                      int cycles, int split_every, int lanes)
{
    lanes = lanes_width(lanes);
    const long m = (long)n * lanes;
    GAPS_PARALLEL_FOR(m)
    for (long i = 0; i < m; ++i) {
        const int lane = (int)(i % lanes), e = pool->showering_list[i / lanes];
        if (lane < gaps_lanes_in_group(lanes))
            cycles_of_slot(pool, phys, e, cycles, split_every, GAPS_LAUNCH_GENERAL, lane,
                           gaps_lanes_in_group(lanes));
    }
}

void gaps_shower_launch_refill(gaps_pool *pool, const gaps_physics *phys, int nslots,
                               int launch, int from_file)
{
    if (from_file) {   /* hard events from a file: a kernel of their own (shower_start) */
        GAPS_PARALLEL_FOR(nslots)
        for (int e = 0; e < nslots; ++e) refill(pool, phys, e, GAPS_LAUNCH_GENERAL, 1);
    } else if (launch == GAPS_LAUNCH_EE) {
        GAPS_PARALLEL_FOR(nslots)
        for (int e = 0; e < nslots; ++e) refill(pool, phys, e, GAPS_LAUNCH_EE, 0);
    } else if (launch == GAPS_LAUNCH_EE_VARY) {
        GAPS_PARALLEL_FOR(nslots)
        for (int e = 0; e < nslots; ++e) refill(pool, phys, e, GAPS_LAUNCH_EE_VARY, 0);
    } else {
        GAPS_PARALLEL_FOR(nslots)
        for (int e = 0; e < nslots; ++e) refill(pool, phys, e, GAPS_LAUNCH_GENERAL, 0);
    }
}
