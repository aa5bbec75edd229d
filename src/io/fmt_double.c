/* fmt_double.c -- "%.17g" without printf (see fmt_double.h).
 *
 * Method.  A finite nonzero double is |v| = m 2^e with 2^52 <= m < 2^53 (normal numbers).
 * "%.17g" prints the 17 significant digits D = round(|v| 10^(16-X)), 10^16 <= D < 10^17, X the
 * decimal exponent of the rounded value, and then chooses fixed or exponent notation by X.
 * So everything hinges on computing, EXACTLY, for some integer p:
 *
 *     Q = floor(|v| 10^p)   and where the remainder |v| 10^p - Q lies:
 *     zero, below one half, exactly one half, above one half.
 *
 * With Q and that class, rounding to nearest with ties to even (glibc's rule in the default
 * rounding mode: the last digit kept is rounded up when the rest is above half, or exactly
 * half and that digit is odd) is exact.  Q and its remainder are computed in integers:
 *
 *   p >= 0:  |v| 10^p = m 5^p 2^(e+p).  P = m 5^p is exact in 128 bits for p <= 27 (5^27 <
 *            2^63) and in 192 bits (a 128-bit high part and a 64-bit low word) for p <= 55
 *            (5^55 < 2^128).  Multiplying by 2^(e+p) is a shift: Q is the bits above the
 *            binary point, the remainder the bits below, and one half is the bit just below.
 *   p < 0:   |v| 10^p = m 2^(e+p) / 5^-p.  For -p <= 30, N = m 2^(e+p) is an integer below
 *            2^127 (checked), and Q = N / 5^-p, remainder N % 5^-p by 128-bit division.
 *            5^-p is odd, so the remainder is never exactly one half: no ties up there.
 *
 * p is chosen as 16 - k with k = floor(b log10 2), b = floor(log2 |v|), which is floor(log10
 * |v|) or one less; so Q has 17 or 18 digits.  With 18 digits the last one is dropped and
 * the rounding uses it plus the class of the remainder (zero or not) as a sticky bit, which
 * is exact too (the dropped digit and the remainder together are the full fraction).  If the
 * rounding carries to 10^17 the value is 10^(X+1): D = 10^16 and X + 1.  Every step that
 * could leave the exact range (a shift that would lose bits, Q outside [10^16, 10^18))
 * is checked and sends the number to snprintf itself, as do infinities, NaNs and
 * subnormals: the fast path never guesses.  It covers |v| from about 1.5e-39 to 1.8e47 (every
 * binade in between), which holds every number the program writes (momenta, weights,
 * observables down to round-off near 1e-21).  No state, no allocation: thread-safe.
 *
 * Text.  "%.17g" uses fixed notation with 16 - X decimals when -4 <= X < 17, else
 * d.dddddddddddddddde+XX (at least two exponent digits); trailing zeros of the fraction and
 * then a bare point are removed.  In fixed notation the rounding happens at the same decimal
 * position as for D (16 - X decimals after the point = 17 significant digits); when D carried
 * into a new digit the fixed form rounds one place earlier, which gives the same 10^X.  The
 * test (tests/test_fmt_double.c) compares with snprintf on every class of double, on exact
 * ties, on both sides of every power of ten and on 10^7-10^8 random numbers. */
#include "io/fmt_double.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef GAPS_FMT_TEST_HOOKS
/* Test builds only (tests/test_fmt_double.c): count the numbers left to snprintf, and break
 * one rule on purpose to show that the test notices (1: ties rounded up, 2: a carry into a
 * new digit not moved to the exponent, 3: the dropped 18th digit rounded without the rest). */
long gaps_fmt_g17_fallbacks;
int gaps_fmt_g17_mutation;
#define TEST_HOOK(x) x
#else
#define TEST_HOOK(x)
#endif

/* The reference itself: for what the fast path does not cover. */
static char *fmt_fallback(char *out, double v)
{
    TEST_HOOK(++gaps_fmt_g17_fallbacks;)
    const int n = snprintf(out, GAPS_FMT_G17_SIZE, "%.17g", v);
    return out + (n > 0 ? n : 0);
}

#ifndef __SIZEOF_INT128__

/* No 128-bit integers (neither GCC nor clang on this target): the C library does it all. */
char *gaps_fmt_g17(char *out, double v)
{
    return fmt_fallback(out, v);
}

#else

__extension__ typedef unsigned __int128 u128;   /* __extension__: quiet under -pedantic */

#define TEN16 10000000000000000ull
#define TEN17 100000000000000000ull
#define TEN18 1000000000000000000ull

