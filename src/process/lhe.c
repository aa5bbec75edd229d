/* lhe.c -- collisions whose hard events another generator made: the processes lhe-ee (e+ e-
 * beams) and lhe-pp (proton beams) of GAPS_PROCESSES, which --lhe FILE chooses by the file's
 * beams (never --process).
 *
 * They draw nothing.  The program reads the file (src/program/lhe_feed.c), checks that the
 * shower can take each event, and hands the events over a batch at a time
 * (gaps/hard_batch.h); gaps_shower_start() copies an event's rows from the batch into its
 * slot.  What a process keeps is the weight unit the program chose from the file and the
 * batch's address (gaps_file_source, process_impl.h).  The shower is that of the built-in
 * processes of the same beams: final-state dipoles for e+ e- (the incoming leptons are not
 * rows of the record, as for ee-qq), and for proton beams the hadronic machinery (ISR with
 * the run's PDFs, FF/FI/IF/II dipoles).  Both processes' functions are the same: each is one
 * line calling the shared one below. */
#include "process/process_impl.h"

#include <stdio.h>

GAPS_PROCESS_DATA_FITS(gaps_file_source);

/* The beams and sqrt(s) come from the file (the program checks --ecm against them): nothing
 * to refuse here. */
static int file_init(gaps_process *proc, char *msg, size_t len)
{
    (void)proc;
    (void)msg;
    (void)len;
    return 0;
}

/* The unit the program set (gaps_process_set_file_unit); 1 pb before it did. */
static double file_unit(const gaps_process *proc)
{
    const double u = GAPS_PROCESS_CDATA(gaps_file_source, proc)->w_unit;
    return u > 0.0 ? u : 1.0;
}

/* Each event has its own start scale (SCALUP); for the run's checks of the cutoff against the
 * hard scale the largest one possible, s: an event whose start lies below the cutoff is not
 * showered. */
static double file_hard_scale2(const gaps_process *proc)
{
    return proc->s;
}

static double file_nlo_mu_r2(const gaps_process *proc)
{
    return proc->s;
}

static void file_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    (void)proc;
    (void)as;
}

/* never called: the nlo column says NONE (a file's NLO events carry their own weights) */
static void file_set_nlo(gaps_process *proc, double alphas, int compat)
{
    (void)proc;
    (void)alphas;
    (void)compat;
}

/* no sampling tables: the unit stays the program's (estimate 0) */
static double file_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    (void)proc;
    (void)pdf;
    return 0.0;
}

/* a colourless resonance of the file is not kept in the record (its decay products are) */
static int file_intermediate(const gaps_process *proc, double p[4])
{
    (void)proc;
    (void)p;
    return 0;
}

static double file_sigma_exact(const gaps_process *proc)
{
    (void)proc;
    return -1.0;
}

GAPS_DEVICE_BEGIN

/* never called (gaps_shower_start takes the batch's entry): an empty event */
static void file_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    (void)proc;
    (void)rng;
    ev->n = ev->n_in = 0;
    ev->next_tag = 1;
    ev->weight = 0.0;
    ev->t_start = 0.0;
}

GAPS_DEVICE_END

/* The process's functions (process/process_impl.h), for each beam type the shared ones. */
#define GAPS_FILE_PROCESS_(name)                                                               \
    int gaps_process_##name##_init(gaps_process *p, char *m, size_t n)                         \
    { return file_init(p, m, n); }                                                             \
    double gaps_process_##name##_unit(const gaps_process *p) { return file_unit(p); }          \
    double gaps_process_##name##_hard_scale2(const gaps_process *p)                            \
    { return file_hard_scale2(p); }                                                            \
    double gaps_process_##name##_nlo_mu_r2(const gaps_process *p) { return file_nlo_mu_r2(p); }\
    void gaps_process_##name##_set_coupling(gaps_process *p, const gaps_alphas *as)           \
    { file_set_coupling(p, as); }                                                              \
    void gaps_process_##name##_set_nlo(gaps_process *p, double a, int c)                       \
    { file_set_nlo(p, a, c); }                                                                 \
    double gaps_process_##name##_prepare(gaps_process *p, const gaps_pdf *pdf)                 \
    { return file_prepare(p, pdf); }                                                           \
    int gaps_process_##name##_intermediate(const gaps_process *p, double q[4])                 \
    { return file_intermediate(p, q); }                                                        \
    double gaps_process_##name##_sigma_exact(const gaps_process *p)                            \
    { return file_sigma_exact(p); }
GAPS_FILE_PROCESS_(lhe_ee)
GAPS_FILE_PROCESS_(lhe_pp)
#undef GAPS_FILE_PROCESS_

GAPS_DEVICE_BEGIN
void gaps_process_lhe_ee_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    file_generate(proc, rng, ev);
}

void gaps_process_lhe_pp_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    file_generate(proc, rng, ev);
}
GAPS_DEVICE_END
