/* pdf_command.h -- `gaps pdf`: the parton distributions of a PDF set at one point (x, Q).
 *
 *   gaps pdf [--pdf NAME[/MEMBER]] [--pdf-path DIR] X Q
 *
 * prints one line "PID XF" per parton of the set, in the order of the set's Flavors list,
 * XF = x f(x, Q^2) as gaps_pdf_xfxq2() returns it, written with "%.17g" (the exact double)
 * in the C locale.  Default set: CT14lo, member 0.  X in (0, 1], Q > 0 in GeV, decimal
 * numbers; --name=VALUE works too, and "--" ends the options.
 */
#ifndef GAPS_PDF_COMMAND_H
#define GAPS_PDF_COMMAND_H

#include <stddef.h>
#include "gaps/pdf.h"

/* The set `gaps pdf` and the generator use when none is named. */
#define GAPS_PDF_DEFAULT_SET "CT14lo"

/* Run `gaps pdf`; argv[0] is "pdf".  Returns the exit status: 0; 2 for bad input (a message
 * "gaps: ..." on standard error: an unknown option, a bad number, X or Q out of range, a set
 * that is missing or does not load); 1 if standard output cannot be written. */
int gaps_pdf_command(int argc, char **argv);

/* The search path for PDF sets: gaps_pdf_search_path() in gaps/pdf.h (src/pdf/search_path.c). */

/* Whether a run's PDF set is there and loads, before anything is written:
 * gaps_config_check_pdf() in gaps/generator.h. */

#endif
