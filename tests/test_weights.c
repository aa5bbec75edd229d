/* test_weights.c -- the exact histogram sums with signed and unbounded weights
 * (gaps/histogram.h): a synthetic weight stream filled straight into the accumulators.
 *
 *   1. The conversion to fixed point against an independent reference (GCC's 128-bit
 *      integers) for every magnitude up to the limit, both signs, around every word boundary.
 *   2. The conversion back to double: the format-1 formula within 2^127, correctly rounded
 *      beyond (checked exactly, in integers).
 *   3. A stream of negative, zero, tiny, typical and 10^12-times-typical weights: the sums
 *      equal a reference summed independently (256-bit, from __int128 terms), and, for a
 *      stream whose every term is exact, the sums known in closed form; the same bytes for
 *      shuffled orders, for the stream split over worker copies and reduced, split into
 *      states and merged (gaps_histograms_accumulate, gaps_state_merge), and after a state
 *      file's round trip (which must accept these sums as possible).
 *   4. The weight limit: 2^43 w_unit is taken, the next double above, NaN and +-inf are not:
 *      the event counts, no sum changes.
 *   5. Overflow: sums doubled until they pass 2^191 - 1 are refused (accumulate, reduce,
 *      state merge) exactly at the step where they would, -2^191 still fits, and nothing is
 *      changed by a refused add; counts that would wrap are refused too.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/fpmath.h"
#include "gaps/generator.h"
#include "gaps/analysis.h"
#include "gaps/histogram.h"
#include "gaps/state.h"

/* The LEP analysis: this test fills its histograms; the event counter follows them. */
#define LEP_TOTAL_BINS GAPS_HIST_TOTAL_BINS_OF(GAPS_LEP_HISTOGRAMS)

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* One event's fill through its row of columns, as the analysis does it. */
static int fill_event(const gaps_histograms *h, int copy, const gaps_observables *o, double w)
{
    double row[GAPS_OBS_MAX_COLUMNS];
    gaps_row_set_event(row, 0);
    row[GAPS_OBS_WEIGHT] = w;
    row[GAPS_OBS_NPARTONS] = o->n_partons;
    gaps_lep_observables_row(row, o);
    return gaps_histograms_fill_event(h, copy, row);
}

#include "check.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

/* ---- a small deterministic generator (splitmix64) ---- */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static double uniform(void) { return (double)(next_u64() >> 11) * 0x1.0p-53; }

/* ---- the reference: a contribution as __int128, sums as 256-bit (two u128) ---- */
static i128 ref_fixed(double v)
{
    const double d = floor(v * 0x1.0p40 + 0.5);   /* the rounding the program documents */
    return (i128)d;                               /* exact for |d| < 2^127 (GCC) */
}

typedef struct ref256 { u128 lo, hi; } ref256;   /* two's complement, 256 bits */
static void ref_add(ref256 *s, i128 c)
{
    const u128 add = (u128)c, ext = c < 0 ? ~(u128)0 : 0;
    const u128 lo = s->lo + add;
    s->hi += ext + (lo < s->lo ? 1 : 0);
    s->lo = lo;
}
/* The low 192 bits as three words, and whether the value fits in 192 bits (signed). */
static int ref_words(const ref256 *s, uint64_t w[3])
{
    w[0] = (uint64_t)s->lo;
    w[1] = (uint64_t)(s->lo >> 64);
    w[2] = (uint64_t)s->hi;
    const uint64_t top = (uint64_t)(s->hi >> 64);
    return top == ((w[2] >> 63) ? ~(uint64_t)0 : 0);
}

/* ---- 1. double -> fixed point ---- */
static void check_conversion(double v)
{
    uint64_t c[2];
    gaps_fixed_from_double(v, c);
    const i128 want = ref_fixed(v);
    const i128 got = (i128)(((u128)c[1] << 64) | c[0]);
    CHECK(got == want, "fixed(%a): got %016llx%016llx", v, (unsigned long long)c[1],
          (unsigned long long)c[0]);
    /* within 2^63 quanta the old int64 conversion, bit for bit */
    const double d = floor(v * 0x1.0p40 + 0.5);
    if (fabs(d) < 0x1.0p63)
        CHECK(c[0] == (uint64_t)(int64_t)d && c[1] == ((int64_t)d < 0 ? ~0ull : 0),
              "fixed(%a) differs from format 1", v);
}

