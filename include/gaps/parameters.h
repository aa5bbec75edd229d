/* gaps/parameters.h -- the physics parameters of a run, listed once.
 *
 * Every parameter that decides which events a run makes (and so whether two runs can be
 * merged) is one line of GAPS_PARAMETERS below.  From the list come:
 *   - the options of `gaps` and the keys of a run card (src/program/options.c): name, short
 *     name, the syntax of the value, the line of --help, the hash that MPI ranks compare;
 *   - the defaults (gaps_config_defaults()), including those that depend on the process;
 *   - the range checks of gaps_config_check() (checks between parameters stay written out);
 *   - the fields of gaps_state, their place in the state and checkpoint file (doc/formats.md),
 *     and the "states merge only if equal" comparison of a merge and of --resume, whose
 *     message names the parameter;
 *   - the metadata: the annotations of YODA's /_EVTCOUNT, the "parameters" of the JSON
 *     summary, the HepMC3 run attributes, and the parameter line of the text summary.
 * Adding a parameter: a field in gaps_config (gaps/generator.h) of the C type of its TYPE,
 * one line here, and its use in the physics.  The state format version must then go up.
 *
 * X(key, option, short, TYPE, STATE, flags, lo, hi, dflt, unit, metavar, help, json, yoda,
 *   hepmc, summary)
 *   key      the field of gaps_config (and of gaps_state), and the id GAPS_P_<key>
 *   option   the long option without "--", also the run card's key
 *   short    a short option letter, or 0
 *   TYPE     REAL (double: finite, > 0 on the command line), UNIT (double in (0, 1)), INT (int),
 *            U32 (uint32_t), PROCESS (int, a name of gaps_process_table), COMPAT (int, a name
 *            of gaps_compat_names), ANALYSIS (int, a name of gaps_analysis_table), ABLATE
 *            (int, a set of bits named by gaps_ablate_names: "none" or NAME,NAME,...), CHOICE
 *            (int, the number of one of the names that its metavar lists, separated by '|':
 *            "plus|minus|both" gives plus 0, minus 1, both 2), PDF (char[GAPS_PDF_SPEC_MAX],
 *            "NAME[/MEMBER]", "" none), PATH (char[4096], a list of directories)
 *   STATE    STATE: recorded in the state, compared when states merge or a run resumes, and
 *            written into the metadata; NOSTATE: an option only (where to find things)
 *   flags    GAPS_PF_* below
 *   lo, hi   range (REAL: lo <= x <= hi, or lo < x with GAPS_PF_LO_OPEN; hi = DBL_MAX: any
 *            finite x; INT, U32, PROCESS, COMPAT, ABLATE: lo <= x <= hi); unused for the
 *            strings
 *   dflt     the default, an expression that may read the configuration `c` (those with
 *            GAPS_PF_PROCESS_DEFAULT read c->process, set before them in list order)
 *   unit     the unit of a number, for messages ("" if none)
 *   metavar  the value's name in --help (NULL for PROCESS and COMPAT: the list of names; for
 *            CHOICE the names themselves)
 *   help     --help text ('\n' continues it on the next line); "(default ...)" is added
 *   json, yoda, hepmc   keys of the JSON summary, YODA annotation and HepMC3 run attribute
 *   summary  the text summary: a printf format with one %s for the value, or NULL
 * The order of the list is the order of --help, of the file and of the metadata.
 */
#ifndef GAPS_PARAMETERS_H
#define GAPS_PARAMETERS_H

#include <stddef.h>
#include <stdint.h>
#include "gaps/ablate.h"
#include "gaps/pdf.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* "NAME/MEMBER": a set name of at most GAPS_PDF_NAME_MAX - 1 bytes, '/', 4 digits, NUL. */
#define GAPS_PDF_SPEC_MAX (GAPS_PDF_NAME_MAX + 8)
#define GAPS_PDF_MAX_MEMBER 9999

/* Flags of a parameter. */
#define GAPS_PF_PROCESS_DEFAULT 1u   /* the default depends on the process: taken again once
                                        the process is known, unless the parameter was given */
#define GAPS_PF_HADRONIC_ONLY 2u     /* only for a process with hadron beams: given with
                                        another process it is an error */
#define GAPS_PF_HEPMC_OMIT_DEFAULT 4u /* no HepMC3 run attribute while it has the value of
                                        gaps_config_defaults() (so that a LEP file keeps the
                                        bytes it had before the parameter existed) */
