/* ranks_mpi.c -- a run shared by MPI ranks (ranks.h): the driver's side.  The MPI calls
 * themselves are in backend/gaps_mpi.c.
 *
 * Work.  The run is cut into segments at its checkpoints (one segment without --checkpoint).
 * In a segment every rank runs the generator with gaps_hooks.next_range: each of its
 * partitions takes a piece of event numbers from one counter on rank 0 (one MPI_Fetch_and_op
 * per piece), and the next piece once it has started every event of the last, while its pool
 * is still busy.  A faster rank simply takes more pieces.  Event numbers are global and an
 * event depends only on its number and the seed, so who generates which event changes
 * nothing in the results.
 *
 * Meeting.  When the counter has no piece left, each rank finishes its pieces and the ranks
 * meet: they agree on errors and stops, on how far the pieces went (the cut: every event
 * below it was given to some rank and is done), and sum their exact states on rank 0, which
 * adds the range [segment start, cut) and, with --checkpoint, writes the checkpoint.  A stop
 * (a signal) or an error on one rank closes the counter: the others get no new piece, finish
 * the ones they hold and meet at once.  So no rank waits for work that will not come, and what
 * is done is always a prefix of the run, which is what a checkpoint records.
 *
 * Per-event output.  Rank 0 writes it through run.c's events hook (the event stream, which
 * puts events in order).  The other ranks pack their finished events into batches and send
 * them to rank 0 with at most GAPS_MPI_SEND_SLOTS batches in flight, so a rank that runs
 * ahead waits for rank 0 instead of piling up memory.  Rank 0 receives them while it
 * generates (in its own hooks) and at each segment's end, until every rank has sent its
 * empty end-of-segment batch.
 */
#define _POSIX_C_SOURCE 200809L
#include "program/ranks.h"
#include "program/clock.h"
#include "program/options.h"
#include "gaps/analysis.h"
#include "gaps_mpi.h"
#include "gaps_runtime.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bytes of one batch of events sent to rank 0: large enough that a batch costs little per
 * event, small enough that GAPS_MPI_SEND_SLOTS of them per rank are no burden. */
#define BATCH_BYTES (4u << 20)
/* A piece is at least this many pool fills of a partition (so a partition takes a piece
 * every few passes at most) and at most 1/PIECES_PER_TAKER of a taker's share of a segment
 * (so the ranks end a segment within about one piece of each other). */
#define PIECE_POOLS 4
#define PIECES_PER_TAKER 64
/* The counter counts pieces; closing it adds the segment's number of pieces.  Keeping that
 * number below 2^40 keeps the counter far from overflow for any number of ranks. */
#define MAX_PIECES (1ULL << 40)

/* One process's share of the shared run. */
typedef struct job {
    const gaps_config *cfg;
    const gaps_hooks *user;      /* run.c's hooks: used on rank 0 */
    int rank, size;
    int streaming;               /* per-event output requested */
    int from_file;               /* the hard events come from a file (--lhe): pieces of whole
                                    batches, taken by the generator's run thread */
    int64_t file_piece;          /* events per piece then: the largest batch of any rank */
    int64_t file_end;            /* where this rank found the run's events to end (the file's
                                    end, or the run's last event), INT64_MAX if not yet */
    int n_vary;                  /* --vary factors each event's record carries (gaps/vary.h) */
    /* the segment being run */
    int64_t seg_begin, seg_end, piece;
    uint64_t npieces;
    int64_t given_end;           /* end of the last piece this rank was given */
    int closed;                  /* this rank closed the counter in this segment */
    pthread_mutex_t lock;        /* given_end and the report's take counts (partitions) */
    /* batches (ranks > 0): GAPS_MPI_SEND_SLOTS buffers, one being filled */
    pthread_mutex_t batch_lock;
    unsigned char *batch[GAPS_MPI_SEND_SLOTS];
    int slot;
    int64_t batch_count, batch_cap;   /* events in the buffer being filled, events it holds */
    size_t batch_bytes;
    /* rank 0 */
    int markers;                 /* end-of-segment batches received in this segment */
    int output_failed;           /* the events hook refused a batch */
    int bad_batch;               /* a batch of the wrong size arrived */
    double progress_at;          /* last time the counter was read for progress */
    gaps_rank_report me;
} job;

static job J = { .lock = PTHREAD_MUTEX_INITIALIZER, .batch_lock = PTHREAD_MUTEX_INITIALIZER };
/* Where a rank's default number of threads comes from (gaps_ranks_init), for its report. */
static char default_threads_why[128];
static gaps_rank_report *reports;   /* rank 0: every rank's, after the run */
static gaps_ranks_summary summary;

/* ---- start and end ---- */

