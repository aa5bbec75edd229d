/* pp_z.c -- p p -> Z on shell at leading order: q qbar -> Z for five massless flavours, the
 * process pp-z of GAPS_PROCESSES (doc/physics.md, section "Hadronic hard processes"; GAPS 2.1's
 * LHC LO process), and what its NLO events (--nlo 1, the builder of mcatnlo.h) need of it.
 *
 * sigma = sum_f sum_orientations integral dy [x_a f(x_a, M_Z^2)] [x_b f'(x_b, M_Z^2)]
 *         * pi |M_f|^2 / M_Z^4,   x_a = (M_Z / sqrt s) e^y, x_b = (M_Z / sqrt s) e^-y,
 * with the spin- and colour-averaged |M_f|^2 = 4 sqrt(2) G_F M_Z^4 (a_f^2 + v_f^2) / (4 N_c),
 * 4 sqrt(2) G_F = 4 pi alpha / (M_Z^2 sin^2 theta_W cos^2 theta_W).
 *
 * Sampling: y in [-Y, Y], Y = ln(sqrt s / M_Z), from a table of GAPS_PP_Y_BINS bins that
 * follows d sigma/dy (gaps_pp_z_prepare; without it uniform, Jacobian 2Y).  The ten channels
 * (flavour, which proton gives the quark) are then chosen with probability proportional to
 * the magnitude of their contribution at that y, and the event carries the sum of all ten:
 * an importance sampling of the discrete sum that is exact for it, so the weight varies with
 * y only (the PDFs are evaluated at x_a and x_b once for all flavours).  The mean weight is
 * the cross section whatever PDFs are used; a channel with a negative contribution (a set
 * without ForcePositive) is chosen with probability |c_k| / sum |c| and the weight then is
 * -sum |c|, still unbiased. */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/pp_z.h"

#include <math.h>
#include <stdio.h>

GAPS_PROCESS_DATA_FITS(gaps_pp_z_data);

/* The process's functions (process/process_impl.h). */
int gaps_process_pp_z_init(gaps_process *proc, char *msg, size_t len)
{
    /* x_a x_b s = M_Z^2 needs x <= 1 for both: s > M_Z^2 (and a rapidity range > 0) */
    if (!(proc->ecm > GAPS_MZ))
        return snprintf(msg, len, "--process pp-z needs sqrt(s) above the Z mass %g GeV (got %g "
                        "GeV)", GAPS_MZ, proc->ecm), -1;
    gaps_pp_z_init(&GAPS_PROCESS_DATA(gaps_pp_z_data, proc)->lo, proc->ecm);
    return 0;
}

double gaps_process_pp_z_unit(const gaps_process *proc)
{
    return gaps_pp_z_weight_unit(&GAPS_PROCESS_CDATA(gaps_pp_z_data, proc)->lo);
}

double gaps_process_pp_z_hard_scale2(const gaps_process *proc)
{
    const gaps_pp_z *lo = &GAPS_PROCESS_CDATA(gaps_pp_z_data, proc)->lo;
    return lo->mz2;
}

double gaps_process_pp_z_nlo_mu_r2(const gaps_process *proc)
{
    return GAPS_PROCESS_CDATA(gaps_pp_z_data, proc)->lo.mz2;
}

/* its LO weights do not contain alpha_s */
void gaps_process_pp_z_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    (void)proc;
    (void)as;
}

/* The builder's constants: mu_F = mu_R = M_Z, the Z on shell and stable; the uniforms
 * (y, S channel), (x_a, x_b), (ln tau', y-hat), (cos theta, phi), (H channel, S or H). */
void gaps_process_pp_z_set_nlo(gaps_process *proc, double alphas, int compat)
{
    gaps_pp_z_data *d = GAPS_PROCESS_DATA(gaps_pp_z_data, proc);
    gaps_mcatnlo *mc = &d->nlo;
    gaps_mcatnlo_init(mc, alphas, compat);
    gaps_mcatnlo_set_stable(mc, d->lo.mz2, d->lo.y_max, d->lo.half_ecm);
}

