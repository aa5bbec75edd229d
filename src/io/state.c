/* state.c -- exact run states: ranges, merging, and the state/checkpoint file (doc/formats.md).
 *
 * The file is written byte by byte in little-endian order, so it reads the same on any host;
 * doubles travel as their IEEE bit patterns, never as text, so nothing is rounded.  A CRC-32
 * over everything before it ends the file: a truncated or altered file is refused instead of
 * silently giving wrong histograms. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/state.h"
#include "gaps/constants.h"
#include "gaps/generator.h"
#include "gaps/process.h"
#include "gaps/analysis.h"
#include "io/input_file.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char MAGIC[8] = { 'G', 'A', 'P', 'S', 'S', 'T', 'A', 'T' };
enum { KIND_STATE = 1, KIND_CHECKPOINT = 2 };
/* the words a state of analysis a carries */
static long state_words(int a)
{
    return (long)gaps_analysis_table[a].total_bins * GAPS_ACC_WORDS;
}
/* header + parameters + digest + unit + counts + layout + range table + words + variations
 * (32 bytes and up to GAPS_VARY_MAX more copies of the words) + checkpoint (96 bytes and
 * the named HepMC3 weights' sums) + CRC.  Each
 * parameter of the list (gaps/parameters.h) takes 8 bytes (an f64 or a u64), a PDF set
 * GAPS_PDF_NAME_MAX bytes of name and 8 of member: at most 8 + GAPS_PDF_NAME_MAX bytes each
 * (a bound; the exact size is that of the list). */
#define PARAM_BYTES (GAPS_N_PARAMS * (8 + GAPS_PDF_NAME_MAX))
#define HEADER_BYTES (16 + 32 + PARAM_BYTES + 8 + 8 + 32 + 16)
#define MAX_FILE_BYTES (HEADER_BYTES + 16 * GAPS_STATE_MAX_RANGES                               \
                        + 8 * (1 + GAPS_VARY_MAX) * GAPS_HIST_MAX_TOTAL_BINS * GAPS_ACC_WORDS   \
                        + 32 + 96 + 16 * GAPS_HEPMC_MAX_WEIGHTS + 4)
/* The weight units a state may carry, pb: far beyond any process's (LEP: 3e-4 to 1e5), and
 * close enough to 1 that no sum converted to pb overflows or vanishes. */
#define MIN_W_UNIT 0x1.0p-100
#define MAX_W_UNIT 0x1.0p100

/* ---- ranges ---- */

int gaps_state_add_range(gaps_state *s, int64_t begin, int64_t end, char *msg, size_t len)
{
    if (begin >= end) return 0;
    int i = 0;
    while (i < s->n_ranges && s->range[i].end < begin) ++i;   /* first range that may touch */
    if (i < s->n_ranges && s->range[i].begin < end && begin < s->range[i].end) {
        snprintf(msg, len, "event range [%" PRId64 ", %" PRId64 ") overlaps [%" PRId64 ", %"
                 PRId64 ") already covered", begin, end, s->range[i].begin, s->range[i].end);
        return -1;
    }
    /* coalesce with the neighbours it touches */
    const int join_left = i < s->n_ranges && s->range[i].end == begin;
    const int join_right_at = join_left ? i + 1 : i;
    const int join_right = join_right_at < s->n_ranges && s->range[join_right_at].begin == end;
    if (join_left && join_right) {
        s->range[i].end = s->range[i + 1].end;
        memmove(&s->range[i + 1], &s->range[i + 2], (s->n_ranges - i - 2) * sizeof s->range[0]);
        s->n_ranges--;
    } else if (join_left) {
        s->range[i].end = end;
    } else if (join_right) {
        s->range[i].begin = begin;
    } else {
        if (s->n_ranges == GAPS_STATE_MAX_RANGES) {
            snprintf(msg, len, "more than %d separate event ranges", GAPS_STATE_MAX_RANGES);
            return -1;
        }
        memmove(&s->range[i + 1], &s->range[i], (s->n_ranges - i) * sizeof s->range[0]);
        s->range[i].begin = begin;
        s->range[i].end = end;
        s->n_ranges++;
    }
    return 0;
}

/* ---- merging ---- */