int gaps_ranks_init(int *argc, char ***argv)
{
    char msg[256];
    if (gaps_mpi_init(argc, argv, msg, sizeof msg) != 0) {
        fprintf(stderr, "gaps: %s\n", msg);
        return 1;
    }
    J.rank = gaps_mpi_rank();
    J.size = gaps_mpi_size();
    /* one rank per GPU: the ranks of a node take its GPUs in turn */
    gaps_runtime_select_device(gaps_mpi_local_rank());
    /* Threads (multicore build): OpenMP's default is one per CPU of the machine, in every
     * rank; ranks sharing a node would then run (and spin) several threads per core.  A
     * rank's default is its share of the CPUs it may use (gaps_mpi_cpu_share); --threads, or
     * OMP_NUM_THREADS, still decides where given. */
    const char *omp_env = getenv("OMP_NUM_THREADS");
    if (strcmp(gaps_runtime_backend_name(), "openmp") != 0) {
        default_threads_why[0] = '\0';   /* serial or GPU backend: one thread runs the events */
    } else if (omp_env && *omp_env) {
        int n = snprintf(default_threads_why, sizeof default_threads_why, "OMP_NUM_THREADS=");
        for (const char *c = omp_env; *c && n < 48; ++c)   /* printable in the JSON string */
            default_threads_why[n++] = (*c >= '0' && *c <= '9') || *c == ',' ? *c : '?';
        default_threads_why[n] = '\0';
    } else {
        gaps_runtime_set_threads(gaps_mpi_cpu_share());
        snprintf(default_threads_why, sizeof default_threads_why,
                 "its share of the %d CPUs it may use, with %d rank%s on its node",
                 gaps_mpi_cpus(), gaps_mpi_local_size(), gaps_mpi_local_size() == 1 ? "" : "s");
    }
    /* only rank 0 speaks: the others' standard output (--help, --version) goes nowhere, and
     * their errors reach rank 0 through gaps_ranks_agree */
    if (J.rank != 0) {
        FILE *quiet = freopen("/dev/null", "w", stdout);
        (void)quiet;   /* if that failed, stdout is closed: its writes fail quietly, as wanted */
    }
    return 0;
}

int gaps_ranks_root(void) { return J.rank == 0; }
int gaps_ranks_count(void) { return J.size; }

int gaps_ranks_agree(int status, char *msg, size_t len)
{
    const int first = gaps_mpi_agree(status != 0, msg, len);
    if (first < 0) return 0;
    int64_t v = J.rank == first ? status : INT64_MIN;   /* the first failing rank's status */
    gaps_mpi_max(&v, 1);
    return (int)v;
}

void gaps_ranks_share(void *p, size_t n) { gaps_mpi_share(p, n); }

int gaps_ranks_same_pdf(uint64_t digest, const char *file, char *msg, size_t len)
{
    static struct { uint64_t digest; char file[GAPS_PDF_FILE_MAX]; } root;   /* rank 0's */
    root.digest = digest;
    snprintf(root.file, sizeof root.file, "%s", file);
    gaps_mpi_share(&root, sizeof root);
    char why[1024] = "";
    const int differs = root.digest != digest;
    if (differs) {
        snprintf(why, sizeof why, "the MPI ranks load different PDF grids: rank 0 %.400s (digest "
                 "%016" PRIx64 "), rank %d %.400s (digest %016" PRIx64 "): every rank must find "
                 "the same set (LHAPDF_DATA_PATH, --pdf-path)", root.file[0] ? root.file : "none",
                 root.digest, J.rank, file[0] ? file : "none", digest);
        for (char *c = why; *c; ++c)   /* one line, whatever the paths hold */
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    }
    if (gaps_mpi_agree(differs, why, sizeof why) >= 0) {
        if (J.rank == 0) snprintf(msg, len, "%s", why);
        return 2;
    }
    return 0;
}

int gaps_ranks_same_job(int status, const uint64_t *fp, int n, char *msg, size_t len)
{
    /* a rank that could not read its options: the lowest one's reason and status */
    const int first = gaps_mpi_agree(status >= 2, msg, len);
    if (first >= 0) {
        int64_t v = J.rank == first ? status : INT64_MIN;
        gaps_mpi_max(&v, 1);
        return (int)v;
    }
    /* --help or --version: on every rank (the root printed it) or on none */
    char why[1024] = "";
    int64_t root_status = status;
    gaps_mpi_share(&root_status, sizeof root_status);
    const int help_differs = status != root_status;
    if (help_differs)
        snprintf(why, sizeof why, "%s --help or --version, %s: every rank must be given the "
                 "same options", status ? "given" : "not given",
                 status ? "unlike rank 0" : "unlike rank 0, which was");
    if (gaps_mpi_agree(help_differs, why, sizeof why) >= 0) {
        if (J.rank == 0) snprintf(msg, len, "%s", why);
        return 2;
    }
    if (root_status != 0) return (int)root_status;
    /* the same job: every option that shapes the run or its outputs, as on rank 0 */
    uint64_t *root_fp = malloc((size_t)n * sizeof *root_fp);
    int failed = !root_fp;
    int64_t any_failed = failed;
    gaps_mpi_max(&any_failed, 1);   /* no rank goes on to a collective that another skips */
    int differs = -1;
    if (!any_failed) {
        memcpy(root_fp, fp, (size_t)n * sizeof *root_fp);
        gaps_mpi_share(root_fp, (size_t)n * sizeof *root_fp);
        for (int i = 0; i < n && differs < 0; ++i)
            if (root_fp[i] != fp[i]) differs = i;
    }
    free(root_fp);
    if (failed) snprintf(why, sizeof why, "out of memory");
    else if (differs >= 0)
        snprintf(why, sizeof why, "option %s differs from rank 0's: every rank must be given "
                 "the same options (only --threads and --pool may differ)",
                 gaps_options_fingerprint_name(differs));
    if (gaps_mpi_agree(failed || differs >= 0, why, sizeof why) >= 0) {
        if (J.rank == 0) snprintf(msg, len, "%s", why);
        return any_failed ? 3 : 2;
    }
    return 0;
}

