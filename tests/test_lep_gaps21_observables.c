/* test_lep_gaps21_observables.c -- GAPS 2.1's LEP analysis (gaps_lep_gaps21_row(),
 * src/analysis/lep_gaps21.c; GAPS 2.1 specification section 7.2) on hand-made events whose
 * answers are worked out below, its histogram table against the specification's, and the
 * choice of the analysis from (process, compat).
 *
 * Events (massless partons, rest frame, sqrt(s) = Q):
 *   - 2 partons: every value -50;
 *   - Mercedes star (3 partons of Q/3 at 120 degrees): y_ij = 1/3, T = 2/3, the two-parton
 *     hemisphere's M^2 = Q^2/3, ljm and njb -50 (one-parton hemisphere);
 *   - a general 3-parton event of energy fractions x_i = 2E_i/Q: T = max x_i,
 *     y_ij = min(E_i,E_j)/max(E_i,E_j) (1 - x_k) with s from the beams, M_H^2 = Q^2 (1 - x_1);
 *   - 4 partons, two planar pairs of opening half-angles a and b about the z axis (2 + 2):
 *     T = (2E_a cos a + 2E_b cos b)/Q, hemisphere masses and broadenings of each pair, y34 and
 *     y23 the two pairs' y (the smaller first), ljm and njb filled;
 *   - 4 partons, one hard parton against a symmetric three-parton hemisphere (1 + 3): ljm and
 *     njb -50, hjm and wjb known;
 *   - 3 collinear-ish partons with T = 1: 1 - T = 0 < 1e-12 is written -5;
 *   - random 5- and 7-parton events: 1 - T against a brute-force enumeration of all sign
 *     patterns (the thrust is max over signs of |sum eps_i p_i| / sum |p_i|), hjm >= ljm,
 *     wjb >= njb, y56 only from 6 partons on.
 * Each comparison also runs the LEP analysis of gaps/analysis_lep.h where it differs (jet mass
 * M/E_vis against rho = M^2/E_vis^2, the one-parton hemisphere) as a check that the test
 * can tell the conventions apart.
 * Exit status 0 if every check passes; each failure is printed.
 */
#include "gaps/analysis.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/process.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int failures = 0, checks = 0;

