/* test_lhc_observables.c -- the LHC analysis (gaps/analysis_lhc.h, src/analysis/lhc.c and
 * antikt.c) on hand-made event records with answers known by hand.
 *
 * Records as the shower leaves them: two incoming partons along the beams, then the Z (PDG 23)
 * or a lepton pair, then partons.  Checked: a Z of known mass, p_T, rapidity and azimuth;
 * two back-to-back jets and their Delta R; the -50 of everything an event lacks (no jets, no
 * leptons, no Z); the Z from a lepton pair; the zphi = 0 spike of a Z without p_T and where
 * it lands; njets = 10 (stop after 10 jets) in the overflow; the logarithmic zptfull edges;
 * anti-k_T merging inside R and not outside, the 1e6 GeV^-2 rule; the clustering against the
 * plain scan over all pairs, bit for bit; gaps_atan2 against the C
 * library; the histograms of one event filled through the analysis table; a state of the LHC
 * analysis written, read back (format 3, two entries per event in leptpt) and refused as a
 * merge partner of a LEP state; its YODA file (paths, logarithmic and zero edges).
 *
 * Exit status 0 if every check passes; each failure is printed.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/analysis.h"
#include "gaps/constants.h"
#include "gaps/fpmath.h"
#include "gaps/generator.h"
#include "gaps/jets.h"
#include "gaps/state.h"
#include "gaps/yoda.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;
static int checks = 0;

/* |got - want| <= rtol |want| + atol */
static void check_close(const char *what, double got, double want, double rtol, double atol)
{
    ++checks;
    if (!(fabs(got - want) <= rtol * fabs(want) + atol)) {
        ++failures;
        printf("FAIL %s: got %.17g, want %.17g (diff %.3g)\n", what, got, want, got - want);
    }
}

static void check_true(const char *what, int ok)
{
    ++checks;
    if (!ok) {
        ++failures;
        printf("FAIL %s\n", what);
    }
}

#define TIGHT 1e-12
#define PI 3.14159265358979323846
#define MZ 91.1876

/* A record under construction: rows 0, 1 incoming partons (filled in at the end so that the
 * momentum balances), then the outgoing particles added one by one. */
typedef struct record {
    int n;
    double p[GAPS_MAX_PARTONS][4];
    int flav[GAPS_MAX_PARTONS];
} record;

static void record_start(record *r)
{
    memset(r, 0, sizeof *r);
    r->n = 2;
    r->flav[0] = 2;
    r->flav[1] = -2;
}

/* a particle of mass m, transverse momentum pt, rapidity y, azimuth phi */
static void add(record *r, int flav, double m, double pt, double y, double phi)
{
    const double mt = sqrt(m * m + pt * pt);
    double *p = r->p[r->n];
    p[0] = mt * cosh(y);
    p[1] = pt * cos(phi);
    p[2] = pt * sin(phi);
    p[3] = mt * sinh(y);
    r->flav[r->n++] = flav;
}

static void add_p(record *r, int flav, double e, double px, double py, double pz)
{
    double *p = r->p[r->n];
    p[0] = e;
    p[1] = px;
    p[2] = py;
    p[3] = pz;
    r->flav[r->n++] = flav;
}

/* The row of the record for the LHC analysis. */
static void lhc_row(const record *r, double *row)
{
    gaps_analysis_row(row, GAPS_ANALYSIS_LHC, 7, 2.5, 2, r->n, (const double(*)[4])r->p,
                      r->flav);
}

static double eta_of(double pt, double pz)
{
    return asinh(pz / pt);
}

