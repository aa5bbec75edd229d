/* generator.c -- the host side of the parallel veto algorithm: fill the pool, run veto cycles
 * until every event is done, analyse and refill as slots finish, time each stage. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/generator.h"
#include "shower/isr_bounds.h"
#include "shower/vary_bounds.h"
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/shower.h"
#include "gaps_parallel.h"
#include "gaps_runtime.h"
#include "io/c_locale.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void gaps_config_defaults(gaps_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->events = 100000;
    /* the physics parameters, in list order: the process before what depends on it */
    for (int id = 0; id < GAPS_N_PARAMS; ++id) gaps_param_set_default(id, cfg);
    cfg->slots = 0;
    cfg->refill = 1;
    cfg->loop_mode = GAPS_LOOPS_AUTO;
    cfg->cycles_per_launch = 0;   /* the backend's default (gaps_config_cycles_per_launch) */
    cfg->split_every = 0;   /* the backend's default for the process (gaps_config_split_every) */
    cfg->shower_mur_factor = 1.0;
    cfg->vary = 0;
}

/* The smallest factor of the argument of the shower's coupling that a run evaluates: the
 * nominal k^2 of --shower-mur-factor and that of every --vary weight.  The overestimates are
 * made for alpha_s at max(this factor times t, t_C) (alpha_s falls with its argument, which
 * the shower keeps at or above its cutoff), so that the trials bound the nominal density and
 * every varied one (doc/physics.md 17.3); 1 by default. */
static double shower_mu2_bound(const gaps_physics *phys)
{
    double m = phys->mur_scaled ? phys->mur2 : 1.0;
    for (int v = 0; v < phys->n_vary; ++v)
        for (int leg = 0; leg < 2; ++leg)
            if (phys->vary_mu2[v][leg] < m) m = phys->vary_mu2[v][leg];
    return m;
}

/* The largest coupling a run's shower evaluates: with --vary alphas the one of the larger
 * alpha_s(M_Z^2), which is the larger at every scale; the overestimates take it at
 * shower_mu2_bound() (doc/physics.md 17.3). */
static const gaps_alphas *shower_coupling_bound(const gaps_physics *phys)
{
    for (int v = 0; v < phys->n_vary; ++v)
        if (phys->vary_coupling[v] == 2) return &phys->vary_as[1];
    return &phys->as;
}

static double shower_headroom(const gaps_physics *phys);

/* What the overestimates of a --vary run must reach (shower/vary_bounds.h). */
static gaps_vary_couplings shower_vary_couplings(const gaps_physics *phys)
{
    gaps_vary_couplings vc;
    vc.nominal = &phys->as;
    vc.mu2_nominal = phys->mur_scaled ? phys->mur2 : 1.0;
    vc.largest = shower_coupling_bound(phys);
    vc.mu2_smallest = shower_mu2_bound(phys);
    vc.headroom = shower_headroom(phys);
    vc.t_cut = phys->t_cut;
    return vc;
}

/* Is a run's overestimate made scale by scale (shower/vary_bounds.c)?  The e+e- shower's,
 * in a run whose variations change the shower.  The initial-state shower keeps the headroom
 * on top of the largest coupling at every scale: a bound fitted to the larger of the two per
 * scale bin took a fifth fewer trials for pp-z, but the band weights spread more (near the
 * cutoff its acceptance came closer to 1) and failed the comparison with independent runs at
 * 1.5x10^5 events where these pass (doc/physics.md 17.3); and a PDF member's density ratio
 * X'/X is bounded by nothing else. */
static int shower_headroom_by_scale(const gaps_physics *phys)
{
    return !phys->proc.hadronic && phys->vary_shower;
}

/* The factor of the overestimates of a run with variation weights (GAPS_VARY_HEADROOM), 1
 * without (doc/physics.md 17.3). */
static double shower_headroom(const gaps_physics *phys)
{
    return phys->vary_shower ? GAPS_VARY_HEADROOM : 1.0;
}

static int config_hadronic(const gaps_config *cfg)
{
    return cfg->process >= 0 && cfg->process < GAPS_N_PROCESSES
           && gaps_process_table[cfg->process].hadronic;
}

/* Does the run take its hard events from a file (a process with source LHE)? */
static int config_from_file(const gaps_config *cfg)
{
    return cfg->process >= 0 && cfg->process < GAPS_N_PROCESSES
           && gaps_process_table[cfg->process].from_file;
}

/* The launches a run takes (enum gaps_launch, gaps/shower.h): the general ones for hadron
 * beams, for every run with --ablate (the e+e- launches carry none of the ablations: their
 * coupling is gaps_alphas_value_own) and for hard events from a file (the e+e- launches start
 * every event from ee-qq); an e+e- run with --vary or --shower-mur-factor the e+e- launches
 * that hold their code, and every other the plain e+e- ones. */
static int config_launch(const gaps_config *cfg)
{
    if (config_hadronic(cfg) || cfg->ablate != 0 || config_from_file(cfg))
        return GAPS_LAUNCH_GENERAL;
    return cfg->vary || cfg->shower_mur_factor != 1.0 ? GAPS_LAUNCH_EE_VARY : GAPS_LAUNCH_EE;
}

int gaps_config_loop_mode(const gaps_config *cfg)
{
    if (cfg->loop_mode != GAPS_LOOPS_AUTO) return cfg->loop_mode;
    return gaps_runtime_default_loops_fused(config_hadronic(cfg)) ? GAPS_LOOPS_FUSED
                                                                   : GAPS_LOOPS_TRIALS;
}

const char *gaps_loop_mode_name(int mode)
{
    switch (mode) {
    case GAPS_LOOPS_STEPS: return "steps";
    case GAPS_LOOPS_FUSED: return "fused";
    case GAPS_LOOPS_TRIALS: return "trials";
    default: return "auto";
    }
}

int gaps_config_cycles_per_launch(const gaps_config *cfg)
{
    if (cfg->cycles_per_launch > 0) return cfg->cycles_per_launch;
    if (gaps_config_loop_mode(cfg) == GAPS_LOOPS_FUSED)
        return gaps_runtime_default_cycles_per_launch();
    return gaps_runtime_default_step_cycles(config_hadronic(cfg));
}

int64_t gaps_config_file_batch(const gaps_config *cfg)
{
    /* by default twice the pool (a segment then refills each slot about twice before the
     * pool drains), at least GAPS_FILE_BATCH_MIN, at most GAPS_FILE_BATCH_DEFAULT: the
     * GPU's pool of 2^20 slots gets 2^20 events a batch (about 0.4 GB on each side), a
     * CPU's few hundred slots 2^14 (7 MB) */
    gaps_runtime_set_threads(cfg->threads);
    const int64_t pool = cfg->slots > 0 ? cfg->slots
                         : (int64_t)gaps_runtime_default_slots_per_partition()
                               * gaps_runtime_partitions();
    int64_t cap = 2 * pool < GAPS_FILE_BATCH_MIN ? GAPS_FILE_BATCH_MIN : 2 * pool;
    if (cap > GAPS_FILE_BATCH_DEFAULT) cap = GAPS_FILE_BATCH_DEFAULT;
    if (cfg->file_batch > 0) cap = cfg->file_batch;
    if (cap > cfg->events) cap = cfg->events;
    return cap;
}

int gaps_config_split_every(const gaps_config *cfg)
{
    if (cfg->split_every > 0) return cfg->split_every;
    return gaps_runtime_default_split_every(config_hadronic(cfg));
}

/* The range of each parameter of the list (gaps/parameters.h), and that those only for
 * hadron beams are not given with another process.  0, or -1 with a reason. */
static int check_parameter(const gaps_config *cfg, const gaps_param *p, char *msg, size_t len)
{
    const void *field = gaps_param_in_config(p, cfg);
    const int hadronic = gaps_process_table[cfg->process].hadronic;
    double v = 0.0;
    switch (p->type) {
    case GAPS_PT_REAL:
    case GAPS_PT_UNIT:
        memcpy(&v, field, sizeof v);
        break;
    case GAPS_PT_INT:
    case GAPS_PT_PROCESS:
    case GAPS_PT_COMPAT:
    case GAPS_PT_ABLATE:
    case GAPS_PT_ANALYSIS:
    case GAPS_PT_CHOICE: {
        int i;
        memcpy(&i, field, sizeof i);
        v = i;
        break;
    }
    case GAPS_PT_U32: {
        uint32_t u;
        memcpy(&u, field, sizeof u);
        v = u;
        break;
    }
    case GAPS_PT_PDF:
    case GAPS_PT_PATH: {
        const char *text = field;
        if (!memchr(text, '\0', p->size))
            return snprintf(msg, len, "--%s is not a terminated string", p->option), -1;
        if (text[0] && !hadronic && (p->flags & GAPS_PF_HADRONIC_ONLY)) {
            /* the processes with hadron beams, from the list */
            char names[256];
            size_t o = 0;
            names[0] = '\0';
            for (int i = 0; i < GAPS_N_PROCESSES && o < sizeof names; ++i)
                if (gaps_process_table[i].hadronic && !gaps_process_table[i].from_file)
                    o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", o ? ", " : "",
                                          gaps_process_table[i].name);
            return snprintf(msg, len, "--%s is only for a process with hadron beams (%s), not "
                            "--process %s", p->option, names,
                            gaps_process_table[cfg->process].name), -1;
        }
        char name[GAPS_PDF_NAME_MAX];
        int member;
        if (p->type == GAPS_PT_PDF && text[0] && gaps_pdf_spec_parse(text, name, &member) != 0)
            return snprintf(msg, len, "--%s '%.40s' is not NAME or NAME/MEMBER (a set name of "
                            "letters, digits and . _ + -, a member from 0 to %d)", p->option,
                            text, GAPS_PDF_MAX_MEMBER), -1;
        return 0;
    }
    }
    const int real = p->type == GAPS_PT_REAL || p->type == GAPS_PT_UNIT;
    if (p->type == GAPS_PT_UNIT) {
        if (!(v > 0.0 && v < 1.0))
            return snprintf(msg, len, "--%s must be between 0 and 1 (exclusive)", p->option), -1;
    } else if (p->flags & GAPS_PF_LO_OPEN ? !(v > p->lo) : !(v >= p->lo)) {
        return snprintf(msg, len, "--%s must be %s %.17g%s%s%s", p->option,
                        p->flags & GAPS_PF_LO_OPEN ? "above" : "at least", p->lo,
                        p->unit[0] ? " " : "", p->unit, p->hi < DBL_MAX ? "" : " and finite"),
               -1;
    } else if (!(v <= p->hi) || (real && !isfinite(v))) {
        return snprintf(msg, len, "--%s must be from %.17g to %.17g%s%s", p->option, p->lo,
                        p->hi, p->unit[0] ? " " : "", p->unit), -1;
    }
    return 0;
}

