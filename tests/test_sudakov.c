/* test_sudakov.c -- the k_T^2 of the first emission follows the Sudakov form factor.
 *
 * doc/physics.md section 3 defines the shower by its emission density, not by its algorithm: with
 * a fixed coupling the veto algorithm must produce, from the initial q qbar pair, a first
 * emission whose evolution variable t (= k_T^2) has the density
 *
 *     rho(t) = sum over the 2 dipoles of  alpha_s/(2 pi) (1/t) int dz (1 - y) P(z, y) theta(y < 1)
 *     y = t / (m2 z (1 - z)),   P(z, y) = C_F [2/(1 - z(1-y)) - (1 + z)],   z in [z-, z+]
 *
 * (emitter q with spectator qbar, and emitter qbar with spectator q; both have m2 = s), so that
 * the probability that the first emission lies below t is the Sudakov form factor
 *
 *     F(t) = exp(-int_t^s rho(t') dt'),   t_C <= t <= s,
 *
 * and F(t_C) is the probability of no emission above the cutoff.  Every piece of the
 * algorithm enters this one distribution: the trial rates (overestimate integrals), the trial
 * scale t' = t R^(1/r_sum), the choice of dipole, the trial z, the y < 1 veto, the acceptance
 * ratio with its (1 - y) factor, and the rule that a vetoed trial still lowers the scale.
 *
 * The test
 *   1. computes F by numerical integration (below), and checks that integration against a
 *      second, independent one (other variables, other rule) to far better than 1e-6;
 *   2. generates N = 10^5 events with the production shower functions and records the t of
 *      the first accepted emission of each (0 if the shower ends without one);
 *   3. computes the Kolmogorov-Smirnov distance D = sup_t |F_emp(t) - F(t)| including the point
 *      mass at "no emission" (t := 0, F(0) := F(t_C)) and requires D < 1.63/sqrt(N), the 99 %
 *      critical value (conservative when F has a jump);
 *   4. proves that the comparison has power: the same sample against the Sudakov without the
 *      (1 - y) factor, and against the one with alpha_s = 0.125, must give D > 1.63/sqrt(N).
 *
 * Exit status 0 if every check passes; each failure is printed.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/constants.h"
#include "gaps/event_pool.h"
#include "gaps/matrix_element.h"
#include "gaps/shower.h"
#include "gaps_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- physics inputs (the only numbers the test is built on) ---- */
#define ECM 91.2            /* sqrt(s), GeV */
#define ALPHA_S 0.118       /* fixed coupling */
#define ALPHA_S_WRONG 0.125 /* negative control: a 6 % larger coupling */
#define T_CUT 1.0           /* cutoff t_C, GeV^2 */
#define N_DIPOLES 2         /* q with spectator qbar, qbar with spectator q, both m2 = s */

/* ---- statistics ---- */
#define N_EVENTS 100000
#ifndef SEED
#define SEED 20240611u
#endif
#define MAX_PARTONS 8       /* only the first emission matters; more room is never needed */
#define KS_99 1.63          /* sqrt(N) D exceeds 1.63 with probability 1 % (Kolmogorov) */
#define MAX_CYCLES 100000   /* guard against a shower that never ends */

#include "check.h"

/* =========================================================================================
 * Method A (used for the comparison): logistic variables.
 *
 * Write z = 1/(1 + e^-v), so z (1 - z) = 1/(2 + 2 cosh v) and dz = z (1 - z) dv, and label the
 * scale by v0 >= 0 through t = m2/(2 + 2 cosh v0).  Then
 *     y = (1 + cosh v)/(1 + cosh v0),   1 - y = (cosh v0 - cosh v)/(1 + cosh v0),
 * and y < 1 is exactly |v| < v0: the z interval where the integrand is non-zero becomes the
 * fixed interval [-v0, v0], whose ends are where (1 - y) vanishes.  For t >= t_C this interval
 * lies inside [z-, z+] (z(1-z) > t/m2 >= t_C/m2), so theta(y < 1) is the only restriction.
 * The integrand is analytic in v on [-v0, v0] (its nearest complex singularities, the zeros of
 * 1 - z(1-y) and of 1 + e^v, are about pi/2 or more away from the real axis), so composite
 * Gauss-Legendre converges exponentially; the 1/(1-z) growth of P becomes a smooth step.
 * The outer integral: d(ln t) = -tanh(v0/2) dv0, so
 *     S(v0) := int_t^{m2/4} rho = N_DIPOLES alpha_s/(2 pi) int_0^{v0} I(u) tanh(u/2) du,
 *     I(u) = int_{-u}^{u} (1 - y) P(z, y) z (1 - z) dv,
 * and above t = m2/4 (v0 = 0) no z satisfies y < 1, so rho = 0 there.  I(u) ~ u^3 near u = 0
 * and is analytic in u: the square-root endpoint behaviour that rho has in t is gone.
 * ========================================================================================= */
