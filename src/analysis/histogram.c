/* histogram.c -- order-independent fixed-point histogram accumulation and its merge. */
#include "gaps/histogram.h"
#include "gaps/analysis.h"
#include "gaps/fpmath.h"
#include "gaps_parallel.h"
#include "gaps_runtime.h"

#include <math.h>
#include <string.h>

void gaps_histograms_layout(gaps_histograms *h, int ncopies, double w_unit, int analysis)
{
    const gaps_analysis_info *info = &gaps_analysis_table[analysis];
    int off = 0;
    memset(h, 0, sizeof *h);
    h->analysis = analysis;
    h->n_hists = info->n_hists;
    h->ncopies = ncopies;
    for (int i = 0; i <= info->n_hists; ++i) {   /* i = n_hists: the event counter */
        const gaps_hist_def *d = i < info->n_hists ? &info->hist[i] : NULL;
        const int nb = d ? d->nbins : 1;
        h->offset[i] = off;
        h->nbins[i] = nb;
        h->lo[i] = d ? d->lo : 0.0;
        h->hi[i] = d ? d->hi : 1.0;
        if (d && d->transform == GAPS_FILL_LOG_BINS) {
            /* equal bins in log10 of the value: the fill bins gaps_log10(x) on these */
            h->lo[i] = gaps_log10(d->lo);
            h->hi[i] = gaps_log10(d->hi);
        }
        off += nb + 2;
    }
    h->nbins_total = off;   /* == info->total_bins, checked by the tests */
    h->inv_w_unit = 1.0 / w_unit;
    h->acc = NULL;
}

long gaps_histograms_words(const gaps_histograms *h)
{
    return (long)h->ncopies * h->nbins_total * GAPS_ACC_WORDS;
}

long gaps_histograms_reduce_words(const gaps_histograms *h)
{
    return (long)h->nbins_total * GAPS_ACC_WORDS + 1;
}

GAPS_DEVICE_BEGIN

/* A value in fixed-point units, rounded to nearest: floor(v 2^40 + 0.5) in double precision.
 * Multiplication by a power of two and floor() are exact in IEEE arithmetic, so every
 * backend rounds identically; the sum v 2^40 + 0.5 is rounded as it always was (from 2^52
 * on, a tie goes to even), so LEP's sums keep their bits.  Below 2^63 the integer converts
 * directly (the common case, and the only one of format 1); above, its magnitude is split
 * into two words with exact operations (m - h 2^64 keeps only bits of m, so it is exact) and
 * negated in two's complement. */
void gaps_fixed_from_double(double v, uint64_t out[2])
{
    const double d = floor(v * GAPS_FIXED_SCALE + 0.5);
    if (fabs(d) < 0x1.0p63) {
        const int64_t i = (int64_t)d;
        out[0] = (uint64_t)i;
        out[1] = i < 0 ? ~(uint64_t)0 : 0;
        return;
    }
    const double m = fabs(d);
    const double high = floor(m * 0x1.0p-64);
    uint64_t lo = (uint64_t)(m - high * 0x1.0p64), hi = (uint64_t)high;
    if (d < 0) {   /* -(hi, lo) */
        lo = ~lo + 1u;
        hi = ~hi + (lo == 0 ? 1u : 0u);
    }
    out[0] = lo;
    out[1] = hi;
}

/* acc[0..2] += (c[0], c[1], sign of c[1]) as 192-bit two's-complement integers.  Each word is
 * added atomically on its own and the carry out of it, found from the value it had just
 * before (the capture), goes into the next word: whatever the interleaving, the three words
 * end as the exact sum modulo 2^192.  A small positive contribution touches only the low word
 * (and the middle one once every carry), as the 128-bit accumulators of format 1 did; a small
 * negative one the same, its sign extension cancelling against the carry. */
