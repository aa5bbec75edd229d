/* pp_z_nlo_events.c -- the events of p p -> Z at NLO (--nlo 1 --process pp-z): MC@NLO with
 * Catani-Seymour subtraction, S and H events in the same lock-step pool as every other event
 * (doc/nlo.md section 11.8; the pieces are the pure functions of pp_z_nlo.c, gaps/pp_nlo.h).
 *
 * Every event computes both an S weight and an H weight from its own random stream, with a
 * fixed number of draws whatever the outcome (5 blocks of two uniforms):
 *   S: the Born point of pp_z.c (rapidity table, the same two draws), times
 *      1 + (V + I)/B + K_end + P_end of both legs, plus the K and P x-integrals of both legs,
 *      each sampled with one uniform per leg (x = eta^u, Jacobian x ln(1/eta)): an unbiased
 *      estimate of the S integrand at that Born point; per channel (flavour, orientation),
 *      one channel chosen by |contribution| as at leading order;
 *   H: a point of the 2 -> 2 phase space (ln tau' uniform in [ln tau, 0], the parton-frame
 *      rapidity uniform in [ln tau'/2, -ln tau'/2], cos theta and phi uniform in the parton
 *      frame), weight sum over the 30 channels of [xf][xf] (R - sum D) times the Jacobian
 *      ln(1/tau) ln(1/tau') (1/(2 s_hat)) beta/(8 pi); one channel chosen by |contribution|.
 * The event is S or H with probability |w_S| / (|w_S| + |w_H|), weight sign * (|w_S| + |w_H|):
 * the mean weight is sigma_NLO. */
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps/pp_nlo.h"
#include "process/pp_z.h"

#include <math.h>

void gaps_pp_nlo_init(gaps_pp_nlo *nlo, double alphas, int compat)
{
    nlo->on = 1;
    nlo->gaps21 = compat == GAPS_COMPAT_GAPS21;
    nlo->alphas = alphas;
    nlo->lf = 0.0;   /* mu_F = M_Z */
    nlo->born[0] = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) nlo->born[f] = gaps_pp_z_born(f);
}

GAPS_DEVICE_BEGIN