double gaps_process_pp_z_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    return gaps_pp_z_prepare(&GAPS_PROCESS_DATA(gaps_pp_z_data, proc)->lo, pdf);
}

/* the Z is a particle of the record */
int gaps_process_pp_z_intermediate(const gaps_process *proc, double p[4])
{
    (void)proc;
    (void)p;
    return 0;
}

/* the cross section is an integral over the PDFs (numerical; tests/test_pp_processes.c
 * computes it) */
double gaps_process_pp_z_sigma_exact(const gaps_process *proc)
{
    (void)proc;
    return -1.0;
}

void gaps_pp_z_init(gaps_pp_z *pz, double ecm)
{
    const double sw2 = GAPS_SIN2_THETAW;
    const double mz2 = GAPS_MZ * GAPS_MZ;
    /* 4 sqrt(2) G_F expressed through alpha, sin^2 theta_W and M_Z (GeV^-2) */
    const double g = 4.0 * GAPS_PI * GAPS_ALPHA_EM / (mz2 * sw2 * (1.0 - sw2));
    pz->mz2 = mz2;
    pz->sqrt_tau = GAPS_MZ / ecm;
    pz->y_max = gaps_log(ecm / GAPS_MZ);
    pz->half_ecm = 0.5 * ecm;
    pz->norm[0] = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        double q, v, a;
        gaps_quark_couplings(f, &q, &v, &a);
        const double m2 = g * mz2 * mz2 * (a * a + v * v) / (4.0 * GAPS_NC);
        /* 2Y (the rapidity Jacobian) times pi |M|^2 / M_Z^4, in pb */
        pz->norm[f] = 2.0 * pz->y_max * GAPS_PI * m2 / (mz2 * mz2) * GAPS_GEV2_TO_PB;
    }
}

/* A typical large weight: the largest channel's weight at the parton luminosity
 * GAPS_PP_Z_UNIT_LUMINOSITY (constants.h). */
double gaps_pp_z_weight_unit(const gaps_pp_z *pz)
{
    double w = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) w = fmax(w, pz->norm[f]);
    return GAPS_PP_Z_UNIT_LUMINOSITY * w;
}

/* The channels' sum at rapidity y (pb per unit of y / (2 y_max)). */
static double channel_sum(const gaps_pp_z *pz, const gaps_pdf *pdf, double y)
{
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, pz->sqrt_tau * gaps_exp(y), pz->mz2, fa);
    gaps_pdf_xfxq2_all(pdf, pz->sqrt_tau * gaps_exp(-y), pz->mz2, fb);
    double sum = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        sum += pz->norm[f] * (fabs(fa[6 + f] * fb[6 - f]) + fabs(fa[6 - f] * fb[6 + f]));
    return sum;
}

/* Bin probabilities proportional to the largest of d sigma/dy at the bin's edges and centre,
 * with a floor of 1e-4 of the average so that no rapidity is left out. */
double gaps_pp_z_prepare(gaps_pp_z *pz, const gaps_pdf *pdf)
{
    const int n = GAPS_PP_Y_BINS;
    const double dy = 2.0 * pz->y_max / n;
    double mean = 0.0;   /* channel_sum is the weight of uniform sampling (Jacobian 2Y) */
    for (int i = 0; i < n; ++i) {
        const double lo = -pz->y_max + i * dy;
        double m = 0.0;
        for (int k = 0; k <= 2; ++k) m = fmax(m, channel_sum(pz, pdf, lo + 0.5 * k * dy));
        pz->y_prob[i] = m;
        mean += m / n;
    }
    pz->y_bins = gaps_sampling_table_fill(pz->y_prob, pz->y_cum, n);
    return pz->y_bins > 0 ? mean : 0.0;
}

GAPS_DEVICE_BEGIN

/* The Z rapidity for the uniform ry, from the table (uniform without one); *y_weight the
 * uniform density over the sampled one. */
static double rapidity(const gaps_pp_z *pz, double ry, double *y_weight)
{
    *y_weight = 1.0;
    if (pz->y_bins > 0) {
        double frac;
        const int bin = gaps_sampling_table_pick(pz->y_prob, pz->y_cum, pz->y_bins, ry, &frac,
                                                 y_weight);
        const double dy = 2.0 * pz->y_max / pz->y_bins;
        return -pz->y_max + (bin + frac) * dy;
    }
    return pz->y_max * (2.0 * ry - 1.0);
}

