/* gaps/generator.h -- one complete run: matrix element, parallel veto shower and analysis of
 * N events through a pool of slots, with per-stage wall-clock times.  This is the library's
 * entry point; the program `gaps` is a command-line front end to it. */
#ifndef GAPS_GENERATOR_H
#define GAPS_GENERATOR_H

#include <stddef.h>
#include <stdint.h>
#include "gaps/analysis.h"
#include "gaps/histogram.h"

/* How the veto cycles are launched. */
enum gaps_loop_mode {
    GAPS_LOOPS_STEPS = 0,   /* one data-parallel loop per veto step (the paper's structure) */
    GAPS_LOOPS_FUSED = 1    /* one loop runs whole cycles for each slot */
};

typedef struct gaps_config {
    int64_t events;          /* N */
    double ecm;              /* sqrt(s), GeV */
    double alphas_mz;
    int alphas_order;        /* 0 fixed, 1 one loop, 2 two loops */
    double t_cut;            /* GeV^2 */
    uint32_t seed;
    int slots;               /* pool size; 0 = backend default */
    int max_partons;         /* event record capacity */
    int refill;              /* 1: refill finished slots at once; 0: whole batches */
    int loop_mode;           /* enum gaps_loop_mode */
    int cycles_per_launch;   /* fused mode: veto cycles per launch */
    int threads;             /* openmp: 0 = OpenMP's default */
    int allow_host;          /* offload build without GPU: run on the host instead of failing */
    int keep_rows;           /* keep per-event observables (GAPS_OBS_COLUMNS doubles each) */
    int keep_records;        /* keep every final state (for event output) */
} gaps_config;

typedef struct gaps_run {
    gaps_hist_result *hist;  /* merged histograms (heap) */
    double sigma, sigma_err; /* pb */
    int64_t events, capacity_hits, invalid_events;
    double time_me, time_shower, time_analysis, time_total;   /* s, wall clock */
    long cycles;             /* veto cycles (host iterations) of the first pool */
    long *finished_per_cycle;/* events completed in the first pool after each of its cycles
                                (heap, `cycles` entries) */
    double *rows;            /* per-event observables or NULL (heap) */
    gaps_records records;    /* final states if keep_records (heap), else all NULL */
    int slots, threads;
    char backend[16];
    char device[192];
} gaps_run;

/* Defaults of physics.md and of the backend. */
void gaps_config_defaults(gaps_config *cfg);

/* Check a configuration: 0, or -1 with a one-line reason in msg. */
int gaps_config_check(const gaps_config *cfg, char *msg, size_t len);

/* Run.  0 on success, -1 with a one-line reason in msg. */
int gaps_generate(const gaps_config *cfg, gaps_run *run, char *msg, size_t len);
void gaps_run_free(gaps_run *run);

#endif