/* ---- a Z of known kinematics and one recoiling gluon ---- */
static void test_z_and_one_jet(void)
{
    record r;
    record_start(&r);
    const double pt = 30.0, y = 1.2, phi = 0.7;
    add(&r, 23, MZ, pt, y, phi);
    add(&r, GAPS_GLUON, 0.0, pt, -0.4, phi - PI);   /* back to back in phi */
    double row[GAPS_OBS_MAX_COLUMNS];
    lhc_row(&r, row);
    check_true("event number", gaps_row_event(row) == 7);
    check_close("weight", row[GAPS_OBS_WEIGHT], 2.5, 0.0, 0.0);
    check_close("n_partons counts the gluon only", row[GAPS_OBS_NPARTONS], 1.0, 0.0, 0.0);
    check_close("zmass", row[GAPS_LHC_ZMASS], MZ, TIGHT, 0.0);
    check_close("zpt", row[GAPS_LHC_ZPT], pt, TIGHT, 0.0);
    check_close("zrap", row[GAPS_LHC_ZRAP], y, TIGHT, 0.0);
    check_close("zphi", row[GAPS_LHC_ZPHI], phi, TIGHT, 0.0);
    check_close("j1 pt", row[GAPS_LHC_J1_PT], pt, TIGHT, 0.0);
    check_close("j1 eta", row[GAPS_LHC_J1_ETA], -0.4, TIGHT, 1e-14);
    check_close("njets", row[GAPS_LHC_NJETS], 1.0, 0.0, 0.0);
    const double mt = sqrt(MZ * MZ + pt * pt);
    const double z_eta = eta_of(pt, mt * sinh(y));
    check_close("detazj1", row[GAPS_LHC_DETAZJ1], z_eta + 0.4, TIGHT, 1e-14);
    check_close("dRzj1", row[GAPS_LHC_DRZJ1], sqrt((z_eta + 0.4) * (z_eta + 0.4) + PI * PI),
                TIGHT, 0.0);
    const int missing[] = { GAPS_LHC_LEP1_PT, GAPS_LHC_LEP1_ETA, GAPS_LHC_LEP2_PT,
                            GAPS_LHC_LEP2_ETA, GAPS_LHC_J2_PT, GAPS_LHC_J2_ETA,
                            GAPS_LHC_J3_PT, GAPS_LHC_J3_ETA, GAPS_LHC_DRJ1J2,
                            GAPS_LHC_DRJ1J3, GAPS_LHC_DRJ2J3 };
    for (unsigned k = 0; k < sizeof missing / sizeof missing[0]; ++k)
        check_close("missing objects are -50", row[missing[k]], -50.0, 0.0, 0.0);
}

/* ---- two back-to-back jets, a Z without p_T: the zphi = 0 spike ---- */
static void test_back_to_back_jets(double *row)
{
    record r;
    record_start(&r);
    add_p(&r, 23, MZ, 0.0, -0.0, 0.0);   /* at rest; a negative zero must not give -pi */
    add(&r, GAPS_GLUON, 0.0, 40.0, 0.5, 0.0);
    add(&r, 1, 0.0, 40.0, -0.5, PI);
    lhc_row(&r, row);
    check_close("Z at rest: zpt 0", row[GAPS_LHC_ZPT], 0.0, 0.0, 0.0);
    check_true("Z at rest: zphi exactly +0", row[GAPS_LHC_ZPHI] == 0.0
                                             && !signbit(row[GAPS_LHC_ZPHI]));
    check_close("Z at rest: zrap 0", row[GAPS_LHC_ZRAP], 0.0, 0.0, 0.0);
    check_close("j1 pt", row[GAPS_LHC_J1_PT], 40.0, TIGHT, 0.0);
    check_close("j2 pt", row[GAPS_LHC_J2_PT], 40.0, TIGHT, 0.0);
    check_close("|j1 eta|", fabs(row[GAPS_LHC_J1_ETA]), 0.5, TIGHT, 0.0);
    check_close("j1 eta = -j2 eta", row[GAPS_LHC_J1_ETA], -row[GAPS_LHC_J2_ETA], TIGHT, 0.0);
    check_close("njets", row[GAPS_LHC_NJETS], 2.0, 0.0, 0.0);
    check_close("dRj1j2 = sqrt(1 + pi^2)", row[GAPS_LHC_DRJ1J2], sqrt(1.0 + PI * PI), TIGHT,
                0.0);
    check_close("dRj1j3 missing", row[GAPS_LHC_DRJ1J3], -50.0, 0.0, 0.0);
    check_close("dRj2j3 missing", row[GAPS_LHC_DRJ2J3], -50.0, 0.0, 0.0);
    check_close("j3 pt missing", row[GAPS_LHC_J3_PT], -50.0, 0.0, 0.0);
    /* the Z at rest has eta 0 (the convention of gaps_pseudorapidity for p = 0) */
    check_close("detazj1 of a Z at rest", fabs(row[GAPS_LHC_DETAZJ1]), 0.5, TIGHT, 0.0);
}

/* ---- the cuts: p_T of a jet outside |eta| < 5, eta of a jet below 5 GeV ---- */
static void test_cuts(void)
{
    record r;
    record_start(&r);
    add(&r, 23, MZ, 10.0, 0.0, 0.0);
    add(&r, GAPS_GLUON, 0.0, 60.0, 6.0, 1.0);    /* hard, too forward */
    add(&r, GAPS_GLUON, 0.0, 3.0, 0.2, -2.0);    /* central, too soft */
    double row[GAPS_OBS_MAX_COLUMNS];
    lhc_row(&r, row);
    check_close("forward jet: pt -50", row[GAPS_LHC_J1_PT], -50.0, 0.0, 0.0);
    check_close("forward jet: eta kept (pt > 5)", row[GAPS_LHC_J1_ETA], 6.0, 1e-10, 0.0);
    check_close("soft jet: pt kept (|eta| < 5)", row[GAPS_LHC_J2_PT], 3.0, TIGHT, 0.0);
    check_close("soft jet: eta -50", row[GAPS_LHC_J2_ETA], -50.0, 0.0, 0.0);
    check_close("no jet passes both", row[GAPS_LHC_NJETS], 0.0, 0.0, 0.0);
    check_close("detazj1 needs j1 to pass", row[GAPS_LHC_DETAZJ1], -50.0, 0.0, 0.0);
    check_close("dRj1j2 needs both to pass", row[GAPS_LHC_DRJ1J2], -50.0, 0.0, 0.0);
}

