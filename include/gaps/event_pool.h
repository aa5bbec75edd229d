/* gaps/event_pool.h -- the pool of event slots that the parallel veto algorithm works on.
 *
 * Structure of arrays with the slot index fastest: component c of parton p of slot e lives at
 * [p * nslots + e], so that neighbouring slots (neighbouring GPU threads, or SIMD lanes on a
 * CPU) touch neighbouring addresses.  All pointers hold device memory in the offload build
 * (host memory otherwise).  The struct itself is copied once to the device and every loop
 * reads it through that pointer.  A slot holds one event from its matrix element to its
 * analysis; then it is refilled with the next event number, so memory is independent of the
 * number of events.
 */
#ifndef GAPS_EVENT_POOL_H
#define GAPS_EVENT_POOL_H

#include <stdint.h>
#include "gaps/alphas.h"
#include "gaps/constants.h"
#include "gaps/process.h"
#include "gaps/vary.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* Life cycle of a slot. */
enum gaps_slot_status {
    GAPS_SLOT_EMPTY = 0,      /* waiting for an event */
    GAPS_SLOT_SHOWERING = 1,  /* in the veto algorithm */
    GAPS_SLOT_FINISHED = 2    /* shower ended, waiting for the analysis */
};

/* Per-event failure flags (bit mask), counted by the analysis. */
enum gaps_event_flag {
    GAPS_FLAG_CAPACITY = 1,   /* an emission would have exceeded the record capacity */
    GAPS_FLAG_MOMENTUM = 2,   /* outgoing momenta do not add up to the incoming ones */
    GAPS_FLAG_MASS = 4,       /* a parton is not massless, or an incoming one not along the
                                 beam axis */
    GAPS_FLAG_COLOUR = 8,     /* colour tags not paired, or a flavour with the wrong colours */
    GAPS_FLAG_NONFINITE = 16, /* a momentum component is not finite */
    GAPS_FLAG_WEIGHT = 32     /* the weight is not finite or too large for the exact sums
                                 (gaps/histogram.h): counted as an event, added nowhere */
};

/* Counters of a pool, in device memory, updated atomically by the few threads that need to. */
enum gaps_counter {
    GAPS_COUNT_STARTED = 0,   /* events started in this pool */
    GAPS_COUNT_CAPACITY,      /* events that hit the record capacity */
    GAPS_COUNT_INVALID,       /* events failing a momentum, mass, colour or finiteness check */
    GAPS_COUNT_BAD_WEIGHT,    /* events whose weight the histograms could not take */
    GAPS_COUNT_NEXT,          /* the next event number (used in the first pool of a run) */
    GAPS_COUNT_OVERESTIMATE,  /* trials whose acceptance f/g exceeded 1 (an overestimate that
                                 was not a bound): rare outside --compat gaps21 */
    GAPS_COUNT_SPLIT_EMIT,    /* entries at the front of split_list: emissions to do */
    GAPS_COUNT_SPLIT_MOVE,    /* entries at the back of split_list: moves to the next scale
                                 bin of the hadronic rates */
    GAPS_COUNT_SPLIT_EMIT_ODD,   /* the same two for the trial launches of odd parity, which */
    GAPS_COUNT_SPLIT_MOVE_ODD,   /* fill one pair while they clear the other (src/shower/veto.c) */
    GAPS_COUNT_SHOWERING,     /* entries of showering_list */
    GAPS_COUNT_VARY_OVER,     /* --vary: events with a trial of P' > O (GAPS_VARY_FLAG_OVER) */
    GAPS_COUNT_VARY_LARGE,    /* --vary: events with a large variation weight
                                 (GAPS_VARY_FLAG_LARGE) */
    GAPS_COUNT_BY_N,          /* GAPS_MAX_PARTONS + 1 counters from here: entries of the done
                                 list with n = 0, 1, ... partons (the rows of done_by_n) */
    GAPS_N_COUNTERS = GAPS_COUNT_BY_N + GAPS_MAX_PARTONS + 1
};

/* Splitting kernels: the final-state emitter's (final-final and final-initial dipoles) and
 * the incoming emitter's (initial-final and initial-initial dipoles), named by what the
 * incoming parton is before and after the backward step (src/shower/isr.h). */
enum gaps_kernel { GAPS_KERNEL_Q_QG = 0,   /* final q -> q g */
                   GAPS_KERNEL_G_GG = 1,   /* final g -> g g */
                   GAPS_KERNEL_G_QQ = 2,   /* final g -> q qbar (all flavours) */
                   GAPS_KERNEL_I_QQ = 3,   /* incoming q stays q, a gluon is emitted */
                   GAPS_KERNEL_I_GQ = 4,   /* incoming q came from a gluon (emits the qbar) */
                   GAPS_KERNEL_I_GG = 5,   /* incoming g stays g, a gluon is emitted */
                   GAPS_KERNEL_I_QG = 6,   /* incoming g came from a quark of one flavour
                                              (trial_flav), which is also emitted */
                   GAPS_KERNEL_NEW_BIN = 7,   /* not an emission: the rates move to the next
                                                 scale bin (hadronic, shower/veto.c) */
                   GAPS_KERNEL_NONE = -1 };

