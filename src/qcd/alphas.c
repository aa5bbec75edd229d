/* alphas.c -- running strong coupling with flavour thresholds (doc/physics.md section 2). */
#include "gaps/alphas.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"

#include <math.h>

static double beta0(int nf) { return 11.0 / 6.0 * GAPS_CA - 2.0 / 3.0 * GAPS_TR * nf; }
static double beta1(int nf)
{
    return 17.0 / 6.0 * GAPS_CA * GAPS_CA - (5.0 / 3.0 * GAPS_CA + GAPS_CF) * GAPS_TR * nf;
}

/* alpha_s in one region, from its reference point; order 1 drops the two-loop term. */
static double running(const gaps_alphas *as, int region, double t)
{
    const double a = as->a_ref[region];
    const double w = 1.0 + as->b0[region] * a * gaps_log(t / as->t_ref[region]);
    if (as->order == 1) return a / w;
    return a / w * (1.0 - as->b1_b0[region] * a * gaps_log(w) / w);
}

static void set_ln_t_ref(gaps_alphas *as)
{
    for (int r = 0; r < 3; ++r) as->ln_t_ref[r] = gaps_log(as->t_ref[r]);
}

int gaps_alphas_init(gaps_alphas *as, int order, double asmz)
{
    if (order < 0 || order > 2 || !(asmz > 0.0 && asmz < 1.0)) return -1;
    as->order = order;
    as->asmz = asmz;
    as->herwig = 0;
    for (int r = 0; r < 3; ++r) as->lambda2[r] = 0.0;
    for (int r = 0; r < 3; ++r) {
        const int nf = 5 - r;
        as->b0[r] = beta0(nf) / (2.0 * GAPS_PI);
        as->b1[r] = beta1(nf) / (4.0 * GAPS_PI * GAPS_PI);
        as->b1_b0[r] = as->b1[r] / as->b0[r];
    }
    as->t_ref[0] = GAPS_MZ * GAPS_MZ;
    as->a_ref[0] = asmz;
    as->t_ref[1] = GAPS_MASS_B * GAPS_MASS_B;
    as->a_ref[1] = order == 0 ? asmz : running(as, 0, as->t_ref[1]);
    as->t_ref[2] = GAPS_MASS_C * GAPS_MASS_C;
    as->a_ref[2] = order == 0 ? asmz : running(as, 1, as->t_ref[2]);
    set_ln_t_ref(as);
    return 0;
}

void gaps_alphas_set_thresholds(gaps_alphas *as, double m_c, double m_b)
{
    as->t_ref[1] = m_b * m_b;
    as->t_ref[2] = m_c * m_c;
    set_ln_t_ref(as);
    if (as->order == 0) return;
    as->a_ref[1] = running(as, 0, as->t_ref[1]);
    as->a_ref[2] = running(as, 1, as->t_ref[2]);
}

/* Herwig's expansion at nf flavours (region 5 - nf), from its own beta coefficients. */
static double herwig_value(double t, double lambda2, int nf)
{
    const double b0 = (33.0 - 2.0 * nf) / (12.0 * GAPS_PI);
    const double b1 = (153.0 - 19.0 * nf) / (24.0 * GAPS_PI * GAPS_PI);
    const double L = gaps_log(t / lambda2), lnL = gaps_log(L), c = b1 / (b0 * b0 * L);
    return 1.0 / (b0 * L) * (1.0 - c * lnL + c * c * ((lnL - 0.5) * (lnL - 0.5) - 1.25));
}

/* The Lambda^2 at which herwig_value(t, ., nf) = a, by bisection in ln Lambda^2 over
 * [1e-6, 1] GeV^2 (Herwig's range), where the value rises with Lambda^2. */
static double herwig_lambda2(double t, double a, int nf)
{
    double lo = log(1e-6), hi = 0.0;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (herwig_value(t, exp(mid), nf) < a) lo = mid;
        else hi = mid;
    }
    return exp(0.5 * (lo + hi));
}

void gaps_alphas_set_herwig(gaps_alphas *as)
{
    if (as->order == 0) return;
    as->herwig = 1;
    as->t_ref[1] = 4.2 * 4.2;
    as->t_ref[2] = 1.25 * 1.25;
    set_ln_t_ref(as);
    as->lambda2[0] = herwig_lambda2(GAPS_MZ * GAPS_MZ, as->asmz, 5);
    as->lambda2[1] = herwig_lambda2(as->t_ref[1], herwig_value(as->t_ref[1], as->lambda2[0], 5), 4);
    as->lambda2[2] = herwig_lambda2(as->t_ref[2], herwig_value(as->t_ref[2], as->lambda2[1], 4), 3);
}

GAPS_DEVICE_BEGIN
int gaps_alphas_region(const gaps_alphas *as, double t)
{
    return t >= as->t_ref[1] ? 0 : (t >= as->t_ref[2] ? 1 : 2);
}

double gaps_alphas_value(const gaps_alphas *as, double t)
{
    if (as->order == 0) return as->asmz;
    const int region = gaps_alphas_region(as, t);
    if (as->herwig) return herwig_value(t, as->lambda2[region], 5 - region);
    return running(as, region, t);
}

double gaps_alphas_value_own(const gaps_alphas *as, double t)
{
    if (as->order == 0) return as->asmz;
    return running(as, gaps_alphas_region(as, t), t);
}

/* The two-loop term written with q = a/w, one division where running() has two (running()'s
 * bits are those of every coupling of a run without --vary, which keeps them). */
double gaps_alphas_from_log(const gaps_alphas *as, int region, double l)
{
    if (as->order == 0) return as->asmz;
    const double a = as->a_ref[region];
    const double w = 1.0 + as->b0[region] * a * l;
    const double q = a / w;
    if (as->order == 1) return q;
    return q * (1.0 - as->b1_b0[region] * q * gaps_log(w));
}
GAPS_DEVICE_END

int gaps_alphas_is_defined(const gaps_alphas *as, double t_min)
{
    if (!(t_min > 0.0)) return 0;
    if (as->order == 0) return 1;
    /* alpha_s falls with t in every region, so the smallest scale is the critical one; the
     * argument of the log must stay positive there too. */
    const int region = t_min >= as->t_ref[1] ? 0 : (t_min >= as->t_ref[2] ? 1 : 2);
    const double w =
        1.0 + as->b0[region] * as->a_ref[region] * gaps_log(t_min / as->t_ref[region]);
    const double a = gaps_alphas_value(as, t_min);
    return w > 0.0 && isfinite(a) && a > 0.0 && a < 10.0;
}
