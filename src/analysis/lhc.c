/* lhc.c -- the hadron-collider analysis: Z observables, leptons and anti-k_T jets of one event
 * (gaps/analysis_lhc.h; definitions in doc/physics.md section 13, after GAPS 2.1's
 * "MC_ZINC-like" analysis).
 *
 * The record (what the shower leaves in the pool): incoming partons first (rows 0 .. n_in-1),
 * then the outgoing particles: for p p -> Z the Z (PDG 23, massive, colourless) and partons,
 * for p p -> l+ l- the lepton pair and partons.  The Z is the PDG-23 row, or else the sum of
 * the first two charged leptons; jets are made of the outgoing quarks and gluons only.
 */
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps/jets.h"

#include <math.h>
#include <stdlib.h>

GAPS_DEVICE_BEGIN

/* Does jet k (0-based) of nj exist and pass the cuts of njets and of the Delta R's? */
static int jet_passes(const gaps_jet *jets, int nj, int k)
{
    return k < nj && fabs(jets[k].eta) < GAPS_LHC_JET_ETA_MAX
           && jets[k].pt > GAPS_LHC_JET_PT_MIN;
}

static double delta_r(double eta_a, double phi_a, double eta_b, double phi_b)
{
    const double de = eta_a - eta_b, dp = gaps_delta_phi(phi_a, phi_b);
    return sqrt(de * de + dp * dp);
}

void gaps_lhc_row(double *row, int n_in, int n, const double p[][4], const int *flav)
{
    if (n > GAPS_MAX_PARTONS) n = GAPS_MAX_PARTONS;
    double z[4] = { 0.0, 0.0, 0.0, 0.0 };
    double q[GAPS_MAX_PARTONS][4];
    int have_z = 0, n_lep = 0, nq = 0, lep[2] = { 0, 0 };
    for (int k = n_in; k < n; ++k) {
        const int f = flav[k], af = abs(f);
        if (f == 23 && !have_z) {
            for (int m = 0; m < 4; ++m) z[m] = p[k][m];
            have_z = 1;
        } else if (af == 11 || af == 13 || af == 15) {
            if (n_lep < 2) lep[n_lep++] = k;
        } else if (f == GAPS_GLUON || (af >= 1 && af <= 6)) {
            for (int m = 0; m < 4; ++m) q[nq][m] = p[k][m];
            ++nq;
        }
    }
    if (!have_z && n_lep == 2) {   /* a Z/gamma* that decayed: the pair's momentum */
        for (int m = 0; m < 4; ++m) z[m] = p[lep[0]][m] + p[lep[1]][m];
        have_z = 1;
    }

    /* the Z */
    double z_eta = 0.0, z_phi = 0.0;
    if (have_z) {
        const double m2 = z[0] * z[0] - z[1] * z[1] - z[2] * z[2] - z[3] * z[3];
        /* the Z and a lepton pair are massive: m2 > 0 but for rounding, which the clamp keeps
         * in the first bin instead of turning it into a NaN */
        row[GAPS_LHC_ZMASS] = sqrt(m2 > 0.0 ? m2 : 0.0);
        row[GAPS_LHC_ZPT] = sqrt(z[1] * z[1] + z[2] * z[2]);
        z_phi = gaps_azimuth(z[1], z[2]);
        row[GAPS_LHC_ZPHI] = z_phi;
        row[GAPS_LHC_ZRAP] = 0.5 * gaps_log((z[0] + z[3]) / (z[0] - z[3]));
        z_eta = gaps_pseudorapidity(z[1], z[2], z[3]);
    } else {
        row[GAPS_LHC_ZMASS] = row[GAPS_LHC_ZPT] = GAPS_OBS_MISSING;
        row[GAPS_LHC_ZPHI] = row[GAPS_LHC_ZRAP] = GAPS_OBS_MISSING;
    }

    /* the leptons, in record order */
    const int pt_col[2] = { GAPS_LHC_LEP1_PT, GAPS_LHC_LEP2_PT };
    const int eta_col[2] = { GAPS_LHC_LEP1_ETA, GAPS_LHC_LEP2_ETA };
    for (int l = 0; l < 2; ++l) {
        if (l < n_lep) {
            const double *pl = p[lep[l]];
            row[pt_col[l]] = sqrt(pl[1] * pl[1] + pl[2] * pl[2]);
            row[eta_col[l]] = gaps_pseudorapidity(pl[1], pl[2], pl[3]);
        } else {
            row[pt_col[l]] = row[eta_col[l]] = GAPS_OBS_MISSING;
        }
    }

    /* the jets.  GAPS 2.1 stops clustering after 10 jets and never makes a jet of a cluster
     * whose distance reaches 10^6 GeV^-2 (p_T < 1 MeV): kept, so that njets (whose 10
     * overflows) and the leading jets are GAPS's, although plain anti-k_T would go on;
     * the three leading jets change only in events with more than 10 hard clusters. */
    gaps_jet jets[GAPS_LHC_MAX_JETS];
    const int nj = gaps_antikt(nq, (const double(*)[4])q, GAPS_LHC_JET_R, GAPS_LHC_MAX_JETS,
                               GAPS_LHC_JET_D_MAX, jets);
    const int jpt_col[3] = { GAPS_LHC_J1_PT, GAPS_LHC_J2_PT, GAPS_LHC_J3_PT };
    const int jeta_col[3] = { GAPS_LHC_J1_ETA, GAPS_LHC_J2_ETA, GAPS_LHC_J3_ETA };
    for (int k = 0; k < 3; ++k) {
        /* the p_T of a jet inside |eta| < 5, the eta of a jet above 5 GeV (GAPS's cuts) */
        row[jpt_col[k]] = k < nj && fabs(jets[k].eta) < GAPS_LHC_JET_ETA_MAX
                              ? jets[k].pt : GAPS_OBS_MISSING;
        row[jeta_col[k]] = k < nj && jets[k].pt > GAPS_LHC_JET_PT_MIN
                               ? jets[k].eta : GAPS_OBS_MISSING;
    }
    int passing = 0;
    for (int k = 0; k < nj; ++k) passing += jet_passes(jets, nj, k);
    row[GAPS_LHC_NJETS] = passing;
    const int j1 = jet_passes(jets, nj, 0), j2 = jet_passes(jets, nj, 1);
    const int j3 = jet_passes(jets, nj, 2);
    row[GAPS_LHC_DETAZJ1] = have_z && j1 ? z_eta - jets[0].eta : GAPS_OBS_MISSING;
    row[GAPS_LHC_DRZJ1] = have_z && j1 ? delta_r(z_eta, z_phi, jets[0].eta, jets[0].phi)
                                       : GAPS_OBS_MISSING;
    row[GAPS_LHC_DRJ1J2] = j1 && j2 ? delta_r(jets[0].eta, jets[0].phi, jets[1].eta,
                                              jets[1].phi) : GAPS_OBS_MISSING;
    row[GAPS_LHC_DRJ1J3] = j1 && j3 ? delta_r(jets[0].eta, jets[0].phi, jets[2].eta,
                                              jets[2].phi) : GAPS_OBS_MISSING;
    row[GAPS_LHC_DRJ2J3] = j2 && j3 ? delta_r(jets[1].eta, jets[1].phi, jets[2].eta,
                                              jets[2].phi) : GAPS_OBS_MISSING;
}

GAPS_DEVICE_END
