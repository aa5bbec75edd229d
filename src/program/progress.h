/* progress.h -- the progress line of a run on standard error: events done, rate, time left.
 *
 * Runs shorter than 2 s print nothing.  On a terminal the line is rewritten in place at most
 * every 0.25 s and erased at the end; elsewhere (a log file) a new line is printed at each
 * tenth of the run, so that a log does not fill with progress. */
#ifndef GAPS_PROGRESS_H
#define GAPS_PROGRESS_H

#include <stdint.h>

typedef struct gaps_progress {
    int on, tty;        /* shown at all; standard error is a terminal */
    double t0, last;    /* start, last line (gaps_now()) */
    int last_tenth;     /* the tenth of the run of the last line (not a terminal) */
    int shown;          /* a line was printed (so there is one to erase) */
} gaps_progress;

/* Start the clock; on = 0 shows nothing. */
void gaps_progress_start(gaps_progress *p, int on);
/* done of total events (the generator's progress hook calls it). */
void gaps_progress_update(gaps_progress *p, int64_t done, int64_t total);
/* The run is over: erase the line on a terminal. */
void gaps_progress_end(gaps_progress *p);

#endif
