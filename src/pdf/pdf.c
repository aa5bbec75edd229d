/* pdf.c -- x f(x, Q^2) from a PDF grid by LHAPDF's "logcubic" interpolation, identical on every
 * backend (doc/physics.md, section "Parton distributions"): the tables built at load time, the
 * evaluation that runs inside the loops, and the copy of the tables to the device. */
#include "gaps/pdf.h"
#include "gaps/fpmath.h"
#include "gaps_runtime.h"
#include "pdf_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Tables (host, at load time)
 * ------------------------------------------------------------------------------------------ */

static double grid_xf(const gaps_pdf_grid *g, int iq, int ix, int k)
{
    return g->xf[((size_t)iq * g->nx + ix) * g->nfl + k];
}

/* The one-sided difference (xf_{i+1} - xf_i) / (ln x_{i+1} - ln x_i) on Q knot iq. */
static double difference_lnx(const gaps_pdf_grid *g, const double *lnx, int iq, int i, int k)
{
    return (grid_xf(g, iq, i + 1, k) - grid_xf(g, iq, i, k)) / (lnx[i + 1] - lnx[i]);
}

/* d(xf)/d(ln x) at knot ix on Q knot iq: the mean of the one-sided differences to the left and
 * to the right, one-sided at the first and the last knot (LHAPDF's finite differences). */
static double slope_lnx(const gaps_pdf_grid *g, const double *lnx, int iq, int ix, int k)
{
    if (ix == 0) return difference_lnx(g, lnx, iq, 0, k);
    if (ix == g->nx - 1) return difference_lnx(g, lnx, iq, ix - 1, k);
    return 0.5 * (difference_lnx(g, lnx, iq, ix - 1, k) + difference_lnx(g, lnx, iq, ix, k));
}

static size_t hermite_count(int nx, int nq, int nfl) { return (size_t)nq * (nx - 1) * nfl * 4; }

/* Logarithms of the knots, which must stay strictly increasing (within a subgrid, for Q^2):
 * the interpolation divides by their differences. */
static int knot_logs(gaps_pdf *pdf, const gaps_pdf_grid *g, const char *what, char *err,
                     size_t errlen)
{
    for (int i = 0; i < g->nx; ++i) {
        pdf->lnx[i] = gaps_log(g->x[i]);
        if (i > 0 && !(pdf->lnx[i] > pdf->lnx[i - 1])) {
            gaps_pdf_error(err, errlen, "%s: x knots %d and %d (%.17g, %.17g) are too close: "
                           "their logarithms are equal", what, i, i + 1, g->x[i - 1], g->x[i]);
            return -1;
        }
    }
    for (int s = 0; s < g->nsub; ++s)
        for (int j = g->sub_first[s]; j < g->sub_first[s + 1]; ++j) {
            const double q2 = g->q[j] * g->q[j];
            if (!(q2 > 0.0 && q2 < INFINITY)) {
                gaps_pdf_error(err, errlen, "%s: Q knot %.17g has no finite, positive square",
                               what, g->q[j]);
                return -1;
            }
            pdf->lnq2[j] = gaps_log(q2);
            if (j > g->sub_first[s] && !(pdf->lnq2[j] > pdf->lnq2[j - 1])) {
                gaps_pdf_error(err, errlen, "%s: Q knots %.17g and %.17g of subgrid %d are too "
                               "close: the logarithms of their squares are equal", what,
                               g->q[j - 1], g->q[j], s + 1);
                return -1;
            }
        }
    return 0;
}

/* The Hermite form of the cubic along ln x on every interval, Q knot and column (gaps_pdf's
 * `hermite`): end values and end slopes scaled by the interval width. */
static int hermite_tables(gaps_pdf *pdf, const gaps_pdf_grid *g, const char *what, char *err,
                          size_t errlen)
{
    const int nx = g->nx, nfl = g->nfl;
    for (int iq = 0; iq < g->nq; ++iq)
        for (int ix = 0; ix < nx - 1; ++ix) {
            const double width = pdf->lnx[ix + 1] - pdf->lnx[ix];
            for (int k = 0; k < nfl; ++k) {
                double *h = pdf->hermite + (((size_t)iq * (nx - 1) + ix) * nfl + k) * 4;
                h[0] = grid_xf(g, iq, ix, k);
                h[1] = slope_lnx(g, pdf->lnx, iq, ix, k) * width;
                h[2] = grid_xf(g, iq, ix + 1, k);
                h[3] = slope_lnx(g, pdf->lnx, iq, ix + 1, k) * width;
                if (!isfinite(h[1]) || !isfinite(h[3])) {
                    gaps_pdf_error(err, errlen, "%s: the x slope of flavour %d at Q = %.17g, "
                                   "x = %.17g is not finite (values too large)", what,
                                   g->pid[k], g->q[iq], g->x[ix]);
                    return -1;
                }
            }
        }
    return 0;
}

