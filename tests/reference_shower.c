/* reference_shower.c -- an independent, deliberately plain implementation of the dipole
 * shower of doc/physics.md section 3, used to cross-check the production generator.
 *
 * Written from doc/physics.md alone (not from src/shower/veto.c), so that a shared misreading of the
 * specification is the only way both programs can agree and be wrong.  Everything is done
 * the obvious way: one event at a time, an array-of-structs event record, an O(n^2) dipole
 * scan at every step, and the literal per-(dipole, kernel) competition of trial scales
 * ("largest t' wins") rather than the summed-overestimate variant.  It shares with the
 * production program only what is not under test here: the hard process, alpha_s, the
 * observables and the histogram/YODA machinery (those have their own unit tests).
 *
 * Usage: reference_shower --events N --seed S --output FILE.yoda [--ecm E]
 *                         [--alphas-order K] [--alphas-mz X] [--tcut T]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaps/alphas.h"
#include "gaps/constants.h"
#include "gaps/analysis.h"
#include "gaps/histogram.h"
#include "gaps/matrix_element.h"
#include "gaps/observables.h"
#include "gaps/rng.h"
#include "gaps/state.h"
#include "gaps/yoda.h"

#define MAXP 64 /* event record capacity: an event needing more is a fatal error here */

typedef struct parton {
    double p[4]; /* (E, px, py, pz), GeV */
    int flav;    /* PDG code: +-1..5 quarks, 21 gluon */
    int col, acol;
} parton;

typedef struct event {
    int n;
    parton q[MAXP];
} event;

enum kernel { K_QQG, K_GGG, K_GQQ }; /* q->qg (also qbar), g->gg, g->q qbar */

/* Run parameters, shared by everything below. */
static double g_ecm = GAPS_DEFAULT_ECM, g_tcut = GAPS_DEFAULT_TCUT, g_amax;
static gaps_alphas g_as;

static void fail(const char *msg, long ev)
{
    fprintf(stderr, "reference_shower: event %ld: %s\n", ev, msg);
    exit(2);
}

static double dot(const double a[4], const double b[4])
{
    return a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
}

/* Boost p by velocity beta (three-vector), |beta| < 1. */
static void boost(double p[4], const double beta[3])
{
    double b2 = beta[0] * beta[0] + beta[1] * beta[1] + beta[2] * beta[2];
    if (b2 <= 0) return;
    double gamma = 1.0 / sqrt(1.0 - b2);
    double bp = beta[0] * p[1] + beta[1] * p[2] + beta[2] * p[3];
    double g2 = (gamma - 1.0) / b2;
    for (int a = 0; a < 3; a++) p[a + 1] += g2 * bp * beta[a] + gamma * beta[a] * p[0];
    p[0] = gamma * (p[0] + bp);
}

/* Colour connection of the ordered pair (i, k) as doc/physics.md defines it: 1 through the
 * emitter's colour, 2 through its anticolour, 3 both, 0 none. */
static int connected(const parton *i, const parton *k)
{
    int c = 0;
    if (i->col != 0 && i->col == k->acol) c |= 1;
    if (i->acol != 0 && i->acol == k->col) c |= 2;
    return c;
}

/* Splitting function P(z, y) and its overestimate Q(z) of each kernel (doc/physics.md table). */
static double kernel_P(int k, double z, double y)
{
    switch (k) {
    case K_QQG: return GAPS_CF * (2.0 / (1.0 - z * (1.0 - y)) - (1.0 + z));
    case K_GGG: return GAPS_CA / 2.0 * (2.0 / (1.0 - z * (1.0 - y)) - 2.0 + z * (1.0 - z));
    default:    return GAPS_TR / 2.0 * (1.0 - 2.0 * z * (1.0 - z));
    }
}
static double kernel_Q(int k, double z)
{
    switch (k) {
    case K_QQG: return 2.0 * GAPS_CF / (1.0 - z);
    case K_GGG: return GAPS_CA / (1.0 - z);
    default:    return GAPS_TR / 2.0;
    }
}
/* Integral of Q over [zm, zp]. */
static double kernel_I(int k, double zm, double zp)
{
    switch (k) {
    case K_QQG: return 2.0 * GAPS_CF * log((1.0 - zm) / (1.0 - zp));
    case K_GGG: return GAPS_CA * log((1.0 - zm) / (1.0 - zp));
    default:    return GAPS_TR / 2.0 * (zp - zm);
    }
}

