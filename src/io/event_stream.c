/* event_stream.c -- the reorder buffer and the writers of per-event output. */
#define _POSIX_C_SOURCE 200809L
#include "io/event_stream.h"
#include "io/c_locale.h"
#include "io/fmt_double.h"
#include "io/input_file.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* A waiting event is one block: its row (if rows are written), then its record with its
 * partons packed (if events are written): weight, event number, n (in an 8-byte field),
 * 4 n momenta, 3 n ints; with --vary then the record's variation factors. */
static size_t block_size(const gaps_event_stream *s, int n)
{
    size_t bytes = 0;
    if (s->rows) bytes += gaps_row_stride(s->n_vary) * sizeof(double);
    if (s->hepmc) bytes += 2 * sizeof(double) + sizeof(int64_t) + 5 * n * sizeof(double)
                           + 4 * n * sizeof(int) + s->n_vary * sizeof(double);
    return bytes ? bytes : 1;
}

void gaps_rows_write_header(FILE *f, int analysis)
{
    fprintf(f, "# %s\n", gaps_analysis_table[analysis].csv_header);
}

void gaps_rows_write_header_named(FILE *f, int analysis, const char *const *weight_names,
                                  int n_weights)
{
    const char *h = gaps_analysis_table[analysis].csv_header;
    static const char common[] = "event,weight";   /* every header starts so */
    if (n_weights <= 0 || strncmp(h, common, sizeof common - 1) != 0) {
        gaps_rows_write_header(f, analysis);
        return;
    }
    fputs("# event,weight", f);
    for (int k = 0; k < n_weights; ++k) fprintf(f, ",weight[%s]", weight_names[k]);
    fprintf(f, "%s\n", h + sizeof common - 1);
}

/* One CSV row: event number, weight, with --vary the n_vary variation weights (the weight
 * times the factors after the analysis's n_columns), multiplicity and the observables, every
 * double as "%.17g" writes it (gaps_fmt_g17), so that it reads back bit for bit.  Formatted
 * into a buffer, written in one call. */
static void write_row(FILE *f, const double *r, int n_columns, int n_vary)
{
    char buf[32 * GAPS_OBS_MAX_COLUMNS], *s = buf;
    s += sprintf(s, "%" PRId64 ",", gaps_row_event(r));
    s = gaps_fmt_g17(s, r[GAPS_OBS_WEIGHT]);
    for (int v = 0; v < n_vary; ++v) {
        *s++ = ',';
        s = gaps_fmt_g17(s, r[GAPS_OBS_WEIGHT] * r[n_columns + v]);
    }
    s += sprintf(s, ",%d", (int)r[GAPS_OBS_NPARTONS]);
    for (int k = GAPS_OBS_FIRST; k < n_columns; ++k) {
        *s++ = ',';
        s = gaps_fmt_g17(s, r[k]);
    }
    *s++ = '\n';
    fwrite(buf, 1, (size_t)(s - buf), f);
}

/* Write event i of the given row/record arrays, the next in event order. */
static void write_event(gaps_event_stream *s, const double *row, const gaps_records *rec, int i)
{
    if (s->rows && row)
        write_row(s->rows, row, gaps_analysis_table[s->proc.analysis].n_columns, s->n_vary);
    if (s->hepmc && rec) {
        const double w = rec->weight[i];
        s->n++;
        s->sum_w += w;
        s->sum_w2 += w * w;
        const double mean = s->sum_w / (double)s->n;
        const double var = fmax(s->sum_w2 / (double)s->n - mean * mean, 0.0);
        const gaps_hepmc_xsec xs = { mean, sqrt(var / (double)s->n), (int64_t)s->n };
        /* the file's weights, then --vary's: the nominal weight times each factor, as the
         * analysis fills the variation histograms (src/analysis/analysis.c) */
        double wv[GAPS_HEPMC_MAX_WEIGHTS];
        const double *wk = NULL;
        const int n_file = s->n_weights - s->n_vary;
        if (s->n_weights) {
            const double *file = n_file > 0 ? s->weights_of(s->weights_ctx, rec->event[i])
                                            : NULL;
            if ((n_file == 0 || file) && rec->n_vary == s->n_vary) {
                if (n_file > 0) memcpy(wv, file, (size_t)n_file * sizeof *wv);
                for (int k = 0; k < s->n_vary; ++k)
                    wv[n_file + k] = w * rec->vary_w[(long)i * rec->n_vary + k];
                wk = wv;
            }
        }
        if (s->n_weights && !wk) {
            s->error = 1;
        } else {
            for (int k = 0; k < s->n_weights; ++k) {
                s->sum_wk[2 * k] += wk[k];
                s->sum_wk[2 * k + 1] += wk[k] * wk[k];
                const double m = s->sum_wk[2 * k] / (double)s->n;
                s->xs_k[2 * k] = m;
                s->xs_k[2 * k + 1] = sqrt(fmax(s->sum_wk[2 * k + 1] / (double)s->n - m * m, 0.0)
                                          / (double)s->n);
            }
            gaps_hepmc_write_event_named(s->hepmc, &s->proc, rec, i, &xs, wk, s->xs_k,
                                         s->n_weights);
        }
    }
    s->next++;
}

