/* gaps_runtime.c -- device memory, threads and device discovery for each backend. */
#define _POSIX_C_SOURCE 200809L
#include "gaps_runtime.h"
#include "gaps_parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gaps_runtime_backend_name(void) { return GAPS_BACKEND_NAME; }
int gaps_runtime_default_slots_per_partition(void) { return GAPS_DEFAULT_SLOTS_PER_PARTITION; }
int gaps_runtime_default_cycles_per_launch(void) { return GAPS_DEFAULT_CYCLES_PER_LAUNCH; }
int gaps_runtime_default_step_cycles(int hadronic)
{
    return hadronic ? GAPS_DEFAULT_STEP_CYCLES_HADRONIC : 1;
}

int gaps_runtime_step_tail_share(void) { return GAPS_DEFAULT_STEP_TAIL_SHARE; }

int gaps_runtime_event_lanes(long events)
{
    int lanes = 1;
    while (lanes < GAPS_MAX_EVENT_LANES && (long)(2 * lanes) * events <= GAPS_EVENT_LANE_THREADS)
        lanes *= 2;
    return lanes;
}

int gaps_runtime_default_loops_fused(int hadronic)
{
    return hadronic ? GAPS_DEFAULT_LOOPS_FUSED_HADRONIC : 1;
}

int gaps_runtime_default_split_every(int hadronic)
{
    return hadronic ? GAPS_DEFAULT_SPLIT_EVERY_HADRONIC : GAPS_DEFAULT_SPLIT_EVERY;
}
long long gaps_runtime_default_checkpoint_events(void) { return GAPS_DEFAULT_CHECKPOINT_EVENTS; }

#if defined(GAPS_BACKEND_OFFLOAD)
#include <dlfcn.h>

void *gaps_device_alloc(size_t bytes)
{
    const int dev = omp_get_default_device();
    char *p = omp_target_alloc(bytes ? bytes : 1, dev);
    if (!p) return NULL;
    const size_t n = bytes;
    /* zero on the device itself: no host buffer of the same size is needed */
#pragma omp target teams distribute parallel for is_device_ptr(p)
    for (size_t i = 0; i < n; ++i) p[i] = 0;
    return p;
}

void gaps_device_free(void *p)
{
    if (p) omp_target_free(p, omp_get_default_device());
}

void gaps_device_to_host(void *dst, const void *src, size_t bytes)
{
    omp_target_memcpy(dst, src, bytes, 0, 0, omp_get_initial_device(), omp_get_default_device());
}

void gaps_host_to_device(void *dst, const void *src, size_t bytes)
{
    omp_target_memcpy(dst, src, bytes, 0, 0, omp_get_default_device(), omp_get_initial_device());
}

void gaps_runtime_set_threads(int n) { (void)n; }
int gaps_runtime_threads(void) { return 1; }
long gaps_runtime_default_threads(void) { return 1; }
int gaps_runtime_partitions(void) { return 1; }

void gaps_runtime_select_device(int index)
{
    /* a node's ranks share its GPUs in turn; where the launcher already gave each rank one
     * GPU (CUDA_VISIBLE_DEVICES), there is one device and every rank takes it */
    const int ndev = omp_get_num_devices();
    if (ndev > 0 && index >= 0) omp_set_default_device(index % ndev);
}

/* The GPU's name from the CUDA driver, loaded at run time so that the program has no link
 * dependency on it (libomptarget loads the same library). */
static void cuda_device_name(char *name, size_t len)
{
    typedef int (*init_fn)(unsigned);
    typedef int (*get_fn)(int *, int);
    typedef int (*name_fn)(char *, int, int);
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    snprintf(name, len, "unknown GPU");
    if (!lib) return;
    init_fn cu_init = (init_fn)dlsym(lib, "cuInit");
    get_fn cu_get = (get_fn)dlsym(lib, "cuDeviceGet");
    name_fn cu_name = (name_fn)dlsym(lib, "cuDeviceGetName");
    int dev = 0;
    if (cu_init && cu_get && cu_name && cu_init(0) == 0
        && cu_get(&dev, omp_get_default_device()) == 0)
        cu_name(name, (int)len, dev);
}

void *gaps_device_copy(const void *src, size_t bytes)
{
    void *p = gaps_device_alloc(bytes);
    if (p) gaps_host_to_device(p, src, bytes);
    return p;
}

int gaps_runtime_init(int allow_host, char *where, size_t where_len, char *msg, size_t msg_len)
{
    /* On the host fallback libomp warns that it cannot start thousands of "teams" threads;
     * that is expected there and not worth a warning on every run. */
    if (allow_host) setenv("KMP_WARNINGS", "0", 0);
    const int ndev = omp_get_num_devices();
    int on_device = 0;
    if (ndev > 0) {
#pragma omp target map(from: on_device)
        on_device = !omp_is_initial_device();
    }
    if (on_device) {
        char name[128];
        cuda_device_name(name, sizeof name);
        snprintf(where, where_len, "GPU %d of %d: %s", omp_get_default_device(), ndev, name);
        return 0;
    }
    if (allow_host) {
        snprintf(where, where_len, "host (offload build, no GPU used: --allow-host)");
        return 0;
    }
    snprintf(msg, msg_len,
             "no usable GPU: omp_get_num_devices() = %d%s; run with --allow-host to run the "
             "offload build on the host", ndev,
             ndev == 0 ? " (no device, or its image was rejected by libomptarget)" : "");
    return -1;
}

