/* analysis.c -- check, observe and histogram each finished event, then free its slot. */
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps_parallel.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

GAPS_DEVICE_BEGIN

int gaps_event_check(int n_in, int n, const double p[][4], const int *flav, const int *col,
                     const int *acol, const double p_beams[4], double ecm)
{
    int bad = 0;
    double sum[4] = { 0.0, 0.0, 0.0, 0.0 };
    /* each colour tag must appear once as a colour and once as an anticolour */
    int n_col[GAPS_MAX_PARTONS + 2] = { 0 }, n_acol[GAPS_MAX_PARTONS + 2] = { 0 };
    for (int i = 0; i < n; ++i) {
        const int incoming = i < n_in;
        for (int m = 0; m < 4; ++m) {
            if (!isfinite(p[i][m])) bad |= GAPS_FLAG_NONFINITE;
            sum[m] += incoming ? -p[i][m] : p[i][m];
        }
        /* partons are massless; a colourless particle (a Z, a lepton) may have a mass */
        const int parton = flav[i] == GAPS_GLUON || (flav[i] != 0 && abs(flav[i]) <= 6);
        const double m2 = p[i][0] * p[i][0] - p[i][1] * p[i][1] - p[i][2] * p[i][2]
                          - p[i][3] * p[i][3];
        if (parton && !(fabs(m2) <= GAPS_CHECK_MASS_TOL * p[i][0] * ecm)) bad |= GAPS_FLAG_MASS;
        /* an incoming parton runs along its beam: no transverse momentum */
        if (incoming && !(fabs(p[i][1]) + fabs(p[i][2]) <= GAPS_CHECK_MOMENTUM_TOL * ecm))
            bad |= GAPS_FLAG_MASS;
        /* incoming partons carry their physical colours; crossed into the final state an
         * incoming quark becomes an outgoing antiquark, its colour an anticolour */
        const int f = incoming && flav[i] != GAPS_GLUON ? -flav[i] : flav[i];
        const int c = incoming ? acol[i] : col[i], a = incoming ? col[i] : acol[i];
        const int ok = !parton ? (c == 0 && a == 0)
                     : f == GAPS_GLUON ? (c > 0 && a > 0 && c != a)
                     : f >= 1 && f <= GAPS_N_FLAVOURS ? (c > 0 && a == 0)
                     : f <= -1 && f >= -GAPS_N_FLAVOURS ? (c == 0 && a > 0) : 0;
        if (!ok || c > GAPS_MAX_PARTONS + 1 || a > GAPS_MAX_PARTONS + 1) {
            bad |= GAPS_FLAG_COLOUR;
            continue;
        }
        n_col[c]++;
        n_acol[a]++;
    }
    for (int c = 1; c < GAPS_MAX_PARTONS + 2; ++c)
        if (n_col[c] != n_acol[c] || n_col[c] > 1) bad |= GAPS_FLAG_COLOUR;
    /* outgoing minus incoming momenta against what enters from outside the record: both
     * beams when no incoming parton is in it (e+ e-) */
    const double *q = n_in > 0 ? (const double[4]){ 0.0, 0.0, 0.0, 0.0 } : p_beams;
    const double dev = fabs(sum[0] - q[0]) + fabs(sum[1] - q[1]) + fabs(sum[2] - q[2])
                       + fabs(sum[3] - q[3]);
    if (!(dev <= GAPS_CHECK_MOMENTUM_TOL * ecm)) bad |= GAPS_FLAG_MOMENTUM;
    return bad;
}

static void keep_record(const gaps_records *rec, int i, int64_t event, int n_in, int n,
                        const double p[][4], const int *flav, const int *col, const int *acol,
                        const double *x_in, double w)
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
        rec->status[base + k] = k < n_in ? GAPS_STATUS_INCOMING : GAPS_STATUS_OUTGOING;
        rec->x[base + k] = k < n_in ? x_in[k] : 0.0;
    }
}