static void check_close(const char *what, double got, double want, double tol)
{
    ++checks;
    if (!(fabs(got - want) <= tol * (fabs(want) > 1.0 ? fabs(want) : 1.0))) {
        ++failures;
        printf("FAIL %s: got %.17g, want %.17g\n", what, got, want);
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

#define TOL 1e-12
#define MISSING GAPS_OBS_MISSING

static const double Q = 91.2;

/* the GAPS 2.1 row of n outgoing partons p (no incoming ones, as in e+ e-) */
static void row_of(int n, const double p[][4], double *row)
{
    int flav[GAPS_MAX_PARTONS];
    for (int i = 0; i < n; ++i) flav[i] = i == 0 ? 1 : i == 1 ? -1 : GAPS_GLUON;
    gaps_analysis_row(row, GAPS_ANALYSIS_LEP_GAPS21, 1, 1.0, 0, n, p, flav);
}

static void lep_row_of(int n, const double p[][4], double *row)
{
    int flav[GAPS_MAX_PARTONS];
    for (int i = 0; i < n; ++i) flav[i] = i == 0 ? 1 : i == 1 ? -1 : GAPS_GLUON;
    gaps_analysis_row(row, GAPS_ANALYSIS_LEP, 1, 1.0, 0, n, p, flav);
}

static void set(double p[4], double e, double x, double y, double z)
{
    p[0] = e;
    p[1] = x;
    p[2] = y;
    p[3] = z;
}

/* (E, E sin(th) cos(ph), E sin(th) sin(ph), E cos(th)) */
static void set_angles(double p[4], double e, double th, double ph)
{
    set(p, e, e * sin(th) * cos(ph), e * sin(th) * sin(ph), e * cos(th));
}

static void test_two_partons(void)
{
    double p[2][4], row[GAPS_OBS_MAX_COLUMNS];
    set_angles(p[0], Q / 2, 0.7, 0.3);
    set_angles(p[1], Q / 2, M_PI - 0.7, 0.3 + M_PI);
    row_of(2, (const double(*)[4])p, row);
    for (int c = GAPS_LEP_GAPS21_LOG10Y23; c <= GAPS_LEP_GAPS21_NJB; ++c)
        check_true("2 partons: every value -50", row[c] == MISSING);
    check_true("2 partons: n_partons", row[GAPS_OBS_NPARTONS] == 2.0);
}

static void test_mercedes(void)
{
    double p[3][4], row[GAPS_OBS_MAX_COLUMNS], lep[GAPS_OBS_MAX_COLUMNS];
    for (int i = 0; i < 3; ++i) set_angles(p[i], Q / 3, M_PI / 2, 2.0 * M_PI * i / 3.0 + 0.1);
    row_of(3, (const double(*)[4])p, row);
    check_close("Mercedes log10y23", row[GAPS_LEP_GAPS21_LOG10Y23], log10(1.0 / 3.0), TOL);
    check_true("Mercedes y34..y56 -50", row[GAPS_LEP_GAPS21_LOG10Y34] == MISSING
                                            && row[GAPS_LEP_GAPS21_LOG10Y45] == MISSING
                                            && row[GAPS_LEP_GAPS21_LOG10Y56] == MISSING);
    check_close("Mercedes 1 - T", row[GAPS_LEP_GAPS21_TVALUE], 1.0 / 3.0, TOL);
    check_close("Mercedes hjm = sqrt(1/3)", row[GAPS_LEP_GAPS21_HJM], sqrt(1.0 / 3.0), TOL);
    check_close("Mercedes wjb = sqrt(3)/6", row[GAPS_LEP_GAPS21_WJB], sqrt(3.0) / 6.0, TOL);
    check_true("Mercedes ljm -50 (one-parton hemisphere)", row[GAPS_LEP_GAPS21_LJM] == MISSING);
    check_true("Mercedes njb -50 (one-parton hemisphere)", row[GAPS_LEP_GAPS21_NJB] == MISSING);
    /* the LEP analysis: rho_H = M^2/E_vis^2 = 1/3, not its square root; rho_L filled */
    lep_row_of(3, (const double(*)[4])p, lep);
    check_close("Mercedes LEP analysis rho_H = 1/3", lep[GAPS_LEP_RHO_H], 1.0 / 3.0, 1e-12);
    check_true("conventions differ: hjm != rho_H",
               fabs(row[GAPS_LEP_GAPS21_HJM] - lep[GAPS_LEP_RHO_H]) > 0.2);
    check_true("conventions differ: rho_L filled", lep[GAPS_LEP_RHO_L] >= 0.0);
}

/* A planar 3-parton event with energy fractions x[0..2] (sum 2): parton 0 along z, the
 * angles from s_ij = Q^2 (1 - x_k). */
static void three_partons(const double x[3], double p[3][4])
{
    const double e0 = x[0] * Q / 2, e1 = x[1] * Q / 2, e2 = x[2] * Q / 2;
    /* angle between 0 and 1: s_01 = 2 e0 e1 (1 - cos) = Q^2 (1 - x2) */
    const double c01 = 1.0 - Q * Q * (1.0 - x[2]) / (2.0 * e0 * e1);
    set(p[0], e0, 0.0, 0.0, e0);
    set(p[1], e1, e1 * sqrt(1.0 - c01 * c01), 0.0, e1 * c01);
    set(p[2], e2, -p[1][1], 0.0, -e0 - p[1][3]);
}

static void test_three_partons(void)
{
    const double x[3] = { 0.9, 0.7, 0.4 };
    double p[3][4], row[GAPS_OBS_MAX_COLUMNS];
    three_partons(x, p);
    /* the input is massless to rounding */
    check_close("3 partons: parton 2 massless", p[2][0] * p[2][0] - p[2][1] * p[2][1]
                - p[2][3] * p[2][3], 0.0, 1e-10);
    row_of(3, (const double(*)[4])p, row);
    double ymin = HUGE_VAL;
    for (int i = 0; i < 3; ++i) {
        for (int j = i + 1; j < 3; ++j) {
            const int k = 3 - i - j;
            const double lo = x[i] < x[j] ? x[i] : x[j], hi = x[i] < x[j] ? x[j] : x[i];
            const double y = lo / hi * (1.0 - x[k]);
            if (y < ymin) ymin = y;
        }
    }
    check_close("3 partons log10y23", row[GAPS_LEP_GAPS21_LOG10Y23], log10(ymin), 1e-11);
    check_close("3 partons 1 - T = 1 - x_max", row[GAPS_LEP_GAPS21_TVALUE], 0.1, 1e-12);
    check_close("3 partons hjm = sqrt(1 - x_1)", row[GAPS_LEP_GAPS21_HJM], sqrt(0.1), 1e-12);
    check_true("3 partons ljm, njb -50", row[GAPS_LEP_GAPS21_LJM] == MISSING
                                             && row[GAPS_LEP_GAPS21_NJB] == MISSING);

    /* s is the beams' (the invariant mass of the final state), not E_vis^2: boosted along z
     * (E_vis = gamma Q), y23 is still normalised to Q^2 */
    const double beta = 0.6, g = 1.0 / sqrt(1.0 - beta * beta);
    double b[3][4];
    double evis = 0.0;
    for (int i = 0; i < 3; ++i) {
        set(b[i], g * (p[i][0] + beta * p[i][3]), p[i][1], p[i][2],
            g * (p[i][3] + beta * p[i][0]));
        evis += b[i][0];
    }
    double rb[GAPS_OBS_MAX_COLUMNS];
    row_of(3, (const double(*)[4])b, rb);
    /* recompute y23 of the boosted event by hand with s = Q^2 */
    double yb = HUGE_VAL;
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j) {
            const double li = sqrt(b[i][1] * b[i][1] + b[i][2] * b[i][2] + b[i][3] * b[i][3]);
            const double lj = sqrt(b[j][1] * b[j][1] + b[j][2] * b[j][2] + b[j][3] * b[j][3]);
            const double c = (b[i][1] * b[j][1] + b[i][2] * b[j][2] + b[i][3] * b[j][3]) / (li * lj);
            const double e = b[i][0] < b[j][0] ? b[i][0] : b[j][0];
            const double y = 2.0 * e * e * (1.0 - c) / (Q * Q);
            if (y < yb) yb = y;
        }
    check_close("boosted 3 partons: y23 normalised to s = Q^2", rb[GAPS_LEP_GAPS21_LOG10Y23],
                log10(yb), 1e-11);
    check_true("boosted: s != E_vis^2 (the test can tell)",
               fabs(log10(yb * Q * Q / (evis * evis)) - log10(yb)) > 0.1);
}

/* 2 + 2: the pair (0, 1) of energy ea at half-angle a about +z in the x-z plane, the pair
 * (2, 3) of energy eb at half-angle b about -z in the y-z plane. */
static void test_two_plus_two(void)
{
    const double a = 0.3, bb = 0.5;
    const double ea = Q / 2 * cos(bb) / (cos(a) + cos(bb)), eb = Q / 2 * cos(a) / (cos(a) + cos(bb));
    double p[4][4], row[GAPS_OBS_MAX_COLUMNS], lep[GAPS_OBS_MAX_COLUMNS];
    set(p[0], ea, ea * sin(a), 0.0, ea * cos(a));
    set(p[1], ea, -ea * sin(a), 0.0, ea * cos(a));
    set(p[2], eb, 0.0, eb * sin(bb), -eb * cos(bb));
    set(p[3], eb, 0.0, -eb * sin(bb), -eb * cos(bb));
    row_of(4, (const double(*)[4])p, row);
    const double t = (2.0 * ea * cos(a) + 2.0 * eb * cos(bb)) / Q;
    check_close("2+2: 1 - T", row[GAPS_LEP_GAPS21_TVALUE], 1.0 - t, 1e-12);
    const double ya = 2.0 * ea * ea * (1.0 - cos(2.0 * a)) / (Q * Q);
    const double yb = 2.0 * eb * eb * (1.0 - cos(2.0 * bb)) / (Q * Q);
    check_close("2+2: log10y34 = the smaller pair's y", row[GAPS_LEP_GAPS21_LOG10Y34],
                log10(ya < yb ? ya : yb), 1e-11);
    check_close("2+2: log10y23 = the larger pair's y", row[GAPS_LEP_GAPS21_LOG10Y23],
                log10(ya < yb ? yb : ya), 1e-11);
    check_true("2+2: y45, y56 -50", row[GAPS_LEP_GAPS21_LOG10Y45] == MISSING
                                        && row[GAPS_LEP_GAPS21_LOG10Y56] == MISSING);
    const double ma = 2.0 * ea * sin(a) / Q, mb = 2.0 * eb * sin(bb) / Q;   /* M/E_vis */
    check_close("2+2: hjm", row[GAPS_LEP_GAPS21_HJM], ma > mb ? ma : mb, 1e-12);
    check_close("2+2: ljm", row[GAPS_LEP_GAPS21_LJM], ma > mb ? mb : ma, 1e-12);
    const double ba = ea * sin(a) / Q, bbr = eb * sin(bb) / Q;   /* 2 e sin / (2 Q) */
    check_close("2+2: wjb", row[GAPS_LEP_GAPS21_WJB], ba > bbr ? ba : bbr, 1e-12);
    check_close("2+2: njb", row[GAPS_LEP_GAPS21_NJB], ba > bbr ? bbr : ba, 1e-12);
    lep_row_of(4, (const double(*)[4])p, lep);
    check_close("2+2: LEP analysis rho_H = hjm^2", lep[GAPS_LEP_RHO_H],
                row[GAPS_LEP_GAPS21_HJM] * row[GAPS_LEP_GAPS21_HJM], 1e-12);
}

/* 1 + 3: parton 0 of energy e1 along +z, three of (Q - e1)/3 at polar angle th from -z,
 * 120 degrees apart, with 3 e3 cos(th) = e1. */
static void test_one_plus_three(void)
{
    const double e1 = 0.4 * Q, e3 = (Q - e1) / 3.0, th = acos(e1 / (3.0 * e3));
    double p[4][4], row[GAPS_OBS_MAX_COLUMNS], lep[GAPS_OBS_MAX_COLUMNS];
    set(p[0], e1, 0.0, 0.0, e1);
    for (int i = 0; i < 3; ++i) set_angles(p[i + 1], e3, M_PI - th, 2.0 * M_PI * i / 3.0 + 0.2);
    row_of(4, (const double(*)[4])p, row);
    check_close("1+3: 1 - T", row[GAPS_LEP_GAPS21_TVALUE], 1.0 - 2.0 * e1 / Q, 1e-12);
    check_close("1+3: hjm", row[GAPS_LEP_GAPS21_HJM], sqrt(1.0 - 2.0 * e1 / Q), 1e-12);
    check_close("1+3: wjb", row[GAPS_LEP_GAPS21_WJB], 3.0 * e3 * sin(th) / (2.0 * Q), 1e-12);
    check_true("1+3: ljm -50", row[GAPS_LEP_GAPS21_LJM] == MISSING);
    check_true("1+3: njb -50", row[GAPS_LEP_GAPS21_NJB] == MISSING);
    check_true("1+3: y23, y34 filled, y45 -50", row[GAPS_LEP_GAPS21_LOG10Y23] > -5.0
                                                    && row[GAPS_LEP_GAPS21_LOG10Y34] > -5.0
                                                    && row[GAPS_LEP_GAPS21_LOG10Y45] == MISSING);
    /* the LEP analysis fills the light hemisphere (rho_L = 0, B_N = 0): its convention */
    lep_row_of(4, (const double(*)[4])p, lep);
    check_true("1+3: LEP analysis fills rho_L and B_N",
               lep[GAPS_LEP_RHO_L] >= 0.0 && lep[GAPS_LEP_B_N] >= 0.0);
}

static void test_tau_zero(void)
{
    double p[3][4], row[GAPS_OBS_MAX_COLUMNS];
    set(p[0], Q / 2, 0.0, 0.0, Q / 2);
    set(p[1], 0.3 * Q, 0.0, 0.0, -0.3 * Q);
    set(p[2], 0.2 * Q, 0.0, 0.0, -0.2 * Q);
    row_of(3, (const double(*)[4])p, row);
    check_true("T = 1: 1 - T written -5", row[GAPS_LEP_GAPS21_TVALUE] == -5.0);
    check_true("T = 1: collinear pair y23 = 0 -> log10 -inf (underflow)",
               row[GAPS_LEP_GAPS21_LOG10Y23] < -300.0);
    check_close("T = 1: hjm = 0", row[GAPS_LEP_GAPS21_HJM], 0.0, 1e-12);
}

/* a tiny LCG for reproducible random events */
static unsigned long long lcg = 12345u;
static double uniform(void)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(lcg >> 11) * 0x1.0p-53;
}