/* 5^p for p = 0..55 as {high 64 bits, low 64 bits}; 5^55 < 2^128 < 5^56. */
static const uint64_t pow5[56][2] = {
    {0x0000000000000000u, 0x0000000000000001u}, /* 5^0 */
    {0x0000000000000000u, 0x0000000000000005u}, /* 5^1 */
    {0x0000000000000000u, 0x0000000000000019u}, /* 5^2 */
    {0x0000000000000000u, 0x000000000000007du}, /* 5^3 */
    {0x0000000000000000u, 0x0000000000000271u}, /* 5^4 */
    {0x0000000000000000u, 0x0000000000000c35u}, /* 5^5 */
    {0x0000000000000000u, 0x0000000000003d09u}, /* 5^6 */
    {0x0000000000000000u, 0x000000000001312du}, /* 5^7 */
    {0x0000000000000000u, 0x000000000005f5e1u}, /* 5^8 */
    {0x0000000000000000u, 0x00000000001dcd65u}, /* 5^9 */
    {0x0000000000000000u, 0x00000000009502f9u}, /* 5^10 */
    {0x0000000000000000u, 0x0000000002e90eddu}, /* 5^11 */
    {0x0000000000000000u, 0x000000000e8d4a51u}, /* 5^12 */
    {0x0000000000000000u, 0x0000000048c27395u}, /* 5^13 */
    {0x0000000000000000u, 0x000000016bcc41e9u}, /* 5^14 */
    {0x0000000000000000u, 0x000000071afd498du}, /* 5^15 */
    {0x0000000000000000u, 0x0000002386f26fc1u}, /* 5^16 */
    {0x0000000000000000u, 0x000000b1a2bc2ec5u}, /* 5^17 */
    {0x0000000000000000u, 0x000003782dace9d9u}, /* 5^18 */
    {0x0000000000000000u, 0x00001158e460913du}, /* 5^19 */
    {0x0000000000000000u, 0x000056bc75e2d631u}, /* 5^20 */
    {0x0000000000000000u, 0x0001b1ae4d6e2ef5u}, /* 5^21 */
    {0x0000000000000000u, 0x000878678326eac9u}, /* 5^22 */
    {0x0000000000000000u, 0x002a5a058fc295edu}, /* 5^23 */
    {0x0000000000000000u, 0x00d3c21bcecceda1u}, /* 5^24 */
    {0x0000000000000000u, 0x0422ca8b0a00a425u}, /* 5^25 */
    {0x0000000000000000u, 0x14adf4b7320334b9u}, /* 5^26 */
    {0x0000000000000000u, 0x6765c793fa10079du}, /* 5^27 */
    {0x0000000000000002u, 0x04fce5e3e2502611u}, /* 5^28 */
    {0x000000000000000au, 0x18f07d736b90be55u}, /* 5^29 */
    {0x0000000000000032u, 0x7cb2734119d3b7a9u}, /* 5^30 */
    {0x00000000000000fcu, 0x6f7c40458122964du}, /* 5^31 */
    {0x00000000000004eeu, 0x2d6d415b85acef81u}, /* 5^32 */
    {0x00000000000018a6u, 0xe32246c99c60ad85u}, /* 5^33 */
    {0x0000000000007b42u, 0x6fab61f00de36399u}, /* 5^34 */
    {0x000000000002684cu, 0x2e58e9b04570f1fdu}, /* 5^35 */
    {0x00000000000c097cu, 0xe7bc90715b34b9f1u}, /* 5^36 */
    {0x00000000003c2f70u, 0x86aed236c807a1b5u}, /* 5^37 */
    {0x00000000012ced32u, 0xa16a1b11e8262889u}, /* 5^38 */
    {0x0000000005e0a1fdu, 0x2712875988becaadu}, /* 5^39 */
    {0x000000001d6329f1u, 0xc35ca4bfabb9f561u}, /* 5^40 */
    {0x0000000092efd1b8u, 0xd0cf37be5aa1cae5u}, /* 5^41 */
    {0x00000002deaf189cu, 0x140c16b7c528f679u}, /* 5^42 */
    {0x0000000e596b7b0cu, 0x643c7196d9ccd05du}, /* 5^43 */
    {0x00000047bf19673du, 0xf52e37f2410011d1u}, /* 5^44 */
    {0x00000166bb7f0435u, 0xc9e717bb45005915u}, /* 5^45 */
    {0x00000701a97b150cu, 0xf18376a85901bd69u}, /* 5^46 */
    {0x000023084f676940u, 0xb7915149bd08b30du}, /* 5^47 */
    {0x0000af298d050e43u, 0x95d69670b12b7f41u}, /* 5^48 */
    {0x00036bcfc1194751u, 0xed30f03375d97c45u}, /* 5^49 */
    {0x00111b0ec57e6499u, 0xa1f4b1014d3f6d59u}, /* 5^50 */
    {0x00558749db77f700u, 0x29c77506823d22bdu}, /* 5^51 */
    {0x01aba4714957d300u, 0xd0e549208b31adb1u}, /* 5^52 */
    {0x085a36366eb71f04u, 0x147a6da2b7f86475u}, /* 5^53 */
    {0x29c30f1029939b14u, 0x6664242d97d9f649u}, /* 5^54 */
    {0xd0cf4b50cfe20765u, 0xfff4b4e3f741cf6du}, /* 5^55 */
};

