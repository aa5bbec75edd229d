/* pdf_eval.c -- evaluate a PDF set at points read from standard input, for the comparisons
 * of tests/test_pdf_parton.py.
 *
 *   pdf_eval PDFSETS_DIR [NAME[/MEMBER]]   (default CT14lo)
 *
 * Each input line "PID X Q" (Q in GeV) gives one output line: x f(x, Q^2) from
 * gaps_pdf_xfxq2(pdf, PID, X, Q*Q) written with "%.17g"; a line "all X Q" gives the 13 values
 * of gaps_pdf_xfxq2_all() (pid -6..6, the gluon in the middle) on one line.  Exit status 0, or
 * 1 if the set does not load, 2 for a malformed input line.
 */
#include "gaps/pdf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: pdf_eval PDFSETS_DIR [NAME[/MEMBER]] < points\n");
        return 2;
    }
    gaps_pdf pdf;
    char err[1024];
    if (gaps_pdf_load(&pdf, argc > 2 ? argv[2] : "CT14lo", argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "pdf_eval: %s\n", err);
        return 1;
    }
    char line[256], what[16];
    long n = 0;
    while (fgets(line, sizeof line, stdin)) {
        double x, q;
        ++n;
        if (sscanf(line, "%15s %lf %lf", what, &x, &q) != 3) {
            fprintf(stderr, "pdf_eval: line %ld: expected 'PID X Q' or 'all X Q'\n", n);
            gaps_pdf_free(&pdf);
            return 2;
        }
        if (strcmp(what, "all") == 0) {
            double xf[GAPS_PDF_NPARTONS];
            gaps_pdf_xfxq2_all(&pdf, x, q * q, xf);
            for (int i = 0; i < GAPS_PDF_NPARTONS; ++i)
                printf(i ? " %.17g" : "%.17g", xf[i]);
            printf("\n");
        } else {
            printf("%.17g\n", gaps_pdf_xfxq2(&pdf, atoi(what), x, q * q));
        }
    }
    gaps_pdf_free(&pdf);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
