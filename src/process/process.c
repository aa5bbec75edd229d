/* process.c -- the list of hard processes and the dispatch to them (gaps/process.h). */
#include "gaps/process.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "process/processes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One row per process, in the order of enum gaps_process_id. */
const gaps_process_info gaps_process_table[GAPS_N_PROCESSES] = {
    [GAPS_PROCESS_EE_QQ] = { "ee-qq", "e+ e- -> Z/gamma* -> q qbar, LO + dipole shower",
                             { -11, 11 }, GAPS_DEFAULT_ECM, 0, NULL, GAPS_ANALYSIS_LEP,
                             { 2, 3 } },   /* q qbar; NLO: + g (ee_qq_nlo.c) */
    [GAPS_PROCESS_PP_Z] = { "pp-z", "p p -> Z (on shell), LO + dipole shower",
                            { 2212, 2212 }, GAPS_DEFAULT_ECM_PP, 1, GAPS_DEFAULT_PDF,
                            GAPS_ANALYSIS_LHC, { 3, 4 } },   /* q qbar Z; NLO: + a parton */
    [GAPS_PROCESS_PP_LL] = { "pp-ll", "p p -> Z/gamma* -> l+ l- (Drell-Yan), LO + dipole shower",
                             { 2212, 2212 }, GAPS_DEFAULT_ECM_PP, 1, GAPS_DEFAULT_PDF,
                             GAPS_ANALYSIS_LHC, { 4, 5 } },   /* q qbar l- l+; NLO: + a parton */
};

int gaps_process_lookup(const char *name)
{
    for (int i = 0; i < GAPS_N_PROCESSES; ++i)
        if (strcmp(name, gaps_process_table[i].name) == 0) return i;
    return -1;
}

int gaps_process_min_partons(int process, int nlo)
{
    if (process < 0 || process >= GAPS_N_PROCESSES) return 3;
    /* the hard event's rows, then row n for the first emission (gaps/process.h says why) */
    return gaps_process_table[process].hard_rows[nlo ? 1 : 0] + 1;
}

int gaps_process_analysis(int process, int compat)
{
    if (process < 0 || process >= GAPS_N_PROCESSES) return GAPS_ANALYSIS_LEP;
    if (process == GAPS_PROCESS_EE_QQ && compat == GAPS_COMPAT_GAPS21)
        return GAPS_ANALYSIS_LEP_GAPS21;
    return gaps_process_table[process].analysis;
}

int gaps_process_init(gaps_process *proc, enum gaps_process_id id, double ecm, char *msg,
                      size_t len)
{
    memset(proc, 0, sizeof *proc);
    proc->id = id;
    proc->ecm = ecm;
    proc->s = ecm * ecm;
    if (id >= 0 && id < GAPS_N_PROCESSES) {
        proc->analysis = (enum gaps_analysis_id)gaps_process_analysis(id, GAPS_COMPAT_NONE);
        proc->hadronic = gaps_process_table[id].hadronic;
    }
    switch (id) {
    case GAPS_PROCESS_EE_QQ:
        gaps_me_init(&proc->ee_qq, ecm);
        proc->w_unit = proc->ee_qq.w_max;
        return 0;
    case GAPS_PROCESS_PP_Z:
        /* x_a x_b s = M_Z^2 needs x <= 1 for both: s > M_Z^2 (and a rapidity range > 0) */
        if (!(ecm > GAPS_MZ)) {
            snprintf(msg, len, "--process pp-z needs sqrt(s) above the Z mass %g GeV (got %g "
                     "GeV)", GAPS_MZ, ecm);
            return -1;
        }
        gaps_pp_z_init(&proc->pp_z, ecm);
        proc->w_unit = gaps_pp_z_weight_unit(&proc->pp_z);
        return 0;
    case GAPS_PROCESS_PP_LL:
        /* the whole mass window must be reachable (the rapidity range of m is ln(s / m^2)) */
        if (!(ecm > GAPS_PP_LL_M_HI)) {
            snprintf(msg, len, "--process pp-ll needs sqrt(s) above its dilepton mass window "
                     "%g-%g GeV (got %g GeV)", GAPS_PP_LL_M_LO, GAPS_PP_LL_M_HI, ecm);
            return -1;
        }
        gaps_pp_ll_init(&proc->pp_ll, ecm);
        proc->w_unit = gaps_pp_ll_weight_unit(&proc->pp_ll);
        return 0;
    default:
        snprintf(msg, len, "unknown process %d", (int)id);
        return -1;
    }
}

double gaps_process_hard_scale2(const gaps_process *proc)
{
    switch (proc->id) {
    case GAPS_PROCESS_PP_Z: return proc->pp_z.mz2;
    case GAPS_PROCESS_PP_LL: return proc->pp_ll.m_lo * proc->pp_ll.m_lo;
    default: return proc->s;
    }
}

double gaps_process_nlo_mu_r2(const gaps_process *proc)
{
    switch (proc->id) {
    case GAPS_PROCESS_PP_Z: return proc->pp_z.mz2;
    case GAPS_PROCESS_PP_LL: return proc->pp_ll.mz2;   /* mu_R = M_Z (mu_F = m_ll) */
    default: return proc->s;
    }
}

