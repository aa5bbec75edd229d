/* test_scale_variations.c -- the hard process's scale-variation weights (--vary scales,
 * doc/physics.md section 17.6) against an independent fixed-order integration of the same
 * scale choices (issue 31 item 4).
 *
 * Usage: test_scale_variations PDFSETS_DIR TABLE N [MEMBER_SETS_DIR SET]
 *
 * TABLE holds the lines "SCALES PROCESS lo|nlo kR kF SIGMA_PB" of `test_pp_w_nlo PDFDIR
 * --scales` and `test_pp_h_nlo PDFDIR --scales`: the textbook MSbar cross sections of pp-z
 * (on shell), pp-w and pp-h at LO and NLO with mu_R = kR mu_R0, mu_F = kF mu_F0, written
 * apart from the generator's Catani-Seymour pieces.  For each process and order, N hard events
 * are made as a run makes them (gaps_physics_setup() of a configuration with --vary scales, so
 * that the run's own set-up of the variations is what is tested; gaps_process_generate(), no
 * shower: the shower leaves these weights alone, 17.6), and for each of the six variations
 *   1. its cross section, the mean of w f_v (f_v the event's factor), must agree with the
 *      table's within 4 standard errors;
 *   2. its shift from the nominal, the mean of w (f_v - 1), must agree with the table's
 *      sigma_v - sigma_1 within 4 standard errors of that mean: the same events make both, so
 *      this tests the variation far below the sample's own error (pp-z NLO at 10^6 events:
 *      the shifts' errors are ~ 0.01 % of sigma);
 *   3. the control: the shift test must fail for the events' nominal weights (f_v = 1) in
 *      every variation whose table shift is at least 10 of those errors, so that the test
 *      has power where the variation matters; at LO a mu_R variation of a process without
 *      alpha_s in its Born has f_v = 1 exactly and a table shift of exactly 0 (checked).
 * With MEMBER_SETS_DIR and SET (a set with members, tests/make_pdf_members.py's), the same
 * for --vary pdf (doc/physics.md 17.10): TABLE's lines "MEMBER M PROCESS lo|nlo SIGMA_PB" of
 * `test_pp_w_nlo DIR --member SET/M` are the fixed-order cross sections of pp-z and pp-w with
 * member M; N hard events of a run with --vary pdf (members 1 .. NumMembers - 1 as its
 * variations, SET/0 its densities) give each member's cross section (4 standard errors),
 * its shift from the nominal against the table's sigma_M - sigma_0 (4 standard errors of the
 * shift), and the control (the nominal weights' shift 0 fails where the table's is 10 errors).
 * Exit status 0 if every check passes. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/event_pool.h"
#include "gaps/generator.h"
#include "gaps/pdf.h"
#include "gaps/process.h"
#include "gaps/rng.h"
#include "gaps/vary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define PULL_MAX 4.0
#define POWER_MIN 10.0
#define MAX_ROWS 64

typedef struct fo_row {
    char process[16], order[4];
    double kr, kf, sigma;
    int member;   /* MEMBER lines: the PDF member; -1 for SCALES lines */
} fo_row;

static fo_row table[MAX_ROWS];
static int n_table;

static int read_table(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    while (fgets(line, sizeof line, f) && n_table < MAX_ROWS) {
        fo_row r;
        r.member = -1;
        if (sscanf(line, "SCALES %15s %3s %lf %lf %lf", r.process, r.order, &r.kr, &r.kf,
                   &r.sigma) == 5)
            table[n_table++] = r;
        else if (sscanf(line, "MEMBER %d %15s %3s %lf", &r.member, r.process, r.order,
                        &r.sigma) == 4 && r.member >= 0)
            r.kr = r.kf = 1.0, table[n_table++] = r;
    }
    fclose(f);
    return n_table > 0 ? 0 : -1;
}

