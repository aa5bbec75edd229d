/* process/pp_nlo.h -- the pieces of p p -> Z (on shell) at next-to-leading order with
 * Catani-Seymour subtraction (doc/nlo.md, section "p p -> Z"; src/process/pp_z_nlo.c), and what
 * the Drell-Yan-like processes share of them (pp-ll, pp-w); private to the processes and their
 * tests (no installed header exposes a process's internals).
 *
 * Pure functions of momenta, invariants and momentum fractions, usable on every backend (no
 * allocation, no recursion, no global state); the MC@NLO builder (mcatnlo.c, doc/nlo.md
 * sections 11.8 and 11.9) makes the S, H and M events of --nlo 1 from them.
 * The pieces:
 *   real matrix elements   q qbar -> Z g, q g -> Z q (the same function serves qbar g and g q);
 *   the initial-initial Catani-Seymour map and the II dipoles of both real processes;
 *   the subtracted reals R - sum D, and their integrals over the dipole variable v;
 *   the finite part of virtual + insertion operator I;
 *   the collinear P and K terms: integrands of the x-convolution and the endpoint (delta and
 *   plus-distribution remainder) parts;
 *   the dilogarithm (correct by default; GAPS 2.1's truncated series under --compat gaps21).
 *
 * Conventions: four-vectors double[4] = (E, px, py, pz), GeV.  Incoming partons carry their
 * physical (positive-energy) momenta pa, pb; the outgoing parton is k.  Invariants
 *   s = (pa + pb)^2,  t = (pa - k)^2,  u = (pb - k)^2,  s + t + u = M_Z^2.
 * "born" is the spin- and colour-averaged Born |M|^2 of q qbar -> Z for the flavour (GeV^2;
 * gaps_pp_z_born()), which for an on-shell Z does not depend on the momenta: the Born of every
 * mapped configuration is this same number.  All |M|^2 here are averaged over the incoming
 * spins and colours and summed over the outgoing ones; times dPhi / (2 s) they are cross
 * sections.  mu_F = mu_R = M_Z is the run's choice; the P term keeps mu_F general.
 * The collinear terms are returned per unit of the Born weight: they multiply the LO weight
 * w_LO of the Born point whose incoming leg has momentum fraction eta, with
 *   rho = [x f](eta / x, mu_F^2) / [x f_born](eta, mu_F^2)
 * ([x f] = the PDF library's x f(x), so rho = f(eta/x) / (x f_born(eta))), and are to be
 * integrated over x in [eta, 1) (the endpoint part is added once per leg). */
#ifndef GAPS_PROCESS_PP_NLO_H
#define GAPS_PROCESS_PP_NLO_H

#include "gaps/decl.h"

GAPS_C_BEGIN

/* Run constants of --nlo 1 --process pp-z and pp-ll (plain data, copied to the device inside
 * gaps_process; doc/nlo.md section 11.8). */
typedef struct gaps_pp_nlo {
    int on;              /* 1: events are S and H events; 0: leading order */
    int gaps21;          /* --compat gaps21: GAPS 2.1's Li2 and shower start (t = s) */
    double alphas;       /* alpha_s(mu_R^2 = M_Z^2) of the run's coupling (pp-z and pp-ll) */
    double lf;           /* ln(M^2 / mu_F^2): 0 (pp-z: mu_F = M_Z; pp-ll: mu_F = m_ll) */
    double born[6];      /* pp-z: gaps_pp_z_born(f), f = 1..5 (index 0 unused); pp-ll: unused */
} gaps_pp_nlo;

/* An H event whose |t| or |u| lies below this fraction of s_hat gets weight 0 (R - D is finite
 * there and the region has measure ~1e-12; R and D are each beyond 1e12 / s_hat). */
#define GAPS_PP_NLO_MIN_TU 1e-12

/* Host: the constants for alphas = alpha_s(M_Z^2) and compat (enum gaps_compat). */
void gaps_pp_nlo_init(gaps_pp_nlo *nlo, double alphas, int compat);

GAPS_DEVICE_BEGIN

