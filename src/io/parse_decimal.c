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
 * formats without a wide long double also go to strtod.
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
#if WIDE_ROUTE
    double v;
    if (!lost && e >= -MAX_POWER && e <= MAX_POWER && wide_route(m, e, &v)) {
        *out = negative ? -v : v;
        *short_route = 1;
        return 0;
    }
#else
    (void)lost;
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