/* Unpack a waiting block into one-entry arrays and write it. */
static void write_block(gaps_event_stream *s, const unsigned char *b)
{
    double row[GAPS_OBS_MAX_COLUMNS];
    gaps_records rec;
    double p[4 * GAPS_MAX_PARTONS], x[GAPS_MAX_PARTONS], weight, vary_w[GAPS_VARY_MAX];
    int64_t event;
    int n = 0, flav[GAPS_MAX_PARTONS], col[GAPS_MAX_PARTONS], acol[GAPS_MAX_PARTONS];
    int status[GAPS_MAX_PARTONS];
    if (s->rows) {
        const size_t bytes = gaps_row_stride(s->n_vary) * sizeof(double);
        memcpy(row, b, bytes);
        b += bytes;
    }
    if (s->hepmc) {
        memcpy(&weight, b, sizeof weight);
        b += sizeof(double);
        memcpy(&event, b, sizeof event);
        b += sizeof event;
        memcpy(&n, b, sizeof n);
        b += sizeof(double);   /* n is stored in a double-sized field: keeps alignment simple */
        memcpy(p, b, 4 * n * sizeof(double));
        b += 4 * n * sizeof(double);
        memcpy(flav, b, n * sizeof(int));
        b += n * sizeof(int);
        memcpy(col, b, n * sizeof(int));
        b += n * sizeof(int);
        memcpy(acol, b, n * sizeof(int));
        b += n * sizeof(int);
        memcpy(x, b, n * sizeof(double));
        b += n * sizeof(double);
        memcpy(status, b, n * sizeof(int));
        b += n * sizeof(int);
        const int nv = s->n_vary;
        memcpy(vary_w, b, nv * sizeof(double));
        rec = (gaps_records){ .maxp = GAPS_MAX_PARTONS, .p = p, .x = x, .weight = &weight,
                              .n_vary = nv, .vary_w = vary_w,
                              .event = &event, .n = &n, .flav = flav, .col = col,
                              .acol = acol, .status = status };
    }
    write_event(s, s->rows ? row : NULL, s->hepmc ? &rec : NULL, 0);
}

/* Pack event i into a new block. */
static unsigned char *pack(const gaps_event_stream *s, const double *rows,
                           const gaps_records *rec, int i)
{
    const int n = rec ? rec->n[i] : 0;
    if (s->hepmc && s->n_vary && rec->n_vary != s->n_vary) return NULL;   /* cannot happen */
    unsigned char *block = malloc(block_size(s, n)), *b = block;
    if (!block) return NULL;
    if (s->rows) {
        const int stride = gaps_row_stride(s->n_vary);
        memcpy(b, rows + (long)i * stride, stride * sizeof(double));
        b += stride * sizeof(double);
    }
    if (s->hepmc) {
        const long base = (long)i * rec->maxp;
        memcpy(b, &rec->weight[i], sizeof(double));
        b += sizeof(double);
        memcpy(b, &rec->event[i], sizeof(int64_t));
        b += sizeof(int64_t);
        memcpy(b, &n, sizeof n);
        b += sizeof(double);
        memcpy(b, rec->p + base * 4, 4 * n * sizeof(double));
        b += 4 * n * sizeof(double);
        memcpy(b, rec->flav + base, n * sizeof(int));
        b += n * sizeof(int);
        memcpy(b, rec->col + base, n * sizeof(int));
        b += n * sizeof(int);
        memcpy(b, rec->acol + base, n * sizeof(int));
        b += n * sizeof(int);
        memcpy(b, rec->x + base, n * sizeof(double));
        b += n * sizeof(double);
        memcpy(b, rec->status + base, n * sizeof(int));
        b += n * sizeof(int);
        if (s->n_vary)
            memcpy(b, rec->vary_w + (long)i * rec->n_vary, rec->n_vary * sizeof(double));
    }
    return block;
}

