/* pp_ll.c -- Drell-Yan p p -> Z/gamma* -> e- e+ at leading order, dilepton mass in the window
 * [GAPS_PP_LL_M_LO, GAPS_PP_LL_M_HI], the process pp-ll of GAPS_PROCESSES (its NLO events:
 * the builder of mcatnlo.h, with the functions at the end of this file) (doc/physics.md,
 * section "Hadronic hard processes").
 *
 * Partonic |M|^2, averaged over the spins and colours of q qbar and summed over the leptons'
 * spins: the e+e- -> q qbar one of ee_qq.c crossed, with the colour factor 1/N_c instead of
 * N_c and the quark's couplings on the incoming side:
 *   |M|^2 = (4 pi alpha)^2 / N_c [A_f (1 + c^2) + B_f c],
 *   A_f = q_l^2 q_f^2 + 2 q_l q_f v_l v_f chi1 + (a_l^2 + v_l^2)(a_f^2 + v_f^2) chi2,
 *   B_f = 4 q_l q_f a_l a_f chi1 + 8 a_l v_l a_f v_f chi2,
 *   chi1 = kappa m^2 (m^2 - M_Z^2) / D, chi2 = (kappa m^2)^2 / D,
 *   D = (m^2 - M_Z^2)^2 + Gamma_Z^2 M_Z^2, kappa = 1 / (4 sin^2 theta_W cos^2 theta_W),
 * where c is the cosine of the angle between the incoming QUARK and the outgoing l- in the
 * dilepton rest frame.  With that angle B_f > 0 means l- follows the quark (the textbook
 * forward-backward asymmetry: e.g. for u quarks B > 0 above the pole, B < 0 well below it).
 *
 * dsigma = sum_(f, orientation) [x_a f(x_a)] [x_b f'(x_b)] |M|^2 / (2 m^4)
 *          dm^2 dy dc dphi / (32 pi^2)   at mu_F = m.
 * Sampling: m^2 = M_Z^2 + w tan(rho), a Breit-Wigner GAPS_PP_LL_MAP_WIDTH times wider than
 * the Z's (w = M_Z Gamma_Z GAPS_PP_LL_MAP_WIDTH), and y = u ln(sqrt s / m) with u in [-1, 1],
 * where both x stay below 1; (rho, u) from a table of GAPS_PP_LL_CELLS cells that follows
 * d sigma / drho du (gaps_pp_ll_prepare, built at the start of a run from the run's PDFs with
 * the code of pp_z.c's rapidity table; without it rho and u are uniform).  The l- direction
 * in the dilepton rest frame, whose z axis is the beam axis (at LO the pair has no transverse
 * momentum): phi uniform in [0, 2 pi), c = cos theta from (3/8)[(1 + c^2) + beta c], the
 * angular distribution of the sum of the channels at that (m, y), so that the weight depends
 * on (m, y) only and nearly cancels against the table (at 13 TeV with CT14lo the weights'
 * standard deviation is 7 % of their mean, against 55 % with m flat in the Z's rho, y and c
 * uniform).  As in pp_z.c, the ten channels (flavour, which proton gives the quark) are
 * summed in the weight and one is chosen with probability proportional to its contribution. */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/pp_ll.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

GAPS_PROCESS_DATA_FITS(gaps_pp_ll_data);

/* The process's functions (process/process_impl.h). */
int gaps_process_pp_ll_init(gaps_process *proc, char *msg, size_t len)
{
    /* the whole mass window must be reachable (the rapidity range of m is ln(s / m^2)) */
    if (!(proc->ecm > GAPS_PP_LL_M_HI))
        return snprintf(msg, len, "--process pp-ll needs sqrt(s) above its dilepton mass window "
                        "%g-%g GeV (got %g GeV)", GAPS_PP_LL_M_LO, GAPS_PP_LL_M_HI, proc->ecm),
               -1;
    gaps_pp_ll_init(&GAPS_PROCESS_DATA(gaps_pp_ll_data, proc)->lo, proc->ecm);
    return 0;
}

double gaps_process_pp_ll_unit(const gaps_process *proc)
{
    return gaps_pp_ll_weight_unit(&GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc)->lo);
}

double gaps_process_pp_ll_hard_scale2(const gaps_process *proc)
{
    const gaps_pp_ll *lo = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc)->lo;
    return lo->m_lo * lo->m_lo;
}

