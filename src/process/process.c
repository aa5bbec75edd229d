/* process.c -- the list of hard processes and the dispatch to them (gaps/process.h): the
 * table and every switch below are generated from GAPS_PROCESSES, each case calling the
 * process's own function (src/process/process_impl.h). */
#include "gaps/process.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "process/process_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One row per process, in the order of enum gaps_process_id. */
const gaps_process_info gaps_process_table[GAPS_N_PROCESSES] = {
#define GAPS_PROCESS_ROW_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf,         \
                          analysis, rows_lo, rows_nlo, nlo, boson, options, source)            \
    [GAPS_PROCESS_##ID] = { option, title, { beam_a, beam_b }, ecm, hadronic, pdf, analysis,  \
                            { rows_lo, rows_nlo }, GAPS_PROCESS_NLO_##nlo, boson, options,     \
                            GAPS_PROCESS_SOURCE_##source },
    GAPS_PROCESSES(GAPS_PROCESS_ROW_)
#undef GAPS_PROCESS_ROW_
};

/* Every process's hard events fit the hard-event record, at LO and NLO. */
#define GAPS_PROCESS_ROWS_FIT_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf,    \
                               analysis, rows_lo, rows_nlo, nlo, boson, options, source)       \
    _Static_assert(rows_lo <= GAPS_HARD_MAX && rows_nlo <= GAPS_HARD_MAX,                      \
                   "process " option ": more hard rows than GAPS_HARD_MAX");
GAPS_PROCESSES(GAPS_PROCESS_ROWS_FIT_)
#undef GAPS_PROCESS_ROWS_FIT_

/* A switch over the processes whose case for process <name> is `return fn(args)`, where fn
 * is gaps_process_<name>_<what>; ids outside the list fall through to what follows. */
#define GAPS_PROCESS_CASE_RETURN_(ID, name, ...) case GAPS_PROCESS_##ID: return CALL_(name);

static double nominal_unit(const gaps_process *proc);

