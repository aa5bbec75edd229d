/* pp_nlo_events.c -- what the S and H events of the hadronic NLO processes share
 * (pp_z_nlo_events.c, pp_ll_nlo_events.c; doc/nlo.md sections 11.8 and 12.6): the collinear
 * part of the S weight, the incoming partons of a Born record, and the partons of an H record.
 */
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps/pp_nlo.h"
#include "process/processes.h"

GAPS_DEVICE_BEGIN

/* The collinear coefficients of one leg at x: the x-integrand (K + P) per unit of the LO
 * density is c0 + c1 rho_q + cg rho_g; returned times the Jacobian jac. */
static void leg_coefficients(const gaps_pp_nlo *nlo, double x, double jac, double c[3])
{
    const double as = nlo->alphas, lf = nlo->lf;
    const double k0 = gaps_pp_k_qq_integrand(as, x, 0.0);
    const double k1 = gaps_pp_k_qq_integrand(as, x, 1.0) - k0;
    const double p0 = gaps_pp_p_qq_integrand(as, lf, x, 0.0);
    const double p1 = gaps_pp_p_qq_integrand(as, lf, x, 1.0) - p0;
    c[0] = jac * (k0 + p0);
    c[1] = jac * (k1 + p1);
    c[2] = jac * (gaps_pp_k_gq_integrand(as, x, 1.0) + gaps_pp_p_gq_integrand(as, lf, x, 1.0));
}

void gaps_pp_s_legs_make(const gaps_pp_nlo *nlo, const gaps_pdf *pdf, double ea, double eb,
                         double ua, double ub, double muf2, gaps_pp_s_legs *L)
{
    const double as = nlo->alphas;
    /* the x of each leg: x = eta^u in [eta, 1), |dx/du| = x ln(1/eta); a leg whose x rounds
     * to 1 (measure ~1e-16) contributes 0 */
    const double la = gaps_log(ea), lb = gaps_log(eb);
    const double xa = gaps_exp(ua * la), xb = gaps_exp(ub * lb);
    for (int m = 0; m < 3; ++m) L->ca[m] = L->cb[m] = 0.0;
    for (int m = 0; m < GAPS_PDF_NPARTONS; ++m) L->ga[m] = L->gb[m] = 0.0;
    if (xa < 1.0) {
        gaps_pdf_xfxq2_all(pdf, ea / xa, muf2, L->ga);
        leg_coefficients(nlo, xa, -xa * la, L->ca);
    }
    if (xb < 1.0) {
        gaps_pdf_xfxq2_all(pdf, eb / xb, muf2, L->gb);
        leg_coefficients(nlo, xb, -xb * lb, L->cb);
    }
    L->one = 1.0 + gaps_pp_z_virtual_i(as)
             + gaps_pp_k_qq_endpoint(as, ea, nlo->gaps21)
             + gaps_pp_k_qq_endpoint(as, eb, nlo->gaps21)
             + gaps_pp_p_qq_endpoint(as, nlo->lf, ea)
             + gaps_pp_p_qq_endpoint(as, nlo->lf, eb);
}

double gaps_pp_s_bracket(const gaps_pp_s_legs *L, const double *fa, const double *fb, int f,
                         int o)
{
    const int ia = o == 0 ? 6 + f : 6 - f, ib = 12 - ia;   /* partons of legs a, b */
    const double lo = fa[ia] * fb[ib];
    const double leg_a = fb[ib] * (L->ca[0] * fa[ia] + L->ca[1] * L->ga[ia] + L->ca[2] * L->ga[6]);
    const double leg_b = fa[ia] * (L->cb[0] * fb[ib] + L->cb[1] * L->gb[ib] + L->cb[2] * L->gb[6]);
    return lo * L->one + leg_a + leg_b;
}

void gaps_pp_born_incoming(double half_ecm, int f, int quark_along_minus_z, double xa, double xb,
                           gaps_hard_event *ev)
{
    const double xq = quark_along_minus_z ? xb : xa;
    const double xqb = quark_along_minus_z ? xa : xb;
    const double zq = quark_along_minus_z ? -1.0 : 1.0;
    ev->p[0][0] = xq * half_ecm;
    ev->p[0][1] = ev->p[0][2] = 0.0;
    ev->p[0][3] = zq * ev->p[0][0];
    ev->p[1][0] = xqb * half_ecm;
    ev->p[1][1] = ev->p[1][2] = 0.0;
    ev->p[1][3] = -zq * ev->p[1][0];
    /* colours (physical, for incoming partons too): the q qbar pair is a colour singlet */
    ev->flav[0] = f;
    ev->col[0] = 1;
    ev->acol[0] = 0;
    ev->flav[1] = -f;
    ev->col[1] = 0;
    ev->acol[1] = 1;
    ev->x[0] = xq;
    ev->x[1] = xqb;
    ev->n_in = 2;
}

void gaps_pp_h_partons(int type, int f, int out, gaps_hard_event *ev)
{
    /* colours (physical for the incoming partons, as in the Born records): tags 1 and 2 */
    switch (type) {
    case 0:   /* q qbar -> V g: q (1, 0), qbar (0, 2), g (1, 2) */
    case 1:   /* qbar q -> V g */
        ev->flav[type] = f;
        ev->col[type] = 1;
        ev->flav[1 - type] = -f;
        ev->acol[1 - type] = 2;
        ev->flav[out] = GAPS_GLUON;
        ev->col[out] = 1;
        ev->acol[out] = 2;
        break;
    case 2:   /* q g -> V q: q (1, 0), g (2, 1), q out (2, 0): the gluon's colour goes on */
    case 4: { /* g q -> V q */
        const int q = type == 2 ? 0 : 1;
        ev->flav[q] = f;
        ev->col[q] = 1;
        ev->flav[1 - q] = GAPS_GLUON;
        ev->col[1 - q] = 2;
        ev->acol[1 - q] = 1;
        ev->flav[out] = f;
        ev->col[out] = 2;
        break;
    }
    default: { /* 3: qbar g -> V qbar, 5: g qbar -> V qbar: qbar (0, 1), g (1, 2), qbar out (0, 2) */
        const int q = type == 3 ? 0 : 1;
        ev->flav[q] = -f;
        ev->acol[q] = 1;
        ev->flav[1 - q] = GAPS_GLUON;
        ev->col[1 - q] = 1;
        ev->acol[1 - q] = 2;
        ev->flav[out] = -f;
        ev->acol[out] = 2;
        break;
    }
    }
}

GAPS_DEVICE_END
