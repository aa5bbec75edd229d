/* gaps/histogram.h -- the analysis histograms of doc/physics.md section 4, accumulated in
 * fixed point so that their sums do not depend on the order of the fills.
 *
 * Why fixed point: the same events are filled in a different order by every backend, thread
 * count and pool size.  Floating-point sums would then differ in the last bits; integer sums
 * do not.  Each contribution (w, w^2, w x, w x^2) is rounded once to a multiple of 2^-40 in
 * units of the run's weight unit w_unit (a property of the process: for LEP the largest
 * leading-order event weight w_max) and added to a 192-bit two's-complement integer (three
 * 64-bit words with explicit carries, because the device has no wider atomics).
 *
 * Signed and unbounded weights: a weight may be negative, zero or up to
 * GAPS_WEIGHT_MAX_UNITS = 2^43 (8.8e12) w_unit in magnitude; then every contribution is below
 * 2^126 quanta (w^2 is the largest: 2^86 x 2^40), and 2^62 events (the largest event number)
 * sum to less than 2^188, a factor 8 inside the 192-bit range: a run, a reduction of worker
 * copies or a merge of states of one run can never overflow.  A weight beyond that, or not
 * finite, is not added at all: the event is counted (N and the event counter's entries) and
 * flagged (GAPS_FLAG_WEIGHT, the run's bad_weights), never silently wrapped.  Sums that
 * overflow anyway (states from elsewhere) are detected when added and refused.
 *
 * Storage: one copy of all accumulators per worker (see gaps_parallel.h), merged once.
 */
#ifndef GAPS_HISTOGRAM_H
#define GAPS_HISTOGRAM_H

#include <stdint.h>
#include "gaps/observables.h"
#include "gaps/analyses.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* Histograms are numbered per analysis (GAPS_LEP_H_*, GAPS_LHC_H_*); the one-bin counter of
 * all events (the cross section) follows the last of them: its id is the analysis's number
 * of histograms (gaps_histograms.n_hists).  Its bin holds every event; its underflow bin
 * holds the events of negative weight a second time (their number and sums), its overflow
 * bin the events of imprecise weight (below) a second time, filled with |w| (their number
 * and sum of |w|). */

typedef struct gaps_hist_def {
    int column;          /* the per-event column it histograms (GAPS_OBS_*, GAPS_<ID>_*) */
    int column2;         /* a second column filled into it, GAPS_OBS_NONE if none: then each
                            of the two is filled with half the event weight */
    int transform;       /* enum gaps_fill_transform */
    int min_partons;     /* filled for events with at least this many final partons */
    const char *path;    /* YODA path, part of the interface */
    const char *title;
    const char *xlabel, *ylabel;   /* axis labels, LaTeX as YODA/Rivet plotting tools read */
    int nbins;
    double lo, hi;
} gaps_hist_def;

/* Bins of all histograms of an analysis and of the event counter, under/overflow included:
 * the size (times GAPS_ACC_WORDS words) of the exact accumulators a state carries. */
#define GAPS_HIST_BINS_(id, col, col2, tr, minp, path, title, xl, yl, nb, lo, hi) + ((nb) + 2)
#define GAPS_HIST_TOTAL_BINS_OF(HISTOGRAMS) (0 HISTOGRAMS(GAPS_HIST_BINS_) + (1 + 2))

/* The largest analysis, for the fixed-size arrays: the size of a union of one array per
 * analysis is the largest of them. */
#define GAPS_HIST_BINS_MAX_(ID, name, columns, histograms)                                     \
    char name[GAPS_HIST_TOTAL_BINS_OF(histograms)];
union gaps_hist_bins_max_ {
    GAPS_ANALYSES(GAPS_HIST_BINS_MAX_)
};
#undef GAPS_HIST_BINS_MAX_
#define GAPS_HIST_COUNT_MAX_(ID, name, columns, histograms) char name[GAPS_##ID##_N_HISTS];
union gaps_hist_count_max_ {
    GAPS_ANALYSES(GAPS_HIST_COUNT_MAX_)
};
#undef GAPS_HIST_COUNT_MAX_
enum {
    /* the most histograms of any analysis (the event counter not counted) */
    GAPS_HIST_MAX_HISTS = (int)sizeof(union gaps_hist_count_max_),
    /* the most bins of a state: GAPS_HIST_TOTAL_BINS_OF the largest analysis */
    GAPS_HIST_MAX_TOTAL_BINS = (int)sizeof(union gaps_hist_bins_max_)
};

/* The most bins of any histogram (under/overflow not counted). */
#define GAPS_HIST_MAX_BINS 100