static int config_check(const gaps_config *cfg, char *msg, size_t len)
{
    gaps_alphas as;
    if (cfg->events < 1 || cfg->events > GAPS_MAX_EVENT_NUMBER)
        return snprintf(msg, len, "--events must be from 1 to %lld", GAPS_MAX_EVENT_NUMBER), -1;
    if (cfg->first_event < 0 || cfg->first_event > GAPS_MAX_EVENT_NUMBER - cfg->events)
        return snprintf(msg, len, "--first-event + --events must not exceed %lld",
                        GAPS_MAX_EVENT_NUMBER), -1;
    if (cfg->process < 0 || cfg->process >= GAPS_N_PROCESSES)
        return snprintf(msg, len, "unknown process %d", cfg->process), -1;
    for (int id = 0; id < GAPS_N_PARAMS; ++id)
        if (check_parameter(cfg, &gaps_params[id], msg, len) != 0) return -1;
    /* checks between parameters */
    /* a process's own run options (gaps/process.h, the options column): only the processes
     * that take one may give it another value than its default */
    {
        static const struct { int param; unsigned bit; } own[] = {
            { GAPS_P_w_charge, GAPS_PROCESS_TAKES_W_CHARGE },
            { GAPS_P_leptons, GAPS_PROCESS_TAKES_LEPTONS } };
        gaps_config d;
        gaps_config_defaults(&d);
        for (size_t k = 0; k < sizeof own / sizeof own[0]; ++k) {
            const gaps_param *p = &gaps_params[own[k].param];
            if (gaps_process_table[cfg->process].options & own[k].bit
                || !memcmp(gaps_param_in_config(p, cfg), gaps_param_in_config(p, &d), p->size))
                continue;
            char names[256];
            size_t o = 0;
            names[0] = '\0';
            for (int i = 0; i < GAPS_N_PROCESSES && o < sizeof names; ++i)
                if (gaps_process_table[i].options & own[k].bit)
                    o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", o ? ", " : "",
                                          gaps_process_table[i].name);
            return snprintf(msg, len, "--%s is only for --process %s, not --process %s",
                            p->option, names, gaps_process_table[cfg->process].name), -1;
        }
    }
    /* the shower variants of --ablate (gaps/ablate.h) change the shower alone: not the NLO
     * matching, whose subtraction is the default shower's, nor GAPS 2.1's choices; those of
     * dipoles with incoming partons need hadron beams */
    if (cfg->ablate && (cfg->nlo || cfg->compat != GAPS_COMPAT_NONE))
        return snprintf(msg, len, "--ablate is only for leading-order runs with --compat "
                        "none"), -1;
    if ((cfg->ablate & ~GAPS_ABLATE_ANY_PROCESS) && !gaps_process_table[cfg->process].hadronic)
        return snprintf(msg, len, "--ablate: only alphas-herwig, alphas-thresholds and "
                        "gqq-virtuality apply to --process %s (the others change dipoles with "
                        "incoming partons)", gaps_process_table[cfg->process].name), -1;
    {
        /* an analysis takes the events of its beams: event shapes and Durham jets of e+ e-
         * (lep, lep_gaps21), or hadron-collider observables with anti-k_T jets */
        const int ee_analysis = cfg->analysis == GAPS_ANALYSIS_LEP
                                || cfg->analysis == GAPS_ANALYSIS_LEP_GAPS21;
        if (ee_analysis == gaps_process_table[cfg->process].hadronic)
            return snprintf(msg, len, "--analysis %s is for %s events, not --process %s",
                            gaps_analysis_table[cfg->analysis].name,
                            ee_analysis ? "e+ e-" : "hadron-collision",
                            gaps_process_table[cfg->process].name), -1;
    }
    {
        /* the process's own limits (its threshold in sqrt(s), whether it has an NLO), from
         * the setup every run makes */
        gaps_physics *phys = malloc(sizeof *phys);
        if (!phys) return snprintf(msg, len, "out of memory"), -1;
        const int rc = gaps_physics_setup(phys, cfg, NULL, msg, len);
        const double q2 = rc == 0 ? gaps_process_hard_scale2(&phys->proc) : 0.0;
        free(phys);
        if (rc != 0) return -1;
        /* the cutoff against the hard scale Q^2 (gaps_process_hard_scale2): at NLO the
         * matching assumes t_C << Q^2 (doc/nlo.md: the shower's S events miss D below t_C, a
         * power correction t_C / Q^2), so t_C <= Q^2 GAPS_NLO_MAX_TCUT_OVER_Q2; a hadronic
         * shower starts at Q^2, so at LO a t_C at or above it would leave every event
         * unshowered (ee-qq: the s > 4 t_cut below) */
        if (cfg->nlo && !(cfg->t_cut <= GAPS_NLO_MAX_TCUT_OVER_Q2 * q2))
            return snprintf(msg, len, "--tcut %g GeV^2 is not well below the hard scale of %s at "
                            "NLO (Q^2 = %g GeV^2): the NLO matching assumes t_cut << Q^2 "
                            "(doc/nlo.md); give --tcut at most Q^2 / %g = %g GeV^2", cfg->t_cut,
                            gaps_process_table[cfg->process].name, q2,
                            1.0 / GAPS_NLO_MAX_TCUT_OVER_Q2, GAPS_NLO_MAX_TCUT_OVER_Q2 * q2), -1;
        if (gaps_process_table[cfg->process].hadronic && !(cfg->t_cut < q2))
            return snprintf(msg, len, "--tcut %g GeV^2 is at or above the shower's start scale "
                            "of %s (Q^2 = %g GeV^2): no event would be showered; give --tcut "
                            "below it", cfg->t_cut, gaps_process_table[cfg->process].name, q2), -1;
    }
    {
        /* the record must hold the process's hard events and their first emission: the
         * shower's writes are bounded by the capacity (veto.c), but a record too small for
         * the hard event would make every event a failure, not a result */
        const int need = gaps_process_min_partons(cfg->process, cfg->nlo);
        if (cfg->max_partons < need)
            return snprintf(msg, len, "--max-partons %d is too small for %s at %s: its events "
                            "need at least %d (%d rows of the hard event and one emission)",
                            cfg->max_partons, gaps_process_table[cfg->process].name,
                            cfg->nlo ? "NLO" : "LO", need, need - 1), -1;
    }
    if (cfg->ecm * cfg->ecm <= 4.0 * cfg->t_cut)
        return snprintf(msg, len,
                        "--ecm %g GeV is too small for --tcut %g GeV^2: need s > 4 t_cut",
                        cfg->ecm, cfg->t_cut), -1;
    if (cfg->ecm * cfg->ecm > GAPS_MAX_S_OVER_TCUT * cfg->t_cut)
        return snprintf(msg, len,
                        "--tcut %g GeV^2 is too small for --ecm %g GeV: need s / t_cut <= %g "
                        "(double-precision kinematics)", cfg->t_cut, cfg->ecm,
                        GAPS_MAX_S_OVER_TCUT), -1;
    if (gaps_alphas_init(&as, cfg->alphas_order, cfg->alphas_mz) != 0)
        return snprintf(msg, len, "--alphas-order must be 0, 1 or 2 and --alphas-mz in (0, 1)"),
               -1;
    if (!gaps_alphas_is_defined(&as, cfg->t_cut))
        return snprintf(msg, len,
                        "alpha_s is not defined at --tcut %g GeV^2 (below the Landau pole)",
                        cfg->t_cut), -1;
    if (cfg->slots < 0 || cfg->slots > GAPS_MAX_SLOTS)
        return snprintf(msg, len, "--pool must be from 1 to %d", GAPS_MAX_SLOTS), -1;
    if (cfg->cycles_per_launch < 0 || cfg->cycles_per_launch > GAPS_MAX_CYCLES_PER_LAUNCH)
        return snprintf(msg, len, "--cycles-per-launch must be from 1 to %d",
                        GAPS_MAX_CYCLES_PER_LAUNCH), -1;
    if (cfg->split_every < 0 || cfg->split_every > GAPS_MAX_CYCLES_PER_LAUNCH)
        return snprintf(msg, len, "--split-every must be from 1 to %d",
                        GAPS_MAX_CYCLES_PER_LAUNCH), -1;
    if (cfg->threads < 0 || cfg->threads > GAPS_MAX_THREADS)
        return snprintf(msg, len, "--threads must be from 1 to %d", GAPS_MAX_THREADS), -1;
    /* OpenMP's own default (OMP_NUM_THREADS) obeys no limit of ours: thousands of threads
     * more than the limit can end inside the OpenMP runtime (a crash, not a message) */
    const long omp_default = gaps_runtime_default_threads();
    if (cfg->threads == 0 && omp_default > GAPS_MAX_THREADS)
        return snprintf(msg, len, "OMP_NUM_THREADS asks for %ld threads, more than the %d that "
                        "gaps can use: set it lower, or give --threads N", omp_default,
                        GAPS_MAX_THREADS), -1;
    if (cfg->checkpoint_every < 0)
        return snprintf(msg, len, "--checkpoint-every must be positive"), -1;
    /* --shower-mur-factor and --vary (gaps/vary.h) */
    if (!(cfg->shower_mur_factor >= GAPS_SHOWER_MUR_FACTOR_MIN
          && cfg->shower_mur_factor <= GAPS_SHOWER_MUR_FACTOR_MAX))
        return snprintf(msg, len, "--shower-mur-factor must be from %g to %g",
                        GAPS_SHOWER_MUR_FACTOR_MIN, GAPS_SHOWER_MUR_FACTOR_MAX), -1;
    if (cfg->vary & ~GAPS_VARY_KNOWN)
        return snprintf(msg, len, "--vary: only shower, scales, alphas and pdf are implemented"),
               -1;
    if ((cfg->vary & GAPS_VARY_PDF) && !config_hadronic(cfg))
        return snprintf(msg, len, "--vary pdf: process %s has no parton densities",
                        cfg->process >= 0 && cfg->process < GAPS_N_PROCESSES
                            ? gaps_process_table[cfg->process].name : "?"), -1;
    /* a file's hard events carry their PDF dependence in the file's own weights, if at all:
     * the shower's density ratios alone would be half a variation */
    if ((cfg->vary & GAPS_VARY_PDF) && config_from_file(cfg))
        return snprintf(msg, len, "--vary pdf: the hard events come from a file, whose PDF "
                        "variations are its own weights (the HepMC3 and CSV outputs carry "
                        "them); --vary shower is for files"), -1;
    if (cfg->shower_mur_factor != 1.0 || cfg->vary) {
        const char *what = cfg->vary ? "--vary" : "--shower-mur-factor";
        /* GAPS 2.1's constant coupling and its f > g rejections, and the ablations' own
         * couplings, are not the coupling the weights vary */
        if (cfg->compat != GAPS_COMPAT_NONE || cfg->ablate)
            return snprintf(msg, len, "%s is only for --compat none without --ablate", what), -1;
        gaps_physics *phys = malloc(sizeof *phys);
        if (!phys) return snprintf(msg, len, "out of memory"), -1;
        const int rc = gaps_physics_setup(phys, cfg, NULL, msg, len);
        const double mu2 = rc == 0 ? fmax(shower_mu2_bound(phys), 1.0) : 1.0;
        gaps_alphas bound = as;
        if (rc == 0) bound = *shower_coupling_bound(phys);
        free(phys);
        if (rc != 0) return -1;
        if (!gaps_alphas_is_defined(&as, mu2 * cfg->t_cut)
            || !gaps_alphas_is_defined(&bound, mu2 * cfg->t_cut))
            return snprintf(msg, len, "%s: alpha_s is not defined at %g t_cut = %g GeV^2 (below "
                            "the Landau pole): give a larger --tcut", what, mu2,
                            mu2 * cfg->t_cut), -1;
    }
    return 0;
}

static int load_run_pdf(const gaps_config *cfg, gaps_pdf *pdf, char *msg, size_t len);
static gaps_vary_pdf_set vary_pdf_set_of(const gaps_pdf *central);

/* The weight unit of the histogram sums (gaps/histogram.h) is the run's (gaps_process.w_unit):
 * for LEP at leading order the largest event weight, as the sums always used, so that LEP's
 * numbers keep their bits; a hadronic process's nominal unit halved to its weights at this
 * sqrt(s) with this PDF set (gaps_process_prepare, gaps_weight_unit_for), so that no weight
 * falls below the sums' resolution; it may then reach 2^43 times the unit.  The same host
 * computation as the run's (gaps_physics_setup), so every state of one configuration (a rank's,
 * a checkpoint's, a split part's) carries the same unit.  The set loaded for it also gives
 * the state its PDF digest (0 for a run without hadron beams, or a set that cannot be read:
 * the run itself refuses that, with the reason). */
static double process_weight_unit(const gaps_config *cfg, uint64_t *pdf_digest)
{
    char msg[512];
    *pdf_digest = 0;
    gaps_physics *phys = malloc(sizeof *phys);
    if (!phys) return 0.0;
    gaps_pdf pdf;
    int have_pdf = 0;
    if (cfg->process >= 0 && cfg->process < GAPS_N_PROCESSES
        && gaps_process_table[cfg->process].hadronic) {
        const gaps_c_locale saved = gaps_c_locale_enter();
        have_pdf = load_run_pdf(cfg, &pdf, msg, sizeof msg) == 0;
        gaps_c_locale_leave(saved);
    }
    /* an unknown process, a sqrt(s) below its threshold: gaps_config_check refuses it first;
     * a set that cannot be read: the nominal unit (the run itself refuses it) */
    double unit = 0.0;
    if (gaps_physics_setup(phys, cfg, have_pdf ? &pdf : NULL, msg, sizeof msg) == 0)
        unit = phys->proc.w_unit;
    if (have_pdf) {
        *pdf_digest = pdf.digest;
        gaps_pdf_free(&pdf);
    }
    free(phys);
    return unit;
}

