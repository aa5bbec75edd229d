/* test_observables.c -- jet rates and event shapes against answers known by hand.
 *
 * Hand-built events with analytic results (back-to-back pair, Mercedes star, two planar
 * four-parton events whose clustering is worked out below), then properties of random events:
 * rotation invariance, thrust against a direction scan and against a brute-force enumeration
 * written here (covering both thrust algorithms of the code), and Durham and C against
 * straightforward reference implementations of doc/physics.md section 4.
 *
 * Exit status 0 if every check passes; each failure is printed.
 */
#include "gaps/observables.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

static int failures = 0;
static int checks = 0;

/* |got - want| <= rtol |want| + atol */
static void check_close(const char *what, double got, double want, double rtol, double atol)
{
    ++checks;
    if (!(fabs(got - want) <= rtol * fabs(want) + atol)) {
        ++failures;
        printf("FAIL %s: got %.17g, want %.17g (diff %.3g)\n", what, got, want, got - want);
    }
}

static void check_true(const char *what, int ok)
{
    ++checks;
    if (!ok) {
        ++failures;
        printf("FAIL %s\n", what);
    }
}

#define EXACT 1e-12  /* relative tolerance where the answer is exact */
#define ZERO 1e-12   /* absolute tolerance for exact zeros (observables are O(1) numbers) */
#define ZERO_ROUNDING 1e-15  /* the rounding noise of an exact zero */

/* The thrust axis is defined up to sign: compare |axis . want| with 1. */
static void check_axis(const char *what, const double axis[3], const double want[3])
{
    double lw = sqrt(want[0] * want[0] + want[1] * want[1] + want[2] * want[2]);
    double d = (axis[0] * want[0] + axis[1] * want[1] + axis[2] * want[2]) / lw;
    double la = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    check_close(what, fabs(d), 1.0, EXACT, 0.0);
    check_close(what, la, 1.0, EXACT, 0.0);
}