void gaps_pp_z_nlo_generate(const gaps_pp_z *pz, const gaps_pp_nlo *nlo, const gaps_pdf *pdf,
                            gaps_rng *rng, gaps_hard_event *ev)
{
    double ry, rc, ua, ub, r1, r2, r3, r4, rch, rsh;
    gaps_rng_uniform2(rng, &ry, &rc);     /* Born: rapidity, channel (as at leading order) */
    gaps_rng_uniform2(rng, &ua, &ub);     /* S: x of leg a (+z) and of leg b (-z) */
    gaps_rng_uniform2(rng, &r1, &r2);     /* H: ln tau', rapidity */
    gaps_rng_uniform2(rng, &r3, &r4);     /* H: cos theta, phi */
    gaps_rng_uniform2(rng, &rch, &rsh);   /* H: channel; S or H */
    const double mz2 = pz->mz2, as = nlo->alphas;

    /* ---- S: the Born point ---- */
    double y, y_weight = 1.0;
    if (pz->y_bins > 0) {
        double frac;
        const int bin = gaps_sampling_table_pick(pz->y_prob, pz->y_cum, pz->y_bins, ry, &frac,
                                                 &y_weight);
        const double dy = 2.0 * pz->y_max / pz->y_bins;
        y = -pz->y_max + (bin + frac) * dy;
    } else {
        y = pz->y_max * (2.0 * ry - 1.0);
    }
    const double ea = pz->sqrt_tau * gaps_exp(y), eb = pz->sqrt_tau * gaps_exp(-y);
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, ea, mz2, fa);
    gaps_pdf_xfxq2_all(pdf, eb, mz2, fb);
    gaps_pp_s_legs legs;
    gaps_pp_s_legs_make(nlo, pdf, ea, eb, ua, ub, mz2, &legs);
    /* channel 2(f-1) + o: flavour f, quark from the proton along +z (o = 0) or -z (o = 1) */
    double cs[2 * GAPS_N_FLAVOURS];
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        for (int o = 0; o < 2; ++o)
            cs[2 * (f - 1) + o] = pz->norm[f] * gaps_pp_s_bracket(&legs, fa, fb, f, o);
    double sum_s, sign_s;
    const int ks = gaps_choose_channel(cs, 2 * GAPS_N_FLAVOURS, rc, &sum_s, &sign_s);
    double w_s = sum_s * y_weight;   /* |S weight| */

    /* ---- H: a point of the 2 -> 2 phase space ---- */
    const double ltau = -2.0 * pz->y_max;          /* ln(M_Z^2 / S) */
    const double lt = ltau * r1;                   /* ln tau' */
    const double yh = -lt * (r2 - 0.5);            /* parton-frame rapidity */
    const double big_s = 4.0 * pz->half_ecm * pz->half_ecm;
    const double sh = gaps_exp(lt) * big_s, rs = sqrt(sh);
    const double xi1 = gaps_exp(0.5 * lt + yh), xi2 = gaps_exp(0.5 * lt - yh);
    const double beta = 1.0 - mz2 / sh, ek = 0.5 * rs * beta;
    const double omc = 2.0 * (1.0 - r3), opc = 2.0 * r3;   /* 1 - cos theta, 1 + cos theta */
    const double sn = sqrt(omc * opc), c = r3 - (1.0 - r3);
    double sphi, cphi;
    gaps_sincos(2.0 * GAPS_PI * r4, &sphi, &cphi);
    /* parton frame (for the matrix elements: invariant) */
    const double qa[4] = { 0.5 * rs, 0.0, 0.0, 0.5 * rs }, qb[4] = { 0.5 * rs, 0.0, 0.0, -0.5 * rs };
    const double qk[4] = { ek, ek * sn * cphi, ek * sn * sphi, ek * c };
    const double t = -rs * ek * omc, u = -rs * ek * opc;
    double ch[6 * GAPS_N_FLAVOURS], cm[12 * GAPS_N_FLAVOURS];
    double sum_h = 0.0, sign_h = 1.0, sum_m = 0.0, sign_m = 1.0;
    int kh = 0, km = 0;
    /* The S events' shower starts at t_s and emits below it with the density of the dipoles
     * D, so the H events subtract D only there.  Where the emission's k_T^2 (for both
     * initial-initial dipoles the parton's p_T^2 = t u / s_hat, the shower's evolution
     * variable) lies above t_s, no S event can emit: there the H weight is R alone, and the
     * S events lose the integral of D above t_s, which the S weight (through I) holds: -D at
     * the same point, put on the dipole's mapped Born kinematics ("M" events below, showered
     * from t_s as S events are).  Sum of the three: sigma_NLO as before (doc/nlo.md 11.8). */
    const double t_s = nlo->gaps21 ? big_s : mz2;
    const int above = t * u / sh > t_s;
    const double x_map = mz2 / sh;   /* the initial-initial map's x of either emitter */
    const int ok = xi1 < 1.0 && xi2 < 1.0 && fabs(t) >= GAPS_PP_NLO_MIN_TU * sh
                   && fabs(u) >= GAPS_PP_NLO_MIN_TU * sh;
    if (ok) {
        double f1[GAPS_PDF_NPARTONS], f2[GAPS_PDF_NPARTONS];
        gaps_pdf_xfxq2_all(pdf, xi1, mz2, f1);
        gaps_pdf_xfxq2_all(pdf, xi2, mz2, f2);
        /* dxi1 dxi2 f f = [xf][xf] d ln tau' dy; sigma_hat = (1/(2 s)) (beta/(8 pi)) |M|^2 */
        const double jac = ltau * lt / (2.0 * sh) * beta / (8.0 * GAPS_PI) * GAPS_GEV2_TO_PB;
        for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
            const double b = nlo->born[f];
            double r_qq, r_qg, r_gq, d_qq[2], d_qg[2], d_gq[2];
            double qq = gaps_pp_qqbar_zg_subtracted(b, as, mz2, qa, qb, qk, &r_qq, d_qq);
            double qg = gaps_pp_qg_zq_subtracted(b, as, mz2, qa, qb, qk, &r_qg, d_qg);
            double gq = gaps_pp_qg_zq_subtracted(b, as, mz2, qb, qa, qk, &r_gq, d_gq);
            if (above) qq = r_qq, qg = r_qg, gq = r_gq;
            /* the parton densities of each H type, (leg 1, leg 2) */
            const double p1[6] = { f1[6 + f], f1[6 - f], f1[6 + f], f1[6 - f], f1[6], f1[6] };
            const double p2[6] = { f2[6 - f], f2[6 + f], f2[6], f2[6], f2[6 + f], f2[6 - f] };
            const double me[6] = { qq, qq, qg, qg, gq, gq };
            /* types: q qbar -> Z g, qbar q -> Z g, q g -> Z q, qbar g -> Z qbar, g q -> Z q,
             * g qbar -> Z qbar */
            for (int type = 0; type < 6; ++type)
                ch[6 * (f - 1) + type] = jac * me[type] * p1[type] * p2[type];
            /* entry 2 type + j: dipole j of H type `type` (the M events below) */
            const double d[12] = { d_qq[0], d_qq[1], d_qq[0], d_qq[1], d_qg[0], 0.0,
                                   d_qg[0], 0.0, d_gq[0], 0.0, d_gq[0], 0.0 };
            for (int m = 0; m < 12; ++m)
                cm[12 * (f - 1) + m] = above ? -jac * d[m] * p1[m / 2] * p2[m / 2] : 0.0;
        }
        kh = gaps_choose_channel(ch, 6 * GAPS_N_FLAVOURS, rch, &sum_h, &sign_h);
        if (above) {
            km = gaps_choose_channel(cm, 12 * GAPS_N_FLAVOURS, rch, &sum_m, &sign_m);
        }
    }

    /* ---- S, H or M by |weight| ---- */
    /* A piece that is not finite (a parton density of 1e300 or inf in the grid) is passed on,
     * not zeroed: the total and so the event's weight are then not finite, and the histograms
     * count the event as a bad weight (GAPS_FLAG_WEIGHT, the run's bad_weights, exit status
     * 3), as at leading order, instead of a cross section that looks sound without it.  Such
     * an event takes the Born record of its S channel, whose momenta are finite whatever the
     * weights, so that the shower and the event checks see a well-formed record.  A finite
     * total keeps the choice it always had (the same draws, the same bits). */
    const double total = w_s + sum_h + sum_m;
    const int finite = isfinite(total);
    const int hard = finite && rsh * total < sum_h;
    const int mapped = finite && !hard && rsh * total < sum_h + sum_m;
    ev->weight = (hard ? sign_h : mapped ? sign_m : sign_s) * total;
    ev->n_in = 2;
    ev->x[0] = ev->x[1] = 0.0;
    if (mapped) {
        /* dipole j of H type `type` of flavour f: the emitter leg's x becomes x_map xi; the
         * Born's quark comes from leg 1 (+z) for types 0 and 2 and 5, from leg 2 otherwise */
        const int f = 1 + km / 12, type = (km % 12) / 2, j = km % 2;
        const int emitter = type <= 1 ? j : (type <= 3 ? 1 : 0);   /* 0: leg 1, 1: leg 2 */
        const int quark_minus_z = type == 1 || type == 3 || type == 4;
        gaps_pp_z_born_record(pz, 2 * (f - 1) + quark_minus_z,
                              emitter == 0 ? x_map * xi1 : xi1, emitter == 1 ? x_map * xi2 : xi2,
                              ev);
        ev->t_start = t_s;
        return;
    }
    if (!hard) {
        gaps_pp_z_born_record(pz, ks, ea, eb, ev);
        ev->t_start = t_s;
        return;
    }

    /* H event: rows 0 (along +z, x = xi1) and 1 (along -z, x = xi2), 2 the Z, 3 the parton;
     * the parton boosted from the parton frame by the rapidity yh */
    const double e1 = gaps_exp(yh), cy = 0.5 * (e1 + 1.0 / e1), sy = 0.5 * (e1 - 1.0 / e1);
    ev->p[0][0] = xi1 * pz->half_ecm;
    ev->p[0][1] = ev->p[0][2] = 0.0;
    ev->p[0][3] = ev->p[0][0];
    ev->p[1][0] = xi2 * pz->half_ecm;
    ev->p[1][1] = ev->p[1][2] = 0.0;
    ev->p[1][3] = -ev->p[1][0];
    ev->p[3][0] = cy * qk[0] + sy * qk[3];
    ev->p[3][1] = qk[1];
    ev->p[3][2] = qk[2];
    ev->p[3][3] = sy * qk[0] + cy * qk[3];
    for (int m = 0; m < 4; ++m) ev->p[2][m] = ev->p[0][m] + ev->p[1][m] - ev->p[3][m];
    ev->x[0] = xi1;
    ev->x[1] = xi2;
    ev->flav[2] = GAPS_PDG_Z;
    ev->col[2] = ev->acol[2] = 0;
    const int f = 1 + kh / 6, type = kh % 6;
    for (int r = 0; r < 4; ++r) ev->col[r] = ev->acol[r] = 0;
    gaps_pp_h_partons(type, f, 3, ev);
    ev->n = 4;
    ev->next_tag = 3;
    /* the emission's k_T^2 = t u / s_hat (the parton's transverse momentum squared); GAPS 2.1:
     * the power shower from the hadronic s */
    ev->t_start = nlo->gaps21 ? big_s : t * u / sh;
}

GAPS_DEVICE_END