int gaps_process_lookup(const char *name)
{
    for (int i = 0; i < GAPS_N_PROCESSES; ++i)
        if (!gaps_process_table[i].from_file && strcmp(name, gaps_process_table[i].name) == 0)
            return i;
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

gaps_process_options gaps_process_options_default(void)
{
    const gaps_process_options o = { GAPS_W_CHARGE_BOTH, GAPS_LEPTONS_E };
    return o;
}

int gaps_process_init(gaps_process *proc, enum gaps_process_id id, double ecm, char *msg,
                      size_t len)
{
    const gaps_process_options o = gaps_process_options_default();
    return gaps_process_init_with(proc, id, ecm, &o, msg, len);
}

int gaps_process_init_with(gaps_process *proc, enum gaps_process_id id, double ecm,
                           const gaps_process_options *options, char *msg, size_t len)
{
    memset(proc, 0, sizeof *proc);
    proc->id = id;
    proc->ecm = ecm;
    proc->s = ecm * ecm;
    if (id >= 0 && id < GAPS_N_PROCESSES) {
        proc->analysis = (enum gaps_analysis_id)gaps_process_analysis(id, GAPS_COMPAT_NONE);
        proc->hadronic = gaps_process_table[id].hadronic;
        proc->from_file = gaps_process_table[id].from_file;
        /* the options: in their enums, and at their defaults where the process does not take
         * them (gaps_config_check says the same with the options' names first) */
        const gaps_process_options d = gaps_process_options_default();
        const unsigned takes = gaps_process_table[id].options;
        if (options->w_charge < GAPS_W_CHARGE_PLUS || options->w_charge > GAPS_W_CHARGE_BOTH
            || (!(takes & GAPS_PROCESS_TAKES_W_CHARGE) && options->w_charge != d.w_charge))
            return snprintf(msg, len, "process %s does not take W charge %d",
                            gaps_process_table[id].name, options->w_charge), -1;
        if (options->leptons < GAPS_LEPTONS_E || options->leptons > GAPS_LEPTONS_E_MU
            || (!(takes & GAPS_PROCESS_TAKES_LEPTONS) && options->leptons != d.leptons))
            return snprintf(msg, len, "process %s does not take lepton choice %d",
                            gaps_process_table[id].name, options->leptons), -1;
        proc->options = *options;
    }
    int rc = -1;
    switch (id) {
#define CALL_(name) gaps_process_##name##_init(proc, msg, len)
#define GAPS_PROCESS_CASE_(ID, name, ...) case GAPS_PROCESS_##ID: rc = CALL_(name); break;
    GAPS_PROCESSES(GAPS_PROCESS_CASE_)
#undef GAPS_PROCESS_CASE_
#undef CALL_
    default:
        snprintf(msg, len, "unknown process %d", (int)id);
        return -1;
    }
    if (rc != 0) return -1;
    proc->w_unit = nominal_unit(proc);
    return 0;
}

/* The nominal unit of a process (gaps_process_init), before the run's PDFs are known. */
static double nominal_unit(const gaps_process *proc)
{
    switch (proc->id) {
#define CALL_(name) gaps_process_##name##_unit(proc)
    GAPS_PROCESSES(GAPS_PROCESS_CASE_RETURN_)
#undef CALL_
    default: return 0.0;
    }
}

double gaps_process_hard_scale2(const gaps_process *proc)
{
    switch (proc->id) {
#define CALL_(name) gaps_process_##name##_hard_scale2(proc)
    GAPS_PROCESSES(GAPS_PROCESS_CASE_RETURN_)
#undef CALL_
    default: return proc->s;
    }
}

double gaps_process_nlo_mu_r2(const gaps_process *proc)
{
    switch (proc->id) {
#define CALL_(name) gaps_process_##name##_nlo_mu_r2(proc)
    GAPS_PROCESSES(GAPS_PROCESS_CASE_RETURN_)
#undef CALL_
    default: return proc->s;
    }
}

void gaps_process_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    switch (proc->id) {
#define CALL_(name) gaps_process_##name##_set_coupling(proc, as)
#define GAPS_PROCESS_CASE_(ID, name, ...) case GAPS_PROCESS_##ID: CALL_(name); break;
    GAPS_PROCESSES(GAPS_PROCESS_CASE_)
#undef GAPS_PROCESS_CASE_
#undef CALL_
    default: break;
    }
}

int gaps_process_set_nlo(gaps_process *proc, double alphas, int compat, char *msg, size_t len)
{
    if (proc->id < 0 || proc->id >= GAPS_N_PROCESSES)
        return snprintf(msg, len, "unknown process %d", (int)proc->id), -1;
    if (!gaps_process_table[proc->id].nlo)
        return snprintf(msg, len, "--nlo 1 is not implemented for --process %s",
                        gaps_process_table[proc->id].name), -1;
    switch (proc->id) {
#define CALL_(name) gaps_process_##name##_set_nlo(proc, alphas, compat)
#define GAPS_PROCESS_CASE_(ID, name, ...) case GAPS_PROCESS_##ID: CALL_(name); break;
    GAPS_PROCESSES(GAPS_PROCESS_CASE_)
#undef GAPS_PROCESS_CASE_
#undef CALL_
    default: break;
    }
    proc->nlo = 1;
    return 0;
}

int gaps_process_set_scales(gaps_process *proc, const gaps_alphas *as, int n, const double *kr,
                            const double *kf, const gaps_alphas *const *coupling, char *msg,
                            size_t len)
{
    gaps_scale_vary *sv = &proc->scales;
    memset(sv, 0, sizeof *sv);
    if (n <= 0) return 0;
    if (proc->from_file)
        return snprintf(msg, len, "--vary scales, alphas and pdf: the hard events come from a "
                        "file, whose variations are its own weights (the HepMC3 and CSV outputs "
                        "carry them); --vary shower is for files"), -1;
    if (n > GAPS_VARY_HARD_MAX)
        return snprintf(msg, len, "--vary: %d variations of the hard process, at most %d", n,
                        GAPS_VARY_HARD_MAX), -1;
    /* the process's mu_R: its NLO one, which is also its Born's where the Born has alpha_s
     * (pp-h: m_H) */
    const double mu_r2 = gaps_process_nlo_mu_r2(proc);
    const double a0 = gaps_alphas_value(as, mu_r2);
    sv->n = n;
    for (int v = 0; v < n; ++v) {
        sv->kf2[v] = kf[v] * kf[v];
        sv->lkr2[v] = log(kr[v] * kr[v]);
        sv->alphas[v] = kr[v] == 1.0 && coupling[v] == as
                        ? a0
                        : gaps_alphas_value(coupling[v], kr[v] * kr[v] * mu_r2);
        sv->as_ratio[v] = sv->alphas[v] / a0;
    }
    gaps_process_set_scales_pdf(proc, NULL);
    return 0;
}