static int all_finite(const gaps_observables *o)
{
    double v[] = { o->y23, o->y34, o->y45, o->y56, o->tau, o->rho_H, o->rho_L, o->B_T,
                   o->B_W, o->B_N, o->C, o->thrust_axis[0], o->thrust_axis[1],
                   o->thrust_axis[2] };
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

static void set_massless(double p[4], double px, double py, double pz)
{
    p[0] = sqrt(px * px + py * py + pz * pz);
    p[1] = px;
    p[2] = py;
    p[3] = pz;
}

/* ------------------------------------------------------------------------------------------
 * Hand-built events
 * ------------------------------------------------------------------------------------------ */

/* Two partons back to back along a = (0.6, 0, 0.8): a pencil-like event, every shape 0,
 * T = 1, no three-jet rate. */
static void test_back_to_back(void)
{
    const double e = 45.6;
    double p[2][4] = { { e, 0.6 * e, 0.0, 0.8 * e }, { e, -0.6 * e, 0.0, -0.8 * e } };
    gaps_observables o;
    gaps_observables_compute(2, (const double(*)[4])p, &o);
    const double a[3] = { 0.6, 0.0, 0.8 };
    check_true("pair: n_partons == 2", o.n_partons == 2);
    check_close("pair: tau", o.tau, 0.0, 0.0, ZERO);
    check_close("pair: rho_H", o.rho_H, 0.0, 0.0, ZERO);
    check_close("pair: rho_L", o.rho_L, 0.0, 0.0, ZERO);
    check_close("pair: B_T", o.B_T, 0.0, 0.0, ZERO);
    check_close("pair: B_W", o.B_W, 0.0, 0.0, ZERO);
    check_close("pair: B_N", o.B_N, 0.0, 0.0, ZERO);
    check_close("pair: C", o.C, 0.0, 0.0, ZERO);
    check_true("pair: y's are 0", o.y23 == 0.0 && o.y34 == 0.0 && o.y45 == 0.0 && o.y56 == 0.0);
    check_axis("pair: axis along a", o.thrust_axis, a);

    double axis[3];
    check_close("pair: thrust()", gaps_observables_thrust(2, (const double(*)[4])p, axis), 1.0,
                EXACT, 0.0);
    check_axis("pair: thrust() axis", axis, a);
}

/* Mercedes star: three partons of energy E = sqrt(s)/3 at 120 degrees in the x-y plane.
 *   Thrust: |sum eps p| is largest for one parton against the other two, |2 p_k| = 2E, so
 *     T = 2E / 3E = 2/3 and n_T is along one of the partons (a three-fold tie).
 *   Heavy hemisphere: the two partons at 60 degrees from -n_T,
 *     M^2 = (2E)^2 - |p_1 + p_2|^2 = 4E^2 - E^2 = 3E^2, rho_H = 3E^2 / 9E^2 = 1/3;
 *     the light hemisphere is one massless parton, rho_L = 0.
 *   Broadening: |p x n_T| = E sin 60 = E sqrt(3)/2 for the two, 0 for the one along n_T;
 *     B_heavy = 2 E sqrt(3)/2 / (2 * 3E) = sqrt(3)/6 = B_T = B_W, B_N = 0.
 *   C: every pair has |p_i x p_j|^2 / (|p_i||p_j|) = E^2 sin^2 120 = 3E^2/4, so
 *     C = 3 * 3 * (3/4) E^2 / (3E)^2 = 3/4.
 *   Durham: every pair has y = 2 E^2 (1 - cos 120) / (3E)^2 = 2 * 1.5 / 9 = 1/3 = y23. */
static void fill_mercedes(double p[][4], double e)
{
    for (int k = 0; k < 3; ++k) {
        double phi = 2.0 * GAPS_PI * k / 3.0;
        set_massless(p[k], e * cos(phi), e * sin(phi), 0.0);
    }
}

static void check_mercedes(const char *label, const gaps_observables *o, const double p[][4],
                           int n_expected)
{
    char what[128];
#define M_CHECK(name, got, want, rtol, atol)                                                 \
    do {                                                                                     \
        snprintf(what, sizeof what, "%s: %s", label, name);                                  \
        check_close(what, got, want, rtol, atol);                                            \
    } while (0)
    snprintf(what, sizeof what, "%s: n_partons", label);
    check_true(what, o->n_partons == n_expected);
    M_CHECK("tau", o->tau, 1.0 / 3.0, EXACT, 0.0);
    M_CHECK("C", o->C, 0.75, EXACT, 0.0);
    M_CHECK("rho_H", o->rho_H, 1.0 / 3.0, EXACT, 0.0);
    M_CHECK("rho_L", o->rho_L, 0.0, 0.0, ZERO);
    M_CHECK("B_T", o->B_T, sqrt(3.0) / 6.0, EXACT, 0.0);
    M_CHECK("B_W", o->B_W, sqrt(3.0) / 6.0, EXACT, 0.0);
    M_CHECK("B_N", o->B_N, 0.0, 0.0, ZERO);
    M_CHECK("y23", o->y23, 1.0 / 3.0, EXACT, 0.0);
    M_CHECK("y45", o->y45, 0.0, 0.0, 0.0);
    M_CHECK("y56", o->y56, 0.0, 0.0, 0.0);
    double best = 0.0;
    for (int k = 0; k < 3; ++k) {
        double d = (o->thrust_axis[0] * p[k][1] + o->thrust_axis[1] * p[k][2] +
                    o->thrust_axis[2] * p[k][3]) / p[k][0];
        if (fabs(d) > best) best = fabs(d);
    }
    M_CHECK("axis along a parton", best, 1.0, EXACT, 0.0);
#undef M_CHECK
}

static void test_mercedes(void)
{
    double p[4][4];
    fill_mercedes(p, 91.2 / 3.0);
    gaps_observables o;
    gaps_observables_compute(3, (const double(*)[4])p, &o);
    check_mercedes("mercedes", &o, (const double(*)[4])p, 3);
    check_close("mercedes: y34", o.y34, 0.0, 0.0, 0.0);

    double axis[3];
    check_close("mercedes: thrust()", gaps_observables_thrust(3, (const double(*)[4])p, axis),
                2.0 / 3.0, EXACT, 0.0);

    /* A fourth parton with zero four-momentum changes nothing but the multiplicity; it is
     * clustered first at zero cost, so y34 = 0 and y23 stays 1/3. */
    p[3][0] = p[3][1] = p[3][2] = p[3][3] = 0.0;
    gaps_observables_compute(4, (const double(*)[4])p, &o);
    check_mercedes("mercedes + null parton", &o, (const double(*)[4])p, 4);
    check_close("mercedes + null parton: y34", o.y34, 0.0, 0.0, 0.0);
    check_true("mercedes + null parton: finite", all_finite(&o));
}

/* Planar event A in the x-y plane (units of GeV, all lengths integer):
 *   p1 = (24, 7)    E = 25      p2 = (-12, -16)  E = 20
 *   p3 = (-12, 5)   E = 13      p4 = (0, 4)      E = 4       sum p = 0, E_vis = 62, s = 3844.
 * Every p_k lies in one plane, so p_k . (p_i x p_j) = 0 and the pair-cross-product algorithm
 * has nothing to go on; thrust must come from the split itself.
 *   Thrust: with sum p = 0, |sum eps p| = 2 |sum over one side|.  Sides and |sum|:
 *     {1}: 25, {2}: 20, {3}: 13, {4}: 4, {1,2} = (12,-9): 15, {1,3} = (12,12): 12 sqrt 2 = 16.97,
 *     {1,4} = (24,11): sqrt 697 = 26.40 (largest).  T = 2 sqrt(697) / 62 = sqrt(697)/31,
 *     n_T = (24, 11, 0)/sqrt(697).
 *   Hemispheres: p.n_T sqrt(697) = 653, -464, -233, 44: {1,4} against {2,3}.
 *     {1,4}: E = 29, |p| = sqrt 697: M^2 = 841 - 697 = 144;
 *     {2,3}: E = 33, p = -(24,11):    M^2 = 1089 - 697 = 392.
 *     rho_H = 392/3844, rho_L = 144/3844.
 *   Broadening: |p x n_T| sqrt(697) = |11 p_x - 24 p_y| = 96, 252, 252, 96.
 *     B_{14} = 192 / (124 sqrt 697), B_{23} = 504 / (124 sqrt 697); B_T = 696 / (124 sqrt 697).
 *   C = 3 sum_{i<j} (p_i x p_j)_z^2 / (E_i E_j) / 62^2 with (p_i x p_j)_z =
 *     12: -300, 13: 204, 14: 96, 23: -252, 24: -48, 34: -48.
 *   Durham, s y_ij = 2 min(E)^2 (1 - cos):
 *     12: min 20, cos -400/500 -> 2*400*9/5 = 1440       13: min 13, cos -253/325 -> 601.12
 *     14: min 4,  cos 28/100   -> 2*16*18/25 = 23.04     23: min 13, cos 64/260   -> 254.8
 *     24: min 4,  cos -64/80   -> 2*16*9/5 = 57.6        34: min 4,  cos 20/52    -> 19.69
 *     y34 = 2*16*(8/13)/3844 = 64/12493; merge 3+4 -> E = 17, p = (-12, 9), |p| = 15.
 *     Three clusters 1 (25; (24,7)), 2 (20; (-12,-16)), 34 (17; (-12,9)):
 *     1-2: 1440,  1-34: min 17, cos -225/375 -> 2*289*8/5 = 924.8,  2-34: cos 0 -> 2*289 = 578.
 *     y23 = 578/3844 = 289/1922. */
static void test_planar_a(void)
{
    double p[4][4] = { { 25, 24, 7, 0 }, { 20, -12, -16, 0 }, { 13, -12, 5, 0 }, { 4, 0, 4, 0 } };
    gaps_observables o;
    gaps_observables_compute(4, (const double(*)[4])p, &o);
    double r697 = sqrt(697.0);
    double c_sum = 300.0 * 300.0 / (25 * 20) + 204.0 * 204.0 / (25 * 13) + 96.0 * 96.0 / (25 * 4) +
                   252.0 * 252.0 / (20 * 13) + 48.0 * 48.0 / (20 * 4) + 48.0 * 48.0 / (13 * 4);
    const double n_t[3] = { 24.0, 11.0, 0.0 };
    check_true("planar A: n_partons", o.n_partons == 4);
    check_close("planar A: tau", o.tau, 1.0 - r697 / 31.0, EXACT, 0.0);
    check_axis("planar A: thrust axis", o.thrust_axis, n_t);
    check_close("planar A: rho_H", o.rho_H, 392.0 / 3844.0, EXACT, 0.0);
    check_close("planar A: rho_L", o.rho_L, 144.0 / 3844.0, EXACT, 0.0);
    check_close("planar A: B_T", o.B_T, 696.0 / (124.0 * r697), EXACT, 0.0);
    check_close("planar A: B_W", o.B_W, 504.0 / (124.0 * r697), EXACT, 0.0);
    check_close("planar A: B_N", o.B_N, 192.0 / (124.0 * r697), EXACT, 0.0);
    check_close("planar A: C", o.C, 3.0 * c_sum / 3844.0, EXACT, 0.0);
    check_close("planar A: C (exact fraction)", o.C, 174906.0 / 312325.0, EXACT, 0.0);
    check_close("planar A: y23", o.y23, 289.0 / 1922.0, EXACT, 0.0);
    check_close("planar A: y34", o.y34, 64.0 / 12493.0, EXACT, 0.0);
    check_true("planar A: y45 = y56 = 0", o.y45 == 0.0 && o.y56 == 0.0);

    double y[4];
    gaps_observables_durham(4, (const double(*)[4])p, y);
    check_close("planar A: durham() y23", y[0], 289.0 / 1922.0, EXACT, 0.0);
    check_close("planar A: durham() y34", y[1], 64.0 / 12493.0, EXACT, 0.0);
}

/* Planar event B, placed in the y-z plane to exercise other components (p = (E, 0, a, b)):
 *   p1 = (24, -7)  E = 25     p2 = (-12, -9)  E = 15
 *   p3 = (-12, 5)  E = 13     p4 = (0, 11)    E = 11      sum p = 0, E_vis = 64, s = 4096.
 *   Thrust: sides {1}: 25 (largest; {1,2} = (12,-16): 20, {1,3} = (12,-2): 12.2,
 *     {1,4} = (24,4): 24.3), so T = 2*25/64 = 25/32 and n_T = (24,-7)/25.
 *   Hemispheres: {1} alone (massless, rho_L = 0) against {2,3,4}: E = 39, p = (-24, 7),
 *     M^2 = 1521 - 625 = 896, rho_H = 896/4096 = 7/32.
 *   Broadening: |p x n_T| * 25 = |-7 a - 24 b| = 0, 300, 36, 264: B_{234} = 24 / 128 = 3/16,
 *     so B_T = B_W = 3/16, B_N = 0.
 *   C: (p_i x p_j) = 12: -300, 13: 36, 14: 264, 23: -168, 24: -132, 34: -132;
 *     3 sum / 64^2 = 207/325.
 *   Durham, s y_ij = 2 min(E)^2 (1 - cos):
 *     12: min 15, cos -225/375 -> 720          13: min 13, cos -323/325 -> 673.92
 *     14: min 11, cos -77/275  -> 309.76       23: min 13, cos 99/195   -> 166.4
 *     24: min 11, cos -99/165  -> 387.2        34: min 11, cos 55/143   -> 2*121*8/13 = 148.9
 *     so y34 = 1936/13/4096 = 121/3328;
 *     merge -> E = 24, p = (-12, 16), |p| = 20.  Clusters 1 (25), 2 (15), 34 (24):
 *     1-2: min 15, cos -225/375 -> 720;  1-34: min 24, cos -400/500 -> 2073.6;
 *     2-34: min 15, cos 0 -> 450.  y23 = 450/4096 = 225/2048. */
static void test_planar_b(void)
{
    double p[4][4] = { { 25, 0, 24, -7 }, { 15, 0, -12, -9 }, { 13, 0, -12, 5 }, { 11, 0, 0, 11 } };
    gaps_observables o;
    gaps_observables_compute(4, (const double(*)[4])p, &o);
    double c_sum = 300.0 * 300.0 / (25 * 15) + 36.0 * 36.0 / (25 * 13) +
                   264.0 * 264.0 / (25 * 11) + 168.0 * 168.0 / (15 * 13) +
                   132.0 * 132.0 / (15 * 11) + 132.0 * 132.0 / (13 * 11);
    const double n_t[3] = { 0.0, 24.0, -7.0 };
    check_close("planar B: tau", o.tau, 7.0 / 32.0, EXACT, 0.0);
    check_axis("planar B: thrust axis", o.thrust_axis, n_t);
    check_close("planar B: rho_H", o.rho_H, 7.0 / 32.0, EXACT, 0.0);
    check_close("planar B: rho_L", o.rho_L, 0.0, 0.0, ZERO);
    check_close("planar B: B_T", o.B_T, 3.0 / 16.0, EXACT, 0.0);
    check_close("planar B: B_W", o.B_W, 3.0 / 16.0, EXACT, 0.0);
    check_close("planar B: B_N", o.B_N, 0.0, 0.0, ZERO);
    check_close("planar B: C", o.C, 3.0 * c_sum / 4096.0, EXACT, 0.0);
    check_close("planar B: C (exact fraction)", o.C, 207.0 / 325.0, EXACT, 0.0);
    check_close("planar B: y23", o.y23, 225.0 / 2048.0, EXACT, 0.0);
    check_close("planar B: y34", o.y34, 121.0 / 3328.0, EXACT, 0.0);
}

/* Degenerate input must give finite numbers: no partons, one parton, a parton without
 * 3-momentum but with energy, two identical (collinear) partons. */
static void test_degenerate(void)
{
    double p[4][4] = { { 0 } };
    gaps_observables o;
    gaps_observables_compute(0, (const double(*)[4])p, &o);
    check_true("n=0: finite", all_finite(&o));
    check_true("n=0: tau 0, n 0", o.tau == 0.0 && o.n_partons == 0);

    set_massless(p[0], 1.0, 2.0, 2.0);
    gaps_observables_compute(1, (const double(*)[4])p, &o);
    check_true("n=1: finite", all_finite(&o));
    check_close("n=1: tau", o.tau, 0.0, 0.0, 0.0);
    const double a1[3] = { 1.0, 2.0, 2.0 };
    check_axis("n=1: axis", o.thrust_axis, a1);

    /* A massive cluster at rest between two back-to-back partons. */
    set_massless(p[0], 0.0, 0.0, 10.0);
    set_massless(p[1], 0.0, 0.0, -10.0);
    p[2][0] = 5.0;
    p[2][1] = p[2][2] = p[2][3] = 0.0;
    gaps_observables_compute(3, (const double(*)[4])p, &o);
    check_true("rest parton: finite", all_finite(&o));
    check_close("rest parton: tau", o.tau, 0.0, 0.0, ZERO);
    /* 1 - cos is taken as 1 against the cluster at rest: y = 2 * 25 / 625 = 0.08 */
    check_close("rest parton: y23", o.y23, 2.0 * 25.0 / 625.0, EXACT, 0.0);

    /* Two identical partons against one: a two-jet event in disguise. */
    set_massless(p[0], 3.0, 0.0, 4.0);
    set_massless(p[1], 3.0, 0.0, 4.0);
    set_massless(p[2], -6.0, 0.0, -8.0);
    gaps_observables_compute(3, (const double(*)[4])p, &o);
    check_true("collinear: finite", all_finite(&o));
    check_close("collinear: tau", o.tau, 0.0, 0.0, ZERO);
    check_close("collinear: y23", o.y23, 0.0, 0.0, ZERO);
    check_close("collinear: C", o.C, 0.0, 0.0, ZERO);
    check_close("collinear: rho_H", o.rho_H, 0.0, 0.0, ZERO);
}

/* ------------------------------------------------------------------------------------------
 * Random events
 * ------------------------------------------------------------------------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double uniform(void)  /* xorshift64*, (0,1) */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 0x2545F4914F6CDD1Dull;
    return ((double)(r >> 11) + 0.5) * 0x1.0p-53;
}