int gaps_ranks_exit(int status)
{
    int64_t st = status;
    gaps_mpi_share(&st, sizeof st);   /* rank 0 wrote the outputs: its status is the job's */
    free(reports);
    reports = NULL;
    gaps_mpi_finalize();
    return (int)st;
}

gaps_ranks_summary gaps_ranks_summary_get(void) { return summary; }

/* ---- pieces of work ---- */

/* Events per piece in a segment of `len` events, the same on every rank: takers is the
 * number of partitions of all ranks, slots the largest pool of one partition.  (A file's
 * events come in pieces of whole batches: file_piece.) */
static int64_t piece_size(int64_t len, int64_t takers, int64_t slots, int streaming)
{
    int64_t p = PIECE_POOLS * slots;
    const int64_t share = (len + PIECES_PER_TAKER * takers - 1) / (PIECES_PER_TAKER * takers);
    if (share > p) p = share;
    /* streamed output waits on rank 0 until every older event has arrived: pieces of one
     * pool fill keep the events in flight, and so that memory, small */
    if (streaming) p = slots;
    if ((uint64_t)len / MAX_PIECES >= (uint64_t)p) p = (int64_t)((uint64_t)len / MAX_PIECES) + 1;
    return p > 0 ? p : 1;
}

/* gaps_hooks.next_range: the next piece of the segment from the shared counter. */
static int take_piece(void *ctx, int64_t *begin, int64_t *end)
{
    job *j = ctx;
    const double t0 = gaps_now();
    const uint64_t index = gaps_mpi_counter_fetch_add(1);
    const double dt = gaps_now() - t0;
    pthread_mutex_lock(&j->lock);
    j->me.take_s += dt;
    j->me.takes++;
    if (index < j->npieces) {
        *begin = j->seg_begin + (int64_t)index * j->piece;
        *end = j->seg_end - *begin > j->piece ? *begin + j->piece : j->seg_end;
        if (*end > j->given_end) j->given_end = *end;
        j->me.pieces++;
    } else {
        *begin = *end = j->seg_end;   /* none left, or the counter was closed */
    }
    pthread_mutex_unlock(&j->lock);
    return 0;
}

/* No more pieces for anyone in this segment: every later take finds the counter past the
 * last piece.  Called on a stop or an error; several ranks may close it at once. */
static void close_counter(job *j)
{
    if (j->closed) return;
    j->closed = 1;
    gaps_mpi_counter_fetch_add(j->npieces);
}

/* ---- a file's events (--lhe): every rank reads the whole file ---- */

/* Each rank's feed reads the file from its start and passes over the events of the pieces
 * that went to other ranks (the file's events are numbered by their place in it, so a piece
 * is found by counting), and the generator takes the pieces in its run thread, a piece being
 * a whole batch: the pool drains at a batch's end anyway, and a smaller piece would drain it
 * more often.  These wrap run.c's hooks: the file's end, when a rank meets it, closes the
 * counter, since without --events the run's length is not known before. */
static int file_events(void *ctx, gaps_hard_batch *batch, int64_t first, int64_t want,
                       int *ended)
{
    job *j = ctx;
    const int rc = j->user->hard_events(j->user->ctx, batch, first, want, ended);
    if (rc == 0 && *ended) {
        if (batch->first + batch->count < j->file_end) j->file_end = batch->first + batch->count;
        close_counter(j);
    }
    return rc;
}

static int file_events_ahead(void *ctx, gaps_hard_batch *batch, int64_t first, int64_t want)
{
    job *j = ctx;
    return j->user->hard_events_ahead ? j->user->hard_events_ahead(j->user->ctx, batch, first,
                                                                   want)
                                      : -1;
}

static const char *file_events_error(void *ctx, int *status)
{
    job *j = ctx;
    return j->user->hard_events_error ? j->user->hard_events_error(j->user->ctx, status)
                                      : NULL;
}

/* ---- events to rank 0 ---- */

/* A batch: two int64 (events in it, events it holds), then the rows and the records of
 * `cap` events, laid out as gaps_records_carve lays them. */
static size_t rows_bytes(const job *j, int64_t cap)
{
    return j->cfg->keep_rows ? (size_t)cap * gaps_row_stride(j->n_vary) * sizeof(double) : 0;
}
static size_t records_bytes(const job *j, int64_t cap)
{
    gaps_records r;
    return j->cfg->keep_records ? gaps_records_carve(&r, NULL, (size_t)cap, j->cfg->max_partons,
                                                     j->n_vary)
                                : 0;
}
static size_t batch_size(const job *j, int64_t cap)
{
    return 2 * sizeof(int64_t) + rows_bytes(j, cap) + records_bytes(j, cap);
}

