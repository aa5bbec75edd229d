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
#include "gaps/event_pool.h"
#include "gaps/pdf.h"
#include "shower/isr.h"
#include "shower/isr_bounds.h"

#include <math.h>
#include <stdlib.h>

#define SAFETY 1.5          /* for the interpolation between the samples */
#define BOUND_CAP 1e4       /* where the grid gives no bound */
#define X_PER_BIN 8

static int pid_of_row(int r) { return r == 5 ? 0 : r - 5; }   /* gaps_pdf_xfxq2_all column */

int gaps_isr_init(gaps_isr *isr, const gaps_pdf *pdf, int compat, double t_cut, double **table)
{
    isr->compat = compat;
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

    const size_t nrow = 2 * GAPS_ISR_PIDS * GAPS_ISR_PIDS;
    double *B = calloc(nrow * GAPS_ISR_ETA_BINS, sizeof *B);
    const int ny = GAPS_ISR_ETA_BINS * X_PER_BIN + 1;
    double *xf = malloc((size_t)ny * GAPS_ISR_PIDS * sizeof *xf);    /* [y][row] */
    double *sufmax = malloc((size_t)ny * GAPS_ISR_PIDS * sizeof *sufmax);
    if (!B || !xf || !sufmax) { free(B); free(xf); free(sufmax); return -1; }

    /* the scales: every Q^2 knot from t_min up, three points between knots, and points just
     * above the heavy-quark thresholds where x f_c, x f_b rise from zero */
    double ts[4 * 256 + 16];
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
    for (int f = 4; f <= 5; ++f)
        for (int k = 1; k <= 4; ++k) ts[nt++] = isr->m2[f] * (1.0 + pow(10.0, -k));
    ts[nt++] = isr->t_min;

    for (int it = 0; it < nt; ++it) {
        const double t = ts[it];
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
        for (int shifted = 0; shifted < 2; ++shifted)
            for (int a = 0; a < GAPS_ISR_PIDS; ++a) {
                const int fa = abs(pid_of_row(a));
                const double m2 = (fa == 4 || fa == 5) ? isr->m2[fa] : 0.0;
                /* an incoming c or b cannot be there below its threshold: its own trials,
                 * in t - m^2, convert it before */
                if (m2 > 0.0 && !(t > m2)) continue;
                const double mass = shifted && m2 > 0.0 ? (t - m2) / t : 1.0;
                for (int bin = 0; bin < GAPS_ISR_ETA_BINS; ++bin) {
                    const int y0 = bin * X_PER_BIN, y1 = y0 + X_PER_BIN;
                    double den = INFINITY;
                    for (int iy = y0; iy <= y1; ++iy)
                        if (iy < ny - 1) den = fmin(den, xf[(size_t)iy * GAPS_ISR_PIDS + a]);
                    for (int b = 0; b < GAPS_ISR_PIDS; ++b) {
                        const double num = sufmax[(size_t)y0 * GAPS_ISR_PIDS + b];
                        const double r = den > 0.0 ? mass * num / den : (num > 0.0 ? INFINITY : 0.0);
                        double *slot = &B[((size_t)(shifted * GAPS_ISR_PIDS + a) * GAPS_ISR_PIDS + b)
                                          * GAPS_ISR_ETA_BINS + bin];
                        if (r > *slot) *slot = r;
                    }
                }
            }
    }
    for (size_t i = 0; i < nrow * GAPS_ISR_ETA_BINS; ++i)
        B[i] = fmin(BOUND_CAP, SAFETY * B[i]);
    free(xf);
    free(sufmax);
    *table = B;
    isr->bound = B;
    return 0;
}

size_t gaps_isr_table_bytes(void)
{
    return (size_t)2 * GAPS_ISR_PIDS * GAPS_ISR_PIDS * GAPS_ISR_ETA_BINS * sizeof(double);
}
