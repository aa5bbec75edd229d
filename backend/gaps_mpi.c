/* gaps_mpi.c -- the MPI calls of a shared run (gaps_mpi.h). */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include "gaps_mpi.h"
#include "gaps/analysis.h"

#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Message tags: batches to rank 0 and the reason of a failure never match each other. */
enum { TAG_BATCH = 1, TAG_REASON = 2 };

static MPI_Comm comm = MPI_COMM_NULL;   /* a private duplicate of MPI_COMM_WORLD */
static int my_rank, n_ranks, my_local_rank, n_local_ranks, my_cpus, my_cpu_share;
static char host[MPI_MAX_PROCESSOR_NAME + 1];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* "any thread" calls */
static MPI_Win counter_win = MPI_WIN_NULL;
static MPI_Request send_req[GAPS_MPI_SEND_SLOTS];
static unsigned char *recv_buf;
static size_t recv_cap;

/* my_cpus and my_cpu_share (gaps_mpi.h): the affinity masks of the node's ranks, gathered. */
static void cpu_share(MPI_Comm node)
{
    cpu_set_t mine;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) {   /* unknown: every CPU online */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        if (n < 1) n = 1;
        for (long c = 0; c < n && c < CPU_SETSIZE; ++c) CPU_SET(c, &mine);
    }
    my_cpus = CPU_COUNT(&mine);
    cpu_set_t *all = malloc((size_t)n_local_ranks * sizeof *all);
    if (!all) {   /* as if every rank of the node may use the same CPUs */
        my_cpu_share = my_cpus / n_local_ranks;
    } else {
        MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, node);
        double share = 0.0;
        for (int c = 0; c < CPU_SETSIZE; ++c) {
            if (!CPU_ISSET(c, &mine)) continue;
            int k = 0;
            for (int r = 0; r < n_local_ranks; ++r) k += CPU_ISSET(c, &all[r]) != 0;
            share += 1.0 / (k > 0 ? k : 1);
        }
        my_cpu_share = (int)(share + 1e-9);
        free(all);
    }
    if (my_cpu_share < 1) my_cpu_share = 1;
}

int gaps_mpi_init(int *argc, char ***argv, char *msg, size_t len)
{
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return snprintf(msg, len, "MPI_Init_thread failed"), -1;
    if (provided < MPI_THREAD_SERIALIZED) {
        /* partitions call MPI from their own threads, one at a time */
        MPI_Finalize();
        return snprintf(msg, len, "this MPI gives thread level %d; gaps needs "
                        "MPI_THREAD_SERIALIZED (%d)", provided, MPI_THREAD_SERIALIZED), -1;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &my_rank);
    MPI_Comm_size(comm, &n_ranks);
    /* the ranks that share this node's memory are the ones that share its GPUs */
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, my_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &my_local_rank);
    MPI_Comm_size(node, &n_local_ranks);
    cpu_share(node);
    MPI_Comm_free(&node);
    int n = 0;
    MPI_Get_processor_name(host, &n);
    host[n] = '\0';
    for (int i = 0; i < GAPS_MPI_SEND_SLOTS; ++i) send_req[i] = MPI_REQUEST_NULL;
    return 0;
}

void gaps_mpi_finalize(void)
{
    for (int i = 0; i < GAPS_MPI_SEND_SLOTS; ++i) gaps_mpi_send_wait(i);
    free(recv_buf);
    recv_buf = NULL;
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    MPI_Finalize();
}

void gaps_mpi_abort(int status)
{
    fflush(stderr);
    MPI_Abort(comm != MPI_COMM_NULL ? comm : MPI_COMM_WORLD, status);
}

int gaps_mpi_rank(void) { return my_rank; }
int gaps_mpi_size(void) { return n_ranks; }
int gaps_mpi_local_rank(void) { return my_local_rank; }
int gaps_mpi_local_size(void) { return n_local_ranks; }
int gaps_mpi_cpus(void) { return my_cpus; }
int gaps_mpi_cpu_share(void) { return my_cpu_share; }
const char *gaps_mpi_host(void) { return host; }
double gaps_mpi_time(void) { return MPI_Wtime(); }

/* ---- collectives ---- */

int gaps_mpi_agree(int failed, char *msg, size_t len)
{
    int first = failed ? my_rank : n_ranks;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == n_ranks) return -1;
    if (first != 0) {
        char reason[1024];
        if (my_rank == first) {
            snprintf(reason, sizeof reason, "rank %d on %s: %s", my_rank, host, msg);
            MPI_Send(reason, (int)sizeof reason, MPI_CHAR, 0, TAG_REASON, comm);
        } else if (my_rank == 0) {
            MPI_Recv(reason, (int)sizeof reason, MPI_CHAR, first, TAG_REASON, comm,
                     MPI_STATUS_IGNORE);
            reason[sizeof reason - 1] = '\0';
            snprintf(msg, len, "%s", reason);
        }
    }
    return first;
}

void gaps_mpi_max(int64_t *v, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_MAX, comm);
}

void gaps_mpi_sum(int64_t *v, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_SUM, comm);
}

void gaps_mpi_share(void *p, size_t n)
{
    MPI_Bcast(p, (int)n, MPI_BYTE, 0, comm);
}

void gaps_mpi_gather(const void *mine, void *all, size_t n)
{
    MPI_Gather(mine, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, 0, comm);
}