void gaps_analysis_row(double *row, int a, int64_t event, double w, int n_in, int n,
                       const double p[][4], const int *flav)
{
    gaps_row_set_event(row, event);
    row[GAPS_OBS_WEIGHT] = w;
    int partons = 0;
    for (int k = n_in; k < n; ++k)
        partons += flav[k] == GAPS_GLUON || (flav[k] != 0 && abs(flav[k]) <= 6);
    row[GAPS_OBS_NPARTONS] = partons;
    /* a run-uniform switch, never a function pointer: every thread takes the same case */
    switch (a) {
#define GAPS_ANALYSIS_ROW_CASE_(ID, name, columns, histograms)                                 \
    case GAPS_ANALYSIS_##ID: gaps_##name##_row(row, n_in, n, p, flav); break;
    GAPS_ANALYSES(GAPS_ANALYSIS_ROW_CASE_)
#undef GAPS_ANALYSIS_ROW_CASE_
    default: break;
    }
}

/* The columns of a row of analysis a (gaps_analysis_table[a].n_columns, where the loops run). */
static int row_columns(int a)
{
    switch (a) {
#define GAPS_ANALYSIS_COLUMNS_CASE_(ID, name, columns, histograms)                             \
    case GAPS_ANALYSIS_##ID: return GAPS_##ID##_N_COLUMNS;
    GAPS_ANALYSES(GAPS_ANALYSIS_COLUMNS_CASE_)
#undef GAPS_ANALYSIS_COLUMNS_CASE_
    default: return GAPS_OBS_FIRST;
    }
}


/* --vary: the event's histograms once more per variation weight (row's weight w times the
 * variation's factor; row is left as it was).  The slot's variation flags.  Out of line, so
 * that the analysis of a run without --vary keeps its registers. */
GAPS_OUT_OF_LINE int fill_variations(const gaps_histograms *hist, const gaps_pool *pool, int e,
                                     double w, double *row)
{
    int vary_flags = pool->vary_flags[e];
    for (int v = 0; v < hist->n_vary; ++v) {
        const double f = pool->vary_w[gaps_at(pool, v, e)];
        if (!(fabs(f) <= GAPS_VARY_LARGE_RATIO)) vary_flags |= GAPS_VARY_FLAG_LARGE;
        row[GAPS_OBS_WEIGHT] = w * f;
        gaps_histograms_fill_variation(hist, gaps_worker_id(), v, row);
    }
    row[GAPS_OBS_WEIGHT] = w;
    return vary_flags;
}

/* --vary: the event's variation factors (slot e) into entry i of the per-event output, after
 * the nc columns of its row and into its record.  Out of line, as fill_variations. */
GAPS_OUT_OF_LINE void keep_variations(const gaps_pool *pool, int e, const gaps_event_out *out,
                                      int i, int nc)
{
    for (int v = 0; v < pool->n_vary; ++v) {
        const double f = pool->vary_w[gaps_at(pool, v, e)];
        if (out->rows) out->rows[(long)i * out->row_stride + nc + v] = f;
        if (out->records.p && v < out->records.n_vary)
            out->records.vary_w[(long)i * out->records.n_vary + v] = f;
    }
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
    const int n_in = pool->n_in[e];
    double x_in[2] = { 0.0, 0.0 };
    for (int b = 0; b < n_in && b < 2; ++b) x_in[b] = pool->x_in[gaps_at(pool, b, e)];
    /* the beams collide head on in the frame of the record: they bring (sqrt s, 0, 0, 0) */
    const double p_beams[4] = { phys->proc.ecm, 0.0, 0.0, 0.0 };
    int flags = pool->flags[e]
                      | gaps_event_check(n_in, n, p, flav, col, acol, p_beams, phys->proc.ecm);

    /* the observables of the run's analysis, from the outgoing particles */
    const double w = pool->weight[e];
    const int64_t event = pool->event[e];
    double row[GAPS_OBS_ANALYSIS_MAX_COLUMNS];   /* the analysis's columns only */
    gaps_analysis_row(row, phys->proc.analysis, event, w, n_in, n, p, flav);
    if (gaps_histograms_fill_event(hist, gaps_worker_id(), row) != 0) flags |= GAPS_FLAG_WEIGHT;
    const int vary_flags = hist->n_vary ? fill_variations(hist, pool, e, w, row) : 0;
    if (out && out->rows) {
        const int nc = row_columns(phys->proc.analysis);
        for (int c = 0; c < nc; ++c) out->rows[(long)i * out->row_stride + c] = row[c];
    }
    if (out && out->records.p)
        keep_record(&out->records, i, event, n_in, n, p, flav, col, acol, x_in, w);
    if (out && pool->n_vary)
        keep_variations(pool, e, out, i, row_columns(phys->proc.analysis));
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
    if (vary_flags & GAPS_VARY_FLAG_OVER) {
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_VARY_OVER] += 1u;
    }
    if (vary_flags & GAPS_VARY_FLAG_LARGE) {
        GAPS_ATOMIC_UPDATE
        cnt[GAPS_COUNT_VARY_LARGE] += 1u;
    }
    pool->status[e] = GAPS_SLOT_EMPTY;
}

