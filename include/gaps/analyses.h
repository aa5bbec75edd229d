/* gaps/analyses.h -- the list of analyses.  Each process names the analysis its events go
 * through (gaps_process_table, gaps/process.h). */
#ifndef GAPS_ANALYSES_H
#define GAPS_ANALYSES_H

enum gaps_analysis_id {
    GAPS_ANALYSIS_LEP = 0,   /* e+ e- event shapes and Durham jet rates (gaps/analysis_lep.h) */
    GAPS_ANALYSIS_LHC = 1,   /* Z (or dilepton) observables and anti-k_T jets */
    GAPS_N_ANALYSES
};

#endif
