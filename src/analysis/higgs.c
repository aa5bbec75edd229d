/* higgs.c -- the Higgs analysis: the Higgs, anti-k_T jets and their separations of one event
 * (gaps/analysis_higgs.h; doc/physics.md, "p p -> H (gluon fusion)").
 *
 * The record: incoming partons first (rows 0 .. n_in-1), then the outgoing particles: for
 * pp-h the Higgs and the partons of the shower. */
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps/jets.h"

#include <math.h>
#include <stdlib.h>

GAPS_DEVICE_BEGIN

void gaps_higgs_row(double *row, int n_in, int n, const double p[][4], const int *flav)
{
    if (n > GAPS_MAX_PARTONS) n = GAPS_MAX_PARTONS;
    double q[GAPS_MAX_PARTONS][4];
    int higgs = -1, nq = 0;
    for (int k = n_in; k < n; ++k) {
        const int f = flav[k], af = abs(f);
        if (f == 25) {
            if (higgs < 0) higgs = k;
        } else if (f == GAPS_GLUON || (af >= 1 && af <= 6)) {
            for (int m = 0; m < 4; ++m) q[nq][m] = p[k][m];
            ++nq;
        }
    }

    /* the Higgs */
    double y_h = 0.0, phi_h = 0.0;
    if (higgs >= 0) {
        const double *ph = p[higgs];
        y_h = 0.5 * gaps_log((ph[0] + ph[3]) / (ph[0] - ph[3]));
        phi_h = gaps_azimuth(ph[1], ph[2]);
        row[GAPS_HIGGS_HPT] = sqrt(ph[1] * ph[1] + ph[2] * ph[2]);
        row[GAPS_HIGGS_HRAP] = y_h;
    } else {
        row[GAPS_HIGGS_HPT] = row[GAPS_HIGGS_HRAP] = GAPS_OBS_MISSING;
    }

    /* the jets (gaps_antikt, as the LHC and W analyses), ordered by p_T; the first that
     * passes the cuts is j1 */
    gaps_jet jets[GAPS_HIGGS_MAX_JETS];
    const int nj = gaps_antikt(nq, (const double(*)[4])q, GAPS_HIGGS_JET_R, GAPS_HIGGS_MAX_JETS,
                               GAPS_HIGGS_JET_D_MAX, jets);
    int passing = 0, first = -1;
    for (int k = 0; k < nj; ++k)
        if (jets[k].pt > GAPS_HIGGS_JET_PT_MIN && fabs(jets[k].eta) < GAPS_HIGGS_JET_ETA_MAX) {
            if (first < 0) first = k;
            ++passing;
        }
    row[GAPS_HIGGS_NJETS] = passing;
    if (first >= 0) {
        const double *pj = jets[first].p;
        const double y_j = 0.5 * gaps_log((pj[0] + pj[3]) / (pj[0] - pj[3]));
        row[GAPS_HIGGS_J1_PT] = jets[first].pt;
        row[GAPS_HIGGS_J1_RAP] = y_j;
        if (higgs >= 0) {
            double dphi = fabs(phi_h - jets[first].phi);
            if (dphi > GAPS_PI) dphi = 2.0 * GAPS_PI - dphi;
            row[GAPS_HIGGS_DY_HJ1] = y_h - y_j;
            row[GAPS_HIGGS_DPHI_HJ1] = dphi;
        } else {
            row[GAPS_HIGGS_DY_HJ1] = row[GAPS_HIGGS_DPHI_HJ1] = GAPS_OBS_MISSING;
        }
    } else {
        row[GAPS_HIGGS_J1_PT] = row[GAPS_HIGGS_J1_RAP] = GAPS_OBS_MISSING;
        row[GAPS_HIGGS_DY_HJ1] = row[GAPS_HIGGS_DPHI_HJ1] = GAPS_OBS_MISSING;
    }
}

GAPS_DEVICE_END
