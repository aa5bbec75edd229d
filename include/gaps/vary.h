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
 *
 * --vary pdf gives a weight to every member of the run's PDF set other than its central
 * member 0 (NumMembers - 1 of them: a set's Hessian eigenvector pairs or its replicas): the
 * hard process's weight with the member's densities over its nominal one (the Born's
 * luminosity at LO; at NLO the S, H or M contribution made again with them), and the
 * initial-state shower's density ratios by the same trial reweighting as the couplings (an
 * accepted trial by X'/X, a rejected one by (1 - r X'/X)/(1 - r), X the ratio
 * xf_new(eta/x)/xf_old(eta) of the trial; veto.c, vary_trial()).  Named PDF=ID by the
 * member's LHAPDF ID (SetIndex + member) as Rivet reads it, PDF_MEMBER=M for a set without
 * a SetIndex.  How the members make a band depends on the set (ErrorType: hessian,
 * symmhessian, replicas; doc/physics.md 17.10), which the outputs say.
 */
#ifndef GAPS_VARY_H
#define GAPS_VARY_H

#include <stddef.h>
#include "gaps/decl.h"

GAPS_C_BEGIN

/* What --vary names (bits of gaps_config.vary). */
enum gaps_vary_bit {
    GAPS_VARY_SHOWER = 1, GAPS_VARY_SCALES = 2, GAPS_VARY_ALPHAS = 4, GAPS_VARY_PDF = 8 };
/* Every bit a program of this version knows (a state with others is refused) */
#define GAPS_VARY_KNOWN (GAPS_VARY_SHOWER | GAPS_VARY_SCALES | GAPS_VARY_ALPHAS | GAPS_VARY_PDF)

/* The most members other than the central one that --vary pdf takes (a set of NumMembers up
 * to 101: NNPDF's 100 replicas, the 64 eigenvector members of MSHT20, CT18's 58) */
#define GAPS_VARY_PDF_MAX 100
/* The most variation weights a run carries (shower: six; scales: six; alphas: two; pdf: up to
 * GAPS_VARY_PDF_MAX) and the most of them that the hard process weights (all but shower). */
#define GAPS_VARY_MAX (14 + GAPS_VARY_PDF_MAX)
#define GAPS_VARY_HARD_MAX (8 + GAPS_VARY_PDF_MAX)
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
 * 17.3).  The factor is on the nominal coupling: where a variation's coupling is larger
 * still, the overestimate takes that one (shower/vary_bounds.c) */
#define GAPS_VARY_HEADROOM 1.5
/* The veto of a reweighted trial in two stages (doc/physics.md 17.3; veto.c,
 * vary_second_stage()).  A trial whose ratio before the coupling, k (kernel, kinematics and
 * parton densities over their overestimates), is below 1/GAPS_VARY_PRESELECT passes a first
 * stage with probability GAPS_VARY_PRESELECT k and a second with the rest of its acceptance;
 * one rejected in the first stage takes the factor 1 for every coupling variation, which
 * leave that stage alone, and needs no coupling at all.  The nominal decision stays that of one
 * stage, with the same random number.  A larger value leaves fewer trials out; a smaller one
 * raises the variance that a trial of small k adds to the band, by at most
 * 1/(1 - 1/(GAPS_VARY_HEADROOM GAPS_VARY_PRESELECT)) = 1.2 at 4 */
#define GAPS_VARY_PRESELECT 4.0
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
 * emissions, the factors of the hard process's mu_R and mu_F (1: not varied), the
 * alpha_s(M_Z^2) of both (0: the run's), and the member of the run's PDF set that both take
 * (0: the central member, the run's own). */
typedef struct gaps_variation {
    char name[GAPS_VARY_NAME_MAX];
    double mur_fsr, mur_isr;
    double mur, muf;
    double alphas_mz;
    int pdf_member;
} gaps_variation;

/* How a set's members make its uncertainty (its ErrorType, LHAPDF's names): Hessian
 * eigenvector pairs (members 2k-1, 2k the two directions of eigenvector k) with asymmetric
 * errors, symmetric Hessian members (one per eigenvector), Monte Carlo replicas; or not
 * known (no band: the members' weights alone). */
enum gaps_pdf_errors {
    GAPS_PDF_ERRORS_UNKNOWN = 0,
    GAPS_PDF_ERRORS_HESSIAN = 1,
    GAPS_PDF_ERRORS_SYMMHESSIAN = 2,
    GAPS_PDF_ERRORS_REPLICAS = 3
};

/* What --vary pdf needs of the run's set: its NumMembers (members 1 .. members - 1 are
 * varied), its SetIndex (the LHAPDF ID of member 0; -1 where the set has none), its
 * ErrorType (errors, and alphas_members = 2 for a "+as" type, whose last two members vary
 * alpha_s and are left out of the PDF band) and ErrorConfLevel (percent; 0 where the set
 * does not say: 68.268949, one standard deviation, is taken). */
typedef struct gaps_vary_pdf_set {
    int members;
    long set_index;
    int errors, alphas_members;
    double conf_level;
} gaps_vary_pdf_set;

/* gaps_vary_pdf_set's errors and alphas_members of an ErrorType ("hessian", "symmhessian",
 * "replicas", each optionally followed by "+as"; anything else: GAPS_PDF_ERRORS_UNKNOWN). */
void gaps_vary_pdf_errors(const char *error_type, int *errors, int *alphas_members);
/* The ErrorType of errors and alphas_members, as a set writes it ("unknown" for none) */
const char *gaps_vary_pdf_errors_name(int errors, int alphas_members);

/* The PDF uncertainty of a result (a cross section, a bin) from its values x0 with the
 * central member and x[m - 1] with member m (m = 1 .. set->members - 1), by the set's
 * ErrorType, at one standard deviation (68.27 %) as LHAPDF reports it:
 *   hessian:     up^2 = sum_k max(x_{2k-1} - x0, x_{2k} - x0, 0)^2,
 *                down^2 = sum_k max(x0 - x_{2k-1}, x0 - x_{2k}, 0)^2;
 *   symmhessian: up^2 = down^2 = sum_m (x_m - x0)^2;
 * both divided by z(conf_level) / z(68.27 %), z the two-sided normal quantile, for a set
 * whose errors are given at another confidence level (CT's 90 %: 1.645);
 *   replicas:    the replicas' mean <x> as centre and their standard deviation
 *                sqrt(N / (N - 1) (<x^2> - <x>^2)) as up and down (the conf_level is the
 *                replicas' own).
 * Returns 0 with *centre (x0, or the replicas' mean), *up and *down (both >= 0), or -1 where
 * the set has no band (an unknown ErrorType, an odd number of Hessian members, fewer than
 * two replicas). */
int gaps_vary_pdf_band(const gaps_vary_pdf_set *set, double x0, const double *x, double *centre,
                       double *up, double *down);

/* Parse a --vary value: names separated by single commas.  0 with the bits in *bits, or -1
 * with one line in msg (a name of issue 31 not implemented yet: "not yet"). */
int gaps_vary_parse(const char *text, int *bits, char *msg, size_t len);

/* The variations of `bits` for a process with (hadronic = 1) or without initial-state
 * shower, a run of alpha_s(M_Z^2) = alphas_mz and (--vary pdf) the run's PDF set `set` (NULL
 * or members <= 1: no PDF variations), in their order (the order of every output: shower,
 * scales, alphas, pdf); returns their number. */
int gaps_vary_list(int bits, int hadronic, double alphas_mz, const gaps_vary_pdf_set *set,
                   gaps_variation out[GAPS_VARY_MAX]);

GAPS_C_END

#endif