/* ---- nothing but the Z; a lepton pair instead of a Z; a record without either ---- */
static void test_missing_and_leptons(void)
{
    record r;
    record_start(&r);
    add(&r, 23, MZ, 0.0, 0.3, 0.0);
    double row[GAPS_OBS_MAX_COLUMNS];
    lhc_row(&r, row);
    check_close("no partons: n_partons 0", row[GAPS_OBS_NPARTONS], 0.0, 0.0, 0.0);
    check_close("no partons: njets 0", row[GAPS_LHC_NJETS], 0.0, 0.0, 0.0);
    for (int c = GAPS_LHC_LEP1_PT; c < GAPS_LHC_N_COLUMNS; ++c)
        if (c != GAPS_LHC_NJETS) check_close("no partons, no leptons: -50", row[c], -50.0, 0, 0);
    check_close("zrap", row[GAPS_LHC_ZRAP], 0.3, TIGHT, 0.0);

    /* e- e+ from a Z/gamma* of mass 80 GeV with p_T 12: leptons in its rest frame along x,
     * boosted along y by hand (the pair's p_T), then along z */
    record_start(&r);
    const double m = 80.0, pt = 12.0, yz = -0.8;
    const double ez = sqrt(m * m + pt * pt), g = ez / m, gb = pt / m;
    /* rest frame: (m/2, +-m/2, 0, 0); boost along y with gamma g, gamma beta gb */
    const double e0 = g * m / 2, py0 = gb * m / 2;
    const double ch = cosh(yz), sh = sinh(yz);
    add_p(&r, 11, e0 * ch, m / 2, py0, e0 * sh);
    add_p(&r, -11, e0 * ch, -m / 2, py0, e0 * sh);
    add(&r, GAPS_GLUON, 0.0, 12.0, 1.0, -PI / 2);
    lhc_row(&r, row);
    check_close("lepton pair: zmass", row[GAPS_LHC_ZMASS], m, 1e-12, 0.0);
    check_close("lepton pair: zpt", row[GAPS_LHC_ZPT], pt, 1e-12, 0.0);
    check_close("lepton pair: zrap", row[GAPS_LHC_ZRAP], yz, 1e-12, 0.0);
    check_close("lepton pair: zphi", row[GAPS_LHC_ZPHI], PI / 2, 1e-15, 0.0);
    const double lpt = sqrt(m * m / 4 + py0 * py0);
    check_close("lepton 1 pt", row[GAPS_LHC_LEP1_PT], lpt, TIGHT, 0.0);
    check_close("lepton 2 pt", row[GAPS_LHC_LEP2_PT], lpt, TIGHT, 0.0);
    check_close("lepton 1 eta", row[GAPS_LHC_LEP1_ETA], eta_of(lpt, e0 * sh), TIGHT, 0.0);
    check_close("lepton 2 eta", row[GAPS_LHC_LEP2_ETA], eta_of(lpt, e0 * sh), TIGHT, 0.0);
    check_close("leptons are not partons", row[GAPS_OBS_NPARTONS], 1.0, 0.0, 0.0);
    check_close("the leptons make no jet", row[GAPS_LHC_NJETS], 1.0, 0.0, 0.0);

    /* neither a Z nor two leptons: the Z observables are missing too */
    record_start(&r);
    add(&r, GAPS_GLUON, 0.0, 20.0, 0.0, 0.0);
    add(&r, GAPS_GLUON, 0.0, 20.0, 0.0, PI);
    lhc_row(&r, row);
    check_close("no Z: zmass -50", row[GAPS_LHC_ZMASS], -50.0, 0.0, 0.0);
    check_close("no Z: zphi -50", row[GAPS_LHC_ZPHI], -50.0, 0.0, 0.0);
    check_close("no Z: detazj1 -50", row[GAPS_LHC_DETAZJ1], -50.0, 0.0, 0.0);
    check_close("no Z: dRj1j2 still there", row[GAPS_LHC_DRJ1J2], PI, TIGHT, 0.0);
}

