/* lhe_pp.c -- p p collisions whose hard events another generator made: the process lhe-pp of
 * GAPS_PROCESSES, chosen by --lhe FILE for a file of proton beams (never by --process).
 *
 * It draws nothing.  The program reads the file (src/program/lhe_feed.c), checks that the
 * shower can take each event, and hands the events over a batch at a time
 * (gaps/hard_batch.h); gaps_shower_start() copies an event's rows from the batch into its
 * slot.  What the process keeps is the weight unit the program chose from the file and the
 * batch's address (gaps_file_source, process_impl.h).  The shower's hadronic machinery (ISR
 * with the run's PDFs, FF/FI/IF/II dipoles) is that of the built-in hadronic processes. */
#include "process/process_impl.h"

#include <stdio.h>

GAPS_PROCESS_DATA_FITS(gaps_file_source);

/* The beams and sqrt(s) come from the file (the program checks --ecm against them): nothing
 * to refuse here. */
int gaps_process_lhe_pp_init(gaps_process *proc, char *msg, size_t len)
{
    (void)proc;
    (void)msg;
    (void)len;
    return 0;
}

/* The unit the program set (gaps_process_set_file_unit); 1 pb before it did. */
double gaps_process_lhe_pp_unit(const gaps_process *proc)
{
    const double u = GAPS_PROCESS_CDATA(gaps_file_source, proc)->w_unit;
    return u > 0.0 ? u : 1.0;
}

/* Each event has its own start scale (SCALUP); for the run's checks of the cutoff against the
 * hard scale the largest one possible, s: an event whose start lies below the cutoff is not
 * showered. */
double gaps_process_lhe_pp_hard_scale2(const gaps_process *proc)
{
    return proc->s;
}

double gaps_process_lhe_pp_nlo_mu_r2(const gaps_process *proc)
{
    return proc->s;
}

void gaps_process_lhe_pp_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    (void)proc;
    (void)as;
}

/* never called: the nlo column says NONE (a file's NLO events carry their own weights) */
void gaps_process_lhe_pp_set_nlo(gaps_process *proc, double alphas, int compat)
{
    (void)proc;
    (void)alphas;
    (void)compat;
}

/* no sampling tables: the unit stays the program's (estimate 0) */
double gaps_process_lhe_pp_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    (void)proc;
    (void)pdf;
    return 0.0;
}

/* a colourless resonance of the file is not kept in the record (its decay products are) */
int gaps_process_lhe_pp_intermediate(const gaps_process *proc, double p[4])
{
    (void)proc;
    (void)p;
    return 0;
}

double gaps_process_lhe_pp_sigma_exact(const gaps_process *proc)
{
    (void)proc;
    return -1.0;
}

GAPS_DEVICE_BEGIN

/* never called (gaps_shower_start takes the batch's entry): an empty event */
void gaps_process_lhe_pp_generate(const gaps_process *proc, gaps_rng *rng,
                                  gaps_hard_event *ev)
{
    (void)proc;
    (void)rng;
    ev->n = ev->n_in = 0;
    ev->next_tag = 1;
    ev->weight = 0.0;
    ev->t_start = 0.0;
}

GAPS_DEVICE_END