double gaps_process_pp_ll_nlo_mu_r2(const gaps_process *proc)
{
    return GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc)->lo.mz2;   /* mu_R = M_Z (mu_F = m_ll) */
}

/* its LO weights do not contain alpha_s */
void gaps_process_pp_ll_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    (void)proc;
    (void)as;
}

/* The builder's constants: mu_F = m_ll, mu_R = M_Z, the leptons' mass from the Breit-Wigner
 * map of the LO events; the uniforms (mass, rapidity cell), (l- direction), (x_a, x_b), the
 * real point's seven (mass, ln tau', y-hat, the parton's cos theta and phi, the l-'s), the H
 * channel, the S channel, S or H. */
void gaps_process_pp_ll_set_nlo(gaps_process *proc, double alphas, int compat)
{
    gaps_pp_ll_data *d = GAPS_PROCESS_DATA(gaps_pp_ll_data, proc);
    gaps_mcatnlo *mc = &d->nlo;
    gaps_mcatnlo_init(mc, alphas, compat);
    gaps_mcatnlo_set_lepton_pair(mc, d->lo.mz2, d->lo.map_w, d->lo.rho_lo, d->lo.rho_hi,
                                 d->lo.sqrt_s, d->lo.s);
}

double gaps_process_pp_ll_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    return gaps_pp_ll_prepare(&GAPS_PROCESS_DATA(gaps_pp_ll_data, proc)->lo, pdf);
}

/* the Z/gamma* recoils in the shower: the record holds its decay products, and the output
 * rebuilds it from them (gaps_process_info.decayed_boson) */
int gaps_process_pp_ll_intermediate(const gaps_process *proc, double p[4])
{
    (void)proc;
    (void)p;
    return 0;
}

/* the cross section is an integral over the PDFs (numerical; tests/test_pp_processes.c
 * computes it) */
double gaps_process_pp_ll_sigma_exact(const gaps_process *proc)
{
    (void)proc;
    return -1.0;
}

void gaps_pp_ll_init(gaps_pp_ll *ll, double ecm)
{
    const double sw2 = GAPS_SIN2_THETAW;
    const double ql = -1.0, al = -0.5, vl = al - 2.0 * ql * sw2;   /* the electron */
    ll->m_lo = GAPS_PP_LL_M_LO;
    ll->m_hi = GAPS_PP_LL_M_HI;
    ll->mz2 = GAPS_MZ * GAPS_MZ;
    ll->mz_gz = GAPS_MZ * GAPS_GAMMA_Z;
    /* host only, once per run: the values are copied wherever the loops run */
    ll->map_w = ll->mz_gz * GAPS_PP_LL_MAP_WIDTH;
    ll->rho_lo = atan((ll->m_lo * ll->m_lo - ll->mz2) / ll->map_w);
    ll->rho_hi = atan((ll->m_hi * ll->m_hi - ll->mz2) / ll->map_w);
    ll->kappa = 1.0 / (4.0 * sw2 * (1.0 - sw2));
    ll->sqrt_s = ecm;
    ll->s = ecm * ecm;
    ll->a0[0] = ll->a1[0] = ll->a2[0] = ll->b1[0] = ll->b2[0] = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        double qf, vf, af;
        gaps_quark_couplings(f, &qf, &vf, &af);
        ll->a0[f] = ql * ql * qf * qf;
        ll->a1[f] = 2.0 * ql * qf * vl * vf;
        ll->a2[f] = (al * al + vl * vl) * (af * af + vf * vf);
        ll->b1[f] = 4.0 * ql * qf * al * af;
        ll->b2[f] = 8.0 * al * vl * af * vf;
    }
    const double e2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM;
    ll->norm = GAPS_GEV2_TO_PB * e2 * e2 / (16.0 * GAPS_PI * GAPS_NC);
}

/* A typical large weight: the weight at m = M_Z, c = +-1 for the largest channel at the parton
 * luminosity GAPS_PP_LL_UNIT_LUMINOSITY (constants.h). */