/* The initial-state shower's run parameters (src/shower/isr.h, isr_bounds.c). */
#define GAPS_ISR_ETA_BINS 400   /* bins in ln(eta) of the PDF-ratio bounds */
#define GAPS_ISR_PIDS 11        /* partons -5..5 and the gluon */
#define GAPS_ISR_T_BINS_MAX 16  /* bins in ln(t) of the PDF-ratio bounds, at most */
typedef struct gaps_isr {
    int compat;            /* enum gaps_compat */
    double t_min;          /* dipoles with an incoming leg radiate above this k_T^2 (GeV^2):
                              the larger of t_C and the PDF set's lowest Q^2 */
    double m2[6];          /* m^2 of the incoming c and b quarks (GeV^2) at [4], [5], whose
                              trials run in t - m^2; 0 for the light flavours */
    double ln_eta_min, inv_dln_eta;   /* the ln(eta) binning of bound */
    double as_lambda2, as_k;   /* the running overestimate of the coupling,
                                  alpha_s(t) <= as_k / ln(t / as_lambda2) for every scale of
                                  the run (as_k = 0: the constant alpha_max instead) */
    int heavy_loglog;      /* 1: an incoming c or b is trialled in ln ln(t/m^2); 0 (compat):
                              in t - m^2 */
    double a_heavy[6];     /* the coupling of those trials, at [4] and [5] */
    double heavy_stop;     /* an incoming c or b stops trying below t = m^2 (1 + heavy_stop) */
    int n_tbins;           /* scale bins of bound: bin j holds t in [tbin_edge[j],
                              tbin_edge[j + 1]], tbin_edge[0] = t_min */
    double tbin_edge[GAPS_ISR_T_BINS_MAX + 1];
    const double *bound;   /* [t bin][shifted][old pid][new pid][eta bin]: upper bounds of
                              xf_new(y >= eta)/xf_old(eta); where the loops run */
} gaps_isr;

/* The physics of a run: everything a slot needs besides its own state. */
typedef struct gaps_physics {
    gaps_process proc;
    gaps_alphas as;
    gaps_isr isr;     /* hadronic processes only */
    double t_cut;     /* shower cutoff t_C, GeV^2 */
    double a_max;     /* coupling overestimate alpha_s(t_C) (with --shower-mur-factor or
                         --vary: alpha_s at the smallest argument factor times t_C) */
    /* a --vary run of e+e-: its trials at scales t <= vary_t_headroom take the coupling
     * overestimate a_max_headroom > a_max (shower/vary_bounds.c); vary_t_headroom 0 and
     * a_max_headroom = a_max in every other run */
    double vary_t_headroom, a_max_headroom;
    /* --shower-mur-factor k: the shower's alpha_s at k^2 t instead of t (mur_scaled = 1,
     * mur2 = k^2); 0 by default, and then no product is formed: the events keep their bits */
    int mur_scaled;
    double mur2;
    /* --vary (gaps/vary.h): n_vary weights, variation v taking alpha_s at vary_mu2[v][0] t in
     * final-state emissions and at vary_mu2[v][1] t in initial-state ones (the nominal
     * argument factor included: 1, or mur2); 0 by default, and then the veto takes no branch of
     * them (a run-uniform test) */
    int n_vary;
    double vary_mu2[GAPS_VARY_MAX][2];
    double vary_ln_k2[GAPS_VARY_MAX][2];   /* ln(vary_mu2 / the nominal factor): what the
                                              variation adds to the coupling's logarithm */
    double vary_a_floor[3];   /* alpha_s(t_C) of as, vary_as[0], vary_as[1]: a variation's
                                 coupling where its argument is raised to the floor t_C */
    /* the variations the hard process weights (--vary scales, proc.scales.n of them) are
     * vary_hard_first and on: variation vary_hard_first + j starts at the hard event's
     * vary[j], the others at 1 */
    int vary_hard_first;
    /* the coupling of variation v's shower: the run's (as) where vary_coupling[v] = 0, else
     * vary_as[vary_coupling[v] - 1] (--vary alphas: alpha_s(M_Z^2) down, up) */
    signed char vary_coupling[GAPS_VARY_MAX];
    gaps_alphas vary_as[2];
    /* --vary pdf: the member of the run's set that variation v takes (0: the run's own) and its
     * densities where the loops run (NULL for 0), in the hard process (proc.scales.pdf) and in
     * the initial-state shower's density ratios */
    short vary_pdf_member[GAPS_VARY_MAX];
    const gaps_pdf *vary_pdf[GAPS_VARY_MAX];
    /* some variation changes the shower's density (a mu_R factor, another coupling): its
     * trials are reweighted (veto.c, vary_trial()) and its overestimates have the headroom
     * of gaps/vary.h.  0 where the hard process alone is varied (--vary scales): the shower
     * then makes the nominal run's events, and the trials cost nothing more */
    int vary_shower;
    /* 1 where the reweighted trials take the veto in two stages (GAPS_VARY_PRESELECT): every
     * --vary shower run but one with PDF members, whose factors depend on the densities of the
     * first stage */
    int vary_two_stage;
    int ablate;       /* --ablate: enum gaps_ablate_bit bits (gaps/ablate.h), 0 by default */
    uint32_t seed;
    int64_t end_event; /* refills hand out event numbers below this one (the end of the run,
                          or of the segment up to the next checkpoint) */
} gaps_physics;