void gaps_state_init(gaps_state *state, const gaps_config *cfg)
{
    memset(state, 0, sizeof *state);
    state->w_unit = process_weight_unit(cfg, &state->pdf_digest);
    snprintf(state->version, sizeof state->version, "%s", GAPS_VERSION);
    /* every parameter the state records, as the configuration has it; the PDF set named in
     * full ("NAME/MEMBER", the process's default where none was given) */
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (p->in_state)
            memcpy((char *)state + p->state_offset, gaps_param_in_config(p, cfg), p->size);
    }
    gaps_config_pdf_spec(cfg, state->pdf);
    /* --vary and --shower-mur-factor: physics the state records outside the list */
    state->vary = cfg->vary;
    state->shower_mur_factor = cfg->shower_mur_factor;
    /* --vary pdf: what the members are (a set that cannot be read: none; the run refuses it) */
    if (cfg->vary & GAPS_VARY_PDF) {
        char msg[512];
        gaps_config_vary_pdf(cfg, &state->vary_pdf, &state->vary_pdf_digest, msg, sizeof msg);
    }
}

int gaps_physics_setup(gaps_physics *phys, const gaps_config *cfg, const gaps_pdf *pdf,
                       char *msg, size_t len)
{
    memset(phys, 0, sizeof *phys);
    const gaps_process_options options = { cfg->w_charge, cfg->leptons };
    if (gaps_process_init_with(&phys->proc, (enum gaps_process_id)cfg->process, cfg->ecm,
                               &options, msg, len) != 0)
        return -1;
    gaps_process_set_file_unit(&phys->proc, cfg->file_w_unit);
    /* a file's antiproton beams (only --lhe sets them) */
    if (phys->proc.hadronic)
        for (int b = 0; b < 2; ++b) phys->proc.beam_anti[b] = cfg->file_beam_anti[b] != 0;
    phys->proc.analysis = (enum gaps_analysis_id)cfg->analysis;
    gaps_alphas_init(&phys->as, cfg->alphas_order, cfg->alphas_mz);
    /* compat: GAPS 2.1 runs alpha_s with five flavours at every scale (spec 2.3) */
    if (cfg->compat == GAPS_COMPAT_GAPS21) phys->as.t_ref[1] = phys->as.t_ref[2] = 0.0;
    /* --ablate: Herwig 7's thresholds, or its whole coupling (gaps/ablate.h) */
    phys->ablate = cfg->ablate;
    if (cfg->ablate & GAPS_ABLATE_ALPHAS_THRESHOLDS)
        gaps_alphas_set_thresholds(&phys->as, 1.25, 4.2);
    if (cfg->ablate & GAPS_ABLATE_ALPHAS_HERWIG) gaps_alphas_set_herwig(&phys->as);
    /* a process whose LO weights contain alpha_s takes the run's coupling */
    gaps_process_set_coupling(&phys->proc, &phys->as);
    /* --nlo 1: the matrix elements take the run's coupling at the process's mu_R^2
     * (gaps_process_nlo_mu_r2; doc/nlo.md) */
    if (cfg->nlo
        && gaps_process_set_nlo(&phys->proc,
                                gaps_alphas_value(&phys->as, gaps_process_nlo_mu_r2(&phys->proc)),
                                cfg->compat, msg, len) != 0)
        return -1;
    if (pdf) gaps_process_prepare(&phys->proc, pdf);
    phys->t_cut = cfg->t_cut;
    /* --shower-mur-factor k: the coupling at k^2 t; --vary: each weight's factors on top of it
     * (gaps/vary.h), FSR at [0], ISR at [1] */
    if (cfg->shower_mur_factor != 1.0) {
        phys->mur_scaled = 1;
        phys->mur2 = cfg->shower_mur_factor * cfg->shower_mur_factor;
    }
    {
        gaps_variation vars[GAPS_VARY_MAX];
        double kr[GAPS_VARY_HARD_MAX], kf[GAPS_VARY_HARD_MAX];
        const gaps_alphas *coupling[GAPS_VARY_HARD_MAX];
        int n_hard = 0, n_as = 0;
        const double nominal = phys->mur_scaled ? phys->mur2 : 1.0;
        const gaps_vary_pdf_set set = vary_pdf_set_of(pdf);
        phys->n_vary = gaps_vary_list(cfg->vary, phys->proc.hadronic, cfg->alphas_mz, &set, vars);
        for (int v = 0; v < phys->n_vary; ++v) {
            phys->vary_mu2[v][0] = nominal * vars[v].mur_fsr * vars[v].mur_fsr;
            phys->vary_mu2[v][1] = nominal * vars[v].mur_isr * vars[v].mur_isr;
            phys->vary_coupling[v] = 0;
            phys->vary_pdf_member[v] = (short)vars[v].pdf_member;
            if (vars[v].mur_fsr != 1.0 || vars[v].mur_isr != 1.0 || vars[v].alphas_mz != 0.0
                || vars[v].pdf_member)
                phys->vary_shower = 1;
            if (vars[v].alphas_mz != 0.0) {   /* --vary alphas: down, then up */
                if (n_as >= 2
                    || gaps_alphas_init(&phys->vary_as[n_as], cfg->alphas_order,
                                        vars[v].alphas_mz) != 0)
                    return snprintf(msg, len, "--vary alphas: alpha_s(M_Z) = %g is not a "
                                    "coupling", vars[v].alphas_mz), -1;
                phys->vary_coupling[v] = (signed char)(++n_as);
            }
            /* the hard process's (scales, alphas and pdf), the list's last ones; a PDF
             * member's densities are set where the loops run (run_physics_setup) */
            if (vars[v].mur != 1.0 || vars[v].muf != 1.0 || vars[v].alphas_mz != 0.0
                || vars[v].pdf_member) {
                if (!n_hard) phys->vary_hard_first = v;
                coupling[n_hard] = phys->vary_coupling[v] ? &phys->vary_as[n_as - 1] : &phys->as;
                kr[n_hard] = vars[v].mur;
                kf[n_hard++] = vars[v].muf;
            }
        }
        gaps_vary_prepare(phys);
        if (gaps_process_set_scales(&phys->proc, &phys->as, n_hard, kr, kf, coupling, msg,
                                    len) != 0)
            return -1;
    }
    /* the overestimate: alpha_s at the smallest argument the run evaluates, max(mu2 t_C, t_C)
     * for the smallest factor mu2 of the run (t_C by default, and for every --vary run whose
     * factors are at most 1: the floor of scaled_as_arg), times a --vary run's headroom */
    phys->a_max = gaps_alphas_value(shower_coupling_bound(phys),
                                    fmax(shower_mu2_bound(phys), 1.0) * cfg->t_cut);
    phys->vary_t_headroom = 0.0;
    if (shower_headroom_by_scale(phys)) {   /* e+e-: the headroom below the scale that needs it */
        const gaps_vary_couplings vc = shower_vary_couplings(phys);
        phys->vary_t_headroom = gaps_vary_headroom_scale(&vc, phys->a_max,
                                                         cfg->ecm * cfg->ecm);
        /* both couplings fall with t: their largest below that scale is at t_C */
        phys->a_max_headroom = gaps_vary_bound_at(&vc, cfg->t_cut);
    } else {
        phys->a_max *= shower_headroom(phys);
        phys->a_max_headroom = phys->a_max;
    }
    phys->seed = cfg->seed;
    phys->end_event = cfg->first_event + cfg->events;
    return 0;
}

/* The PDF set of a hadronic run: cfg->pdf, or the process's default when that is empty,
 * looked for along gaps_pdf_search_path(cfg->pdf_path).  Returns 0, or -1 with one line in
 * msg (the set's name and what is wrong). */
static int load_run_pdf_member(const gaps_config *cfg, int member, gaps_pdf *pdf, char *msg,
                               size_t len);
static int load_run_pdf(const gaps_config *cfg, gaps_pdf *pdf, char *msg, size_t len)
{
    return load_run_pdf_member(cfg, -1, pdf, msg, len);
}

/* The same for member `member` of that set (member < 0: the member the set's name gives) */
static int load_run_pdf_member(const gaps_config *cfg, int member, gaps_pdf *pdf, char *msg,
                               size_t len)
{
    memset(pdf, 0, sizeof *pdf);
    const char *spec = cfg->pdf[0] ? cfg->pdf : gaps_process_table[cfg->process].default_pdf;
    if (!spec || !*spec)
        return snprintf(msg, len, "process %s needs a PDF set (--pdf)",
                        gaps_process_table[cfg->process].name), -1;
    char member_spec[GAPS_PDF_NAME_MAX + 16];
    if (member >= 0) {   /* NAME/MEMBER */
        const size_t n = strcspn(spec, "/");
        if (n >= GAPS_PDF_NAME_MAX)
            return snprintf(msg, len, "the PDF set's name is too long"), -1;
        snprintf(member_spec, sizeof member_spec, "%.*s/%d", (int)n, spec, member);
        spec = member_spec;
    }
    /* a directory the user named must be there: else the set would silently come from
     * LHAPDF_DATA_PATH or the installed sets */
    if (gaps_pdf_check_user_dirs(cfg->pdf_path, msg, len) != 0) return -1;
    char *path = malloc(GAPS_PDF_SEARCH_PATH_MAX);
    if (!path) return snprintf(msg, len, "out of memory for the PDF search path"), -1;
    if (gaps_pdf_search_path(cfg->pdf_path, path, GAPS_PDF_SEARCH_PATH_MAX) != 0) {
        free(path);
        return snprintf(msg, len, "the PDF search path (--pdf-path, LHAPDF_DATA_PATH) is longer "
                        "than %d bytes", GAPS_PDF_SEARCH_PATH_MAX - 1), -1;
    }
    int rc = gaps_pdf_load(pdf, spec, path, msg, len);
    free(path);
    /* the hadron processes take quarks and antiquarks d, u, s, c, b from the set (their hard
     * channels and the initial-state shower's flavours): a set without one of them would
     * silently drop its channels (the reader itself requires the gluon) */
    for (int q = 1; rc == 0 && q <= 5; ++q)
        for (int sign = 1; rc == 0 && sign >= -1; sign -= 2)
            if (gaps_pdf_column(pdf, sign * q) < 0) {
                snprintf(msg, len, "%s: the set has no flavour %d (Flavors): the hadron "
                         "processes need the quarks and antiquarks d, u, s, c, b (1 to 5, -1 "
                         "to -5) and the gluon", pdf->file, sign * q);
                gaps_pdf_free(pdf);
                rc = -1;
            }
    return rc;
}

int gaps_config_pdf_identity(const gaps_config *cfg, uint64_t *digest, char *file,
                             size_t file_len, char *msg, size_t len)
{
    if (digest) *digest = 0;
    if (file && file_len) file[0] = '\0';
    if (cfg->process < 0 || cfg->process >= GAPS_N_PROCESSES
        || !gaps_process_table[cfg->process].hadronic)
        return 0;
    gaps_pdf pdf;
    const gaps_c_locale saved = gaps_c_locale_enter();
    const int rc = load_run_pdf(cfg, &pdf, msg, len);
    gaps_c_locale_leave(saved);
    if (rc == 0 && digest) *digest = pdf.digest;
    if (rc == 0 && file && file_len) snprintf(file, file_len, "%s", pdf.file);
    gaps_pdf_free(&pdf);
    return rc;
}

static int vary_pdf_set_check(const gaps_pdf *central, char *msg, size_t len);

int gaps_config_check_pdf(const gaps_config *cfg, char *msg, size_t len)
{
    if (gaps_config_pdf_identity(cfg, NULL, NULL, 0, msg, len) != 0) return -1;
    if (!(cfg->vary & GAPS_VARY_PDF) || !config_hadronic(cfg)) return 0;
    gaps_pdf central;   /* --vary pdf: a set with members (each member is checked by the run) */
    const gaps_c_locale saved = gaps_c_locale_enter();
    int rc = load_run_pdf(cfg, &central, msg, len);
    gaps_c_locale_leave(saved);
    if (rc == 0) rc = vary_pdf_set_check(&central, msg, len);
    gaps_pdf_free(&central);
    return rc;
}