/* n massless partons with sum p = 0: n-1 isotropic momenta with exponential-ish magnitudes,
 * the last one balancing. */
static void random_event(int n, double p[][4])
{
    double sum[3] = { 0.0, 0.0, 0.0 };
    for (int k = 0; k < n - 1; ++k) {
        double c = 2.0 * uniform() - 1.0, phi = 2.0 * GAPS_PI * uniform();
        double s = sqrt(1.0 - c * c), mag = -10.0 * log(uniform());
        set_massless(p[k], mag * s * cos(phi), mag * s * sin(phi), mag * c);
        for (int a = 0; a < 3; ++a) sum[a] += p[k][a + 1];
    }
    set_massless(p[n - 1], -sum[0], -sum[1], -sum[2]);
}

/* A random event confined to the x-y plane (exact zeros, every triple product exactly 0)
 * or, if !in_xy, to the plane spanned by two random unit vectors (planar up to rounding). */
static void random_planar_event(int n, double p[][4], int in_xy)
{
    double u[3], v[3];
    for (int a = 0; a < 3; ++a) u[a] = uniform() - 0.5;
    double lu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int a = 0; a < 3; ++a) u[a] /= lu;
    for (int a = 0; a < 3; ++a) v[a] = uniform() - 0.5;
    double d = v[0] * u[0] + v[1] * u[1] + v[2] * u[2];
    for (int a = 0; a < 3; ++a) v[a] -= d * u[a];
    double lv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int a = 0; a < 3; ++a) v[a] /= lv;
    if (in_xy) {
        u[0] = v[1] = 1.0;
        u[1] = u[2] = v[0] = v[2] = 0.0;
    }
    double sa = 0.0, sb = 0.0;
    for (int k = 0; k < n; ++k) {
        double a, b;
        if (k < n - 1) {
            double phi = 2.0 * GAPS_PI * uniform(), mag = -10.0 * log(uniform());
            a = mag * cos(phi);
            b = mag * sin(phi);
            sa += a;
            sb += b;
        } else {
            a = -sa;
            b = -sb;
        }
        set_massless(p[k], a * u[0] + b * v[0], a * u[1] + b * v[1], a * u[2] + b * v[2]);
    }
}