static void test_conversion(void)
{
    const double special[] = { 0.0, -0.0, 0x1.0p-41, -0x1.0p-41, 0x1.8p-41, -0x1.8p-41, 0x1.0p-40,
                               0.5, -0.5, 1.0, -1.0, 1e-300, -1e-300, DBL_MIN, -DBL_MIN,
                               0x1.0p12, 0x1.fffffffffffffp12, 0x1.0p13, -0x1.0p13,
                               0x1.0p23, -0x1.0p23, 0x1.0p24, -0x1.0p24, 0x1.0p86, -0x1.0p86,
                               0x1.fffffffffffffp86, -0x1.fffffffffffffp86 };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; ++i) check_conversion(special[i]);
    /* around the word boundaries 2^52, 2^53, 2^63, 2^64 (quanta) and the top */
    for (int e = 50; e <= 86 + 40; ++e)
        for (int k = -3; k <= 3; ++k) {
            double v = ldexp(1.0, e - 40);
            for (int j = 0; j < (k < 0 ? -k : k); ++j) v = nextafter(v, k < 0 ? 0 : INFINITY);
            if (fabs(v) * 0x1.0p40 >= 0x1.0p127) continue;
            check_conversion(v);
            check_conversion(-v);
            check_conversion(v + 0.25 * 0x1.0p-40);
            check_conversion(-v - 0.75 * 0x1.0p-40);
        }
    /* random magnitudes over the whole range, both signs */
    for (int i = 0; i < 200000; ++i) {
        const double v = ldexp(uniform() + 0.5, (int)(next_u64() % 170) - 80);
        if (fabs(v) * 0x1.0p40 >= 0x1.0p126) continue;
        check_conversion(i & 1 ? -v : v);
    }
}

/* ---- 2. fixed point -> double ---- */
/* An integer-valued double as a 192-bit integer (exact: |d| < 2^191). */
static void words_of_double(double d, uint64_t w[3])
{
    double m = fabs(d);
    uint64_t x[3];
    for (int k = 2; k >= 0; --k) {
        const double unit = ldexp(1.0, 64 * k), q = floor(m / unit);
        x[k] = (uint64_t)q;
        m -= q * unit;
    }
    if (d < 0) {
        x[0] = ~x[0] + 1;
        x[1] = ~x[1] + (x[0] == 0);
        x[2] = ~x[2] + (x[0] == 0 && x[1] == 0);
    }
    memcpy(w, x, sizeof x);
}

static void check_value(const uint64_t a[3])
{
    const double v = gaps_fixed_value(a);
    const int narrow = a[2] == ((a[1] >> 63) ? ~0ull : 0);
    if (narrow) {
        CHECK(v == (double)(int64_t)a[1] * 0x1.0p64 + (double)a[0], "value: not format 1's");
        return;
    }
    /* beyond 2^127 v is an integer: a - v exactly, then |a - v| <= ulp(v) / 2 (even on a tie) */
    uint64_t b[3];
    words_of_double(v, b);
    uint64_t d[3];
    const uint64_t d0 = a[0] - b[0], br0 = a[0] < b[0];
    const uint64_t d1 = a[1] - b[1] - br0, br1 = a[1] < b[1] || (a[1] == b[1] && br0);
    d[0] = d0;
    d[1] = d1;
    d[2] = a[2] - b[2] - br1;
    const int neg = (int)(d[2] >> 63);
    if (neg) {
        d[0] = ~d[0] + 1;
        d[1] = ~d[1] + (d[0] == 0);
        d[2] = ~d[2] + (d[0] == 0 && d[1] == 0);
    }
    int e;
    frexp(v, &e);   /* |v| in [2^(e-1), 2^e): ulp 2^(e-53) */
    const int half = e - 54;   /* half an ulp: 2^half, half >= 73 here */
    /* |d| <= 2^half: every bit at or above half+1 clear, and bit half only alone */
    int over = 0, at_half = 0, below = 0;
    for (int bit = 0; bit < 192; ++bit) {
        const int set = (int)((d[bit / 64] >> (bit % 64)) & 1);
        if (!set) continue;
        if (bit > half) over = 1;
        else if (bit == half) at_half = 1;
        else below = 1;
    }
    CHECK(!over && !(at_half && below), "value %a of %016llx %016llx %016llx not rounded to "
          "nearest", v, (unsigned long long)a[2], (unsigned long long)a[1],
          (unsigned long long)a[0]);
    if (at_half && !below) {   /* a tie: the even neighbour */
        const double m = ldexp(frexp(v, &e), 53);
        CHECK(fmod(m, 2.0) == 0.0, "value %a: a tie not rounded to even", v);
    }
}

static void test_value(void)
{
    for (int i = 0; i < 200000; ++i) {
        uint64_t a[3] = { next_u64(), next_u64(), next_u64() };
        switch (i % 4) {
        case 0: a[2] = (a[1] >> 63) ? ~0ull : 0; break;        /* within 2^127 */
        case 1: a[2] >>= (next_u64() % 64); break;             /* any size */
        case 2: a[2] = ~(a[2] >> (next_u64() % 64)); break;    /* negative, any size */
        default: break;
        }
        check_value(a);
    }
    const uint64_t edge[][3] = { { 0, 0, 1ull << 63 }, { ~0ull, ~0ull, ~0ull >> 1 },
                                 { 0, 1ull << 63, 0 }, { 0, 1ull << 63, ~0ull },
                                 { 1ull << 10, 0, 1 }, { (1ull << 10) + 1, 0, 1 },
                                 { 3ull << 10, 0, 1 }, { 0, 0x8000000000000400ull, 0 },
                                 { 0, 0, 0x0020000000000001ull } };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; ++i) check_value(edge[i]);
}

/* ---- 3. a stream of events ---- */
typedef struct event {
    double weight;            /* pb */
    gaps_observables o;
} event;

