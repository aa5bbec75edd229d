/* mcatnlo.c -- the MC@NLO event builder of hadron collisions (process/mcatnlo.h; doc/nlo.md
 * sections 11.8 and 12.6): S, H and M events of every hadronic process at --nlo 1, from the
 * pure functions each process supplies.
 *
 * Every event draws the same number of uniforms whatever its outcome (so that the events of a
 * pool stay in lock-step and an event's stream does not depend on the others), computes an S
 * weight, the H weights of its real point and, where the real emission lies above the S
 * events' start scale, the M weights, and becomes S, H or M with probability |w| / (|w_S| +
 * sum |w_H| + sum |w_M|) with weight sign * that sum: the mean weight is sigma_NLO.
 *   S: the Born point times 1 + (V + I)/B + the K and P endpoints of both legs, plus the K
 *      and P x-integrals of both legs, each sampled with one uniform per leg (x = eta^u,
 *      Jacobian x ln(1/eta)); one channel chosen by |contribution|.
 *   H: a point of the real phase space (m^2 of V by the process's mass model, ln tau'
 *      uniform in [ln tau, 0], the parton-frame rapidity uniform in [ln tau'/2, -ln tau'/2],
 *      the parton's cos theta and phi uniform in the parton frame, the leptons' direction
 *      uniform in V's rest frame): [xf][xf] (R - sum D) Jacobian per channel.
 *   M: the S events' shower starts at the Born's m^2 (t_s) and emits below it with the
 *      density of the dipoles D, so the H events subtract D only there.  Where the parton's
 *      k_T^2 = t u / s_hat (the initial-initial dipoles' evolution variable) lies above t_s,
 *      no S event can emit: the H weight is R alone, and -D goes to an M event at the dipole's
 *      mapped Born kinematics, showered from t_s as S events are (doc/nlo.md 11.8).
 * A weight that is not finite (a parton density of 1e300 or inf in the grid) is passed on,
 * not zeroed: the event's weight is then not finite and the histograms count it as a bad
 * weight (GAPS_FLAG_WEIGHT, exit status 3), as at leading order.  Such an event takes the
 * Born record of its S channel, whose momenta are finite whatever the weights, so that the
 * shower and the event checks see a well-formed record. */
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/mcatnlo.h"
#include "process/pp_h_nlo.h"
#include "process/processes.h"

#include <math.h>
#include <stddef.h>

void gaps_pp_nlo_init(gaps_pp_nlo *nlo, double alphas, int compat)
{
    nlo->on = 1;
    nlo->gaps21 = compat == GAPS_COMPAT_GAPS21;
    nlo->alphas = alphas;
    nlo->lf = 0.0;   /* mu_F = the mass of V */
    nlo->born[0] = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) nlo->born[f] = gaps_pp_z_born(f);
}

void gaps_mcatnlo_init(gaps_mcatnlo *mc, double alphas, int compat)
{
    gaps_pp_nlo_init(&mc->nlo, alphas, compat);
    mc->virtual_i = gaps_pp_z_virtual_i(alphas);
    mc->gluon_legs = 0;
}

void gaps_mcatnlo_set_stable(gaps_mcatnlo *mc, double m2, double y_max, double half_ecm)
{
    mc->uniforms = 10;
    mc->i_s_channel = 1;
    mc->i_legs = 2;
    mc->i_real = 4;
    mc->i_h_channel = 8;
    mc->i_choice = 9;
    mc->decay = 0;
    mc->mass_bw = 0;
    mc->mv2 = m2;
    mc->ln_tau = -2.0 * y_max;
    mc->half_ecm = half_ecm;
    mc->s = 4.0 * half_ecm * half_ecm;
}

void gaps_mcatnlo_set_lepton_pair(gaps_mcatnlo *mc, double mv2, double map_w, double rho_lo,
                                  double rho_hi, double sqrt_s, double s)
{
    mc->uniforms = 16;
    mc->i_legs = 4;
    mc->i_real = 6;
    mc->i_h_channel = 13;
    mc->i_s_channel = 14;
    mc->i_choice = 15;
    mc->decay = 1;
    mc->mass_bw = 1;
    mc->mv2 = mv2;
    mc->map_w = map_w;
    mc->rho_lo = rho_lo;
    mc->rho_hi = rho_hi;
    mc->s = s;
    mc->half_ecm = 0.5 * sqrt_s;
}

GAPS_DEVICE_BEGIN

/* ---- the collinear part of the S weight ---- */

/* The collinear coefficients of one gluon leg at x: the x-integrand (K + P) per unit of the
 * LO density is c0 + c1 rho_g + cq (the sum of rho over the quarks and antiquarks); times the
 * Jacobian jac (pp_h_nlo.h's K and P terms of a gluon leg). */