/* ---- anti-k_T by hand ---- */
static void test_antikt_small(void)
{
    double p[3][4];
    gaps_jet jets[4];
    /* two partons at Delta R = 0.3 < R: one jet, the sum of both */
    const double pt[2] = { 50.0, 20.0 }, eta[2] = { 0.1, 0.1 + 0.3 * 0.6 };
    const double phi[2] = { 1.0, 1.0 + 0.3 * 0.8 };
    for (int k = 0; k < 2; ++k) {
        p[k][0] = pt[k] * cosh(eta[k]);
        p[k][1] = pt[k] * cos(phi[k]);
        p[k][2] = pt[k] * sin(phi[k]);
        p[k][3] = pt[k] * sinh(eta[k]);
    }
    int nj = gaps_antikt(2, (const double(*)[4])p, 0.4, 10, 1e6, jets);
    check_true("Delta R 0.3: one jet", nj == 1);
    for (int m = 0; m < 4; ++m)
        check_close("Delta R 0.3: E-scheme sum", jets[0].p[m], p[0][m] + p[1][m], TIGHT, 1e-13);
    /* the same at Delta R = 0.5 > R: two jets, the harder first */
    p[1][0] = pt[1] * cosh(0.1 + 0.5 * 0.6);
    p[1][3] = pt[1] * sinh(0.1 + 0.5 * 0.6);
    p[1][1] = pt[1] * cos(1.0 + 0.5 * 0.8);
    p[1][2] = pt[1] * sin(1.0 + 0.5 * 0.8);
    nj = gaps_antikt(2, (const double(*)[4])p, 0.4, 10, 1e6, jets);
    check_true("Delta R 0.5: two jets", nj == 2);
    check_close("Delta R 0.5: leading jet", jets[0].pt, 50.0, TIGHT, 0.0);
    check_close("Delta R 0.5: second jet", jets[1].pt, 20.0, TIGHT, 0.0);
    /* a lone parton with p_T = 0.5 MeV: d_iB = 4e6 GeV^-2 >= 1e6, no jet; plain anti-k_T
     * (no limit) makes it one */
    p[2][0] = 0.0005 * cosh(2.0);
    p[2][1] = 0.0005;
    p[2][2] = 0.0;
    p[2][3] = 0.0005 * sinh(2.0);
    nj = gaps_antikt(1, (const double(*)[4]) & p[2], 0.4, 10, 1e6, jets);
    check_true("p_T < 1 MeV alone: no jet (d_iB >= 1e6)", nj == 0);
    nj = gaps_antikt(1, (const double(*)[4]) & p[2], 0.4, 10, HUGE_VAL, jets);
    check_true("p_T < 1 MeV alone, no limit: a jet", nj == 1);
    /* Delta phi across the +-pi line: partons at phi = pi - 0.1 and -pi + 0.1 merge */
    for (int k = 0; k < 2; ++k) {
        const double ph = k ? -PI + 0.1 : PI - 0.1;
        p[k][0] = 30.0;
        p[k][1] = 30.0 * cos(ph);
        p[k][2] = 30.0 * sin(ph);
        p[k][3] = 0.0;
    }
    nj = gaps_antikt(2, (const double(*)[4])p, 0.4, 10, 1e6, jets);
    check_true("Delta phi wraps at +-pi: one jet", nj == 1);
    check_close("Delta phi wraps: jet phi = pi", fabs(jets[0].phi), PI, 1e-15, 0.0);
}

/* ---- 12 hard, separated gluons: clustering stops at 10 jets, njets 10 overflows ---- */
static void test_njets_overflow(double *row)
{
    record r;
    record_start(&r);
    add(&r, 23, MZ, 5.0, 0.0, 0.0);
    for (int k = 0; k < 12; ++k)   /* 6 azimuths x 2 rapidities: Delta R >= 1 */
        add(&r, GAPS_GLUON, 0.0, 20.0 + k, k % 2 ? 1.0 : -1.0, (k / 2) * (PI / 3.0));
    lhc_row(&r, row);
    check_close("12 hard gluons: njets = 10 (GAPS stops at 10 jets)", row[GAPS_LHC_NJETS], 10.0,
                0.0, 0.0);
    gaps_jet jets[GAPS_MAX_PARTONS];
    const int nj = gaps_antikt(12, (const double(*)[4])(r.p + 3), 0.4, GAPS_MAX_PARTONS,
                               HUGE_VAL, jets);
    check_true("12 hard gluons, no limit: 12 jets", nj == 12);
    for (int k = 1; k < nj; ++k) check_true("jets ordered by p_T", jets[k - 1].pt >= jets[k].pt);
    check_close("leading jet: the hardest gluon", row[GAPS_LHC_J1_PT], 31.0, TIGHT, 0.0);
}

/* ---- the clustering against the plain scan over all pairs ----
 * gaps_antikt() divides by R^2 only for the pairs that can be the nearest (pair_bound());
 * its choices must be those of comparing every distance, ties included (the first smallest
 * distance in the order d_i0 .. d_i(i-1), d_iB for i = 0, 1, ...).  plain_antikt() is that
 * scan, as the analysis had it before. */