/* The reduction operator on whole states: the sums of gaps_state_merge, without its checks
 * (every rank runs the same parameters; the caller checks the total event count). */
static void add_states(void *in, void *inout, int *count, MPI_Datatype *type)
{
    (void)type;
    const gaps_state *src = in;
    gaps_state *dst = inout;
    for (int i = 0; i < *count; ++i) {
        const int poisoned = dst[i].events == UINT64_MAX || src[i].events == UINT64_MAX;
        dst[i].events += src[i].events;
        dst[i].capacity_hits += src[i].capacity_hits;
        dst[i].invalid_events += src[i].invalid_events;
        dst[i].bad_weights += src[i].bad_weights;
        dst[i].vary_over_events += src[i].vary_over_events;
        dst[i].vary_large_events += src[i].vary_large_events;
        /* --vary: the variations' sums too (every rank has the same variations) */
        const int vary_bins = gaps_state_vary_list(&dst[i], NULL)
                              * gaps_analysis_table[dst[i].analysis].total_bins;
        /* an overflow (impossible within the weight limit and 2^62 events) makes the event
         * count impossible, for good, which the caller refuses */
        /* (one run: every rank has the same analysis) */
        if (gaps_histograms_accumulate(dst[i].words, src[i].words,
                                       gaps_analysis_table[dst[i].analysis].total_bins) != 0
            || (vary_bins > 0
                && gaps_histograms_accumulate(dst[i].vary_words, src[i].vary_words, vary_bins)
                       != 0)
            || poisoned)
            dst[i].events = UINT64_MAX;
    }
}

void gaps_mpi_reduce_state(gaps_state *s)
{
    MPI_Datatype type;
    MPI_Op op;
    MPI_Type_contiguous((int)sizeof *s, MPI_BYTE, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(add_states, 1, &op);   /* integer sums commute */
    MPI_Reduce(my_rank == 0 ? MPI_IN_PLACE : s, s, 1, type, op, 0, comm);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
}

/* ---- the counter ---- */

void gaps_mpi_counter_create(void)
{
    uint64_t *base = NULL;
    MPI_Win_allocate(my_rank == 0 ? (MPI_Aint)sizeof(uint64_t) : 0, (int)sizeof(uint64_t),
                     MPI_INFO_NULL, comm, &base, &counter_win);
    if (my_rank == 0) *base = 0;
    /* one passive-target epoch for the whole run: no rank waits for rank 0 to open one */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, counter_win);
    MPI_Barrier(comm);   /* rank 0's zero is in place before anyone adds */
}

void gaps_mpi_counter_free(void)
{
    if (counter_win == MPI_WIN_NULL) return;
    MPI_Win_unlock_all(counter_win);
    MPI_Win_free(&counter_win);
}

uint64_t gaps_mpi_counter_fetch_add(uint64_t add)
{
    uint64_t old = 0;
    pthread_mutex_lock(&lock);
    MPI_Fetch_and_op(&add, &old, MPI_UINT64_T, 0, 0, MPI_SUM, counter_win);
    MPI_Win_flush(0, counter_win);
    pthread_mutex_unlock(&lock);
    return old;
}

void gaps_mpi_counter_set(uint64_t value)
{
    /* by adding the difference (mod 2^64): every access to the counter is then one MPI_SUM,
     * the only operation that concurrent accumulates on it may use without extra care */
    const uint64_t now = gaps_mpi_counter_fetch_add(0);
    gaps_mpi_counter_fetch_add(value - now);
}

/* ---- byte messages to rank 0 ---- */

void gaps_mpi_send(int slot, const void *buf, size_t n)
{
    pthread_mutex_lock(&lock);
    MPI_Isend(buf, (int)n, MPI_BYTE, 0, TAG_BATCH, comm, &send_req[slot]);
    pthread_mutex_unlock(&lock);
}

void gaps_mpi_send_wait(int slot)
{
    /* test and let go of the lock in between: the other partitions keep taking work */
    for (;;) {
        int done = 0;
        pthread_mutex_lock(&lock);
        MPI_Test(&send_req[slot], &done, MPI_STATUS_IGNORE);
        pthread_mutex_unlock(&lock);
        if (done) return;
        sched_yield();
    }
}

int gaps_mpi_receive(int block, void (*take)(void *ctx, int source, const void *bytes, size_t n),
                     void *ctx)
{
    int got = 0;
    pthread_mutex_lock(&lock);
    for (;;) {
        int flag = 0, count = 0;
        MPI_Status st;
        if (block && got == 0) {
            MPI_Probe(MPI_ANY_SOURCE, TAG_BATCH, comm, &st);
            flag = 1;
        } else {
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_BATCH, comm, &flag, &st);
        }
        if (!flag) break;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if ((size_t)count > recv_cap) {
            free(recv_buf);
            recv_cap = (size_t)count;
            recv_buf = malloc(recv_cap);
            if (!recv_buf) {
                /* the sender waits for this message: no way on but the end of the job */
                fprintf(stderr, "gaps: rank 0 cannot allocate %d bytes for events of rank %d\n",
                        count, st.MPI_SOURCE);
                gaps_mpi_abort(1);
            }
        }
        MPI_Recv(recv_buf, count, MPI_BYTE, st.MPI_SOURCE, TAG_BATCH, comm, MPI_STATUS_IGNORE);
        take(ctx, st.MPI_SOURCE, recv_buf, (size_t)count);
        got++;
    }
    pthread_mutex_unlock(&lock);
    return got;
}
