/* test_pp_w_nlo.c -- p p -> W -> e nu at NLO (--process pp-w --nlo 1: the hooks at the end of
 * src/process/pp_w.c for the MC@NLO builder src/process/mcatnlo.c) against an independent
 * integration of the textbook NLO Drell-Yan cross section (issue 29 item 5; doc/nlo.md
 * section 12.9 "p p -> W -> l nu at NLO").
 *
 * 1. sigma_NLO by quadrature, written from the textbook and sharing with the generator only
 *    the PDF reader and the run's coupling alpha_s(M_W^2) (gaps/alphas.h, as
 *    gaps_physics_setup obtains it for gaps_process_set_nlo):
 *    W+ and W- (e nu_e), 13 TeV, CT14lo, m = m_(l nu) in M_W -+ 20 Gamma_W, fixed-width
 *    Breit-Wigner, CKM, mu_F = m, mu_R = M_W, MSbar, five massless flavours.  With
 *    tau = m^2 / S, z = m^2 / s_hat and the parton luminosities at mu_F^2 = m^2
 *      Lum_ij(tau') = integral dy [x f_i](sqrt(tau') e^y) [x f_j](sqrt(tau') e^-y),
 *    the lepton-angle-integrated cross section is (Altarelli, Ellis, Martinelli, Nucl. Phys.
 *    B157 (1979) 461, MSbar; Ellis, Stirling, Webber, "QCD and collider physics", chapter 9;
 *    Hamberg, van Neerven, Matsuura, Nucl. Phys. B359 (1991) 343, whose Delta^(1) in units of
 *    alpha_s/(4 pi) is twice the Delta below, written with 8 [ln(1-z)/(1-z)]_+ - 4 (1 + z) ln(1-z)
 *    for 4 (1 + z^2) [ln(1-z)/(1-z)]_+ and 4 zeta_2 = 2 pi^2/3)
 *      d sigma / dm^2 = sigma_B(m^2) / m^2 * sum_channels integral_tau^1 dz Lum(tau/z)
 *                       [delta(1 - z) + a Delta(z)],   a = alpha_s(M_W^2) / (2 pi),
 *      Delta_qqbar'(z) = C_F { 4 (1 + z^2) [ln(1 - z)/(1 - z)]_+ - 2 (1 + z^2)/(1 - z) ln z
 *                              + delta(1 - z) (2 pi^2/3 - 8) },
 *      Delta_qg(z)     = T_R { [z^2 + (1 - z)^2] ln((1 - z)^2 / z) + 1/2 + 3 z - 7 z^2 / 2 },
 *    (the plus distribution acts on ln(1 - z)/(1 - z) alone, (1 + z^2) multiplies it; no
 *    ln(m^2/mu_F^2) terms at mu_F = m, and mu_R enters only through alpha_s since the Born
 *    has no alpha_s).  The coefficient functions are those of a vector or an axial current
 *    alike (massless quarks) and hold for the cross section integrated over the lepton
 *    angles, which is what the generator's total is.  The W Born (test_pp_w.c):
 *      sigma_B(q qbar' -> W -> e nu) = |V_qq'|^2 g^4 m^2 / (192 pi N_c D),
 *      g^2 = 4 pi alpha / sin^2 theta_W,  D = (m^2 - M_W^2)^2 + M_W^2 Gamma_W^2,
 *    and the q g channel of quark (antiquark) i takes sum over its W partners j of |V_ij|^2.
 *    With the plus distribution written out on [tau, 1],
 *      integral_tau^1 dz [ln(1-z)/(1-z)]_+ h(z) = integral_tau^1 dz ln(1-z)/(1-z) (h(z) - h(1))
 *                                                 + (1/2) ln^2(1 - tau) h(1),
 *    the qqbar' part per unit of sigma_B / m^2 is
 *      Lum(tau) [1 + a C_F (2 pi^2/3 - 8 + 4 ln^2(1 - tau))]
 *      + a C_F integral_tau^1 dz { 4 ln(1-z)/(1-z) [(1 + z^2) Lum(tau/z) - 2 Lum(tau)]
 *                                  - 2 (1 + z^2) ln z/(1 - z) Lum(tau/z) }.
 *    Integration: Lum(tau') exactly (the 4-point Gauss-Legendre rule between the u = y/y_max at
 *    which x_1 or x_2 crosses a knot of the PDF grid, where the interpolated PDFs are cubics in
 *    ln x; checked against kronrod.h's adaptive integrate()); the z-integral (z = tau^(v^4))
 *    and the mass integral (m^2 = M_W^2 + M_W Gamma_W tan t, which makes sigma_B dm^2 / m^2
 *    flat; split at the grid's Q^2 knots, where the PDFs are only C^1 in Q^2) by kronrod.h's
 *    adaptive Gauss-Kronrod 7-15, W+ and W-, q qbar' and q g at once.  The result does not
 *    move (to 1e-4 pb) with tolerances 1000 times tighter.  The same code with the Z's
 *    couplings, a delta function in m^2 at M_Z, mu_F = M_Z and alpha_s = 0.118 must give
 *    pp-z's on-shell 47937.96 pb (doc/nlo.md 11.7, from the generator's Catani-Seymour
 *    pieces) and its LO 43142.28 pb.
 * 2. N hard events of pp-w at NLO (gaps_process_generate(), no shower), the process set up as
 *    a run sets it up: every record (momentum conserved to 1e-9 sqrt(s); incoming partons
 *    along +-z, head on, E = x sqrt(s)/2; leptons massless, m_(l nu) in the window; colour
 *    tags once as crossed colour and once as crossed anticolour; quark number and charge
 *    conserved: the incoming partons' charge minus the outgoing parton's is +1 with e+ nu_e,
 *    -1 with e- nu_e~; t_start m^2 (S, M) or the parton's p_T^2 (H)); the mean weight (all,
 *    W+, W-) over the quadrature within 4 standard errors of 1; every H channel type (q qbar',
 *    qbar' q, q g, qbar' g, g q, g qbar') of both charges and the Cabibbo pairs (u sbar,
 *    s ubar, c dbar, d cbar) occur.
 * 3. The real matrix elements the W takes from pp-ll (gaps_pp_ll_qqbar_subtracted,
 *    gaps_pp_ll_qg_subtracted with Q = 0, the fermion in the l- and the antifermion in the l+
 *    argument, as gaps_process_pp_w_nlo_real calls them): (a) equal to the V-A formula
 *      |M|^2(u(pa) dbar(pb) -> e+(l+) nu(l) g(k))
 *        = 2 pi alpha_s C_F m^2 g^4 |V_ud|^2 [(pb.l)^2 + (pa.l+)^2] / (N_c D (pa.k)(pb.k))
 *    (spin- and colour-averaged; the Born is g^4 |V|^2 (pa.l+)(pb.l) / (N_c D)), which this
 *    test derives from explicit Dirac traces of the two diagrams (4x4 gamma matrices, the
 *    gluon's polarisations summed with -g), and the q g, qbar' g reals against the crossed
 *    traces; (b) (R - sum D)/R -> 0 at least like the approach parameter towards the soft and
 *    both collinear limits, for every channel type of W+ and W-.
 * --w-charge plus and minus alone (gaps_process_init_with): N/4 hard events each, every record
 * of that charge, sigma_NLO against the quadrature's W+ and W- (4 standard errors); in 3, the
 * real channels' H and M weights of one charge alone are the default's bit for bit, the other
 * charge's 0.
 * Scale variations (issue 31 item 4: the generator's --vary scales weights against an
 * independent fixed-order integration of the same scale choices).  --scales prints, for pp-z
 * (on shell, as in 1) and pp-w (W+ + W-, the default --process pp-w), sigma_LO and sigma_NLO at
 * the seven points (k_R, k_F) = (1, 1), (1/2, 1/2), (1/2, 1), (1, 1/2), (1, 2), (2, 1), (2, 2),
 * mu_R = k_R mu_R0, mu_F = k_F mu_F0 (pp-z: mu_R0 = mu_F0 = M_Z; pp-w: mu_R0 = M_W, mu_F0 =
 * m_(l nu) point by point), one line each:  SCALES <process> <lo|nlo> <k_R> <k_F> <sigma, pb>.
 * alpha_s((k_R mu_R0)^2) is the run's coupling as in 1 (gaps/alphas.h, two loops from 0.118,
 * which gives exactly 0.118 at M_Z^2), the PDFs are at (k_F mu_F0)^2.  At LO only the PDFs'
 * scale moves.  At NLO the MSbar coefficient functions gain the collinear counterterms' logs,
 *   Delta_qqbar'(z) += 2 P_qq(z) ln(m^2/mu_F^2),   Delta_qg(z) += P_qg(z) ln(m^2/mu_F^2),
 *   P_qq(z) = C_F [(1 + z^2)/(1 - z)]_+ = C_F [(1 + z^2)/(1 - z)_+ + (3/2) delta(1 - z)],
 *   P_qg(z) = T_R [z^2 + (1 - z)^2]
 * (ESW chapter 9, whose q g coefficient carries ln((1 - z)^2 Q^2 / (z mu^2)); the ln(Q^2/M^2)
 * terms of Hamberg, van Neerven, Matsuura), and mu_R enters through a = alpha_s(mu_R^2)/(2 pi)
 * alone: the Born has no alpha_s, so there is no ln mu_R term at this order.  The logs'
 * normalisation, derived here: the DGLAP equations of x f, d [x f_i](x)/d ln mu^2 =
 * a sum_j integral_x^1 dz P_ij(z) [x f_j](x/z), give this file's luminosities
 *   d Lum_qq(tau)/d ln mu^2 = a integral_tau^1 dz [2 P_qq(z) Lum_qq(tau/z) + P_qg(z) Lum_qg(tau/z)]
 * (P_qq on each leg of q qbar'; the gluon of either leg splitting into the partner, which is
 * Lum_qg with the couplings cg and both orientations), and the logs above make
 * d sigma_NLO / d ln mu_F^2 = O(alpha_s^2) (--scales-check (c) measures it).  On [tau, 1],
 * h(z) = Lum(tau/z) (zero below tau),
 *   integral dz [(1 + z^2)/(1 - z)]_+ h(z) = integral_tau^1 dz [(1 + z^2) h(z) - 2 h(1)]/(1 - z)
 *                                            + h(1) [2 ln(1 - tau) + 3/2],
 * the subtraction the ln(1 - z) term already makes (z_integrand, w_of_m2).  At pp-z's
 * mu_F = k_F M_Z and pp-w's mu_F = k_F m the log is -ln k_F^2.  One quadrature per k_F at the
 * central alpha_s serves its k_R (the corrections are linear in a: times
 * alpha_s((k_R mu_R0)^2)/alpha_s(mu_R0^2), exactly 1 at k_R = 1); the W's mass integral is split
 * where mu_F^2 = k_F^2 m^2 crosses a Q^2 knot; the tolerances are 1's.  Measured (13-16 s on
 * one core of a busy machine; about 2 minutes with --scales-check):
 *   (k_R, k_F)    (1,1)       (.5,.5)     (.5,1)      (1,.5)      (1,2)       (2,1)       (2,2)
 *   pp-z LO     43142.2765  37763.4805  43142.2765  37763.4805  48179.6130  43142.2765  48179.6130
 *   pp-z NLO    47937.9927  47806.6603  48499.1386  46754.6098  48403.6726  47484.9456  48382.5059
 *   pp-w LO     15487.5389  13417.7963  15487.5389  13417.7963  17431.8173  15487.5389  17431.8173
 *   pp-w NLO    17248.6372  17176.3492  17459.3718  16774.6634  17429.3988  17079.2431  17429.6314
 * --scales-check prints the table and checks: (a) (1, 1) is 1's central quadrature to the bit
 * (and was the unmodified program's to 17 digits when this was written: 43142.276532288663,
 * 47937.99269139886, 15487.538852574999, 17248.637169355316 pb); (b) the LO of every point
 * against a direct integration with the PDFs at (k_F mu_F0)^2 (kronrod.h's adaptive integrate()
 * in u and t to 1e-9, not lumi()'s rule): within 5.5e-10; (c) the logs' normalisation: the
 * coefficient of ln(M_Z^2/mu_F^2) in pp-z's corrections at mu_F = M_Z, 3760.03 pb (q qbar
 * -1855.69, q g +5615.72), against d sigma_LO / d ln mu_F^2 of the PDF grid's own evolution,
 * 3760.01 pb (CT14lo evolves at one loop from alpha_s(M_Z) = 0.118: the run's value there);
 * (d) mu_F from M/2 to 2 M at k_R = 1 moves sigma by +24.1 % (pp-z) and +25.9 % (pp-w) at LO,
 * by +3.4 % and +3.8 % at NLO (required: NLO below a quarter of LO); (e) REL_Z and REL_M / 100
 * move the 28 numbers by at most 6e-10 (relative; required < 1e-4).
 * PDF members (--vary pdf's weights against the same integration): --member SPEC prints
 * sigma_LO and sigma_NLO of pp-z and pp-w at (k_R, k_F) = (1, 1) with the set SPEC (NAME/M,
 * looked up in PDFSETS_DIR) instead of CT14lo, one line each:
 * MEMBER <M> <process> <lo|nlo> <sigma, pb>.
 * Usage: test_pp_w_nlo PDFSETS_DIR [N [SEED]]   (N hard events, default 10^6)
 *        test_pp_w_nlo PDFSETS_DIR --scales | --scales-check | --member NAME/M */
