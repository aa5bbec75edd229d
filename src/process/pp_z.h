/* process/pp_z.h -- p p -> Z on shell (pp_z.c; its NLO events through mcatnlo.c): its run constants and
 * the functions its NLO events and the tests use. */
#ifndef GAPS_PROCESS_PP_Z_H
#define GAPS_PROCESS_PP_Z_H

#include "process/mcatnlo.h"
#include "process/processes.h"

/* Bins of the rapidity importance sampling of pp-z. */
#define GAPS_PP_Y_BINS 128
/* p p -> Z on shell: run constants (src/process/pp_z.c; doc/physics.md, section "Hadronic
 * hard processes"). */
typedef struct gaps_pp_z {
    double mz2;           /* M_Z^2, GeV^2: s_hat of every event, and the shower's start */
    double sqrt_tau;      /* M_Z / sqrt(s): x_a = sqrt_tau e^y, x_b = sqrt_tau e^-y */
    double y_max;         /* ln(sqrt(s) / M_Z): the Z rapidity is uniform in [-y_max, y_max] */
    double half_ecm;      /* sqrt(s) / 2, GeV: the beam energy */
    /* pb per unit of x_q f_q(x_q) x_qbar f_qbar(x_qbar), flavour 1..5 (index 0 unused):
     * 2 y_max pi |M_f|^2 / M_Z^4 in pb, the weight of one (flavour, orientation) channel */
    double norm[6];
    /* importance sampling of y (gaps_process_prepare()): the probability of each of
     * GAPS_PP_Y_BINS equal bins of [-y_max, y_max] and their running sums; y_bins 0 (no table
     * yet): y uniform */
    int y_bins;
    double y_prob[GAPS_PP_Y_BINS], y_cum[GAPS_PP_Y_BINS + 1];
} gaps_pp_z;

/* What gaps_process.data holds for pp-z: the LO constants and, with --nlo 1 (nlo.on), the
 * NLO ones (all 0 at LO). */
typedef struct gaps_pp_z_data {
    gaps_pp_z lo;
    gaps_mcatnlo nlo;
} gaps_pp_z_data;

/* Host: the run constants of p p -> Z at sqrt(s) = ecm, a typical large event weight
 * (gaps_process.w_unit), pb, and the rapidity table (gaps_process_prepare): returns what the
 * table saw of the leading-order weights, the mean over the bins of the largest |weight| of
 * uniform sampling at the bin's points, pb (about the LO cross section, from above), or 0
 * where the table is not built. */
void gaps_pp_z_init(gaps_pp_z *pz, double ecm);
double gaps_pp_z_weight_unit(const gaps_pp_z *pz);
double gaps_pp_z_prepare(gaps_pp_z *pz, const gaps_pdf *pdf);

GAPS_DEVICE_BEGIN
/* The Born record of p p -> Z (pp_z.c) for channel k of gaps_pp_z_generate (flavour 1 + k/2,
 * the quark along -z when k is odd) at momentum fractions xa (+z beam), xb (-z beam): the
 * incoming quark and antiquark, the Z, colours, x; weight and t_start are the caller's. */
void gaps_pp_z_born_record(const gaps_pp_z *pz, int channel, double xa, double xb,
                           gaps_hard_event *ev);
/* p p -> Z (pp_z.c): incoming q, qbar, outgoing Z. */
void gaps_pp_z_generate(const gaps_pp_z *pz, const gaps_pdf *pdf, gaps_rng *rng,
                        gaps_hard_event *ev);
GAPS_DEVICE_END

#endif
