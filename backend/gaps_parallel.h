/* gaps_parallel.h -- the one place that knows which backend the code is built for.
 *
 * The physics is written as plain per-slot functions and loops over the slots of a pool.
 * Parallelism comes at two levels:
 *   GAPS_PARALLEL_FOR   a loop over the slots of one pool, one step of the veto algorithm;
 *   GAPS_PARTITION_FOR  a loop over independent pools (partitions), each of which runs the
 *                       whole cycle loop on its own slots;
 *   GAPS_HOST_PARALLEL_FOR  a loop of independent iterations on the host, outside the event
 *                       loops (a table built at the start of a run): the host's threads on
 *                       the multicore and the GPU build, a plain loop on the serial one.
 * The backends map them as
 *   serial   (GAPS_BACKEND_SERIAL):  both plain loops, one partition;
 *   openmp   (GAPS_BACKEND_OPENMP):  one partition per thread, #pragma omp parallel for over
 *                                    partitions; slot loops are plain loops inside a thread;
 *   offload  (GAPS_BACKEND_OFFLOAD): one partition; each slot loop is a
 *                                    #pragma omp target teams distribute parallel for on
 *                                    device-resident arrays.
 * Why partitions on the CPU: a parallel loop per veto step costs a thread barrier per step,
 * ~5 x 10^5 of them for 10^6 events; a busy machine turns each barrier into a scheduler time
 * slice.  Partitions keep the lock-step algorithm inside each thread and need no barrier until
 * the end.  On the GPU the step loops are the parallelism.
 * Functions that the loops call are marked with GAPS_DEVICE_BEGIN/END (gaps/decl.h), which
 * depends only on OpenMP being enabled.  Nothing else in src/ or include/ tests the backend
 * macros, and no public header includes this one: only the library's sources do.
 *
 * Data reach a loop as pointers to memory where the loop runs: structs of pointers, themselves
 * copied once to the device (gaps_device_copy() in gaps_runtime.h).  The loop clause makes
 * pointers and scalars firstprivate, so they travel as kernel arguments and nothing is mapped
 * or copied per launch (a mapped struct costs a host-to-device copy at every launch).
 */
#ifndef GAPS_PARALLEL_H
#define GAPS_PARALLEL_H

#include "gaps/decl.h"

#define GAPS_PRAGMA(x) _Pragma(#x)

#if defined(GAPS_BACKEND_OFFLOAD)
#  define GAPS_BACKEND_NAME "offload"
/* Threads per team: 256 gave the lowest launch cost on an H200 (doc/design notes). */
#  define GAPS_TEAM_SIZE 256
#  define GAPS_PARALLEL_FOR(n)                                                                  \
    GAPS_PRAGMA(omp target teams distribute parallel for                                       \
                num_teams(((n) + GAPS_TEAM_SIZE - 1) / GAPS_TEAM_SIZE)                         \
                thread_limit(GAPS_TEAM_SIZE) defaultmap(firstprivate: pointer)                 \
                defaultmap(firstprivate: scalar))
#  define GAPS_PARTITION_FOR
/* Setup work on the host (tables built once per run) uses the host's threads. */
#  define GAPS_HOST_PARALLEL_FOR GAPS_PRAGMA(omp parallel for schedule(static))
/* Accumulators shared by many device threads are updated atomically. */
#  define GAPS_ATOMIC_UPDATE GAPS_PRAGMA(omp atomic update)
#  define GAPS_ATOMIC_CAPTURE GAPS_PRAGMA(omp atomic capture)
#  define GAPS_ATOMIC_READ GAPS_PRAGMA(omp atomic read)
#elif defined(GAPS_BACKEND_OPENMP)
#  define GAPS_BACKEND_NAME "openmp"
#  define GAPS_PARALLEL_FOR(n)
#  define GAPS_PARTITION_FOR GAPS_PRAGMA(omp parallel for schedule(static, 1))
#  define GAPS_HOST_PARALLEL_FOR GAPS_PRAGMA(omp parallel for schedule(static))
#  define GAPS_ATOMIC_UPDATE GAPS_PRAGMA(omp atomic update)
#  define GAPS_ATOMIC_CAPTURE GAPS_PRAGMA(omp atomic capture)
#  define GAPS_ATOMIC_READ GAPS_PRAGMA(omp atomic read)
#else
#  define GAPS_BACKEND_SERIAL 1
#  define GAPS_BACKEND_NAME "serial"
#  define GAPS_PARALLEL_FOR(n)
#  define GAPS_PARTITION_FOR
#  define GAPS_HOST_PARALLEL_FOR
#  define GAPS_ATOMIC_UPDATE
#  define GAPS_ATOMIC_CAPTURE
#  define GAPS_ATOMIC_READ
#endif

