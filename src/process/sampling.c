/* sampling.c -- what the hadronic processes' importance sampling shares
 * (process/processes.h): the sampling tables built from the run's PDFs at the start of a
 * run, the pick of a table's cell and the choice of one of several channels by the size of
 * its contribution. */
#include "process/processes.h"

#include <math.h>

int gaps_sampling_table_fill(double *prob, double *cum, int n)
{
    double total = 0.0;
    for (int i = 0; i < n; ++i) total += prob[i];
    if (!(total > 0.0 && isfinite(total))) return 0;
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        prob[i] = (prob[i] / total + 1e-4 / n) / (1.0 + 1e-4);
        cum[i] = sum;
        sum += prob[i];
    }
    cum[n] = 1.0;
    return n;
}

GAPS_DEVICE_BEGIN

/* Choose one of n channels with probability |c_k| / sum |c| from u in (0, 1); the sign of the
 * chosen channel goes to *sign.  Returns the index, or the last channel with c != 0 if
 * rounding leaves u * sum past the last partial sum, or 0 if every c is 0. */
int gaps_choose_channel(const double *c, int n, double u, double *sum_abs, double *sign)
{
    double total = 0.0;
    for (int k = 0; k < n; ++k) total += fabs(c[k]);
    *sum_abs = total;
    const double target = u * total;
    double acc = 0.0;
    int chosen = 0, last = 0;
    int found = 0;
    for (int k = 0; k < n; ++k) {
        if (c[k] == 0.0) continue;
        last = k;
        acc += fabs(c[k]);
        if (!found && target < acc) {
            chosen = k;
            found = 1;
        }
    }
    if (!found) chosen = last;
    *sign = c[chosen] < 0.0 ? -1.0 : 1.0;
    return chosen;
}

int gaps_sampling_table_pick(const double *prob, const double *cum, int n, double u,
                             double *frac, double *w)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (u < cum[mid + 1]) hi = mid;
        else lo = mid + 1;
    }
    *frac = fmin(fmax((u - cum[lo]) / prob[lo], 0.0), 1.0);
    *w = 1.0 / (n * prob[lo]);
    return lo;
}

GAPS_DEVICE_END
