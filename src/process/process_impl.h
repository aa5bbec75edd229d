/* process/process_impl.h -- what each process of GAPS_PROCESSES (gaps/process.h) defines, and
 * how it reaches its own run constants.
 *
 * A process <name> (a line X(ID, name, ...) of GAPS_PROCESSES) defines in src/process/<name>.c
 * the functions declared below for every process; the dispatch of src/process/process.c is a
 * switch on the run-uniform id, generated from the list, that calls them (device code has no
 * function pointers).  Its run constants (LO and NLO) are one struct of its own, in its private
 * header or its file, kept in gaps_process.data (GAPS_PROCESS_DATA, GAPS_PROCESS_DATA_FITS).
 */
#ifndef GAPS_PROCESS_PROCESS_IMPL_H
#define GAPS_PROCESS_PROCESS_IMPL_H

#include <stddef.h>
#include "gaps/alphas.h"
#include "gaps/process.h"

/* The process's own constants of type `type` in gaps_process *proc (const or not), through
 * which its functions read and write them. */
#define GAPS_PROCESS_DATA(type, proc) ((type *)(void *)(proc)->data.bytes)
#define GAPS_PROCESS_CDATA(type, proc) ((const type *)(const void *)(proc)->data.bytes)
/* In the process's file: its constants fit gaps_process.data and its alignment (a compile
 * error otherwise: raise GAPS_PROCESS_DATA_BYTES). */
#define GAPS_PROCESS_DATA_FITS(type)                                                            \
    _Static_assert(sizeof(type) <= GAPS_PROCESS_DATA_BYTES,                                    \
                   #type " does not fit gaps_process.data: raise GAPS_PROCESS_DATA_BYTES");   \
    _Static_assert(_Alignof(type) <= _Alignof(double) || _Alignof(type) <= _Alignof(int64_t), \
                   #type " needs more alignment than gaps_process.data has")

/* The constants of every process whose hard events come from a file (source LHE in
 * GAPS_PROCESSES): the weight unit the program chose and the batch the generator fills
 * (gaps_process_set_file_unit, gaps_process_set_batch). */
struct gaps_hard_batch;
typedef struct gaps_file_source {
    double w_unit;                          /* pb */
    const struct gaps_hard_batch *batch;    /* where the loops run */
} gaps_file_source;

/* The functions of process <name>; proc is the process's gaps_process, its common members
 * (id, ecm, s, hadronic, analysis, options: its own run options, at their defaults unless its
 * options column says it takes them) set and data all 0 when _init is called:
 *   _init          host: check sqrt(s) = proc->ecm against the process's threshold (-1 with
 *                  the reason in msg, which names the process), set its LO constants; 0
 *   _unit          host: its nominal weight unit, pb (gaps_process.w_unit before the PDFs)
 *   _hard_scale2   host: gaps_process_hard_scale2()
 *   _nlo_mu_r2     host: gaps_process_nlo_mu_r2() (any value where the process has no NLO)
 *   _set_coupling  host: the run's strong coupling as (every run's setup calls it after _init,
 *                  before _set_nlo and _prepare); a process whose LO weights contain alpha_s
 *                  evaluates it here at its own scale, the others ignore it
 *   _set_nlo       host: make its events NLO with coupling alphas and compat (only called
 *                  where its row says nlo = 1)
 *   _prepare       host: its sampling tables from the run's PDFs (host copy); returns the
 *                  tables' estimate of the mean |weight| (pb), 0 if none (gaps_process_prepare)
 *   _intermediate  host: gaps_process_intermediate()
 *   _sigma_exact   host: gaps_process_sigma_exact()
 *   _generate      device: one hard event (gaps_process_generate()) */
#define GAPS_PROCESS_DECLARE_(ID, name, ...)                                                    \
    int gaps_process_##name##_init(gaps_process *proc, char *msg, size_t len);                 \
    double gaps_process_##name##_unit(const gaps_process *proc);                               \
    double gaps_process_##name##_hard_scale2(const gaps_process *proc);                        \
    double gaps_process_##name##_nlo_mu_r2(const gaps_process *proc);                          \
    void gaps_process_##name##_set_coupling(gaps_process *proc, const gaps_alphas *as);       \
    void gaps_process_##name##_set_nlo(gaps_process *proc, double alphas, int compat);         \
    double gaps_process_##name##_prepare(gaps_process *proc, const gaps_pdf *pdf);             \
    int gaps_process_##name##_intermediate(const gaps_process *proc, double p[4]);             \
    double gaps_process_##name##_sigma_exact(const gaps_process *proc);
GAPS_PROCESSES(GAPS_PROCESS_DECLARE_)
#undef GAPS_PROCESS_DECLARE_

GAPS_DEVICE_BEGIN
/* --vary scales and alphas (doc/physics.md 17.6): the factors ev->vary of a weight that is
 * [xf](xa) [xf](xb) of partons pa, pb (PDG codes) at mu_F^2 = muf2, whose product is lum,
 * times alpha_s^power times what does not depend on the scales (process.c) */
void gaps_scales_luminosity(const gaps_process *proc, int pa, int pb, double xa, double xb,
                            double muf2, double lum, int power, gaps_hard_event *ev);
#define GAPS_PROCESS_DECLARE_(ID, name, ...)                                                    \
    void gaps_process_##name##_generate(const gaps_process *proc, gaps_rng *rng,              \
                                        gaps_hard_event *ev);
GAPS_PROCESSES(GAPS_PROCESS_DECLARE_)
#undef GAPS_PROCESS_DECLARE_
GAPS_DEVICE_END

#endif
