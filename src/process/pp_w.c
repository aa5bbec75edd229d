/* pp_w.c -- p p -> W -> l nu at leading order (and its NLO hooks, at the end), by default
 * W+ -> e+ nu_e and W- -> e- nu_e~ together, the process pp-w of GAPS_PROCESSES (doc/physics.md,
 * section "p p -> W -> l nu").  Its own run options (gaps_process_options): --w-charge keeps
 * the W+ or the W- channels alone (charge_on: the others' luminosities 0 wherever channels
 * are summed), --leptons the mu channel (the e events with the mu's codes) or the sum of e and
 * mu (twice the weight, the flavour drawn: gaps_pp_lepton_flavour, leptons.c); at the defaults the arithmetic
 * and the random numbers are those of the process before the options.
 *
 * Partonic |M|^2 of q qbar' -> W -> l nu, averaged over the spins and colours of the quarks
 * and summed over the leptons' spins (the W couples as (g / sqrt 2) gamma^mu (1 - gamma_5)/2,
 * g^2 = 4 pi alpha / sin^2 theta_W, the same alpha and sin^2 theta_W as pp-ll):
 *   |M|^2 = (4 pi alpha)^2 / N_c |V_qq'|^2 m^4 / (16 sin^4 theta_W D) (1 + cos theta)^2,
 *   D = (m^2 - M_W^2)^2 + M_W^2 Gamma_W^2 (a Breit-Wigner of fixed width),
 * theta the angle between the incoming fermion (the quark) and the outgoing fermion (the
 * neutrino of a W+, the e- of a W-) in the l nu rest frame: the V-A law.  Written with the
 * charged lepton's angle theta_l to the incoming quark: W+ (u dbar' -> e+ nu)
 * (1 - cos theta_l)^2, W- (d' ubar -> e- nu~) (1 + cos theta_l)^2.  Integrated over the angle,
 * sigma_hat = |V|^2 / N_c pi alpha^2 m^2 / (12 sin^4 theta_W D).
 *
 * dsigma = sum_channels [x_a f(x_a)] [x_b f'(x_b)] |M|^2 / (2 m^4) dm^2 dy dc dphi / (32 pi^2),
 * mu_F = m, m in [GAPS_PP_W_M_LO, GAPS_PP_W_M_HI] (M_W -+ 20 Gamma_W).  The channels: the
 * pairs (u or c, d or s or b) with |V|^2 (pp_w.h), each as W+ (up quark, down antiquark) and
 * W- (down quark, up antiquark), the quark from either proton: 24.  The sampling is pp-ll's
 * (pp_ll.c): m^2 = M_W^2 + w tan(rho) with w = GAPS_PP_W_MAP_WIDTH M_W Gamma_W, y =
 * u ln(sqrt s / m), (rho, u) from a table that follows d sigma / drho du (gaps_pp_w_prepare);
 * c = cos theta_l of the charged lepton along +z from (3/8)[(1 + c^2) + beta c], the angular
 * distribution of the channels' sum at that (m, y), so that the weight depends on (m, y) only;
 * one channel is then chosen by its contribution at c.  Hard record: row 0 the quark, row 1
 * the antiquark (colours as pp-ll: a colour singlet), row 2 the charged lepton, row 3 the
 * neutrino; the shower starts at t = m^2. */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/pp_w.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

GAPS_PROCESS_DATA_FITS(gaps_pp_w_data);