/* --vary pdf: what the variations need of the set whose central member is `central` (NULL:
 * none, no PDF variations) */
static gaps_vary_pdf_set vary_pdf_set_of(const gaps_pdf *central)
{
    gaps_vary_pdf_set set = { 0, -1, GAPS_PDF_ERRORS_UNKNOWN, 0, 0.0 };
    if (!central) return set;
    set.members = central->num_members;
    set.set_index = central->set_index;
    gaps_vary_pdf_errors(central->error_type, &set.errors, &set.alphas_members);
    set.conf_level = central->error_conf_level > 0.0 ? central->error_conf_level : 0.0;
    return set;
}

/* --vary pdf: what the run's set must be (a set with members other than its central one, the
 * central one the run's), from its central member `central` */
static int vary_pdf_set_check(const gaps_pdf *central, char *msg, size_t len)
{
    if (central->member != 0)
        return snprintf(msg, len, "--vary pdf: the variations are the members of %s around its "
                        "central member 0, so --pdf must name member 0 (not %d)", central->name,
                        central->member), -1;
    if (central->num_members < 2)
        return snprintf(msg, len, "--vary pdf: the set %s has %s (NumMembers in %s.info): it "
                        "needs a set with error members (Hessian eigenvectors or replicas)",
                        central->name, central->num_members == 1 ? "one member" : "no NumMembers",
                        central->name), -1;
    if (central->num_members - 1 > GAPS_VARY_PDF_MAX)
        return snprintf(msg, len, "--vary pdf: the set %s has %d members, at most %d other than "
                        "the central one are taken", central->name, central->num_members,
                        GAPS_VARY_PDF_MAX), -1;
    return 0;
}

/* The FNV-1a digest of the members' digests in order (gaps_state.vary_pdf_digest) */
static uint64_t members_digest(uint64_t h, uint64_t member_digest)
{
    if (h == 0) h = 14695981039346656037ull;
    for (int k = 0; k < 8; ++k) {
        h ^= (member_digest >> (8 * k)) & 0xffu;
        h *= 1099511628211ull;
    }
    return h;
}

/* --vary pdf: members 1 .. central->num_members - 1 of the run's set, each checked like the
 * run's own (load_run_pdf; each member is interpolated on its own grid, which need not be the
 * central member's); into members[] (host copies, NULL: each freed once its digest is taken).
 * Returns 0, or -1 with one line. */
static int load_vary_members(const gaps_config *cfg, const gaps_pdf *central, gaps_pdf *members,
                             uint64_t *digest, char *msg, size_t len)
{
    *digest = 0;
    for (int m = 1; m < central->num_members; ++m) {
        gaps_pdf one, *p = members ? &members[m - 1] : &one;
        if (load_run_pdf_member(cfg, m, p, msg, len) != 0) {
            for (int k = 1; members && k < m; ++k) gaps_pdf_free(&members[k - 1]);
            return -1;
        }
        *digest = members_digest(*digest, p->digest);
        if (!members) gaps_pdf_free(&one);
    }
    return 0;
}

int gaps_config_vary_list(const gaps_config *cfg, gaps_variation out[GAPS_VARY_MAX])
{
    gaps_vary_pdf_set set = vary_pdf_set_of(NULL);
    if ((cfg->vary & GAPS_VARY_PDF) && config_hadronic(cfg)) {
        char msg[512];
        gaps_pdf central;
        const gaps_c_locale saved = gaps_c_locale_enter();
        if (load_run_pdf(cfg, &central, msg, sizeof msg) == 0) {
            if (vary_pdf_set_check(&central, msg, sizeof msg) == 0)
                set = vary_pdf_set_of(&central);
            gaps_pdf_free(&central);
        }
        gaps_c_locale_leave(saved);
    }
    return gaps_vary_list(cfg->vary, config_hadronic(cfg), cfg->alphas_mz, &set, out);
}

int gaps_config_vary_pdf(const gaps_config *cfg, gaps_vary_pdf_set *set, uint64_t *digest,
                         char *msg, size_t len)
{
    *set = vary_pdf_set_of(NULL);
    set->set_index = 0;
    *digest = 0;
    if (!(cfg->vary & GAPS_VARY_PDF) || !config_hadronic(cfg)) return 0;
    gaps_pdf central;
    const gaps_c_locale saved = gaps_c_locale_enter();
    int rc = load_run_pdf(cfg, &central, msg, len);
    if (rc == 0) rc = vary_pdf_set_check(&central, msg, len);
    if (rc == 0) rc = load_vary_members(cfg, &central, NULL, digest, msg, len);
    gaps_c_locale_leave(saved);
    if (rc == 0) *set = vary_pdf_set_of(&central);
    gaps_pdf_free(&central);
    return rc;
}

/* The parton distributions where the loops run, for the run's lifetime. */
typedef struct run_pdf {
    gaps_pdf view;     /* host struct whose arrays are device copies */
    gaps_pdf *dev;     /* the view copied where the loops run; NULL for a non-hadronic run */
    double *bound;     /* the initial-state shower's PDF-ratio bounds where the loops run */
    uint64_t digest;   /* the set's digest (gaps_pdf.digest); 0 for a non-hadronic run */
    char file[GAPS_PDF_FILE_MAX];   /* its member file */
    /* --vary pdf: members 1 .. n_members of the set, views and their copies where the loops
     * run (heap arrays of n_members; NULL and 0 without --vary pdf) */
    int n_members;
    gaps_pdf *member_view;
    gaps_pdf **member_dev;
    gaps_vary_pdf_set set;     /* the set's NumMembers and SetIndex (gaps/vary.h) */
    uint64_t members_digest;   /* gaps_state.vary_pdf_digest */
} run_pdf;

static void run_pdf_free(run_pdf *rp);

/* --vary pdf: the set's other members where the loops run, each variation's densities
 * (phys->vary_pdf and the hard process's, gaps_process_set_scales_pdf).  0, or -1 with one
 * line (rp freed). */
static int run_vary_members(const gaps_config *cfg, gaps_physics *phys, run_pdf *rp, char *msg,
                            size_t len)
{
    int n_pdf = 0;
    for (int v = 0; v < phys->n_vary; ++v) n_pdf += phys->vary_pdf_member[v] != 0;
    if (!n_pdf) return 0;
    gaps_pdf central;
    const gaps_c_locale saved = gaps_c_locale_enter();
    int rc = load_run_pdf(cfg, &central, msg, len);
    if (rc == 0) rc = vary_pdf_set_check(&central, msg, len);
    gaps_pdf *host = NULL;
    uint64_t digest = 0;
    const gaps_vary_pdf_set central_set = vary_pdf_set_of(&central);
    if (rc == 0 && central.num_members - 1 != n_pdf)
        rc = (snprintf(msg, len, "--vary pdf: %d members, %d variations", central.num_members,
                       n_pdf), -1);
    if (rc == 0 && !(host = calloc((size_t)n_pdf, sizeof *host)))
        rc = (snprintf(msg, len, "out of memory for the PDF members"), -1);
    if (rc == 0) rc = load_vary_members(cfg, &central, host, &digest, msg, len);
    gaps_c_locale_leave(saved);
    gaps_pdf_free(&central);
    if (rc != 0) {
        free(host);
        run_pdf_free(rp);
        return -1;
    }
    rp->member_view = calloc((size_t)n_pdf, sizeof *rp->member_view);
    rp->member_dev = calloc((size_t)n_pdf, sizeof *rp->member_dev);
    int ok = rp->member_view && rp->member_dev;
    for (int m = 0; ok && m < n_pdf; ++m) {
        ok = gaps_pdf_to_device(&host[m], &rp->member_view[m]) == 0;
        if (ok) {
            rp->n_members = m + 1;
            ok = (rp->member_dev[m] = gaps_device_copy(&rp->member_view[m],
                                                       sizeof rp->member_view[m])) != NULL;
        }
    }
    for (int m = 0; m < n_pdf; ++m) gaps_pdf_free(&host[m]);
    free(host);
    if (!ok) {
        run_pdf_free(rp);
        return snprintf(msg, len, "cannot allocate the PDF members where the loops run"), -1;
    }
    const gaps_pdf *hard[GAPS_VARY_HARD_MAX] = { 0 };
    for (int v = 0; v < phys->n_vary; ++v) {
        const int m = phys->vary_pdf_member[v];
        phys->vary_pdf[v] = m ? rp->member_dev[m - 1] : NULL;
        const int j = v - phys->vary_hard_first;
        if (j >= 0 && j < phys->proc.scales.n) hard[j] = phys->vary_pdf[v];
    }
    gaps_process_set_scales_pdf(&phys->proc, hard);
    rp->set = central_set;
    rp->members_digest = digest;
    return 0;
}

/* The run's physics (gaps_physics_setup), with the set of a hadronic process loaded and put
 * where the loops run: phys->proc.pdf. */
static int run_physics_setup(const gaps_config *cfg, gaps_physics *phys, run_pdf *rp,
                             char *msg, size_t len)
{
    memset(rp, 0, sizeof *rp);
    if (!gaps_process_table[cfg->process].hadronic)
        return gaps_physics_setup(phys, cfg, NULL, msg, len);
    gaps_pdf host;
    const gaps_c_locale saved = gaps_c_locale_enter();
    int rc = load_run_pdf(cfg, &host, msg, len);
    gaps_c_locale_leave(saved);
    if (rc != 0) return -1;
    /* --vary pdf: a set with members (a set of one would give no weights, silently) */
    if ((cfg->vary & GAPS_VARY_PDF) && vary_pdf_set_check(&host, msg, len) != 0) {
        gaps_pdf_free(&host);
        return -1;
    }
    rp->digest = host.digest;
    snprintf(rp->file, sizeof rp->file, "%s", host.file);
    if (gaps_physics_setup(phys, cfg, &host, msg, len) != 0) {
        gaps_pdf_free(&host);
        return -1;
    }
    /* the bounds of the initial-state shower come from the host copy of the set */
    double *table = NULL;
    int ok = gaps_isr_init_scaled(&phys->isr, &host, shower_coupling_bound(phys),
                                  shower_mu2_bound(phys), shower_headroom(phys),
                                  cfg->compat, cfg->t_cut, cfg->ecm * cfg->ecm, &table) == 0
             && (rp->bound = gaps_device_copy(table, gaps_isr_table_bytes(&phys->isr))) != NULL
             && gaps_pdf_to_device(&host, &rp->view) == 0;
    free(table);
    phys->isr.bound = rp->bound;
    gaps_pdf_free(&host);   /* the loops read only the device copy */
    if (ok) ok = (rp->dev = gaps_device_copy(&rp->view, sizeof rp->view)) != NULL;
    if (!ok) {
        gaps_pdf_device_free(&rp->view);
        gaps_device_free(rp->bound);
        return snprintf(msg, len, "cannot allocate the PDF tables where the loops run"), -1;
    }
    phys->proc.pdf = rp->dev;
    return run_vary_members(cfg, phys, rp, msg, len);
}

static void run_pdf_free(run_pdf *rp)
{
    for (int m = 0; m < rp->n_members; ++m) {
        gaps_device_free(rp->member_dev[m]);
        gaps_pdf_device_free(&rp->member_view[m]);
    }
    free(rp->member_view);
    free(rp->member_dev);
    gaps_device_free(rp->dev);
    gaps_pdf_device_free(&rp->view);
    gaps_device_free(rp->bound);
    memset(rp, 0, sizeof *rp);
}

/* One partition (an independent pool, see gaps_parallel.h): its pool, its per-event output
 * buffers, and what it reports back.  On the multicore backend each is written by its own
 * thread after every pass; starting each on a cache line of its own keeps neighbours from
 * invalidating each other's lines (false sharing). */
