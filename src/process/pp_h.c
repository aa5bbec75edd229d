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

#include <math.h>
#include <stdio.h>

GAPS_PROCESS_DATA_FITS(gaps_pp_h);

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

/* no NLO yet (its row says nlo = 0): the value an NLO H would use */
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

void gaps_process_pp_h_set_nlo(gaps_process *proc, double alphas, int compat)
{
    (void)proc;
    (void)alphas;
    (void)compat;
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

void gaps_process_pp_h_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    const gaps_pp_h *h = GAPS_PROCESS_CDATA(gaps_pp_h, proc);
    const double ry = gaps_rng_uniform(rng);
    double y, y_weight = 1.0;   /* uniform density / sampled density */
    if (h->y_bins > 0) {
        double frac;
        const int bin = gaps_sampling_table_pick(h->y_prob, h->y_cum, h->y_bins, ry, &frac,
                                                 &y_weight);
        y = -h->y_max + (bin + frac) * (2.0 * h->y_max / h->y_bins);
    } else {
        y = h->y_max * (2.0 * ry - 1.0);
    }
    const double xa = h->sqrt_tau * gaps_exp(y);
    const double xb = h->sqrt_tau * gaps_exp(-y);
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(proc->pdf, xa, h->mh2, fa);
    gaps_pdf_xfxq2_all(proc->pdf, xb, h->mh2, fb);

    /* rows 0 and 1: the gluons along +z and -z; colours physical for incoming partons (as
     * gaps_pp_born_incoming's q qbar singlet and gaps_pp_h_partons's incoming gluon): the
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

GAPS_DEVICE_END