/* Spin- and colour-averaged |M|^2 of q qbar -> Z for flavour f = 1..5 (d u s c b), GeV^2:
 * 4 sqrt(2) G_F M_Z^4 (a_f^2 + v_f^2) / (4 N_c), the same number as pp_z.c's. */
double gaps_pp_z_born(int f);

/* Real |M|^2 of q(pa) qbar(pb) -> Z g(k) (or qbar(pa) q(pb) -> Z g, the same function):
 *   8 pi alphas C_F (born / M_Z^2) (t^2 + u^2 + 2 s M_Z^2) / (t u). */
double gaps_pp_qqbar_zg_real(double born, double alphas, double mz2, const double pa[4],
                             const double pb[4], const double k[4]);

/* Real |M|^2 of q(pa) g(pb) -> Z q(k) (also qbar g -> Z qbar; the gluon is ALWAYS pb; swap
 * the arguments for g q): crossing of the above with the colour/spin average of a q g pair,
 *   8 pi alphas T_R (born / M_Z^2) (-(s^2 + u^2 + 2 t M_Z^2) / (s u)),  u = (pb - k)^2. */
double gaps_pp_qg_zq_real(double born, double alphas, double mz2, const double pa[4],
                          const double pb[4], const double k[4]);

/* The Catani-Seymour initial-initial map, emitter a, emitted i, spectator b (massless):
 *   x = (pa.pb - pi.pa - pi.pb) / pa.pb,   v = pa.pi / pa.pb,
 *   pat = x pa,  pbt = pb,
 *   every final-state momentum q (here the Z) -> q - 2 q.(K + Kt) / (K + Kt)^2 (K + Kt)
 *                                                 + 2 q.K / K^2 Kt,
 *   K = pa + pb - pi,  Kt = pat + pbt.
 * *x, *v and pat, pbt are filled; q and qt may be NULL (no final-state momentum to map). */
void gaps_ii_map_32(const double pa[4], const double pb[4], const double pi[4], double *x,
                    double *v, double pat[4], double pbt[4], const double q[4], double qt[4]);

/* The initial-initial splitting functions V / (8 pi alphas), four dimensions:
 *   q -> q (gluon emitted):       C_F [2/(1 - x) - (1 + x)];
 *   g -> q (antiquark emitted):   T_R [1 - 2 x (1 - x)]. */
double gaps_ii_qq_kernel(double x);
double gaps_ii_gq_kernel(double x);

/* The dipole D^{ai,b} = 1/(2 pa.pi) (1/x) 8 pi alphas kernel(x) born, with the colour factor
 * -T_b.T_ai / T_ai^2 = 1 of a colour-singlet Born; gluon_initial selects the kernel
 * (0: q -> q g, 1: g -> q qbar).  If pat, pbt, zt are not NULL they receive the mapped Born
 * momenta (z the real Z momentum; may be NULL). */
double gaps_pp_ii_dipole(double born, double alphas, int gluon_initial, const double pa[4],
                         const double pb[4], const double pi[4], const double z[4],
                         double pat[4], double pbt[4], double zt[4]);

/* R - D^{a,b} - D^{b,a} for q(pa) qbar(pb) -> Z g(k); the parts in *real and d[0] (emitter
 * a), d[1] (emitter b) if not NULL.  Exactly -2 * 8 pi alphas C_F born / M_Z^2. */
double gaps_pp_qqbar_zg_subtracted(double born, double alphas, double mz2, const double pa[4],
                                   const double pb[4], const double k[4], double *real,
                                   double *d);

/* R - D^{b,a} for q(pa) g(pb) -> Z q(k) (the one singular dipole: the gluon pb splits, the
 * quark k is emitted).  Exactly 8 pi alphas T_R born / M_Z^2 (2 M_Z^2 - u) / s. */
double gaps_pp_qg_zq_subtracted(double born, double alphas, double mz2, const double pa[4],
                                const double pb[4], const double k[4], double *real,
                                double *d);

