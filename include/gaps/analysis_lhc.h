/* gaps/analysis_lhc.h -- the hadron-collider analysis (GAPS 2.1's "MC_ZINC-like" histograms,
 * doc/physics.md section 13), listed once: its per-event columns and its histograms.
 *
 * The Z boson (the PDG-23 row of the record, or the sum of the lepton pair when the process
 * decays it), its leptons, and anti-k_T jets (R = 0.4) of the outgoing partons; values in
 * gaps_lhc_row() (src/analysis/lhc.c).  An observable the event lacks is GAPS_OBS_MISSING
 * (-50): it fills the underflow, so that every histogram is filled once per event (leptpt and
 * lepteta twice, with w/2 each), as in GAPS 2.1.
 */
#ifndef GAPS_ANALYSIS_LHC_H
#define GAPS_ANALYSIS_LHC_H

#include "gaps/analyses.h"

/* X(id, CSV name): the columns after the common ones (GAPS_COMMON_COLUMNS).  Lepton 1 is the
 * first lepton of the record, jets are ordered by p_T. */
#define GAPS_LHC_COLUMNS(X)                                                                    \
    X(ZMASS, "zmass") X(ZPT, "zpt") X(ZRAP, "zrap") X(ZPHI, "zphi")                            \
    X(LEP1_PT, "lep1_pt") X(LEP1_ETA, "lep1_eta") X(LEP2_PT, "lep2_pt")                        \
    X(LEP2_ETA, "lep2_eta")                                                                    \
    X(J1_PT, "j1_pt") X(J1_ETA, "j1_eta") X(J2_PT, "j2_pt") X(J2_ETA, "j2_eta")                \
    X(J3_PT, "j3_pt") X(J3_ETA, "j3_eta") X(NJETS, "njets")                                    \
    X(DETAZJ1, "detazj1") X(DRZJ1, "dRzj1") X(DRJ1J2, "dRj1j2") X(DRJ1J3, "dRj1j3")            \
    X(DRJ2J3, "dRj2j3")

/* X(id, column, column2, transform, min_partons, path, title, xlabel, ylabel, nbins, lo, hi)
 * as in gaps/analysis_lep.h.  A histogram with a second column (leptpt, lepteta) is filled
 * from both, each with half the event weight.  Paths, binning and order are GAPS 2.1's
 * (doc/physics.md section 13), so that its files compare object by object. */