static void random_observables(gaps_observables *o)
{
    memset(o, 0, sizeof *o);
    o->n_partons = 2 + (int)(next_u64() % 8);
    o->y23 = o->n_partons >= 3 ? ldexp(uniform(), -(int)(next_u64() % 12)) : 0.0;
    o->y34 = o->n_partons >= 4 ? o->y23 * uniform() : 0.0;
    o->y45 = o->n_partons >= 5 ? o->y34 * uniform() : 0.0;
    o->y56 = o->n_partons >= 6 ? o->y45 * uniform() : 0.0;
    o->tau = 0.45 * uniform();
    o->rho_H = 0.5 * uniform();
    o->rho_L = 0.25 * uniform();
    o->B_T = 0.45 * uniform();
    o->B_W = 0.35 * uniform();
    o->B_N = 0.2 * uniform();
    o->C = 1.1 * uniform() - 0.05;
    if (next_u64() % 50 == 0) o->tau = 1e6;    /* far out: the clamp of x */
}

/* The expected sums: per bin the reference of each accumulator, and the count; hist_fill's
 * binning is reproduced from the layout. */
typedef struct expect {
    ref256 sum[LEP_TOTAL_BINS][4];
    uint64_t count[LEP_TOTAL_BINS];
    uint64_t bad;
} expect;

static int bin_of(const gaps_histograms *h, int id, double x)
{
    const int nb = h->nbins[id];
    if (x < h->lo[id]) return 0;
    if (x >= h->hi[id]) return nb + 1;
    int bin = 1 + (int)((x - h->lo[id]) / (h->hi[id] - h->lo[id]) * nb);
    return bin > nb ? nb : bin;
}

static void expect_fill(expect *e, const gaps_histograms *h, int id, double x, double r)
{
    if (x != x) return;
    const int bin = h->offset[id] + bin_of(h, id, x);
    const double xc = fmin(fmax(x, -2048.0), 2048.0);
    ref_add(&e->sum[bin][0], ref_fixed(r));
    ref_add(&e->sum[bin][1], ref_fixed(r * r));
    ref_add(&e->sum[bin][2], ref_fixed(r * xc));
    ref_add(&e->sum[bin][3], ref_fixed(r * xc * xc));
    e->count[bin]++;
}

static void expect_event(expect *e, const gaps_histograms *h, const event *ev)
{
    const double r = ev->weight * h->inv_w_unit;
    if (!(fabs(r) <= GAPS_WEIGHT_MAX_UNITS)) {
        e->count[h->offset[GAPS_LEP_N_HISTS] + 1]++;
        e->bad++;
        return;
    }
    const gaps_observables *o = &ev->o;
    const double y[4] = { o->y23, o->y34, o->y45, o->y56 };
    for (int k = 0; k < 4; ++k)
        if (o->n_partons >= k + 3) expect_fill(e, h, GAPS_LEP_H_Y23 + k, gaps_log10(y[k]), r);
    expect_fill(e, h, GAPS_LEP_H_TAU, o->tau, r);
    expect_fill(e, h, GAPS_LEP_H_RHO_H, o->rho_H, r);
    expect_fill(e, h, GAPS_LEP_H_RHO_L, o->rho_L, r);
    expect_fill(e, h, GAPS_LEP_H_B_T, o->B_T, r);
    expect_fill(e, h, GAPS_LEP_H_B_W, o->B_W, r);
    expect_fill(e, h, GAPS_LEP_H_B_N, o->B_N, r);
    expect_fill(e, h, GAPS_LEP_H_C, o->C, r);
    expect_fill(e, h, GAPS_LEP_H_NPARTONS, (double)o->n_partons, r);
    expect_fill(e, h, GAPS_LEP_N_HISTS, 0.5, r);
    if (r < 0.0) expect_fill(e, h, GAPS_LEP_N_HISTS, -0.5, r);   /* negative: the underflow */
    /* imprecise (nonzero, below 2^-16 units): the overflow, with |w| */
    if (r != 0.0 && fabs(r) < GAPS_WEIGHT_PRECISE_UNITS)
        expect_fill(e, h, GAPS_LEP_N_HISTS, 1.5, fabs(r));
}

/* Compare one copy of accumulators with the expectation; returns the number of sums that
 * differ. */
static int compare(const gaps_histograms *h, const uint64_t *words, const expect *e,
                   const char *what)
{
    int bad = 0;
    for (int bin = 0; bin < h->nbins_total; ++bin) {
        const uint64_t *a = words + (long)bin * GAPS_ACC_WORDS;
        for (int k = 0; k < 4; ++k) {
            uint64_t want[3];
            CHECK(ref_words(&e->sum[bin][k], want), "%s: reference sum of bin %d does not fit "
                  "192 bits", what, bin);
            if (memcmp(want, a + k * GAPS_ACC_SUM_WORDS, sizeof want) != 0) {
                if (bad < 5)
                    printf("  %s: bin %d sum %d: %016llx %016llx %016llx, expected %016llx "
                           "%016llx %016llx\n", what, bin, k, (unsigned long long)a[3 * k + 2],
                           (unsigned long long)a[3 * k + 1], (unsigned long long)a[3 * k],
                           (unsigned long long)want[2], (unsigned long long)want[1],
                           (unsigned long long)want[0]);
                bad++;
            }
        }
        if (a[GAPS_ACC_COUNT] != e->count[bin]) {
            if (bad < 5)
                printf("  %s: bin %d: %llu entries, expected %llu\n", what, bin,
                       (unsigned long long)a[GAPS_ACC_COUNT], (unsigned long long)e->count[bin]);
            bad++;
        }
    }
    CHECK(bad == 0, "%s: %d sums differ from the reference", what, bad);
    return bad;
}