/* Per bin: 4 accumulators of three words, low word first (sumw, sumw2, sumwx, sumwx2), and
 * the entry count. */
enum { GAPS_ACC_SUM_WORDS = 3,
       GAPS_ACC_SUMW = 0, GAPS_ACC_SUMW2 = 3, GAPS_ACC_SUMWX = 6, GAPS_ACC_SUMWX2 = 9,
       GAPS_ACC_COUNT = 12, GAPS_ACC_WORDS = 13 };

/* Fixed-point quantum: 2^-40 of w_unit (of w_unit^2 for sum w^2). */
#define GAPS_FIXED_SCALE 1099511627776.0   /* 2^40 */

/* The largest |weight| / w_unit the accumulators take (see the top of this file). */
#define GAPS_WEIGHT_MAX_UNITS 0x1.0p43

/* Precision.  A weight is rounded once to the quantum 2^-40 w_unit in sum w and w^2 to
 * 2^-40 w_unit^2 in sum w^2: an error of at most half a quantum each.  A nonzero weight with
 * |w| < GAPS_WEIGHT_PRECISE_UNITS w_unit = 2^-16 w_unit keeps fewer than 24 significant bits
 * in sum w (and its w^2 fewer than 8 in sum w^2): an *imprecise weight*, counted (the event
 * counter's overflow bin, gaps_hist_result.n_imprecise; a run's imprecise_weights).  The run's
 * own unit is chosen so that its weights are not (gaps_weight_unit_for); a few from the tails
 * do no harm.  What matters is the whole: the sums of N events are off by at most
 * N 2^-41 w_unit (sum w) and N 2^-41 w_unit^2 (sum w^2), and the cross section has lost its
 * meaning (gaps_hist_result.lost_precision: the run is an error) when that bound exceeds
 * GAPS_SIGMA_ROUNDING_MAX = 1e-9 of |sum w| or GAPS_ERROR_ROUNDING_MAX = 1e-6 of sum w^2,
 * unless every weight was exactly 0 (sum w^2 = 0 and no imprecise weight: then sigma = 0
 * is exact). */
#define GAPS_WEIGHT_PRECISE_UNITS 0x1.0p-16
#define GAPS_SIGMA_ROUNDING_MAX 1e-9
#define GAPS_ERROR_ROUNDING_MAX 1e-6

/* Every contribution of an accepted weight is at most 2^GAPS_FIXED_TERM_BITS quanta in
 * magnitude; a sum of k contributions at most k times that (what a state must satisfy). */
#define GAPS_FIXED_TERM_BITS 126

/* What a fill needs on the device: binning, the bin offsets and the accumulator array. */
typedef struct gaps_histograms {
    int analysis;                         /* enum gaps_analysis_id: which histograms */
    int n_hists;                          /* its histograms; the event counter is the next */
    int ncopies;                          /* worker copies */
    int nbins_total;                      /* bins of one copy, under/overflow included */
    int offset[GAPS_HIST_MAX_HISTS + 1];  /* first bin of each histogram in a copy */
    int nbins[GAPS_HIST_MAX_HISTS + 1];
    /* the range of the bins: of the value, or of its log10 (GAPS_FILL_LOG10 and
     * GAPS_FILL_LOG_BINS, gaps_log10 of the definition's lo and hi for the latter) */
    double lo[GAPS_HIST_MAX_HISTS + 1], hi[GAPS_HIST_MAX_HISTS + 1];
    double inv_w_unit;                    /* 1 / weight unit, pb^-1 */
    uint64_t *acc;                        /* [copy][bin][GAPS_ACC_WORDS], device memory */
    /* --vary (gaps/vary.h): the same histograms once per variation weight, n_vary of them,
     * [copy][variation][bin][GAPS_ACC_WORDS], device memory; 0 and NULL without --vary */
    int n_vary;
    uint64_t *vary_acc;
} gaps_histograms;

/* Host: the layout of the histograms of an analysis (enum gaps_analysis_id) for ncopies copies
 * of everything, with weights counted in units of w_unit (pb; finite and positive).  acc is
 * left NULL; the caller allocates gaps_histograms_words() zeroed words for it. */
void gaps_histograms_layout(gaps_histograms *h, int ncopies, double w_unit, int analysis);
long gaps_histograms_words(const gaps_histograms *h);

GAPS_DEVICE_BEGIN
enum { GAPS_FILL_BAD_WEIGHT = 1 };