/* Make room for event next + k in the ring (capacity a power of two). */
static int ring_reserve(gaps_event_stream *s, int64_t k)
{
    if (k < s->cap) return 0;
    int64_t cap = s->cap ? s->cap : 1024;
    while (cap <= k) cap *= 2;
    unsigned char **ring = calloc((size_t)cap, sizeof *ring);
    if (!ring) return -1;
    for (int64_t j = 0; j < s->cap; ++j) ring[j] = s->ring[(s->head + j) & (s->cap - 1)];
    free(s->ring);
    s->ring = ring;
    s->cap = cap;
    s->head = 0;
    return 0;
}

int gaps_event_stream_init(gaps_event_stream *s, FILE *rows, FILE *hepmc,
                           const gaps_process *proc, int maxp,
                           int64_t first, int continuing, const char *const *hepmc_attributes,
                           int n_hepmc_attributes, const gaps_event_stream_weights *weights)
{
    memset(s, 0, sizeof *s);
    if (weights && weights->n > 0) {
        if (weights->n > GAPS_HEPMC_MAX_WEIGHTS) return -1;
        if (weights->n_vary < 0 || weights->n_vary > GAPS_VARY_MAX
            || weights->n_vary > weights->n
            || (weights->n > weights->n_vary && !weights->weights_of))
            return -1;
        s->n_vary = weights->n_vary;
        s->sum_wk = calloc(2 * (size_t)weights->n, sizeof *s->sum_wk);
        s->xs_k = calloc(2 * (size_t)weights->n, sizeof *s->xs_k);
        if (!s->sum_wk || !s->xs_k) {
            free(s->sum_wk);
            free(s->xs_k);
            return -1;
        }
        s->n_weights = weights->n;
        s->weight_names = weights->names;
        s->weights_of = weights->weights_of;
        s->weights_ctx = weights->ctx;
    }
    s->rows = rows;
    s->hepmc = hepmc;
    s->proc = *proc;
    s->maxp = maxp;
    s->next = first;
    if (pthread_mutex_init(&s->lock, NULL) != 0) return -1;
    if (!continuing && rows)
        gaps_rows_write_header_named(rows, proc->analysis,
                                     s->weight_names + (s->n_weights - s->n_vary), s->n_vary);
    if (!continuing && hepmc)
        gaps_hepmc_write_header_named(hepmc, hepmc_attributes, n_hepmc_attributes,
                                      s->weight_names, s->n_weights);
    return 0;
}