/* The table's sigma of (process, order, kR, kF), NaN if it has none. */
static double fo_sigma(const char *process, int nlo, double kr, double kf)
{
    for (int i = 0; i < n_table; ++i)
        if (!strcmp(table[i].process, process) && !strcmp(table[i].order, nlo ? "nlo" : "lo")
            && table[i].kr == kr && table[i].kf == kf && table[i].member < 0)
            return table[i].sigma;
    return NAN;
}

/* The table's sigma of PDF member m, NaN if it has none. */
static double fo_member(const char *process, int nlo, int m)
{
    for (int i = 0; i < n_table; ++i)
        if (!strcmp(table[i].process, process) && !strcmp(table[i].order, nlo ? "nlo" : "lo")
            && table[i].member == m)
            return table[i].sigma;
    return NAN;
}

static gaps_physics phys;   /* large: not on the stack */

/* n hard events of phys (random streams of `seed`): the sums of the nominal weights w and
 * their squares, and for each of the nv variations those of w f_v and of the shift
 * w (f_v - 1). */
static void sample(long n, uint32_t seed, int nv, double *s0, double *s00, double *sv,
                   double *svv, double *sd, double *sdd)
{
    *s0 = *s00 = 0.0;
    for (int v = 0; v < nv; ++v) sv[v] = svv[v] = sd[v] = sdd[v] = 0.0;
    for (long i = 0; i < n; ++i) {
        gaps_rng rng = gaps_rng_make(seed, (uint64_t)i, 0);
        gaps_hard_event ev;
        double factors[GAPS_VARY_HARD_MAX];
        ev.vary = factors;
        ev.vary_stride = 1;
        gaps_process_generate(&phys.proc, &rng, &ev);
        const double w = ev.weight;
        *s0 += w;
        *s00 += w * w;
        for (int v = 0; v < nv; ++v) {
            const double wv = w * factors[v], d = wv - w;
            sv[v] += wv;
            svv[v] += wv * wv;
            sd[v] += d;
            sdd[v] += d * d;
        }
    }
}

static void one(const char *process, int nlo, const gaps_pdf *pdf, long n)
{
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_config_set_process(&cfg, gaps_process_lookup(process));
    cfg.nlo = nlo;
    cfg.vary = GAPS_VARY_SCALES;
    char msg[256];
    if (gaps_physics_setup(&phys, &cfg, pdf, msg, sizeof msg) != 0) {
        CHECK(0, "%s: gaps_physics_setup: %s", process, msg);
        return;
    }
    phys.proc.pdf = pdf;
    gaps_variation vars[GAPS_VARY_MAX];
    const int nv = gaps_vary_list(cfg.vary, 1, cfg.alphas_mz, NULL, vars);
    CHECK(nv == 6 && phys.proc.scales.n == 6 && phys.vary_hard_first == 0,
          "%s: %d variations, %d of the hard process", process, nv, phys.proc.scales.n);
    double s0, s00, sv[GAPS_VARY_HARD_MAX], svv[GAPS_VARY_HARD_MAX], sd[GAPS_VARY_HARD_MAX],
        sdd[GAPS_VARY_HARD_MAX];
    sample(n, 20261202u, 6, &s0, &s00, sv, svv, sd, sdd);
    const double fo0 = fo_sigma(process, nlo, 1.0, 1.0);
    const double m0 = s0 / n, e0 = sqrt(fmax(s00 / n - m0 * m0, 0.0) / n);
    printf("%s %s, %ld hard events: nominal %.3f +- %.3f pb, fixed order %.3f (pull %+.2f)\n",
           process, nlo ? "NLO" : "LO", n, m0, e0, fo0, (m0 - fo0) / e0);
    CHECK(fabs(m0 - fo0) < PULL_MAX * e0, "%s %s: nominal %.3f +- %.3f against %.3f", process,
          nlo ? "NLO" : "LO", m0, e0, fo0);
    for (int v = 0; v < 6; ++v) {
        const double fo = fo_sigma(process, nlo, vars[v].mur, vars[v].muf);
        CHECK(isfinite(fo), "%s: the table has no %s", process, vars[v].name);
        const double m = sv[v] / n, e = sqrt(fmax(svv[v] / n - m * m, 0.0) / n);
        const double d = sd[v] / n, ed = sqrt(fmax(sdd[v] / n - d * d, 0.0) / n);
        const double fd = fo - fo0;
        const double pull = (m - fo) / e, pull_d = ed > 0.0 ? (d - fd) / ed : (d == fd ? 0.0 : INFINITY);
        const double power = ed > 0.0 ? fabs(fd) / ed : 0.0;
        printf("  %-16s %12.3f +- %8.3f  fixed order %12.3f  pull %+5.2f   shift %+10.3f +- %.3f "
               "against %+10.3f  pull %+5.2f%s\n",
               vars[v].name, m, e, fo, pull, d, ed, fd, pull_d,
               power >= POWER_MIN ? "  (the nominal's shift 0 fails it)" : "");
        CHECK(fabs(m - fo) < PULL_MAX * e, "%s %s %s: %.3f +- %.3f against %.3f", process,
              nlo ? "NLO" : "LO", vars[v].name, m, e, fo);
        CHECK(fabs(pull_d) < PULL_MAX, "%s %s %s: shift %.4f +- %.4f against %.4f", process,
              nlo ? "NLO" : "LO", vars[v].name, d, ed, fd);
        if (power >= POWER_MIN)   /* the control: unvaried weights have shift 0 */
            CHECK(fabs(fd) > PULL_MAX * ed, "%s %s: no power", process, vars[v].name);
        if (ed == 0.0)   /* f_v = 1 for every event: only where the table does not move */
            CHECK(fd == 0.0 || fabs(fd) < 1e-9 * fabs(fo0), "%s %s %s: factors 1, table shift %g",
                  process, nlo ? "NLO" : "LO", vars[v].name, fd);
    }
}