#define INNER_PANEL 2.0   /* width in v of a panel of the inner rule */
#define OUTER_PANELS 256  /* panels of the cumulative table of S over [0, v0(t_C)] */

typedef struct sudakov {
    double m2, alpha, t_cut;
    int with_recoil;      /* 1: the true density with the (1 - y) factor; 0: without it */
    int inner_n, outer_n; /* Gauss-Legendre points per inner and per outer panel */
    double inner_panel;
    gl_rule inner, outer;
    double v_cut, h;      /* v0 at t_C, outer panel width */
    double cum[OUTER_PANELS + 1];   /* S at v0 = k h */
} sudakov;

/* (1 - y) P(z, y) z (1 - z) at z = 1/(1 + e^-v), for the scale labelled by cosh v0. */
static double integrand_v(double v, double cosh_v0, int with_recoil)
{
    const double ev = exp(v);
    const double z = ev / (1.0 + ev), omz = 1.0 / (1.0 + ev);   /* each accurate */
    const double cosh_v = 0.5 * (ev + 1.0 / ev);
    const double y = (1.0 + cosh_v) / (1.0 + cosh_v0);
    const double recoil = with_recoil ? (cosh_v0 - cosh_v) / (1.0 + cosh_v0) : 1.0;
    const double P = GAPS_CF * (2.0 / (omz + z * y) - (1.0 + z));   /* 1 - z(1-y) = omz + z y */
    return recoil * P * z * omz;
}

/* I(v0) = int_{-v0}^{v0} integrand dv, composite Gauss-Legendre. */
static double inner_integral(const sudakov *sd, double v0)
{
    if (!(v0 > 0.0)) return 0.0;
    const double cosh_v0 = cosh(v0);
    const int panels = (int)ceil(2.0 * v0 / sd->inner_panel);
    const double width = 2.0 * v0 / panels;
    double sum = 0.0;
    for (int p = 0; p < panels; ++p) {
        const double mid = -v0 + (p + 0.5) * width;
        for (int i = 0; i < sd->inner.n; ++i)
            sum += sd->inner.w[i] * integrand_v(mid + 0.5 * width * sd->inner.x[i], cosh_v0,
                                                sd->with_recoil);
    }
    return 0.5 * width * sum;
}

/* dS/dv0 */
static double dS_dv0(const sudakov *sd, double v0)
{
    return N_DIPOLES * sd->alpha / (2.0 * GAPS_PI) * inner_integral(sd, v0) * tanh(0.5 * v0);
}

static double outer_integral(const sudakov *sd, double a, double b)
{
    const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
    double sum = 0.0;
    for (int i = 0; i < sd->outer.n; ++i) sum += sd->outer.w[i] * dS_dv0(sd, mid + half * sd->outer.x[i]);
    return half * sum;
}

static void sudakov_init(sudakov *sd, double m2, double alpha, double t_cut, int with_recoil,
                         int inner_n, int outer_n, double inner_panel)
{
    sd->m2 = m2;
    sd->alpha = alpha;
    sd->t_cut = t_cut;
    sd->with_recoil = with_recoil;
    sd->inner = gl_make(inner_n);
    sd->outer = gl_make(outer_n);
    sd->inner_panel = inner_panel;
    sd->v_cut = acosh(m2 / (2.0 * t_cut) - 1.0);
    sd->h = sd->v_cut / OUTER_PANELS;
    sd->cum[0] = 0.0;
    for (int k = 0; k < OUTER_PANELS; ++k)
        sd->cum[k + 1] = sd->cum[k] + outer_integral(sd, k * sd->h, (k + 1) * sd->h);
}

