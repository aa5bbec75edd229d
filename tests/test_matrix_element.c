/* Cross section: the analytic integral against doc/physics.md's exact values, and the Monte Carlo
 * estimate of the generator within 4 standard errors of them. */
#include "gaps/matrix_element.h"
#include <math.h>
#include <stdio.h>

int main(void)
{
    static const double ecm[] = { 91.2, 10.0, 50.0, 200.0 };
    static const double exact[] = { 42540.48, 3601.76, 158.80, 20.456 };
    static const double digits[] = { 0.005, 0.005, 0.005, 0.0005 };   /* half the last quoted digit */
    int fail = 0;
    for (int i = 0; i < 4; ++i) {
        gaps_me me;
        gaps_me_init(&me, ecm[i]);
        double s = gaps_me_sigma_exact(&me);
        if (fabs(s - exact[i]) > digits[i]) { printf("FAIL exact sigma(%g) = %.4f, expected %g\n", ecm[i], s, exact[i]); fail = 1; }
        /* the MC estimate, 2 x 10^5 points */
        const int n = 200000;
        double sw = 0, sw2 = 0, wmax = 0;
        for (int k = 0; k < n; ++k) {
            gaps_rng r = gaps_rng_make(2024, (uint64_t)k, 0);
            gaps_me_point p = gaps_me_generate(&me, &r);
            sw += p.weight; sw2 += p.weight * p.weight;
            if (p.weight > wmax) wmax = p.weight;
            if (p.flavour < 1 || p.flavour > 5 || fabs(p.cos_theta) > 1) { printf("FAIL point out of range\n"); fail = 1; break; }
        }
        double mean = sw / n, err = sqrt((sw2 / n - mean * mean) / n);
        double pull = (mean - exact[i]) / err;
        printf("sqrt(s) = %6.1f GeV: sigma = %.2f +- %.2f pb (exact %.2f, pull %+.2f)\n", ecm[i], mean, err, exact[i], pull);
        if (fabs(pull) > 4) { printf("FAIL cross section at %g GeV\n", ecm[i]); fail = 1; }
        if (wmax > me.w_max * (1 + 1e-12)) { printf("FAIL weight above w_max\n"); fail = 1; }
    }
    return fail;
}
