/* histogram.c -- order-independent fixed-point histogram accumulation and its merge. */
#include "gaps/histogram.h"
#include "gaps/analysis.h"
#include "gaps/fpmath.h"
#include "gaps_parallel.h"

#include <math.h>
#include <string.h>

const gaps_hist_def gaps_hist_defs[GAPS_N_HISTS] = {
#define GAPS_HIST_DEF_(id, col, tr, minp, path, title, xl, yl, nb, lo, hi)                     \
    [GAPS_H_##id] = { GAPS_OBS_##col, tr, minp, path, title, xl, yl, nb, lo, hi },
    GAPS_LEP_HISTOGRAMS(GAPS_HIST_DEF_)
#undef GAPS_HIST_DEF_
};

void gaps_histograms_layout(gaps_histograms *h, int ncopies, double w_max)
{
    int off = 0;
    memset(h, 0, sizeof *h);
    h->ncopies = ncopies;
    for (int i = 0; i <= GAPS_N_HISTS; ++i) {
        int nb = i < GAPS_N_HISTS ? gaps_hist_defs[i].nbins : 1;
        h->offset[i] = off;
        h->nbins[i] = nb;
        h->lo[i] = i < GAPS_N_HISTS ? gaps_hist_defs[i].lo : 0.0;
        h->hi[i] = i < GAPS_N_HISTS ? gaps_hist_defs[i].hi : 1.0;
        off += nb + 2;
    }
    h->nbins_total = off;   /* == GAPS_HIST_TOTAL_BINS, checked by the tests */
    h->inv_w_max = 1.0 / w_max;
    h->acc = NULL;
}

long gaps_histograms_words(const gaps_histograms *h)
{
    return (long)h->ncopies * h->nbins_total * GAPS_ACC_WORDS;
}

GAPS_DEVICE_BEGIN

/* A value in fixed-point units, rounded to nearest.  floor() and multiplication by a power of
 * two are exact in IEEE arithmetic, so every backend rounds identically. */
static int64_t fixed_from_double(double v)
{
    return (int64_t)floor(v * GAPS_FIXED_SCALE + 0.5);
}

/* acc[0..1] += v as a 128-bit two's-complement integer: add the low word, carry into the high
 * word when it wraps, and sign-extend v into the high word. */
static void fixed_add(uint64_t *acc, int64_t v)
{
    uint64_t add = (uint64_t)v, old;
    GAPS_WORKER_ATOMIC_CAPTURE
    { old = acc[0]; acc[0] += add; }
    uint64_t high = (v < 0 ? ~(uint64_t)0 : 0) + (old + add < old ? 1u : 0u);
    if (high != 0) {
        GAPS_WORKER_ATOMIC_UPDATE
        acc[1] += high;
    }
}

/* Moments of x are clamped to +-2^11 before conversion so that one contribution always fits in
 * 63 bits; such values are far outside every histogram and land in under/overflow anyway. */
static void hist_fill(const gaps_histograms *h, int copy, int id, double x, double w_rel)
{
    if (!(x == x)) return;   /* NaN: no bin can hold it */
    const int nb = h->nbins[id];
    int bin;
    if (x < h->lo[id]) bin = 0;
    else if (x >= h->hi[id]) bin = nb + 1;
    else {
        bin = 1 + (int)((x - h->lo[id]) / (h->hi[id] - h->lo[id]) * nb);
        if (bin > nb) bin = nb;   /* rounding just below hi */
    }
    const double xc = fmin(fmax(x, -2048.0), 2048.0);
    uint64_t *a = h->acc + ((long)copy * h->nbins_total + h->offset[id] + bin) * GAPS_ACC_WORDS;
    fixed_add(a + GAPS_ACC_SUMW, fixed_from_double(w_rel));
    fixed_add(a + GAPS_ACC_SUMW2, fixed_from_double(w_rel * w_rel));
    fixed_add(a + GAPS_ACC_SUMWX, fixed_from_double(w_rel * xc));
    fixed_add(a + GAPS_ACC_SUMWX2, fixed_from_double(w_rel * xc * xc));
    GAPS_WORKER_ATOMIC_UPDATE
    a[GAPS_ACC_COUNT] += 1u;
}

/* What each histogram fills, from the analysis's list (a constant table where the loops
 * run; with its trip count known the compiler unrolls the loop below). */
static const struct hist_fill_rule {
    int column, transform, min_partons;
} fill_rules[GAPS_N_HISTS] = {
#define GAPS_HIST_RULE_(id, col, tr, minp, path, title, xl, yl, nb, lo, hi)                    \
    [GAPS_H_##id] = { GAPS_OBS_##col, tr, minp },
    GAPS_LEP_HISTOGRAMS(GAPS_HIST_RULE_)
#undef GAPS_HIST_RULE_
};

void gaps_histograms_fill_event(const gaps_histograms *h, int copy, const double *row)
{
    const double w = row[GAPS_OBS_WEIGHT] * h->inv_w_max;
    const int n = (int)row[GAPS_OBS_NPARTONS];
    for (int id = 0; id < GAPS_N_HISTS; ++id) {
        const struct hist_fill_rule *r = &fill_rules[id];
        if (n < r->min_partons) continue;
        const double v = row[r->column];
        hist_fill(h, copy, id, r->transform == GAPS_FILL_LOG10 ? gaps_log10(v) : v, w);
    }
    hist_fill(h, copy, GAPS_H_EVENTS, 0.5, w);
}

GAPS_DEVICE_END

/* dst += src for one 128-bit two's-complement accumulator (two words, low first). */
static void add128(uint64_t *dst, const uint64_t *src)
{
    const uint64_t lo = dst[0] + src[0];
    dst[1] += src[1] + (lo < dst[0] ? 1u : 0u);
    dst[0] = lo;
}

void gaps_histograms_accumulate(uint64_t *dst, const uint64_t *src, int nbins_total)
{
    for (long b = 0; b < nbins_total; ++b) {
        uint64_t *d = dst + b * GAPS_ACC_WORDS;
        const uint64_t *s = src + b * GAPS_ACC_WORDS;
        add128(d + GAPS_ACC_SUMW, s + GAPS_ACC_SUMW);
        add128(d + GAPS_ACC_SUMW2, s + GAPS_ACC_SUMW2);
        add128(d + GAPS_ACC_SUMWX, s + GAPS_ACC_SUMWX);
        add128(d + GAPS_ACC_SUMWX2, s + GAPS_ACC_SUMWX2);
        d[GAPS_ACC_COUNT] += s[GAPS_ACC_COUNT];
    }
}

void gaps_histograms_launch_reduce(const gaps_histograms *h, uint64_t *words)
{
    const uint64_t *acc = h->acc;
    const int ncopies = h->ncopies;
    const long copy_words = (long)h->nbins_total * GAPS_ACC_WORDS;
    /* five sums per bin: four 128-bit accumulators and the entry count */
    const int n = h->nbins_total * 5;
    GAPS_PARALLEL_FOR(n)
    for (int i = 0; i < n; ++i) {
        const long at = (long)(i / 5) * GAPS_ACC_WORDS + (i % 5 < 4 ? 2 * (i % 5) : GAPS_ACC_COUNT);
        const int wide = i % 5 < 4;
        uint64_t lo = 0, hi = 0;
        for (int c = 0; c < ncopies; ++c) {
            const uint64_t *a = acc + c * copy_words + at;
            const uint64_t old = lo;
            lo += a[0];
            if (wide) hi += a[1] + (lo < old ? 1u : 0u);
        }
        words[at] = lo;
        if (wide) words[at + 1] = hi;
    }
}

/* A 128-bit accumulator as a double in units of the fixed-point quantum. */
static double fixed_value(const uint64_t *a)
{
    return (double)(int64_t)a[1] * 0x1.0p64 + (double)a[0];   /* hi signed, lo unsigned */
}

void gaps_histograms_result(const gaps_histograms *h, const uint64_t *words,
                            gaps_hist_result *out)
{
    const double w_max = 1.0 / h->inv_w_max;
    const double unit = w_max / GAPS_FIXED_SCALE;
    memset(out, 0, sizeof *out);
    for (int id = 0; id <= GAPS_N_HISTS; ++id) {
        for (int b = 0; b < h->nbins[id] + 2; ++b) {
            const uint64_t *a = words + (long)(h->offset[id] + b) * GAPS_ACC_WORDS;
            gaps_bin_sums *s = &out->bin[id][b];
            s->sumw = fixed_value(a + GAPS_ACC_SUMW) * unit;
            s->sumw2 = fixed_value(a + GAPS_ACC_SUMW2) * unit * w_max;
            s->sumwx = fixed_value(a + GAPS_ACC_SUMWX) * unit;
            s->sumwx2 = fixed_value(a + GAPS_ACC_SUMWX2) * unit;
            s->entries = a[GAPS_ACC_COUNT];
        }
    }
    const gaps_bin_sums *ev = &out->bin[GAPS_H_EVENTS][1];
    out->sum_w = ev->sumw;
    out->sum_w2 = ev->sumw2;
    out->n_events = ev->entries;
}

void gaps_histograms_sigma(const gaps_hist_result *r, double *sigma, double *error)
{
    const double n = (double)r->n_events;
    if (r->n_events == 0) { *sigma = 0.0; *error = 0.0; return; }
    const double mean = r->sum_w / n;
    const double var = fmax(r->sum_w2 / n - mean * mean, 0.0);
    *sigma = mean;
    *error = sqrt(var / n);   /* std(w) / sqrt(N), doc/physics.md sections 1.4 and 4.6 */
}
