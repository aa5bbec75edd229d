/* gaps/generator.h -- one complete run: matrix element, parallel veto shower and analysis of
 * N events through a pool of slots, with per-stage wall-clock times, per-event output handed
 * to the caller as it comes, and checkpoints.  This is the library's
 * entry point; the program `gaps` is a command-line front end to it. */
#ifndef GAPS_GENERATOR_H
#define GAPS_GENERATOR_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "gaps/analysis.h"
#include "gaps/compat.h"
#include "gaps/pdf.h"
#include "gaps/parameters.h"
#include "gaps/hard_batch.h"
#include "gaps/histogram.h"
#include "gaps/state.h"
#include "gaps/vary.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* How the veto cycles are launched. */
enum gaps_loop_mode {
    GAPS_LOOPS_AUTO = -1,   /* the backend's choice for the process (gaps_config_loop_mode) */
    GAPS_LOOPS_STEPS = 0,   /* one data-parallel loop per veto step (the paper's structure) */
    GAPS_LOOPS_FUSED = 1,   /* one loop runs whole cycles for each slot */
    GAPS_LOOPS_TRIALS = 2   /* per veto cycle one loop for the trial (steps 1 to 3) and one
                               for the splitting (step 4) */
};

/* The name of a loop mode on the command line and in the JSON summary ("steps", "fused",
 * "trials"). */
const char *gaps_loop_mode_name(int mode);

/* Physics ranges the double-precision kinematics handle (doc/physics.md section 10).  Below
 * GAPS_MIN_ECM the program's fixed electroweak inputs and its tolerances stop making sense
 * (and at 1e-40 GeV the trial scales underflow); above GAPS_MAX_ECM the couplings of the hard
 * process mean nothing and s overflows long before 1e154 GeV; a ratio s / t_cut beyond
 * GAPS_MAX_S_OVER_TCUT leaves emissions whose recoil y ~ t/s is within a few ulp of 1 - y = 1,
 * so their momenta lose masslessness. */
#define GAPS_MIN_ECM 1.0               /* GeV */
#define GAPS_MAX_ECM 1e5               /* GeV */
#define GAPS_MAX_S_OVER_TCUT 1e12

/* Limits of the execution settings. */
#define GAPS_MAX_SLOTS (1 << 28)              /* --pool */
#define GAPS_MAX_THREADS 4096                 /* --threads */
#define GAPS_MAX_CYCLES_PER_LAUNCH (1 << 20)  /* --cycles-per-launch, also --split-every */

/* The physics parameters (process, compat, ecm, pdf, pdf_path, alphas_mz, alphas_order, t_cut,
 * seed, max_partons, nlo) are listed, with their options, defaults, ranges and metadata, in
 * gaps/parameters.h; each field here has the C type of its parameter's TYPE there. */