/* Every array of the pool, listed once: X(type, name, rows, what).  An array has `rows` rows
 * of nslots elements, element (row r, slot e) at [r * nslots + e] (gaps_at()); rows is written
 * in terms of maxp, the record capacity.  The struct, the allocation, the release and the
 * byte count are all generated from this list, so they cannot disagree. */
#define GAPS_POOL_ARRAYS(X, maxp)                                                              \
    /* partons, row p = parton p: incoming partons in rows 0 .. n_in-1, then outgoing ones */ \
    X(double, E, (maxp), "energy, GeV")                                                        \
    X(double, px, (maxp), "momentum x, GeV")                                                   \
    X(double, py, (maxp), "momentum y, GeV")                                                   \
    X(double, pz, (maxp), "momentum z, GeV")                                                   \
    X(int, flav, (maxp), "PDG code")                                                           \
    X(int, col, (maxp), "colour tag, 0 for none")                                              \
    X(int, acol, (maxp), "anticolour tag, 0 for none")                                         \
    /* dipoles, row 2 p + s = emitter p, side s (0: along its colour, 1: its anticolour) */    \
    X(double, rate, 2 * (maxp), "trial rate of the dipole's kernels, 0 if it cannot radiate")  \
    X(double, rate_cum, 2 * (maxp), "sum of the rates of dipole rows 0 .. d")                  \
    X(double, dip_m2, 2 * (maxp), "dipole mass^2, GeV^2 (where rate > 0)")                     \
    X(double, dip_zm, 2 * (maxp), "z- of the dipole (where rate > 0)")                         \
    X(double, dip_lnz, 2 * (maxp), "ln(z+/z-) of the dipole (where rate > 0)")                 \
    X(double, dip_zp, 2 * (maxp), "z+ of the dipole (hadronic processes, where rate > 0)")      \
    /* colour tags, row c = tag c */                                                           \
    X(int, col_owner, (maxp) + 2, "parton carrying tag c as its colour")                       \
    X(int, acol_owner, (maxp) + 2, "parton carrying tag c as its anticolour")                  \
    /* one row: per slot */                                                                    \
    X(int, status, 1, "enum gaps_slot_status")                                                 \
    X(int, n, 1, "partons in the event")                                                       \
    X(int, n_in, 1, "incoming partons (rows 0 .. n_in-1)")                                     \
    X(double, x_in, 2, "momentum fractions of the incoming partons (where n_in > 0)")          \
    X(int, next_tag, 1, "the next unused colour tag")                                          \
    X(int, flags, 1, "enum gaps_event_flag bits")                                              \
    X(int64_t, event, 1, "global event number")                                                \
    X(uint32_t, draw, 1, "random-number blocks used by the event")                             \
    X(double, t, 1, "current evolution scale, GeV^2")                                          \
    X(double, weight, 1, "event weight, pb")                                                   \
    X(double, rate_sum, 1, "sum of all dipole rates (hadronic: those trialled in t)")         \
    X(double, rate_shift, 2, "hadronic: rates of incoming row b's dipoles, trialled in t - m^2")\
    X(int, rate_tbin, 1, "hadronic: the scale bin of the bounds in the rates, -1 below t_min") \
    X(double, trial_t, 1, "trial emission of this cycle: scale, GeV^2")                        \
    X(double, trial_z, 1, "trial emission: z")                                                 \
    X(double, trial_y, 1, "trial emission: y")                                                 \
    X(int, trial_dipole, 1, "trial emission: dipole row 2 p + s")                              \
    X(int, trial_kernel, 1, "trial emission: enum gaps_kernel")                                \
    X(int, trial_flav, 1, "trial emission: the new incoming flavour of GAPS_KERNEL_I_QG")      \
    /* the splitting list of the step loops (gaps_shower_launch_step): the slots with an     \
     * accepted trial, gathered so that the splitting launch runs on dense GPU lanes */       \
    X(int, split_list, 1, "slots to split (from the front) or to move a bin (from the back)") \
    /* the slots whose event is showering, gathered once per pass of the step loops: their   \
     * launches run over this list, not over every slot */                                   \
    X(int, showering_list, 1, "slot numbers of the showering events")                        \
    /* the done list: slots whose shower ended since the last analysis, in rows by          \
     * multiplicity (row n: counter GAPS_COUNT_BY_N + n of them, in no set order);            \
     * the analysis runs over this list only, with every GPU lane busy */                     \
    X(int, done_by_n, (maxp) + 1, "slot numbers of the finished events with n partons")