/* The subtracted reals integrated over the dipole variable v in [0, 1 - x) at fixed x, in the
 * units of the collinear terms (per unit of the Born weight, times rho of the emitter leg):
 *   q qbar -> Z g, ONE emitter's map (either map covers the whole real phase space):
 *     alphas/(2 pi) C_F (-2 (1 - x));
 *   g qbar -> Z qbar / g q -> Z q (the gluon leg's map):
 *     alphas/(2 pi) T_R (2 x (1 - x) + (1 - x)^2 / 2).
 * From sigma_R = integral dy dx dv [xf]_a(eta_a/x) [xf]_b(eta_b) (R - D) / (16 pi M_Z^2). */
double gaps_pp_qq_subtracted_vint(double alphas, double x);
double gaps_pp_gq_subtracted_vint(double alphas, double x);

/* Finite part of (V + I) / Born for q qbar -> Z, mu_R^2 = mu^2 arbitrary (the poles and the
 * logarithms of mu^2 / M_Z^2 cancel between V and I): alphas/(2 pi) C_F * 2. */
double gaps_pp_z_virtual_i(double alphas);

/* The dilogarithm Li2(y) for y <= 1 (reflection to y <= 1/2 and a 60-term power series;
 * relative error about 1e-16). */
double gaps_li2(double y);
/* GAPS 2.1's Li2: the power series sum y^n / n^2 stopped at n = 99 or at the first term
 * below 1e-12 (spec section 11 item 8), about 0.01 low as y -> 1.  --compat gaps21 only. */
double gaps_li2_gaps21(double y);

/* K term of a quark (or antiquark) leg, mu_F = M_Z, MSbar, K-bar + K-tilde with the
 * colour-singlet Born: x-integrand of the q -> q part given rho at x,
 *   alphas/(2 pi) C_F { g(x) (rho - 1) + [-(1 + x) L + (1 - x)] rho },
 *   g(x) = 2 L / (1 - x),  L = ln((1 - x)/x) + ln(1 - x). */
double gaps_pp_k_qq_integrand(double alphas, double x, double rho);
/* ... of the g -> q part (rho of the gluon at eta/x over the Born quark at eta):
 *   alphas/(2 pi) T_R { 2 x (1 - x) + [x^2 + (1 - x)^2] L } rho. */
double gaps_pp_k_gq_integrand(double alphas, double x, double rho);
/* ... endpoint of one leg at Born fraction eta: the delta(1 - x) part minus the integral of
 * the plus-distribution's function g over [0, eta]:
 *   alphas/(2 pi) C_F { -(5 - 2 pi^2/3) - 2 [pi^2/6 - ln^2(1 - eta) - Li2(1 - eta)] },
 * with gaps_li2() (gaps21 = 0) or gaps_li2_gaps21() (gaps21 = 1). */
double gaps_pp_k_qq_endpoint(double alphas, double eta, int gaps21);

/* P term of one leg: alphas/(2 pi) P^{aa'}(x) ln(M_Z^2 / mu_F^2) (for the colour-singlet Born
 * 2 x pa.pb = M_Z^2), zero at mu_F = M_Z.  lf = ln(M_Z^2 / mu_F^2).
 *   q -> q integrand:   alphas/(2 pi) lf C_F (1 + x^2)/(1 - x) (rho - 1);
 *   q -> q endpoint:    alphas/(2 pi) lf C_F [2 ln(1 - eta) + eta + eta^2 / 2]  (minus the
 *                       integral over [0, eta] of (1 + x^2)/(1 - x): P^qq = C_F [(1 + x^2)/(1 - x)]_+);
 *   g -> q integrand:   alphas/(2 pi) lf T_R [x^2 + (1 - x)^2] rho. */
double gaps_pp_p_qq_integrand(double alphas, double lf, double x, double rho);
double gaps_pp_p_qq_endpoint(double alphas, double lf, double eta);
double gaps_pp_p_gq_integrand(double alphas, double lf, double x, double rho);