/* Apply an accepted emission: emitter i, spectator k, kernel, flavour f (g->qqbar only). */
static void emit(event *e, int i, int k, int kern, int f, double z, double y, gaps_rng *rng,
                 long ev)
{
    if (e->n >= MAXP) fail("event record capacity exceeded", ev);
    double pi[4], pk[4], Q[4];
    memcpy(pi, e->q[i].p, sizeof pi);
    memcpy(pk, e->q[k].p, sizeof pk);
    for (int a = 0; a < 4; a++) Q[a] = pi[a] + pk[a];
    double Q2 = dot(Q, Q);
    double kt = sqrt(Q2 * y * z * (1.0 - z));
    double phi = 2.0 * GAPS_PI * gaps_rng_uniform(rng);

    /* k_perp: in the dipole rest frame pi~ and pk~ are back to back along n, so any vector
     * (0, v) with v perpendicular to n is orthogonal (Minkowski) to both; boosting back to
     * the lab preserves that.  The reference direction for phi is the coordinate axis least
     * aligned with n; since phi is uniform the choice does not matter. */
    double to_rest[3] = { -Q[1] / Q[0], -Q[2] / Q[0], -Q[3] / Q[0] };
    double to_lab[3] = { Q[1] / Q[0], Q[2] / Q[0], Q[3] / Q[0] };
    double r[4];
    memcpy(r, pi, sizeof r);
    boost(r, to_rest);
    double len = sqrt(r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    double n[3] = { r[1] / len, r[2] / len, r[3] / len };
    int amin = 0;
    for (int a = 1; a < 3; a++)
        if (fabs(n[a]) < fabs(n[amin])) amin = a;
    double ref[3] = { 0, 0, 0 };
    ref[amin] = 1.0;
    double e1[3] = { n[1] * ref[2] - n[2] * ref[1], n[2] * ref[0] - n[0] * ref[2],
                     n[0] * ref[1] - n[1] * ref[0] };
    double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int a = 0; a < 3; a++) e1[a] /= l1;
    double e2[3] = { n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2],
                     n[0] * e1[1] - n[1] * e1[0] };
    double kp[4] = { 0, 0, 0, 0 };
    for (int a = 0; a < 3; a++) kp[a + 1] = kt * (cos(phi) * e1[a] + sin(phi) * e2[a]);
    boost(kp, to_lab);

    parton *I = &e->q[i], *K = &e->q[k], *J = &e->q[e->n];
    for (int a = 0; a < 4; a++) {
        I->p[a] = z * pi[a] + (1.0 - z) * y * pk[a] + kp[a];
        J->p[a] = (1.0 - z) * pi[a] + z * y * pk[a] - kp[a];
        K->p[a] = (1.0 - y) * pk[a];
    }

    /* Colours (leading colour), doc/physics.md: n = one more than the largest tag in use. */
    int nc = 0;
    for (int m = 0; m < e->n; m++) {
        if (e->q[m].col > nc) nc = e->q[m].col;
        if (e->q[m].acol > nc) nc = e->q[m].acol;
    }
    nc += 1;
    int a = I->col, b = I->acol;
    if (kern == K_QQG) {
        J->flav = GAPS_GLUON;
        if (I->flav > 0) { I->col = nc; J->col = a; J->acol = nc; }   /* quark (a,0) */
        else             { I->acol = nc; J->col = nc; J->acol = b; }  /* antiquark (0,a) */
    } else if (kern == K_GGG) {
        J->flav = GAPS_GLUON;
        int how = connected(I, K);
        if (how == 3) how = gaps_rng_uniform(rng) < 0.5 ? 1 : 2;
        if (how == 1) { I->col = nc; J->col = a; J->acol = nc; }      /* through colour a */
        else          { I->acol = nc; J->col = nc; J->acol = b; }     /* through anticolour b */
    } else {
        I->flav = f;  I->col = a; I->acol = 0;
        J->flav = -f; J->col = 0; J->acol = b;
    }
    e->n++;
}

