/* couplings.c -- the electroweak couplings of the quarks, shared by the processes that
 * couple a Z (or Z/gamma*) to quarks (process/processes.h). */
#include "gaps/constants.h"
#include "process/processes.h"

/* Vector and axial couplings of flavour f (1..5; d u s c b) to the Z, in the normalisation
 * a = T_3 = +-1/2, v = a - 2 q sin^2 theta_W (the same as the e+e- matrix element's). */
void gaps_quark_couplings(int f, double *q, double *v, double *a)
{
    const int up = (f % 2 == 0);   /* u and c */
    *q = up ? 2.0 / 3.0 : -1.0 / 3.0;
    *a = up ? 0.5 : -0.5;
    *v = *a - 2.0 * *q * GAPS_SIN2_THETAW;
}
