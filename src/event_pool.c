/* event_pool.c -- allocation of the slot pool where the loops run. */
#include "gaps/event_pool.h"
#include "gaps_parallel.h"
#include "gaps_runtime.h"

#include <string.h>

/* Bytes of each array family, per slot. */
static double per_slot_bytes(int maxp)
{
    const double parton = 4 * sizeof(double) + 3 * sizeof(int);
    const double dipole = 2 * 4 * sizeof(double);
    const double tags = 2 * sizeof(int);
    const double slot = 5 * sizeof(int) + sizeof(int64_t) + sizeof(uint32_t)
                        + 4 * sizeof(double) + 3 * sizeof(double) + 2 * sizeof(int);
    return maxp * (parton + dipole) + (maxp + 2) * tags + slot;
}

double gaps_pool_bytes(int nslots, int maxp)
{
    return (double)nslots * per_slot_bytes(maxp) + GAPS_N_COUNTERS * 8.0;
}

int gaps_pool_create(gaps_pool *pool, int nslots, int maxp, unsigned long long *next_event)
{
    memset(pool, 0, sizeof *pool);
    pool->next_event = next_event;
    pool->nslots = nslots;
    pool->maxp = maxp;
    const size_t np = (size_t)nslots * maxp, ns = (size_t)nslots;
    const size_t nt = (size_t)nslots * (maxp + 2);
    int ok = 1;
#define ALLOC(field, count) \
    ok = ok && (pool->field = gaps_device_alloc((count) * sizeof *pool->field)) != NULL
    ALLOC(E, np); ALLOC(px, np); ALLOC(py, np); ALLOC(pz, np);
    ALLOC(flav, np); ALLOC(col, np); ALLOC(acol, np);
    ALLOC(rate, 2 * np); ALLOC(dip_m2, 2 * np); ALLOC(dip_zm, 2 * np); ALLOC(dip_lnz, 2 * np);
    ALLOC(col_owner, nt); ALLOC(acol_owner, nt);
    ALLOC(status, ns); ALLOC(n, ns); ALLOC(next_tag, ns); ALLOC(flags, ns);
    ALLOC(event, ns); ALLOC(draw, ns); ALLOC(t, ns); ALLOC(weight, ns); ALLOC(rate_sum, ns);
    ALLOC(trial_t, ns); ALLOC(trial_z, ns); ALLOC(trial_y, ns);
    ALLOC(trial_dipole, ns); ALLOC(trial_kernel, ns); ALLOC(done_list, ns);
    ALLOC(counters, GAPS_N_COUNTERS);
#undef ALLOC
    if (ok && !pool->next_event) pool->next_event = pool->counters + GAPS_COUNT_NEXT;
    if (!ok) gaps_pool_destroy(pool);
    return ok ? 0 : -1;
}

void gaps_pool_destroy(gaps_pool *pool)
{
    void *all[] = { pool->E, pool->px, pool->py, pool->pz, pool->flav, pool->col, pool->acol,
                    pool->rate, pool->dip_m2, pool->dip_zm, pool->dip_lnz, pool->col_owner,
                    pool->acol_owner, pool->status, pool->n,
                    pool->next_tag, pool->flags, pool->event, pool->draw, pool->t, pool->weight,
                    pool->rate_sum, pool->trial_t, pool->trial_z, pool->trial_y,
                    pool->trial_dipole, pool->trial_kernel, pool->done_list, pool->counters };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) gaps_device_free(all[i]);
    memset(pool, 0, sizeof *pool);
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

GAPS_DEVICE_BEGIN
void gaps_pool_finish_shower(const gaps_pool *pool, int e)
{
    unsigned long long at, *cnt = pool->counters;
    pool->status[e] = GAPS_SLOT_FINISHED;
    GAPS_ATOMIC_CAPTURE
    at = cnt[GAPS_COUNT_DONE]++;
    pool->done_list[at] = e;
}
GAPS_DEVICE_END
