/* test_vary_sudakov.c -- the shower's mu_R and alpha_s(M_Z) variation weights (--vary shower
 * and alphas, doc/physics.md section 17) reproduce the first-emission density of the varied
 * shower.
 *
 * With the running coupling (two loops, the default) the first emission of the q qbar pair of
 * e+ e- -> q qbar at 91.2 GeV has the density
 *
 *     rho_k(t) = 2 alpha_s(max(k^2 t, t_C))/(2 pi t) int dz (1 - y) P(z, y) theta(y < 1),
 *     y = t/(s z(1-z)),  P = C_F [2/(1 - z(1-y)) - (1+z)]
 *
 * (two dipoles of mass^2 s), and the probability that it lies below t is
 * F_k(t) = exp(-int_t^{s/4} rho_k).  The test
 *   1. integrates F_k for k = 1, 1/2, 2 numerically (z in ln(1-z), then ln t, Simpson), and
 *      checks the integration against a run of twice the points (to 1e-4, thirty times below
 *      the samples' resolution);
 *   2. showers N events once with the two variation weights MUR=0.5 and MUR=2 (the veto's
 *      weights: accepted trials P'/P, rejected (O - P')/(O - P)), and once each with the
 *      shower's own coupling at k^2 t (the shower of --shower-mur-factor k), recording the
 *      first emission's t (none: the no-emission bin) and, in the first run, its weights;
 *   3. compares 24 bins in ln t between t_C and s/4 by a chi^2 with the sample's own
 *      covariance (weighted events: C = diag(sum w^2) - W W^T / N), which must stay below
 *      the 99.9 % point of chi^2 with 24 degrees of freedom (51.18):
 *        nominal events against F_1, reweighted events against F_1/2 and F_2, the
 *        independent varied showers against F_1/2 and F_2;
 *   4. proves the power: the nominal events without the weights (the reweighting switched off)
 *      against F_1/2 and F_2, and the reweighted events against F_1, must all fail (chi^2 above
 *      the same point).
 * 5. the same for two variations of alpha_s(M_Z^2) itself (the coupling of --vary alphas, its
 *    weights made by the same veto code), at 0.108 and 0.128 so that 10^5 events resolve
 *    them: reweighted events and independent showers with that coupling against F of that
 *    coupling, and the controls.
 * Exit status 0 if every check passes.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/constants.h"
#include "gaps/event_pool.h"
#include "gaps/shower.h"
#include "gaps/vary.h"
#include "gaps_runtime.h"
#include "shower/vary_bounds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ECM 91.2
#define T_CUT 1.0
#define N_EVENTS 100000
#ifndef SEED
#define SEED 20260117u
#endif
#define MAX_PARTONS 8
#define MAX_CYCLES 100000
#define NBINS 24
#define CHI2_999_24 51.18   /* chi^2 with 24 degrees of freedom exceeds it with probability 0.1 % */
#define N_T 2400            /* Simpson intervals in ln t (a multiple of NBINS) */
#define N_Z 2000            /* Simpson intervals in ln(1 - z) */

#include "check.h"

static double s_ecm;
static gaps_alphas as_run;

/* int dz (1 - y) P(z, y) over y < 1, in L = ln(1 - z) (dz = (1 - z) dL) */
static double z_integral(double t, int nz)
{
    const double d = 1.0 - 4.0 * t / s_ecm;
    if (!(d > 0.0)) return 0.0;
    const double z1 = 2.0 * t / (s_ecm * (1.0 + sqrt(d))), z2 = 1.0 - z1;   /* the y = 1 roots */
    const double La = log(1.0 - z2), Lb = log(1.0 - z1), h = (Lb - La) / nz;
    double sum = 0.0;
    for (int i = 0; i <= nz; ++i) {
        const double L = La + i * h, omz = exp(L), z = 1.0 - omz;
        const double y = t / (s_ecm * z * omz);
        double f = 0.0;
        if (y < 1.0) {
            const double P = GAPS_CF * (2.0 / (omz + z * y) - (1.0 + z));
            f = (1.0 - y) * P * omz;
        }
        sum += f * (i == 0 || i == nz ? 1.0 : (i % 2 ? 4.0 : 2.0));
    }
    return sum * h / 3.0;
}