/* Where the remainder of the scaled value lies, relative to one half of the last unit. */
enum { REM_ZERO, REM_BELOW_HALF, REM_HALF, REM_ABOVE_HALF };

static int rem_class(u128 r, u128 half)
{
    if (r == 0) return REM_ZERO;
    return r < half ? REM_BELOW_HALF : r == half ? REM_HALF : REM_ABOVE_HALF;
}

/* Q = floor(m 2^e 10^p), exactly, and the class of its remainder; 0 when that is not
 * possible here (or Q would not have 17 or 18 digits), 1 on success. */
static int scaled(uint64_t m, int e, int p, uint64_t *q_out, int *rem_out)
{
    u128 q;
    int rem;
    if (p >= 0 && p <= 27) {
        const u128 P = (u128)m * pow5[p][1];   /* < 2^53 2^63: exact */
        const int s2 = e + p;                  /* value = P 2^s2 */
        if (s2 >= 0) {                         /* an integer: no remainder */
            if (s2 >= 64 || P > ((u128)(TEN18 - 1) >> s2)) return 0;
            q = P << s2;
            rem = REM_ZERO;
        } else {
            /* t < 64 here whenever Q can have 17 or 18 digits (P < 2^116, Q >= 2^53), so
             * the remainder, the low t bits, fits in 64 bits: cheaper than 128-bit masks */
            const int t = -s2;
            const uint64_t hi = (uint64_t)(P >> 64), lo = (uint64_t)P;
            if (t >= 64 || (hi >> t) != 0) return 0;   /* Q < 2^53 or Q >= 2^64 */
            q = (hi << (64 - t)) | (lo >> t);
            const uint64_t half = 1ull << (t - 1);
            const uint64_t r = lo & (2 * half - 1);
            rem = r == 0 ? REM_ZERO : r < half ? REM_BELOW_HALF : r == half ? REM_HALF
                                                                            : REM_ABOVE_HALF;
        }
    } else if (p > 27 && p <= 55) {
        /* P = m 5^p < 2^181 as H 2^64 + L; H < 2^117 */
        const u128 lo = (u128)m * pow5[p][1];
        const u128 H = (u128)m * pow5[p][0] + (lo >> 64);
        const uint64_t L = (uint64_t)lo;
        const int t = -(e + p);                /* value = P / 2^t */
        if (t < 1 || t >= 128) return 0;
        if (t <= 64) {
            /* Q = P >> t needs H < 2^(64+t) to fit in 128 bits */
            if (t < 64 && (H >> (64 + t)) != 0) return 0;
            q = t == 64 ? H : (H << (64 - t)) | (L >> t);
            const uint64_t half = 1ull << (t - 1);
            const uint64_t r = L & (2 * half - 1);  /* t == 64: 2 * half wraps to 0, mask all */
            rem = rem_class(r, half);
        } else {
            /* the remainder is (H mod 2^u) 2^64 + L, one half is 2^(u-1) 2^64 */
            const int u = t - 64;
            q = H >> u;
            const u128 rh = H & (((u128)1 << u) - 1), hh = (u128)1 << (u - 1);
            if (rh < hh) rem = (rh == 0 && L == 0) ? REM_ZERO : REM_BELOW_HALF;
            else if (rh > hh) rem = REM_ABOVE_HALF;
            else rem = L == 0 ? REM_HALF : REM_ABOVE_HALF;
        }
    } else if (p < 0 && p >= -30) {
        const int sh = e + p;                  /* value = m 2^sh / 5^-p */
        if (sh < 0 || sh > 74) return 0;      /* m < 2^53: N < 2^127 */
        const u128 N = (u128)m << sh;
        const u128 d = ((u128)pow5[-p][0] << 64) | pow5[-p][1];
        q = N / d;
        const u128 r = N - q * d;
        /* d is odd: 2r == d is impossible, no ties */
        rem = r == 0 ? REM_ZERO : 2 * r < d ? REM_BELOW_HALF : REM_ABOVE_HALF;
    } else {
        return 0;
    }
    if (q < TEN16 || q >= TEN18) return 0;
    *q_out = (uint64_t)q;
    *rem_out = rem;
    return 1;
}