/* Columns of the partons -6..6 (the gluon, 21 or 0, in slot 6). */
static void flavour_columns(gaps_pdf *pdf, const gaps_pdf_grid *g)
{
    for (int i = 0; i < GAPS_PDF_NPARTONS; ++i) pdf->column[i] = -1;
    for (int k = 0; k < g->nfl; ++k) {
        pdf->pid[k] = g->pid[k];
        const int id = g->pid[k] == 21 ? 0 : g->pid[k];
        if (id >= -6 && id <= 6) pdf->column[id + 6] = k;
    }
}

int gaps_pdf_build_tables(gaps_pdf *pdf, const gaps_pdf_grid *g, const char *what, char *err,
                          size_t errlen)
{
    pdf->nx = g->nx;
    pdf->nq = g->nq;
    pdf->nfl = g->nfl;
    pdf->nsub = g->nsub;
    memcpy(pdf->sub_first, g->sub_first, sizeof pdf->sub_first);
    pdf->lnx = malloc((size_t)g->nx * sizeof *pdf->lnx);
    pdf->lnq2 = malloc((size_t)g->nq * sizeof *pdf->lnq2);
    pdf->hermite = malloc(hermite_count(g->nx, g->nq, g->nfl) * sizeof *pdf->hermite);
    if (!pdf->lnx || !pdf->lnq2 || !pdf->hermite) {
        gaps_pdf_error(err, errlen, "%s: out of memory for the interpolation tables", what);
        goto fail;
    }
    if (knot_logs(pdf, g, what, err, errlen) != 0) goto fail;
    if (hermite_tables(pdf, g, what, err, errlen) != 0) goto fail;
    flavour_columns(pdf, g);
    pdf->xmin = g->x[0];
    pdf->xmax = g->x[g->nx - 1];
    pdf->q2min = g->q[0] * g->q[0];
    pdf->q2max = g->q[g->nq - 1] * g->q[g->nq - 1];
    return 0;
fail:
    free(pdf->lnx);
    free(pdf->lnq2);
    free(pdf->hermite);
    pdf->lnx = pdf->lnq2 = pdf->hermite = NULL;
    return -1;
}

void gaps_pdf_free(gaps_pdf *pdf)
{
    if (!pdf) return;
    free(pdf->lnx);
    free(pdf->lnq2);
    free(pdf->hermite);
    memset(pdf, 0, sizeof *pdf);
}

/* ------------------------------------------------------------------------------------------
 * Device copy (host)
 * ------------------------------------------------------------------------------------------ */

int gaps_pdf_to_device(const gaps_pdf *host, gaps_pdf *dev)
{
    *dev = *host;
    dev->lnx = gaps_device_copy(host->lnx, (size_t)host->nx * sizeof *host->lnx);
    dev->lnq2 = gaps_device_copy(host->lnq2, (size_t)host->nq * sizeof *host->lnq2);
    dev->hermite = gaps_device_copy(host->hermite, hermite_count(host->nx, host->nq, host->nfl)
                                                       * sizeof *host->hermite);
    if (!dev->lnx || !dev->lnq2 || !dev->hermite) {
        gaps_pdf_device_free(dev);
        return -1;
    }
    return 0;
}

void gaps_pdf_device_free(gaps_pdf *dev)
{
    if (!dev) return;
    gaps_device_free(dev->lnx);
    gaps_device_free(dev->lnq2);
    gaps_device_free(dev->hermite);
    memset(dev, 0, sizeof *dev);
}

/* ------------------------------------------------------------------------------------------
 * Evaluation (every backend)
 * ------------------------------------------------------------------------------------------ */

GAPS_DEVICE_BEGIN

/* Where a point lies: inside the grid (x in [x_min, x_max] after Q^2 is frozen into its
 * range), below x_min (power-law extrapolation), where the answer is 0, or a NaN. */
enum pdf_region { PDF_INSIDE, PDF_BELOW_XMIN, PDF_ZERO, PDF_NAN };

/* A located point: the bracketing knots and everything that depends only on them and on
 * (x, Q^2), shared by all flavours. */