/* S_k at the grid points t_j = t_C (s/(4 t_C))^(j/nt), j = 0..nt (S = 0 at s/4), with the
 * coupling as */
static void sudakov_grid(const gaps_alphas *as, double k2, int nt, int nz, double *S)
{
    const double l0 = log(T_CUT), l1 = log(0.25 * s_ecm), h = (l1 - l0) / nt;
    double *g = malloc((nt + 1) * sizeof *g);
    for (int j = 0; j <= nt; ++j) {
        const double t = exp(l0 + j * h);
        /* the varied coupling's argument is kept at or above the cutoff (veto.c) */
        const double arg = k2 == 1.0 ? t : fmax(k2 * t, T_CUT);
        g[j] = 2.0 * gaps_alphas_value(as, arg) / (2.0 * GAPS_PI) * z_integral(t, nz);
    }
    /* cumulative from the top, Simpson on pairs of intervals (trapezoid for an odd rest) */
    S[nt] = 0.0;
    for (int j = nt - 2; j >= 0; j -= 2) {
        S[j + 1] = S[j + 2] + 0.5 * h * (g[j + 1] + g[j + 2]);   /* half-pair: trapezoid */
        S[j] = S[j + 2] + h / 3.0 * (g[j] + 4.0 * g[j + 1] + g[j + 2]);
    }
    free(g);
}

/* F_k at the NBINS + 1 bin edges (edge i at t_C (s/(4 t_C))^(i/NBINS)) */
static void edges_F(const gaps_alphas *as, double k2, int nt, int nz, double *F)
{
    double *S = malloc((nt + 1) * sizeof *S);
    sudakov_grid(as, k2, nt, nz, S);
    for (int i = 0; i <= NBINS; ++i) F[i] = exp(-S[i * (nt / NBINS)]);
    free(S);
}

/* The couplings of step 5: alpha_s(M_Z^2) = 0.108 and 0.128 */
static gaps_alphas as_var[2];
/* the scale below which the overestimate had its headroom, of the mu_R runs [0] and the
 * alpha_s(M_Z) runs [1] (printed: it must lie inside the tested range) */
static double headroom_scale[2];

/* Shower N events with coupling as; first_t[e] the t of the first emission (0: none above
 * t_C), and with n_vary weights w[v * N + e] at that point: the mu_R variations k^2 = 1/4, 4
 * (couplings 0), or the couplings as_var (couplings 1). */
