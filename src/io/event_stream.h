/* event_stream.h -- per-event output written while the run goes, in event-number order.
 *
 * Events finish out of order: a slot whose shower is short finishes before an older event
 * with a long shower.  The stream keeps the events that arrive early in a reorder buffer
 * until every event before them is written, then writes them (the CSV row of
 * --observables-out, the HepMC3 event of --hepmc).  The buffer holds only events that are
 * waiting for an older one, so its size follows the spread of event numbers in the pool (a
 * few pool sizes), never the number of events in the run.
 *
 * The generator's events hook (gaps_hooks.events) calls gaps_event_stream_add from several
 * partitions at once: the stream serialises them with a mutex.
 */
#ifndef GAPS_EVENT_STREAM_H
#define GAPS_EVENT_STREAM_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "gaps/analysis.h"
#include "gaps/hepmc.h"

/* Named weights of the HepMC3 events besides the nominal one: n names (no white space).  The
 * first n - n_vary come from weights_of(ctx, event number) (NULL: an error), e.g. a Les
 * Houches file's own; the last n_vary are the --vary weights (gaps/vary.h): each event's is
 * its nominal weight times the factor that its record (vary_w) and its row (the columns after
 * the analysis's) carry, n_vary at most GAPS_VARY_MAX, and they are also the CSV's columns
 * "weight[NAME]" after "weight". */
typedef struct gaps_event_stream_weights {
    int n;                   /* at most GAPS_HEPMC_MAX_WEIGHTS */
    const char *const *names;
    const double *(*weights_of)(void *ctx, int64_t event);
    void *ctx;
    int n_vary;              /* the last n_vary of the n: --vary's */
} gaps_event_stream_weights;

typedef struct gaps_event_stream {
    FILE *rows;              /* CSV of observables, or NULL */
    FILE *hepmc;             /* HepMC3 events, or NULL */
    gaps_process proc;       /* the process: beams and s-channel boson for HepMC3 */
    int maxp;
    int64_t next;            /* the next event number to write */
    /* reorder buffer: event next + k waits in ring[(head + k) & (cap - 1)] (NULL if absent) */
    unsigned char **ring;
    int64_t cap, head, pending, max_pending;
    /* running cross-section estimate over the events written, for HepMC3 */
    uint64_t n;
    double sum_w, sum_w2;
    /* named weights besides the nominal one (gaps_event_stream_weights): each event's from
     * weights_of(weights_ctx, event number), their running sums for the cross sections */
    int n_weights;
    int n_vary;              /* the last n_vary of them are --vary's, from records and rows */
    const double *(*weights_of)(void *ctx, int64_t event);
    void *weights_ctx;
    const char *const *weight_names;
    double *sum_wk;          /* 2 n_weights: sum w_k, sum w_k^2 */
    double *xs_k;            /* 2 n_weights: sigma_k, its error */
    int error;               /* a write or an allocation failed */
    pthread_mutex_t lock;
} gaps_event_stream;

/* Start a stream at event number `first`.  rows and hepmc may be NULL; weights may be NULL
 * (the nominal weight alone).  Writes the file headers unless `continuing` (a resumed run
 * whose files already have them).  0, or -1 when memory ran out. */
int gaps_event_stream_init(gaps_event_stream *s, FILE *rows, FILE *hepmc,
                           const gaps_process *proc, int maxp,
                           int64_t first, int continuing, const char *const *hepmc_attributes,
                           int n_hepmc_attributes, const gaps_event_stream_weights *weights);

/* n finished events, any order: rows (gaps_row_stride(n_vary) doubles apart) and/or records, as the
 * generator hands them over.  Returns 0, or -1 after a write or allocation error. */
int gaps_event_stream_add(gaps_event_stream *s, const double *rows, const gaps_records *records,
                          int n);

/* The end: check that nothing is left waiting, write the HepMC3 footer.  Returns 0 or -1. */
int gaps_event_stream_finish(gaps_event_stream *s);

void gaps_event_stream_free(gaps_event_stream *s);

/* A resumed stream continues the file `part` (FILE.part) at byte `offset` of its checkpoint,
 * where every event before next_event is written: check that the file starts with this run's
 * header (hepmc: the HepMC3 header with these run attributes, else the CSV header of the
 * analysis; both with the run's named weights, NULL for none) and that
 * the offset lies at the end of event next_event - 1 (of the header when no event is done),
 * with only the beginning of event next_event (or of the HepMC3 footer) after it.  0 when it
 * does, or when the file cannot be opened (preparing the output reports that); else -1 with
 * a reason in msg.  Reads at most 64 kB around the offset. */
int gaps_event_stream_check_resume(const char *part, int hepmc, int analysis, int64_t offset,
                                   int64_t first_event, int64_t next_event,
                                   const char *const *hepmc_attributes, int n_hepmc_attributes,
                                   const gaps_event_stream_weights *weights, char *msg,
                                   size_t len);

/* The header line of the CSV file of an analysis (enum gaps_analysis_id); the _named one
 * with a column "weight[NAME]" per --vary weight after "weight". */
void gaps_rows_write_header(FILE *f, int analysis);
void gaps_rows_write_header_named(FILE *f, int analysis, const char *const *weight_names,
                                  int n_weights);

#endif