static void gluon_leg_coefficients(double as, double lf, double x, double jac, double c[3])
{
    const double k0 = gaps_pp_k_gg_integrand(as, x, 0.0);
    const double k1 = gaps_pp_k_gg_integrand(as, x, 1.0) - k0;
    const double p0 = gaps_pp_p_gg_integrand(as, lf, x, 0.0);
    const double p1 = gaps_pp_p_gg_integrand(as, lf, x, 1.0) - p0;
    c[0] = jac * (k0 + p0);
    c[1] = jac * (k1 + p1);
    c[2] = jac * (gaps_pp_k_qg_integrand(as, x, 1.0) + gaps_pp_p_qg_integrand(as, lf, x, 1.0));
}

/* The collinear coefficients of one quark leg at x: the x-integrand (K + P) per unit of the
 * LO density is c0 + c1 rho_q + cg rho_g; returned times the Jacobian jac. */
static void leg_coefficients(double as, double lf, double x, double jac, double c[3])
{
    const double k0 = gaps_pp_k_qq_integrand(as, x, 0.0);
    const double k1 = gaps_pp_k_qq_integrand(as, x, 1.0) - k0;
    const double p0 = gaps_pp_p_qq_integrand(as, lf, x, 0.0);
    const double p1 = gaps_pp_p_qq_integrand(as, lf, x, 1.0) - p0;
    c[0] = jac * (k0 + p0);
    c[1] = jac * (k1 + p1);
    c[2] = jac * (gaps_pp_k_gq_integrand(as, x, 1.0) + gaps_pp_p_gq_integrand(as, lf, x, 1.0));
}

/* Both legs of an S weight at Born fractions ea, eb: for each leg one uniform u gives x =
 * eta^u (a leg whose x rounds to 1, measure ~1e-16, contributes nothing), the densities g at
 * eta/x (scale^2 muf2), the coefficients c, the density that the other kind of parton feeds
 * into the Born leg (other: the gluon's of a quark leg, the quarks' sum of a gluon leg), and
 * the factor one = 1 + (V + I)/B + the K and P endpoints of both legs.  The densities and the
 * coefficients are made apart, since --vary scales changes the coupling and ln(M^2/mu_F^2) of
 * the coefficients for every variation but the densities only for each new mu_F. */
typedef struct s_legs {
    double ga[GAPS_PDF_NPARTONS], gb[GAPS_PDF_NPARTONS];
    double ca[3], cb[3];
    double other_a, other_b;
    double one;
} s_legs;

/* The density of the other kind of parton at a leg (s_legs.other). */
static double other_partons(const double *g, int gluon_legs)
{
    if (!gluon_legs) return g[6];
    double sum = 0.0;
    for (int i = 0; i < GAPS_PDF_NPARTONS; ++i)
        if (i != 6) sum += g[i];
    return sum;
}

/* The legs' x for the uniforms ua, ub at Born fractions ea, eb (la, lb their logarithms). */
static void s_legs_x(double ea, double eb, double ua, double ub, double *la, double *lb,
                     double *xa, double *xb)
{
    *la = gaps_log(ea);
    *lb = gaps_log(eb);
    *xa = gaps_exp(ua * *la);
    *xb = gaps_exp(ub * *lb);
}

/* The densities of s_legs at mu_F^2 = muf2. */
static void s_legs_densities(const gaps_mcatnlo *mc, const gaps_pdf *pdf, double ea, double eb,
                             double xa, double xb, double muf2, s_legs *L)
{
    /* Each array is written once, by the PDF or by the zeros of a leg that contributes
     * nothing: zeros stored first and then overwritten by the PDF call were read back as
     * zeros by clang 19's NVPTX code (the gluon's entries of the S weight and of the real
     * channels were lost on the GPU; doc/gpu.md, "Toolchain defects"). */
    if (xa < 1.0) gaps_pdf_xfxq2_all(pdf, ea / xa, muf2, L->ga);
    else
        for (int m = 0; m < GAPS_PDF_NPARTONS; ++m) L->ga[m] = 0.0;
    if (xb < 1.0) gaps_pdf_xfxq2_all(pdf, eb / xb, muf2, L->gb);
    else
        for (int m = 0; m < GAPS_PDF_NPARTONS; ++m) L->gb[m] = 0.0;
    L->other_a = other_partons(L->ga, mc->gluon_legs);
    L->other_b = other_partons(L->gb, mc->gluon_legs);
}

/* The coefficients and endpoints of s_legs for coupling as, lf = ln(M^2 / mu_F^2) and
 * (V + I)/B = vi. */
