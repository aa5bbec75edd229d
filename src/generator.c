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
 * pool that stays in its cache (128 slots: 7.2 us/event against 7.6 at 512 and 8.6 at 2048). */
#if defined(GAPS_BACKEND_OFFLOAD)
#define DEFAULT_SLOTS_PER_WORKER (1 << 19)
/* Veto cycles per fused launch: on an H200, 16 cycles take 10^6 events from 167 ms (1 cycle)
 * to 47 ms: fewer launches, analyses and counter reads (doc/benchmarks.md). */
#define DEFAULT_CYCLES_PER_LAUNCH 16
#else
#define DEFAULT_SLOTS_PER_WORKER 128
#define DEFAULT_CYCLES_PER_LAUNCH 1
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
    cfg->cycles_per_launch = DEFAULT_CYCLES_PER_LAUNCH;
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

/* The event records live in one block: doubles first (so every array stays aligned), then
 * the ints, with r->p at its start.  Sets r's pointers into base (when base is not NULL) and
 * returns the block's size, so that allocation, the copy to the host and the release are one
 * call each. */
static size_t records_carve(gaps_records *r, char *base, size_t events, int maxp)
{
    const size_t np = events * (size_t)maxp;
    size_t off = 0;
#define CARVE(field, count) \
    (r->field = base ? (void *)(base + off) : NULL, off += (count) * sizeof *r->field)
    r->maxp = maxp;
    CARVE(p, 4 * np);
    CARVE(weight, events);
    CARVE(n, events);
    CARVE(flav, np);
    CARVE(col, np);
    CARVE(acol, np);
#undef CARVE
    return off;
}

/* One partition (an independent pool, see gaps_parallel.h): its pool, where the loops see
 * it, and what it reports back. */
typedef struct partition {
    gaps_pool pool;            /* host copy of the struct (device pointers inside) */
    gaps_pool *pool_dev;       /* the struct where the loops run */
    double time_me, time_shower, time_analysis;
    long cycles, log_cap;
    long *log;                 /* events finished after each cycle, or NULL */
    int64_t analysed;
    unsigned long long c[GAPS_N_COUNTERS];
} partition;

/* The cycle loop of one pool.  Each pass runs one veto cycle (or cycles_per_launch in fused
 * mode) for every slot, analyses the events whose shower ended (the done list), and hands
 * fresh event numbers to the freed slots.  The host learns the state from a few counters,
 * never from per-slot flags. */
