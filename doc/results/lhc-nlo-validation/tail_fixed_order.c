/* tail_fixed_order.c -- the O(alpha_s) cross section of p p -> Z + parton with the Z's p_T
 * above a cut, from the real matrix elements R alone and from R - D (the H events' integrand,
 * doc/nlo.md 11.3, 11.8), at 13 TeV with CT14lo, mu_F = mu_R = M_Z, alpha_s = 0.118.  Above
 * k_T = M_Z the default NLO physics has only R - D there (its S events' shower starts at
 * M_Z^2), GAPS 2.1's power shower R (doc/validation-lhc.md section 7.4).
 * Monte Carlo over the 2 -> 2 phase space as tests/test_pp_nlo.c's part B (ln tau', y,
 * cos theta, phi uniform).  Build and run from the repository root:
 *   cc -O2 -Iinclude -Isrc -Ibackend -DGAPS_BACKEND_SERIAL \
 *      doc/results/lhc-nlo-validation/tail_fixed_order.c build/libgaps.a -lm -o tail
 *   ./tail share/pdfsets 2000000 100 */
#include "gaps/constants.h"
#include "gaps/pdf.h"
#include "process/pp_nlo.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ECM 13000.0
#define ALPHAS 0.118

static uint64_t rng_state = 12345;
static double uni(void)   /* splitmix64, uniform in (0, 1) */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return ((z >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: tail PDFSETS_DIR N PTCUT_GEV\n");
        return 2;
    }
    const long n = atol(argv[2]);
    const double ptcut = atof(argv[3]);
    gaps_pdf pdf;
    char err[512];
    if (gaps_pdf_load(&pdf, GAPS_DEFAULT_PDF, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "tail: %s\n", err);
        return 2;
    }
    const double mz2 = GAPS_MZ * GAPS_MZ, ltau = log(mz2 / (ECM * ECM));
    double born[6];
    for (int f = 1; f <= 5; ++f) born[f] = gaps_pp_z_born(f);
    /* sums of: R (all channels), R - D (all), R and R - D of q qbar -> Z g alone */
    double s[4] = { 0 }, s2[4] = { 0 };
    for (long i = 0; i < n; ++i) {
        const double lt = ltau * uni(), y = -lt * (uni() - 0.5);
        const double tau = exp(lt), sh = tau * ECM * ECM, rs = sqrt(sh);
        const double xi1 = sqrt(tau) * exp(y), xi2 = sqrt(tau) * exp(-y);
        const double c = 2.0 * uni() - 1.0, phi = 2.0 * GAPS_PI * uni();
        const double beta = 1.0 - mz2 / sh, ek = 0.5 * rs * beta, sn = sqrt(fmax(0.0, 1 - c * c));
        double w[4] = { 0 };
        if (ek * sn > ptcut) {   /* the Z's p_T = the parton's */
            const double ch = cosh(y), shy = sinh(y);
            double pa[4] = { 0.5 * rs, 0, 0, 0.5 * rs }, pb[4] = { 0.5 * rs, 0, 0, -0.5 * rs };
            double k[4] = { ek, ek * sn * cos(phi), ek * sn * sin(phi), ek * c };
            double *v[3] = { pa, pb, k };
            for (int j = 0; j < 3; ++j) {
                const double e = v[j][0], pz = v[j][3];
                v[j][0] = ch * e + shy * pz;
                v[j][3] = shy * e + ch * pz;
            }
            double F1[13], F2[13];
            gaps_pdf_xfxq2_all(&pdf, xi1, mz2, F1);
            gaps_pdf_xfxq2_all(&pdf, xi2, mz2, F2);
            const double jac = -ltau * -lt / (2.0 * sh) * beta / (8.0 * GAPS_PI) * GAPS_GEV2_TO_PB;
            for (int f = 1; f <= 5; ++f) {
                double rqq, rqg, rgq;
                const double qq = gaps_pp_qqbar_zg_subtracted(born[f], ALPHAS, mz2, pa, pb, k, &rqq, NULL);
                const double qg = gaps_pp_qg_zq_subtracted(born[f], ALPHAS, mz2, pa, pb, k, &rqg, NULL);
                const double gq = gaps_pp_qg_zq_subtracted(born[f], ALPHAS, mz2, pb, pa, k, &rgq, NULL);
                const double lqq = F1[6 + f] * F2[6 - f] + F1[6 - f] * F2[6 + f];
                const double lqg = (F1[6 + f] + F1[6 - f]) * F2[6], lgq = F1[6] * (F2[6 + f] + F2[6 - f]);
                w[0] += jac * (rqq * lqq + rqg * lqg + rgq * lgq);
                w[1] += jac * (qq * lqq + qg * lqg + gq * lgq);
                w[2] += jac * rqq * lqq;
                w[3] += jac * qq * lqq;
            }
        }
        for (int j = 0; j < 4; ++j) { s[j] += w[j]; s2[j] += w[j] * w[j]; }
    }
    const char *name[4] = { "R, all channels", "R - D, all channels", "R, q qbar -> Z g",
                            "R - D, q qbar -> Z g" };
    printf("p_T(Z) > %g GeV, %ld points:\n", ptcut, n);
    for (int j = 0; j < 4; ++j) {
        const double m = s[j] / n, e = sqrt(fmax(s2[j] / n - m * m, 0.0) / (n - 1));
        printf("  %-22s %10.2f +- %6.2f pb\n", name[j], m, e);
    }
    return 0;
}