static void s_legs_coefficients(const gaps_mcatnlo *mc, double as, double lf, double vi,
                                double ea, double eb, double la, double lb, double xa,
                                double xb, s_legs *L)
{
    if (xa < 1.0) {
        if (mc->gluon_legs) gluon_leg_coefficients(as, lf, xa, -xa * la, L->ca);
        else leg_coefficients(as, lf, xa, -xa * la, L->ca);
    } else {
        for (int m = 0; m < 3; ++m) L->ca[m] = 0.0;
    }
    if (xb < 1.0) {
        if (mc->gluon_legs) gluon_leg_coefficients(as, lf, xb, -xb * lb, L->cb);
        else leg_coefficients(as, lf, xb, -xb * lb, L->cb);
    } else {
        for (int m = 0; m < 3; ++m) L->cb[m] = 0.0;
    }
    if (mc->gluon_legs)
        L->one = 1.0 + vi
                 + gaps_pp_k_gg_endpoint(as, ea) + gaps_pp_k_gg_endpoint(as, eb)
                 + gaps_pp_p_gg_endpoint(as, lf, ea) + gaps_pp_p_gg_endpoint(as, lf, eb);
    else
        L->one = 1.0 + vi
                 + gaps_pp_k_qq_endpoint(as, ea, mc->nlo.gaps21)
                 + gaps_pp_k_qq_endpoint(as, eb, mc->nlo.gaps21)
                 + gaps_pp_p_qq_endpoint(as, lf, ea)
                 + gaps_pp_p_qq_endpoint(as, lf, eb);
}

static void s_legs_make(const gaps_mcatnlo *mc, const gaps_pdf *pdf, double ea, double eb,
                        double ua, double ub, double muf2, s_legs *L)
{
    double la, lb, xa, xb;
    s_legs_x(ea, eb, ua, ub, &la, &lb, &xa, &xb);
    s_legs_densities(mc, pdf, ea, eb, xa, xb, muf2, L);
    s_legs_coefficients(mc, mc->nlo.alphas, mc->nlo.lf, mc->virtual_i, ea, eb, la, lb, xa, xb,
                        L);
}

/* The S bracket of the channel with partons ia (+z), ib (-z) per unit of its Born factor:
 * F_a F_b one + the x-integrals of both legs (fa, fb the [xf] at the Born fractions; the legs
 * of one process are all quarks or all gluons, s_legs_make's). */
static double s_bracket(const s_legs *L, const double *fa, const double *fb, int ia, int ib)
{
    const double lo = fa[ia] * fb[ib];
    const double leg_a = fb[ib] * (L->ca[0] * fa[ia] + L->ca[1] * L->ga[ia] + L->ca[2] * L->other_a);
    const double leg_b = fa[ia] * (L->cb[0] * fb[ib] + L->cb[1] * L->gb[ib] + L->cb[2] * L->other_b);
    return lo * L->one + leg_a + leg_b;
}

/* ---- the records ---- */

/* Rows 0 and 1 of a Born record with partons ia (+z, fraction x1) and ib (-z, x2), as the
 * leading-order records have them: two gluons along +z and -z, colours (1, 2) and (2, 1); or
 * the quark in row 0 and the antiquark in row 1 (a colour singlet q qbar').  Returns the next
 * colour tag. */
static int born_rows(double half_ecm, int ia, int ib, double x1, double x2, gaps_hard_event *ev)
{
    for (int r = 0; r < GAPS_HARD_MAX; ++r) ev->col[r] = ev->acol[r] = 0;
    if (ia == 6 && ib == 6) {
        ev->p[0][0] = x1 * half_ecm;
        ev->p[0][1] = ev->p[0][2] = 0.0;
        ev->p[0][3] = ev->p[0][0];
        ev->p[1][0] = x2 * half_ecm;
        ev->p[1][1] = ev->p[1][2] = 0.0;
        ev->p[1][3] = -ev->p[1][0];
        ev->flav[0] = ev->flav[1] = GAPS_GLUON;
        ev->col[0] = ev->acol[1] = 1;
        ev->acol[0] = ev->col[1] = 2;
        ev->x[0] = x1;
        ev->x[1] = x2;
        ev->n_in = 2;
        return 3;
    }
    const int quark_minus_z = ia < 6;
    const int q = quark_minus_z ? ib : ia, qb = quark_minus_z ? ia : ib;
    gaps_pp_born_incoming(half_ecm, q - 6, 6 - qb, quark_minus_z, x1, x2, ev);
    return 2;
}