static int batches_alloc(job *j)
{
    const size_t per_event = batch_size(j, 1) - 2 * sizeof(int64_t);
    j->batch_cap = BATCH_BYTES / per_event > 0 ? (int64_t)(BATCH_BYTES / per_event) : 1;
    j->batch_bytes = batch_size(j, j->batch_cap);
    for (int k = 0; k < GAPS_MPI_SEND_SLOTS; ++k)
        if (!(j->batch[k] = malloc(j->batch_bytes))) return -1;
    return 0;
}

static void batches_free(job *j)
{
    for (int k = 0; k < GAPS_MPI_SEND_SLOTS; ++k) {
        gaps_mpi_send_wait(k);
        free(j->batch[k]);
        j->batch[k] = NULL;
    }
}

/* Send the batch being filled (an empty one marks the segment's end) and make the next
 * buffer ready, waiting until rank 0 has received what it held. */
static void send_batch(job *j)
{
    int64_t head[2] = { j->batch_count, j->batch_cap };
    memcpy(j->batch[j->slot], head, sizeof head);
    gaps_mpi_send(j->slot, j->batch[j->slot], j->batch_count > 0 ? j->batch_bytes : 0);
    j->slot = (j->slot + 1) % GAPS_MPI_SEND_SLOTS;
    gaps_mpi_send_wait(j->slot);
    j->batch_count = 0;
    j->me.batches++;
}

/* Copy event i of rows/rec into entry k of a batch buffer. */
static void pack_event(const job *j, unsigned char *buf, int64_t k, const double *rows,
                       const gaps_records *rec, int i)
{
    unsigned char *base = buf + 2 * sizeof(int64_t);
    const int stride = gaps_row_stride(j->n_vary);
    if (rows)
        memcpy((double *)base + k * stride, rows + (size_t)i * stride, stride * sizeof(double));
    if (rec) {
        gaps_records b;
        gaps_records_carve(&b, base + rows_bytes(j, j->batch_cap), (size_t)j->batch_cap,
                           rec->maxp, j->n_vary);
        gaps_records_copy(&b, (size_t)k, rec, (size_t)i);
    }
}

/* Ranks > 0, gaps_hooks.events: into batches for rank 0. */
static int forward_events(void *ctx, const double *rows, const gaps_records *rec, int n)
{
    job *j = ctx;
    const double t0 = gaps_now();
    pthread_mutex_lock(&j->batch_lock);
    for (int i = 0; i < n; ++i) {
        if (j->batch_count == j->batch_cap) send_batch(j);
        pack_event(j, j->batch[j->slot], j->batch_count++, rows, rec, i);
    }
    j->me.send_s += gaps_now() - t0;
    pthread_mutex_unlock(&j->batch_lock);
    return 0;
}

/* Ranks > 0, at a segment's end: what is left, then the empty end-of-segment batch. */
static void finish_batches(job *j)
{
    if (j->batch_count > 0) send_batch(j);
    send_batch(j);
    for (int k = 0; k < GAPS_MPI_SEND_SLOTS; ++k) gaps_mpi_send_wait(k);
}

/* Rank 0: one batch from another rank, handed to run.c's events hook. */
static void take_batch(void *ctx, int source, const void *bytes, size_t n)
{
    job *j = ctx;
    (void)source;
    if (n == 0) {
        j->markers++;
        return;
    }
    int64_t head[2];
    if (n < sizeof head) { j->bad_batch = 1; return; }
    memcpy(head, bytes, sizeof head);
    if (head[1] < 1 || head[0] < 1 || head[0] > head[1] || batch_size(j, head[1]) != n) {
        j->bad_batch = 1;
        return;
    }
    j->me.batches++;
    if (j->output_failed || !j->user || !j->user->events) return;
    unsigned char *base = (unsigned char *)bytes + 2 * sizeof(int64_t);
    gaps_records rec;
    if (j->cfg->keep_records)
        gaps_records_carve(&rec, base + rows_bytes(j, head[1]), (size_t)head[1],
                           j->cfg->max_partons, j->n_vary);
    if (j->user->events(j->user->ctx, j->cfg->keep_rows ? (const double *)base : NULL,
                        j->cfg->keep_records ? &rec : NULL, (int)head[0]) != 0)
        j->output_failed = 1;
}

/* Rank 0: whatever batches have arrived. */
static void receive_batches(job *j, int block)
{
    const double t0 = gaps_now();
    gaps_mpi_receive(block, take_batch, j);
    j->me.send_s += gaps_now() - t0;
}

/* Rank 0, gaps_hooks.events: its own events, then those that other ranks sent meanwhile. */
static int root_events(void *ctx, const double *rows, const gaps_records *rec, int n)
{
    job *j = ctx;
    if (j->user->events(j->user->ctx, rows, rec, n) != 0) return -1;
    if (j->size > 1) receive_batches(j, 0);
    return j->output_failed ? -1 : 0;
}

/* gaps_hooks.progress (partition 0, once per launch): a stop closes the counter, so that
 * the other ranks stop too; rank 0 also takes in batches and shows the whole job's
 * progress, as the events given out so far, at most twice a second. */
