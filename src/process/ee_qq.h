/* process/ee_qq.h -- e+ e- -> Z/gamma* -> q qbar (ee_qq.c, ee_qq_nlo.c): what
 * gaps_process.data holds for it and the functions of its events. */
#ifndef GAPS_PROCESS_EE_QQ_H
#define GAPS_PROCESS_EE_QQ_H

#include "process/ee_nlo.h"
#include "gaps/matrix_element.h"
#include "process/process_impl.h"

/* The LO matrix element and, with --nlo 1 (nlo.on), the NLO constants (all 0 at LO). */
typedef struct gaps_ee_qq_data {
    gaps_me lo;
    gaps_ee_nlo nlo;
} gaps_ee_qq_data;

GAPS_DEVICE_BEGIN
/* e+ e- -> Z/gamma* -> q qbar (ee_qq.c): the quark and antiquark back to back. */
void gaps_ee_qq_generate(const gaps_me *me, gaps_rng *rng, gaps_hard_event *ev);
/* The record of the leading-order point pt (ee_qq.c): what gaps_ee_qq_generate() hands on. */
void gaps_ee_qq_born_record(const gaps_me *me, const gaps_me_point *pt, gaps_hard_event *ev);
/* e+ e- -> q qbar at NLO (ee_qq_nlo.c; doc/nlo.md): an S event (the Born pair) or an H event
 * (q qbar g), signed weight. */
void gaps_ee_qq_nlo_generate(const gaps_me *me, const gaps_ee_nlo *nlo, gaps_rng *rng,
                             gaps_hard_event *ev);
GAPS_DEVICE_END

#endif
