/* isr_bounds.c -- the upper bounds of the parton-density ratios that the initial-state
 * shower's trial rates carry (src/shower/isr.h, doc/physics.md 13.4).
 *
 * A backward step of an incoming parton of flavour a and momentum fraction eta to flavour b at
 * eta/x multiplies the emission density by x X with X = xf_b(eta/x, t) / xf_a(eta, t).  The
 * kernels are bounded with the factor x taken in (V J x <= E), so what the trial rate needs is
 *     B_ab(eta) >= max over y in [eta, 1) and over the shower's scales t of
 *                 xf_b(y, t) / xf_a(eta, t)   (times (t - m_a^2)/t for a c or b emitter,
 *                                               whose trials run in t - m_a^2).
 * It is tabulated once per run in bins of ln(eta): for every t sample and every bin the
 * largest xf_b at or above the bin's lower edge over the smallest xf_a inside the bin.
 * Samples: the set's Q^2 knots with three points between neighbours and points close above
 * each heavy-quark threshold; in x, eight points per bin.  Between samples the interpolation
 * may bulge a little, so the table carries a safety factor; the shower counts every trial
 * whose ratio came out above 1 anyway (GAPS_COUNT_OVERESTIMATE): rare (3 in 10^6 pp-z events), not yet never.
 * A ratio the grid cannot bound (x f_a = 0 where an incoming a can still be: eta -> 1) is
 * capped, and counted the same way if it is ever reached.
 */
#include "gaps/alphas.h"
#include "gaps/event_pool.h"
#include "gaps/pdf.h"
#include "shower/isr.h"
#include "shower/isr_bounds.h"
#include "gaps_parallel.h"

#include <math.h>
#include <stdlib.h>

#define SAFETY 1.15          /* for the interpolation between the samples */
#define BOUND_CAP 1e4       /* where the grid gives no bound */
#define X_PER_BIN 8
#define T_BIN_WIDTH 1.5     /* scale bins of the bounds: a factor e^1.5 = 4.5 in t each */
#define HEAVY_STOP 1e-4     /* an incoming c or b stops trying at m^2 (1 + HEAVY_STOP): below
                               about 1e-5 m^2 the set's x f_Q is zero */

static int pid_of_row(int r) { return r == 5 ? 0 : r - 5; }   /* gaps_pdf_xfxq2_all column */

/* The running overestimate of the coupling, alpha_s(t) <= k / ln(t / Lambda^2) on
 * [t_lo, t_hi].  Its trial density k/ln(t/Lambda^2) dt/t integrates to k ln ln(t/Lambda^2),
 * so a trial scale is still one formula (gaps_isr_trial_scale), and it follows the coupling
 * from the cutoff, where alpha_s is near 0.5, to M_Z, where it is 0.12: a constant
 * alpha_s(t_C) wastes more than half of the trials of the hard dipoles.  Lambda^2 is chosen
 * to minimise the total trial density over ln t, k is the largest ratio on a dense grid that
 * includes the flavour thresholds (where alpha_s has kinks), with a margin for the
 * smooth variation between grid points. */
#define AS_GRID 4000
#define AS_MARGIN 1.0001

static double coupling_k(const gaps_alphas *as, double mu2, double lambda2, double t_lo,
                         double t_hi)
{
    const double l_lo = log(t_lo), l_hi = log(t_hi);
    double k = 0.0;
    for (int i = 0; i <= AS_GRID + 4; ++i) {
        double t;
        if (i <= AS_GRID) t = exp(l_lo + (l_hi - l_lo) * i / AS_GRID);
        else if (i <= AS_GRID + 2) t = as->t_ref[1 + (i - AS_GRID - 1)] / mu2;   /* thresholds */
        else t = as->t_ref[1 + (i - AS_GRID - 3)] / mu2 * (1.0 - 1e-12);         /* and below */
        if (!(t >= t_lo && t <= t_hi)) continue;
        /* the shower's argument max(mu2 t, t_C) (scaled_as_arg in veto.c; t_lo is t_C): a
         * bound of alpha_s(mu2 t) itself would be far above it near the cutoff for mu2 < 1 */
        k = fmax(k, gaps_alphas_value(as, fmax(mu2 * t, t_lo)) * log(t / lambda2));
    }
    return AS_MARGIN * k;
}

