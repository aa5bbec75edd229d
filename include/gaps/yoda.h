/* gaps/yoda.h -- write the histograms, /_XSEC and /_EVTCOUNT in the YODA text format that
 * YODA 1.x and 2.x read (doc/physics.md section 5). */
#ifndef GAPS_YODA_H
#define GAPS_YODA_H

#include <stdio.h>
#include "gaps/histogram.h"
#include "gaps/state.h"
#include "gaps/vary.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* Write every histogram of a run's state normalised to sum(w)/N, then /_XSEC and /_EVTCOUNT
 * with the run's settings as annotations (and a "Backend:" line when backend is not NULL);
 * for a state of a --vary run, the variations' histograms from its sums as
 * gaps_yoda_write_varied writes them.  Returns 0, or -1 on a write or allocation error. */
int gaps_yoda_write(FILE *f, const gaps_state *state, const char *backend);

/* The same, then every histogram and /_XSEC once more for each of n_vary variation weights
 * (--vary, gaps/vary.h), as /ANALYSIS/HIST[NAME] and /_XSEC[NAME] (the Rivet convention for
 * named weights), normalised by the same N, and a /_EVTCOUNT[NAME] after /_EVTCOUNT. */
int gaps_yoda_write_varied(FILE *f, const gaps_state *state, const char *backend, int n_vary,
                           const gaps_variation *vary, const gaps_hist_result *vary_hist);

GAPS_C_END

#endif
