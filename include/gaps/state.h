/* gaps/state.h -- the exact state of a run: what split, merged, resumed and MPI runs combine.
 *
 * A state holds everything a run has accumulated, in integers: the fixed-point histogram
 * words (gaps/histogram.h), the event and failure counts, and the event ranges it covers,
 * together with the physics parameters and the program version that produced it.  Because
 * the sums are integers, adding two states is exact and independent of order: a run split
 * into ranges and merged gives the same bytes as one run over the union of the ranges.
 *
 * On disk (--state-out, and inside checkpoints) a state is a little-endian binary file whose
 * layout is documented in doc/formats.md, with a version number and a CRC-32 of its content.
 */
#ifndef GAPS_STATE_H
#define GAPS_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "gaps/histogram.h"
#include "gaps/hepmc.h"
#include "gaps/parameters.h"
#include "gaps/vary.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* Version of the state and checkpoint file layout; bumped whenever it changes. */
#define GAPS_STATE_FORMAT 9

/* Most disjoint event ranges one state may hold (adjacent ranges coalesce). */
#define GAPS_STATE_MAX_RANGES 1024

/* Event numbers [begin, end). */
typedef struct gaps_range {
    int64_t begin, end;
} gaps_range;

typedef struct gaps_state {
    char version[32];             /* program version that produced the events */
    /* the physics parameters (gaps/parameters.h), one field each, named and typed as in
     * gaps_config: process, compat, ecm, pdf, alphas_mz, alphas_order, t_cut, seed,
     * max_partons, nlo, ablate.  States merge only when all of them are equal.  pdf is
     * "NAME/MEMBER" (the member always written), "" for a process without hadron beams. */
#define GAPS_STATE_FIELD_STATE(TYPE, key) GAPS_PT_DECL_##TYPE(key)
#define GAPS_STATE_FIELD_NOSTATE(TYPE, key)
#define GAPS_STATE_FIELD_(key, option, short_name, TYPE, STATE, ...)                           \
    GAPS_STATE_FIELD_##STATE(TYPE, key)
    GAPS_PARAMETERS(GAPS_STATE_FIELD_)
#undef GAPS_STATE_FIELD_
    /* the digest of the PDF set's grid and metadata (gaps_pdf.digest, gaps/pdf.h): a set is
     * known by its values, not only by its name, so that states made with two different grids
     * called alike neither merge nor resume each other; 0 for a process without hadron beams.
     * gaps_state_init() fills it in from the set the configuration names (0 if it cannot be
     * read: a run refuses that configuration with the reason) */
    uint64_t pdf_digest;
    /* the weight unit of the histogram sums, pb: the run's (for LEP the largest leading-order
     * weight, gaps_me.w_max; for hadron beams the process's nominal unit halved to the
     * weights of this energy and PDF set, gaps_weight_unit_for()); states merge only when it
     * is equal */
    double w_unit;
    /* counts; bad_weights: events whose weight the sums could not take (gaps/histogram.h) */
    uint64_t events, capacity_hits, invalid_events, bad_weights;
    /* event ranges covered, sorted, disjoint and not adjacent */
    int n_ranges;
    gaps_range range[GAPS_STATE_MAX_RANGES];
    /* one copy of the exact histogram accumulators (GAPS_ACC_WORDS words per bin): the
     * analysis's gaps_analysis_table[analysis].total_bins bins, the rest unused (zero) */
    uint64_t words[GAPS_HIST_MAX_TOTAL_BINS * GAPS_ACC_WORDS];
    /* --vary and --shower-mur-factor (gaps/vary.h, doc/physics.md 17): physics like the
     * parameters above (states merge and resume only when both are equal, bit for bit), kept
     * out of the parameter list so that the metadata of other runs keep their bytes.  vary:
     * enum gaps_vary_bit bits (0: none); shower_mur_factor: 1 for the default */
    int vary;
    double shower_mur_factor;
    /* --vary pdf: the run's set's NumMembers and SetIndex (gaps_vary_pdf_set: the variations
     * are members 1 .. members - 1) and a digest of those members' grids (the FNV-1a digest
     * of their gaps_pdf.digest values in order), which merges and resumes compare like
     * pdf_digest; 0, 0 and 0 without --vary pdf */
    gaps_vary_pdf_set vary_pdf;
    uint64_t vary_pdf_digest;
    /* --vary: the events whose variation weights the safeguards of gaps/vary.h counted
     * (gaps_run.vary_over_events, vary_large_events); 0 without --vary */
    uint64_t vary_over_events, vary_large_events;
    /* --vary: the exact sums of each variation's histograms, gaps_state_n_vary() copies of the
     * analysis's bins one after the other ([variation][bin][word], as gaps_run.vary_words), in
     * the order of gaps_vary_list(); the rest unused (zero).  Fixed size: states are copied by
     * value */
    uint64_t vary_words[GAPS_VARY_MAX * GAPS_HIST_MAX_TOTAL_BINS * GAPS_ACC_WORDS];
} gaps_state;

