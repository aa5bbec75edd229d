/* gaps/analysis_w.h -- the W analysis (p p -> W -> l nu, the process pp-w), in the spirit of
 * Rivet's MC_WINC / MC_WJETS: its per-event columns and its histograms, listed once.
 *
 * The charged lepton (the first e, mu or tau of the record's outgoing particles), the missing
 * transverse momentum (the sum of the neutrinos' p_T), the transverse mass
 * m_T = sqrt(2 (p_T,l p_T,miss - p_l . p_miss)) (transverse components), the W rebuilt from
 * the lepton and the neutrinos (mass, p_T, rapidity), and anti-k_T jets (R = 0.4) of the
 * outgoing quarks and gluons with p_T > GAPS_W_JET_PT_MIN and |eta| < GAPS_W_JET_ETA_MAX.
 * Values in gaps_w_row() (src/analysis/w.c); an observable the event lacks is
 * GAPS_OBS_MISSING (the underflow).  Every histogram is filled once per event.
 */
#ifndef GAPS_ANALYSIS_W_H
#define GAPS_ANALYSIS_W_H

#include "gaps/analyses.h"

/* X(id, CSV name): the columns after the common ones (GAPS_COMMON_COLUMNS). */
#define GAPS_W_COLUMNS(X)                                                                      \
    X(LEP_PT, "lep_pt") X(LEP_ETA, "lep_eta") X(LEP_CHARGE, "lep_charge") X(MET, "met")        \
    X(MT, "mt") X(WMASS, "wmass") X(WPT, "wpt") X(WRAP, "wrap") X(J1_PT, "j1_pt")              \
    X(J1_ETA, "j1_eta") X(NJETS, "njets")

/* X(id, column, column2, transform, min_partons, path, title, xlabel, ylabel, nbins, lo, hi)
 * as in gaps/analysis_lep.h. */
#define GAPS_W_DSIGMA_(v) "$\\mathrm{d}\\sigma/\\mathrm{d}" v "$ [pb]"
#define GAPS_W_HISTOGRAMS(X)                                                                   \
    X(LEP_PT, GAPS_W_LEP_PT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/lep_pt",              \
      "charged lepton transverse momentum", "$p_\\perp^\\ell$ [GeV]",                          \
      GAPS_W_DSIGMA_("p_\\perp^\\ell"), 100, 0.0, 100.0)                                       \
    X(LEP_ETA, GAPS_W_LEP_ETA, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/lep_eta",           \
      "charged lepton pseudorapidity", "$\\eta_\\ell$",                                        \
      GAPS_W_DSIGMA_("\\eta_\\ell"), 100, -10.0, 10.0)                                         \
    X(LEP_CHARGE, GAPS_W_LEP_CHARGE, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/lep_charge",  \
      "charged lepton charge (W- | W+)", "$q_\\ell$",                                          \
      "$\\sigma(q_\\ell)$ [pb]", 2, -2.0, 2.0)                                                 \
    X(MET, GAPS_W_MET, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/met",                       \
      "missing transverse momentum (neutrinos)", "$p_\\perp^\\mathrm{miss}$ [GeV]",            \
      GAPS_W_DSIGMA_("p_\\perp^\\mathrm{miss}"), 100, 0.0, 100.0)                              \
    X(MT, GAPS_W_MT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/mt",                          \
      "transverse mass", "$m_T$ [GeV]", GAPS_W_DSIGMA_("m_T"), 100, 0.0, 150.0)                \
    X(WMASS, GAPS_W_WMASS, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/wmass",                 \
      "lepton-neutrino mass", "$m_{\\ell\\nu}$ [GeV]",                                         \
      GAPS_W_DSIGMA_("m_{\\ell\\nu}"), 100, 30.0, 130.0)                                       \
    X(WPT, GAPS_W_WPT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/wpt",                       \
      "W transverse momentum", "$p_\\perp^W$ [GeV]", GAPS_W_DSIGMA_("p_\\perp^W"),             \
      100, 0.0, 100.0)                                                                         \
    X(WPTFULL, GAPS_W_WPT, GAPS_OBS_NONE, GAPS_FILL_LOG_BINS, 0, "/gaps_w/wptfull",            \
      "W transverse momentum, logarithmic bins", "$p_\\perp^W$ [GeV]",                         \
      GAPS_W_DSIGMA_("p_\\perp^W"), 100, 0.5, 1000.0)                                          \
    X(WRAP, GAPS_W_WRAP, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/wrap",                    \
      "W rapidity", "$y_W$", GAPS_W_DSIGMA_("y_W"), 100, -10.0, 10.0)                          \
    X(J1PT, GAPS_W_J1_PT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/j1pt",                   \
      "leading jet transverse momentum", "$p_\\perp^{j_1}$ [GeV]",                             \
      GAPS_W_DSIGMA_("p_\\perp^{j_1}"), 100, 0.0, 200.0)                                       \
    X(J1ETA, GAPS_W_J1_ETA, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/j1eta",                \
      "leading jet pseudorapidity", "$\\eta_{j_1}$", GAPS_W_DSIGMA_("\\eta_{j_1}"),            \
      100, -5.0, 5.0)                                                                          \
    X(NJETS, GAPS_W_NJETS, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_w/njets",                 \
      "number of jets (pT > 20 GeV, |eta| < 4.5)", "$N_\\mathrm{jets}$",                       \
      "$\\sigma(N_\\mathrm{jets})$ [pb]", 10, -0.5, 9.5)

enum gaps_w_column {
    GAPS_W_BEFORE_ = GAPS_OBS_FIRST - 1,
#define GAPS_W_COLUMN_ENUM_(id, name) GAPS_W_##id,
    GAPS_W_COLUMNS(GAPS_W_COLUMN_ENUM_)
#undef GAPS_W_COLUMN_ENUM_
    GAPS_W_N_COLUMNS   /* columns of a row, the common ones included */
};

enum gaps_w_hist {
#define GAPS_W_HIST_ENUM_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi)             \
    GAPS_W_H_##id,
    GAPS_W_HISTOGRAMS(GAPS_W_HIST_ENUM_)
#undef GAPS_W_HIST_ENUM_
    GAPS_W_N_HISTS     /* the event counter follows them (gaps/histogram.h) */
};

/* The jets: anti-k_T with R = GAPS_W_JET_R of the outgoing quarks and gluons, the first
 * GAPS_W_MAX_JETS made (no jet below 1 MeV: d < GAPS_W_JET_D_MAX GeV^-2), those with
 * p_T > GAPS_W_JET_PT_MIN GeV and |eta| < GAPS_W_JET_ETA_MAX counted (njets, j1). */
#define GAPS_W_JET_R 0.4
#define GAPS_W_MAX_JETS 10
#define GAPS_W_JET_D_MAX 1e6
#define GAPS_W_JET_PT_MIN 20.0
#define GAPS_W_JET_ETA_MAX 4.5

#endif