static void fill_all(const gaps_histograms *h, int copy, const event *ev, const int *order,
                     int n, uint64_t *bad)
{
    for (int i = 0; i < n; ++i) {
        const event *x = &ev[order ? order[i] : i];
        if (fill_event(h, copy, &x->o, x->weight) == GAPS_FILL_BAD_WEIGHT)
            ++*bad;
    }
}

static void shuffle(int *p, int n)
{
    for (int i = n - 1; i > 0; --i) {
        const int j = (int)(next_u64() % (uint64_t)(i + 1));
        const int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

#define N_EVENTS 6000
#define N_SPLIT 5

static void test_stream(void)
{
    /* the run's unit: LEP's at 91.2 GeV, as gaps_state_init gives it */
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_state *st = calloc(N_SPLIT + 2, sizeof *st);
    expect *e = calloc(1, sizeof *e);
    event *ev = calloc(N_EVENTS, sizeof *ev);
    int *order = calloc(N_EVENTS, sizeof *order);
    if (!st || !e || !ev || !order) { CHECK(0, "out of memory"); return; }
    gaps_state_init(&st[0], &cfg);
    const double w_unit = st[0].w_unit;
    gaps_histograms h;
    gaps_histograms_layout(&h, N_SPLIT, w_unit, GAPS_ANALYSIS_LEP);
    const long copy_words = (long)h.nbins_total * GAPS_ACC_WORDS;
    CHECK(h.nbins_total == LEP_TOTAL_BINS, "layout of %d bins", h.nbins_total);

    /* the stream: typical weights ~ w_unit / 2 of both signs, zeros, tiny ones, 10^12 times
     * typical, the limit itself, and a few that are not finite or too large */
    const double typical = 0.5 * w_unit;
    for (int i = 0; i < N_EVENTS; ++i) {
        random_observables(&ev[i].o);
        double w;
        switch (i % 12) {
        case 0: w = 0.0; break;
        case 1: w = -0.0; break;
        case 2: w = typical * 1e-15 * uniform(); break;               /* rounds to 0 */
        case 3: w = -typical * ldexp(uniform(), -(int)(next_u64() % 40)); break;
        case 4: w = 1e12 * typical * (0.5 + uniform()); break;
        case 5: w = -1e12 * typical * (0.5 + uniform()); break;
        case 6: w = (next_u64() & 1 ? 1 : -1) * GAPS_WEIGHT_MAX_UNITS * w_unit; break;
        default: w = typical * (2.0 * uniform() - 0.6); break;
        }
        if (i % 997 == 13) w = NAN;
        if (i % 991 == 17) w = i & 1 ? INFINITY : -INFINITY;
        if (i % 983 == 19) w = 1.5 * GAPS_WEIGHT_MAX_UNITS * w_unit;
        if (i % 977 == 23) w = -DBL_MAX;
        ev[i].weight = w;
        expect_event(e, &h, &ev[i]);
        order[i] = i;
    }
    CHECK(e->bad >= 20, "the stream has %llu bad weights", (unsigned long long)e->bad);

    /* one order, into copy 0 */
    uint64_t *acc = calloc((size_t)gaps_histograms_words(&h), sizeof *acc);
    uint64_t *one = calloc((size_t)copy_words, sizeof *one);
    uint64_t *red = calloc((size_t)gaps_histograms_reduce_words(&h), sizeof *red);
    if (!acc || !one || !red) { CHECK(0, "out of memory"); return; }
    h.acc = acc;
    uint64_t bad = 0;
    fill_all(&h, 0, ev, NULL, N_EVENTS, &bad);
    CHECK(bad == e->bad, "%llu bad weights flagged, %llu expected", (unsigned long long)bad,
          (unsigned long long)e->bad);
    compare(&h, acc, e, "in order");
    memcpy(one, acc, copy_words * sizeof *one);

    /* shuffled orders: the same bytes */
    for (int t = 0; t < 3; ++t) {
        memset(acc, 0, copy_words * sizeof *acc);
        shuffle(order, N_EVENTS);
        bad = 0;
        fill_all(&h, 0, ev, order, N_EVENTS, &bad);
        CHECK(memcmp(acc, one, copy_words * sizeof *acc) == 0 && bad == e->bad,
              "shuffled order %d: other bytes", t);
    }

    /* split over worker copies at random, then reduced where the copies live */
    memset(acc, 0, (size_t)gaps_histograms_words(&h) * sizeof *acc);
    shuffle(order, N_EVENTS);
    for (int i = 0; i < N_EVENTS; ++i) {
        const event *x = &ev[order[i]];
        fill_event(&h, (int)(next_u64() % N_SPLIT), &x->o, x->weight);
    }
    gaps_histograms_launch_reduce(&h, red);
    CHECK(memcmp(red, one, copy_words * sizeof *red) == 0, "copies reduced: other bytes");
    CHECK(red[copy_words] == 0, "reduce reports %llu overflows",
          (unsigned long long)red[copy_words]);

    /* split into consecutive parts, each a state of its event range; the parts added with
     * gaps_histograms_accumulate in a shuffled order, and merged as states */
    int cut[N_SPLIT + 1];
    for (int k = 0; k <= N_SPLIT; ++k) cut[k] = (int)((long)N_EVENTS * k / N_SPLIT);
    uint64_t *sum = calloc((size_t)copy_words, sizeof *sum);
    char msg[512];
    for (int k = 0; k < N_SPLIT; ++k) {
        gaps_state *s = &st[1 + k];
        gaps_state_init(s, &cfg);
        memset(acc, 0, copy_words * sizeof *acc);
        uint64_t nbad = 0;
        fill_all(&h, 0, ev + cut[k], NULL, cut[k + 1] - cut[k], &nbad);
        memcpy(s->words, acc, sizeof s->words);
        s->events = (uint64_t)(cut[k + 1] - cut[k]);
        s->bad_weights = nbad;
        CHECK(gaps_state_add_range(s, cut[k], cut[k + 1], msg, sizeof msg) == 0, "%s", msg);
    }
    int perm[N_SPLIT];
    for (int k = 0; k < N_SPLIT; ++k) perm[k] = k;
    shuffle(perm, N_SPLIT);
    for (int k = 0; k < N_SPLIT; ++k)
        CHECK(gaps_histograms_accumulate(sum, st[1 + perm[k]].words, LEP_TOTAL_BINS) == 0,
              "accumulate refused part %d", perm[k]);
    CHECK(memcmp(sum, one, copy_words * sizeof *sum) == 0, "parts accumulated: other bytes");
    gaps_state *merged = &st[N_SPLIT + 1];
    *merged = st[1 + perm[0]];
    for (int k = 1; k < N_SPLIT; ++k)
        CHECK(gaps_state_merge(merged, &st[1 + perm[k]], msg, sizeof msg) == 0, "merge: %s", msg);
    CHECK(memcmp(merged->words, one, copy_words * sizeof *one) == 0, "states merged: other bytes");
    CHECK(merged->events == N_EVENTS && merged->bad_weights == e->bad && merged->n_ranges == 1,
          "merged counts");

    /* a state file of these sums is a possible state: written, read back, the same bytes */
    char path[] = "/tmp/gaps_test_weights_XXXXXX";
    const int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    CHECK(f && gaps_state_write(f, merged, NULL) == 0 && fclose(f) == 0, "writing %s", path);
    gaps_state *back = &st[0];
    CHECK(gaps_state_read(path, back, NULL, msg, sizeof msg) == 0, "reading it back: %s", msg);
    CHECK(memcmp(back->words, one, copy_words * sizeof *one) == 0 && back->events == N_EVENTS
          && back->bad_weights == e->bad, "state file round trip: other content");
    unlink(path);

    /* the doubles: the event counter's sum of weights against a long double sum of the
     * rounded terms (each exact in long double: < 2^64 quanta) */
    gaps_hist_result *res = malloc(sizeof *res);
    if (res) {
        gaps_state_result(merged, res);
        long double ref = 0;
        uint64_t negative = 0;
        for (int i = 0; i < N_EVENTS; ++i) {
            const double r = ev[i].weight * h.inv_w_unit;
            if (fabs(r) <= GAPS_WEIGHT_MAX_UNITS) {
                ref += (long double)ref_fixed(r);
                negative += r < 0.0;
            }
        }
        const double want = (double)(ref * (long double)(w_unit / 0x1.0p40));
        CHECK(fabs(res->sum_w - want) <= 1e-12 * fabs(want), "sum w %.17g, expected %.17g",
              res->sum_w, want);
        CHECK(res->n_events == N_EVENTS, "N = %llu", (unsigned long long)res->n_events);
        CHECK(negative > 0 && res->n_negative == negative, "%llu negative weights, expected %llu",
              (unsigned long long)res->n_negative, (unsigned long long)negative);
        free(res);
    }
    free(sum);
    free(acc);
    free(one);
    free(red);
    free(order);
    free(ev);
    free(e);
    free(st);
}

/* A stream whose every term is exact, with sums known in closed form: w_unit = 2 pb (1 / w_unit
 * exact), weights k / 2^10 w_unit for k = -K..K (and the limit, both signs), all in the tau
 * bin of x = 0.25 (exact: x^2 = 1/16).  Sum w = +-2^43 cancelling, sum w^2 = 2 sum k^2 / 2^20
 * + 2 x 2^86, sum w x = 0, sum w x^2 = 0. */
static void test_exact(void)
{
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, 2.0, GAPS_ANALYSIS_LEP);
    uint64_t *acc = calloc((size_t)gaps_histograms_words(&h), sizeof *acc);
    if (!acc) { CHECK(0, "out of memory"); return; }
    h.acc = acc;
    gaps_observables o;
    memset(&o, 0, sizeof o);
    o.n_partons = 2;
    o.tau = 0.25;
    const int K = 5000;
    for (int k = -K; k <= K; ++k)
        CHECK(fill_event(&h, 0, &o, 2.0 * k / 1024.0) == 0, "weight %d", k);
    CHECK(fill_event(&h, 0, &o, 2.0 * GAPS_WEIGHT_MAX_UNITS) == 0, "the limit");
    CHECK(fill_event(&h, 0, &o, -2.0 * GAPS_WEIGHT_MAX_UNITS) == 0, "-limit");
    const int bin = h.offset[GAPS_LEP_H_TAU] + 1 + (int)(0.25 / 0.5 * 100);
    const uint64_t *a = acc + (long)bin * GAPS_ACC_WORDS;
    const uint64_t zero[3] = { 0, 0, 0 };
    CHECK(memcmp(a + GAPS_ACC_SUMW, zero, sizeof zero) == 0, "sum w not exactly 0");
    CHECK(memcmp(a + GAPS_ACC_SUMWX, zero, sizeof zero) == 0, "sum w x not exactly 0");
    CHECK(memcmp(a + GAPS_ACC_SUMWX2, zero, sizeof zero) == 0, "sum w x^2 not exactly 0");
    /* sum k^2 for k = -K..K = K (K + 1) (2K + 1) / 3; in quanta 2^40 / 2^20 = 2^20 each */
    const u128 sk2 = (u128)K * (K + 1) * (2 * K + 1) / 3;
    const u128 w2 = (sk2 << 20) + ((u128)2 << 126);
    CHECK(a[GAPS_ACC_SUMW2] == (uint64_t)w2 && a[GAPS_ACC_SUMW2 + 1] == (uint64_t)(w2 >> 64)
          && a[GAPS_ACC_SUMW2 + 2] == 0, "sum w^2 not the closed form");
    CHECK(a[GAPS_ACC_COUNT] == (uint64_t)(2 * K + 3), "entries");
    free(acc);
}

/* ---- 4. the weight limit ---- */
static void test_limit(void)
{
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, 3.0, GAPS_ANALYSIS_LEP);   /* 1 / 3 is rounded: the limit is on w / 3 */
    uint64_t *acc = calloc((size_t)gaps_histograms_words(&h), sizeof *acc);
    uint64_t *ref = calloc((size_t)gaps_histograms_words(&h), sizeof *ref);
    if (!acc || !ref) { CHECK(0, "out of memory"); return; }
    h.acc = acc;
    gaps_observables o;
    memset(&o, 0, sizeof o);
    o.n_partons = 3;
    o.y23 = 0.01;
    o.tau = 0.1;
    /* the largest weight w with w * (1/3) <= 2^43 */
    double top = GAPS_WEIGHT_MAX_UNITS * 3.0;
    while (top * h.inv_w_unit > GAPS_WEIGHT_MAX_UNITS) top = nextafter(top, 0);
    while (nextafter(top, INFINITY) * h.inv_w_unit <= GAPS_WEIGHT_MAX_UNITS)
        top = nextafter(top, INFINITY);
    CHECK(fill_event(&h, 0, &o, top) == 0, "the limit refused");
    CHECK(fill_event(&h, 0, &o, -top) == 0, "minus the limit refused");
    memcpy(ref, acc, (size_t)gaps_histograms_words(&h) * sizeof *acc);
    const double beyond[] = { nextafter(top, INFINITY), -nextafter(top, INFINITY), NAN, -NAN,
                              INFINITY, -INFINITY, DBL_MAX, -DBL_MAX, 1e300 };
    const long ev = (long)(h.offset[GAPS_LEP_N_HISTS] + 1) * GAPS_ACC_WORDS + GAPS_ACC_COUNT;
    for (size_t i = 0; i < sizeof beyond / sizeof beyond[0]; ++i) {
        CHECK(fill_event(&h, 0, &o, beyond[i]) == GAPS_FILL_BAD_WEIGHT,
              "weight %g taken", beyond[i]);
        ref[ev] += 1;   /* the event counts, nothing else changes */
        CHECK(memcmp(acc, ref, (size_t)gaps_histograms_words(&h) * sizeof *acc) == 0,
              "weight %g changed the sums", beyond[i]);
    }
    free(acc);
    free(ref);
}