/* The lanes of a GPU warp (32 threads that issue their instructions together).  A loop whose
 * lanes take different paths in one pass leaves the warp divided, and the compiler decides
 * where it becomes whole again; inside a long loop it may stay divided for the rest of the
 * launch, each part running on its own (seen on an H200: LEP's fused cycles ran 2.5 times
 * more warp instructions with 3.9 instead of 9.6 lanes active after an unrelated change
 * moved code).  gaps_lanes_together() names the lanes that run this point together,
 * gaps_lanes_rejoin(lanes) waits until all of them are there: called at the top of each pass
 * of a loop that all of them run the same number of times, it makes the warp whole at each
 * pass.  Elsewhere (the host, the serial and multicore builds) both do nothing. */
GAPS_DEVICE_BEGIN
static inline unsigned gaps_lanes_together(void)
{
#if defined(__NVPTX__)
    return __nvvm_activemask();
#else
    return 0u;
#endif
}

static inline void gaps_lanes_rejoin(unsigned lanes)
{
#if defined(__NVPTX__)
    __nvvm_bar_warp_sync(lanes);
#else
    (void)lanes;
#endif
}

/* 1 if pred holds on any of the lanes (all of them must call it together), else 0; pred
 * itself where there are no lanes. */
static inline int gaps_lanes_any(unsigned lanes, int pred)
{
#if defined(__NVPTX__)
    return __nvvm_vote_any_sync(lanes, pred != 0) != 0;
#else
    (void)lanes;
    return pred != 0;
#endif
}

/* Groups of lanes that share one event.  A launch over n * width iterations, iteration i
 * working on entry i / width as lane i % width of its group (width a power of two up to 32),
 * gives each group consecutive lanes of one warp: the offload build's loops hand consecutive
 * iterations to consecutive threads, in teams of GAPS_TEAM_SIZE, a multiple of 32.  Every
 * lane of a group must reach each call below together with the others.
 * gaps_lanes_group(width) names the lanes of the caller's group;
 * gaps_lanes_share(group, v) returns the value v of the group's first lane, after which the
 * group's lanes see the memory writes the first lane made before the call;
 * gaps_lanes_rejoin(group) waits for the group and orders its writes the same way.
 * Elsewhere a group is one iteration after another and these do nothing. */
static inline unsigned gaps_lanes_group(int width)
{
#if defined(__NVPTX__)
    if (width >= 32) return 0xffffffffu;
    const unsigned lane = __nvvm_read_ptx_sreg_laneid();
    return ((1u << width) - 1u) << (lane & ~(unsigned)(width - 1));
#else
    (void)width;
    return 0u;
#endif
}

/* The lanes a group of `width` has where the code runs: width on a GPU, 1 elsewhere (the
 * host runs a group's iterations one after another, so its first does the whole event and
 * the others nothing). */
static inline int gaps_lanes_in_group(int width)
{
#if defined(__NVPTX__)
    return width;
#else
    (void)width;
    return 1;
#endif
}

static inline int gaps_lanes_share(unsigned group, int v)
{
#if defined(__NVPTX__)
    __nvvm_bar_warp_sync(group);
    return __nvvm_shfl_sync_idx_i32(group, v, __builtin_ctz(group), 0x1f);
#else
    (void)group;
    return v;
#endif
}

/* Append to a list shared by all threads: returns the entry this thread got (counting from
 * *count, which it advances), or -1 if it does not want one.  On a GPU the lanes of a warp
 * that arrive together take one block of entries with one atomic add, in the order of their
 * lanes: 32 times fewer atomics on one address, and a warp of consecutive slots leaves
 * consecutive entries, so the launches that read the list read neighbouring slots side by
 * side.  Every lane that arrives together must call it (want 0 or 1), none may skip it. */
