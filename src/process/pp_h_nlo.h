/* process/pp_h_nlo.h -- the pieces of g g -> H (heavy-top effective theory, H stable) at
 * next-to-leading order with Catani-Seymour subtraction, for the generic hadron-collision
 * MC@NLO event builder (doc/nlo.md section 16, "g g -> H in the heavy-top limit";
 * src/process/pp_h_nlo.c; checked by tests/test_pp_h_nlo.c).
 *
 * Pure functions of momenta, invariants and momentum fractions, usable on every backend (no
 * allocation, no recursion, no global state; logarithms through gaps_log).  The pieces:
 *   the Born |M|^2 (a constant for a stable H);
 *   real matrix elements  g g -> H g,  q g -> H q (also qbar g, and g q by argument swap),
 *                         q qbar -> H g (also qbar q);
 *   the initial-initial dipoles (g -> g g emitter, q -> g with the quark emitted), the map
 *   being gaps_ii_map_32() of src/process/pp_nlo.h;
 *   the subtracted reals R - sum D with their parts, and their integrals over the dipole
 *   variable v;
 *   the finite part of (virtual + insertion operator I) / Born;
 *   the collinear K and P terms of a GLUON Born leg (g -> g and q -> g), in the shape of
 *   pp_nlo.h's gaps_pp_k_qq_* / gaps_pp_p_qq_* (x-integrand given rho, and the endpoint).
 *
 * Conventions (as src/process/pp_nlo.h): four-vectors double[4] = (E, px, py, pz), GeV; incoming
 * partons carry their physical momenta pa, pb, the outgoing parton is k;
 *   s = (pa + pb)^2,  t = (pa - k)^2,  u = (pb - k)^2,  s + t + u = m_H^2  (mh2 below).
 * "born" is the spin- and colour-averaged |M|^2 of g g -> H (gaps_pp_h_born()); for a stable
 * H it does not depend on the momenta, so the Born of every mapped configuration is this same
 * number.  Every |M|^2 is averaged over the incoming spins and colours (a gluon: 2 x 8, a
 * quark: 2 x 3) and summed over the outgoing ones; times dPhi / (2 s) it is a cross section.
 * Colour factors: C_A = 3, C_F = 4/3, T_R = 1/2, n_f = GAPS_N_FLAVOURS = 5 light flavours (the
 * top integrated out).  Scales: mu_F = mu_R = m_H in the run (the functions keep the
 * logarithms lf = ln(m_H^2 / mu_F^2) and lr = ln(mu_R^2 / m_H^2) as arguments; pass 0).
 *
 * Units of the collinear terms (as pp_nlo.h): they multiply the LO weight of the Born point
 * whose gluon leg has momentum fraction eta, with
 *   rho = [x f](eta / x, mu_F^2) / [x g](eta, mu_F^2)
 * ([x f] = the PDF library's x f(x)), f = the gluon (g -> g) or the quark (q -> g; summed over
 * the five quarks and five antiquarks by the caller), integrated over x in [eta, 1) (the
 * endpoint part added once per leg; the builder may sample x = eta^u, u uniform, Jacobian
 * x ln(1/eta)).  Equivalently d sigma / (dy dx) = sigma_0 [x f](eta_a / x) [x g](eta_b) * the
 * coefficient, sigma_0 = pi born / m_H^4 = G_F alpha_s^2 / (288 sqrt 2 pi). */
#ifndef GAPS_PROCESS_PP_H_NLO_H
#define GAPS_PROCESS_PP_H_NLO_H

#include "gaps/decl.h"

GAPS_C_BEGIN

GAPS_DEVICE_BEGIN

/* The spin- and colour-averaged |M|^2 of g g -> H in the heavy-top limit, GeV^2:
 *   born = sigma_0 m_H^4 / pi = G_F alphas^2 m_H^4 / (288 sqrt(2) pi^2)
 * (pp_h.c's normalisation: sigma_hat = pi born / m_H^2 delta(s - m_H^2) = sigma_0 m_H^2
 * delta(s - m_H^2); alphas = alpha_s(mu_R^2), mh2 = m_H^2). */
double gaps_pp_h_born(double alphas, double mh2);

/* Real |M|^2 of g(pa) g(pb) -> H g(k) (Ellis, Hinchliffe, Soldate, van der Bij 1988):
 *   8 pi alphas C_A (born / m_H^4) (m_H^8 + s^4 + t^4 + u^4) / (s t u),
 * symmetric in s, t, u.  Singular as t -> 0, u -> 0 and k soft. */