static int plain_antikt(int n, const double p[][4], double R, int max_jets, double d_max,
                        gaps_jet *jets)
{
    double c[GAPS_MAX_PARTONS][4], ipt[GAPS_MAX_PARTONS], eta[GAPS_MAX_PARTONS],
        phi[GAPS_MAX_PARTONS];
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < 4; ++m) c[i][m] = p[i][m];
        ipt[i] = 1.0 / (c[i][1] * c[i][1] + c[i][2] * c[i][2]);
        eta[i] = gaps_pseudorapidity(c[i][1], c[i][2], c[i][3]);
        phi[i] = gaps_azimuth(c[i][1], c[i][2]);
    }
    int m = n, nj = 0;
    while (m > 0 && nj < max_jets) {
        double dmin = d_max;
        int bi = -1, bj = -1;
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < i; ++j) {
                const double w = ipt[i] < ipt[j] ? ipt[i] : ipt[j];
                const double de = eta[i] - eta[j], dp = gaps_delta_phi(phi[i], phi[j]);
                const double d = w * (de * de + dp * dp) / (R * R);
                if (d < dmin) { dmin = d; bi = i; bj = j; }
            }
            if (ipt[i] < dmin) { dmin = ipt[i]; bi = i; bj = -1; }
        }
        if (bi < 0) break;
        if (bj < 0) {
            gaps_jet *jet = &jets[nj++];
            for (int k = 0; k < 4; ++k) jet->p[k] = c[bi][k];
            jet->pt = sqrt(c[bi][1] * c[bi][1] + c[bi][2] * c[bi][2]);
            jet->eta = eta[bi];
            jet->phi = phi[bi];
        } else {
            for (int k = 0; k < 4; ++k) c[bj][k] += c[bi][k];
            ipt[bj] = 1.0 / (c[bj][1] * c[bj][1] + c[bj][2] * c[bj][2]);
            eta[bj] = gaps_pseudorapidity(c[bj][1], c[bj][2], c[bj][3]);
            phi[bj] = gaps_azimuth(c[bj][1], c[bj][2]);
        }
        for (int i = bi; i < m - 1; ++i) {
            for (int k = 0; k < 4; ++k) c[i][k] = c[i + 1][k];
            ipt[i] = ipt[i + 1];
            eta[i] = eta[i + 1];
            phi[i] = phi[i + 1];
        }
        --m;
    }
    for (int i = 1; i < nj; ++i) {
        const gaps_jet t = jets[i];
        int k = i;
        while (k > 0 && jets[k - 1].pt < t.pt) { jets[k] = jets[k - 1]; --k; }
        jets[k] = t;
    }
    while (nj > 0 && !(jets[nj - 1].pt > 0.0)) --nj;
    return nj;
}

static uint64_t lcg_state = 12345u;
static double lcg(void)   /* uniform in [0, 1), the same on every machine */
{
    lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
    return (double)(lcg_state >> 11) * 0x1p-53;
}

/* Random events of 0..64 massless partons, many of them built for ties: parton copies (d = 0
 * between them), momenta on a coarse grid of p_T, eta and phi (equal distances), partons
 * without p_T (d_iB = +infinity) and mirror images in phi.  Every jet must be the plain
 * scan's to the bit; a negative control checks that the comparison sees a changed jet. */
