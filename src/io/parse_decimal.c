/* parse_decimal.c -- decimal text to the nearest double (parse_decimal.h).
 *
 * Why the short route is exact.  The text is read as an integer mantissa m of at most 19
 * significant digits and a power of ten E, value m * 10^E.  In the x87 extended format (64
 * mantissa bits) or IEEE quad (113), m is exact (m < 10^19 < 2^64) and so is 10^|E| for
 * |E| <= 27 (10^27 = 2^27 * 5^27 with 5^27 < 2^64); one multiplication or division then
 * rounds the exact value X once, to X' in the wide format.  Rounding X' to double gives the
 * double nearest X unless X' is exactly halfway between two doubles: every such midpoint
 * needs only 54 bits, so it is a number of the wide format, and rounding (monotonic) keeps X'
 * on the same side of every midpoint as X, or on it only if X is.  So: compute X', round it
 * to double d, and if X' is a midpoint (the first rounding may have put it there) let strtod
 * decide; otherwise d is strtod's answer.  Mantissas of more than 19 digits, |E| > 27 and
 * formats without a wide long double also go to strtod.  Fractions (E < 0) first try a
 * shorter route still, one 128-bit integer product (product_route, which says why it is
 * exact), and come here only where it cannot decide.
 *
 * The caller's locale matters only to strtod (its decimal point): the LHE reader calls this
 * between gaps_c_locale_enter and _leave (c_locale.h). */
#include "io/parse_decimal.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if ((defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64) \
    || LDBL_MANT_DIG == 113
#define WIDE_ROUTE 1
#else
#define WIDE_ROUTE 0
#endif

enum { MAX_DIGITS = 19, MAX_POWER = 27 };

/* Eight digits at a time.  The numbers of an event file carry 17 or 18 significant digits,
 * nearly all after the point, so most of the mantissa comes in runs of eight: read as one
 * 64-bit word (little-endian: the first character in the lowest byte), checked to be all
 * digits and combined in three multiplications instead of eight dependent steps.  Other byte
 * orders take the digit-by-digit loop alone. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EIGHT_AT_ONCE 1
static uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* 1 if each of the eight bytes of w is '0'..'9' (0x30..0x39): its high nibble is 3, and
 * adding 6 to it leaves the high nibble 3 (0x3a..0x3f would carry into 4). */
static int all_digits(uint64_t w)
{
    const uint64_t hi = 0xF0F0F0F0F0F0F0F0u;
    return ((w & hi) | (((w + 0x0606060606060606u) & hi) >> 4)) == 0x3333333333333333u;
}

/* The value of eight digit bytes, the first the most significant: pairs, then quadruples,
 * then the whole, each step one multiply-add in parallel over the lanes. */
static uint32_t value8(uint64_t w)
{
    w -= 0x3030303030303030u;                               /* bytes 0..9 */
    w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FFu;          /* 16-bit lanes: 2 digits */
    w = (w * 100 + (w >> 16)) & 0x0000FFFF0000FFFFu;        /* 32-bit lanes: 4 digits */
    return (uint32_t)((w * 10000 + (w >> 32)) & 0xFFFFFFFFu);
}
#else
#define EIGHT_AT_ONCE 0
#endif