int gaps_state_merge(gaps_state *dst, const gaps_state *src, char *msg, size_t len)
{
    if (strncmp(dst->version, src->version, sizeof dst->version) != 0)
        return snprintf(msg, len, "made by gaps %.31s, not %.31s", src->version, dst->version),
               -1;
    /* parameters compared bit for bit: a state is only the same run if they are identical */
    const int differs = gaps_state_params_differ(dst, src);
    char va[160] = "", vb[160] = "";
    const gaps_param *p = differs >= 0 ? &gaps_params[differs] : NULL;
    if (p) {
        gaps_param_format(p, gaps_param_in_state(p, dst), GAPS_STYLE_EXACT, va, sizeof va);
        gaps_param_format(p, gaps_param_in_state(p, src), GAPS_STYLE_EXACT, vb, sizeof vb);
    }
    /* the words of different analyses are different histograms: nothing to add (the
     * analysis follows from the process and compat, so a parameter differs too: named) */
    if (dst->analysis != src->analysis)
        return snprintf(msg, len, "histograms of different analyses (%s, not %s; different "
                        "parameters: --%s %s and %s): states of different processes or "
                        "--compat do not merge", gaps_analysis_table[src->analysis].name,
                        gaps_analysis_table[dst->analysis].name, p ? p->option : "?", va, vb),
               -1;
    if (p)
        return snprintf(msg, len, "different parameters: --%s %s and %s (states merge only "
                        "when every physics parameter is equal)", p->option, va, vb), -1;
    /* --vary and --shower-mur-factor: physics too (the sums of other variations, or of
     * another shower) */
    const char *vary_option = gaps_state_vary_differ(dst, src, va, vb, sizeof va);
    if (vary_option)
        return snprintf(msg, len, "different parameters: --%s %s and %s (states merge only "
                        "when every physics parameter is equal)", vary_option, va, vb), -1;
    /* the same set name, other grid values: other physics */
    if (dst->pdf_digest != src->pdf_digest)
        return snprintf(msg, len, "different grids for PDF set %s (digests %016" PRIx64 " and %016"
                        PRIx64 "): two sets of the same name with other values", dst->pdf,
                        dst->pdf_digest, src->pdf_digest), -1;
    if (memcmp(&dst->w_unit, &src->w_unit, sizeof dst->w_unit))
        return snprintf(msg, len, "different weight units (%.17g/%.17g pb): the sums cannot be "
                        "added", dst->w_unit, src->w_unit), -1;
    const uint64_t *a[6] = { &dst->events, &dst->capacity_hits, &dst->invalid_events,
                             &dst->bad_weights, &dst->vary_over_events,
                             &dst->vary_large_events };
    const uint64_t b[6] = { src->events, src->capacity_hits, src->invalid_events,
                            src->bad_weights, src->vary_over_events, src->vary_large_events };
    for (int k = 0; k < 6; ++k)
        if (*a[k] + b[k] < *a[k])
            return snprintf(msg, len, "the counts would overflow (%" PRIu64 " + %" PRIu64 ")",
                            *a[k], b[k]), -1;
    gaps_state *trial = malloc(sizeof *trial);   /* ranges are added all or nothing */
    if (!trial) return snprintf(msg, len, "out of memory"), -1;
    trial->n_ranges = dst->n_ranges;
    memcpy(trial->range, dst->range, dst->n_ranges * sizeof dst->range[0]);
    for (int i = 0; i < src->n_ranges; ++i) {
        if (gaps_state_add_range(trial, src->range[i].begin, src->range[i].end, msg, len)) {
            free(trial);
            return -1;
        }
    }
    /* all or nothing too: dst->words and dst->vary_words are unchanged if any sum would
     * overflow (the variations' sums are added into a copy first) */
    const int total_bins = gaps_analysis_table[dst->analysis].total_bins;
    const size_t vary_n = (size_t)gaps_state_vary_list(dst, NULL) * (size_t)total_bins
                          * GAPS_ACC_WORDS;
    uint64_t *vary_sum = vary_n ? malloc(vary_n * sizeof *vary_sum) : NULL;
    if (vary_n && !vary_sum) {
        free(trial);
        return snprintf(msg, len, "out of memory"), -1;
    }
    if (vary_n) memcpy(vary_sum, dst->vary_words, vary_n * sizeof *vary_sum);
    if ((vary_n && gaps_histograms_accumulate(vary_sum, src->vary_words,
                                              (int)(vary_n / GAPS_ACC_WORDS)) != 0)
        || gaps_histograms_accumulate(dst->words, src->words, total_bins) != 0) {
        free(trial);
        free(vary_sum);
        return snprintf(msg, len, "the histogram sums would overflow 192 bits"), -1;
    }
    if (vary_n) memcpy(dst->vary_words, vary_sum, vary_n * sizeof *vary_sum);
    free(vary_sum);
    dst->n_ranges = trial->n_ranges;
    memcpy(dst->range, trial->range, trial->n_ranges * sizeof dst->range[0]);
    free(trial);
    dst->events += src->events;
    dst->capacity_hits += src->capacity_hits;
    dst->invalid_events += src->invalid_events;
    dst->bad_weights += src->bad_weights;
    dst->vary_over_events += src->vary_over_events;
    dst->vary_large_events += src->vary_large_events;
    return 0;
}

void gaps_state_result(const gaps_state *s, gaps_hist_result *out)
{
    gaps_histograms layout;
    gaps_histograms_layout(&layout, 1, s->w_unit, s->analysis);
    gaps_histograms_result(&layout, s->words, out);
}

int gaps_state_vary_list(const gaps_state *s, gaps_variation *out)
{
    gaps_variation tmp[GAPS_VARY_MAX];
    if (!s->vary) return 0;
    const int hadronic = s->process >= 0 && s->process < GAPS_N_PROCESSES
                         && gaps_process_table[s->process].hadronic;
    return gaps_vary_list(s->vary, hadronic, s->alphas_mz, &s->vary_pdf, out ? out : tmp);
}

void gaps_state_vary_result(const gaps_state *s, int v, gaps_hist_result *out)
{
    gaps_histograms layout;
    gaps_histograms_layout(&layout, 1, s->w_unit, s->analysis);
    gaps_histograms_result(&layout, s->vary_words + (size_t)v * (size_t)state_words(s->analysis),
                           out);
}

/* --vary's value as the option takes it */
static void vary_text(int bits, char *buf, size_t len)
{
    static const char *names[] = { "shower", "scales", "alphas", "pdf" };   /* bits 1, 2, 4, 8 */
    if (bits == 0) {
        snprintf(buf, len, "none");
        return;
    }
    if (bits & ~GAPS_VARY_KNOWN) {
        snprintf(buf, len, "0x%x", (unsigned)bits);
        return;
    }
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; k < 4; ++k)
        if (bits & (1 << k) && at < len)
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "," : "", names[k]);
}

const char *gaps_state_vary_differ(const gaps_state *a, const gaps_state *b, char *va,
                                   char *vb, size_t len)
{
    if (a->vary != b->vary) {
        vary_text(a->vary, va, len);
        vary_text(b->vary, vb, len);
        return "vary";
    }
    if (memcmp(&a->shower_mur_factor, &b->shower_mur_factor, sizeof a->shower_mur_factor)) {
        snprintf(va, len, "%.17g", a->shower_mur_factor);
        snprintf(vb, len, "%.17g", b->shower_mur_factor);
        return "shower-mur-factor";
    }
    if (a->vary_pdf.members != b->vary_pdf.members || a->vary_pdf.set_index != b->vary_pdf.set_index
        || a->vary_pdf.errors != b->vary_pdf.errors
        || a->vary_pdf.alphas_members != b->vary_pdf.alphas_members
        || a->vary_pdf.conf_level != b->vary_pdf.conf_level
        || a->vary_pdf_digest != b->vary_pdf_digest) {
        snprintf(va, len, "%d members (SetIndex %ld, digest %016" PRIx64 ")", a->vary_pdf.members,
                 a->vary_pdf.set_index, a->vary_pdf_digest);
        snprintf(vb, len, "%d members (SetIndex %ld, digest %016" PRIx64 ")", b->vary_pdf.members,
                 b->vary_pdf.set_index, b->vary_pdf_digest);
        return "vary pdf";
    }
    return NULL;
}

