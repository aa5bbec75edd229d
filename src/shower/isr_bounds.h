/* shower/isr_bounds.h -- host set-up of the initial-state shower (isr_bounds.c). */
#ifndef GAPS_SHOWER_ISR_BOUNDS_H
#define GAPS_SHOWER_ISR_BOUNDS_H

#include <stddef.h>
#include "gaps/event_pool.h"
#include "gaps/pdf.h"

/* Fill isr for a run with parton distributions pdf (a host copy), coupling as, --compat
 * `compat`, shower cutoff t_cut and largest shower scale t_max: thresholds, masses, the
 * running overestimate of the coupling and the table of PDF-ratio bounds, allocated on the
 * host (*table, also isr->bound; the caller frees it, or replaces isr->bound by a device copy
 * of gaps_isr_table_bytes()).  Returns 0, or -1 when out of memory. */
int gaps_isr_init(gaps_isr *isr, const gaps_pdf *pdf, const gaps_alphas *as, int compat,
                  double t_cut, double t_max, double **table);
/* The same for a shower whose coupling is bounded at argument factor mu2: alpha_s(max(k^2 t,
 * t_cut)) for every factor k^2 >= mu2 it evaluates (--shower-mur-factor, --vary;
 * gaps_isr_init: 1), the coupling's overestimates times headroom (--vary: GAPS_VARY_HEADROOM;
 * gaps_isr_init: 1). */
int gaps_isr_init_scaled(gaps_isr *isr, const gaps_pdf *pdf, const gaps_alphas *as, double mu2,
                         double headroom, int compat, double t_cut, double t_max,
                         double **table);
size_t gaps_isr_table_bytes(const gaps_isr *isr);

#endif