/* n random massless momenta, summed three-momentum brought to zero by giving the last two
 * partons the recoil (a simple construction: random directions, then a boost to the rest
 * frame, which keeps them massless) */
static void random_event(int n, double p[][4])
{
    double tot[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < n; ++i) {
        const double e = 1.0 + 10.0 * uniform(), c = 2.0 * uniform() - 1.0, ph = 2 * M_PI * uniform();
        set(p[i], e, e * sqrt(1 - c * c) * cos(ph), e * sqrt(1 - c * c) * sin(ph), e * c);
        for (int a = 0; a < 4; ++a) tot[a] += p[i][a];
    }
    const double m = sqrt(tot[0] * tot[0] - tot[1] * tot[1] - tot[2] * tot[2] - tot[3] * tot[3]);
    const double bx = -tot[1] / tot[0], by = -tot[2] / tot[0], bz = -tot[3] / tot[0];
    const double b2 = bx * bx + by * by + bz * bz, g = 1.0 / sqrt(1.0 - b2);
    for (int i = 0; i < n; ++i) {
        const double bp = bx * p[i][1] + by * p[i][2] + bz * p[i][3];
        const double f = (g - 1.0) * bp / b2 + g * p[i][0];
        const double e = g * (p[i][0] + bp);
        set(p[i], e * Q / m, (p[i][1] + f * bx) * Q / m, (p[i][2] + f * by) * Q / m,
            (p[i][3] + f * bz) * Q / m);
    }
}

