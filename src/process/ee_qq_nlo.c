/* ee_qq_nlo.c -- e+ e- -> Z/gamma* -> q qbar at next-to-leading order, MC@NLO with
 * Catani-Seymour subtraction (doc/nlo.md; declarations in src/process/ee_nlo.h).
 *
 * The pieces are pure functions of momenta and invariants; gaps_ee_qq_nlo_generate() strings
 * them together for one event.  The 2 -> 3 map that makes the H events' q qbar g is the
 * shower's own final-final map (gaps_map_ff(), src/shower/kinematics.h), read, not changed. */
#include "process/ee_nlo.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/ee_qq.h"
#include "shower/kinematics.h"

#include <math.h>

void gaps_ee_nlo_init(gaps_ee_nlo *nlo, double alphas, int compat)
{
    nlo->on = 1;
    nlo->gaps21 = compat == GAPS_COMPAT_GAPS21;
    nlo->alphas = alphas;
    nlo->k_s = 1.0 + GAPS_CF * alphas / GAPS_PI;
    nlo->h_fraction = GAPS_NLO_GAPS21_H_FRACTION;
}

double gaps_ee_nlo_sigma_exact(const gaps_me *me, double alphas)
{
    return gaps_me_sigma_exact(me) * (1.0 + alphas / GAPS_PI);
}

GAPS_DEVICE_BEGIN

/* C_F [2/(1 - z(1 - y)) - (1 + z)], with 1 - z(1 - y) = (1 - z) + z y */
double gaps_ff_qqg_kernel(double y, double z, double omz)
{
    return GAPS_CF * (2.0 / (omz + z * y) - (1.0 + z));
}

void gaps_ff_map_32(const double pi[4], const double pj[4], const double pk[4], double s_ij,
                    double s_ik, double s_jk, double *y, double *z, double pij[4],
                    double pkt[4])
{
    const double sum = s_ij + s_ik + s_jk;
    const double yy = s_ij / sum, omy = (s_ik + s_jk) / sum;   /* 1 - y without cancellation */
    *y = yy;
    *z = s_ik / (s_ik + s_jk);
    const double r = yy / omy, inv = 1.0 / omy;
    for (int m = 0; m < 4; ++m) {
        pij[m] = pi[m] + pj[m] - r * pk[m];
        pkt[m] = inv * pk[m];
    }
}

/* The Born |M|^2 with the quark along the massless momentum q (in the centre-of-mass frame):
 * c = cos(theta) from the e+ direction (+z), c = q_z / q_0. */
static double born_at(const gaps_me *me, int f, const double q[4])
{
    const double c = fmin(1.0, fmax(-1.0, q[3] / q[0]));
    return gaps_me_squared(me, f, c);
}

double gaps_ee_qqg_real(const gaps_me *me, int f, double alphas, const double p1[4],
                        const double p2[4], double s13, double s23)
{
    /* k+.p = (sqrt(s)/2)(E - p_z), k-.p = (sqrt(s)/2)(E + p_z): (k.p)^2 = (s/4)(E -+ p_z)^2,
     * and (32 g^2 C_F / s)(s/4) = 32 pi alphas C_F */
    const double a1 = p1[0] - p1[3], b1 = p1[0] + p1[3];   /* e+ side, e- side of the quark */
    const double a2 = p2[0] - p2[3], b2 = p2[0] + p2[3];   /* the same for the antiquark */
    const double same = 0.5 * me->A[f] - 0.25 * me->B[f];
    const double opp = 0.5 * me->A[f] + 0.25 * me->B[f];
    const double num = same * (a1 * a1 + b2 * b2) + opp * (a2 * a2 + b1 * b1);
    return 32.0 * GAPS_PI * alphas * GAPS_CF * num / (s13 * s23);
}

double gaps_ee_qqg_real_averaged(double born, double alphas, double s, double s12, double s13,
                                 double s23)
{
    return 8.0 * GAPS_PI * alphas * GAPS_CF * born / s
           * (s23 / s13 + s13 / s23 + 2.0 * s12 * s / (s13 * s23));
}

double gaps_ee_qqg_dipole(const gaps_me *me, int f, double alphas, const double pi[4],
                          const double pj[4], const double pk[4], double s_ij, double s_ik,
                          double s_jk, int emitter_is_quark)
{
    double y, z, pij[4], pkt[4];
    gaps_ff_map_32(pi, pj, pk, s_ij, s_ik, s_jk, &y, &z, pij, pkt);
    const double omz = s_jk / (s_ik + s_jk);
    const double born = born_at(me, f, emitter_is_quark ? pij : pkt);
    return 8.0 * GAPS_PI * alphas / s_ij * gaps_ff_qqg_kernel(y, z, omz) * born;
}

double gaps_ee_qqg_subtracted(const gaps_me *me, int f, double alphas, const double p[3][4],
                              double s12, double s13, double s23, double *real, double d[2])
{
    const double r = gaps_ee_qqg_real(me, f, alphas, p[0], p[1], s13, s23);
    /* D_{13,2}: the quark emits, the antiquark recoils; D_{23,1}: the other way round */
    const double d132 = gaps_ee_qqg_dipole(me, f, alphas, p[0], p[2], p[1], s13, s12, s23, 1);
    const double d231 = gaps_ee_qqg_dipole(me, f, alphas, p[1], p[2], p[0], s23, s12, s13, 0);
    if (real) *real = r;
    if (d) {
        d[0] = d132;
        d[1] = d231;
    }
    return r - d132 - d231;
}