static void poll_hook(void *ctx, int64_t done, int64_t total)
{
    job *j = ctx;
    (void)done;
    (void)total;
    if (j->user->stop && *j->user->stop) close_counter(j);
    if (j->rank != 0) return;
    if (j->streaming && j->size > 1) receive_batches(j, 0);
    const double t = gaps_now();
    if (j->user->progress && t - j->progress_at > 0.5) {
        j->progress_at = t;
        const uint64_t index = gaps_mpi_counter_fetch_add(0);
        int64_t given = index < j->npieces ? (int64_t)index * j->piece : j->seg_end - j->seg_begin;
        if (given > j->seg_end - j->seg_begin) given = j->seg_end - j->seg_begin;
        j->user->progress(j->user->ctx, j->seg_begin + given - j->cfg->first_event,
                          j->cfg->events);
    }
}

/* ---- the run ---- */

/* Every rank's execution settings that the piece size depends on. */
static void count_takers(const gaps_config *cfg, int64_t *takers, int64_t *slots)
{
    gaps_runtime_set_threads(cfg->threads);
    int64_t parts = gaps_runtime_partitions();
    int64_t per = cfg->slots > 0 ? (cfg->slots + parts - 1) / parts
                                 : gaps_runtime_default_slots_per_partition();
    gaps_mpi_sum(&parts, 1);
    gaps_mpi_max(&per, 1);
    *takers = parts;
    *slots = per;
}

/* A test's failure (tests/test_mpi.sh): GAPS_MPI_FAIL_RANK=N makes rank N report that its
 * pool could not be allocated, as a rank without enough memory would. */
static int simulated_failure(const job *j, char *msg, size_t len)
{
    const char *s = getenv("GAPS_MPI_FAIL_RANK");
    if (!s || *s == '\0' || atoi(s) != j->rank) return 0;
    snprintf(msg, len, "cannot allocate a pool (simulated by GAPS_MPI_FAIL_RANK=%s)", s);
    return 1;
}

/* What rank 0 accumulates over the segments, and how the run went. */
typedef struct totals {
    gaps_state *state;           /* rank 0: resumed state + every segment */
    gaps_state *part;            /* this rank's state of a segment */
    int64_t *cycle_log;          /* one rank: the segments' logs, one after the other */
    double *cycle_log_seconds;
    double cycle_log_s_before;   /* event-loop time of the segments already appended */
    long cycle_log_length;
    long launches, veto_cycles;
    gaps_run first;              /* this rank's settings, from its first generator call */
    int segments;
    double meet_s, reduce_s, drain_s;
} totals;

/* What the ranks agreed on at a segment's end. */
typedef struct meeting {
    int64_t cut;                 /* every event of the run below it is done */
    int64_t stop;                /* the signal that stopped a rank, 0 if none */
    int ended;                   /* a file's events ended at the cut: the run is done */
    int file_failed;             /* on an error: the file failed on a rank (gaps_run's) */
} meeting;

/* Set up the job for a run: the counter, the batches, rank 0's total.  Collective; 0, or -1
 * on every rank (the reason on rank 0) when some rank cannot. */
static int start_job(job *j, totals *t, const gaps_config *cfg, const gaps_hooks *hooks,
                     const gaps_state *resume_state, const gaps_resume_point *resume,
                     int64_t *takers, int64_t *slots, char *why, size_t len)
{
    memset(t, 0, sizeof *t);
    memset(&j->me, 0, sizeof j->me);
    j->cfg = cfg;
    j->user = hooks;
    j->streaming = cfg->keep_rows || cfg->keep_records;
    j->from_file = hooks->hard_events != NULL;
    j->file_end = INT64_MAX;
    j->file_piece = 0;
    if (j->from_file) {
        j->file_piece = gaps_config_file_batch(cfg);
        gaps_mpi_max(&j->file_piece, 1);
    }
    gaps_variation vary[GAPS_VARY_MAX];
    j->n_vary = gaps_config_vary_list(cfg, vary);
    j->output_failed = j->bad_batch = 0;
    snprintf(j->me.host, sizeof j->me.host, "%s", gaps_mpi_host());
    if (cfg->threads > 0)
        snprintf(j->me.threads_why, sizeof j->me.threads_why, "--threads %d", cfg->threads);
    else
        snprintf(j->me.threads_why, sizeof j->me.threads_why, "%s", default_threads_why);
    count_takers(cfg, takers, slots);
    gaps_mpi_counter_create();
    int failed = !(t->part = malloc(sizeof *t->part))
                 && snprintf(why, len, "out of memory") > 0;
    if (!failed && j->rank != 0 && j->streaming && batches_alloc(j) != 0)
        failed = snprintf(why, len, "cannot allocate %d batches of %zu bytes for the per-event "
                                    "output", GAPS_MPI_SEND_SLOTS, j->batch_bytes) > 0;
    free(reports);
    reports = NULL;
    if (!failed && j->rank == 0) {
        t->state = malloc(sizeof *t->state);
        reports = calloc((size_t)j->size, sizeof *reports);
        if (!t->state || !reports) failed = snprintf(why, len, "out of memory") > 0;
        else if (resume_state) *t->state = *resume_state;
        else {
            gaps_state_init(t->state, cfg);
            /* the set's digest, as the generator records it (every rank's is the same:
             * gaps_ranks_same_pdf) */
            if (gaps_config_pdf_identity(cfg, &t->state->pdf_digest, NULL, 0, why, len) != 0)
                failed = 1;
        }
        if (resume) {
            t->launches = (long)resume->launches;
            t->veto_cycles = (long)resume->veto_cycles;
        }
    }
    return gaps_mpi_agree(failed, why, len) >= 0 ? -1 : 0;
}