static double brute_thrust(int n, const double p[][4])
{
    double best = 0.0, sum = 0.0;
    for (int i = 0; i < n; ++i) sum += sqrt(p[i][1] * p[i][1] + p[i][2] * p[i][2] + p[i][3] * p[i][3]);
    for (unsigned m = 0; m < (1u << n); ++m) {
        double s[3] = { 0, 0, 0 };
        for (int i = 0; i < n; ++i)
            for (int a = 0; a < 3; ++a) s[a] += (m >> i & 1u ? -1.0 : 1.0) * p[i][a + 1];
        const double l = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        if (l > best) best = l;
    }
    return best / sum;
}

static void test_random(void)
{
    int bad_t = 0, bad_order = 0;
    for (int ev = 0; ev < 2000; ++ev) {
        const int n = ev % 2 ? 5 : 7;
        double p[8][4], row[GAPS_OBS_MAX_COLUMNS];
        random_event(n, p);
        row_of(n, (const double(*)[4])p, row);
        const double t = brute_thrust(n, (const double(*)[4])p);
        if (!(fabs(row[GAPS_LEP_GAPS21_TVALUE] - (1.0 - t)) < 1e-12)) ++bad_t;
        if (!(row[GAPS_LEP_GAPS21_HJM] >= row[GAPS_LEP_GAPS21_LJM]
              && row[GAPS_LEP_GAPS21_WJB] >= row[GAPS_LEP_GAPS21_NJB]
              && row[GAPS_LEP_GAPS21_LOG10Y45] > -50.0
              && row[GAPS_LEP_GAPS21_LOG10Y56] == (n >= 6 ? row[GAPS_LEP_GAPS21_LOG10Y56] : -50.0)))
            ++bad_order;
    }
    check_true("random events: GAPS's pair thrust = max over all sign patterns", bad_t == 0);
    check_true("random events: hjm >= ljm, wjb >= njb (or -50), y45 filled, y56 only from 6 partons", bad_order == 0);
    if (bad_t || bad_order) printf("  (%d thrust, %d order failures of 2000)\n", bad_t, bad_order);
}

