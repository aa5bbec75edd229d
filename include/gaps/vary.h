/* gaps/vary.h -- uncertainty bands in one run (--vary, doc/physics.md section 17): event
 * weights of the shower's renormalisation-scale variations, computed on the fly by the veto
 * algorithm (Mrenna and Skands, arXiv:1605.08352; Bellm et al., arXiv:1605.08256), and of the
 * hard process's renormalisation and factorisation scales (--vary scales, the 7-point
 * envelope), computed by the process when it makes the event.
 *
 * A variation replaces the argument of the shower's alpha_s, mu_R^2 = t (the emission's k_T^2,
 * times --shower-mur-factor squared), by k^2 mu_R^2 in the final-state emissions (emitter in
 * the final state: FF and FI dipoles), in the initial-state ones (emitter incoming: IF, II) or
 * in both.  Each trial of the veto algorithm multiplies the variation's weight by P'/P when it
 * is accepted and by (O - P')/(O - P) when it is rejected (P the density, O its overestimate,
 * P' the density with the varied coupling; veto.c, vary_trial()).  Nothing here exists in a
 * run without --vary: the pool has no weight arrays and the veto takes no branch of it.
 *
 * The names are those of the HepMC3 / Rivet weight convention for shower variations
 * ("NAME=VALUE", Pythia 8's "fsr:muRfac=0.5" written as the upper-case keys of the LHEF
 * scale weights): MUR_FSR=0.5, MUR_FSR=2, MUR_ISR=0.5, MUR_ISR=2, MUR_PS=0.5, MUR_PS=2, the
 * value being k (the factor of mu_R, not of mu_R^2).  e+ e- runs have no initial-state
 * shower: only the MUR_FSR pair (FSR and PS are the same there).
 *
 * --vary scales multiplies the hard process's mu_R and mu_F by kR and kF, each in {1/2, 1, 2}
 * and never a factor 4 apart: the six points of the 7-point envelope other than the nominal
 * one, (kR, kF) = (1/2, 1/2), (1/2, 1), (1, 1/2), (1, 2), (2, 1), (2, 2), named
 * MUR=0.5_MUF=0.5, ... as the LHEF scale weights are.  The shower is not varied with them: its
 * scales are --vary shower's.  e+ e- collisions have no mu_F: MUR=0.5 and MUR=2 alone (weights
 * equal to the nominal one at leading order, whose Born has no alpha_s).
 *
 * --vary alphas moves alpha_s(M_Z^2) by -+ GAPS_VARY_ALPHAS_DELTA in every coupling of the
 * event: the shower's (by the same trial reweighting) and the hard process's (its alpha_s^n
 * and its NLO terms), named ALPHAS_MZ=0.117 and ALPHAS_MZ=0.119 for the default 0.118.  The
 * parton densities stay the run's: a PDF fitted with the other alpha_s would come with
 * --vary pdf.
 */
#ifndef GAPS_VARY_H
#define GAPS_VARY_H

#include <stddef.h>
#include "gaps/decl.h"

GAPS_C_BEGIN

/* What --vary names (bits of gaps_config.vary).  `shower`, `scales` and `alphas` exist; `pdf`
 * is refused as "not yet" (gaps_vary_parse). */
enum gaps_vary_bit { GAPS_VARY_SHOWER = 1, GAPS_VARY_SCALES = 2, GAPS_VARY_ALPHAS = 4 };
/* Every bit a program of this version knows (a state with others is refused) */
#define GAPS_VARY_KNOWN (GAPS_VARY_SHOWER | GAPS_VARY_SCALES | GAPS_VARY_ALPHAS)

/* The most variation weights a run carries (shower: six; scales: six; alphas: two) and the
 * most of them that the hard process weights (scales and alphas). */
#define GAPS_VARY_MAX 14
#define GAPS_VARY_HARD_MAX 8
/* --vary alphas: alpha_s(M_Z^2) of the run (--alphas-mz) minus and plus this, in the shower
 * and the hard process alike (the spacing of the alpha_s series of the common PDF sets) */
#define GAPS_VARY_ALPHAS_DELTA 0.001
/* The factors k of mu_R of --vary shower. */
#define GAPS_VARY_MUR_DOWN 0.5
#define GAPS_VARY_MUR_UP 2.0
/* The range of --shower-mur-factor (the nominal shower's k): the conventional band and a
 * factor 2 beyond each end, where alpha_s at k^2 t_C is still defined for the default cutoff */
#define GAPS_SHOWER_MUR_FACTOR_MIN 0.25
#define GAPS_SHOWER_MUR_FACTOR_MAX 4.0
/* The factor of the shower's overestimates in a run with --vary weights: a trial's acceptance
 * r = P/O stays below 1/GAPS_VARY_HEADROOM, so a rejected trial multiplies a variation whose
 * coupling is smaller (a' < a) by at most 1/(1 - 1/GAPS_VARY_HEADROOM) = 3.  With a tight
 * overestimate r approaches 1 and (1 - r a'/a)/(1 - r) grows without bound: heavy-tailed band
 * weights, whose histograms failed the comparison with independent runs (doc/physics.md
 * 17.3) */
#define GAPS_VARY_HEADROOM 1.5
/* An event whose variation weight is more than this many times its nominal weight (either
 * sign) is counted (gaps_run.vary_large_events): a diagnostic of the weights' spread, not a
 * cap (a cap would bias the band) */
#define GAPS_VARY_LARGE_RATIO 10.0
/* Room for a weight name, NUL included ("MUR_FSR=0.5", with %g of any factor) */
#define GAPS_VARY_NAME_MAX 32

/* Per-slot flags of the variations (gaps_pool.vary_flags), counted by the analysis. */
enum gaps_vary_flag {
    /* a rejected trial whose varied density exceeded the overestimate (P' > O): its factor
     * (O - P')/(O - P) was negative.  The overestimate is made large enough for every
     * variation (doc/physics.md 17.3), so this counts what that bound missed */
    GAPS_VARY_FLAG_OVER = 1,
    /* some variation weight beyond GAPS_VARY_LARGE_RATIO times the nominal one */
    GAPS_VARY_FLAG_LARGE = 2
};

/* One variation: its name, the factors k of mu_R of the shower's final- and initial-state
 * emissions, the factors of the hard process's mu_R and mu_F (1: not varied), and the
 * alpha_s(M_Z^2) of both (0: the run's). */
typedef struct gaps_variation {
    char name[GAPS_VARY_NAME_MAX];
    double mur_fsr, mur_isr;
    double mur, muf;
    double alphas_mz;
} gaps_variation;

/* Parse a --vary value: names separated by single commas.  0 with the bits in *bits, or -1
 * with one line in msg (a name of issue 31 not implemented yet: "not yet"). */
int gaps_vary_parse(const char *text, int *bits, char *msg, size_t len);

/* The variations of `bits` for a process with (hadronic = 1) or without initial-state
 * shower and a run of alpha_s(M_Z^2) = alphas_mz, in their order (the order of every
 * output: shower, scales, alphas); returns their number. */
int gaps_vary_list(int bits, int hadronic, double alphas_mz, gaps_variation out[GAPS_VARY_MAX]);

GAPS_C_END

#endif