static void test_antikt_plain_scan(void)
{
    int events = 0, jets_seen = 0, differ = 0, ties = 0;
    for (int ev = 0; ev < 4000; ++ev) {
        const int n = ev == 0 ? 4 : (int)(lcg() * (GAPS_MAX_PARTONS + 1));
        const int kind = ev % 4;   /* 0 free, 1 grid, 2 copies and zeros, 3 mirrors */
        double p[GAPS_MAX_PARTONS][4];
        for (int i = 0; i < n; ++i) {
            double pt = 1.0 + 60.0 * lcg(), y = 8.0 * lcg() - 4.0, ph = 2.0 * PI * lcg() - PI;
            if (kind == 1) {
                pt = 5.0 * (1 + (int)(4 * lcg()));
                y = 0.2 * (int)(20 * lcg() - 10);
                ph = (PI / 8.0) * (int)(16 * lcg() - 8);
            }
            p[i][1] = pt * cos(ph);
            p[i][2] = pt * sin(ph);
            p[i][3] = pt * sinh(y);
            p[i][0] = pt * cosh(y);
            if (kind == 2 && i > 0 && lcg() < 0.4) {
                const int from = (int)(lcg() * i);
                for (int m = 0; m < 4; ++m) p[i][m] = p[from][m];
                ++ties;
            }
            if (kind == 2 && lcg() < 0.1) p[i][1] = p[i][2] = 0.0;
            if (kind == 3 && i > 0 && lcg() < 0.5) {
                for (int m = 0; m < 4; ++m) p[i][m] = p[i - 1][m];
                p[i][2] = -p[i][2];
                ++ties;
            }
        }
        if (ev == 0) {
            /* A tie that a merger makes: A, a copy A', C (twice A's p_T, mirrored in phi), a
             * softer i between them (Delta R 0.3 to each, A and C 0.6 apart).  Once A and A'
             * merge, the merged AA, before C in the scan, is exactly as near to i as C and
             * must be taken: jets AA + i and C, not AA and C + i */
            const double pts[4] = { 10.0, 10.0, 20.0, 5.0 }, phs[4] = { 0.3, 0.3, -0.3, 0.0 };
            for (int i = 0; i < 4; ++i) {
                p[i][1] = pts[i] * cos(phs[i]);
                p[i][2] = pts[i] * sin(phs[i]);
                p[i][3] = 0.0;
                p[i][0] = pts[i];
            }
            p[2][1] = 2.0 * p[0][1];
            p[2][2] = -2.0 * p[0][2];
        }
        const int max_jets = ev % 3 == 0 ? 10 : GAPS_MAX_PARTONS;
        const double d_max = ev % 5 == 0 ? HUGE_VAL : (ev % 5 == 1 ? 1e-3 : 1e6);
        const double R = ev % 7 == 3 ? 1.0 : 0.4;
        gaps_jet a[GAPS_MAX_PARTONS], b[GAPS_MAX_PARTONS];
        const int na = gaps_antikt(n, (const double(*)[4])p, R, max_jets, d_max, a);
        const int nb = plain_antikt(n, (const double(*)[4])p, R, max_jets, d_max, b);
        int same = na == nb;
        for (int k = 0; same && k < na; ++k)
            same = memcmp(a[k].p, b[k].p, sizeof a[k].p) == 0 && memcmp(&a[k].pt, &b[k].pt, 8) == 0
                   && memcmp(&a[k].eta, &b[k].eta, 8) == 0 && memcmp(&a[k].phi, &b[k].phi, 8) == 0;
        differ += !same;
        if (!same && differ <= 3)
            printf("FAIL anti-k_T event %d (n %d, kind %d): %d jets, the plain scan %d\n", ev, n,
                   kind, na, nb);
        ++events;
        jets_seen += na;
        if (ev == 7 && na > 0) {   /* negative control: one bit of one jet changed */
            b[0].pt = nextafter(b[0].pt, HUGE_VAL);
            check_true("negative control: a jet one ulp off is seen",
                       memcmp(&a[0].pt, &b[0].pt, 8) != 0);
        }
    }
    ++checks;
    if (differ) ++failures;
    printf("anti-k_T: %d events (%d partons copied or mirrored), %d jets: %d differ from the "
           "plain scan\n", events, ties, jets_seen, differ);
}

/* ---- the histograms of one event, through the analysis table ---- */
static uint64_t entries(const gaps_histograms *h, int id, int bin)
{
    return h->acc[(long)(h->offset[id] + bin) * GAPS_ACC_WORDS + GAPS_ACC_COUNT];
}