static void pp_w_init(gaps_pp_w *w, double ecm, const gaps_process_options *options)
{
    const double sw2 = GAPS_SIN2_THETAW;
    w->m_lo = GAPS_PP_W_M_LO;
    w->m_hi = GAPS_PP_W_M_HI;
    w->mw2 = GAPS_PP_W_MW * GAPS_PP_W_MW;
    w->mw_gw = GAPS_PP_W_MW * GAPS_PP_W_GAMMA_W;
    w->map_w = w->mw_gw * GAPS_PP_W_MAP_WIDTH;
    w->rho_lo = atan((w->m_lo * w->m_lo - w->mw2) / w->map_w);
    w->rho_hi = atan((w->m_hi * w->m_hi - w->mw2) / w->map_w);
    w->sqrt_s = ecm;
    w->s = ecm * ecm;
    const double e2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM;
    w->norm = GAPS_GEV2_TO_PB * e2 * e2 / (16.0 * GAPS_PI * GAPS_NC) / (16.0 * sw2 * sw2);
    static const int up[GAPS_PP_W_PAIRS] = { 2, 2, 2, 4, 4, 4 };
    static const int down[GAPS_PP_W_PAIRS] = { 1, 3, 5, 1, 3, 5 };
    static const double v[GAPS_PP_W_PAIRS] = { GAPS_PP_W_VUD, GAPS_PP_W_VUS, GAPS_PP_W_VUB,
                                               GAPS_PP_W_VCD, GAPS_PP_W_VCS, GAPS_PP_W_VCB };
    for (int k = 0; k < GAPS_PP_W_PAIRS; ++k) {
        w->up[k] = up[k];
        w->down[k] = down[k];
        w->v2[k] = v[k] * v[k];
    }
    w->charge_on[0] = options->w_charge != GAPS_W_CHARGE_MINUS;
    w->charge_on[1] = options->w_charge != GAPS_W_CHARGE_PLUS;
    w->cells = 0;
}

/* The process's functions (process/process_impl.h). */
int gaps_process_pp_w_init(gaps_process *proc, char *msg, size_t len)
{
    if (!(proc->ecm > GAPS_PP_W_M_HI))
        return snprintf(msg, len, "--process pp-w needs sqrt(s) above its lepton-neutrino mass "
                        "window %g-%g GeV (got %g GeV)", GAPS_PP_W_M_LO, GAPS_PP_W_M_HI,
                        proc->ecm),
               -1;
    pp_w_init(&GAPS_PROCESS_DATA(gaps_pp_w_data, proc)->lo, proc->ecm, &proc->options);
    return 0;
}

/* A typical large weight: the largest channel at the pole, c = +-1, at the parton luminosity
 * GAPS_PP_W_UNIT_LUMINOSITY, with the W's own Breit-Wigner mapping. */
double gaps_process_pp_w_unit(const gaps_process *proc)
{
    const gaps_pp_w *w = &GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo;
    const double jac_m = (atan((w->m_hi * w->m_hi - w->mw2) / w->mw_gw)
                          - atan((w->m_lo * w->m_lo - w->mw2) / w->mw_gw)) * w->mw_gw;
    double v2max = 0.0;
    for (int k = 0; k < GAPS_PP_W_PAIRS; ++k) v2max = fmax(v2max, w->v2[k]);
    return GAPS_PP_W_UNIT_LUMINOSITY * w->norm * jac_m * gaps_log(w->s / w->mw2)
           / (w->mw_gw * w->mw_gw) * 4.0 * v2max;
}

double gaps_process_pp_w_hard_scale2(const gaps_process *proc)
{
    const gaps_pp_w *w = &GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo;
    return w->m_lo * w->m_lo;
}

/* mu_R = M_W (mu_F = m, the event's l nu mass) */
double gaps_process_pp_w_nlo_mu_r2(const gaps_process *proc)
{
    return GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo.mw2;
}

/* its LO weights do not contain alpha_s */
void gaps_process_pp_w_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    (void)proc;
    (void)as;
}

/* The builder's constants: mu_F = m_l nu, mu_R = M_W, the mass from the Breit-Wigner map of
 * the LO events; the uniforms as pp-ll's: (mass, rapidity cell), (lepton direction), (x_a,
 * x_b), the real point's seven, the H channel, the S channel, S or H. */