/* ---- the file ---- */

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

typedef struct bytes {
    unsigned char *p;
    size_t n, cap;
    int bad;   /* read past the end */
} bytes;

static void put_u64(bytes *b, uint64_t v)
{
    for (int i = 0; i < 8; ++i) b->p[b->n++] = (unsigned char)(v >> (8 * i));
}
static void put_u32(bytes *b, uint32_t v)
{
    for (int i = 0; i < 4; ++i) b->p[b->n++] = (unsigned char)(v >> (8 * i));
}
static void put_f64(bytes *b, double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    put_u64(b, v);
}
static uint64_t get_u64(bytes *b)
{
    uint64_t v = 0;
    if (b->n + 8 > b->cap) { b->bad = 1; return 0; }
    for (int i = 0; i < 8; ++i) v |= (uint64_t)b->p[b->n++] << (8 * i);
    return v;
}
static uint32_t get_u32(bytes *b)
{
    uint32_t v = 0;
    if (b->n + 4 > b->cap) { b->bad = 1; return 0; }
    for (int i = 0; i < 4; ++i) v |= (uint32_t)b->p[b->n++] << (8 * i);
    return v;
}
static double get_f64(bytes *b)
{
    const uint64_t v = get_u64(b);
    double d;
    memcpy(&d, &v, 8);
    return d;
}

/* The parameters of the list, in its order: reals as f64, integers and names (by their
 * number) as u64, a PDF set as its name (GAPS_PDF_NAME_MAX bytes, NUL padded) and member
 * (u64).  Parameters the state does not record take no bytes. */
static void put_params(bytes *b, const gaps_state *s)
{
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (!p->in_state) continue;
        const void *field = gaps_param_in_state(p, s);
        switch (p->type) {
        case GAPS_PT_REAL:
        case GAPS_PT_UNIT: {
            double v;
            memcpy(&v, field, sizeof v);
            put_f64(b, v);
            break;
        }
        case GAPS_PT_INT:
        case GAPS_PT_PROCESS:
        case GAPS_PT_COMPAT:
        case GAPS_PT_ABLATE:
        case GAPS_PT_ANALYSIS:
        case GAPS_PT_CHOICE: {
            int v;
            memcpy(&v, field, sizeof v);
            put_u64(b, (uint64_t)(int64_t)v);
            break;
        }
        case GAPS_PT_U32: {
            uint32_t v;
            memcpy(&v, field, sizeof v);
            put_u64(b, v);
            break;
        }
        case GAPS_PT_PDF:
        case GAPS_PT_PATH: {
            char name[GAPS_PDF_NAME_MAX];
            int member = 0;
            memset(name, 0, sizeof name);
            if (((const char *)field)[0] && gaps_pdf_spec_parse(field, name, &member) != 0)
                memset(name, 0, sizeof name);   /* gaps_state_init() wrote a valid one */
            memcpy(b->p + b->n, name, sizeof name);
            b->n += sizeof name;
            put_u64(b, (uint64_t)member);
            break;
        }
        }
    }
}

/* The parameters as put_params() wrote them.  0, or -1 with the reason (after "'path' is
 * corrupt (") when a value cannot be one of its type. */
static int get_params(bytes *b, gaps_state *s, char *msg, size_t len)
{
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (!p->in_state) continue;
        void *field = (char *)s + p->state_offset;
        switch (p->type) {
        case GAPS_PT_REAL:
        case GAPS_PT_UNIT: {
            const double v = get_f64(b);
            memcpy(field, &v, sizeof v);
            break;
        }
        case GAPS_PT_INT:
        case GAPS_PT_PROCESS:
        case GAPS_PT_COMPAT:
        case GAPS_PT_ABLATE:
        case GAPS_PT_ANALYSIS:
        case GAPS_PT_CHOICE:
        case GAPS_PT_U32: {
            const uint64_t v = get_u64(b);
            if (!b->bad && !((double)v >= p->lo && (double)v <= p->hi))
                return snprintf(msg, len, "parameter --%s is %" PRIu64 ", outside %.17g..%.17g",
                                p->option, v, p->lo, p->hi), -1;
            if (p->type == GAPS_PT_U32) {
                const uint32_t u = (uint32_t)v;
                memcpy(field, &u, sizeof u);
            } else {
                const int i = (int)v;
                memcpy(field, &i, sizeof i);
            }
            break;
        }
        case GAPS_PT_PDF:
        case GAPS_PT_PATH: {
            if (b->n + GAPS_PDF_NAME_MAX > b->cap) { b->bad = 1; return 0; }
            const unsigned char *name = b->p + b->n;
            b->n += GAPS_PDF_NAME_MAX;
            const uint64_t member = get_u64(b);
            if (b->bad) return 0;
            size_t n = 0;
            while (n < GAPS_PDF_NAME_MAX && name[n]) ++n;
            for (size_t i = n; i < GAPS_PDF_NAME_MAX; ++i)
                if (name[i]) return snprintf(msg, len, "the PDF set name is not NUL-padded"), -1;
            char spec[GAPS_PDF_SPEC_MAX], check[GAPS_PDF_NAME_MAX];
            int m;
            memset(field, 0, p->size);
            if (n == 0) {
                if (member != 0)
                    return snprintf(msg, len, "PDF member %" PRIu64 " without a set", member), -1;
                break;
            }
            if (member > GAPS_PDF_MAX_MEMBER)
                return snprintf(msg, len, "PDF member %" PRIu64 " beyond %d", member,
                                GAPS_PDF_MAX_MEMBER), -1;
            snprintf(spec, sizeof spec, "%.*s/%d", (int)n, (const char *)name, (int)member);
            if (n == GAPS_PDF_NAME_MAX || gaps_pdf_spec_parse(spec, check, &m) != 0)
                return snprintf(msg, len, "the PDF set name is not a set name"), -1;
            memcpy(field, spec, strlen(spec) + 1);
            break;
        }
        }
    }
    return 0;
}

