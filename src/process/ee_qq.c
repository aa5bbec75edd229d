/* ee_qq.c -- e+e- -> Z/gamma* -> q qbar at leading order (doc/physics.md section 1), and the
 * process ee-qq of GAPS_PROCESSES (its NLO events: ee_qq_nlo.c). */
#include "gaps/matrix_element.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "process/ee_qq.h"

#include <math.h>

GAPS_PROCESS_DATA_FITS(gaps_ee_qq_data);

/* The process's functions (process/process_impl.h). */
int gaps_process_ee_qq_init(gaps_process *proc, char *msg, size_t len)
{
    (void)msg;
    (void)len;   /* any sqrt(s) in the configuration's range */
    gaps_me_init(&GAPS_PROCESS_DATA(gaps_ee_qq_data, proc)->lo, proc->ecm);
    return 0;
}

double gaps_process_ee_qq_unit(const gaps_process *proc)
{
    return GAPS_PROCESS_CDATA(gaps_ee_qq_data, proc)->lo.w_max;
}

double gaps_process_ee_qq_hard_scale2(const gaps_process *proc) { return proc->s; }

double gaps_process_ee_qq_nlo_mu_r2(const gaps_process *proc) { return proc->s; }

/* its LO weights do not contain alpha_s */
void gaps_process_ee_qq_set_coupling(gaps_process *proc, const gaps_alphas *as)
{
    (void)proc;
    (void)as;
}

void gaps_process_ee_qq_set_nlo(gaps_process *proc, double alphas, int compat)
{
    gaps_ee_nlo_init(&GAPS_PROCESS_DATA(gaps_ee_qq_data, proc)->nlo, alphas, compat);
}

double gaps_process_ee_qq_prepare(gaps_process *proc, const gaps_pdf *pdf)
{
    (void)proc;
    (void)pdf;   /* no parton distributions, no table */
    return 0.0;
}

/* the Z/gamma* at rest with mass sqrt(s): the record holds only its decay products */
int gaps_process_ee_qq_intermediate(const gaps_process *proc, double p[4])
{
    p[0] = proc->ecm;
    p[1] = p[2] = p[3] = 0.0;
    return GAPS_PDG_Z;
}

double gaps_process_ee_qq_sigma_exact(const gaps_process *proc)
{
    const gaps_ee_qq_data *d = GAPS_PROCESS_CDATA(gaps_ee_qq_data, proc);
    return d->nlo.on ? gaps_ee_nlo_sigma_exact(&d->lo, d->nlo.alphas) : gaps_me_sigma_exact(&d->lo);
}

void gaps_me_init(gaps_me *me, double ecm)
{
    const double s = ecm * ecm;
    const double sw2 = GAPS_SIN2_THETAW;
    const double mz2 = GAPS_MZ * GAPS_MZ;
    const double kappa = 1.0 / (4.0 * sw2 * (1.0 - sw2));
    const double den = (s - mz2) * (s - mz2) + GAPS_GAMMA_Z * GAPS_GAMMA_Z * mz2;
    const double chi1 = kappa * s * (s - mz2) / den;
    const double chi2 = kappa * s * kappa * s / den;
    const double qe = -1.0, ae = -0.5, ve = ae - 2.0 * qe * sw2;
    const double e4 = 16.0 * GAPS_PI * GAPS_PI * GAPS_ALPHA_EM * GAPS_ALPHA_EM; /* (4 pi alpha)^2 */

    me->ecm = ecm;
    me->s = s;
    me->A[0] = me->B[0] = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) {
        const int up = (f % 2 == 0);   /* d u s c b: u and c are the up-type quarks */
        const double qf = up ? 2.0 / 3.0 : -1.0 / 3.0;
        const double af = up ? 0.5 : -0.5;
        const double vf = af - 2.0 * qf * sw2;
        me->A[f] = e4 * GAPS_NC * (qf * qf * qe * qe + 2.0 * qf * qe * vf * ve * chi1
                                   + (ae * ae + ve * ve) * (af * af + vf * vf) * chi2);
        me->B[f] = e4 * GAPS_NC * (4.0 * qe * qf * ae * af * chi1 + 8.0 * ae * ve * af * vf * chi2);
    }
    me->w_norm = GAPS_N_FLAVOURS * GAPS_GEV2_TO_PB / (8.0 * GAPS_PI) / (2.0 * s);
    double m2max = 0.0;   /* A (1 + c^2) + B c is largest at c = +-1 */
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f)
        m2max = fmax(m2max, 2.0 * me->A[f] + fabs(me->B[f]));
    me->w_max = me->w_norm * m2max;
}