void gaps_process_pp_w_set_nlo(gaps_process *proc, double alphas, int compat)
{
    gaps_pp_w_data *d = GAPS_PROCESS_DATA(gaps_pp_w_data, proc);
    gaps_mcatnlo *mc = &d->nlo;
    gaps_mcatnlo_init(mc, alphas, compat);
    gaps_mcatnlo_set_lepton_pair(mc, d->lo.mw2, d->lo.map_w, d->lo.rho_lo, d->lo.rho_hi,
                                 d->lo.sqrt_s, d->lo.s);
}

/* the W recoils in the shower: the record holds its decay products, and the output rebuilds
 * it from them (gaps_process_info.decayed_boson, signed by their charge) */
int gaps_process_pp_w_intermediate(const gaps_process *proc, double p[4])
{
    (void)proc;
    (void)p;
    return 0;
}

/* an integral over the PDFs (tests/test_pp_w.c computes it independently) */
double gaps_process_pp_w_sigma_exact(const gaps_process *proc)
{
    (void)proc;
    return -1.0;
}

/* The parton luminosities of the four channels of pair k (4k + 2 charge + orientation:
 * charge 0 W+, 1 W-; orientation 0 the quark from the proton along +z) at fa, fb. */
static void pair_lumi(const gaps_pp_w *w, int k, const double *fa, const double *fb,
                      double lum[4])
{
    const int u = w->up[k], d = w->down[k];
    lum[0] = fa[6 + u] * fb[6 - d];   /* W+: u along +z, dbar along -z */
    lum[1] = fa[6 - d] * fb[6 + u];
    lum[2] = fa[6 + d] * fb[6 - u];   /* W-: d along +z, ubar along -z */
    lum[3] = fa[6 - u] * fb[6 + d];
}

/* The angle factor of channel 4k + j is (1 + sgn c)^2, c = cos theta of the charged lepton
 * along +z: W+ with the quark along +z (1 - c)^2, along -z (1 + c)^2; W- the opposite. */
static double channel_sign(int j)
{
    return (j == 1 || j == 2) ? 1.0 : -1.0;
}

/* The c-integrated weight density over (rho, u) with rho and u uniform, up to a constant
 * factor: what the table follows. */
static double cell_density(const gaps_pp_w *w, const gaps_pdf *pdf, double rho, double u)
{
    double srho, crho;
    gaps_sincos(rho, &srho, &crho);
    const double m2 = w->mw2 + w->map_w * (srho / crho);
    const double dm = m2 - w->mw2;
    const double den = dm * dm + w->mw_gw * w->mw_gw;
    const double y_range = gaps_log(w->s / m2);
    const double y = 0.5 * y_range * u;
    const double sqrt_tau = sqrt(m2) / w->sqrt_s;
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, sqrt_tau * gaps_exp(y), m2, fa);
    gaps_pdf_xfxq2_all(pdf, sqrt_tau * gaps_exp(-y), m2, fb);
    double sum = 0.0;
    for (int k = 0; k < GAPS_PP_W_PAIRS; ++k) {
        double lum[4];
        pair_lumi(w, k, fa, fb, lum);
        for (int j = 0; j < 4; ++j)
            if (w->charge_on[j / 2]) sum += w->v2[k] * fabs(lum[j]);
    }
    return sum * (dm * dm + w->map_w * w->map_w) * y_range / den;
}

/* As gaps_pp_ll_prepare: cell probabilities from the largest density at the cell's corners,
 * edge middles and centre. */