static void random_rotation(double r[3][3])
{
    double q[4], l = 0.0;
    for (int a = 0; a < 4; ++a) {
        q[a] = 2.0 * uniform() - 1.0;
        l += q[a] * q[a];
    }
    l = sqrt(l);
    double w = q[0] / l, x = q[1] / l, y = q[2] / l, z = q[3] / l;
    r[0][0] = 1 - 2 * (y * y + z * z); r[0][1] = 2 * (x * y - z * w); r[0][2] = 2 * (x * z + y * w);
    r[1][0] = 2 * (x * y + z * w); r[1][1] = 1 - 2 * (x * x + z * z); r[1][2] = 2 * (y * z - x * w);
    r[2][0] = 2 * (x * z - y * w); r[2][1] = 2 * (y * z + x * w); r[2][2] = 1 - 2 * (x * x + y * y);
}

/* Rotating a non-planar six-parton event changes no observable; the thrust axis rotates. */
static void test_rotation_invariance(void)
{
    for (int trial = 0; trial < 200; ++trial) {
        double p[6][4], q[6][4], r[3][3];
        random_event(6, p);
        random_rotation(r);
        for (int k = 0; k < 6; ++k) {
            q[k][0] = p[k][0];
            for (int a = 0; a < 3; ++a)
                q[k][a + 1] = r[a][0] * p[k][1] + r[a][1] * p[k][2] + r[a][2] * p[k][3];
        }
        gaps_observables o1, o2;
        gaps_observables_compute(6, (const double(*)[4])p, &o1);
        gaps_observables_compute(6, (const double(*)[4])q, &o2);
        /* Relative 1e-12; the absolute floor covers quantities that vanish exactly (a lone
         * parton in a hemisphere gives rho_L = B_N = 0) and come out as +-1e-17 noise. */
        const double tol = 1e-12;
        check_close("rotation: y23", o2.y23, o1.y23, tol, ZERO_ROUNDING);
        check_close("rotation: y34", o2.y34, o1.y34, tol, ZERO_ROUNDING);
        check_close("rotation: y45", o2.y45, o1.y45, tol, ZERO_ROUNDING);
        check_close("rotation: y56", o2.y56, o1.y56, tol, ZERO_ROUNDING);
        check_close("rotation: tau", o2.tau, o1.tau, tol, ZERO_ROUNDING);
        check_close("rotation: rho_H", o2.rho_H, o1.rho_H, tol, ZERO_ROUNDING);
        check_close("rotation: rho_L", o2.rho_L, o1.rho_L, tol, ZERO_ROUNDING);
        check_close("rotation: B_T", o2.B_T, o1.B_T, tol, ZERO_ROUNDING);
        check_close("rotation: B_W", o2.B_W, o1.B_W, tol, ZERO_ROUNDING);
        check_close("rotation: B_N", o2.B_N, o1.B_N, tol, ZERO_ROUNDING);
        check_close("rotation: C", o2.C, o1.C, tol, ZERO_ROUNDING);
        double ra[3];
        for (int a = 0; a < 3; ++a)
            ra[a] = r[a][0] * o1.thrust_axis[0] + r[a][1] * o1.thrust_axis[1] +
                    r[a][2] * o1.thrust_axis[2];
        check_axis("rotation: axis", o2.thrust_axis, ra);
        if (failures) return;
    }
}