static inline long gaps_lanes_append(unsigned long long *count, int want)
{
#if defined(__NVPTX__)
    const unsigned lanes = __nvvm_activemask();
    const unsigned wanting = __nvvm_vote_ballot_sync(lanes, want != 0);
    if (wanting == 0u) return -1;
    const int leader = __builtin_ctz(wanting);
    int base = 0;
    if ((int)__nvvm_read_ptx_sreg_laneid() == leader) {
        unsigned long long b;
        GAPS_ATOMIC_CAPTURE
        { b = *count; *count += (unsigned long long)__builtin_popcount(wanting); }
        base = (int)b;
    }
    base = __nvvm_shfl_sync_idx_i32(lanes, base, leader, 0x1f);
    if (!want) return -1;
    return (long)base + __builtin_popcount(wanting & __nvvm_read_ptx_sreg_lanemask_lt());
#else
    if (!want) return -1;
    unsigned long long i;
    GAPS_ATOMIC_CAPTURE
    i = (*count)++;
    return (long)i;
#endif
}
GAPS_DEVICE_END

/* Defaults of each backend (used through gaps_runtime_default_*() in gaps_runtime.h).
 * Pool size: a GPU needs ~10^5-10^6 threads in flight, and a larger pool spreads the cost
 * of each pass of the host loop (analysis, refill, the launch's last waves) over more events:
 * on an H200 2^20 slots (4.7 GB) took 10^8 events in 1.59 s against 1.65 s with 2^19 and
 * 1.54 s with 2^21 (9.3 GB; doc/benchmarks.md, round four).  A CPU core works best on a pool
 * that stays in its cache (128 slots: 7.2 us/event against 7.6 at 512 and 8.6 at 2048).
 * Veto cycles per fused launch: on an H200, 16 cycles take 10^6 events from 167 ms (1 cycle)
 * to 47 ms: fewer launches, analyses and counter reads (doc/benchmarks.md).  On a CPU a
 * launch costs nothing, so one cycle per launch keeps finished slots waiting least.
 * Splitting rounds (gaps_veto_cycle()) make cycles cheap, and longer launches pay again: on
 * an H200 with 2^20 slots, 10^8 events took 1.65 s in launches of 64 cycles with a round
 * every 8, 1.59 s at 96 and 8; in another call 1.62 s at 96 and 8, 1.57 s at 96 and 10, 1.55 s
 * at 128 and 12 (10^6 events: 19.2, 18.8 and 17.8 ms).  Splitting at once in launches of 16
 * took 3.35 s before round four (doc/benchmarks.md).  On a CPU nothing waits for a
 * neighbouring lane: 1.
 * Hadron collisions accept a fifth of their trials (emissions and moves to the next scale bin
 * of the bounds, doc/physics.md 15.3), so a slot that waits for a splitting round idles
 * through many cycles of its warp: on an H200, 10^7 pp-z events took 12.5 s with a round
 * every cycle, 13.1 s every 2, 14.1 s every 3 and 22.5 s every 12 (128 cycles per launch; 64:
 * 12.6, 13.6, 14.9 s).  One launch per veto step is faster still for them on a GPU (4x10^6
 * pp-z events: 3.15 s against 5.03 s fused, both splitting at once): a lane does one step at a
 * time, and the pool is refilled after every cycle instead of every 128; for e+e- the fused
 * loops are the faster ones.  Analysis and refill every 8 cycles instead of every cycle: 10^7
 * pp-z events 5.44 s instead of 6.99 s (4: 5.60 s, 16: 5.45 s, 32: 5.52 s).  Two launches per
 * cycle, the trial (steps 1 to 3) and the splitting (--loops trials), are faster than four:
 * 10^6 pp-z events 245 -> 219 ns, 10^7 events 225 -> 207 ns (H200, 2026-11-27): the GPU
 * default for hadron collisions (GAPS_DEFAULT_LOOPS_FUSED_HADRONIC 0 means trials).
 * The end of a run of the step loops: once no event is left to start and at most 1/64 of the
 * slots are showering, each pass runs its cycles in one launch over the showering slots
 * (gaps_shower_launch_cycles_listed): a few long events then cost a lane's latency per cycle
 * instead of four launches.  On an H200 (2026-11-27) the last 0.1 % of 10^7 pp-z events took
 * 0.107 s instead of 0.192 s, and 10^6 events 0.367 s instead of 0.501 s.  On a CPU the step
 * loops are not the default, and the switch changes nothing but the launches.
 * Lanes to an event (gaps_runtime_event_lanes(), gaps_lanes_group()): where few events
 * shower, the splitting launch and the end-of-run launch give each event a group of lanes of
 * a warp, which compute the rows of its dipole rates side by side; as many lanes as keep the
 * launch within 2^19 threads, at most 32.  On an H200 (2026-11-27) 10^6 pp-z events took
 * 0.304 s with 2^19 or 2^20 threads, 0.302 s with 2^17, against 0.336 s with one lane to an
 * event everywhere, 0.311 s with 32 lanes at the end of the run only; 10^7 events 2.34 s (2^19)
 * and 2.28-2.32 s (2^20).  A fixed 8 lanes in every splitting launch cost 11 % at 10^7 events:
 * with the pool full, a lane to an event already fills the GPU, and the other lanes of a group
 * wait while the first moves the partons.  On a CPU a group's iterations run one after
 * another: 1 lane.
 * Checkpoint interval: each checkpoint drains the pool (the tail of a run) and writes a
 * small file; the interval makes that cost well under 1 % (doc/benchmarks.md). */
