/* fmt_double.h -- fast text of a double, byte for byte what printf's "%.17g" writes.
 *
 * The per-event outputs (HepMC3 events, the observables CSV) print every double with
 * "%.17g", which reads back as the same double; their bytes are compared across backends and
 * versions, so a faster formatter must write exactly the same text.  gaps_fmt_g17 does, for
 * every double (see fmt_double.c for the argument, tests/test_fmt_double.c for the check),
 * about 8 times faster than glibc's snprintf for the numbers the outputs hold (|v| from about
 * 1.5e-39 to 1.8e47, and 0; other numbers, infinities and NaNs go to snprintf itself).
 *
 * Writes the decimal point '.' whatever the locale; the rare fallback to snprintf follows the
 * thread's locale, which the library's writers set to C around their work (io/c_locale.h).
 * Assumes the default rounding mode (round to nearest), under which glibc rounds exact ties
 * to even. */
#ifndef GAPS_FMT_DOUBLE_H
#define GAPS_FMT_DOUBLE_H

/* Room that one call may need, terminating NUL included ("-2.2250738585072014e-308" is the
 * longest text: 24 characters and the NUL). */
#define GAPS_FMT_G17_SIZE 32

/* Defined where the fast path exists (it needs unsigned __int128: GCC and clang on 64-bit
 * targets); elsewhere gaps_fmt_g17 calls snprintf, same text, no gain. */
#ifdef __SIZEOF_INT128__
#define GAPS_FMT_G17_FAST 1
#endif

/* Write the text of v as snprintf(out, GAPS_FMT_G17_SIZE, "%.17g", v) does, followed by a
 * NUL, and return a pointer to that NUL (out + strlen(out)), so that calls chain like
 * "s += sprintf(s, ...)".  Nothing is written beyond that NUL, but out must have room for
 * GAPS_FMT_G17_SIZE bytes.  Thread-safe (no state, no allocation); host code only. */
char *gaps_fmt_g17(char *out, double v);

#endif
