/* lhe_feed.c -- a run's hard events from a Les Houches Event file (lhe_feed.h). */
#include "program/lhe_feed.h"
#include "io/lhe.h"
#include "gaps/process.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gaps_lhe_feed {
    gaps_lhe_reader *reader;
    const gaps_lhe_init *init;
    gaps_lhe_event *ev;          /* the event being read (about 55 kB, on the heap) */
    int have_ev;                 /* ev holds the next event, read but not yet handed over */
    int ended;                   /* the file has no more events */
    int max_rows;                /* rows an event may hand the shower: --max-partons - 1 */
    int gaps_written;            /* a gaps-written file: its events carry <gaps .../> */
    int ee;                      /* e+ e- beams: the incoming leptons are no rows (lhe-ee) */
    int64_t next;                /* event number of the next event handed over */
    int64_t last;                /* one past the run's last event number */
    int64_t read;                /* events read from the file */
    double half_ecm;             /* each beam's energy, GeV */
    char msg[1024];
    int status;                  /* of msg: 0 none, 2 the file, 1 the system */
    char warning[512];
    /* the named weights: names, and those of the last batch's events (capacity x n) */
    gaps_event_stream_weights weights;
    char (*names)[GAPS_LHE_NAME_MAX];
    const char **name_ptr;
    double *batch_weights;
    int64_t batch_first, batch_count, batch_capacity;
};

static int fail(gaps_lhe_feed *f, int status, const char *what)
{
    snprintf(f->msg, sizeof f->msg, "%s", what);
    f->status = status;
    return -1;
}

/* The next event of the file into f->ev: 1, 0 at the end, -1 on an error (f->msg). */
static int read_next(gaps_lhe_feed *f)
{
    if (f->have_ev) return 1;
    if (f->ended) return 0;
    char msg[1024];
    const int rc = gaps_lhe_read_event(f->reader, f->ev, msg, sizeof msg);
    if (rc == GAPS_LHE_EVENT) {
        f->have_ev = 1;
        f->read++;
        return 1;
    }
    if (rc == GAPS_LHE_END) {
        f->ended = 1;
        return 0;
    }
    return fail(f, rc == GAPS_LHE_INVALID ? 2 : 1, msg);
}

/* LHE colour tag t of event ev as the record's tag (1, 2, ...): a gaps-written file's own
 * (GAPS_LHE_TAG_OFFSET + tag), else by first appearance in the rows' order (map: the LHE tags
 * seen). */
static int record_tag(int t, int gaps_written, int *map, int *n_map)
{
    if (t == 0) return 0;
    if (gaps_written) return t - GAPS_LHE_TAG_OFFSET;
    for (int k = 0; k < *n_map; ++k)
        if (map[k] == t) return k + 1;
    map[(*n_map)++] = t;
    return *n_map;
}

/* Event f->ev, event number `number`, as entry i of batch b (rows from b->row0[i] on): 0, 1
 * if the batch's rows are full (nothing written), or -1 with the reason in f->msg. */