typedef struct gaps_config {
    int64_t events;          /* N */
    int64_t first_event;     /* generate event numbers first_event .. first_event + N - 1 */
    int process;             /* enum gaps_process_id (gaps/process.h) */
    int compat;              /* enum gaps_compat (gaps/compat.h) */
    int analysis;            /* enum gaps_analysis_id (gaps/analyses.h): the histograms filled;
                                the process's own by default (gaps_process_analysis) */
    double ecm;              /* sqrt(s), GeV */
    char pdf[GAPS_PDF_SPEC_MAX];  /* hadronic processes: "NAME[/MEMBER]"; "" = the process's
                                     default set; "" for the others */
    char pdf_path[GAPS_PDF_USER_DIRS_MAX];  /* directories searched for PDF sets before LHAPDF_DATA_PATH and
                                the installed ones (colon-separated); "" = none */
    double alphas_mz;
    int alphas_order;        /* 0 fixed, 1 one loop, 2 two loops */
    double t_cut;            /* GeV^2 */
    uint32_t seed;
    int slots;               /* pool size; 0 = backend default */
    int max_partons;         /* event record capacity */
    int nlo;                 /* 1: next-to-leading order with MC@NLO matching (ee-qq, pp-z) */
    int ablate;              /* enum gaps_ablate_bit bits (gaps/ablate.h); 0: the default shower */
    int w_charge;            /* enum gaps_w_charge (gaps/process.h): pp-w's W+, W- or both */
    int leptons;             /* enum gaps_leptons (gaps/process.h): pp-w's e, mu or both */
    int refill;              /* 1: refill finished slots at once; 0: whole batches */
    int loop_mode;           /* enum gaps_loop_mode */
    int cycles_per_launch;   /* fused mode: veto cycles per launch; steps and trials modes:
                                veto cycles between analysis and refill; 0: the backend's
                                default (gaps_config_cycles_per_launch) */
    int split_every;         /* fused mode: every split_every-th veto cycle is a splitting round;
                                0: the backend's default for the process
                                (gaps_config_split_every) */
    int threads;             /* openmp: 0 = OpenMP's default */
    int allow_host;          /* offload build without GPU: run on the host instead of failing */
    int keep_rows;           /* hand each event's observables to hooks->events */
    int keep_records;        /* hand each event's complete final state to hooks->events */
    int keep_cycle_log;      /* record the events completed after each veto cycle */
    int64_t checkpoint_every;/* events between checkpoints (hooks->checkpoint); 0 = none */
    int measure_energy;      /* read the device's energy counter before and after the run */
    /* A process whose hard events come from a file (gaps_process_info.from_file: --lhe):
     * what the program read from the file before the run.  events is then at most the events
     * left in the file: the run ends earlier where hooks->hard_events says the file ended. */
    double file_w_unit;      /* weight unit of the sums, pb, a power of two
                                (gaps_process_set_file_unit) */
    int file_beam_anti[2];   /* 1 where the file's beam 1 (along +z, [0]) or 2 ([1]) is an
                                antiproton (gaps_process.beam_anti); 0 for a proton */
    int file_batch;          /* hard events per batch (a segment's most); 0: the default,
                                twice the pool within GAPS_FILE_BATCH_MIN..._DEFAULT */
    /* --shower-mur-factor k: the shower's alpha_s at (k p_T)^2 instead of p_T^2 (1: the
     * default).  Not a parameter of GAPS_PARAMETERS yet (the state does not record it): a run
     * with k != 1 writes no state and no checkpoint (the program refuses them) */
    double shower_mur_factor;
    /* --vary: enum gaps_vary_bit bits (gaps/vary.h); 0: no variation weights */
    int vary;
} gaps_config;

/* Hard events of a batch from a file, by default, and the rows its arrays hold per event
 * (a batch whose events have more rows in all is cut short: hooks->hard_events). */
#define GAPS_FILE_BATCH_DEFAULT (1 << 20)
#define GAPS_FILE_BATCH_MIN (1 << 14)
#define GAPS_FILE_BATCH_ROWS_PER_EVENT 8

