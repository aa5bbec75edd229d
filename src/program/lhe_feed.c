/* lhe_feed.c -- a run's hard events from a Les Houches Event file (lhe_feed.h). */
#include "program/lhe_feed.h"
#include "io/lhe.h"
#include "gaps/process.h"
#include "gaps/pdf.h"
#include "io/c_locale.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A piece of the file (io/lhe.h, "Reading in parallel") and its events, read by a worker:
 * the events in the batch's form, with what the feed checks when it hands them over. */
typedef struct parsed {
    gaps_hard_batch b;            /* count events, row0[count] rows (capacities grow) */
    int64_t *number;              /* a gaps-written event's number in the run that wrote it */
    uint64_t *hash;               /* each event's entry_hash */
    double *weights;              /* count x the named weights */
    int event_capacity;
} parsed;

enum slot_state { SLOT_FREE, SLOT_CUT, SLOT_READING, SLOT_READ, SLOT_SERIAL };

typedef struct slot {
    int64_t seq;                  /* the piece's place in the file: 0, 1, ... */
    enum slot_state state;
    gaps_lhe_piece piece;
    parsed out;
    int ok;                       /* SLOT_READ: its events are the serial reader's */
    long lines;                   /* lines of its text */
    long group_line;              /* its text's line of an <eventgroup> opened in it, or -1 */
    int taken;                    /* events of out already handed over */
} slot;

/* The pipeline: a cutter thread reads the input and cuts pieces into a ring of slots, worker
 * threads read the pieces' events, and the run's thread (gaps_lhe_feed_fill) hands them over
 * in the file's order.  One mutex guards the slots' states and the counters. */
typedef struct worker_arg {
    struct gaps_lhe_feed *f;
    int index;
} worker_arg;

typedef struct pipeline {
    pthread_t cutter, *workers;
    worker_arg *args;
    int n_alloc;                  /* workers' readers and events allocated */
    int n_workers;                /* worker threads running */
    int cutter_started;
    int n_slots;
    slot *slots;
    gaps_lhe_reader **readers;    /* a piece reader per worker */
    gaps_lhe_event **ev;          /* an event per worker (about 55 kB each) */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int64_t next_cut, next_read, next_take;
    int stop, cut_done, failed;   /* failed: out of memory in a thread */
    size_t piece_bytes;
    long lines;                   /* lines of the file before slot next_take's text */
    long events;                  /* events of the file before it */
    long group_line;              /* the file's line of the last <eventgroup> before it */
} pipeline;

/* What the feed keeps of a batch it filled while the generator uses it: its events' named
 * weights (weights_of, for the per-event output) and the digest after each of them
 * (gaps_lhe_feed_digest: a run stopped by a signal checkpoints after part of its batch).  The
 * generator may fill one batch while it showers the other (gaps_hooks.read_ahead), so there
 * are two records, taken in turn by the fills. */
typedef struct batch_record {
    int64_t first, count;         /* its event numbers */
    double *weights;              /* count x the named weights */
    int64_t weights_capacity;     /* events weights holds */
    uint64_t *digest_at;          /* the digest after k of its events, k = 0 .. count */
    int64_t digest_capacity;
} batch_record;

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
    /* the named weights' names */
    gaps_event_stream_weights weights;
    char (*names)[GAPS_LHE_NAME_MAX];
    const char **name_ptr;
    /* the batches filled last, and the one being filled (fill_rec); rec_lock guards the
     * records' first and count, which weights_of reads in the run's thread while another
     * thread fills the next batch (gaps_hooks.read_ahead) */
    batch_record rec[2];
    int fill_rec;
    pthread_mutex_t rec_lock;
    double *batch_weights;        /* rec[fill_rec]'s arrays, while a fill runs */
    /* reading in parallel: NULL when the file is read in the run's thread */
    pipeline *pl;
    int threads;                  /* workers asked for (gaps_lhe_feed_options) */
    size_t piece_bytes;
    int64_t base;                 /* a gaps-written file: its first event's number */
    uint64_t digest;              /* of the events handed over (gaps_lhe_feed_digest) */
    uint64_t *digest_at;          /* rec[fill_rec]'s, while a fill runs */
    parsed *pass_batch;           /* one event, for pass_over with the serial reader */
    /* for the summary: reading threads, pieces read in parallel, the event from which the
     * file was read serially (-1: none) */
    int threads_used;
    long pieces;
    int64_t serial_from;
    /* reading ahead (gaps_lhe_feed_fill_ahead): a thread filling ahead_b with the events
     * from ahead_first on, its fill's result once joined */
    enum { AHEAD_NONE, AHEAD_RUNNING, AHEAD_DONE } ahead;
    pthread_t ahead_thread;
    gaps_hard_batch *ahead_b;
    int64_t ahead_first, ahead_want;
    int ahead_rc, ahead_ended;
};

/* The digest of no event (never 0, which a checkpoint writes for a run without a file). */
#define DIGEST_START 0xbb67ae8584caa73bu

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

/* One step of the events' digest: v into h. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v;
    h *= 0x9fb21c651e98df25u;
    return h ^ (h >> 32);
}

static uint64_t bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* What identifies entry i of b and its nw named weights for a resume (doc/formats.md,
 * checkpoints): every number the shower and the outputs take from the event. */
static uint64_t entry_hash(const gaps_hard_batch *b, int i, const double *weights, int nw)
{
    const int r0 = b->row0[i], r1 = b->row0[i + 1];
    uint64_t h = mix(0x6a09e667f3bcc909u, (uint64_t)(r1 - r0));
    h = mix(h, (uint64_t)(uint32_t)b->n_in[i] | (uint64_t)(uint32_t)b->next_tag[i] << 32);
    h = mix(h, b->draw[i]);
    h = mix(h, bits(b->weight[i]));
    h = mix(h, bits(b->t_start[i]));
    h = mix(h, bits(b->x[2 * i]));
    h = mix(h, bits(b->x[2 * i + 1]));
    for (int r = r0; r < r1; ++r) {
        for (int k = 0; k < 4; ++k) h = mix(h, bits(b->p[4 * r + k]));
        h = mix(h, (uint64_t)(uint32_t)b->flav[r] | (uint64_t)(uint32_t)b->col[r] << 32);
        h = mix(h, (uint32_t)b->acol[r]);
        if (b->t_start_row[r] != b->t_start[i]) h = mix(h, bits(b->t_start_row[r]));
    }
    for (int k = 0; k < nw; ++k) h = mix(h, bits(weights[k]));
    return h;
}