double gaps_pp_ll_weight_unit(const gaps_pp_ll *ll)
{
    /* D / (M Gamma) at the pole, with the Z's own Breit-Wigner mapping */
    const double jac_m = (atan((ll->m_hi * ll->m_hi - ll->mz2) / ll->mz_gz)
                          - atan((ll->m_lo * ll->m_lo - ll->mz2) / ll->mz_gz)) * ll->mz_gz;
    const double chi2 = ll->kappa * ll->mz2 * ll->kappa * ll->mz2 / (ll->mz_gz * ll->mz_gz);
    double mmax = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        mmax = fmax(mmax, 2.0 * (ll->a0[f] + ll->a2[f] * chi2) + fabs(ll->b2[f] * chi2));
    return GAPS_PP_LL_UNIT_LUMINOSITY * ll->norm * jac_m * gaps_log(ll->s / ll->mz2)
           / (ll->mz2 * ll->mz2) * mmax;
}

/* The c-integrated weight density over (rho, u = y / y_max(m)) with rho and u uniform, up to
 * a constant factor: what the table of gaps_pp_ll_prepare follows. */
static double cell_density(const gaps_pp_ll *ll, const gaps_pdf *pdf, double rho, double u)
{
    double srho, crho;
    gaps_sincos(rho, &srho, &crho);
    const double m2 = ll->mz2 + ll->map_w * (srho / crho);
    const double dm = m2 - ll->mz2;
    const double den = dm * dm + ll->mz_gz * ll->mz_gz;
    const double y_range = gaps_log(ll->s / m2);
    const double y = 0.5 * y_range * u;
    const double sqrt_tau = sqrt(m2) / ll->sqrt_s;
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, sqrt_tau * gaps_exp(y), m2, fa);
    gaps_pdf_xfxq2_all(pdf, sqrt_tau * gaps_exp(-y), m2, fb);
    const double km2 = ll->kappa * m2;
    const double chi1 = km2 * dm / den, chi2 = km2 * km2 / den;
    double sum = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        const double A = ll->a0[f] + ll->a1[f] * chi1 + ll->a2[f] * chi2;
        sum += fabs(A) * (fabs(fa[6 + f] * fb[6 - f]) + fabs(fa[6 - f] * fb[6 + f]));
    }
    return sum * (dm * dm + ll->map_w * ll->map_w) * y_range / (m2 * m2);
}

/* Cell probabilities proportional to the largest of the density at the cell's corners, the
 * middles of its edges and its centre (a grid of (2 n_rho + 1) x (2 n_y + 1) points), with the
 * floor of gaps_sampling_table_fill. */
double gaps_pp_ll_prepare(gaps_pp_ll *ll, const gaps_pdf *pdf)
{
    enum { NR = 2 * GAPS_PP_LL_M_BINS + 1, NU = 2 * GAPS_PP_LL_Y_BINS + 1 };
    ll->cells = 0;
    double *grid = malloc(sizeof(double) * NR * NU);
    if (!grid) return 0.0;   /* no table: uniform sampling, the same cross section */
    double mean = 0.0;
    for (int a = 0; a < NR; ++a) {
        const double rho = ll->rho_lo + (ll->rho_hi - ll->rho_lo) * a / (NR - 1);
        for (int b = 0; b < NU; ++b)
            grid[a * NU + b] = cell_density(ll, pdf, rho, -1.0 + 2.0 * b / (NU - 1));
    }
    for (int i = 0; i < GAPS_PP_LL_M_BINS; ++i)
        for (int j = 0; j < GAPS_PP_LL_Y_BINS; ++j) {
            double m = 0.0;
            for (int a = 2 * i; a <= 2 * i + 2; ++a)
                for (int b = 2 * j; b <= 2 * j + 2; ++b) m = fmax(m, grid[a * NU + b]);
            ll->cell_prob[i * GAPS_PP_LL_Y_BINS + j] = m;
            mean += m / GAPS_PP_LL_CELLS;
        }
    free(grid);
    ll->cells = gaps_sampling_table_fill(ll->cell_prob, ll->cell_cum, GAPS_PP_LL_CELLS);
    /* the density times norm jac_m / (dm^2 + map_w^2) and the mean 4/3 of (1 + c^2) over a
     * uniform c: the weight of uniform sampling */
    return ll->cells > 0 ? mean * (4.0 / 3.0) * ll->norm * (ll->rho_hi - ll->rho_lo) / ll->map_w
                         : 0.0;
}

GAPS_DEVICE_BEGIN

