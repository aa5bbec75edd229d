/* gaps/compat.h -- compatibility switches: reproduce another program's choices where they
 * depart from the textbook, so that its histograms can be compared bin by bin.
 *
 * The default (GAPS_COMPAT_NONE) is the physics of doc/physics.md.  The switch is
 * run-uniform: device code tests it in a branch that every event of a run takes the same
 * way.  What each value changes is listed in doc/physics.md, section "Compatibility".
 */
#ifndef GAPS_COMPAT_H
#define GAPS_COMPAT_H

enum gaps_compat {
    GAPS_COMPAT_NONE = 0,    /* --compat none (default): textbook physics */
    GAPS_COMPAT_GAPS21 = 1,  /* --compat gaps21: GAPS 2.1 (arXiv:2511.19633) as it is coded */
    GAPS_N_COMPAT
};

#endif