static int put_event(gaps_lhe_feed *f, gaps_hard_batch *b, int i, int64_t number)
{
    const gaps_lhe_event *ev = f->ev;
    const char *file = gaps_lhe_shown_name(f->reader);
    char why[512], m[1024];
    long line;
    if (gaps_lhe_showerable(f->init, ev, GAPS_LHE_MAX_PARTICLES, why, sizeof why, &line)
        != GAPS_LHE_SHOWERABLE) {
        snprintf(m, sizeof m, "%s:%ld: %s", file, line, why);
        return fail(f, 2, m);
    }
    /* the rows the shower takes: incoming partons, then the final state, in file order; an
     * intermediate colourless resonance (status 2: its decay products are final) and
     * documentation lines (3) stay out of the record */
    int rows[GAPS_LHE_MAX_PARTICLES], n = 0, n_in = 0;
    for (int pass = f->ee; pass < 2; ++pass)   /* e+ e-: the outgoing rows alone, as ee-qq's */
        for (int k = 0; k < ev->n; ++k)
            if (ev->particle[k].status == (pass == 0 ? -1 : 1)) {
                rows[n++] = k;
                n_in += pass == 0;
            }
    if (n > f->max_rows) {
        snprintf(m, sizeof m, "%s:%ld: the event hands the shower %d particles; with "
                 "--max-partons %d the record holds %d and one emission: raise --max-partons "
                 "(at most %d)", file, ev->line, n, f->max_rows + 1, f->max_rows,
                 GAPS_MAX_PARTONS);
        return fail(f, 2, m);
    }
    if (f->gaps_written != ev->has_gaps) {
        snprintf(m, sizeof m, "%s:%ld: %s", file, ev->line,
                 f->gaps_written ? "the event has no <gaps .../> element, though the file's "
                                   "header says gaps wrote it"
                                 : "the event has a <gaps .../> element, but the header has no "
                                   "<gaps .../>: a file joined from two sources?");
        return fail(f, 2, m);
    }
    if (ev->has_gaps && ev->gaps_event != number) {
        snprintf(m, sizeof m, "%s:%ld: the event is number %lld of the run that wrote it, but "
                 "event %lld of this run: the file's events are not consecutive (joined out of "
                 "order, or events removed?)", file, ev->gaps_line, ev->gaps_event,
                 (long long)number);
        return fail(f, 2, m);
    }
    const int r0 = b->row0[i];
    if (r0 + n > b->row_capacity) return 1;
    int map[2 * GAPS_LHE_MAX_PARTICLES], n_map = 0, top = 0;
    for (int r = 0; r < n; ++r) {
        const gaps_lhe_particle *p = &ev->particle[rows[r]];
        const int at = r0 + r;
        b->p[4 * at + 0] = p->p[3];
        b->p[4 * at + 1] = p->p[0];
        b->p[4 * at + 2] = p->p[1];
        b->p[4 * at + 3] = p->p[2];
        b->flav[at] = p->id;
        b->col[at] = record_tag(p->colour[0], ev->has_gaps, map, &n_map);
        b->acol[at] = record_tag(p->colour[1], ev->has_gaps, map, &n_map);
        if (b->col[at] > top) top = b->col[at];
        if (b->acol[at] > top) top = b->acol[at];
        if (b->col[at] < 0 || b->acol[at] < 0) {
            snprintf(m, sizeof m, "%s:%ld: colour tag below 501 in a file gaps wrote (its tags "
                     "are 500 + the record's)", file, p->line);
            return fail(f, 2, m);
        }
        /* the momentum fraction of an incoming parton: E over its beam's energy (massless,
         * along the axis: gaps_lhe_showerable checked both), or the writer's own */
        if (r < n_in)
            b->x[2 * i + r] = ev->has_gaps ? ev->gaps_x[r] : p->p[3] / f->half_ecm;
    }
    b->row0[i + 1] = r0 + n;
    b->n_in[i] = n_in;
    b->next_tag[i] = top + 1;
    b->draw[i] = ev->has_gaps ? ev->gaps_draw : 0u;
    b->weight[i] = ev->weight;
    /* the shower starts at k_T^2 = SCALUP^2 in every dipole (a file's SCALUP is the scale
     * below which its generator left the emissions to the shower); a file that gives none
     * (SCALUP <= 0) starts at the incoming pair's invariant mass squared */
    double t = ev->scale * ev->scale;
    if (!(ev->scale > 0.0)) {
        double e = 0.0, pz = 0.0;
        for (int k = 0; k < ev->n; ++k)
            if (ev->particle[k].status == -1) {
                e += ev->particle[k].p[3];
                pz += ev->particle[k].p[2];
            }
        t = e * e - pz * pz;
    }
    b->t_start[i] = ev->has_gaps ? ev->gaps_t : t;
    const int nw = f->weights.n;
    for (int k = 0; k < nw; ++k) f->batch_weights[(size_t)i * nw + k] = ev->weights[k];
    return 0;
}

static const double *weights_of(void *ctx, int64_t event)
{
    const gaps_lhe_feed *f = ctx;
    const int64_t i = event - f->batch_first;
    if (!f->batch_weights || i < 0 || i >= f->batch_count) return NULL;
    return f->batch_weights + (size_t)i * f->weights.n;
}

/* The weights' names and the batch's weight array, once the first event has told how many
 * there are (a file that declares none names them from its first event).  0 or -1. */
static int weights_setup(gaps_lhe_feed *f, int64_t capacity)
{
    const gaps_lhe_init *in = f->init;
    const int n = in->n_weights < GAPS_HEPMC_MAX_WEIGHTS ? in->n_weights : GAPS_HEPMC_MAX_WEIGHTS;
    if (n == 0 || f->batch_weights) return 0;
    f->names = calloc((size_t)n, sizeof *f->names);
    f->name_ptr = calloc((size_t)n, sizeof *f->name_ptr);
    f->batch_weights = malloc((size_t)capacity * (size_t)n * sizeof *f->batch_weights);
    if (!f->names || !f->name_ptr || !f->batch_weights) return -1;
    for (int k = 0; k < n; ++k) {
        const char *id = in->weight_id[k];
        if (!id[0]) snprintf(f->names[k], sizeof f->names[k], "w%d", k + 1);
        else snprintf(f->names[k], sizeof f->names[k], "%s", id);
        for (char *c = f->names[k]; *c; ++c)
            if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') *c = '_';
        f->name_ptr[k] = f->names[k];
    }
    f->batch_capacity = capacity;
    f->weights.n = n;
    f->weights.names = f->name_ptr;
    f->weights.weights_of = weights_of;
    f->weights.ctx = f;
    return 0;
}