/* Three times the electric charge of a parton (PDG code): u, c +2, d, s, b -1, a gluon 0. */
static int quark_charge3(int pdg)
{
    if (pdg == GAPS_GLUON) return 0;
    const int up = (pdg > 0 ? pdg : -pdg) % 2 == 0;
    const int q3 = up ? 2 : -1;
    return pdg > 0 ? q3 : -q3;
}

/* Rows after the incoming ones of a record whose partons are rows 0, 1 (and the parton in
 * row `parton`, or -1): V as the rest of the momentum, or the leptons: row 2 momentum l,
 * row 3 l2 or (l2 NULL) the rest; their flavours from the Born point's, conjugated where the
 * incoming partons' charge minus the outgoing parton's is negative (a W-). */
static void colourless_rows(const gaps_nlo_born *b, const double *l, const double *l2,
                            int parton, gaps_hard_event *ev)
{
    int charge3 = 0;   /* three times the charge */
    for (int r = 0; r < 2; ++r) charge3 += quark_charge3(ev->flav[r]);
    if (parton >= 0) charge3 -= quark_charge3(ev->flav[parton]);
    const int sign = charge3 < 0 ? -1 : 1;
    if (b->n_out == 1) {
        for (int m = 0; m < 4; ++m) {
            ev->p[2][m] = ev->p[0][m] + ev->p[1][m];
            if (parton >= 0) ev->p[2][m] -= ev->p[parton][m];
        }
    } else {
        for (int m = 0; m < 4; ++m) {
            ev->p[2][m] = l[m];
            if (l2) {
                ev->p[3][m] = l2[m];
            } else {
                ev->p[3][m] = ev->p[0][m] + ev->p[1][m];
                if (parton >= 0) ev->p[3][m] -= ev->p[parton][m];
                ev->p[3][m] -= ev->p[2][m];
            }
        }
    }
    for (int r = 0; r < b->n_out; ++r) ev->flav[2 + r] = sign * b->flav_out[r];
}

/* p boosted along z from the parton frame (rapidity yh: e1 = e^yh) to the lab */
static void boost_z(double e1, const double p[4], double out[4])
{
    const double cy = 0.5 * (e1 + 1.0 / e1), sy = 0.5 * (e1 - 1.0 / e1);
    out[0] = cy * p[0] + sy * p[3];
    out[1] = p[1];
    out[2] = p[2];
    out[3] = sy * p[0] + cy * p[3];
}

/* p boosted from the rest frame of V (mass m) to the frame in which V has its momentum */
static void boost_from_rest(const double V[4], double m, const double p[4], double out[4])
{
    const double vp = V[1] * p[1] + V[2] * p[2] + V[3] * p[3];
    const double f = vp / (m * (V[0] + m)) + p[0] / m;
    out[0] = (V[0] * p[0] + vp) / m;
    for (int i = 1; i < 4; ++i) out[i] = p[i] + f * V[i];
}

int gaps_nlo_h_partons_qq(int type, int fq, int fqb, int out, gaps_hard_event *ev)
{
    /* colours (physical for the incoming partons, as in the Born records): tags 1 and 2 */
    switch (type) {
    case 0:   /* q qbar' -> V g: q (1, 0), qbar' (0, 2), g (1, 2) */
    case 1:   /* qbar' q -> V g */
        ev->flav[type] = fq;
        ev->col[type] = 1;
        ev->flav[1 - type] = -fqb;
        ev->acol[1 - type] = 2;
        ev->flav[out] = GAPS_GLUON;
        ev->col[out] = 1;
        ev->acol[out] = 2;
        break;
    case 2:   /* q g -> V q': q (1, 0), g (2, 1), q' out (2, 0): the gluon's colour goes on */
    case 4: { /* g q -> V q' */
        const int q = type == 2 ? 0 : 1;
        ev->flav[q] = fq;
        ev->col[q] = 1;
        ev->flav[1 - q] = GAPS_GLUON;
        ev->col[1 - q] = 2;
        ev->acol[1 - q] = 1;
        ev->flav[out] = fqb;
        ev->col[out] = 2;
        break;
    }
    default: { /* 3: qbar' g -> V qbar, 5: g qbar' -> V qbar: qbar' (0, 1), g (1, 2), qbar out (0, 2) */
        const int q = type == 3 ? 0 : 1;
        ev->flav[q] = -fqb;
        ev->acol[q] = 1;
        ev->flav[1 - q] = GAPS_GLUON;
        ev->col[1 - q] = 1;
        ev->acol[1 - q] = 2;
        ev->flav[out] = -fq;
        ev->acol[out] = 2;
        break;
    }
    }
    return 3;
}