/* v0 of the scale t (0 at and above m2/4, where rho vanishes). */
static double v0_of_t(const sudakov *sd, double t)
{
    const double x = sd->m2 / (2.0 * t) - 1.0;
    return x > 1.0 ? acosh(x) : 0.0;
}

/* S(v0) = cumulative table up to the panel edge below v0, plus that panel's remainder. */
static double sudakov_S_v0(const sudakov *sd, double v0)
{
    if (!(v0 > 0.0)) return 0.0;
    if (v0 > sd->v_cut) v0 = sd->v_cut;
    int k = (int)(v0 / sd->h);
    if (k > OUTER_PANELS - 1) k = OUTER_PANELS - 1;
    return sd->cum[k] + outer_integral(sd, k * sd->h, v0);
}

/* Exponent S(t) = int_t^s rho, for t >= t_C; below t_C (the "no emission" point t = 0) it is
 * S(t_C), so that F(0) = F(t_C). */
static double sudakov_S(const sudakov *sd, double t)
{
    if (t < sd->t_cut) t = sd->t_cut;
    return sudakov_S_v0(sd, v0_of_t(sd, t));
}

/* =========================================================================================
 * Method B (only to check method A): the variables of the definition, ln t and z, with
 * composite Simpson rules.  z runs over the y < 1 interval [w-, w+], w+- = (1 +- sqrt(1 -
 * 4t/m2))/2, split at z = 1/2; below it the variable is ln z, above it -ln(1 - z), which
 * resolve the ends where z or 1 - z is of order t/m2.  Outer: ln t = ln(m2/4) - u^2, which
 * removes the square-root behaviour of rho at t = m2/4.  Shares no code with method A.
 * ========================================================================================= */
static double direct_integrand_z(double z, double omz, double c, int with_recoil)
{
    const double y = c / (z * omz);
    const double P = GAPS_CF * (2.0 / (1.0 - z * (1.0 - y)) - (1.0 + z));
    return (with_recoil ? 1.0 - y : 1.0) * P;
}

static double simpson_weight(int i, int n) { return (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0); }

/* int_{w-}^{w+} (1 - y) P dz at t = c m2 (c < 1/4), Simpson with n intervals per half. */
static double direct_inner(double c, int with_recoil, int n)
{
    const double wm = 2.0 * c / (1.0 + sqrt(1.0 - 4.0 * c));   /* w- without cancellation */
    const double a = log(wm), b = log(0.5), hz = (b - a) / n;
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i <= n; ++i) {
        const double l = a + i * hz;
        /* lower half: z = e^l, dz = z dl */
        const double z = exp(l);
        lo += simpson_weight(i, n) * direct_integrand_z(z, 1.0 - z, c, with_recoil) * z;
        /* upper half: 1 - z = e^l, dz = (1 - z) dl */
        const double omz = exp(l);
        hi += simpson_weight(i, n) * direct_integrand_z(1.0 - omz, omz, c, with_recoil) * omz;
    }
    return (lo + hi) * hz / 3.0;
}

static double direct_S(double m2, double alpha, double t, int with_recoil, int n)
{
    if (t >= 0.25 * m2) return 0.0;
    const double umax = sqrt(log(0.25 * m2 / t)), hu = umax / n;
    double sum = 0.0;
    for (int i = 1; i <= n; ++i) {   /* the u = 0 point contributes 0 (t = m2/4) */
        const double u = i * hu;
        const double c = 0.25 * exp(-u * u);   /* t/m2 */
        sum += simpson_weight(i, n) * direct_inner(c, with_recoil, n) * 2.0 * u;   /* dln t = 2u du */
    }
    return N_DIPOLES * alpha / (2.0 * GAPS_PI) * sum * hu / 3.0;
}

/* =========================================================================================
 * Kolmogorov-Smirnov distance of a sorted sample (zeros first: no emission) from F.
 * F_emp jumps by 1/N at each point, F is continuous above t_C with F(t_C) = F(0):
 * D = max( |n0/N - F(t_C)|, max_i max(i/N - F(x_i), F(x_i) - (i-1)/N) ), i over emissions
 * (1-based rank).  The first emission's left term F(x) - n0/N covers the gap (0, x_1).
 * ========================================================================================= */
static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* F at each sorted sample point, for the Sudakov sd with the coupling scaled by `scale`
 * (with a fixed coupling S is proportional to alpha_s, so the alpha_s = 0.125 control is the
 * true-density exponent times 0.125/0.118). */
