/* gaps_runtime.h -- memory and threads of the backend, for host code.
 *
 * Device memory in the offload build, ordinary heap memory otherwise.  The physics never calls
 * these: only the program's set-up and tear-down do.
 */
#ifndef GAPS_RUNTIME_H
#define GAPS_RUNTIME_H

#include <stddef.h>

/* Zeroed memory where the loops run; NULL on failure. */
void *gaps_device_alloc(size_t bytes);
void gaps_device_free(void *p);
void gaps_device_to_host(void *host_dst, const void *device_src, size_t bytes);
void gaps_host_to_device(void *device_dst, const void *host_src, size_t bytes);
/* A copy of a host object where the loops run (freed with gaps_device_free); NULL on failure. */
void *gaps_device_copy(const void *host_src, size_t bytes);

/* The backend's name: "serial", "openmp" or "offload". */
const char *gaps_runtime_backend_name(void);

/* Defaults of this backend (gaps_parallel.h says why): event slots per partition, veto
 * cycles per fused launch, veto cycles per splitting round, events between checkpoints. */
int gaps_runtime_default_slots_per_partition(void);
int gaps_runtime_default_cycles_per_launch(void);
int gaps_runtime_default_split_every(int hadronic);
/* 1: whole veto cycles per launch (fused), 0: the step loops (hadron collisions on a GPU: two
 * launches per cycle, --loops trials). */
int gaps_runtime_default_loops_fused(int hadronic);
/* The step loops (steps, trials): veto cycles between analysis and refill. */
int gaps_runtime_default_step_cycles(int hadronic);
/* The step loops: once no event is left to start and at most 1 / this of the slots are
 * showering, a pass runs its cycles in one launch. */
int gaps_runtime_step_tail_share(void);
/* The step loops: the lanes that share an event in the splitting launch (its dipole
 * rates) and in the one launch of a pass at the end of a run, for `events` events showering:
 * a power of two up to 32, and 1 on a CPU (gaps_parallel.h says why). */
int gaps_runtime_event_lanes(long events);
long long gaps_runtime_default_checkpoint_events(void);

/* Select the number of host threads (openmp backend; ignored elsewhere). */
void gaps_runtime_set_threads(int n);
/* Host threads the loops use (1 for serial and for the device). */
int gaps_runtime_threads(void);
/* Host threads a parallel region would ask for without gaps_runtime_set_threads: OpenMP's
 * default (OMP_NUM_THREADS, capped by OMP_THREAD_LIMIT), read without starting a thread; 1
 * where the loops have no host threads. */
long gaps_runtime_default_threads(void);

/* Independent pools a run is split into: one per host thread (openmp), else 1. */
int gaps_runtime_partitions(void);

/* Use device `index` modulo the number of devices (offload build; a no-op elsewhere): with
 * one MPI rank per GPU, each rank passes its rank among the ranks of its node.  Call it before
 * anything touches the device. */
void gaps_runtime_select_device(int index);

/* Check that the loops will run where the build says.  Offload build: 0 if a GPU is usable,
 * otherwise -1 with a reason in msg, unless allow_host is set (then 0 and the loops run on
 * the host).  Other builds: always 0.  `where` receives a description of the device used. */
int gaps_runtime_init(int allow_host, char *where, size_t where_len, char *msg, size_t msg_len);

/* Energy used by the device the loops run on, for --energy.  gaps_runtime_energy_read()
 * returns a counter in joules that only grows (the GPU's total-energy counter read through
 * NVML in the offload build; the CPU packages' RAPL counters under /sys/class/powercap in
 * the host builds), or a negative value when the machine does not expose one; `source`
 * receives what was read.  The difference of two readings is the energy in between. */
double gaps_runtime_energy_read(char *source, size_t len);

#endif
