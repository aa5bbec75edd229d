/* gaps/yoda.h -- write the histograms, /_XSEC and /_EVTCOUNT in the YODA text format that
 * YODA 1.x and 2.x read (doc/physics.md section 5). */
#ifndef GAPS_YODA_H
#define GAPS_YODA_H

#include <stdio.h>
#include "gaps/histogram.h"
#include "gaps/state.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* Write every histogram of a run's state normalised to sum(w)/N, then /_XSEC and /_EVTCOUNT
 * with the run's settings as annotations (and a "Backend:" line when backend is not NULL).
 * Returns 0, or -1 on a write or allocation error. */
int gaps_yoda_write(FILE *f, const gaps_state *state, const char *backend);

GAPS_C_END

#endif