/* NVML, loaded at run time like the CUDA driver: nvmlDeviceGetTotalEnergyConsumption gives
 * millijoules since the driver loaded (Volta and newer). */
double gaps_runtime_energy_read(char *source, size_t len)
{
    typedef int (*init_fn)(void);
    typedef int (*handle_fn)(unsigned, void **);
    typedef int (*energy_fn)(void *, unsigned long long *);
    static void *lib;
    static energy_fn get_energy;
    static void *device;
    static int tried;
    if (!tried) {
        tried = 1;
        lib = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
        init_fn init = lib ? (init_fn)dlsym(lib, "nvmlInit_v2") : NULL;
        handle_fn handle = lib ? (handle_fn)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2") : NULL;
        get_energy = lib ? (energy_fn)dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption") : NULL;
        if (!init || !handle || !get_energy || init() != 0
            || handle((unsigned)omp_get_default_device(), &device) != 0)
            get_energy = NULL;
    }
    unsigned long long mj = 0;
    if (!get_energy || get_energy(device, &mj) != 0) {
        snprintf(source, len, "no GPU energy counter (NVML not available)");
        return -1.0;
    }
    snprintf(source, len, "GPU %d total-energy counter (NVML)", omp_get_default_device());
    return 1e-3 * (double)mj;
}

#else /* host backends */

/* The loops' memory on the host, in whole cache lines: a small block (a pool's counters, a
 * partition's arrays) then never shares a line with another partition's, which another
 * thread writes (false sharing).  Large blocks come from calloc: fresh pages, zero without
 * being touched, so a large pool costs only the memory its slots use. */
void *gaps_device_alloc(size_t bytes)
{
    const size_t n = bytes / GAPS_CACHE_LINE_BYTES * GAPS_CACHE_LINE_BYTES + GAPS_CACHE_LINE_BYTES;
    if (n < bytes) return NULL;
    if (n >= ((size_t)1 << 20)) return calloc(1, n);
    void *p = aligned_alloc(GAPS_CACHE_LINE_BYTES, n);
    if (p) memset(p, 0, n);
    return p;
}
void gaps_device_free(void *p) { free(p); }
void gaps_device_to_host(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }
void gaps_host_to_device(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }

void *gaps_device_copy(const void *src, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p) memcpy(p, src, bytes);
    return p;
}

#if defined(GAPS_BACKEND_OPENMP)
void gaps_runtime_set_threads(int n) { if (n > 0) omp_set_num_threads(n); }
/* The threads a parallel region really gets (OMP_THREAD_LIMIT and the like may give fewer
 * than were asked for), counted inside one. */
int gaps_runtime_threads(void)
{
    int n = 1;
#pragma omp parallel
    {
#pragma omp single
        n = omp_get_num_threads();
    }
    return n;
}
long gaps_runtime_default_threads(void)
{
    const long n = omp_get_max_threads(), limit = omp_get_thread_limit();
    return limit > 0 && limit < n ? limit : n;
}
#else
void gaps_runtime_set_threads(int n) { (void)n; }
int gaps_runtime_threads(void) { return 1; }
long gaps_runtime_default_threads(void) { return 1; }
#endif
int gaps_runtime_partitions(void) { return gaps_runtime_threads(); }
void gaps_runtime_select_device(int index) { (void)index; }

/* RAPL package counters, summed over packages.  They wrap at max_energy_range_uj; a run
 * longer than one wrap (minutes to hours) would be undercounted, so only differences over
 * a run are meaningful, and the reading says where it came from. */
double gaps_runtime_energy_read(char *source, size_t len)
{
    double joules = 0.0;
    int found = 0;
    for (int pkg = 0; pkg < 64; ++pkg) {
        char path[96];
        snprintf(path, sizeof path, "/sys/class/powercap/intel-rapl:%d/energy_uj", pkg);
        FILE *f = fopen(path, "r");
        if (!f) break;
        unsigned long long uj;
        if (fscanf(f, "%llu", &uj) == 1) joules += 1e-6 * (double)uj, ++found;
        fclose(f);
    }
    if (!found) {
        snprintf(source, len, "no CPU energy counter (RAPL not readable)");
        return -1.0;
    }
    snprintf(source, len, "RAPL, %d CPU package%s", found, found == 1 ? "" : "s");
    return joules;
}

int gaps_runtime_init(int allow_host, char *where, size_t where_len, char *msg, size_t msg_len)
{
    (void)allow_host;
    (void)msg;
    (void)msg_len;
    snprintf(where, where_len, "host CPU, %d thread%s", gaps_runtime_threads(),
             gaps_runtime_threads() == 1 ? "" : "s");
    return 0;
}

#endif