/* Brute force over all 2^(n-1) splits, written independently of the code under test. */
static double thrust_brute(int n, const double p[][4])
{
    double P = 0.0, best = 0.0;
    for (int k = 0; k < n; ++k) P += sqrt(p[k][1] * p[k][1] + p[k][2] * p[k][2] + p[k][3] * p[k][3]);
    for (unsigned long m = 0; m < (1ul << (n - 1)); ++m) {
        double s[3] = { 0.0, 0.0, 0.0 };
        for (int k = 0; k < n; ++k) {
            double e = (k > 0 && ((m >> (k - 1)) & 1ul)) ? -1.0 : 1.0;
            for (int a = 0; a < 3; ++a) s[a] += e * p[k][a + 1];
        }
        double l = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        if (l > best) best = l;
    }
    return best / P;
}

static double thrust_along(int n, const double p[][4], const double axis[3])
{
    double P = 0.0, s = 0.0;
    for (int k = 0; k < n; ++k) {
        P += sqrt(p[k][1] * p[k][1] + p[k][2] * p[k][2] + p[k][3] * p[k][3]);
        s += fabs(p[k][1] * axis[0] + p[k][2] * axis[1] + p[k][3] * axis[2]);
    }
    return s / P;
}

/* Scan of 40000 nearly uniform directions (Fibonacci sphere): the scan can never beat the
 * exact thrust, and its best must come within 1e-3; the returned axis must achieve T. */
