/* test_fmt_double.c -- gaps_fmt_g17 (src/io/fmt_double.c) against the C library's "%.17g".
 *
 * Every number is formatted by both and the texts compared byte for byte, with the returned
 * end pointer and the untouched bytes after the NUL.  The sets:
 *   special   zeros, subnormals, min/max normal, DBL_MAX, infinities, NaNs
 *   pow2      every power of two and its neighbours, both signs
 *   decades   the doubles around every power of ten 1e-323 .. 1e308 (64 on each side), where
 *             rounding to 17 digits carries into a new digit (9.99..e-6 -> 1e-05) and where
 *             fixed notation changes to exponent notation
 *   integers  0 .. 10^5, around 2^53 and 10^n, random integers below 2^53 and above
 *   binades   100 random mantissas and both ends for every binary exponent; those in
 *             [1e-38, 1e46] must all take the fast path
 *   ties      doubles whose exact decimal value has 18 significant digits ending in 5, i.e.
 *             exactly half-way between two 17-digit texts.  All of them are m 2^-s with m odd,
 *             s <= 25 and 10^17 <= m 5^s < 10^18 (the digits of m 2^-s are those of m 5^s,
 *             so 5^s < 10^18); every s is sampled, and the set must contain ties whose
 *             rounding direction differs between half-to-even and half-up
 *   decimals  short decimal texts read by strtod (0.1, 45.6, ...), the usual input numbers
 *   bits      N uniform 64-bit patterns (N = 10^6 by default, 10^8 with --long)
 *   typical   N doubles in [1e-6, 1e4] (GeV, pb), half log-uniform, half uniform; these must
 *             all take the fast path, not snprintf
 *   --data F  every number in a text file (CSV, HepMC): also compared with the file's text
 * Built with -DGAPS_FMT_TEST_HOOKS and src/io/fmt_double.c, it also counts the numbers that went
 * to snprintf and runs negative controls: src/io/fmt_double.c broken on purpose in three ways
 * (ties, carries, the dropped 18th digit), each of which the test must catch.
 * Usage: test_fmt_double [--long] [--random N] [--seed S] [--data FILE]...
 * Exit status 0 when all agree, 1 on any difference or missed control, 2 on bad usage. */
#include "io/fmt_double.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GAPS_FMT_G17_FAST   /* fmt_double.h defines it where the fast path exists */
#define GAPS_FMT_G17_FAST 0
#endif

#ifdef GAPS_FMT_TEST_HOOKS   /* built with src/io/fmt_double.c and the same definition */
extern long gaps_fmt_g17_fallbacks;
extern int gaps_fmt_g17_mutation;
#endif

static long n_checked, n_failed;
static int quiet;   /* negative controls: count, do not print */

/* Compare one number; print the first few differences. */
static void check(double v)
{
    char want[64], got[64];
    const int n = snprintf(want, sizeof want, "%.17g", v);
    memset(got, '#', sizeof got);
    char *end = gaps_fmt_g17(got, v);
    int bad = end != got + n || memcmp(got, want, (size_t)n + 1) != 0;
    for (int i = n + 1; i < (int)sizeof got; ++i)   /* nothing written after the NUL */
        if (got[i] != '#') bad = 1;
    if (n + 1 > GAPS_FMT_G17_SIZE) bad = 1;          /* the documented room is enough */
    ++n_checked;
    if (bad && ++n_failed <= 20 && !quiet) {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        got[sizeof got - 1] = '\0';
        printf("FAIL %016" PRIx64 ": snprintf \"%s\", gaps_fmt_g17 \"%.*s\" (length %d, %ld)\n",
               bits, want, (int)strlen(got), got, n, (long)(end - got));
    }
}

static void check_pm(double v)
{
    check(v);
    check(-v);
}

static double from_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static uint64_t to_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* splitmix64: small, seedable, good enough to spread test points */
static uint64_t rng_state;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double rng_unit(void) { return (double)(rng() >> 11) * 0x1p-53; }   /* [0, 1) */

/* the n doubles on each side of v (same sign), v included */
static void around(double v, int n)
{
    const uint64_t b = to_bits(v);
    for (int i = -n; i <= n; ++i) {
        if ((i < 0 && b < (uint64_t)-i) || (i > 0 && b + (uint64_t)i >= 0x7ff0000000000000ull))
            continue;
        check_pm(from_bits(b + (uint64_t)(int64_t)i));
    }
}

