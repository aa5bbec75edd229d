/* antikt.c -- anti-k_T clustering and the kinematics of jets (gaps/jets.h).
 *
 * Events hold at most GAPS_MAX_PARTONS (64) partons, so the naive algorithm is used: every
 * step rescans all pairs, O(n^3) in all (2.6e5 distance evaluations at n = 64, a few
 * thousand for typical events).  A nearest-neighbour table would be faster for large n but
 * needs more state per cluster on the stack and more code to get the tie order right; the
 * rescan keeps the order of the scan, which decides ties, obvious.
 */
#include "gaps/jets.h"
#include "gaps/fpmath.h"

#include <math.h>

GAPS_DEVICE_BEGIN

double gaps_pseudorapidity(double px, double py, double pz)
{
    const double pt = sqrt(px * px + py * py);
    if (pt == 0.0) return pz == 0.0 ? 0.0 : copysign(HUGE_VAL, pz);
    const double apz = fabs(pz);
    /* -ln tan(theta/2) = ln((|p| + pz)/p_T) for pz >= 0; odd in pz */
    const double eta = gaps_log((sqrt(pt * pt + apz * apz) + apz) / pt);
    return pz < 0.0 ? -eta : eta;
}

double gaps_azimuth(double px, double py)
{
    return px == 0.0 && py == 0.0 ? 0.0 : gaps_atan2(py, px);
}

double gaps_delta_phi(double a, double b)
{
    const double two_pi = 6.283185307179586;
    double d = a - b;
    if (d > 0.5 * two_pi) d -= two_pi;
    else if (d < -0.5 * two_pi) d += two_pi;
    return d;
}

/* What the scan needs of a cluster: p_T^-2 (the anti-k_T weight; +infinity at p_T = 0, so
 * that such a cluster is never the smallest d_iB), eta and phi. */
static void cluster_kinematics(const double p[4], double *inv_pt2, double *eta, double *phi)
{
    const double pt2 = p[1] * p[1] + p[2] * p[2];
    *inv_pt2 = 1.0 / pt2;
    *eta = gaps_pseudorapidity(p[1], p[2], p[3]);
    *phi = gaps_azimuth(p[1], p[2]);
}

/* A bound above every x >= 0 with x / r2 < dmin (both rounded): such an x has x < dmin r2
 * exactly, and the rounded product times (1 + 2^-51), plus the smallest subnormal (where the
 * product underflows), lies above dmin r2. */
static double pair_bound(double dmin, double r2)
{
    return dmin * r2 * (1.0 + 0x1p-51) + 0x1p-1074;
}

int gaps_antikt(int n, const double p[][4], double R, int max_jets, double d_max,
                gaps_jet *jets)
{
    if (n > GAPS_MAX_PARTONS) n = GAPS_MAX_PARTONS;   /* keeps to the arrays below */
    double c[GAPS_MAX_PARTONS][4], inv_pt2[GAPS_MAX_PARTONS];
    double eta[GAPS_MAX_PARTONS], phi[GAPS_MAX_PARTONS];
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < 4; ++m) c[i][m] = p[i][m];
        cluster_kinematics(c[i], &inv_pt2[i], &eta[i], &phi[i]);
    }
    const double r2 = R * R;
    int m = n, nj = 0;
    while (m > 0 && nj < max_jets) {
        /* the smallest distance strictly below d_max: (bi, bj) a pair, (bi, -1) a jet.  A
         * pair's d = x / R^2 with x = min(p_T^-2) Delta R^2; the division is made only for an
         * x below x_max, a bound of the x whose d can be below dmin, so the choices are those
         * of comparing every d (the division, a dozen instructions on a GPU, was most of the
         * n^3/6 pairs' cost) */
        double dmin = d_max, x_max = pair_bound(d_max, r2);
        int bi = -1, bj = -1;
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < i; ++j) {
                const double w = inv_pt2[i] < inv_pt2[j] ? inv_pt2[i] : inv_pt2[j];
                const double de = eta[i] - eta[j], dp = gaps_delta_phi(phi[i], phi[j]);
                const double x = w * (de * de + dp * dp);
                if (x < x_max && x / r2 < dmin) {
                    dmin = x / r2;
                    x_max = pair_bound(dmin, r2);
                    bi = i;
                    bj = j;
                }
            }
            if (inv_pt2[i] < dmin) {
                dmin = inv_pt2[i];
                x_max = pair_bound(dmin, r2);
                bi = i;
                bj = -1;
            }
        }
        if (bi < 0) break;   /* nothing below d_max: what is left makes no jet */
        if (bj < 0) {
            gaps_jet *jet = &jets[nj++];
            for (int k = 0; k < 4; ++k) jet->p[k] = c[bi][k];
            jet->pt = sqrt(c[bi][1] * c[bi][1] + c[bi][2] * c[bi][2]);
            jet->eta = eta[bi];
            jet->phi = phi[bi];
        } else {
            /* E-scheme: the pair becomes one cluster at the place of the earlier one */
            for (int k = 0; k < 4; ++k) c[bj][k] += c[bi][k];
            cluster_kinematics(c[bj], &inv_pt2[bj], &eta[bj], &phi[bj]);
        }
        /* cluster bi is gone: the later ones move up, so the scan keeps the input order */
        for (int i = bi; i < m - 1; ++i) {
            for (int k = 0; k < 4; ++k) c[i][k] = c[i + 1][k];
            inv_pt2[i] = inv_pt2[i + 1];
            eta[i] = eta[i + 1];
            phi[i] = phi[i + 1];
        }
        --m;
    }
    /* by decreasing p_T; insertion sort, stable (at most a few tens of jets) */
    for (int i = 1; i < nj; ++i) {
        const gaps_jet t = jets[i];
        int k = i;
        while (k > 0 && jets[k - 1].pt < t.pt) {
            jets[k] = jets[k - 1];
            --k;
        }
        jets[k] = t;
    }
    /* GAPS 2.1's last rule: trailing jets with p_T <= 0 are dropped.  A jet is only made from
     * d_iB = p_T^-2 < d_max, so it has p_T > 0 and the rule removes nothing; it is kept so
     * that the function is the spec's whatever d_max a caller passes */
    while (nj > 0 && !(jets[nj - 1].pt > 0.0)) --nj;
    return nj;
}

GAPS_DEVICE_END