/* What the caller sees while a run goes; every member may be NULL. */
typedef struct gaps_hooks {
    void *ctx;
    /* n finished events, in no particular order, in host memory: rows (gaps_row_stride(n_vary)
     * doubles apart, if keep_rows) and records (if keep_records); with --vary both carry the
     * events' variation factors (gaps/analysis.h).  Partitions call it from
     * their own threads, possibly at the same time: the callee serialises.  Return 0, or -1
     * to end the run with an error. */
    int (*events)(void *ctx, const double *rows, const gaps_records *records, int n);
    /* Every event of the run below rp->next_event is done and accumulated in `state`: called
     * after each checkpoint_every events and at the end.  Return 0, or -1 to end the run. */
    int (*checkpoint)(void *ctx, const gaps_state *state, const gaps_resume_point *rp);
    /* Events finished so far out of the run's total (from one thread, once per launch). */
    void (*progress)(void *ctx, int64_t done, int64_t total);
    /* When *stop becomes non-zero (a signal handler sets it), no new event is started; the
     * events under way finish, a last checkpoint is taken and the run returns early. */
    volatile sig_atomic_t *stop;
    /* Work handed out from outside, e.g. by processes that share a run (optional).  Instead
     * of walking the run's event numbers in order, each partition asks for a piece of them
     * and, once it has started every event of that piece, for the next.  On entry
     * [*begin, *end) is the run (from its resume point); the callee sets [*begin, *end) to a
     * part of it that it gives to no one else and returns 0, or returns 0 with
     * *begin == *end when nothing is left, or -1 to end the run with an error.  Partitions
     * call it from their own threads, possibly at the same time: the callee serialises.
     * With it, a stop ends the run once the pieces already given are finished (so that what
     * is done is what was given); checkpoint_every must be 0 (checkpoints are the giver's:
     * only it knows what the others did); and the run's state counts the events of every
     * piece but its range table is that of the resumed state: which pieces this process did
     * is the giver's to record, and they may be more than one state can list.
     * For a process whose hard events come from a file the pieces are taken by the run's
     * thread, not by the partitions: each piece is run as segments of at most a batch, which
     * all partitions share, and the next piece is taken as soon as the current one's last
     * batch is being read, so that it can be read while that batch showers. */
    int (*next_range)(void *ctx, int64_t *begin, int64_t *end);
    /* For a process whose hard events come from a file (gaps_process_info.from_file; needed
     * then): fill batch (host memory, capacity and row_capacity set; gaps/hard_batch.h) with
     * the hard events of event numbers first, first + 1, ... in order, at most `want` of them
     * and no more than its arrays hold, and set batch->first and batch->count.  *ended = 1
     * when the file has no event after the last one given.  Called from the run's thread once
     * per segment, before its events start, with first the segment's first event (with
     * next_range, the pieces' events: first may then skip the events of pieces that went to
     * others).  Return 0, or -1 to end the run with an error (the callee keeps its reason). */
    int (*hard_events)(void *ctx, gaps_hard_batch *batch, int64_t first, int64_t want,
                       int *ended);
    /* Optional, with hard_events: the next segment will ask hard_events for `want` events
     * from `first` on in `batch`, the other of two host batches that alternate.  Called from
     * the run's thread once the current segment's batch is where the loops run, before its
     * events start: the callee may start filling batch (in a thread of its own) while the
     * segment showers, and finish in that hard_events call.  The batch before (the current
     * segment's) is not touched again until after that call.  Return 0, or -1 if it reads
     * nothing ahead (hard_events then does all the work). */
    int (*hard_events_ahead)(void *ctx, gaps_hard_batch *batch, int64_t first, int64_t want);
    /* Optional, with hard_events: after it failed, why (one line, e.g. the file's line
     * number) and *status, the exit status it calls for (2: the input is wrong, 1: the system
     * failed).  The run's msg is then that line and run->file_failed the status. */
    const char *(*hard_events_error)(void *ctx, int *status);
} gaps_hooks;

