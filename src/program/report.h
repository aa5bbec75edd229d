/* report.h -- what a run and `gaps merge` report about what they did: the JSON summary
 * (--json), the text summary on standard output, the veto-cycle log (--cycles-out).  The
 * formats are in doc/formats.md.
 *
 * The physics part of the JSON (parameters, event ranges, cross section, counts) is computed
 * from the exact state alone and written by one function for both commands, so that one run
 * and a merge of its parts write the same lines.  The rest describes how a run went (backend,
 * threads, times, MPI ranks) and differs between runs of the same events.
 *
 * `generated` is the number of events this process generated: a resumed run counts from its
 * checkpoint, so that its rates are those of its own time. */
#ifndef GAPS_REPORT_H
#define GAPS_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "gaps/generator.h"
#include "gaps/state.h"

/* What a run with --lhe says of its file (lhe_feed.h); NULL for other runs. */
typedef struct gaps_report_file {
    int threads;                  /* threads that read its events (0: the run's own) */
    long pieces;                  /* pieces of it they read */
    int64_t serial_from;          /* read serially from this event of the file on; -1 never */
    const char *pdf_warning;      /* its PDF set is not the run's: why ("" if it is) */
} gaps_report_file;

/* A run's JSON summary: one object. */
void gaps_report_json(FILE *f, const gaps_config *cfg, const gaps_run *run, int64_t generated,
                      const gaps_report_file *file);
/* A run's text summary: version and device, parameters, pool, events, cross section, counts,
 * times, energy, MPI ranks. */
void gaps_report_summary(FILE *out, const gaps_config *cfg, const gaps_run *run,
                         int64_t generated, const gaps_report_file *file);
/* --cycles-out: events completed per veto cycle, as CSV. */
void gaps_report_cycle_log(FILE *f, const gaps_run *run);

/* A merge's JSON summary: the physics part and the number of states merged. */
void gaps_report_merge_json(FILE *f, const gaps_state *total, int n_inputs);
/* A merge's one-line summary: states, events, ranges, cross section. */
void gaps_report_merge_summary(FILE *out, const gaps_state *total, int n_inputs);

#endif
