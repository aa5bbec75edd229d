/* gaps/shower.h -- the parallelised veto algorithm of the final-state dipole shower
 * (doc/physics.md sections 3 and 6; Seymour and Sule, "An Algorithm to Parallelise Parton
 * Showers on a GPU").
 *
 * Words used with one meaning each:
 *   veto step   one of the four stages below, a function of one slot;
 *   veto cycle  the four steps in order, for one slot (gaps_veto_cycle);
 *   splitting round  a veto cycle in which accepted trials are split; in a fused launch
 *               every M-th cycle (--split-every M), so that the accepted trials of a GPU
 *               warp's lanes are split side by side;
 *   launch      one data-parallel loop over the slots of a pool: a GPU kernel, or a plain
 *               loop on a CPU thread.
 * The four veto steps and the paper's CUDA kernels they correspond to:
 *   gaps_veto_select_winner     trial scale from the summed overestimate and the (dipole,
 *                               kernel) that wins it             (select_winner_split_func)
 *   gaps_veto_check_cutoff      end the shower below the cutoff  (check_cutoff)
 *   gaps_veto_accept_or_reject  trial z and y, accept with the ratio of true to overestimated
 *                               density, alpha_s included        (as_shower_kernel, veto_alg)
 *   gaps_veto_do_splitting      kinematics and colours of an accepted emission (do_splitting)
 * All slots move in lock step; a finished slot waits for the analysis and a refill.
 * gaps_shower_launch_step runs one step over all slots (the paper's structure: four launches
 * per cycle); gaps_shower_launch_trial and gaps_shower_launch_splitting run a cycle in two
 * launches (steps 1 to 3, then step 4: the GPU's way for hadron collisions);
 * gaps_shower_launch_cycles runs K whole cycles per slot in one launch (fewest launches; the
 * GPU's way for e+e-).
 */
#ifndef GAPS_SHOWER_H
#define GAPS_SHOWER_H

#include "gaps/event_pool.h"
#include "gaps/decl.h"

GAPS_C_BEGIN

/* The veto steps of one cycle, in the order they run. */
enum gaps_veto_step {
    GAPS_STEP_SELECT_WINNER = 0,
    GAPS_STEP_CHECK_CUTOFF,
    GAPS_STEP_ACCEPT_OR_REJECT,
    GAPS_STEP_DO_SPLITTING,
    GAPS_N_VETO_STEPS
};

GAPS_DEVICE_BEGIN
/* Put the q qbar pair of event number `event` into slot e and prepare its shower. */
void gaps_shower_start(gaps_pool *pool, const gaps_physics *phys, int e, int64_t event);

void gaps_veto_select_winner(gaps_pool *pool, const gaps_physics *phys, int e);
void gaps_veto_check_cutoff(gaps_pool *pool, const gaps_physics *phys, int e);
void gaps_veto_accept_or_reject(gaps_pool *pool, const gaps_physics *phys, int e);
void gaps_veto_do_splitting(gaps_pool *pool, const gaps_physics *phys, int e);
/* One step of slot e, by number. */
void gaps_veto_step(gaps_pool *pool, const gaps_physics *phys, int e, enum gaps_veto_step step);
/* One whole veto cycle of slot e (nothing happens to a slot that is not showering).  Outside
 * a splitting round (splitting_round 0) an accepted trial waits for the next round instead of
 * being split at once, and the slot sits out the cycles until then; the events are the same
 * either way. */
void gaps_veto_cycle(gaps_pool *pool, const gaps_physics *phys, int e, int splitting_round);
GAPS_DEVICE_END

/* Launches over the nslots slots of a pool.  pool and phys point to copies where the loops
 * run (device memory in the offload build).
 * gaps_shower_gather puts the showering slots of the pool on its showering list and returns
 * their number (pool_host: the host's copy of the pool struct, whose arrays and counters are
 * those of pool); gaps_shower_launch_step runs one step over the first n entries of that
 * list.  It must be called for the steps of a cycle in their order: the launch of
 * GAPS_STEP_ACCEPT_OR_REJECT gathers the slots that the launch of GAPS_STEP_DO_SPLITTING then
 * splits (the splitting list, veto.c). */
int gaps_shower_gather(gaps_pool *pool_host, gaps_pool *pool, int nslots);
/* lanes: on a GPU, the lanes of a warp that share one event in the splitting step, computing
 * its dipole rates side by side (a power of two up to 32, or it is taken down to one;
 * gaps_runtime_event_lanes()); the events do not depend on it, and a CPU ignores it. */
void gaps_shower_launch_step(gaps_pool *pool, const gaps_physics *phys, int n,
                             enum gaps_veto_step step, int lanes);
/* The same cycle in two launches (--loops trials): the trial, steps 1 to 3 for the first n
 * entries of the showering list, then the splitting, step 4 for the slots the trial put on
 * the splitting list.  The trial of each cycle takes a parity, 0 or 1, the other one than the
 * cycle before (any order that alternates), and its splitting the same parity: the trial
 * fills that parity's counters of the splitting list and clears the other's (veto.c).  A
 * pool's steps of one mode only: the step launches use parity 0 throughout. */
void gaps_shower_launch_trial(gaps_pool *pool, const gaps_physics *phys, int n, int parity);
void gaps_shower_launch_splitting(gaps_pool *pool, const gaps_physics *phys, int n, int lanes,
                                  int parity);
/* Which code a launch's kernel holds, a run-uniform choice (config_launch(), generator.c): the
 * general one (hadron beams, --ablate, hard events from a file), or one for e+e- alone
 * without the hadronic code, with or without that of --vary and --shower-mur-factor (so that
 * plain LEP runs hold none of it, and LEP runs with it none of the hadronic code). */
enum gaps_launch { GAPS_LAUNCH_GENERAL, GAPS_LAUNCH_EE, GAPS_LAUNCH_EE_VARY };

/* cycles veto cycles per slot; every split_every-th of them, and the last, is a splitting
 * round (split_every 1: every cycle, the plain veto algorithm).  launch: enum gaps_launch. */
void gaps_shower_launch_cycles(gaps_pool *pool, const gaps_physics *phys, int nslots,
                               int cycles, int split_every, int launch);
/* The same for the first n slots of the showering list, `lanes` lanes to an event as in
 * gaps_shower_launch_step (the end of a run of the step loops, where a few long events are
 * left: one launch instead of one per step and cycle). */
void gaps_shower_launch_cycles_listed(gaps_pool *pool, const gaps_physics *phys, int n,
                                      int cycles, int split_every, int lanes);

/* Refill: every empty slot takes the next event number (if one below phys->end_event is left)
 * and starts it.  launch as in gaps_shower_launch_cycles (the refill of an e+e- run gets a
 * kernel without the hadronic matrix elements); from_file: the process takes its hard events
 * from a batch (gaps/hard_batch.h; a kernel of its own, so that the built-in processes' refill
 * holds no code for it). */
void gaps_shower_launch_refill(gaps_pool *pool, const gaps_physics *phys, int nslots,
                               int launch, int from_file);

GAPS_C_END

#endif