int gaps_state_write(FILE *f, const gaps_state *s, const gaps_resume_point *rp)
{
    bytes b = { malloc(MAX_FILE_BYTES), 0, MAX_FILE_BYTES, 0 };
    if (!b.p) return -1;
    memcpy(b.p, MAGIC, 8);
    b.n = 8;
    put_u32(&b, GAPS_STATE_FORMAT);
    put_u32(&b, rp ? KIND_CHECKPOINT : KIND_STATE);
    memset(b.p + b.n, 0, 32);
    memcpy(b.p + b.n, s->version, strnlen(s->version, 31));
    b.n += 32;
    put_params(&b, s);
    put_u64(&b, s->pdf_digest);
    put_f64(&b, s->w_unit);
    put_u64(&b, s->events);
    put_u64(&b, s->capacity_hits);
    put_u64(&b, s->invalid_events);
    put_u64(&b, s->bad_weights);
    put_u32(&b, (uint32_t)gaps_analysis_table[s->analysis].total_bins);
    put_u32(&b, GAPS_ACC_WORDS);
    put_u32(&b, (uint32_t)s->n_ranges);
    put_u32(&b, 0);   /* reserved */
    for (int i = 0; i < s->n_ranges; ++i) {
        put_u64(&b, (uint64_t)s->range[i].begin);
        put_u64(&b, (uint64_t)s->range[i].end);
    }
    for (long i = 0; i < state_words(s->analysis); ++i) put_u64(&b, s->words[i]);
    /* the variations (format 9): --vary, --shower-mur-factor, the safeguards' counts, the
     * sums of each variation */
    put_u64(&b, (uint64_t)(int64_t)s->vary);
    put_f64(&b, s->shower_mur_factor);
    put_u64(&b, s->vary_over_events);
    put_u64(&b, s->vary_large_events);
    if (s->vary & GAPS_VARY_PDF) {   /* (a state of format 9 before --vary pdf has no bit 8) */
        put_u64(&b, (uint64_t)(int64_t)s->vary_pdf.members);
        put_u64(&b, (uint64_t)(int64_t)s->vary_pdf.set_index);
        put_u64(&b, (uint64_t)s->vary_pdf.errors | (uint64_t)s->vary_pdf.alphas_members << 8);
        put_f64(&b, s->vary_pdf.conf_level);
        put_u64(&b, s->vary_pdf_digest);
    }
    const long vary_words = gaps_state_vary_list(s, NULL) * state_words(s->analysis);
    for (long i = 0; i < vary_words; ++i) put_u64(&b, s->vary_words[i]);
    if (rp) {
        put_u64(&b, (uint64_t)rp->first_event);
        put_u64(&b, (uint64_t)rp->events);
        put_u64(&b, (uint64_t)rp->next_event);
        put_u64(&b, (uint64_t)rp->rows_offset);
        put_u64(&b, (uint64_t)rp->hepmc_offset);
        put_u64(&b, rp->hepmc_n);
        put_f64(&b, rp->hepmc_sum_w);
        put_f64(&b, rp->hepmc_sum_w2);
        put_u64(&b, rp->launches);
        put_u64(&b, rp->veto_cycles);
        put_u64(&b, rp->file_digest);
        put_u64(&b, rp->hepmc_n_weights);
        for (uint32_t k = 0; k < 2 * rp->hepmc_n_weights; ++k) put_f64(&b, rp->hepmc_sum_wk[k]);
    }
    put_u32(&b, crc32_of(b.p, b.n));
    const int ok = fwrite(b.p, 1, b.n, f) == b.n;
    free(b.p);
    return ok && !ferror(f) ? 0 : -1;
}

/* |a| <= count x 2^GAPS_FIXED_TERM_BITS for a 192-bit accumulator a: what count contributions
 * of accepted weights can sum to at most. */
static int sum_within(const uint64_t *a, uint64_t count)
{
    uint64_t m[3] = { a[0], a[1], a[2] };
    if (a[2] >> 63) {
        m[0] = ~m[0] + 1u;
        m[1] = ~m[1] + (m[0] == 0 ? 1u : 0u);
        m[2] = ~m[2] + (m[0] == 0 && m[1] == 0 ? 1u : 0u);
    }
    /* count < 2^63 here: count << 126 spans words 1 and 2 */
    const int sh = GAPS_FIXED_TERM_BITS - 64;
    const uint64_t bound[3] = { 0, count << sh, count >> (64 - sh) };
    for (int k = 2; k >= 0; --k)
        if (m[k] != bound[k]) return m[k] < bound[k];
    return 1;
}

/* Cauchy-Schwarz for the rounded sums of one bin: count entries of real values a_i (in
 * quanta) rounded to r_i (sum s1) with a_i^2 2^-40 rounded to t_i (sum s2), each by at most
 * 1/2, give |s1| <= sum |a_i| + n/2 <= sqrt(n 2^40 (s2 + n/2)) + n/2.  Evaluated in double
 * precision with a relative margin of 1e-12, far above its rounding (a few 2^-53): a state
 * a run made always passes. */
