/* gaps/event_pool.h -- the pool of event slots that the parallel veto algorithm works on.
 *
 * Structure of arrays with the slot index fastest: component c of parton p of slot e lives at
 * [p * nslots + e], so that neighbouring slots (neighbouring GPU threads, or SIMD lanes on a
 * CPU) touch neighbouring addresses.  All pointers hold device memory in the offload build
 * (host memory otherwise).  The struct itself is copied once to the device (gaps_device_copy)
 * and every loop reads it through that pointer.  A slot holds one event from its matrix element to its analysis; then it is refilled
 * with the next event number, so memory is independent of the number of events.
 */
#ifndef GAPS_EVENT_POOL_H
#define GAPS_EVENT_POOL_H

#include <stdint.h>
#include "gaps/alphas.h"
#include "gaps/matrix_element.h"

/* Life cycle of a slot. */
enum gaps_slot_status {
    GAPS_SLOT_EMPTY = 0,      /* waiting for an event */
    GAPS_SLOT_SHOWERING = 1,  /* in the veto algorithm */
    GAPS_SLOT_FINISHED = 2    /* shower ended, waiting for the analysis */
};

/* Per-event failure flags (bit mask), counted by the analysis. */
enum gaps_event_flag {
    GAPS_FLAG_CAPACITY = 1,   /* an emission would have exceeded the record capacity */
    GAPS_FLAG_MOMENTUM = 2,   /* total momentum differs from (sqrt(s), 0, 0, 0) */
    GAPS_FLAG_MASS = 4,       /* a parton is not massless */
    GAPS_FLAG_COLOUR = 8,     /* colour tags not paired, or a flavour with the wrong colours */
    GAPS_FLAG_NONFINITE = 16  /* a momentum component is not finite */
};

/* Counters of a pool, in device memory, updated atomically by the few threads that need to. */
enum gaps_counter {
    GAPS_COUNT_STARTED = 0,   /* events started in this pool */
    GAPS_COUNT_DONE,          /* entries in done_list: showers ended since the last analysis */
    GAPS_COUNT_CAPACITY,      /* events that hit the record capacity */
    GAPS_COUNT_INVALID,       /* events failing a momentum, mass, colour or finiteness check */
    GAPS_COUNT_NEXT,          /* the next event number (used in the first pool of a run) */
    GAPS_N_COUNTERS
};

/* Splitting kernels. */
enum gaps_kernel { GAPS_KERNEL_Q_QG = 0, GAPS_KERNEL_G_GG = 1, GAPS_KERNEL_G_QQ = 2,
                   GAPS_KERNEL_NONE = -1 };

/* The physics of a run: everything a slot needs besides its own state. */
typedef struct gaps_physics {
    gaps_me me;
    gaps_alphas as;
    double t_cut;     /* shower cutoff t_C, GeV^2 */
    double a_max;     /* coupling overestimate alpha_s(t_C) */
    uint32_t seed;
    int64_t n_events; /* event numbers 0 .. n_events-1 are generated */
} gaps_physics;

typedef struct gaps_pool {
    int nslots;             /* event slots */
    int maxp;               /* event record capacity, partons per event */
    /* partons, [p * nslots + e] */
    double *E, *px, *py, *pz;
    int *flav, *col, *acol;
    /* cached rate of dipole (emitter p, side s), [(2 p + s) * nslots + e]; side 0 runs along
     * the emitter's colour line, side 1 along its anticolour line */
    double *rate;
    /* and, where the rate is not zero, the dipole's mass^2 (GeV^2), z- and ln(z+/z-), same
     * index: cached with the rate, read by the veto step */
    double *dip_m2, *dip_zm, *dip_lnz;
    /* which parton carries colour tag c as colour / as anticolour, [c * nslots + e] */
    int *col_owner, *acol_owner;
    /* per slot */
    int *status, *n, *next_tag, *flags;
    int64_t *event;         /* global event number */
    uint32_t *draw;         /* random-number draws used by the event */
    double *t;              /* current evolution scale, GeV^2 */
    double *weight;         /* event weight, pb */
    double *rate_sum;       /* sum of all dipole rates */
    /* the trial emission of the current cycle */
    double *trial_t, *trial_z, *trial_y;
    int *trial_dipole, *trial_kernel;
    /* slots whose shower ended since the last analysis, GAPS_COUNT_DONE of them: the analysis
     * and the refill run over this list only, with every GPU lane busy */
    int *done_list;
    /* GAPS_N_COUNTERS counters of this pool */
    unsigned long long *counters;
    /* the next event number to hand out, shared by all pools of a run (may overshoot N) */
    unsigned long long *next_event;
} gaps_pool;

/* Host: allocate and zero a pool (device memory in the offload build) that takes its event
 * numbers from the shared counter next_event, or from its own GAPS_COUNT_NEXT counter if
 * next_event is NULL.  Returns 0 or -1. */
int gaps_pool_create(gaps_pool *pool, int nslots, int maxp, unsigned long long *next_event);
void gaps_pool_destroy(gaps_pool *pool);

GAPS_DEVICE_BEGIN
/* End the shower of slot e: mark it finished and put it on the done list. */
void gaps_pool_finish_shower(const gaps_pool *pool, int e);
GAPS_DEVICE_END

/* Host: read the pool's counters; out[GAPS_COUNT_NEXT] is the shared next event number. */
void gaps_pool_read_counters(const gaps_pool *pool, unsigned long long out[GAPS_N_COUNTERS]);

/* Bytes of device (or host) memory a pool of this size takes. */
double gaps_pool_bytes(int nslots, int maxp);

#endif
