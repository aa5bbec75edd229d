/* lep.c -- the LEP analysis's row: Durham jet rates and event shapes of the outgoing partons
 * (gaps/analysis_lep.h; the observables themselves in observables.c). */
#include "gaps/analysis.h"
#include "gaps/observables.h"

GAPS_DEVICE_BEGIN

void gaps_lep_observables_row(double *r, const gaps_observables *o)
{
    r[GAPS_LEP_Y23] = o->y23;
    r[GAPS_LEP_Y34] = o->y34;
    r[GAPS_LEP_Y45] = o->y45;
    r[GAPS_LEP_Y56] = o->y56;
    r[GAPS_LEP_TAU] = o->tau;
    r[GAPS_LEP_RHO_H] = o->rho_H;
    r[GAPS_LEP_RHO_L] = o->rho_L;
    r[GAPS_LEP_B_T] = o->B_T;
    r[GAPS_LEP_B_W] = o->B_W;
    r[GAPS_LEP_B_N] = o->B_N;
    r[GAPS_LEP_C] = o->C;
}

void gaps_lep_row(double *row, int n_in, int n, const double p[][4], const int *flav)
{
    (void)flav;   /* every outgoing particle of an e+ e- -> q qbar event is a parton */
    gaps_observables o;
    gaps_observables_compute(n - n_in, p + n_in, &o);
    gaps_lep_observables_row(row, &o);
}

GAPS_DEVICE_END