#define _POSIX_C_SOURCE 200809L   /* check.h's clock */
#include "gaps/alphas.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/pdf.h"
#include "process/pp_nlo.h"
#include "gaps/process.h"
#include "gaps/rng.h"
#include "process/mcatnlo.h"

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kronrod.h"

/* ---- the physics, written out again ---- */
#define ECM 13000.0
#define MW 80.379
#define GW 2.085
#define M_LO (MW - 20.0 * GW)
#define M_HI (MW + 20.0 * GW)
#define ALPHAS_MZ 0.118          /* the run's default alpha_s(M_Z^2), two-loop running */
#define Z_NLO 47937.96           /* doc/nlo.md 11.7: pp-z on shell, quadrature A */
#define Z_LO 43142.28            /* doc/nlo.md 11.7 (spec 8.2) */
#define W_LO 15487.53884         /* test_pp_w --sigma: the LO quadrature of pp-w */
/* |V| of (up, down): rows u, c; columns d, s, b (PDG 2020) */
static const double CKM[2][3] = { { 0.97370, 0.2245, 0.00382 }, { 0.221, 0.987, 0.0410 } };

/* PDF array index of PDG id f (gluon 0 or 21 at 6) */
#define IX(f) (6 + (f))
#define GLU 6

/* ================================================================================== */
/* 1. The textbook quadrature                                                           */
/* ================================================================================== */

/* The channels of one boson (W+, W- or Z): the q qbar' pairs (PDF index along +z, along -z,
 * coupling) and the q g coupling of each (anti)quark index (the sum over its partners). */
typedef struct channels {
    int npair;
    int pi[40], pj[40];
    double pc[40];
    double cg[13];
} channels;

#define MAX_SETS 2
typedef struct dy_model {
    const gaps_pdf *pdf;
    double s;          /* hadronic s, GeV^2 */
    double a;          /* alpha_s / (2 pi) */
    double kf2;        /* mu_F^2 / m^2 (1: the central mu_F = m; --scales: k_F^2) */
    double lf;         /* ln(m^2 / mu_F^2) = -ln kf2, the collinear counterterms' log */
    int nset;          /* channel sets integrated together (W+ and W-; the Z) */
    channels set[MAX_SETS];
} dy_model;

static void add_pair(channels *c, int i, int j, double w)
{
    c->pi[c->npair] = i;
    c->pj[c->npair] = j;
    c->pc[c->npair] = w;
    ++c->npair;
}

/* The W+ (charge 1) or W- (-1) channels, couplings |V|^2: u dbar' (either orientation), u g
 * -> W+ d', dbar' g -> W+ ubar; d' ubar, d' g, ubar g for the W-. */
static void channels_w(channels *c, int charge)
{
    memset(c, 0, sizeof *c);
    for (int iu = 0; iu < 2; ++iu)
        for (int id = 0; id < 3; ++id) {
            const int u = charge > 0 ? 2 + 2 * iu : -(2 + 2 * iu);
            const int d = charge > 0 ? -(1 + 2 * id) : 1 + 2 * id;
            const double v2 = CKM[iu][id] * CKM[iu][id];
            add_pair(c, IX(u), IX(d), v2);
            add_pair(c, IX(d), IX(u), v2);
            c->cg[IX(u)] += v2;
            c->cg[IX(d)] += v2;
        }
}

/* The Z: couplings v_f^2 + a_f^2, v_f = T3 - 2 Q sin^2 theta_W, a_f = T3. */
static void channels_z(channels *c)
{
    memset(c, 0, sizeof *c);
    for (int f = 1; f <= 5; ++f) {
        const double q = f % 2 == 0 ? 2.0 / 3.0 : -1.0 / 3.0, t3 = f % 2 == 0 ? 0.5 : -0.5;
        const double v = t3 - 2.0 * q * GAPS_SIN2_THETAW, w = v * v + t3 * t3;
        add_pair(c, IX(f), IX(-f), w);
        add_pair(c, IX(-f), IX(f), w);
        c->cg[IX(f)] = c->cg[IX(-f)] = w;
    }
}

/* y_max(tau') times the q qbar' and the q g luminosity densities of every set at u = y/y_max
 * in [-1, 1], the PDFs at mu_F^2 = kf2 m2 (kf2 = 1, exactly m2, but in --scales). */
static void lumi_density(const dy_model *md, double m2, double tp, double u, double *lqq,
                         double *lqg)
{
    const double ymax = -0.5 * log(tp), r = sqrt(tp), muf2 = md->kf2 * m2;
    double f1[13], f2[13];
    gaps_pdf_xfxq2_all(md->pdf, r * exp(u * ymax), muf2, f1);
    gaps_pdf_xfxq2_all(md->pdf, r * exp(-u * ymax), muf2, f2);
    for (int s = 0; s < md->nset; ++s) {
        const channels *c = &md->set[s];
        double q = 0.0, g = 0.0;
        for (int k = 0; k < c->npair; ++k) q += c->pc[k] * f1[c->pi[k]] * f2[c->pj[k]];
        for (int i = 0; i < 13; ++i)
            if (c->cg[i] != 0.0) g += c->cg[i] * (f1[i] * f2[GLU] + f1[GLU] * f2[i]);
        lqq[s] = ymax * q;
        lqg[s] = ymax * g;
    }
}

/* Lum_qq(tau') and Lum_qg(tau') of every set: the u-integrals of lumi_density.  The PDF grid
 * interpolates x f between its knots by cubics in ln x (src/pdf/pdf.c: Hermite cubics in ln x,
 * combined linearly across the Q^2 knots), and ln x_1,2 = ln(tau')/2 +- u y_max are linear in
 * u: between the u at which x_1 or x_2 crosses a knot, +-(ln x_k - ln(tau')/2)/y_max, the
 * integrand is a polynomial of degree 6 in u, which the 4-point Gauss-Legendre rule integrates
 * exactly.  So the u-integral is done piece by piece between those points, exact to rounding
 * (adaptive quadrature spends ~10^5 points per integral resolving the knots' kinks to 1e-9;
 * main() checks this rule against kronrod.h's adaptive integrate() at three tau').  Every set
 * holds both orientations of its channels, so the density is even in u: twice [0, 1]. */
#define MAX_KNOTS 2048
static gl_rule GL4;
static long n_density = 0;   /* lumi_density calls, printed */

static void lumi(const dy_model *md, double m2, double tp, double *lqq, double *lqg)
{
    const gaps_pdf *pdf = md->pdf;
    const double half = 0.5 * log(tp), ymax = -half;
    double up[MAX_KNOTS], dn[MAX_KNOTS], br[2 * MAX_KNOTS + 2];
    int nu = 0, nd = 0;
    /* x_1's knots inside (tau', 1) at u = (ln x_k - ln(tau')/2)/y_max, increasing with k;
     * x_2's at minus that: those in (0, 1) in increasing order */
    for (int k = 0; k < pdf->nx && nu < MAX_KNOTS; ++k)
        if (pdf->lnx[k] > 2.0 * half && pdf->lnx[k] < 0.0) {
            const double u = (pdf->lnx[k] - half) / ymax;
            if (u > 0.0) up[nu++] = u;
            else if (u < 0.0) dn[nd++] = -u;
        }
    int nb = 0, i = nd - 1, j = 0;
    br[nb++] = 0.0;
    while (i >= 0 || j < nu) {
        if (j >= nu || (i >= 0 && dn[i] <= up[j])) br[nb++] = dn[i--];
        else br[nb++] = up[j++];
    }
    br[nb++] = 1.0;
    for (int s = 0; s < md->nset; ++s) lqq[s] = lqg[s] = 0.0;
    for (int b = 0; b + 1 < nb; ++b) {
        const double c = 0.5 * (br[b] + br[b + 1]), h = br[b + 1] - br[b];   /* 2 x half */
        if (!(h > 0.0)) continue;
        for (int k = 0; k < GL4.n; ++k) {
            double dq[MAX_SETS], dg[MAX_SETS];
            lumi_density(md, m2, tp, c + 0.5 * h * GL4.x[k], dq, dg);
            for (int s = 0; s < md->nset; ++s) {
                lqq[s] += h * GL4.w[k] * dq[s];
                lqg[s] += h * GL4.w[k] * dg[s];
            }
        }
        n_density += GL4.n;
    }
}

/* one luminosity by kronrod.h's adaptive integrate(), for the check in main() */
typedef struct dens_ctx { const dy_model *md; double m2, tp; int qg; } dens_ctx;
static double density(double u, void *vp)
{
    const dens_ctx *c = vp;
    double q[MAX_SETS], g[MAX_SETS];
    lumi_density(c->md, c->m2, c->tp, u, q, g);
    return c->qg ? g[0] : q[0];
}

/* kronrod.h's adaptive Gauss-Kronrod 7-15 for several integrands at once (they share the
 * points, hence the PDF calls): the same nodes, weights and bisection, the error the sum over
 * the components of |Kronrod - Gauss|, starting from one 15-point rule. */
#define NV 6
typedef void (*vintegrand)(double x, void *ctx, double *out);

static double gk15v(vintegrand f, void *ctx, int nv, double a, double b, double *res)
{
    const double c = 0.5 * (a + b), h = 0.5 * (b - a);
    double fc[NV], f1[NV], f2[NV], rk[NV], rg[NV];
    f(c, ctx, fc);
    for (int v = 0; v < nv; ++v) rk[v] = fc[v] * wgk[7], rg[v] = fc[v] * wg[3];
    for (int j = 0; j < 7; ++j) {
        const double dx = h * xgk[j];
        f(c - dx, ctx, f1);
        f(c + dx, ctx, f2);
        for (int v = 0; v < nv; ++v) {
            rk[v] += wgk[j] * (f1[v] + f2[v]);
            if (j % 2 == 1) rg[v] += wg[j / 2] * (f1[v] + f2[v]);
        }
    }
    double err = 0.0;
    for (int v = 0; v < nv; ++v) {
        res[v] = rk[v] * h;
        err += fabs((rk[v] - rg[v]) * h);
    }
    return err;
}

