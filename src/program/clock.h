/* clock.h -- wall time in seconds on the monotonic clock, for the program's own timing (the
 * progress line, the MPI ranks' accounts); the generator times its stages itself. */
#ifndef GAPS_CLOCK_H
#define GAPS_CLOCK_H

#include <time.h>

static inline double gaps_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#endif