#define GAPS_PF_LO_OPEN 8u           /* REAL: x > lo rather than x >= lo */
#define GAPS_PF_OMIT_DEFAULT 16u     /* no YODA annotation and no item of the text summary while
                                        it has the value of gaps_config_defaults() (so that runs
                                        that do not use it keep their bytes and lines) */
/* A process's own run option (the options column of GAPS_PROCESSES, gaps/process.h, says which
 * process takes it): another value than the default with a process that does not take it is
 * an error; the value reaches the process's init (gaps_process_options). */
#define GAPS_PF_PROCESS_OPTION 32u
#define GAPS_PF_OMIT_PROCESS_DEFAULT 64u /* no YODA annotation, item of the text summary or
                                        HepMC3 run attribute while it has the default of the
                                        run's process and compat (gaps_param_is_process_default) */

#define GAPS_PARAMETERS(X)                                                                     \
    X(process, "process", 0, PROCESS, STATE, GAPS_PF_HEPMC_OMIT_DEFAULT,                       \
      0, GAPS_N_PROCESSES - 1, GAPS_PROCESS_EE_QQ, "", NULL,                                       \
      "the hard process", "process", "ProcessName", "process", "process %s")                  \
    X(compat, "compat", 0, COMPAT, STATE, GAPS_PF_HEPMC_OMIT_DEFAULT,                          \
      0, GAPS_N_COMPAT - 1, GAPS_COMPAT_NONE, "", NULL,                                            \
      "none: textbook physics (doc/physics.md); gaps21:\nas GAPS 2.1 codes it",                \
      "compat", "Compat", "compat", "compat %s")                                               \
    X(analysis, "analysis", 0, ANALYSIS, STATE,                                                \
      GAPS_PF_PROCESS_DEFAULT | GAPS_PF_OMIT_PROCESS_DEFAULT, 0, GAPS_N_ANALYSES - 1,          \
      gaps_process_analysis(c->process, c->compat), "", NULL,                                  \
      "the histograms filled (doc/physics.md); the\nprocess's own by default; for --lhe lhc "  \
      "(p p)\nor lep (e+ e-): a file does not say which fits",                                  \
      "analysis", "Analysis", "analysis", "analysis %s")                                       \
    X(ecm, "ecm", 0, REAL, STATE, GAPS_PF_PROCESS_DEFAULT,                                     \
      GAPS_MIN_ECM, GAPS_MAX_ECM, gaps_process_table[c->process].default_ecm, "GeV",     \
      "GEV",           \
      "centre-of-mass energy sqrt(s), 1..1e5, above\nthe process's threshold (its message says it)",                \
      "ecm", "SqrtS_GeV", "sqrt_s_GeV", "sqrt(s) = %s GeV")                                   \
    X(pdf, "pdf", 0, PDF, STATE,                                                               \
      GAPS_PF_PROCESS_DEFAULT | GAPS_PF_HADRONIC_ONLY | GAPS_PF_HEPMC_OMIT_DEFAULT,           \
      0, 0, gaps_process_table[c->process].default_pdf, "",                    \
      "NAME[/MEMBER]",                       \
      "LHAPDF6 set of a process with hadron beams,\nmember 0..9999 (0 if not given)",          \
      "pdf", "PDF", "pdf", "PDF %s")                                                          \
    X(pdf_path, "pdf-path", 0, PATH, NOSTATE, GAPS_PF_HADRONIC_ONLY,                           \
      0, 0, "", "", "DIR",                                                                         \
      "look for PDF sets in DIR first (DIR:DIR...),\nthen in $LHAPDF_DATA_PATH and the "       \
      "installed sets", NULL, NULL, NULL, NULL)                                                \
    X(alphas_mz, "alphas-mz", 0, UNIT, STATE, 0, 0, 1, GAPS_DEFAULT_ALPHAS_MZ, "", "X",            \
      "alpha_s(M_Z^2), 0 < X < 1", "alphas_mz", "AlphaS_MZ", "alphas_mz",                    \
      "alpha_s(M_Z) = %s")                                                                     \
    X(alphas_order, "alphas-order", 0, INT, STATE, 0, 0, 2, 2, "", "0|1|2",                        \
      "fixed, one-loop or two-loop running", "alphas_order", "AlphaS_Order",                  \
      "alphas_order", "(order %s)")                                                            \
    X(t_cut, "tcut", 0, REAL, STATE, GAPS_PF_LO_OPEN, 0, DBL_MAX, GAPS_DEFAULT_TCUT,          \
      "GeV^2", "GEV2",   \
      "shower cutoff in k_T^2, > 0", "tcut", "TCut_GeV2", "tcut_GeV2", "t_cut = %s GeV^2")   \
    X(seed, "seed", 's', U32, STATE, 0, 0, 4294967295.0, 1, "", "S",                               \
      "random seed, 0..4294967295", "seed", "Seed", "seed", "seed %s")                        \
    X(max_partons, "max-partons", 0, INT, STATE, GAPS_PF_PROCESS_DEFAULT, 3, GAPS_MAX_PARTONS, \
      (gaps_process_table[c->process].hadronic ? GAPS_MAX_PARTONS : GAPS_DEFAULT_MAX_PARTONS),  \
      "", "N", "event record capacity, 3..64, at least what\nthe process's events need (doc/physics.md 7.3)",\
      "max_partons",                                                                           \
      "MaxPartons", "max_partons", NULL)                                                       \
    X(nlo, "nlo", 0, INT, STATE, GAPS_PF_HEPMC_OMIT_DEFAULT | GAPS_PF_OMIT_DEFAULT, 0, 1, 0,    \
      "", "0|1", "1: next-to-leading order, MC@NLO matching\n(doc/nlo.md; every process of the list)",\
      "nlo", "NLO", "nlo", "NLO %s")                                                          \
    X(ablate, "ablate", 0, ABLATE, STATE, GAPS_PF_HEPMC_OMIT_DEFAULT | GAPS_PF_OMIT_DEFAULT,    \
      0, GAPS_ABLATE_ALL, 0, "", "NAME[,NAME]",                                                \
      "shower variants for ablation studies at LO\n(doc/validation-lhc.md 8): none or a "     \
      "comma-\nseparated list of alphas-herwig, alphas-thresholds,\ngqq-virtuality (any "       \
      "process), fi-kernels,\nfi-gg-asym, if-kernels, isr-no-b (hadron beams)",                \
      "ablate", "Ablate", "ablate", "ablate %s")                                              \
    X(w_charge, "w-charge", 0, CHOICE, STATE,                                                 \
      GAPS_PF_HEPMC_OMIT_DEFAULT | GAPS_PF_OMIT_DEFAULT | GAPS_PF_PROCESS_OPTION,             \
      0, 2, GAPS_W_CHARGE_BOTH, "", "plus|minus|both",                                         \
      "the W of pp-w: plus W+ -> l+ nu, minus\nW- -> l- nu~, both the sum of the two",          \
      "w_charge", "WCharge", "w_charge", "W charge %s")                                        \
    X(leptons, "leptons", 0, CHOICE, STATE,                                                   \
      GAPS_PF_HEPMC_OMIT_DEFAULT | GAPS_PF_OMIT_DEFAULT | GAPS_PF_PROCESS_OPTION,             \
      0, 2, GAPS_LEPTONS_E, "", "e|mu|e,mu",                                                  \
      "the leptons of pp-ll and pp-w: e, mu, or e,mu\nthe sum of both channels (twice the "     \
      "cross\nsection)", "leptons", "Leptons", "leptons", "leptons %s")