static void adaptv(vintegrand f, void *ctx, int nv, double a, double b, const double *whole,
                   double err, double tol, int depth, double *out)
{
    if (err <= tol || depth >= 40) {
        for (int v = 0; v < nv; ++v) out[v] += whole[v];
        return;
    }
    const double m = 0.5 * (a + b);
    double l[NV], r[NV];
    const double el = gk15v(f, ctx, nv, a, m, l), er = gk15v(f, ctx, nv, m, b, r);
    adaptv(f, ctx, nv, a, m, l, el, 0.5 * tol, depth + 1, out);
    adaptv(f, ctx, nv, m, b, r, er, 0.5 * tol, depth + 1, out);
}

/* the integrals over [a, b] to rel times the sum of the components' first estimates */
static void integrate_v(vintegrand f, void *ctx, int nv, double a, double b, double rel,
                        double *out)
{
    double v0[NV];
    const double e = gk15v(f, ctx, nv, a, b, v0);
    double scale = 0.0;
    for (int v = 0; v < nv; ++v) scale += fabs(v0[v]), out[v] = 0.0;
    adaptv(f, ctx, nv, a, b, v0, e, rel * scale, 0, out);
}

/* Tolerances: the z-integral to REL_Z of the corrections, the mass integral to REL_M of LO
 * plus corrections (variables: --scales-check divides both by 100). */
static double REL_Z = 1e-5;
static double REL_M = 1e-5;
/* z = tau^(v^4), v in [0, 1]: near z = 1, 1 - z ~ v^4 ln(1/tau) (the plus distribution's
 * log becomes v^3 ln v), towards z = tau logarithmic in z (where Lum(tau/z) falls to 0 at
 * tau/z = 1); 1 - z below V_MIN^4 ln(1/tau) ~ 1e-11 is left out: it holds ~1e-8 of the
 * correction. */
#define V_MIN 1e-3

typedef struct dy_point {
    const dy_model *md;
    double m2, tau;
    double born[MAX_SETS];   /* Lum_qq(tau) */
} dy_point;

/* The corrections' z-integrands (without a) over v, per set: q qbar' and q g.  The
 * subtraction (1 + z^2) Lum(tau/z) - 2 Lum(tau) of two luminosities exact to rounding keeps
 * ~15 + log10(1 - z) digits.  Away from mu_F = m (--scales) the same subtraction carries the
 * regular part of 2 P_qq(z) ln(m^2/mu_F^2) (header, "Scale variations"), finite at z = 1, and
 * the q g term gains P_qg(z) ln(m^2/mu_F^2); at mu_F = m, lf = 0 adds exact zeros, so the
 * central integration is the same to the bit. */
static void z_integrand(double v, void *vp, double *out)
{
    const dy_point *p = vp;
    const dy_model *md = p->md;
    for (int i = 0; i < 2 * md->nset; ++i) out[i] = 0.0;
    if (v < V_MIN) return;
    const double v3 = v * v * v, lt = log(p->tau), omz = -expm1(v3 * v * lt), z = 1.0 - omz;
    if (!(z > p->tau)) return;
    const double jac = -4.0 * v3 * lt * z;
    double q1[MAX_SETS], g1[MAX_SETS];
    lumi(md, p->m2, p->tau / z, q1, g1);
    const double lo = log(omz), lz = log1p(-omz), z2 = z * z;
    const double pqg = (z2 + omz * omz) * log(omz * omz / z) + 0.5 + 3.0 * z - 3.5 * z2;
    for (int s = 0; s < md->nset; ++s) {
        const double sub = (1.0 + z2) * q1[s] - 2.0 * p->born[s];
        out[2 * s] = jac * GAPS_CF * (4.0 * lo / omz * sub - 2.0 * (1.0 + z2) * lz / omz * q1[s]
                                      + 2.0 * md->lf * sub / omz);
        out[2 * s + 1] = jac * GAPS_TR * (pqg + md->lf * (z2 + omz * omz)) * g1[s];
    }
}

/* Per set: [LO, q qbar' correction, q g correction] of sum_channels integral dz Lum(tau/z)
 * [delta(1 - z) + a Delta(z)] at m^2, the delta(1 - z) and plus-distribution endpoint terms
 * in the q qbar' correction. */
static void w_of_m2(const dy_model *md, double m2, double *out)
{
    dy_point p = { md, m2, m2 / md->s, { 0.0 } };
    double g[MAX_SETS], corr[2 * MAX_SETS];
    lumi(md, m2, p.tau, p.born, g);
    integrate_v(z_integrand, &p, 2 * md->nset, 0.0, 1.0, REL_Z, corr);
    const double l = log1p(-p.tau);
    /* the delta(1 - z) and the plus distributions' integrals over [0, tau]: of
     * 4 [ln(1-z)/(1-z)]_+ (1 + z^2) and, away from mu_F = m, of 2 P_qq(z) ln(m^2/mu_F^2) =
     * 2 C_F [(1 + z^2)/(1 - z)_+ + (3/2) delta(1 - z)] ln(m^2/mu_F^2) */
    const double endpoint = GAPS_CF * (2.0 * GAPS_PI * GAPS_PI / 3.0 - 8.0 + 4.0 * l * l)
                            + 2.0 * GAPS_CF * md->lf * (2.0 * l + 1.5);
    for (int s = 0; s < md->nset; ++s) {
        out[3 * s] = p.born[s];
        out[3 * s + 1] = md->a * (endpoint * p.born[s] + corr[2 * s]);
        out[3 * s + 2] = md->a * corr[2 * s + 1];
    }
}

/* The W: d sigma/dt with m^2 = M_W^2 + M_W Gamma_W tan t, where sigma_B dm^2 / m^2 per |V|^2
 * is g^4 / (192 pi N_c M_W Gamma_W), the same for every t. */
static void w_dt(double t, void *vp, double *out)
{
    const dy_model *md = vp;
    const double m2 = MW * MW + MW * GW * tan(t);
    const double g2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM / GAPS_SIN2_THETAW;
    const double c = g2 * g2 / (192.0 * GAPS_PI * GAPS_NC * MW * GW) * GAPS_GEV2_TO_PB;
    w_of_m2(md, m2, out);
    for (int v = 0; v < 3 * md->nset; ++v) out[v] *= c;
}

/* sigma of W+ and W- in pb: [LO, q qbar' correction, q g correction] of W+, then of W-, at
 * mu_F^2 = kf2 m^2 (kf2 = 1: the central mu_F = m).  The PDFs are C^1 in Q^2 (cubics in
 * ln Q^2 between the grid's Q knots), so the t-integral is split where mu_F^2 = kf2 m^2
 * crosses a knot inside the window: smooth pieces. */
static void sigma_w(const gaps_pdf *pdf, double alphas, double kf2, double out[6])
{
    dy_model md;
    md.pdf = pdf;
    md.s = ECM * ECM;
    md.a = alphas / (2.0 * GAPS_PI);
    md.kf2 = kf2;
    md.lf = -log(kf2);
    md.nset = 2;
    channels_w(&md.set[0], 1);
    channels_w(&md.set[1], -1);
    double br[64];
    int nb = 0;
    br[nb++] = atan((M_LO * M_LO - MW * MW) / (MW * GW));
    for (int k = 0; k < pdf->nq && nb < 62; ++k) {
        const double q2 = exp(pdf->lnq2[k]) / kf2;   /* the m^2 at which mu_F^2 is the knot */
        if (q2 > M_LO * M_LO && q2 < M_HI * M_HI) br[nb++] = atan((q2 - MW * MW) / (MW * GW));
    }
    br[nb++] = atan((M_HI * M_HI - MW * MW) / (MW * GW));
    for (int v = 0; v < 6; ++v) out[v] = 0.0;
    for (int b = 0; b + 1 < nb; ++b) {
        double piece[6];
        if (!(br[b + 1] > br[b])) continue;
        integrate_v(w_dt, &md, 6, br[b], br[b + 1], REL_M, piece);
        for (int v = 0; v < 6; ++v) out[v] += piece[v];
    }
}

/* The Z on shell: sigma_B = pi^2 alpha (v^2 + a^2) / (N_c sin^2 cos^2 theta_W) delta(m^2 - M^2)
 * ((pi/N_c) sqrt 2 G_F M^2 (v^2 + a^2) delta(s_hat - M^2), ESW chapter 9, with sqrt 2 G_F =
 * pi alpha / (sin^2 cos^2 theta_W M^2)), so sigma = sigma_B-coefficient / M^2 W(M^2):
 * [LO, q qbar' correction, q g correction], the PDFs at mu_F^2 = kf2 M_Z^2 and the
 * counterterms' log lf (ln(M_Z^2/mu_F^2) = -ln kf2 but in --scales-check's test of the
 * log's normalisation, which sets them apart). */
static void sigma_z_lf(const gaps_pdf *pdf, double alphas, double kf2, double lf, double out[3])
{
    dy_model md;
    md.pdf = pdf;
    md.s = ECM * ECM;
    md.a = alphas / (2.0 * GAPS_PI);
    md.kf2 = kf2;
    md.lf = lf;
    md.nset = 1;
    channels_z(&md.set[0]);
    const double m2 = GAPS_MZ * GAPS_MZ, sw2 = GAPS_SIN2_THETAW;
    const double norm = GAPS_PI * GAPS_PI * GAPS_ALPHA_EM / (GAPS_NC * sw2 * (1.0 - sw2) * m2);
    w_of_m2(&md, m2, out);
    for (int v = 0; v < 3; ++v) out[v] *= norm * GAPS_GEV2_TO_PB;
}

static void sigma_z(const gaps_pdf *pdf, double alphas, double kf2, double out[3])
{
    sigma_z_lf(pdf, alphas, kf2, -log(kf2), out);
}

/* ---- Scale variations (--scales, --scales-check; header, "Scale variations") ---- */
#define NSC 7
static const double SC_KR[NSC] = { 1.0, 0.5, 0.5, 1.0, 1.0, 2.0, 2.0 };
static const double SC_KF[NSC] = { 1.0, 0.5, 1.0, 0.5, 2.0, 1.0, 2.0 };

typedef struct scale_table {
    double z_lo[NSC], z_nlo[NSC], w_lo[NSC], w_nlo[NSC];   /* pb, in SC_KR/SC_KF's order */
} scale_table;

/* The seven points of pp-z (on shell) and pp-w (W+ + W-).  The corrections are linear in
 * a = alpha_s/(2 pi) and mu_R enters nowhere else, so one quadrature per k_F (at the central
 * alpha_s: 0.118 = alpha_s(M_Z^2) of the running, alpha_s(M_W^2)) serves its k_R's, the
 * corrections times alpha_s((k_R mu_R0)^2) / alpha_s(mu_R0^2): exactly 1 at k_R = 1, so
 * (1, 1) is section 1's central quadrature, the same calls to the bit. */
