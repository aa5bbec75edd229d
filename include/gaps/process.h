/* gaps/process.h -- the hard processes: what starts an event before the shower.
 *
 * A process is chosen once per run (enum gaps_process_id, a run-uniform value: device code
 * dispatches on it with a switch, never through function pointers).  Its run parameters live
 * in gaps_process, which travels inside gaps_physics to wherever the loops run.  For each
 * event the process fills a gaps_hard_event: the weight, the particles that start the shower
 * (incoming partons first, then outgoing ones), the shower's start scale, and what the event
 * record cannot hold itself (the beams and an s-channel boson that decayed).
 *
 * Every process is one line of GAPS_PROCESSES below; from it come the enum, the table of
 * names and properties (gaps_process_table), the option's help and every dispatch of
 * src/process/process.c.  Adding a process: one file src/process/<name>.c that defines the
 * functions of src/process/process_impl.h, and one line here (doc/design.md, "A new
 * process").
 */
#ifndef GAPS_PROCESS_H
#define GAPS_PROCESS_H

#include <stdint.h>
#include <stddef.h>
#include "gaps/alphas.h"
#include "gaps/analyses.h"
#include "gaps/constants.h"
#include "gaps/pdf.h"
#include "gaps/rng.h"
#include "gaps/vary.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* X(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf, analysis, rows_lo, rows_nlo,
 *   nlo, boson, options, source): the process GAPS_PROCESS_<ID>, whose functions
 * gaps_process_<name>_*() are defined in src/process/<name>.c (src/process/process_impl.h
 * lists them):
 *   option     the value of --process
 *   title      one line for YODA, HepMC3 and the summary (the default run's: its own options
 *              are in the metadata beside it)
 *   beam_a/b   PDG codes of the beams: the first along +z
 *   ecm        the default sqrt(s), GeV
 *   hadronic   1: hadron beams, the process needs parton distributions
 *   pdf        the default PDF set ("NAME[/MEMBER]") of a hadronic process, else NULL
 *   analysis   the analysis of its events, enum gaps_analysis_id
 *   rows_lo/nlo  the most rows (partons and colourless particles) its hard events hand to
 *              the shower at LO and NLO, at most GAPS_HARD_MAX (gaps_process_min_partons)
 *   nlo        how --nlo 1 makes its events: NONE (it has no NLO), OWN (its _generate
 *              makes them itself: ee-qq), MCATNLO (the MC@NLO builder of hadron collisions,
 *              src/process/mcatnlo.h, calls the process's _nlo_ functions)
 *   boson      the PDG code of the s-channel boson whose decay products the record holds
 *              but not the boson itself (gaps_process_decayed_boson), or 0; for a charged
 *              boson the positive one (24, W+): the HepMC3 writer gives it the sign of its
 *              products' charge, so one process can make W+ and W- events
 *   options    the run options of its own it takes (GAPS_PROCESS_TAKES_* below; 0: none): a
 *              process refuses another value than the default of an option it does not take
 *   source     BUILTIN: the process draws its hard events itself (a name of --process);
 *              LHE: its hard events come from the program, read from a Les Houches Event
 *              file (--lhe FILE, src/process/lhe.c, by the file's beams); not a value of
 *              --process
 * The value of the enum is the process id that state files store (doc/formats.md): append,
 * never reorder. */
#define GAPS_PROCESSES(X)                                                                      \
    X(EE_QQ, ee_qq, "ee-qq", "e+ e- -> Z/gamma* -> q qbar, LO + dipole shower", -11, 11,        \
      GAPS_DEFAULT_ECM, 0, NULL, GAPS_ANALYSIS_LEP, 2, 3, OWN, 0, 0, BUILTIN)                  \
      /* q qbar; NLO: + g */                                                                   \
    X(PP_Z, pp_z, "pp-z", "p p -> Z (on shell), LO + dipole shower", 2212, 2212,                 \
      GAPS_DEFAULT_ECM_PP, 1, GAPS_DEFAULT_PDF, GAPS_ANALYSIS_LHC, 3, 4, MCATNLO, 0, 0, BUILTIN)  \
      /* q qbar Z; NLO: + a parton */                                                          \
    X(PP_LL, pp_ll, "pp-ll", "p p -> Z/gamma* -> l+ l- (Drell-Yan), LO + dipole shower",         \
      2212, 2212, GAPS_DEFAULT_ECM_PP, 1, GAPS_DEFAULT_PDF, GAPS_ANALYSIS_LHC, 4, 5, MCATNLO,  \
      GAPS_PDG_Z, GAPS_PROCESS_TAKES_LEPTONS, BUILTIN)   /* q qbar l- l+; NLO: + a parton */   \
    X(PP_W, pp_w, "pp-w", "p p -> W -> e nu (W+ and W-), LO + dipole shower", 2212, 2212,      \
      GAPS_DEFAULT_ECM_PP, 1, GAPS_DEFAULT_PDF, GAPS_ANALYSIS_W, 4, 5, MCATNLO, 24,             \
      GAPS_PROCESS_TAKES_W_CHARGE | GAPS_PROCESS_TAKES_LEPTONS, BUILTIN)                       \
      /* q qbar' l nu; NLO: + a parton */                                                      \
    X(PP_H, pp_h, "pp-h", "p p -> g g -> H (heavy top, H stable), LO + dipole shower", 2212,   \
      2212, GAPS_DEFAULT_ECM_PP, 1, GAPS_DEFAULT_PDF, GAPS_ANALYSIS_HIGGS, 3, 4, MCATNLO, 0, 0,   \
      BUILTIN)   /* g g H; NLO: + a parton */                                                  \
    X(LHE_PP, lhe_pp, "lhe-pp", "p p -> Les Houches events (--lhe FILE) + dipole shower", 2212, \
      2212, GAPS_DEFAULT_ECM_PP, 1, GAPS_DEFAULT_PDF, GAPS_ANALYSIS_LHC, 2, 2, NONE, 0, 0, LHE) \
      /* the file's events: rows checked one by one against --max-partons (src/process/lhe.c) */\
    X(LHE_EE, lhe_ee, "lhe-ee", "e+ e- -> Les Houches events (--lhe FILE) + dipole shower",     \
      -11, 11, GAPS_DEFAULT_ECM, 0, NULL, GAPS_ANALYSIS_LEP, 2, 2, NONE, 0, 0, LHE)             \
      /* the same for e+ e- beams: the outgoing rows alone, as ee-qq's */

/* The source column's values as gaps_process_info.from_file. */
#define GAPS_PROCESS_SOURCE_BUILTIN 0
#define GAPS_PROCESS_SOURCE_LHE 1

/* The options column's bits: the process takes --w-charge, --leptons (gaps/parameters.h). */
#define GAPS_PROCESS_TAKES_W_CHARGE 1u
#define GAPS_PROCESS_TAKES_LEPTONS 2u

/* The values of --w-charge and --leptons (their names, in this order, are the parameters'
 * metavars in gaps/parameters.h): which W charges and which lepton flavours of its decay a
 * process makes, the sum of those chosen. */
enum gaps_w_charge { GAPS_W_CHARGE_PLUS, GAPS_W_CHARGE_MINUS, GAPS_W_CHARGE_BOTH };
enum gaps_leptons { GAPS_LEPTONS_E, GAPS_LEPTONS_MU, GAPS_LEPTONS_E_MU };

/* A process's own run options (the options column), as gaps_process_init_with() takes them. */
typedef struct gaps_process_options {
    int w_charge;   /* enum gaps_w_charge */
    int leptons;    /* enum gaps_leptons */
} gaps_process_options;

/* Host: the default options, those gaps_process_init() uses. */
gaps_process_options gaps_process_options_default(void);

/* The nlo column's values as gaps_process_info.nlo (1: --nlo 1 exists). */
#define GAPS_PROCESS_NLO_NONE 0
#define GAPS_PROCESS_NLO_OWN 1
#define GAPS_PROCESS_NLO_MCATNLO 1

enum gaps_process_id {
#define GAPS_PROCESS_ENUM_(ID, name, ...) GAPS_PROCESS_##ID,
    GAPS_PROCESSES(GAPS_PROCESS_ENUM_)
#undef GAPS_PROCESS_ENUM_
    GAPS_N_PROCESSES
};

/* Status of a particle in an event record (doc/physics.md section 7.1).  The HepMC3 writer
 * turns them into the usual status codes (gaps_status_hepmc()). */
enum gaps_particle_status {
    GAPS_STATUS_BEAM = 0,          /* a colliding beam particle (HepMC3 status 4) */
    GAPS_STATUS_INCOMING = 1,      /* a parton entering the hard process (Pythia's 21) */
    GAPS_STATUS_INTERMEDIATE = 2,  /* an s-channel particle that decayed (HepMC3 status 2) */
    GAPS_STATUS_OUTGOING = 3       /* a final-state particle (HepMC3 status 1) */
};

/* What a user and the output files need to know about a process: its row of GAPS_PROCESSES,
 * in gaps_process_table (src/process/process.c). */
typedef struct gaps_process_info {
    const char *name;          /* the value of --process */
    const char *title;         /* one line for YODA, HepMC3 and the summary */
    int beam_pdg[2];           /* beam particles: the first along +z */
    double default_ecm;        /* sqrt(s), GeV */
    int hadronic;              /* beams are hadrons: the process needs parton distributions */
    const char *default_pdf;   /* the PDF set of a hadronic process ("NAME[/MEMBER]"), else NULL */
    int analysis;              /* enum gaps_analysis_id (gaps/analyses.h) */
    int hard_rows[2];          /* the most rows (partons and colourless particles) its hard
                                  events hand to the shower, at LO [0] and NLO [1]; at most
                                  GAPS_HARD_MAX (gaps_process_min_partons() derives the
                                  smallest --max-partons from it) */
    int nlo;                   /* --nlo 1 exists for it */
    int decayed_boson;         /* gaps_process_decayed_boson() */
    unsigned options;          /* GAPS_PROCESS_TAKES_* bits: the run options it takes */
    int from_file;             /* its hard events come from a Les Houches Event file (--lhe):
                                  not a name of --process (gaps_process_lookup) */
} gaps_process_info;

extern const gaps_process_info gaps_process_table[GAPS_N_PROCESSES];

/* Most particles a process hands to the shower. */
#define GAPS_HARD_MAX 5

/* The start of one event. */
typedef struct gaps_hard_event {
    double weight;                  /* pb */
    double t_start;                 /* the shower's start scale, GeV^2 */
    int n_in;                       /* rows 0 .. n_in-1 are incoming partons */
    int n;                          /* rows in all */
    double p[GAPS_HARD_MAX][4];     /* (E, px, py, pz), GeV */
    int flav[GAPS_HARD_MAX], col[GAPS_HARD_MAX], acol[GAPS_HARD_MAX];
    double x[2];                    /* momentum fractions of the incoming partons */
    int next_tag;                   /* the first colour tag not used */
    /* --vary scales, alphas and pdf (gaps_process.scales): the event's weight at variation w
     * (another mu_R, mu_F, alpha_s or PDF member) over its weight, written at
     * vary[w * vary_stride] (gaps_hard_vary_set) by the process only where scales.n > 0.
     * The caller points it at the event's slot in the pool's variation rows (the shower) or
     * at an array of its own: up to GAPS_VARY_HARD_MAX factors, which a record of fixed size
     * would carry in every run */
    double *vary;
    long vary_stride;
} gaps_hard_event;

/* --vary scales and alphas (gaps/vary.h): what a process needs to weight its events for n
 * variations of its scales (kR, kF) and coupling, set on the host by
 * gaps_process_set_scales().  Plain data. */
typedef struct gaps_scale_vary {
    int n;                                  /* 0: no scale variations */
    /* the parton densities of variation v where the loops run: NULL for the run's set
     * (proc.pdf), else a member of it (--vary pdf); set by the generator */
    const gaps_pdf *pdf[GAPS_VARY_HARD_MAX];
    /* the next variation after v of the same kF and densities, whose lookups v's serve, or
     * -1 (a chain per (kF, pdf), made by gaps_process_set_scales_pdf) */
    short next_same[GAPS_VARY_HARD_MAX];
    /* 1 where v is the first of its chain */
    signed char first[GAPS_VARY_HARD_MAX];
    double kf2[GAPS_VARY_HARD_MAX];         /* kF^2: mu_F^2 = kF^2 times the nominal one */
    double lkr2[GAPS_VARY_HARD_MAX];        /* ln kR^2 */
    double alphas[GAPS_VARY_HARD_MAX];      /* alpha_s at kR^2 mu_R^2 of the process's mu_R
                                               (gaps_process_nlo_mu_r2), of the variation's
                                               coupling (--vary alphas: another alpha_s(M_Z)) */
    double as_ratio[GAPS_VARY_HARD_MAX];    /* that over alpha_s at mu_R^2 */
} gaps_scale_vary;

/* Bytes of gaps_process.data, the largest process's own run constants (pp-ll's sampling
 * table and its NLO constants take 65952); each process checks at compile time that its
 * constants fit (GAPS_PROCESS_DATA_FITS, src/process/process_impl.h): raise it if one does
 * not. */
#define GAPS_PROCESS_DATA_BYTES (66 * 1024)

/* Run parameters of the process (plain data, copied to the device). */
typedef struct gaps_process {
    enum gaps_process_id id;
    enum gaps_analysis_id analysis;   /* the analysis of its events (gaps_process_analysis) */
    int hadronic;            /* beams are protons: pdf is set */
    int from_file;           /* gaps_process_info.from_file: the hard events come from a batch
                                (gaps_process_set_batch), not from _generate */
    const gaps_pdf *pdf;     /* hadronic processes: the parton distributions, a pointer where
                                the loops run (device memory in the offload build); set by the
                                generator after gaps_process_init() */
    double ecm, s;           /* sqrt(s) in GeV, s in GeV^2 */
    /* hadronic: the beams that are antiprotons, at [0] the beam along +z and at [1] the one
     * along -z (an incoming parton belongs to the beam its pz points along): 1 for an
     * antiproton, whose parton densities are the proton set's with quarks and antiquarks
     * swapped, f_{q/pbar} = f_{qbar/p} (the gluon's the same); 0 for a proton.  Only a file of
     * p pbar beams sets them (--lhe, gaps_config.file_beam_anti); the built-in processes are
     * p p.  gaps_process_beam_pdg() gives the beams' PDG codes. */
    int beam_anti[2];
    gaps_process_options options;   /* its own run options (the defaults for a process that
                                       takes none) */
    /* the power of alpha_s in its leading-order weights (pp-h: 2, the Drell-Yan processes
     * and ee-qq: 0), set by the process's _init */
    int born_alphas_power;
    int nlo;                 /* made NLO (gaps_process_set_nlo) */
    gaps_scale_vary scales;  /* --vary scales; n = 0 without */
    double w_unit;           /* a typical large event weight, pb: the unit in which the
                                exact histogram sums are kept (gaps/histogram.h): the
                                process's nominal one (gaps_process_init), for a hadronic
                                process halved to the run's weights by
                                gaps_process_prepare() (gaps_weight_unit_for) */
    /* The process's own run constants, LO and NLO (a struct of src/process/<name>.h, or
     * process_impl.h's), opaque here: a library user sees no process's internals, and a new
     * process changes no installed header.  Bytes rather than a union of the processes'
     * structs, because such a union would have to name them all here; aligned as the most
     * aligned of their members (double, int64_t), so that each process reads it through a
     * pointer to its own struct.  Plain data: gaps_process is still copied by value, with
     * gaps_physics, to where the loops run.  All 0 before gaps_process_init(). */
    union {
        unsigned char bytes[GAPS_PROCESS_DATA_BYTES];
        double align_double;
        int64_t align_int64;
    } data;
} gaps_process;

/* Host: the PDG code of beam b (0: along +z, 1: along -z) of a run of proc: the process's
 * (gaps_process_info.beam_pdg), an antiproton where proc->beam_anti says. */
int gaps_process_beam_pdg(const gaps_process *proc, int b);

/* Host: the built-in process of that name (a value of --process), or -1. */
int gaps_process_lookup(const char *name);

/* Host: the smallest event record (--max-partons) a run of `process` at order `nlo` (0 or
 * 1) can use: the most rows of its hard events (gaps_process_info.hard_rows) plus one for the
 * first emission.  With fewer rows than the hard event the record could not even hold the
 * start of the shower; with exactly that many, every event would end at its first accepted
 * emission as a capacity hit, a shower that never ran.  The dipole rows (2 per parton) and
 * colour tags (at most one new tag per emission, so the next tag never exceeds the partons'
 * count) grow with the record and need no more.  An unknown process: 3. */
int gaps_process_min_partons(int process, int nlo);

/* Host: the analysis (enum gaps_analysis_id) of a run of `process` under `compat` (enum
 * gaps_compat), the one function that decides it: the process's own (gaps_process_table),
 * except that --compat gaps21 gives ee-qq GAPS 2.1's LEP histograms
 * (GAPS_ANALYSIS_LEP_GAPS21, gaps/analysis_lep_gaps21.h), LO and NLO alike.  An unknown
 * process: GAPS_ANALYSIS_LEP (such a configuration is refused before any run). */
int gaps_process_analysis(int process, int compat);

/* Host: set up process id at sqrt(s) = ecm (GeV); its analysis is the one without compat
 * (gaps_process_analysis(id, GAPS_COMPAT_NONE)).  Returns 0, or -1 with a reason in msg (an
 * unknown process, a sqrt(s) below the process's threshold).  A run sets up its process with
 * gaps_physics_setup() (gaps/generator.h), which also applies compat, --nlo and the PDFs. */
int gaps_process_init(gaps_process *proc, enum gaps_process_id id, double ecm, char *msg,
                      size_t len);
/* Host: the same with the process's own run options (gaps_process_options): -1 with a reason
 * also for an option the process does not take (its options column) at another value than
 * its default, or a value outside its enum. */
int gaps_process_init_with(gaps_process *proc, enum gaps_process_id id, double ecm,
                           const gaps_process_options *options, char *msg, size_t len);

/* Host: the hard scale Q^2 of a process's events, GeV^2, the smallest where it varies (the
 * process's own: s for ee-qq, M_Z^2 for pp-z, the lowest dilepton mass^2 of the window (66^2)
 * for pp-ll).  The
 * shower starts there (LO); the cutoff must lie below it, at NLO well below
 * (GAPS_NLO_MAX_TCUT_OVER_Q2, checked by gaps_config_check). */
double gaps_process_hard_scale2(const gaps_process *proc);

/* Host: the renormalisation scale mu_R^2 of the NLO matrix elements, GeV^2: s for ee-qq,
 * M_Z^2 for pp-z and pp-ll. */
double gaps_process_nlo_mu_r2(const gaps_process *proc);

/* Host: make proc's events carry the weights of the n variations (kR[v], kF[v], coupling[v])
 * (--vary scales and alphas, gaps_hard_event.vary): mu_R and mu_F times kR and kF, alpha_s
 * from coupling[v] at kR^2 gaps_process_nlo_mu_r2() against as (the run's) at
 * gaps_process_nlo_mu_r2(); after gaps_process_set_nlo.  0, or -1 with the reason in msg (a
 * process whose hard events come from a file: their variations are the file's weights). */
int gaps_process_set_scales(gaps_process *proc, const gaps_alphas *as, int n, const double *kr,
                            const double *kf, const gaps_alphas *const *coupling, char *msg,
                            size_t len);
/* Host: the parton densities of the n variations of gaps_process_set_scales, where the loops
 * run (pdf[v]: NULL for the run's own set), and the chains of variations sharing their
 * lookups.  gaps_process_set_scales() sets them all to the run's set. */
void gaps_process_set_scales_pdf(gaps_process *proc, const gaps_pdf *const *pdf);

GAPS_DEVICE_BEGIN
/* Write the factor f of hard variation w of ev (gaps_hard_event.vary) */
static inline void gaps_hard_vary_set(gaps_hard_event *ev, int w, double f)
{
    ev->vary[(long)w * ev->vary_stride] = f;
}
GAPS_DEVICE_END

/* Host: hand an initialised process the run's strong coupling (gaps_physics_setup does, after
 * gaps_process_init and before gaps_process_set_nlo and gaps_process_prepare), for a process
 * whose leading-order weights contain alpha_s (pp-h: alpha_s(m_H^2)^2); the others ignore it.
 * Without it such a process uses the coupling of the default parameters. */
void gaps_process_set_coupling(gaps_process *proc, const gaps_alphas *as);

/* Host: make the events of an initialised process next-to-leading order (--nlo 1), with the
 * coupling alphas = alpha_s(gaps_process_nlo_mu_r2()) of the matrix elements and compat (enum
 * gaps_compat).  Returns 0, or -1 with a reason in msg for a process that has no NLO
 * (gaps_process_info.nlo). */
int gaps_process_set_nlo(gaps_process *proc, double alphas, int compat, char *msg, size_t len);

/* Host: what a process computes once from the run's parton distributions (host copy), after
 * gaps_process_init(): for pp-z a rapidity distribution that follows d sigma/dy, for pp-ll
 * a (mass, rapidity) distribution that follows d sigma/dm dy, so that the events' weights are
 * nearly equal and no shower time goes to events of negligible weight.  Without it the
 * rapidity is uniform (the same cross section, larger weight spread).  It also sets the run's
 * weight unit w_unit from the table's estimate of the mean weight (gaps_weight_unit_for):
 * the unit depends on the process, sqrt(s) and the PDF set, and is the same wherever the
 * same configuration is prepared (host arithmetic only). */
void gaps_process_prepare(gaps_process *proc, const gaps_pdf *pdf);

/* Host: the weight unit of the exact sums for a process of nominal unit `nominal`
 * (gaps_process_init's) whose sampling table estimates the mean |weight| at `estimate` pb
 * (0: unknown): nominal 2^-k with the largest k in [0, GAPS_WEIGHT_UNIT_MAX_HALVINGS] such that
 * the unit stays at least GAPS_WEIGHT_UNIT_MARGIN times the estimate and at least
 * GAPS_WEIGHT_UNIT_MIN (constants.h).  A power
 * of two times the nominal unit: exact, and the default runs keep theirs (k = 0). */
double gaps_weight_unit_for(double nominal, double estimate);

/* Host: 1 if w_unit is a unit a run of this (initialised, not prepared) process can have:
 * its nominal unit times 2^-k, k in [0, GAPS_WEIGHT_UNIT_MAX_HALVINGS] for a hadronic
 * process, k = 0 otherwise (how a merge checks a state's unit without the PDF set). */
int gaps_process_weight_unit_allowed(const gaps_process *proc, double w_unit);

/* Host: the beams' four-momenta (E, px, py, pz) in the centre-of-mass frame, the first along
 * +z, massless. */
void gaps_process_beams(const gaps_process *proc, double beam[2][4]);

/* Host: the exact total cross section where one is known analytically (pb), else a
 * negative number (ee-qq at NLO: sigma_LO (1 + alpha_s(s)/pi)). */
double gaps_process_sigma_exact(const gaps_process *proc);

/* Host: the s-channel boson that decayed into the outgoing particles where the process fixes
 * its momentum and the record does not hold it: its PDG code and momentum, or 0 if none. */
int gaps_process_intermediate(const gaps_process *proc, double p[4]);

/* Host: the s-channel boson whose decay products the record holds but not the boson itself
 * (the record's outgoing particles that are neither quarks nor gluons; their momenta change
 * in the shower's recoil, so the boson must be rebuilt from the record): its PDG code, or 0
 * if none.  Output writers (src/io/hepmc.c) put it in as the mother of those particles; a
 * charged boson (the code of its positive member) is written with the sign of their charge. */
int gaps_process_decayed_boson(const gaps_process *proc);

/* Host: for a process whose hard events come from a file (gaps_process_info.from_file):
 * the weight unit of the run's sums (pb, a power of two the program derived from the file:
 * src/program/lhe_feed.c), after gaps_process_init and before gaps_process_prepare, which
 * keeps it.  Other processes ignore it. */
void gaps_process_set_file_unit(gaps_process *proc, double w_unit);

/* Host: where the loops find the batch of hard events of such a process (a pointer to a
 * gaps_hard_batch where the loops run, gaps/hard_batch.h); the generator sets it once, before
 * the physics is copied to the device.  Other processes ignore it. */
struct gaps_hard_batch;
void gaps_process_set_batch(gaps_process *proc, const struct gaps_hard_batch *batch);

GAPS_DEVICE_BEGIN
/* The batch of a process whose hard events come from a file (NULL for the others). */
const struct gaps_hard_batch *gaps_process_batch(const gaps_process *proc);

/* Draw one event's hard process from its random stream. */
void gaps_process_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev);
/* The same for a process known to be ee-qq: a kernel built for e+e- alone calls this one, so
 * that it holds none of the hadronic matrix elements and parton densities (their registers
 * would be the whole kernel's). */
void gaps_process_generate_ee(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev);
GAPS_DEVICE_END

GAPS_C_END

#endif
