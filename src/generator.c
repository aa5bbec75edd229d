/* generator.c -- the host side of the parallel veto algorithm: fill the pool, run veto cycles
 * until every event is done, analyse and refill as slots finish, time each stage. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/generator.h"
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/shower.h"
#include "gaps_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Default pool sizes: a GPU needs ~10^5-10^6 threads in flight; a CPU core works best on a
 * pool that stays in its cache. */
#if defined(GAPS_BACKEND_OFFLOAD)
#define DEFAULT_SLOTS_PER_WORKER (1 << 19)
#else
#define DEFAULT_SLOTS_PER_WORKER 512
#endif
#define DEFAULT_MAX_PARTONS 32

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void gaps_config_defaults(gaps_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->events = 100000;
    cfg->ecm = GAPS_DEFAULT_ECM;
    cfg->alphas_mz = GAPS_DEFAULT_ALPHAS_MZ;
    cfg->alphas_order = 2;
    cfg->t_cut = GAPS_DEFAULT_TCUT;
    cfg->seed = 1;
    cfg->slots = 0;
    cfg->max_partons = DEFAULT_MAX_PARTONS;
    cfg->refill = 1;
    cfg->loop_mode = GAPS_LOOPS_FUSED;
    cfg->cycles_per_launch = 1;
}

int gaps_config_check(const gaps_config *cfg, char *msg, size_t len)
{
    gaps_alphas as;
    if (cfg->events < 1) return snprintf(msg, len, "--events must be at least 1"), -1;
    if (!(cfg->ecm > 0.0) || !isfinite(cfg->ecm))
        return snprintf(msg, len, "--ecm must be a positive energy in GeV"), -1;
    if (!(cfg->t_cut > 0.0) || !isfinite(cfg->t_cut))
        return snprintf(msg, len, "--tcut must be a positive k_T^2 in GeV^2"), -1;
    if (cfg->ecm * cfg->ecm <= 4.0 * cfg->t_cut)
        return snprintf(msg, len,
                        "--ecm %g GeV is too small for --tcut %g GeV^2: need s > 4 t_cut",
                        cfg->ecm, cfg->t_cut), -1;
    if (gaps_alphas_init(&as, cfg->alphas_order, cfg->alphas_mz) != 0)
        return snprintf(msg, len, "--alphas-order must be 0, 1 or 2 and --alphas-mz in (0, 1)"),
               -1;
    if (!gaps_alphas_is_defined(&as, cfg->t_cut))
        return snprintf(msg, len,
                        "alpha_s is not defined at --tcut %g GeV^2 (below the Landau pole)",
                        cfg->t_cut), -1;
    if (cfg->max_partons < 3 || cfg->max_partons > GAPS_MAX_PARTONS)
        return snprintf(msg, len, "--max-partons must be between 3 and %d", GAPS_MAX_PARTONS), -1;
    if (cfg->slots < 0) return snprintf(msg, len, "--pool must be positive"), -1;
    if (cfg->cycles_per_launch < 1)
        return snprintf(msg, len, "--cycles-per-launch must be at least 1"), -1;
    if (cfg->threads < 0) return snprintf(msg, len, "--threads must be positive"), -1;
    return 0;
}

static void physics_init(const gaps_config *cfg, gaps_physics *phys)
{
    memset(phys, 0, sizeof *phys);
    gaps_me_init(&phys->me, cfg->ecm);
    gaps_alphas_init(&phys->as, cfg->alphas_order, cfg->alphas_mz);
    phys->t_cut = cfg->t_cut;
    phys->a_max = gaps_alphas_value(&phys->as, cfg->t_cut);
    phys->seed = cfg->seed;
    phys->n_events = cfg->events;
}