typedef struct pdf_point {
    int ix;               /* x interval: knots ix, ix + 1 */
    double wx[4];         /* Hermite weights of t_x (inside) */
    double sx;            /* (ln x - ln x_0) / (ln x_1 - ln x_0) (below x_min) */
    int iq;               /* Q^2 interval: knots iq, iq + 1 of one subgrid */
    double wq[4];         /* Hermite weights of t_Q */
    int has_below;        /* knot iq - 1 is in the same subgrid */
    int has_above;        /* knot iq + 2 is in the same subgrid */
    double ratio_below;   /* Dq1/Dq0: width of [iq, iq+1] over that of [iq-1, iq] */
    double ratio_above;   /* Dq1/Dq2: width of [iq, iq+1] over that of [iq+1, iq+2] */
} pdf_point;

/* The cubic Hermite basis at t: the weights of the value and the slope at t = 0, then of the
 * value and the slope at t = 1.  At t = 0 and t = 1 they are exactly (1, 0, 0, 0) and
 * (0, 0, 1, 0), so that a knot returns its value exactly. */
static void hermite_weights(double t, double w[4])
{
    const double t2 = t * t;
    const double t3 = t2 * t;
    w[0] = 2.0 * t3 - 3.0 * t2 + 1.0;
    w[1] = t3 - 2.0 * t2 + t;
    w[2] = -2.0 * t3 + 3.0 * t2;
    w[3] = t3 - t2;
}

static double hermite(const double w[4], double v_lo, double s_lo, double v_hi, double s_hi)
{
    return w[0] * v_lo + w[1] * s_lo + w[2] * v_hi + w[3] * s_hi;
}

/* The interval [i, i+1] of knots[lo..hi] (lo < hi) that holds v: the largest i < hi with
 * knots[i] <= v, or lo if v < knots[lo] or v is NaN.  A v equal to knots[hi] falls in the last
 * interval (t = 1). */
static int bracket(const double *knots, int lo, int hi, double v)
{
    int a = lo, b = hi;
    while (b - a > 1) {
        const int m = a + (b - a) / 2;
        if (knots[m] <= v) a = m;
        else b = m;
    }
    return a;
}

/* The Q^2 part of a point: the subgrid, the interval, its neighbours within the subgrid and
 * the Hermite weights.  Q^2 outside [Q^2_min, Q^2_max] is frozen at the edge. */
static void locate_q2(const gaps_pdf *pdf, double q2, pdf_point *p)
{
    const double *lnq2 = pdf->lnq2;
    double l;
    if (q2 <= pdf->q2min) l = lnq2[0];
    else if (q2 >= pdf->q2max) l = lnq2[pdf->nq - 1];
    else l = gaps_log(q2);
    /* the last subgrid whose first knot is <= l: a boundary knot belongs to the upper one */
    int s = pdf->nsub - 1;
    while (s > 0 && l < lnq2[pdf->sub_first[s]]) --s;
    const int first = pdf->sub_first[s], last = pdf->sub_first[s + 1] - 1;
    const int iq = bracket(lnq2, first, last, l);
    const double width = lnq2[iq + 1] - lnq2[iq];
    p->iq = iq;
    hermite_weights((l - lnq2[iq]) / width, p->wq);
    p->has_below = iq > first;
    p->has_above = iq + 2 <= last;
    p->ratio_below = p->has_below ? width / (lnq2[iq] - lnq2[iq - 1]) : 0.0;
    p->ratio_above = p->has_above ? width / (lnq2[iq + 2] - lnq2[iq + 1]) : 0.0;
}

static enum pdf_region locate(const gaps_pdf *pdf, double x, double q2, pdf_point *p)
{
    if (x != x || q2 != q2) return PDF_NAN;
    if (!(x > 0.0)) return PDF_ZERO;
    const double *lnx = pdf->lnx;
    const int last = pdf->nx - 1;
    const double l = gaps_log(x);
    if (l > lnx[last]) return PDF_ZERO;
    enum pdf_region region;
    if (l < lnx[0]) {
        region = PDF_BELOW_XMIN;
        p->ix = 0;
        p->sx = (l - lnx[0]) / (lnx[1] - lnx[0]);
    } else {
        region = PDF_INSIDE;
        p->ix = bracket(lnx, 0, last, l);
        hermite_weights((l - lnx[p->ix]) / (lnx[p->ix + 1] - lnx[p->ix]), p->wx);
    }
    locate_q2(pdf, q2, p);
    return region;
}