/* Fill every histogram of one event (and the event counter) into worker copy `copy` from the
 * event's row of columns (the analysis's: weight, multiplicity, observables).  Returns 0, or
 * GAPS_FILL_BAD_WEIGHT when the weight is not finite or |weight| exceeds
 * GAPS_WEIGHT_MAX_UNITS w_unit: then only the event counter's entry count is incremented (the
 * event counts in N) and no sum changes. */
int gaps_histograms_fill_event(const gaps_histograms *h, int copy, const double *row);

/* The same into the histograms of variation v (0 <= v < h->n_vary), the row's weight being the
 * variation's. */
int gaps_histograms_fill_variation(const gaps_histograms *h, int copy, int v,
                                   const double *row);

/* The fixed-point value of v (v in units of w_unit, or w_unit^2, ...): floor(v * 2^40 + 0.5)
 * evaluated in double precision, as format 1 did it (it then converted to a 64-bit integer),
 * as a two's-complement integer of two words (low first).  Exact and defined for every
 * finite v with |v| * 2^40 < 2^127; the caller keeps to that (fill_event does). */
void gaps_fixed_from_double(double v, uint64_t out[2]);

/* acc[0..2] += the sign-extended two-word value c, on the device with one atomic on the low
 * word, and atomics on the higher words only when a carry or a sign extension reaches them. */
void gaps_fixed_add(uint64_t *acc, const uint64_t c[2]);
GAPS_DEVICE_END

/* The merged, normalised content of one histogram or of the event counter, as YODA wants it. */
typedef struct gaps_bin_sums {
    double sumw, sumw2, sumwx, sumwx2;
    uint64_t entries;
} gaps_bin_sums;

typedef struct gaps_hist_result {
    int analysis;    /* enum gaps_analysis_id */
    int n_hists;     /* bin[n_hists] is the event counter */
    gaps_bin_sums bin[GAPS_HIST_MAX_HISTS + 1][GAPS_HIST_MAX_BINS + 2];
    /* unnormalised sums of all event weights: sum w, sum w^2 (pb, pb^2) and N */
    double sum_w, sum_w2;
    uint64_t n_events;
    /* the events of negative weight: their number and their sum of weights (pb), from the
     * event counter's underflow bin */
    uint64_t n_negative;
    double sum_w_negative;
    /* the events of imprecise weight (nonzero, below GAPS_WEIGHT_PRECISE_UNITS w_unit) and
     * whether the rounding may have changed the cross section or its error (1: see above) */
    uint64_t n_imprecise;
    int lost_precision;
} gaps_hist_result;

/* Host: dst += src, exactly, for two single-copy accumulator arrays of nbins_total bins: the
 * 192-bit sums carry, the entry counts add.  Merging runs is this operation.  Returns 0, or -1
 * when some sum would overflow (a signed 192-bit sum, or an unsigned 64-bit count): then dst
 * is left unchanged. */
int gaps_histograms_accumulate(uint64_t *dst, const uint64_t *src, int nbins_total);

/* A 192-bit accumulator (three words, low first) as a double.  Where the top word is the
 * sign extension of the middle one (always, within 2^127) the value is the one the 128-bit
 * accumulators of format 1 gave; otherwise it is correctly rounded. */
double gaps_fixed_value(const uint64_t *a);

/* Host: convert one copy of exact accumulators to doubles.  Bin b of histogram id is
 * bin[id][b]: b = 0 underflow, 1..nbins the bins, nbins+1 overflow.  Contents are sums over
 * events (not yet divided by N). */
void gaps_histograms_result(const gaps_histograms *h, const uint64_t *words,
                            gaps_hist_result *out);

/* Launch where the copies live: words (one copy, where the loops run) = the exact sum of all
 * h->ncopies copies of h->acc.  The host then copies one copy back instead of all of them
 * (256 on a GPU: 32 MB).  words holds gaps_histograms_reduce_words() words: one copy, then one
 * word that counts the sums that overflowed (0: they cannot, within GAPS_WEIGHT_MAX_UNITS and
 * 2^62 events; the caller checks it all the same). */
void gaps_histograms_launch_reduce(const gaps_histograms *h, uint64_t *words);
long gaps_histograms_reduce_words(const gaps_histograms *h);

/* Cross section and its statistical error from the merged sums, pb. */
void gaps_histograms_sigma(const gaps_hist_result *r, double *sigma, double *error);

/* The effective number of events (sum w)^2 / sum w^2 (0 if sum w^2 = 0) and the fraction of
 * events whose weight is negative (0 without events). */
void gaps_histograms_weight_summary(const gaps_hist_result *r, double *effective_events,
                                    double *negative_fraction);

GAPS_C_END

#endif
