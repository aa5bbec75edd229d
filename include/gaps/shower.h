/* gaps/shower.h -- the parallelised veto algorithm of the final-state dipole shower
 * (physics.md section 3; Seymour and Sule, "An Algorithm to Parallelise Parton Showers on a
 * GPU").
 *
 * Each step of the veto algorithm is a function of one slot, and a loop of that function over
 * every slot of the pool.  One veto cycle is
 *     gaps_shower_trial_step   trial scale from the summed overestimate, winning dipole+kernel
 *     gaps_shower_cutoff_step  end the shower if the trial fell below the cutoff
 *     gaps_shower_veto_step    trial z and y, accept with the ratio true/overestimated density
 *     gaps_shower_split_step   kinematics and colours of an accepted emission
 * all slots moving in lock step; a finished slot waits for the analysis and a refill.
 * gaps_shower_fused_step runs the same four functions for each slot in one loop, for `cycles`
 * cycles per launch: the fast variant; the step-per-loop form is the paper's structure.
 */
#ifndef GAPS_SHOWER_H
#define GAPS_SHOWER_H

#include "gaps/event_pool.h"

GAPS_DEVICE_BEGIN
/* Put the q qbar pair of event number `event` into slot e and prepare its shower. */
void gaps_shower_start(const gaps_pool *pool, const gaps_physics *phys, int e, int64_t event);

void gaps_shower_trial(const gaps_pool *pool, const gaps_physics *phys, int e);
void gaps_shower_cutoff(const gaps_pool *pool, const gaps_physics *phys, int e);
void gaps_shower_veto(const gaps_pool *pool, const gaps_physics *phys, int e);
void gaps_shower_split(const gaps_pool *pool, const gaps_physics *phys, int e);
GAPS_DEVICE_END

/* Loops over the nslots slots of a pool.  pool and phys point to copies where the loops run
 * (device memory in the offload build). */
void gaps_shower_trial_step(const gaps_pool *pool, const gaps_physics *phys, int nslots);
void gaps_shower_cutoff_step(const gaps_pool *pool, const gaps_physics *phys, int nslots);
void gaps_shower_veto_step(const gaps_pool *pool, const gaps_physics *phys, int nslots);
void gaps_shower_split_step(const gaps_pool *pool, const gaps_physics *phys, int nslots);
void gaps_shower_fused_step(const gaps_pool *pool, const gaps_physics *phys, int nslots,
                            int cycles);

/* Refill: every empty slot takes the next event number (if any is left) and starts it. */
void gaps_shower_refill_step(const gaps_pool *pool, const gaps_physics *phys, int nslots);
/* The same for the first n slots of the done list only (they were just analysed). */
void gaps_shower_refill_done_step(const gaps_pool *pool, const gaps_physics *phys, int n);

#endif
