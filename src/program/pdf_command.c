/* pdf_command.c -- `gaps pdf`: print x f(x, Q^2) of every parton of a PDF set at one point
 * (pdf_command.h). */
#define _POSIX_C_SOURCE 200809L
#include "pdf_command.h"
#include "gaps/generator.h"
#include "gaps/parameters.h"
#include "gaps/pdf.h"
#include "gaps/process.h"
#include "program/commands.h"
#include "program/one_line.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: gaps pdf [--pdf NAME[/MEMBER]] [--pdf-path DIR] X Q\n"
    "Print x f(x, Q^2) of every parton of a PDF set, one line \"PID VALUE\" per parton.\n"
    "  X                   momentum fraction, 0 < X <= 1\n"
    "  Q                   scale in GeV, Q > 0\n"
    "  --pdf NAME[/MEMBER] LHAPDF6 set and member (default " GAPS_PDF_DEFAULT_SET "/0)\n"
    "  --pdf-path DIR      look for the set in DIR first, then in $LHAPDF_DATA_PATH and the\n"
    "                      sets installed with gaps\n";

/* A finite decimal number: [+-] digits [. digits] (or [+-] . digits), then [eE [+-] digits];
 * no hexadecimal, inf, nan or spaces.  gaps never calls setlocale, so strtod reads '.'. */
static int parse_number(const char *s, double *out)
{
    const char *p = s;
    int digits = 0;
    if (*p == '+' || *p == '-') ++p;
    while (*p >= '0' && *p <= '9') ++p, ++digits;
    if (*p == '.') {
        ++p;
        while (*p >= '0' && *p <= '9') ++p, ++digits;
    }
    if (digits == 0) return -1;
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '+' || *p == '-') ++p;
        if (!(*p >= '0' && *p <= '9')) return -1;
        while (*p >= '0' && *p <= '9') ++p;
    }
    if (*p != '\0') return -1;
    char *end;
    const double v = strtod(s, &end);
    if (*end != '\0' || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* The value of option `name` at argv[*i]: "--name=VALUE" or "--name VALUE".  1 if argv[*i] is
 * this option (then *value is set, or NULL if the value is missing), else 0. */
static int option_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    const size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0) return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0') return 0;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return 1;
}

static int print_partons(const gaps_pdf *pdf, double x, double q2)
{
    /* every value first: a set whose numbers overflow where it is asked (a power law below
     * x_min through a tiny and a large value) gets an error, never "inf" with status 0 */
    for (int k = 0; k < pdf->nfl; ++k) {
        const double v = gaps_pdf_xfxq2(pdf, pdf->pid[k], x, q2);
        if (!isfinite(v)) {
            fprintf(stderr, "gaps: pdf: x f of flavour %d at x = %.17g, Q = %.17g GeV is not "
                            "finite (%s) in %s: the set's values overflow there\n",
                    pdf->pid[k], x, sqrt(q2), v != v ? "nan" : "inf", pdf->file);
            return EXIT_USAGE;
        }
    }
    /* numbers in the C locale whatever the environment (this thread only) */
    locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t previous = c_locale ? uselocale(c_locale) : (locale_t)0;
    for (int k = 0; k < pdf->nfl; ++k)
        printf("%d %.17g\n", pdf->pid[k], gaps_pdf_xfxq2(pdf, pdf->pid[k], x, q2));
    if (c_locale) {
        uselocale(previous);
        freelocale(c_locale);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gaps: pdf: writing to standard output failed: %s\n", strerror(errno));
        return EXIT_RUN_FAILED;
    }
    return 0;
}

static int refuse(const char *what, const char *text)
{
    char shown[128];
    snprintf(shown, sizeof shown, "%s", text);
    gaps_one_line(shown);
    fprintf(stderr, "gaps: pdf: %s '%s' (see 'gaps pdf --help')\n", what, shown);
    return EXIT_USAGE;
}

int gaps_pdf_command(int argc, char **argv)
{
    const char *set = GAPS_PDF_DEFAULT_SET, *user_dir = NULL;
    const char *positional[2];
    int npos = 0, options_done = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *value;
        double ignored;
        if (!options_done && a[0] == '-' && a[1] != '\0' && parse_number(a, &ignored) != 0) {
            if (strcmp(a, "--") == 0) {
                options_done = 1;
            } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
                fputs(usage, stdout);
                return fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_RUN_FAILED;
            } else if (option_value(argc, argv, &i, "--pdf-path", &value)) {
                if (!value) return refuse("missing value for", "--pdf-path");
                /* the run's limit (gaps/pdf.h): what one command takes, the other does */
                if (strlen(value) >= GAPS_PDF_USER_DIRS_MAX) {
                    fprintf(stderr, "gaps: pdf: --pdf-path is longer than %d bytes\n",
                            GAPS_PDF_USER_DIRS_MAX - 1);
                    return EXIT_USAGE;
                }
                user_dir = value;
            } else if (option_value(argc, argv, &i, "--pdf", &value)) {
                if (!value) return refuse("missing value for", "--pdf");
                set = value;
            } else {
                return refuse("unknown option", a);
            }
            continue;
        }
        if (npos == 2) return refuse("unexpected argument", a);
        positional[npos++] = a;
    }
    if (npos < 2) {
        fprintf(stderr, "gaps: pdf: X and Q are required (see 'gaps pdf --help')\n");
        return EXIT_USAGE;
    }
    double x, q;
    if (parse_number(positional[0], &x) != 0)
        return refuse("X is not a finite decimal number:", positional[0]);
    if (parse_number(positional[1], &q) != 0)
        return refuse("Q is not a finite decimal number:", positional[1]);
    if (!(x > 0.0 && x <= 1.0)) return refuse("X must be in (0, 1], got", positional[0]);
    if (!(q > 0.0)) return refuse("Q must be positive (GeV), got", positional[1]);

    char err[1024];
    if (gaps_pdf_check_user_dirs(user_dir, err, sizeof err) != 0) {
        fprintf(stderr, "gaps: pdf: %s\n", err);
        return EXIT_USAGE;
    }
    /* the one limit of the search path, shared with runs (gaps/pdf.h) */
    char *path = malloc(GAPS_PDF_SEARCH_PATH_MAX);
    if (!path) {
        fprintf(stderr, "gaps: pdf: out of memory for the PDF search path\n");
        return EXIT_RUN_FAILED;
    }
    if (gaps_pdf_search_path(user_dir, path, GAPS_PDF_SEARCH_PATH_MAX) != 0) {
        free(path);
        fprintf(stderr, "gaps: pdf: the PDF search path (--pdf-path and LHAPDF_DATA_PATH) is "
                        "longer than %d bytes\n", GAPS_PDF_SEARCH_PATH_MAX - 1);
        return EXIT_USAGE;
    }
    static gaps_pdf pdf;   /* static: it holds a path of 4 KB */
    const int loaded = gaps_pdf_load(&pdf, set, path, err, sizeof err);
    free(path);
    if (loaded != 0) {
        fprintf(stderr, "gaps: pdf: %s\n", err);
        return EXIT_USAGE;
    }
    const int rc = print_partons(&pdf, x, q * q);
    gaps_pdf_free(&pdf);
    return rc;
}