double gaps_process_pp_w_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    gaps_pp_w *w = &GAPS_PROCESS_DATA(gaps_pp_w_data, proc)->lo;
    enum { NR = 2 * GAPS_PP_W_M_BINS + 1, NU = 2 * GAPS_PP_W_Y_BINS + 1 };
    w->cells = 0;
    double *grid = malloc(sizeof(double) * NR * NU);
    if (!grid) return 0.0;
    double mean = 0.0;
    for (int a = 0; a < NR; ++a) {
        const double rho = w->rho_lo + (w->rho_hi - w->rho_lo) * a / (NR - 1);
        for (int b = 0; b < NU; ++b)
            grid[a * NU + b] = cell_density(w, pdf, rho, -1.0 + 2.0 * b / (NU - 1));
    }
    for (int i = 0; i < GAPS_PP_W_M_BINS; ++i)
        for (int j = 0; j < GAPS_PP_W_Y_BINS; ++j) {
            double m = 0.0;
            for (int a = 2 * i; a <= 2 * i + 2; ++a)
                for (int b = 2 * j; b <= 2 * j + 2; ++b) m = fmax(m, grid[a * NU + b]);
            w->cell_prob[i * GAPS_PP_W_Y_BINS + j] = m;
            mean += m / GAPS_PP_W_CELLS;
        }
    free(grid);
    w->cells = gaps_sampling_table_fill(w->cell_prob, w->cell_cum, GAPS_PP_W_CELLS);
    /* times norm jac_m / (dm^2 + map_w^2) and the mean 4/3 of (1 + c^2) + beta c over a
     * uniform c: the weight of uniform sampling */
    return w->cells > 0 ? mean * (4.0 / 3.0) * w->norm * (w->rho_hi - w->rho_lo) / w->map_w
                        : 0.0;
}

GAPS_DEVICE_BEGIN

/* The leading-order point for the uniforms (rrho, ry) (mass and rapidity cell) and (rc, rphi)
 * (the charged lepton's direction). */
typedef struct w_point {
    double m2, m, den, xa, xb;
    double c, st, cphi, sphi;
    double jac_m, y_range, cell_weight, c_weight;   /* the factors of the LO weight */
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    double lv[GAPS_PP_W_CHANNELS];   /* |V|^2 times the luminosity of each channel */
} w_point;

static void w_point_make(const gaps_pp_w *w, const gaps_pdf *pdf, double rrho, double ry,
                         double rc, double rphi, w_point *pt)
{
    /* the cell of (rho, u) and the point within it */
    double fr = rrho, fu = ry, cell_weight = 1.0;
    if (w->cells > 0) {
        const int k = gaps_sampling_table_pick(w->cell_prob, w->cell_cum, w->cells, ry, &fu,
                                               &cell_weight);
        fr = ((k / GAPS_PP_W_Y_BINS) + rrho) / GAPS_PP_W_M_BINS;
        fu = ((k % GAPS_PP_W_Y_BINS) + fu) / GAPS_PP_W_Y_BINS;
    }
    const double rho = w->rho_lo + (w->rho_hi - w->rho_lo) * fr;
    double srho, crho;
    gaps_sincos(rho, &srho, &crho);
    const double m2 = w->mw2 + w->map_w * (srho / crho);
    const double m = sqrt(m2);
    const double dm = m2 - w->mw2;
    const double den = dm * dm + w->mw_gw * w->mw_gw;
    const double jac_m = (w->rho_hi - w->rho_lo) * (dm * dm + w->map_w * w->map_w) / w->map_w;
    const double y_range = gaps_log(w->s / m2);
    const double y = 0.5 * y_range * (2.0 * fu - 1.0);
    const double sqrt_tau = m / w->sqrt_s;
    const double xa = sqrt_tau * gaps_exp(y);
    const double xb = sqrt_tau * gaps_exp(-y);

    /* luminosities times |V|^2 of the 24 channels (0 for a charge --w-charge leaves out), and
     * the odd part of their sum in c */
    gaps_pdf_xfxq2_all(pdf, xa, m2, pt->fa);
    gaps_pdf_xfxq2_all(pdf, xb, m2, pt->fb);
    double total = 0.0, odd = 0.0;
    for (int k = 0; k < GAPS_PP_W_PAIRS; ++k) {
        double lum[4];
        pair_lumi(w, k, pt->fa, pt->fb, lum);
        for (int j = 0; j < 4; ++j) {
            pt->lv[4 * k + j] = w->charge_on[j / 2] ? w->v2[k] * lum[j] : 0.0;
            total += pt->lv[4 * k + j];
            odd += channel_sign(j) * pt->lv[4 * k + j];
        }
    }

    /* c from (3/8)[(1 + c^2) + beta c], beta = 2 odd / total (sum_k L_k (1 + s_k c)^2 =
     * total (1 + c^2) + 2 odd c), |beta| kept below 1.9: pp-ll's sampling (leptons.c) */
    const double beta = total > 0.0 ? fmin(fmax(2.0 * odd / total, -1.9), 1.9) : 0.0;
    gaps_pp_lepton_direction(beta, rc, rphi, &pt->c, &pt->st, &pt->cphi, &pt->sphi,
                             &pt->c_weight);
    pt->m2 = m2;
    pt->m = m;
    pt->den = den;
    pt->xa = xa;
    pt->xb = xb;
    pt->jac_m = jac_m;
    pt->y_range = y_range;
    pt->cell_weight = cell_weight;
}