void gaps_fixed_add(uint64_t *acc, const uint64_t c[2])
{
    const uint64_t c0 = c[0], c1 = c[1];
    const uint64_t c2 = (c1 >> 63) ? ~(uint64_t)0 : 0;
    uint64_t old0, old1;
    GAPS_WORKER_ATOMIC_CAPTURE
    { old0 = acc[0]; acc[0] += c0; }
    const uint64_t k0 = old0 + c0 < old0 ? 1u : 0u;   /* carry out of word 0 */
    const uint64_t a1 = c1 + k0;
    uint64_t k1 = a1 < k0 ? 1u : 0u;                   /* c1 + k0 wrapped */
    if (a1 != 0) {
        GAPS_WORKER_ATOMIC_CAPTURE
        { old1 = acc[1]; acc[1] += a1; }
        k1 += old1 + a1 < old1 ? 1u : 0u;              /* carry out of word 1 */
    }
    const uint64_t a2 = c2 + k1;
    if (a2 != 0) {
        GAPS_WORKER_ATOMIC_UPDATE
        acc[2] += a2;
    }
}

/* Moments of x are clamped to +-2^11 before conversion: such values are far outside every
 * histogram and land in under/overflow anyway, and with |w| <= 2^43 w_unit every term stays
 * below 2^126 quanta (w^2 is the largest). */
/* u is the value on the axis of the bins (x itself, or log10 x for logarithmic bins), x the
 * value whose moments are summed. */
static void hist_fill(const gaps_histograms *h, uint64_t *acc, int id, double u, double x,
                      double w_rel)
{
    if (!(u == u)) return;   /* NaN: no bin can hold it */
    const int nb = h->nbins[id];
    int bin;
    if (u < h->lo[id]) bin = 0;
    else if (u >= h->hi[id]) bin = nb + 1;
    else {
        bin = 1 + (int)((u - h->lo[id]) / (h->hi[id] - h->lo[id]) * nb);
        if (bin > nb) bin = nb;   /* rounding just below hi */
    }
    const double xc = fmin(fmax(x, -2048.0), 2048.0);
    uint64_t *a = acc + ((long)h->offset[id] + bin) * GAPS_ACC_WORDS;
    uint64_t c[2];
    gaps_fixed_from_double(w_rel, c);
    gaps_fixed_add(a + GAPS_ACC_SUMW, c);
    gaps_fixed_from_double(w_rel * w_rel, c);
    gaps_fixed_add(a + GAPS_ACC_SUMW2, c);
    gaps_fixed_from_double(w_rel * xc, c);
    gaps_fixed_add(a + GAPS_ACC_SUMWX, c);
    gaps_fixed_from_double(w_rel * xc * xc, c);
    gaps_fixed_add(a + GAPS_ACC_SUMWX2, c);
    GAPS_WORKER_ATOMIC_UPDATE
    a[GAPS_ACC_COUNT] += 1u;
}

/* What each histogram fills, from the analyses' lists: one constant table per analysis where
 * the loops run. */
struct hist_fill_rule {
    int column, column2, transform, min_partons;
};
#define GAPS_HIST_RULE_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi)              \
    { col, col2, tr, minp },
#define GAPS_FILL_RULES_(ID, name, columns, histograms)                                        \
    static const struct hist_fill_rule name##_fill_rules[GAPS_##ID##_N_HISTS] = {              \
        histograms(GAPS_HIST_RULE_)                                                            \
    };
GAPS_ANALYSES(GAPS_FILL_RULES_)
#undef GAPS_FILL_RULES_
#undef GAPS_HIST_RULE_

/* One value v of a histogram, transformed as its rule says. */
static void fill_value(const gaps_histograms *h, uint64_t *copy, int id, int transform, double v,
                       double w_rel)
{
    switch (transform) {
    case GAPS_FILL_LOG10: {
        const double l = gaps_log10(v);
        hist_fill(h, copy, id, l, l, w_rel);
        break;
    }
    case GAPS_FILL_LOG_BINS:   /* log10 of 0 or of the -50 of a missing value: underflow */
        hist_fill(h, copy, id, v > 0.0 ? gaps_log10(v) : -HUGE_VAL, v, w_rel);
        break;
    default:
        hist_fill(h, copy, id, v, v, w_rel);
        break;
    }
}