GAPS_DEVICE_END

/* The analyses' histogram definitions and the host table, from GAPS_ANALYSES. */
#define GAPS_HIST_DEF_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi)               \
    { col, col2, tr, minp, path, title, xl, yl, nb, lo, hi },
#define GAPS_HIST_DEFS_(ID, name, columns, histograms)                                         \
    static const gaps_hist_def name##_hists[GAPS_##ID##_N_HISTS] = { histograms(GAPS_HIST_DEF_) };
GAPS_ANALYSES(GAPS_HIST_DEFS_)
#undef GAPS_HIST_DEFS_
#undef GAPS_HIST_DEF_

/* The CSV header: ",name" per column, the first comma skipped. */
#define GAPS_COLUMN_NAME_(id, name) "," name
#define GAPS_ANALYSIS_INFO_(ID, name, columns, histograms)                                     \
    [GAPS_ANALYSIS_##ID] = { #name, GAPS_##ID##_N_COLUMNS,                                     \
                             &(GAPS_COMMON_COLUMNS(GAPS_COLUMN_NAME_)                          \
                               columns(GAPS_COLUMN_NAME_))[1],                                 \
                             GAPS_##ID##_N_HISTS, name##_hists,                                \
                             GAPS_HIST_TOTAL_BINS_OF(histograms) },
const gaps_analysis_info gaps_analysis_table[GAPS_N_ANALYSES] = {
    GAPS_ANALYSES(GAPS_ANALYSIS_INFO_)
};
#undef GAPS_ANALYSIS_INFO_
#undef GAPS_COLUMN_NAME_

void gaps_records_copy(const gaps_records *dst, size_t k, const gaps_records *src, size_t i)
{
    const size_t from = i * (size_t)src->maxp, to = k * (size_t)dst->maxp;
    const size_t n = (size_t)src->n[i];
    memcpy(dst->p + 4 * to, src->p + 4 * from, 4 * n * sizeof(double));
    memcpy(dst->x + to, src->x + from, n * sizeof(double));
    memcpy(dst->flav + to, src->flav + from, n * sizeof(int));
    memcpy(dst->col + to, src->col + from, n * sizeof(int));
    memcpy(dst->acol + to, src->acol + from, n * sizeof(int));
    memcpy(dst->status + to, src->status + from, n * sizeof(int));
    dst->weight[k] = src->weight[i];
    for (int v = 0; v < dst->n_vary && v < src->n_vary; ++v)
        dst->vary_w[k * (size_t)dst->n_vary + v] = src->vary_w[i * (size_t)src->n_vary + v];
    dst->event[k] = src->event[i];
    dst->n[k] = src->n[i];
}

size_t gaps_records_carve(gaps_records *r, void *base, size_t count, int maxp, int n_vary)
{
    const size_t np = count * (size_t)maxp;
    size_t off = 0;
    /* doubles first, then 8-byte integers, then ints: every array stays aligned */
#define GAPS_CARVE_(field, n)                                                                  \
    (r->field = base ? (void *)((char *)base + off) : NULL, off += (n) * sizeof *r->field)
    r->maxp = maxp;
    r->n_vary = n_vary;
    GAPS_CARVE_(p, 4 * np);
    GAPS_CARVE_(x, np);
    GAPS_CARVE_(weight, count);
    GAPS_CARVE_(vary_w, count * (size_t)n_vary);   /* no bytes without --vary */
    GAPS_CARVE_(event, count);
    GAPS_CARVE_(n, count);
    GAPS_CARVE_(flav, np);
    GAPS_CARVE_(col, np);
    GAPS_CARVE_(acol, np);
    GAPS_CARVE_(status, np);
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