/* ---- the dispatch to the process's functions (a switch on the run-uniform id) ---- */

#define NLO_CASE_NONE(ID, call)
#define NLO_CASE_OWN(ID, call)
#define NLO_CASE_MCATNLO(ID, call) case GAPS_PROCESS_##ID: call; break;
#define NLO_DISPATCH(call_of_name)                                                             \
    switch (proc->id) {                                                                        \
        GAPS_PROCESSES(NLO_CASE_)                                                              \
    default: break;                                                                            \
    }

static void nlo_born(const gaps_process *proc, const double *u, gaps_nlo_born *b)
{
#define NLO_CASE_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf, analysis,       \
                  rows_lo, rows_nlo, nlo, boson, options, source)                                      \
    NLO_CASE_##nlo(ID, gaps_process_##name##_nlo_born(proc, u, b))
    NLO_DISPATCH()
#undef NLO_CASE_
}

static double nlo_s_weight(const gaps_process *proc, const gaps_nlo_born *b, double sum)
{
    double w = 0.0;
#define NLO_CASE_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf, analysis,       \
                  rows_lo, rows_nlo, nlo, boson, options, source)                                      \
    NLO_CASE_##nlo(ID, w = gaps_process_##name##_nlo_s_weight(proc, b, sum))
    NLO_DISPATCH()
#undef NLO_CASE_
    return w;
}

static int nlo_real(const gaps_process *proc, double as, const gaps_nlo_real *r, double *ch,
                    double *cm)
{
    int n = 0;
#define NLO_CASE_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf, analysis,       \
                  rows_lo, rows_nlo, nlo, boson, options, source)                                      \
    NLO_CASE_##nlo(ID, n = gaps_process_##name##_nlo_real(proc, as, r, ch, cm))
    NLO_DISPATCH()
#undef NLO_CASE_
    return n;
}

static int nlo_h_partons(const gaps_process *proc, int k, int out, gaps_hard_event *ev)
{
    int next_tag = 3;
#define NLO_CASE_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf, analysis,       \
                  rows_lo, rows_nlo, nlo, boson, options, source)                                      \
    NLO_CASE_##nlo(ID, next_tag = gaps_process_##name##_nlo_h_partons(proc, k, out, ev))
    NLO_DISPATCH()
#undef NLO_CASE_
    return next_tag;
}

static void nlo_m_born(const gaps_process *proc, int k, int *emitter_a, int *pa, int *pb)
{
    *emitter_a = 1;
    *pa = *pb = 6;
#define NLO_CASE_(ID, name, option, title, beam_a, beam_b, ecm, hadronic, pdf, analysis,       \
                  rows_lo, rows_nlo, nlo, boson, options, source)                                      \
    NLO_CASE_##nlo(ID, gaps_process_##name##_nlo_m_born(proc, k, emitter_a, pa, pb))
    NLO_DISPATCH()
#undef NLO_CASE_
}

/* ---- the real-emission point ---- */