typedef struct partition {
    _Alignas(GAPS_CACHE_LINE_BYTES)
    gaps_pool pool;            /* host copy of the struct (device pointers inside) */
    gaps_pool *pool_dev;       /* the struct where the loops run */
    gaps_event_out out;        /* per-event output where the loops run (host copy) */
    gaps_event_out *out_dev;   /* the same struct where the loops run, or NULL */
    int out_capacity;          /* events the output buffers hold */
    gaps_physics *phys_dev;    /* the physics where the loops run: the run's copy, or with
                                  pieces this partition's own (its own end_event) */
    gaps_physics phys;         /* pieces: host copy of phys_dev */
    double *rows_host;         /* host copies of the first `done` entries of out */
    gaps_records records_host;
    double time_me, time_shower, time_analysis;
    long iterations;           /* strides of the cycle loop, of cycles_per_launch cycles each (a
                                  pass at the end of a run runs GAPS_TAIL_STRIDES of them) */
    long launches;
    long log_cap;
    int64_t *log;              /* showers ended after each stride, if keep_cycle_log */
    double *log_s;             /* ... and when (s after shared.t_start; log_stride()) */
    int64_t analysed;
    int64_t finished;          /* showers ended, at the end of the last pass */
    int failed;                /* enum failure: the events hook or next_range failed, or
                                  memory ran out */
    int log_failed;            /* the --cycles-out table could not grow */
    int dry;                   /* pieces: next_range has nothing left */
    int draining;              /* the last pass found no event left to start */
    int parity;                /* of the next trial launch (gaps_shower_launch_trial) */
    unsigned long long c[GAPS_N_COUNTERS];
} partition;

enum failure { FAILED_NONE = 0, FAILED_OUTPUT = 1, FAILED_PIECES = 2 };

/* What the partitions of a run share. */
typedef struct shared {
    const gaps_config *cfg;
    const gaps_hooks *hooks;
    const gaps_histograms *hist_dev;
    int pieces;                /* event numbers come piece by piece from hooks->next_range */
    int finish_segment;        /* a stop does not end the segment early: it is a piece given
                                  to this run (a file's, taken by the run's thread) */
    int64_t run_begin, run_end;   /* pieces: the bounds next_range is given */
    int64_t segment_end;       /* refills stop below this event number */
    int64_t done_before;       /* events finished before this run (a resumed checkpoint) */
    int64_t total;             /* events of the whole run, for progress */
    double t_start;            /* start of the event loop (now()), for the cycle log */
    /* All partitions together, updated atomically after every pass: on a cache line of its
     * own, so that the fields above, which every partition reads after every pass, are not
     * invalidated by each update. */
    _Alignas(GAPS_CACHE_LINE_BYTES) int64_t analysed;
} shared;

static int stop_requested(const shared *sh)
{
    return sh->hooks && sh->hooks->stop && *sh->hooks->stop;
}

/* Copy the per-event output of the last analysis launch (n events) to the host and hand it to
 * the events hook. */
static void deliver_events(partition *part, const shared *sh, int n)
{
    const gaps_config *cfg = sh->cfg;
    const gaps_records *dev = &part->out.records, *host = &part->records_host;
    if (cfg->keep_rows)
        gaps_device_to_host(part->rows_host, part->out.rows,
                            (size_t)n * part->out.row_stride * sizeof(double));
    if (cfg->keep_records) {
        const size_t np = (size_t)n * dev->maxp;
        gaps_device_to_host(host->p, dev->p, 4 * np * sizeof *host->p);
        gaps_device_to_host(host->weight, dev->weight, n * sizeof *host->weight);
        if (dev->n_vary)   /* --vary: the variation factors */
            gaps_device_to_host(host->vary_w, dev->vary_w,
                                (size_t)n * dev->n_vary * sizeof *host->vary_w);
        gaps_device_to_host(host->event, dev->event, n * sizeof *host->event);
        gaps_device_to_host(host->n, dev->n, n * sizeof *host->n);
        gaps_device_to_host(host->flav, dev->flav, np * sizeof *host->flav);
        gaps_device_to_host(host->col, dev->col, np * sizeof *host->col);
        gaps_device_to_host(host->acol, dev->acol, np * sizeof *host->acol);
        gaps_device_to_host(host->status, dev->status, np * sizeof *host->status);
        gaps_device_to_host(host->x, dev->x, np * sizeof *host->x);
    }
    if (sh->hooks && sh->hooks->events
        && sh->hooks->events(sh->hooks->ctx, cfg->keep_rows ? part->rows_host : NULL,
                             cfg->keep_records ? host : NULL, n) != 0)
        part->failed = FAILED_OUTPUT;
}

/* Pieces: ask hooks->next_range for the next piece of the run and point the partition's own
 * counter and end at it.  1 when there is a piece to do; 0 when none is left or next_range
 * failed (part->failed). */
static int take_piece(partition *part, const shared *sh)
{
    if (part->dry || part->failed) return 0;
    int64_t begin = sh->run_begin, end = sh->run_end;
    if (sh->hooks->next_range(sh->hooks->ctx, &begin, &end) != 0
        || (begin < end && (begin < sh->run_begin || end > sh->run_end))) {
        part->failed = FAILED_PIECES;
        return 0;
    }
    if (begin >= end) {
        part->dry = 1;
        return 0;
    }
    const unsigned long long next = (unsigned long long)begin;
    gaps_host_to_device(part->pool.next_event, &next, sizeof next);
    part->phys.end_event = end;
    gaps_host_to_device(part->phys_dev, &part->phys, sizeof part->phys);
    return 1;
}

/* One entry of the --cycles-out table, for the cycles_per_launch cycles that end at stride
 * part->iterations: the events whose shower had ended by then and the seconds since the event
 * loop began.  The host learns both once per pass, so in a pass of several strides (the end
 * of a run) the entries before its last give the count and the time at the pass's start. */
static void log_stride(partition *part, int64_t finished, double seconds)
{
    if (part->iterations == part->log_cap) {
        int64_t *grown = realloc(part->log, 2 * part->log_cap * sizeof *grown);
        if (grown) part->log = grown;
        double *grown_s = grown ? realloc(part->log_s, 2 * part->log_cap * sizeof *grown_s)
                                : NULL;
        if (grown_s) part->log_s = grown_s;
        if (!grown_s) {
            part->failed = FAILED_OUTPUT;
            part->log_failed = 1;
            free(part->log);
            free(part->log_s);
            part->log = NULL;
            part->log_s = NULL;
            return;
        }
        part->log_cap *= 2;
    }
    part->log[part->iterations] = finished;
    part->log_s[part->iterations] = seconds;
}

/* Events that wait for the analysis while a pool drains, at most.  On a GPU an analysis launch
 * lasts at least as long as its costliest event takes one thread: about 0.9 ms for pp-z on an
 * H200 (the anti-k_T clustering of a large event), the time of some 10^5 events' analyses;
 * at the end of a run, where each pass finishes a few events, a launch per pass cost pp-z
 * 10^6 events 48 launches and 50 ms (doc/benchmarks.md).  Nothing waits for the slots then. */
#define GAPS_DRAIN_BATCH 65536

/* Cycles of a pass at the end of a run (one listed launch), in cycles_per_launch: each pass
 * also costs a gathering launch and the transfers of the counters (about 0.3 ms on an H200,
 * against 17 us for a cycle of one long pp-z event, doc/benchmarks.md). */
#define GAPS_TAIL_STRIDES 8

/* The cycle loop of one pool over one segment of event numbers.  Each pass runs veto cycles
 * for every slot (one launch per veto step, two per cycle, or cycles_per_launch whole cycles
 * in one launch), analyses the events whose shower ended (the done list; while the pool
 * drains, in batches: GAPS_DRAIN_BATCH), and hands fresh event numbers to the freed slots.
 * The host learns the state from a few counters, never from per-slot flags.  It ends when
 * no slot is busy and no event number below the segment's end is left (or a stop was
 * requested).  With pieces, the pool's own counter walks one piece at a time;
 * when every event of a piece has started, the next piece is taken while the pool is still
 * busy, so a piece boundary costs no drain. */
static void run_segment(partition *part, shared *sh, int is_first_partition)
{
    const gaps_config *cfg = sh->cfg;
    const gaps_physics *phys = part->phys_dev;
    gaps_pool *pool = part->pool_dev;
    const int nslots = part->pool.nslots;
    unsigned long long *c = part->c;

    part->draining = 0;
    double t0 = now();
    if ((!stop_requested(sh) || sh->finish_segment) && (!sh->pieces || take_piece(part, sh))) {
        gaps_shower_launch_refill(pool, phys, nslots, config_launch(cfg),
                                      config_from_file(cfg));
        part->launches++;
    }
    part->time_me += now() - t0;
    for (;;) {
        t0 = now();
        int strides = 1;   /* cycles of this pass, in cycles_per_launch */
        if (gaps_config_loop_mode(cfg) == GAPS_LOOPS_FUSED) {
            gaps_shower_launch_cycles(pool, phys, nslots, gaps_config_cycles_per_launch(cfg),
                                      gaps_config_split_every(cfg), config_launch(cfg));
            part->launches++;
        } else {   /* cycles_per_launch cycles of one launch per step (or two: trial and
                      splitting), then analysis and refill; the launches run over the slots that
                      are showering at the pass's start */
            const int showering = gaps_shower_gather(&part->pool, pool, nslots);
            const int cycles = gaps_config_cycles_per_launch(cfg);
            part->launches++;
            if (showering > 0 && part->draining
                && (long)showering * gaps_runtime_step_tail_share() <= nslots) {
                /* the end of the run: a few long events, where the launches of each cycle
                 * cost more than the work of their few lanes, so the pass's cycles run in one
                 * launch (splitting at once, as the step loops do; backend/gaps_parallel.h),
                 * and the pass runs GAPS_TAIL_STRIDES times as many */
                strides = GAPS_TAIL_STRIDES;
                gaps_shower_launch_cycles_listed(pool, phys, showering, strides * cycles, 1,
                                                 gaps_runtime_event_lanes(showering));
                part->launches++;
            } else if (showering > 0 && gaps_config_loop_mode(cfg) == GAPS_LOOPS_TRIALS) {
                for (int k = 0; k < cycles; ++k) {
                    gaps_shower_launch_trial(pool, phys, showering, part->parity);
                    gaps_shower_launch_splitting(pool, phys, showering,
                                                 gaps_runtime_event_lanes(showering),
                                                 part->parity);
                    part->parity = !part->parity;
                }
                part->launches += 2L * cycles;
            } else if (showering > 0) {
                for (int k = 0; k < cycles; ++k)
                    for (int step = 0; step < GAPS_N_VETO_STEPS; ++step)
                        gaps_shower_launch_step(pool, phys, showering,
                                                (enum gaps_veto_step)step,
                                                gaps_runtime_event_lanes(showering));
                part->launches += (long)GAPS_N_VETO_STEPS * cycles;
            }
        }
        gaps_pool_read_counters(&part->pool, c);
        const double t1 = now();
        part->time_shower += t1 - t0;
        const int done = gaps_pool_done_count(c);
        /* While the pool drains, finished events wait in their slots (no event is left to
         * take them) until a batch has gathered or none is showering any more */
        const int64_t finished = part->analysed + done;   /* showers ended, for the table */
        const int64_t showering_left = (int64_t)c[GAPS_COUNT_STARTED] - finished;
        if (done > 0 && (!part->draining || done >= GAPS_DRAIN_BATCH || showering_left == 0)) {
            /* with per-event output, at most out_capacity events per analysis launch: the
             * output buffers stay small whatever the pool size */
            const int chunk = part->out_dev ? part->out_capacity : done;
            for (int first = 0; first < done; first += chunk) {
                const int m = done - first < chunk ? done - first : chunk;
                gaps_analysis_launch(pool, phys, sh->hist_dev, part->out_dev, first, m);
                part->launches++;
                if (part->out_dev && !part->failed) deliver_events(part, sh, m);
            }
            gaps_pool_clear_done_by_n(&part->pool);
            part->analysed += done;
            GAPS_ATOMIC_UPDATE
            sh->analysed += done;
        }
        const double t2 = now();
        part->time_analysis += t2 - t1;

        for (int k = 0; k < strides; ++k) {   /* the --cycles-out table */
            const int last = k == strides - 1;
            if (part->log)
                log_stride(part, last ? finished : part->finished,
                           (last ? t2 : t0) - sh->t_start);
            part->iterations++;
        }
        part->finished = finished;
        if (is_first_partition && sh->hooks && sh->hooks->progress) {
            int64_t all;
            GAPS_ATOMIC_READ
            all = sh->analysed;
            sh->hooks->progress(sh->hooks->ctx, sh->done_before + all, sh->total);
        }
        const int idle = (int64_t)c[GAPS_COUNT_STARTED] == part->analysed;
        int left, fresh = 0;
        if (sh->pieces) {
            /* a piece that was given is finished even after a stop: what is done must be
             * exactly what was given */
            left = (int64_t)c[GAPS_COUNT_NEXT] < part->phys.end_event && !part->failed;
            if (!left && !stop_requested(sh)) left = fresh = take_piece(part, sh);
        } else {
            left = (int64_t)c[GAPS_COUNT_NEXT] < sh->segment_end
                   && (!stop_requested(sh) || sh->finish_segment) && !part->failed;
        }
        if (idle && !left) break;
        part->draining = !left;
        /* Every empty slot takes the next event: with refills, after events ended or a new
         * piece came (also the slots that found the last one used up); in batches, once the
         * pool ran dry.  The launch runs over all slots, not only the ones just analysed:
         * on a GPU its writes then go to neighbouring slots side by side, where the done
         * list's slots lie scattered (ME 0.183 -> 0.080 s at 10^8 events, doc/benchmarks.md) */
        if (left && (idle || (cfg->refill && (fresh || done > 0)))) {
            gaps_shower_launch_refill(pool, phys, nslots, config_launch(cfg),
                                      config_from_file(cfg));
            part->launches++;
        }
        part->time_me += now() - t2;
    }
}

