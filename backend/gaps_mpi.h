/* gaps_mpi.h -- the MPI calls of a run shared by several processes (-DGAPS_MPI=ON).
 *
 * This is the only file pair that includes <mpi.h>.  It offers what the program's MPI driver
 * (src/program/ranks_mpi.c) needs and nothing about events or physics: who and where this process
 * is, collectives with one clear error message, an exact sum of run states, a shared
 * fetch-and-add counter on rank 0, and byte messages to rank 0.
 *
 * Threads: the generator's partitions call the driver's hooks from their own threads, so the
 * functions marked "any thread" take one process-wide lock around their MPI calls (MPI is
 * initialised with MPI_THREAD_SERIALIZED).  The others are collective or rank-0 calls made
 * by the main thread between generator calls.  Errors of MPI itself abort the job (MPI's
 * default handler): they leave no state that could be agreed on.
 */
#ifndef GAPS_MPI_H
#define GAPS_MPI_H

#include <stddef.h>
#include <stdint.h>
#include "gaps/state.h"

/* Initialise MPI (MPI_THREAD_SERIALIZED) and learn the rank, the number of ranks, the rank
 * among those on the same node (MPI_Comm_split_type, shared memory) and the host name.  0, or
 * -1 with a reason in msg (then MPI is not usable and the caller just exits). */
int gaps_mpi_init(int *argc, char ***argv, char *msg, size_t len);
void gaps_mpi_finalize(void);
/* The last resort when the ranks cannot agree any more: ends every rank of the job. */
void gaps_mpi_abort(int status);

int gaps_mpi_rank(void);
int gaps_mpi_size(void);
int gaps_mpi_local_rank(void);   /* rank among the ranks of this node */
int gaps_mpi_local_size(void);   /* ranks on this node */
/* The CPUs this rank may run on (its affinity mask, sched_getaffinity), and its share of
 * them: each of those CPUs counts 1/k where k ranks of this node may run on it; the sum,
 * rounded down, at least 1.  Ranks bound to CPUs of their own keep them all, ranks that are
 * not bound divide the node's CPUs among them.  Found by gaps_mpi_init. */
int gaps_mpi_cpus(void);
int gaps_mpi_cpu_share(void);
const char *gaps_mpi_host(void);
double gaps_mpi_time(void);      /* seconds, MPI_Wtime */

/* ---- collectives (every rank, main thread) ---- */

/* Agree on failure: each rank says whether it failed (msg: its one-line reason).  Returns the
 * lowest failing rank, or -1 when none failed.  On rank 0 msg then holds that rank's reason,
 * prefixed with "rank N on HOST: " when it is not rank 0 itself. */
int gaps_mpi_agree(int failed, char *msg, size_t len);
/* v[i] = maximum over ranks of v[i] (on every rank). */
void gaps_mpi_max(int64_t *v, int n);
/* v[i] = sum over ranks of v[i] (on every rank). */
void gaps_mpi_sum(int64_t *v, int n);
/* Rank 0's n bytes at p, copied to p on every rank. */
void gaps_mpi_share(void *p, size_t n);
/* Rank 0 receives every rank's n bytes at mine into all (size * n bytes, rank order). */
void gaps_mpi_gather(const void *mine, void *all, size_t n);
/* Sum the counts and the exact accumulators (the variations' too, --vary) of every rank's
 * state into rank 0's s (integer sums with carries: exact and independent of the order).
 * Ranges, parameters and version are rank 0's own; the caller knows which events the states
 * cover. */
void gaps_mpi_reduce_state(gaps_state *s);

/* ---- a counter on rank 0 that every rank adds to atomically ---- */

/* Create it (collective), zero. */
void gaps_mpi_counter_create(void);
void gaps_mpi_counter_free(void);   /* collective */
/* Add `add` and return the value before (MPI_Fetch_and_op, MPI_SUM).  Any thread. */
uint64_t gaps_mpi_counter_fetch_add(uint64_t add);
/* Rank 0, while no other rank uses the counter (between two collectives): set it. */
void gaps_mpi_counter_set(uint64_t value);

/* ---- byte messages to rank 0 ---- */

/* Send n bytes to rank 0 (non-blocking; any thread).  The buffer belongs to MPI until
 * gaps_mpi_send_wait says it is free again; `slot` (0 .. GAPS_MPI_SEND_SLOTS - 1) names the
 * send so that the caller can keep several buffers in flight. */
#define GAPS_MPI_SEND_SLOTS 4
void gaps_mpi_send(int slot, const void *buf, size_t n);
/* Wait until the send in `slot` (if any) is complete.  Any thread. */
void gaps_mpi_send_wait(int slot);

/* Rank 0: receive the messages that have arrived (wait for one first if `block`), calling
 * take(ctx, source, bytes, n) for each, in the order each rank sent them.  Returns the number
 * received.  Any thread; take must not call gaps_mpi_*. */
int gaps_mpi_receive(int block, void (*take)(void *ctx, int source, const void *bytes, size_t n),
                     void *ctx);

#endif