void gaps_pp_ll_point_make(const gaps_pp_ll *ll, const gaps_pdf *pdf, double rrho, double ry,
                           double rc, double rphi, gaps_pp_ll_point *pt)
{
    /* the cell of (rho, u = y / y_max(m)) from the table, and the point within it (uniform
     * without a table) */
    double fr = rrho, fu = ry, cell_weight = 1.0;   /* uniform density / sampled density */
    if (ll->cells > 0) {
        const int k = gaps_sampling_table_pick(ll->cell_prob, ll->cell_cum, ll->cells, ry, &fu,
                                               &cell_weight);
        fr = ((k / GAPS_PP_LL_Y_BINS) + rrho) / GAPS_PP_LL_M_BINS;
        fu = ((k % GAPS_PP_LL_Y_BINS) + fu) / GAPS_PP_LL_Y_BINS;
    }

    /* m^2 from the Breit-Wigner: dm^2 = D / (M Gamma) drho */
    const double rho = ll->rho_lo + (ll->rho_hi - ll->rho_lo) * fr;
    double srho, crho;
    gaps_sincos(rho, &srho, &crho);
    const double m2 = ll->mz2 + ll->map_w * (srho / crho);
    const double m = sqrt(m2);
    const double dm = m2 - ll->mz2;
    const double den = dm * dm + ll->mz_gz * ll->mz_gz;
    const double jac_m = (ll->rho_hi - ll->rho_lo) * (dm * dm + ll->map_w * ll->map_w) / ll->map_w;

    /* rapidity of the pair, where both x stay below 1 */
    const double y_range = gaps_log(ll->s / m2);   /* 2 ln(sqrt s / m): the Jacobian */
    const double y = 0.5 * y_range * (2.0 * fu - 1.0);
    const double sqrt_tau = m / ll->sqrt_s;
    const double xa = sqrt_tau * gaps_exp(y);
    const double xb = sqrt_tau * gaps_exp(-y);

    /* |M|^2 coefficients at this m^2, and the parton luminosities of each flavour with the
     * quark from the proton along +z (lp) or along -z (lm) */
    const double km2 = ll->kappa * m2;
    const double chi1 = km2 * dm / den;
    const double chi2 = km2 * km2 / den;
    gaps_pdf_xfxq2_all(pdf, xa, m2, pt->fa);
    gaps_pdf_xfxq2_all(pdf, xb, m2, pt->fb);
    double a_sum = 0.0, b_sum = 0.0;
    pt->A[0] = pt->B[0] = pt->lp[0] = pt->lm[0] = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        pt->A[f] = ll->a0[f] + ll->a1[f] * chi1 + ll->a2[f] * chi2;
        pt->B[f] = ll->b1[f] * chi1 + ll->b2[f] * chi2;
        pt->lp[f] = pt->fa[6 + f] * pt->fb[6 - f];
        pt->lm[f] = pt->fa[6 - f] * pt->fb[6 + f];
        a_sum += (pt->lp[f] + pt->lm[f]) * pt->A[f];
        b_sum += (pt->lp[f] - pt->lm[f]) * pt->B[f];
    }

    /* the l- direction in the pair's rest frame: c = cos theta along +z from the density
     * (3/8)[(1 + c^2) + beta c], beta = b_sum / a_sum (that of the channels' sum, so that the
     * weight does not depend on c), |beta| kept below 1.9 (leptons.c) */
    const double beta = a_sum > 0.0 ? fmin(fmax(b_sum / a_sum, -1.9), 1.9) : 0.0;
    gaps_pp_lepton_direction(beta, rc, rphi, &pt->c, &pt->st, &pt->cphi, &pt->sphi,
                             &pt->c_weight);
    pt->m2 = m2;
    pt->m = m;
    pt->xa = xa;
    pt->xb = xb;
    pt->jac_m = jac_m;
    pt->y_range = y_range;
    pt->cell_weight = cell_weight;
}

/* The leptons of the point (leptons.c): l- (p[0]) and l+ (p[1]), back to back. */
static void born_leptons(const gaps_pp_ll *ll, const gaps_pp_ll_point *pt, double p[2][4])
{
    gaps_pp_lepton_momenta(ll->sqrt_s, pt->m, pt->xa, pt->xb, pt->c, pt->st, pt->cphi, pt->sphi,
                           p);
}