static int sums_consistent(const uint64_t *a, uint64_t count)
{
    /* |sum w| negated in integers first: the value of a small negative sum would lose its
     * low bits (gaps_fixed_value adds its words as format 1 did) */
    uint64_t m[3] = { a[GAPS_ACC_SUMW], a[GAPS_ACC_SUMW + 1], a[GAPS_ACC_SUMW + 2] };
    if (m[2] >> 63) {
        m[0] = ~m[0] + 1u;
        m[1] = ~m[1] + (m[0] == 0 ? 1u : 0u);
        m[2] = ~m[2] + (m[0] == 0 && m[1] == 0 ? 1u : 0u);
    }
    const double n = (double)count;
    const double s1 = ((double)m[2] * 0x1.0p64 + (double)m[1]) * 0x1.0p64 + (double)m[0];
    const double s2 = gaps_fixed_value(a + GAPS_ACC_SUMW2);   /* >= 0: checked before */
    return s1 <= (sqrt(n * GAPS_FIXED_SCALE * (s2 + 0.5 * n)) + 0.5 * n) * (1.0 + 1e-12);
}

/* The sums of one copy of the histograms (the nominal ones, or a variation's: the same
 * events with other weights, so the same bounds): 0, or -1 with the reason, after `what`. */
static int check_sums(const gaps_state *s, const uint64_t *words, const char *what, char *msg,
                      size_t len)
{
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, s->w_unit, s->analysis);
    const gaps_analysis_info *info = &gaps_analysis_table[s->analysis];
    /* the sums: no bin holds more entries than events, every histogram at most one per
     * event, the event counter exactly one per event in its bin and at most one (the events
     * of negative weight, with a sum of weights <= 0) in its underflow; sums of squares are
     * not negative and no sum exceeds what its entries can add up to (so that merges cannot
     * overflow) */
    for (int id = 0; id <= h.n_hists; ++id) {
        /* a histogram of two columns (leptpt) has two entries per event, the event counter
         * up to three (its bin, its underflow for a negative weight, its overflow for an
         * imprecise one) */
        const uint64_t per_event = id == h.n_hists ? 3
                                   : info->hist[id].column2 != GAPS_OBS_NONE ? 2 : 1;
        uint64_t entries = 0;
        for (int b = 0; b < h.nbins[id] + 2; ++b) {
            const int bin = h.offset[id] + b;
            const uint64_t *a = words + (long)bin * GAPS_ACC_WORDS;
            const uint64_t count = a[GAPS_ACC_COUNT];
            if (count > per_event * s->events)
                return snprintf(msg, len, "%sbin %d has %" PRIu64 " entries among %" PRIu64
                                " events", what, bin, count, s->events), -1;
            /* (entries <= per_event x events <= 2^63: the difference cannot wrap) */
            if (count > per_event * s->events - entries)
                return snprintf(msg, len, "%shistogram %d has %" PRIu64 "+ entries among %"
                                PRIu64 " events", what, id, entries + count, s->events), -1;
            entries += count;
            if (a[GAPS_ACC_SUMW2 + 2] >> 63)
                return snprintf(msg, len, "%sbin %d has a negative sum of squared weights", what,
                                bin),
                       -1;
            for (int k = 0; k < 4; ++k)
                if (!sum_within(a + k * GAPS_ACC_SUM_WORDS, count))
                    return snprintf(msg, len, "%sbin %d has a sum beyond what its %" PRIu64
                                    " entries can make", what, bin, count), -1;
            if (!sums_consistent(a, count))
                return snprintf(msg, len, "%sbin %d has a sum of weights larger than its %" PRIu64
                                " entries and sum of squared weights allow ((sum w)^2 > n "
                                "sum w^2)", what, bin, count), -1;
            if (id == h.n_hists && (b == 1 ? count != s->events : count > s->events))
                return snprintf(msg, len, "%sthe event counter has %" PRIu64 " entries in bin %d "
                                "for %" PRIu64 " events", what, count, b, s->events), -1;
            if (id == h.n_hists && b != 1
                && (b == 0) != ((a[GAPS_ACC_SUMW + 2] >> 63) != 0)
                && (a[GAPS_ACC_SUMW] | a[GAPS_ACC_SUMW + 1] | a[GAPS_ACC_SUMW + 2]) != 0)
                return snprintf(msg, len, "%sthe events of %s (bin %d) have a %s sum of weights",
                                what, b == 0 ? "negative weight" : "imprecise weight", bin,
                                b == 0 ? "positive" : "negative"), -1;
        }
    }
    return 0;
}

/* The meaning of every field, once the bytes are known to be a state of this format: the
 * parameters within the program's limits, counts within the events, sums a run can make, a
 * resume point inside its run.  0, or -1 with the reason (after "'path' is corrupt (") in
 * msg. */
