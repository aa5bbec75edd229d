/* process/processes.h -- the per-process functions behind the dispatch of process.c: each
 * process file in src/process/ defines its own here. */
#ifndef GAPS_PROCESS_PROCESSES_H
#define GAPS_PROCESS_PROCESSES_H

#include "gaps/process.h"

GAPS_DEVICE_BEGIN
/* e+ e- -> Z/gamma* -> q qbar (ee_qq.c): the quark and antiquark back to back. */
void gaps_ee_qq_generate(const gaps_me *me, gaps_rng *rng, gaps_hard_event *ev);
GAPS_DEVICE_END

#endif
