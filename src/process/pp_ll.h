/* process/pp_ll.h -- p p -> Z/gamma* -> e- e+ in a mass window (pp_ll.c, pp_ll_nlo.c; at NLO
 * through the builder of mcatnlo.h): its run constants and the functions its NLO events and the tests use. */
#ifndef GAPS_PROCESS_PP_LL_H
#define GAPS_PROCESS_PP_LL_H

#include "process/mcatnlo.h"
#include "process/processes.h"

/* Cells of the importance sampling of pp-ll: GAPS_PP_LL_M_BINS bins of the mass variable rho
 * times GAPS_PP_LL_Y_BINS bins of the scaled rapidity y / y_max(m). */
#define GAPS_PP_LL_M_BINS 64
#define GAPS_PP_LL_Y_BINS 64
#define GAPS_PP_LL_CELLS (GAPS_PP_LL_M_BINS * GAPS_PP_LL_Y_BINS)
/* The mass mapping of pp-ll is a Breit-Wigner this many times wider than the Z's: its table
 * then resolves the Z peak and the photon's rise towards the window's edges alike. */
#define GAPS_PP_LL_MAP_WIDTH 4.0

/* p p -> Z/gamma* -> e- e+ in a mass window: run constants (src/process/pp_ll.c; doc/physics.md,
 * section "Hadronic hard processes"). */
typedef struct gaps_pp_ll {
    double m_lo, m_hi;    /* the dilepton mass window, GeV */
    double mz2, mz_gz;    /* M_Z^2 and M_Z Gamma_Z, GeV^2 */
    double map_w;         /* the width of the mass mapping m^2 = M_Z^2 + map_w tan(rho), GeV^2:
                             M_Z Gamma_Z times GAPS_PP_LL_MAP_WIDTH */
    double rho_lo, rho_hi;/* atan((m^2 - M_Z^2) / map_w) at the window's edges */
    double kappa;         /* 1 / (4 sin^2 theta_W cos^2 theta_W) */
    double sqrt_s, s;     /* GeV, GeV^2 */
    /* |M|^2 / ((4 pi alpha)^2 / N_c) = A_f (1 + c^2) + B_f c with
     * A_f = a0 + a1 chi1 + a2 chi2 and B_f = b1 chi1 + b2 chi2 (chi1, chi2 of m^2 as in
     * gaps_me_init), flavour 1..5 (index 0 unused) */
    double a0[6], a1[6], a2[6], b1[6], b2[6];
    double norm;          /* GeV^-2 -> pb times (4 pi alpha)^2 / (16 pi N_c) */
    /* importance sampling of (rho, y / y_max(m)) (gaps_process_prepare()): the probability of
     * each of the GAPS_PP_LL_CELLS cells (cell i GAPS_PP_LL_Y_BINS + j: rho bin i, rapidity
     * bin j, equal bins of [rho_lo, rho_hi] and [-1, 1]) and their running sums; cells 0 (no
     * table yet): rho and y uniform */
    int cells;
    double cell_prob[GAPS_PP_LL_CELLS], cell_cum[GAPS_PP_LL_CELLS + 1];
} gaps_pp_ll;

/* What gaps_process.data holds for pp-ll: the LO constants and, with --nlo 1 (nlo.on), the
 * NLO ones (all 0 at LO). */
typedef struct gaps_pp_ll_data {
    gaps_pp_ll lo;
    gaps_mcatnlo nlo;
} gaps_pp_ll_data;

/* Host: the run constants of p p -> Z/gamma* -> e- e+ at sqrt(s) = ecm, a typical large
 * event weight (gaps_process.w_unit), pb, and the (mass, rapidity) table
 * (gaps_process_prepare), whose return value is as gaps_pp_z_prepare's (pp_z.h). */
void gaps_pp_ll_init(gaps_pp_ll *ll, double ecm);
double gaps_pp_ll_weight_unit(const gaps_pp_ll *ll);
double gaps_pp_ll_prepare(gaps_pp_ll *ll, const gaps_pdf *pdf);

GAPS_DEVICE_BEGIN
/* The leading-order point of p p -> Z/gamma* -> e- e+ (pp_ll.c) for the uniforms
 * (rrho, ry) (mass and rapidity cell) and (rc, rphi) (the l- direction): what
 * gaps_pp_ll_generate() computes before it chooses the channel.  The LO weight of channel
 * 2(f-1) + o is norm jac_m y_range / m2^2 cell_weight c_weight times
 * lp[f] (A[f](1 + c^2) + B[f] c) (o = 0: quark along +z) or lm[f] (A[f](1 + c^2) - B[f] c). */
typedef struct gaps_pp_ll_point {
    double m2, m;              /* dilepton mass^2 (GeV^2) and mass */
    double xa, xb;             /* Born momentum fractions of the +z and -z partons */
    double c, st, cphi, sphi;  /* l- direction in the pair's rest frame (z along +z beam) */
    double jac_m, y_range, cell_weight, c_weight;   /* the factors of the LO weight */
    double A[GAPS_N_FLAVOURS + 1], B[GAPS_N_FLAVOURS + 1];   /* per (4 pi alpha)^2 / N_c */
    double lp[GAPS_N_FLAVOURS + 1], lm[GAPS_N_FLAVOURS + 1]; /* luminosities */
    double fa[GAPS_PDF_NPARTONS], fb[GAPS_PDF_NPARTONS];    /* [xf] at xa, xb, mu_F^2 = m2 */
} gaps_pp_ll_point;
void gaps_pp_ll_point_make(const gaps_pp_ll *ll, const gaps_pdf *pdf, double rrho, double ry,
                           double rc, double rphi, gaps_pp_ll_point *pt);
/* The Born record of channel k of the point (pp_ll.c): rows 0 quark, 1 antiquark (incoming),
 * 2 e-, 3 e+, colours and x; weight and t_start are the caller's. */
void gaps_pp_ll_born_record(const gaps_pp_ll *ll, const gaps_pp_ll_point *pt, int channel,
                            gaps_hard_event *ev);
/* The Born |M|^2 of q qbar -> e- e+ of flavour f at dilepton mass^2 m2 as
 * P (1 + c)^2 + Q (1 - c)^2, c = cos(quark, e-) in the pair's rest frame, GeV^0 (pp_ll_nlo.c):
 * P = (4 pi alpha)^2 / N_c (A_f/2 + B_f/4), Q = (4 pi alpha)^2 / N_c (A_f/2 - B_f/4). */
void gaps_pp_ll_born_pq(const gaps_pp_ll *ll, int f, double m2, double *P, double *Q);
/* p p -> Z/gamma* -> e- e+ (pp_ll.c): incoming q, qbar, outgoing e-, e+. */
void gaps_pp_ll_generate(const gaps_pp_ll *ll, const gaps_pdf *pdf, gaps_rng *rng,
                         gaps_hard_event *ev);
GAPS_DEVICE_END

#endif