/* ---- 5. overflow ---- */
static void test_overflow(void)
{
    const long nw = (long)LEP_TOTAL_BINS * GAPS_ACC_WORDS;
    uint64_t *a = calloc((size_t)nw, sizeof *a), *b = calloc((size_t)nw, sizeof *b);
    if (!a || !b) { CHECK(0, "out of memory"); return; }
    /* one event of weight +2^43 w_unit in bin 0 and -2^43 w_unit in bin 1 (sum w^2 = 2^126,
     * sum w = -2^83); counts left 0, so that only the sums can overflow */
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, 1.0, GAPS_ANALYSIS_LEP);
    h.acc = a;
    gaps_observables o;
    memset(&o, 0, sizeof o);
    o.tau = -1.0;   /* the tau histogram's underflow bin */
    const long tau0 = (long)h.offset[GAPS_LEP_H_TAU] * GAPS_ACC_WORDS;
    const long ev1 = (long)(h.offset[GAPS_LEP_N_HISTS] + 1) * GAPS_ACC_WORDS;
    CHECK(fill_event(&h, 0, &o, -GAPS_WEIGHT_MAX_UNITS) == 0, "-2^43 refused");
    uint64_t neg_w[3], w2[3];
    memcpy(neg_w, a + tau0 + GAPS_ACC_SUMW, sizeof neg_w);
    memcpy(w2, a + tau0 + GAPS_ACC_SUMW2, sizeof w2);
    memset(a, 0, (size_t)nw * sizeof *a);
    memcpy(a + tau0 + GAPS_ACC_SUMW2, w2, sizeof w2);       /* +2^126 */
    memcpy(a + ev1 + GAPS_ACC_SUMW, neg_w, sizeof neg_w);   /* -2^83 */
    CHECK(w2[0] == 0 && w2[1] == 1ull << 62 && w2[2] == 0, "w^2 of the limit is not 2^126");
    /* doubling: +2^126 reaches 2^190 after 64 doublings, the 65th would be 2^191: refused.
     * -2^83 reaches -2^191 after 108, which fits; the 109th is refused. */
    int k;
    for (k = 1; k <= 200; ++k) {
        memcpy(b, a, (size_t)nw * sizeof *a);
        if (gaps_histograms_accumulate(a, b, LEP_TOTAL_BINS) != 0) break;
        if (k == 64) {   /* take the positive sum out, so the negative one goes on */
            CHECK(a[tau0 + GAPS_ACC_SUMW2 + 2] == 1ull << 62, "2^190 after 64 doublings");
            memcpy(b, a, (size_t)nw * sizeof *a);
            CHECK(gaps_histograms_accumulate(a, b, LEP_TOTAL_BINS) != 0,
                  "2^190 + 2^190 not refused");
            CHECK(memcmp(a, b, (size_t)nw * sizeof *a) == 0, "a refused add changed the sums");
            memset(a + tau0 + GAPS_ACC_SUMW2, 0, 3 * sizeof *a);
        }
    }
    CHECK(k == 109, "the negative sum refused at doubling %d, expected 109", k);
    CHECK(a[ev1 + GAPS_ACC_SUMW] == 0 && a[ev1 + GAPS_ACC_SUMW + 1] == 0
          && a[ev1 + GAPS_ACC_SUMW + 2] == 1ull << 63, "-2^191 is not kept");
    CHECK(gaps_fixed_value(a + ev1 + GAPS_ACC_SUMW) == -0x1.0p191, "value of -2^191");
    /* counts that would wrap */
    memset(a, 0, (size_t)nw * sizeof *a);
    memset(b, 0, (size_t)nw * sizeof *b);
    a[ev1 + GAPS_ACC_COUNT] = UINT64_MAX;
    b[ev1 + GAPS_ACC_COUNT] = 1;
    CHECK(gaps_histograms_accumulate(a, b, LEP_TOTAL_BINS) != 0
          && a[ev1 + GAPS_ACC_COUNT] == UINT64_MAX, "a wrapping count not refused");

    /* the reduction over worker copies: 2^190 in each of two copies overflows, -2^190 in
     * each does not (-2^191) */
    gaps_histograms h2;
    gaps_histograms_layout(&h2, 2, 1.0, GAPS_ANALYSIS_LEP);
    uint64_t *acc = calloc((size_t)gaps_histograms_words(&h2), sizeof *acc);
    uint64_t *red = calloc((size_t)gaps_histograms_reduce_words(&h2), sizeof *red);
    if (acc && red) {
        h2.acc = acc;
        for (int c = 0; c < 2; ++c) acc[c * nw + tau0 + GAPS_ACC_SUMWX + 2] = 1ull << 62;
        gaps_histograms_launch_reduce(&h2, red);
        CHECK(red[nw] == 1, "reduce: 2^190 + 2^190 reported %llu overflows",
              (unsigned long long)red[nw]);
        for (int c = 0; c < 2; ++c) acc[c * nw + tau0 + GAPS_ACC_SUMWX + 2] = 0xc000000000000000u;
        gaps_histograms_launch_reduce(&h2, red);
        CHECK(red[nw] == 0 && red[tau0 + GAPS_ACC_SUMWX + 2] == 1ull << 63,
              "reduce: -2^190 - 2^190 = -2^191 not kept");
        acc[tau0 + GAPS_ACC_COUNT] = UINT64_MAX;
        acc[nw + tau0 + GAPS_ACC_COUNT] = 2;
        gaps_histograms_launch_reduce(&h2, red);
        CHECK(red[nw] == 1, "reduce: a wrapping count not reported");
    } else {
        CHECK(0, "out of memory");
    }
    free(acc);
    free(red);

    /* merging states: counts that would wrap, sums that would overflow; dst unchanged */
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_state *s = calloc(3, sizeof *s);
    if (s) {
        char msg[512];
        gaps_state_init(&s[0], &cfg);
        gaps_state_init(&s[1], &cfg);
        gaps_state_add_range(&s[0], 0, 10, msg, sizeof msg);
        gaps_state_add_range(&s[1], 10, 20, msg, sizeof msg);
        s[0].events = s[1].events = 10;
        s[0].invalid_events = UINT64_MAX;
        s[1].invalid_events = 1;
        s[2] = s[0];
        CHECK(gaps_state_merge(&s[0], &s[1], msg, sizeof msg) != 0, "2^64-1 + 1 invalid events "
              "merged");
        CHECK(memcmp(&s[0], &s[2], sizeof s[0]) == 0, "a refused merge changed the state");
        s[0].invalid_events = 0;
        s[0].words[tau0 + GAPS_ACC_SUMW + 2] = (1ull << 63) - 1;   /* near +2^191 */
        s[1].words[tau0 + GAPS_ACC_SUMW + 2] = 1;
        s[2] = s[0];
        CHECK(gaps_state_merge(&s[0], &s[1], msg, sizeof msg) != 0, "overflowing sums merged");
        CHECK(memcmp(&s[0], &s[2], sizeof s[0]) == 0, "a refused merge changed the state");
        s[1].words[tau0 + GAPS_ACC_SUMW + 2] = ~0ull;   /* -2^128: fits */
        CHECK(gaps_state_merge(&s[0], &s[1], msg, sizeof msg) == 0, "a fitting merge: %s", msg);
        s[1].w_unit = nextafter(s[1].w_unit, 0);
        s[2] = s[0];
        CHECK(gaps_state_merge(&s[2], &s[1], msg, sizeof msg) != 0, "other weight units merged");
        free(s);
    }
    free(a);
    free(b);
}

