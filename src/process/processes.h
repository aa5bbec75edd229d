/* process/processes.h -- the per-process functions behind the dispatch of process.c: each
 * process file in src/process/ defines its own here. */
#ifndef GAPS_PROCESS_PROCESSES_H
#define GAPS_PROCESS_PROCESSES_H

#include "gaps/process.h"

/* Host: the Z couplings of quark flavour f = 1..5 (pp_z.c): charge q, vector v = a - 2 q
 * sin^2 theta_W, axial a = T_3 = +-1/2. */
void gaps_quark_couplings(int f, double *q, double *v, double *a);

/* Host: the run constants of p p -> Z (pp_z.c) and p p -> Z/gamma* -> e- e+ (pp_ll.c) at
 * sqrt(s) = ecm, and a typical large event weight of each (gaps_process.w_unit), pb. */
void gaps_pp_z_init(gaps_pp_z *pz, double ecm);
double gaps_pp_z_weight_unit(const gaps_pp_z *pz);
void gaps_pp_ll_init(gaps_pp_ll *ll, double ecm);
double gaps_pp_ll_weight_unit(const gaps_pp_ll *ll);

/* Host: the importance-sampling tables of pp-z (rapidity, pp_z.c) and pp-ll (mass and
 * rapidity, pp_ll.c).  Each returns what its table saw of the leading-order weights: the
 * mean over the cells of the largest |weight| of uniform sampling at the cell's points, pb
 * (about the LO cross section, from above), or 0 where the table is not built. */
double gaps_pp_z_prepare(gaps_pp_z *pz, const gaps_pdf *pdf);
double gaps_pp_ll_prepare(gaps_pp_ll *ll, const gaps_pdf *pdf);

/* Host: a sampling table of n cells (pp_z.c), shared by the hadronic processes.  On entry
 * prob[i] holds a value >= 0 that the density of cell i should follow (e.g. the largest of
 * d sigma over the cell); on return prob[i] = (value_i / sum + 1e-4 / n) / (1 + 1e-4) (a floor,
 * so that no cell is left out) and cum[i] = prob[0] + ... + prob[i-1], cum[n] = 1.  Returns n,
 * or 0 (no table: sample uniformly) where the sum is not finite and positive. */
int gaps_sampling_table_fill(double *prob, double *cum, int n);

GAPS_DEVICE_BEGIN
/* The Born record of p p -> Z (pp_z.c) for channel k of gaps_pp_z_generate (flavour 1 + k/2,
 * the quark along -z when k is odd) at momentum fractions xa (+z beam), xb (-z beam): the
 * incoming quark and antiquark, the Z, colours, x; weight and t_start are the caller's. */
void gaps_pp_z_born_record(const gaps_pp_z *pz, int channel, double xa, double xb,
                           gaps_hard_event *ev);
/* The leading-order point of p p -> Z/gamma* -> e- e+ (pp_ll.c) for the uniforms
 * (rrho, ry) (mass and rapidity cell) and (rc, rphi) (the l- direction): what
 * gaps_pp_ll_generate() computes before it chooses the channel.  The LO weight of channel
 * 2(f-1) + o is norm jac_m y_range / m2^2 cell_weight c_weight times
 * lp[f] (A[f](1 + c^2) + B[f] c) (o = 0: quark along +z) or lm[f] (A[f](1 + c^2) - B[f] c). */
typedef struct gaps_pp_ll_point {
    double m2, m;              /* dilepton mass^2 (GeV^2) and mass */
    double xa, xb;             /* Born momentum fractions of the +z and -z partons */
    double c, st, cphi, sphi;  /* l- direction in the pair's rest frame (z along +z beam) */
    double jac_m, y_range, cell_weight, c_weight;   /* the factors of the LO weight */
    double A[GAPS_N_FLAVOURS + 1], B[GAPS_N_FLAVOURS + 1];   /* per (4 pi alpha)^2 / N_c */
    double lp[GAPS_N_FLAVOURS + 1], lm[GAPS_N_FLAVOURS + 1]; /* luminosities */
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];    /* [xf] at xa, xb, mu_F^2 = m2 */
} gaps_pp_ll_point;
void gaps_pp_ll_point_make(const gaps_pp_ll *ll, const gaps_pdf *pdf, double rrho, double ry,
                           double rc, double rphi, gaps_pp_ll_point *pt);
/* The Born record of channel k of the point (pp_ll.c): rows 0 quark, 1 antiquark (incoming),
 * 2 e-, 3 e+, colours and x; weight and t_start are the caller's. */
void gaps_pp_ll_born_record(const gaps_pp_ll *ll, const gaps_pp_ll_point *pt, int channel,
                            gaps_hard_event *ev);
/* The Born |M|^2 of q qbar -> e- e+ of flavour f at dilepton mass^2 m2 as
 * P (1 + c)^2 + Q (1 - c)^2, c = cos(quark, e-) in the pair's rest frame, GeV^0 (pp_ll_nlo.c):
 * P = (4 pi alpha)^2 / N_c (A_f/2 + B_f/4), Q = (4 pi alpha)^2 / N_c (A_f/2 - B_f/4). */