/* Extra fields of a checkpoint: where a killed run continues. */
typedef struct gaps_resume_point {
    int64_t first_event, events;  /* the run being checkpointed: [first_event, +events) */
    int64_t next_event;           /* every event below it (and from first_event) is done */
    /* byte offsets of the streamed outputs when the checkpoint was taken, -1 if none */
    int64_t rows_offset, hepmc_offset;
    /* running cross-section sums of the HepMC3 stream, in event order: of the nominal weight,
     * and of each named weight (sum, sum of squares; a file's own and --vary's) */
    uint64_t hepmc_n;
    double hepmc_sum_w, hepmc_sum_w2;
    uint32_t hepmc_n_weights;
    double hepmc_sum_wk[2 * GAPS_HEPMC_MAX_WEIGHTS];
    /* work done so far, for the summary */
    uint64_t launches, veto_cycles;
    /* a run of hard events from a file (--lhe): a digest of the events it was handed, from
     * first_event to next_event, which a resume compares with the file's; 0 for other runs */
    uint64_t file_digest;
} gaps_resume_point;

/* Add [begin, end) to the ranges of s.  Returns 0, or -1 (msg says why) if it overlaps a
 * range already there or the table is full. */
int gaps_state_add_range(gaps_state *s, int64_t begin, int64_t end, char *msg, size_t len);

/* dst += src: check that parameters, analyses, weight units and versions agree, that ranges do not
 * overlap and that no count or sum overflows, then add the counts, the accumulators and the
 * ranges.  Returns 0, or -1 with a reason in msg (dst is then unchanged). */
int gaps_state_merge(gaps_state *dst, const gaps_state *src, char *msg, size_t len);

/* The histograms of a state, as doubles (sums over events, not yet divided by N). */
void gaps_state_result(const gaps_state *s, gaps_hist_result *out);

/* The variations a state carries (--vary: gaps_vary_list() of its bits for its process's
 * beams), into out when it is not NULL; returns their number (0 without --vary). */
int gaps_state_vary_list(const gaps_state *s, gaps_variation *out);
/* The histograms of variation v of a state (0 <= v < gaps_state_vary_list()), as doubles. */
void gaps_state_vary_result(const gaps_state *s, int v, gaps_hist_result *out);
/* Whether --vary or --shower-mur-factor differ between a and b: NULL if both are equal (bit
 * for bit), else the option's name ("vary", "shower-mur-factor") with the values of a and b
 * written into va and vb. */
const char *gaps_state_vary_differ(const gaps_state *a, const gaps_state *b, char *va,
                                   char *vb, size_t len);

/* Write a state (and, if rp is not NULL, a checkpoint) to f.  Returns 0, or -1 on a write
 * error. */
int gaps_state_write(FILE *f, const gaps_state *s, const gaps_resume_point *rp);

/* Read a state file (or a checkpoint, into rp when rp is not NULL; a checkpoint is also a
 * valid state).  Returns 0, or -1 with a one-line reason in msg (missing, truncated, corrupt,
 * wrong format version, not a checkpoint when rp is asked for, or a field whose meaning is
 * impossible: parameters outside the program's limits, counts beyond the events, ranges out
 * of order, sums a run cannot make, a resume point outside its run; doc/formats.md). */
int gaps_state_read(const char *path, gaps_state *s, gaps_resume_point *rp, char *msg,
                    size_t len);

GAPS_C_END

#endif
