/* tests/kronrod.h -- adaptive Gauss-Kronrod 7-15 quadrature (QUADPACK's qk15 nodes and
 * weights) for the tests' independent cross-section integrations (test_pp_processes.c,
 * test_pp_w.c, test_pp_h.c): integrate(f, ctx, a, b, rel) splits [a, b] in 8 and bisects each
 * piece until its |Kronrod - Gauss| is below its share of rel times the whole. */
#ifndef GAPS_TESTS_KRONROD_H
#define GAPS_TESTS_KRONROD_H

#include <math.h>

static const double xgk[8] = { 0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                               0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                               0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                               0.207784955007898467600689403773245, 0.000000000000000000000000000000000 };
static const double wgk[8] = { 0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                               0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                               0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                               0.204432940075298892414161999234649, 0.209482141084727828012999174891714 };
static const double wg[4] = { 0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                              0.381830050505118944950369775488975, 0.417959183673469387755102040816327 };

typedef double (*integrand)(double x, void *ctx);

/* One 15-point rule on [a, b]: the Kronrod estimate, and |Kronrod - Gauss| as its error. */
static double gk15(integrand f, void *ctx, double a, double b, double *err)
{
    const double c = 0.5 * (a + b), h = 0.5 * (b - a);
    const double fc = f(c, ctx);
    double rk = fc * wgk[7], rg = fc * wg[3];
    for (int j = 0; j < 7; ++j) {
        const double dx = h * xgk[j];
        const double f1 = f(c - dx, ctx), f2 = f(c + dx, ctx);
        rk += wgk[j] * (f1 + f2);
        if (j % 2 == 1) rg += wg[j / 2] * (f1 + f2);   /* Gauss nodes: xgk[1], [3], [5] */
    }
    *err = fabs((rk - rg) * h);
    return rk * h;
}

/* Recursive bisection until each piece's error is below its share of tol (absolute). */
static double adapt(integrand f, void *ctx, double a, double b, double whole, double err,
                    double tol, int depth)
{
    if (err <= tol || depth >= 40) return whole;
    const double m = 0.5 * (a + b);
    double el, er;
    const double l = gk15(f, ctx, a, m, &el), r = gk15(f, ctx, m, b, &er);
    return adapt(f, ctx, a, m, l, el, 0.5 * tol, depth + 1)
           + adapt(f, ctx, m, b, r, er, 0.5 * tol, depth + 1);
}

/* The integral of f over [a, b] to a relative accuracy rel (of a first estimate). */
static double integrate(integrand f, void *ctx, double a, double b, double rel)
{
    /* start from 8 pieces, so that a narrow peak (the Z in m) cannot fool a single rule */
    double total = 0.0, e8[8], v8[8];
    for (int i = 0; i < 8; ++i) {
        v8[i] = gk15(f, ctx, a + (b - a) * i / 8.0, a + (b - a) * (i + 1) / 8.0, &e8[i]);
        total += v8[i];
    }
    double sum = 0.0;
    const double tol = rel * fabs(total);
    for (int i = 0; i < 8; ++i)
        sum += adapt(f, ctx, a + (b - a) * i / 8.0, a + (b - a) * (i + 1) / 8.0, v8[i], e8[i],
                     tol / 8.0, 0);
    return sum;
}

#endif