/* The cubic along ln x on Q knot iq, column k, with x weights wx. */
static double along_x(const gaps_pdf *pdf, int ix, int iq, int k, const double wx[4])
{
    const double *h = pdf->hermite + (((size_t)iq * (pdf->nx - 1) + ix) * pdf->nfl + k) * 4;
    return hermite(wx, h[0], h[1], h[2], h[3]);
}

/* The logcubic value of column k: the x cubics on Q knots iq and iq+1 (and iq-1, iq+2 for the
 * slopes), then the cubic in ln Q^2.  Its end slopes (times the interval width Dq1) are the
 * mean of the difference across the interval and the one across the neighbouring interval
 * rescaled to the same width, or the difference across the interval alone at a subgrid end:
 *   s_lo = ((v_hi - v_lo) + (v_lo - v_ll) Dq1/Dq0) / 2,
 *   s_hi = ((v_hi - v_lo) + (v_hh - v_hi) Dq1/Dq2) / 2.
 * Knots of another subgrid are never read. */
static double logcubic(const gaps_pdf *pdf, const pdf_point *p, int k, const double wx[4])
{
    const double v_lo = along_x(pdf, p->ix, p->iq, k, wx);
    const double v_hi = along_x(pdf, p->ix, p->iq + 1, k, wx);
    const double dv = v_hi - v_lo;
    double s_lo = dv, s_hi = dv;
    if (p->has_below) {
        const double v_ll = along_x(pdf, p->ix, p->iq - 1, k, wx);
        s_lo = 0.5 * (dv + (v_lo - v_ll) * p->ratio_below);
    }
    if (p->has_above) {
        const double v_hh = along_x(pdf, p->ix, p->iq + 2, k, wx);
        s_hi = 0.5 * (dv + (v_hh - v_hi) * p->ratio_above);
    }
    return hermite(p->wq, v_lo, s_lo, v_hi, s_hi);
}

/* Below x_min: ln xf linear in ln x through the values at the two lowest x knots (at this
 * Q^2) if both are positive, else the value at x_min. */
static double below_xmin(const gaps_pdf *pdf, const pdf_point *p, int k)
{
    const double at_knot0[4] = {1.0, 0.0, 0.0, 0.0}, at_knot1[4] = {0.0, 0.0, 1.0, 0.0};
    const double v0 = logcubic(pdf, p, k, at_knot0);
    const double v1 = logcubic(pdf, p, k, at_knot1);
    if (v0 > 0.0 && v1 > 0.0) return v0 * gaps_exp(gaps_log(v1 / v0) * p->sx);
    return v0;
}

/* The set's ForcePositive rule, applied as LHAPDF does to every value it returns. */
static double force_positive(const gaps_pdf *pdf, double v)
{
    if (pdf->force_positive == 1 && v < 0.0) return 0.0;
    if (pdf->force_positive == 2 && v < GAPS_PDF_TINY) return GAPS_PDF_TINY;
    return v;
}

/* Column k at a located point (region PDF_INSIDE or PDF_BELOW_XMIN). */
static double column_value(const gaps_pdf *pdf, const pdf_point *p, enum pdf_region region,
                           int k)
{
    const double v = region == PDF_INSIDE ? logcubic(pdf, p, k, p->wx) : below_xmin(pdf, p, k);
    return force_positive(pdf, v);
}

double gaps_pdf_xfxq2(const gaps_pdf *pdf, int pid, double x, double q2)
{
    const int k = gaps_pdf_column(pdf, pid);
    if (k < 0) return 0.0;
    pdf_point p;
    const enum pdf_region region = locate(pdf, x, q2, &p);
    if (region == PDF_NAN) return x + q2;
    if (region == PDF_ZERO) return 0.0;
    return column_value(pdf, &p, region, k);
}

void gaps_pdf_xfxq2_all(const gaps_pdf *pdf, double x, double q2, double xf[GAPS_PDF_NPARTONS])
{
    pdf_point p;
    const enum pdf_region region = locate(pdf, x, q2, &p);
    for (int i = 0; i < GAPS_PDF_NPARTONS; ++i) {
        const int k = pdf->column[i];
        if (k < 0 || region == PDF_ZERO) xf[i] = 0.0;
        else if (region == PDF_NAN) xf[i] = x + q2;
        else xf[i] = column_value(pdf, &p, region, k);
    }
}

GAPS_DEVICE_END