/* The leptons of the point, as pp-ll's (leptons.c): the charged lepton (p[0], direction c
 * along +z) and the neutrino (p[1]), back to back in their rest frame. */
static void w_leptons(const gaps_pp_w *w, const w_point *pt, double p[2][4])
{
    gaps_pp_lepton_momenta(w->sqrt_s, pt->m, pt->xa, pt->xb, pt->c, pt->st, pt->cphi, pt->sphi,
                           p);
}

void gaps_process_pp_w_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    const gaps_pp_w_data *d = GAPS_PROCESS_CDATA(gaps_pp_w_data, proc);
    if (d->nlo.nlo.on) {
        gaps_mcatnlo_generate(proc, &d->nlo, rng, ev);
        gaps_pp_lepton_flavour(proc->options.leptons, rng, ev);
        return;
    }
    const gaps_pp_w *w = &d->lo;
    double rrho, ry, rc, rphi;
    gaps_rng_uniform2(rng, &rrho, &ry);
    gaps_rng_uniform2(rng, &rc, &rphi);
    const double rch = gaps_rng_uniform(rng);
    w_point pt;
    w_point_make(w, proc->pdf, rrho, ry, rc, rphi, &pt);
    const double c = pt.c;

    /* the channel, by its contribution at c */
    double ch[GAPS_PP_W_CHANNELS];
    for (int i = 0; i < GAPS_PP_W_CHANNELS; ++i) {
        const double a = 1.0 + channel_sign(i % 4) * c;
        ch[i] = pt.lv[i] * a * a;
    }
    double sum, sign;
    const int kc = gaps_choose_channel(ch, GAPS_PP_W_CHANNELS, rch, &sum, &sign);
    const int pair = kc / 4, minus = (kc % 4) / 2, o = kc % 2;
    const int fq = minus ? w->down[pair] : w->up[pair];
    const int fqbar = minus ? w->up[pair] : w->down[pair];

    /* rows 0 (quark) and 1 (antiquark of the other flavour), colours as pp-ll's; rows 2
     * (charged lepton) and 3 (neutrino) */
    gaps_pp_born_incoming(0.5 * w->sqrt_s, fq, fqbar, o, pt.xa, pt.xb, ev);
    w_leptons(w, &pt, ev->p + 2);
    ev->flav[2] = minus ? GAPS_PDG_ELECTRON : -GAPS_PDG_ELECTRON;   /* e- of a W-, e+ of a W+ */
    ev->flav[3] = minus ? -GAPS_PDG_NU_E : GAPS_PDG_NU_E;
    ev->col[2] = ev->acol[2] = ev->col[3] = ev->acol[3] = 0;
    ev->n = 4;
    ev->next_tag = 2;
    ev->weight = sign * sum * w->norm * pt.jac_m * pt.y_range / pt.den * pt.cell_weight
                 * pt.c_weight;
    ev->t_start = pt.m2;
    gaps_pp_lepton_flavour(proc->options.leptons, rng, ev);
}

/* ---- its NLO events: the functions the builder of mcatnlo.h calls ---- */

/* Born channel 4 pair + 2 charge + o as at LO (charge 0 W+: up quark, down antiquark; o = 0
 * the quark along +z), factor |V|^2 (1 + s c)^2; the leptons as at LO, e+ nu_e for a W+ (the
 * builder conjugates them for a W-). */
