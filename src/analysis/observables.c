/* observables.c -- Durham jet rates and event shapes of one event (doc/physics.md section 4).
 *
 * Everything here runs once per event inside the event loop, on the host or on a GPU, so the
 * code keeps to fixed-size local arrays, no recursion and no shared state.  Typical events
 * have 2..8 partons and the algorithms are chosen for that range; none costs more than
 * O(n^3) beyond the thrust enumeration bound below.
 */
#include "gaps/observables.h"

#include <math.h>

/* Up to this many partons thrust enumerates every hemisphere split (2^(n-3) steps of one
 * vector update each, see thrust_enumerate), which is exact for any configuration.  Beyond
 * it the pair algorithm's O(n^3) is cheaper (the two cost about the same at n = 12); it is
 * exact only for momenta in general position, which shower events of that size always are,
 * whereas small events are often planar (every 3-parton event is) and defeat it. */
#define GAPS_THRUST_ENUMERATE_MAX 12

/* Bound on the sign-refinement sweeps after the pair algorithm; each sweep can only increase
 * |S|, and in practice it stops after one or two. */
#define GAPS_THRUST_REFINE_MAX 8

GAPS_DEVICE_BEGIN

/* The header's precondition is n <= GAPS_MAX_PARTONS; clamping keeps a violation from
 * writing past the fixed-size local arrays. */
static int clamp_multiplicity(int n)
{
    if (n < 0) return 0;
    if (n > GAPS_MAX_PARTONS) return GAPS_MAX_PARTONS;
    return n;
}

/* +1 for d >= 0 (zero, of either sign, counts as positive), -1 otherwise.  Written with
 * copysign because the side of a parton is a coin flip: compilers turn a conditional here
 * into a branch that mispredicts half the time.  d + 0.0 turns -0 into +0. */
static double side_sign(double d)
{
    return copysign(1.0, d + 0.0);
}

/* ------------------------------------------------------------------------------------------
 * Durham clustering
 * ------------------------------------------------------------------------------------------ */

/* A cluster is stored as its unit 3-direction u (dir[0..2]) with its energy and |p| (el).
 * A cluster without 3-momentum (at rest) has no direction; dir[3] then carries a unit length
 * of its own, so that |dir_i - dir_j|^2 / 2 reads 1 - cos = 1 against every moving cluster
 * (the angular average) and 0 against another cluster at rest, never NaN. */
static void set_cluster(double px, double py, double pz, double len, double e,
                        double dir[4], double el[2])
{
    double inv = len > 0.0 ? 1.0 / len : 0.0;
    dir[0] = px * inv;
    dir[1] = py * inv;
    dir[2] = pz * inv;
    dir[3] = len > 0.0 ? 0.0 : 1.0;
    el[0] = e;
    el[1] = len;
}

/* s * y_ij = 2 min(E_i, E_j)^2 (1 - cos theta_ij).  With unit vectors,
 * 2 (1 - cos theta) = |u_i - u_j|^2: a sum of squares, free of the cancellation that
 * 1 - u_i.u_j suffers at small angles, and no division per pair. */
static double durham_distance(const double dir_i[4], double e_i, const double dir_j[4],
                              double e_j)
{
    double e = e_i < e_j ? e_i : e_j;
    double d0 = dir_i[0] - dir_j[0];
    double d1 = dir_i[1] - dir_j[1];
    double d2 = dir_i[2] - dir_j[2];
    double d3 = dir_i[3] - dir_j[3];
    return e * e * (d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3);
}

/* Durham clustering given |p_k| of the input (which the full analysis has at hand anyway).
 * The E-scheme momentum of a merged cluster is rebuilt as |p_i| u_i + |p_j| u_j, which keeps
 * the stack at five doubles per cluster at the price of an ulp of rounding. */
