/* pp_h.c -- p p -> H through gluon fusion at leading order, g g -> H in the heavy-top effective
 * theory (m_t -> infinity), H stable, the process pp-h of GAPS_PROCESSES (doc/physics.md,
 * section "p p -> H (gluon fusion)").
 *
 *   sigma_hat(g g -> H) = sigma_0 m_H^2 delta(s_hat - m_H^2),
 *   sigma_0 = G_F alpha_s(mu_R^2)^2 / (288 sqrt(2) pi),
 * the pure heavy-top limit (the LO top-mass factor |A_1/2(tau_t)|^2, about 1.06 at m_t =
 * 172.5 GeV, is not included), so that
 *   sigma = sigma_0 tau_H integral dy g(x_a) g(x_b) = sigma_0 integral dy [x_a g(x_a)] [x_b g(x_b)],
 * x_a,b = sqrt(tau_H) e^(+-y), tau_H = m_H^2 / s, |y| < Y = ln(sqrt s / m_H),
 * mu_F = mu_R = m_H; alpha_s(m_H^2) is the run's coupling (--alphas-mz, --alphas-order),
 * handed over by gaps_process_pp_h_set_coupling (the default parameters' until then).
 *
 * Sampling: y from a table of GAPS_PP_H_Y_BINS bins that follows d sigma / dy (as pp-z's,
 * gaps_process_pp_h_prepare; without it uniform, Jacobian 2Y): one channel, the weight
 * 2Y sigma_0 [x_a g][x_b g] / (sampled density ratio).  Record: row 0 the gluon along +z, row
 * 1 the gluon along -z (incoming, physical colours as the project's Born records: g g -> H is
 * a colour singlet, g_a (1, 2), g_b (2, 1): two initial-initial dipoles between them), row 2
 * the Higgs (outgoing, colourless, m_H); the shower starts at t = m_H^2. */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/pp_h.h"
#include "process/pp_h_nlo.h"

#include <math.h>
#include <stdio.h>

GAPS_PROCESS_DATA_FITS(gaps_pp_h_data);

static void pp_h_set_alphas(gaps_pp_h *h, double alphas)
{
    h->alphas = alphas;
    h->norm = 2.0 * h->y_max * GAPS_PP_H_SIGMA0_OVER_AS2 * alphas * alphas * GAPS_GEV2_TO_PB;
}

/* The process's functions (process/process_impl.h). */
int gaps_process_pp_h_init(gaps_process *proc, char *msg, size_t len)
{
    /* x_a x_b s = m_H^2 needs s > m_H^2 */
    if (!(proc->ecm > GAPS_PP_H_MH))
        return snprintf(msg, len, "--process pp-h needs sqrt(s) above the Higgs mass %g GeV "
                        "(got %g GeV)", GAPS_PP_H_MH, proc->ecm), -1;
    gaps_pp_h *h = GAPS_PROCESS_DATA(gaps_pp_h, proc);
    h->mh2 = GAPS_PP_H_MH * GAPS_PP_H_MH;
    h->sqrt_tau = GAPS_PP_H_MH / proc->ecm;
    h->y_max = gaps_log(proc->ecm / GAPS_PP_H_MH);
    h->half_ecm = 0.5 * proc->ecm;
    h->y_bins = 0;
    proc->born_alphas_power = 2;   /* g g -> H through the top loop: alpha_s(m_H^2)^2 */
    /* the coupling of the default parameters until the run's is handed over */
    gaps_alphas as;
    gaps_alphas_init(&as, 2, GAPS_DEFAULT_ALPHAS_MZ);
    pp_h_set_alphas(h, gaps_alphas_value(&as, h->mh2));
    return 0;
}

double gaps_process_pp_h_unit(const gaps_process *proc)
{
    const gaps_pp_h *h = GAPS_PROCESS_CDATA(gaps_pp_h, proc);
    return GAPS_PP_H_UNIT_LUMINOSITY * 2.0 * h->y_max * GAPS_PP_H_SIGMA0_OVER_AS2
           * GAPS_PP_H_UNIT_ALPHAS * GAPS_PP_H_UNIT_ALPHAS * GAPS_GEV2_TO_PB;
}

double gaps_process_pp_h_hard_scale2(const gaps_process *proc)
{
    return GAPS_PROCESS_CDATA(gaps_pp_h, proc)->mh2;
}

/* mu_R = mu_F = m_H */
double gaps_process_pp_h_nlo_mu_r2(const gaps_process *proc)
{
    return GAPS_PROCESS_CDATA(gaps_pp_h, proc)->mh2;
}

