/* gaps/fpmath.h -- the transcendental functions of the generator, identical on every backend.
 *
 * Why not <math.h>: glibc on x86 (with FMA or without, chosen at run time) and CUDA's libdevice
 * on the GPU each return log, exp, sin and cos within an ulp or so of the truth, but not the
 * same ulp.  One differing bit in one trial scale changes the shower history that follows, so
 * the same seed would give different events on different backends.  These versions use only
 * +, -, *, / and exact operations (power-of-two scaling, rounding to integers), which IEEE 754
 * defines bit for bit; with floating-point contraction disabled (-ffp-contract=off) they
 * return the same bits everywhere.  sqrt needs no replacement: IEEE 754 rounds it correctly
 * and both GCC (sqrtsd) and the GPU (sqrt.rn.f64) do so.
 *
 * Accuracy: within about 2 ulp over the ranges the generator uses (arguments > 0 for the
 * logarithms; |x| < 700 for exp; |x| < 10^5 for sin and cos).  exp and log use small tables
 * (fpmath_tables.h, generated with 50-digit arithmetic by tools/gen_fpmath_tables.py).  Non-finite and out-of-range
 * arguments follow <math.h> conventions (log of 0 is -inf, of a negative number NaN).
 */
#ifndef GAPS_FPMATH_H
#define GAPS_FPMATH_H

#include <stdint.h>
#include <string.h>

#include "gaps/fpmath_tables.h"

#if defined(GAPS_USE_LIBM)
/* -DGAPS_USE_LIBM=ON: the C library's functions, for measuring what the exact ones cost.
 * Events then differ between backends in the last bits (doc/reproducibility.md). */
#include <math.h>
static inline double gaps_log(double x) { return log(x); }
static inline double gaps_exp(double x) { return exp(x); }
static inline double gaps_log10(double x) { return log10(x); }
static inline void gaps_sincos(double x, double *s, double *c) { *s = sin(x); *c = cos(x); }
static inline double gaps_atan2(double y, double x) { return atan2(y, x); }
#else

static inline double gaps_bits_to_double(uint64_t u) { double d; memcpy(&d, &u, sizeof d); return d; }
static inline uint64_t gaps_double_to_bits(double d) { uint64_t u; memcpy(&u, &d, sizeof u); return u; }

/* Natural logarithm.
 * Very near 1 (|x - 1| < 1/128): ln(1 + d) with d = x - 1 (exact) as a series to d^9.
 * Elsewhere x = 2^k m, m in [1, 2); c = 1 + j/128 from the top seven bits of m,
 * r = (m - c)/c (m - c is exact), |r| < 1/128, ln(1 + r) a series to r^8, and
 * ln x = k ln 2 + ln c + ln(1 + r), with ln 2 moved from the table into k for m >= 1.5.
 * Branch-free but for the rare first case; no division. */