static void durham_cluster(int n, const double p[][4], const double len[], double y[4])
{
    y[0] = y[1] = y[2] = y[3] = 0.0;
    if (n < 3) return;

    double dir[GAPS_MAX_PARTONS][4];
    double el[GAPS_MAX_PARTONS][2];
    double e_vis = 0.0;
    for (int i = 0; i < n; ++i) {
        set_cluster(p[i][1], p[i][2], p[i][3], len[i], p[i][0], dir[i], el[i]);
        e_vis += p[i][0];
    }
    double s = e_vis * e_vis;
    if (!(s > 0.0)) return;
    double inv_s = 1.0 / s;

    /* At these multiplicities a full rescan of the pairs after each merge is cheaper than
     * keeping a nearest-neighbour table up to date, and needs no pair matrix on the stack. */
    for (int m = n; m > 2; --m) {
        int bi = 0, bj = 1;
        double dmin = HUGE_VAL;
        for (int i = 0; i < m - 1; ++i) {
            for (int j = i + 1; j < m; ++j) {
                double d = durham_distance(dir[i], el[i][0], dir[j], el[j][0]);
                if (d < dmin) {  /* strict: ties go to the first pair, deterministically */
                    dmin = d;
                    bi = i;
                    bj = j;
                }
            }
        }
        /* Step m -> m-1 clusters gives y_{m-1,m}; y23 (m = 3) is y[0], and the last two
         * clusters need not be built. */
        if (m <= 6) y[m - 3] = dmin * inv_s;
        if (m == 3) break;

        double li = el[bi][1], lj = el[bj][1];
        double px = li * dir[bi][0] + lj * dir[bj][0];
        double py = li * dir[bi][1] + lj * dir[bj][1];
        double pz = li * dir[bi][2] + lj * dir[bj][2];
        set_cluster(px, py, pz, sqrt(px * px + py * py + pz * pz), el[bi][0] + el[bj][0],
                    dir[bi], el[bi]);
        /* Refill the hole with the last cluster; bj < m always, and bi < bj stays valid. */
        for (int a = 0; a < 4; ++a) dir[bj][a] = dir[m - 1][a];
        el[bj][0] = el[m - 1][0];
        el[bj][1] = el[m - 1][1];
    }
}

void gaps_observables_durham(int n, const double p[][4], double y[4])
{
    n = clamp_multiplicity(n);
    double len[GAPS_MAX_PARTONS];
    for (int i = 0; i < n; ++i)
        len[i] = sqrt(p[i][1] * p[i][1] + p[i][2] * p[i][2] + p[i][3] * p[i][3]);
    durham_cluster(n, p, len, y);
}

/* ------------------------------------------------------------------------------------------
 * Thrust
 * ------------------------------------------------------------------------------------------ */

/* T = max over unit n of sum |p_k.n| / P equals max over signs eps_k of |sum eps_k p_k| / P
 * (for the optimal signs, n is along S = sum eps_k p_k).  This search is exhaustive over all
 * sign patterns with eps_0 = +1, hence exact for every configuration, planar ones included.
 *   Partons 1 and 2 are maximised in closed form: with B the signed sum of the others,
 *   a = B.p_1, b = B.p_2, c = p_1.p_2,
 *     max over eps_1, eps_2 of |B + eps_1 p_1 + eps_2 p_2|^2
 *       = |B|^2 + |p_1|^2 + |p_2|^2 + 2 max(|a + b| + c, |a - b| - c),
 *   the first for eps_1 = eps_2, the second for eps_1 = -eps_2.
 *   The signs of partons 3..n-1 (2^(n-3) patterns) are walked in Gray-code order, so that
 *   each step flips one sign and costs one vector update.
 * The sum of the winning pattern is rebuilt from scratch so that it carries no accumulated
 * rounding.  Ties keep the first pattern in Gray order.  Needs n >= 3. */