void gaps_process_set_scales_pdf(gaps_process *proc, const gaps_pdf *const *pdf)
{
    gaps_scale_vary *sv = &proc->scales;
    for (int v = 0; v < sv->n; ++v) {
        sv->pdf[v] = pdf ? pdf[v] : NULL;
        sv->next_same[v] = -1;
        sv->first[v] = 1;
    }
    for (int v = 0; v < sv->n; ++v) {
        if (!sv->first[v]) continue;
        int last = v;
        for (int w = v + 1; w < sv->n; ++w)
            if (sv->first[w] && sv->kf2[w] == sv->kf2[v] && sv->pdf[w] == sv->pdf[v]) {
                sv->first[w] = 0;
                sv->next_same[last] = (short)w;
                last = w;
            }
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
    /* only a process with hadron beams has tables that follow the PDFs */
    if (proc->id < 0 || proc->id >= GAPS_N_PROCESSES || !proc->hadronic) return;
    double estimate = 0.0;
    switch (proc->id) {
#define CALL_(name) gaps_process_##name##_prepare(proc, pdf)
#define GAPS_PROCESS_CASE_(ID, name, ...) case GAPS_PROCESS_##ID: estimate = CALL_(name); break;
    GAPS_PROCESSES(GAPS_PROCESS_CASE_)
#undef GAPS_PROCESS_CASE_
#undef CALL_
    default: return;
    }
    proc->w_unit = gaps_weight_unit_for(nominal_unit(proc), estimate);
}

void gaps_process_set_file_unit(gaps_process *proc, double w_unit)
{
    if (!proc->from_file) return;
    GAPS_PROCESS_DATA(gaps_file_source, proc)->w_unit = w_unit;
    proc->w_unit = w_unit > 0.0 ? w_unit : proc->w_unit;   /* kept by gaps_process_prepare */
}

void gaps_process_set_batch(gaps_process *proc, const struct gaps_hard_batch *batch)
{
    if (proc->from_file) GAPS_PROCESS_DATA(gaps_file_source, proc)->batch = batch;
}

int gaps_process_weight_unit_allowed(const gaps_process *proc, double w_unit)
{
    /* a file's unit is the program's choice from the file (src/program/lhe_feed.c): a power
     * of two, or the unit of the run that wrote a gaps file (LEP's is its largest weight) */
    if (proc->from_file) return w_unit > 0.0 && isfinite(w_unit);
    const double nominal = nominal_unit(proc);
    const int halvings = proc->hadronic ? GAPS_WEIGHT_UNIT_MAX_HALVINGS : 0;
    for (int k = 0; k <= halvings; ++k)
        if (ldexp(nominal, -k) == w_unit) return 1;
    return 0;
}

int gaps_process_beam_pdg(const gaps_process *proc, int b)
{
    const int pdg = gaps_process_table[proc->id].beam_pdg[b];
    return proc->beam_anti[b] && pdg == 2212 ? -2212 : pdg;
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
#define CALL_(name) gaps_process_##name##_intermediate(proc, p)
    GAPS_PROCESSES(GAPS_PROCESS_CASE_RETURN_)
#undef CALL_
    default: return 0;
    }
}

int gaps_process_decayed_boson(const gaps_process *proc)
{
    if (proc->id < 0 || proc->id >= GAPS_N_PROCESSES) return 0;
    return gaps_process_table[proc->id].decayed_boson;
}