#if defined(GAPS_BACKEND_OFFLOAD)
#  define GAPS_DEFAULT_SLOTS_PER_PARTITION (1 << 20)
#  define GAPS_DEFAULT_CYCLES_PER_LAUNCH 128
#  define GAPS_DEFAULT_SPLIT_EVERY 12
#  define GAPS_DEFAULT_SPLIT_EVERY_HADRONIC 1
#  define GAPS_DEFAULT_LOOPS_FUSED_HADRONIC 0
#  define GAPS_DEFAULT_STEP_CYCLES_HADRONIC 8
#  define GAPS_DEFAULT_CHECKPOINT_EVENTS 100000000LL
#  define GAPS_EVENT_LANE_THREADS (1L << 19)
#  define GAPS_MAX_EVENT_LANES 32
#else
#  define GAPS_DEFAULT_SLOTS_PER_PARTITION 128
#  define GAPS_DEFAULT_CYCLES_PER_LAUNCH 1
#  define GAPS_DEFAULT_SPLIT_EVERY 1
#  define GAPS_DEFAULT_SPLIT_EVERY_HADRONIC 1
#  define GAPS_DEFAULT_LOOPS_FUSED_HADRONIC 1
#  define GAPS_DEFAULT_STEP_CYCLES_HADRONIC 1
#  define GAPS_DEFAULT_CHECKPOINT_EVENTS 2000000LL
#  define GAPS_EVENT_LANE_THREADS 0L
#  define GAPS_MAX_EVENT_LANES 1
#endif
/* the same on every backend (the step loops' end of a run, above) */
#define GAPS_DEFAULT_STEP_TAIL_SHARE 64

/* Bytes of a host cache line: data written by different host threads is kept this far apart
 * (no false sharing). */
#define GAPS_CACHE_LINE_BYTES 64

/* Workers and their private accumulators.  Histograms keep one copy per worker and are merged
 * once at the end: a host thread (partition) owns its copy outright; on the device the threads
 * of a team share a copy (GAPS_DEVICE_COPIES copies in all) and update it atomically. */
#if defined(GAPS_BACKEND_OFFLOAD)
#  include <omp.h>
#  define GAPS_DEVICE_COPIES 256
#  define GAPS_WORKER_ATOMIC_UPDATE GAPS_ATOMIC_UPDATE
#  define GAPS_WORKER_ATOMIC_CAPTURE GAPS_ATOMIC_CAPTURE
static inline int gaps_worker_id(void) { return omp_get_team_num() % GAPS_DEVICE_COPIES; }
static inline int gaps_worker_count(void) { return GAPS_DEVICE_COPIES; }
#elif defined(GAPS_BACKEND_OPENMP)
#  include <omp.h>
#  define GAPS_WORKER_ATOMIC_UPDATE
#  define GAPS_WORKER_ATOMIC_CAPTURE
static inline int gaps_worker_id(void) { return omp_get_thread_num(); }
static inline int gaps_worker_count(void) { return omp_get_max_threads(); }
#else
#  define GAPS_WORKER_ATOMIC_UPDATE
#  define GAPS_WORKER_ATOMIC_CAPTURE
static inline int gaps_worker_id(void) { return 0; }
static inline int gaps_worker_count(void) { return 1; }
#endif

#endif