static void thrust_enumerate(int n, const double p[][4], double S[3])
{
    const double x1 = p[1][1], y1 = p[1][2], z1 = p[1][3];
    const double x2 = p[2][1], y2 = p[2][2], z2 = p[2][3];
    const double c = x1 * x2 + y1 * y2 + z1 * z2;

    /* a and b change by f p_k.p_1 and f p_k.p_2 when eps_k flips: tabulated once, they save
     * two dot products per step.  The rounding this accumulates can only matter between
     * patterns tied to ~1e-14, and the winner is recomputed from scratch below. */
    double q1[GAPS_THRUST_ENUMERATE_MAX], q2[GAPS_THRUST_ENUMERATE_MAX];
    double bx = p[0][1], by = p[0][2], bz = p[0][3];
    for (int k = 3; k < n; ++k) {
        bx += p[k][1];
        by += p[k][2];
        bz += p[k][3];
        q1[k] = p[k][1] * x1 + p[k][2] * y1 + p[k][3] * z1;
        q2[k] = p[k][1] * x2 + p[k][2] * y2 + p[k][3] * z2;
    }
    double a = bx * x1 + by * y1 + bz * z1;
    double b = bx * x2 + by * y2 + bz * z2;
    double best = -HUGE_VAL;
    unsigned mask = 0u;       /* bit k set: eps_k = -1 */
    unsigned best_mask = 0u;
    unsigned count = 1u << (n - 3);
    for (unsigned g = 0u; g < count; ++g) {
        if (g > 0u) {
            /* Gray code g ^ (g >> 1) differs from its predecessor in the lowest set bit of
             * g; bit b of g drives parton b + 3. */
            int k = 3;
            for (unsigned t = g; !(t & 1u); t >>= 1) ++k;
            unsigned bit = 1u << k;
            double f = (mask & bit) ? 2.0 : -2.0;
            mask ^= bit;
            bx += f * p[k][1];
            by += f * p[k][2];
            bz += f * p[k][3];
            a += f * q1[k];
            b += f * q2[k];
        }
        double same = fabs(a + b) + c, opposite = fabs(a - b) - c;
        double v = bx * bx + by * by + bz * bz + 2.0 * (same > opposite ? same : opposite);
        if (v > best) {
            best = v;
            best_mask = mask;
        }
    }

    bx = by = bz = 0.0;
    for (int k = 0; k < n; ++k) {
        if (k == 1 || k == 2) continue;
        double e = (best_mask >> k) & 1u ? -1.0 : 1.0;
        bx += e * p[k][1];
        by += e * p[k][2];
        bz += e * p[k][3];
    }
    a = bx * x1 + by * y1 + bz * z1;
    b = bx * x2 + by * y2 + bz * z2;
    double e1, e2;
    if (fabs(a + b) + c >= fabs(a - b) - c) {
        e1 = side_sign(a + b);
        e2 = e1;
    } else {
        e1 = side_sign(a - b);
        e2 = -e1;
    }
    S[0] = bx + e1 * x1 + e2 * x2;
    S[1] = by + e1 * y1 + e2 * y2;
    S[2] = bz + e1 * z1 + e2 * z2;
}

/* sum_k sign(p_k.a) p_k with zero counted as positive, skipping partons i and j (pass -1 to
 * skip none). */
static void signed_sum(int n, const double p[][4], const double a[3], int i, int j,
                       double S[3])
{
    /* Local accumulators, since S could alias p as far as the compiler knows. */
    double ax = a[0], ay = a[1], az = a[2];
    double sx = 0.0, sy = 0.0, sz = 0.0;
    for (int k = 0; k < n; ++k) {
        if (k == i || k == j) continue;
        double e = side_sign(p[k][1] * ax + p[k][2] * ay + p[k][3] * az);
        sx += e * p[k][1];
        sy += e * p[k][2];
        sz += e * p[k][3];
    }
    S[0] = sx;
    S[1] = sy;
    S[2] = sz;
}

/* The pair algorithm for large n.  Tilting the optimal separating plane until it touches two
 * momenta p_i, p_j leaves every other parton on its side, so the optimal split is among:
 * the side of n = p_i x p_j for k != i,j, and the four sign choices for p_i, p_j.  That is
 * exact when no three momenta are coplanar (with the origin), which holds for shower events
 * of this size; the final sweeps eps_k = sign(p_k.S) can only increase |S| and repair the
 * rare near-degenerate case.  Ties keep the first candidate. */