static int generate(const gaps_alphas *as, double mur2, int n_vary, int couplings,
                    double *first_t, double *w)
{
    gaps_physics phys;
    memset(&phys, 0, sizeof phys);
    char why[128];
    if (gaps_process_init(&phys.proc, GAPS_PROCESS_EE_QQ, ECM, why, sizeof why) != 0) {
        printf("FAIL: %s\n", why);
        return -1;
    }
    phys.as = *as;
    phys.t_cut = T_CUT;
    phys.seed = SEED;
    phys.end_event = N_EVENTS;
    double bound = 1.0;   /* the smallest argument factor: the overestimate's (generator.c) */
    if (mur2 != 1.0) {
        phys.mur_scaled = 1;
        phys.mur2 = mur2;
        bound = fmin(bound, mur2);
    }
    phys.n_vary = n_vary;
    phys.vary_shower = n_vary > 0;   /* every variation here changes the shower */
    const double k2[2] = { 0.25, 4.0 };
    const gaps_alphas *largest = &phys.as;   /* the overestimate's coupling (generator.c) */
    for (int v = 0; v < n_vary; ++v) {
        if (couplings) {
            phys.vary_mu2[v][0] = phys.vary_mu2[v][1] = 1.0;
            phys.vary_as[v] = as_var[v];
            phys.vary_coupling[v] = (signed char)(v + 1);
            if (as_var[v].asmz > largest->asmz) largest = &as_var[v];
        } else {
            phys.vary_mu2[v][0] = phys.vary_mu2[v][1] = k2[v];
            bound = fmin(bound, k2[v]);
        }
    }
    gaps_vary_prepare(&phys);
    /* the couplings' arguments are kept at or above t_C (veto.c): the overestimate's is too */
    phys.a_max = gaps_alphas_value(largest, fmax(bound, 1.0) * T_CUT);
    /* and with weights, the headroom below the scale that needs it (generator.c): the trials
     * that cross that scale stop there, which the densities below must not notice */
    phys.a_max_headroom = phys.a_max;
    if (n_vary) {
        const gaps_vary_couplings vc = { &phys.as, mur2, largest, bound, GAPS_VARY_HEADROOM,
                                         T_CUT };
        phys.vary_t_headroom = gaps_vary_headroom_scale(&vc, phys.a_max, s_ecm);
        phys.a_max_headroom = gaps_vary_bound_at(&vc, T_CUT);
        headroom_scale[couplings] = phys.vary_t_headroom;
    }

    gaps_pool pool;
    if (gaps_pool_create(&pool, N_EVENTS, MAX_PARTONS, NULL) != 0
        || gaps_pool_alloc_vary(&pool, n_vary) != 0) {
        printf("FAIL: cannot allocate the pool\n");
        return -1;
    }
    gaps_pool *pool_dev = gaps_device_copy(&pool, sizeof pool);
    gaps_physics *phys_dev = gaps_device_copy(&phys, sizeof phys);
    int *n = malloc(N_EVENTS * sizeof *n), *status = malloc(N_EVENTS * sizeof *status);
    double *t = malloc(N_EVENTS * sizeof *t);
    double *vw = n_vary ? malloc((size_t)n_vary * N_EVENTS * sizeof *vw) : NULL;
    char *recorded = calloc(N_EVENTS, 1);
    int rc = (pool_dev && phys_dev && n && status && t && recorded && (vw || !n_vary)) ? 0 : -1;
    long remaining = N_EVENTS;
    int cycles = 0;
    /* the launches of an e+e- run with --vary (or --shower-mur-factor), as the generator
     * takes them: one veto cycle each, every one a splitting round */
    if (rc == 0) gaps_shower_launch_refill(pool_dev, phys_dev, N_EVENTS, GAPS_LAUNCH_EE_VARY, 0);
    while (rc == 0 && remaining > 0 && cycles < MAX_CYCLES) {
        gaps_shower_launch_cycles(pool_dev, phys_dev, N_EVENTS, 1, 1, GAPS_LAUNCH_EE_VARY);
        ++cycles;
        gaps_device_to_host(n, pool.n, N_EVENTS * sizeof *n);
        gaps_device_to_host(status, pool.status, N_EVENTS * sizeof *status);
        gaps_device_to_host(t, pool.t, N_EVENTS * sizeof *t);
        if (n_vary)
            gaps_device_to_host(vw, pool.vary_w, (size_t)n_vary * N_EVENTS * sizeof *vw);
        for (long e = 0; e < N_EVENTS; ++e) {
            if (recorded[e]) continue;
            int done = 0;
            if (n[e] == 3) { first_t[e] = t[e]; done = 1; }
            else if (status[e] != GAPS_SLOT_SHOWERING) { first_t[e] = 0.0; done = 1; }
            if (!done) continue;
            recorded[e] = 1;
            --remaining;
            for (int v = 0; v < n_vary; ++v) w[v * N_EVENTS + e] = vw[v * N_EVENTS + e];
        }
    }
    CHECK(remaining == 0, "%ld events unfinished after %d cycles", remaining, cycles);
    free(n);
    free(status);
    free(t);
    free(vw);
    free(recorded);
    gaps_device_free(pool_dev);
    gaps_device_free(phys_dev);
    gaps_pool_destroy(&pool);
    return rc == 0 && remaining == 0 ? 0 : -1;
}

/* chi^2 of the NBINS ln t bins of the sample (weights w, NULL: 1) against F at the edges,
 * with the sample's covariance C_ij = delta_ij sum_i w^2 - W_i W_j / N (Cholesky). */