static int check_meaning(const gaps_state *s, const unsigned char *version, int kind,
                         uint32_t reserved, const gaps_resume_point *r, char *msg, size_t len)
{
    /* the version: printable ASCII, NUL-terminated within its field, then NUL padding */
    size_t n = 0;
    while (n < 32 && version[n]) ++n;
    if (n == 0 || n == 32)
        return snprintf(msg, len, "the version field is %s", n ? "not NUL-terminated"
                                                                : "empty"), -1;
    for (size_t i = 0; i < 32; ++i)
        if (i < n ? version[i] < 0x20 || version[i] > 0x7e : version[i] != 0)
            return snprintf(msg, len, "byte %zu of the version field is 0x%02x", i,
                            version[i]), -1;
    if (reserved)
        return snprintf(msg, len, "the reserved field is not 0"), -1;
    /* the parameters: what the option parser and gaps_config_check allow */
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    cfg.events = 1;
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (p->in_state)
            memcpy((char *)&cfg + p->cfg_offset, gaps_param_in_state(p, s), p->size);
    }
    cfg.vary = s->vary;   /* (bits the program knows: the reader checked them) */
    cfg.shower_mur_factor = s->shower_mur_factor;
    char why[256];
    if (gaps_config_check(&cfg, why, sizeof why) != 0)
        return snprintf(msg, len, "parameters outside the program's limits: %s", why), -1;
    /* the PDF set as gaps_state_init() records it: named in full for hadron beams */
    char spec[GAPS_PDF_SPEC_MAX];
    gaps_config_pdf_spec(&cfg, spec);
    if (strcmp(spec, s->pdf) != 0)
        return snprintf(msg, len, "PDF set '%s' for --process %s", s->pdf[0] ? s->pdf : "none",
                        gaps_process_table[s->process].name), -1;
    if (!(s->w_unit >= MIN_W_UNIT && s->w_unit <= MAX_W_UNIT))
        return snprintf(msg, len, "weight unit %.17g pb outside [2^-100, 2^100]", s->w_unit), -1;
    /* counts */
    const uint64_t *c[3] = { &s->capacity_hits, &s->invalid_events, &s->bad_weights };
    const char *cname[3] = { "capacity hits", "failed events", "bad weights" };
    for (int k = 0; k < 3; ++k)
        if (*c[k] > s->events)
            return snprintf(msg, len, "%" PRIu64 " %s among %" PRIu64 " events", *c[k], cname[k],
                            s->events), -1;
    /* ranges: sorted, disjoint, not adjacent, within [0, 2^62]; they cover the events */
    int64_t covered = 0;
    for (int i = 0; i < s->n_ranges; ++i) {
        if (s->range[i].begin < 0 || s->range[i].end <= s->range[i].begin
            || s->range[i].end > GAPS_MAX_EVENT_NUMBER
            || (i > 0 && s->range[i].begin <= s->range[i - 1].end))
            return snprintf(msg, len, "bad event range table"), -1;
        covered += s->range[i].end - s->range[i].begin;
    }
    if ((uint64_t)covered != s->events)
        return snprintf(msg, len, "%" PRIu64 " events for ranges covering %" PRId64, s->events,
                        covered), -1;
    if (check_sums(s, s->words, "", msg, len) != 0) return -1;
    /* --vary: the safeguards' counts within the events, and each variation's sums (none
     * without --vary: its counts are 0) */
    gaps_variation vars[GAPS_VARY_MAX];
    const int n_vary = gaps_state_vary_list(s, vars);
    if ((s->vary & GAPS_VARY_PDF)
        && !(s->process >= 0 && s->process < GAPS_N_PROCESSES
             && gaps_process_table[s->process].hadronic))
        return snprintf(msg, len, "--vary pdf in a state of %s, which has no parton densities",
                        gaps_process_table[s->process].name), -1;
    if (s->vary_over_events > (n_vary ? s->events : 0)
        || s->vary_large_events > (n_vary ? s->events : 0))
        return snprintf(msg, len, "%" PRIu64 " and %" PRIu64 " events counted by the variations' "
                        "safeguards among %" PRIu64 " events%s", s->vary_over_events,
                        s->vary_large_events, s->events, n_vary ? "" : " of a run without --vary"),
               -1;
    for (int v = 0; v < n_vary; ++v) {
        char what[GAPS_VARY_NAME_MAX + 16];
        snprintf(what, sizeof what, "variation %.*s: ", GAPS_VARY_NAME_MAX - 1, vars[v].name);
        if (check_sums(s, s->vary_words + (long)v * state_words(s->analysis), what, msg, len)
            != 0)
            return -1;
    }
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, s->w_unit, s->analysis);
    if (kind != KIND_CHECKPOINT) return 0;
    /* the resume point: a run the option parser allows, the next event inside it, the state
     * covering exactly the events before it, stream offsets and running sums possible */
    if (r->events < 1 || r->events > GAPS_MAX_EVENT_NUMBER || r->first_event < 0
        || r->first_event > GAPS_MAX_EVENT_NUMBER - r->events)
        return snprintf(msg, len, "the checkpoint's run of %" PRId64 " events from %" PRId64
                        " is outside the program's limits", r->events, r->first_event), -1;
    if (r->next_event < r->first_event || r->next_event - r->first_event > r->events)
        return snprintf(msg, len, "the checkpoint's next event %" PRId64 " lies outside its run "
                        "[%" PRId64 ", +%" PRId64 ")", r->next_event, r->first_event,
                        r->events), -1;
    const int64_t done = r->next_event - r->first_event;
    if (done > 0 ? s->n_ranges != 1 || s->range[0].begin != r->first_event
                   || s->range[0].end != r->next_event
                 : s->n_ranges != 0)
        return snprintf(msg, len, "the checkpoint's events are not those before its next event "
                        "%" PRId64, r->next_event), -1;
    if (r->rows_offset < -1 || r->hepmc_offset < -1)
        return snprintf(msg, len, "stream offsets %" PRId64 " and %" PRId64 " (at least -1)",
                        r->rows_offset, r->hepmc_offset), -1;
    /* a digest of the file's events exactly when the hard events come from a file */
    if ((r->file_digest != 0) != (gaps_process_table[s->process].from_file != 0))
        return snprintf(msg, len, "event-file digest %016" PRIx64 " for %s", r->file_digest,
                        gaps_process_table[s->process].from_file
                        ? "a run of hard events from a file" : "a built-in process"), -1;
    /* (weights that are not finite make the running sums so too: only with bad weights) */
    if (r->hepmc_n > (uint64_t)done || r->hepmc_sum_w2 < 0
        || ((!isfinite(r->hepmc_sum_w) || !isfinite(r->hepmc_sum_w2)) && s->bad_weights == 0)
        || (r->hepmc_n == 0 && (r->hepmc_sum_w != 0 || r->hepmc_sum_w2 != 0)))
        return snprintf(msg, len, "impossible HepMC3 running sums (%" PRIu64 " events, %.17g, "
                        "%.17g)", r->hepmc_n, r->hepmc_sum_w, r->hepmc_sum_w2), -1;
    if (r->hepmc_n > 0 && s->bad_weights == 0) {
        /* The running sums are of the same events' weights as the exact sums (in event
         * order, in double precision): within the rounding of both they must agree with the
         * event counter's sums (all of them, or at most them for a stream begun later), and
         * obey Cauchy-Schwarz themselves.  rel: the double sums' relative error, generously */
        const uint64_t *a = s->words + (long)(h.offset[h.n_hists] + 1) * GAPS_ACC_WORDS;
        const double n = (double)r->hepmc_n, unit = s->w_unit;
        const double sw = gaps_fixed_value(a + GAPS_ACC_SUMW) * (unit / GAPS_FIXED_SCALE);
        const double sw2 = gaps_fixed_value(a + GAPS_ACC_SUMW2) * (unit / GAPS_FIXED_SCALE) * unit;
        const double rel = 1e-9 + n * 0x1.0p-50;
        const double big2 = fmax(sw2, r->hepmc_sum_w2);
        /* (2^12 quanta more: the value of a negative sum is off by up to 2^11 quanta) */
        const double tol1 = ((double)s->events * 0.5 + 0x1.0p12) / GAPS_FIXED_SCALE * unit
                            + rel * sqrt((double)s->events * big2);
        const double tol2 = (double)s->events * 0.5 / GAPS_FIXED_SCALE * unit * unit + rel * big2;
        const char *what = NULL;
        if (!(r->hepmc_sum_w * r->hepmc_sum_w <= n * r->hepmc_sum_w2 * (1.0 + rel)))
            what = "(sum w)^2 > n sum w^2";
        else if (!(r->hepmc_sum_w2 <= sw2 + tol2))
            what = "a sum of squared weights above the state's";
        else if (r->hepmc_n == (uint64_t)done
                 && !(fabs(r->hepmc_sum_w - sw) <= tol1 && fabs(r->hepmc_sum_w2 - sw2) <= tol2))
            what = "sums of weights other than the state's";
        if (what)
            return snprintf(msg, len, "HepMC3 running sums (%" PRIu64 " events, sum w %.17g, sum "
                            "w^2 %.17g) with %s (%.17g, %.17g)", r->hepmc_n, r->hepmc_sum_w,
                            r->hepmc_sum_w2, what, sw, sw2), -1;
    }
    /* the named weights' running sums: only with a HepMC3 stream; each obeys what the
     * nominal one does (the weights may be any sign: a file's own, --vary's) */
    if (r->hepmc_n_weights > 0 && r->hepmc_offset < 0)
        return snprintf(msg, len, "running sums of %u named HepMC3 weights without a HepMC3 "
                        "stream", r->hepmc_n_weights), -1;
    for (uint32_t k = 0; k < r->hepmc_n_weights; ++k) {
        const double sk = r->hepmc_sum_wk[2 * k], sk2 = r->hepmc_sum_wk[2 * k + 1];
        const double n = (double)r->hepmc_n;
        if (!(sk2 >= 0) || (r->hepmc_n == 0 && (sk != 0 || sk2 != 0))
            || ((!isfinite(sk) || !isfinite(sk2)) && s->bad_weights == 0)
            || (isfinite(sk2) && !(sk * sk <= n * sk2 * (1.0 + 1e-9 + n * 0x1.0p-50))))
            return snprintf(msg, len, "impossible running sums of named HepMC3 weight %u "
                            "(%.17g, %.17g over %" PRIu64 " events)", k + 1, sk, sk2,
                            r->hepmc_n), -1;
    }
    if (r->launches > (uint64_t)INT64_MAX || r->veto_cycles > (uint64_t)INT64_MAX)
        return snprintf(msg, len, "work counters beyond 2^63"), -1;
    return 0;
}