void gaps_pp_ll_born_pq(const gaps_pp_ll *ll, int f, double m2, double *P, double *Q);
/* p p -> e- e+ at NLO (pp_ll_nlo_events.c; doc/nlo.md section 12): an S event (the Born record of
 * pp_ll.c) or an H event (incoming partons, e-, e+, outgoing parton), signed weight. */
void gaps_pp_ll_nlo_generate(const gaps_pp_ll *ll, const gaps_pp_nlo *nlo, const gaps_pdf *pdf,
                             gaps_rng *rng, gaps_hard_event *ev);
/* e+ e- -> Z/gamma* -> q qbar (ee_qq.c): the quark and antiquark back to back. */
void gaps_ee_qq_generate(const gaps_me *me, gaps_rng *rng, gaps_hard_event *ev);
/* The record of the leading-order point pt (ee_qq.c): what gaps_ee_qq_generate() hands on. */
void gaps_ee_qq_born_record(const gaps_me *me, const gaps_me_point *pt, gaps_hard_event *ev);
/* e+ e- -> q qbar at NLO (ee_qq_nlo.c; doc/nlo.md): an S event (the Born pair) or an H event
 * (q qbar g), signed weight. */
void gaps_ee_qq_nlo_generate(const gaps_me *me, const gaps_ee_nlo *nlo, gaps_rng *rng,
                             gaps_hard_event *ev);
/* p p -> Z at NLO (pp_z_nlo_events.c; doc/nlo.md section 11.8): an S event (the Born record of
 * pp_z.c) or an H event (incoming partons, Z, outgoing parton), signed weight. */
void gaps_pp_z_nlo_generate(const gaps_pp_z *pz, const gaps_pp_nlo *nlo, const gaps_pdf *pdf,
                            gaps_rng *rng, gaps_hard_event *ev);
/* p p -> Z (pp_z.c): incoming q, qbar, outgoing Z. */
void gaps_pp_z_generate(const gaps_pp_z *pz, const gaps_pdf *pdf, gaps_rng *rng,
                        gaps_hard_event *ev);
/* p p -> Z/gamma* -> e- e+ (pp_ll.c): incoming q, qbar, outgoing e-, e+. */
void gaps_pp_ll_generate(const gaps_pp_ll *ll, const gaps_pdf *pdf, gaps_rng *rng,
                         gaps_hard_event *ev);
/* One of n channels with probability |c_k| / sum_k |c_k| for u uniform in (0, 1) (pp_z.c):
 * its index, *sum_abs = sum_k |c_k| and *sign = the sign of c_k, so that sign * sum_abs is an
 * unbiased estimate of sum_k c_k.  All c_k = 0: index 0, sum 0. */
int gaps_choose_channel(const double *c, int n, double u, double *sum_abs, double *sign);
/* The cell of a table of gaps_sampling_table_fill() for u uniform in (0, 1) (pp_z.c): its
 * index k (cum[k] <= u < cum[k + 1]), *frac = (u - cum[k]) / prob[k] in [0, 1] (uniform within
 * the cell: the cell's own coordinate) and *w = 1 / (n prob[k]), the uniform density over the
 * sampled one. */
int gaps_sampling_table_pick(const double *prob, const double *cum, int n, double u,
                             double *frac, double *w);
/* What the hadronic NLO events share (pp_nlo_events.c).  The collinear part of an S weight
 * at Born fractions eta_a, eta_b (doc/nlo.md 11.8): for each leg one uniform u gives
 * x = eta^u (Jacobian x ln(1/eta); a leg whose x rounds to 1 contributes nothing), the
 * densities g at eta/x (scale^2 muf2), the K + P coefficients c, and the factor
 * one = 1 + (V + I)/B + the K and P endpoints of both legs. */
typedef struct gaps_pp_s_legs {
    double ga[GAPS_PDF_NPARTONS], gb[GAPS_PDF_NPARTONS];
    double ca[3], cb[3];
    double one;
} gaps_pp_s_legs;
void gaps_pp_s_legs_make(const gaps_pp_nlo *nlo, const gaps_pdf *pdf, double ea, double eb,
                         double ua, double ub, double muf2, gaps_pp_s_legs *L);
/* The S bracket of channel (flavour f, quark along +z (o = 0) or -z (o = 1)) per unit of
 * its Born |M|^2, with fa, fb the [xf] of the legs at eta_a, eta_b:
 * F_a F_b one + the x-integrals of both legs. */
double gaps_pp_s_bracket(const gaps_pp_s_legs *L, const double *fa, const double *fb, int f,
                         int o);
/* Rows 0 (quark of flavour f) and 1 (its antiquark) of a Born record, along +z with fraction
 * xa and along -z with xb (the quark along -z if quark_along_minus_z), colours, x, n_in. */
void gaps_pp_born_incoming(double half_ecm, int f, int quark_along_minus_z, double xa, double xb,
                           gaps_hard_event *ev);
/* Flavours and colours of the partons of an H record of type `type` (0 q qbar, 1 qbar q ->
 * V g; 2 q g, 3 qbar g, 4 g q, 5 g qbar -> V q(bar)): incoming rows 0 and 1, outgoing row
 * out; the other rows' colours are the caller's. */
void gaps_pp_h_partons(int type, int f, int out, gaps_hard_event *ev);

GAPS_DEVICE_END

#endif
