/* tests/pdf_set.h -- what the C tests of hadron collisions share: the default PDF set
 * (GAPS_DEFAULT_PDF), loaded from the directory given as the program's first argument, or
 * else from LHAPDF_DATA_PATH and the build's paths.  Include it after check.h. */
#ifndef GAPS_TESTS_PDF_SET_H
#define GAPS_TESTS_PDF_SET_H

#include "gaps/constants.h"
#include "gaps/pdf.h"

/* 0 and *pdf loaded, or -1 after printing why (a FAIL line). */
static int test_load_default_pdf(int argc, char **argv, gaps_pdf *pdf)
{
    char err[512];
    static char path[GAPS_PDF_SEARCH_PATH_MAX];
    if (argc > 1) snprintf(path, sizeof path, "%s", argv[1]);
    else if (gaps_pdf_search_path(NULL, path, sizeof path) != 0) {
        printf("FAIL: PDF search path too long\n");
        return -1;
    }
    if (gaps_pdf_load(pdf, GAPS_DEFAULT_PDF, path, err, sizeof err) != 0) {
        printf("FAIL: %s\n", err);
        return -1;
    }
    return 0;
}

#endif