/* One event (doc/nlo.md, "Events").  Random numbers: the leading-order point (2 blocks), then
 * (y, z), (phi, emitter), (S or H): 3 more blocks for every event, S or H, so that the draws
 * do not depend on the outcome. */
void gaps_ee_qq_nlo_generate(const gaps_me *me, const gaps_ee_nlo *nlo, gaps_rng *rng,
                             gaps_hard_event *ev)
{
    const gaps_me_point pt = gaps_me_generate(me, rng);
    gaps_ee_qq_born_record(me, &pt, ev);   /* the S event's record; weight w_B, start at s */
    double y, z, rphi, remit;
    gaps_rng_uniform2(rng, &y, &z);
    gaps_rng_uniform2(rng, &rphi, &remit);
    const double u_sh = gaps_rng_uniform(rng);
    const double s = me->s, w_b = pt.weight;

    /* the real-emission point: the final-final map of the Born pair, the quark (emitter 0)
     * or the antiquark (emitter 1) as the emitter, each with probability 1/2 */
    const int emitter = remit < 0.5 ? 0 : 1;
    double q[3][4];   /* quark, antiquark, gluon */
    gaps_map_ff(ev->p[emitter], ev->p[1 - emitter], z, y, 2.0 * GAPS_PI * rphi, q[emitter],
                q[2], q[1 - emitter]);
    /* the invariants of the map's (y, z), exact: s_ij = y s, s_ik = z (1 - y) s,
     * s_jk = (1 - z)(1 - y) s */
    const double s_ij = y * s, s_ik = z * (1.0 - y) * s, s_jk = (1.0 - z) * (1.0 - y) * s;
    const double s12 = s_ik, s13 = emitter == 0 ? s_ij : s_jk, s23 = emitter == 0 ? s_jk : s_ij;

    /* w_H = (1/(2s)) (1/(8 pi)) (s/(16 pi^2)) (1 - y) (R - D) times 5 for the flavour sum:
     * me->w_norm s (1 - y) / (16 pi^2) (R - D) */
    double w_h = 0.0;
    if (s13 >= GAPS_NLO_MIN_SIJ * s && s23 >= GAPS_NLO_MIN_SIJ * s) {
        const double rd = gaps_ee_qqg_subtracted(me, pt.flavour, nlo->alphas,
                                                 (const double(*)[4])q, s12, s13, s23, NULL,
                                                 NULL);
        w_h = me->w_norm * s * (1.0 - y) / (16.0 * GAPS_PI * GAPS_PI) * rd;
    }
    const double w_s = w_b * nlo->k_s;

    /* S or H: by |weight| (default), or with GAPS 2.1's fixed probabilities */
    int hard;
    double weight;
    if (nlo->gaps21) {
        hard = u_sh < nlo->h_fraction;
        weight = hard ? w_h / nlo->h_fraction : w_s / (1.0 - nlo->h_fraction);
    } else {
        const double total = fabs(w_s) + fabs(w_h);
        hard = u_sh * total < fabs(w_h);
        weight = (hard ? (w_h < 0.0 ? -1.0 : 1.0) : (w_s < 0.0 ? -1.0 : 1.0)) * total;
    }
    ev->weight = weight;
    /* a w_H that is not finite is passed on, whichever of S and H was drawn (with GAPS 2.1's
     * fixed fractions an S event would drop it): the histograms count the event as a bad
     * weight (GAPS_FLAG_WEIGHT, exit status 3) instead of the cross section losing it
     * silently; its record is the Born one */
    if (!isfinite(w_h)) {
        ev->weight = w_h;
        return;
    }
    if (!hard || w_h == 0.0) return;   /* S event (or an H event of weight 0: the Born record) */

    /* H event: quark (1, 0), antiquark (0, 2), gluon (2, 1) */
    for (int a = 0; a < 3; ++a)
        for (int m = 0; m < 4; ++m) ev->p[a][m] = q[a][m];
    ev->flav[2] = GAPS_GLUON;
    ev->col[0] = 1;
    ev->acol[0] = 0;
    ev->col[1] = 0;
    ev->acol[1] = 2;
    ev->col[2] = 2;
    ev->acol[2] = 1;
    ev->n = 3;
    ev->next_tag = 3;
    if (nlo->gaps21) {
        ev->t_start = s * y * y * z * (1.0 - z);   /* GAPS 2.1 (spec 4.2 item 10, 11 item 5) */
    } else {
        /* the smaller k_T^2 of the two final-final clusterings of q qbar g:
         * k_T^2(13,2) = s13 s12 s23 / (s12 + s23)^2, k_T^2(23,1) = s23 s12 s13 / (s12 + s13)^2 */
        const double big = fmax(s12 + s23, s12 + s13);
        ev->t_start = s12 * s13 * s23 / (big * big);
    }
}

GAPS_DEVICE_END