/* The point of the real phase space for the uniforms r (mc's order) and its PDFs. */
static void real_point(const gaps_mcatnlo *mc, const gaps_pdf *pdf, const double *r,
                       gaps_nlo_real *p)
{
    int i = 0;
    double m2 = mc->mv2, jac_m = 1.0, ltau = mc->ln_tau;
    if (mc->mass_bw) {   /* m^2 from the Breit-Wigner map: dm^2 = D / (M Gamma) drho */
        const double rho = mc->rho_lo + (mc->rho_hi - mc->rho_lo) * r[i++];
        double srho, crho;
        gaps_sincos(rho, &srho, &crho);
        m2 = mc->mv2 + mc->map_w * (srho / crho);
        const double dm = m2 - mc->mv2;
        jac_m = (mc->rho_hi - mc->rho_lo) * (dm * dm + mc->map_w * mc->map_w) / mc->map_w;
        ltau = gaps_log(m2 / mc->s);   /* ln tau, tau = m^2 / S */
    }
    const double lt = ltau * r[i++];          /* ln tau' */
    const double yh = -lt * (r[i++] - 0.5);   /* parton-frame rapidity */
    const double sh = gaps_exp(lt) * mc->s, rs = sqrt(sh);
    const double beta = 1.0 - m2 / sh, ek = 0.5 * rs * beta;
    const double rc = r[i++];
    const double omc = 2.0 * (1.0 - rc), opc = 2.0 * rc;   /* 1 - cos theta, 1 + cos theta */
    const double sn = sqrt(omc * opc), c = rc - (1.0 - rc);
    double sphi, cphi;
    gaps_sincos(2.0 * GAPS_PI * r[i++], &sphi, &cphi);
    p->m2 = m2;
    p->sh = sh;
    p->yh = yh;
    p->xi1 = gaps_exp(0.5 * lt + yh);
    p->xi2 = gaps_exp(0.5 * lt - yh);
    const double qa[4] = { 0.5 * rs, 0.0, 0.0, 0.5 * rs }, qb[4] = { 0.5 * rs, 0.0, 0.0, -0.5 * rs };
    const double qk[4] = { ek, ek * sn * cphi, ek * sn * sphi, ek * c };
    for (int m = 0; m < 4; ++m) p->qa[m] = qa[m], p->qb[m] = qb[m], p->qk[m] = qk[m];
    /* dxi1 dxi2 f f = [xf][xf] d ln tau' dy; sigma_hat = (1/(2 s_hat)) (beta/(8 pi)) |M|^2
     * (dPhi_2(V k) = beta/(8 pi) dOmega/(4 pi)); with a decay dPhi_3 = dm^2/(2 pi)
     * dPhi_2(V k) dPhi_2(l l), dPhi_2(l l) = 1/(8 pi) dOmega_l/(4 pi) */
    double jac = jac_m * ltau * lt / (2.0 * sh) * beta / (8.0 * GAPS_PI);
    if (mc->decay) {
        /* the l in V's rest frame: cos theta_l = 2 r - 1, phi_l = 2 pi r' */
        const double rl = r[i++];
        const double cl = rl - (1.0 - rl), sl = sqrt(4.0 * rl * (1.0 - rl));
        double sphl, cphl;
        gaps_sincos(2.0 * GAPS_PI * r[i++], &sphl, &cphl);
        const double m = sqrt(m2);
        const double V[4] = { rs - ek, -qk[1], -qk[2], -qk[3] };
        const double lrest[4] = { 0.5 * m, 0.5 * m * sl * cphl, 0.5 * m * sl * sphl, 0.5 * m * cl };
        boost_from_rest(V, m, lrest, p->ql[0]);
        for (int k = 0; k < 4; ++k) p->ql[1][k] = V[k] - p->ql[0][k];
        jac = jac / (16.0 * GAPS_PI * GAPS_PI);
    }
    p->jac = jac * GAPS_GEV2_TO_PB;
    p->t = -rs * ek * omc;
    p->u = -rs * ek * opc;
    const double t_s = mc->nlo.gaps21 ? mc->s : m2;
    p->above = p->t * p->u / sh > t_s;
    p->inside = p->xi1 < 1.0 && p->xi2 < 1.0 && fabs(p->t) >= GAPS_PP_NLO_MIN_TU * sh
                && fabs(p->u) >= GAPS_PP_NLO_MIN_TU * sh;
    if (p->inside) {   /* written once (s_legs_make says why) */
        gaps_pdf_xfxq2_all(pdf, p->xi1, m2, p->f1);   /* mu_F = m */
        gaps_pdf_xfxq2_all(pdf, p->xi2, m2, p->f2);
    } else {
        for (int m = 0; m < GAPS_PDF_NPARTONS; ++m) p->f1[m] = p->f2[m] = 0.0;
    }
}

/* ---- --vary scales (doc/physics.md 17.6) ---- */

/* An event is S channel ks, H channel kh or M entry km, chosen with probability |its
 * contribution c| / total, and weighs sign(c) total; the same event weighs sign(c) total c'/c
 * for the contributions c' at varied scales, whose mean is the varied cross section.  So each
 * variation's weight over the nominal one is c'/c of the chosen contribution (0 where c = 0,
 * which is chosen only when every contribution is 0).  mu_R is fixed, mu_F the mass of V
 * (kF^2 mu_F^2 the varied one); with the Born's coupling alpha_s^n:
 *   S: the Born factor takes (a'/a)^n, the S bracket is made again from the densities at the
 *      varied mu_F, the coupling a' and lf' = lf - ln kF^2 in the K and P terms, and
 *      (V + I)/B at a', which for mu_R = kR mu_R0 also gains n (a'/2 pi) (beta_0/2) ln kR^2,
 *      the term that keeps a'^n (1 + ...) equal to a^n (1 + ...) to this order;
 *   H, M: a weight [xf](xi_1) [xf](xi_2) times a real matrix element or a dipole, both
 *      proportional to alpha_s^(n+1): (a'/a)^(n+1) times the ratio of the densities. */
#define SCALES_HALF_BETA0 ((11.0 * GAPS_CA - 4.0 * GAPS_TR * GAPS_N_FLAVOURS) / 6.0)