/* GAPS_P_process, GAPS_P_compat, ...: the index of each parameter in gaps_params[]. */
enum gaps_param_id {
#define GAPS_PARAM_ID_(key, ...) GAPS_P_##key,
    GAPS_PARAMETERS(GAPS_PARAM_ID_)
#undef GAPS_PARAM_ID_
    GAPS_N_PARAMS
};

enum gaps_param_type {
    GAPS_PT_REAL, GAPS_PT_UNIT, GAPS_PT_INT, GAPS_PT_U32, GAPS_PT_PROCESS, GAPS_PT_COMPAT,
    GAPS_PT_ABLATE, GAPS_PT_CHOICE, GAPS_PT_PDF, GAPS_PT_PATH, GAPS_PT_ANALYSIS
};

/* The C declaration of a field of each type (gaps_state's fields are generated from it). */
#define GAPS_PT_DECL_REAL(key) double key;
#define GAPS_PT_DECL_UNIT(key) double key;
#define GAPS_PT_DECL_INT(key) int key;
#define GAPS_PT_DECL_U32(key) uint32_t key;
#define GAPS_PT_DECL_PROCESS(key) int key;
#define GAPS_PT_DECL_COMPAT(key) int key;
#define GAPS_PT_DECL_ABLATE(key) int key;
#define GAPS_PT_DECL_ANALYSIS(key) int key;
#define GAPS_PT_DECL_CHOICE(key) int key;
#define GAPS_PT_DECL_PDF(key) char key[GAPS_PDF_SPEC_MAX];
#define GAPS_PT_DECL_PATH(key) char key[GAPS_PDF_USER_DIRS_MAX];

