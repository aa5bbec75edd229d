/* gaps/constants.h -- every physical and numerical constant of the generator, with its unit.
 *
 * One place for each number (doc/physics.md sections 1-3).  Values that a user may change at run
 * time (sqrt(s), alpha_s(M_Z), the cutoff) appear here only as defaults.
 */
#ifndef GAPS_CONSTANTS_H
#define GAPS_CONSTANTS_H

#define GAPS_PI 3.14159265358979323846

/* Electroweak parameters of the hard process. */
#define GAPS_MZ          91.1876          /* Z mass, GeV */
#define GAPS_GAMMA_Z     2.4952           /* Z width, GeV */
#define GAPS_ALPHA_EM    (1.0 / 128.802)  /* QED coupling at M_Z, dimensionless */
#define GAPS_SIN2_THETAW 0.22293          /* weak mixing angle sin^2(theta_W) */
#define GAPS_GEV2_TO_PB  3.89379656e8     /* 1 GeV^-2 = 3.89379656e8 pb */
#define GAPS_N_FLAVOURS  5                /* massless quark flavours d u s c b (PDG 1..5) */

/* Hadron collisions (doc/physics.md section "Hadronic hard processes"). */
#define GAPS_PP_LL_M_LO  66.0             /* Drell-Yan dilepton mass window, lower edge, GeV */
#define GAPS_PP_LL_M_HI  116.0            /* Drell-Yan dilepton mass window, upper edge, GeV */
#define GAPS_PDG_Z       23               /* PDG code of the Z (also used for Z/gamma*) */
#define GAPS_PDG_ELECTRON 11              /* PDG code of the e- (the Drell-Yan lepton) */
/* The weight unit of the exact histogram sums (gaps_process.w_unit) of a hadronic process is
 * fixed before any PDF is read: the weight of the largest channel at this parton luminosity
 * x_q f_q x_qbar f_qbar (dimensionless), chosen so that the unit is about the largest weight
 * of 10^6 events with CT14lo at 13 TeV (pp-z 6.0e4 pb, pp-ll 1.06e4 pb).  Only the exact sums'
 * resolution (2^-40 unit) and range (2^43 units) depend on it, never a result. */
#define GAPS_PP_Z_UNIT_LUMINOSITY  2.5
#define GAPS_PP_LL_UNIT_LUMINOSITY 7.0
/* Once the run's PDFs are read, that unit is halved (gaps_weight_unit_for) while it stays at
 * least GAPS_WEIGHT_UNIT_MARGIN times the sampling table's estimate of the mean weight (so
 * that the weights, LO and NLO, keep their bits: gaps/histogram.h), at most
 * GAPS_WEIGHT_UNIT_MAX_HALVINGS times and never below GAPS_WEIGHT_UNIT_MIN pb (far above the
 * 2^-100 pb a state may carry).  At 13 TeV with CT14lo no halving: the default runs keep
 * their unit. */
#define GAPS_WEIGHT_UNIT_MARGIN 8.0
#define GAPS_WEIGHT_UNIT_MAX_HALVINGS 96
#define GAPS_WEIGHT_UNIT_MIN 0x1.0p-90

/* The largest t_cut / Q^2 of an NLO run (Q^2: gaps_process_hard_scale2): the matching leaves
 * a power correction of order t_C / Q^2 (doc/nlo.md), kept at or below 1 %. */
#define GAPS_NLO_MAX_TCUT_OVER_Q2 0.01

/* QCD colour factors. */
#define GAPS_NC 3.0
#define GAPS_CA 3.0
#define GAPS_CF (4.0 / 3.0)
#define GAPS_TR 0.5

/* Flavour thresholds of the running coupling, GeV. */
#define GAPS_MASS_B 4.75
#define GAPS_MASS_C 1.27

/* PDG code of the gluon. */
#define GAPS_GLUON 21

/* Run-time defaults. */
#define GAPS_DEFAULT_ECM        91.2   /* sqrt(s) of e+ e- processes, GeV */
#define GAPS_DEFAULT_ECM_PP     13000.0 /* sqrt(s) of p p processes, GeV */
#define GAPS_DEFAULT_PDF        "CT14lo"  /* PDF set of p p processes (shipped) */
#define GAPS_DEFAULT_ALPHAS_MZ  0.118  /* alpha_s(M_Z^2) */
#define GAPS_DEFAULT_TCUT       1.0    /* shower cutoff t_C = k_T^2, GeV^2 */
#define GAPS_DEFAULT_MAX_PARTONS 32    /* event record capacity */

/* Largest event record the analysis can hold (partons per event).  The run-time capacity
 * (--max-partons) may not exceed it: the analysis keeps one event in a fixed local array so
 * that device code never allocates. */
#define GAPS_MAX_PARTONS 64

/* Event numbers run from 0 to GAPS_MAX_EVENT_NUMBER - 1: far beyond any run (2^62 events at
 * 10^9 per second take 146 years), and small enough that first_event + events never
 * overflows a 64-bit integer. */
#define GAPS_MAX_EVENT_NUMBER (1LL << 62)

#endif