/* This rank's share of the segment [seg_begin, seg_end): the generator taking pieces, then
 * its last events to rank 0 (or, on rank 0, every rank's).  Returns 1 if it failed (why). */
static int generate_segment(job *j, totals *t, const gaps_hooks *hooks, int64_t seg_begin,
                            int64_t seg_end, int64_t takers, int64_t slots, gaps_run *seg,
                            char *why, size_t len)
{
    j->seg_begin = seg_begin;
    j->seg_end = seg_end;
    j->piece = j->from_file ? j->file_piece
                            : piece_size(seg_end - seg_begin, takers, slots, j->streaming);
    j->npieces = (uint64_t)((seg_end - seg_begin + j->piece - 1) / j->piece);
    /* (a file's run without --events is as long as any file could be: its pieces are counted
     * up to the counter's limit, some 10^16 events on a CPU, and the file's end closes it) */
    if (j->npieces > MAX_PIECES) j->npieces = MAX_PIECES;
    j->given_end = seg_begin;
    j->closed = 0;
    j->markers = 0;
    t->segments++;
    gaps_config c = *j->cfg;
    c.first_event = seg_begin;
    c.events = seg_end - seg_begin;
    c.checkpoint_every = 0;   /* the segment is the checkpoint interval */
    gaps_hooks h = { j, j->streaming ? (j->rank == 0 ? root_events : forward_events) : NULL,
                     NULL, poll_hook, hooks->stop, take_piece,
                     j->from_file ? file_events : NULL,
                     j->from_file ? file_events_ahead : NULL,
                     j->from_file ? file_events_error : NULL };
    int failed = 0;
    if (t->segments == 1 && simulated_failure(j, why, len)) {
        failed = 1;
    } else if (c.events > 0) {
        const double t0 = gaps_now();
        failed = gaps_generate_with(&c, &h, NULL, NULL, seg, why, len) != 0;
        j->me.busy_s += gaps_now() - t0;
        j->me.me_s += seg->time_me;
        j->me.shower_s += seg->time_shower;
        j->me.read_s += seg->time_read;
        j->me.analysis_s += seg->time_analysis;
    }
    /* an error or a stop: the others must not wait for pieces that will not come */
    if (failed || (hooks->stop && *hooks->stop)) close_counter(j);
    if (j->streaming && j->size > 1) {
        const double t0 = gaps_now();
        if (j->rank != 0) {
            pthread_mutex_lock(&j->batch_lock);
            finish_batches(j);
            pthread_mutex_unlock(&j->batch_lock);
        } else {
            while (j->markers < j->size - 1) receive_batches(j, 1);
        }
        t->drain_s += gaps_now() - t0;
    }
    if (!failed && j->rank == 0 && (j->output_failed || j->bad_batch))
        failed = snprintf(why, len, j->bad_batch ? "a batch of events arrived damaged"
                                    : "the per-event output failed; the run was stopped") > 0;
    if (!t->first.backend[0] && seg->backend[0]) {   /* how this rank runs */
        t->first.slots = seg->slots;
        t->first.threads = seg->threads;
        t->first.cycle_log_stride = seg->cycle_log_stride;
        t->first.vary_a_max_ratio = seg->vary_a_max_ratio;   /* (--vary: the same on every rank) */
        t->first.vary_t_headroom = seg->vary_t_headroom;
        snprintf(t->first.backend, sizeof t->first.backend, "%s", seg->backend);
        snprintf(j->me.device, sizeof j->me.device, "%s", seg->device);
        j->me.threads = seg->threads;
        j->me.slots = seg->slots;
    }
    return failed;
}

/* The ranks meet at a segment's end: errors (-1 on every rank if any, the first failing
 * rank's reason on rank 0), stops and the cut. */
static int meet(job *j, totals *t, const gaps_hooks *hooks, int failed, int file_failed,
                meeting *m, char *why, size_t len)
{
    const double t0 = gaps_now();
    if (gaps_mpi_agree(failed, why, len) >= 0) {
        int64_t status = file_failed;   /* the exit status the file's failure calls for */
        gaps_mpi_max(&status, 1);
        m->file_failed = (int)status;
        return -1;
    }
    /* the run's events end at the earliest end any rank met (those who met one beyond it had
     * a piece past the file's end) */
    int64_t v[3] = { hooks->stop ? *hooks->stop : 0, j->given_end, -j->file_end };
    gaps_mpi_max(v, 3);
    m->stop = v[0];
    m->cut = v[1];
    m->ended = -v[2] < INT64_MAX;
    if (m->ended && -v[2] < m->cut) m->cut = -v[2];
    t->meet_s += gaps_now() - t0;
    return 0;
}

