/* pp_ll_nlo_events.c -- the events of p p -> Z/gamma* -> e- e+ at NLO (--nlo 1 --process
 * pp-ll): MC@NLO with Catani-Seymour subtraction, S and H events in the same lock-step pool as
 * every other event (doc/nlo.md section 12.6; the matrix elements are those of pp_ll_nlo.c,
 * the collinear terms those of pp_z_nlo.c).
 *
 * Scales: mu_F = m_ll (the PDFs of the event at its dilepton mass, as at leading order, so
 * that the P terms vanish), mu_R = M_Z (alpha_s of the run at M_Z^2, one number per run).
 * Every event draws 8 blocks of two uniforms whatever the outcome (Born cell, lepton angle,
 * x of both legs, and the H point: m, tau', y-hat, the parton's direction, the lepton
 * direction, H channel; S channel and S-or-H), computes an S and an H weight and is S or H
 * with probability |w| / (|w_S| + |w_H|) like pp_z_nlo_events.c. */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps/pp_nlo.h"
#include "process/pp_ll.h"

#include <math.h>

GAPS_DEVICE_BEGIN

/* p boosted from the rest frame of V (mass m) to the frame in which V has its momentum */
static void boost_from_rest(const double V[4], double m, const double p[4], double out[4])
{
    const double vp = V[1] * p[1] + V[2] * p[2] + V[3] * p[3];
    const double f = vp / (m * (V[0] + m)) + p[0] / m;
    out[0] = (V[0] * p[0] + vp) / m;
    for (int i = 1; i < 4; ++i) out[i] = p[i] + f * V[i];
}

/* The Born record of an M event (see below): entry km = 12 (f - 1) + 2 type + j of the H point
 * (parton-frame momenta qa, qb along +-z, parton qk, e- qlm; the frame at rapidity
 * yh in the lab), mapped by the initial-initial map of dipole j of H type `type`: its emitter
 * leg keeps the fraction x xi, the leptons follow the map's boost.  Rows as
 * gaps_pp_ll_born_record(): 0 quark, 1 antiquark, 2 e-, 3 e+. */
static void mapped_born_record(const gaps_pp_ll *ll, int km, double xi1, double xi2, double yh,
                               const double qa[4], const double qb[4], const double qk[4],
                               const double qlm[4], gaps_hard_event *ev)
{
    const int f = 1 + km / 12, type = (km % 12) / 2, j = km % 2;
    /* the emitter: for q qbar types the quark's dipole is j = 0 (the quark is leg 1 in type
     * 0, leg 2 in type 1); for q g types the gluon's (leg 2 in types 2, 3; leg 1 in 4, 5) */
    const int emitter_leg1 = type == 0 ? j == 0 : type == 1 ? j == 1 : type >= 4;
    const int quark_minus_z = type == 1 || type == 3 || type == 4;
    double x, v, at[4], bt[4], lm[4];   /* the e+ follows from momentum conservation */
    gaps_ii_map_32(emitter_leg1 ? qa : qb, emitter_leg1 ? qb : qa, qk, &x, &v, at, bt, qlm, lm);
    const double x1 = emitter_leg1 ? x * xi1 : xi1, x2 = emitter_leg1 ? xi2 : x * xi2;
    const double e1 = gaps_exp(yh), cy = 0.5 * (e1 + 1.0 / e1), sy = 0.5 * (e1 - 1.0 / e1);
    for (int r = 0; r < GAPS_HARD_MAX; ++r) ev->col[r] = ev->acol[r] = 0;
    gaps_pp_born_incoming(0.5 * ll->sqrt_s, f, quark_minus_z, x1, x2, ev);
    ev->p[2][0] = cy * lm[0] + sy * lm[3];
    ev->p[2][1] = lm[1];
    ev->p[2][2] = lm[2];
    ev->p[2][3] = sy * lm[0] + cy * lm[3];
    for (int m = 0; m < 4; ++m) ev->p[3][m] = ev->p[0][m] + ev->p[1][m] - ev->p[2][m];
    ev->flav[2] = GAPS_PDG_ELECTRON;
    ev->flav[3] = -GAPS_PDG_ELECTRON;
    ev->n = 4;
    ev->next_tag = 2;
}