double gaps_pp_h_gg_real(double born, double alphas, double mh2, const double pa[4],
                         const double pb[4], const double k[4]);

/* Real |M|^2 of q(pa) g(pb) -> H q(k) (also qbar g -> H qbar; the quark is ALWAYS pa: swap
 * the arguments for g q):
 *   8 pi alphas C_F (born / m_H^4) (s^2 + u^2) / (-t),   t = (pa - k)^2 the quark line's.
 * Singular only as t -> 0 (k along the quark beam, or soft); k along the gluon beam is not. */
double gaps_pp_h_qg_real(double born, double alphas, double mh2, const double pa[4],
                         const double pb[4], const double k[4]);

/* Real |M|^2 of q(pa) qbar(pb) -> H g(k) (also qbar q: symmetric in t <-> u):
 *   16 pi alphas C_F^2 (born / m_H^4) (t^2 + u^2) / s
 * (the crossing of q g -> H q, pb <-> -k, with the q qbar average: times -2 C_F).  Finite
 * everywhere (no q qbar -> H Born at this order): it needs no dipole. */
double gaps_pp_h_qqbar_real(double born, double alphas, double mh2, const double pa[4],
                            const double pb[4], const double k[4]);

/* The initial-initial splitting functions V / (8 pi alphas), four dimensions, averaged over
 * the Born gluon's polarisation (the g g -> H Born's density matrix in the transverse plane
 * is isotropic, so the CS spin-correlated term gives exactly this average; checked by
 * tests/test_pp_h_nlo.c against the explicit tensor contraction):
 *   g -> g (gluon emitted):  2 C_A [x/(1 - x) + (1 - x)/x + x (1 - x)];
 *   q -> g (quark emitted):  C_F [1 + (1 - x)^2] / x. */
double gaps_ii_gg_kernel(double x);
double gaps_ii_qg_kernel(double x);

/* The dipole D^{ai,b} = 1/(2 pa.pi) (1/x) 8 pi alphas kernel(x) born of a g g -> H Born, with
 * -T_b.T_a~ / T_a~^2 = 1; emitter a (physical momentum pa), emitted parton pi, spectator b,
 * x and the map of gaps_ii_map_32().  quark_emitter: 0 g -> g g (gaps_ii_gg_kernel),
 * 1 q -> g with the quark pi emitted (gaps_ii_qg_kernel).  If pat, pbt, ht are not NULL they
 * receive the mapped Born momenta: the gluons x pa and pb, and the mapped H (h the real H
 * momentum; may be NULL). */
double gaps_pp_h_ii_dipole(double born, double alphas, int quark_emitter, const double pa[4],
                           const double pb[4], const double pi[4], const double h[4],
                           double pat[4], double pbt[4], double ht[4]);

/* R - D^{ak,b} - D^{bk,a} for g(pa) g(pb) -> H g(k); the parts in *real and d[0] (emitter a),
 * d[1] (emitter b) if not NULL.  Exactly
 *   -16 pi alphas C_A (born / (s m_H^4)) (2 t^2 + 3 t u + 2 u^2). */
double gaps_pp_h_gg_subtracted(double born, double alphas, double mh2, const double pa[4],
                               const double pb[4], const double k[4], double *real, double *d);

/* R - D^{ak,b} for q(pa) g(pb) -> H q(k) (the one singular dipole: the quark pa emits the
 * quark k and enters the Born as a gluon); parts in *real, d[0] (d[1] = 0) if not NULL.
 * g q: swap pa and pb (the quark first).  Exactly
 *   8 pi alphas C_F (born / m_H^4) (2 (m_H^2 - s) - t). */
double gaps_pp_h_qg_subtracted(double born, double alphas, double mh2, const double pa[4],
                               const double pb[4], const double k[4], double *real, double *d);

/* R for q(pa) qbar(pb) -> H g(k) with no dipole (the same shape: *real = R, d[0] = d[1] = 0
 * if not NULL). */
double gaps_pp_h_qqbar_subtracted(double born, double alphas, double mh2, const double pa[4],
                                  const double pb[4], const double k[4], double *real,
                                  double *d);

/* The subtracted reals integrated over the dipole variable v = pa.k / pa.pb in [0, 1 - x) at
 * fixed x = m_H^2 / s, ONE leg's map (either covers the whole real phase space at fixed s),
 * as coefficients c(x) of d sigma / (dy dx) = sigma_0 [x f]_a(eta_a / x) [x f]_b(eta_b) c(x)
 * (a the mapped leg; the partonic cross section is sigma_0 z c(z), z = m_H^2 / s):
 *   g g -> H g:        alphas/(2 pi) (-11 C_A / 3) (1 - x)^3 / x;
 *   q g -> H q (the quark leg's map, the gluon b):  alphas/(2 pi) (-3/2) C_F (1 - x)^2 / x;
 *   q qbar -> H g:     alphas/(2 pi) (4/3) C_F^2 (1 - x)^3 / x. */