static void thrust_pairs(int n, const double p[][4], double S[3])
{
    const double *a0 = &p[0][1];
    signed_sum(n, p, a0, -1, -1, S);
    double best = S[0] * S[0] + S[1] * S[1] + S[2] * S[2];

    for (int i = 0; i < n - 1; ++i) {
        for (int j = i + 1; j < n; ++j) {
            double c[3] = { p[i][2] * p[j][3] - p[i][3] * p[j][2],
                            p[i][3] * p[j][1] - p[i][1] * p[j][3],
                            p[i][1] * p[j][2] - p[i][2] * p[j][1] };
            if (c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0) continue;  /* collinear pair */
            double base[3];
            signed_sum(n, p, c, i, j, base);
            for (int combo = 0; combo < 4; ++combo) {
                double ei = combo & 1 ? -1.0 : 1.0;
                double ej = combo & 2 ? -1.0 : 1.0;
                double t[3];
                for (int a = 0; a < 3; ++a) t[a] = base[a] + ei * p[i][a + 1] + ej * p[j][a + 1];
                double t2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
                if (t2 > best) {
                    best = t2;
                    S[0] = t[0];
                    S[1] = t[1];
                    S[2] = t[2];
                }
            }
        }
    }

    for (int sweep = 0; sweep < GAPS_THRUST_REFINE_MAX; ++sweep) {
        double t[3];
        double axis[3] = { S[0], S[1], S[2] };
        signed_sum(n, p, axis, -1, -1, t);
        double t2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
        if (!(t2 > best)) break;
        best = t2;
        S[0] = t[0];
        S[1] = t[1];
        S[2] = t[2];
    }
}

/* Thrust with P = sum |p_k| already known.  T is capped at 1, which rounding could
 * otherwise exceed by an ulp for collinear configurations (tau would turn negative). */
static double thrust_with_total(int n, const double p[][4], double p_total, double axis[3])
{
    axis[0] = 0.0;
    axis[1] = 0.0;
    axis[2] = 1.0;
    if (n <= 2) {
        if (n >= 1) {
            double l = sqrt(p[0][1] * p[0][1] + p[0][2] * p[0][2] + p[0][3] * p[0][3]);
            if (l > 0.0) {
                axis[0] = p[0][1] / l;
                axis[1] = p[0][2] / l;
                axis[2] = p[0][3] / l;
            }
        }
        return 1.0;
    }
    if (!(p_total > 0.0)) return 1.0;

    double S[3];
    if (n <= GAPS_THRUST_ENUMERATE_MAX)
        thrust_enumerate(n, p, S);
    else
        thrust_pairs(n, p, S);

    double len = sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
    if (!(len > 0.0)) return 1.0;
    double inv = 1.0 / len;
    axis[0] = S[0] * inv;
    axis[1] = S[1] * inv;
    axis[2] = S[2] * inv;
    double t = len / p_total;
    return t < 1.0 ? t : 1.0;
}

double gaps_observables_thrust(int n, const double p[][4], double axis[3])
{
    n = clamp_multiplicity(n);
    double p_total = 0.0;
    for (int k = 0; k < n; ++k)
        p_total += sqrt(p[k][1] * p[k][1] + p[k][2] * p[k][2] + p[k][3] * p[k][3]);
    return thrust_with_total(n, p, p_total, axis);
}

/* ------------------------------------------------------------------------------------------
 * Everything of one event
 * ------------------------------------------------------------------------------------------ */