void gaps_pp_ll_nlo_generate(const gaps_pp_ll *ll, const gaps_pp_nlo *nlo, const gaps_pdf *pdf,
                             gaps_rng *rng, gaps_hard_event *ev)
{
    double rrho, ry, rc, rphi, ua, ub, rm, r1, r2, r3, r4, r5, r6, rchh, rch, rsh;
    gaps_rng_uniform2(rng, &rrho, &ry);   /* Born: mass and rapidity cell */
    gaps_rng_uniform2(rng, &rc, &rphi);   /* Born: the l- direction */
    gaps_rng_uniform2(rng, &ua, &ub);     /* S: x of leg a (+z) and of leg b (-z) */
    gaps_rng_uniform2(rng, &rm, &r1);     /* H: dilepton mass, ln tau' */
    gaps_rng_uniform2(rng, &r2, &r3);     /* H: rapidity, cos theta of the parton */
    gaps_rng_uniform2(rng, &r4, &r5);     /* H: phi of the parton, cos theta of the l- */
    gaps_rng_uniform2(rng, &r6, &rchh);   /* H: phi of the l-, channel */
    gaps_rng_uniform2(rng, &rch, &rsh);   /* S channel; S or H */
    const double as = nlo->alphas;

    /* ---- S: the Born point of pp_ll.c ---- */
    gaps_pp_ll_point pt;
    gaps_pp_ll_point_make(ll, pdf, rrho, ry, rc, rphi, &pt);
    const double m2 = pt.m2, ea = pt.xa, eb = pt.xb, c = pt.c;
    gaps_pp_s_legs legs;
    gaps_pp_s_legs_make(nlo, pdf, ea, eb, ua, ub, m2, &legs);
    double cs[2 * GAPS_N_FLAVOURS];
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        for (int o = 0; o < 2; ++o) {
            const double born = pt.A[f] * (1.0 + c * c) + (o == 0 ? pt.B[f] : -pt.B[f]) * c;
            cs[2 * (f - 1) + o] = born * gaps_pp_s_bracket(&legs, pt.fa, pt.fb, f, o);
        }
    double sum_s, sign_s;
    const int ks = gaps_choose_channel(cs, 2 * GAPS_N_FLAVOURS, rch, &sum_s, &sign_s);
    double w_s = sum_s * ll->norm * pt.jac_m * pt.y_range / (m2 * m2) * pt.cell_weight
                 * pt.c_weight;   /* |S weight| */

    /* ---- H: a point of the 2 -> 3 phase space ---- */
    /* the dilepton mass from the Breit-Wigner map of pp_ll.c (uniform in rho) */
    const double rho = ll->rho_lo + (ll->rho_hi - ll->rho_lo) * rm;
    double srho, crho;
    gaps_sincos(rho, &srho, &crho);
    const double hm2 = ll->mz2 + ll->map_w * (srho / crho), hm = sqrt(hm2);
    const double hdm = hm2 - ll->mz2;
    const double jac_m = (ll->rho_hi - ll->rho_lo) * (hdm * hdm + ll->map_w * ll->map_w) / ll->map_w;
    const double ltau = gaps_log(hm2 / ll->s);     /* ln tau, tau = m^2 / S */
    const double lt = ltau * r1;                   /* ln tau' */
    const double yh = -lt * (r2 - 0.5);            /* parton-frame rapidity */
    const double sh = gaps_exp(lt) * ll->s, rs = sqrt(sh);
    const double xi1 = gaps_exp(0.5 * lt + yh), xi2 = gaps_exp(0.5 * lt - yh);
    const double beta = 1.0 - hm2 / sh, ek = 0.5 * rs * beta;
    const double omc = 2.0 * (1.0 - r3), opc = 2.0 * r3;   /* 1 - cos theta, 1 + cos theta */
    const double sn = sqrt(omc * opc), ck = r3 - (1.0 - r3);
    double sphi, cphi;
    gaps_sincos(2.0 * GAPS_PI * r4, &sphi, &cphi);
    /* parton frame */
    const double qa[4] = { 0.5 * rs, 0.0, 0.0, 0.5 * rs }, qb[4] = { 0.5 * rs, 0.0, 0.0, -0.5 * rs };
    const double qk[4] = { ek, ek * sn * cphi, ek * sn * sphi, ek * ck };
    const double V[4] = { rs - ek, -qk[1], -qk[2], -qk[3] };
    /* the l- in the rest frame of the pair: cos theta_l = 2 r5 - 1, phi_l = 2 pi r6 */
    const double cl = r5 - (1.0 - r5), sl = sqrt(4.0 * r5 * (1.0 - r5));
    double sphl, cphl;
    gaps_sincos(2.0 * GAPS_PI * r6, &sphl, &cphl);
    const double lrest[4] = { 0.5 * hm, 0.5 * hm * sl * cphl, 0.5 * hm * sl * sphl, 0.5 * hm * cl };
    double qlm[4], qlp[4];
    boost_from_rest(V, hm, lrest, qlm);
    for (int m = 0; m < 4; ++m) qlp[m] = V[m] - qlm[m];
    const double t = -rs * ek * omc, u = -rs * ek * opc;
    double ch[6 * GAPS_N_FLAVOURS], cm[12 * GAPS_N_FLAVOURS];
    double sum_h = 0.0, sign_h = 1.0, sum_m = 0.0, sign_m = 1.0;
    int kh = 0, km = 0;
    const double big_s = ll->s;
    /* Where the parton's p_T^2 = t u / s_hat (the initial-initial dipoles' k_T^2, the shower's
     * evolution variable) lies above the S events' start scale, the H weight is R alone and
     * -D goes to "M" events at the dipoles' mapped Born kinematics (pp_z_nlo_events.c says
     * why; doc/nlo.md 11.8).  The mapped Born has the H point's dilepton mass, so its S start
     * scale is hm2. */
    const double t_s = nlo->gaps21 ? big_s : hm2;
    const int above = t * u / sh > t_s;
    const int ok = xi1 < 1.0 && xi2 < 1.0 && fabs(t) >= GAPS_PP_NLO_MIN_TU * sh
                   && fabs(u) >= GAPS_PP_NLO_MIN_TU * sh;
    if (ok) {
        double f1[GAPS_PDF_NPARTONS], f2[GAPS_PDF_NPARTONS];
        gaps_pdf_xfxq2_all(pdf, xi1, hm2, f1);   /* mu_F = m_ll */
        gaps_pdf_xfxq2_all(pdf, xi2, hm2, f2);
        /* dxi1 dxi2 f f = [xf][xf] d ln tau' dy;  dPhi_3 = dm^2/(2 pi) dPhi_2(V k) dPhi_2(l l),
         * dPhi_2(V k) = beta/(8 pi) dOmega/(4 pi), dPhi_2(l l) = 1/(8 pi) dOmega_l/(4 pi) */
        const double jac = jac_m * ltau * lt / (2.0 * sh) * beta / (8.0 * GAPS_PI)
                           / (16.0 * GAPS_PI * GAPS_PI) * GAPS_GEV2_TO_PB;
        for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
            double P, Q, r[6], d[6][2];
            gaps_pp_ll_born_pq(ll, f, hm2, &P, &Q);
            double me[6] = {   /* q qbar, qbar q -> l l g; q g, qbar g, g q, g qbar -> l l q(bar) */
                gaps_pp_ll_qqbar_subtracted(P, Q, as, qa, qb, qlm, qlp, qk, &r[0], d[0]),
                gaps_pp_ll_qqbar_subtracted(P, Q, as, qb, qa, qlm, qlp, qk, &r[1], d[1]),
                gaps_pp_ll_qg_subtracted(P, Q, as, 0, qa, qb, qlm, qlp, qk, &r[2], d[2]),
                gaps_pp_ll_qg_subtracted(P, Q, as, 1, qa, qb, qlm, qlp, qk, &r[3], d[3]),
                gaps_pp_ll_qg_subtracted(P, Q, as, 0, qb, qa, qlm, qlp, qk, &r[4], d[4]),
                gaps_pp_ll_qg_subtracted(P, Q, as, 1, qb, qa, qlm, qlp, qk, &r[5], d[5]) };
            const double p1[6] = { f1[6 + f], f1[6 - f], f1[6 + f], f1[6 - f], f1[6], f1[6] };
            const double p2[6] = { f2[6 - f], f2[6 + f], f2[6], f2[6], f2[6 + f], f2[6 - f] };
            for (int type = 0; type < 6; ++type) {
                if (above) me[type] = r[type];
                ch[6 * (f - 1) + type] = jac * p1[type] * p2[type] * me[type];
                /* entry 2 type + j: dipole j of the type (mapped_born_record()) */
                for (int j = 0; j < 2; ++j)
                    cm[12 * (f - 1) + 2 * type + j]
                        = above ? -jac * p1[type] * p2[type] * d[type][j] : 0.0;
            }
        }
        kh = gaps_choose_channel(ch, 6 * GAPS_N_FLAVOURS, rchh, &sum_h, &sign_h);
        if (above) {
            km = gaps_choose_channel(cm, 12 * GAPS_N_FLAVOURS, rchh, &sum_m, &sign_m);
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
    if (mapped) {
        mapped_born_record(ll, km, xi1, xi2, yh, qa, qb, qk, qlm, ev);
        ev->t_start = t_s;
        return;
    }
    if (!hard) {
        gaps_pp_ll_born_record(ll, &pt, ks, ev);
        ev->t_start = nlo->gaps21 ? big_s : m2;
        return;
    }

    /* H event: rows 0 (along +z, x = xi1) and 1 (along -z, x = xi2), 2 the e-, 3 the e+,
     * 4 the parton; the parton and the e- boosted from the parton frame by the rapidity yh,
     * the e+ the rest */
    const double e1 = gaps_exp(yh), cy = 0.5 * (e1 + 1.0 / e1), sy = 0.5 * (e1 - 1.0 / e1);
    const double half = 0.5 * ll->sqrt_s;
    ev->p[0][0] = xi1 * half;
    ev->p[0][1] = ev->p[0][2] = 0.0;
    ev->p[0][3] = ev->p[0][0];
    ev->p[1][0] = xi2 * half;
    ev->p[1][1] = ev->p[1][2] = 0.0;
    ev->p[1][3] = -ev->p[1][0];
    ev->p[4][0] = cy * qk[0] + sy * qk[3];
    ev->p[4][1] = qk[1];
    ev->p[4][2] = qk[2];
    ev->p[4][3] = sy * qk[0] + cy * qk[3];
    ev->p[2][0] = cy * qlm[0] + sy * qlm[3];
    ev->p[2][1] = qlm[1];
    ev->p[2][2] = qlm[2];
    ev->p[2][3] = sy * qlm[0] + cy * qlm[3];
    for (int m = 0; m < 4; ++m) ev->p[3][m] = ev->p[0][m] + ev->p[1][m] - ev->p[4][m] - ev->p[2][m];
    ev->x[0] = xi1;
    ev->x[1] = xi2;
    for (int r = 0; r < GAPS_HARD_MAX; ++r) ev->col[r] = ev->acol[r] = 0;
    ev->flav[2] = GAPS_PDG_ELECTRON;
    ev->flav[3] = -GAPS_PDG_ELECTRON;
    const int f = 1 + kh / 6, type = kh % 6;
    gaps_pp_h_partons(type, f, 4, ev);
    ev->n_in = 2;
    ev->n = 5;
    ev->next_tag = 3;
    /* the emission's k_T^2 = t u / s_hat (the parton's transverse momentum squared); GAPS 2.1
     * convention (--compat gaps21): the power shower from the hadronic s */
    ev->t_start = nlo->gaps21 ? big_s : t * u / sh;
}

GAPS_DEVICE_END