static double ks_distance(const double *x, const double *S, long n, double S_cut, double scale)
{
    long n0 = 0;
    while (n0 < n && x[n0] == 0.0) ++n0;
    double d = fabs((double)n0 / n - exp(-scale * S_cut));
    for (long i = n0; i < n; ++i) {
        const double F = exp(-scale * S[i]);
        const double up = (double)(i + 1) / n - F, down = F - (double)i / n;
        if (up > d) d = up;
        if (down > d) d = down;
    }
    return d;
}

/* t with F(t) = p (p > F(t_C)), by bisection in v0. */
static double quantile_t(const sudakov *sd, double p)
{
    const double target = -log(p);   /* S(v0) = target, S increasing in v0 */
    double lo = 0.0, hi = sd->v_cut;
    for (int it = 0; it < 100 && hi - lo > 1e-13; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (sudakov_S_v0(sd, mid) < target) lo = mid;
        else hi = mid;
    }
    const double v0 = 0.5 * (lo + hi);
    return sd->m2 / (2.0 + 2.0 * cosh(v0));
}

/* =========================================================================================
 * Generation: the production shower on a pool of N_EVENTS slots, one event per slot.
 *
 * The pool and the physics live where the shower loops run (device memory in the offload
 * build), so the test drives the slot loops gaps_shower_{trial,cutoff,veto,split}_step (each a
 * loop of the per-slot function of the same name over all slots; slots are independent and
 * each has its own random-number stream, so this is exactly the per-slot sequence trial,
 * cutoff, veto, split repeated for every slot) and reads the per-slot n, status and t back
 * after every cycle.  A cycle adds at most one parton, so the cycle after which n first reads 3
 * is the one whose emission was accepted, and t then holds that emission's scale, its k_T^2
 * (the split step does not change t).  A slot that stops showering with n = 2 had no emission
 * above t_C.  Each slot finishes once, so the done list (N slots long) never overflows.
 * ========================================================================================= */
static int generate(double *first_t, double *seconds)
{
    gaps_physics phys;   /* as generator.c's physics_init, with the fixed coupling */
    memset(&phys, 0, sizeof phys);
    char why[128];
    if (gaps_process_init(&phys.proc, GAPS_PROCESS_EE_QQ, ECM, why, sizeof why) != 0) {
        printf("FAIL: %s\n", why);
        return -1;
    }
    gaps_alphas_init(&phys.as, 0, ALPHA_S);
    phys.t_cut = T_CUT;
    phys.a_max = gaps_alphas_value(&phys.as, T_CUT);
    phys.seed = SEED;
    phys.end_event = N_EVENTS;

    gaps_pool pool;
    if (gaps_pool_create(&pool, N_EVENTS, MAX_PARTONS, NULL) != 0) {
        printf("FAIL: cannot allocate the pool\n");
        return -1;
    }
    gaps_pool *pool_dev = gaps_device_copy(&pool, sizeof pool);
    gaps_physics *phys_dev = gaps_device_copy(&phys, sizeof phys);
    int *n = malloc(N_EVENTS * sizeof *n), *status = malloc(N_EVENTS * sizeof *status);
    double *t = malloc(N_EVENTS * sizeof *t);
    char *recorded = calloc(N_EVENTS, 1);
    int rc = (pool_dev && phys_dev && n && status && t && recorded) ? 0 : -1;
    if (rc) printf("FAIL: out of memory\n");

    const double t0 = test_now();
    long remaining = N_EVENTS, bad = 0;
    int cycles = 0;
    if (rc == 0) {
        /* every slot takes the next event number: events 0 .. N-1, each started with
         * gaps_shower_start (the q qbar pair at t = s) */
        gaps_shower_launch_refill(pool_dev, phys_dev, N_EVENTS, GAPS_LAUNCH_EE, 0);
        unsigned long long c[GAPS_N_COUNTERS];
        gaps_pool_read_counters(&pool, c);
        CHECK(c[GAPS_COUNT_STARTED] == N_EVENTS, "%llu events started, want %d",
              c[GAPS_COUNT_STARTED], N_EVENTS);
    }
    while (rc == 0 && remaining > 0 && cycles < MAX_CYCLES) {
        const int showering = gaps_shower_gather(&pool, pool_dev, N_EVENTS);
        for (int step = 0; step < GAPS_N_VETO_STEPS; ++step)
            gaps_shower_launch_step(pool_dev, phys_dev, showering, (enum gaps_veto_step)step,
                                    gaps_runtime_event_lanes(showering));
        ++cycles;
        gaps_device_to_host(n, pool.n, N_EVENTS * sizeof *n);
        gaps_device_to_host(status, pool.status, N_EVENTS * sizeof *status);
        gaps_device_to_host(t, pool.t, N_EVENTS * sizeof *t);
        for (long e = 0; e < N_EVENTS; ++e) {
            if (recorded[e]) continue;
            if (n[e] == 3) {
                first_t[e] = t[e];
                recorded[e] = 1;
                --remaining;
                /* an accepted emission lies where the density is non-zero */
                if (!(t[e] > T_CUT && t[e] <= 0.25 * phys.proc.s)) ++bad;
            } else if (n[e] != 2) {
                ++bad;   /* two emissions in one cycle: impossible */
                recorded[e] = 1;
                --remaining;
            } else if (status[e] != GAPS_SLOT_SHOWERING) {
                first_t[e] = 0.0;   /* shower ended without an emission above t_C */
                recorded[e] = 1;
                --remaining;
            }
        }
    }
    *seconds = test_now() - t0;
    if (rc == 0) {
        CHECK(remaining == 0, "%ld events still without a first emission after %d cycles",
              remaining, cycles);
        CHECK(bad == 0, "%ld events with an impossible first emission", bad);
        printf("generated %d events (seed %u) in %d veto cycles, %.2f s\n", N_EVENTS, SEED,
               cycles, *seconds);
    }
    free(n);
    free(status);
    free(t);
    free(recorded);
    gaps_device_free(pool_dev);
    gaps_device_free(phys_dev);
    gaps_pool_destroy(&pool);
    return rc == 0 && remaining == 0 && bad == 0 ? 0 : -1;
}