int gaps_process_set_nlo(gaps_process *proc, double alphas, int compat, char *msg, size_t len)
{
    switch (proc->id) {
    case GAPS_PROCESS_EE_QQ:
        gaps_ee_nlo_init(&proc->ee_nlo, alphas, compat);
        return 0;
    case GAPS_PROCESS_PP_Z:
    case GAPS_PROCESS_PP_LL:
        gaps_pp_nlo_init(&proc->pp_nlo, alphas, compat);
        return 0;
    default:
        snprintf(msg, len, "--nlo 1 is not implemented for process %d", (int)proc->id);
        return -1;
    }
}

/* The nominal unit of a process (gaps_process_init), before the run's PDFs are known. */
static double nominal_weight_unit(const gaps_process *proc)
{
    switch (proc->id) {
    case GAPS_PROCESS_EE_QQ: return proc->ee_qq.w_max;
    case GAPS_PROCESS_PP_Z: return gaps_pp_z_weight_unit(&proc->pp_z);
    case GAPS_PROCESS_PP_LL: return gaps_pp_ll_weight_unit(&proc->pp_ll);
    default: return 0.0;
    }
}

double gaps_weight_unit_for(double nominal, double estimate)
{
    int k = 0;
    if (estimate > 0.0 && isfinite(estimate))
        while (k < GAPS_WEIGHT_UNIT_MAX_HALVINGS
               && ldexp(nominal, -(k + 1)) >= GAPS_WEIGHT_UNIT_MARGIN * estimate
               && ldexp(nominal, -(k + 1)) >= GAPS_WEIGHT_UNIT_MIN)
            ++k;
    return ldexp(nominal, -k);
}

void gaps_process_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    double estimate = 0.0;
    switch (proc->id) {
    case GAPS_PROCESS_PP_Z: estimate = gaps_pp_z_prepare(&proc->pp_z, pdf); break;
    case GAPS_PROCESS_PP_LL: estimate = gaps_pp_ll_prepare(&proc->pp_ll, pdf); break;
    default: return;
    }
    proc->w_unit = gaps_weight_unit_for(nominal_weight_unit(proc), estimate);
}

int gaps_process_weight_unit_allowed(const gaps_process *proc, double w_unit)
{
    const double nominal = nominal_weight_unit(proc);
    const int halvings = proc->hadronic ? GAPS_WEIGHT_UNIT_MAX_HALVINGS : 0;
    for (int k = 0; k <= halvings; ++k)
        if (ldexp(nominal, -k) == w_unit) return 1;
    return 0;
}

void gaps_process_beams(const gaps_process *proc, double beam[2][4])
{
    const double e = 0.5 * proc->ecm;
    for (int b = 0; b < 2; ++b) {
        beam[b][0] = e;
        beam[b][1] = beam[b][2] = 0.0;
        beam[b][3] = b == 0 ? e : -e;
    }
}

int gaps_process_intermediate(const gaps_process *proc, double p[4])
{
    switch (proc->id) {
    case GAPS_PROCESS_EE_QQ:   /* the Z/gamma* at rest with mass sqrt(s) */
        p[0] = proc->ecm;
        p[1] = p[2] = p[3] = 0.0;
        return 23;
    case GAPS_PROCESS_PP_Z:    /* the Z is a particle of the record */
    case GAPS_PROCESS_PP_LL:   /* the Z/gamma* recoils in the shower: gaps_process_decayed_boson */
    default:
        return 0;
    }
}

int gaps_process_decayed_boson(const gaps_process *proc)
{
    switch (proc->id) {
    case GAPS_PROCESS_PP_LL: return GAPS_PDG_Z;   /* Z/gamma* -> e- e+ */
    case GAPS_PROCESS_EE_QQ:   /* the boson is fixed (gaps_process_intermediate) */
    case GAPS_PROCESS_PP_Z:    /* the Z does not decay */
    default: return 0;
    }
}

double gaps_process_sigma_exact(const gaps_process *proc)
{
    switch (proc->id) {
    case GAPS_PROCESS_EE_QQ:
        return proc->ee_nlo.on ? gaps_ee_nlo_sigma_exact(&proc->ee_qq, proc->ee_nlo.alphas)
                               : gaps_me_sigma_exact(&proc->ee_qq);
    /* hadronic processes: the cross section is an integral over the PDFs (numerical; the
     * test tests/test_pp_processes.c computes it) */
    case GAPS_PROCESS_PP_Z:
    case GAPS_PROCESS_PP_LL:
    default: return -1.0;
    }
}

GAPS_DEVICE_BEGIN

void gaps_process_generate_ee(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    if (proc->ee_nlo.on) gaps_ee_qq_nlo_generate(&proc->ee_qq, &proc->ee_nlo, rng, ev);
    else gaps_ee_qq_generate(&proc->ee_qq, rng, ev);
}

void gaps_process_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    switch (proc->id) {
    case GAPS_PROCESS_EE_QQ:
        gaps_process_generate_ee(proc, rng, ev);
        break;
    case GAPS_PROCESS_PP_Z:
        if (proc->pp_nlo.on) gaps_pp_z_nlo_generate(&proc->pp_z, &proc->pp_nlo, proc->pdf, rng, ev);
        else gaps_pp_z_generate(&proc->pp_z, proc->pdf, rng, ev);
        break;
    case GAPS_PROCESS_PP_LL:
        if (proc->pp_nlo.on) gaps_pp_ll_nlo_generate(&proc->pp_ll, &proc->pp_nlo, proc->pdf, rng, ev);
        else gaps_pp_ll_generate(&proc->pp_ll, proc->pdf, rng, ev);
        break;
    default: ev->n = ev->n_in = 0; ev->weight = 0.0; ev->t_start = 0.0; break;
    }
}

GAPS_DEVICE_END