int gaps_generate(const gaps_config *cfg, gaps_run *run, char *msg, size_t len)
{
    memset(run, 0, sizeof *run);
    if (gaps_config_check(cfg, msg, len) != 0) return -1;
    gaps_runtime_set_threads(cfg->threads);
    if (gaps_runtime_init(cfg->allow_host, run->device, sizeof run->device, msg, len) != 0)
        return -1;
    snprintf(run->backend, sizeof run->backend, "%s", GAPS_BACKEND_NAME);
    run->threads = gaps_runtime_threads();

    gaps_physics phys;
    physics_init(cfg, &phys);
    int slots = cfg->slots > 0 ? cfg->slots : DEFAULT_SLOTS_PER_WORKER * run->threads;
    if ((int64_t)slots > cfg->events) slots = (int)cfg->events;
    run->slots = slots;

    gaps_pool pool;
    if (gaps_pool_create(&pool, slots, cfg->max_partons) != 0)
        return snprintf(msg, len, "cannot allocate a pool of %d slots (%.0f MB)", slots,
                        gaps_pool_bytes(slots, cfg->max_partons) / 1e6), -1;
    gaps_histograms hist;
    gaps_histograms_layout(&hist, gaps_worker_count(), phys.me.w_max);
    const size_t hist_bytes = (size_t)gaps_histograms_words(&hist) * sizeof(uint64_t);
    hist.acc = gaps_device_alloc(hist_bytes);
    double *rows = NULL;
    const size_t row_bytes = (size_t)cfg->events * GAPS_OBS_COLUMNS * sizeof(double);
    if (cfg->keep_rows) rows = gaps_device_alloc(row_bytes);
    uint64_t *acc_host = malloc(hist_bytes);
    run->hist = malloc(sizeof *run->hist);
    long cap_cycles = 1024;
    run->finished_per_cycle = malloc(cap_cycles * sizeof(long));
    if (!hist.acc || (cfg->keep_rows && !rows) || !acc_host || !run->hist
        || !run->finished_per_cycle) {
        gaps_pool_destroy(&pool);
        gaps_device_free(hist.acc);
        gaps_device_free(rows);
        free(acc_host);
        gaps_run_free(run);
        return snprintf(msg, len, "out of memory"), -1;
    }

    /* The cycle loop.  Each pass runs one veto cycle (or cycles_per_launch in fused mode) for
     * every slot, analyses the events that ended, and hands fresh event numbers to free
     * slots.  The host learns the state from four counters, never from per-slot flags. */
    const double t_start = now();
    double t0 = now();
    gaps_shower_refill_step(pool, phys);
    run->time_me += now() - t0;
    unsigned long long c[GAPS_N_COUNTERS];
    for (;;) {
        t0 = now();
        if (cfg->loop_mode == GAPS_LOOPS_FUSED) {
            gaps_shower_fused_step(pool, phys, cfg->cycles_per_launch);
        } else {
            gaps_shower_trial_step(pool, phys);
            gaps_shower_cutoff_step(pool, phys);
            gaps_shower_veto_step(pool, phys);
            gaps_shower_split_step(pool, phys);
        }
        const double t1 = now();
        run->time_shower += t1 - t0;
        gaps_analysis_step(pool, phys, hist, rows);
        gaps_pool_read_counters(&pool, c);
        const double t2 = now();
        run->time_analysis += t2 - t1;

        if (run->cycles == cap_cycles) {
            cap_cycles *= 2;
            long *grown = realloc(run->finished_per_cycle, cap_cycles * sizeof(long));
            if (!grown) break;
            run->finished_per_cycle = grown;
        }
        run->finished_per_cycle[run->cycles++] = (long)c[GAPS_COUNT_FINISHED];
        if ((int64_t)c[GAPS_COUNT_FINISHED] >= cfg->events) break;
        const int64_t started = (int64_t)c[GAPS_COUNT_STARTED] < cfg->events
                                    ? (int64_t)c[GAPS_COUNT_STARTED] : cfg->events;
        if (started < cfg->events
            && (cfg->refill || (int64_t)c[GAPS_COUNT_FINISHED] == started)) {
            gaps_shower_refill_step(pool, phys);
            run->time_me += now() - t2;
        }
    }
    run->time_total = now() - t_start;

    gaps_device_to_host(acc_host, hist.acc, hist_bytes);
    gaps_histograms_merge(&hist, acc_host, run->hist);
    gaps_histograms_sigma(run->hist, &run->sigma, &run->sigma_err);
    run->events = (int64_t)c[GAPS_COUNT_FINISHED];
    run->capacity_hits = (int64_t)c[GAPS_COUNT_CAPACITY];
    run->invalid_events = (int64_t)c[GAPS_COUNT_INVALID];
    if (rows) {
        run->rows = malloc(row_bytes);
        if (run->rows) gaps_device_to_host(run->rows, rows, row_bytes);
    }
    free(acc_host);
    gaps_device_free(rows);
    gaps_device_free(hist.acc);
    gaps_pool_destroy(&pool);
    if (cfg->keep_rows && !run->rows) {
        gaps_run_free(run);
        return snprintf(msg, len, "out of memory for the per-event observables"), -1;
    }
    return 0;
}

void gaps_run_free(gaps_run *run)
{
    free(run->hist);
    free(run->finished_per_cycle);
    free(run->rows);
    run->hist = NULL;
    run->finished_per_cycle = NULL;
    run->rows = NULL;
}