static void test_special(void)
{
    check(0.0);
    check(-0.0);
    check_pm(INFINITY);
    check(NAN);
    check(-NAN);
    check(from_bits(0x7ff8000000000001ull));   /* NaN with a payload */
    check(from_bits(0xfff0000000000001ull));   /* signalling NaN, negative */
    around(DBL_TRUE_MIN, 8);
    around(DBL_MIN, 64);
    around(from_bits(0x000fffffffffffffull), 8);   /* largest subnormal */
    around(DBL_MAX, 64);
    around(DBL_EPSILON, 8);
    for (int i = 0; i < 20000; ++i) check_pm(from_bits(rng() & 0x000fffffffffffffull));
}

static void test_pow2(void)
{
    for (int i = -1074; i <= 1023; ++i) around(ldexp(1.0, i), 2);
}

static void test_decades(void)
{
    char text[64];
    for (int k = -323; k <= 308; ++k) {
        snprintf(text, sizeof text, "1e%d", k);
        around(strtod(text, NULL), 64);
        /* a few 17-digit values just below and 18-digit ones around the boundary */
        static const char *const mant[] = {"9.9999999999999999", "9.99999999999999995",
                                           "9.99999999999999985", "9.9999999999999998",
                                           "1.00000000000000005", "1.0000000000000001"};
        for (int j = 0; j < 6; ++j) {
            snprintf(text, sizeof text, "%se%d", mant[j], j < 4 ? k - 1 : k);
            check_pm(strtod(text, NULL));
        }
    }
}

static void test_integers(void)
{
    for (int i = 0; i <= 100000; ++i) check_pm((double)i);
    around(0x1p53, 64);
    around(0x1p63, 64);
    around(0x1p64, 64);
    double p10 = 1;
    for (int k = 0; k <= 22; ++k, p10 *= 10) {   /* exact powers of ten, and n 10^k */
        around(p10, 16);
        for (int n = 1; n < 200; ++n) check_pm(n * p10);
    }
    for (int i = 0; i < 50000; ++i) {
        check_pm((double)(rng() >> 11));                        /* below 2^53 */
        check_pm((double)(rng() >> (rng() % 64)));              /* any size up to 2^64 */
        check_pm(ldexp((double)(rng() >> 11), (int)(rng() % 200)));   /* integers up to 1e77 */
    }
}

/* The exact ties; returns how many of them an exactly-half-up rounding would print
 * differently (17th digit even), which must be > 0 for the set to prove the rule. */
static long test_ties(long per_exponent)
{
    long n_even = 0, n_ties = 0;
    for (int s = 1; s <= 25; ++s) {
        const double p5 = pow(5.0, s);   /* exact for s <= 22; only used for the range */
        uint64_t lo = (uint64_t)ceil(1e17 / p5), hi = (uint64_t)floor(1e18 / p5);
        if (hi > (1ull << 53) - 1) hi = (1ull << 53) - 1;
        if (lo > hi) continue;
        for (long i = 0; i < per_exponent; ++i) {
            uint64_t m = i < 8 ? lo + (uint64_t)i : i < 16 ? hi - (uint64_t)(i - 8)
                                                          : lo + rng() % (hi - lo + 1);
            m |= 1;                                      /* odd: s is the true exponent */
            if (m > hi) m -= 2;
            if (m < lo) continue;
            const double v = ldexp((double)m, -s);
            /* confirm it is a tie: %.40g shows the exact value, 18 digits ending in 5 */
            char exact[80], *p = exact;
            snprintf(exact, sizeof exact, "%.40e", v);
            int nd = 0, last = 0;
            for (; *p != 'e'; ++p)
                if (*p >= '0' && *p <= '9') ++nd;
            while (p[-1] == '0' || p[-1] == '.') {
                if (p[-1] == '0') --nd;
                --p;
            }
            last = p[-1];
            if (nd != 18 || last != '5') continue;     /* m 5^s out of range by pow's rounding */
            ++n_ties;
            if (((p[-2] == '.' ? p[-3] : p[-2]) - '0') % 2 == 0) ++n_even;
            check_pm(v);
        }
    }
    printf("  ties: %ld exact ties checked, %ld with an even 17th digit\n", n_ties, n_even);
    return n_ties > 0 ? n_even : 0;
}