int gaps_state_read(const char *path, gaps_state *s, gaps_resume_point *rp, char *msg,
                    size_t len)
{
    /* a regular file only: a FIFO would block the open for ever (io/input_file.h) */
    const char *not_regular;
    FILE *f = gaps_open_input(path, &not_regular);
    if (!f && not_regular)
        return snprintf(msg, len, "cannot read '%s': not a regular file (%s)", path,
                        not_regular), -1;
    if (!f) return snprintf(msg, len, "cannot read '%s': %s", path, strerror(errno)), -1;
    bytes b = { malloc(MAX_FILE_BYTES + 1), 0, 0, 0 };
    if (!b.p) { fclose(f); return snprintf(msg, len, "out of memory"), -1; }
    b.cap = fread(b.p, 1, MAX_FILE_BYTES + 1, f);
    const int read_error = ferror(f);
    fclose(f);
    int rc = -1;
    memset(s, 0, sizeof *s);
    if (read_error) {
        snprintf(msg, len, "cannot read '%s': read error", path);
    } else if (b.cap < 12 || memcmp(b.p, MAGIC, 8) != 0) {
        snprintf(msg, len, "'%s' is not a gaps state file", path);
    } else if (b.cap > MAX_FILE_BYTES || b.cap < 16 + 4
               || crc32_of(b.p, b.cap - 4) != (b.n = b.cap - 4, get_u32(&b))) {
        /* (every file of formats 1 and 2 is smaller than the limit: its version is read
         * below) */
        snprintf(msg, len, "'%s' is corrupt or truncated (checksum mismatch)", path);
    } else {
        b.n = 8;
        b.cap -= 4;   /* the CRC is not content */
        const uint32_t format = get_u32(&b), kind = get_u32(&b);
        if (format != GAPS_STATE_FORMAT) {
            snprintf(msg, len, "'%s' is state format %u, this program reads format %d", path,
                     format, GAPS_STATE_FORMAT);
            goto done;
        }
        if (kind != KIND_STATE && kind != KIND_CHECKPOINT) {
            snprintf(msg, len, "'%s' is corrupt (unknown kind %u)", path, kind);
            goto done;
        }
        if (rp && kind != KIND_CHECKPOINT) {
            snprintf(msg, len, "'%s' is a state file, not a checkpoint", path);
            goto done;
        }
        gaps_resume_point tmp, *r = rp ? rp : &tmp;
        memset(&tmp, 0, sizeof tmp);
        uint32_t reserved = 0;
        const unsigned char *version = b.p + b.n;
        if (b.n + 32 > b.cap) { b.bad = 1; goto check; }
        memcpy(s->version, b.p + b.n, 31);
        b.n += 32;
        char pwhy[256];
        if (get_params(&b, s, pwhy, sizeof pwhy) != 0) {
            snprintf(msg, len, "'%s' is corrupt (%s)", path, pwhy);
            goto done;
        }
        /* the analysis is a parameter, read and range-checked with the others */
        const uint32_t analysis = (uint32_t)s->analysis;
        /* a digest exactly when there is a PDF set (0 stands for none) */
        s->pdf_digest = get_u64(&b);
        if (!b.bad && (s->pdf_digest != 0) != (s->pdf[0] != '\0')) {
            snprintf(msg, len, "'%s' is corrupt (PDF digest %016" PRIx64 " for %s)", path,
                     s->pdf_digest, s->pdf[0] ? s->pdf : "a process without a PDF set");
            goto done;
        }
        s->w_unit = get_f64(&b);
        s->events = get_u64(&b);
        s->capacity_hits = get_u64(&b);
        s->invalid_events = get_u64(&b);
        s->bad_weights = get_u64(&b);
        const uint32_t nbins = get_u32(&b), nwords = get_u32(&b), nranges = get_u32(&b);
        reserved = get_u32(&b);
        if (!b.bad && (nbins != (uint32_t)gaps_analysis_table[analysis].total_bins
                       || nwords != GAPS_ACC_WORDS || nranges > GAPS_STATE_MAX_RANGES)) {
            snprintf(msg, len, "'%s' is corrupt (histogram layout %u x %u for the %s analysis, "
                     "%u ranges)", path, nbins, nwords, gaps_analysis_table[analysis].name,
                     nranges);
            goto done;
        }
        s->n_ranges = (int)nranges;
        for (uint32_t i = 0; i < nranges && !b.bad; ++i) {
            s->range[i].begin = (int64_t)get_u64(&b);
            s->range[i].end = (int64_t)get_u64(&b);
        }
        for (long i = 0; i < state_words(s->analysis) && !b.bad; ++i) s->words[i] = get_u64(&b);
        /* the variations: as many copies of the words as the --vary bits give (bits no
         * program knows, none: check_meaning refuses them) */
        const uint64_t vary_bits = get_u64(&b);
        if (!b.bad && (vary_bits & ~(uint64_t)GAPS_VARY_KNOWN) != 0) {
            snprintf(msg, len, "'%s' is corrupt (--vary bits 0x%" PRIx64 ": only shower, "
                     "scales, alphas and pdf, 0x%x, exist)", path, vary_bits, (unsigned)GAPS_VARY_KNOWN);
            goto done;
        }
        s->vary = (int)vary_bits;
        s->shower_mur_factor = get_f64(&b);
        s->vary_over_events = get_u64(&b);
        s->vary_large_events = get_u64(&b);
        if (s->vary & GAPS_VARY_PDF) {
            const int64_t members = (int64_t)get_u64(&b), set_index = (int64_t)get_u64(&b);
            const uint64_t errors = get_u64(&b);
            const double conf_level = get_f64(&b);
            s->vary_pdf_digest = get_u64(&b);
            const uint64_t type = errors & 0xffu, alphas_members = errors >> 8;
            if (!b.bad && (members < 2 || members > GAPS_VARY_PDF_MAX + 1 || set_index < -1
                           || set_index > 100000000 || s->vary_pdf_digest == 0
                           || type > GAPS_PDF_ERRORS_REPLICAS
                           || (alphas_members != 0 && alphas_members != 2)
                           || (int64_t)alphas_members >= members
                           || !(conf_level >= 0.0 && conf_level < 100.0))) {
                snprintf(msg, len, "'%s' is corrupt (--vary pdf of %" PRId64 " members, SetIndex "
                         "%" PRId64 ", error type 0x%" PRIx64 ", confidence level %g)", path,
                         members, set_index, errors, conf_level);
                goto done;
            }
            s->vary_pdf.members = (int)members;
            s->vary_pdf.set_index = (long)set_index;
            s->vary_pdf.errors = (int)type;
            s->vary_pdf.alphas_members = (int)alphas_members;
            s->vary_pdf.conf_level = conf_level;
        }
        const long vary_words = gaps_state_vary_list(s, NULL) * state_words(s->analysis);
        for (long i = 0; i < vary_words && !b.bad; ++i) s->vary_words[i] = get_u64(&b);
        if (kind == KIND_CHECKPOINT) {
            r->first_event = (int64_t)get_u64(&b);
            r->events = (int64_t)get_u64(&b);
            r->next_event = (int64_t)get_u64(&b);
            r->rows_offset = (int64_t)get_u64(&b);
            r->hepmc_offset = (int64_t)get_u64(&b);
            r->hepmc_n = get_u64(&b);
            r->hepmc_sum_w = get_f64(&b);
            r->hepmc_sum_w2 = get_f64(&b);
            r->launches = get_u64(&b);
            r->veto_cycles = get_u64(&b);
            r->file_digest = get_u64(&b);
            const uint64_t nw = get_u64(&b);
            if (!b.bad && nw > GAPS_HEPMC_MAX_WEIGHTS) {
                snprintf(msg, len, "'%s' is corrupt (%" PRIu64 " named HepMC3 weights, at most "
                         "%d)", path, nw, GAPS_HEPMC_MAX_WEIGHTS);
                goto done;
            }
            r->hepmc_n_weights = (uint32_t)nw;
            for (uint64_t k = 0; k < 2 * nw && !b.bad; ++k) r->hepmc_sum_wk[k] = get_f64(&b);
        }
    check:
        if (b.bad || b.n != b.cap) {
            snprintf(msg, len, "'%s' is corrupt (%s)", path,
                     b.bad ? "shorter than its content" : "trailing bytes");
            goto done;
        }
        /* the content must mean something too */
        char why[512];
        if (check_meaning(s, version, (int)kind, reserved, r, why, sizeof why) != 0) {
            snprintf(msg, len, "'%s' is corrupt (%s)", path, why);
            goto done;
        }
        rc = 0;
    }
done:
    free(b.p);
    return rc;
}