double gaps_pp_h_gg_subtracted_vint(double alphas, double x);
double gaps_pp_h_qg_subtracted_vint(double alphas, double x);
double gaps_pp_h_qqbar_subtracted_vint(double alphas, double x);

/* Finite part of (V + I) / Born for g g -> H, heavy-top limit, MSbar, n_f = 5, with
 * lr = ln(mu_R^2 / m_H^2) (0 in the run):
 *   alphas/(2 pi) [11 + (100/9) C_A - (32/9) T_R n_f + 2 gamma_g lr],
 *   gamma_g = 11/6 C_A - 2/3 T_R n_f   (= alphas/(2 pi) 319/9 at lr = 0).
 * Convention: V and I both in CDR with the factor (4 pi)^eps / Gamma(1 - eps) and
 * (mu^2 / m_H^2)^eps; V = B alphas/(2 pi) [-2 C_A/eps^2 - 2 gamma_g/eps + 11 + C_A pi^2]
 * (the 11 = 2 x 11/2 is the O(alpha_s) correction of the Wilson coefficient,
 * |C|^2 = 1 + (11/2) alpha_s/pi; C_A pi^2 from the time-like form factor), and I's finite part
 * 2 [-C_A pi^2/3 + gamma_g + K_g], K_g = (67/18 - pi^2/6) C_A - 10/9 T_R n_f. */
double gaps_pp_h_virtual_i(double alphas, double lr);

/* K term of a gluon Born leg, colour-singlet Born, MSbar, K-bar + K-tilde (Catani-Seymour),
 * with L = ln((1 - x)/x) + ln(1 - x) = 2 ln(1 - x) - ln x and g(x) = 2 L / (1 - x):
 * x-integrand of g -> g given rho (gluon at eta/x over gluon at eta):
 *   alphas/(2 pi) C_A { g(x) (rho - 1) + 2 [(1 - x)/x - 1 + x (1 - x)] L rho }. */
double gaps_pp_k_gg_integrand(double alphas, double x, double rho);
/* ... of q -> g, per unit of rho = (quark at eta/x) / (gluon at eta), to be summed over the
 * quarks and antiquarks by the caller:
 *   alphas/(2 pi) C_F { [1 + (1 - x)^2] / x L + x } rho. */
double gaps_pp_k_qg_integrand(double alphas, double x, double rho);
/* ... endpoint of one gluon leg at Born fraction eta: the delta(1 - x) part minus the
 * integral of the plus-distribution's function C_A g over [0, eta]:
 *   alphas/(2 pi) { -[C_A (50/9 - 2 pi^2/3) - (16/9) T_R n_f]
 *                   - 2 C_A [pi^2/6 - ln^2(1 - eta) - Li2(1 - eta)] }
 * (the delta part is -(gamma_g + K_g - 5 pi^2/6 C_A) from K-bar and -C_A pi^2/3 from
 * K-tilde); Li2 = gaps_li2(). */
double gaps_pp_k_gg_endpoint(double alphas, double eta);

/* P term of one gluon leg: alphas/(2 pi) P^{a g}(x) ln(m_H^2 / mu_F^2) (the colour-singlet
 * Born has 2 x pa.pb = m_H^2), zero at mu_F = m_H; lf = ln(m_H^2 / mu_F^2).
 *   g -> g integrand: alphas/(2 pi) lf 2 C_A { (rho - 1)/(1 - x) + [(1 - x)/x - 1 + x (1 - x)] rho };
 *   g -> g endpoint:  alphas/(2 pi) lf [2 C_A ln(1 - eta) + gamma_g]
 *     (P^gg = 2 C_A [1/(1 - x)_+ + (1 - x)/x - 1 + x (1 - x)] + gamma_g delta(1 - x));
 *   q -> g integrand: alphas/(2 pi) lf C_F [1 + (1 - x)^2] / x rho  (rho of one quark). */
double gaps_pp_p_gg_integrand(double alphas, double lf, double x, double rho);
double gaps_pp_p_gg_endpoint(double alphas, double lf, double eta);
double gaps_pp_p_qg_integrand(double alphas, double lf, double x, double rho);

GAPS_DEVICE_END

GAPS_C_END

#endif