static void run_partition(const gaps_config *cfg, const gaps_physics *phys,
                          const gaps_histograms *hist, double *rows,
                          const gaps_records *records, partition *part)
{
    const gaps_pool *pool = part->pool_dev;
    const int nslots = part->pool.nslots;
    unsigned long long *c = part->c;

    double t0 = now();
    gaps_shower_refill_step(pool, phys, nslots);
    part->time_me += now() - t0;
    for (;;) {
        t0 = now();
        if (cfg->loop_mode == GAPS_LOOPS_FUSED) {
            gaps_shower_fused_step(pool, phys, nslots, cfg->cycles_per_launch);
        } else {
            gaps_shower_trial_step(pool, phys, nslots);
            gaps_shower_cutoff_step(pool, phys, nslots);
            gaps_shower_veto_step(pool, phys, nslots);
            gaps_shower_split_step(pool, phys, nslots);
        }
        gaps_pool_read_counters(&part->pool, c);
        const double t1 = now();
        part->time_shower += t1 - t0;
        const int done = (int)c[GAPS_COUNT_DONE];
        if (done > 0) gaps_analysis_step(pool, phys, hist, rows, records, done);
        part->analysed += done;
        const double t2 = now();
        part->time_analysis += t2 - t1;

        if (part->log) {
            if (part->cycles == part->log_cap) {
                long *grown = realloc(part->log, 2 * part->log_cap * sizeof(long));
                if (grown) part->log_cap *= 2, part->log = grown;
            }
            if (part->cycles < part->log_cap) part->log[part->cycles] = (long)part->analysed;
        }
        part->cycles++;
        const int idle = (int64_t)c[GAPS_COUNT_STARTED] == part->analysed;
        const int left = (int64_t)c[GAPS_COUNT_NEXT] < cfg->events;
        if (idle && !left) break;
        if (left && cfg->refill && done > 0) gaps_shower_refill_done_step(pool, phys, done);
        else if (left && idle) gaps_shower_refill_step(pool, phys, nslots);
        part->time_me += now() - t2;
    }
    gaps_pool_read_counters(&part->pool, c);
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
    /* one partition per worker on the host, one on the device; never more slots than events */
    const int nparts = gaps_runtime_partitions();
    int64_t slots = cfg->slots > 0 ? cfg->slots : (int64_t)DEFAULT_SLOTS_PER_WORKER * nparts;
    if (slots > cfg->events) slots = cfg->events;
    if (slots < nparts) slots = nparts;
    run->slots = (int)slots;

    partition *parts = calloc(nparts, sizeof *parts);
    gaps_histograms hist;
    gaps_histograms_layout(&hist, gaps_worker_count(), phys.me.w_max);
    const size_t hist_bytes = (size_t)gaps_histograms_words(&hist) * sizeof(uint64_t);
    hist.acc = gaps_device_alloc(hist_bytes);
    double *rows = NULL;
    const size_t row_bytes = (size_t)cfg->events * GAPS_OBS_COLUMNS * sizeof(double);
    if (cfg->keep_rows) rows = gaps_device_alloc(row_bytes);
    uint64_t *acc_host = malloc(hist_bytes);
    run->hist = malloc(sizeof *run->hist);
    gaps_records rec;
    gaps_records *records_dev = NULL;
    const size_t rec_bytes = records_carve(&rec, NULL, (size_t)cfg->events, cfg->max_partons);
    if (cfg->keep_records) {
        records_carve(&rec, gaps_device_alloc(rec_bytes), (size_t)cfg->events, cfg->max_partons);
        if (rec.p) records_dev = gaps_device_copy(&rec, sizeof rec);
    }
    gaps_physics *phys_dev = gaps_device_copy(&phys, sizeof phys);
    gaps_histograms *hist_dev = hist.acc ? gaps_device_copy(&hist, sizeof hist) : NULL;
    int ok = parts && hist_dev && phys_dev && (!cfg->keep_rows || rows) && acc_host && run->hist
             && (!cfg->keep_records || records_dev);
    for (int k = 0; ok && k < nparts; ++k) {
        const int n = (int)(slots / nparts + (k < slots % nparts));
        ok = gaps_pool_create(&parts[k].pool, n, cfg->max_partons,
                              k == 0 ? NULL : parts[0].pool.next_event) == 0
             && (parts[k].pool_dev = gaps_device_copy(&parts[k].pool, sizeof(gaps_pool))) != NULL;
    }
    if (ok) {
        parts[0].log_cap = 1024;
        parts[0].log = malloc(parts[0].log_cap * sizeof(long));
    }
    if (!ok) {
        snprintf(msg, len, "cannot allocate a pool of %lld slots (%.0f MB)%s", (long long)slots,
                 gaps_pool_bytes((int)slots, cfg->max_partons) / 1e6,
                 cfg->keep_rows || cfg->keep_records ? " and the per-event output" : "");
    } else {
        const double t_start = now();
        GAPS_PARTITION_FOR
        for (int k = 0; k < nparts; ++k)
            run_partition(cfg, phys_dev, hist_dev, rows, records_dev, &parts[k]);
        run->time_total = now() - t_start;

        gaps_device_to_host(acc_host, hist.acc, hist_bytes);
        gaps_histograms_merge(&hist, acc_host, run->hist);
        gaps_histograms_sigma(run->hist, &run->sigma, &run->sigma_err);
        /* stage times: the mean over partitions, which run concurrently */
        for (int k = 0; k < nparts; ++k) {
            run->events += parts[k].analysed;
            run->capacity_hits += (int64_t)parts[k].c[GAPS_COUNT_CAPACITY];
            run->invalid_events += (int64_t)parts[k].c[GAPS_COUNT_INVALID];
            run->time_me += parts[k].time_me / nparts;
            run->time_shower += parts[k].time_shower / nparts;
            run->time_analysis += parts[k].time_analysis / nparts;
        }
        run->cycles = parts[0].cycles;
        run->finished_per_cycle = parts[0].log;
        parts[0].log = NULL;
        if (rows) {
            run->rows = malloc(row_bytes);
            if (run->rows) gaps_device_to_host(run->rows, rows, row_bytes);
            else ok = 0, snprintf(msg, len, "out of memory for the per-event observables");
        }
        if (records_dev) {
            char *block = malloc(rec_bytes);
            records_carve(&run->records, block, (size_t)cfg->events, cfg->max_partons);
            if (block) gaps_device_to_host(block, rec.p, rec_bytes);
            else ok = 0, snprintf(msg, len, "out of memory for the event records");
        }
    }
    for (int k = 0; parts && k < nparts; ++k) {
        free(parts[k].log);
        gaps_device_free(parts[k].pool_dev);
        if (parts[k].pool.counters) gaps_pool_destroy(&parts[k].pool);
    }
    free(parts);
    free(acc_host);
    gaps_device_free(phys_dev);
    gaps_device_free(records_dev);
    if (cfg->keep_records) gaps_device_free(rec.p);   /* the records' block */
    gaps_device_free(hist_dev);
    gaps_device_free(rows);
    gaps_device_free(hist.acc);
    if (!ok) gaps_run_free(run);
    return ok ? 0 : -1;
}

void gaps_run_free(gaps_run *run)
{
    free(run->records.p);   /* the records' block (records_carve) */
    memset(&run->records, 0, sizeof run->records);
    free(run->hist);
    free(run->finished_per_cycle);
    free(run->rows);
    run->hist = NULL;
    run->finished_per_cycle = NULL;
    run->rows = NULL;
}