/* alpha_s(mu_R^2 = m_H^2) of the run */
void gaps_process_pp_h_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    gaps_pp_h *h = GAPS_PROCESS_DATA(gaps_pp_h, proc);
    pp_h_set_alphas(h, gaps_alphas_value(as, h->mh2));
}

/* The builder's constants: mu_R = mu_F = m_H, the H on shell and stable, gluon legs with
 * g g -> H's V + I (pp_h_nlo.h); the uniforms as pp-z's: (y, S channel), (x_a, x_b), (ln tau',
 * y-hat), (cos theta, phi), (H channel, S or H). */
void gaps_process_pp_h_set_nlo(gaps_process *proc, double alphas, int compat)
{
    gaps_pp_h_data *d = GAPS_PROCESS_DATA(gaps_pp_h_data, proc);
    gaps_mcatnlo *mc = &d->nlo;
    gaps_mcatnlo_init(mc, alphas, compat);
    mc->virtual_i = gaps_pp_h_virtual_i(alphas, 0.0);
    mc->gluon_legs = 1;
    gaps_mcatnlo_set_stable(mc, d->lo.mh2, d->lo.y_max, d->lo.half_ecm);
}

/* the Higgs is a particle of the record */
int gaps_process_pp_h_intermediate(const gaps_process *proc, double p[4])
{
    (void)proc;
    (void)p;
    return 0;
}

/* an integral over the PDFs (tests/test_pp_h.c computes it independently) */
double gaps_process_pp_h_sigma_exact(const gaps_process *proc)
{
    (void)proc;
    return -1.0;
}

/* The weight of uniform sampling at rapidity y: norm [x_a g(x_a)] [x_b g(x_b)] at mu_F = m_H. */
static double uniform_weight(const gaps_pp_h *h, const gaps_pdf *pdf, double y)
{
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, h->sqrt_tau * gaps_exp(y), h->mh2, fa);
    gaps_pdf_xfxq2_all(pdf, h->sqrt_tau * gaps_exp(-y), h->mh2, fb);
    return h->norm * fa[6] * fb[6];
}

/* As gaps_pp_z_prepare: bin probabilities from the largest |weight| at the bin's edges and
 * centre. */
double gaps_process_pp_h_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    gaps_pp_h *h = GAPS_PROCESS_DATA(gaps_pp_h, proc);
    const int n = GAPS_PP_H_Y_BINS;
    const double dy = 2.0 * h->y_max / n;
    double mean = 0.0;
    for (int i = 0; i < n; ++i) {
        const double lo = -h->y_max + i * dy;
        double m = 0.0;
        for (int k = 0; k <= 2; ++k) m = fmax(m, fabs(uniform_weight(h, pdf, lo + 0.5 * k * dy)));
        h->y_prob[i] = m;
        mean += m / n;
    }
    h->y_bins = gaps_sampling_table_fill(h->y_prob, h->y_cum, n);
    return h->y_bins > 0 ? mean : 0.0;
}

GAPS_DEVICE_BEGIN

/* The Higgs rapidity for the uniform ry, from the table (uniform without one); *y_weight the
 * uniform density over the sampled one. */
static double rapidity(const gaps_pp_h *h, double ry, double *y_weight)
{
    *y_weight = 1.0;
    if (h->y_bins > 0) {
        double frac;
        const int bin = gaps_sampling_table_pick(h->y_prob, h->y_cum, h->y_bins, ry, &frac,
                                                 y_weight);
        return -h->y_max + (bin + frac) * (2.0 * h->y_max / h->y_bins);
    }
    return h->y_max * (2.0 * ry - 1.0);
}