static inline double gaps_log(double x)
{
    if (!(x > 0.0)) return x == 0.0 ? -1.0 / 0.0 : (x - x) / 0.0;   /* -inf or NaN */
    if (x == 1.0 / 0.0) return x;
    const double d = x - 1.0;
    if (d > -0.0078125 && d < 0.0078125) {
        double p = 1.0 / 9;
        p = p * d - 1.0 / 8; p = p * d + 1.0 / 7; p = p * d - 1.0 / 6; p = p * d + 1.0 / 5;
        p = p * d - 1.0 / 4; p = p * d + 1.0 / 3; p = p * d - 0.5;
        return d + d * d * p;
    }
    uint64_t u = gaps_double_to_bits(x);
    int k = (int)(u >> 52) - 1023;
    if ((u >> 52) == 0) {   /* subnormal: scale up by 2^54 first */
        u = gaps_double_to_bits(x * 18014398509481984.0 /* 2^54 */);
        k = (int)(u >> 52) - 1023 - 54;
    }
    const int j = (int)((u >> (52 - GAPS_LOG_TABLE_BITS)) & ((1u << GAPS_LOG_TABLE_BITS) - 1));
    k += j >> (GAPS_LOG_TABLE_BITS - 1);   /* m >= 1.5: the table holds ln(c/2) */
    const double m = gaps_bits_to_double((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    const double c = 1.0 + (double)j * (1.0 / (1 << GAPS_LOG_TABLE_BITS));
    const double r = (m - c) * gaps_log_inv[j];
    double p = -1.0 / 8;
    p = p * r + 1.0 / 7; p = p * r - 1.0 / 6; p = p * r + 1.0 / 5;
    p = p * r - 1.0 / 4; p = p * r + 1.0 / 3; p = p * r - 0.5;
    const double l1p = r + r * r * p;   /* ln(1 + r) */
    return (k * GAPS_LN2_HI + gaps_log_c_hi[j]) + (l1p + (k * GAPS_LN2_LO + gaps_log_c_lo[j]));
}

/* 2^k for integer k in [-1074, 1023], exactly. */
static inline double gaps_pow2i(int k)
{
    if (k < -1022) return gaps_bits_to_double((uint64_t)1 << (k + 1074));
    return gaps_bits_to_double((uint64_t)(k + 1023) << 52);
}

/* Exponential.  x = (64 k + j) ln2/64 + r with |r| <= ln2/128; e^x = 2^k 2^(j/64) e^r with
 * 2^(j/64) from the table and e^r a series to r^6. */
static inline double gaps_exp(double x)
{
    if (x != x) return x;
    if (x > 709.782712893384) return 1.0 / 0.0;
    if (x < -745.1332191019412) return 0.0;
    const double nd = (double)(int64_t)(x * GAPS_N_LN2 + (x < 0 ? -0.5 : 0.5));
    const int n = (int)nd;
    const int j = n & ((1 << GAPS_EXP_TABLE_BITS) - 1);
    const int k = (n - j) / (1 << GAPS_EXP_TABLE_BITS);
    const double r = (x - nd * GAPS_LN2_N_HI) - nd * GAPS_LN2_N_LO;
    double p = 1.0 / 720;
    p = p * r + 1.0 / 120; p = p * r + 1.0 / 24; p = p * r + 1.0 / 6; p = p * r + 0.5;
    const double t = gaps_exp_table[j];
    const double er = t + t * (r + r * r * p);
    /* scale in two steps so that neither factor over- or underflows */
    if (k > 1000 || k < -1000) return er * gaps_pow2i(k / 2) * gaps_pow2i(k - k / 2);
    return er * gaps_pow2i(k);
}

static inline double gaps_log10(double x) { return gaps_log(x) * 0.43429448190325182765; }

/* sin and cos together.  x = k pi/2 + r (pi/2 in three parts, exact products for
 * |k| < 2^20), |r| <= pi/4, then Taylor series to r^17 and r^18 and the quadrant of k. */
static inline void gaps_sincos(double x, double *s, double *c)
{
    const double kd = (double)(int64_t)(x * 0.63661977236758134308 + (x < 0 ? -0.5 : 0.5));
    const double r = ((x - kd * 1.57079632673412561417e+00) - kd * 6.07710050650619224932e-11)
                     - kd * 2.02226624879595063154e-21;
    const double r2 = r * r;
    double ps = -1.0 / 355687428096000.0;          /* -1/17! */
    ps = ps * r2 + 1.0 / 1307674368000.0;   ps = ps * r2 - 1.0 / 6227020800.0;
    ps = ps * r2 + 1.0 / 39916800.0;        ps = ps * r2 - 1.0 / 362880.0;
    ps = ps * r2 + 1.0 / 5040.0;            ps = ps * r2 - 1.0 / 120.0;
    ps = ps * r2 + 1.0 / 6.0;
    const double sr = r - r * r2 * ps;
    double pc = 1.0 / 6402373705728000.0;          /* 1/18! */
    pc = pc * r2 - 1.0 / 20922789888000.0;  pc = pc * r2 + 1.0 / 87178291200.0;
    pc = pc * r2 - 1.0 / 479001600.0;       pc = pc * r2 + 1.0 / 3628800.0;
    pc = pc * r2 - 1.0 / 40320.0;           pc = pc * r2 + 1.0 / 720.0;
    pc = pc * r2 - 1.0 / 24.0;              pc = pc * r2 + 0.5;
    const double cr = 1.0 - r2 * pc;
    switch ((int)((int64_t)kd & 3)) {
    case 0: *s = sr;  *c = cr;  break;
    case 1: *s = cr;  *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
    }
}

/* atan2(y, x) in (-pi, pi], with <math.h>'s conventions for zeros (atan2(+-0, -0) = +-pi),
 * infinities and NaN.  The octant is taken off with exact operations (|x|, |y|, which one is
 * larger), leaving atan(t), t = min/max in [0, 1]; then t = c + ..., c = j/8 the nearest
 * eighth, atan t = atan c + atan r with r = (t - c)/(1 + t c), |r| <= 1/16, atan c from a
 * table (correctly rounded, 40-digit arithmetic) and atan r a series to r^15 (the first term
 * left out is below 2^-64 r).  Within about 2 ulp; used by the LHC analysis (azimuths). */
GAPS_DEVICE_BEGIN   /* the table is read by device code too */
static const double gaps_atan_eighths[9] = {   /* atan(j/8), j = 0 .. 8, rounded */
    0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225, 0.4636476090008061,
    0.5585993153435624, 0.6435011087932844, 0.7188299996216245, 0.7853981633974483
};
GAPS_DEVICE_END
static inline double gaps_atan2(double y, double x)
{
    const double pi = 3.141592653589793, half_pi = 1.5707963267948966;
    if (x != x || y != y) return x + y;
    const int y_neg = (int)(gaps_double_to_bits(y) >> 63);
    const int x_neg = (int)(gaps_double_to_bits(x) >> 63);
    const double ax = x_neg ? -x : x, ay = y_neg ? -y : y;
    const int swap = ay > ax;   /* beyond the diagonal: atan2 = pi/2 - atan(ax/ay) */
    const double num = swap ? ax : ay, den = swap ? ay : ax;
    double a;
    if (den == 0.0) {
        a = 0.0;                                   /* both zero */
    } else {
        const double inf = gaps_bits_to_double(0x7ff0000000000000ULL);
        const double t = den == inf ? (num == inf ? 1.0 : 0.0) : num / den;
        const int j = (int)(t * 8.0 + 0.5);
        const double c = 0.125 * j;
        const double r = (t - c) / (1.0 + t * c);
        const double r2 = r * r;
        double q = -1.0 / 15.0;
        q = q * r2 + 1.0 / 13.0;   q = q * r2 - 1.0 / 11.0;   q = q * r2 + 1.0 / 9.0;
        q = q * r2 - 1.0 / 7.0;    q = q * r2 + 1.0 / 5.0;    q = q * r2 - 1.0 / 3.0;
        a = gaps_atan_eighths[j] + (r + r * r2 * q);
    }
    if (swap) a = half_pi - a;
    if (x_neg) a = pi - a;
    return y_neg ? -a : a;
}

#endif /* GAPS_USE_LIBM */
#endif