void gaps_pp_z_generate(const gaps_pp_z *pz, const gaps_pdf *pdf, gaps_rng *rng,
                        gaps_hard_event *ev)
{
    double ry, rc;
    gaps_rng_uniform2(rng, &ry, &rc);
    double y_weight;
    const double y = rapidity(pz, ry, &y_weight);
    const double xa = pz->sqrt_tau * gaps_exp(y);
    const double xb = pz->sqrt_tau * gaps_exp(-y);

    /* x f at mu_F^2 = M_Z^2 for every parton at both momentum fractions */
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, xa, pz->mz2, fa);
    gaps_pdf_xfxq2_all(pdf, xb, pz->mz2, fb);
    /* channel 2(f-1) + o: flavour f, quark from the proton along +z (o = 0) or -z (o = 1) */
    double c[2 * GAPS_N_FLAVOURS];
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        c[2 * (f - 1)] = pz->norm[f] * (fa[6 + f] * fb[6 - f]);
        c[2 * (f - 1) + 1] = pz->norm[f] * (fa[6 - f] * fb[6 + f]);
    }
    double sum, sign;
    const int k = gaps_choose_channel(c, 2 * GAPS_N_FLAVOURS, rc, &sum, &sign);
    gaps_pp_z_born_record(pz, k, xa, xb, ev);
    ev->weight = sign * sum * y_weight;
    /* the smallest mass^2 of a colour-connected pair: the q qbar pair, M_Z^2 */
    ev->t_start = pz->mz2;
}

void gaps_pp_z_born_record(const gaps_pp_z *pz, int channel, double xa, double xb,
                           gaps_hard_event *ev)
{
    /* rows 0 (quark) and 1 (antiquark): physical incoming momenta along +z or -z */
    const int f = 1 + channel / 2;
    gaps_pp_born_incoming(pz->half_ecm, f, f, channel % 2, xa, xb, ev);
    /* row 2: the Z, the sum of the two (its mass^2 is x_a x_b s = M_Z^2 up to rounding) */
    for (int m = 0; m < 4; ++m) ev->p[2][m] = ev->p[0][m] + ev->p[1][m];
    ev->flav[2] = GAPS_PDG_Z;
    ev->col[2] = ev->acol[2] = 0;
    ev->n = 3;
    ev->next_tag = 2;
}

void gaps_process_pp_z_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    const gaps_pp_z_data *d = GAPS_PROCESS_CDATA(gaps_pp_z_data, proc);
    if (d->nlo.nlo.on) gaps_mcatnlo_generate(proc, &d->nlo, rng, ev);
    else gaps_pp_z_generate(&d->lo, proc->pdf, rng, ev);
}

/* ---- its NLO events: the functions the builder of mcatnlo.h calls ---- */

/* The Born point: the rapidity of the LO events from u[0]; channel 2(f-1) + o of flavour f,
 * the quark from the proton along +z (o = 0) or -z (o = 1), factor pi |M_f|^2 / M_Z^4 2Y. */
void gaps_process_pp_z_nlo_born(const gaps_process *proc, const double *u, gaps_nlo_born *b)
{
    const gaps_pp_z *pz = &GAPS_PROCESS_CDATA(gaps_pp_z_data, proc)->lo;
    double y_weight;
    const double y = rapidity(pz, u[0], &y_weight);
    b->ea = pz->sqrt_tau * gaps_exp(y);
    b->eb = pz->sqrt_tau * gaps_exp(-y);
    b->m2 = pz->mz2;
    gaps_pdf_xfxq2_all(proc->pdf, b->ea, pz->mz2, b->fa);
    gaps_pdf_xfxq2_all(proc->pdf, b->eb, pz->mz2, b->fb);
    b->channels = 2 * GAPS_N_FLAVOURS;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        for (int o = 0; o < 2; ++o) {
            const int k = 2 * (f - 1) + o;
            b->factor[k] = pz->norm[f];
            b->pa[k] = (signed char)(o == 0 ? 6 + f : 6 - f);
            b->pb[k] = (signed char)(12 - b->pa[k]);
        }
    b->n_out = 1;
    b->flav_out[0] = GAPS_PDG_Z;
    b->own[0] = y_weight;
}