static void coupling_bound(gaps_isr *isr, const gaps_alphas *as, double mu2, double t_lo,
                           double t_hi)
{
    isr->as_lambda2 = 0.0;
    isr->as_k = 0.0;
    if (as->order == 0 || !(t_hi > t_lo)) return;   /* fixed coupling: alpha_max is exact */
    double best = INFINITY;
    for (int j = 1; j <= 400; ++j) {   /* Lambda^2 from t_lo down to 1e-8 t_lo */
        const double lambda2 = t_lo * pow(10.0, -j / 50.0);
        const double k = coupling_k(as, mu2, lambda2, t_lo, t_hi);
        const double total = k * log(log(t_hi / lambda2) / log(t_lo / lambda2));
        if (isfinite(total) && total < best) {
            best = total;
            isr->as_lambda2 = lambda2;
            isr->as_k = k;
        }
    }
}

int gaps_isr_init(gaps_isr *isr, const gaps_pdf *pdf, const gaps_alphas *as, int compat,
                  double t_cut, double t_max, double **table)
{
    return gaps_isr_init_scaled(isr, pdf, as, 1.0, 1.0, compat, t_cut, t_max, table);
}

int gaps_isr_init_scaled(gaps_isr *isr, const gaps_pdf *pdf, const gaps_alphas *as, double mu2,
                         double headroom, int compat, double t_cut, double t_max,
                         double **table)
{
    isr->compat = compat;
    /* compat keeps GAPS 2.1's constant alpha_max: its f > g rejections depend on it */
    if (compat == GAPS_COMPAT_GAPS21) isr->as_lambda2 = isr->as_k = 0.0;
    else coupling_bound(isr, as, mu2, t_cut, t_max);   /* t_C: the final-final dipoles' end */
    isr->as_k *= headroom;   /* 0 stays 0: the constant coupling's case */
    isr->t_min = fmax(t_cut, pdf->q2min);
    for (int f = 0; f < 6; ++f) isr->m2[f] = 0.0;
    /* the heavy quarks' thresholds of the set: below them the set has no c or b (GAPS 2.1
     * hard-codes the same CT14lo values, 1.30 and 4.75 GeV) */
    isr->m2[4] = isfinite(pdf->m_charm) ? pdf->m_charm * pdf->m_charm : 1.3 * 1.3;
    isr->m2[5] = isfinite(pdf->m_bottom) ? pdf->m_bottom * pdf->m_bottom : 4.75 * 4.75;
    const double ln_lo = log(pdf->xmin);
    isr->ln_eta_min = ln_lo;
    isr->inv_dln_eta = GAPS_ISR_ETA_BINS / (0.0 - ln_lo);
    const double dln = (0.0 - ln_lo) / GAPS_ISR_ETA_BINS;

    /* scale bins of width T_BIN_WIDTH in ln t from t_min, as many as reach t_max; in the
     * default physics, below ln(t/t_min) = 1 finer ones with edges at fine_edge[], because
     * just above the set's lowest scale the sea quarks at large x grow fastest (CT14lo:
     * x s(x = 0.49) ten times larger at Q = 2.3 GeV than at 1.3 GeV), and a bound over a wide
     * bin is the one at its lower edge: events with such a quark took hundreds of rejected
     * trials there (doc/benchmarks.md) */
    static const double fine_edge[] = { 0.25, 0.5, 1.0 };
    const int n_fine_max = (int)(sizeof fine_edge / sizeof fine_edge[0]);
    const double span = log(fmax(t_max, isr->t_min * 1.0001) / isr->t_min);
    const int nf = compat != GAPS_COMPAT_GAPS21 && span > 2.0 * fine_edge[n_fine_max - 1]
                   ? n_fine_max : 0;
    const double l0 = nf > 0 ? fine_edge[nf - 1] : 0.0;   /* where the wide bins start */
    int nu = (int)ceil((span - l0) / T_BIN_WIDTH);
    if (nu < 1) nu = 1;
    if (nf + nu > GAPS_ISR_T_BINS_MAX) nu = GAPS_ISR_T_BINS_MAX - nf;
    isr->n_tbins = nf + nu;
    isr->tbin_edge[0] = isr->t_min;
    for (int j = 1; j <= nf; ++j) isr->tbin_edge[j] = isr->t_min * exp(fine_edge[j - 1]);
    for (int j = 1; j <= nu; ++j)
        isr->tbin_edge[nf + j] = isr->t_min * exp(l0 + j * (span - l0) / nu);
    isr->tbin_edge[isr->n_tbins] = INFINITY;   /* the last bin is open above */

    const size_t nrow = 2 * GAPS_ISR_PIDS * GAPS_ISR_PIDS;
    const size_t nper = nrow * GAPS_ISR_ETA_BINS;   /* entries per scale bin */
    double *B = calloc(nper * isr->n_tbins, sizeof *B);
    const int ny = GAPS_ISR_ETA_BINS * X_PER_BIN + 1;
    double *xf = malloc((size_t)ny * GAPS_ISR_PIDS * sizeof *xf);    /* [y][row] */
    double *sufmax = malloc((size_t)ny * GAPS_ISR_PIDS * sizeof *sufmax);
    if (!B || !xf || !sufmax) { free(B); free(xf); free(sufmax); return -1; }

    /* the scales: every Q^2 knot from t_min up, three points between knots, and points just
     * above the heavy-quark thresholds where x f_c, x f_b rise from zero */
    double ts[4 * 256 + 48 + GAPS_ISR_T_BINS_MAX];
    int nt = 0;
    for (int j = 0; j < pdf->nq && nt < 4 * 256; ++j) {
        const double lq = pdf->lnq2[j], t = exp(lq);
        if (j + 1 < pdf->nq && pdf->lnq2[j + 1] > lq)
            for (int s = 0; s < 4; ++s) {
                const double ts_ = exp(lq + s * 0.25 * (pdf->lnq2[j + 1] - lq));
                if (ts_ >= isr->t_min) ts[nt++] = ts_;
            }
        else if (t >= isr->t_min) ts[nt++] = t;
    }
    /* an incoming c or b: how its trials are made, with which coupling, and where they stop */
    isr->heavy_loglog = compat != GAPS_COMPAT_GAPS21;
    isr->heavy_stop = isr->heavy_loglog ? HEAVY_STOP : 1e-9;
    for (int f = 0; f < 6; ++f)
        /* the floor of the varied arguments (mu2 < 1) only: a run without them keeps its
         * events, whatever its --tcut */
        isr->a_heavy[f] = headroom
                          * (isr->heavy_loglog && isr->m2[f] > 0.0
                                 ? gaps_alphas_value(as, fmax(mu2 * isr->m2[f],
                                                              mu2 < 1.0 ? t_cut : 0.0))
                                 : gaps_alphas_value(as, fmax(mu2, 1.0) * t_cut));
    /* two points per decade down to the stop above each threshold */
    for (int f = 4; f <= 5; ++f)
        for (int k = 1; pow(10.0, -0.5 * k) >= isr->heavy_stop * 0.999 && k <= 20; ++k)
            ts[nt++] = isr->m2[f] * (1.0 + pow(10.0, -0.5 * k));
    for (int j = 0; j < isr->n_tbins; ++j) ts[nt++] = isr->tbin_edge[j];   /* t_min too */

    for (int it = 0; it < nt; ++it) {
        const double t = ts[it];
        /* the scale bins this sample bounds: an edge belongs to both of its bins */
        int j0 = -1, j1 = -1;
        for (int j = 0; j < isr->n_tbins; ++j)
            if (t >= isr->tbin_edge[j] && t <= isr->tbin_edge[j + 1]) {
                if (j0 < 0) j0 = j;
                j1 = j;
            }
        if (j0 < 0) continue;
        GAPS_HOST_PARALLEL_FOR
        for (int iy = 0; iy < ny; ++iy) {
            const double y = iy == ny - 1 ? 1.0 : exp(ln_lo + iy * dln / X_PER_BIN);
            double all[GAPS_PDF_NPARTONS];
            gaps_pdf_xfxq2_all(pdf, y, t, all);
            for (int r = 0; r < GAPS_ISR_PIDS; ++r) xf[(size_t)iy * GAPS_ISR_PIDS + r] = all[pid_of_row(r) + 6];
        }
        for (int r = 0; r < GAPS_ISR_PIDS; ++r) {   /* largest x f at or above each sample */
            double m = 0.0;
            for (int iy = ny - 1; iy >= 0; --iy) {
                m = fmax(m, xf[(size_t)iy * GAPS_ISR_PIDS + r]);
                sufmax[(size_t)iy * GAPS_ISR_PIDS + r] = m;
            }
        }
        /* each (shifted, a) fills rows of its own: the 22 of them run side by side on the
         * threads of a host (the table is built at every start of a hadronic run) */
        GAPS_HOST_PARALLEL_FOR
        for (int sa = 0; sa < 2 * GAPS_ISR_PIDS; ++sa) {
            const int shifted = sa / GAPS_ISR_PIDS, a = sa % GAPS_ISR_PIDS;
            const int fa = abs(pid_of_row(a));
            const double m2 = (fa == 4 || fa == 5) ? isr->m2[fa] : 0.0;
            /* an incoming c or b cannot be there below its threshold: its own trials, in
             * t - m^2, convert it before */
            if (m2 > 0.0 && !(t > m2)) continue;
            const double mass = !(shifted && m2 > 0.0) ? 1.0
                                : isr->heavy_loglog ? log(t / m2) : (t - m2) / t;
            double *s0 = &B[j0 * nper + (size_t)sa * GAPS_ISR_PIDS * GAPS_ISR_ETA_BINS];
            double *s1 = &B[j1 * nper + (size_t)sa * GAPS_ISR_PIDS * GAPS_ISR_ETA_BINS];
            for (int bin = 0; bin < GAPS_ISR_ETA_BINS; ++bin) {
                double m0[GAPS_ISR_PIDS], m1[GAPS_ISR_PIDS];   /* the same slots if j0 = j1 */
                for (int b = 0; b < GAPS_ISR_PIDS; ++b) {
                    m0[b] = s0[b * GAPS_ISR_ETA_BINS + bin];
                    m1[b] = s1[b * GAPS_ISR_ETA_BINS + bin];
                }
                for (int iy = bin * X_PER_BIN; iy < (bin + 1) * X_PER_BIN; ++iy) {
                    /* eta in [y_iy, y_iy+1]: x f_a at least the smaller end (the last interval
                     * ends at x = 1, where x f = 0: its left end) */
                    const double l = xf[(size_t)iy * GAPS_ISR_PIDS + a];
                    const double den = iy + 1 < ny - 1
                                       ? fmin(l, xf[(size_t)(iy + 1) * GAPS_ISR_PIDS + a]) : l;
                    const double *num = &sufmax[(size_t)iy * GAPS_ISR_PIDS];
                    for (int b = 0; b < GAPS_ISR_PIDS; ++b) {
                        const double r = den > 0.0 ? mass * num[b] / den
                                                   : (num[b] > 0.0 ? INFINITY : 0.0);
                        if (r > m0[b]) m0[b] = r;
                        if (r > m1[b]) m1[b] = r;
                    }
                }
                for (int b = 0; b < GAPS_ISR_PIDS; ++b) {
                    s0[b * GAPS_ISR_ETA_BINS + bin] = m0[b];
                    s1[b * GAPS_ISR_ETA_BINS + bin] = m1[b];
                }
            }
        }
    }
    for (size_t i = 0; i < nper * isr->n_tbins; ++i)
        B[i] = fmin(BOUND_CAP, SAFETY * B[i]);
    free(xf);
    free(sufmax);
    *table = B;
    isr->bound = B;
    return 0;
}

size_t gaps_isr_table_bytes(const gaps_isr *isr)
{
    return (size_t)isr->n_tbins * 2 * GAPS_ISR_PIDS * GAPS_ISR_PIDS * GAPS_ISR_ETA_BINS
           * sizeof(double);
}