/* Every rank's segment state summed exactly into rank 0's; the work counted. */
static void sum_segment(job *j, totals *t, const gaps_run *seg, gaps_state *part)
{
    if (seg->state) *part = *seg->state;
    else gaps_state_init(part, j->cfg);
    j->me.events += (int64_t)part->events;
    const double t0 = gaps_now();
    gaps_mpi_reduce_state(part);
    t->reduce_s += gaps_now() - t0;
    int64_t work[2] = { seg->launches, seg->veto_cycles };
    gaps_mpi_sum(work, 1);
    gaps_mpi_max(&work[1], 1);   /* the ranks run concurrently */
    t->launches += (long)work[0];
    t->veto_cycles += (long)work[1];
}

/* One rank: append a segment's cycle log, counting the events and the event-loop time of the
 * earlier segments. */
static int append_cycle_log(totals *t, const gaps_run *seg, int64_t before)
{
    const long n = t->cycle_log_length + seg->cycle_log_length + 1;
    int64_t *grown = realloc(t->cycle_log, n * sizeof *grown);
    if (!grown) return -1;
    t->cycle_log = grown;
    double *grown_s = realloc(t->cycle_log_seconds, n * sizeof *grown_s);
    if (!grown_s) return -1;
    t->cycle_log_seconds = grown_s;
    for (long i = 0; i < seg->cycle_log_length; ++i) {
        t->cycle_log[t->cycle_log_length] = before + seg->completed_per_cycle[i];
        t->cycle_log_seconds[t->cycle_log_length++] = t->cycle_log_s_before
                                                      + seg->cycle_log_seconds[i];
    }
    t->cycle_log_s_before += seg->time_total;
    return 0;
}

/* Rank 0: add a segment's summed state, covering [seg_begin, cut), to the total. */
static int add_segment(totals *t, gaps_state *sum, int64_t seg_begin, int64_t cut, char *msg,
                       size_t len)
{
    if (sum->events != (uint64_t)(cut - seg_begin))
        return snprintf(msg, len, "the ranks' states hold %" PRIu64 " events where [%" PRId64
                        ", %" PRId64 ") has %" PRId64 ": events were lost or doubled",
                        sum->events, seg_begin, cut, cut - seg_begin), -1;
    sum->n_ranges = 0;
    if (gaps_state_add_range(sum, seg_begin, cut, msg, len) != 0) return -1;
    return gaps_state_merge(t->state, sum, msg, len);
}

/* Rank 0 after the sum: the segment added to the total, the checkpoint written, the counter
 * reset for the next segment.  Returns 1 if it failed (why). */
static int close_segment(job *j, totals *t, const gaps_hooks *hooks, const gaps_run *seg,
                         gaps_state *sum, int64_t seg_begin, int64_t cut, char *why,
                         size_t len)
{
    const gaps_config *cfg = j->cfg;
    int failed = add_segment(t, sum, seg_begin, cut, why, len) != 0
                 || (cfg->keep_cycle_log && seg->completed_per_cycle
                     && append_cycle_log(t, seg, seg_begin - cfg->first_event) != 0);
    if (!failed && hooks->checkpoint && cfg->checkpoint_every > 0) {
        const gaps_resume_point rp = gaps_resume_point_make(cfg, cut, (uint64_t)t->launches,
                                                            (uint64_t)t->veto_cycles);
        if (hooks->checkpoint(hooks->ctx, t->state, &rp) != 0)
            failed = snprintf(why, len, "writing the checkpoint failed") > 0;
    }
    /* the next segment's pieces count from 0 again; no rank takes one before the agreement
     * that follows */
    gaps_mpi_counter_set(0);
    if (!failed && hooks->progress)
        hooks->progress(hooks->ctx, cut - cfg->first_event, cfg->events);
    return failed;
}

