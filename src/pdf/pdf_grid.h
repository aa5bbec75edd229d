/* pdf_grid.h -- a PDF member's grid as its file gives it, between the LHAPDF reader
 * (lhapdf_reader.c), which fills and checks it, and the interpolation (pdf.c), which turns it
 * into the tables of a gaps_pdf.  Private to src/pdf/.
 */
#ifndef GAPS_PDF_GRID_H
#define GAPS_PDF_GRID_H

#include <stddef.h>
#include "gaps/pdf.h"

/* The knots and values of one member, all subgrids together.  The reader guarantees: nx >= 2;
 * every subgrid has >= 2 Q knots, strictly increasing, and starts at the last Q knot of the
 * one before; x knots strictly increasing in (0, 1]; all values finite. */
typedef struct gaps_pdf_grid {
    int nx, nq, nfl, nsub;
    int sub_first[GAPS_PDF_MAX_SUBGRIDS + 1];   /* as in gaps_pdf */
    double *x;    /* [nx] */
    double *q;    /* [nq], GeV (the file gives Q, not Q^2) */
    int pid[GAPS_PDF_MAX_FLAVOURS];
    double *xf;   /* x f at Q knot iq, x knot ix, column k: [((size_t)iq * nx + ix) * nfl + k] */
} gaps_pdf_grid;

/* Fill the grid part of pdf (knot logarithms, Hermite tables, flavour columns, limits) from
 * grid.  What the reader cannot see is checked here: two knots whose logarithms round to the
 * same double, slopes that overflow.  Returns 0, or -1 with "<what>: <reason>" in err (what
 * names the file); on failure nothing is left allocated in pdf. */
int gaps_pdf_build_tables(gaps_pdf *pdf, const gaps_pdf_grid *grid, const char *what,
                          char *err, size_t errlen);

/* printf into err, made one line: control characters (a newline in a file name) become '?'. */
void gaps_pdf_error(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
