/* progress.c -- the progress line of a run on standard error (progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "program/progress.h"
#include "program/clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

void gaps_progress_start(gaps_progress *p, int on)
{
    p->on = on;
    p->tty = isatty(STDERR_FILENO);
    p->t0 = gaps_now();
    p->last_tenth = 0;
}

static void format_duration(char *buf, size_t len, double s)
{
    if (!(s < 1e7)) snprintf(buf, len, "--");
    else if (s < 60) snprintf(buf, len, "%.0fs", s);
    else if (s < 3600) snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(buf, len, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

void gaps_progress_update(gaps_progress *p, int64_t done, int64_t total)
{
    if (!p->on) return;
    const double t = gaps_now(), elapsed = t - p->t0;
    if (elapsed < 2.0) return;   /* short runs stay silent */
    const double rate = done / elapsed;
    const int tenth = total > 0 ? (int)(10 * done / total) : 10;
    if (p->tty) {
        if (t - p->last < 0.25 && done < total) return;
    } else if (tenth <= p->last_tenth) {
        return;
    }
    char eta[32];
    format_duration(eta, sizeof eta, rate > 0 ? (total - done) / rate : 1e9);
    fprintf(stderr, "%sgaps: %" PRId64 " of %" PRId64 " events (%.0f%%), %.3g events/s, ETA %s%s",
            p->tty ? "\r" : "", done, total, total > 0 ? 100.0 * done / total : 100.0, rate,
            eta, p->tty ? "\033[K" : "\n");
    p->last = t;
    p->last_tenth = tenth;
    p->shown = 1;
}

void gaps_progress_end(gaps_progress *p)
{
    if (p->on && p->tty && p->shown) fputs("\r\033[K", stderr);
}