double gaps_process_pp_z_nlo_s_weight(const gaps_process *proc, const gaps_nlo_born *b,
                                      double sum)
{
    (void)proc;
    return sum * b->own[0];
}

/* H channel 6(f-1) + type, types: q qbar -> Z g, qbar q -> Z g, q g -> Z q, qbar g -> Z qbar,
 * g q -> Z q, g qbar -> Z qbar; M entry 2 (6(f-1) + type) + j: dipole j of that type. */
int gaps_process_pp_z_nlo_real(const gaps_process *proc, double as, const gaps_nlo_real *r,
                               double *ch, double *cm)
{
    const gaps_pp_z_data *d = GAPS_PROCESS_CDATA(gaps_pp_z_data, proc);
    const double mz2 = d->lo.mz2, jac = r->jac;
    const double *qa = r->qa, *qb = r->qb, *qk = r->qk, *f1 = r->f1, *f2 = r->f2;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        const double b = d->nlo.nlo.born[f];
        double r_qq, r_qg, r_gq, d_qq[2], d_qg[2], d_gq[2];
        double qq = gaps_pp_qqbar_zg_subtracted(b, as, mz2, qa, qb, qk, &r_qq, d_qq);
        double qg = gaps_pp_qg_zq_subtracted(b, as, mz2, qa, qb, qk, &r_qg, d_qg);
        double gq = gaps_pp_qg_zq_subtracted(b, as, mz2, qb, qa, qk, &r_gq, d_gq);
        if (r->above) qq = r_qq, qg = r_qg, gq = r_gq;
        /* the parton densities of each H type, (leg 1, leg 2) */
        const double p1[6] = { f1[6 + f], f1[6 - f], f1[6 + f], f1[6 - f], f1[6], f1[6] };
        const double p2[6] = { f2[6 - f], f2[6 + f], f2[6], f2[6], f2[6 + f], f2[6 - f] };
        const double me[6] = { qq, qq, qg, qg, gq, gq };
        for (int type = 0; type < 6; ++type)
            ch[6 * (f - 1) + type] = jac * me[type] * p1[type] * p2[type];
        const double dd[12] = { d_qq[0], d_qq[1], d_qq[0], d_qq[1], d_qg[0], 0.0,
                                d_qg[0], 0.0, d_gq[0], 0.0, d_gq[0], 0.0 };
        for (int m = 0; m < 12; ++m)
            cm[12 * (f - 1) + m] = r->above ? -jac * dd[m] * p1[m / 2] * p2[m / 2] : 0.0;
    }
    return 6 * GAPS_N_FLAVOURS;
}

int gaps_process_pp_z_nlo_h_partons(const gaps_process *proc, int k, int out,
                                     gaps_hard_event *ev)
{
    (void)proc;
    return gaps_nlo_h_partons_qq(k % 6, 1 + k / 6, 1 + k / 6, out, ev);
}

/* Dipole j of H type `type` of flavour f: the q qbar types' dipole j has emitter leg j + 1 (the
 * on-shell Z's dipoles are symmetric), the q g types' the gluon's leg; the Born's quark comes
 * from leg 1 (+z) for types 0, 2 and 5, from leg 2 otherwise. */
void gaps_process_pp_z_nlo_m_born(const gaps_process *proc, int k, int *emitter_a, int *pa,
                                  int *pb)
{
    (void)proc;
    const int f = 1 + k / 12, type = (k % 12) / 2, j = k % 2;
    *emitter_a = (type <= 1 ? j : (type <= 3 ? 1 : 0)) == 0;
    const int quark_minus_z = type == 1 || type == 3 || type == 4;
    *pa = quark_minus_z ? 6 - f : 6 + f;
    *pb = 12 - *pa;
}

GAPS_DEVICE_END