double gaps_process_sigma_exact(const gaps_process *proc)
{
    switch (proc->id) {
#define CALL_(name) gaps_process_##name##_sigma_exact(proc)
    GAPS_PROCESSES(GAPS_PROCESS_CASE_RETURN_)
#undef CALL_
    default: return -1.0;
    }
}

GAPS_DEVICE_BEGIN

const struct gaps_hard_batch *gaps_process_batch(const gaps_process *proc)
{
    return proc->from_file ? GAPS_PROCESS_CDATA(gaps_file_source, proc)->batch : NULL;
}


/* (process_impl.h) each variation's factor: as_ratio^power times the luminosity of its
 * densities at kF^2 muf2 over lum (0 where lum is 0, a weight of 0) */
void gaps_scales_luminosity(const gaps_process *proc, int pa, int pb, double xa, double xb,
                            double muf2, double lum, int power, gaps_hard_event *ev)
{
    const gaps_scale_vary *sv = &proc->scales;
    /* each chain of one (kF, densities) makes its lookups once */
    for (int v = 0; v < sv->n; ++v) {
        if (!sv->first[v]) continue;
        const double kf2 = sv->kf2[v];
        const gaps_pdf *pdf = sv->pdf[v] ? sv->pdf[v] : proc->pdf;
        const double lum_v = kf2 == 1.0 && !sv->pdf[v]
                             ? lum
                             : gaps_pdf_xfxq2(pdf, pa, xa, kf2 * muf2)
                                   * gaps_pdf_xfxq2(pdf, pb, xb, kf2 * muf2);
        for (int w = v; w >= 0; w = sv->next_same[w]) {
            double r = 1.0;
            for (int k = 0; k < power; ++k) r *= sv->as_ratio[w];
            gaps_hard_vary_set(ev, w, lum != 0.0 ? r * (lum_v / lum) : 0.0);
        }
    }
}

/* --vary scales at leading order (doc/physics.md 17.6).  Every Born weight of a hadron
 * collision is [xf](x_a, mu_F^2) [xf](x_b, mu_F^2) alpha_s(mu_R^2)^n times factors that do not
 * depend on the scales, with mu_F^2 the mass^2 of the colourless system, x_a x_b s, and
 * mu_R fixed (n = proc->born_alphas_power).  The Born of e+ e- -> q qbar has neither: its
 * factors are 1. */
static void scales_lo(const gaps_process *proc, gaps_hard_event *ev)
{
    if (!proc->hadronic) {
        for (int v = 0; v < proc->scales.n; ++v) gaps_hard_vary_set(ev, v, 1.0);
        return;
    }
    const double muf2 = ev->x[0] * ev->x[1] * proc->s;
    const double lum = gaps_pdf_xfxq2(proc->pdf, ev->flav[0], ev->x[0], muf2)
                       * gaps_pdf_xfxq2(proc->pdf, ev->flav[1], ev->x[1], muf2);
    gaps_scales_luminosity(proc, ev->flav[0], ev->flav[1], ev->x[0], ev->x[1], muf2, lum,
                           proc->born_alphas_power, ev);
}

void gaps_process_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    switch (proc->id) {
#define GAPS_PROCESS_CASE_(ID, name, ...)                                                       \
    case GAPS_PROCESS_##ID: gaps_process_##name##_generate(proc, rng, ev); break;
    GAPS_PROCESSES(GAPS_PROCESS_CASE_)
#undef GAPS_PROCESS_CASE_
    default: ev->n = ev->n_in = 0; ev->weight = 0.0; ev->t_start = 0.0; break;
    }
    /* at NLO the event builders weight their events themselves (mcatnlo.c, ee_qq.c) */
    if (proc->scales.n && !proc->nlo) scales_lo(proc, ev);
}

void gaps_process_generate_ee(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    gaps_process_ee_qq_generate(proc, rng, ev);
    if (proc->scales.n && !proc->nlo) scales_lo(proc, ev);   /* as above (factors of 1) */
}

GAPS_DEVICE_END