/* The index of parton pdg in the arrays of gaps_pdf_xfxq2_all (6 the gluon). */
static int pdf_index(int pdg)
{
    return pdg == GAPS_GLUON ? 6 : 6 + pdg;
}

static double power_of(double a, int n)
{
    double r = 1.0;
    for (int k = 0; k < n; ++k) r *= a;
    return r;
}

/* S channel (ia, ib) with nominal contribution cs (the Born factor's ratio apart) */
static void scales_s(const gaps_process *proc, const gaps_mcatnlo *mc, const double *u,
                     const gaps_nlo_born *b, const s_legs *legs, int ia, int ib, double cs,
                     gaps_hard_event *ev)
{
    const gaps_scale_vary *sv = &proc->scales;
    double la, lb, xa, xb;
    s_legs_x(b->ea, b->eb, u[mc->i_legs], u[mc->i_legs + 1], &la, &lb, &xa, &xb);
    /* each chain of one (kF, densities) makes its densities once */
    for (int v = 0; v < sv->n; ++v) {
        if (!sv->first[v]) continue;
        const double kf2 = sv->kf2[v];
        s_legs L = *legs;
        double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
        if (kf2 == 1.0 && !sv->pdf[v]) {
            for (int m = 0; m < GAPS_PDF_NPARTONS; ++m) fa[m] = b->fa[m], fb[m] = b->fb[m];
        } else {
            const gaps_pdf *pdf = sv->pdf[v] ? sv->pdf[v] : proc->pdf;
            const double q2 = kf2 * b->m2;
            s_legs_densities(mc, pdf, b->ea, b->eb, xa, xb, q2, &L);
            gaps_pdf_xfxq2_all(pdf, b->ea, q2, fa);
            gaps_pdf_xfxq2_all(pdf, b->eb, q2, fb);
        }
        for (int w = v; w >= 0; w = sv->next_same[w]) {
            const double av = sv->alphas[w];
            const double vi = mc->virtual_i * sv->as_ratio[w]
                              + proc->born_alphas_power * av / (2.0 * GAPS_PI)
                                    * SCALES_HALF_BETA0 * sv->lkr2[w];
            s_legs_coefficients(mc, av, mc->nlo.lf - gaps_log(kf2), vi, b->ea, b->eb, la, lb,
                                xa, xb, &L);
            const double c = power_of(sv->as_ratio[w], proc->born_alphas_power)
                             * s_bracket(&L, fa, fb, ia, ib);
            gaps_hard_vary_set(ev, w, cs != 0.0 ? c / cs : 0.0);
        }
    }
}

/* H channel or M entry with incoming partons pa (+z), pb (-z) (PDG codes) at the real point */
static void scales_real(const gaps_process *proc, const gaps_nlo_real *r, int pa, int pb,
                        gaps_hard_event *ev)
{
    gaps_scales_luminosity(proc, pa, pb, r->xi1, r->xi2, r->m2,
                           r->f1[pdf_index(pa)] * r->f2[pdf_index(pb)],
                           proc->born_alphas_power + 1, ev);
}

/* ---- the event ---- */