typedef struct gaps_run {
    gaps_state *state;       /* exact accumulators, counts and ranges (heap) */
    gaps_hist_result *hist;  /* the same histograms as doubles (heap) */
    double sigma, sigma_err; /* pb; the error from the spread of the weights, std(w)/sqrt(N) */
    double effective_events; /* (sum w)^2 / sum w^2: N for equal weights, fewer with a spread
                                and with negative weights */
    double negative_fraction;/* fraction of the events with weight < 0 (NLO) */
    int64_t negative_weights;/* events with weight < 0 */
    int file_failed;         /* the run stopped because hooks->hard_events failed: the exit
                                status it calls for (hooks->hard_events_error's; 1 without
                                it), else 0 */
    int64_t events, capacity_hits, invalid_events;
    int64_t bad_weights;     /* events whose weight the histograms could not take (not
                                finite, or beyond 2^43 weight units): counted, not added */
    int64_t imprecise_weights;/* events whose nonzero weight the sums keep with fewer than 24
                                significant bits (gaps/histogram.h) */
    int lost_precision;      /* 1: the sums' rounding may have changed sigma by more than 1e-9
                                of it or sum w^2 by more than 1e-6 (gaps/histogram.h) */
    int64_t next_event;      /* the run covers [first_event, next_event) (with next_range:
                                the run's end once no piece was left, else its start) */
    int interrupted;         /* 1 if *hooks->stop ended it early */
    int64_t overestimates;   /* shower trials whose acceptance f/g exceeded 1 (this process's
                                part of the run; rare outside --compat gaps21) */
    double time_me, time_shower, time_analysis, time_total;   /* s, wall clock; total: the
                                event loop, from the first event to the last */
    double time_read;        /* s of the event loop spent in hooks->hard_events and copying its
                                batches to where the loops run (a file's hard events; with
                                hard_events_ahead, what reading ahead did not hide) */
    double time_startup;     /* s from the call to the first event: device set-up, PDF tables,
                                ISR bounds, pool (the program adds its own start) */
    double time_wall;        /* s from the call to the return (the program: from its start to
                                its outputs) */
    long launches;           /* data-parallel loops run, all partitions together */
    long veto_cycles;        /* lock-step veto cycles of the longest-running partition */
    long cycle_log_length;   /* entries of completed_per_cycle (if keep_cycle_log) */
    int64_t *completed_per_cycle; /* events completed in the whole run after veto cycle
                                     (i + 1) * cycle_log_stride (heap) */
    double *cycle_log_seconds;   /* wall clock from the start of the event loop to the end of
                                    that entry's pass, s (heap; the tail of a run in time) */
    int cycle_log_stride;    /* veto cycles per entry: gaps_config_cycles_per_launch() */
    double energy_j;         /* energy of the device over the run (J), < 0 if unknown */
    char energy_source[96];  /* what the energy was read from, or why it is unknown */
    /* --vary: the variations, each with its cross section from its weights and its
     * histograms (heap, n_vary entries; NULL without --vary), and the events whose weights the
     * safeguards of gaps/vary.h counted */
    int n_vary;
    gaps_variation vary[GAPS_VARY_MAX];
    double vary_sigma[GAPS_VARY_MAX], vary_sigma_err[GAPS_VARY_MAX];
    gaps_hist_result *vary_hist;
    uint64_t *vary_words;    /* the exact sums of the variations' histograms [v][bin][word] */
    int64_t vary_over_events, vary_large_events;
    double vary_a_max_ratio; /* the coupling overestimate with --vary over the one without (the
                                extra trials the bound P' <= O costs) */
    double vary_t_headroom;  /* the scale at and below which the overestimates have the
                                headroom (shower/vary_bounds.c), GeV^2; 0: none, s: all */
    int slots, threads;
    char backend[16];
    char device[192];
} gaps_run;

/* Defaults of doc/physics.md and of the backend (process ee-qq). */
void gaps_config_defaults(gaps_config *cfg);

/* The splitting-round interval a run uses: cfg->split_every, or where that is 0 the backend's
 * default for the process (hadron collisions split at once, gaps_parallel.h says why). */
int gaps_config_split_every(const gaps_config *cfg);

/* The loop mode a run uses: cfg->loop_mode, or for GAPS_LOOPS_AUTO the backend's default for
 * the process (hadron collisions run the trials mode on a GPU, gaps_parallel.h says why). */
int gaps_config_loop_mode(const gaps_config *cfg);

/* The veto cycles per launch (fused) or between analysis and refill (steps, trials) a run uses:
 * cfg->cycles_per_launch, or where that is 0 the backend's default for the loop mode and the
 * process. */
int gaps_config_cycles_per_launch(const gaps_config *cfg);

/* Hard events per batch of a run whose hard events come from a file: cfg->file_batch, or
 * by default twice the pool within GAPS_FILE_BATCH_MIN ... GAPS_FILE_BATCH_DEFAULT; never more
 * than cfg->events.  (It applies cfg->threads, as a run does: the pool depends on them.) */
int64_t gaps_config_file_batch(const gaps_config *cfg);

/* Choose the process (enum gaps_process_id) and give the parameters whose default depends on
 * it (ecm, pdf, max_partons, analysis: GAPS_PF_PROCESS_DEFAULT) that process's defaults.  A
 * program sets the process this way, not by assigning cfg->process: the analysis of another
 * process's default would be refused (gaps_config_check). */
void gaps_config_set_process(gaps_config *cfg, int process);

/* Check a configuration: 0, or -1 with a one-line reason in msg. */
int gaps_config_check(const gaps_config *cfg, char *msg, size_t len);