void gaps_observables_compute(int n, const double p[][4], gaps_observables *out)
{
    n = clamp_multiplicity(n);
    out->n_partons = n;

    double len[GAPS_MAX_PARTONS];      /* |p_k| */
    double inv_len[GAPS_MAX_PARTONS];  /* 1/|p_k|, 0 for a parton without 3-momentum */
    double e_vis = 0.0, p_total = 0.0;
    for (int k = 0; k < n; ++k) {
        double l = sqrt(p[k][1] * p[k][1] + p[k][2] * p[k][2] + p[k][3] * p[k][3]);
        len[k] = l;
        inv_len[k] = l > 0.0 ? 1.0 / l : 0.0;
        e_vis += p[k][0];
        p_total += l;
    }

    double y[4] = { 0.0, 0.0, 0.0, 0.0 };
    if (n >= 3) durham_cluster(n, p, len, y);
    out->y23 = y[0];
    out->y34 = y[1];
    out->y45 = y[2];
    out->y56 = y[3];

    double nt[3];
    out->tau = 1.0 - thrust_with_total(n, p, p_total, nt);
    out->thrust_axis[0] = nt[0];
    out->thrust_axis[1] = nt[1];
    out->thrust_axis[2] = nt[2];
    const double nx = nt[0], ny = nt[1], nz = nt[2];

    /* Hemisphere sums and transverse momenta.  The side enters as a 0/1 weight rather than
     * an array index: a data-dependent index into a small stack array stalls on
     * store-to-load forwarding, and the weights keep the loop branch-free on the GPU. */
    double ep = 0.0, xp = 0.0, yp = 0.0, zp = 0.0, ktp = 0.0;  /* p.n_T >= 0 */
    double em = 0.0, xm = 0.0, ym = 0.0, zm = 0.0, ktm = 0.0;  /* p.n_T < 0 */
    for (int k = 0; k < n; ++k) {
        double d = p[k][1] * nx + p[k][2] * ny + p[k][3] * nz;
        double wp = 0.5 + 0.5 * side_sign(d), wm = 1.0 - wp;  /* exactly 0 or 1 */
        /* |p x n| from the cross product, not sqrt(p^2 - (p.n)^2), which cancels for
         * partons close to the axis. */
        double cx = p[k][2] * nz - p[k][3] * ny;
        double cy = p[k][3] * nx - p[k][1] * nz;
        double cz = p[k][1] * ny - p[k][2] * nx;
        double kt = sqrt(cx * cx + cy * cy + cz * cz);
        ep += wp * p[k][0];
        xp += wp * p[k][1];
        yp += wp * p[k][2];
        zp += wp * p[k][3];
        ktp += wp * kt;
        em += wm * p[k][0];
        xm += wm * p[k][1];
        ym += wm * p[k][2];
        zm += wm * p[k][3];
        ktm += wm * kt;
    }

    /* A hemisphere holding one massless parton has M^2 = 0 up to rounding of either sign;
     * clamping keeps it in the first bin instead of the underflow. */
    double m2p = ep * ep - xp * xp - yp * yp - zp * zp;
    double m2m = em * em - xm * xm - ym * ym - zm * zm;
    m2p = m2p > 0.0 ? m2p : 0.0;
    m2m = m2m > 0.0 ? m2m : 0.0;
    double s = e_vis * e_vis;
    if (s > 0.0) {
        out->rho_H = (m2p > m2m ? m2p : m2m) / s;
        out->rho_L = (m2p > m2m ? m2m : m2p) / s;
    } else {
        out->rho_H = out->rho_L = 0.0;
    }

    /* C = 3/2 (1 - sum_{i,j} (p_i.p_j)^2 / (|p_i||p_j|) / P^2).  The diagonal and the
     * cos^2 part cancel against P^2 = sum_{i,j} |p_i||p_j|, leaving
     * C = 3 sum_{i<j} |p_i x p_j|^2 / (|p_i||p_j|) / P^2: a sum of non-negative terms,
     * exact 0 for collinear events instead of a difference of two numbers near 1. */
    double c_sum = 0.0;
    for (int i = 0; i < n - 1; ++i) {
        double row = 0.0;
        for (int j = i + 1; j < n; ++j) {
            double cx = p[i][2] * p[j][3] - p[i][3] * p[j][2];
            double cy = p[i][3] * p[j][1] - p[i][1] * p[j][3];
            double cz = p[i][1] * p[j][2] - p[i][2] * p[j][1];
            row += (cx * cx + cy * cy + cz * cz) * inv_len[j];
        }
        c_sum += row * inv_len[i];
    }

    if (p_total > 0.0) {
        double inv_2p = 0.5 / p_total;
        double b_plus = ktp * inv_2p, b_minus = ktm * inv_2p;
        out->B_T = b_plus + b_minus;
        out->B_W = b_plus > b_minus ? b_plus : b_minus;
        out->B_N = b_plus > b_minus ? b_minus : b_plus;
        out->C = 3.0 * c_sum / (p_total * p_total);
    } else {
        out->B_T = out->B_W = out->B_N = 0.0;
        out->C = 0.0;
    }
}

GAPS_DEVICE_END