/* Imprecise weights and lost precision (gaps/histogram.h): N events of weight w in units of 1
 * pb give n_imprecise = N for nonzero |w| < 2^-16 (and 0 at 2^-16), and lost_precision when
 * N 2^-41 exceeds 1e-9 |sum w| or N 2^-41 exceeds 1e-6 sum w^2; N weights exactly 0 lose
 * nothing (sigma = 0 is exact). */
static void test_precision(void)
{
    static const struct { double w; int imprecise, lost; } cases[] = {
        { 1.0, 0, 0 }, { -0.25, 0, 0 }, { 0x1.0p-4, 0, 0 },
        { 0x1.0p-8, 0, 0 },   /* sum w^2 = N 2^-16: the bound N 2^-41 is 3e-8 of it */
        { 0x1.0p-16, 0, 1 }, { 0x1.fp-17, 1, 1 }, { 1e-13, 1, 1 }, { -1e-30, 1, 1 },
        { 0.0, 0, 0 },
    };
    enum { N = 1000 };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        gaps_histograms h;
        gaps_histograms_layout(&h, 1, 1.0, GAPS_ANALYSIS_LEP);
        uint64_t *acc = calloc((size_t)gaps_histograms_words(&h), sizeof *acc);
        gaps_hist_result *r = malloc(sizeof *r);
        if (!acc || !r) { CHECK(0, "out of memory"); free(acc); free(r); return; }
        h.acc = acc;
        gaps_observables o;
        memset(&o, 0, sizeof o);
        o.n_partons = 3;
        o.y23 = 0.01;
        o.tau = 0.1;
        for (int i = 0; i < N; ++i) fill_event(&h, 0, &o, cases[c].w);
        gaps_histograms_result(&h, acc, r);
        /* the bound, as documented: N 2^-41 against 1e-9 |sum w| and 1e-6 sum w^2 */
        const double w = cases[c].w, b = N * 0x1.0p-41;
        const int lost = w != 0.0 && !(b <= 1e-9 * N * fabs(w) && b <= 1e-6 * N * w * w);
        CHECK(lost == cases[c].lost, "precision case %zu: the table says lost %d, the bound %d",
              c, cases[c].lost, lost);
        CHECK(r->n_imprecise == (cases[c].imprecise ? (uint64_t)N : 0),
              "weight %a: %llu imprecise weights among %d", w,
              (unsigned long long)r->n_imprecise, N);
        CHECK(r->lost_precision == cases[c].lost, "weight %a: lost_precision %d, expected %d", w,
              r->lost_precision, cases[c].lost);
        free(acc);
        free(r);
    }
}

int main(void)
{
    test_precision();
    test_conversion();
    test_value();
    test_stream();
    test_exact();
    test_limit();
    test_overflow();
    if (failures) {
        printf("%d checks failed\n", failures);
        return 1;
    }
    printf("weights: conversion, values, shuffled/split/merged streams, exact sums, the limit "
           "and overflow all as expected\n");
    return 0;
}
