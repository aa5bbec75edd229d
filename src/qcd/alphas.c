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
    return a / w * (1.0 - as->b1[region] / as->b0[region] * a * gaps_log(w) / w);
}

int gaps_alphas_init(gaps_alphas *as, int order, double asmz)
{
    if (order < 0 || order > 2 || !(asmz > 0.0 && asmz < 1.0)) return -1;
    as->order = order;
    as->asmz = asmz;
    for (int r = 0; r < 3; ++r) {
        const int nf = 5 - r;
        as->b0[r] = beta0(nf) / (2.0 * GAPS_PI);
        as->b1[r] = beta1(nf) / (4.0 * GAPS_PI * GAPS_PI);
    }
    as->t_ref[0] = GAPS_MZ * GAPS_MZ;
    as->a_ref[0] = asmz;
    as->t_ref[1] = GAPS_MASS_B * GAPS_MASS_B;
    as->a_ref[1] = order == 0 ? asmz : running(as, 0, as->t_ref[1]);
    as->t_ref[2] = GAPS_MASS_C * GAPS_MASS_C;
    as->a_ref[2] = order == 0 ? asmz : running(as, 1, as->t_ref[2]);
    return 0;
}

GAPS_DEVICE_BEGIN
double gaps_alphas_value(const gaps_alphas *as, double t)
{
    if (as->order == 0) return as->asmz;
    const int region = t >= as->t_ref[1] ? 0 : (t >= as->t_ref[2] ? 1 : 2);
    return running(as, region, t);
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