/* File pieces: the next piece from hooks->next_range into [*begin, *end), which must lie in
 * [run_begin, run_end).  1 when there is one, 0 when none is left, -1 when next_range failed
 * or gave a piece outside the run. */
static int take_file_piece(const gaps_hooks *hooks, int64_t run_begin, int64_t run_end,
                           int64_t *begin, int64_t *end)
{
    int64_t b = run_begin, e = run_end;
    if (hooks->next_range(hooks->ctx, &b, &e) != 0) return -1;
    if (b >= e) return 0;
    if (b < run_begin || e > run_end) return -1;
    *begin = b;
    *end = e;
    return 1;
}

/* One past the last event of the segment from `start`: checkpoint_every events (`every`),
 * and for hard events from a file at most a batch (capacity; 0 for built-in processes), but
 * never past the run's end. */
static int64_t segment_end_of(int64_t start, int64_t run_end, int64_t every, int64_t capacity)
{
    int64_t end = run_end - start > every ? start + every : run_end;
    if (capacity > 0 && end - start > capacity) end = start + capacity;
    return end;
}

/* The arrays of a batch of hard events from a file (gaps/hard_batch.h), in host memory
 * (device 0) or where the loops run (device 1).  0, or -1 when memory ran out (what was
 * allocated is released by batch_free). */
static int batch_alloc(gaps_hard_batch *b, int capacity, int row_capacity, int device)
{
    memset(b, 0, sizeof *b);
    b->capacity = capacity;
    b->row_capacity = row_capacity;
    void *(*alloc)(size_t) = device ? gaps_device_alloc : malloc;
    b->row0 = alloc((size_t)(capacity + 1) * sizeof *b->row0);
    b->n_in = alloc((size_t)capacity * sizeof *b->n_in);
    b->next_tag = alloc((size_t)capacity * sizeof *b->next_tag);
    b->draw = alloc((size_t)capacity * sizeof *b->draw);
    b->weight = alloc((size_t)capacity * sizeof *b->weight);
    b->t_start = alloc((size_t)capacity * sizeof *b->t_start);
    b->x = alloc((size_t)capacity * 2 * sizeof *b->x);
    b->p = alloc((size_t)row_capacity * 4 * sizeof *b->p);
    b->flav = alloc((size_t)row_capacity * sizeof *b->flav);
    b->col = alloc((size_t)row_capacity * sizeof *b->col);
    b->acol = alloc((size_t)row_capacity * sizeof *b->acol);
    b->t_start_row = alloc((size_t)row_capacity * sizeof *b->t_start_row);
    return b->row0 && b->n_in && b->next_tag && b->draw && b->weight && b->t_start && b->x
           && b->p && b->flav && b->col && b->acol && b->t_start_row ? 0 : -1;
}

static void batch_free(gaps_hard_batch *b, int device)
{
    void (*release)(void *) = device ? gaps_device_free : free;
    void *arrays[] = { b->row0, b->n_in, b->next_tag, b->draw, b->weight, b->t_start, b->x,
                       b->p, b->flav, b->col, b->acol, b->t_start_row };
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) release(arrays[k]);
    memset(b, 0, sizeof *b);
}

/* The filled part of host batch h to the device batch d (its arrays), and d's struct to
 * d_struct where the loops run. */
static void batch_upload(const gaps_hard_batch *h, gaps_hard_batch *d, gaps_hard_batch *d_struct)
{
    const size_t n = (size_t)h->count, rows = (size_t)h->row0[h->count];
    d->first = h->first;
    d->count = h->count;
    gaps_host_to_device(d->row0, h->row0, (n + 1) * sizeof *h->row0);
    gaps_host_to_device(d->n_in, h->n_in, n * sizeof *h->n_in);
    gaps_host_to_device(d->next_tag, h->next_tag, n * sizeof *h->next_tag);
    gaps_host_to_device(d->draw, h->draw, n * sizeof *h->draw);
    gaps_host_to_device(d->weight, h->weight, n * sizeof *h->weight);
    gaps_host_to_device(d->t_start, h->t_start, n * sizeof *h->t_start);
    gaps_host_to_device(d->x, h->x, 2 * n * sizeof *h->x);
    gaps_host_to_device(d->p, h->p, 4 * rows * sizeof *h->p);
    gaps_host_to_device(d->flav, h->flav, rows * sizeof *h->flav);
    gaps_host_to_device(d->col, h->col, rows * sizeof *h->col);
    gaps_host_to_device(d->acol, h->acol, rows * sizeof *h->acol);
    gaps_host_to_device(d->t_start_row, h->t_start_row, rows * sizeof *h->t_start_row);
    gaps_host_to_device(d_struct, d, sizeof *d);
}

/* Per-event output buffers of a partition: where the loops write, and the host copies. */
/* Events whose per-event output one analysis launch writes at most: 2^16 records of the
 * largest capacity are 92 MB on each side; more would only grow memory with the pool. */
#define GAPS_EVENT_OUT_CHUNK 65536

static int partition_alloc_output(partition *part, const gaps_config *cfg)
{
    const int n = part->pool.nslots < GAPS_EVENT_OUT_CHUNK ? part->pool.nslots
                                                           : GAPS_EVENT_OUT_CHUNK;
    part->out_capacity = n;
    if (!cfg->keep_rows && !cfg->keep_records) return 0;
    memset(&part->out, 0, sizeof part->out);
    if (cfg->keep_rows) {
        part->out.row_stride = gaps_row_stride(part->pool.n_vary);
        const size_t bytes = (size_t)n * part->out.row_stride * sizeof(double);
        part->out.rows = gaps_device_alloc(bytes);
        part->rows_host = malloc(bytes);
        if (!part->out.rows || !part->rows_host) return -1;
    }
    if (cfg->keep_records) {
        const int nv = part->pool.n_vary;   /* --vary: the factors too */
        const size_t bytes = gaps_records_carve(&part->out.records, NULL, n, cfg->max_partons,
                                                nv);
        void *dev = gaps_device_alloc(bytes), *host = malloc(bytes);
        if (dev) gaps_records_carve(&part->out.records, dev, n, cfg->max_partons, nv);
        if (host) gaps_records_carve(&part->records_host, host, n, cfg->max_partons, nv);
        if (!dev || !host) { gaps_device_free(dev); free(host); return -1; }
    }
    part->out_dev = gaps_device_copy(&part->out, sizeof part->out);
    return part->out_dev ? 0 : -1;
}

static void partition_free(partition *part)
{
    free(part->log);
    free(part->log_s);
    free(part->rows_host);
    free(part->records_host.p);   /* the host records' block */
    gaps_device_free(part->out_dev);
    gaps_device_free(part->out.rows);
    gaps_device_free(part->out.records.p);   /* the device records' block */
    gaps_device_free(part->pool_dev);
    if (part->pool.counters) gaps_pool_destroy(&part->pool);
}

/* The run's state: what it resumed from, plus the device accumulators and counters.  The
 * accumulator copies are summed where they live; one copy travels to the host. */
static int collect_state(const gaps_state *base, const gaps_histograms *hist,
                         uint64_t *words_dev, uint64_t *words_host, const partition *parts,
                         int nparts, int64_t begin, int64_t end, gaps_state *out, char *msg,
                         size_t len)
{
    *out = *base;
    gaps_histograms_launch_reduce(hist, words_dev);
    gaps_device_to_host(words_host, words_dev,
                        (size_t)gaps_histograms_reduce_words(hist) * sizeof *words_host);
    /* cannot happen within the weight limit and 2^62 events (gaps/histogram.h); never
     * silent all the same */
    if (words_host[gaps_histograms_reduce_words(hist) - 1] != 0
        || gaps_histograms_accumulate(out->words, words_host, hist->nbins_total) != 0)
        return snprintf(msg, len, "the exact histogram sums overflowed"), -1;
    for (int k = 0; k < nparts; ++k) {
        out->capacity_hits += parts[k].c[GAPS_COUNT_CAPACITY];
        out->invalid_events += parts[k].c[GAPS_COUNT_INVALID];
        out->bad_weights += parts[k].c[GAPS_COUNT_BAD_WEIGHT];
        out->vary_over_events += parts[k].c[GAPS_COUNT_VARY_OVER];
        out->vary_large_events += parts[k].c[GAPS_COUNT_VARY_LARGE];
    }
    out->events = out->words[(size_t)(hist->nbins_total - 2) * GAPS_ACC_WORDS
                             + GAPS_ACC_COUNT];   /* the one bin of the event counter */
    return gaps_state_add_range(out, begin, end, msg, len);
}

/* Combine the partitions' logs: events completed in the whole run after each pass, a
 * partition that has ended counting with its final number; the time of a pass is that of the
 * partition that ended it last (the partitions run concurrently). */
static void combine_cycle_logs(const partition *parts, int nparts, gaps_run *run)
{
    long n = 0;
    for (int k = 0; k < nparts; ++k) if (parts[k].iterations > n) n = parts[k].iterations;
    run->completed_per_cycle = malloc((n > 0 ? n : 1) * sizeof *run->completed_per_cycle);
    run->cycle_log_seconds = malloc((n > 0 ? n : 1) * sizeof *run->cycle_log_seconds);
    if (!run->completed_per_cycle || !run->cycle_log_seconds) {
        free(run->completed_per_cycle);
        free(run->cycle_log_seconds);
        run->completed_per_cycle = NULL;
        run->cycle_log_seconds = NULL;
        return;
    }
    for (long i = 0; i < n; ++i) {
        int64_t sum = 0;
        double t = 0.0;
        for (int k = 0; k < nparts; ++k) {
            if (!parts[k].log || parts[k].iterations == 0) continue;
            const long j = i < parts[k].iterations ? i : parts[k].iterations - 1;
            sum += parts[k].log[j];
            if (parts[k].log_s[j] > t) t = parts[k].log_s[j];
        }
        run->completed_per_cycle[i] = sum;
        run->cycle_log_seconds[i] = t;
    }
    run->cycle_log_length = n;
}

gaps_resume_point gaps_resume_point_make(const gaps_config *cfg, int64_t next_event,
                                         uint64_t launches, uint64_t veto_cycles)
{
    gaps_resume_point rp;
    memset(&rp, 0, sizeof rp);
    rp.first_event = cfg->first_event;
    rp.events = cfg->events;
    rp.next_event = next_event;
    rp.rows_offset = rp.hepmc_offset = -1;   /* the program fills in its streams' offsets */
    rp.launches = launches;
    rp.veto_cycles = veto_cycles;
    return rp;
}

int gaps_generate(const gaps_config *cfg, gaps_run *run, char *msg, size_t len)
{
    return gaps_generate_with(cfg, NULL, NULL, NULL, run, msg, len);
}