void gaps_mcatnlo_generate(const gaps_process *proc, const gaps_mcatnlo *mc, gaps_rng *rng,
                           gaps_hard_event *ev)
{
    double u[GAPS_NLO_MAX_UNIFORMS];
    for (int i = 0; i + 1 < mc->uniforms; i += 2) gaps_rng_uniform2(rng, &u[i], &u[i + 1]);
    const gaps_pp_nlo *nlo = &mc->nlo;
    const double big_s = mc->s;

    /* ---- S: the Born point and both legs' collinear terms ---- */
    gaps_nlo_born b;
    nlo_born(proc, u, &b);
    s_legs legs;
    s_legs_make(mc, proc->pdf, b.ea, b.eb, u[mc->i_legs], u[mc->i_legs + 1], b.m2, &legs);
    double cs[GAPS_NLO_MAX_BORN];
    for (int k = 0; k < b.channels; ++k)
        cs[k] = b.factor[k] * s_bracket(&legs, b.fa, b.fb, b.pa[k], b.pb[k]);
    double sum_s, sign_s;
    const int ks = gaps_choose_channel(cs, b.channels, u[mc->i_s_channel], &sum_s, &sign_s);
    const double w_s = nlo_s_weight(proc, &b, sum_s);   /* |S weight| */

    /* ---- H and M: a point of the real phase space ---- */
    gaps_nlo_real r;
    real_point(mc, proc->pdf, u + mc->i_real, &r);
    double ch[GAPS_NLO_MAX_REAL], cm[2 * GAPS_NLO_MAX_REAL];
    double sum_h = 0.0, sign_h = 1.0, sum_m = 0.0, sign_m = 1.0;
    int kh = 0, km = 0;
    if (r.inside) {
        const int n = nlo_real(proc, nlo->alphas, &r, ch, cm);
        kh = gaps_choose_channel(ch, n, u[mc->i_h_channel], &sum_h, &sign_h);
        if (r.above) km = gaps_choose_channel(cm, 2 * n, u[mc->i_h_channel], &sum_m, &sign_m);
    }

    /* ---- S, H or M by |weight| ---- */
    const double rsh = u[mc->i_choice];
    const double total = w_s + sum_h + sum_m;
    const int finite = isfinite(total);
    const int hard = finite && rsh * total < sum_h;
    const int mapped = finite && !hard && rsh * total < sum_h + sum_m;
    ev->weight = (hard ? sign_h : mapped ? sign_m : sign_s) * total;
    ev->n_in = 2;
    ev->n = 2 + b.n_out;
    const double t_s = nlo->gaps21 ? big_s : r.m2;   /* an M event's Born has the real m^2 */
    if (mapped) {
        /* the Born of dipole j of the chosen entry: the emitter leg's fraction x xi, V (or
         * the leptons) after the initial-initial map */
        int emitter_a, pa, pb;
        nlo_m_born(proc, km, &emitter_a, &pa, &pb);
        double x, v, at[4], bt[4], lm[4];
        if (b.n_out == 2) {
            gaps_ii_map_32(emitter_a ? r.qa : r.qb, emitter_a ? r.qb : r.qa, r.qk, &x, &v, at,
                           bt, r.ql[0], lm);
        } else {
            x = r.m2 / r.sh;   /* the initial-initial map's x of either emitter */
        }
        if (proc->scales.n) {   /* the real channel's partons, in a record of its own */
            gaps_hard_event h;
            nlo_h_partons(proc, km / 2, 2 + b.n_out, &h);
            scales_real(proc, &r, h.flav[0], h.flav[1], ev);
        }
        ev->next_tag = born_rows(mc->half_ecm, pa, pb, emitter_a ? x * r.xi1 : r.xi1,
                                 emitter_a ? r.xi2 : x * r.xi2, ev);
        double l[4] = { 0.0, 0.0, 0.0, 0.0 };
        if (b.n_out == 2) boost_z(gaps_exp(r.yh), lm, l);
        colourless_rows(&b, l, NULL, -1, ev);
        ev->t_start = t_s;
        return;
    }
    if (!hard) {
        if (proc->scales.n)
            scales_s(proc, mc, u, &b, &legs, b.pa[ks], b.pb[ks],
                     s_bracket(&legs, b.fa, b.fb, b.pa[ks], b.pb[ks]), ev);
        ev->next_tag = born_rows(mc->half_ecm, b.pa[ks], b.pb[ks], b.ea, b.eb, ev);
        colourless_rows(&b, b.p_out[0], b.p_out[1], -1, ev);
        ev->t_start = nlo->gaps21 ? big_s : b.m2;
        return;
    }

    /* H event: rows 0 (along +z, x = xi1) and 1 (along -z, x = xi2), the colourless rows,
     * the parton last; the parton and the lepton boosted from the parton frame by yh */
    const int out = 2 + b.n_out;
    for (int k = 0; k < GAPS_HARD_MAX; ++k) ev->col[k] = ev->acol[k] = 0;
    ev->p[0][0] = r.xi1 * mc->half_ecm;
    ev->p[0][1] = ev->p[0][2] = 0.0;
    ev->p[0][3] = ev->p[0][0];
    ev->p[1][0] = r.xi2 * mc->half_ecm;
    ev->p[1][1] = ev->p[1][2] = 0.0;
    ev->p[1][3] = -ev->p[1][0];
    const double e1 = gaps_exp(r.yh);
    boost_z(e1, r.qk, ev->p[out]);
    double l[4] = { 0.0, 0.0, 0.0, 0.0 };
    if (b.n_out == 2) boost_z(e1, r.ql[0], l);
    ev->x[0] = r.xi1;
    ev->x[1] = r.xi2;
    ev->next_tag = nlo_h_partons(proc, kh, out, ev);
    if (proc->scales.n) scales_real(proc, &r, ev->flav[0], ev->flav[1], ev);
    colourless_rows(&b, l, NULL, out, ev);
    ev->n = out + 1;
    /* the emission's k_T^2 = t u / s_hat (the parton's transverse momentum squared); GAPS 2.1
     * (--compat gaps21): the power shower from the hadronic s */
    ev->t_start = nlo->gaps21 ? big_s : r.t * r.u / r.sh;
}

GAPS_DEVICE_END