/* Rank 0: the run as gaps_generate_with reports it, and the summary of the ranks. */
static void fill_run(gaps_run *run, totals *t, int64_t cut, double wall)
{
    run->state = t->state;
    run->hist = malloc(sizeof *run->hist);
    gaps_run_take_state(run);
    run->next_event = cut;
    run->time_total = wall;
    run->launches = t->launches;
    run->veto_cycles = t->veto_cycles;
    run->slots = t->first.slots;
    run->threads = t->first.threads;
    run->cycle_log_stride = t->first.cycle_log_stride;
    run->completed_per_cycle = t->cycle_log;
    run->cycle_log_seconds = t->cycle_log_seconds;
    run->cycle_log_length = t->cycle_log_length;
    /* --vary: the variations' histograms and cross sections from the summed state's sums (the
     * ranks' states carry them: gaps_mpi_reduce_state), as one process makes them */
    run->n_vary = gaps_state_vary_list(t->state, run->vary);
    run->vary_a_max_ratio = t->first.vary_a_max_ratio;
    run->vary_t_headroom = t->first.vary_t_headroom;
    run->vary_over_events = (int64_t)t->state->vary_over_events;
    run->vary_large_events = (int64_t)t->state->vary_large_events;
    if (run->n_vary > 0) {
        const size_t words = (size_t)run->n_vary
                             * (size_t)gaps_analysis_table[t->state->analysis].total_bins
                             * GAPS_ACC_WORDS;
        run->vary_words = malloc(words * sizeof *run->vary_words);
        run->vary_hist = malloc((size_t)run->n_vary * sizeof *run->vary_hist);
        if (run->vary_words && run->vary_hist) {
            memcpy(run->vary_words, t->state->vary_words, words * sizeof *run->vary_words);
            for (int v = 0; v < run->n_vary; ++v) {
                gaps_state_vary_result(t->state, v, &run->vary_hist[v]);
                gaps_histograms_sigma(&run->vary_hist[v], &run->vary_sigma[v],
                                      &run->vary_sigma_err[v]);
            }
        } else {   /* (out of memory: the YODA file is written from the state all the same) */
            free(run->vary_words);
            free(run->vary_hist);
            run->vary_words = NULL;
            run->vary_hist = NULL;
            run->n_vary = 0;
        }
    }
    snprintf(run->backend, sizeof run->backend, "%s",
             t->first.backend[0] ? t->first.backend : gaps_runtime_backend_name());
    /* stage times: the mean over ranks, which run concurrently */
    int hosts = 0;
    for (int r = 0; r < J.size; ++r) {
        run->time_me += reports[r].me_s / J.size;
        run->time_shower += reports[r].shower_s / J.size;
        run->time_read += reports[r].read_s / J.size;
        run->time_analysis += reports[r].analysis_s / J.size;
        int seen = 0;
        for (int q = 0; q < r; ++q) seen |= strcmp(reports[q].host, reports[r].host) == 0;
        hosts += !seen;
    }
    snprintf(run->device, sizeof run->device, "%d MPI rank%s on %d host%s", J.size,
             J.size == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s");
    summary.ranks = J.size;
    summary.rank = reports;
    summary.piece_events = J.piece;
    summary.segments = t->segments;
    summary.meet_s = t->meet_s;
    summary.reduce_s = t->reduce_s;
    summary.drain_s = t->drain_s;
}

int gaps_ranks_generate(const gaps_config *cfg, const gaps_hooks *hooks,
                        const gaps_state *resume_state, const gaps_resume_point *resume,
                        gaps_run *run, char *msg, size_t len)
{
    job *j = &J;
    totals t;
    char why[1024] = "";
    int64_t takers = 0, slots = 0;
    const double t_entry = gaps_now();
    double startup = -1.0;   /* to the first event of the first segment */
    memset(run, 0, sizeof *run);
    int status = start_job(j, &t, cfg, hooks, resume_state, resume, &takers, &slots, why,
                           sizeof why);
    const int64_t run_end = cfg->first_event + cfg->events;
    const int64_t every = cfg->checkpoint_every > 0 ? cfg->checkpoint_every : cfg->events;
    int64_t seg_begin = resume ? resume->next_event : cfg->first_event;
    meeting m = { seg_begin, 0, 0, 0 };
    const double t_start = gaps_now();
    while (status == 0) {
        /* a segment: [seg_begin, seg_end), the same on every rank */
        const int64_t seg_end = run_end - seg_begin > every ? seg_begin + every : run_end;
        gaps_run seg;
        memset(&seg, 0, sizeof seg);
        int failed = generate_segment(j, &t, hooks, seg_begin, seg_end, takers, slots, &seg,
                                      why, sizeof why);
        if (startup < 0.0) startup = t_start - t_entry + seg.time_startup;
        if (meet(j, &t, hooks, failed, seg.file_failed, &m, why, sizeof why) != 0) {
            gaps_run_free(&seg);
            status = -1;
            break;
        }
        sum_segment(j, &t, &seg, t.part);
        failed = j->rank == 0 && close_segment(j, &t, hooks, &seg, t.part, seg_begin, m.cut,
                                               why, sizeof why);
        gaps_run_free(&seg);
        if (gaps_mpi_agree(failed, why, sizeof why) >= 0) {
            status = -1;
        } else if (m.cut >= run_end || m.ended) {
            break;
        } else if (m.stop) {
            run->interrupted = 1;
            break;
        }
        seg_begin = m.cut;
    }
    const double wall = gaps_now() - t_start;
    if (j->rank != 0 && j->streaming) batches_free(j);
    gaps_mpi_counter_free();
    free(t.part);
    if (status != 0) {
        if (j->rank == 0) snprintf(msg, len, "%s", why);
        run->file_failed = m.file_failed;
        free(t.state);
        free(t.cycle_log);
        free(t.cycle_log_seconds);
        return -1;
    }
    /* every rank learns which signal stopped the run, for its exit status */
    if (m.stop && hooks->stop) *hooks->stop = (sig_atomic_t)m.stop;
    gaps_mpi_gather(&j->me, reports, sizeof j->me);   /* every rank's report, for the summary */
    run->next_event = m.cut;
    if (j->rank == 0) fill_run(run, &t, m.cut, wall);
    run->time_startup = startup > 0.0 ? startup : 0.0;
    run->time_wall = gaps_now() - t_entry;
    return 0;
}
