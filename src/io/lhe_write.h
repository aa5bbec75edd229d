/* lhe_write.h -- the hard events of a run as a Les Houches Event file (LHEF 3.0), for
 * `--lhe-out FILE` (src/program/lhe_out.c drives it; the format, field by field:
 * doc/formats.md, "Les Houches Event files (written)").
 *
 * Each event is the gaps_hard_event the shower starts from, with exact momenta and weights
 * (%.17g reads back as the same double), and an element the other readers skip,
 *   <gaps event="N" draw="D" t="T" x1="X1" x2="X2"/>
 * with what a shower of gaps needs to continue the event's random stream bit for bit: its
 * event number, the draw index after the hard event, the start scale and the momentum
 * fractions as the process computed them.
 *
 *   gaps_lhe_write_init(f, &run);                 <LesHouchesEvents>, <header>, <init>
 *   for each event: gaps_lhe_write_event(f, proc, &ev, number, draw, alpha_s);
 *   gaps_lhe_write_end(f);                        </LesHouchesEvents>
 *
 * Every function writes in the C locale whatever the caller's and returns 0, or -1 when the
 * stream has an error (the caller's output module says which). */
#ifndef GAPS_LHE_WRITE_H
#define GAPS_LHE_WRITE_H

#include <stdint.h>
#include <stdio.h>
#include "gaps/process.h"

/* What the init block says: the run, its cross section and its PDFs. */
typedef struct gaps_lhe_write_run {
    const gaps_process *proc;   /* the run's process: id, beams, sqrt(s), weight unit */
    int nlo;                    /* 0 or 1: IDWTUP 4 (positive weights) or -4 (signed) */
    uint32_t seed;
    int64_t first_event, events;
    double sigma, sigma_err;    /* XSECUP, XERRUP: the run's cross section and error, pb */
    double max_weight;          /* XMAXUP: the largest |weight| of the events, pb */
    int pdf_group, pdf_set;     /* PDFGUP, PDFSUP of both beams */
} gaps_lhe_write_run;

int gaps_lhe_write_init(FILE *f, const gaps_lhe_write_run *run);

/* One <event>: the hard event ev of event number `event`, draw the random stream's draw
 * index after it, alpha_s the coupling at its start scale (AQCDUP; -1 if none).  -2, with
 * nothing written, for a record of more rows than GAPS_HARD_MAX or more than two incoming
 * ones (a bug of its process). */
int gaps_lhe_write_event(FILE *f, const gaps_process *proc, const gaps_hard_event *ev,
                         int64_t event, uint32_t draw, double alpha_s);

int gaps_lhe_write_end(FILE *f);

#endif