static void scale_table_make(const gaps_pdf *pdf, scale_table *t)
{
    gaps_alphas as;
    gaps_alphas_init(&as, 2, ALPHAS_MZ);   /* the run's coupling, as run_events / main */
    const double mz2 = GAPS_MZ * GAPS_MZ, mw2 = MW * MW;
    const double az0 = gaps_alphas_value(&as, mz2), aw0 = gaps_alphas_value(&as, mw2);
    static const double kf[3] = { 1.0, 0.5, 2.0 };
    double zs[3][3], ws[3][6];
    for (int f = 0; f < 3; ++f) {
        sigma_z(pdf, az0, kf[f] * kf[f], zs[f]);
        sigma_w(pdf, aw0, kf[f] * kf[f], ws[f]);
    }
    for (int i = 0; i < NSC; ++i) {
        const int f = SC_KF[i] == 1.0 ? 0 : SC_KF[i] == 0.5 ? 1 : 2;
        const double k2 = SC_KR[i] * SC_KR[i];
        const double rz = gaps_alphas_value(&as, k2 * mz2) / az0;
        const double rw = gaps_alphas_value(&as, k2 * mw2) / aw0;
        const double *z = zs[f], *w = ws[f];
        /* summed in section 1's order */
        t->z_lo[i] = z[0];
        t->z_nlo[i] = z[0] + rz * z[1] + rz * z[2];
        const double lo_p = w[0], lo_m = w[3];
        const double nlo_p = w[0] + rw * w[1] + rw * w[2], nlo_m = w[3] + rw * w[4] + rw * w[5];
        t->w_lo[i] = lo_p + lo_m;
        t->w_nlo[i] = nlo_p + nlo_m;
    }
}

static void scale_table_print(const scale_table *t)
{
    const char *proc[2] = { "pp-z", "pp-w" };
    const double *v[2][2] = { { t->z_lo, t->z_nlo }, { t->w_lo, t->w_nlo } };
    for (int p = 0; p < 2; ++p)
        for (int o = 0; o < 2; ++o)
            for (int i = 0; i < NSC; ++i)
                printf("SCALES %s %s %g %g %.6f\n", proc[p], o ? "nlo" : "lo", SC_KR[i], SC_KF[i],
                       v[p][o][i]);
}

/* --scales-check's direct LO: the luminosity by kronrod.h's adaptive integrate() in u (not the
 * piecewise rule of lumi()), the PDFs at mu_F^2 = kf2 m^2, every set summed; the W's mass
 * integral by integrate() in t, split where mu_F^2 crosses a Q^2 knot. */
typedef struct lo_ctx { dy_model md; double m2, tp, rel; } lo_ctx;
static double lo_u(double u, void *vp)
{
    const lo_ctx *c = vp;
    double q[MAX_SETS], g[MAX_SETS], sum = 0.0;
    lumi_density(&c->md, c->m2, c->tp, u, q, g);
    for (int s = 0; s < c->md.nset; ++s) sum += q[s];
    return sum;
}
static double lo_t(double t, void *vp)
{
    lo_ctx *c = vp;
    const double g2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM / GAPS_SIN2_THETAW;
    c->m2 = MW * MW + MW * GW * tan(t);
    c->tp = c->m2 / c->md.s;
    return g2 * g2 / (192.0 * GAPS_PI * GAPS_NC * MW * GW) * GAPS_GEV2_TO_PB
           * integrate(lo_u, c, -1.0, 1.0, c->rel);
}
static void lo_direct(const gaps_pdf *pdf, double kf2, double rel, double *z_lo, double *w_lo)
{
    lo_ctx c;
    memset(&c, 0, sizeof c);
    c.md.pdf = pdf;
    c.md.s = ECM * ECM;
    c.md.kf2 = kf2;
    c.rel = rel;
    c.md.nset = 1;
    channels_z(&c.md.set[0]);
    const double sw2 = GAPS_SIN2_THETAW, mz2 = GAPS_MZ * GAPS_MZ;
    c.m2 = mz2;
    c.tp = mz2 / c.md.s;
    *z_lo = GAPS_PI * GAPS_PI * GAPS_ALPHA_EM / (GAPS_NC * sw2 * (1.0 - sw2) * mz2)
            * GAPS_GEV2_TO_PB * integrate(lo_u, &c, -1.0, 1.0, rel);
    c.md.nset = 2;
    channels_w(&c.md.set[0], 1);
    channels_w(&c.md.set[1], -1);
    double br[64];
    int nb = 0;
    br[nb++] = atan((M_LO * M_LO - MW * MW) / (MW * GW));
    for (int k = 0; k < pdf->nq && nb < 62; ++k) {
        const double m2 = exp(pdf->lnq2[k]) / kf2;
        if (m2 > M_LO * M_LO && m2 < M_HI * M_HI) br[nb++] = atan((m2 - MW * MW) / (MW * GW));
    }
    br[nb++] = atan((M_HI * M_HI - MW * MW) / (MW * GW));
    *w_lo = 0.0;
    for (int b = 0; b + 1 < nb; ++b) *w_lo += integrate(lo_t, &c, br[b], br[b + 1], rel);
}

/* --scales-check: the checks of the table (header, "Scale variations"). */
static void scales_check(const gaps_pdf *pdf, const scale_table *t)
{
    /* (a) (1, 1) is section 1's central quadrature, called as main() calls it */
    double zs[3], ws[6];
    gaps_alphas as;
    gaps_alphas_init(&as, 2, ALPHAS_MZ);
    sigma_z(pdf, 0.118, 1.0, zs);
    sigma_w(pdf, gaps_alphas_value(&as, MW * MW), 1.0, ws);
    const double z_lo = zs[0], z_nlo = zs[0] + zs[1] + zs[2];
    const double nlo_p = ws[0] + ws[1] + ws[2], nlo_m = ws[3] + ws[4] + ws[5];
    const double w_lo = ws[0] + ws[3], w_nlo = nlo_p + nlo_m;
    printf("(1, 1) against section 1's central numbers: pp-z LO %.6f / %.6f, NLO %.6f / %.6f; "
           "pp-w LO %.6f / %.6f, NLO %.6f / %.6f pb\n", t->z_lo[0], z_lo, t->z_nlo[0], z_nlo,
           t->w_lo[0], w_lo, t->w_nlo[0], w_nlo);
    CHECK(t->z_lo[0] == z_lo && t->z_nlo[0] == z_nlo && t->w_lo[0] == w_lo
          && t->w_nlo[0] == w_nlo, "(1, 1) is not the central quadrature to the bit");
    CHECK(fabs(z_lo - Z_LO) < 0.02 && fabs(z_nlo - Z_NLO) < 0.2 && fabs(w_lo - W_LO) < 0.01,
          "central numbers against doc/nlo.md and test_pp_w");
    /* (b) LO at every k_F against the direct integration with the PDFs at the varied scale */
    double worst = 0.0;
    static const double kf[3] = { 1.0, 0.5, 2.0 };
    for (int f = 0; f < 3; ++f) {
        double zd, wd;
        lo_direct(pdf, kf[f] * kf[f], 1e-9, &zd, &wd);
        printf("LO, k_F = %g: direct integration pp-z %.6f, pp-w %.6f pb\n", kf[f], zd, wd);
        for (int i = 0; i < NSC; ++i)
            if (SC_KF[i] == kf[f])
                worst = fmax(worst, fmax(fabs(t->z_lo[i] / zd - 1.0), fabs(t->w_lo[i] / wd - 1.0)));
    }
    printf("LO of every point against the direct integration (adaptive in u and t, PDFs at "
           "(k_F mu_F0)^2): worst rel. %.1e\n", worst);
    CHECK(worst < 1e-7, "LO against the direct integration %.3e", worst);
    /* (c) the normalisation of the counterterms' log: on the Z, the coefficient of
     * ln(M_Z^2/mu_F^2) at mu_F = M_Z (lf = 1 with the PDFs at M_Z^2, minus lf = 0) must be
     * d sigma_LO / d ln mu_F^2 from the PDF grid's own evolution (to the difference of its
     * one-loop alpha_s and the run's: a few per cent) */
    {
        const double h = 0.1;
        double zp[3], zm[3], z1[3];
        sigma_z(pdf, 0.118, exp(h), zp);
        sigma_z(pdf, 0.118, exp(-h), zm);
        sigma_z_lf(pdf, 0.118, 1.0, 1.0, z1);
        const double dlo = (zp[0] - zm[0]) / (2.0 * h), coef = z1[1] + z1[2] - zs[1] - zs[2];
        const double dqq = z1[1] - zs[1], dqg = z1[2] - zs[2];
        printf("pp-z: d sigma_LO/d ln mu_F^2 = %.3f pb (PDF grid), coefficient of "
               "ln(M_Z^2/mu_F^2) in the NLO corrections %.3f pb (q qbar %+.3f, q g %+.3f): "
               "ratio %.4f\n", dlo, coef, dqq, dqg, coef / dlo);
        CHECK(fabs(coef / dlo - 1.0) < 0.05, "ln mu_F coefficient %.3f vs %.3f", coef, dlo);
    }
    /* (d) the mu_F dependence: NLO much flatter than LO (k_R = 1, k_F = 2 against 1/2) */
    const double dz_lo = (t->z_lo[4] - t->z_lo[3]) / t->z_lo[0];
    const double dz_nlo = (t->z_nlo[4] - t->z_nlo[3]) / t->z_nlo[0];
    const double dw_lo = (t->w_lo[4] - t->w_lo[3]) / t->w_lo[0];
    const double dw_nlo = (t->w_nlo[4] - t->w_nlo[3]) / t->w_nlo[0];
    printf("mu_F from M/2 to 2M (k_R = 1), relative to (1, 1): pp-z LO %+.4f, NLO %+.4f; "
           "pp-w LO %+.4f, NLO %+.4f\n", dz_lo, dz_nlo, dw_lo, dw_nlo);
    CHECK(fabs(dz_nlo) < 0.25 * fabs(dz_lo) && fabs(dw_nlo) < 0.25 * fabs(dw_lo),
          "the NLO mu_F dependence is not much smaller than the LO one");
    /* (e) convergence: the tolerances 100 times tighter */
    const double rz = REL_Z, rm = REL_M;
    REL_Z = rz / 100.0;
    REL_M = rm / 100.0;
    scale_table t2;
    scale_table_make(pdf, &t2);
    REL_Z = rz;
    REL_M = rm;
    double move = 0.0;
    for (int i = 0; i < NSC; ++i) {
        move = fmax(move, fabs(t2.z_lo[i] / t->z_lo[i] - 1.0));
        move = fmax(move, fabs(t2.z_nlo[i] / t->z_nlo[i] - 1.0));
        move = fmax(move, fabs(t2.w_lo[i] / t->w_lo[i] - 1.0));
        move = fmax(move, fabs(t2.w_nlo[i] / t->w_nlo[i] - 1.0));
    }
    printf("tolerances (REL_Z, REL_M) / 100: the 28 numbers move by at most %.1e (relative)\n",
           move);
    CHECK(move < 1e-4, "the table moves by %.3e with tolerances / 100", move);
}

/* ================================================================================== */
/* 3. The real matrix elements: Dirac traces, the V-A formula, the limits                */
/* ================================================================================== */

typedef struct { double complex m[4][4]; } mat4;
static mat4 GAM[4], PL;

static mat4 mmul(const mat4 *a, const mat4 *b)
{
    mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            double complex s = 0.0;
            for (int k = 0; k < 4; ++k) s += a->m[i][k] * b->m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

static mat4 mlin(double complex ca, const mat4 *a, double complex cb, const mat4 *b)
{
    mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) r.m[i][j] = ca * a->m[i][j] + cb * b->m[i][j];
    return r;
}

static double complex mtrace(const mat4 *a)
{
    return a->m[0][0] + a->m[1][1] + a->m[2][2] + a->m[3][3];
}

