/* gaps/analysis.h -- the end of an event's life in its slot: check it, compute its
 * observables, fill the histograms, optionally keep its observables, free the slot. */
#ifndef GAPS_ANALYSIS_H
#define GAPS_ANALYSIS_H

#include "gaps/event_pool.h"
#include "gaps/histogram.h"
#include "gaps/analyses.h"
#include "gaps/decl.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

GAPS_C_BEGIN

/* Columns of one event's row of per-event output (--observables-out): the common ones
 * (GAPS_OBS_EVENT, GAPS_OBS_WEIGHT, GAPS_OBS_NPARTONS, gaps/analyses.h), then those of the
 * run's analysis (GAPS_LEP_*, GAPS_LHC_*).  Every column is a double except GAPS_OBS_EVENT,
 * which holds the 64 bits of the event number (a double would round event numbers beyond
 * 2^53): read and write it with gaps_row_event/gaps_row_set_event.  Rows in memory are
 * gaps_row_stride(n_vary) doubles apart whatever the analysis (one stride for every buffer
 * of a run): the analysis's first gaps_analysis_table[a].n_columns of them are its row, and
 * with --vary the n_vary factors of the event's variation weights (gaps/vary.h, the pool's
 * vary_w) follow at [n_columns + v]; the doubles between are left unwritten.  The stride
 * grows with n_vary only, so that a run without --vary does not move GAPS_VARY_MAX unused
 * doubles per event from the device (a hundred with --vary pdf's members);
 * GAPS_OBS_MAX_COLUMNS is the most one row can hold, for buffers of one row. */
#define GAPS_OBS_COLUMNS_MAX_(ID, name, columns, histograms) char name[GAPS_##ID##_N_COLUMNS];
union gaps_obs_columns_max_ {
    GAPS_ANALYSES(GAPS_OBS_COLUMNS_MAX_)
};
#undef GAPS_OBS_COLUMNS_MAX_
enum {
    GAPS_OBS_ANALYSIS_MAX_COLUMNS = (int)sizeof(union gaps_obs_columns_max_),
    GAPS_OBS_MAX_COLUMNS = GAPS_OBS_ANALYSIS_MAX_COLUMNS + GAPS_VARY_MAX
};

/* Doubles from one row of per-event output to the next in a run with n_vary variations. */
static inline int gaps_row_stride(int n_vary)
{
    return GAPS_OBS_ANALYSIS_MAX_COLUMNS + n_vary;
}

/* What the host needs to know about an analysis; one row per analysis, generated from
 * GAPS_ANALYSES (src/analysis/histogram.c). */
typedef struct gaps_analysis_info {
    const char *name;          /* "lep", "lhc" */
    int n_columns;             /* columns of a row, the common ones included */
    const char *csv_header;    /* the column names, comma-separated */
    int n_hists;               /* histograms (the event counter not counted) */
    const gaps_hist_def *hist; /* their definitions, in the order of the YODA file */
    int total_bins;            /* bins of a copy of all accumulators: a state's size */
} gaps_analysis_info;

extern const gaps_analysis_info gaps_analysis_table[GAPS_N_ANALYSES];

GAPS_DEVICE_BEGIN
static inline int64_t gaps_row_event(const double *row)
{
    int64_t event;
    memcpy(&event, &row[GAPS_OBS_EVENT], sizeof event);
    return event;
}

static inline void gaps_row_set_event(double *row, int64_t event)
{
    memcpy(&row[GAPS_OBS_EVENT], &event, sizeof event);
}

/* The row functions of the analyses, one per analysis (its source file): the analysis's own
 * columns of the event whose record rows 0 .. n_in-1 are incoming partons and n_in .. n-1
 * outgoing particles (momenta (E, px, py, pz), GeV, and PDG codes flav). */
#define GAPS_ANALYSIS_ROW_DECL_(ID, name, columns, histograms)                                 \
    void gaps_##name##_row(double *row, int n_in, int n, const double p[][4], const int *flav);
GAPS_ANALYSES(GAPS_ANALYSIS_ROW_DECL_)
#undef GAPS_ANALYSIS_ROW_DECL_

/* The whole row of one event for analysis a (enum gaps_analysis_id): event number, weight w
 * (pb), the number of outgoing quarks and gluons, and the analysis's columns. */
void gaps_analysis_row(double *row, int a, int64_t event, double w, int n_in, int n,
                       const double p[][4], const int *flav);

/* The LEP columns from observables already computed (tests and the reference shower). */
void gaps_lep_observables_row(double *row, const gaps_observables *o);
GAPS_DEVICE_END