double gaps_me_sigma_exact(const gaps_me *me)
{
    /* integral over c of A (1 + c^2) + B c is 8/3 A; phi and the flavour average give the rest */
    double sum = 0.0;
    for (int f = 1; f <= GAPS_N_FLAVOURS; ++f) sum += 8.0 / 3.0 * me->A[f];
    return me->w_norm * sum / GAPS_N_FLAVOURS / 2.0;
}

GAPS_DEVICE_BEGIN

double gaps_me_squared(const gaps_me *me, int flavour, double c)
{
    return me->A[flavour] * (1.0 + c * c) + me->B[flavour] * c;
}

gaps_me_point gaps_me_generate(const gaps_me *me, gaps_rng *rng)
{
    gaps_me_point pt;
    double rc, rphi;
    gaps_rng_uniform2(rng, &rc, &rphi);
    pt.cos_theta = 2.0 * rc - 1.0;
    pt.phi = 2.0 * GAPS_PI * rphi;
    pt.flavour = 1 + (int)(GAPS_N_FLAVOURS * gaps_rng_uniform(rng));
    if (pt.flavour > GAPS_N_FLAVOURS) pt.flavour = GAPS_N_FLAVOURS;
    pt.weight = me->w_norm * gaps_me_squared(me, pt.flavour, pt.cos_theta);
    return pt;
}

/* The quark along (theta, phi) from the e+ beam and the antiquark opposite, each with energy
 * sqrt(s)/2 (doc/physics.md section 1.3); colours quark (1, 0), antiquark (0, 1); the shower
 * starts at t = s. */
void gaps_ee_qq_born_record(const gaps_me *me, const gaps_me_point *point, gaps_hard_event *ev)
{
    const gaps_me_point pt = *point;
    const double E = 0.5 * me->ecm;
    const double st = sqrt(fmax(0.0, 1.0 - pt.cos_theta * pt.cos_theta));
    double sphi, cphi;
    gaps_sincos(pt.phi, &sphi, &cphi);
    const double dir[3] = { st * cphi, st * sphi, pt.cos_theta };
    for (int p = 0; p < 2; ++p) {
        const double sign = p == 0 ? 1.0 : -1.0;
        ev->p[p][0] = E;
        for (int m = 0; m < 3; ++m) ev->p[p][m + 1] = sign * E * dir[m];
    }
    ev->flav[0] = pt.flavour;
    ev->col[0] = 1;
    ev->acol[0] = 0;
    ev->flav[1] = -pt.flavour;
    ev->col[1] = 0;
    ev->acol[1] = 1;
    ev->n_in = 0;
    ev->n = 2;
    ev->next_tag = 2;
    ev->x[0] = ev->x[1] = 1.0;
    ev->weight = pt.weight;
    ev->t_start = me->s;
}

void gaps_ee_qq_generate(const gaps_me *me, gaps_rng *rng, gaps_hard_event *ev)
{
    const gaps_me_point pt = gaps_me_generate(me, rng);
    gaps_ee_qq_born_record(me, &pt, ev);
}

void gaps_process_ee_qq_generate(const gaps_process *proc, gaps_rng *rng, gaps_hard_event *ev)
{
    const gaps_ee_qq_data *d = GAPS_PROCESS_CDATA(gaps_ee_qq_data, proc);
    if (d->nlo.on) gaps_ee_qq_nlo_generate(&d->lo, &d->nlo, rng, ev);
    else gaps_ee_qq_generate(&d->lo, rng, ev);
    /* --vary scales at NLO (doc/physics.md 17.6): an S event weighs B (1 + C_F a/pi), an H
     * event (its record has the gluon: three rows) R - D, proportional to a; with
     * mu_R = kR sqrt(s) the coupling a' = a as_ratio (the Born has none, so no logarithm) */
    if (d->nlo.on)
        for (int v = 0; v < proc->scales.n; ++v) {
            const double r = proc->scales.as_ratio[v];
            gaps_hard_vary_set(ev, v, ev->n == 3 ? r : (1.0 + (d->nlo.k_s - 1.0) * r) / d->nlo.k_s);
        }
}

GAPS_DEVICE_END