void gaps_pp_ll_born_record(const gaps_pp_ll *ll, const gaps_pp_ll_point *pt, int channel,
                            gaps_hard_event *ev)
{
    /* incoming partons: rows 0 (quark) and 1 (antiquark) */
    const int f = 1 + channel / 2;
    gaps_pp_born_incoming(0.5 * ll->sqrt_s, f, f, channel % 2, pt->xa, pt->xb, ev);
    /* outgoing leptons: rows 2 (l-) and 3 (l+) */
    born_leptons(ll, pt, ev->p + 2);
    ev->flav[2] = GAPS_PDG_ELECTRON;
    ev->flav[3] = -GAPS_PDG_ELECTRON;
    ev->col[2] = ev->acol[2] = ev->col[3] = ev->acol[3] = 0;
    ev->n = 4;
    ev->next_tag = 2;
}

void gaps_pp_ll_generate(const gaps_pp_ll *ll, const gaps_pdf *pdf, gaps_rng *rng,
                         gaps_hard_event *ev)
{
    double rrho, ry, rc, rphi;
    gaps_rng_uniform2(rng, &rrho, &ry);
    gaps_rng_uniform2(rng, &rc, &rphi);
    const double rch = gaps_rng_uniform(rng);
    gaps_pp_ll_point pt;
    gaps_pp_ll_point_make(ll, pdf, rrho, ry, rc, rphi, &pt);

    /* channel 2(f-1) + o: quark from the proton along +z (o = 0: the angle to the quark is
     * theta, c_q = c) or along -z (o = 1: c_q = -c) */
    const double c = pt.c;
    double ch[2 * GAPS_N_FLAVOURS];
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        const double even = pt.A[f] * (1.0 + c * c);
        ch[2 * (f - 1)] = pt.lp[f] * (even + pt.B[f] * c);
        ch[2 * (f - 1) + 1] = pt.lm[f] * (even - pt.B[f] * c);
    }
    double sum, sign;
    const int k = gaps_choose_channel(ch, 2 * GAPS_N_FLAVOURS, rch, &sum, &sign);
    gaps_pp_ll_born_record(ll, &pt, k, ev);
    const double m2 = pt.m2;
    ev->weight = sign * sum * ll->norm * pt.jac_m * pt.y_range / (m2 * m2) * pt.cell_weight
                 * pt.c_weight;
    ev->t_start = m2;   /* the mass^2 of the colour-connected q qbar pair */
}

void gaps_process_pp_ll_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    const gaps_pp_ll_data *d = GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc);
    if (d->nlo.nlo.on) gaps_mcatnlo_generate(proc, &d->nlo, rng, ev);
    else gaps_pp_ll_generate(&d->lo, proc->pdf, rng, ev);
    gaps_pp_lepton_flavour(proc->options.leptons, rng, ev);   /* --leptons: e- e+ or mu- mu+ */
}

/* ---- its NLO events: the functions the builder of mcatnlo.h calls (doc/nlo.md section 12) ---- */

/* The Born point of the LO events (uniforms u[0..3]); channel 2(f-1) + o as at LO, factor
 * A_f (1 + c^2) +- B_f c; own: the point's Jacobians. */
void gaps_process_pp_ll_nlo_born(const gaps_process *proc, const double *u, gaps_nlo_born *b)
{
    const gaps_pp_ll *ll = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc)->lo;
    gaps_pp_ll_point pt;
    gaps_pp_ll_point_make(ll, proc->pdf, u[0], u[1], u[2], u[3], &pt);
    const double c = pt.c;
    b->ea = pt.xa;
    b->eb = pt.xb;
    b->m2 = pt.m2;
    for (int m = 0; m < GAPS_PDF_NPARTONS; ++m) b->fa[m] = pt.fa[m], b->fb[m] = pt.fb[m];
    b->channels = 2 * GAPS_N_FLAVOURS;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        for (int o = 0; o < 2; ++o) {
            const int k = 2 * (f - 1) + o;
            b->factor[k] = pt.A[f] * (1.0 + c * c) + (o == 0 ? pt.B[f] : -pt.B[f]) * c;
            b->pa[k] = (signed char)(o == 0 ? 6 + f : 6 - f);
            b->pb[k] = (signed char)(12 - b->pa[k]);
        }
    b->n_out = 2;
    born_leptons(ll, &pt, b->p_out);
    b->flav_out[0] = GAPS_PDG_ELECTRON;
    b->flav_out[1] = -GAPS_PDG_ELECTRON;
    b->own[0] = pt.jac_m;
    b->own[1] = pt.y_range;
    b->own[2] = pt.m2;
    b->own[3] = pt.cell_weight;
    b->own[4] = pt.c_weight;
}

