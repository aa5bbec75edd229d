/* process/processes.h -- what the hadronic processes share (sampling tables, channel choice,
 * electroweak couplings, the incoming rows of a Born record), and the interface of every
 * process (process_impl.h); their NLO events share the builder of mcatnlo.h.  Each process's
 * own constants and functions are in its private header (ee_qq.h, pp_z.h, pp_ll.h, ...). */
#ifndef GAPS_PROCESS_PROCESSES_H
#define GAPS_PROCESS_PROCESSES_H

#include "gaps/process.h"
#include "process/pp_nlo.h"
#include "process/process_impl.h"

/* Host: the Z couplings of quark flavour f = 1..5 (couplings.c): charge q, vector v = a - 2 q
 * sin^2 theta_W, axial a = T_3 = +-1/2. */
void gaps_quark_couplings(int f, double *q, double *v, double *a);

/* Host: a sampling table of n cells (sampling.c), shared by the hadronic processes.  On entry
 * prob[i] holds a value >= 0 that the density of cell i should follow (e.g. the largest of
 * d sigma over the cell); on return prob[i] = (value_i / sum + 1e-4 / n) / (1 + 1e-4) (a floor,
 * so that no cell is left out) and cum[i] = prob[0] + ... + prob[i-1], cum[n] = 1.  Returns n,
 * or 0 (no table: sample uniformly) where the sum is not finite and positive. */
int gaps_sampling_table_fill(double *prob, double *cum, int n);

/* PDG codes of the muon family (the electron's, GAPS_PDG_ELECTRON, are in gaps/constants.h) */
#define GAPS_PDG_MUON 13    /* mu- */
#define GAPS_PDG_NU_MU 14   /* nu_mu */

GAPS_DEVICE_BEGIN
/* One of n channels with probability |c_k| / sum_k |c_k| for u uniform in (0, 1) (sampling.c):
 * its index, *sum_abs = sum_k |c_k| and *sign = the sign of c_k, so that sign * sum_abs is an
 * unbiased estimate of sum_k c_k.  All c_k = 0: index 0, sum 0. */
int gaps_choose_channel(const double *c, int n, double u, double *sum_abs, double *sign);
/* The cell of a table of gaps_sampling_table_fill() for u uniform in (0, 1) (sampling.c): its
 * index k (cum[k] <= u < cum[k + 1]), *frac = (u - cum[k]) / prob[k] in [0, 1] (uniform within
 * the cell: the cell's own coordinate) and *w = 1 / (n prob[k]), the uniform density over the
 * sampled one. */
int gaps_sampling_table_pick(const double *prob, const double *cum, int n, double u,
                             double *frac, double *w);
/* Rows 0 (quark of flavour fq) and 1 (antiquark of flavour fqb, > 0: -fqb) of a Born record,
 * along +z with fraction xa and along -z with xb (the quark along -z if
 * quark_along_minus_z), colours (a colour singlet), x, n_in (incoming.c). */
void gaps_pp_born_incoming(double half_ecm, int fq, int fqb, int quark_along_minus_z,
                           double xa, double xb, gaps_hard_event *ev);
/* The direction of the first lepton of a Drell-Yan-like pair (leptons.c): c = cos theta along
 * +z in the pair's rest frame from (3/8)[(1 + c^2) + beta c] for rc uniform in (0, 1) (|beta|
 * <= 1.9, the caller's clamp), sin theta st, phi = 2 pi rphi, and *c_weight the uniform density
 * over the sampled one, 4 / (3 [(1 + c^2) + beta c]). */
void gaps_pp_lepton_direction(double beta, double rc, double rphi, double *c, double *st,
                              double *cphi, double *sphi, double *c_weight);
/* The two massless leptons of a pair of mass m from partons of fractions xa (+z) and xb (-z):
 * p[0] along (c, st, phi) in the pair's rest frame, p[1] back to back with it (leptons.c). */
void gaps_pp_lepton_momenta(double sqrt_s, double m, double xa, double xb, double c, double st,
                            double cphi, double sphi, double p[2][4]);
/* --leptons (enum gaps_leptons) on a finished hard event whose rows 2 and 3 are the boson's
 * leptons of the electron family (e-, e+, nu_e, nu_e~: pp-ll and pp-w, LO and NLO alike):
 * massless, so the muon channel is the electron channel's event with the codes of the muon
 * family, and e,mu the sum of the two channels, twice the weight (exact), each event's family
 * drawn with probability 1/2 from one more uniform after all of the event's others (e and mu
 * draw nothing: their events keep the default's random stream) (leptons.c). */
void gaps_pp_lepton_flavour(int leptons, gaps_rng *rng, gaps_hard_event *ev);

GAPS_DEVICE_END

#endif
