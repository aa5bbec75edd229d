/* gaps/analysis_lep.h -- the LEP analysis, listed once: its per-event columns and its
 * histograms (doc/physics.md section 4).
 *
 * Everything else is generated from these two lists (gaps/analyses.h): the column enum
 * GAPS_LEP_* and the CSV header (--observables-out), the histogram enum GAPS_LEP_H_*, the
 * binning table, the number of accumulator bins a state file carries, and the filling of
 * each event.  A new histogram of an existing column is one line here; a new column is one
 * line here and its value in gaps_lep_row() (src/analysis/lep.c).
 */
#ifndef GAPS_ANALYSIS_LEP_H
#define GAPS_ANALYSIS_LEP_H

#include "gaps/analyses.h"

/* X(id, CSV name): the columns after the common ones (GAPS_COMMON_COLUMNS). */
#define GAPS_LEP_COLUMNS(X)                                                                    \
    X(Y23, "y23") X(Y34, "y34") X(Y45, "y45") X(Y56, "y56")                                    \
    X(TAU, "tau") X(RHO_H, "rho_H") X(RHO_L, "rho_L")                                          \
    X(B_T, "B_T") X(B_W, "B_W") X(B_N, "B_N") X(C, "C")

/* X(id, column, column2, transform, min_partons, path, title, xlabel, ylabel, nbins, lo,
 * hi): the histogram GAPS_LEP_H_<id> of `column` (enum gaps_fill_transform), filled only
 * for events with at least min_partons final partons (a y_{n,n+1} exists from n + 1 partons
 * on); nbins bins on [lo, hi) plus under- and overflow.  column2 is GAPS_OBS_NONE here (see
 * gaps/analysis_lhc.h for a histogram filled from two columns). */
#define GAPS_LEP_DSIGMA_(v) "$\\mathrm{d}\\sigma/\\mathrm{d}" v "$ [pb]"
#define GAPS_LEP_HISTOGRAMS(X)                                                                 \
    X(Y23, GAPS_LEP_Y23, GAPS_OBS_NONE, GAPS_FILL_LOG10, 3, "/LEP/log10_y23",                  \
      "Durham log10(y_23)", "$\\log_{10}(y_{23})$", GAPS_LEP_DSIGMA_("\\log_{10}(y_{23})"),   \
      100, -4.3, -0.3)                                                                         \
    X(Y34, GAPS_LEP_Y34, GAPS_OBS_NONE, GAPS_FILL_LOG10, 4, "/LEP/log10_y34",                  \
      "Durham log10(y_34)", "$\\log_{10}(y_{34})$", GAPS_LEP_DSIGMA_("\\log_{10}(y_{34})"),   \
      100, -4.3, -0.3)                                                                         \
    X(Y45, GAPS_LEP_Y45, GAPS_OBS_NONE, GAPS_FILL_LOG10, 5, "/LEP/log10_y45",                  \
      "Durham log10(y_45)", "$\\log_{10}(y_{45})$", GAPS_LEP_DSIGMA_("\\log_{10}(y_{45})"),   \
      100, -4.3, -0.3)                                                                         \
    X(Y56, GAPS_LEP_Y56, GAPS_OBS_NONE, GAPS_FILL_LOG10, 6, "/LEP/log10_y56",                  \
      "Durham log10(y_56)", "$\\log_{10}(y_{56})$", GAPS_LEP_DSIGMA_("\\log_{10}(y_{56})"),   \
      100, -4.3, -0.3)                                                                         \
    X(TAU, GAPS_LEP_TAU, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/tau", "1 - thrust",          \
      "$\\tau = 1 - T$", GAPS_LEP_DSIGMA_("\\tau"), 100, 0.0, 0.5)                             \
    X(RHO_H, GAPS_LEP_RHO_H, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/rho_H",                  \
      "heavy jet mass", "$\\rho_H = M_H^2/E_\\mathrm{vis}^2$", GAPS_LEP_DSIGMA_("\\rho_H"),    \
      100, 0.0, 0.4)                                                                           \
    X(RHO_L, GAPS_LEP_RHO_L, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/rho_L",                  \
      "light jet mass", "$\\rho_L = M_L^2/E_\\mathrm{vis}^2$", GAPS_LEP_DSIGMA_("\\rho_L"),    \
      100, 0.0, 0.2)                                                                           \
    X(B_T, GAPS_LEP_B_T, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/B_T",                        \
      "total jet broadening", "$B_T$", GAPS_LEP_DSIGMA_("B_T"), 100, 0.0, 0.4)                 \
    X(B_W, GAPS_LEP_B_W, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/B_W",                        \
      "wide jet broadening", "$B_W$", GAPS_LEP_DSIGMA_("B_W"), 100, 0.0, 0.3)                  \
    X(B_N, GAPS_LEP_B_N, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/B_N",                        \
      "narrow jet broadening", "$B_N$", GAPS_LEP_DSIGMA_("B_N"), 100, 0.0, 0.15)               \
    X(C, GAPS_LEP_C, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/C", "C-parameter", "$C$",        \
      GAPS_LEP_DSIGMA_("C"), 100, 0.0, 1.0)                                                    \
    X(NPARTONS, GAPS_OBS_NPARTONS, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/LEP/n_partons",        \
      "final-state parton multiplicity", "$n_\\mathrm{partons}$",                              \
      "$\\sigma(n_\\mathrm{partons})$ [pb]", 64, -0.5, 63.5)

enum gaps_lep_column {
    GAPS_LEP_BEFORE_ = GAPS_OBS_FIRST - 1,
#define GAPS_LEP_COLUMN_ENUM_(id, name) GAPS_LEP_##id,
    GAPS_LEP_COLUMNS(GAPS_LEP_COLUMN_ENUM_)
#undef GAPS_LEP_COLUMN_ENUM_
    GAPS_LEP_N_COLUMNS   /* columns of a row, the common ones included */
};

enum gaps_lep_hist {
#define GAPS_LEP_HIST_ENUM_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi)           \
    GAPS_LEP_H_##id,
    GAPS_LEP_HISTOGRAMS(GAPS_LEP_HIST_ENUM_)
#undef GAPS_LEP_HIST_ENUM_
    GAPS_LEP_N_HISTS     /* the event counter follows them (gaps/histogram.h) */
};

#endif
