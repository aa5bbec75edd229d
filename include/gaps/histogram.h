/* gaps/histogram.h -- the analysis histograms of doc/physics.md section 4, accumulated in
 * fixed point so that their sums do not depend on the order of the fills.
 *
 * Why fixed point: the same events are filled in a different order by every backend, thread
 * count and pool size.  Floating-point sums would then differ in the last bits; integer sums
 * do not.  Each contribution (w, w^2, w x, w x^2) is rounded once to a multiple of 2^-40 in
 * units of the largest possible event weight w_max and added to a 128-bit two's-complement
 * integer (two 64-bit words with an explicit carry, because the device has no 128-bit
 * atomics).  2^87 units of headroom is ~10^26 events: overflow is not a concern.
 *
 * Storage: one copy of all accumulators per worker (see gaps_parallel.h), merged once.
 */
#ifndef GAPS_HISTOGRAM_H
#define GAPS_HISTOGRAM_H

#include <stdint.h>
#include "gaps/observables.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

enum gaps_hist_id {
    GAPS_H_Y23, GAPS_H_Y34, GAPS_H_Y45, GAPS_H_Y56,
    GAPS_H_TAU, GAPS_H_RHO_H, GAPS_H_RHO_L, GAPS_H_B_T, GAPS_H_B_W, GAPS_H_B_N, GAPS_H_C,
    GAPS_H_NPARTONS,
    GAPS_N_HISTS,
    GAPS_H_EVENTS = GAPS_N_HISTS   /* one-bin counter of all events: the cross section */
};

typedef struct gaps_hist_def {
    const char *path;    /* YODA path, part of the interface */
    const char *title;
    const char *xlabel, *ylabel;   /* axis labels, LaTeX as YODA/Rivet plotting tools read */
    int nbins;
    double lo, hi;
} gaps_hist_def;

/* The binning of every histogram (doc/physics.md section 4). */
extern const gaps_hist_def gaps_hist_defs[GAPS_N_HISTS];

/* The most bins of any histogram (under/overflow not counted). */
#define GAPS_HIST_MAX_BINS 100

/* Per bin: 4 accumulators of two words (sumw, sumw2, sumwx, sumwx2) and the entry count. */
enum { GAPS_ACC_SUMW = 0, GAPS_ACC_SUMW2 = 2, GAPS_ACC_SUMWX = 4, GAPS_ACC_SUMWX2 = 6,
       GAPS_ACC_COUNT = 8, GAPS_ACC_WORDS = 9 };

/* Fixed-point quantum: 2^-40 of w_max. */
#define GAPS_FIXED_SCALE 1099511627776.0   /* 2^40 */

/* What a fill needs on the device: binning, the bin offsets and the accumulator array. */
typedef struct gaps_histograms {
    int ncopies;                          /* worker copies */
    int nbins_total;                      /* bins of one copy, under/overflow included */
    int offset[GAPS_N_HISTS + 1];         /* first bin of each histogram in a copy */
    int nbins[GAPS_N_HISTS + 1];
    double lo[GAPS_N_HISTS + 1], hi[GAPS_N_HISTS + 1];
    double inv_w_max;                     /* 1 / largest event weight, pb^-1 */
    uint64_t *acc;                        /* [copy][bin][GAPS_ACC_WORDS], device memory */
} gaps_histograms;

/* Host: the layout for ncopies copies of everything, with weights normalised by w_max.
 * acc is left NULL; the caller allocates gaps_histograms_words() zeroed words for it. */
void gaps_histograms_layout(gaps_histograms *h, int ncopies, double w_max);
long gaps_histograms_words(const gaps_histograms *h);

GAPS_DEVICE_BEGIN
/* Fill every histogram of one event (and the event counter) into worker copy `copy`. */
void gaps_histograms_fill_event(const gaps_histograms *h, int copy, const gaps_observables *o,
                                double weight);
GAPS_DEVICE_END

/* The merged, normalised content of one histogram or of the event counter, as YODA wants it. */
typedef struct gaps_bin_sums {
    double sumw, sumw2, sumwx, sumwx2;
    uint64_t entries;
} gaps_bin_sums;

typedef struct gaps_hist_result {
    gaps_bin_sums bin[GAPS_N_HISTS + 1][GAPS_HIST_MAX_BINS + 2];
    /* unnormalised sums of all event weights: sum w, sum w^2 (pb, pb^2) and N */
    double sum_w, sum_w2;
    uint64_t n_events;
} gaps_hist_result;

/* Bins of one copy of all histograms and the event counter, under/overflow included: the
 * size (times GAPS_ACC_WORDS words) of the exact accumulators a state file carries. */
#define GAPS_HIST_TOTAL_BINS (11 * (100 + 2) + (64 + 2) + (1 + 2))

/* Host: dst += src, exactly, for two single-copy accumulator arrays of nbins_total bins: the
 * 128-bit sums carry, the entry counts add.  Merging runs is this operation. */
void gaps_histograms_accumulate(uint64_t *dst, const uint64_t *src, int nbins_total);

/* Host: convert one copy of exact accumulators to doubles.  Bin b of histogram id is
 * bin[id][b]: b = 0 underflow, 1..nbins the bins, nbins+1 overflow.  Contents are sums over
 * events (not yet divided by N). */
void gaps_histograms_result(const gaps_histograms *h, const uint64_t *words,
                            gaps_hist_result *out);

/* Launch where the copies live: words (one copy, where the loops run) = the exact sum of all
 * h->ncopies copies of h->acc.  The host then copies one copy back instead of all of them
 * (256 on a GPU: 22 MB). */
void gaps_histograms_launch_reduce(const gaps_histograms *h, uint64_t *words);

/* Cross section and its statistical error from the merged sums, pb. */
void gaps_histograms_sigma(const gaps_hist_result *r, double *sigma, double *error);

GAPS_C_END

#endif