/* Dirac representation; gamma5 = i g0 g1 g2 g3, P_L = (1 - gamma5)/2 */
static void dirac_init(void)
{
    memset(GAM, 0, sizeof GAM);
    const double complex sig[3][2][2] = { { { 0, 1 }, { 1, 0 } }, { { 0, -I }, { I, 0 } },
                                          { { 1, 0 }, { 0, -1 } } };
    for (int i = 0; i < 2; ++i) {
        GAM[0].m[i][i] = 1.0;
        GAM[0].m[i + 2][i + 2] = -1.0;
    }
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                GAM[k + 1].m[i][j + 2] = sig[k][i][j];
                GAM[k + 1].m[i + 2][j] = -sig[k][i][j];
            }
    mat4 g01 = mmul(&GAM[0], &GAM[1]), g23 = mmul(&GAM[2], &GAM[3]);
    mat4 g5 = mmul(&g01, &g23), one;
    memset(&one, 0, sizeof one);
    for (int i = 0; i < 4; ++i) one.m[i][i] = 1.0;
    PL = mlin(0.5, &one, -0.5 * I, &g5);
}

static const double METRIC[4] = { 1.0, -1.0, -1.0, -1.0 };

static mat4 slash(const double p[4])
{
    mat4 r;
    memset(&r, 0, sizeof r);
    for (int mu = 0; mu < 4; ++mu)
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) r.m[i][j] += METRIC[mu] * p[mu] * GAM[mu].m[i][j];
    return r;
}

