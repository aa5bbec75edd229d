/* lep_gaps21.c -- GAPS 2.1's LEP analysis (gaps/analysis_lep_gaps21.h; GAPS 2.1 specification
 * section 7.2; doc/physics.md section 4.7): Durham rates normalised to the beams' s, thrust
 * by GAPS 2.1's pair algorithm, hemisphere jet masses M/E_vis and broadenings, with GAPS 2.1's
 * values for what an event lacks.
 *
 * The definitions are GAPS 2.1's, written out literally (1 - cos theta, not the cancellation-
 * free forms of observables.c), so that the two programs bin the same numbers.  Runs inside
 * the event loop on every backend: fixed-size local arrays, no recursion, no allocation.
 */
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"

#include <math.h>

GAPS_DEVICE_BEGIN

/* s * y_ij of the Durham algorithm: 2 min(E_i, E_j)^2 (1 - cos theta_ij), cos theta_ij from
 * the 3-momenta, clamped to [-1, 1] (a cluster without 3-momentum counts as cos = 0). */
static double durham_sy(const double a[4], const double b[4])
{
    const double la = sqrt(a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
    const double lb = sqrt(b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
    double c = la > 0.0 && lb > 0.0 ? (a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (la * lb) : 0.0;
    c = c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
    const double e = a[0] < b[0] ? a[0] : b[0];
    return 2.0 * e * e * (1.0 - c);
}

/* Durham clustering in the E-scheme (four-momenta added) of the n >= 3 momenta p, y_ij
 * normalised to s: y[m - 3] = the smallest y_ij at the step from m to m - 1 clusters
 * (y23, y34, y45, y56 for m = 3 .. 6). */
static void durham(int n, const double p[][4], double s, double y[4])
{
    double c[GAPS_MAX_PARTONS][4];
    for (int i = 0; i < n; ++i)
        for (int a = 0; a < 4; ++a) c[i][a] = p[i][a];
    for (int m = n; m > 2; --m) {
        int bi = 0, bj = 1;
        double dmin = HUGE_VAL;
        for (int i = 0; i < m - 1; ++i) {
            for (int j = i + 1; j < m; ++j) {
                const double d = durham_sy(c[i], c[j]);
                if (d < dmin) {   /* ties: the first pair */
                    dmin = d;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (m <= 6) y[m - 3] = dmin / s;
        if (m == 3) break;
        for (int a = 0; a < 4; ++a) c[bi][a] += c[bj][a];
        for (int k = bj; k < m - 1; ++k)   /* close the gap, keeping the order */
            for (int a = 0; a < 4; ++a) c[k][a] = c[k + 1][a];
    }
}

/* +1 for d >= 0 (zero counts as positive), -1 otherwise. */
static double sign_ge0(double d)
{
    return d >= 0.0 ? 1.0 : -1.0;
}

/* GAPS 2.1's thrust: the 3-momenta q (n >= 3) in order of decreasing |q|; for every pair
 * j < k the axis q_j x q_k, the other momenta summed with the sign of their projection on it
 * (zero counts as +), and the four sign choices for q_j and q_k; the longest of these sums is
 * the thrust vector S (the first one found on ties).  Returns |S|^2. */
static double thrust_pairs_gaps21(int n, const double q[][3], double S[3])
{
    double best = -1.0;
    S[0] = S[1] = S[2] = 0.0;
    for (int j = 0; j < n - 1; ++j) {
        for (int k = j + 1; k < n; ++k) {
            const double ax = q[j][1] * q[k][2] - q[j][2] * q[k][1];
            const double ay = q[j][2] * q[k][0] - q[j][0] * q[k][2];
            const double az = q[j][0] * q[k][1] - q[j][1] * q[k][0];
            double b[3] = { 0.0, 0.0, 0.0 };
            for (int i = 0; i < n; ++i) {
                if (i == j || i == k) continue;
                const double e = sign_ge0(q[i][0] * ax + q[i][1] * ay + q[i][2] * az);
                b[0] += e * q[i][0];
                b[1] += e * q[i][1];
                b[2] += e * q[i][2];
            }
            for (int combo = 0; combo < 4; ++combo) {
                const double ej = combo & 2 ? -1.0 : 1.0, ek = combo & 1 ? -1.0 : 1.0;
                double t[3];
                for (int a = 0; a < 3; ++a) t[a] = b[a] + ej * q[j][a] + ek * q[k][a];
                const double t2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
                if (t2 > best) {
                    best = t2;
                    S[0] = t[0];
                    S[1] = t[1];
                    S[2] = t[2];
                }
            }
        }
    }
    return best;
}

void gaps_lep_gaps21_row(double *row, int n_in, int n, const double p_all[][4], const int *flav)
{
    (void)flav;   /* every outgoing particle of e+ e- -> q qbar is a parton */
    if (n > GAPS_MAX_PARTONS) n = GAPS_MAX_PARTONS;
    if (n_in < 0) n_in = 0;
    const int np = n > n_in ? n - n_in : 0;
    const double(*p)[4] = p_all + n_in;

    for (int c = GAPS_LEP_GAPS21_LOG10Y23; c <= GAPS_LEP_GAPS21_NJB; ++c)
        row[c] = GAPS_OBS_MISSING;

    /* s of the beams: the outgoing partons of e+ e- -> q qbar carry exactly the beams'
     * four-momentum (checked for every event, gaps_event_check), so s is their invariant
     * mass squared, whatever E_vis rounding or a massive cluster would give. */
    double tot[4] = { 0.0, 0.0, 0.0, 0.0 };
    for (int i = 0; i < np; ++i)
        for (int a = 0; a < 4; ++a) tot[a] += p[i][a];
    const double s = tot[0] * tot[0] - tot[1] * tot[1] - tot[2] * tot[2] - tot[3] * tot[3];

    if (np < 3 || !(s > 0.0)) return;   /* every value stays -50 */

    /* Durham: y_{m-1,m} exists from m partons on */
    double y[4] = { 0.0, 0.0, 0.0, 0.0 };
    durham(np, p, s, y);
    for (int m = 3; m <= 6; ++m)
        if (np >= m) row[GAPS_LEP_GAPS21_LOG10Y23 + (m - 3)] = gaps_log10(y[m - 3]);

    /* 3-momenta in order of decreasing |p| (a stable insertion sort), and sum |p| */
    double q[GAPS_MAX_PARTONS][3], len[GAPS_MAX_PARTONS];
    double p_sum = 0.0;
    for (int i = 0; i < np; ++i) {
        const double l = sqrt(p[i][1] * p[i][1] + p[i][2] * p[i][2] + p[i][3] * p[i][3]);
        p_sum += l;
        int at = i;
        while (at > 0 && len[at - 1] < l) {
            len[at] = len[at - 1];
            for (int a = 0; a < 3; ++a) q[at][a] = q[at - 1][a];
            --at;
        }
        len[at] = l;
        for (int a = 0; a < 3; ++a) q[at][a] = p[i][a + 1];
    }
    if (!(p_sum > 0.0)) return;

    double S[3];
    const double s2 = thrust_pairs_gaps21(np, (const double(*)[3])q, S);
    const double sl = sqrt(s2);
    const double tau = 1.0 - sl / p_sum;
    row[GAPS_LEP_GAPS21_TVALUE] = tau < GAPS_LEP_GAPS21_TAU_MIN ? GAPS_LEP_GAPS21_TAU_TINY : tau;
    if (!(sl > 0.0)) return;
    const double nx = S[0] / sl, ny = S[1] / sl, nz = S[2] / sl;

    /* hemispheres by the sign of p.n; a parton with p.n = 0 exactly puts half of its momentum
     * on each side and counts in both */
    double h[2][4] = { { 0.0, 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0, 0.0 } };
    double bsum[2] = { 0.0, 0.0 };
    int count[2] = { 0, 0 };
    for (int i = 0; i < np; ++i) {
        const double d = p[i][1] * nx + p[i][2] * ny + p[i][3] * nz;
        const double vx = p[i][1] - d * nx, vy = p[i][2] - d * ny, vz = p[i][3] - d * nz;
        const double kt = sqrt(vx * vx + vy * vy + vz * vz);
        const int side = d > 0.0 ? 0 : 1;
        const double f = d == 0.0 ? 0.5 : 1.0;
        for (int sd = 0; sd < 2; ++sd) {
            if (!(d == 0.0 || sd == side)) continue;
            for (int a = 0; a < 4; ++a) h[sd][a] += f * p[i][a];
            bsum[sd] += f * kt;
            count[sd] += 1;
        }
    }
    double m2[2];
    for (int sd = 0; sd < 2; ++sd)
        m2[sd] = h[sd][0] * h[sd][0] - h[sd][1] * h[sd][1] - h[sd][2] * h[sd][2]
                 - h[sd][3] * h[sd][3];
    const double heavy = m2[0] > m2[1] ? m2[0] : m2[1];
    const double light = m2[0] > m2[1] ? m2[1] : m2[0];
    const double e_vis2 = p_sum * p_sum;   /* E_vis = sum |p_i| */
    const double b0 = bsum[0] / (2.0 * p_sum), b1 = bsum[1] / (2.0 * p_sum);
    row[GAPS_LEP_GAPS21_HJM] = sqrt(fabs(heavy) / e_vis2);
    row[GAPS_LEP_GAPS21_WJB] = b0 > b1 ? b0 : b1;
    if (count[0] != 1 && count[1] != 1) {
        row[GAPS_LEP_GAPS21_LJM] = sqrt(fabs(light) / e_vis2);
        row[GAPS_LEP_GAPS21_NJB] = b0 > b1 ? b1 : b0;
    }
}

GAPS_DEVICE_END
