/* gaps/hepmc.h -- write the kept final states as HepMC3 ASCII events (the "Asciiv3" format of
 * HepMC3's WriterAscii, read by its ReaderAscii from version 3.1 on), so that Rivet and
 * other standard tools can analyse gaps events. */
#ifndef GAPS_HEPMC_H
#define GAPS_HEPMC_H

#include <stdint.h>
#include <stdio.h>
#include "gaps/analysis.h"

/* Write events 0 .. n_events-1 of r (as filled with gaps_config.keep_records): per event the
 * two beams (status 4), the s-channel Z/gamma* (PDG 23, status 2) and the final partons
 * (status 1) with their colour flow as flow1/flow2 attributes; weight and cross section in pb.
 * ecm is sqrt(s) in GeV.  Returns 0, or -1 on a write error or a malformed record. */
int gaps_hepmc_write(FILE *f, const gaps_records *r, int64_t n_events, double ecm, double sigma,
                     double sigma_err);

#endif