static void test_histograms(const double *spike_row, const double *overflow_row)
{
    const gaps_analysis_info *info = &gaps_analysis_table[GAPS_ANALYSIS_LHC];
    check_true("LHC CSV header", strncmp(info->csv_header, "event,weight,n_partons,zmass,zpt",
                                         32) == 0);
    check_true("LHC: 19 histograms", info->n_hists == 19 && GAPS_LHC_N_HISTS == 19);
    check_true("LHC paths", strcmp(info->hist[GAPS_LHC_H_ZPTFULL].path, "/gaps_lhc/zptfull") == 0
                            && strcmp(info->hist[GAPS_LHC_H_DRJ2J3].path, "/gaps_lhc/dRj2j3")
                                   == 0);
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, 1.0, GAPS_ANALYSIS_LHC);
    check_true("LHC layout size", h.nbins_total == info->total_bins
                                  && info->total_bins <= GAPS_HIST_MAX_TOTAL_BINS);
    h.acc = calloc((size_t)gaps_histograms_words(&h), sizeof(uint64_t));
    if (!h.acc) { check_true("out of memory", 0); return; }
    double row[GAPS_OBS_MAX_COLUMNS];
    memcpy(row, spike_row, sizeof row);
    row[GAPS_OBS_WEIGHT] = 1.0;
    check_true("fill", gaps_histograms_fill_event(&h, 0, row) == 0);
    /* every histogram once, leptpt and lepteta twice; the event counter once */
    for (int id = 0; id < info->n_hists; ++id) {
        uint64_t n = 0;
        for (int b = 0; b < h.nbins[id] + 2; ++b) n += entries(&h, id, b);
        check_true("entries per event", n == (info->hist[id].column2 == GAPS_OBS_NONE ? 1u : 2u));
    }
    check_true("event counter", entries(&h, h.n_hists, 1) == 1);
    /* zphi = 0 lands in [0, 0.064): bin 51 of [-3.2, 3.2] */
    check_true("zphi spike in [0, 0.064)", entries(&h, GAPS_LHC_H_ZPHI, 51) == 1);
    check_true("missing leptons: underflow twice", entries(&h, GAPS_LHC_H_LEPTPT, 0) == 2
                                                   && entries(&h, GAPS_LHC_H_LEPTETA, 0) == 2);
    check_true("zpt 0: zptfull underflow", entries(&h, GAPS_LHC_H_ZPTFULL, 0) == 1);
    check_true("missing j3: underflow", entries(&h, GAPS_LHC_H_J3PT, 0) == 1);
    check_true("njets 2: bin [1.5, 2.5)", entries(&h, GAPS_LHC_H_NJETS, 3) == 1);
    memcpy(row, overflow_row, sizeof row);
    row[GAPS_OBS_WEIGHT] = 1.0;
    gaps_histograms_fill_event(&h, 0, row);
    check_true("njets 10: overflow", entries(&h, GAPS_LHC_H_NJETS, 11) == 1);
    /* half weights: leptpt's underflow holds sum w = 2 x 1/2 per event */
    gaps_hist_result *res = malloc(sizeof *res);
    if (res) {
        gaps_histograms_result(&h, h.acc, res);
        check_close("leptpt underflow: w/2 twice per event", res->bin[GAPS_LHC_H_LEPTPT][0].sumw,
                    2.0, 0.0, 0.0);
        check_close("leptpt underflow: sum w^2 = 4 x 1/4", res->bin[GAPS_LHC_H_LEPTPT][0].sumw2,
                    1.0, 0.0, 0.0);
        check_true("two events", res->n_events == 2 && res->n_hists == GAPS_LHC_N_HISTS);
        free(res);
    }
    /* zptfull: edges 0.5, 0.5394862, 0.5820906 (GAPS 2.1) */
    const double zpt[6] = { 0.5, 0.5394, 0.5396, 0.58208, 0.5822, 999.0 };
    const int bin[6] = { 1, 1, 2, 2, 3, 100 };
    for (int k = 0; k < 6; ++k) {
        memset(h.acc, 0, (size_t)gaps_histograms_words(&h) * sizeof(uint64_t));
        memcpy(row, spike_row, sizeof row);
        row[GAPS_OBS_WEIGHT] = 1.0;
        row[GAPS_LHC_ZPT] = zpt[k];
        gaps_histograms_fill_event(&h, 0, row);
        char what[64];
        snprintf(what, sizeof what, "zptfull: %g in bin %d", zpt[k], bin[k]);
        check_true(what, entries(&h, GAPS_LHC_H_ZPTFULL, bin[k]) == 1);
    }
    free(h.acc);
}

/* ---- a state of the LHC analysis: file, merge, YODA ---- */
static void test_state_and_yoda(const double *spike_row, const double *overflow_row)
{
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, 1.0, GAPS_ANALYSIS_LHC);
    h.acc = calloc((size_t)gaps_histograms_words(&h), sizeof(uint64_t));
    static gaps_state st, back, lep;
    if (!h.acc) { check_true("out of memory", 0); return; }
    const int n = 6;
    for (int e = 0; e < n; ++e) {
        double row[GAPS_OBS_MAX_COLUMNS];
        memcpy(row, e % 2 ? spike_row : overflow_row, sizeof row);
        gaps_row_set_event(row, e);
        row[GAPS_OBS_WEIGHT] = 0.5 + e;
        gaps_histograms_fill_event(&h, 0, row);
    }
    /* a state as a run of pp-z makes it (its weight unit set by hand), and one of ee-qq */
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_state_init(&lep, &cfg);
    gaps_config_set_process(&cfg, GAPS_PROCESS_PP_Z);
    gaps_state_init(&st, &cfg);
    st.w_unit = 1.0;
    memcpy(st.words, h.acc, (size_t)h.nbins_total * GAPS_ACC_WORDS * sizeof(uint64_t));
    st.events = n;
    char msg[512];
    check_true("state range", gaps_state_add_range(&st, 0, n, msg, sizeof msg) == 0);
    char path[] = "/tmp/gaps_test_lhc_XXXXXX";
    const int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    check_true("temporary file", f != NULL);
    if (!f) { free(h.acc); return; }
    check_true("state written", gaps_state_write(f, &st, NULL) == 0);
    fclose(f);
    const int rc = gaps_state_read(path, &back, NULL, msg, sizeof msg);
    if (rc != 0) printf("state read: %s\n", msg);
    check_true("LHC state read back (format 3, 2 leptpt entries per event)", rc == 0);
    check_true("LHC state: analysis and words kept",
               back.analysis == GAPS_ANALYSIS_LHC && back.events == (uint64_t)n
               && memcmp(back.words, st.words, sizeof st.words) == 0);
    /* a LEP state does not merge into it */
    check_true("LEP range", gaps_state_add_range(&lep, n, n + 1, msg, sizeof msg) == 0);
    msg[0] = 0;
    check_true("LEP state into an LHC state: refused",
               gaps_state_merge(&back, &lep, msg, sizeof msg) != 0
               && strstr(msg, "different analyses") != NULL);
    printf("merge refused: %s\n", msg);
    /* the YODA file: 19 /gaps_lhc histograms, zptfull's logarithmic edges, zphi's 0 */
    f = fopen(path, "w+");
    check_true("YODA written", f && gaps_yoda_write(f, &st, NULL) == 0);
    if (f) {
        rewind(f);
        char line[512];
        int objects = 0, log_edge = 0, zero_edge = 0, in_zptfull = 0, in_zphi = 0;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "BEGIN YODA_HISTO1D_V2 /gaps_lhc/", 32) == 0) {
                ++objects;
                in_zptfull = strstr(line, "/zptfull") != NULL;
                in_zphi = strstr(line, "/zphi") != NULL;
            }
            /* GAPS 2.1's edges to 7 digits: 0.5394862, 0.5820906 */
            if (in_zptfull && strncmp(line, "5.0000000000e-01\t5.3948615570", 29) == 0)
                ++log_edge;
            if (in_zptfull && strncmp(line, "5.3948615570", 12) == 0) ++log_edge;
            if (in_zptfull && strncmp(line, "5.8209062439", 12) == 0) ++log_edge;
            if (in_zphi && strncmp(line, "0.0000000000e+00\t6.4000000000e-02", 33) == 0)
                ++zero_edge;
        }
        check_true("YODA: 19 /gaps_lhc histograms", objects == 19);
        check_true("YODA: zptfull edges 0.5, 0.5394862, 0.5820906", log_edge == 3);
        check_true("YODA: zphi edge exactly 0", zero_edge == 1);
        fclose(f);
    }
    unlink(path);
    free(h.acc);
}