/* the histogram table against spec 7.2: paths, order, bins, ranges */
static void test_table(void)
{
    static const struct { const char *path; int nb; double lo, hi; } want[] = {
        { "/gaps_lep/log10y23", 100, -4.3, -0.3 }, { "/gaps_lep/log10y34", 100, -4.3, -0.3 },
        { "/gaps_lep/log10y45", 100, -4.3, -0.3 }, { "/gaps_lep/log10y56", 100, -4.3, -0.3 },
        { "/gaps_lep/tvalue", 100, 0.0, 0.5 },     { "/gaps_lep/tzoomd", 100, 0.0, 0.5 },
        { "/gaps_lep/hjm", 100, 0.0, 1.0 },        { "/gaps_lep/ljm", 100, 0.0, 0.5 },
        { "/gaps_lep/wjb", 100, 0.0, 0.5 },        { "/gaps_lep/njb", 100, 0.0, 0.2 },
    };
    const gaps_analysis_info *info = &gaps_analysis_table[GAPS_ANALYSIS_LEP_GAPS21];
    check_true("10 histograms", info->n_hists == 10);
    for (int i = 0; i < info->n_hists && i < 10; ++i) {
        const gaps_hist_def *d = &info->hist[i];
        char what[96];
        snprintf(what, sizeof what, "histogram %d is %s, %d bins [%g, %g]", i, want[i].path,
                 want[i].nb, want[i].lo, want[i].hi);
        check_true(what, strcmp(d->path, want[i].path) == 0 && d->nbins == want[i].nb
                             && d->lo == want[i].lo && d->hi == want[i].hi
                             && d->min_partons == 0 && d->transform == GAPS_FILL_VALUE);
    }
    check_true("tzoomd is filled from tvalue's column",
               info->hist[GAPS_LEP_GAPS21_H_TZOOMD].column == GAPS_LEP_GAPS21_TVALUE
                   && info->hist[GAPS_LEP_GAPS21_H_TVALUE].column == GAPS_LEP_GAPS21_TVALUE);
    check_true("CSV header", strcmp(info->csv_header, "event,weight,n_partons,log10y23,log10y34,"
                                    "log10y45,log10y56,tvalue,hjm,ljm,wjb,njb") == 0);
}