const gaps_event_stream_weights *gaps_lhe_feed_weights(gaps_lhe_feed *f)
{
    return f && f->init->n_weights > 0 ? &f->weights : NULL;
}

int gaps_lhe_feed_fill(void *ctx, gaps_hard_batch *b, int64_t first, int64_t want, int *ended)
{
    gaps_lhe_feed *f = ctx;
    *ended = 0;
    b->first = first;
    b->count = 0;
    b->row0[0] = 0;
    if (first != f->next) {
        char m[256];
        snprintf(m, sizeof m, "the run asked for event %lld of the file, the next is %lld",
                 (long long)first, (long long)f->next);
        return fail(f, 1, m);
    }
    if (want > b->capacity) want = b->capacity;
    if (want > f->last - f->next) want = f->last - f->next;
    if (f->weights.n > 0 && b->capacity > f->batch_capacity) {
        double *grown = realloc(f->batch_weights, (size_t)b->capacity * (size_t)f->weights.n
                                                  * sizeof *grown);
        if (!grown) return fail(f, 1, "out of memory for the events' named weights");
        f->batch_weights = grown;
        f->batch_capacity = b->capacity;
    }
    f->batch_first = first;
    f->batch_count = 0;
    while (b->count < want) {
        const int rc = read_next(f);
        if (rc < 0) return -1;
        if (rc == 0) break;
        const int put = put_event(f, b, b->count, f->next);
        if (put < 0) return -1;
        if (put > 0) break;   /* the batch's rows are full: the rest in the next batch */
        f->have_ev = 0;
        b->count++;
        f->next++;
    }
    f->batch_count = b->count;
    if (f->next == f->last) {
        *ended = 1;
    } else if (b->count < want && f->ended) {
        *ended = 1;
    }
    return 0;
}

