/* test_parse_decimal.c -- gaps_parse_decimal (src/io/parse_decimal.h) gives strtod's double,
 * bit for bit, for the numbers event files hold and for the hard cases of its short route.
 *
 * Compared with strtod (the C locale): random doubles of every binade printed as writers
 * print them (%.17g, the shortest-ish %.16g and %.15g, Fortran-like %.10E and 1.0D+00,
 * %.6f, more than 19 digits); integers from 2^53 to 10^19 (among them every kind of
 * midpoint of two doubles, which the short route must hand to strtod) and the same digits
 * scaled by 10^-27..10^27, where the first rounding can land on a midpoint; the syntax it
 * must refuse.  It also counts how many numbers took the short route, so that a route never
 * taken (a build that always falls back to strtod, hiding a broken route) cannot pass.
 * Usage: test_parse_decimal [N] (random numbers per kind, default 200000). */
#include "io/parse_decimal.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next_u64(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static long checked, failures;

static void check(const char *text)
{
    double got = 0.0, want;
    char *end;
    const int rc = gaps_parse_decimal(text, strlen(text), &got);
    checked++;
    if (strlen(text) > 71) {   /* the stated limit: longer is no number of an event file */
        if (rc != -1) {
            printf("FAIL %s: %zu characters, but rc %d\n", text, strlen(text), rc);
            failures++;
        }
        return;
    }
    want = strtod(text, &end);
    if (*end != '\0') {   /* Fortran D exponent: compare with the E form */
        char copy[128];
        snprintf(copy, sizeof copy, "%s", text);
        for (char *c = copy; *c; ++c)
            if (*c == 'd' || *c == 'D') *c = 'e';
        want = strtod(copy, &end);
    }
    if (!isfinite(want)) {
        if (rc != -2) {
            printf("FAIL %s: not finite, but rc %d\n", text, rc);
            failures++;
        }
        return;
    }
    if (rc != 0 || memcmp(&got, &want, sizeof got) != 0) {
        if (failures < 20) printf("FAIL %s: got %.17g (rc %d), strtod %.17g\n", text, got, rc, want);
        failures++;
    }
}

static void refuse(const char *text)
{
    double v = 1.0;
    checked++;
    if (gaps_parse_decimal(text, strlen(text), &v) != -1) {
        printf("FAIL '%s' should not be a number\n", text);
        failures++;
    }
}

