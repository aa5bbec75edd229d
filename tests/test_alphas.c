/* alpha_s at the test values of doc/physics.md section 2, and the fixed/one-loop options. */
#include "gaps/alphas.h"
#include "gaps/fpmath.h"
#include <math.h>
#include <stdio.h>

int main(void)
{
    static const double t[] = { 1, 1.5, 2, 10, 25, 100, 1000 };
    static const double ref[] = { 0.439343, 0.380222, 0.350220, 0.246463, 0.211700, 0.177690,
                                  0.140517 };
    int fail = 0;
    gaps_alphas as;
    if (gaps_alphas_init(&as, 2, 0.118) != 0) return 1;
    for (int i = 0; i < 7; ++i) {
        double a = gaps_alphas_value(&as, t[i]);
        /* the reference values carry six decimals */
        if (fabs(a - ref[i]) > 6e-7) { printf("FAIL alpha_s(%g) = %.7f, expected %.6f\n", t[i], a, ref[i]); fail = 1; }
    }
    /* continuity at the thresholds and the reference point */
    if (fabs(gaps_alphas_value(&as, 91.1876 * 91.1876) - 0.118) > 1e-15) { printf("FAIL alpha_s(MZ)\n"); fail = 1; }
    double eps = 1e-9;
    double mb2 = 4.75 * 4.75, mc2 = 1.27 * 1.27;
    if (fabs(gaps_alphas_value(&as, mb2 * (1 + eps)) - gaps_alphas_value(&as, mb2 * (1 - eps))) > 1e-8 ||
        fabs(gaps_alphas_value(&as, mc2 * (1 + eps)) - gaps_alphas_value(&as, mc2 * (1 - eps))) > 1e-8) {
        printf("FAIL discontinuous at a threshold\n"); fail = 1;
    }
    /* one loop: exactly a / (1 + b0 a ln(t/MZ^2)) above m_b */
    gaps_alphas one;
    gaps_alphas_init(&one, 1, 0.118);
    double b0 = (11.0 / 6 * 3 - 2.0 / 3 * 0.5 * 5) / (2 * 3.14159265358979323846);
    double expect = 0.118 / (1 + b0 * 0.118 * log(100 / (91.1876 * 91.1876)));
    if (fabs(gaps_alphas_value(&one, 100) - expect) > 1e-14) { printf("FAIL one-loop\n"); fail = 1; }
    gaps_alphas fixed;
    gaps_alphas_init(&fixed, 0, 0.1);
    if (gaps_alphas_value(&fixed, 3.0) != 0.1 || gaps_alphas_value(&fixed, 1e4) != 0.1) { printf("FAIL fixed\n"); fail = 1; }
    /* decreasing in t everywhere (the shower's overestimate relies on it) */
    for (double x = 0.5; x < 1e5; x *= 1.1)
        if (gaps_alphas_value(&as, x * 1.1) >= gaps_alphas_value(&as, x)) { printf("FAIL not decreasing at %g\n", x); fail = 1; break; }
    if (gaps_alphas_init(&as, 3, 0.118) == 0 || gaps_alphas_init(&as, 2, 0.0) == 0) { printf("FAIL bad input accepted\n"); fail = 1; }
    gaps_alphas_init(&as, 2, 0.118);
    if (gaps_alphas_is_defined(&as, 0.01)) { printf("FAIL Landau pole not detected\n"); fail = 1; }
    /* the running in two parts (the --vary couplings of a trial, gaps/alphas.h): from its own
     * logarithm the value of gaps_alphas_value to rounding, at one and two loops; and the
     * coupling at k^2 t from t's logarithm plus ln k^2 and the step between the regions'
     * reference scales, across the thresholds too */
    for (int order = 1; order <= 2; ++order) {
        gaps_alphas c;
        gaps_alphas_init(&c, order, 0.118);
        double worst = 0.0, worst_k = 0.0;
        for (double x = 0.3; x < 2e4; x *= 1.013) {
            const int r = gaps_alphas_region(&c, x);
            const double l = gaps_log(x / c.t_ref[r]);
            const double a = gaps_alphas_from_log(&c, r, l);
            worst = fmax(worst, fabs(a / gaps_alphas_value(&c, x) - 1.0));
            static const double k2[] = { 0.25, 4.0, 0.5, 2.0 };
            for (int j = 0; j < 4; ++j) {
                const int rk = gaps_alphas_region(&c, k2[j] * x);
                const double lk = l + gaps_log(k2[j]) + (c.ln_t_ref[r] - c.ln_t_ref[rk]);
                const double ak = gaps_alphas_from_log(&c, rk, lk);
                worst_k = fmax(worst_k, fabs(ak / gaps_alphas_value(&c, k2[j] * x) - 1.0));
            }
        }
        if (!(worst < 1e-14) || !(worst_k < 1e-13)) {
            printf("FAIL order %d: alpha_s from its logarithm off by %.3g, at k^2 t off by %.3g\n",
                   order, worst, worst_k);
            fail = 1;
        }
    }
    if (!fail) printf("alphas: all test values agree\n");
    return fail;
}
