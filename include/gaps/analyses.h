/* gaps/analyses.h -- the list of analyses and what all of them share.
 *
 * A run's analysis follows from its process and --compat: gaps_process_analysis()
 * (gaps/process.h) is the one place that decides it (the process's own, from
 * gaps_process_table, except GAPS 2.1's LEP histograms for ee-qq under --compat gaps21);
 * gaps_process.analysis holds it for the event loop.  Each analysis is one X-list header
 * (gaps/analysis_lep.h, gaps/analysis_lhc.h, gaps/analysis_lep_gaps21.h) of its per-event
 * columns and its histograms, and one source file with
 * its row function gaps_<name>_row() (src/analysis/).  Everything else is generated from the
 * list below: the enum, the declarations of the row functions, the dispatch of the device
 * code (a switch on the run-uniform analysis id), the host table of columns, CSV header,
 * histograms and state sizes (gaps/analysis.h).
 *
 * Adding an analysis: its header (columns, histograms, the two enums as in the others), its
 * file with gaps_<name>_row(), one line in GAPS_ANALYSES and the header's #include at the
 * end of this file.
 */
#ifndef GAPS_ANALYSES_H
#define GAPS_ANALYSES_H

/* X(ID, name, COLUMNS, HISTOGRAMS): the analysis GAPS_ANALYSIS_<ID>, its row function
 * gaps_<name>_row() and its two X-lists.  The value of the enum is the analysis id a state
 * file stores (doc/formats.md): append, never reorder. */
#define GAPS_ANALYSES(X)                                                                       \
    X(LEP, lep, GAPS_LEP_COLUMNS, GAPS_LEP_HISTOGRAMS) /* e+ e- event shapes, Durham rates */  \
    X(LHC, lhc, GAPS_LHC_COLUMNS, GAPS_LHC_HISTOGRAMS) /* Z observables and anti-k_T jets */   \
    X(LEP_GAPS21, lep_gaps21, GAPS_LEP_GAPS21_COLUMNS,                                         \
      GAPS_LEP_GAPS21_HISTOGRAMS) /* GAPS 2.1's LEP histograms (--compat gaps21, ee-qq) */     \
    X(W, w, GAPS_W_COLUMNS, GAPS_W_HISTOGRAMS) /* W: lepton, missing pT, m_T, W, jets */     \
    X(HIGGS, higgs, GAPS_HIGGS_COLUMNS, GAPS_HIGGS_HISTOGRAMS) /* H: pT, y, jets, H-jet */

enum gaps_analysis_id {
#define GAPS_ANALYSIS_ENUM_(ID, name, columns, histograms) GAPS_ANALYSIS_##ID,
    GAPS_ANALYSES(GAPS_ANALYSIS_ENUM_)
#undef GAPS_ANALYSIS_ENUM_
    GAPS_N_ANALYSES
};

/* The first columns of every analysis's row; its own columns follow from GAPS_OBS_FIRST on.
 * EVENT holds the 64 bits of the event number (gaps_row_event()); n_partons counts the
 * outgoing quarks and gluons (not a Z, not leptons). */
#define GAPS_COMMON_COLUMNS(X) X(EVENT, "event") X(WEIGHT, "weight") X(NPARTONS, "n_partons")
enum gaps_common_column {
#define GAPS_COMMON_COLUMN_ENUM_(id, name) GAPS_OBS_##id,
    GAPS_COMMON_COLUMNS(GAPS_COMMON_COLUMN_ENUM_)
#undef GAPS_COMMON_COLUMN_ENUM_
    GAPS_OBS_FIRST,
    GAPS_OBS_NONE = -1   /* "no second column" in a histogram's definition */
};

/* How a histogram takes its column's value. */
enum gaps_fill_transform {
    GAPS_FILL_VALUE = 0,     /* the value itself, in equal bins */
    GAPS_FILL_LOG10 = 1,     /* log10 of the value (gaps_log10: the same bits on every
                                backend), in equal bins of log10 */
    GAPS_FILL_LOG_BINS = 2   /* the value itself, in bins of equal width in log10 of the
                                value (edges lo (hi/lo)^(i/n)); values <= 0 are underflow */
};

/* The value of a column that the event does not have (a jet it lacks, a lepton of a Z
 * without leptons): below every histogram's range, so it lands in the underflow, as GAPS 2.1
 * fills it (doc/physics.md section 13). */
#define GAPS_OBS_MISSING (-50.0)

/* The analyses' lists (after everything they use; each includes this header first). */
#include "gaps/analysis_lep.h"
#include "gaps/analysis_lhc.h"
#include "gaps/analysis_lep_gaps21.h"
#include "gaps/analysis_w.h"
#include "gaps/analysis_higgs.h"

#endif