/* ---- gaps_atan2 against the C library ---- */
static void test_atan2(void)
{
    uint64_t s = 88172645463325252ull;
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const double u = (double)(s >> 11) * 0x1.0p-53;
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const double v = (double)(s >> 11) * 0x1.0p-53;
        const double x = (u - 0.5) * pow(10.0, (double)(i % 13) - 6.0);
        const double y = (v - 0.5) * pow(10.0, (double)((i / 13) % 13) - 6.0);
        const double got = gaps_atan2(y, x), want = atan2(y, x);
        const double err = fabs(got - want) / fmax(fabs(want), 0x1.0p-1022);
        if (err > worst) worst = err;
    }
    printf("gaps_atan2: largest relative difference to atan2 %.3g (2^-52 = 2.2e-16)\n", worst);
    check_true("gaps_atan2 within 3 ulp of atan2", worst <= 6.7e-16);
    const double specials[][2] = { { 0.0, 0.0 }, { -0.0, 0.0 }, { 0.0, -0.0 }, { -0.0, -0.0 },
                                   { 0.0, -1.0 }, { -0.0, -1.0 }, { 1.0, 0.0 }, { -1.0, 0.0 },
                                   { HUGE_VAL, HUGE_VAL }, { -HUGE_VAL, 1.0 },
                                   { 1.0, -HUGE_VAL }, { 1.0, 1.0 }, { 1.0, -1.0 } };
    for (unsigned k = 0; k < sizeof specials / sizeof specials[0]; ++k) {
        const double got = gaps_atan2(specials[k][0], specials[k][1]);
        const double want = atan2(specials[k][0], specials[k][1]);
        char what[80];
        snprintf(what, sizeof what, "gaps_atan2(%g, %g) = %g", specials[k][0], specials[k][1],
                 want);
        check_true(what, fabs(got - want) <= 4.5e-16 * fabs(want) && signbit(got) == signbit(want));
    }
    check_true("gaps_atan2(NaN, 1) is NaN", isnan(gaps_atan2(NAN, 1.0)));
}

int main(void)
{
    double spike_row[GAPS_OBS_MAX_COLUMNS], overflow_row[GAPS_OBS_MAX_COLUMNS];
    test_z_and_one_jet();
    test_back_to_back_jets(spike_row);
    test_cuts();
    test_missing_and_leptons();
    test_antikt_small();
    test_njets_overflow(overflow_row);
    test_antikt_plain_scan();
    test_histograms(spike_row, overflow_row);
    test_state_and_yoda(spike_row, overflow_row);
    test_atan2();
    if (failures) {
        printf("test_lhc_observables: %d of %d checks FAILED\n", failures, checks);
        return 1;
    }
    printf("test_lhc_observables: all %d checks passed\n", checks);
    return 0;
}