void gaps_process_pp_h_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    const gaps_pp_h_data *d = GAPS_PROCESS_CDATA(gaps_pp_h_data, proc);
    if (d->nlo.nlo.on) {
        gaps_mcatnlo_generate(proc, &d->nlo, rng, ev);
        return;
    }
    const gaps_pp_h *h = &d->lo;
    const double ry = gaps_rng_uniform(rng);
    double y_weight;
    const double y = rapidity(h, ry, &y_weight);
    const double xa = h->sqrt_tau * gaps_exp(y);
    const double xb = h->sqrt_tau * gaps_exp(-y);
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(proc->pdf, xa, h->mh2, fa);
    gaps_pdf_xfxq2_all(proc->pdf, xb, h->mh2, fb);

    /* rows 0 and 1: the gluons along +z and -z; colours physical for incoming partons (as
     * gaps_pp_born_incoming's q qbar singlet and gaps_nlo_h_partons_qq's incoming gluon): the
     * colour of one is the anticolour of the other, a colour singlet */
    ev->p[0][0] = xa * h->half_ecm;
    ev->p[0][1] = ev->p[0][2] = 0.0;
    ev->p[0][3] = ev->p[0][0];
    ev->p[1][0] = xb * h->half_ecm;
    ev->p[1][1] = ev->p[1][2] = 0.0;
    ev->p[1][3] = -ev->p[1][0];
    ev->flav[0] = ev->flav[1] = GAPS_GLUON;
    ev->col[0] = 1;
    ev->acol[0] = 2;
    ev->col[1] = 2;
    ev->acol[1] = 1;
    ev->x[0] = xa;
    ev->x[1] = xb;
    ev->n_in = 2;
    /* row 2: the Higgs, the sum of the two (its mass^2 is x_a x_b s = m_H^2 up to rounding) */
    for (int m = 0; m < 4; ++m) ev->p[2][m] = ev->p[0][m] + ev->p[1][m];
    ev->flav[2] = GAPS_PDG_H;
    ev->col[2] = ev->acol[2] = 0;
    ev->n = 3;
    ev->next_tag = 3;
    ev->weight = h->norm * fa[6] * fb[6] * y_weight;
    ev->t_start = h->mh2;
}

/* ---- its NLO events: the functions the builder of mcatnlo.h calls (doc/nlo.md section 16) ---- */

/* The Born point: the LO events' rapidity from u[0]; one channel, g g, factor 2Y sigma_0. */
void gaps_process_pp_h_nlo_born(const gaps_process *proc, const double *u, gaps_nlo_born *b)
{
    const gaps_pp_h *h = &GAPS_PROCESS_CDATA(gaps_pp_h_data, proc)->lo;
    double y_weight;
    const double y = rapidity(h, u[0], &y_weight);
    b->ea = h->sqrt_tau * gaps_exp(y);
    b->eb = h->sqrt_tau * gaps_exp(-y);
    b->m2 = h->mh2;
    gaps_pdf_xfxq2_all(proc->pdf, b->ea, h->mh2, b->fa);
    gaps_pdf_xfxq2_all(proc->pdf, b->eb, h->mh2, b->fb);
    b->channels = 1;
    b->factor[0] = h->norm;
    b->pa[0] = b->pb[0] = 6;
    b->n_out = 1;
    b->flav_out[0] = GAPS_PDG_H;
    b->own[0] = y_weight;
}

double gaps_process_pp_h_nlo_s_weight(const gaps_process *proc, const gaps_nlo_born *b,
                                      double sum)
{
    (void)proc;
    return sum * b->own[0];
}

/* The real channels (H_CHANNELS): 0 and 1 g g -> H g in its two colour flows (half the
 * weight each); 2 + 4 (f - 1) + m: q g, qbar g (the quark along +z), g q, g qbar (along -z)
 * -> H q(bar) of flavour f; 22 + 2 (f - 1) + o: q qbar (o = 0: q along +z), qbar q -> H g.
 * M entry 2k + j: dipole j of channel k (g g: the +z leg emits (j = 0) or the -z leg; q g:
 * the quark's leg, j = 0; q qbar: none). */
#define PP_H_QG_FIRST 2
#define PP_H_QQ_FIRST (PP_H_QG_FIRST + 4 * GAPS_N_FLAVOURS)
#define PP_H_CHANNELS (PP_H_QQ_FIRST + 2 * GAPS_N_FLAVOURS)
_Static_assert(PP_H_CHANNELS <= GAPS_NLO_MAX_REAL, "pp-h: more real channels than the builder has");

