/* parse_decimal.h -- a decimal number of a text file as the nearest double, fast.
 *
 * The readers of event files spend most of their time turning text into doubles: a Les
 * Houches event of four particles holds some sixty numbers, written with up to 17 significant
 * digits so that they come back exactly.  strtod gets every one right but takes the slow,
 * arbitrary-precision route for such numbers.  gaps_parse_decimal gives strtod's result, bit
 * for bit, and takes a short exact route for nearly all of them (parse_decimal.c says why it
 * is exact); what it cannot decide that way it hands to strtod.
 */
#ifndef GAPS_IO_PARSE_DECIMAL_H
#define GAPS_IO_PARSE_DECIMAL_H

#include <stddef.h>

/* s[0, n) (no terminating NUL needed) as [+-] digits [. digits] [(e|E|d|D) [+-] digits],
 * with at least one digit in the mantissa (Fortran's D exponent too), at most 71 characters;
 * no inf, nan, hexadecimal or white space.  0 and the nearest double (ties to even, as strtod in the C
 * locale) in *out; -1 not such a number; -2 beyond the range of double (not finite). */
int gaps_parse_decimal(const char *s, size_t n, double *out);

#ifdef GAPS_PARSE_DECIMAL_TEST_HOOKS
/* For tests/test_parse_decimal.c: 1 if s[0, n) is decided by the short route, 0 if by strtod,
 * -1 if it is no number. */
int gaps_parse_decimal_route(const char *s, size_t n);
#endif

#endif
