/* analysis.c -- check, observe and histogram each finished event, then free its slot. */
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps_parallel.h"

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

static void keep_record(const gaps_records *rec, int i, int64_t event, int n,
                        const double p[][4], const int *flav, const int *col, const int *acol,
                        double w)
{
    const long base = (long)i * rec->maxp;
    rec->event[i] = event;
    rec->n[i] = n;
    rec->weight[i] = w;
    for (int k = 0; k < n; ++k) {
        for (int m = 0; m < 4; ++m) rec->p[(base + k) * 4 + m] = p[k][m];
        rec->flav[base + k] = flav[k];
        rec->col[base + k] = col[k];
        rec->acol[base + k] = acol[k];
    }
}

static void keep_row(double *r, int64_t event, double w, int n, const gaps_observables *o)
{
    gaps_row_set_event(r, event);
    r[GAPS_OBS_WEIGHT] = w;
    r[GAPS_OBS_NPARTONS] = n;
    r[GAPS_OBS_Y23] = o->y23;
    r[GAPS_OBS_Y34] = o->y34;
    r[GAPS_OBS_Y45] = o->y45;
    r[GAPS_OBS_Y56] = o->y56;
    r[GAPS_OBS_TAU] = o->tau;
    r[GAPS_OBS_RHO_H] = o->rho_H;
    r[GAPS_OBS_RHO_L] = o->rho_L;
    r[GAPS_OBS_B_T] = o->B_T;
    r[GAPS_OBS_B_W] = o->B_W;
    r[GAPS_OBS_B_N] = o->B_N;
    r[GAPS_OBS_C] = o->C;
}

/* Analyse the finished event in slot e, the i-th entry of the done list. */
static void finish(gaps_pool *pool, const gaps_physics *phys, const gaps_histograms *hist,
                   const gaps_event_out *out, int i, int e)
{
    if (pool->status[e] != GAPS_SLOT_FINISHED) return;
    const int n = pool->n[e];
    double p[GAPS_MAX_PARTONS][4];
    int flav[GAPS_MAX_PARTONS], col[GAPS_MAX_PARTONS], acol[GAPS_MAX_PARTONS];
    for (int k = 0; k < n; ++k) {
        const long at = gaps_at(pool, k, e);
        p[k][0] = pool->E[at];
        p[k][1] = pool->px[at];
        p[k][2] = pool->py[at];
        p[k][3] = pool->pz[at];
        flav[k] = pool->flav[at];
        col[k] = pool->col[at];
        acol[k] = pool->acol[at];
    }
    int flags = pool->flags[e] | gaps_event_check(n, p, flav, col, acol, phys->me.ecm);

    gaps_observables o;
    gaps_observables_compute(n, p, &o);
    const double w = pool->weight[e];
    const int64_t event = pool->event[e];
    if (gaps_histograms_fill_event(hist, gaps_worker_id(), &o, w) != 0) flags |= GAPS_FLAG_WEIGHT;
    if (out && out->rows) keep_row(out->rows + (long)i * GAPS_OBS_COLUMNS, event, w, n, &o);
    if (out && out->records.p) keep_record(&out->records, i, event, n, p, flav, col, acol, w);
    /* failures are rare: the few threads concerned count them, no per-slot flag goes back */
    unsigned long long *cnt = pool->counters;
    if (flags & GAPS_FLAG_CAPACITY) {
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_CAPACITY] += 1u;
    }
    if (flags & ~(GAPS_FLAG_CAPACITY | GAPS_FLAG_WEIGHT)) {
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_INVALID] += 1u;
    }
    if (flags & GAPS_FLAG_WEIGHT) {
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_BAD_WEIGHT] += 1u;
    }
    pool->status[e] = GAPS_SLOT_EMPTY;
}

GAPS_DEVICE_END

size_t gaps_records_carve(gaps_records *r, void *base, size_t count, int maxp)
{
    const size_t np = count * (size_t)maxp;
    size_t off = 0;
    /* doubles first, then 8-byte integers, then ints: every array stays aligned */
#define GAPS_CARVE_(field, n)                                                                  \
    (r->field = base ? (void *)((char *)base + off) : NULL, off += (n) * sizeof *r->field)
    r->maxp = maxp;
    GAPS_CARVE_(p, 4 * np);
    GAPS_CARVE_(weight, count);
    GAPS_CARVE_(event, count);
    GAPS_CARVE_(n, count);
    GAPS_CARVE_(flav, np);
    GAPS_CARVE_(col, np);
    GAPS_CARVE_(acol, np);
#undef GAPS_CARVE_
    return off;
}

void gaps_analysis_launch(gaps_pool *pool, const gaps_physics *phys,
                          const gaps_histograms *hist, const gaps_event_out *out, int first,
                          int n)
{
    GAPS_PARALLEL_FOR(n)
    for (int i = 0; i < n; ++i)
        finish(pool, phys, hist, out, i, gaps_pool_done_by_n(pool, first + i));
}