/* "00" "01" ... "99": two digits per division */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static void put8(char *d, uint32_t x)   /* x < 10^8 as exactly 8 digits */
{
    const uint32_t a = x / 10000, b = x % 10000;
    memcpy(d, digit_pairs + 2 * (a / 100), 2);
    memcpy(d + 2, digit_pairs + 2 * (a % 100), 2);
    memcpy(d + 4, digit_pairs + 2 * (b / 100), 2);
    memcpy(d + 6, digit_pairs + 2 * (b % 100), 2);
}

char *gaps_fmt_g17(char *out, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    const int be = (int)(bits >> 52) & 0x7ff;
    const uint64_t frac = bits & ((1ull << 52) - 1);
    if (be == 0x7ff || (be == 0 && frac != 0))   /* inf, nan, subnormal */
        return fmt_fallback(out, v);
    char *s = out;
    *s = '-';                                   /* -0 too: glibc prints "-0" */
    s += bits >> 63;                            /* (no branch: signs are random) */
    if (be == 0) {
        *s++ = '0';
        *s = '\0';
        return s;
    }
    const uint64_t m = frac | (1ull << 52);
    const int e = be - 1075;                    /* |v| = m 2^e */
    const int b = be - 1023;                    /* 2^b <= |v| < 2^(b+1) */
    /* k = floor(b log10 2), so that floor(log10 |v|) is k or k + 1: 78913 / 2^18 is close
     * enough to log10 2 for |b| < 1100; adding 2^18 to b keeps the shifted number positive
     * and adds exactly 78913.  A wrong k could only cost speed: scaled() refuses a Q
     * without 17 or 18 digits (the test checks that no number in 1e-38..1e46 is refused). */
    const int k = (int)((((int64_t)b + (1 << 18)) * 78913) >> 18) - 78913;
    uint64_t q;
    int rem;
    if (!scaled(m, e, 16 - k, &q, &rem)) return fmt_fallback(out, v);

    int x = k;                                  /* decimal exponent of the digits */
    int up;
    if (q >= TEN17) {                           /* 18 digits: drop one, it rounds */
        const unsigned dropped = (unsigned)(q % 10);
        q /= 10;
        x++;
        up = dropped > 5 || (dropped == 5 && (rem != REM_ZERO || (q & 1)));
        TEST_HOOK(if (gaps_fmt_g17_mutation == 3) up = dropped > 5 || (dropped == 5 && (q & 1));)
    } else {
        up = rem == REM_ABOVE_HALF || (rem == REM_HALF && (q & 1));
        TEST_HOOK(if (gaps_fmt_g17_mutation == 1) up = rem >= REM_HALF;)
    }
    if (up && ++q == TEN17) {                   /* 9.99..95 -> 10.0: one digit more */
        q = TEN16;
        x++;
        TEST_HOOK(if (gaps_fmt_g17_mutation == 2) x--;)
    }

    char d[17];                                 /* the 17 digits, then without trailing 0s */
    const uint64_t hi = q / 100000000;          /* < 10^9 */
    d[0] = (char)('0' + hi / 100000000);
    put8(d + 1, (uint32_t)(hi % 100000000));
    put8(d + 9, (uint32_t)(q % 100000000));
    int nd = 17;
    while (d[nd - 1] == '0') nd--;              /* d[0] is not '0' */

    if (x >= 0 && x < 17) {                     /* ddd.ddd */
        memcpy(s, d, (size_t)x + 1);
        s += x + 1;
        if (nd > x + 1) {
            *s++ = '.';
            memcpy(s, d + x + 1, (size_t)(nd - x - 1));
            s += nd - x - 1;
        }
    } else if (x < 0 && x >= -4) {              /* 0.000ddd */
        *s++ = '0';
        *s++ = '.';
        for (int i = 0; i < -x - 1; ++i) *s++ = '0';
        memcpy(s, d, (size_t)nd);
        s += nd;
    } else {                                    /* d.ddde+XX */
        *s++ = d[0];
        if (nd > 1) {
            *s++ = '.';
            memcpy(s, d + 1, (size_t)nd - 1);
            s += nd - 1;
        }
        *s++ = 'e';
        *s++ = x < 0 ? '-' : '+';
        if (x < 0) x = -x;
        if (x >= 100) {
            *s++ = (char)('0' + x / 100);
            x %= 100;
        }
        memcpy(s, digit_pairs + 2 * x, 2);
        s += 2;
    }
    *s = '\0';
    return s;
}

#endif