static void test_thrust_scan(void)
{
    const int n_dir = 40000;
    for (int trial = 0; trial < 120; ++trial) {
        int n = 3 + trial % 10;  /* 3..12, the enumerated range */
        double p[12][4];
        if (trial % 3 == 0)
            random_planar_event(n, p, trial % 2);
        else
            random_event(n, p);
        double axis[3];
        double t = gaps_observables_thrust(n, (const double(*)[4])p, axis);
        double scan = 0.0;
        for (int i = 0; i < n_dir; ++i) {
            double z = 1.0 - (2.0 * i + 1.0) / n_dir, rho = sqrt(1.0 - z * z);
            double phi = i * GAPS_PI * (3.0 - sqrt(5.0));
            double d[3] = { rho * cos(phi), rho * sin(phi), z };
            double v = thrust_along(n, (const double(*)[4])p, d);
            if (v > scan) scan = v;
        }
        check_true("scan never exceeds exact thrust", scan <= t * (1.0 + 1e-12));
        check_true("scan reaches exact thrust within 1e-3", t - scan < 1e-3);
        check_close("axis achieves T", thrust_along(n, (const double(*)[4])p, axis), t, EXACT, 0.0);
        check_close("thrust vs brute force (enumerated range)", t,
                    thrust_brute(n, (const double(*)[4])p), EXACT, 0.0);
        if (failures) return;
    }
}