/* Event ev as entry i of batch b (rows from b->row0[i] on), its named weights to weights;
 * number >= 0: its event number in this run, which a gaps-written event must have (a worker
 * does not know it: the feed checks the numbers when it hands the events over).  0, 1 if the
 * batch's rows are full (nothing written), or -1 with the reason in m.  Reads only what the
 * feed set up when it opened the file: any thread may call it. */
static int convert_event(const gaps_lhe_feed *f, const gaps_lhe_event *ev, gaps_hard_batch *b,
                         int i, double *weights, int64_t number, uint64_t *hash, char *m,
                         size_t mlen)
{
    const char *file = gaps_lhe_shown_name(f->reader);
    char why[512];
    long line;
    if (gaps_lhe_showerable(f->init, ev, GAPS_LHE_MAX_PARTICLES, why, sizeof why, &line)
        != GAPS_LHE_SHOWERABLE) {
        snprintf(m, mlen, "%s:%ld: %s", file, line, why);
        return -1;
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
        snprintf(m, mlen, "%s:%ld: the event hands the shower %d particles; with "
                 "--max-partons %d the record holds %d and one emission: raise --max-partons "
                 "(at most %d)", file, ev->line, n, f->max_rows + 1, f->max_rows,
                 GAPS_MAX_PARTONS);
        return -1;
    }
    if (f->gaps_written != ev->has_gaps) {
        snprintf(m, mlen, "%s:%ld: %s", file, ev->line,
                 f->gaps_written ? "the event has no <gaps .../> element, though the file's "
                                   "header says gaps wrote it"
                                 : "the event has a <gaps .../> element, but the header has no "
                                   "<gaps .../>: a file joined from two sources?");
        return -1;
    }
    if (number >= 0 && ev->has_gaps && ev->gaps_event != number) {
        snprintf(m, mlen, "%s:%ld: the event is number %lld of the run that wrote it, but "
                 "event %lld of this run: the file's events are not consecutive (joined out of "
                 "order, or events removed?)", file, ev->gaps_line, ev->gaps_event,
                 (long long)number);
        return -1;
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
            snprintf(m, mlen, "%s:%ld: colour tag below 501 in a file gaps wrote (its tags "
                     "are 500 + the record's)", file, p->line);
            return -1;
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
    /* the dipoles start at k_T^2 = SCALUP^2 (a file's SCALUP is the scale below which its
     * generator left the emissions to the shower); a file that gives none (SCALUP <= 0) at the
     * incoming pair's invariant mass squared.  The products of a colourless resonance (status
     * 2: Z, W, H, gamma*) shower inside their decay from its mass squared down, the scale of
     * the decay, which the hard process's SCALUP knows nothing of (the decay's own phase
     * space then bounds k_T^2 by m^2/4).  The event starts at the largest of its rows'. */
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
    if (ev->has_gaps) t = ev->gaps_t;
    double t_event = t;
    for (int r = 0; r < n; ++r) {
        const int res = gaps_lhe_decay_resonance(ev, rows[r]);
        double tr = t;
        if (res >= 0) {
            const double *q = ev->particle[res].p;
            const double m2res = q[3] * q[3] - q[0] * q[0] - q[1] * q[1] - q[2] * q[2];
            tr = m2res > 0.0 ? m2res : 0.0;
        }
        b->t_start_row[r0 + r] = tr;
        if (tr > t_event) t_event = tr;
    }
    b->t_start[i] = t_event;
    for (int k = 0; k < f->weights.n; ++k) weights[k] = ev->weights[k];
    *hash = entry_hash(b, i, weights, f->weights.n);
    return 0;
}

/* The serial reader's event f->ev, event number `number`, as entry i of batch b: as
 * convert_event, the reason of -1 in f->msg. */
static int put_event(gaps_lhe_feed *f, gaps_hard_batch *b, int i, int64_t number)
{
    char m[1024];
    double *w = f->batch_weights ? f->batch_weights + (size_t)i * f->weights.n : NULL;
    uint64_t hash;
    const int rc = convert_event(f, f->ev, b, i, w, number, &hash, m, sizeof m);
    if (rc == 0) f->digest = mix(f->digest, hash);
    return rc < 0 ? fail(f, 2, m) : rc;
}


/* The named weights of an event of one of the batches filled last (NULL: none). */
static const double *weights_of(void *ctx, int64_t event)
{
    gaps_lhe_feed *f = ctx;
    const double *w = NULL;
    pthread_mutex_lock(&f->rec_lock);
    for (int r = 0; r < 2 && !w; ++r) {
        const batch_record *rec = &f->rec[r];
        const int64_t i = event - rec->first;
        if (rec->weights && i >= 0 && i < rec->count) w = rec->weights + (size_t)i * f->weights.n;
    }
    pthread_mutex_unlock(&f->rec_lock);
    return w;
}

/* The weights' names, once the first event has told how many there are (a file that
 * declares none names them from its first event).  0 or -1. */
static int weights_setup(gaps_lhe_feed *f)
{
    const gaps_lhe_init *in = f->init;
    const int n = in->n_weights < GAPS_HEPMC_MAX_WEIGHTS ? in->n_weights : GAPS_HEPMC_MAX_WEIGHTS;
    if (n == 0 || f->names) return 0;
    f->names = calloc((size_t)n, sizeof *f->names);
    f->name_ptr = calloc((size_t)n, sizeof *f->name_ptr);
    if (!f->names || !f->name_ptr) return -1;
    for (int k = 0; k < n; ++k) {
        const char *id = in->weight_id[k];
        if (!id[0]) snprintf(f->names[k], sizeof f->names[k], "w%d", k + 1);
        else snprintf(f->names[k], sizeof f->names[k], "%s", id);
        for (char *c = f->names[k]; *c; ++c)
            if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') *c = '_';
        f->name_ptr[k] = f->names[k];
    }
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

/* ------------------------------------------------------------------------------------ */
/* reading in parallel */

/* Room in o for `events` events of `rows` rows in all: 0, or -1 out of memory. */
static int parsed_reserve(parsed *o, int events, int rows, int n_weights)
{
    gaps_hard_batch *b = &o->b;
    if (events > o->event_capacity) {
        int cap = o->event_capacity ? o->event_capacity : 1024;
        while (cap < events) cap *= 2;
        void *a[] = {realloc(b->row0, (size_t)(cap + 1) * sizeof *b->row0),
                     realloc(b->n_in, (size_t)cap * sizeof *b->n_in),
                     realloc(b->next_tag, (size_t)cap * sizeof *b->next_tag),
                     realloc(b->draw, (size_t)cap * sizeof *b->draw),
                     realloc(b->weight, (size_t)cap * sizeof *b->weight),
                     realloc(b->t_start, (size_t)cap * sizeof *b->t_start),
                     realloc(b->x, (size_t)cap * 2 * sizeof *b->x),
                     realloc(o->number, (size_t)cap * sizeof *o->number),
                     realloc(o->hash, (size_t)cap * sizeof *o->hash),
                     n_weights > 0 ? realloc(o->weights, (size_t)cap * (size_t)n_weights
                                                         * sizeof *o->weights) : NULL};
        /* each pointer that was moved is kept, so that nothing leaks when one failed */
        if (a[0]) b->row0 = a[0];
        if (a[1]) b->n_in = a[1];
        if (a[2]) b->next_tag = a[2];
        if (a[3]) b->draw = a[3];
        if (a[4]) b->weight = a[4];
        if (a[5]) b->t_start = a[5];
        if (a[6]) b->x = a[6];
        if (a[7]) o->number = a[7];
        if (a[8]) o->hash = a[8];
        if (a[9]) o->weights = a[9];
        for (int k = 0; k < 9; ++k)
            if (!a[k]) return -1;
        if (n_weights > 0 && !a[9]) return -1;
        o->event_capacity = b->capacity = cap;
    }
    if (rows > b->row_capacity) {
        int cap = b->row_capacity ? b->row_capacity : 4096;
        while (cap < rows) cap *= 2;
        void *a[] = {realloc(b->p, (size_t)cap * 4 * sizeof *b->p),
                     realloc(b->flav, (size_t)cap * sizeof *b->flav),
                     realloc(b->col, (size_t)cap * sizeof *b->col),
                     realloc(b->acol, (size_t)cap * sizeof *b->acol),
                     realloc(b->t_start_row, (size_t)cap * sizeof *b->t_start_row)};
        if (a[0]) b->p = a[0];
        if (a[1]) b->flav = a[1];
        if (a[2]) b->col = a[2];
        if (a[3]) b->acol = a[3];
        if (a[4]) b->t_start_row = a[4];
        if (!a[0] || !a[1] || !a[2] || !a[3] || !a[4]) return -1;
        b->row_capacity = cap;
    }
    return 0;
}

static void parsed_free(parsed *o)
{
    gaps_hard_batch *b = &o->b;
    void *a[] = {b->row0, b->n_in, b->next_tag, b->draw, b->weight, b->t_start, b->x, b->p,
                 b->flav, b->col, b->acol, b->t_start_row, o->number, o->hash, o->weights};
    for (size_t k = 0; k < sizeof a / sizeof *a; ++k) free(a[k]);
    memset(o, 0, sizeof *o);
}

/* A worker reads the events of slot s's piece: s->ok says whether they are exactly the serial
 * reader's (no error of any kind, and the piece ended as the cutter read it). */
static void read_piece(const gaps_lhe_feed *f, gaps_lhe_reader *pr, gaps_lhe_event *ev, slot *s)
{
    parsed *o = &s->out;
    const int nw = f->weights.n;
    char msg[1024];
    s->ok = 0;
    s->lines = 0;
    o->b.count = 0;
    if (parsed_reserve(o, 1, 0, nw) != 0) return;
    o->b.row0[0] = 0;
    gaps_lhe_piece_begin(pr, &s->piece);
    for (;;) {
        const int rc = gaps_lhe_read_event(pr, ev, msg, sizeof msg);
        if (rc == GAPS_LHE_END) break;
        if (rc != GAPS_LHE_EVENT) return;
        const int i = o->b.count;
        if (parsed_reserve(o, i + 2, o->b.row0[i] + ev->n, nw) != 0) return;
        if (convert_event(f, ev, &o->b, i, nw > 0 ? o->weights + (size_t)i * nw : NULL, -1,
                          &o->hash[i], msg, sizeof msg) != 0)
            return;
        o->number[i] = ev->has_gaps ? ev->gaps_event : -1;
        o->b.count = i + 1;
    }
    int group, ended;
    gaps_lhe_piece_end(pr, &group, &ended, &s->lines, &s->group_line);
    if (!s->piece.last && (ended || group != s->piece.end_group)) return;
    s->ok = 1;
}

static void *cutter_main(void *arg)
{
    gaps_lhe_feed *f = arg;
    pipeline *pl = f->pl;
    for (;;) {
        pthread_mutex_lock(&pl->lock);
        slot *s = &pl->slots[pl->next_cut % pl->n_slots];
        while (s->state != SLOT_FREE && !pl->stop) pthread_cond_wait(&pl->changed, &pl->lock);
        const int stop = pl->stop;
        pthread_mutex_unlock(&pl->lock);
        if (stop) break;
        const int rc = gaps_lhe_cut(f->reader, &s->piece, pl->piece_bytes);
        pthread_mutex_lock(&pl->lock);
        if (rc != 0) {   /* out of memory: nothing was cut; the serial reader reads on */
            s->piece.len = 0;
            s->piece.serial = 1;
            s->piece.in_group = s->piece.end_group = gaps_lhe_carry_group(f->reader);
        }
        s->seq = pl->next_cut++;
        s->taken = 0;
        s->state = s->piece.serial ? SLOT_SERIAL : SLOT_CUT;
        const int done = s->piece.serial || s->piece.last;
        pl->cut_done = done;
        pthread_cond_broadcast(&pl->changed);
        pthread_mutex_unlock(&pl->lock);
        if (done) break;
    }
    return NULL;
}

static void *worker_main(void *arg)
{
    const worker_arg *wa = arg;
    gaps_lhe_feed *f = wa->f;
    pipeline *pl = f->pl;
    for (;;) {
        pthread_mutex_lock(&pl->lock);
        slot *s;
        for (;;) {
            s = &pl->slots[pl->next_read % pl->n_slots];
            if (pl->stop || (s->seq == pl->next_read && s->state == SLOT_CUT)) break;
            pthread_cond_wait(&pl->changed, &pl->lock);
        }
        if (pl->stop) {
            pthread_mutex_unlock(&pl->lock);
            break;
        }
        s->state = SLOT_READING;
        pl->next_read++;
        pthread_mutex_unlock(&pl->lock);
        read_piece(f, pl->readers[wa->index], pl->ev[wa->index], s);
        pthread_mutex_lock(&pl->lock);
        s->state = SLOT_READ;
        pthread_cond_broadcast(&pl->changed);
        pthread_mutex_unlock(&pl->lock);
    }
    return NULL;
}

/* Stop the threads and wait for them. */
static void pipeline_stop(pipeline *pl)
{
    pthread_mutex_lock(&pl->lock);
    pl->stop = 1;
    pthread_cond_broadcast(&pl->changed);
    pthread_mutex_unlock(&pl->lock);
    if (pl->cutter_started) pthread_join(pl->cutter, NULL);
    for (int w = 0; w < pl->n_workers; ++w) pthread_join(pl->workers[w], NULL);
    pl->cutter_started = pl->n_workers = 0;
}

static void pipeline_free(pipeline *pl)
{
    if (!pl) return;
    pipeline_stop(pl);
    pthread_mutex_destroy(&pl->lock);
    pthread_cond_destroy(&pl->changed);
    for (int k = 0; pl->slots && k < pl->n_slots; ++k) {
        free(pl->slots[k].piece.text);
        parsed_free(&pl->slots[k].out);
    }
    for (int w = 0; w < pl->n_alloc; ++w) {
        if (pl->readers) gaps_lhe_close(pl->readers[w]);
        if (pl->ev) free(pl->ev[w]);
    }
    free(pl->slots);
    free(pl->readers);
    free(pl->ev);
    free(pl->workers);
    free(pl->args);
    free(pl);
}

/* Start reading in parallel from where the serial reader stands (after an event), if the
 * feed was asked for threads and the reader can be cut there.  0 (also when the file is read
 * on serially: no thread could be made), or -1 out of memory. */
static int pipeline_start(gaps_lhe_feed *f)
{
    if (f->threads <= 0 || f->ended || !gaps_lhe_can_cut(f->reader)) return 0;
    pipeline *pl = calloc(1, sizeof *pl);
    if (!pl) return -1;
    if (pthread_mutex_init(&pl->lock, NULL) != 0) {
        free(pl);
        return -1;
    }
    if (pthread_cond_init(&pl->changed, NULL) != 0) {
        pthread_mutex_destroy(&pl->lock);
        free(pl);
        return -1;
    }
    const int n = f->threads;
    pl->n_slots = 2 * n + 2;
    pl->piece_bytes = f->piece_bytes;
    pl->lines = gaps_lhe_lines(f->reader);
    pl->group_line = gaps_lhe_group_line(f->reader);
    pl->events = f->read;
    pl->slots = calloc((size_t)pl->n_slots, sizeof *pl->slots);
    pl->readers = calloc((size_t)n, sizeof *pl->readers);
    pl->ev = calloc((size_t)n, sizeof *pl->ev);
    pl->workers = calloc((size_t)n, sizeof *pl->workers);
    pl->args = calloc((size_t)n, sizeof *pl->args);
    if (!pl->slots || !pl->readers || !pl->ev || !pl->workers || !pl->args) {
        pipeline_free(pl);
        return -1;
    }
    pl->n_alloc = n;
    for (int k = 0; k < pl->n_slots; ++k) pl->slots[k].seq = -1;
    for (int w = 0; w < n; ++w) {
        pl->readers[w] = gaps_lhe_piece_reader(f->reader);
        pl->ev[w] = malloc(sizeof *pl->ev[w]);
        if (!pl->readers[w] || !pl->ev[w]) {
            pipeline_free(pl);
            return -1;
        }
    }
    f->pl = pl;
    /* the workers first, then the cutter: until the cutter runs, the serial reader is intact,
     * so a thread that cannot be made only means reading on serially */
    for (int w = 0; w < n; ++w) {
        pl->args[w].f = f;
        pl->args[w].index = w;
        if (pthread_create(&pl->workers[w], NULL, worker_main, &pl->args[w]) != 0) break;
        pl->n_workers = w + 1;
    }
    if (pl->n_workers > 0 && pthread_create(&pl->cutter, NULL, cutter_main, f) == 0) {
        pl->cutter_started = 1;
        f->threads_used = pl->n_workers;
        return 0;
    }
    f->pl = NULL;
    pipeline_free(pl);
    return 0;
}

/* The events of the slots from next_take on go back to the serial reader, which reads on
 * from there: after a piece whose events are not exactly the serial reader's (it will meet
 * the same error, with its line and event numbers).  0, or -1 out of memory. */
static int fall_back(gaps_lhe_feed *f)
{
    pipeline *pl = f->pl;
    pipeline_stop(pl);
    size_t total = 0;
    for (int64_t q = pl->next_take; q < pl->next_cut; ++q)
        total += pl->slots[q % pl->n_slots].piece.len;
    char *text = malloc(total + 1);
    if (!text) return -1;
    size_t at = 0;
    for (int64_t q = pl->next_take; q < pl->next_cut; ++q) {
        const gaps_lhe_piece *pc = &pl->slots[q % pl->n_slots].piece;
        memcpy(text + at, pc->text, pc->len);
        at += pc->len;
    }
    const int group = pl->next_take < pl->next_cut
                      ? pl->slots[pl->next_take % pl->n_slots].piece.in_group
                      : gaps_lhe_carry_group(f->reader);
    const int rc = gaps_lhe_put_back(f->reader, text, total, pl->lines, pl->events, group,
                                     pl->group_line);
    f->serial_from = pl->events;
    free(text);
    f->pl = NULL;
    pipeline_free(pl);
    return rc;
}

/* Whether a slot's gaps-written events carry the numbers of their places in the file (the
 * serial reader checks each as it hands it over). */
static int numbers_ok(const gaps_lhe_feed *f, const slot *s, int64_t first_index)
{
    if (!f->gaps_written) return 1;
    for (int j = 0; j < s->out.b.count; ++j)
        if (s->out.number[j] != f->base + first_index + j) return 0;
    return 1;
}

/* The slot whose events come next, read, with events left to hand over: 1; 0 at the end of
 * the file; 2 after a fall back (read on serially); -1 out of memory (f->msg). */
static int next_slot(gaps_lhe_feed *f, slot **out)
{
    pipeline *pl = f->pl;
    if (f->ended) return 0;   /* the last piece is handed over: no slot will come */
    for (;;) {
        slot *s = &pl->slots[pl->next_take % pl->n_slots];
        pthread_mutex_lock(&pl->lock);
        while (!(s->seq == pl->next_take && (s->state == SLOT_READ || s->state == SLOT_SERIAL)))
            pthread_cond_wait(&pl->changed, &pl->lock);
        pthread_mutex_unlock(&pl->lock);
        if (s->taken == 0 && (s->state == SLOT_SERIAL || !s->ok
                              || !numbers_ok(f, s, pl->events))) {
            if (fall_back(f) != 0) return fail(f, 1, "out of memory reading the event file");
            return 2;
        }
        if (s->taken < s->out.b.count) {
            *out = s;
            return 1;
        }
        /* all handed over: the slot is free for the cutter */
        const int last = s->piece.last;
        if (s->group_line >= 0) pl->group_line = pl->lines + s->group_line;
        f->pieces++;
        pl->lines += s->lines;
        pl->events += s->out.b.count;
        pthread_mutex_lock(&pl->lock);
        s->state = SLOT_FREE;
        pl->next_take++;
        pthread_cond_broadcast(&pl->changed);
        pthread_mutex_unlock(&pl->lock);
        if (last) {
            f->ended = 1;
            return 0;
        }
    }
}

/* What take() does with the events: hands them over into a batch, drops them before the
 * run's first event (--first-event), or passes over them inside the run, where they go into
 * the digest as if handed over (the events of pieces that other MPI ranks shower). */
enum take_mode { TAKE_INTO, TAKE_DROP, TAKE_PASS };

/* Hand over up to `want` events from the slots into b from entry b->count on (TAKE_INTO), or
 * drop or pass over them (b NULL).  The number taken; it stops early at the file's end, when
 * b's rows are full, or after a fall back (f->pl is then NULL); -1 on an error. */
static int64_t take(gaps_lhe_feed *f, gaps_hard_batch *b, int64_t want, enum take_mode mode)
{
    int64_t got = 0;
    const int nw = f->weights.n;
    while (got < want && f->pl) {
        slot *s;
        const int rc = next_slot(f, &s);
        if (rc < 0) return -1;
        if (rc != 1) break;
        const gaps_hard_batch *o = &s->out.b;
        const int k = s->taken;
        int n = o->count - k;
        if (n > want - got) n = (int)(want - got);
        if (b) {
            /* as many as the batch's rows hold */
            const int c = b->count, r0 = b->row0[c];
            int fit = 0;
            while (fit < n && r0 + (o->row0[k + fit + 1] - o->row0[k]) <= b->row_capacity) ++fit;
            n = fit;
            const int rows = o->row0[k + n] - o->row0[k];
            for (int j = 1; j <= n; ++j) b->row0[c + j] = r0 + (o->row0[k + j] - o->row0[k]);
            memcpy(b->n_in + c, o->n_in + k, (size_t)n * sizeof *b->n_in);
            memcpy(b->next_tag + c, o->next_tag + k, (size_t)n * sizeof *b->next_tag);
            memcpy(b->draw + c, o->draw + k, (size_t)n * sizeof *b->draw);
            memcpy(b->weight + c, o->weight + k, (size_t)n * sizeof *b->weight);
            memcpy(b->t_start + c, o->t_start + k, (size_t)n * sizeof *b->t_start);
            memcpy(b->x + 2 * c, o->x + 2 * k, (size_t)n * 2 * sizeof *b->x);
            memcpy(b->p + 4 * (size_t)r0, o->p + 4 * (size_t)o->row0[k],
                   (size_t)rows * 4 * sizeof *b->p);
            memcpy(b->flav + r0, o->flav + o->row0[k], (size_t)rows * sizeof *b->flav);
            memcpy(b->col + r0, o->col + o->row0[k], (size_t)rows * sizeof *b->col);
            memcpy(b->acol + r0, o->acol + o->row0[k], (size_t)rows * sizeof *b->acol);
            memcpy(b->t_start_row + r0, o->t_start_row + o->row0[k],
                   (size_t)rows * sizeof *b->t_start_row);
            if (nw > 0)
                memcpy(f->batch_weights + (size_t)c * nw, s->out.weights + (size_t)k * nw,
                       (size_t)n * nw * sizeof *f->batch_weights);
            for (int j = 0; j < n; ++j) {
                f->digest = mix(f->digest, s->out.hash[k + j]);
                f->digest_at[c + j + 1] = f->digest;
            }
            b->count = c + n;
            f->next += n;
        } else if (mode == TAKE_PASS) {
            for (int j = 0; j < n; ++j) f->digest = mix(f->digest, s->out.hash[k + j]);
            f->next += n;
        }
        s->taken = k + n;
        f->read += n;
        got += n;
        if (n == 0) break;   /* the batch's rows are full */
    }
    return got;
}

/* Discard up to n events (--first-event): the number discarded (fewer at the file's end), or
 * -1 on an error. */
static int64_t discard(gaps_lhe_feed *f, int64_t n)
{
    int64_t done = 0;
    while (done < n) {
        if (f->have_ev) {
            f->have_ev = 0;
            done++;
            continue;
        }
        if (f->pl) {
            const int64_t got = take(f, NULL, n - done, TAKE_DROP);
            if (got < 0) return -1;
            done += got;
            if (f->pl && done < n) break;   /* the end of the file */
            continue;
        }
        const int rc = read_next(f);
        if (rc < 0) return -1;
        if (rc == 0) break;
        f->have_ev = 0;
        done++;
    }
    return done;
}

/* Pass over the events from f->next up to `to` (fewer at the file's end): a run shared by
 * MPI ranks, each of which reads the whole file and showers the pieces it was given.  They
 * are read and checked as handed-over ones are, and go into the digest, so that the digest
 * at any event covers every event of the run before it, whoever showered them.  0, or -1 on
 * an error. */
static int pass_over(gaps_lhe_feed *f, int64_t to)
{
    while (f->next < to) {
        if (f->pl && !f->have_ev) {
            if (take(f, NULL, to - f->next, TAKE_PASS) < 0) return -1;
            if (f->pl && f->next < to) return 0;   /* the end of the file */
            continue;                              /* (or fell back: serially from here) */
        }
        const int rc = read_next(f);
        if (rc <= 0) return rc;
        /* the serial reader: the event converted as it would be handed over, for its hash
         * and its checks */
        if (!f->pass_batch) {
            f->pass_batch = calloc(1, sizeof *f->pass_batch);
            if (!f->pass_batch || parsed_reserve(f->pass_batch, 2, GAPS_MAX_PARTONS,
                                                 f->weights.n) != 0)
                return fail(f, 1, "out of memory reading the event file");
            f->pass_batch->b.capacity = 1;
        }
        gaps_hard_batch *pb = &f->pass_batch->b;
        pb->row0[0] = 0;
        char m[1024];
        uint64_t hash;
        const int rc_c = convert_event(f, f->ev, pb, 0, f->pass_batch->weights, f->next, &hash,
                                       m, sizeof m);
        if (rc_c < 0) return fail(f, 2, m);
        if (rc_c > 0) return fail(f, 1, "an event too large to pass over");
        f->digest = mix(f->digest, hash);
        f->have_ev = 0;
        f->next++;
    }
    return 0;
}

/* Whether the file has another event: 1, 0, or -1 on an error. */
static int more_events(gaps_lhe_feed *f)
{
    while (f->pl && !f->have_ev) {
        slot *s;
        const int rc = next_slot(f, &s);
        if (rc != 2) return rc;
    }
    return read_next(f);
}

/* Fill b with up to `want` events from event number `first` on (gaps_lhe_feed_fill). */
static int fill(gaps_lhe_feed *f, gaps_hard_batch *b, int64_t first, int64_t want, int *ended)
{
    *ended = 0;
    b->first = first;
    b->count = 0;
    b->row0[0] = 0;
    if (first > f->next && pass_over(f, first) != 0) return -1;
    if (first != f->next && !(f->ended && first > f->next)) {
        char m[256];
        snprintf(m, sizeof m, "the run asked for event %lld of the file, the next is %lld",
                 (long long)first, (long long)f->next);
        return fail(f, 1, m);
    }
    if (want > b->capacity) want = b->capacity;
    if (want > f->last - f->next) want = f->last - f->next;
    /* the older record: the generator is done with the batch filled before the last */
    const int r = 1 - f->fill_rec;
    batch_record *rec = &f->rec[r];
    pthread_mutex_lock(&f->rec_lock);
    rec->first = first;
    rec->count = 0;
    f->fill_rec = r;
    pthread_mutex_unlock(&f->rec_lock);
    if (f->weights.n > 0 && b->capacity > rec->weights_capacity) {
        double *grown = realloc(rec->weights, (size_t)b->capacity * (size_t)f->weights.n
                                              * sizeof *grown);
        if (!grown) return fail(f, 1, "out of memory for the events' named weights");
        rec->weights = grown;
        rec->weights_capacity = b->capacity;
    }
    if (b->capacity + 1 > rec->digest_capacity) {
        uint64_t *grown = realloc(rec->digest_at, ((size_t)b->capacity + 1) * sizeof *grown);
        if (!grown) return fail(f, 1, "out of memory for the events' digests");
        rec->digest_at = grown;
        rec->digest_capacity = b->capacity + 1;
    }
    f->batch_weights = rec->weights;
    f->digest_at = rec->digest_at;
    f->digest_at[0] = f->digest;
    while (b->count < want) {
        if (f->pl && !f->have_ev) {
            if (take(f, b, want - b->count, TAKE_INTO) < 0) return -1;
            if (!f->pl) continue;          /* fell back: serially from here */
            break;   /* the batch is full, or its rows are, or the file ended */
        }
        const int rc = read_next(f);
        if (rc < 0) return -1;
        if (rc == 0) break;
        const int put = put_event(f, b, b->count, f->next);
        if (put < 0) return -1;
        if (put > 0) break;   /* the batch's rows are full: the rest in the next batch */
        f->have_ev = 0;
        b->count++;
        f->digest_at[b->count] = f->digest;
        f->next++;
    }
    pthread_mutex_lock(&f->rec_lock);
    rec->count = b->count;
    pthread_mutex_unlock(&f->rec_lock);
    if (f->next == f->last) {
        *ended = 1;
    } else if (b->count < want && f->ended) {
        *ended = 1;
    }
    return 0;
}

/* The fill under way in the reading-ahead thread finished (its result in f->ahead_rc). */
static void ahead_wait(gaps_lhe_feed *f)
{
    if (f->ahead != AHEAD_RUNNING) return;
    pthread_join(f->ahead_thread, NULL);
    f->ahead = AHEAD_DONE;
}

static void *ahead_main(void *arg)
{
    gaps_lhe_feed *f = arg;
    f->ahead_rc = fill(f, f->ahead_b, f->ahead_first, f->ahead_want, &f->ahead_ended);
    return NULL;
}

int gaps_lhe_feed_fill(void *ctx, gaps_hard_batch *b, int64_t first, int64_t want, int *ended)
{
    gaps_lhe_feed *f = ctx;
    ahead_wait(f);
    if (f->ahead == AHEAD_DONE) {
        f->ahead = AHEAD_NONE;
        if (b == f->ahead_b && first == f->ahead_first && want == f->ahead_want) {
            *ended = f->ahead_ended;
            return f->ahead_rc;
        }
        char m[256];
        snprintf(m, sizeof m, "the run asked for %lld events from event %lld of the file, but "
                 "%lld from event %lld were read ahead", (long long)want, (long long)first,
                 (long long)f->ahead_want, (long long)f->ahead_first);
        return fail(f, 1, m);
    }
    return fill(f, b, first, want, ended);
}

int gaps_lhe_feed_fill_ahead(void *ctx, gaps_hard_batch *b, int64_t first, int64_t want)
{
    gaps_lhe_feed *f = ctx;
    /* with --lhe-threads 0 the file is read in the run's thread alone */
    if (f->threads_used == 0 || f->ahead != AHEAD_NONE || f->status) return -1;
    f->ahead_b = b;
    f->ahead_first = first;
    f->ahead_want = want;
    if (pthread_create(&f->ahead_thread, NULL, ahead_main, f) != 0) return -1;
    f->ahead = AHEAD_RUNNING;
    return 0;
}

/* The file's PDF set (PDFSUP, an LHAPDF ID; or the name of its PDF weights' group) against
 * the run's, which the initial-state shower evolves with: the same set, or a warning in
 * f->warning (with strict an error: 0 or -1 with msg).  A set the program cannot load is
 * left to the run, which says why. */
static int pdf_check(gaps_lhe_feed *f, const gaps_config *cfg, int strict, char *msg,
                     size_t len)
{
    const gaps_lhe_init *in = f->init;
    if (f->ee) return 0;
    const int by_id = in->pdf_set[0] > 0 || in->pdf_set[1] > 0;
    if (!by_id && !in->pdf_name[0]) return 0;
    const char *spec = cfg->pdf[0] ? cfg->pdf : gaps_process_table[cfg->process].default_pdf;
    char *path = malloc(GAPS_PDF_SEARCH_PATH_MAX);
    gaps_pdf pdf;
    memset(&pdf, 0, sizeof pdf);
    char why[512];
    int loaded = 0;
    if (path && gaps_pdf_search_path(cfg->pdf_path, path, GAPS_PDF_SEARCH_PATH_MAX) == 0) {
        const gaps_c_locale saved = gaps_c_locale_enter();
        loaded = gaps_pdf_load(&pdf, spec ? spec : "", path, why, sizeof why) == 0;
        gaps_c_locale_leave(saved);
    }
    free(path);
    if (!loaded) return 0;
    const long id = pdf.set_index >= 0 ? pdf.set_index + pdf.member : -1;
    char run_set[GAPS_PDF_SPEC_MAX + 64];
    if (id >= 0) snprintf(run_set, sizeof run_set, "%s (LHAPDF ID %ld)", spec, id);
    else snprintf(run_set, sizeof run_set, "%s (no SetIndex in its .info)", spec);
    const int same = by_id ? id >= 0 && in->pdf_set[0] == id && in->pdf_set[1] == id
                           : pdf.member == 0 && strcmp(pdf.name, in->pdf_name) == 0;
    gaps_pdf_free(&pdf);
    if (same) return 0;
    if (by_id)
        snprintf(f->warning, sizeof f->warning, "the file's hard events were made with the PDF "
                 "set of LHAPDF ID %d (beam 1) and %d (beam 2); the initial-state shower "
                 "evolves with %s", in->pdf_set[0], in->pdf_set[1], run_set);
    else
        snprintf(f->warning, sizeof f->warning, "the file's PDF weights are those of the set "
                 "%s; the initial-state shower evolves with %s", in->pdf_name, run_set);
    if (!strict) return 0;
    snprintf(msg, len, "%s:%ld: %s: give the file's set with --pdf, or leave out "
             "--lhe-strict-pdf", gaps_lhe_shown_name(f->reader), in->init_line, f->warning);
    return -1;
}

gaps_lhe_feed *gaps_lhe_feed_open(const char *path, const gaps_lhe_feed_options *opt,
                                  gaps_config *cfg, int *status, char *msg, size_t len)
{
    gaps_lhe_feed *f = calloc(1, sizeof *f);
    if (f) f->ev = malloc(sizeof *f->ev);
    if (f) f->serial_from = -1;
    if (f) f->digest = DIGEST_START;
    if (!f || !f->ev) {
        if (f) free(f);
        *status = 1;
        snprintf(msg, len, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&f->rec_lock, NULL);
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
    /* protons and antiprotons, in any combination: an antiproton's parton densities are the
     * proton set's with quarks and antiquarks swapped (gaps_process.beam_anti) */
    const int pp = (in->beam_id[0] == 2212 || in->beam_id[0] == -2212)
                   && (in->beam_id[1] == 2212 || in->beam_id[1] == -2212);
    const int ee = (in->beam_id[0] == 11 && in->beam_id[1] == -11)
                   || (in->beam_id[0] == -11 && in->beam_id[1] == 11);
    if (!pp && !ee) {
        snprintf(msg, len, "%s:%ld: the beams are PDG %d and %d; the shower takes files of "
                 "p p (2212 2212), p pbar (2212 -2212, -2212 2212) and e+ e- (-11 11) "
                 "collisions", file, in->init_line, in->beam_id[0], in->beam_id[1]);
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
    /* the file's beam 1 runs along +z, beam 2 along -z (gaps_lhe_showerable takes an incoming
     * parton's beam from its pz the same way) */
    for (int b = 0; b < 2; ++b) cfg->file_beam_anti[b] = pp && in->beam_id[b] == -2212;
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
    /* the first event: a gaps-written file's number of it, and the number of the named
     * weights */
    f->max_rows = cfg->max_partons - 1;
    f->threads = opt->threads;
    f->piece_bytes = opt->piece_bytes;
    int rc = read_next(f);
    if (rc > 0 && f->ev->has_gaps) f->base = f->ev->gaps_event;
    if (rc > 0 && weights_setup(f) != 0) {
        *status = 1;
        snprintf(msg, len, "out of memory for the events' named weights");
        gaps_lhe_feed_close(f);
        return NULL;
    }
    /* then, in parallel where the feed may, --first-event events skipped; the run's event
     * numbers are the file's positions, or for a gaps-written file the numbers of the run
     * that wrote it */
    if (rc > 0 && pipeline_start(f) != 0) {
        *status = 1;
        snprintf(msg, len, "out of memory for the event file's reading threads");
        gaps_lhe_feed_close(f);
        return NULL;
    }
    if (rc > 0 && discard(f, opt->skip) < 0) rc = -1;
    if (rc > 0) rc = more_events(f);
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
    f->next = f->base + opt->skip;
    cfg->first_event = f->next;
    if (!opt->events_given) cfg->events = GAPS_MAX_EVENT_NUMBER - cfg->first_event;
    f->last = cfg->first_event + cfg->events;
    if (pdf_check(f, cfg, opt->strict_pdf, msg, len) != 0) {
        gaps_lhe_feed_close(f);
        return NULL;
    }
    *status = 0;
    return f;
}

const char *gaps_lhe_feed_error(gaps_lhe_feed *f, int *status)
{
    if (f) ahead_wait(f);
    *status = f ? f->status : 0;
    return f && f->status ? f->msg : NULL;
}

int gaps_lhe_feed_digest(gaps_lhe_feed *f, int64_t next_event, uint64_t *digest)
{
    ahead_wait(f);
    /* behind: the last events before next_event went to other MPI ranks */
    if (next_event > f->next && f->ahead == AHEAD_NONE
        && (pass_over(f, next_event) != 0 || f->next != next_event))
        return -1;
    if (f->next == next_event) {
        *digest = f->digest;
        return 0;
    }
    for (int r = 0; r < 2; ++r) {
        const batch_record *rec = &f->rec[r];
        const int64_t k = next_event - rec->first;
        if (rec->digest_at && k >= 0 && k <= rec->count) {
            *digest = rec->digest_at[k];
            return 0;
        }
    }
    return -1;
}

int gaps_lhe_feed_resume(gaps_lhe_feed *f, int64_t next_event, uint64_t digest, int *status,
                         char *msg, size_t len)
{
    const char *file = gaps_lhe_shown_name(f->reader);
    *status = 2;
    if (digest == 0) {
        snprintf(msg, len, "the checkpoint records no event file: it is not a --lhe run's");
        return -1;
    }
    /* the events before the checkpoint's next event are read again, handed over to a
     * scratch batch and dropped: their digest must be the checkpoint's */
    const int64_t first = f->next;
    parsed scratch;
    memset(&scratch, 0, sizeof scratch);
    enum { STEP = 4096 };
    if (parsed_reserve(&scratch, STEP + 1, STEP * GAPS_MAX_PARTONS, 0) != 0) {
        parsed_free(&scratch);
        *status = 1;
        snprintf(msg, len, "out of memory");
        return -1;
    }
    scratch.b.capacity = STEP;
    int rc = 0;
    while (rc == 0 && f->next < next_event) {
        int ended = 0;
        const int64_t want = next_event - f->next < STEP ? next_event - f->next : STEP;
        if (gaps_lhe_feed_fill(f, &scratch.b, f->next, want, &ended) != 0) {
            snprintf(msg, len, "%s", f->msg);
            *status = f->status;
            rc = -1;
        } else if (scratch.b.count == 0) {
            snprintf(msg, len, "%s ends at its event %lld, before the checkpoint's next event "
                     "%lld: not the file the checkpoint's run read", file,
                     (long long)f->next, (long long)next_event);
            rc = -1;
        }
    }
    parsed_free(&scratch);
    if (rc == 0 && f->digest != digest) {
        snprintf(msg, len, "%s: its events %lld to %lld are not those the checkpoint's run read "
                 "(digest %016llx, the checkpoint's %016llx): the file was changed or replaced",
                 file, (long long)first, (long long)next_event - 1,
                 (unsigned long long)f->digest, (unsigned long long)digest);
        rc = -1;
    }
    return rc;
}

int64_t gaps_lhe_feed_events(gaps_lhe_feed *f)
{
    if (f) ahead_wait(f);
    return f ? f->read : 0;
}

void gaps_lhe_feed_reading(gaps_lhe_feed *f, int *threads, long *pieces,
                           int64_t *serial_from)
{
    ahead_wait(f);
    *threads = f->threads_used;
    *pieces = f->pieces;
    *serial_from = f->serial_from;
}

const char *gaps_lhe_feed_warning(const gaps_lhe_feed *f)
{
    return f ? f->warning : "";
}

void gaps_lhe_feed_close(gaps_lhe_feed *f)
{
    if (!f) return;
    ahead_wait(f);
    pipeline_free(f->pl);
    gaps_lhe_close(f->reader);
    free(f->names);
    free(f->name_ptr);
    if (f->pass_batch) parsed_free(f->pass_batch);
    free(f->pass_batch);
    for (int r = 0; r < 2; ++r) {
        free(f->rec[r].weights);
        free(f->rec[r].digest_at);
    }
    pthread_mutex_destroy(&f->rec_lock);
    free(f->ev);
    free(f);
}
