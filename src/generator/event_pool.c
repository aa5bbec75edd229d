/* event_pool.c -- allocation of the slot pool where the loops run. */
#include "gaps/event_pool.h"
#include "gaps_parallel.h"
#include "gaps_runtime.h"

#include <stddef.h>

#include <string.h>

/* Bytes of one slot's share of every array. */
static double per_slot_bytes(int maxp)
{
    double bytes = 0.0;
#define GAPS_POOL_BYTES_(type, name, rows, what) bytes += (double)(rows) * sizeof(type);
    GAPS_POOL_ARRAYS(GAPS_POOL_BYTES_, maxp)
#undef GAPS_POOL_BYTES_
    return bytes;
}

double gaps_pool_bytes(int nslots, int maxp, int n_vary, int row_starts)
{
    double slot = per_slot_bytes(maxp);
    if (n_vary > 0) slot += (double)n_vary * sizeof(double) + sizeof(int);   /* vary_w, _flags */
    if (row_starts) slot += (double)maxp * sizeof(double);                  /* t_start_row */
    return (double)nslots * slot + GAPS_N_COUNTERS * 8.0;
}

int gaps_pool_create(gaps_pool *pool, int nslots, int maxp, unsigned long long *next_event)
{
    memset(pool, 0, sizeof *pool);
    pool->next_event = next_event;
    pool->nslots = nslots;
    pool->maxp = maxp;
    int ok = 1;
#define GAPS_POOL_ALLOC_(type, name, rows, what)                                                \
    ok = ok && (pool->name = gaps_device_alloc((size_t)(rows) * (size_t)nslots * sizeof(type))) \
                   != NULL;
    GAPS_POOL_ARRAYS(GAPS_POOL_ALLOC_, maxp)
#undef GAPS_POOL_ALLOC_
    ok = ok && (pool->counters = gaps_device_alloc(GAPS_N_COUNTERS * sizeof *pool->counters));
    if (ok && !pool->next_event) pool->next_event = pool->counters + GAPS_COUNT_NEXT;
    if (!ok) gaps_pool_destroy(pool);
    return ok ? 0 : -1;
}

int gaps_pool_alloc_vary(gaps_pool *pool, int n_vary)
{
    pool->n_vary = n_vary;
    if (n_vary <= 0) return 0;
    pool->vary_w = gaps_device_alloc((size_t)n_vary * (size_t)pool->nslots * sizeof(double));
    pool->vary_flags = gaps_device_alloc((size_t)pool->nslots * sizeof(int));
    return pool->vary_w && pool->vary_flags ? 0 : -1;
}

int gaps_pool_alloc_row_starts(gaps_pool *pool)
{
    pool->t_start_row = gaps_device_alloc((size_t)pool->maxp * (size_t)pool->nslots
                                          * sizeof(double));
    return pool->t_start_row ? 0 : -1;
}

void gaps_pool_destroy(gaps_pool *pool)
{
    gaps_device_free(pool->t_start_row);
    gaps_device_free(pool->vary_w);
    gaps_device_free(pool->vary_flags);
#define GAPS_POOL_FREE_(type, name, rows, what) gaps_device_free(pool->name);
    GAPS_POOL_ARRAYS(GAPS_POOL_FREE_, pool->maxp)
#undef GAPS_POOL_FREE_
    gaps_device_free(pool->counters);
    memset(pool, 0, sizeof *pool);
}

void gaps_pool_clear_done_by_n(gaps_pool *pool)
{
    /* not inside the analysis launch: its threads read the counts to find their entries */
    static const unsigned long long zero[GAPS_MAX_PARTONS + 1];
    gaps_host_to_device(pool->counters + GAPS_COUNT_BY_N, zero, sizeof zero);
}

int gaps_pool_done_count(const unsigned long long c[GAPS_N_COUNTERS])
{
    unsigned long long done = 0;
    for (int n = 0; n <= GAPS_MAX_PARTONS; ++n) done += c[GAPS_COUNT_BY_N + n];
    return (int)done;
}

void gaps_pool_read_counters(const gaps_pool *pool, unsigned long long out[GAPS_N_COUNTERS])
{
    gaps_device_to_host(out, pool->counters, GAPS_N_COUNTERS * sizeof out[0]);
    if (pool->next_event != pool->counters + GAPS_COUNT_NEXT) {
        /* another pool's counter, updated by other host threads while we read it */
        const unsigned long long *next = pool->next_event;
        unsigned long long v;
        GAPS_ATOMIC_READ
        v = *next;
        out[GAPS_COUNT_NEXT] = v;
    }
}

unsigned long long gaps_pool_read_counter(const gaps_pool *pool, int which)
{
    unsigned long long v;
    gaps_device_to_host(&v, pool->counters + which, sizeof v);
    return v;
}

void gaps_pool_set_counter(gaps_pool *pool, int which, unsigned long long value)
{
    gaps_host_to_device(pool->counters + which, &value, sizeof value);
}

GAPS_DEVICE_BEGIN
void gaps_pool_finish_shower(gaps_pool *pool, int e)
{
    unsigned long long j, *cnt = pool->counters;
    const int n = pool->n[e];
    pool->status[e] = GAPS_SLOT_FINISHED;
    GAPS_ATOMIC_CAPTURE
    j = cnt[GAPS_COUNT_BY_N + n]++;
    pool->done_by_n[gaps_at(pool, n, (int)j)] = e;
}

/* Why the analysis takes the done list in the order of multiplicity: an event's analysis
 * costs steeply more with its parton count (the exact thrust visits 2^(n-3) sign patterns,
 * the clustering ~n^3/3 pairs), and a GPU warp takes as long as its costliest event; events of
 * one multiplicity side by side run the same loops.  The rows are filled as the showers end,
 * so the order costs no launch of its own; within a row the order is arbitrary, and nothing
 * depends on it (the histograms are sums in fixed point, the host puts per-event output in
 * event order).  Entry i is found by walking the row counts: a few dozen cached loads. */
int gaps_pool_done_by_n(const gaps_pool *pool, int i)
{
    const unsigned long long *cnt = pool->counters + GAPS_COUNT_BY_N;
    int n = 0;
    while (n < GAPS_MAX_PARTONS && (unsigned long long)i >= cnt[n]) i -= (int)cnt[n++];
    return pool->done_by_n[gaps_at(pool, n, i)];
}
GAPS_DEVICE_END