int gaps_event_stream_add(gaps_event_stream *s, const double *rows, const gaps_records *records,
                          int n)
{
    pthread_mutex_lock(&s->lock);
    const gaps_c_locale saved = gaps_c_locale_enter();   /* "%.17g" with a '.' (c_locale.h) */
    for (int i = 0; i < n && !s->error; ++i) {
        const double *row = rows ? rows + (long)i * gaps_row_stride(s->n_vary) : NULL;
        const int64_t event = row ? gaps_row_event(row) : records->event[i];
        const int64_t k = event - s->next;
        if (k < 0) { s->error = 1; break; }   /* an event twice: cannot happen */
        if (k == 0) {
            write_event(s, row, records, i);
            if (s->cap) s->head = (s->head + 1) & (s->cap - 1);
            /* and every waiting event that is now next in line */
            while (s->pending > 0 && s->ring[s->head]) {
                unsigned char *b = s->ring[s->head];
                s->ring[s->head] = NULL;
                write_block(s, b);
                free(b);
                s->pending--;
                s->head = (s->head + 1) & (s->cap - 1);
            }
        } else {
            if (ring_reserve(s, k) != 0) { s->error = 1; break; }
            unsigned char *b = pack(s, rows, records, i);
            if (!b) { s->error = 1; break; }
            s->ring[(s->head + k) & (s->cap - 1)] = b;
            if (++s->pending > s->max_pending) s->max_pending = s->pending;
        }
    }
    if ((s->rows && ferror(s->rows)) || (s->hepmc && ferror(s->hepmc))) s->error = 1;
    const int rc = s->error ? -1 : 0;
    gaps_c_locale_leave(saved);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int gaps_event_stream_finish(gaps_event_stream *s)
{
    if (s->pending != 0) s->error = 1;
    if (s->hepmc) gaps_hepmc_write_footer(s->hepmc);
    if ((s->rows && ferror(s->rows)) || (s->hepmc && ferror(s->hepmc))) s->error = 1;
    return s->error ? -1 : 0;
}

void gaps_event_stream_free(gaps_event_stream *s)
{
    for (int64_t j = 0; j < s->cap; ++j) free(s->ring[j]);
    free(s->ring);
    free(s->sum_wk);
    free(s->xs_k);
    pthread_mutex_destroy(&s->lock);
    memset(s, 0, sizeof *s);
}

/* ---- where a resumed stream continues ---- */

/* Bytes of f from `at`, at most n, into buf; the count read (0 at or past the end). */
static size_t read_at(FILE *f, int64_t at, unsigned char *buf, size_t n)
{
    if (fseeko(f, (off_t)at, SEEK_SET) != 0) return 0;
    return fread(buf, 1, n, f);
}

/* Events of a HepMC3 file are at most this long (64 partons of ~150 bytes, and attributes). */
#define EVENT_TEXT_MAX 65536

int gaps_event_stream_check_resume(const char *part, int hepmc, int analysis, int64_t offset,
                                   int64_t first_event, int64_t next_event,
                                   const char *const *hepmc_attributes, int n_hepmc_attributes,
                                   const gaps_event_stream_weights *weights, char *msg,
                                   size_t len)
{
    /* a regular file only: a FIFO put in its place would block the open (or the read) for
     * ever (io/input_file.h) */
    const char *not_regular;
    FILE *f = gaps_open_input(part, &not_regular);
    if (!f && not_regular)
        return snprintf(msg, len, "'%s' is not a regular file (%s)", part, not_regular), -1;
    if (!f) return 0;   /* missing or unreadable: preparing the output says why */
    /* the header this run writes */
    char *head = NULL;
    size_t hl = 0;
    FILE *m = open_memstream(&head, &hl);
    if (!m) { fclose(f); return snprintf(msg, len, "out of memory"), -1; }
    const int n_w = weights ? weights->n : 0, n_v = weights ? weights->n_vary : 0;
    if (hepmc)
        gaps_hepmc_write_header_named(m, hepmc_attributes, n_hepmc_attributes,
                                      n_w ? weights->names : NULL, n_w);
    else
        gaps_rows_write_header_named(m, analysis, n_w ? weights->names + (n_w - n_v) : NULL, n_v);
    if (fclose(m) != 0 || !head) {
        free(head);
        fclose(f);
        return snprintf(msg, len, "out of memory"), -1;
    }
    const size_t window = hepmc ? EVENT_TEXT_MAX : 4096;
    unsigned char *buf = malloc(hl + window + 64);
    int rc = -1;
    if (!buf) {
        snprintf(msg, len, "out of memory");
        goto out;
    }
    /* the file is this run's: it starts with the header the run wrote */
    if (read_at(f, 0, buf, hl) != hl || memcmp(buf, head, hl) != 0) {
        snprintf(msg, len, "'%s' does not start with the header of this run", part);
        goto out;
    }
    if (offset < (int64_t)hl) {
        snprintf(msg, len, "the checkpoint's offset %" PRId64 " lies inside the header of '%s'",
                 offset, part);
        goto out;
    }
    char want[64];
    if (offset == (int64_t)hl) {   /* nothing after the header: no event was done */
        if (next_event != first_event) {
            snprintf(msg, len, "the checkpoint's offset %" PRId64 " in '%s' holds no event, but "
                     "%" PRId64 " are done", offset, part, next_event - first_event);
            goto out;
        }
    } else {
        /* the last line before the offset ends there and belongs to event next_event - 1:
         * its CSV row, or the last particle line of its HepMC3 event */
        if (next_event == first_event) {
            snprintf(msg, len, "the checkpoint's offset %" PRId64 " in '%s' lies past the "
                     "header, but no event is done", offset, part);
            goto out;
        }
        const int64_t from = offset - (int64_t)window > (int64_t)hl ? offset - (int64_t)window
                                                                    : (int64_t)hl;
        const size_t n = (size_t)(offset - from);
        if (read_at(f, from, buf, n) != n) {
            snprintf(msg, len, "the checkpoint's offset %" PRId64 " lies past the end of '%s'",
                     offset, part);
            rc = 0;   /* let preparing the output say so, with the file's size */
            goto out;
        }
        if (buf[n - 1] != '\n') {
            snprintf(msg, len, "the checkpoint's offset %" PRId64 " in '%s' is not at the end of "
                     "a line", offset, part);
            goto out;
        }
        size_t line = n - 1;   /* start of the last line */
        while (line > 0 && buf[line - 1] != '\n') --line;
        int ok;
        if (!hepmc) {
            snprintf(want, sizeof want, "%" PRId64 ",", next_event - 1);
            ok = (line > 0 || from == (int64_t)hl)
                 && n - line > strlen(want) && memcmp(buf + line, want, strlen(want)) == 0;
        } else {
            ok = n - line > 2 && memcmp(buf + line, "P ", 2) == 0;
            /* the event's first line: the last "E " line in the window */
            size_t e = line;
            while (ok && e > 0 && !(buf[e - 1] == '\n' && memcmp(buf + e, "E ", 2) == 0)) --e;
            snprintf(want, sizeof want, "E %" PRId64 " ", next_event - 1);
            ok = ok && (e > 0 || from == (int64_t)hl) && n - e > strlen(want)
                 && memcmp(buf + e, want, strlen(want)) == 0;
            /* and the event is complete: "E number vertices particles", then as many "P "
             * lines as it says, the last one ending at the offset */
            if (ok) {
                long vertices = -1, particles = -1, seen = 0;
                char text[96];
                const size_t tl = n - e < sizeof text - 1 ? n - e : sizeof text - 1;
                memcpy(text, buf + e, tl);
                text[tl] = '\0';
                int64_t number;
                ok = sscanf(text, "E %" SCNd64 " %ld %ld", &number, &vertices, &particles) == 3;
                for (size_t k = e; ok && k < n; ++k)
                    if ((k == e || buf[k - 1] == '\n') && k + 1 < n && buf[k] == 'P'
                        && buf[k + 1] == ' ')
                        ++seen;
                ok = ok && seen == particles;
            }
        }
        if (!ok) {
            snprintf(msg, len, "the checkpoint's offset %" PRId64 " in '%s' is not at the end of "
                     "event %" PRId64, offset, part, next_event - 1);
            goto out;
        }
    }
    /* what follows, if anything (a killed run may have written on, and stopped anywhere), is
     * the start of event next_event or of the file's end */
    const size_t after = read_at(f, offset, buf, 48);
    if (hepmc) snprintf(want, sizeof want, "E %" PRId64 " ", next_event);
    else snprintf(want, sizeof want, "%" PRId64 ",", next_event);
    const char *footer = "HepMC::Asciiv3-END_EVENT_LISTING";
    const size_t nw = after < strlen(want) ? after : strlen(want);
    const size_t nf = after < strlen(footer) ? after : strlen(footer);
    if (after > 0 && memcmp(buf, want, nw) != 0 && !(hepmc && memcmp(buf, footer, nf) == 0)) {
        snprintf(msg, len, "the checkpoint's offset %" PRId64 " in '%s' is not where event %"
                 PRId64 " begins", offset, part, next_event);
        goto out;
    }
    rc = 0;
out:
    free(buf);
    free(head);
    fclose(f);
    return rc;
}