/* The histograms of one analysis: with its table and trip count known at the call, the
 * compiler can unroll the loop. */
static inline void fill_rules(const gaps_histograms *h, uint64_t *copy, const double *row,
                              double w, const struct hist_fill_rule *rules, int n_hists)
{
    const int n = (int)row[GAPS_OBS_NPARTONS];
    for (int id = 0; id < n_hists; ++id) {
        const struct hist_fill_rule *r = &rules[id];
        if (n < r->min_partons) continue;
        if (r->column2 == GAPS_OBS_NONE) {
            fill_value(h, copy, id, r->transform, row[r->column], w);
        } else {   /* two values per event (the two leptons), half the weight each */
            fill_value(h, copy, id, r->transform, row[r->column], 0.5 * w);
            fill_value(h, copy, id, r->transform, row[r->column2], 0.5 * w);
        }
    }
}

/* One event into the copy of the accumulators that starts at `copy`. */
static int fill_event_at(const gaps_histograms *h, uint64_t *copy, const double *row)
{
    const double w = row[GAPS_OBS_WEIGHT] * h->inv_w_unit;
    const int events = h->n_hists;   /* the event counter follows the histograms */
    if (!(fabs(w) <= GAPS_WEIGHT_MAX_UNITS)) {
        /* not finite, or too large for the exact sums: counted as an event, added nowhere */
        uint64_t *a = copy + ((long)h->offset[events] + 1) * GAPS_ACC_WORDS;
        GAPS_WORKER_ATOMIC_UPDATE
        a[GAPS_ACC_COUNT] += 1u;
        return GAPS_FILL_BAD_WEIGHT;
    }
    /* a run-uniform switch on the analysis, never a function pointer */
    switch (h->analysis) {
#define GAPS_FILL_CASE_(ID, name, columns, histograms)                                         \
    case GAPS_ANALYSIS_##ID:                                                                   \
        fill_rules(h, copy, row, w, name##_fill_rules, GAPS_##ID##_N_HISTS);                   \
        break;
    GAPS_ANALYSES(GAPS_FILL_CASE_)
#undef GAPS_FILL_CASE_
    default: break;
    }
    hist_fill(h, copy, events, 0.5, 0.5, w);
    /* negative weights (NLO) once more into the counter's underflow: their count and sums */
    if (w < 0.0) hist_fill(h, copy, events, -0.5, -0.5, w);
    /* imprecise weights once more into its overflow, as |w|: their count and sum of |w| */
    if (w != 0.0 && fabs(w) < GAPS_WEIGHT_PRECISE_UNITS)
        hist_fill(h, copy, events, 1.5, 1.5, fabs(w));
    return 0;
}

int gaps_histograms_fill_event(const gaps_histograms *h, int copy, const double *row)
{
    return fill_event_at(h, h->acc + (long)copy * h->nbins_total * GAPS_ACC_WORDS, row);
}

int gaps_histograms_fill_variation(const gaps_histograms *h, int copy, int v, const double *row)
{
    return fill_event_at(h, h->vary_acc + ((long)copy * h->n_vary + v) * h->nbins_total
                                              * GAPS_ACC_WORDS, row);
}

/* sum[0..3] += the sign-extended 192-bit a[0..2]: a 256-bit sum of 192-bit terms, exact for
 * any 2^64 of them.  It fits back into 192 bits iff word 3 is the sign extension of word 2. */
static void add192_into256(uint64_t sum[4], const uint64_t *a)
{
    uint64_t carry = 0;
    for (int k = 0; k < 3; ++k) {
        const uint64_t t = a[k] + carry;
        carry = t < carry ? 1u : 0u;
        sum[k] += t;
        carry += sum[k] < t ? 1u : 0u;
    }
    sum[3] += ((a[2] >> 63) ? ~(uint64_t)0 : 0) + carry;
}

GAPS_DEVICE_END

/* Does the 256-bit sum fit in 192 bits? */
static int fits192(const uint64_t sum[4])
{
    return sum[3] == ((sum[2] >> 63) ? ~(uint64_t)0 : 0);
}

int gaps_histograms_accumulate(uint64_t *dst, const uint64_t *src, int nbins_total)
{
    /* first every sum checked, then every sum added: all or nothing */
    for (int pass = 0; pass < 2; ++pass) {
        for (long b = 0; b < nbins_total; ++b) {
            uint64_t *d = dst + b * GAPS_ACC_WORDS;
            const uint64_t *s = src + b * GAPS_ACC_WORDS;
            for (int k = 0; k < 4; ++k) {
                uint64_t *dk = d + k * GAPS_ACC_SUM_WORDS;
                uint64_t sum[4] = { dk[0], dk[1], dk[2], (dk[2] >> 63) ? ~(uint64_t)0 : 0 };
                add192_into256(sum, s + k * GAPS_ACC_SUM_WORDS);
                if (pass == 0 && !fits192(sum)) return -1;
                if (pass == 1) dk[0] = sum[0], dk[1] = sum[1], dk[2] = sum[2];
            }
            if (pass == 0 && d[GAPS_ACC_COUNT] + s[GAPS_ACC_COUNT] < d[GAPS_ACC_COUNT]) return -1;
            if (pass == 1) d[GAPS_ACC_COUNT] += s[GAPS_ACC_COUNT];
        }
    }
    return 0;
}

void gaps_histograms_launch_reduce(const gaps_histograms *h, uint64_t *words)
{
    const uint64_t *acc = h->acc;
    const int ncopies = h->ncopies;
    const long copy_words = (long)h->nbins_total * GAPS_ACC_WORDS;
    uint64_t *overflow = words + copy_words;
    const uint64_t zero = 0;
    gaps_host_to_device(overflow, &zero, sizeof zero);
    /* five sums per bin: four 192-bit accumulators and the entry count */
    const int n = h->nbins_total * 5;
    GAPS_PARALLEL_FOR(n)
    for (int i = 0; i < n; ++i) {
        const int k = i % 5;
        const long at = (long)(i / 5) * GAPS_ACC_WORDS
                        + (k < 4 ? k * GAPS_ACC_SUM_WORDS : GAPS_ACC_COUNT);
        int bad = 0;
        if (k < 4) {
            uint64_t sum[4] = { 0, 0, 0, 0 };
            for (int c = 0; c < ncopies; ++c) add192_into256(sum, acc + c * copy_words + at);
            bad = sum[3] != ((sum[2] >> 63) ? ~(uint64_t)0 : 0);
            words[at] = sum[0];
            words[at + 1] = sum[1];
            words[at + 2] = sum[2];
        } else {
            uint64_t count = 0;
            for (int c = 0; c < ncopies; ++c) {
                const uint64_t a = acc[c * copy_words + at];
                bad |= count + a < count;
                count += a;
            }
            words[at] = count;
        }
        if (bad) {
            GAPS_ATOMIC_UPDATE
            overflow[0] += 1u;
        }
    }
}

/* A 192-bit value as a double: the sign taken off, the top 64 significant bits with a sticky
 * bit for everything below (so the one rounding of the conversion is to nearest), scaled. */
static double wide_value(const uint64_t *a)
{
    const int neg = (int)(a[2] >> 63);
    uint64_t m[3] = { a[0], a[1], a[2] };
    if (neg) {   /* magnitude: -a; -(-2^191) = 2^191 is right as an unsigned number */
        m[0] = ~m[0] + 1u;
        m[1] = ~m[1] + (m[0] == 0 ? 1u : 0u);
        m[2] = ~m[2] + (m[0] == 0 && m[1] == 0 ? 1u : 0u);
    }
    int top = 2;
    while (top > 0 && m[top] == 0) --top;
    double v;
    if (top == 0) {
        v = (double)m[0];
    } else {
        int lead = 63;   /* leading bit of the top word */
        while (!((m[top] >> lead) & 1u)) --lead;
        const int shift = 64 * top + lead - 63;   /* bits below the 64 kept */
        const int ws = shift / 64, bs = shift % 64;
        uint64_t kept = m[ws] >> bs, sticky;
        if (bs) kept |= m[ws + 1] << (64 - bs);
        sticky = bs ? m[ws] << (64 - bs) : 0;
        for (int k = 0; k < ws; ++k) sticky |= m[k];
        v = ldexp((double)(kept | (sticky != 0 ? 1u : 0u)), shift);
    }
    return neg ? -v : v;
}

double gaps_fixed_value(const uint64_t *a)
{
    if (a[2] == ((a[1] >> 63) ? ~(uint64_t)0 : 0))   /* within 2^127: as format 1 */
        return (double)(int64_t)a[1] * 0x1.0p64 + (double)a[0];
    return wide_value(a);
}

void gaps_histograms_result(const gaps_histograms *h, const uint64_t *words,
                            gaps_hist_result *out)
{
    /* 1 / (1 / w_unit), not w_unit itself: the unit the sums of format 1 were scaled by, so
     * that LEP's numbers keep every bit */
    const double w_unit = 1.0 / h->inv_w_unit;
    const double unit = w_unit / GAPS_FIXED_SCALE;
    memset(out, 0, sizeof *out);
    out->analysis = h->analysis;
    out->n_hists = h->n_hists;
    for (int id = 0; id <= h->n_hists; ++id) {
        for (int b = 0; b < h->nbins[id] + 2; ++b) {
            const uint64_t *a = words + (long)(h->offset[id] + b) * GAPS_ACC_WORDS;
            gaps_bin_sums *s = &out->bin[id][b];
            s->sumw = gaps_fixed_value(a + GAPS_ACC_SUMW) * unit;
            s->sumw2 = gaps_fixed_value(a + GAPS_ACC_SUMW2) * unit * w_unit;
            s->sumwx = gaps_fixed_value(a + GAPS_ACC_SUMWX) * unit;
            s->sumwx2 = gaps_fixed_value(a + GAPS_ACC_SUMWX2) * unit;
            s->entries = a[GAPS_ACC_COUNT];
        }
    }
    const gaps_bin_sums *ev = &out->bin[h->n_hists][1];   /* the event counter */
    out->sum_w = ev->sumw;
    out->sum_w2 = ev->sumw2;
    out->n_events = ev->entries;
    out->n_negative = out->bin[h->n_hists][0].entries;
    out->sum_w_negative = out->bin[h->n_hists][0].sumw;
    out->n_imprecise = out->bin[h->n_hists][2].entries;
    /* the rounding bound of the sums (gaps/histogram.h), from the exact words: every weight
     * exactly 0 leaves sum w^2 = 0 without an imprecise one, and sigma = 0 exactly */
    const uint64_t *c = words + (long)(h->offset[h->n_hists] + 1) * GAPS_ACC_WORDS;
    const int all_zero = out->n_imprecise == 0 && (c[GAPS_ACC_SUMW2] | c[GAPS_ACC_SUMW2 + 1]
                                                   | c[GAPS_ACC_SUMW2 + 2]) == 0;
    const double bound = (double)out->n_events * (0.5 / GAPS_FIXED_SCALE) * w_unit;
    out->lost_precision = out->n_events > 0 && !all_zero
                          && !(bound <= GAPS_SIGMA_ROUNDING_MAX * fabs(out->sum_w)
                               && bound * w_unit <= GAPS_ERROR_ROUNDING_MAX * out->sum_w2);
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

void gaps_histograms_weight_summary(const gaps_hist_result *r, double *effective_events,
                                    double *negative_fraction)
{
    *effective_events = r->sum_w2 > 0.0 ? r->sum_w * r->sum_w / r->sum_w2 : 0.0;
    *negative_fraction = r->n_events > 0 ? (double)r->n_negative / (double)r->n_events : 0.0;
}
