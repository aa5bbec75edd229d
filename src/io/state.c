/* state.c -- exact run states: ranges, merging, and the state/checkpoint file (doc/formats.md).
 *
 * The file is written byte by byte in little-endian order, so it reads the same on any host;
 * doubles travel as their IEEE bit patterns, never as text, so nothing is rounded.  A CRC-32
 * over everything before it ends the file: a truncated or altered file is refused instead of
 * silently giving wrong histograms. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/state.h"
#include "gaps/constants.h"
#include "gaps/matrix_element.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char MAGIC[8] = { 'G', 'A', 'P', 'S', 'S', 'T', 'A', 'T' };
enum { KIND_STATE = 1, KIND_CHECKPOINT = 2 };
#define N_WORDS (GAPS_HIST_TOTAL_BINS * GAPS_ACC_WORDS)
/* header + parameters + counts + range table + words + checkpoint + CRC, at most */
#define MAX_FILE_BYTES (16 + 32 + 40 + 24 + 16 + 16 * GAPS_STATE_MAX_RANGES + 8 * N_WORDS \
                        + 80 + 4)

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
    if (memcmp(&dst->ecm, &src->ecm, sizeof dst->ecm) || memcmp(&dst->alphas_mz,
        &src->alphas_mz, sizeof dst->ecm) || memcmp(&dst->t_cut, &src->t_cut, sizeof dst->ecm)
        || dst->alphas_order != src->alphas_order || dst->seed != src->seed
        || dst->max_partons != src->max_partons)
        return snprintf(msg, len, "different parameters (ecm %.17g/%.17g, alphas-mz %.17g/%.17g,"
                        " alphas-order %d/%d, tcut %.17g/%.17g, seed %u/%u, max-partons %d/%d)",
                        dst->ecm, src->ecm, dst->alphas_mz, src->alphas_mz, dst->alphas_order,
                        src->alphas_order, dst->t_cut, src->t_cut, dst->seed, src->seed,
                        dst->max_partons, src->max_partons), -1;
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
    dst->n_ranges = trial->n_ranges;
    memcpy(dst->range, trial->range, trial->n_ranges * sizeof dst->range[0]);
    free(trial);
    dst->events += src->events;
    dst->capacity_hits += src->capacity_hits;
    dst->invalid_events += src->invalid_events;
    gaps_histograms_accumulate(dst->words, src->words, GAPS_HIST_TOTAL_BINS);
    return 0;
}

void gaps_state_result(const gaps_state *s, gaps_hist_result *out)
{
    gaps_me me;
    gaps_histograms layout;
    gaps_me_init(&me, s->ecm);
    gaps_histograms_layout(&layout, 1, me.w_max);
    gaps_histograms_result(&layout, s->words, out);
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
    put_f64(&b, s->ecm);
    put_f64(&b, s->alphas_mz);
    put_f64(&b, s->t_cut);
    put_u32(&b, (uint32_t)s->alphas_order);
    put_u32(&b, s->seed);
    put_u32(&b, (uint32_t)s->max_partons);
    put_u32(&b, 0);   /* reserved */
    put_u64(&b, s->events);
    put_u64(&b, s->capacity_hits);
    put_u64(&b, s->invalid_events);
    put_u32(&b, GAPS_HIST_TOTAL_BINS);
    put_u32(&b, GAPS_ACC_WORDS);
    put_u32(&b, (uint32_t)s->n_ranges);
    put_u32(&b, 0);   /* reserved */
    for (int i = 0; i < s->n_ranges; ++i) {
        put_u64(&b, (uint64_t)s->range[i].begin);
        put_u64(&b, (uint64_t)s->range[i].end);
    }
    for (long i = 0; i < N_WORDS; ++i) put_u64(&b, s->words[i]);
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
    }
    put_u32(&b, crc32_of(b.p, b.n));
    const int ok = fwrite(b.p, 1, b.n, f) == b.n;
    free(b.p);
    return ok && !ferror(f) ? 0 : -1;
}

int gaps_state_read(const char *path, gaps_state *s, gaps_resume_point *rp, char *msg,
                    size_t len)
{
    FILE *f = fopen(path, "rb");
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
        snprintf(msg, len, "'%s' is corrupt or truncated (checksum mismatch)", path);
    } else {
        b.n = 8;
        b.cap -= 4;   /* the CRC is not content */
        const uint32_t format = get_u32(&b), kind = get_u32(&b);
        if (format != GAPS_STATE_FORMAT) {
            snprintf(msg, len, "'%s' has state format %u; this gaps reads format %d", path,
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
        if (b.n + 32 > b.cap) { b.bad = 1; goto check; }
        memcpy(s->version, b.p + b.n, 31);
        b.n += 32;
        s->ecm = get_f64(&b);
        s->alphas_mz = get_f64(&b);
        s->t_cut = get_f64(&b);
        s->alphas_order = (int)get_u32(&b);
        s->seed = get_u32(&b);
        s->max_partons = (int)get_u32(&b);
        (void)get_u32(&b);
        s->events = get_u64(&b);
        s->capacity_hits = get_u64(&b);
        s->invalid_events = get_u64(&b);
        const uint32_t nbins = get_u32(&b), nwords = get_u32(&b), nranges = get_u32(&b);
        (void)get_u32(&b);
        if (!b.bad && (nbins != GAPS_HIST_TOTAL_BINS || nwords != GAPS_ACC_WORDS
                       || nranges > GAPS_STATE_MAX_RANGES)) {
            snprintf(msg, len, "'%s' is corrupt (histogram layout %u x %u, %u ranges)", path,
                     nbins, nwords, nranges);
            goto done;
        }
        s->n_ranges = (int)nranges;
        for (uint32_t i = 0; i < nranges && !b.bad; ++i) {
            s->range[i].begin = (int64_t)get_u64(&b);
            s->range[i].end = (int64_t)get_u64(&b);
        }
        for (long i = 0; i < N_WORDS && !b.bad; ++i) s->words[i] = get_u64(&b);
        if (kind == KIND_CHECKPOINT) {
            gaps_resume_point tmp, *r = rp ? rp : &tmp;
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
        }
    check:
        if (b.bad || b.n != b.cap) {
            snprintf(msg, len, "'%s' is corrupt (%s)", path,
                     b.bad ? "shorter than its content" : "trailing bytes");
            goto done;
        }
        /* the content must be self-consistent too */
        int64_t covered = 0;
        for (int i = 0; i < s->n_ranges; ++i) {
            if (s->range[i].begin < 0 || s->range[i].end <= s->range[i].begin
                || s->range[i].end > GAPS_MAX_EVENT_NUMBER
                || (i > 0 && s->range[i].begin <= s->range[i - 1].end)) {
                snprintf(msg, len, "'%s' is corrupt (bad event range table)", path);
                goto done;
            }
            covered += s->range[i].end - s->range[i].begin;
        }
        if ((uint64_t)covered != s->events) {
            snprintf(msg, len, "'%s' is corrupt (%" PRIu64 " events for ranges covering %" PRId64
                     ")", path, s->events, covered);
            goto done;
        }
        rc = 0;
    }
done:
    free(b.p);
    return rc;
}