int gaps_generate_with(const gaps_config *cfg, const gaps_hooks *hooks,
                       const gaps_state *resume_state, const gaps_resume_point *resume,
                       gaps_run *run, char *msg, size_t len)
{
    const double t_entry = now();
    memset(run, 0, sizeof *run);
    if (gaps_config_check(cfg, msg, len) != 0) return -1;
    int64_t run_end = cfg->first_event + cfg->events;   /* earlier if a file ends first */
    const int64_t start = resume ? resume->next_event : cfg->first_event;
    if (start < cfg->first_event || start > run_end)
        return snprintf(msg, len, "the checkpoint's next event %lld lies outside the run",
                        (long long)start), -1;
    if (resume_state) {
        /* the sums continue in the unit they were made in, or not at all */
        uint64_t digest;   /* compared below, with the set's file named */
        const double unit = process_weight_unit(cfg, &digest);
        if (memcmp(&resume_state->w_unit, &unit, sizeof unit) != 0)
            return snprintf(msg, len, "the checkpoint's weight unit %.17g pb is not this run's "
                            "%.17g pb", resume_state->w_unit, unit), -1;
        /* and with the variations they hold, of the same shower */
        if (resume_state->vary != cfg->vary
            || memcmp(&resume_state->shower_mur_factor, &cfg->shower_mur_factor,
                      sizeof cfg->shower_mur_factor) != 0)
            return snprintf(msg, len, "the checkpoint's --vary and --shower-mur-factor are not "
                            "this run's"), -1;
    }
    const int next_range = hooks && hooks->next_range;
    if (next_range && cfg->checkpoint_every > 0)
        return snprintf(msg, len, "a run that takes its work in pieces (next_range) leaves "
                        "checkpoints to the giver: checkpoint_every must be 0"), -1;
    gaps_runtime_set_threads(cfg->threads);
    if (gaps_runtime_init(cfg->allow_host, run->device, sizeof run->device, msg, len) != 0)
        return -1;
    snprintf(run->backend, sizeof run->backend, "%s", gaps_runtime_backend_name());
    run->threads = gaps_runtime_threads();

    gaps_physics phys;
    run_pdf pdf;
    if (run_physics_setup(cfg, &phys, &pdf, msg, len) != 0) return -1;
    /* hard events from a file: a batch per segment, filled on the host by hooks->hard_events
     * and copied to where the loops run */
    const int from_file = phys.proc.from_file;
    /* pieces taken by the partitions (built-in processes), or by the run's thread, a piece
     * a segment or more (a file's events: they come a batch at a time) */
    const int pieces = next_range && !from_file, file_pieces = next_range && from_file;
    /* two host batches with hooks->hard_events_ahead: one is read while the other's events
     * shower */
    gaps_hard_batch batch_host[2], batch_dev;
    gaps_hard_batch *batch_dev_struct = NULL;
    const int n_host = from_file && hooks && hooks->hard_events_ahead ? 2 : 1;
    int cur = 0;   /* the host batch of the segment to come */
    memset(batch_host, 0, sizeof batch_host);
    memset(&batch_dev, 0, sizeof batch_dev);
    if (from_file) {
        if (!hooks || !hooks->hard_events) {
            run_pdf_free(&pdf);
            return snprintf(msg, len, "a process whose hard events come from a file needs the "
                            "hard_events hook"), -1;
        }
        const int64_t cap = gaps_config_file_batch(cfg);
        const int64_t rows = cap * GAPS_FILE_BATCH_ROWS_PER_EVENT > cfg->max_partons
                             ? cap * GAPS_FILE_BATCH_ROWS_PER_EVENT : cfg->max_partons;
        if (cap > INT32_MAX / GAPS_FILE_BATCH_ROWS_PER_EVENT
            || batch_alloc(&batch_host[0], (int)cap, (int)rows, 0) != 0
            || (n_host > 1 && batch_alloc(&batch_host[1], (int)cap, (int)rows, 0) != 0)
            || batch_alloc(&batch_dev, (int)cap, (int)rows, 1) != 0
            || !(batch_dev_struct = gaps_device_copy(&batch_dev, sizeof batch_dev))) {
            batch_free(&batch_host[0], 0);
            batch_free(&batch_host[1], 0);
            batch_free(&batch_dev, 1);
            run_pdf_free(&pdf);
            return snprintf(msg, len, "cannot allocate a batch of %lld hard events",
                            (long long)cap), -1;
        }
        gaps_process_set_batch(&phys.proc, batch_dev_struct);
    }
    /* the sums continue with the grid they were made with, or not at all: a set of the same
     * name may hold other values (another LHAPDF_DATA_PATH, an edited file) */
    if (resume_state && resume_state->pdf_digest != pdf.digest) {
        snprintf(msg, len, "the checkpoint was made with PDF set %s of digest %016" PRIx64
                 ", but %s has digest %016" PRIx64 ": another grid of the same name",
                 resume_state->pdf, resume_state->pdf_digest, pdf.file, pdf.digest);
        run_pdf_free(&pdf);
        return -1;
    }
    if (resume_state && (resume_state->vary_pdf_digest != pdf.members_digest
                         || resume_state->vary_pdf.members != pdf.set.members)) {
        snprintf(msg, len, "the checkpoint was made with %d members of PDF set %s (digest "
                 "%016" PRIx64 "), but they are now %d (digest %016" PRIx64 "): --vary pdf "
                 "takes the same members", resume_state->vary_pdf.members, resume_state->pdf,
                 resume_state->vary_pdf_digest, pdf.set.members, pdf.members_digest);
        run_pdf_free(&pdf);
        return -1;
    }
    /* one partition per worker on the host, one on the device; never more slots than events */
    const int nparts = gaps_runtime_partitions();
    int64_t slots = cfg->slots > 0 ? cfg->slots
                  : (int64_t)gaps_runtime_default_slots_per_partition() * nparts;
    /* With per-event output the writer sets the pace (2x10^5 HepMC3 events/s against 3x10^7
     * generated on a GPU), so a pool larger than one output buffer only costs memory: the
     * device arrays and the reorder buffer both follow the pool.  The default pool is capped
     * there; --pool still chooses any size. */
    if (cfg->slots == 0 && (cfg->keep_rows || cfg->keep_records)
        && slots > (int64_t)GAPS_EVENT_OUT_CHUNK * nparts)
        slots = (int64_t)GAPS_EVENT_OUT_CHUNK * nparts;
    if (slots > cfg->events) slots = cfg->events;
    if (slots < nparts) slots = nparts;
    run->slots = (int)slots;

    gaps_state *base = malloc(sizeof *base);
    run->state = malloc(sizeof *run->state);
    run->hist = malloc(sizeof *run->hist);
    partition *parts = aligned_alloc(GAPS_CACHE_LINE_BYTES, nparts * sizeof *parts);
    if (parts) memset(parts, 0, nparts * sizeof *parts);
    gaps_histograms hist;
    gaps_histograms_layout(&hist, gaps_worker_count(), phys.proc.w_unit, phys.proc.analysis);
    const size_t hist_bytes = (size_t)gaps_histograms_words(&hist) * sizeof(uint64_t);
    hist.acc = gaps_device_alloc(hist_bytes);
    const size_t reduce_bytes = (size_t)gaps_histograms_reduce_words(&hist) * sizeof(uint64_t);
    uint64_t *words_host = malloc(reduce_bytes);
    uint64_t *words_dev = gaps_device_alloc(reduce_bytes);
    /* --vary: the histograms once more per variation, summed like the nominal ones (a view
     * of their words as one copy of n_vary times the bins: gaps_histograms_launch_reduce
     * then adds the workers' copies of all of them at once) */
    gaps_histograms vary_view;
    memset(&vary_view, 0, sizeof vary_view);
    uint64_t *vary_words_host = NULL, *vary_words_dev = NULL;
    size_t vary_reduce_bytes = 0;
    int vary_ok = 1;
    run->n_vary = gaps_vary_list(cfg->vary, phys.proc.hadronic, cfg->alphas_mz, &pdf.set,
                                 run->vary);
    if (phys.n_vary > 0) {
        hist.n_vary = phys.n_vary;
        hist.vary_acc = gaps_device_alloc(hist_bytes * (size_t)phys.n_vary);
        vary_view = hist;
        vary_view.acc = hist.vary_acc;
        vary_view.nbins_total = hist.nbins_total * phys.n_vary;
        vary_view.n_vary = 0;
        vary_view.vary_acc = NULL;
        vary_reduce_bytes = (size_t)gaps_histograms_reduce_words(&vary_view) * sizeof(uint64_t);
        vary_words_host = malloc(vary_reduce_bytes);
        vary_words_dev = gaps_device_alloc(vary_reduce_bytes);
        run->vary_words = calloc((size_t)vary_view.nbins_total * GAPS_ACC_WORDS,
                                 sizeof *run->vary_words);
        run->vary_hist = malloc((size_t)phys.n_vary * sizeof *run->vary_hist);
        vary_ok = hist.vary_acc && vary_words_host && vary_words_dev && run->vary_words
                  && run->vary_hist;
        const double nominal = phys.mur_scaled ? phys.mur2 : 1.0;
        run->vary_a_max_ratio = phys.a_max / gaps_alphas_value(&phys.as, fmax(nominal, 1.0)
                                                                         * cfg->t_cut);
        run->vary_t_headroom = shower_headroom_by_scale(&phys) ? phys.vary_t_headroom
                               : phys.vary_shower ? cfg->ecm * cfg->ecm : 0.0;
    }
    gaps_physics *phys_dev = gaps_device_copy(&phys, sizeof phys);
    gaps_histograms *hist_dev = hist.acc ? gaps_device_copy(&hist, sizeof hist) : NULL;
    /* Pools share one event counter, except with pieces: then each walks its own piece.  With
     * several host partitions the shared counter has a cache line of its own, away from any
     * pool's other counters (which only that pool's thread writes). */
    unsigned long long *shared_next =
        nparts > 1 && !pieces ? gaps_device_alloc(sizeof *shared_next) : NULL;
    int ok = base && run->state && run->hist && parts && hist_dev && phys_dev && words_host
             && words_dev && (shared_next || nparts == 1 || pieces) && vary_ok;
    for (int k = 0; ok && k < nparts; ++k) {
        const int n = (int)(slots / nparts + (k < slots % nparts));
        ok = gaps_pool_create(&parts[k].pool, n, cfg->max_partons, shared_next) == 0
             && gaps_pool_alloc_vary(&parts[k].pool, phys.n_vary) == 0
             && (!phys.proc.from_file || gaps_pool_alloc_row_starts(&parts[k].pool) == 0)
             && (parts[k].pool_dev = gaps_device_copy(&parts[k].pool, sizeof(gaps_pool))) != NULL
             && partition_alloc_output(&parts[k], cfg) == 0;
        if (ok && pieces) {
            parts[k].phys = phys;
            parts[k].phys.end_event = 0;   /* no piece yet: nothing to refill from */
            ok = (parts[k].phys_dev = gaps_device_copy(&parts[k].phys, sizeof phys)) != NULL;
        } else {
            parts[k].phys_dev = phys_dev;
        }
        if (ok && cfg->keep_cycle_log) {
            parts[k].log_cap = 1024;
            ok = (parts[k].log = malloc(parts[k].log_cap * sizeof *parts[k].log)) != NULL
                 && (parts[k].log_s = malloc(parts[k].log_cap * sizeof *parts[k].log_s))
                        != NULL;
        }
    }
    if (!ok)
        snprintf(msg, len, "cannot allocate a pool of %lld slots (%.0f MB)%s", (long long)slots,
                 gaps_pool_bytes((int)slots, cfg->max_partons, phys.n_vary,
                                 phys.proc.from_file) / 1e6,
                 cfg->keep_rows || cfg->keep_records ? " with its per-event output buffers"
                                                     : "");
    if (ok) {
        if (resume_state) *base = *resume_state;
        else gaps_state_init(base, cfg);
        base->pdf_digest = pdf.digest;   /* the set this run loaded (0 without one) */
        base->vary_pdf = pdf.set;        /* --vary pdf: its members (0 without) */
        base->vary_pdf_digest = pdf.members_digest;
        /* where the run stands: a resumed run starts from its checkpoint's accumulators */
        *run->state = *base;
    }
    shared sh = { cfg, hooks, hist_dev, pieces, file_pieces, start, run_end, 0, 0, cfg->events,
                  0.0, 0 };
    if (resume) {
        sh.done_before = resume->next_event - cfg->first_event;
        run->launches = (long)resume->launches;
        run->veto_cycles = (long)resume->veto_cycles;
    }
    const int per_pass = gaps_config_cycles_per_launch(cfg);
    const int64_t every = cfg->checkpoint_every > 0 ? cfg->checkpoint_every : cfg->events;
    int64_t segment_start = start, done_end = start;
    /* file pieces: the one being run ends at piece_end; the one taken after it (for reading
     * ahead) is [ahead_begin, ahead_end), empty if none */
    int64_t piece_end = start, ahead_begin = start, ahead_end = start;
    run->energy_j = -1.0;
    const double e_start = cfg->measure_energy
                           ? gaps_runtime_energy_read(run->energy_source, sizeof run->energy_source)
                           : -1.0;
    const double t_start = now();
    sh.t_start = t_start;
    run->time_startup = t_start - t_entry;
    while (ok) {
        if (file_pieces && segment_start >= piece_end) {
            /* the piece is done: on to the one taken for reading ahead, or take one (none
             * after a stop: the run ends once what was given is done) */
            int got = ahead_begin < ahead_end;
            if (got) {
                segment_start = ahead_begin;
                piece_end = ahead_end;
                ahead_begin = ahead_end;
            } else if (!stop_requested(&sh)) {
                got = take_file_piece(hooks, start, run_end, &segment_start, &piece_end);
                if (got < 0) {
                    snprintf(msg, len, "taking the next piece of work failed; the run was "
                                       "stopped");
                    ok = 0;
                    break;
                }
            }
            if (!got) {
                run->interrupted = stop_requested(&sh);
                done_end = run->interrupted ? start : run_end;
                break;
            }
        }
        /* A segment: event numbers [segment_start, segment_end), then a checkpoint.  The
         * pool drains at its end, so the accumulators then hold exactly the events below
         * segment_end: what makes a checkpoint exact. */
        int64_t segment_end = segment_end_of(segment_start, file_pieces ? piece_end : run_end,
                                             every, from_file ? batch_host[0].capacity : 0);
        if (from_file) {
            /* the segment's hard events (read ahead where the hook did): at most a batch,
             * and where the file ends, the run */
            gaps_hard_batch *hb = &batch_host[cur];
            int ended = 0;
            const double t_read = now();
            if (hooks->hard_events(hooks->ctx, hb, segment_start, segment_end - segment_start,
                                   &ended) != 0
                || hb->first != segment_start || hb->count < 0
                || hb->count > segment_end - segment_start || (hb->count == 0 && !ended)) {
                int status = 1;
                const char *why = hooks->hard_events_error
                                  ? hooks->hard_events_error(hooks->ctx, &status) : NULL;
                snprintf(msg, len, "%s", why ? why : "reading the hard events failed; the run "
                                                     "was stopped");
                run->file_failed = status > 0 ? status : 1;
                ok = 0;
                break;
            }
            segment_end = segment_start + hb->count;
            if (ended) run_end = piece_end = segment_end;   /* and no piece after this one */
            batch_upload(hb, &batch_dev, batch_dev_struct);
            run->time_read += now() - t_read;
            /* the next segment's, read while this one showers: it starts where this one
             * ends (or, at a piece's end, where the next piece begins, taken now) unless a
             * stop comes first, and then it is not asked for */
            int64_t next = -1, next_limit = run_end;
            if (n_host > 1 && file_pieces && !ended) {
                if (segment_end < piece_end) {
                    next = segment_end;
                    next_limit = piece_end;
                } else if (!stop_requested(&sh)) {
                    const int got = take_file_piece(hooks, start, run_end, &ahead_begin,
                                                    &ahead_end);
                    if (got < 0) {
                        snprintf(msg, len, "taking the next piece of work failed; the run was "
                                           "stopped");
                        ok = 0;
                        break;
                    }
                    if (got) {
                        next = ahead_begin;
                        next_limit = ahead_end;
                    }
                }
            } else if (n_host > 1 && !file_pieces && segment_end < run_end) {
                next = segment_end;
            }
            if (next >= 0) {
                cur = 1 - cur;
                const int64_t next_end = segment_end_of(next, next_limit, every,
                                                        batch_host[cur].capacity);
                hooks->hard_events_ahead(hooks->ctx, &batch_host[cur], next, next_end - next);
            }
        }
        sh.segment_end = segment_end;
        phys.end_event = segment_end;
        gaps_host_to_device(phys_dev, &phys, sizeof phys);
        unsigned long long next = (unsigned long long)segment_start;
        if (!pieces) gaps_host_to_device(parts[0].pool.next_event, &next, sizeof next);
        if (segment_start < segment_end) {
            GAPS_PARTITION_FOR
            for (int k = 0; k < nparts; ++k) run_segment(&parts[k], &sh, k == 0);
        }
        int log_failed = 0;
        for (int k = 0; k < nparts; ++k) {
            if (parts[k].failed) ok = 0;
            log_failed |= parts[k].log_failed;
            gaps_pool_read_counters(&parts[k].pool, parts[k].c);
        }
        /* every event number below the shared counter was started (and has now finished),
         * unless it was at or past the segment's end */
        int64_t reached = (int64_t)parts[0].c[GAPS_COUNT_NEXT];
        if (reached > segment_end) reached = segment_end;
        if (reached < segment_start) reached = segment_start;
        done_end = reached;
        if (pieces) {
            /* the run is done when no partition was refused a piece (the giver knows which
             * events those were) */
            int dry = 1;
            for (int k = 0; k < nparts; ++k) dry &= parts[k].dry;
            done_end = dry ? run_end : segment_start;
        }
        if (!ok) {
            int pieces_failed = 0;
            for (int k = 0; k < nparts; ++k) pieces_failed |= parts[k].failed == FAILED_PIECES;
            if (log_failed)
                snprintf(msg, len, "cannot grow the --cycles-out table: out of memory; the run "
                                   "was stopped");
            else
                snprintf(msg, len, pieces_failed ? "taking the next piece of work failed; the "
                                                   "run was stopped"
                                                 : "the per-event output failed; the run was "
                                                   "stopped");
            break;
        }
        long cycles = 0, launches = 0;
        for (int k = 0; k < nparts; ++k) {
            launches += parts[k].launches;
            if (parts[k].iterations * per_pass > cycles) cycles = parts[k].iterations * per_pass;
        }
        /* with pieces, the range table is the giver's (gaps_hooks.next_range) */
        if (collect_state(base, &hist, words_dev, words_host, parts, nparts, start,
                          next_range ? start : done_end, run->state, msg, len) != 0) {
            ok = 0;
            break;
        }
        if (phys.n_vary > 0) {   /* the variations' sums, as the nominal ones */
            gaps_histograms_launch_reduce(&vary_view, vary_words_dev);
            gaps_device_to_host(vary_words_host, vary_words_dev, vary_reduce_bytes);
            /* added to the resumed ones (the state's, a copy of base's: collect_state), so
             * that a checkpoint carries them and a resumed run ends with the sums of all its
             * events */
            if (vary_words_host[vary_reduce_bytes / sizeof(uint64_t) - 1] != 0
                || gaps_histograms_accumulate(run->state->vary_words, vary_words_host,
                                              vary_view.nbins_total) != 0) {
                snprintf(msg, len, "the exact histogram sums of the variations overflowed");
                ok = 0;
                break;
            }
            memcpy(run->vary_words, run->state->vary_words, (size_t)vary_view.nbins_total
                                                              * GAPS_ACC_WORDS
                                                              * sizeof *run->vary_words);
        }
        /* (file pieces stop where the next piece would be taken) */
        const int stopped = !file_pieces && stop_requested(&sh) && done_end < run_end;
        if (hooks && hooks->checkpoint && cfg->checkpoint_every > 0) {
            const gaps_resume_point rp = gaps_resume_point_make(
                cfg, done_end, (uint64_t)(run->launches + launches),
                (uint64_t)(run->veto_cycles + cycles));
            if (hooks->checkpoint(hooks->ctx, run->state, &rp) != 0) {
                snprintf(msg, len, "writing the checkpoint failed");
                ok = 0;
                break;
            }
        }
        if (stopped) { run->interrupted = 1; break; }
        if (done_end >= run_end) break;
        segment_start = done_end;
    }
    run->time_total = now() - t_start;
    if (e_start >= 0.0) {
        const double e_end = gaps_runtime_energy_read(run->energy_source,
                                                      sizeof run->energy_source);
        if (e_end >= e_start) run->energy_j = e_end - e_start;
    }
    if (ok) {
        gaps_run_take_state(run);
        run->next_event = done_end;
        /* stage times: the mean over partitions, which run concurrently */
        long cycles = 0;
        for (int k = 0; k < nparts; ++k) {
            run->time_me += parts[k].time_me / nparts;
            run->time_shower += parts[k].time_shower / nparts;
            run->time_analysis += parts[k].time_analysis / nparts;
            run->launches += parts[k].launches;
            run->overestimates += (int64_t)parts[k].c[GAPS_COUNT_OVERESTIMATE];
            if (parts[k].iterations * per_pass > cycles) cycles = parts[k].iterations * per_pass;
        }
        run->veto_cycles += cycles;
        run->cycle_log_stride = per_pass;
        /* --vary: the safeguards' counts of every event, a resumed checkpoint's included */
        run->vary_over_events = (int64_t)run->state->vary_over_events;
        run->vary_large_events = (int64_t)run->state->vary_large_events;
        for (int v = 0; v < phys.n_vary; ++v) {   /* --vary: each weight's results */
            gaps_histograms_result(&hist, run->vary_words
                                              + (size_t)v * hist.nbins_total * GAPS_ACC_WORDS,
                                   &run->vary_hist[v]);
            gaps_histograms_sigma(&run->vary_hist[v], &run->vary_sigma[v],
                                  &run->vary_sigma_err[v]);
        }
        if (cfg->keep_cycle_log) {
            combine_cycle_logs(parts, nparts, run);
            if (!run->completed_per_cycle) {
                snprintf(msg, len, "out of memory for the --cycles-out table");
                ok = 0;
            }
        }
    }
    for (int k = 0; parts && k < nparts; ++k) {
        if (parts[k].phys_dev != phys_dev) gaps_device_free(parts[k].phys_dev);
        partition_free(&parts[k]);
    }
    free(parts);
    gaps_device_free(shared_next);
    free(words_host);
    gaps_device_free(words_dev);
    free(base);
    gaps_device_free(phys_dev);
    gaps_device_free(batch_dev_struct);
    batch_free(&batch_host[0], 0);
    batch_free(&batch_host[1], 0);
    batch_free(&batch_dev, 1);
    gaps_device_free(hist_dev);
    gaps_device_free(hist.acc);
    gaps_device_free(hist.vary_acc);
    free(vary_words_host);
    gaps_device_free(vary_words_dev);
    run_pdf_free(&pdf);
    if (!ok) gaps_run_free(run);
    else run->time_wall = now() - t_entry;
    return ok ? 0 : -1;
}