int main(void)
{
    const double t_start = test_now();
    gaps_me me;
    gaps_me_init(&me, ECM);
    const double s = me.s;

    /* ---- 1. the Sudakov form factor, and a check of its integration ---- */
    static sudakov true_sd, norecoil_sd, fine_sd;
    sudakov_init(&true_sd, s, ALPHA_S, T_CUT, 1, 12, 8, INNER_PANEL);
    sudakov_init(&norecoil_sd, s, ALPHA_S, T_CUT, 0, 12, 8, INNER_PANEL);
    /* the same method at twice the points and half the panel width: its convergence */
    sudakov_init(&fine_sd, s, ALPHA_S, T_CUT, 1, 16, 12, 0.5 * INNER_PANEL);
    const double S_cut = sudakov_S(&true_sd, T_CUT);
    const double F_cut = exp(-S_cut);
    printf("Sudakov (alpha_s = %g fixed, sqrt(s) = %g GeV, t_C = %g GeV^2): F(t_C) = %.9f "
           "(exponent %.9f)\n", ALPHA_S, ECM, T_CUT, F_cut, S_cut);

    static const double t_check[] = { T_CUT, 3.0, 10.0, 100.0, 1000.0, 2000.0 };
    double worst_fine = 0.0, worst_direct = 0.0;
    for (size_t i = 0; i < sizeof t_check / sizeof t_check[0]; ++i) {
        const double FA = exp(-sudakov_S(&true_sd, t_check[i]));
        const double Ffine = exp(-sudakov_S(&fine_sd, t_check[i]));
        const double FB = exp(-direct_S(s, ALPHA_S, t_check[i], 1, 1000));
        worst_fine = fmax(worst_fine, fabs(FA - Ffine));
        worst_direct = fmax(worst_direct, fabs(FA - FB));
        printf("  F(%6g) = %.9f   refined %.9f   (ln t, z) Simpson %.9f\n", t_check[i], FA,
               Ffine, FB);
    }
    /* also the control density, which the power check depends on */
    const double dctl = fabs(exp(-sudakov_S(&norecoil_sd, T_CUT))
                             - exp(-direct_S(s, ALPHA_S, T_CUT, 0, 1000)));
    worst_direct = fmax(worst_direct, dctl);
    printf("  integration: refined-rule change %.2e, independent-method difference %.2e\n",
           worst_fine, worst_direct);
    CHECK(worst_fine < 1e-9, "the Sudakov integration has not converged (%.2e)", worst_fine);
    CHECK(worst_direct < 1e-7, "the two integrations of the Sudakov disagree (%.2e)",
          worst_direct);
    /* above m2/4 no emission is possible, and F(s) = 1 */
    CHECK(sudakov_S(&true_sd, 0.25 * s) == 0.0 && sudakov_S(&true_sd, s) == 0.0,
          "S does not vanish above s/4");

    /* ---- 2. the production shower ---- */
    double *x = malloc(N_EVENTS * sizeof *x), *S = malloc(N_EVENTS * sizeof *S),
           *S_norecoil = malloc(N_EVENTS * sizeof *S_norecoil);
    double gen_seconds = 0.0;
    if (!x || !S || !S_norecoil || generate(x, &gen_seconds) != 0) {
        printf("FAIL: generation\n");
        return 1;
    }

    /* ---- 3. Kolmogorov-Smirnov ---- */
    qsort(x, N_EVENTS, sizeof *x, cmp_double);
    long n0 = 0;
    while (n0 < N_EVENTS && x[n0] == 0.0) ++n0;
    for (long i = 0; i < N_EVENTS; ++i) {
        S[i] = sudakov_S(&true_sd, x[i]);
        S_norecoil[i] = sudakov_S(&norecoil_sd, x[i]);
    }
    const double crit = KS_99 / sqrt((double)N_EVENTS);
    const double D = ks_distance(x, S, N_EVENTS, S_cut, 1.0);
    const double D_norecoil =
        ks_distance(x, S_norecoil, N_EVENTS, sudakov_S(&norecoil_sd, T_CUT), 1.0);
    const double D_alpha = ks_distance(x, S, N_EVENTS, S_cut, ALPHA_S_WRONG / ALPHA_S);

    const double frac0 = (double)n0 / N_EVENTS;
    printf("no emission above t_C: generated %.5f +- %.5f, Sudakov F(t_C) = %.5f\n", frac0,
           sqrt(F_cut * (1.0 - F_cut) / N_EVENTS), F_cut);
    printf("quantiles of the first-emission k_T^2 (GeV^2; 'none' = no emission):\n");
    printf("      p   generated      Sudakov\n");
    static const double probs[] = { 0.10, 0.25, 0.50, 0.75, 0.90, 0.99 };
    for (size_t i = 0; i < sizeof probs / sizeof probs[0]; ++i) {
        const long rank = (long)ceil(probs[i] * N_EVENTS) - 1;
        char gen[32], th[32];
        if (x[rank] == 0.0) snprintf(gen, sizeof gen, "none");
        else snprintf(gen, sizeof gen, "%.4g", x[rank]);
        if (probs[i] <= F_cut) snprintf(th, sizeof th, "none");
        else snprintf(th, sizeof th, "%.4g", quantile_t(&true_sd, probs[i]));
        printf("  %5.2f  %10s   %10s\n", probs[i], gen, th);
    }
    printf("KS against the true Sudakov:        D = %.5f, sqrt(N) D = %.3f (99 %% limit %.2f)\n",
           D, sqrt((double)N_EVENTS) * D, KS_99);
    printf("KS against no (1 - y) factor:       D = %.5f, sqrt(N) D = %.3f (must exceed %.2f)\n",
           D_norecoil, sqrt((double)N_EVENTS) * D_norecoil, KS_99);
    printf("KS against alpha_s = %.3f:         D = %.5f, sqrt(N) D = %.3f (must exceed %.2f)\n",
           ALPHA_S_WRONG, D_alpha, sqrt((double)N_EVENTS) * D_alpha, KS_99);
    CHECK(D < crit, "first-emission k_T^2 does not follow the Sudakov: D = %.5f >= %.5f", D, crit);
    CHECK(D_norecoil > crit, "no power: D without (1 - y) = %.5f <= %.5f", D_norecoil, crit);
    CHECK(D_alpha > crit, "no power: D at alpha_s = %.3f is %.5f <= %.5f", ALPHA_S_WRONG, D_alpha,
          crit);

    free(x);
    free(S);
    free(S_norecoil);
    printf("total time %.2f s (generation %.2f s)\n", test_now() - t_start, gen_seconds);
    if (!failures) printf("sudakov: first emissions follow the Sudakov form factor\n");
    return failures != 0;
}
