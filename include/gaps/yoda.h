/* gaps/yoda.h -- write the histograms, /_XSEC and /_EVTCOUNT in the YODA text format that
 * YODA 1.x and 2.x read (physics.md section 5). */
#ifndef GAPS_YODA_H
#define GAPS_YODA_H

#include <stdio.h>
#include "gaps/histogram.h"

/* Write every histogram normalised to sum(w)/N, then /_XSEC and /_EVTCOUNT.  Returns 0, or -1
 * on a write error. */
int gaps_yoda_write(FILE *f, const gaps_hist_result *r);

#endif
