/* process/mcatnlo.h -- the one MC@NLO event builder of hadron collisions (mcatnlo.c;
 * doc/nlo.md section 11.8), and what a process hands it.
 *
 * A hadronic process at --nlo 1 makes S, H and M events (doc/nlo.md 11.8) in the same
 * lock-step pool as every other event.  The builder does what every such process shares:
 * the event's uniforms, the collinear (K and P) part of the S weight, the real-emission phase
 * space (a colour-singlet system V of mass m and one parton, V optionally decaying into two
 * massless leptons), the PDFs at the real point, the choice of S, H or M by |weight| with the
 * treatment of non-finite weights, and the records.  The process supplies its physics as pure
 * functions, called by a switch on its id (device code has no function pointers), declared
 * below for every process whose row of GAPS_PROCESSES has nlo = MCATNLO:
 *
 *   _nlo_born      its Born point for the uniforms u[0 ..): momentum fractions, mu_F^2,
 *                  the PDFs there, its channels (partons and Born weight factor each), the
 *                  momenta of the colourless particles
 *   _nlo_s_weight  |w_S| from the sum over the channels of |factor x S bracket|
 *   _nlo_real      the H weights of its real channels (R - sum D, or R alone above the S
 *                  events' start scale) and the -D of each dipole (the M events)
 *   _nlo_h_partons the flavours and colours of the partons of H channel k
 *   _nlo_m_born    for M entry k: which leg emitted and the Born partons after the map
 *
 * The builder's constants (gaps_mcatnlo) are part of the process's own data; the process sets
 * them when it is made NLO (gaps_mcatnlo_init) and calls gaps_mcatnlo_generate() from its
 * _generate. */
#ifndef GAPS_PROCESS_MCATNLO_H
#define GAPS_PROCESS_MCATNLO_H

#include "process/pp_nlo.h"
#include "process/process_impl.h"

/* Most uniforms one event draws, Born channels and real (H) channels of any process; each
 * real channel has up to two dipoles (the M entries).  Local arrays of the builder: raising
 * them costs every hadronic NLO event stack. */
#define GAPS_NLO_MAX_UNIFORMS 16
#define GAPS_NLO_MAX_BORN 24
#define GAPS_NLO_MAX_REAL 72

/* The builder's run constants (host-set, plain data inside the process's data). */
typedef struct gaps_mcatnlo {
    gaps_pp_nlo nlo;     /* alpha_s, mu_F, compat (src/process/pp_nlo.h) */
    double virtual_i;    /* the finite part of (V + I) / B of the process's Born (a number per
                            run: the Born's scales are fixed or cancel in it) */
    int gluon_legs;      /* 0: the Born's legs are a quark and an antiquark; 1: two gluons (the
                            K and P terms of gluon legs) */
    /* The event's uniforms u[0 .. uniforms) are drawn in pairs, in this order: the Born
     * point's from u[0], the two legs' x at i_legs, the real point's at i_real (the mass if
     * mass_bw, ln tau', the rapidity, the parton's cos theta and phi, the lepton's if decay),
     * and the H channel, the S channel and the choice of S, H or M at their indices. */
    int uniforms, i_legs, i_real, i_h_channel, i_s_channel, i_choice;
    int decay;           /* 1: V is two massless leptons; 0: V is one particle (its mass m) */
    int mass_bw;         /* 1: the real point's m^2 = mv2 + map_w tan(rho), rho uniform in
                            [rho_lo, rho_hi]; 0: m^2 = mv2 */
    double mv2, map_w, rho_lo, rho_hi;
    double ln_tau;       /* mass_bw 0: ln(mv2 / s), as the process computes it */
    double s, half_ecm;  /* GeV^2, GeV */
} gaps_mcatnlo;

/* Host: the builder's constants: alphas and compat as gaps_pp_nlo_init(), (V + I)/B of the
 * Drell-Yan Born (gaps_pp_z_virtual_i) and quark legs; the process's layout, mass model and
 * energy (and another V + I or gluon legs) are set by the process after this call. */
void gaps_mcatnlo_init(gaps_mcatnlo *mc, double alphas, int compat);
/* Host: the two layouts the processes use.  A stable V of mass^2 m2 (rapidity range
 * [-y_max, y_max], ln tau = -2 y_max, beam energy half_ecm): 10 uniforms, the Born's (y, S
 * channel), (x_a, x_b), (ln tau', y-hat), (cos theta, phi), (H channel, S or H) (pp-z, pp-h).
 * A lepton pair of Breit-Wigner mass (m^2 = mv2 + map_w tan rho, rho in [rho_lo, rho_hi]):
 * 16 uniforms, the Born's four, (x_a, x_b), the real point's seven, H channel, S channel,
 * S or H (pp-ll, pp-w). */
void gaps_mcatnlo_set_stable(gaps_mcatnlo *mc, double m2, double y_max, double half_ecm);
void gaps_mcatnlo_set_lepton_pair(gaps_mcatnlo *mc, double mv2, double map_w, double rho_lo,
                                  double rho_hi, double sqrt_s, double s);