void gaps_run_take_state(gaps_run *run)
{
    if (run->hist) {
        gaps_state_result(run->state, run->hist);
        gaps_histograms_sigma(run->hist, &run->sigma, &run->sigma_err);
        gaps_histograms_weight_summary(run->hist, &run->effective_events,
                                       &run->negative_fraction);
        run->negative_weights = (int64_t)run->hist->n_negative;
        run->imprecise_weights = (int64_t)run->hist->n_imprecise;
        run->lost_precision = run->hist->lost_precision;
    }
    run->events = (int64_t)run->state->events;
    run->capacity_hits = (int64_t)run->state->capacity_hits;
    run->invalid_events = (int64_t)run->state->invalid_events;
    run->bad_weights = (int64_t)run->state->bad_weights;
}

void gaps_run_free(gaps_run *run)
{
    free(run->state);
    free(run->hist);
    free(run->completed_per_cycle);
    free(run->cycle_log_seconds);
    free(run->vary_hist);
    free(run->vary_words);
    run->vary_hist = NULL;
    run->vary_words = NULL;
    run->state = NULL;
    run->hist = NULL;
    run->completed_per_cycle = NULL;
    run->cycle_log_seconds = NULL;
}

/* The messages hold numbers: in the C locale's notation, whatever the caller's (c_locale.h). */
int gaps_config_check(const gaps_config *cfg, char *msg, size_t len)
{
    const gaps_c_locale saved = gaps_c_locale_enter();
    const int r = config_check(cfg, msg, len);
    gaps_c_locale_leave(saved);
    return r;
}
