/* gaps/analysis_higgs.h -- the Higgs analysis (p p -> H through gluon fusion, the process pp-h), in
 * the spirit of Rivet's MC_HINC / MC_HJETS: its per-event columns and its histograms, listed
 * once.
 *
 * The Higgs (the first outgoing PDG 25 of the record): p_T and rapidity; anti-k_T jets
 * (R = 0.4) of the outgoing quarks and gluons with p_T > GAPS_HIGGS_JET_PT_MIN and
 * |eta| < GAPS_HIGGS_JET_ETA_MAX: their number, the leading one's p_T and rapidity, and its
 * separation from the Higgs in rapidity (y_H - y_j1) and azimuth (|Delta phi| in [0, pi]).
 * Values in gaps_higgs_row() (src/analysis/higgs.c); an observable the event lacks is
 * GAPS_OBS_MISSING (the underflow).  Every histogram is filled once per event.
 */
#ifndef GAPS_ANALYSIS_HIGGS_H
#define GAPS_ANALYSIS_HIGGS_H

#include "gaps/analyses.h"

/* X(id, CSV name): the columns after the common ones (GAPS_COMMON_COLUMNS). */
#define GAPS_HIGGS_COLUMNS(X)                                                                  \
    X(HPT, "hpt") X(HRAP, "hrap") X(NJETS, "njets") X(J1_PT, "j1_pt") X(J1_RAP, "j1_rap")      \
    X(DY_HJ1, "dy_hj1") X(DPHI_HJ1, "dphi_hj1")

/* X(id, column, column2, transform, min_partons, path, title, xlabel, ylabel, nbins, lo, hi)
 * as in gaps/analysis_lep.h. */
#define GAPS_HIGGS_DSIGMA_(v) "$\\mathrm{d}\\sigma/\\mathrm{d}" v "$ [pb]"
#define GAPS_HIGGS_HISTOGRAMS(X)                                                               \
    X(HPT, GAPS_HIGGS_HPT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_higgs/hpt",               \
      "Higgs transverse momentum", "$p_\\perp^H$ [GeV]", GAPS_HIGGS_DSIGMA_("p_\\perp^H"),     \
      100, 0.0, 200.0)                                                                         \
    X(HPTFULL, GAPS_HIGGS_HPT, GAPS_OBS_NONE, GAPS_FILL_LOG_BINS, 0, "/gaps_higgs/hptfull",    \
      "Higgs transverse momentum, logarithmic bins", "$p_\\perp^H$ [GeV]",                     \
      GAPS_HIGGS_DSIGMA_("p_\\perp^H"), 100, 0.5, 1000.0)                                      \
    X(HRAP, GAPS_HIGGS_HRAP, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_higgs/hrap",            \
      "Higgs rapidity", "$y_H$", GAPS_HIGGS_DSIGMA_("y_H"), 100, -5.0, 5.0)                    \
    X(NJETS, GAPS_HIGGS_NJETS, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_higgs/njets",         \
      "number of jets (pT > 30 GeV, |eta| < 4.5)", "$N_\\mathrm{jets}$",                       \
      "$\\sigma(N_\\mathrm{jets})$ [pb]", 10, -0.5, 9.5)                                       \
    X(J1PT, GAPS_HIGGS_J1_PT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_higgs/j1pt",           \
      "leading jet transverse momentum", "$p_\\perp^{j_1}$ [GeV]",                             \
      GAPS_HIGGS_DSIGMA_("p_\\perp^{j_1}"), 100, 0.0, 200.0)                                   \
    X(J1RAP, GAPS_HIGGS_J1_RAP, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_higgs/j1rap",        \
      "leading jet rapidity", "$y_{j_1}$", GAPS_HIGGS_DSIGMA_("y_{j_1}"), 100, -5.0, 5.0)      \
    X(DYHJ1, GAPS_HIGGS_DY_HJ1, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_higgs/dyhj1",        \
      "rapidity difference of the Higgs and the leading jet", "$y_H - y_{j_1}$",               \
      GAPS_HIGGS_DSIGMA_("(y_H - y_{j_1})"), 100, -10.0, 10.0)                                 \
    X(DPHIHJ1, GAPS_HIGGS_DPHI_HJ1, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_higgs/dphihj1",  \
      "azimuthal separation of the Higgs and the leading jet", "$\\Delta\\phi(H, j_1)$",       \
      GAPS_HIGGS_DSIGMA_("\\Delta\\phi"), 50, 0.0, 3.1415926535897932)

enum gaps_higgs_column {
    GAPS_HIGGS_BEFORE_ = GAPS_OBS_FIRST - 1,
#define GAPS_HIGGS_COLUMN_ENUM_(id, name) GAPS_HIGGS_##id,
    GAPS_HIGGS_COLUMNS(GAPS_HIGGS_COLUMN_ENUM_)
#undef GAPS_HIGGS_COLUMN_ENUM_
    GAPS_HIGGS_N_COLUMNS   /* columns of a row, the common ones included */
};

enum gaps_higgs_hist {
#define GAPS_HIGGS_HIST_ENUM_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi)        \
    GAPS_HIGGS_H_##id,
    GAPS_HIGGS_HISTOGRAMS(GAPS_HIGGS_HIST_ENUM_)
#undef GAPS_HIGGS_HIST_ENUM_
    GAPS_HIGGS_N_HISTS     /* the event counter follows them (gaps/histogram.h) */
};

/* The jets: anti-k_T with R = GAPS_HIGGS_JET_R of the outgoing quarks and gluons, the first
 * GAPS_HIGGS_MAX_JETS made (no jet below 1 MeV: d < GAPS_HIGGS_JET_D_MAX GeV^-2), those with
 * p_T > GAPS_HIGGS_JET_PT_MIN GeV and |eta| < GAPS_HIGGS_JET_ETA_MAX counted (njets, j1). */
#define GAPS_HIGGS_JET_R 0.4
#define GAPS_HIGGS_MAX_JETS 10
#define GAPS_HIGGS_JET_D_MAX 1e6
#define GAPS_HIGGS_JET_PT_MIN 30.0
#define GAPS_HIGGS_JET_ETA_MAX 4.5

#endif
