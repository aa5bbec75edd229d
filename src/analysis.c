/* analysis.c -- check, observe and histogram each finished event, then free its slot. */
#include "gaps/analysis.h"
#include "gaps/constants.h"

#include <math.h>

GAPS_DEVICE_BEGIN

int gaps_event_check(int n, const double p[][4], const int *flav, const int *col,
                     const int *acol, double ecm)
{
    int bad = 0;
    double sum[4] = { 0.0, 0.0, 0.0, 0.0 };
    /* each colour tag must appear once as a colour and once as an anticolour */
    int n_col[GAPS_MAX_PARTONS + 2] = { 0 }, n_acol[GAPS_MAX_PARTONS + 2] = { 0 };
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < 4; ++m) {
            if (!isfinite(p[i][m])) bad |= GAPS_FLAG_NONFINITE;
            sum[m] += p[i][m];
        }
        const double m2 = p[i][0] * p[i][0] - p[i][1] * p[i][1] - p[i][2] * p[i][2]
                          - p[i][3] * p[i][3];
        if (!(fabs(m2) <= GAPS_CHECK_MASS_TOL * p[i][0] * ecm)) bad |= GAPS_FLAG_MASS;
        const int f = flav[i];
        const int ok = f == GAPS_GLUON ? (col[i] > 0 && acol[i] > 0 && col[i] != acol[i])
                     : f >= 1 && f <= GAPS_N_FLAVOURS ? (col[i] > 0 && acol[i] == 0)
                     : f <= -1 && f >= -GAPS_N_FLAVOURS ? (col[i] == 0 && acol[i] > 0) : 0;
        if (!ok || col[i] > GAPS_MAX_PARTONS + 1 || acol[i] > GAPS_MAX_PARTONS + 1) {
            bad |= GAPS_FLAG_COLOUR;
            continue;
        }
        n_col[col[i]]++;
        n_acol[acol[i]]++;
    }
    for (int c = 1; c < GAPS_MAX_PARTONS + 2; ++c)
        if (n_col[c] != n_acol[c] || n_col[c] > 1) bad |= GAPS_FLAG_COLOUR;
    const double dev = fabs(sum[0] - ecm) + fabs(sum[1]) + fabs(sum[2]) + fabs(sum[3]);
    if (!(dev <= GAPS_CHECK_MOMENTUM_TOL * ecm)) bad |= GAPS_FLAG_MOMENTUM;
    return bad;
}

static void keep_record(const gaps_records *rec, int64_t event, int n, const double p[][4],
                        const int *flav, const int *col, const int *acol, double w)
{
    const long base = (long)event * rec->maxp;
    rec->n[event] = n;
    rec->weight[event] = w;
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < 4; ++m) rec->p[(base + i) * 4 + m] = p[i][m];
        rec->flav[base + i] = flav[i];
        rec->col[base + i] = col[i];
        rec->acol[base + i] = acol[i];
    }
}

static void finish(const gaps_pool *pool, const gaps_physics *phys, const gaps_histograms *hist,
                   double *rows, const gaps_records *records, int e)
{
    if (pool->status[e] != GAPS_SLOT_FINISHED) return;
    const int n = pool->n[e];
    double p[GAPS_MAX_PARTONS][4];
    int flav[GAPS_MAX_PARTONS], col[GAPS_MAX_PARTONS], acol[GAPS_MAX_PARTONS];
    for (int i = 0; i < n; ++i) {
        const long at = (long)i * pool->nslots + e;
        p[i][0] = pool->E[at];
        p[i][1] = pool->px[at];
        p[i][2] = pool->py[at];
        p[i][3] = pool->pz[at];
        flav[i] = pool->flav[at];
        col[i] = pool->col[at];
        acol[i] = pool->acol[at];
    }
    const int flags = pool->flags[e] | gaps_event_check(n, p, flav, col, acol, phys->me.ecm);

    gaps_observables o;
    gaps_observables_compute(n, p, &o);
    const double w = pool->weight[e];
    gaps_histograms_fill_event(hist, gaps_worker_id(), &o, w);
    if (rows) {
        double *r = rows + pool->event[e] * (long)GAPS_OBS_COLUMNS;
        r[GAPS_OBS_EVENT] = (double)pool->event[e];
        r[GAPS_OBS_WEIGHT] = w;
        r[GAPS_OBS_NPARTONS] = n;
        r[GAPS_OBS_Y23] = o.y23;
        r[GAPS_OBS_Y34] = o.y34;
        r[GAPS_OBS_Y45] = o.y45;
        r[GAPS_OBS_Y56] = o.y56;
        r[GAPS_OBS_TAU] = o.tau;
        r[GAPS_OBS_RHO_H] = o.rho_H;
        r[GAPS_OBS_RHO_L] = o.rho_L;
        r[GAPS_OBS_B_T] = o.B_T;
        r[GAPS_OBS_B_W] = o.B_W;
        r[GAPS_OBS_B_N] = o.B_N;
        r[GAPS_OBS_C] = o.C;
    }
    if (records) keep_record(records, pool->event[e], n, p, flav, col, acol, w);
    /* failures are rare: the few threads concerned count them, no per-slot flag goes back */
    unsigned long long *cnt = pool->counters;
    if (flags & GAPS_FLAG_CAPACITY) {
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_CAPACITY] += 1u;
    }
    if (flags & ~GAPS_FLAG_CAPACITY) {
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_INVALID] += 1u;
    }
    pool->status[e] = GAPS_SLOT_EMPTY;
}

GAPS_DEVICE_END

void gaps_analysis_step(const gaps_pool *pool, const gaps_physics *phys,
                        const gaps_histograms *hist, double *rows, const gaps_records *records,
                        int n)
{
    GAPS_PARALLEL_FOR(n)
    for (int i = 0; i < n; ++i) {
        finish(pool, phys, hist, rows, records, pool->done_list[i]);
        /* the list is read by index, not through its counter: resetting it here is safe, and
         * the next shower step appends from zero */
        if (i == 0) pool->counters[GAPS_COUNT_DONE] = 0;
    }
}
