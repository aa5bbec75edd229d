/* lhe_out.h -- `--lhe-out FILE`: the hard events of a run as a Les Houches Event file
 * (src/io/lhe_write.h writes it; the format: doc/formats.md, "Les Houches Event files
 * (written)").
 *
 * The file is an extra output of the run, written by the program on the host after the run
 * and committed with the run's other outputs (outfile.h): for each event number of the run,
 * in order, the hard event the shower started from, generated again from the event's random
 * stream exactly as gaps_shower_start() does, with the same bits on every backend
 * (doc/reproducibility.md).  The run itself does not change.
 *
 * The file holds the run's cross section (XSECUP, XERRUP: the summary's sigma and error) and
 * the largest |weight| (XMAXUP) in its init block, before the events.  The run's numbers are
 * known when the file is written; the largest weight comes from a first host pass over the
 * hard events (nothing is written), the events from a second: so every destination, a FIFO
 * and standard output included, gets the exact numbers, and nothing is patched afterwards.
 *
 * The file is an ATOMIC output (never a FILE.part): a checkpointed run that is stopped
 * leaves none, and the run that resumes it writes the whole file, every event number of the
 * run, with the cross section of the whole run. */
#ifndef GAPS_LHE_OUT_H
#define GAPS_LHE_OUT_H

#include <stddef.h>
#include <stdio.h>
#include "gaps/generator.h"

/* Write the hard events of the run cfg made (run: its cross section and weight unit) to f.
 * 0, or -1 with one line in msg (the PDF set, memory; a write error is the stream's, which
 * the output module reports). */
int gaps_lhe_out_write(FILE *f, const gaps_config *cfg, const gaps_run *run, char *msg,
                       size_t len);

#endif
