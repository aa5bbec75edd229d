/* w.c -- the W analysis: charged lepton, missing transverse momentum, transverse mass, the W
 * and anti-k_T jets of one event (gaps/analysis_w.h; doc/physics.md, "p p -> W -> l nu").
 *
 * The record: incoming partons first (rows 0 .. n_in-1), then the outgoing particles: for
 * pp-w the charged lepton, the neutrino and the partons of the shower. */
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps/jets.h"

#include <math.h>
#include <stdlib.h>

GAPS_DEVICE_BEGIN

void gaps_w_row(double *row, int n_in, int n, const double p[][4], const int *flav)
{
    if (n > GAPS_MAX_PARTONS) n = GAPS_MAX_PARTONS;
    double q[GAPS_MAX_PARTONS][4], nu[4] = { 0.0, 0.0, 0.0, 0.0 };
    int lep = -1, n_nu = 0, nq = 0;
    for (int k = n_in; k < n; ++k) {
        const int f = flav[k], af = abs(f);
        if (af == 11 || af == 13 || af == 15) {
            if (lep < 0) lep = k;
        } else if (af == 12 || af == 14 || af == 16) {
            for (int m = 0; m < 4; ++m) nu[m] += p[k][m];
            ++n_nu;
        } else if (f == GAPS_GLUON || (af >= 1 && af <= 6)) {
            for (int m = 0; m < 4; ++m) q[nq][m] = p[k][m];
            ++nq;
        }
    }

    /* the charged lepton */
    double pt_l = 0.0;
    if (lep >= 0) {
        const double *pl = p[lep];
        pt_l = sqrt(pl[1] * pl[1] + pl[2] * pl[2]);
        row[GAPS_W_LEP_PT] = pt_l;
        row[GAPS_W_LEP_ETA] = gaps_pseudorapidity(pl[1], pl[2], pl[3]);
        row[GAPS_W_LEP_CHARGE] = flav[lep] > 0 ? -1.0 : 1.0;
    } else {
        row[GAPS_W_LEP_PT] = row[GAPS_W_LEP_ETA] = row[GAPS_W_LEP_CHARGE] = GAPS_OBS_MISSING;
    }

    /* the missing transverse momentum and the transverse mass */
    const double met = sqrt(nu[1] * nu[1] + nu[2] * nu[2]);
    row[GAPS_W_MET] = n_nu > 0 ? met : GAPS_OBS_MISSING;
    if (lep >= 0 && n_nu > 0) {
        const double *pl = p[lep];
        const double mt2 = 2.0 * (pt_l * met - pl[1] * nu[1] - pl[2] * nu[2]);
        row[GAPS_W_MT] = sqrt(mt2 > 0.0 ? mt2 : 0.0);
        double w[4];
        for (int m = 0; m < 4; ++m) w[m] = pl[m] + nu[m];
        const double m2 = w[0] * w[0] - w[1] * w[1] - w[2] * w[2] - w[3] * w[3];
        row[GAPS_W_WMASS] = sqrt(m2 > 0.0 ? m2 : 0.0);
        row[GAPS_W_WPT] = sqrt(w[1] * w[1] + w[2] * w[2]);
        row[GAPS_W_WRAP] = 0.5 * gaps_log((w[0] + w[3]) / (w[0] - w[3]));
    } else {
        row[GAPS_W_MT] = row[GAPS_W_WMASS] = GAPS_OBS_MISSING;
        row[GAPS_W_WPT] = row[GAPS_W_WRAP] = GAPS_OBS_MISSING;
    }

    /* the jets (gaps_antikt, as the LHC analysis), ordered by p_T; the first that passes the
     * cuts is j1 */
    gaps_jet jets[GAPS_W_MAX_JETS];
    const int nj = gaps_antikt(nq, (const double(*)[4])q, GAPS_W_JET_R, GAPS_W_MAX_JETS,
                               GAPS_W_JET_D_MAX, jets);
    int passing = 0, first = -1;
    for (int k = 0; k < nj; ++k)
        if (jets[k].pt > GAPS_W_JET_PT_MIN && fabs(jets[k].eta) < GAPS_W_JET_ETA_MAX) {
            if (first < 0) first = k;
            ++passing;
        }
    row[GAPS_W_NJETS] = passing;
    row[GAPS_W_J1_PT] = first >= 0 ? jets[first].pt : GAPS_OBS_MISSING;
    row[GAPS_W_J1_ETA] = first >= 0 ? jets[first].eta : GAPS_OBS_MISSING;
}

GAPS_DEVICE_END