#define GAPS_LHC_DSIGMA_(v) "$\\mathrm{d}\\sigma/\\mathrm{d}" v "$ [pb]"
#define GAPS_LHC_HISTOGRAMS(X)                                                                 \
    X(ZMASS, GAPS_LHC_ZMASS, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/zmass",             \
      "Z mass", "$m_Z$ [GeV]",                                                                 \
      GAPS_LHC_DSIGMA_("m_Z"), 100, 60.0, 120.0)                                               \
    X(ZPT, GAPS_LHC_ZPT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/zpt",                   \
      "Z transverse momentum", "$p_\\perp^Z$ [GeV]",                                           \
      GAPS_LHC_DSIGMA_("p_\\perp^Z"), 100, 0.0, 100.0)                                         \
    X(ZPTFULL, GAPS_LHC_ZPT, GAPS_OBS_NONE, GAPS_FILL_LOG_BINS, 0, "/gaps_lhc/zptfull",        \
      "Z transverse momentum, logarithmic bins", "$p_\\perp^Z$ [GeV]",                         \
      GAPS_LHC_DSIGMA_("p_\\perp^Z"), 100, 0.5, 1000.0)                                        \
    X(ZPHI, GAPS_LHC_ZPHI, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/zphi",                \
      "Z azimuth", "$\\phi_Z$",                                                                \
      GAPS_LHC_DSIGMA_("\\phi_Z"), 100, -3.2, 3.2)                                             \
    X(ZRAP, GAPS_LHC_ZRAP, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/zrap",                \
      "Z rapidity", "$y_Z$",                                                                   \
      GAPS_LHC_DSIGMA_("y_Z"), 100, -10.0, 10.0)                                               \
    X(LEPTPT, GAPS_LHC_LEP1_PT, GAPS_LHC_LEP2_PT, GAPS_FILL_VALUE, 0, "/gaps_lhc/leptpt",      \
      "lepton transverse momentum", "$p_\\perp^\\ell$ [GeV]",                                  \
      GAPS_LHC_DSIGMA_("p_\\perp^\\ell"), 100, 0.0, 100.0)                                     \
    X(LEPTETA, GAPS_LHC_LEP1_ETA, GAPS_LHC_LEP2_ETA, GAPS_FILL_VALUE, 0, "/gaps_lhc/lepteta",  \
      "lepton pseudorapidity", "$\\eta_\\ell$",                                                \
      GAPS_LHC_DSIGMA_("\\eta_\\ell"), 100, -10.0, 10.0)                                       \
    X(J1PT, GAPS_LHC_J1_PT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/j1pt",               \
      "leading jet transverse momentum", "$p_\\perp^{j_1}$ [GeV]",                             \
      GAPS_LHC_DSIGMA_("p_\\perp^{j_1}"), 100, 0.0, 100.0)                                     \
    X(J2PT, GAPS_LHC_J2_PT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/j2pt",               \
      "second jet transverse momentum", "$p_\\perp^{j_2}$ [GeV]",                              \
      GAPS_LHC_DSIGMA_("p_\\perp^{j_2}"), 100, 0.0, 100.0)                                     \
    X(J3PT, GAPS_LHC_J3_PT, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/j3pt",               \
      "third jet transverse momentum", "$p_\\perp^{j_3}$ [GeV]",                               \
      GAPS_LHC_DSIGMA_("p_\\perp^{j_3}"), 100, 0.0, 100.0)                                     \
    X(J1ETA, GAPS_LHC_J1_ETA, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/j1eta",            \
      "leading jet pseudorapidity", "$\\eta_{j_1}$",                                           \
      GAPS_LHC_DSIGMA_("\\eta_{j_1}"), 100, -10.0, 10.0)                                       \
    X(J2ETA, GAPS_LHC_J2_ETA, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/j2eta",            \
      "second jet pseudorapidity", "$\\eta_{j_2}$",                                            \
      GAPS_LHC_DSIGMA_("\\eta_{j_2}"), 100, -10.0, 10.0)                                       \
    X(J3ETA, GAPS_LHC_J3_ETA, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/j3eta",            \
      "third jet pseudorapidity", "$\\eta_{j_3}$",                                             \
      GAPS_LHC_DSIGMA_("\\eta_{j_3}"), 100, -10.0, 10.0)                                       \
    X(NJETS, GAPS_LHC_NJETS, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/njets",             \
      "number of jets (pT > 5 GeV, |eta| < 5)", "$N_\\mathrm{jets}$",                          \
      "$\\sigma(N_\\mathrm{jets})$ [pb]", 10, -0.5, 9.5)                                       \
    X(DETAZJ1, GAPS_LHC_DETAZJ1, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/detazj1",       \
      "pseudorapidity of Z minus that of jet 1", "$\\eta_Z - \\eta_{j_1}$",                    \
      GAPS_LHC_DSIGMA_("(\\eta_Z - \\eta_{j_1})"), 100, -10.0, 10.0)                           \
    X(DRZJ1, GAPS_LHC_DRZJ1, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/dRzj1",             \
      "Delta R of Z and j1", "$\\Delta R(Z, j_1)$",                                            \
      GAPS_LHC_DSIGMA_("\\Delta R(Z, j_1)"), 100, 0.0, 10.0)                                   \
    X(DRJ1J2, GAPS_LHC_DRJ1J2, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/dRj1j2",          \
      "Delta R of j1 and j2", "$\\Delta R(j_1, j_2)$",                                         \
      GAPS_LHC_DSIGMA_("\\Delta R(j_1, j_2)"), 100, 0.0, 10.0)                                 \
    X(DRJ1J3, GAPS_LHC_DRJ1J3, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/dRj1j3",          \
      "Delta R of j1 and j3", "$\\Delta R(j_1, j_3)$",                                         \
      GAPS_LHC_DSIGMA_("\\Delta R(j_1, j_3)"), 100, 0.0, 10.0)                                 \
    X(DRJ2J3, GAPS_LHC_DRJ2J3, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lhc/dRj2j3",          \
      "Delta R of j2 and j3", "$\\Delta R(j_2, j_3)$",                                         \
      GAPS_LHC_DSIGMA_("\\Delta R(j_2, j_3)"), 100, 0.0, 10.0)

enum gaps_lhc_column {
    GAPS_LHC_BEFORE_ = GAPS_OBS_FIRST - 1,
#define GAPS_LHC_COLUMN_ENUM_(id, name) GAPS_LHC_##id,
    GAPS_LHC_COLUMNS(GAPS_LHC_COLUMN_ENUM_)
#undef GAPS_LHC_COLUMN_ENUM_
    GAPS_LHC_N_COLUMNS   /* columns of a row, the common ones included */
};

enum gaps_lhc_hist {
#define GAPS_LHC_HIST_ENUM_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi)           \
    GAPS_LHC_H_##id,
    GAPS_LHC_HISTOGRAMS(GAPS_LHC_HIST_ENUM_)
#undef GAPS_LHC_HIST_ENUM_
    GAPS_LHC_N_HISTS     /* the event counter follows them (gaps/histogram.h) */
};

/* The jets of the analysis (doc/physics.md section 13): anti-k_T with R = 0.4, at most
 * GAPS_LHC_MAX_JETS jets and no jet whose distance reaches GAPS_LHC_JET_D_MAX (GeV^-2);
 * jets count (njets, jNeta, Delta R) with p_T > GAPS_LHC_JET_PT_MIN and
 * |eta| < GAPS_LHC_JET_ETA_MAX. */
#define GAPS_LHC_JET_R 0.4
#define GAPS_LHC_MAX_JETS 10
#define GAPS_LHC_JET_D_MAX 1e6
#define GAPS_LHC_JET_PT_MIN 5.0
#define GAPS_LHC_JET_ETA_MAX 5.0

#endif