/* --vary pdf: the members' weights of n hard events (central: member 0, members[m - 1]:
 * member m) against the table's MEMBER lines. */
static void members(const char *process, int nlo, const gaps_pdf *central,
                    const gaps_pdf *members_pdf, long n)
{
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_config_set_process(&cfg, gaps_process_lookup(process));
    cfg.nlo = nlo;
    cfg.vary = GAPS_VARY_PDF;
    char msg[256];
    if (gaps_physics_setup(&phys, &cfg, central, msg, sizeof msg) != 0) {
        CHECK(0, "%s: gaps_physics_setup: %s", process, msg);
        return;
    }
    phys.proc.pdf = central;
    const int nv = phys.proc.scales.n;
    CHECK(nv == central->num_members - 1 && phys.n_vary == nv && phys.vary_hard_first == 0,
          "%s: %d variations, %d of the hard process", process, phys.n_vary, nv);
    if (nv <= 0 || nv > 8) return;
    const gaps_pdf *hard[GAPS_VARY_HARD_MAX] = { 0 };
    for (int v = 0; v < nv; ++v) hard[v] = &members_pdf[phys.vary_pdf_member[v] - 1];
    gaps_process_set_scales_pdf(&phys.proc, hard);
    double s0, s00, sv[GAPS_VARY_HARD_MAX], svv[GAPS_VARY_HARD_MAX], sd[GAPS_VARY_HARD_MAX],
        sdd[GAPS_VARY_HARD_MAX];
    sample(n, 20261203u, nv, &s0, &s00, sv, svv, sd, sdd);
    const char *order = nlo ? "NLO" : "LO";
    const double fo0 = fo_member(process, nlo, 0);
    const double m0 = s0 / n, e0 = sqrt(fmax(s00 / n - m0 * m0, 0.0) / n);
    printf("%s %s --vary pdf, %ld hard events: member 0 %.3f +- %.3f pb, fixed order %.3f "
           "(pull %+.2f)\n", process, order, n, m0, e0, fo0, (m0 - fo0) / e0);
    CHECK(fabs(m0 - fo0) < PULL_MAX * e0, "%s %s: member 0 %.3f +- %.3f against %.3f",
          process, order, m0, e0, fo0);
    for (int v = 0; v < nv; ++v) {
        const int mem = phys.vary_pdf_member[v];
        const double fo = fo_member(process, nlo, mem);
        CHECK(isfinite(fo), "%s: the table has no member %d", process, mem);
        const double m = sv[v] / n, e = sqrt(fmax(svv[v] / n - m * m, 0.0) / n);
        const double d = sd[v] / n, ed = sqrt(fmax(sdd[v] / n - d * d, 0.0) / n);
        const double fd = fo - fo0, pull_d = ed > 0.0 ? (d - fd) / ed : INFINITY;
        const double power = ed > 0.0 ? fabs(fd) / ed : 0.0;
        printf("  member %d  %12.3f +- %8.3f  fixed order %12.3f  pull %+5.2f   shift %+10.3f "
               "+- %.3f against %+10.3f  pull %+5.2f%s\n", mem, m, e, fo, (m - fo) / e, d, ed,
               fd, pull_d, power >= POWER_MIN ? "  (the nominal's shift 0 fails it)" : "");
        CHECK(fabs(m - fo) < PULL_MAX * e, "%s %s member %d: %.3f +- %.3f against %.3f",
              process, order, mem, m, e, fo);
        CHECK(fabs(pull_d) < PULL_MAX, "%s %s member %d: shift %.4f +- %.4f against %.4f",
              process, order, mem, d, ed, fd);
        CHECK(power >= POWER_MIN, "%s %s member %d: the shift %.3f is only %.1f of its errors "
              "(no power)", process, order, mem, fd, power);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_scale_variations PDFSETS_DIR TABLE N\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (read_table(argv[2]) != 0) {
        fprintf(stderr, "test_scale_variations: no SCALES lines in %s\n", argv[2]);
        return 2;
    }
    const long n = atol(argv[3]);
    gaps_pdf pdf;
    char err[512];
    if (gaps_pdf_load(&pdf, GAPS_DEFAULT_PDF, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "test_scale_variations: %s\n", err);
        return 2;
    }
    const double t0 = test_now();
    if (argc > 5) {   /* --vary pdf against the MEMBER lines */
        gaps_pdf central, mem[8];
        char spec[160];
        snprintf(spec, sizeof spec, "%s/0", argv[5]);
        int rc = gaps_pdf_load(&central, spec, argv[4], err, sizeof err);
        const int n_mem = rc == 0 ? central.num_members - 1 : 0;
        if (rc == 0 && (n_mem < 1 || n_mem > 8))
            rc = -1, snprintf(err, sizeof err, "%s: %d members, 2 to 9 are tested", spec,
                              central.num_members);
        for (int m = 1; rc == 0 && m <= n_mem; ++m) {
            snprintf(spec, sizeof spec, "%s/%d", argv[5], m);
            rc = gaps_pdf_load(&mem[m - 1], spec, argv[4], err, sizeof err);
        }
        if (rc != 0) {
            fprintf(stderr, "test_scale_variations: %s\n", err);
            return 2;
        }
        static const char *pdf_processes[] = { "pp-z", "pp-w" };
        for (int p = 0; p < 2; ++p)
            for (int nlo = 0; nlo <= 1; ++nlo)
                members(pdf_processes[p], nlo, &central, mem, nlo ? n : n / 4);
        for (int m = 0; m < n_mem; ++m) gaps_pdf_free(&mem[m]);
        gaps_pdf_free(&central);
        printf("%.1f s\n", test_now() - t0);
        gaps_pdf_free(&pdf);
        if (failures) printf("%d check(s) failed\n", failures);
        return failures ? 1 : 0;
    }
    static const char *processes[] = { "pp-z", "pp-w", "pp-h" };
    for (int p = 0; p < 3; ++p)
        for (int nlo = 0; nlo <= 1; ++nlo) one(processes[p], nlo, &pdf, nlo ? n : n / 4);
    printf("%.1f s\n", test_now() - t0);
    gaps_pdf_free(&pdf);
    if (failures) printf("%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