static double chi2(const double *first_t, const double *w, const double *F)
{
    double W[NBINS] = { 0 }, W2[NBINS] = { 0 }, C[NBINS][NBINS], r[NBINS];
    const double l0 = log(T_CUT), l1 = log(0.25 * s_ecm);
    for (long e = 0; e < N_EVENTS; ++e) {
        if (!(first_t[e] > 0.0)) continue;
        int b = (int)((log(first_t[e]) - l0) / (l1 - l0) * NBINS);
        if (b < 0) b = 0;
        if (b >= NBINS) b = NBINS - 1;
        const double x = w ? w[e] : 1.0;
        W[b] += x;
        W2[b] += x * x;
    }
    for (int i = 0; i < NBINS; ++i) {
        r[i] = W[i] - N_EVENTS * (F[i + 1] - F[i]);
        for (int j = 0; j < NBINS; ++j) C[i][j] = (i == j ? W2[i] : 0.0) - W[i] * W[j] / N_EVENTS;
    }
    for (int j = 0; j < NBINS; ++j) {   /* C = L L^T in place */
        for (int k = 0; k < j; ++k) C[j][j] -= C[j][k] * C[j][k];
        if (!(C[j][j] > 0.0)) return INFINITY;
        C[j][j] = sqrt(C[j][j]);
        for (int i = j + 1; i < NBINS; ++i) {
            for (int k = 0; k < j; ++k) C[i][j] -= C[i][k] * C[j][k];
            C[i][j] /= C[j][j];
        }
    }
    double sum = 0.0;   /* |L^-1 r|^2 */
    for (int i = 0; i < NBINS; ++i) {
        for (int k = 0; k < i; ++k) r[i] -= C[i][k] * r[k];
        r[i] /= C[i][i];
        sum += r[i] * r[i];
    }
    return sum;
}