static int by_strtod(const char *s, size_t n, size_t exponent_at, double *out)
{
    char buf[72];
    if (n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (exponent_at < n) buf[exponent_at] = 'e';   /* Fortran's 1.0D+00 */
    errno = 0;
    char *end;
    const double v = strtod(buf, &end);
    if (*end != '\0') return -1;
    if (!isfinite(v)) return -2;
    *out = v;
    return 0;
}

#if WIDE_ROUTE
/* m * 10^e, |e| <= MAX_POWER, as the nearest double in *out: 1, or 0 when the wide result
 * is a midpoint of two doubles (strtod must decide). */
static int wide_route(uint64_t m, int e, double *out)
{
    static const long double ten[MAX_POWER + 1] = {
        1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L,
        1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L,
        1e25L, 1e26L, 1e27L};
    long double x = (long double)m;
    if (e > 0) x *= ten[e];
    else if (e < 0) x /= ten[-e];
    const double d = (double)x;
#if LDBL_MANT_DIG == 64
    /* x87: x, positive and normal as a double (1e-27 <= x < 1e46), has 64 mantissa bits
     * with the integer bit explicit; the double keeps the top 53, and x lies halfway between
     * two doubles exactly when the 11 bits below them are 100 0000 0000 */
    uint64_t mantissa;
    memcpy(&mantissa, &x, sizeof mantissa);
    if ((mantissa & 0x7FFu) == 0x400u) return 0;
#else
    const long double off = x - (long double)d;   /* exact: x and d are within a factor 2 */
    if (off != 0.0L) {
        const double next = nextafter(d, off > 0.0L ? INFINITY : -INFINITY);
        const long double gap = fabsl((long double)next - (long double)d);
        if (2.0L * fabsl(off) == gap) return 0;
    }
#endif
    *out = d;
    return 1;
}
#endif

#if defined(__SIZEOF_INT128__)
/* m / 10^k for 1 <= k <= MAX_POWER, m > 0, by one 64 x 64 -> 128-bit product: 1 and the
 * nearest double in *out, or 0 where the product cannot decide (about 1 in 1000 numbers; the
 * wide route then does).  Why it is exact: with m' = m 2^lz in [2^63, 2^64) and R = the
 * reciprocal 2^(63 + b) / 5^k rounded up (b the bit length of 5^k, so that R lies in [2^63,
 * 2^64)), the value is T 2^-(63 + b + lz + k) with T = m' 2^(63 + b) / 5^k, and the product
 * P = m' R exceeds T by less than m' < 2^64.  So the top 64 bits H of P are those of T or one
 * more, and below the double's 53 bits and the rounding bit H keeps 9 or 10 bits.  If they
 * read 1 or more, T's top bits are H or H - 1, which agree above them: the double's bits and
 * the rounding bit are T's.  Nor is T a midpoint: a midpoint's T is zero below its rounding
 * bit, its low 64 bits too, so P would not reach past T's top bits and those bits of H would
 * read 0.  So the rounding bit decides, up if it is set.  If they read 0, a borrow from T's
 * low bits cannot be excluded: the wide route decides (tests/test_parse_decimal.c has
 * midpoints with a decimal point, which all come here). */
static int product_route(uint64_t m, int k, double *out)
{
    static const struct { uint64_t r; int bits; } inv5[MAX_POWER + 1] = {
        { 0, 0 },
        { 0xcccccccccccccccdu, 3 },   /* 5^1 */
        { 0xa3d70a3d70a3d70bu, 5 },   /* 5^2 */
        { 0x83126e978d4fdf3cu, 7 },   /* 5^3 */
        { 0xd1b71758e219652cu, 10 },   /* 5^4 */
        { 0xa7c5ac471b478424u, 12 },   /* 5^5 */
        { 0x8637bd05af6c69b6u, 14 },   /* 5^6 */
        { 0xd6bf94d5e57a42bdu, 17 },   /* 5^7 */
        { 0xabcc77118461cefdu, 19 },   /* 5^8 */
        { 0x89705f4136b4a598u, 21 },   /* 5^9 */
        { 0xdbe6fecebdedd5bfu, 24 },   /* 5^10 */
        { 0xafebff0bcb24aaffu, 26 },   /* 5^11 */
        { 0x8cbccc096f5088ccu, 28 },   /* 5^12 */
        { 0xe12e13424bb40e14u, 31 },   /* 5^13 */
        { 0xb424dc35095cd810u, 33 },   /* 5^14 */
        { 0x901d7cf73ab0acdau, 35 },   /* 5^15 */
        { 0xe69594bec44de15cu, 38 },   /* 5^16 */
        { 0xb877aa3236a4b44au, 40 },   /* 5^17 */
        { 0x9392ee8e921d5d08u, 42 },   /* 5^18 */
        { 0xec1e4a7db69561a6u, 45 },   /* 5^19 */
        { 0xbce5086492111aebu, 47 },   /* 5^20 */
        { 0x971da05074da7befu, 49 },   /* 5^21 */
        { 0xf1c90080baf72cb2u, 52 },   /* 5^22 */
        { 0xc16d9a0095928a28u, 54 },   /* 5^23 */
        { 0x9abe14cd44753b53u, 56 },   /* 5^24 */
        { 0xf79687aed3eec552u, 59 },   /* 5^25 */
        { 0xc612062576589ddbu, 61 },   /* 5^26 */
        { 0x9e74d1b791e07e49u, 63 },   /* 5^27 */
    };
    const int lz = __builtin_clzll(m);
    const unsigned __int128 prod = (unsigned __int128)(m << lz) * inv5[k].r;
    const uint64_t h = (uint64_t)(prod >> 64);
    const int top = (h >> 63) ? 63 : 62;      /* T lies in [2^126, 2^128) */
    const int shift = top - 52;               /* the 53 bits of the double: h >> shift */
    const uint64_t low = h & ((1ULL << (shift - 1)) - 1);
    if (low == 0) return 0;
    uint64_t mant = (h >> shift) + ((h >> (shift - 1)) & 1);
    int e2 = shift + 1 - inv5[k].bits - lz - k;   /* the value is mant 2^e2 */
    if (mant >> 53) {                         /* rounded up to the next power of two */
        mant >>= 1;
        e2 += 1;
    }
    /* normal: 1e-27 <= m / 10^k < 1e19 */
    const uint64_t bits = (uint64_t)(e2 + 52 + 1023) << 52 | (mant & ((1ULL << 52) - 1));
    memcpy(out, &bits, sizeof *out);
    return 1;
}
#define PRODUCT_ROUTE 1
#else
#define PRODUCT_ROUTE 0
#endif

/* gaps_parse_decimal; *short_route 1 if the wide route decided, 0 if strtod did. */
static int parse(const char *s, size_t n, double *out, int *short_route)
{
    *short_route = 0;
    if (n == 0 || n >= 72) return -1;
    size_t i = 0;
    const int negative = s[0] == '-';
    if (s[0] == '+' || s[0] == '-') ++i;
    uint64_t m = 0;
    int kept = 0, e = 0, digits = 0, lost = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
        const unsigned d = (unsigned)(s[i] - '0');
        if (m == 0 && d == 0) continue;            /* a leading zero */
        if (kept < MAX_DIGITS) m = 10 * m + d, ++kept;
        else ++e, lost |= d != 0;
    }
    if (i < n && s[i] == '.') {
        ++i;
#if EIGHT_AT_ONCE
        /* past the leading zeros (which the loop below counts into e), whole runs of eight
         * while all of them are kept */
        while (i < n && s[i] == '0' && m == 0) ++i, ++digits, --e;
        while (m != 0 && kept + 8 <= MAX_DIGITS && i + 8 <= n && all_digits(load8(s + i))) {
            m = m * 100000000u + value8(load8(s + i));
            kept += 8;
            e -= 8;
            digits += 8;
            i += 8;
        }
#endif
        for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
            const unsigned d = (unsigned)(s[i] - '0');
            if (m == 0 && d == 0) {
                --e;
                continue;
            }
            if (kept < MAX_DIGITS) m = 10 * m + d, ++kept, --e;
            else lost |= d != 0;
        }
    }
    if (digits == 0) return -1;
    size_t exponent_at = n;
    if (i < n && (s[i] == 'e' || s[i] == 'E' || s[i] == 'd' || s[i] == 'D')) {
        exponent_at = i++;
        int minus = 0, x = 0;
        if (i < n && (s[i] == '+' || s[i] == '-')) minus = s[i++] == '-';
        if (i == n) return -1;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i)
            if (x < 100000) x = 10 * x + (s[i] - '0');
        e += minus ? -x : x;
    }
    if (i != n) return -1;
    if (m == 0) {
        *out = negative ? -0.0 : 0.0;
        *short_route = 1;
        return 0;
    }
    double v;
#if PRODUCT_ROUTE
    /* a fraction (nearly every number of an event file): the product route, else the wide */
    if (!lost && e < 0 && e >= -MAX_POWER && product_route(m, -e, &v)) {
        *out = negative ? -v : v;
        *short_route = 1;
        return 0;
    }
#endif
#if WIDE_ROUTE
    if (!lost && e >= -MAX_POWER && e <= MAX_POWER && wide_route(m, e, &v)) {
        *out = negative ? -v : v;
        *short_route = 1;
        return 0;
    }
#else
    (void)lost;
    (void)v;
#endif
    return by_strtod(s, n, exponent_at, out);
}

int gaps_parse_decimal(const char *s, size_t n, double *out)
{
    int short_route;
    return parse(s, n, out, &short_route);
}

#ifdef GAPS_PARSE_DECIMAL_TEST_HOOKS
int gaps_parse_decimal_route(const char *s, size_t n)
{
    double v;
    int short_route;
    return parse(s, n, &v, &short_route) == 0 ? short_route : -1;
}
#endif
