/* antikt.c -- anti-k_T clustering and the kinematics of jets (gaps/jets.h).
 *
 * Events hold at most GAPS_MAX_PARTONS (64) partons; the clustering keeps a nearest-neighbour
 * table (gaps_antikt()), whose choices, ties included, are those of the plain scan over all
 * pairs.
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

/* The clusters of one event, in input order, and for each cluster i its nearest neighbour
 * among the clusters before it: nn_j[i] the first j < i with the smallest d_ij, nn_d[i] that
 * distance (nn_j[i] = -1 where no d_ij compares below +infinity). */
typedef struct clusters {
    double c[GAPS_MAX_PARTONS][4], inv_pt2[GAPS_MAX_PARTONS];
    double eta[GAPS_MAX_PARTONS], phi[GAPS_MAX_PARTONS];
    double nn_d[GAPS_MAX_PARTONS];
    int nn_j[GAPS_MAX_PARTONS];
    double r2;
} clusters;

/* d_ij = min(p_Ti^-2, p_Tj^-2) Delta R_ij^2 / R^2 of clusters i > j, always with the later
 * one first: the value is then the same to the bit wherever it is formed. */
static double pair_distance(const clusters *k, int i, int j)
{
    const double w = k->inv_pt2[i] < k->inv_pt2[j] ? k->inv_pt2[i] : k->inv_pt2[j];
    const double de = k->eta[i] - k->eta[j], dp = gaps_delta_phi(k->phi[i], k->phi[j]);
    return w * (de * de + dp * dp) / k->r2;
}

static void find_neighbour(clusters *k, int i)
{
    k->nn_d[i] = HUGE_VAL;
    k->nn_j[i] = -1;
    for (int j = 0; j < i; ++j) {
        const double d = pair_distance(k, i, j);
        if (d < k->nn_d[i]) {
            k->nn_d[i] = d;
            k->nn_j[i] = j;
        }
    }
}

static void copy_cluster(clusters *k, int to, int from)
{
    for (int m = 0; m < 4; ++m) k->c[to][m] = k->c[from][m];
    k->inv_pt2[to] = k->inv_pt2[from];
    k->eta[to] = k->eta[from];
    k->phi[to] = k->phi[from];
    k->nn_d[to] = k->nn_d[from];
    k->nn_j[to] = k->nn_j[from];
}

/* Anti-k_T with a nearest-neighbour table, O(n^2) where rescanning every pair at every step
 * is O(n^3) (2.6e5 distances at n = 64: on a GPU the largest event of an analysis launch, one
 * thread, set the launch's length).  Each step takes the smallest distance below d_max in the
 * order of the plain scan -- for i = 0, 1, ...: d_i0, ..., d_i(i-1), then d_iB -- the first
 * one where several are equal, so the jets are the plain scan's to the bit (tests/
 * test_lhc_observables.c compares the two on random and tied events).  The scan's order is
 * kept by removing a cluster with the later ones moving up. */
int gaps_antikt(int n, const double p[][4], double R, int max_jets, double d_max,
                gaps_jet *jets)
{
    if (n > GAPS_MAX_PARTONS) n = GAPS_MAX_PARTONS;   /* keeps to the arrays below */
    clusters k;
    k.r2 = R * R;
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < 4; ++m) k.c[i][m] = p[i][m];
        cluster_kinematics(k.c[i], &k.inv_pt2[i], &k.eta[i], &k.phi[i]);
        find_neighbour(&k, i);
    }
    int m = n, nj = 0;
    while (m > 0 && nj < max_jets) {
        /* the smallest distance strictly below d_max: (bi, bj) a pair, (bi, -1) a jet */
        double dmin = d_max;
        int bi = -1, bj = -1;
        for (int i = 0; i < m; ++i) {
            if (k.nn_j[i] >= 0 && k.nn_d[i] < dmin) {
                dmin = k.nn_d[i];
                bi = i;
                bj = k.nn_j[i];
            }
            if (k.inv_pt2[i] < dmin) {
                dmin = k.inv_pt2[i];
                bi = i;
                bj = -1;
            }
        }
        if (bi < 0) break;   /* nothing below d_max: what is left makes no jet */
        if (bj < 0) {
            gaps_jet *jet = &jets[nj++];
            for (int q = 0; q < 4; ++q) jet->p[q] = k.c[bi][q];
            jet->pt = sqrt(k.c[bi][1] * k.c[bi][1] + k.c[bi][2] * k.c[bi][2]);
            jet->eta = k.eta[bi];
            jet->phi = k.phi[bi];
        } else {
            /* E-scheme: the pair becomes one cluster at the place of the earlier one */
            for (int q = 0; q < 4; ++q) k.c[bj][q] += k.c[bi][q];
            cluster_kinematics(k.c[bj], &k.inv_pt2[bj], &k.eta[bj], &k.phi[bj]);
        }
        /* cluster bi is gone: the later ones move up, and neighbours past it with them */
        for (int i = bi; i < m - 1; ++i) copy_cluster(&k, i, i + 1);
        --m;
        /* A cluster's nearest neighbour changes only where that neighbour was removed or
         * merged (a rescan), or where the merged cluster came closer (a compare). */
        if (bj >= 0) find_neighbour(&k, bj);
        for (int i = (bj >= 0 ? bj + 1 : bi); i < m; ++i) {
            const int was = k.nn_j[i];
            if (i >= bi && was == bi) {
                find_neighbour(&k, i);
                continue;
            }
            if (was > bi) k.nn_j[i] = was - 1;
            if (bj < 0) continue;
            if (was == bj) {
                find_neighbour(&k, i);
                continue;
            }
            const double d = pair_distance(&k, i, bj);
            if (d < k.nn_d[i] || (d == k.nn_d[i] && bj < k.nn_j[i])) {
                k.nn_d[i] = d;
                k.nn_j[i] = bj;
            }
        }
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