static double random_double(int lo_exp, int hi_exp)
{
    const uint64_t u = next_u64();
    const double mant = 1.0 + (double)(u >> 11) * 0x1p-53;
    const int e = lo_exp + (int)(next_u64() % (uint64_t)(hi_exp - lo_exp + 1));
    return ((u & 1) ? -1.0 : 1.0) * ldexp(mant, e);
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 200000;
    char buf[128];
    /* random doubles as writers print them, near the range of the short route and beyond */
    static const char *const formats[] = {"%.17g", "%.16g", "%.15g", "%.10E", "%.6f",
                                          "%.12e", "%.25g"};
    for (size_t f = 0; f < sizeof formats / sizeof *formats; ++f)
        for (long k = 0; k < n; ++k) {
            const double x = k % 8 == 0 ? random_double(-1070, 1023) : random_double(-60, 60);
            snprintf(buf, sizeof buf, formats[f], x);
            check(buf);
        }
    /* Fortran's exponent letter */
    for (long k = 0; k < n / 10; ++k) {
        snprintf(buf, sizeof buf, "%.16E", random_double(-40, 40));
        char *e = strchr(buf, 'E');
        if (e) *e = (k & 1) ? 'D' : 'd';
        check(buf);
    }
    /* integers of 16 to 19 digits and their scaled versions: the midpoints */
    for (long k = 0; k < n; ++k) {
        uint64_t m = next_u64() % 10000000000000000000u;
        const int shift = (int)(next_u64() % 12);
        if (k % 3 == 0) m = ((m >> shift) | 1u) << shift;   /* odd multiples of 2^shift */
        if (m < (1u << 20)) m += (uint64_t)1 << 53;
        snprintf(buf, sizeof buf, "%" PRIu64, m);
        check(buf);
        const int e = (int)(next_u64() % 55) - 27;
        snprintf(buf, sizeof buf, "%" PRIu64 "e%d", m, e);
        check(buf);
        snprintf(buf, sizeof buf, "-0.%" PRIu64 "E%+d", m, e);
        check(buf);
    }
    /* every exact midpoint of doubles just above 2^53 and 2^62, and their neighbours */
    for (int b = 53; b <= 63; ++b)
        for (uint64_t j = 0; j < 4096; ++j) {
            const uint64_t base = (uint64_t)1 << b;
            const uint64_t half = (uint64_t)1 << (b - 53);   /* half a spacing */
            uint64_t m = base + (2 * j + 1) * half;
            if (m >= 10000000000000000000u) break;
            for (int d = -1; d <= 1; ++d) {
                snprintf(buf, sizeof buf, "%" PRIu64, m + (uint64_t)(int64_t)d);
                check(buf);
            }
        }
    /* fixed cases */
    static const char *const fixed[] = {
        "0", "-0", "+0.0", "0e99999", "00000.00000", "1", "-1", "9007199254740993",
        "9007199254740992.5", "1e22", "1e23", "1e27", "1e28", "123456789012345678901234567890",
        "0.1", "0.30000000000000004", "2.2250738585072014e-308", "4.9e-324", "1e-400",
        "1.7976931348623157e308", "91.187600000000003", "0.00010707010449959697",
        "2986.9640559411027", "1.0D+00", "1.5d-3", "5e-324", "2.4703282292062327e-324",
        "9999999999999999999", "18446744073709551615", "1e+0", ".5", "5.", "-.5e1",
        /* runs of eight digits (parse_decimal.c): ending exactly at the text's end, cut by
         * the exponent, after leading zeros, beyond the 19 digits kept */
        "0.12345678", "0.1234567890123456", "7.12345678e+01", "1.1234567e5",
        "0.000000001234567890123456789", "-0.00000000000000000e+00", "12345678.12345678",
        "1.23456789012345678901234", "9.99999999999999999999e-28", "0.0000000099999999"};
    for (size_t k = 0; k < sizeof fixed / sizeof *fixed; ++k) check(fixed[k]);
    check("1e400");
    check("-1e99999");
    static const char *const bad[] = {"", "+", "-", ".", "e5", "1e", "1e+", "1.2.3", "1x",
                                      " 1", "1 ", "inf", "nan", "0x1p3", "1e5.", "--1", "1,5",
                                      "1ee5", "+-1", "d5", "1.234567a9", "0.1234567a",
                                      "1.12345678x", "0.00000000123456:8"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) refuse(bad[k]);
    /* midpoints with a decimal point: N / 2^k = N 5^k / 10^k for odd N of 54 bits, written
     * exactly with k decimals (k <= 4 keeps the digits below 10^19), and the texts one unit of
     * the last digit away; the product route must hand each midpoint on */
    for (int k = 1; k <= 4; ++k) {
        uint64_t p5 = 1;
        for (int i = 0; i < k; ++i) p5 *= 5;
        for (long j = 0; j < 20000; ++j) {
            const uint64_t r = j % 2 ? next_u64() % (1ULL << 52) : (uint64_t)j;
            const uint64_t N = (1ULL << 53) + 2 * r + 1;
            if (N >= 10000000000000000000ULL / p5) continue;
            for (int d = -1; d <= 1; ++d) {
                char digits[32];
                snprintf(digits, sizeof digits, "%" PRIu64, N * p5 + (uint64_t)(int64_t)d);
                const size_t len = strlen(digits);
                snprintf(buf, sizeof buf, "%.*s.%s", (int)(len - (size_t)k), digits,
                         digits + len - k);
                check(buf);
            }
        }
    }
    /* the short route must be taken: a pure strtod fallback would pass the comparison */
    long fast = 0, tried = 0;
    for (long k = 0; k < 10000; ++k) {
        snprintf(buf, sizeof buf, "%.17g", random_double(-30, 30));
        tried++;
        fast += gaps_parse_decimal_route(buf, strlen(buf)) == 1;
    }
    /* exact midpoints must go to strtod (ties to even is its decision) */
    static const char *const ties[] = {"9007199254740993", "9007199254740995",
                                       "18014398509481986", "4611686018427388416"};
    for (size_t k = 0; k < sizeof ties / sizeof *ties; ++k)
        if (LDBL_MANT_DIG >= 64 && gaps_parse_decimal_route(ties[k], strlen(ties[k])) != 0) {
            printf("FAIL %s is a midpoint of two doubles, but the short route decided it\n",
                   ties[k]);
            failures++;
        }
    printf("%ld numbers compared with strtod, %ld failures; short route %ld of %ld %%.17g "
           "numbers\n", checked, failures, fast, tried);
    if (LDBL_MANT_DIG >= 64 && fast < tried * 9 / 10) {
        printf("FAIL: the short route was taken for too few numbers\n");
        return 1;
    }
    return failures ? 1 : 0;
}