static void test_decimals(long n)
{
    char text[64];
    for (long i = 0; i < n; ++i) {
        const int digits = 1 + (int)(rng() % 17);
        const int exp10 = (int)(rng() % 40) - 25;
        int len = 0;
        for (int j = 0; j < digits; ++j) text[len++] = (char)('0' + (j == 0 ? 1 + rng() % 9 : rng() % 10));
        snprintf(text + len, sizeof text - (size_t)len, "e%d", exp10);
        check_pm(strtod(text, NULL));
    }
}

/* every binary exponent (so every scale 10^p the fast path uses): random mantissas and
 * both ends of the binade.  With hooks, the binades within [1e-38, 1e46] must all take the
 * fast path (that is the range it promises; it also proves the decimal exponent estimate
 * right for each of them, else the number would have gone to snprintf) */
static long binades_slow;
static void test_binades(void)
{
    binades_slow = 0;
    for (uint64_t be = 1; be < 0x7ff; ++be) {
        const int inside = ldexp(1.0, (int)be - 1023) >= 1e-38 && ldexp(1.0, (int)be - 1022) <= 1e46;
#ifdef GAPS_FMT_TEST_HOOKS
        const long b0 = gaps_fmt_g17_fallbacks;
#endif
        check_pm(from_bits(be << 52));
        check_pm(from_bits(be << 52 | 0x000fffffffffffffull));
        for (int i = 0; i < 100; ++i) check_pm(from_bits(be << 52 | (rng() >> 12)));
#ifdef GAPS_FMT_TEST_HOOKS
        if (inside && gaps_fmt_g17_fallbacks != b0 && GAPS_FMT_G17_FAST) {
            if (++binades_slow <= 5) printf("FAIL binade 2^%d went through snprintf\n", (int)be - 1023);
        }
#else
        (void)inside;
#endif
    }
}

static void test_random_bits(long n)
{
    for (long i = 0; i < n; ++i) check(from_bits(rng()));
}

/* the range of momenta (GeV) and weights (pb): half log-uniform, half uniform */
static void test_typical(long n)
{
    const double lmin = log(1e-6), lmax = log(1e4);
    for (long i = 0; i < n; i += 2) {
        const double v = exp(lmin + (lmax - lmin) * rng_unit());
        check(rng() & 1 ? v : -v);
        check(1e-6 + (1e4 - 1e-6) * rng_unit());
    }
}

/* Every number token of a text file: gaps_fmt_g17 of its value must equal snprintf's text
 * (and, for files written with %.17g, the token itself). */
static int test_data(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "test_fmt_double: cannot open %s\n", path);
        return 2;
    }
    char line[1 << 16];
    long n0 = n_checked, same_text = 0, fallbacks = -1;
#ifdef GAPS_FMT_TEST_HOOKS
    const long b0 = gaps_fmt_g17_fallbacks;
#endif
    while (fgets(line, sizeof line, f)) {
        for (char *p = line; *p;) {
            if ((*p == '-' || (*p >= '0' && *p <= '9')) && (p == line || strchr(" ,[", p[-1]))) {
                char *end;
                const double v = strtod(p, &end);
                const size_t len = (size_t)(end - p);
                if (end != p && strchr(" ,]\n", *end) && memchr(p, '.', len)) {
                    char got[GAPS_FMT_G17_SIZE];
                    const long failed = n_failed;
                    check(v);
                    gaps_fmt_g17(got, v);
                    if (n_failed == failed && strlen(got) == len && memcmp(got, p, len) == 0)
                        ++same_text;
                }
                p = end != p ? end : p + 1;
            } else {
                ++p;
            }
        }
    }
    fclose(f);
#ifdef GAPS_FMT_TEST_HOOKS
    fallbacks = gaps_fmt_g17_fallbacks - b0;
#endif
    printf("  %s: %ld numbers with a point, %ld equal to the file's text, %ld through "
           "snprintf\n", path, n_checked - n0, same_text, fallbacks);
    return 0;
}

/* Run one set; with hooks, also how many numbers it left to snprintf. */
static long run_set(const char *name, void (*run)(long), long n)
{
    const long n0 = n_checked, f0 = n_failed;
    long fallbacks = -1;
#ifdef GAPS_FMT_TEST_HOOKS
    const long b0 = gaps_fmt_g17_fallbacks;
    run(n);
    fallbacks = gaps_fmt_g17_fallbacks - b0;
#else
    run(n);
#endif
    printf("  %-9s %10ld numbers, %ld differ", name, n_checked - n0, n_failed - f0);
    if (fallbacks >= 0) printf(", %ld through snprintf", fallbacks);
    printf("\n");
    return fallbacks;
}