static void test_choice(void)
{
    check_true("ee-qq, compat none: LEP",
               gaps_process_analysis(GAPS_PROCESS_EE_QQ, GAPS_COMPAT_NONE) == GAPS_ANALYSIS_LEP);
    check_true("ee-qq, compat gaps21: LEP_GAPS21",
               gaps_process_analysis(GAPS_PROCESS_EE_QQ, GAPS_COMPAT_GAPS21)
                   == GAPS_ANALYSIS_LEP_GAPS21);
    check_true("pp-z, compat gaps21: LHC",
               gaps_process_analysis(GAPS_PROCESS_PP_Z, GAPS_COMPAT_GAPS21) == GAPS_ANALYSIS_LHC);
    check_true("pp-ll, compat none: LHC",
               gaps_process_analysis(GAPS_PROCESS_PP_LL, GAPS_COMPAT_NONE) == GAPS_ANALYSIS_LHC);
    check_true("state ids: LEP 0, LHC 1, LEP_GAPS21 2 (appended)",
               GAPS_ANALYSIS_LEP == 0 && GAPS_ANALYSIS_LHC == 1 && GAPS_ANALYSIS_LEP_GAPS21 == 2);
}

int main(void)
{
    test_two_partons();
    test_mercedes();
    test_three_partons();
    test_two_plus_two();
    test_one_plus_three();
    test_tau_zero();
    test_random();
    test_table();
    test_choice();
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