struct gaps_physics;   /* gaps/event_pool.h */
/* Host: the physics of a run of cfg, resolved in this one place for everything that needs it
 * (the run, gaps_config_check, the state's weight unit, a merge's check of it, the event
 * output): the process at cfg->ecm (gaps_process_init: -1 below its threshold), the analysis
 * of (process, compat) (gaps_process_analysis), the running coupling (GAPS 2.1's five
 * flavours under --compat gaps21), --nlo 1 with the coupling at the process's mu_R
 * (gaps_process_set_nlo: -1 for a process without NLO), the shower's cutoff and seed and,
 * where pdf (the host copy of the run's set) is given, the process's sampling tables and the
 * run's weight unit (gaps_process_prepare).  phys->proc.pdf and phys->isr are the run's to
 * set (the set where the loops run).  0, or -1 with a one-line reason in msg. */
int gaps_physics_setup(struct gaps_physics *phys, const gaps_config *cfg, const gaps_pdf *pdf,
                       char *msg, size_t len);

/* Check that the PDF set of a hadronic process loads (cfg->pdf, or the process's default set
 * when it is empty, looked for in cfg->pdf_path, $LHAPDF_DATA_PATH, then the installed and
 * shipped sets: gaps_pdf_search_path()): 0, or -1 with one line in msg naming the set and what
 * is wrong.  0 for a process without PDFs.  The set is read completely and released: a
 * program calls this before it creates any output, to refuse a missing or corrupt set up
 * front (gaps_generate() loads the set itself and fails the same way). */
int gaps_config_check_pdf(const gaps_config *cfg, char *msg, size_t len);
/* --vary pdf (gaps/vary.h): the run's set's members as the variations take them (*set: its
 * NumMembers and SetIndex) and the digest of members 1 .. NumMembers - 1
 * (gaps_state.vary_pdf_digest), each member loaded and checked like the run's set; zeros for a
 * run without --vary pdf or without hadron beams.  0, or -1 with one line in msg (a set of
 * one member, --pdf naming another member than 0, a member that does not load). */
int gaps_config_vary_pdf(const gaps_config *cfg, gaps_vary_pdf_set *set, uint64_t *digest,
                         char *msg, size_t len);
/* The variations of a run of cfg (gaps_vary_list, with the run's set's members for --vary
 * pdf: a set that does not load has none, and the run refuses it); returns their number. */
int gaps_config_vary_list(const gaps_config *cfg, gaps_variation out[GAPS_VARY_MAX]);
/* The same check, and what the set is: its digest (gaps_pdf.digest: what gaps_state.pdf_digest
 * records) and the member file read (into file, file_len bytes); 0 and "" for a process
 * without PDFs.  digest and file may be NULL.  Also refused here: a --pdf-path directory
 * that does not exist, a set without the quarks and antiquarks 1..5 of the hadron processes
 * (doc/physics.md, "Parton distributions"). */
int gaps_config_pdf_identity(const gaps_config *cfg, uint64_t *digest, char *file,
                             size_t file_len, char *msg, size_t len);

/* The state of a run that has done nothing yet: parameters, version, the run's weight unit
 * and, for hadron beams, the PDF digest filled in (it reads the set for the last two). */
void gaps_state_init(gaps_state *state, const gaps_config *cfg);

/* Where a run of cfg stands when every event below next_event is done: the checkpoint's
 * resume point, without stream offsets (-1; the program that streams fills them in). */
gaps_resume_point gaps_resume_point_make(const gaps_config *cfg, int64_t next_event,
                                         uint64_t launches, uint64_t veto_cycles);

/* Run.  0 on success, -1 with a one-line reason in msg. */
int gaps_generate(const gaps_config *cfg, gaps_run *run, char *msg, size_t len);

/* Run with hooks (may be NULL), continuing from a checkpoint if `resume` is not NULL (then
 * `resume_state` holds its accumulators and the run goes on at resume->next_event). */
int gaps_generate_with(const gaps_config *cfg, const gaps_hooks *hooks,
                       const gaps_state *resume_state, const gaps_resume_point *resume,
                       gaps_run *run, char *msg, size_t len);
void gaps_run_free(gaps_run *run);

/* What a run reports, from its accumulated state run->state: the histograms (into run->hist,
 * if allocated), the cross section and the event counters.  The one place that turns a state
 * into a run's numbers, for a run in one process and for one shared by MPI ranks. */
void gaps_run_take_state(gaps_run *run);

GAPS_C_END

#endif