typedef struct gaps_pool {
    int nslots;             /* event slots */
    int maxp;               /* event record capacity, partons per event */
#define GAPS_POOL_DECLARE_(type, name, rows, what) type *name;
    GAPS_POOL_ARRAYS(GAPS_POOL_DECLARE_, 0)
#undef GAPS_POOL_DECLARE_
    /* --vary (gaps/vary.h): n_vary rows of variation weight factors (row v, slot e at
     * [v * nslots + e]) and one row of enum gaps_vary_flag bits; NULL and 0 without --vary,
     * so that a nominal run moves no byte more (gaps_pool_alloc_vary) */
    int n_vary;
    double *vary_w;
    int *vary_flags;
    /* hard events from a file (gaps/hard_batch.h): maxp rows, the k_T^2 below which the
     * dipoles of parton p start (an emitted parton takes its emitter's), so that a decay
     * system starts at its resonance's mass while the rest starts at SCALUP; NULL in the runs
     * of the built-in processes, whose dipoles all start at the event's t */
    double *t_start_row;
    /* GAPS_N_COUNTERS counters of this pool */
    unsigned long long *counters;
    /* the next event number to hand out, shared by all pools of a run (may overshoot) */
    unsigned long long *next_event;
} gaps_pool;

GAPS_DEVICE_BEGIN
/* Index of row `row` (a parton, dipole or colour tag) of slot `slot` in a pool array. */
static inline long gaps_at(const gaps_pool *pool, int row, int slot)
{
    return (long)row * pool->nslots + slot;
}
GAPS_DEVICE_END

/* Host: allocate and zero a pool (device memory in the offload build) that takes its event
 * numbers from the shared counter next_event, or from its own GAPS_COUNT_NEXT counter if
 * next_event is NULL.  Returns 0 or -1. */
int gaps_pool_create(gaps_pool *pool, int nslots, int maxp, unsigned long long *next_event);
void gaps_pool_destroy(gaps_pool *pool);
/* Host: the variation rows of a pool made by gaps_pool_create (n_vary of them; 0: none).
 * Returns 0 or -1; gaps_pool_destroy frees them. */
int gaps_pool_alloc_vary(gaps_pool *pool, int n_vary);
/* Host: the rows t_start_row of a pool made by gaps_pool_create (runs from a file).  0 or -1;
 * gaps_pool_destroy frees them. */
int gaps_pool_alloc_row_starts(gaps_pool *pool);

GAPS_DEVICE_BEGIN
/* End the shower of slot e: mark it finished and put it on the done list (and in the row of
 * its multiplicity). */
void gaps_pool_finish_shower(gaps_pool *pool, int e);
/* Entry i of the done list in the order of parton multiplicity (a slot number). */
int gaps_pool_done_by_n(const gaps_pool *pool, int i);
GAPS_DEVICE_END

/* Host: empty the multiplicity rows of the done list (after its analysis). */
void gaps_pool_clear_done_by_n(gaps_pool *pool);
/* Host: entries of the done list, from counters read by gaps_pool_read_counters(). */
int gaps_pool_done_count(const unsigned long long c[GAPS_N_COUNTERS]);
/* Host: read the pool's counters; out[GAPS_COUNT_NEXT] is the shared next event number. */
void gaps_pool_read_counters(const gaps_pool *pool, unsigned long long out[GAPS_N_COUNTERS]);
/* Host: one counter, read or set (which: enum gaps_counter). */
unsigned long long gaps_pool_read_counter(const gaps_pool *pool, int which);
void gaps_pool_set_counter(gaps_pool *pool, int which, unsigned long long value);

/* Bytes of device (or host) memory a pool of this size takes, with its n_vary variation rows
 * and, where row_starts, its rows t_start_row (gaps_pool_alloc_vary, _alloc_row_starts). */
double gaps_pool_bytes(int nslots, int maxp, int n_vary, int row_starts);

GAPS_C_END

#endif