double gaps_process_pp_ll_nlo_s_weight(const gaps_process *proc, const gaps_nlo_born *b,
                                       double sum)
{
    const gaps_pp_ll *ll = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc)->lo;
    return sum * ll->norm * b->own[0] * b->own[1] / (b->own[2] * b->own[2]) * b->own[3]
           * b->own[4];
}

/* H channel 6(f-1) + type (types as pp-z's: q qbar, qbar q -> l l g; q g, qbar g, g q,
 * g qbar -> l l q(bar)), M entry 2 (6(f-1) + type) + j: dipole j of the type's subtracted
 * function (j = 0: the first argument's leg emits). */
int gaps_process_pp_ll_nlo_real(const gaps_process *proc, double as, const gaps_nlo_real *r,
                                double *ch, double *cm)
{
    const gaps_pp_ll *ll = &GAPS_PROCESS_CDATA(gaps_pp_ll_data, proc)->lo;
    const double *qa = r->qa, *qb = r->qb, *qk = r->qk, *qlm = r->ql[0], *qlp = r->ql[1];
    const double *f1 = r->f1, *f2 = r->f2, jac = r->jac;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        double P, Q, re[6], d[6][2];
        gaps_pp_ll_born_pq(ll, f, r->m2, &P, &Q);
        double me[6] = {
            gaps_pp_ll_qqbar_subtracted(P, Q, as, qa, qb, qlm, qlp, qk, &re[0], d[0]),
            gaps_pp_ll_qqbar_subtracted(P, Q, as, qb, qa, qlm, qlp, qk, &re[1], d[1]),
            gaps_pp_ll_qg_subtracted(P, Q, as, 0, qa, qb, qlm, qlp, qk, &re[2], d[2]),
            gaps_pp_ll_qg_subtracted(P, Q, as, 1, qa, qb, qlm, qlp, qk, &re[3], d[3]),
            gaps_pp_ll_qg_subtracted(P, Q, as, 0, qb, qa, qlm, qlp, qk, &re[4], d[4]),
            gaps_pp_ll_qg_subtracted(P, Q, as, 1, qb, qa, qlm, qlp, qk, &re[5], d[5]) };
        const double p1[6] = { f1[6 + f], f1[6 - f], f1[6 + f], f1[6 - f], f1[6], f1[6] };
        const double p2[6] = { f2[6 - f], f2[6 + f], f2[6], f2[6], f2[6 + f], f2[6 - f] };
        for (int type = 0; type < 6; ++type) {
            if (r->above) me[type] = re[type];
            ch[6 * (f - 1) + type] = jac * p1[type] * p2[type] * me[type];
            for (int j = 0; j < 2; ++j)
                cm[12 * (f - 1) + 2 * type + j]
                    = r->above ? -jac * p1[type] * p2[type] * d[type][j] : 0.0;
        }
    }
    return 6 * GAPS_N_FLAVOURS;
}

int gaps_process_pp_ll_nlo_h_partons(const gaps_process *proc, int k, int out,
                                      gaps_hard_event *ev)
{
    (void)proc;
    return gaps_nlo_h_partons_qq(k % 6, 1 + k / 6, 1 + k / 6, out, ev);
}

/* The emitter of dipole j: for the q qbar types the quark's dipole is j = 0 (the quark is leg
 * 1 in type 0, leg 2 in type 1); for the q g types the gluon's (leg 2 in types 2, 3; leg 1 in
 * 4, 5).  The Born's quark comes from leg 1 (+z) for types 0, 2 and 5. */
void gaps_process_pp_ll_nlo_m_born(const gaps_process *proc, int k, int *emitter_a, int *pa,
                                   int *pb)
{
    (void)proc;
    const int f = 1 + k / 12, type = (k % 12) / 2, j = k % 2;
    *emitter_a = type == 0 ? j == 0 : type == 1 ? j == 1 : type >= 4;
    const int quark_minus_z = type == 1 || type == 3 || type == 4;
    *pa = quark_minus_z ? 6 - f : 6 + f;
    *pb = 12 - *pa;
}

GAPS_DEVICE_END