int main(void)
{
    const double t0 = test_now();
    s_ecm = ECM * ECM;
    gaps_alphas_init(&as_run, 2, GAPS_DEFAULT_ALPHAS_MZ);

    /* 1. the Sudakov form factors and their convergence */
    gaps_alphas_init(&as_var[0], 2, 0.108);
    gaps_alphas_init(&as_var[1], 2, 0.128);
    /* F of k^2 = 1, 1/4, 4 with the run's coupling, then of k^2 = 1 with as_var */
    const double k2[5] = { 1.0, 0.25, 4.0, 1.0, 1.0 };
    const gaps_alphas *as_of[5] = { &as_run, &as_run, &as_run, &as_var[0], &as_var[1] };
    double F[5][NBINS + 1];
    for (int k = 0; k < 5; ++k) {
        double Ff[NBINS + 1];
        edges_F(as_of[k], k2[k], N_T, N_Z, F[k]);
        edges_F(as_of[k], k2[k], 2 * N_T, 2 * N_Z, Ff);
        double worst = 0.0;
        for (int i = 0; i <= NBINS; ++i) worst = fmax(worst, fabs(F[k][i] - Ff[i]));
        printf("alpha_s(M_Z) %.3f k^2 = %-4g  F(t_C) = %.6f   integration change at twice the "
               "points %.1e\n", as_of[k]->asmz, k2[k], F[k][0], worst);
        /* 1e-4: thirty times below the statistical resolution 1/sqrt(N) of the samples (the
         * kinks of alpha_s at the flavour thresholds keep Simpson's rule near 1e-5) */
        CHECK(worst < 1e-4, "the Sudakov integration at k^2 = %g has not converged (%.1e)",
              k2[k], worst);
    }

    /* 2. the showers */
    double *t_nom = malloc(N_EVENTS * sizeof *t_nom), *w = malloc(2 * N_EVENTS * sizeof *w);
    double *t_lo = malloc(N_EVENTS * sizeof *t_lo), *t_hi = malloc(N_EVENTS * sizeof *t_hi);
    double *t_as = malloc(N_EVENTS * sizeof *t_as), *wa = malloc(2 * N_EVENTS * sizeof *wa);
    double *t_as0 = malloc(N_EVENTS * sizeof *t_as0), *t_as1 = malloc(N_EVENTS * sizeof *t_as1);
    if (!t_nom || !w || !t_lo || !t_hi || !t_as || !wa || !t_as0 || !t_as1
        || generate(&as_run, 1.0, 2, 0, t_nom, w) != 0
        || generate(&as_run, 0.25, 0, 0, t_lo, NULL) != 0
        || generate(&as_run, 4.0, 0, 0, t_hi, NULL) != 0
        || generate(&as_run, 1.0, 2, 1, t_as, wa) != 0
        || generate(&as_var[0], 1.0, 0, 0, t_as0, NULL) != 0
        || generate(&as_var[1], 1.0, 0, 0, t_as1, NULL) != 0) {
        printf("FAIL: generation\n");
        return 1;
    }
    double wmin = INFINITY, wmax = -INFINITY;
    for (long e = 0; e < 2L * N_EVENTS; ++e) {
        wmin = fmin(wmin, fmin(w[e], wa[e]));
        wmax = fmax(wmax, fmax(w[e], wa[e]));
    }
    printf("%d events a run (seed %u); variation weights from %.4g to %.4g\n", N_EVENTS, SEED,
           wmin, wmax);
    /* the runs with weights had the headroom below a scale inside the bins, so that the
     * trials that stop there are tested too */
    printf("overestimate with headroom at t <= %.4g GeV^2 (mu_R), %.4g GeV^2 (alpha_s)\n",
           headroom_scale[0], headroom_scale[1]);
    for (int i = 0; i < 2; ++i)
        CHECK(headroom_scale[i] > T_CUT && headroom_scale[i] < 0.25 * s_ecm,
              "the headroom's scale %g outside the tested range", headroom_scale[i]);

    /* 3. agreement, 4. power */
    struct { const char *what; const double *t, *w; int f; int pass; } c[] = {
        { "nominal events vs F(k=1)", t_nom, NULL, 0, 1 },
        { "reweighted MUR=0.5 vs F(k=1/2)", t_nom, w, 1, 1 },
        { "reweighted MUR=2 vs F(k=2)", t_nom, w + N_EVENTS, 2, 1 },
        { "shower at k=1/2 vs F(k=1/2)", t_lo, NULL, 1, 1 },
        { "shower at k=2 vs F(k=2)", t_hi, NULL, 2, 1 },
        { "control: nominal, no weights, vs F(k=1/2)", t_nom, NULL, 1, 0 },
        { "control: nominal, no weights, vs F(k=2)", t_nom, NULL, 2, 0 },
        { "control: reweighted MUR=0.5 vs F(k=1)", t_nom, w, 0, 0 },
        { "control: reweighted MUR=2 vs F(k=1)", t_nom, w + N_EVENTS, 0, 0 },
        { "reweighted ALPHAS_MZ=0.108 vs F(0.108)", t_as, wa, 3, 1 },
        { "reweighted ALPHAS_MZ=0.128 vs F(0.128)", t_as, wa + N_EVENTS, 4, 1 },
        { "shower at 0.108 vs F(0.108)", t_as0, NULL, 3, 1 },
        { "shower at 0.128 vs F(0.128)", t_as1, NULL, 4, 1 },
        { "nominal of the alpha_s run vs F(k=1)", t_as, NULL, 0, 1 },
        { "control: nominal, no weights, vs F(0.108)", t_as, NULL, 3, 0 },
        { "control: nominal, no weights, vs F(0.128)", t_as, NULL, 4, 0 },
        { "control: reweighted ALPHAS_MZ=0.108 vs F(k=1)", t_as, wa, 0, 0 },
        { "control: reweighted ALPHAS_MZ=0.128 vs F(k=1)", t_as, wa + N_EVENTS, 0, 0 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i) {
        const double x = chi2(c[i].t, c[i].w, F[c[i].f]);
        printf("  %-44s chi2/ndf = %8.1f/%d  %s\n", c[i].what, x, NBINS,
               (x < CHI2_999_24) == c[i].pass ? "ok" : "WRONG");
        if (c[i].pass)
            CHECK(x < CHI2_999_24, "%s: chi2 %.1f above %.2f", c[i].what, x, CHI2_999_24);
        else
            CHECK(x > CHI2_999_24, "%s: chi2 %.1f does not fail (no power)", c[i].what, x);
    }
    printf("%.1f s\n", test_now() - t0);
    free(t_nom);
    free(w);
    free(t_lo);
    free(t_hi);
    free(t_as);
    free(wa);
    free(t_as0);
    free(t_as1);
    if (failures) printf("%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