int gaps_process_pp_h_nlo_real(const gaps_process *proc, double as, const gaps_nlo_real *r,
                               double *ch, double *cm)
{
    const gaps_pp_h *h = &GAPS_PROCESS_CDATA(gaps_pp_h_data, proc)->lo;
    const double born = gaps_pp_h_born(h->alphas, h->mh2), mh2 = h->mh2, jac = r->jac;
    const double *qa = r->qa, *qb = r->qb, *qk = r->qk, *f1 = r->f1, *f2 = r->f2;
    double re_gg, re_qg, re_gq, re_qq, d_gg[2], d_qg[2], d_gq[2], d_qq[2];
    double gg = gaps_pp_h_gg_subtracted(born, as, mh2, qa, qb, qk, &re_gg, d_gg);
    double qg = gaps_pp_h_qg_subtracted(born, as, mh2, qa, qb, qk, &re_qg, d_qg);  /* q along +z */
    double gq = gaps_pp_h_qg_subtracted(born, as, mh2, qb, qa, qk, &re_gq, d_gq);  /* q along -z */
    const double qq = gaps_pp_h_qqbar_subtracted(born, as, mh2, qa, qb, qk, &re_qq, d_qq);
    if (r->above) gg = re_gg, qg = re_qg, gq = re_gq;
    const double m = r->above ? -1.0 : 0.0;   /* the M entries: -D above t_S */
    const double lgg = jac * f1[6] * f2[6];
    for (int flow = 0; flow < 2; ++flow) {
        ch[flow] = 0.5 * lgg * gg;
        cm[2 * flow] = m * 0.5 * lgg * d_gg[0];
        cm[2 * flow + 1] = m * 0.5 * lgg * d_gg[1];
    }
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        const double lum[4] = { f1[6 + f] * f2[6], f1[6 - f] * f2[6],
                                f1[6] * f2[6 + f], f1[6] * f2[6 - f] };
        for (int k = 0; k < 4; ++k) {
            const int c = PP_H_QG_FIRST + 4 * (f - 1) + k;
            const double l = jac * lum[k];
            ch[c] = l * (k < 2 ? qg : gq);
            cm[2 * c] = m * l * (k < 2 ? d_qg[0] : d_gq[0]);
            cm[2 * c + 1] = 0.0;
        }
        for (int o = 0; o < 2; ++o) {
            const int c = PP_H_QQ_FIRST + 2 * (f - 1) + o;
            ch[c] = jac * (o == 0 ? f1[6 + f] * f2[6 - f] : f1[6 - f] * f2[6 + f]) * qq;
            cm[2 * c] = cm[2 * c + 1] = 0.0;
        }
    }
    return PP_H_CHANNELS;
}

/* Colours as the project's records have them (physical for the incoming partons: an incoming
 * colour and an incoming anticolour of one tag annihilate); the quark channels as
 * gaps_nlo_h_partons_qq's types. */
int gaps_process_pp_h_nlo_h_partons(const gaps_process *proc, int k, int out,
                                    gaps_hard_event *ev)
{
    (void)proc;
    if (k < PP_H_QG_FIRST) {
        /* flow 0: g_a (1, 2), g_b (3, 1), out (3, 2): g_a's colour meets g_b's anticolour,
         * g_a's anticolour and g_b's colour go on in the emitted gluon; flow 1 the mirror */
        for (int r = 0; r < 2; ++r) ev->flav[r] = GAPS_GLUON;
        ev->flav[out] = GAPS_GLUON;
        if (k == 0) {
            ev->col[0] = 1, ev->acol[0] = 2;
            ev->col[1] = 3, ev->acol[1] = 1;
            ev->col[out] = 3, ev->acol[out] = 2;
        } else {
            ev->col[0] = 1, ev->acol[0] = 2;
            ev->col[1] = 2, ev->acol[1] = 3;
            ev->col[out] = 1, ev->acol[out] = 3;
        }
        return 4;
    }
    if (k < PP_H_QQ_FIRST) {
        const int f = 1 + (k - PP_H_QG_FIRST) / 4, m = (k - PP_H_QG_FIRST) % 4;
        static const int type[4] = { 2, 3, 4, 5 };   /* q g, qbar g, g q, g qbar */
        return gaps_nlo_h_partons_qq(type[m], f, f, out, ev);
    }
    const int f = 1 + (k - PP_H_QQ_FIRST) / 2, o = (k - PP_H_QQ_FIRST) % 2;
    return gaps_nlo_h_partons_qq(o, f, f, out, ev);   /* type 0: q along +z, 1: along -z */
}

/* Every M entry's Born is g g; the emitter: g g's dipole j = 0 the +z leg, q g's the quark's. */
void gaps_process_pp_h_nlo_m_born(const gaps_process *proc, int k, int *emitter_a, int *pa,
                                  int *pb)
{
    (void)proc;
    const int c = k / 2, j = k % 2;
    if (c < PP_H_QG_FIRST) *emitter_a = j == 0;
    else *emitter_a = (c - PP_H_QG_FIRST) % 4 < 2;
    *pa = *pb = 6;
}

GAPS_DEVICE_END