/* Shower one event in place, doc/physics.md section 3, literally. */
static void shower(event *e, gaps_rng *rng, long ev)
{
    double t = g_ecm * g_ecm; /* start scale t = s */
    for (;;) {
        /* Step 1: every (dipole, kernel[, flavour]) draws its own trial; the largest wins. */
        double best = 0.0, bzm = 0, bzp = 0, bm2 = 0;
        int bi = -1, bk = -1, bkern = -1, bf = 0;
        for (int i = 0; i < e->n; i++)
            for (int k = 0; k < e->n; k++) {
                if (i == k || !connected(&e->q[i], &e->q[k])) continue;
                double pik[4];
                for (int a = 0; a < 4; a++) pik[a] = e->q[i].p[a] + e->q[k].p[a];
                double m2 = dot(pik, pik);
                if (m2 < 4.0 * g_tcut) continue;
                double zp = 0.5 * (1.0 + sqrt(1.0 - 4.0 * g_tcut / m2)), zm = 1.0 - zp;
                int gluon = e->q[i].flav == GAPS_GLUON;
                /* a quark has one kernel; a gluon has g->gg and g->qqbar for 5 flavours */
                int nk = gluon ? 1 + GAPS_N_FLAVOURS : 1;
                for (int c = 0; c < nk; c++) {
                    int kern = !gluon ? K_QQG : (c == 0 ? K_GGG : K_GQQ);
                    double rate = g_amax / (2.0 * GAPS_PI) * kernel_I(kern, zm, zp);
                    double tt = t * pow(gaps_rng_uniform(rng), 1.0 / rate);
                    if (tt > best) {
                        best = tt; bi = i; bk = k; bkern = kern; bf = c;
                        bzm = zm; bzp = zp; bm2 = m2;
                    }
                }
            }
        /* Step 2: cutoff. */
        if (bi < 0 || best <= g_tcut) return;
        t = best;
        /* Step 3: z from the overestimate, then y. */
        double R = gaps_rng_uniform(rng), z;
        if (bkern == K_GQQ) z = bzm + (bzp - bzm) * R;
        else z = 1.0 - (1.0 - bzp) * pow((1.0 - bzm) / (1.0 - bzp), R);
        double y = t / (bm2 * z * (1.0 - z));
        if (y >= 1.0) continue;
        /* Step 4: veto. */
        double ratio = (1.0 - y) * gaps_alphas_value(&g_as, t) * kernel_P(bkern, z, y) /
                       (g_amax * kernel_Q(bkern, z));
        if (ratio > 1.0 || ratio < 0.0) fail("veto ratio outside [0, 1]", ev);
        if (gaps_rng_uniform(rng) >= ratio) continue;
        /* Step 5. */
        emit(e, bi, bk, bkern, bf, z, y, rng, ev);
    }
}

/* The checks doc/physics.md requires after every event; any violation is fatal. */
static void check_event(const event *e, long ev)
{
    double sum[4] = { 0, 0, 0, 0 };
    for (int m = 0; m < e->n; m++) {
        const double *p = e->q[m].p;
        for (int a = 0; a < 4; a++) sum[a] += p[a];
        /* massless to rounding: m^2 relative to E^2 (soft partons lose a few digits) */
        if (!(p[0] > 0) || fabs(dot(p, p)) > 1e-8 * p[0] * p[0]) fail("parton not massless", ev);
    }
    double want[4] = { g_ecm, 0, 0, 0 };
    for (int a = 0; a < 4; a++)
        if (fabs(sum[a] - want[a]) > 1e-10 * g_ecm) fail("momentum not conserved", ev);
    for (int m = 0; m < e->n; m++) {
        int tags[2] = { e->q[m].col, e->q[m].acol };
        for (int s = 0; s < 2; s++) {
            if (tags[s] == 0) continue;
            int nc = 0, na = 0;
            for (int l = 0; l < e->n; l++) {
                nc += e->q[l].col == tags[s];
                na += e->q[l].acol == tags[s];
            }
            if (nc != 1 || na != 1) fail("colour tag not paired exactly once", ev);
        }
        int quark = abs(e->q[m].flav) >= 1 && abs(e->q[m].flav) <= 5;
        int ok = quark ? (e->q[m].flav > 0 ? e->q[m].col && !e->q[m].acol
                                           : !e->q[m].col && e->q[m].acol)
                       : (e->q[m].flav == GAPS_GLUON && e->q[m].col && e->q[m].acol);
        if (!ok) fail("flavour and colour do not match", ev);
    }
}

