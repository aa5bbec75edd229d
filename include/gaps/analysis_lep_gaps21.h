/* gaps/analysis_lep_gaps21.h -- GAPS 2.1's LEP histograms (/gaps_lep/..., GAPS 2.1
 * specification section 7.2), listed once: per-event columns and histograms.
 *
 * `--compat gaps21 --process ee-qq` (LO and --nlo 1) uses this analysis instead of the LEP
 * analysis of gaps/analysis_lep.h (gaps_process_analysis(), gaps/process.h), so that its YODA
 * file compares object by object with GAPS 2.1's.  Its conventions are GAPS 2.1's
 * (doc/physics.md section 4.7), not the textbook ones of the LEP analysis:
 *   - Durham y_ij normalised to s = (p_e+ + p_e-)^2, not to E_vis^2;
 *   - jet masses M/E_vis (not rho = M^2/E_vis^2);
 *   - thrust by GAPS 2.1's pair algorithm;
 *   - every histogram filled once per event: a value the event lacks is GAPS_OBS_MISSING
 *     (-50, underflow): log10 y_{m-1,m} of an event with fewer than m partons, every event
 *     shape of an event with fewer than 3 partons, ljm and njb when a hemisphere holds one
 *     parton; 1 - T below 1e-12 is GAPS_LEP_GAPS21_TAU_TINY (-5, underflow);
 *   - tzoomd holds the same value as tvalue (GAPS 2.1 zooms only the plot).
 * The values of the columns are exactly what the histograms bin (log10 y already taken), so
 * every histogram is GAPS_FILL_VALUE.  Row function: gaps_lep_gaps21_row()
 * (src/analysis/lep_gaps21.c).
 */
#ifndef GAPS_ANALYSIS_LEP_GAPS21_H
#define GAPS_ANALYSIS_LEP_GAPS21_H

#include "gaps/analyses.h"

/* X(id, CSV name): the columns after the common ones (GAPS_COMMON_COLUMNS). */
#define GAPS_LEP_GAPS21_COLUMNS(X)                                                             \
    X(LOG10Y23, "log10y23") X(LOG10Y34, "log10y34") X(LOG10Y45, "log10y45")                    \
    X(LOG10Y56, "log10y56") X(TVALUE, "tvalue") X(HJM, "hjm") X(LJM, "ljm") X(WJB, "wjb")      \
    X(NJB, "njb")

/* X(id, column, column2, transform, min_partons, path, title, xlabel, ylabel, nbins, lo, hi)
 * as in gaps/analysis_lep.h.  Paths, order and binnings are GAPS 2.1's (spec 7.2). */
#define GAPS_LEP_GAPS21_DSIGMA_(v) "$\\mathrm{d}\\sigma/\\mathrm{d}" v "$ [pb]"
#define GAPS_LEP_GAPS21_HISTOGRAMS(X)                                                          \
    X(LOG10Y23, GAPS_LEP_GAPS21_LOG10Y23, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0,                   \
      "/gaps_lep/log10y23", "Durham log10(y_23), y normalised to s",                           \
      "$\\log_{10}(y_{23})$", GAPS_LEP_GAPS21_DSIGMA_("\\log_{10}(y_{23})"), 100, -4.3, -0.3)  \
    X(LOG10Y34, GAPS_LEP_GAPS21_LOG10Y34, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0,                   \
      "/gaps_lep/log10y34", "Durham log10(y_34), y normalised to s",                           \
      "$\\log_{10}(y_{34})$", GAPS_LEP_GAPS21_DSIGMA_("\\log_{10}(y_{34})"), 100, -4.3, -0.3)  \
    X(LOG10Y45, GAPS_LEP_GAPS21_LOG10Y45, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0,                   \
      "/gaps_lep/log10y45", "Durham log10(y_45), y normalised to s",                           \
      "$\\log_{10}(y_{45})$", GAPS_LEP_GAPS21_DSIGMA_("\\log_{10}(y_{45})"), 100, -4.3, -0.3)  \
    X(LOG10Y56, GAPS_LEP_GAPS21_LOG10Y56, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0,                   \
      "/gaps_lep/log10y56", "Durham log10(y_56), y normalised to s",                           \
      "$\\log_{10}(y_{56})$", GAPS_LEP_GAPS21_DSIGMA_("\\log_{10}(y_{56})"), 100, -4.3, -0.3)  \
    X(TVALUE, GAPS_LEP_GAPS21_TVALUE, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lep/tvalue",   \
      "1 - thrust", "$1 - T$", GAPS_LEP_GAPS21_DSIGMA_("(1 - T)"), 100, 0.0, 0.5)              \
    X(TZOOMD, GAPS_LEP_GAPS21_TVALUE, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lep/tzoomd",   \
      "1 - thrust (a copy of tvalue, as GAPS 2.1 writes it)", "$1 - T$",                       \
      GAPS_LEP_GAPS21_DSIGMA_("(1 - T)"), 100, 0.0, 0.5)                                       \
    X(HJM, GAPS_LEP_GAPS21_HJM, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lep/hjm",            \
      "heavy jet mass M_H/E_vis", "$M_H/E_\\mathrm{vis}$",                                     \
      GAPS_LEP_GAPS21_DSIGMA_("(M_H/E_\\mathrm{vis})"), 100, 0.0, 1.0)                         \
    X(LJM, GAPS_LEP_GAPS21_LJM, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lep/ljm",            \
      "light jet mass M_L/E_vis", "$M_L/E_\\mathrm{vis}$",                                     \
      GAPS_LEP_GAPS21_DSIGMA_("(M_L/E_\\mathrm{vis})"), 100, 0.0, 0.5)                         \
    X(WJB, GAPS_LEP_GAPS21_WJB, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lep/wjb",            \
      "wide jet broadening", "$B_W$", GAPS_LEP_GAPS21_DSIGMA_("B_W"), 100, 0.0, 0.5)           \
    X(NJB, GAPS_LEP_GAPS21_NJB, GAPS_OBS_NONE, GAPS_FILL_VALUE, 0, "/gaps_lep/njb",            \
      "narrow jet broadening", "$B_N$", GAPS_LEP_GAPS21_DSIGMA_("B_N"), 100, 0.0, 0.2)

enum gaps_lep_gaps21_column {
    GAPS_LEP_GAPS21_BEFORE_ = GAPS_OBS_FIRST - 1,
#define GAPS_LEP_GAPS21_COLUMN_ENUM_(id, name) GAPS_LEP_GAPS21_##id,
    GAPS_LEP_GAPS21_COLUMNS(GAPS_LEP_GAPS21_COLUMN_ENUM_)
#undef GAPS_LEP_GAPS21_COLUMN_ENUM_
    GAPS_LEP_GAPS21_N_COLUMNS   /* columns of a row, the common ones included */
};

enum gaps_lep_gaps21_hist {
#define GAPS_LEP_GAPS21_HIST_ENUM_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi)    \
    GAPS_LEP_GAPS21_H_##id,
    GAPS_LEP_GAPS21_HISTOGRAMS(GAPS_LEP_GAPS21_HIST_ENUM_)
#undef GAPS_LEP_GAPS21_HIST_ENUM_
    GAPS_LEP_GAPS21_N_HISTS     /* the event counter follows them (gaps/histogram.h) */
};

/* 1 - T below GAPS_LEP_GAPS21_TAU_MIN is replaced by GAPS_LEP_GAPS21_TAU_TINY (underflow). */
#define GAPS_LEP_GAPS21_TAU_MIN 1e-12
#define GAPS_LEP_GAPS21_TAU_TINY (-5.0)

#endif
