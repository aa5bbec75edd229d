/* gaps/hepmc.h -- write the kept final states as HepMC3 ASCII events (the "Asciiv3" format of
 * HepMC3's WriterAscii, read by its ReaderAscii from version 3.1 on), so that Rivet and
 * other standard tools can analyse gaps events. */
#ifndef GAPS_HEPMC_H
#define GAPS_HEPMC_H

#include <stdint.h>
#include <stdio.h>
#include "gaps/analysis.h"
#include "gaps/process.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* The cross-section information of one event: the estimate over the events so far. */
typedef struct gaps_hepmc_xsec {
    double sigma, sigma_err;   /* pb */
    int64_t events;            /* events it is based on */
} gaps_hepmc_xsec;

/* The file header and the run information: tool name, version and a description that names
 * the process of the attribute "process" (absent: ee-qq), and n_attributes run attributes
 * given as name/value pairs attributes[2 k], attributes[2 k + 1] (values without newlines). */
void gaps_hepmc_write_header(FILE *f, const char *const *attributes, int n_attributes);

/* Record i of r as one event of process proc: the two beams (status 4) from the process;
 * for a record without incoming partons the s-channel boson of the process (status 2) and
 * the outgoing partons from its decay, otherwise the incoming partons (status 21, each from
 * its beam) meeting in one vertex with the outgoing particles (status 1; a decayed Drell-Yan
 * Z/gamma* status 62, rebuilt from its decay products), and a beam remnant per beam (PDG 82,
 * status 1, beam minus incoming parton, carrying the colour its beam keeps), so that the
 * final particles add up to the beams; colour flow as flow1/flow2 attributes; weight and
 * cross section in pb.  The caller checks ferror(f). */
void gaps_hepmc_write_event(FILE *f, const gaps_process *proc, const gaps_records *r, int i,
                            const gaps_hepmc_xsec *xs);

/* Named weights an event may carry besides the nominal one. */
#define GAPS_HEPMC_MAX_WEIGHTS 256

/* The same with n_weights (at most GAPS_HEPMC_MAX_WEIGHTS) named weights after the nominal one (the other weights of a Les
 * Houches file's events: its scale and PDF variations, carried unchanged through the shower).
 * The header's run info names them after "Default" (names without white space); each event's
 * W line gives its n_weights weights w (pb) after the nominal one, and its GenCrossSection the
 * running cross section and error of each, xs_w[2 k] and xs_w[2 k + 1], after the nominal's,
 * as HepMC3's GenCrossSection writes several. */
void gaps_hepmc_write_header_named(FILE *f, const char *const *attributes, int n_attributes,
                                   const char *const *weight_names, int n_weights);
void gaps_hepmc_write_event_named(FILE *f, const gaps_process *proc, const gaps_records *r,
                                  int i, const gaps_hepmc_xsec *xs, const double *w,
                                  const double *xs_w, int n_weights);

/* The end of the event listing. */
void gaps_hepmc_write_footer(FILE *f);

GAPS_C_END

#endif