/* One parameter, as the list says (gaps_params[], src/generator/parameters.c). */
typedef struct gaps_param {
    const char *key, *option;
    char short_name;
    enum gaps_param_type type;
    int in_state;
    unsigned flags;
    double lo, hi;
    const char *unit, *metavar, *help, *json, *yoda, *hepmc, *summary;
    size_t cfg_offset, state_offset, size;   /* where the value lies; its size in bytes */
} gaps_param;

extern const gaps_param gaps_params[GAPS_N_PARAMS];

/* The names of --compat, in the order of enum gaps_compat (gaps/compat.h). */
extern const char *const gaps_compat_names[];

/* The names of the bits of --ablate, bit i at [i] (enum gaps_ablate_bit, gaps/ablate.h). */
extern const char *const gaps_ablate_names[];

/* Parse an --ablate value: "none", or names of gaps_ablate_names separated by single commas
 * (each at most once).  0 with the bits in *bits, or -1; on -1 *bad points to the first item
 * that is not a name (or to text, for an empty list or item) and *bad_len is its length. */
int gaps_ablate_parse(const char *text, int *bits, const char **bad, size_t *bad_len);

/* A CHOICE parameter's names: the number of the name text[0 .. n) in p's metavar, or -1;
 * gaps_param_choice_name() copies name i into buf ("?" if there is none). */
int gaps_param_choice_lookup(const gaps_param *p, const char *text, size_t n);
void gaps_param_choice_name(const gaps_param *p, int i, char *buf, size_t len);
/* The number of names of a CHOICE parameter. */
int gaps_param_choice_count(const gaps_param *p);

/* How a value is written: EXACT for files (%.17g, names; an empty PDF is "none"), JSON (the
 * same, strings in quotes, an empty PDF null), SHORT for people (%g). */
enum gaps_param_style { GAPS_STYLE_EXACT, GAPS_STYLE_JSON, GAPS_STYLE_SHORT };

/* Does the value of p in state st equal the default its process and compat give it
 * (GAPS_PF_OMIT_PROCESS_DEFAULT)?  1 or 0. */
int gaps_param_is_process_default(const gaps_param *p, const void *st);

/* The text of the value at `field` (a gaps_config or gaps_state field of parameter p). */
void gaps_param_format(const gaps_param *p, const void *field, enum gaps_param_style style,
                       char *buf, size_t len);

/* The value of parameter p in a configuration or a state. */
static inline const void *gaps_param_in_config(const gaps_param *p, const void *cfg)
{
    return (const char *)cfg + p->cfg_offset;
}
static inline const void *gaps_param_in_state(const gaps_param *p, const void *state)
{
    return (const char *)state + p->state_offset;
}

/* Set parameter id of *cfg (a gaps_config) to its default, which may depend on cfg->process. */
struct gaps_config;
void gaps_param_set_default(int id, struct gaps_config *cfg);

/* Parse a PDF spec "NAME" or "NAME/MEMBER": NAME 1 to GAPS_PDF_NAME_MAX - 1 bytes of letters,
 * digits and . _ + - (not starting with '.' or '-'), MEMBER decimal 0..9999.  0 with the name
 * in name[GAPS_PDF_NAME_MAX] and the member (0 if none), or -1. */
int gaps_pdf_spec_parse(const char *spec, char *name, int *member);

/* The PDF set of a configuration as the state records it: "NAME/MEMBER", the process's
 * default set where cfg->pdf is "", and "" for a process without hadron beams. */
void gaps_config_pdf_spec(const struct gaps_config *cfg, char out[GAPS_PDF_SPEC_MAX]);

/* The first parameter recorded in the state whose value differs between a and b (two
 * gaps_state; compared bit for bit), or -1 if none does. */
int gaps_state_params_differ(const void *a, const void *b);

GAPS_C_END

#endif