/* Above the enumeration bound the code switches to the pair algorithm; on non-planar events
 * it must agree with brute force. */
static void test_thrust_large_n(void)
{
    for (int trial = 0; trial < 24; ++trial) {
        int n = 13 + trial % 8;  /* 13..20 */
        double p[20][4];
        random_event(n, p);
        double axis[3];
        double t = gaps_observables_thrust(n, (const double(*)[4])p, axis);
        check_close("thrust vs brute force (pair algorithm)", t,
                    thrust_brute(n, (const double(*)[4])p), EXACT, 0.0);
        check_close("pair algorithm: axis achieves T", thrust_along(n, (const double(*)[4])p, axis),
                    t, EXACT, 0.0);
        if (failures) return;
    }
}

/* Durham written straight from doc/physics.md: 1 - cos from the dot product, O(n^3). */
static void durham_reference(int n, const double p[][4], double y[4])
{
    double c[20][4], s = 0.0;
    for (int k = 0; k < n; ++k) {
        for (int a = 0; a < 4; ++a) c[k][a] = p[k][a];
        s += p[k][0];
    }
    s *= s;
    y[0] = y[1] = y[2] = y[3] = 0.0;
    for (int m = n; m > 2; --m) {
        double best = 1e300;
        int bi = -1, bj = -1;
        for (int i = 0; i < m; ++i)
            for (int j = i + 1; j < m; ++j) {
                double li = sqrt(c[i][1] * c[i][1] + c[i][2] * c[i][2] + c[i][3] * c[i][3]);
                double lj = sqrt(c[j][1] * c[j][1] + c[j][2] * c[j][2] + c[j][3] * c[j][3]);
                double dot = c[i][1] * c[j][1] + c[i][2] * c[j][2] + c[i][3] * c[j][3];
                double e = fmin(c[i][0], c[j][0]);
                double v = 2.0 * e * e * (li * lj - dot) / (li * lj) / s;
                if (v < best) {
                    best = v;
                    bi = i;
                    bj = j;
                }
            }
        if (m <= 6) y[m - 3] = best;
        for (int a = 0; a < 4; ++a) {
            c[bi][a] += c[bj][a];
            c[bj][a] = c[m - 1][a];
        }
    }
}