int main(int argc, char **argv)
{
    long nev = 100000;
    unsigned long seed = 1;
    int order = 2;
    double asmz = GAPS_DEFAULT_ALPHAS_MZ;
    const char *out = NULL;
    for (int a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!v) { fprintf(stderr, "missing value for %s\n", argv[a]); return 1; }
        if (!strcmp(argv[a], "--events")) nev = atol(v);
        else if (!strcmp(argv[a], "--seed")) seed = strtoul(v, NULL, 10);
        else if (!strcmp(argv[a], "--output")) out = v;
        else if (!strcmp(argv[a], "--ecm")) g_ecm = atof(v);
        else if (!strcmp(argv[a], "--alphas-order")) order = atoi(v);
        else if (!strcmp(argv[a], "--alphas-mz")) asmz = atof(v);
        else if (!strcmp(argv[a], "--tcut")) g_tcut = atof(v);
        else { fprintf(stderr, "unknown option %s\n", argv[a]); return 1; }
        a++;
    }
    if (!out || nev <= 0 || g_ecm <= 0 || g_tcut <= 0) {
        fprintf(stderr, "usage: reference_shower --events N --seed S --output FILE.yoda "
                        "[--ecm E] [--alphas-order K] [--alphas-mz X] [--tcut T]\n");
        return 1;
    }
    if (gaps_alphas_init(&g_as, order, asmz) != 0 || !gaps_alphas_is_defined(&g_as, g_tcut)) {
        fprintf(stderr, "reference_shower: alpha_s not defined down to the cutoff\n");
        return 1;
    }
    g_amax = gaps_alphas_value(&g_as, g_tcut); /* alpha_s decreases with t */

    gaps_me me;
    gaps_me_init(&me, g_ecm);
    gaps_histograms h;
    gaps_histograms_layout(&h, 1, me.w_max, GAPS_ANALYSIS_LEP);
    h.acc = calloc((size_t)gaps_histograms_words(&h), sizeof(uint64_t));
    gaps_hist_result *res = malloc(sizeof *res);
    if (!h.acc || !res) { fprintf(stderr, "out of memory\n"); return 1; }

    static event e;
    static double mom[MAXP][4];
    long nmax = 0;
    for (long ev = 0; ev < nev; ev++) {
        /* One random stream per event: the hard process first, then the shower. */
        gaps_rng rng = gaps_rng_make((uint32_t)seed, (uint64_t)ev, 0);
        gaps_me_point pt = gaps_me_generate(&me, &rng);
        double E = 0.5 * g_ecm, st = sqrt(1.0 - pt.cos_theta * pt.cos_theta);
        double dir[3] = { st * cos(pt.phi), st * sin(pt.phi), pt.cos_theta };
        e.n = 2;
        e.q[0] = (parton){ { E, E * dir[0], E * dir[1], E * dir[2] }, pt.flavour, 1, 0 };
        e.q[1] = (parton){ { E, -E * dir[0], -E * dir[1], -E * dir[2] }, -pt.flavour, 0, 1 };

        shower(&e, &rng, ev);
        check_event(&e, ev);
        if (e.n > nmax) nmax = e.n;

        for (int m = 0; m < e.n; m++) memcpy(mom[m], e.q[m].p, sizeof mom[m]);
        gaps_observables obs;
        gaps_observables_compute(e.n, (const double(*)[4])mom, &obs);
        double row[GAPS_OBS_MAX_COLUMNS];
        gaps_row_set_event(row, ev);
        row[GAPS_OBS_WEIGHT] = pt.weight;
        row[GAPS_OBS_NPARTONS] = e.n;
        gaps_lep_observables_row(row, &obs);
        gaps_histograms_fill_event(&h, 0, row);
    }

    gaps_histograms_result(&h, h.acc, res);   /* one copy: its words are the sums */
    double sigma, err;
    gaps_histograms_sigma(res, &sigma, &err);
    /* the YODA writer takes a run's exact state: the reference shower's accumulators are one
     * copy of the same words */
    static gaps_state st;
    memset(&st, 0, sizeof st);
    snprintf(st.version, sizeof st.version, "reference");
    st.ecm = g_ecm;
    st.alphas_mz = asmz;
    st.alphas_order = order;
    st.t_cut = g_tcut;
    st.seed = (uint32_t)seed;
    st.max_partons = MAXP;
    st.w_unit = me.w_max;
    memcpy(st.words, h.acc, sizeof st.words);
    st.events = (uint64_t)nev;
    FILE *f = fopen(out, "w");
    if (!f || gaps_yoda_write(f, &st, NULL) != 0 || fclose(f) != 0) {
        fprintf(stderr, "reference_shower: cannot write %s\n", out);
        return 1;
    }
    printf("reference_shower: %ld events, sigma = %.4f +- %.4f pb, max multiplicity %ld\n",
           nev, sigma, err, nmax);
    free(h.acc);
    free(res);
    return 0;
}