void gaps_process_pp_w_nlo_born(const gaps_process *proc, const double *u, gaps_nlo_born *b)
{
    const gaps_pp_w *w = &GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo;
    w_point pt;
    w_point_make(w, proc->pdf, u[0], u[1], u[2], u[3], &pt);
    b->ea = pt.xa;
    b->eb = pt.xb;
    b->m2 = pt.m2;
    for (int m = 0; m < GAPS_PDF_NPARTONS; ++m) b->fa[m] = pt.fa[m], b->fb[m] = pt.fb[m];
    b->channels = GAPS_PP_W_CHANNELS;
    for (int k = 0; k < GAPS_PP_W_PAIRS; ++k)
        for (int j = 0; j < 4; ++j) {
            const int i = 4 * k + j, up = 6 + w->up[k], down = 6 + w->down[k];
            const double a = 1.0 + channel_sign(j) * pt.c;
            b->factor[i] = w->charge_on[j / 2] ? w->v2[k] * a * a : 0.0;
            /* as pair_lumi: u dbar, dbar u, d ubar, ubar d along (+z, -z) */
            const int plus_z[4] = { up, 12 - down, down, 12 - up };
            const int minus_z[4] = { 12 - down, up, 12 - up, down };
            b->pa[i] = (signed char)plus_z[j];
            b->pb[i] = (signed char)minus_z[j];
        }
    b->n_out = 2;
    w_leptons(w, &pt, b->p_out);
    b->flav_out[0] = -GAPS_PDG_ELECTRON;
    b->flav_out[1] = GAPS_PDG_NU_E;
    b->own[0] = pt.jac_m;
    b->own[1] = pt.y_range;
    b->own[2] = pt.den;
    b->own[3] = pt.cell_weight;
    b->own[4] = pt.c_weight;
}

double gaps_process_pp_w_nlo_s_weight(const gaps_process *proc, const gaps_nlo_born *b,
                                      double sum)
{
    const gaps_pp_w *w = &GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo;
    return sum * w->norm * b->own[0] * b->own[1] / b->own[2] * b->own[3] * b->own[4];
}

/* The real channels: H channel 6 (2 pair + charge) + type, types those of
 * gaps_nlo_h_partons_qq (q qbar', qbar' q -> l nu g; q g, qbar' g, g q, g qbar' -> l nu +
 * (anti)quark), q the pair's up quark for a W+ (charge 0) and its down quark for a W-.  The
 * matrix elements are pp-ll's (pp_ll_nlo.c) with the V-A Born P (1 + cos theta)^2, theta the
 * angle between the quark and the outgoing fermion: P = (4 pi alpha)^2 / N_c |V|^2 m^4 /
 * (16 sin^4 theta_W D), Q = 0, the fermion in pp-ll's l- argument and the antifermion in its
 * l+ (W+: nu and e+; W-: e- and nu~), the charged lepton being the builder's ql[0]. */