/* Durham, C and the hemisphere quantities against reference implementations on random
 * events; the hemispheres are rebuilt here from the returned axis. */
static void test_random_references(void)
{
    for (int trial = 0; trial < 400; ++trial) {
        int n = 3 + trial % 16;  /* 3..18 */
        double p[20][4];
        random_event(n, p);
        gaps_observables o;
        gaps_observables_compute(n, (const double(*)[4])p, &o);
        double y[4];
        durham_reference(n, (const double(*)[4])p, y);
        /* The reference's 1 - cos loses digits at small angles. */
        check_close("durham vs reference: y23", o.y23, y[0], 1e-9, 0.0);
        check_close("durham vs reference: y34", o.y34, y[1], 1e-9, 0.0);
        check_close("durham vs reference: y45", o.y45, y[2], 1e-9, 0.0);
        check_close("durham vs reference: y56", o.y56, y[3], 1e-9, 0.0);

        double P = 0.0, E = 0.0, sum = 0.0;
        for (int k = 0; k < n; ++k) {
            P += sqrt(p[k][1] * p[k][1] + p[k][2] * p[k][2] + p[k][3] * p[k][3]);
            E += p[k][0];
        }
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double dot = p[i][1] * p[j][1] + p[i][2] * p[j][2] + p[i][3] * p[j][3];
                sum += dot * dot / (p[i][0] * p[j][0]);
            }
        check_close("C vs definition", o.C, 1.5 * (1.0 - sum / (P * P)), 1e-12, 1e-14);

        double h[2][4] = { { 0 } }, b[2] = { 0.0, 0.0 };
        const double *nt = o.thrust_axis;
        for (int k = 0; k < n; ++k) {
            int side = p[k][1] * nt[0] + p[k][2] * nt[1] + p[k][3] * nt[2] >= 0.0 ? 0 : 1;
            for (int a = 0; a < 4; ++a) h[side][a] += p[k][a];
            double pl = p[k][1] * nt[0] + p[k][2] * nt[1] + p[k][3] * nt[2];
            double t[3];  /* the component of p transverse to n_T */
            for (int a = 0; a < 3; ++a) t[a] = p[k][a + 1] - pl * nt[a];
            b[side] += sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        }
        double m0 = h[0][0] * h[0][0] - h[0][1] * h[0][1] - h[0][2] * h[0][2] - h[0][3] * h[0][3];
        double m1 = h[1][0] * h[1][0] - h[1][1] * h[1][1] - h[1][2] * h[1][2] - h[1][3] * h[1][3];
        check_close("rho_H vs definition", o.rho_H, fmax(m0, m1) / (E * E), 1e-10, 1e-14);
        check_close("rho_L vs definition", o.rho_L, fmax(0.0, fmin(m0, m1)) / (E * E), 1e-10, 1e-14);
        check_close("B_T vs definition", o.B_T, (b[0] + b[1]) / (2.0 * P), 1e-10, 1e-14);
        check_close("B_W vs definition", o.B_W, fmax(b[0], b[1]) / (2.0 * P), 1e-10, 1e-14);
        check_close("B_N vs definition", o.B_N, fmin(b[0], b[1]) / (2.0 * P), 1e-10, 1e-14);
        check_close("tau vs brute force", o.tau, 1.0 - thrust_brute(n, (const double(*)[4])p),
                    1e-12, 1e-14);
        check_true("n_partons", o.n_partons == n);
        if (failures) return;
    }
}

int main(void)
{
    test_back_to_back();
    test_mercedes();
    test_planar_a();
    test_planar_b();
    test_degenerate();
    test_rotation_invariance();
    test_thrust_scan();
    test_thrust_large_n();
    test_random_references();
    if (failures) {
        printf("test_observables: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    printf("test_observables: all %d checks passed\n", checks);
    return 0;
}