static void set_special(long n) { (void)n; test_special(); }
static void set_pow2(long n) { (void)n; test_pow2(); }
static void set_decades(long n) { (void)n; test_decades(); }
static void set_integers(long n) { (void)n; test_integers(); }
static void set_binades(long n) { (void)n; test_binades(); }
static long ties_even;
static void set_ties(long n) { ties_even = test_ties(n); }

int main(int argc, char **argv)
{
    long n_random = 1000000;
    uint64_t seed = 1;
    int n_data = 0;
    const char *data[16];
    for (int i = 1; i < argc; ++i) {
        char *end;
        if (!strcmp(argv[i], "--long")) {
            n_random = 100000000;
        } else if (!strcmp(argv[i], "--random") && i + 1 < argc) {
            n_random = strtol(argv[++i], &end, 10);
            if (*end || n_random < 0) {
                fprintf(stderr, "test_fmt_double: bad --random '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end) {
                fprintf(stderr, "test_fmt_double: bad --seed '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--data") && i + 1 < argc && n_data < 16) {
            data[n_data++] = argv[++i];
        } else {
            fprintf(stderr, "usage: test_fmt_double [--long] [--random N] [--seed S] "
                            "[--data FILE]...\n");
            return 2;
        }
    }
    rng_state = seed;

    run_set("special", set_special, 0);
    run_set("pow2", set_pow2, 0);
    run_set("decades", set_decades, 0);
    run_set("integers", set_integers, 0);
    run_set("binades", set_binades, 0);
    if (binades_slow) {
        printf("FAIL %ld binades in [1e-38, 1e46] went through snprintf\n", binades_slow);
        ++n_failed;
    }
    run_set("ties", set_ties, 10000);
    if (ties_even == 0) {
        printf("FAIL the tie set does not tell half-to-even from half-up\n");
        ++n_failed;
    }
    run_set("decimals", test_decimals, n_random / 4);
    run_set("bits", test_random_bits, n_random);
    printf("  (random sets: %ld numbers each, seed %" PRIu64 ")\n", n_random, seed);
    if (run_set("typical", test_typical, n_random) > 0 && GAPS_FMT_G17_FAST) {
        printf("FAIL numbers in [1e-6, 1e4] went through snprintf (the slow path)\n");
        ++n_failed;
    }
    for (int i = 0; i < n_data; ++i)
        if (test_data(data[i]) != 0) return 2;

    if (!GAPS_FMT_G17_FAST) printf("  (no unsigned __int128: gaps_fmt_g17 is snprintf here)\n");
#if defined GAPS_FMT_TEST_HOOKS && GAPS_FMT_G17_FAST
    /* Negative controls: each broken rule must be caught by the set that targets it. */
    static const struct { int mutation; const char *what, *set; void (*run)(long); long n; }
        controls[] = {{1, "ties rounded half-up", "ties", set_ties, 2000},
                      {2, "carry not moved to the exponent", "decades", set_decades, 0},
                      {3, "18th digit rounded without the rest", "typical", test_typical, 200000}};
    quiet = 1;
    for (size_t i = 0; i < sizeof controls / sizeof controls[0]; ++i) {
        const long f0 = n_failed;
        gaps_fmt_g17_mutation = controls[i].mutation;
        controls[i].run(controls[i].n);
        gaps_fmt_g17_mutation = 0;
        const long caught = n_failed - f0;
        n_failed = f0;
        printf("  control: %s: %ld differences in set %s%s\n", controls[i].what, caught,
               controls[i].set, caught ? "" : "  FAIL: not caught");
        if (!caught) ++n_failed;
    }
    quiet = 0;
#elif !defined GAPS_FMT_TEST_HOOKS
    printf("  (built without GAPS_FMT_TEST_HOOKS: no fallback counts, no negative controls)\n");
#endif

    printf("%ld numbers checked, %ld failures (differences from snprintf \"%%.17g\" or "
           "failed controls)\n", n_checked, n_failed);
    return n_failed ? 1 : 0;
}