static double dot(const double a[4], const double b[4])
{
    return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

/* The lepton tensor Tr[l-slash gamma^mu P_L lbar-slash gamma^nu P_L] of u-bar(l) gamma^mu P_L
 * v(lbar): l the outgoing fermion, lbar the outgoing antifermion. */
static void lepton_tensor(const double l[4], const double lb[4], double complex L[4][4])
{
    const mat4 sl = slash(l), slb = slash(lb);
    for (int mu = 0; mu < 4; ++mu) {
        mat4 a = mmul(&sl, &GAM[mu]);
        a = mmul(&a, &PL);
        a = mmul(&a, &slb);
        for (int nu = 0; nu < 4; ++nu) {
            mat4 b = mmul(&a, &GAM[nu]);
            b = mmul(&b, &PL);
            L[mu][nu] = mtrace(&b);
        }
    }
}

/* L^{mu nu} H_{mu nu} with H of v-bar(qb) Gamma u(q): the Born (k NULL: Gamma^mu = gamma^mu
 * P_L) or q(q) qbar(qb) -> W g(k) (the gluon from either line, polarisations summed with -g):
 *   Gamma^{mu al} = gamma^mu P_L (q - k)-slash gamma^al / (q - k)^2
 *                 + gamma^al (k - qb)-slash gamma^mu P_L / (qb - k)^2.
 * Momenta may be crossed (negative energies). */
static double traces(const double q[4], const double qb[4], const double k[4],
                     const double l[4], const double lb[4])
{
    double complex L[4][4];
    lepton_tensor(l, lb, L);
    const mat4 sq = slash(q), sqb = slash(qb);
    double complex sum = 0.0;
    if (!k) {
        for (int mu = 0; mu < 4; ++mu)
            for (int nu = 0; nu < 4; ++nu) {
                mat4 a = mmul(&sqb, &GAM[mu]);
                a = mmul(&a, &PL);
                a = mmul(&a, &sq);
                a = mmul(&a, &GAM[nu]);
                a = mmul(&a, &PL);
                sum += METRIC[mu] * METRIC[nu] * L[mu][nu] * mtrace(&a);
            }
        return creal(sum);
    }
    double qk[4], kqb[4];
    for (int m = 0; m < 4; ++m) qk[m] = q[m] - k[m], kqb[m] = k[m] - qb[m];
    const double t = dot(qk, qk), u = dot(kqb, kqb);
    const mat4 sqk = slash(qk), skqb = slash(kqb);
    mat4 G[4][4], Gb[4][4];   /* Gamma^{mu al} and its Dirac conjugate Gamma-bar^{nu al} */
    for (int mu = 0; mu < 4; ++mu)
        for (int al = 0; al < 4; ++al) {
            mat4 a = mmul(&GAM[mu], &PL), b;
            a = mmul(&a, &sqk);
            a = mmul(&a, &GAM[al]);
            b = mmul(&GAM[al], &skqb);
            b = mmul(&b, &GAM[mu]);
            b = mmul(&b, &PL);
            G[mu][al] = mlin(1.0 / t, &a, 1.0 / u, &b);
            /* bar: gamma^al (q - k)-slash gamma^mu P_L / t + gamma^mu P_L (k - qb)-slash gamma^al / u */
            a = mmul(&GAM[al], &sqk);
            a = mmul(&a, &GAM[mu]);
            a = mmul(&a, &PL);
            b = mmul(&GAM[mu], &PL);
            b = mmul(&b, &skqb);
            b = mmul(&b, &GAM[al]);
            Gb[mu][al] = mlin(1.0 / t, &a, 1.0 / u, &b);
        }
    for (int mu = 0; mu < 4; ++mu)
        for (int nu = 0; nu < 4; ++nu) {
            double complex h = 0.0;
            for (int al = 0; al < 4; ++al) {
                mat4 a = mmul(&sqb, &G[mu][al]);
                a = mmul(&a, &sq);
                a = mmul(&a, &Gb[nu][al]);
                h += -METRIC[al] * mtrace(&a);
            }
            sum += METRIC[mu] * METRIC[nu] * L[mu][nu] * h;
        }
    return creal(sum);
}

/* Couplings of the limit and formula checks: g^4 / D at the pair mass (|V|^2 = 1). */
static double g4_over_d(double m2)
{
    const double g2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM / GAPS_SIN2_THETAW;
    const double dm = m2 - MW * MW;
    return g2 * g2 / (dm * dm + MW * MW * GW * GW);
}

/* The V-A formula of the real (q qbar' -> l lbar g, l the fermion, lbar the antifermion) */
static double va_real(double as, const double q[4], const double qb[4], const double l[4],
                      const double lb[4], const double k[4])
{
    const double m2 = 2.0 * dot(l, lb), a = dot(qb, l), b = dot(q, lb);
    return 2.0 * GAPS_PI * as * GAPS_CF * m2 * g4_over_d(m2) * (a * a + b * b)
           / (GAPS_NC * dot(q, k) * dot(qb, k));
}

/* A real point in the parton frame: pa along +z, pb along -z, s_hat = m^2 / x; k of energy
 * sqrt(s_hat)(1 - x)/2 at cos theta = c (1 - c = omc, exact) and phi; V = pa + pb - k decays
 * into l (direction (cl, phil) in V's rest frame) and lbar. */
static void boost_rest(const double V[4], double m, const double p[4], double out[4])
{
    const double vp = V[1] * p[1] + V[2] * p[2] + V[3] * p[3];
    const double f = vp / (m * (V[0] + m)) + p[0] / m;
    out[0] = (V[0] * p[0] + vp) / m;
    for (int i = 1; i < 4; ++i) out[i] = p[i] + f * V[i];
}

static void real_point(double m2, double x, double c, double omc, double phi, double cl,
                       double phil, double pa[4], double pb[4], double k[4], double l[4],
                       double lb[4])
{
    const double rs = sqrt(m2 / x), ek = 0.5 * rs * (1.0 - x), st = sqrt(omc * (2.0 - omc));
    const double m = sqrt(m2), sl = sqrt(1.0 - cl * cl);
    pa[0] = 0.5 * rs; pa[1] = 0.0; pa[2] = 0.0; pa[3] = 0.5 * rs;
    pb[0] = 0.5 * rs; pb[1] = 0.0; pb[2] = 0.0; pb[3] = -0.5 * rs;
    k[0] = ek; k[1] = ek * st * cos(phi); k[2] = ek * st * sin(phi); k[3] = ek * c;
    double V[4];
    for (int i = 0; i < 4; ++i) V[i] = pa[i] + pb[i] - k[i];
    const double rest[4] = { 0.5 * m, 0.5 * m * sl * cos(phil), 0.5 * m * sl * sin(phil), 0.5 * m * cl };
    boost_rest(V, m, rest, l);
    for (int i = 0; i < 4; ++i) lb[i] = V[i] - l[i];
}

/* pp_w.c's six real types for charge 0 (W+: the fermion l is the nu, lbar the e+) or 1 (W-:
 * l the e-, lbar the nu~), with the momenta of the builder (qa along +z, qb along -z, k):
 * 0 q qbar', 1 qbar' q, 2 q g, 3 qbar' g, 4 g q, 5 g qbar'.  P = g^4 m^4 / (16 N_c D), Q = 0,
 * |V|^2 = 1.  Returns R - sum D, the real in *re, the dipoles in d (q qbar' types: d[0] the
 * quark's, d[1] the antiquark's; q g types d[0], d[1] = 0). */
static double w_subtracted(int type, double as, const double qa[4], const double qb[4],
                           const double l[4], const double lb[4], const double k[4], double *re,
                           double d[2])
{
    const double m2 = 2.0 * dot(l, lb);
    const double P = g4_over_d(m2) * m2 * m2 / (16.0 * GAPS_NC);
    d[1] = 0.0;
    switch (type) {
    case 0: return gaps_pp_ll_qqbar_subtracted(P, 0.0, as, qa, qb, l, lb, k, re, d);
    case 1: return gaps_pp_ll_qqbar_subtracted(P, 0.0, as, qb, qa, l, lb, k, re, d);
    case 2: return gaps_pp_ll_qg_subtracted(P, 0.0, as, 0, qa, qb, l, lb, k, re, d);
    case 3: return gaps_pp_ll_qg_subtracted(P, 0.0, as, 1, qa, qb, l, lb, k, re, d);
    case 4: return gaps_pp_ll_qg_subtracted(P, 0.0, as, 0, qb, qa, l, lb, k, re, d);
    default: return gaps_pp_ll_qg_subtracted(P, 0.0, as, 1, qb, qa, l, lb, k, re, d);
    }
}

/* The traces of the same type: the q qbar' -> W g traces with the incoming quark q, antiquark
 * qb and gluon k, crossed for the q g types (an outgoing (anti)quark k is an incoming
 * (anti)quark -k, the incoming gluon g an outgoing -g: one fermion crossed, sign -1), times
 * the averages: q qbar' 1/(4 N_c^2), q g 1/(4 N_c (N_c^2 - 1)), colour sum N_c C_F, and
 * g_s^2 (g^2/2)^2 / D. */
static double w_traces(int type, double as, const double qa[4], const double qb[4],
                       const double l[4], const double lb[4], const double k[4])
{
    const double m2 = 2.0 * dot(l, lb);
    const double cpl = 4.0 * GAPS_PI * as * g4_over_d(m2) / 4.0 * GAPS_NC * GAPS_CF;
    const double avg_qq = 1.0 / (4.0 * GAPS_NC * GAPS_NC);
    const double avg_qg = 1.0 / (4.0 * GAPS_NC * (GAPS_NC * GAPS_NC - 1.0));
    double mk[4], mg[4];
    switch (type) {
    case 0: return cpl * avg_qq * traces(qa, qb, k, l, lb);
    case 1: return cpl * avg_qq * traces(qb, qa, k, l, lb);
    case 2: case 3: case 4: default: {
        const double *a = type <= 3 ? qa : qb, *g = type <= 3 ? qb : qa;
        for (int m = 0; m < 4; ++m) mk[m] = -k[m], mg[m] = -g[m];
        const int anti = type == 3 || type == 5;
        /* q g -> W qbar'... : the quark a, the antiquark line -k; qbar' g: the quark -k */
        return -cpl * avg_qg * (anti ? traces(mk, a, mg, l, lb) : traces(a, mk, mg, l, lb));
    }
    }
}

/* The Born and the reals against the traces; proc: pp-w at NLO, whose real hook
 * (gaps_process_pp_w_nlo_real, through mcatnlo.h's declaration) is called with parton
 * densities 1 and Jacobian 1 above the start scale, so that its H weights are |V|^2 R. */
static void test_real_formula(const gaps_process *proc, const gaps_process *const one[2])
{
    long one_wrong = 0;   /* channels of --w-charge plus / minus alone not as the default's */
    const double as = 0.12;
    double worst_born = 0.0, worst_va = 0.0, worst_swapped = 0.0;
    double worst_lib[2][6] = { { 0 } }, worst_hook[2][6] = { { 0 } };
    uint64_t st = 12345;
    for (int n = 0; n < 200; ++n) {
        double r[7];
        for (int i = 0; i < 7; ++i) {   /* an LCG is plenty here */
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            r[i] = ((st >> 11) + 0.5) / 9007199254740992.0;
        }
        const double m2 = pow(M_LO + (M_HI - M_LO) * r[0], 2.0);
        double pa[4], pb[4], k[4], e[4], nu[4];   /* e: the charged lepton, nu: the neutrino */
        const double c = 2.0 * r[2] - 1.0;
        real_point(m2, 0.05 + 0.9 * r[1], c, 1.0 - c, 6.28 * r[3], 2.0 * r[4] - 1.0, 6.28 * r[5],
                   pa, pb, k, e, nu);
        /* the Born traces at a 2 -> 2 point: g^4 |V|^2 (q.lbar)(qb.l) / (N_c D) */
        {
            const double mm = sqrt(m2), cl = 2.0 * r[6] - 1.0, sl = sqrt(1.0 - cl * cl);
            double q[4] = { 0.5 * mm, 0, 0, 0.5 * mm }, qb[4] = { 0.5 * mm, 0, 0, -0.5 * mm };
            double l[4] = { 0.5 * mm, 0.5 * mm * sl, 0, 0.5 * mm * cl }, lb[4];
            for (int i = 0; i < 4; ++i) lb[i] = q[i] + qb[i] - l[i];
            const double tb = traces(q, qb, NULL, l, lb) / (4.0 * GAPS_NC) * g4_over_d(m2) / 4.0;
            const double fb = g4_over_d(m2) * dot(q, lb) * dot(qb, l) / GAPS_NC;
            /* and pp_w.c's (4 pi alpha)^2/N_c m^4/(16 sw^4 D) (1 + cos)^2, cos = (q, l) */
            const double fw = g4_over_d(m2) * m2 * m2 / (16.0 * GAPS_NC) * (1.0 + cl) * (1.0 + cl);
            worst_born = fmax(worst_born, fmax(fabs(tb / fb - 1.0), fabs(fw / fb - 1.0)));
        }
        /* u dbar -> e+ nu g: the fermion is the nu, the antifermion the e+ */
        const double tr = w_traces(0, as, pa, pb, nu, e, k);
        worst_va = fmax(worst_va, fabs(va_real(as, pa, pb, nu, e, k) / tr - 1.0));
        worst_swapped = fmax(worst_swapped, fabs(va_real(as, pa, pb, e, nu, k) / tr - 1.0));
        /* pp_w.c's hook: ql[0] the charged lepton, ql[1] the neutrino; f = 1, jac = 1 */
        gaps_nlo_real rr;
        memset(&rr, 0, sizeof rr);
        rr.m2 = 2.0 * dot(e, nu);
        for (int i = 0; i < 4; ++i) {
            rr.qa[i] = pa[i], rr.qb[i] = pb[i], rr.qk[i] = k[i];
            rr.ql[0][i] = e[i], rr.ql[1][i] = nu[i];
        }
        for (int i = 0; i < GAPS_PDF_NPARTONS; ++i) rr.f1[i] = rr.f2[i] = 1.0;
        rr.jac = 1.0;
        rr.inside = rr.above = 1;
        double ch[GAPS_NLO_MAX_REAL], cm[2 * GAPS_NLO_MAX_REAL];
        const int nch = gaps_process_pp_w_nlo_real(proc, as, &rr, ch, cm);
        CHECK(nch == 72, "pp-w has %d real channels", nch);
        /* one charge alone: its H and M weights the default's bit for bit, the other's 0 */
        for (int only = 0; only < 2; ++only) {
            double ch1[GAPS_NLO_MAX_REAL], cm1[2 * GAPS_NLO_MAX_REAL];
            const int n1 = gaps_process_pp_w_nlo_real(one[only], as, &rr, ch1, cm1);
            one_wrong += n1 != nch;
            for (int i = 0; i < nch && n1 == nch; ++i) {
                const int kept = (i / 6) % 2 == only;
                for (int j = -1; j < 2; ++j) {
                    const double got = j < 0 ? ch1[i] : cm1[2 * i + j];
                    const double want = kept ? (j < 0 ? ch[i] : cm[2 * i + j]) : 0.0;
                    one_wrong += memcmp(&got, &want, sizeof got) != 0;
                }
            }
        }
        for (int charge = 0; charge < 2; ++charge)
            for (int type = 0; type < 6; ++type) {
                /* W+: the fermion is the nu, the antifermion the e+; W-: e- and nu~ */
                const double *lf = charge ? e : nu, *la = charge ? nu : e;
                double re, d[2];
                w_subtracted(type, as, pa, pb, lf, la, k, &re, d);
                const double t = w_traces(type, as, pa, pb, lf, la, k);
                worst_lib[charge][type] = fmax(worst_lib[charge][type], fabs(re / t - 1.0));
                for (int pair = 0; pair < 6; ++pair) {   /* u d, u s, u b, c d, c s, c b */
                    const double v = CKM[pair / 3][pair % 3];
                    const double h = ch[6 * (2 * pair + charge) + type] / (v * v);
                    worst_hook[charge][type] = fmax(worst_hook[charge][type], fabs(h / t - 1.0));
                }
            }
    }
    printf("--w-charge plus, minus alone: %ld H or M weights differ from the default's kept "
           "charge or are not 0 for the other (200 points, 2 x 216 each)\n", one_wrong);
    CHECK(one_wrong == 0, "--w-charge alone: %ld real channel weights wrong", one_wrong);
    printf("Born: Dirac traces = g^4 (q.lbar)(qbar.l)/(N_c D) = pp_w.c's (1 + cos)^2 form: worst "
           "rel. %.1e\n", worst_born);
    printf("u dbar -> e+ nu g: V-A formula against the traces: worst rel. %.1e (200 points); "
           "with e+ and nu swapped it differs by up to %.2g\n", worst_va, worst_swapped);
    CHECK(worst_born < 1e-9, "Born traces %.3e", worst_born);
    CHECK(worst_va < 1e-9, "V-A formula against the traces %.3e", worst_va);
    CHECK(worst_swapped > 0.5, "the traces do not tell e+ from nu: %.3e", worst_swapped);
    static const char *tn[6] = { "q qbar'", "qbar' q", "q g", "qbar' g", "g q", "g qbar'" };
    for (int charge = 0; charge < 2; ++charge) {
        printf("  pp-ll's crossed reals (Q = 0) / pp_w.c's hook against the traces, %s:",
               charge ? "W-" : "W+");
        for (int type = 0; type < 6; ++type) {
            printf(" %s %.0e/%.0e%s", tn[type], worst_lib[charge][type], worst_hook[charge][type],
                   type < 5 ? "," : "\n");
            CHECK(worst_lib[charge][type] < 1e-9 && worst_hook[charge][type] < 1e-9,
                  "crossed real %d/%d: %.3e %.3e", charge, type, worst_lib[charge][type],
                  worst_hook[charge][type]);
        }
    }
}

/* Walk towards a limit; kind 0: k collinear to qa (+z), 1: to qb (-z), lambda = the angle
 * theta to that beam (proportional to k_T: with the lepton angles R - sum D falls like k_T,
 * the Born at the dipoles' mapped momenta differing from the collinear limit's by terms linear
 * in k_T that average to zero over its azimuth, doc/nlo.md 12.4); 2: soft, lambda = 1 - x.
 * control: the limit's dipole left out (kind 2: the first dipole), which must fail.  Returns the
 * fitted slope of ln |R - sum D|/|R| against ln lambda. */
static double walk(int charge, int type, int kind, int control, double m2, double x0, double c0,
                   double phi, double cl, double phil, double *last)
{
    /* the dipole of the limit: q qbar' types d[0] is the quark's (type 0: +z, type 1: -z) */
    const int j = type == 0 ? kind == 1 : type == 1 ? kind == 0 : 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (double lam = 1e-2; lam > 0.5e-6; lam /= 10.0, ++n) {
        double pa[4], pb[4], k[4], l[4], lb[4];
        const double sh = sin(0.5 * lam), omc = 2.0 * sh * sh;   /* 1 - cos(lambda) */
        if (kind == 0) real_point(m2, x0, cos(lam), omc, phi, cl, phil, pa, pb, k, l, lb);
        else if (kind == 1) real_point(m2, x0, -cos(lam), 2.0 - omc, phi, cl, phil, pa, pb, k, l, lb);
        else real_point(m2, 1.0 - lam, c0, 1.0 - c0, phi, cl, phil, pa, pb, k, l, lb);
        const double *lf = charge ? lb : l, *la = charge ? l : lb;
        double re, d[2];
        double sub = w_subtracted(type, 0.118, pa, pb, lf, la, k, &re, d);
        if (control) sub += d[j];
        const double r = fabs(sub) / fabs(re);
        const double lx = log(lam), ly = log(fmax(r, 1e-300));
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
        *last = r;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

static void test_limits(void)
{
    static const char *tn[6] = { "q qbar'", "qbar' q", "q g", "qbar' g", "g q", "g qbar'" };
    static const char *kn[3] = { "collinear to +z", "collinear to -z", "soft" };
    static const double xs[3] = { 0.1, 0.5, 0.9 }, cs[3] = { -0.6, 0.0, 0.7 };
    static const double ms[3] = { 60.0, MW, 115.0 }, cls[3] = { 0.8, -0.3, 0.1 };
    int controls_failing = 0, controls = 0;
    for (int charge = 0; charge < 2; ++charge)
        for (int type = 0; type < 6; ++type)
            for (int kind = 0; kind < 3; ++kind) {
                /* q g types: only the (anti)quark along the gluon beam is singular (and soft) */
                if ((type == 2 || type == 3) && kind == 0) continue;
                if ((type == 4 || type == 5) && kind == 1) continue;
                for (int control = 0; control < 2; ++control) {
                    double smin = 1e30, rmax = 0.0, last;
                    for (int i = 0; i < 3; ++i) {
                        const double s = walk(charge, type, kind, control, ms[i] * ms[i], xs[i],
                                              cs[i], 0.4 + i, cls[i], 1.3 + 2.0 * i, &last);
                        smin = fmin(smin, s);
                        rmax = fmax(rmax, last);
                    }
                    if (control) {
                        ++controls;
                        controls_failing += smin < 0.9;
                        CHECK(smin < 0.9, "control (dipole left out) passed: %s %s %s slope %.2f",
                              charge ? "W-" : "W+", tn[type], kn[kind], smin);
                        continue;
                    }
                    printf("  %s %-8s %-16s min slope %5.2f, |R - sum D|/R at 1e-6: %.1e %s\n",
                           charge ? "W-" : "W+", tn[type], kn[kind], smin, rmax,
                           smin >= 0.9 ? "ok" : "FAIL");
                    CHECK(smin >= 0.9, "limit %s %s %s: slope %.2f", charge ? "W-" : "W+",
                          tn[type], kn[kind], smin);
                }
            }
    printf("  negative controls (the limit's dipole left out): %d of %d fail the criterion, as "
           "they must\n", controls_failing, controls);
}

/* ================================================================================== */
/* 2. The hard events                                                                    */
/* ================================================================================== */

static int charge3(int pdg)
{
    if (pdg == GAPS_GLUON || pdg == 0 || abs(pdg) > 5) return 0;
    const int q3 = abs(pdg) % 2 == 0 ? 2 : -1;
    return pdg > 0 ? q3 : -q3;
}
static int is_quark(int f) { return f != 0 && abs(f) <= 5; }

typedef struct stats { double sw, sw2; } stats;
static void add(stats *s, double w) { s->sw += w; s->sw2 += w * w; }
static double mean_of(const stats *s, double n) { return s->sw / n; }
static double err_of(const stats *s, double n)
{
    const double m = s->sw / n;
    return sqrt(fmax(s->sw2 / n - m * m, 0.0) / (n - 1.0));
}

static long bad_records = 0;
#define RECORD(c, ...)                                                                        \
    do {                                                                                      \
        if (!(c)) {                                                                           \
            if (bad_records++ < 10) { printf("FAIL event %ld: ", i); printf(__VA_ARGS__); printf("\n"); } \
            return 0;                                                                         \
        }                                                                                     \
    } while (0)

/* Checks one record; returns +1 (W+), -1 (W-), or 0 after a failure (counted). */
static int check_record(const gaps_hard_event *ev, long i)
{
    const double e = 0.5 * ECM;
    const int hard = ev->n == 5;
    RECORD(ev->n_in == 2 && (ev->n == 4 || ev->n == 5), "n_in %d n %d", ev->n_in, ev->n);
    RECORD(isfinite(ev->weight), "weight %g", ev->weight);
    double sum[4] = { 0, 0, 0, 0 };
    for (int r = 0; r < 2; ++r) {
        const double *p = ev->p[r];
        RECORD(ev->x[r] > 0.0 && ev->x[r] < 1.0 && fabs(p[0] - ev->x[r] * e) <= 1e-12 * e
               && p[1] == 0.0 && p[2] == 0.0 && fabs(fabs(p[3]) - p[0]) <= 1e-12 * e,
               "incoming row %d (x %g, E %g, pz %g)", r, ev->x[r], p[0], p[3]);
        for (int m = 0; m < 4; ++m) sum[m] += p[m];
    }
    RECORD(ev->p[0][3] * ev->p[1][3] < 0.0, "incoming partons not head on");
    for (int r = 2; r < ev->n; ++r)
        for (int m = 0; m < 4; ++m) sum[m] -= ev->p[r][m];
    for (int m = 0; m < 4; ++m)
        RECORD(fabs(sum[m]) < 1e-9 * ECM, "momentum not conserved (%d: %g)", m, sum[m]);
    /* the leptons: rows 2 (charged) and 3 (neutrino), massless, their mass in the window */
    for (int r = 2; r < 4; ++r) {
        const double *p = ev->p[r];
        const double m2 = dot(p, p);
        RECORD(p[0] > 0.0 && fabs(m2) <= 1e-8 * p[0] * p[0], "lepton row %d: m^2 %g", r, m2);
        RECORD(ev->col[r] == 0 && ev->acol[r] == 0, "coloured lepton row %d", r);
    }
    double v[4];
    for (int m = 0; m < 4; ++m) v[m] = ev->p[2][m] + ev->p[3][m];
    const double mlv2 = dot(v, v), mlv = sqrt(mlv2);
    RECORD(mlv > M_LO * (1 - 1e-9) && mlv < M_HI * (1 + 1e-9), "m_lnu %g outside the window",
           mlv);
    /* charge: W+ e+ nu_e, W- e- nu_e~ */
    int q3 = charge3(ev->flav[0]) + charge3(ev->flav[1]);
    if (hard) q3 -= charge3(ev->flav[4]);
    RECORD(q3 == 3 || q3 == -3, "charge in - out %d/3", q3);
    const int plus = q3 == 3;
    RECORD(plus ? (ev->flav[2] == -11 && ev->flav[3] == 12) : (ev->flav[2] == 11 && ev->flav[3] == -12),
           "leptons %d %d for charge %d/3", ev->flav[2], ev->flav[3], q3);
    /* quark number */
    int nin = 0, nout = 0;
    for (int r = 0; r < ev->n; ++r) {
        if (r >= 2 && r < 4) continue;
        const int f = ev->flav[r];
        RECORD(f == GAPS_GLUON || is_quark(f), "row %d flavour %d", r, f);
        if (!is_quark(f)) continue;
        if (r < 2) nin += f > 0 ? 1 : -1;
        else nout += f > 0 ? 1 : -1;
    }
    RECORD(nin == nout, "quark number %d in, %d out", nin, nout);
    /* colours: crossed (incoming rows' col and acol swapped), every tag once as a colour and
     * once as an anticolour; quarks one colour, gluons two */
    int nc[16] = { 0 }, na[16] = { 0 };
    for (int r = 0; r < ev->n; ++r) {
        if (r >= 2 && r < 4) continue;
        const int xc = r < 2 ? ev->acol[r] : ev->col[r], xa = r < 2 ? ev->col[r] : ev->acol[r];
        const int f = ev->flav[r];
        if (f == GAPS_GLUON) RECORD(xc > 0 && xa > 0 && xc != xa, "gluon row %d", r);
        else {
            const int colour = f > 0 ? ev->col[r] : ev->acol[r];
            const int other = f > 0 ? ev->acol[r] : ev->col[r];
            RECORD(colour > 0 && other == 0, "quark row %d (%d %d)", r, ev->col[r], ev->acol[r]);
        }
        RECORD(xc >= 0 && xc < 16 && xa >= 0 && xa < 16 && xc < ev->next_tag && xa < ev->next_tag,
               "tag beyond next_tag");
        ++nc[xc];
        ++na[xa];
    }
    for (int c = 1; c < 16; ++c)
        RECORD(nc[c] == na[c] && nc[c] <= 1, "tag %d %d times as colour, %d as anticolour", c,
               nc[c], na[c]);
    /* t_start: S and M m_lnu^2, H the parton's p_T^2 */
    if (hard) {
        const double *k = ev->p[4];
        const double pt2 = k[1] * k[1] + k[2] * k[2];
        RECORD(ev->t_start > 0.0 && fabs(ev->t_start - pt2) <= 1e-6 * pt2, "H t_start %g, p_T^2 %g",
               ev->t_start, pt2);
    } else {
        RECORD(fabs(ev->t_start - mlv2) <= 1e-9 * mlv2, "t_start %g, m^2 %g", ev->t_start, mlv2);
    }
    return plus ? 1 : -1;
}

/* H channel type from the record: 0 q qbar', 1 qbar' q, 2 q g, 3 qbar' g, 4 g q, 5 g qbar'
 * (first parton along +z) */
static int h_type(const gaps_hard_event *ev)
{
    const int a = ev->p[0][3] > 0.0 ? 0 : 1, b = 1 - a;
    const int fa = ev->flav[a], fb = ev->flav[b];
    if (fa != GAPS_GLUON && fb != GAPS_GLUON) return fa > 0 ? 0 : 1;
    if (fb == GAPS_GLUON) return fa > 0 ? 2 : 3;
    return fb > 0 ? 4 : 5;
}

/* CKM pair (up 0/1 = u/c, down 0/1/2 = d/s/b) of the quark line: the incoming q qbar', or the
 * incoming and the outgoing (anti)quark of a q g event */
static int ckm_pair(const gaps_hard_event *ev)
{
    int f1, f2;
    if (ev->flav[0] == GAPS_GLUON || ev->flav[1] == GAPS_GLUON) {
        f1 = ev->flav[0] == GAPS_GLUON ? ev->flav[1] : ev->flav[0];
        f2 = ev->flav[4];
    } else {
        f1 = ev->flav[0];
        f2 = ev->flav[1];
    }
    f1 = abs(f1);
    f2 = abs(f2);
    const int up = f1 % 2 == 0 ? f1 : f2, dn = f1 % 2 == 0 ? f2 : f1;
    return 3 * (up / 2 - 1) + (dn - 1) / 2;
}

typedef struct ev_result {
    double n;
    stats all, plus, minus;
    long n_h, n_neg;
    long htype[2][6];
    long pairs[2][6];
} ev_result;

static int run_events(const gaps_pdf *pdf, int w_charge, long n, uint32_t seed,
                      double *alphas_mw, ev_result *res)
{
    static gaps_process proc;   /* large: not on the stack */
    char msg[256];
    gaps_process_options o = gaps_process_options_default();
    o.w_charge = w_charge;   /* --w-charge */
    /* as gaps_physics_setup: the coupling of the run (two loops from 0.118 at M_Z) at the
     * process's mu_R^2 */
    gaps_alphas as;
    gaps_alphas_init(&as, 2, ALPHAS_MZ);
    if (gaps_process_init_with(&proc, GAPS_PROCESS_PP_W, ECM, &o, msg, sizeof msg) != 0) {
        printf("FAIL gaps_process_init_with: %s\n", msg);
        return -1;
    }
    const double mu_r2 = gaps_process_nlo_mu_r2(&proc);
    CHECK(fabs(mu_r2 / (MW * MW) - 1.0) < 1e-12, "pp-w's mu_R^2 %g is not M_W^2", mu_r2);
    *alphas_mw = gaps_alphas_value(&as, mu_r2);
    if (gaps_process_set_nlo(&proc, *alphas_mw, GAPS_COMPAT_NONE, msg, sizeof msg) != 0) {
        printf("FAIL gaps_process_set_nlo: %s\n", msg);
        return -1;
    }
    proc.pdf = pdf;
    gaps_process_prepare(&proc, pdf);
    memset(res, 0, sizeof *res);
    res->n = (double)n;
    for (long i = 0; i < n; ++i) {
        gaps_rng rng = gaps_rng_make(seed, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(&proc, &rng, &ev);
        const int c = check_record(&ev, i);
        add(&res->all, ev.weight);
        if (c > 0) add(&res->plus, ev.weight);
        if (c < 0) add(&res->minus, ev.weight);
        res->n_neg += ev.weight < 0.0;
        if (ev.n == 5) {
            ++res->n_h;
            ++res->htype[c > 0 ? 0 : 1][h_type(&ev)];
        }
        if (c != 0) ++res->pairs[c > 0 ? 0 : 1][ckm_pair(&ev)];
    }
    return 0;
}

/* ================================================================================== */

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pp_w_nlo PDFSETS_DIR [N [SEED] | --scales | "
                        "--scales-check | --member NAME/M]\n");
        return 2;
    }
    if (argc > 3 && strcmp(argv[2], "--member") == 0) {   /* one member's central point */
        gaps_pdf member;
        char msg[512];
        if (gaps_pdf_load(&member, argv[3], argv[1], msg, sizeof msg) != 0) {
            fprintf(stderr, "test_pp_w_nlo: %s\n", msg);
            return 2;
        }
        GL4 = gl_make(4);
        gaps_alphas as;
        gaps_alphas_init(&as, 2, ALPHAS_MZ);
        double z[3], w[6];
        sigma_z(&member, gaps_alphas_value(&as, GAPS_MZ * GAPS_MZ), 1.0, z);
        sigma_w(&member, gaps_alphas_value(&as, MW * MW), 1.0, w);
        /* summed as scale_table_make sums them */
        printf("MEMBER %d pp-z lo %.6f\nMEMBER %d pp-z nlo %.6f\n", member.member, z[0],
               member.member, z[0] + z[1] + z[2]);
        printf("MEMBER %d pp-w lo %.6f\nMEMBER %d pp-w nlo %.6f\n", member.member, w[0] + w[3],
               member.member, (w[0] + w[1] + w[2]) + (w[3] + w[4] + w[5]));
        gaps_pdf_free(&member);
        return 0;
    }
    const int scales = argc > 2 && strcmp(argv[2], "--scales") == 0;
    const int scales_chk = argc > 2 && strcmp(argv[2], "--scales-check") == 0;
    const long n = argc > 2 ? atol(argv[2]) : 1000000L;
    const uint32_t seed = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1u;
    const double t0 = test_now();
    setvbuf(stdout, NULL, _IOLBF, 0);
    gaps_pdf pdf;
    char err[512];
    if (gaps_pdf_load(&pdf, GAPS_DEFAULT_PDF, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "test_pp_w_nlo: %s\n", err);
        return 2;
    }
    if (scales || scales_chk) {   /* the 7-point table (and its checks) alone */
        GL4 = gl_make(4);
        scale_table t;
        scale_table_make(&pdf, &t);
        scale_table_print(&t);
        if (scales_chk) {
            printf("table: %.1f s\n", test_now() - t0);
            scales_check(&pdf, &t);
            printf("time %.1f s\n", test_now() - t0);
            printf(failures ? "test_pp_w_nlo --scales-check: %d FAILURES\n"
                            : "test_pp_w_nlo --scales-check: all checks passed\n", failures);
        }
        gaps_pdf_free(&pdf);
        return failures ? 1 : 0;
    }

    printf("== 1. the textbook NLO Drell-Yan quadrature ==\n");
    GL4 = gl_make(4);
    {   /* the piecewise Gauss-Legendre luminosities against kronrod.h's adaptive integrate() */
        dy_model md;
        md.pdf = &pdf;
        md.s = ECM * ECM;
        md.kf2 = 1.0;
        md.lf = 0.0;
        md.nset = 1;
        channels_w(&md.set[0], 1);
        double worst = 0.0;
        for (int k = 0; k < 3; ++k) {
            const double m2 = MW * MW * (0.4 + 0.8 * k), tp = m2 / md.s * (k == 2 ? 300.0 : 1.0);
            double q[MAX_SETS], g[MAX_SETS];
            lumi(&md, m2, tp, q, g);
            for (int qg = 0; qg < 2; ++qg) {
                dens_ctx c = { &md, m2, tp, qg };
                const double ref = integrate(density, &c, -1.0, 1.0, 1e-12);
                worst = fmax(worst, fabs((qg ? g[0] : q[0]) / ref - 1.0));
            }
        }
        printf("luminosities, 4-point Gauss-Legendre between the PDF knots against adaptive "
               "Gauss-Kronrod to 1e-12: worst rel. %.1e\n", worst);
        CHECK(worst < 1e-11, "piecewise luminosity %.3e", worst);
    }
    double zs[3];
    sigma_z(&pdf, 0.118, 1.0, zs);
    const double z_lo = zs[0], z_nlo = zs[0] + zs[1] + zs[2];
    printf("cross-check, p p -> Z on shell (the same code with the Z's couplings and a delta "
           "function at M_Z; mu = M_Z, alpha_s 0.118): LO %.4f pb (doc/nlo.md 11.7: %.2f), "
           "NLO %.4f pb (%.2f; q qbar %+.4f, q g %+.4f), K = %.4f\n", z_lo, Z_LO, z_nlo, Z_NLO,
           zs[1], zs[2], z_nlo / z_lo);
    CHECK(fabs(z_lo - Z_LO) < 0.02, "Z LO %.4f vs %.2f", z_lo, Z_LO);
    CHECK(fabs(z_nlo - Z_NLO) < 0.2, "Z NLO %.4f vs %.2f", z_nlo, Z_NLO);
    const long nd_z = n_density;

    gaps_alphas as;
    gaps_alphas_init(&as, 2, ALPHAS_MZ);
    const double as_mw = gaps_alphas_value(&as, MW * MW);
    double ws[6];
    sigma_w(&pdf, as_mw, 1.0, ws);
    const double lo_p = ws[0], lo_m = ws[3];
    const double nlo_p = ws[0] + ws[1] + ws[2], nlo_m = ws[3] + ws[4] + ws[5];
    const double lo = lo_p + lo_m, nlo = nlo_p + nlo_m;
    printf("p p -> W -> e nu, alpha_s(M_W^2) = %.6f (two-loop running from %.3f at M_Z):\n",
           as_mw, ALPHAS_MZ);
    printf("  W+:      LO %.4f pb, NLO %.4f pb (q qbar' %+.4f, q g %+.4f), K = %.4f\n", lo_p,
           nlo_p, ws[1], ws[2], nlo_p / lo_p);
    printf("  W-:      LO %.4f pb, NLO %.4f pb (q qbar' %+.4f, q g %+.4f), K = %.4f\n", lo_m,
           nlo_m, ws[4], ws[5], nlo_m / lo_m);
    printf("  W+ + W-: LO %.4f pb (test_pp_w: %.5f), NLO %.4f pb, K = %.4f\n", lo, W_LO, nlo,
           nlo / lo);
    printf("  (%ld + %ld luminosity density points)\n", nd_z, n_density - nd_z);
    CHECK(fabs(lo - W_LO) < 0.01, "LO %.4f vs test_pp_w's %.5f", lo, W_LO);
    const double t1 = test_now();

    printf("== 2. %ld hard events of --nlo 1 --process pp-w (seed %u) ==\n", n, seed);
    ev_result r;
    double as_run;
    if (run_events(&pdf, GAPS_W_CHARGE_BOTH, n, seed, &as_run, &r) != 0) return 1;
    CHECK(as_run == as_mw, "the run's alpha_s %.10f vs %.10f", as_run, as_mw);
    CHECK(bad_records == 0, "%ld records fail", bad_records);
    const double nn = r.n;
    struct { const char *name; const stats *s; double exact; } cmp[3] = {
        { "sigma_NLO", &r.all, nlo }, { "sigma_NLO(W+)", &r.plus, nlo_p },
        { "sigma_NLO(W-)", &r.minus, nlo_m } };
    for (int k = 0; k < 3; ++k) {
        const double m = mean_of(cmp[k].s, nn), e = err_of(cmp[k].s, nn);
        const double ratio = m / cmp[k].exact, re = e / cmp[k].exact;
        printf("  %-14s events %.2f +- %.2f pb, quadrature %.2f pb: ratio %.5f +- %.5f "
               "(pull %+.2f)\n", cmp[k].name, m, e, cmp[k].exact, ratio, re, (ratio - 1.0) / re);
        CHECK(fabs(ratio - 1.0) < 4.0 * re, "%s: ratio %.5f +- %.5f", cmp[k].name, ratio, re);
    }
    const double m_all = mean_of(&r.all, nn);
    printf("  sigma_LO %.2f pb (quadrature), K = %.4f (quadrature), %.4f (events); "
           "std/mean %.2f; H events %.2f %%, negative weights %.2f %%\n", lo, nlo / lo,
           m_all / lo, err_of(&r.all, nn) * sqrt(nn) / m_all, 100.0 * r.n_h / nn,
           100.0 * r.n_neg / nn);
    static const char *tn[6] = { "q qbar'", "qbar' q", "q g", "qbar' g", "g q", "g qbar'" };
    static const char *pn[6] = { "u d", "u s", "u b", "c d", "c s", "c b" };
    for (int c = 0; c < 2; ++c) {
        printf("  %s H channels:", c ? "W-" : "W+");
        for (int t = 0; t < 6; ++t) {
            printf(" %s %ld%s", tn[t], r.htype[c][t], t < 5 ? "," : "\n");
            CHECK(r.htype[c][t] > 0, "%s H channel %s never chosen", c ? "W-" : "W+", tn[t]);
        }
        printf("  %s quark-line flavour pairs:", c ? "W-" : "W+");
        for (int p = 0; p < 6; ++p) printf(" %s %ld%s", pn[p], r.pairs[c][p], p < 5 ? "," : "\n");
        CHECK(r.pairs[c][1] > 0 && r.pairs[c][3] > 0, "%s: no Cabibbo pair (u s %ld, c d %ld)",
              c ? "W-" : "W+", r.pairs[c][1], r.pairs[c][3]);
    }
    CHECK(r.n_h > 0 && r.n_h < n && r.n_neg > 0, "S and H events, negative weights");
    /* --w-charge plus and minus alone (a quarter of the events each): S, H and M records of
     * that charge only, the cross section that of the charge's quadrature */
    for (int c = 0; c < 2; ++c) {
        ev_result rc;
        double as_c;
        const long nc = n / 4;
        if (run_events(&pdf, c ? GAPS_W_CHARGE_MINUS : GAPS_W_CHARGE_PLUS, nc, seed + 1, &as_c,
                       &rc) != 0)
            return 1;
        const stats *own = c ? &rc.minus : &rc.plus, *other = c ? &rc.plus : &rc.minus;
        const double exact = c ? nlo_m : nlo_p;
        const double m = mean_of(&rc.all, (double)nc), e = err_of(&rc.all, (double)nc);
        const long n_other = c ? rc.pairs[0][0] + rc.pairs[0][1] + rc.pairs[0][2] + rc.pairs[0][3]
                                     + rc.pairs[0][4] + rc.pairs[0][5]
                               : rc.pairs[1][0] + rc.pairs[1][1] + rc.pairs[1][2] + rc.pairs[1][3]
                                     + rc.pairs[1][4] + rc.pairs[1][5];
        printf("  --w-charge %-5s %ld events: %.2f +- %.2f pb, quadrature %.2f pb: ratio "
               "%.5f +- %.5f (pull %+.2f); H events %ld; records of the other charge %ld\n",
               c ? "minus" : "plus", nc, m, e, exact, m / exact, e / exact, (m - exact) / e,
               rc.n_h, n_other);
        CHECK(fabs(m - exact) < 4.0 * e, "--w-charge %s: %.3f +- %.3f vs %.3f",
              c ? "minus" : "plus", m, e, exact);
        CHECK(n_other == 0 && other->sw == 0.0 && own->sw == rc.all.sw && rc.n_h > 0,
              "--w-charge %s: %ld records of the other charge", c ? "minus" : "plus", n_other);
    }
    CHECK(bad_records == 0, "%ld records fail", bad_records);
    const double t2 = test_now();

    printf("== 3. the real matrix elements of pp-w ==\n");
    dirac_init();
    {
        static gaps_process proc, plus, minus;
        char msg[256];
        gaps_process_options op = gaps_process_options_default(), om = op;
        op.w_charge = GAPS_W_CHARGE_PLUS;
        om.w_charge = GAPS_W_CHARGE_MINUS;
        if (gaps_process_init(&proc, GAPS_PROCESS_PP_W, ECM, msg, sizeof msg) != 0
            || gaps_process_set_nlo(&proc, 0.12, GAPS_COMPAT_NONE, msg, sizeof msg) != 0
            || gaps_process_init_with(&plus, GAPS_PROCESS_PP_W, ECM, &op, msg, sizeof msg) != 0
            || gaps_process_set_nlo(&plus, 0.12, GAPS_COMPAT_NONE, msg, sizeof msg) != 0
            || gaps_process_init_with(&minus, GAPS_PROCESS_PP_W, ECM, &om, msg, sizeof msg) != 0
            || gaps_process_set_nlo(&minus, 0.12, GAPS_COMPAT_NONE, msg, sizeof msg) != 0) {
            printf("FAIL: %s\n", msg);
            return 1;
        }
        const gaps_process *const one[2] = { &plus, &minus };
        test_real_formula(&proc, one);
    }
    printf("(R - sum D)/R towards the limits (lambda = 1e-2 .. 1e-6; slope >= 0.9 required):\n");
    test_limits();

    const double t3 = test_now();
    gaps_pdf_free(&pdf);
    printf("time: quadrature %.1f s, events %.1f s, matrix elements %.1f s\n", t1 - t0, t2 - t1,
           t3 - t2);
    printf(failures ? "test_pp_w_nlo: %d FAILURES\n" : "test_pp_w_nlo: all checks passed\n",
           failures);
    return failures ? 1 : 0;
}