/* ---- p p -> Z/gamma* -> l- l+ (Drell-Yan, --process pp-ll) at NLO: the quark-line QCD
 * corrections with the full lepton angular dependence (src/process/pp_ll_nlo.c; doc/nlo.md
 * section 12).  The Born of flavour f at dilepton mass^2 m^2 is written
 *   B = P (1 + c)^2 + Q (1 - c)^2 = (16 / m^4) [P (q.l+)^2 + Q (q.l-)^2],
 * c = cos(incoming quark, l-) in the pair's rest frame, q the incoming quark's momentum;
 * P = "same" helicity channel (the l- follows the quark), Q = "opposite" (P and Q of the run:
 * gaps_pp_ll_born_pq(), src/process/processes.h).  Momenta physical, incoming partons first;
 * the leptons lm (l-) and lp (l+). */

/* The Born |M|^2 of q(q) qbar -> l-(lm) l+(lp) at Born kinematics:
 * (16 / m^4) [P (q.lp)^2 + Q (q.lm)^2], m^2 = 2 lm.lp. */
double gaps_pp_ll_born(double P, double Q, const double q[4], const double lm[4],
                       const double lp[4]);

/* Real |M|^2 of q(q) qbar(qb) -> l-(lm) l+(lp) g(k), spin- and colour-averaged, crossed from
 * e+ e- -> q qbar g (gaps_ee_qqg_real(), four fermions crossed: sign +1):
 *   (128 pi alphas C_F / m^2) [P ((lm.qb)^2 + (lp.q)^2) + Q ((lm.q)^2 + (lp.qb)^2)]
 *   / ((2 q.k)(2 qb.k)),   m^2 = 2 lm.lp. */
double gaps_pp_ll_qqbar_real(double P, double Q, double alphas, const double q[4],
                             const double qb[4], const double lm[4], const double lp[4],
                             const double k[4]);

/* Real |M|^2 of q(a) g(g) -> l- l+ q(k) (anti = 0) or qbar(a) g(g) -> l- l+ qbar(k) (anti = 1):
 * the q qbar one crossed (gluon g -> -g; the outgoing (anti)quark k -> an incoming
 * antiquark (quark) -k: one fermion crossed, sign -1) with the q g average: times -T_R / C_F. */
double gaps_pp_ll_qg_real(double P, double Q, double alphas, int anti, const double a[4],
                          const double g[4], const double lm[4], const double lp[4],
                          const double k[4]);

/* The II dipole D^{ai,b} = 8 pi alphas kernel(x) B~ / (2 pa.pi x) of the Drell-Yan Born,
 * the leptons mapped by gaps_ii_map_32(); gluon_initial: 0 q -> q g (kernel
 * gaps_ii_qq_kernel), 1 g -> q qbar (gaps_ii_gq_kernel); quark_at_a: the Born quark is the
 * emitter's mapped parton x pa (1) or the spectator pb (0).  B~ = gaps_pp_ll_born() at the
 * mapped momenta.  lmt, lpt receive the mapped leptons if not NULL. */
double gaps_pp_ll_ii_dipole(double P, double Q, double alphas, int gluon_initial,
                            int quark_at_a, const double pa[4], const double pb[4],
                            const double pi[4], const double lm[4], const double lp[4],
                            double lmt[4], double lpt[4]);

/* R - D^{q,qb} - D^{qb,q} for q(q) qbar(qb) -> l- l+ g(k); parts in *real, d[0] (the quark
 * emits), d[1] (the antiquark emits) if not NULL. */
double gaps_pp_ll_qqbar_subtracted(double P, double Q, double alphas, const double q[4],
                                   const double qb[4], const double lm[4], const double lp[4],
                                   const double k[4], double *real, double *d);

/* R - D^{g,a} for q(a) g(g) -> l- l+ q(k) (anti = 0) or qbar(a) g -> l- l+ qbar(k) (anti = 1):
 * the gluon emits the (anti)quark k; the Born quark is a (anti = 0) or the gluon's mapped
 * parton (anti = 1).  Parts in *real, d[0] if not NULL. */
double gaps_pp_ll_qg_subtracted(double P, double Q, double alphas, int anti, const double a[4],
                                const double g[4], const double lm[4], const double lp[4],
                                const double k[4], double *real, double *d);

GAPS_DEVICE_END

GAPS_C_END

#endif
