/* lhe_feed.h -- the hard events of a run read from a Les Houches Event file (--lhe FILE):
 * the program's side of a process whose source is a file (gaps/hard_batch.h).
 *
 * gaps_lhe_feed_open() reads the file's init block (and a gaps-written file's header),
 * checks it against the run's options and completes the configuration from it: the process
 * (lhe-pp for proton beams), sqrt(s) from the beam energies, the weight unit of the sums, the
 * event numbers.  gaps_lhe_feed_fill() is the generator's hooks.hard_events: it reads the
 * next events, refuses any the shower cannot take (with the file's line), and turns each into
 * its entry of the batch.  What is read and how each field maps: doc/formats.md, "Les
 * Houches Event files (read)", and doc/physics.md, "Showering events from a file".
 */
#ifndef GAPS_PROGRAM_LHE_FEED_H
#define GAPS_PROGRAM_LHE_FEED_H

#include <stddef.h>
#include <stdint.h>
#include "gaps/generator.h"
#include "io/event_stream.h"

typedef struct gaps_lhe_feed gaps_lhe_feed;

/* What the run's options said, for the checks against the file. */
typedef struct gaps_lhe_feed_options {
    const unsigned char *param_given;   /* each parameter given (gaps_options.param_given):
                             --ecm must equal the file's sqrt(s); those not given take the
                             defaults of the file's process (lhe-ee or lhe-pp, by its beams;
                             --analysis: a gaps-written file's process's) */
    int events_given;     /* --events was given: the file must hold that many after the
                             skipped ones; else every event of the file is showered */
    int64_t skip;         /* --first-event: events of the file skipped before the run's */
    int threads;          /* --lhe-threads: threads that read the events while one reads
                             the input and the run's thread showers (0: the run's thread
                             reads everything) */
    size_t piece_bytes;   /* --lhe-piece: bytes of text a thread reads at a time */
    int strict_pdf;       /* --lhe-strict-pdf: a file whose PDF set is not the run's is
                             refused (else a warning) */
} gaps_lhe_feed_options;

/* Open path ("-": standard input), read its init block, check it and complete *cfg (process,
 * ecm, file_w_unit, first_event, events), skip opt->skip events.  The feed, or NULL with
 * *status 2 (the file or the options are wrong) or 1 (the system failed) and one line in
 * msg. */
gaps_lhe_feed *gaps_lhe_feed_open(const char *path, const gaps_lhe_feed_options *opt,
                                  gaps_config *cfg, int *status, char *msg, size_t len);

/* gaps_hooks.hard_events, ctx the feed.  On -1 the reason is gaps_lhe_feed_error().  With
 * first beyond the next event (a run shared by MPI ranks, whose other pieces went to other
 * ranks) the events before first are read, checked and passed over.  It may
 * run in a thread of the generator's while the run's thread writes the events of the batch
 * filled before (gaps_hooks.read_ahead): the feed keeps the weights and digests of the two
 * batches filled last apart, and the weights' lookup (gaps_lhe_feed_weights) takes a lock. */
int gaps_lhe_feed_fill(void *ctx, gaps_hard_batch *batch, int64_t first, int64_t want,
                       int *ended);

/* gaps_hooks.hard_events_ahead, ctx the feed: start filling batch in a thread of the feed's,
 * which the next gaps_lhe_feed_fill (same batch, first and want) waits for.  0, or -1 when
 * the feed reads nothing ahead (--lhe-threads 0: the file is read in the run's thread). */
int gaps_lhe_feed_fill_ahead(void *ctx, gaps_hard_batch *batch, int64_t first, int64_t want);

/* After a failed fill: the message (one line "FILE:LINE: ...") and the exit status it calls
 * for (2: the file is wrong; 1: the system failed); NULL and 0 if nothing failed. */
const char *gaps_lhe_feed_error(gaps_lhe_feed *f, int *status);

/* What the feed saw, for the summary: events read, the file's generator, and whether the
 * file named a PDF set other than the run's (a warning; "" if none). */
int64_t gaps_lhe_feed_events(gaps_lhe_feed *f);
const char *gaps_lhe_feed_warning(const gaps_lhe_feed *f);

/* How the file was read: by *threads threads besides the input's (0: all in the run's
 * thread), *pieces pieces of it in parallel, and serially from its event *serial_from on
 * (-1: never; else the first piece that might have been read otherwise than the serial
 * reader reads it, or where the cutter met a read error or no event for 64 MB). */
void gaps_lhe_feed_reading(gaps_lhe_feed *f, int *threads, long *pieces,
                           int64_t *serial_from);

/* The file's named weights besides XWGTUP (LHEF 3.0 <rwgt>/<weights>: its scale and PDF
 * variations), for the HepMC3 events: their names (the file's ids, white space made '_'; "w"
 * and the index for an unnamed one) and, for each event of the two batches filled last, its
 * weights.
 * NULL when the file has none.  Valid while the feed is open. */
const gaps_event_stream_weights *gaps_lhe_feed_weights(gaps_lhe_feed *f);

/* Checkpoints (doc/formats.md): the digest of the events handed over up to next_event, the
 * next event handed over or one of the two batches filled last, or an event further on, up
 * to which the feed then passes over the file (a run shared by MPI ranks: the root's feed
 * may be behind the checkpoint) (0; -1 if it is none of these; not while a fill runs); and
 * a resume, which reads and drops the events up to next_event and
 * compares their digest with the checkpoint's (0, or -1 with *status 2: not the
 * checkpoint's file, or 1: the system failed, and one line in msg). */
int gaps_lhe_feed_digest(gaps_lhe_feed *f, int64_t next_event, uint64_t *digest);
int gaps_lhe_feed_resume(gaps_lhe_feed *f, int64_t next_event, uint64_t digest, int *status,
                         char *msg, size_t len);

void gaps_lhe_feed_close(gaps_lhe_feed *f);

#endif
