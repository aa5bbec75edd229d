/* incoming.c -- the incoming rows of the hadronic processes' Born records
 * (process/processes.h): their LO events and the S and M events of the MC@NLO builder. */
#include "process/processes.h"

GAPS_DEVICE_BEGIN

void gaps_pp_born_incoming(double half_ecm, int fq, int fqb, int quark_along_minus_z,
                           double xa, double xb, gaps_hard_event *ev)
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
    /* colours (physical, for incoming partons too): the q qbar' pair is a colour singlet */
    ev->flav[0] = fq;
    ev->col[0] = 1;
    ev->acol[0] = 0;
    ev->flav[1] = -fqb;
    ev->col[1] = 0;
    ev->acol[1] = 1;
    ev->x[0] = xq;
    ev->x[1] = xqb;
    ev->n_in = 2;
}

GAPS_DEVICE_END
