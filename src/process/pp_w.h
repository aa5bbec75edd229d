/* process/pp_w.h -- p p -> W -> l nu at LO and NLO (pp_w.c; its NLO events through the builder
 * of mcatnlo.h): its constants and run constants, private to the process and its tests. */
#ifndef GAPS_PROCESS_PP_W_H
#define GAPS_PROCESS_PP_W_H

#include "process/mcatnlo.h"
#include "process/processes.h"

/* The W boson (PDG 2020/2022 values) and its line shape. */
#define GAPS_PP_W_MW      80.379   /* W mass, GeV */
#define GAPS_PP_W_GAMMA_W 2.085    /* W width, GeV */
#define GAPS_PDG_W        24       /* PDG code of the W+ (the W- is -24) */
#define GAPS_PDG_NU_E     12       /* PDG code of the electron neutrino */
/* The lepton-neutrino mass window of pp-w: M_W -+ 20 Gamma_W (38.7 - 122.1 GeV), which holds
 * all but ~2 % of the Breit-Wigner; the events are generated in it and the cross section is
 * that of the window. */
#define GAPS_PP_W_WINDOW_WIDTHS 20.0
#define GAPS_PP_W_M_LO (GAPS_PP_W_MW - GAPS_PP_W_WINDOW_WIDTHS * GAPS_PP_W_GAMMA_W)
#define GAPS_PP_W_M_HI (GAPS_PP_W_MW + GAPS_PP_W_WINDOW_WIDTHS * GAPS_PP_W_GAMMA_W)
/* CKM magnitudes |V_ud| ... |V_cb| (PDG 2020, "global fit" magnitudes rounded); the top row
 * is absent (5 light flavours). */
#define GAPS_PP_W_VUD 0.97370
#define GAPS_PP_W_VUS 0.2245
#define GAPS_PP_W_VUB 0.00382
#define GAPS_PP_W_VCD 0.221
#define GAPS_PP_W_VCS 0.987
#define GAPS_PP_W_VCB 0.0410

/* Importance sampling: GAPS_PP_W_M_BINS bins of the mass variable rho times GAPS_PP_W_Y_BINS
 * bins of y / y_max(m); the mass map is a Breit-Wigner GAPS_PP_W_MAP_WIDTH times wider than
 * the W's. */
#define GAPS_PP_W_M_BINS 64
#define GAPS_PP_W_Y_BINS 64
#define GAPS_PP_W_CELLS (GAPS_PP_W_M_BINS * GAPS_PP_W_Y_BINS)
#define GAPS_PP_W_MAP_WIDTH 2.0
/* The nominal weight unit: the weight of the largest channel at this parton luminosity (as
 * GAPS_PP_LL_UNIT_LUMINOSITY, constants.h). */
#define GAPS_PP_W_UNIT_LUMINOSITY 7.0

/* The channels: up-type quark u (2) or c (4) times down-type d (1), s (3), b (5), times the
 * charge (W+: u dbar', W-: d' ubar) times the beam the quark comes from. */
#define GAPS_PP_W_PAIRS 6
#define GAPS_PP_W_CHANNELS (4 * GAPS_PP_W_PAIRS)

typedef struct gaps_pp_w {
    double m_lo, m_hi;      /* the l nu mass window, GeV */
    double mw2, mw_gw;      /* M_W^2, M_W Gamma_W, GeV^2 */
    double map_w;           /* m^2 = M_W^2 + map_w tan(rho), GeV^2 */
    double rho_lo, rho_hi;
    double sqrt_s, s;
    double norm;            /* pb: GEV2_TO_PB (4 pi alpha)^2 / (16 pi N_c) / (16 sin^4 theta_W) */
    int up[GAPS_PP_W_PAIRS], down[GAPS_PP_W_PAIRS];   /* the flavours of pair k */
    double v2[GAPS_PP_W_PAIRS];                       /* |V_(up down)|^2 */
    int charge_on[2];       /* --w-charge: the W+ [0] and W- [1] channels are made (1) or
                               left out (0, their weights 0 wherever the channels are summed) */
    int cells;              /* 0: no table, rho and u uniform */
    double cell_prob[GAPS_PP_W_CELLS], cell_cum[GAPS_PP_W_CELLS + 1];
} gaps_pp_w;

/* What gaps_process.data holds for pp-w: the LO constants and, with --nlo 1 (nlo.nlo.on), the
 * builder's (all 0 at LO). */
typedef struct gaps_pp_w_data {
    gaps_pp_w lo;
    gaps_mcatnlo nlo;
} gaps_pp_w_data;

#endif