/* The Born point of an S event, filled by the process's _nlo_born. */
typedef struct gaps_nlo_born {
    double ea, eb;        /* momentum fractions of the +z and -z legs */
    double m2;            /* the mass^2 of V: mu_F^2 of the PDFs and the S events' start */
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];   /* [xf] at (ea, m2), (eb, m2) */
    int channels;
    /* channel k: partons pa[k] (+z) and pb[k] (-z) (indices of the PDF arrays, 6 the gluon),
     * its LO weight factor[k] fa[pa[k]] fb[pb[k]] times the point's own factors
     * (the process's _nlo_s_weight) */
    double factor[GAPS_NLO_MAX_BORN];
    signed char pa[GAPS_NLO_MAX_BORN], pb[GAPS_NLO_MAX_BORN];
    /* the colourless particles after the incoming rows: one (V, its momentum the sum of the
     * incoming ones) or two (the leptons, momenta p_out, in the S events' record) */
    int n_out;
    double p_out[2][4];
    int flav_out[2];      /* their PDG codes where the incoming partons' charge is >= 0; the
                             charge conjugates where it is negative (W-) */
    double own[6];        /* the process's own numbers of the point (its _nlo_s_weight's) */
} gaps_nlo_born;

/* The real-emission point: partons qa (+z), qb (-z) in the parton frame, outgoing parton qk
 * and, with decay, leptons ql[0], ql[1]; the frame moves with rapidity yh in the lab, the
 * partons carry xi1, xi2 of the beams. */
typedef struct gaps_nlo_real {
    double m2;                /* mass^2 of V, mu_F^2 of f1, f2 */
    double sh, t, u;          /* s_hat, (qa - qk)^2, (qb - qk)^2 */
    double xi1, xi2, yh;
    double qa[4], qb[4], qk[4], ql[2][4];
    double jac;               /* pb: everything of the H weight but |M|^2 and the PDFs */
    double f1[GAPS_PDF_NPARTONS], f2[GAPS_PDF_NPARTONS];   /* [xf] at (xi1, m2), (xi2, m2) */
    int inside;               /* 1: xi1, xi2 < 1 and |t|, |u| >= GAPS_PP_NLO_MIN_TU s_hat (the
                                 H and M weights are 0 otherwise; f1, f2 are 0) */
    int above;                /* the parton's k_T^2 = t u / s_hat lies above the S events'
                                 start scale: H weights are R alone, the M entries -D */
} gaps_nlo_real;

GAPS_DEVICE_BEGIN
/* One event of a hadronic process at NLO (proc's row has nlo = MCATNLO; mc its constants):
 * S, H or M, signed weight, with the shower's start scale. */
void gaps_mcatnlo_generate(const gaps_process *proc, const gaps_mcatnlo *mc, gaps_rng *rng,
                           gaps_hard_event *ev);
GAPS_DEVICE_END

/* The functions of a process with nlo = MCATNLO (mcatnlo.h's list above):
 *   _nlo_born(proc, u, b)          fill b for the uniforms u (the Born's, from u[0])
 *   _nlo_s_weight(proc, b, sum)    |w_S| = sum times the point's factors (pb)
 *   _nlo_real(proc, as, r, ch, cm) the H weights ch[k] (signed, pb) of each real channel and the
 *                                  M weights cm[2k + j] (-D of dipole j; 0 unless r->above);
 *                                  returns the number of real channels
 *   _nlo_h_partons(proc, k, out, ev)  flavours and colours of rows 0, 1 (incoming, +z and -z)
 *                                  and `out` (the parton) of H channel k (other rows'
 *                                  colours are 0); returns the next colour tag
 *   _nlo_m_born(proc, k, emitter_a, pa, pb)  M entry k: *emitter_a 1 if the +z leg emitted;
 *                                  the Born partons (PDF indices) of the +z and -z legs */
#define GAPS_MCATNLO_DECLARE_NONE(name)
#define GAPS_MCATNLO_DECLARE_OWN(name)
#define GAPS_MCATNLO_DECLARE_MCATNLO(name)                                                     \
    void gaps_process_##name##_nlo_born(const gaps_process *proc, const double *u,             \
                                        gaps_nlo_born *b);                                     \
    double gaps_process_##name##_nlo_s_weight(const gaps_process *proc,                       \
                                              const gaps_nlo_born *b, double sum);             \
    int gaps_process_##name##_nlo_real(const gaps_process *proc, double alphas,               \
                                       const gaps_nlo_real *r, double *ch, double *cm);        \
    int gaps_process_##name##_nlo_h_partons(const gaps_process *proc, int k, int out,        \
                                            gaps_hard_event *ev);                              \
    void gaps_process_##name##_nlo_m_born(const gaps_process *proc, int k, int *emitter_a,    \
                                          int *pa, int *pb);
GAPS_DEVICE_BEGIN
#define GAPS_MCATNLO_DECLARE_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf,     \
                              analysis, rows_lo, rows_nlo, nlo, boson, options, source)                \
    GAPS_MCATNLO_DECLARE_##nlo(name)
GAPS_PROCESSES(GAPS_MCATNLO_DECLARE_)
#undef GAPS_MCATNLO_DECLARE_
GAPS_DEVICE_END

/* What the processes' hooks share (mcatnlo.c). */
GAPS_DEVICE_BEGIN
/* Flavours and colours of the partons of an H record of a q qbar' Born whose H types are
 * 0 q qbar', 1 qbar' q -> V g; 2 q g, 3 qbar' g, 4 g q, 5 g qbar' -> V + (anti)quark:
 * incoming rows 0 (+z) and 1 (-z), outgoing row out; fq the quark's and fqb the antiquark's
 * flavour (> 0), the outgoing (anti)quark of types 2-5 the partner of the incoming one (fqb
 * for q g, fq for qbar' g).  Returns the next colour tag, 3. */
int gaps_nlo_h_partons_qq(int type, int fq, int fqb, int out, gaps_hard_event *ev);
GAPS_DEVICE_END

#endif
