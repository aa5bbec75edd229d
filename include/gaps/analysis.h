/* gaps/analysis.h -- the end of an event's life in its slot: check it, compute its
 * observables, fill the histograms, optionally keep its observables, free the slot. */
#ifndef GAPS_ANALYSIS_H
#define GAPS_ANALYSIS_H

#include "gaps/event_pool.h"
#include "gaps/histogram.h"

/* Columns of one event's row of per-event output (--observables-out). */
enum { GAPS_OBS_EVENT, GAPS_OBS_WEIGHT, GAPS_OBS_NPARTONS, GAPS_OBS_Y23, GAPS_OBS_Y34,
       GAPS_OBS_Y45, GAPS_OBS_Y56, GAPS_OBS_TAU, GAPS_OBS_RHO_H, GAPS_OBS_RHO_L, GAPS_OBS_B_T,
       GAPS_OBS_B_W, GAPS_OBS_B_N, GAPS_OBS_C, GAPS_OBS_COLUMNS };

/* Complete final states, kept when the user asks for event output (--hepmc): event i's
 * partons are entries [i * maxp, i * maxp + n[i]).  Pointers to memory where the loops run;
 * the arrays share one block that starts at p. */
typedef struct gaps_records {
    int maxp;          /* stride: the record capacity */
    int *n;            /* partons per event */
    double *weight;    /* pb */
    double *p;         /* (E, px, py, pz) per parton, GeV: 4 doubles each */
    int *flav, *col, *acol;
} gaps_records;

/* Tolerances of the event checks (physics.md section 3). */
#define GAPS_CHECK_MOMENTUM_TOL 1e-10  /* |sum p - (sqrt s, 0)| / sqrt s */
/* |p^2| / (E sqrt s) of every parton: a parton's components carry the rounding of the larger
 * momenta it was built from, so a soft parton's mass is zero to ~1e-16 E sqrt(s), not to
 * 1e-16 E^2 (seen at 500 GeV: m^2/E^2 = 4e-10 for a 75 MeV gluon) */
#define GAPS_CHECK_MASS_TOL 1e-10

GAPS_DEVICE_BEGIN
/* The GAPS_FLAG_MOMENTUM/MASS/COLOUR/NONFINITE bits an event violates (0 if none). */
int gaps_event_check(int n, const double p[][4], const int *flav, const int *col,
                     const int *acol, double ecm);
GAPS_DEVICE_END

/* Loop over the n slots of the pool's done list: analyse each finished event and free its
 * slot; the done list is emptied.  rows may be NULL; otherwise event number i writes row i
 * (GAPS_OBS_COLUMNS doubles).  records may be NULL; otherwise event i is copied into it.  All
 * pointers refer to memory where the loops run. */
void gaps_analysis_step(const gaps_pool *pool, const gaps_physics *phys,
                        const gaps_histograms *hist, double *rows, const gaps_records *records,
                        int n);

#endif