int gaps_process_pp_w_nlo_real(const gaps_process *proc, double as, const gaps_nlo_real *r,
                               double *ch, double *cm)
{
    const gaps_pp_w *w = &GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo;
    const double *qa = r->qa, *qb = r->qb, *qk = r->qk, *f1 = r->f1, *f2 = r->f2;
    const double m2 = r->m2, dm = m2 - w->mw2, den = dm * dm + w->mw_gw * w->mw_gw;
    const double sw2 = GAPS_SIN2_THETAW, e2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM;
    const double P = e2 * e2 / GAPS_NC * m2 * m2 / (16.0 * sw2 * sw2 * den);
    for (int charge = 0; charge < 2; ++charge) {
        if (!w->charge_on[charge]) {   /* left out by --w-charge: no H or M weight */
            for (int k = 0; k < GAPS_PP_W_PAIRS; ++k)
                for (int type = 0; type < 6; ++type) {
                    const int i = 6 * (2 * k + charge) + type;
                    ch[i] = cm[2 * i] = cm[2 * i + 1] = 0.0;
                }
            continue;
        }
        /* |M|^2 / |V|^2 of the six types, and their dipoles */
        const double *lf = charge == 0 ? r->ql[1] : r->ql[0];   /* the fermion */
        const double *la = charge == 0 ? r->ql[0] : r->ql[1];   /* the antifermion */
        double re[6], d[6][2];
        double me[6] = {
            gaps_pp_ll_qqbar_subtracted(P, 0.0, as, qa, qb, lf, la, qk, &re[0], d[0]),
            gaps_pp_ll_qqbar_subtracted(P, 0.0, as, qb, qa, lf, la, qk, &re[1], d[1]),
            gaps_pp_ll_qg_subtracted(P, 0.0, as, 0, qa, qb, lf, la, qk, &re[2], d[2]),
            gaps_pp_ll_qg_subtracted(P, 0.0, as, 1, qa, qb, lf, la, qk, &re[3], d[3]),
            gaps_pp_ll_qg_subtracted(P, 0.0, as, 0, qb, qa, lf, la, qk, &re[4], d[4]),
            gaps_pp_ll_qg_subtracted(P, 0.0, as, 1, qb, qa, lf, la, qk, &re[5], d[5]) };
        if (r->above)
            for (int type = 0; type < 6; ++type) me[type] = re[type];
        for (int k = 0; k < GAPS_PP_W_PAIRS; ++k) {
            const int fq = charge ? w->down[k] : w->up[k], fqb = charge ? w->up[k] : w->down[k];
            const double p1[6] = { f1[6 + fq], f1[6 - fqb], f1[6 + fq], f1[6 - fqb], f1[6], f1[6] };
            const double p2[6] = { f2[6 - fqb], f2[6 + fq], f2[6], f2[6], f2[6 + fq], f2[6 - fqb] };
            const int base = 6 * (2 * k + charge);
            for (int type = 0; type < 6; ++type) {
                const double lum = r->jac * w->v2[k] * p1[type] * p2[type];
                ch[base + type] = lum * me[type];
                for (int j = 0; j < 2; ++j)
                    cm[2 * (base + type) + j] = r->above ? -lum * d[type][j] : 0.0;
            }
        }
    }
    return 12 * GAPS_PP_W_PAIRS;
}

static void w_channel_flavours(const gaps_pp_w *w, int k, int *fq, int *fqb)
{
    const int pair = k / 12, charge = (k / 6) % 2;
    *fq = charge ? w->down[pair] : w->up[pair];
    *fqb = charge ? w->up[pair] : w->down[pair];
}

int gaps_process_pp_w_nlo_h_partons(const gaps_process *proc, int k, int out,
                                     gaps_hard_event *ev)
{
    int fq, fqb;
    w_channel_flavours(&GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo, k, &fq, &fqb);
    return gaps_nlo_h_partons_qq(k % 6, fq, fqb, out, ev);
}

/* As pp-ll's (the same argument order of the matrix elements): the q qbar' types' dipole
 * j = 0 is the quark's, the q g types' the gluon's; the Born's quark from leg 1 (+z) for
 * types 0, 2 and 5. */
void gaps_process_pp_w_nlo_m_born(const gaps_process *proc, int k, int *emitter_a, int *pa,
                                  int *pb)
{
    const int kh = k / 2, type = kh % 6, j = k % 2;
    int fq, fqb;
    w_channel_flavours(&GAPS_PROCESS_CDATA(gaps_pp_w_data, proc)->lo, kh, &fq, &fqb);
    *emitter_a = type == 0 ? j == 0 : type == 1 ? j == 1 : type >= 4;
    const int quark_minus_z = type == 1 || type == 3 || type == 4;
    *pa = quark_minus_z ? 6 - fqb : 6 + fq;
    *pb = quark_minus_z ? 6 + fq : 6 - fqb;
}

GAPS_DEVICE_END