/* Complete events for event output (--hepmc): record i holds partons
 * [i * maxp, i * maxp + n[i]), the incoming ones first (status GAPS_STATUS_INCOMING, with
 * their momentum fraction x), then the outgoing ones.  The beams, and an s-channel boson the
 * record does not hold, come from the process (gaps/process.h).  Pointers to memory where the
 * loops run; the arrays share one block that starts at p (gaps_records_carve). */
/* Every field below is copied in three places: gaps_records_copy() (analysis.c), the device
 * to host copy of deliver_events() (generator.c) and the reorder buffer's pack/write_block
 * (event_stream.c); a new field goes into all three. */
typedef struct gaps_records {
    int maxp;          /* stride: the record capacity */
    double *p;         /* (E, px, py, pz) per parton, GeV: 4 doubles each */
    double *x;         /* momentum fraction of an incoming parton, 0 for outgoing ones */
    double *weight;    /* pb */
    int64_t *event;    /* global event number */
    int *n;            /* partons in the event */
    int *flav, *col, *acol;
    int *status;       /* enum gaps_particle_status per parton */
    /* --vary: the n_vary factors of record i's variation weights at [i * n_vary + v] (the
     * weight of variation v is weight[i] times it); 0 and NULL without --vary (last, so that
     * the initialisers by position of the fields above stay as they were) */
    int n_vary;
    double *vary_w;
} gaps_records;

/* Per-event output of one analysis launch, indexed by the position i of the event in the
 * done list (0 .. n-1): the host copies the first n entries back after the launch and puts
 * them in event-number order (src/io/event_stream.c).  Memory where the loops run; each part
 * NULL (records: p NULL) when not requested. */
typedef struct gaps_event_out {
    double *rows;          /* row_stride doubles per event: the analysis's row */
    int row_stride;        /* gaps_row_stride(the pool's n_vary) */
    gaps_records records;  /* complete final states */
} gaps_event_out;

/* Set r's pointers into base (when base is not NULL) for `count` records of capacity maxp
 * with n_vary variation factors each (0: none), and return the size of the block in bytes:
 * allocation, copy and release are one call each. */
size_t gaps_records_carve(gaps_records *r, void *base, size_t count, int maxp, int n_vary);

/* Host: copy record i of src to record k of dst, every field of the record (the one place
 * that knows them all, so that no copy forgets one). */
void gaps_records_copy(const gaps_records *dst, size_t k, const gaps_records *src, size_t i);

/* Tolerances of the event checks (doc/physics.md section 7.4). */
#define GAPS_CHECK_MOMENTUM_TOL 1e-10  /* |sum out - sum in - beams| / sqrt s */
/* |p^2| / (E sqrt s) of every parton: a parton's components carry the rounding of the larger
 * momenta it was built from, so a soft parton's mass is zero to ~1e-16 E sqrt(s), not to
 * 1e-16 E^2 (seen at 500 GeV: m^2/E^2 = 4e-10 for a 75 MeV gluon) */
#define GAPS_CHECK_MASS_TOL 1e-10

GAPS_DEVICE_BEGIN
/* The GAPS_FLAG_MOMENTUM/MASS/COLOUR/NONFINITE bits an event violates (0 if none).  Rows
 * 0 .. n_in-1 of p are incoming partons, the rest outgoing.  Momentum: the outgoing momenta
 * minus the incoming ones must equal p_beams when the record holds no incoming parton (what
 * the beams bring in, e+ e-), and zero otherwise.  Mass: every parton massless, an incoming
 * one also without transverse momentum (along its beam).  Colour: every tag once as a colour
 * and once as an anticolour, incoming partons crossed into the final state. */
int gaps_event_check(int n_in, int n, const double p[][4], const int *flav, const int *col,
                     const int *acol, const double p_beams[4], double ecm);
GAPS_DEVICE_END

/* Launch over entries first .. first + n - 1 of the pool's done list, taken in the order of
 * parton multiplicity (gaps_pool_done_by_n()): check each finished event, compute its
 * observables, fill the histograms, write its row and record to entry i - first of `out` (a
 * pointer where the loops run, or NULL for none) and free its slot.  The list stays as it is
 * (later chunks read it too); the host empties it after the last chunk
 * (gaps_pool_clear_done_by_n()). */
void gaps_analysis_launch(gaps_pool *pool, const gaps_physics *phys,
                          const gaps_histograms *hist, const gaps_event_out *out, int first,
                          int n);


GAPS_C_END

#endif