gaps_lhe_feed *gaps_lhe_feed_open(const char *path, const gaps_lhe_feed_options *opt,
                                  gaps_config *cfg, int *status, char *msg, size_t len)
{
    gaps_lhe_feed *f = calloc(1, sizeof *f);
    if (f) f->ev = malloc(sizeof *f->ev);
    if (!f || !f->ev) {
        if (f) free(f);
        *status = 1;
        snprintf(msg, len, "out of memory");
        return NULL;
    }
    int st = 0;
    f->reader = gaps_lhe_open(path, &st, msg, len);
    if (!f->reader) {
        *status = st == GAPS_LHE_INVALID ? 2 : 1;
        gaps_lhe_feed_close(f);
        return NULL;
    }
    f->init = gaps_lhe_init_of(f->reader);
    const gaps_lhe_init *in = f->init;
    const char *file = gaps_lhe_shown_name(f->reader);
    *status = 2;
    const int pp = in->beam_id[0] == 2212 && in->beam_id[1] == 2212;
    const int ee = (in->beam_id[0] == 11 && in->beam_id[1] == -11)
                   || (in->beam_id[0] == -11 && in->beam_id[1] == 11);
    if (!pp && !ee) {
        snprintf(msg, len, "%s:%ld: the beams are PDG %d and %d; the shower takes files of "
                 "p p (2212 2212) and e+ e- (-11 11) collisions (p pbar files: not yet)", file,
                 in->init_line, in->beam_id[0], in->beam_id[1]);
        gaps_lhe_feed_close(f);
        return NULL;
    }
    f->ee = ee;
    if (in->beam_energy[0] != in->beam_energy[1]) {
        snprintf(msg, len, "%s:%ld: the beams have %g and %g GeV: the shower takes collisions "
                 "in their centre-of-mass frame (equal beam energies) so far", file,
                 in->init_line, in->beam_energy[0], in->beam_energy[1]);
        gaps_lhe_feed_close(f);
        return NULL;
    }
    const double ecm = 2.0 * in->beam_energy[0];
    if (opt->param_given[GAPS_P_ecm] && cfg->ecm != ecm) {
        snprintf(msg, len, "--ecm %g GeV contradicts the file %s, whose beams collide at "
                 "sqrt(s) = %.17g GeV (leave --ecm out)", cfg->ecm, file, ecm);
        gaps_lhe_feed_close(f);
        return NULL;
    }
    if (!(ecm >= GAPS_MIN_ECM && ecm <= GAPS_MAX_ECM)) {
        snprintf(msg, len, "%s:%ld: sqrt(s) = %g GeV is outside %g..%g GeV", file,
                 in->init_line, ecm, GAPS_MIN_ECM, GAPS_MAX_ECM);
        gaps_lhe_feed_close(f);
        return NULL;
    }
    f->half_ecm = 0.5 * ecm;
    f->gaps_written = in->gaps_written;
    /* the process of the file's beams, with its defaults where the user gave none (the
     * options gave lhe-pp's); the PDF set, which a file of another generator names by LHAPDF
     * ID, is --pdf's: a different one is a warning */
    cfg->process = ee ? GAPS_PROCESS_LHE_EE : GAPS_PROCESS_LHE_PP;
    for (int id = 0; id < GAPS_N_PARAMS; ++id)
        if ((gaps_params[id].flags & GAPS_PF_PROCESS_DEFAULT) && !opt->param_given[id])
            gaps_param_set_default(id, cfg);
    cfg->ecm = ecm;
    /* the analysis of the built-in process that wrote the file, unless --analysis says */
    const int writer = in->gaps_written ? gaps_process_lookup(in->gaps_process) : -1;
    if (in->gaps_written && writer < 0) {
        snprintf(msg, len, "%s: the header's <gaps process=\"%s\"> names no process of this "
                 "program", file, in->gaps_process);
        gaps_lhe_feed_close(f);
        return NULL;
    }
    if (writer >= 0 && !opt->param_given[GAPS_P_analysis])
        cfg->analysis = gaps_process_analysis(writer, cfg->compat);
    /* and its seed, unless --seed says: the shower then continues each event's own random
     * stream, and the run's events are those of the run that wrote the file */
    if (in->gaps_has_seed && !opt->param_given[GAPS_P_seed]) cfg->seed = in->gaps_seed;
    /* the weight unit of the sums: a gaps-written file's own run's (its YODA sums are then
     * that run's bits), else the power of two at or above the file's largest weight bound
     * (XMAXUP, or |XSECUP| where a generator leaves XMAXUP 0) */
    double unit = in->gaps_w_unit;
    if (!in->gaps_written) {
        double top = 0.0;
        for (int k = 0; k < in->n_processes; ++k) {
            const double x = fabs(in->process[k].xmax) > fabs(in->process[k].xsec)
                             ? fabs(in->process[k].xmax) : fabs(in->process[k].xsec);
            if (x > top) top = x;
        }
        unit = top > 0.0 && isfinite(top) ? ldexp(1.0, (int)ceil(log2(top))) : 1.0;
    }
    cfg->file_w_unit = unit;
    /* skip --first-event events; the run's event numbers are the file's positions, or for a
     * gaps-written file the numbers of the run that wrote it */
    int64_t base = 0;
    for (int64_t k = 0; k <= opt->skip; ++k) {
        const int rc = read_next(f);
        if (rc < 0) {
            *status = f->status;
            snprintf(msg, len, "%s", f->msg);
            gaps_lhe_feed_close(f);
            return NULL;
        }
        if (rc == 0) {
            snprintf(msg, len, "%s holds %lld events, fewer than --first-event %lld + 1",
                     file, (long long)f->read, (long long)opt->skip);
            gaps_lhe_feed_close(f);
            return NULL;
        }
        if (k == 0 && f->ev->has_gaps) base = f->ev->gaps_event;
        if (k < opt->skip) f->have_ev = 0;
    }
    f->next = base + opt->skip;
    /* the named weights (their number is known once the first event is read) */
    if (weights_setup(f, 1) != 0) {
        *status = 1;
        snprintf(msg, len, "out of memory for the events' named weights");
        gaps_lhe_feed_close(f);
        return NULL;
    }
    cfg->first_event = f->next;
    if (!opt->events_given) cfg->events = GAPS_MAX_EVENT_NUMBER - cfg->first_event;
    f->last = cfg->first_event + cfg->events;
    f->max_rows = cfg->max_partons - 1;
    if (in->pdf_set[0] > 0 && in->pdf_set[0] == in->pdf_set[1])
        snprintf(f->warning, sizeof f->warning, "the file's events were made with LHAPDF set "
                 "%d; the shower uses %s", in->pdf_set[0],
                 cfg->pdf[0] ? cfg->pdf : gaps_process_table[cfg->process].default_pdf);
    *status = 0;
    return f;
}

const char *gaps_lhe_feed_error(const gaps_lhe_feed *f, int *status)
{
    *status = f ? f->status : 0;
    return f && f->status ? f->msg : NULL;
}

int64_t gaps_lhe_feed_events(const gaps_lhe_feed *f)
{
    return f ? f->read : 0;
}

const char *gaps_lhe_feed_warning(const gaps_lhe_feed *f)
{
    return f ? f->warning : "";
}

void gaps_lhe_feed_close(gaps_lhe_feed *f)
{
    if (!f) return;
    gaps_lhe_close(f->reader);
    free(f->names);
    free(f->name_ptr);
    free(f->batch_weights);
    free(f->ev);
    free(f);
}
