/* process/pp_h.h -- p p -> H through gluon fusion at LO and NLO (pp_h.c; its NLO pieces in
 * pp_h_nlo.c, its NLO events through the builder of mcatnlo.h): its constants and run
 * constants, private to the process and its tests. */
#ifndef GAPS_PROCESS_PP_H_H
#define GAPS_PROCESS_PP_H_H

#include "process/mcatnlo.h"
#include "process/processes.h"

#define GAPS_PP_H_MH    125.0          /* Higgs mass, GeV */
#define GAPS_PDG_H      25             /* PDG code of the Higgs boson */
#define GAPS_PP_H_GF    1.1663788e-5   /* Fermi constant G_F, GeV^-2 */
/* sigma_0 = G_F alpha_s^2 / (288 sqrt(2) pi): its coefficient G_F / (288 sqrt(2) pi), GeV^-2
 * (the heavy-top limit m_t -> infinity of the LO amplitude, |A|^2 -> 1) */
#define GAPS_PP_H_SIGMA0_OVER_AS2 (GAPS_PP_H_GF / (288.0 * 1.41421356237309504880 * GAPS_PI))
/* The nominal weight unit: sigma_0 at alpha_s = GAPS_PP_H_UNIT_ALPHAS times 2Y times the g g
 * luminosity [x g(x_a)] [x g(x_b)] = GAPS_PP_H_UNIT_LUMINOSITY (a unit, not a result: it does
 * not depend on the run's coupling, so every state of a configuration has the same one). */
#define GAPS_PP_H_UNIT_ALPHAS 0.12
#define GAPS_PP_H_UNIT_LUMINOSITY 20.0
/* Importance sampling of the rapidity: as pp-z's (GAPS_PP_Y_BINS bins of [-Y, Y]). */
#define GAPS_PP_H_Y_BINS 128

typedef struct gaps_pp_h {
    double mh2;             /* m_H^2 = mu_F^2 = mu_R^2, GeV^2 */
    double sqrt_tau;        /* m_H / sqrt s */
    double y_max;           /* Y = ln(sqrt s / m_H) */
    double half_ecm;        /* sqrt s / 2, GeV */
    double alphas;          /* alpha_s(m_H^2) of the run (gaps_process_pp_h_set_coupling) */
    double norm;            /* 2Y sigma_0 in pb: the weight per unit of g g luminosity */
    int y_bins;             /* 0: no table, y uniform */
    double y_prob[GAPS_PP_H_Y_BINS], y_cum[GAPS_PP_H_Y_BINS + 1];
} gaps_pp_h;

/* What gaps_process.data holds for pp-h: the LO constants and, with --nlo 1 (nlo.nlo.on), the
 * builder's (all 0 at LO). */
typedef struct gaps_pp_h_data {
    gaps_pp_h lo;
    gaps_mcatnlo nlo;
} gaps_pp_h_data;

#endif
