/* Parton distributions (include/gaps/pdf.h, src/pdf/): CT14lo at every knot against the file
 * read independently here, continuity of the values and of their first derivatives across
 * knots, the outside-grid policy, ForcePositive, the all-flavour call against the
 * single-flavour one bit for bit, Q subgrids that the interpolation must not cross, and
 * corrupt, truncated and missing files, each refused with a message.
 *
 *   test_pdf PDFSETS_DIR [WORK_DIR]
 *
 * PDFSETS_DIR holds CT14lo/ (the source tree's share/pdfsets); synthetic sets are written
 * under WORK_DIR (default: a new directory in $TMPDIR or /tmp).  Returns 0 if all pass.
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/pdf.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            ++failures;                                                                        \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                        \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
        }                                                                                      \
    } while (0)

/* ------------------------------------------------------------------------------------------
 * The CT14lo grid read independently: the simplest reading of the lhagrid1 layout.
 * ------------------------------------------------------------------------------------------ */

typedef struct ref_grid {
    int nx, nq, nfl;
    double x[512], q[128];
    int pid[32];
    double *xf;   /* [(ix * nq + iq) * nfl + k], the file's order */
} ref_grid;

static int read_numbers(const char *line, double *out, int max)
{
    int n = 0;
    char *end;
    for (const char *p = line;; p = end) {
        const double v = strtod(p, &end);
        if (end == p || n == max) break;
        out[n++] = v;
    }
    return n;
}

static int read_reference(const char *path, ref_grid *g)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0;
    int state = 0;   /* 0 header, 1 x, 2 q, 3 flavours, 4 values */
    long nvalues = 0;
    double pid_d[32];
    while (getline(&line, &cap, f) > 0) {
        if (state == 0) {
            if (strncmp(line, "---", 3) == 0) state = 1;
        } else if (state == 1) {
            g->nx = read_numbers(line, g->x, 512);
            state = 2;
        } else if (state == 2) {
            g->nq = read_numbers(line, g->q, 128);
            state = 3;
        } else if (state == 3) {
            g->nfl = read_numbers(line, pid_d, 32);
            for (int k = 0; k < g->nfl; ++k) g->pid[k] = (int)pid_d[k];
            g->xf = malloc((size_t)g->nx * g->nq * g->nfl * sizeof *g->xf);
            state = 4;
        } else if (strncmp(line, "---", 3) == 0) {
            break;
        } else {
            nvalues += read_numbers(line, g->xf + nvalues, g->nfl);
        }
    }
    free(line);
    fclose(f);
    return nvalues == (long)g->nx * g->nq * g->nfl ? 0 : -1;
}

static double ref_xf(const ref_grid *g, int ix, int iq, int k)
{
    return g->xf[((size_t)ix * g->nq + iq) * g->nfl + k];
}

/* ------------------------------------------------------------------------------------------
 * CT14lo
 * ------------------------------------------------------------------------------------------ */

/* At a knot t_x and t_Q are exactly 0 (or exactly 1 at the last knot): the query's ln x and
 * ln Q^2 are gaps_log of the same doubles as the knots' (Q^2 = Q*Q both here and in the
 * library), and the Hermite weights at t = 0 and t = 1 are exactly (1,0,0,0) and (0,0,1,0),
 * so the sum is 1 * value + 0 * (finite slopes): the grid value itself, to the bit.  So the
 * comparison is exact, with ForcePositive = 1 applied to the expected value. */
static void test_knots(const gaps_pdf *pdf, const ref_grid *g)
{
    long checked = 0, wrong = 0;
    for (int ix = 0; ix < g->nx; ++ix)
        for (int iq = 0; iq < g->nq; ++iq) {
            double all[GAPS_PDF_NPARTONS];
            gaps_pdf_xfxq2_all(pdf, g->x[ix], g->q[iq] * g->q[iq], all);
            for (int k = 0; k < g->nfl; ++k) {
                const double v = ref_xf(g, ix, iq, k);
                const double expected = v < 0.0 ? 0.0 : v;
                const double got = gaps_pdf_xfxq2(pdf, g->pid[k], g->x[ix], g->q[iq] * g->q[iq]);
                const int slot = g->pid[k] == 21 ? 6 : g->pid[k] + 6;
                ++checked;
                if (got != expected || all[slot] != expected) {
                    if (++wrong <= 5)
                        printf("  knot x=%.17g Q=%.17g pid %d: %.17g (all: %.17g), grid %.17g\n",
                               g->x[ix], g->q[iq], g->pid[k], got, all[slot], v);
                }
            }
        }
    CHECK(wrong == 0, "%ld of %ld knot values differ from the grid", wrong, checked);
    printf("knots: %ld values (%d x, %d Q, %d flavours) equal to the grid exactly, %ld differ\n",
           checked, g->nx, g->nq, g->nfl, wrong);
}

/* Continuity across every interior knot of values and first derivatives: the Hermite pieces
 * share the knot value and the finite-difference slope on both sides.  Around a knot, five
 * points h = 1e-7 apart in ln x (or ln Q^2) give the value change across it and the
 * one-sided difference quotients on either side.  Their difference is O(h f'') (f'' reaches
 * ~5000 in CT14lo's narrow first Q interval) plus rounding (~1e-8): far below the jump that
 * a wrong slope would make, of the order of the slope itself, typically 0.1 to 1 times the
 * value (the negative control in test_continuity() shows it).  Both are measured relative to
 * the value (+ 1e-3, for the tiny values near x = 1).  Points where a value is <= 0 are
 * skipped (ForcePositive's clamp has a kink there). */
typedef struct jumps {
    long crossings;
    double value, slope;   /* largest relative changes */
} jumps;

static void jumps_at(const gaps_pdf *pdf, int pid, const double x[5], const double q2[5],
                     double h, jumps *j)
{
    double f[5];
    for (int i = 0; i < 5; ++i) f[i] = gaps_pdf_xfxq2(pdf, pid, x[i], q2[i]);
    if (!(f[0] > 0 && f[2] > 0 && f[4] > 0)) return;
    const double scale = fabs(f[2]) + 1e-3;
    const double dv = fabs(f[3] - f[1]) / scale;
    const double ds = fabs((f[1] - f[0]) / h - (f[4] - f[3]) / h) / scale;
    if (dv > j->value) j->value = dv;
    if (ds > j->slope) j->slope = ds;
    ++j->crossings;
}

static jumps knot_jumps(const gaps_pdf *pdf, const ref_grid *g)
{
    const double h = 1e-7;
    jumps j = {0, 0.0, 0.0};
    double x[5], q2[5];
    for (int k = 0; k < g->nfl; ++k) {
        /* across x knot ix, on every third Q knot and between Q knots */
        for (int iq = 0; iq < g->nq; iq += 3)
            for (int ix = 1; ix < g->nx - 1; ++ix) {
                for (int i = 0; i < 5; ++i) {
                    x[i] = i == 2 ? g->x[ix] : exp(log(g->x[ix]) + (i - 2) * h);
                    q2[i] = g->q[iq] * g->q[iq + (iq % 2 && iq + 1 < g->nq)];
                }
                jumps_at(pdf, g->pid[k], x, q2, h, &j);
            }
        /* across Q knot iq, on x between every seventh pair of x knots */
        for (int ix = 0; ix + 1 < g->nx; ix += 7)
            for (int iq = 1; iq < g->nq - 1; ++iq) {
                for (int i = 0; i < 5; ++i) {
                    x[i] = sqrt(g->x[ix] * g->x[ix + 1]);
                    const double knot = g->q[iq] * g->q[iq];
                    q2[i] = i == 2 ? knot : exp(log(knot) + (i - 2) * h);
                }
                jumps_at(pdf, g->pid[k], x, q2, h, &j);
            }
    }
    return j;
}

static void test_continuity(const gaps_pdf *pdf, const ref_grid *g)
{
    const jumps j = knot_jumps(pdf, g);
    /* value: |f(+h) - f(-h)| <= 2 h |f'|, a few 1e-6 relative; slope: see above */
    CHECK(j.value < 1e-4, "values jump across a knot: relative %.3g", j.value);
    CHECK(j.slope < 1e-3, "slopes jump across a knot: relative %.3g", j.slope);
    /* negative control: end slopes of the x cubics off by 20 % on one side of each knot */
    gaps_pdf broken = *pdf;
    const size_t n = (size_t)pdf->nq * (pdf->nx - 1) * pdf->nfl * 4;
    broken.hermite = malloc(n * sizeof *broken.hermite);
    memcpy(broken.hermite, pdf->hermite, n * sizeof *broken.hermite);
    for (size_t i = 3; i < n; i += 4) broken.hermite[i] *= 0.8;
    const jumps b = knot_jumps(&broken, g);
    free(broken.hermite);
    CHECK(b.slope > 10 * 1e-3, "negative control: a broken slope gives only %.3g", b.slope);
    printf("continuity: %ld knot crossings, largest value change %.2g, slope change %.2g "
           "(relative; %.2g with slopes broken on purpose)\n", j.crossings, j.value, j.slope,
           b.slope);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static double uniform(void)   /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* gaps_pdf_xfxq2_all() gives, flavour by flavour, the bits of gaps_pdf_xfxq2(), inside and
 * outside the grid. */
static void test_all_equals_single(const gaps_pdf *pdf)
{
    long differ = 0, n = 0;
    for (int i = 0; i < 200000; ++i) {
        const double x = i % 50 == 0 ? 1.2 * uniform() : exp(log(1e-12) * uniform());
        const double q2 = exp(log(0.5) + (log(1e11) - log(0.5)) * uniform());
        double all[GAPS_PDF_NPARTONS];
        gaps_pdf_xfxq2_all(pdf, x, q2, all);
        for (int pid = -6; pid <= 6; ++pid) {
            ++n;
            if (!same_bits(all[pid + 6], gaps_pdf_xfxq2(pdf, pid == 0 ? 21 : pid, x, q2))) ++differ;
        }
    }
    double all[GAPS_PDF_NPARTONS];
    gaps_pdf_xfxq2_all(pdf, NAN, 10.0, all);
    CHECK(isnan(all[6]) && all[0] == 0.0, "xfxq2_all at x = NaN: gluon %g, top %g", all[6], all[0]);
    CHECK(differ == 0, "xfxq2_all differs from xfxq2 in %ld of %ld values", differ, n);
    printf("all flavours: %ld values bit-identical to the single-flavour call\n", n - differ);
}

static void test_outside(const gaps_pdf *pdf)
{
    const double q2min = pdf->q2min, q2max = pdf->q2max;
    CHECK(q2min == 1.295 * 1.295 && q2max == 1e10, "CT14lo Q^2 range [%.17g, %.17g]", q2min, q2max);
    CHECK(pdf->xmin == 1e-9 && pdf->xmax == 1.0, "CT14lo x range [%g, %g]", pdf->xmin, pdf->xmax);
    const double xs[] = {1e-9, 3e-7, 1e-3, 0.1, 0.55, 0.9};
    for (int i = 0; i < 6; ++i)
        for (int pid = -5; pid <= 5; ++pid) {
            const int p = pid == 0 ? 21 : pid;
            const double at_min = gaps_pdf_xfxq2(pdf, p, xs[i], q2min);
            const double at_max = gaps_pdf_xfxq2(pdf, p, xs[i], q2max);
            /* Q^2 frozen at the edges, exactly */
            CHECK(same_bits(gaps_pdf_xfxq2(pdf, p, xs[i], 1.0), at_min), "Q^2 = 1 not frozen");
            CHECK(same_bits(gaps_pdf_xfxq2(pdf, p, xs[i], 0.0), at_min), "Q^2 = 0 not frozen");
            CHECK(same_bits(gaps_pdf_xfxq2(pdf, p, xs[i], -5.0), at_min), "Q^2 < 0 not frozen");
            CHECK(same_bits(gaps_pdf_xfxq2(pdf, p, xs[i], 1e14), at_max), "Q^2 = 1e14 not frozen");
            CHECK(same_bits(gaps_pdf_xfxq2(pdf, p, xs[i], INFINITY), at_max), "Q^2 = inf");
        }
    /* x above the grid or not positive: 0; NaN in, NaN out; at x = x_max = 1 the grid's 0 */
    const double zero_x[] = {1.0000001, 2.0, INFINITY, 0.0, -0.3, -INFINITY};
    for (int i = 0; i < 6; ++i)
        CHECK(gaps_pdf_xfxq2(pdf, 21, zero_x[i], 100.0) == 0.0, "x = %g not 0", zero_x[i]);
    CHECK(gaps_pdf_xfxq2(pdf, 2, 1.0, 100.0) == 0.0, "u at x = 1");
    CHECK(isnan(gaps_pdf_xfxq2(pdf, 21, NAN, 100.0)), "x NaN");
    CHECK(isnan(gaps_pdf_xfxq2(pdf, 21, 0.1, NAN)), "Q^2 NaN");
    /* flavours the set lacks: 0; 0 is the gluon */
    const int absent[] = {6, -6, 7, 22, 2212};
    for (int i = 0; i < 5; ++i)
        CHECK(gaps_pdf_xfxq2(pdf, absent[i], 0.1, 100.0) == 0.0, "absent pid %d not 0", absent[i]);
    CHECK(same_bits(gaps_pdf_xfxq2(pdf, 0, 0.1, 100.0), gaps_pdf_xfxq2(pdf, 21, 0.1, 100.0)),
          "pid 0 is not the gluon");

    /* below x_min: the power law through the two lowest knots at this Q^2 */
    const double x0 = 1e-9, x1 = 1.131190e-09;
    double worst = 0.0;
    for (int iq = 0; iq < 8; ++iq) {
        const double q2 = exp(log(q2min) + iq * 3.0);
        for (int pid = -5; pid <= 5; ++pid) {
            const int p = pid == 0 ? 21 : pid;
            const double v0 = gaps_pdf_xfxq2(pdf, p, x0, q2), v1 = gaps_pdf_xfxq2(pdf, p, x1, q2);
            const double xs_low[] = {9.99e-10, 5e-10, 1e-11, 1e-15};
            for (int i = 0; i < 4; ++i) {
                const double got = gaps_pdf_xfxq2(pdf, p, xs_low[i], q2);
                double expected = v0;
                if (v0 > 0 && v1 > 0)
                    expected = v0 * pow(xs_low[i] / x0, log(v1 / v0) / log(x1 / x0));
                const double rel = fabs(got - expected) / (fabs(expected) + 1e-300);
                if (expected != 0.0 && rel > worst) worst = rel;
                if (expected == 0.0) CHECK(got == 0.0, "below x_min: %g instead of 0", got);
            }
            /* no jump at x_min */
            const double just_below = gaps_pdf_xfxq2(pdf, p, x0 * (1 - 1e-12), q2);
            CHECK(fabs(just_below - v0) <= 1e-9 * fabs(v0), "jump at x_min: %.17g vs %.17g",
                  just_below, v0);
        }
    }
    CHECK(worst < 1e-11, "below x_min: power law off by %.3g relative", worst);
    printf("outside the grid: Q^2 frozen exactly at both edges; 0 above x_max and for x <= 0; "
           "power law below x_min (worst relative %.2g against pow())\n", worst);
}

/* ------------------------------------------------------------------------------------------
 * Synthetic sets
 * ------------------------------------------------------------------------------------------ */

static char work_dir[4096];

static int make_dir(const char *path)
{
    return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        printf("FAIL cannot write %s: %s\n", path, strerror(errno));
        ++failures;
        return;
    }
    fwrite(text, 1, len, f);
    fclose(f);
}

/* A set NAME under work_dir/CASE: returns the search path (work_dir/CASE).  info or dat may
 * be NULL (file not written); dat_len < 0 means strlen. */
static const char *write_set(const char *case_name, const char *name, const char *info,
                             const char *dat, long dat_len)
{
    static char root[4200];
    char path[4400];
    snprintf(root, sizeof root, "%s/%s", work_dir, case_name);
    make_dir(root);
    snprintf(path, sizeof path, "%s/%s", root, name);
    make_dir(path);
    snprintf(path, sizeof path, "%s/%s/%s.info", root, name, name);
    remove(path);
    if (info) write_file(path, info, strlen(info));
    snprintf(path, sizeof path, "%s/%s/%s_0000.dat", root, name, name);
    remove(path);
    if (dat) write_file(path, dat, dat_len < 0 ? strlen(dat) : (size_t)dat_len);
    return root;
}

/* Subgrid s of the synthetic sets: x f = a + b ln x + c ln Q^2, per flavour column k.  Such
 * values are reproduced by the logcubic interpolation up to rounding, when it stays inside
 * one subgrid: the finite-difference slopes of a linear function are exact. */
static const double syn_x[] = {1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.7, 1.0};
static const double syn_q[3][6] = {{1.0, 1.5, 2.0, 3.0, 4.75},
                                   {4.75, 6.0, 10.0, 30.0, 100.0, 1000.0},
                                   {1000.0, 2000.0}};
static const int syn_nq[3] = {5, 6, 2};
static const int syn_pid[2] = {1, 21};

static double syn_value(int s, int k, double lnx, double lnq2)
{
    static const double a[3][2] = {{2.0, 3.0}, {7.0, 9.0}, {-1.0, 4.0}};
    static const double b[3][2] = {{-0.1, -0.3}, {-0.2, -0.5}, {-0.05, -0.4}};
    static const double c[3][2] = {{0.05, 0.1}, {-0.03, 0.02}, {0.01, -0.01}};
    return a[s][k] + b[s][k] * lnx + c[s][k] * lnq2;
}

static char *append(char *p, const char *end, const char *fmt, double v)
{
    const int n = snprintf(p, (size_t)(end - p), fmt, v);
    return n > 0 && p + n < end ? p + n : p;
}

/* The .dat text of a synthetic set with nsub subgrids (1 to 3). */
static void synthetic_dat(char *buf, size_t len, int nsub)
{
    char *p = buf, *end = buf + len;
    p += snprintf(p, (size_t)(end - p), "PdfType: central\nFormat: lhagrid1\n---\n");
    for (int s = 0; s < nsub; ++s) {
        for (int i = 0; i < 7; ++i) p = append(p, end, i ? " %.17g" : "%.17g", syn_x[i]);
        p = append(p, end, "\n", 0);
        for (int j = 0; j < syn_nq[s]; ++j) p = append(p, end, j ? " %.17g" : "%.17g", syn_q[s][j]);
        p += snprintf(p, (size_t)(end - p), "\n1 21\n");
        for (int i = 0; i < 7; ++i)
            for (int j = 0; j < syn_nq[s]; ++j) {
                const double lq2 = log(syn_q[s][j] * syn_q[s][j]);
                p = append(p, end, "%.17e", syn_value(s, 0, log(syn_x[i]), lq2));
                p = append(p, end, " %.17e\n", syn_value(s, 1, log(syn_x[i]), lq2));
            }
        p += snprintf(p, (size_t)(end - p), "---\n");
    }
}

static const char syn_info[] =
    "SetDesc: 'synthetic: linear in ln x and ln Q2 per subgrid'\n"
    "Format: lhagrid1\n"
    "NumMembers: 1\n"
    "Flavors: [1, 21]\n"
    "ForcePositive: 0\n"
    "MZ: 91.1876\n";

/* Three subgrids with a jump at each boundary: inside a subgrid the result is that subgrid's
 * linear function; a Q bracket or a Q-slope neighbour taken across a boundary would pull in
 * the jump (several units) and show at once. */
static void test_subgrids(void)
{
    static char dat[65536];
    char err[512];
    synthetic_dat(dat, sizeof dat, 3);
    const char *path = write_set("subgrids", "SYN3", syn_info, dat, -1);
    gaps_pdf pdf;
    if (gaps_pdf_load(&pdf, "SYN3", path, err, sizeof err) != 0) {
        CHECK(0, "synthetic 3-subgrid set refused: %s", err);
        return;
    }
    CHECK(pdf.nsub == 3 && pdf.nq == 13 && pdf.sub_first[1] == 5 && pdf.sub_first[2] == 11,
          "subgrids: nsub %d nq %d", pdf.nsub, pdf.nq);
    double worst = 0.0;
    for (int i = 0; i < 20000; ++i) {
        const double lnx = log(1e-4) * uniform();
        const double lq2 = log(2000.0 * 2000.0) * uniform();
        const double x = exp(lnx), q2 = exp(lq2);
        const int s = q2 >= 1000.0 * 1000.0 ? 2 : q2 >= 4.75 * 4.75 ? 1 : 0;
        for (int k = 0; k < 2; ++k) {
            const double v = gaps_pdf_xfxq2(&pdf, syn_pid[k], x, q2);
            const double d = fabs(v - syn_value(s, k, lnx, lq2));
            if (d > worst) worst = d;
        }
    }
    CHECK(worst < 1e-12, "subgrids: off the subgrid's own function by %.3g", worst);
    /* at a boundary the upper subgrid holds; just below it the lower one */
    const double qb2 = 4.75 * 4.75, lb = log(qb2), lx = log(0.05);
    CHECK(fabs(gaps_pdf_xfxq2(&pdf, 21, 0.05, qb2) - syn_value(1, 1, lx, lb)) < 1e-12,
          "boundary knot");
    CHECK(fabs(gaps_pdf_xfxq2(&pdf, 21, 0.05, qb2 * (1 - 1e-14)) - syn_value(0, 1, lx, lb)) < 1e-11,
          "just below the boundary");
    /* ForcePositive 0: the negative values of subgrid 3 come through */
    CHECK(gaps_pdf_xfxq2(&pdf, 1, 0.5, 1500.0 * 1500.0) < 0.0, "ForcePositive 0 clamped");
    printf("subgrids: 3 subgrids (2 to 6 Q knots), worst deviation %.2g from each subgrid's own "
           "function: no interpolation across a boundary\n", worst);
    gaps_pdf_free(&pdf);
}

/* ForcePositive 1 and 2 on a copy of CT14lo's c quark, which is negative near Q_min. */
static void test_force_positive(const char *sets, const ref_grid *g)
{
    /* a knot where c is negative */
    int cx = -1, cq = -1, kc = -1;
    for (int k = 0; k < g->nfl; ++k) if (g->pid[k] == 4) kc = k;
    for (int ix = 0; ix < g->nx && cx < 0; ++ix)
        for (int iq = 0; iq < g->nq; ++iq)
            if (ref_xf(g, ix, iq, kc) < 0) { cx = ix; cq = iq; break; }
    if (cx < 0) { CHECK(0, "CT14lo has no negative c value"); return; }
    char path[4400], err[512];
    snprintf(path, sizeof path, "%s/CT14lo/CT14lo_0000.dat", sets);
    FILE *f = fopen(path, "rb");
    if (!f) { CHECK(0, "cannot read %s", path); return; }
    static char dat[1 << 21];
    const size_t n = fread(dat, 1, sizeof dat, f);
    fclose(f);
    const double x = g->x[cx], q2 = g->q[cq] * g->q[cq], v = ref_xf(g, cx, cq, kc);
    for (int fp = 0; fp <= 2; ++fp) {
        char info[256], name[32];
        snprintf(name, sizeof name, "CTFP%d", fp);
        snprintf(info, sizeof info, "Format: lhagrid1\nFlavors: [-5, -4, -3, -2, -1, 1, 2, 3, 4, "
                 "5, 21]\nForcePositive: %d\n", fp);
        const char *root = write_set("force_positive", name, info, dat, (long)n);
        gaps_pdf pdf;
        if (gaps_pdf_load(&pdf, name, root, err, sizeof err) != 0) {
            CHECK(0, "%s", err);
            continue;
        }
        const double got = gaps_pdf_xfxq2(&pdf, 4, x, q2);
        const double expected = fp == 0 ? v : fp == 1 ? 0.0 : GAPS_PDF_TINY;
        CHECK(got == expected, "ForcePositive %d: c at a negative knot %.17g, expected %.17g", fp,
              got, expected);
        /* and a large value is untouched */
        CHECK(gaps_pdf_xfxq2(&pdf, 21, 1e-3, 100.0) > 1.0, "ForcePositive %d: the gluon", fp);
        gaps_pdf_free(&pdf);
    }
    printf("ForcePositive: 0 keeps %.3g, 1 gives 0, 2 gives 1e-10 (c at x = %g, Q = %g)\n", v, x,
           g->q[cq]);
}

/* ------------------------------------------------------------------------------------------
 * Refusals
 * ------------------------------------------------------------------------------------------ */

/* The load must fail, zero the struct and say one non-empty line containing `expect`. */
static void expect_refusal(const char *what, const char *spec, const char *path, const char *expect)
{
    gaps_pdf pdf;
    char err[1024];
    memset(err, 'x', sizeof err);
    const int rc = gaps_pdf_load(&pdf, spec, path, err, sizeof err);
    const int zeroed = pdf.hermite == NULL && pdf.lnx == NULL && pdf.nx == 0;
    CHECK(rc == -1, "%s: accepted", what);
    CHECK(zeroed, "%s: struct not zeroed on failure", what);
    CHECK(err[0] != '\0' && !strchr(err, '\n') && strlen(err) < sizeof err, "%s: bad message '%s'",
          what, err);
    CHECK(!expect || strstr(err, expect), "%s: message '%s' does not say '%s'", what, err, expect);
    if (rc == 0) gaps_pdf_free(&pdf);
}

/* Set SMALL written under work_dir/case_name from info and dat: loading it must fail. */
static void refused(const char *what, const char *case_name, const char *info, const char *dat,
                    const char *expect)
{
    expect_refusal(what, "SMALL", write_set(case_name, "SMALL", info, dat, -1), expect);
}

/* text with the first occurrence of `from` replaced by `to`, into out */
static void replace(char *out, size_t len, const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) {
        printf("FAIL test setup: '%s' not found\n", from);
        ++failures;
        snprintf(out, len, "%s", text);
        return;
    }
    snprintf(out, len, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_refusals(void)
{
    static char good[65536], bad[65536], two[65536];
    synthetic_dat(good, sizeof good, 1);
    synthetic_dat(two, sizeof two, 2);
    const char *p;
    const size_t n = strlen(good);
    gaps_pdf pdf;
    char err[512];

    /* the valid set loads, with its metadata */
    p = write_set("valid", "SMALL", syn_info, good, -1);
    CHECK(gaps_pdf_load(&pdf, "SMALL/0", p, err, sizeof err) == 0, "valid small set: %s", err);
    CHECK(strcmp(pdf.name, "SMALL") == 0 && pdf.member == 0 && pdf.num_members == 1
          && pdf.mz == 91.1876 && isnan(pdf.m_bottom) && pdf.set_index == -1 && pdf.nfl == 2,
          "metadata of the small set");
    gaps_pdf_free(&pdf);

    /* truncations at every byte: refused, except at the last newline */
    long accepted = 0;
    for (size_t cut = 0; cut + 1 < n; ++cut) {
        p = write_set("cut", "SMALL", syn_info, good, (long)cut);
        if (gaps_pdf_load(&pdf, "SMALL", p, err, sizeof err) == 0) {
            ++accepted;
            gaps_pdf_free(&pdf);
        } else {
            /* the header's own "---" ends a file that has no grid yet */
            const char *said = strstr(err, "SMALL_0000.dat: ");
            CHECK(said && (strstr(said, "truncated") || strstr(said, "no grid")),
                  "truncation at %zu: message '%s'", cut, err);
        }
    }
    CHECK(accepted == 0, "%ld truncated files accepted", accepted);
    p = write_set("cut", "SMALL", syn_info, good, (long)n - 1);
    CHECK(gaps_pdf_load(&pdf, "SMALL", p, err, sizeof err) == 0, "no final newline: %s", err);
    gaps_pdf_free(&pdf);
    printf("truncation: all %zu cuts of a %zu-byte member file refused\n", n - 1, n);

    /* cut inside the values, with a message that says so */
    p = write_set("short", "SMALL", syn_info, good, (long)(n * 2 / 3));
    expect_refusal("truncated values", "SMALL", p, "dat: truncated");
    p = write_set("no_end", "SMALL", syn_info, good, (long)n - 4);
    expect_refusal("no final separator", "SMALL", p, "dat: truncated");
    p = write_set("header_only", "SMALL", syn_info, "Format: lhagrid1\n---\n", -1);
    expect_refusal("header only", "SMALL", p, "no grid");
    p = write_set("empty", "SMALL", syn_info, "", -1);
    expect_refusal("empty member file", "SMALL", p, "dat: truncated");

    /* tokens */
    const char *first_value = strstr(good, "1 21\n") + 5;
    char token[64];
    snprintf(token, sizeof token, "%.*s", (int)strcspn(first_value, " "), first_value);
    const struct { const char *name, *to, *expect; } tokens[] = {
        {"non-number", "abc", "is not a number"},
        {"number with junk", "1.5x", "is not a number"},
        {"hexadecimal", "0x1p3", "is not a number"},
        {"nan", "nan", "is not finite"},
        {"-inf", "-inf", "is not finite"},
        {"overflow", "1e999", "out of range"},
        {"comma", "1.0,", "value"},
    };
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; ++i) {
        replace(bad, sizeof bad, good, token, tokens[i].to);
        p = write_set("token", "SMALL", syn_info, bad, -1);
        expect_refusal(tokens[i].name, "SMALL", p, tokens[i].expect);
    }
    /* counts */
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(first_value, "\n"), first_value);
    char shorter[256];
    snprintf(shorter, sizeof shorter, "%.*s", (int)strcspn(line, " "), line);
    replace(bad, sizeof bad, good, line, shorter);
    refused("too few values", "count", syn_info, bad, "expected 2");
    char longer[300];
    snprintf(longer, sizeof longer, "%s 1.0", line);
    replace(bad, sizeof bad, good, line, longer);
    refused("too many values", "count", syn_info, bad, "expected 2");
    char extra[600];
    snprintf(extra, sizeof extra, "%s\n%s", line, line);
    replace(bad, sizeof bad, good, line, extra);
    refused("an extra value line", "count", syn_info, bad, "more value lines");
    /* knots */
    replace(bad, sizeof bad, good, "0.0001 0.001", "0.001 0.0001");
    refused("x knots decreasing", "knots", syn_info, bad, "not increasing");
    replace(bad, sizeof bad, good, "1.5 2 3", "1.5 3 2");
    refused("Q knots decreasing", "knots", syn_info, bad, "not increasing");
    replace(bad, sizeof bad, good, "1.5 2 3", "1.5 1.5 3");
    refused("Q knot repeated", "knots", syn_info, bad, "not increasing");
    replace(bad, sizeof bad, good, "0.69999999999999996 1\n", "0.69999999999999996 1.5\n");
    refused("x above 1", "knots", syn_info, bad, "not in (0, 1]");
    replace(bad, sizeof bad, good, "\n1 1.5 2 3 4.75\n", "\n4.75\n");
    refused("one Q knot", "knots", syn_info, bad, "at least 2");
    replace(bad, sizeof bad, good, "0.0001 0.001", "0.0001 0.00010000000000000002");
    refused("x knots with equal logarithms", "knots", syn_info, bad, "too close");
    /* flavours */
    replace(bad, sizeof bad, good, "\n1 21\n", "\n2 21\n");
    refused("flavour list differs", "flav", syn_info, bad, "Flavors");
    replace(bad, sizeof bad, good, "\n1 21\n", "\n1\n");
    refused("flavour missing", "flav", syn_info, bad, "Flavors");
    char info[512];
    replace(info, sizeof info, syn_info, "Flavors: [1, 21]\n", "");
    refused("no Flavors", "flav", info, good, "Flavors");
    replace(info, sizeof info, syn_info, "[1, 21]", "[1, 21, 1]");
    refused("Flavors repeated", "flav", info, good, "twice");
    replace(info, sizeof info, syn_info, "[1, 21]", "[1, 21");
    refused("Flavors unclosed", "flav", info, good, "]");
    /* format and metadata */
    replace(info, sizeof info, syn_info, "lhagrid1", "lhagrid2");
    refused("Format in .info", "fmt", info, good, "SMALL.info: Format is 'lhagrid2'");
    replace(bad, sizeof bad, good, "Format: lhagrid1", "Format: lhagrid0");
    refused("Format in the member", "fmt", syn_info, bad, "SMALL_0000.dat: Format");
    replace(info, sizeof info, syn_info, "Format: lhagrid1\n", "");
    replace(bad, sizeof bad, good, "Format: lhagrid1\n", "");
    refused("no Format", "fmt", info, bad, "no Format");
    replace(info, sizeof info, syn_info, "ForcePositive: 0", "ForcePositive: 7");
    refused("ForcePositive 7", "meta", info, good, "ForcePositive: '7'");
    replace(info, sizeof info, syn_info, "MZ: 91.1876", "MZ: heavy");
    refused("MZ not a number", "meta", info, good, "MZ: 'heavy'");
    static const char with_nul[] = "Format: lhagrid1\n---\n1\0 2\n";
    p = write_set("nul", "SMALL", syn_info, with_nul, (long)sizeof with_nul - 1);
    expect_refusal("NUL byte", "SMALL", p, "NUL");
    /* subgrids */
    p = write_set("two", "SMALL", syn_info, two, -1);
    CHECK(gaps_pdf_load(&pdf, "SMALL", p, err, sizeof err) == 0, "two subgrids: %s", err);
    gaps_pdf_free(&pdf);
    replace(bad, sizeof bad, two, "\n4.75 6 10", "\n5 6 10");
    refused("subgrid gap", "sub", syn_info, bad, "starts at Q");
    const char *second = strstr(strstr(two, "---\n0.0001") + 1, "---\n0.0001") + 4;
    snprintf(bad, sizeof bad, "%.*s0.0002%s", (int)(second - two), two, second + 6);
    refused("subgrid x knots", "sub", syn_info, bad, "other x knots");
    /* files and names */
    refused("missing .info", "no_info", NULL, good, "SMALL.info: no such file");
    refused("missing member file", "no_dat", syn_info, NULL, "SMALL_0000.dat: cannot open");
    replace(info, sizeof info, syn_info, "NumMembers: 1", "NumMembers: 5");
    expect_refusal("member file 3 missing", "SMALL/3", write_set("mem", "SMALL", info, good, -1),
                   "SMALL_0003.dat");
    p = write_set("valid", "SMALL", syn_info, good, -1);
    expect_refusal("member beyond NumMembers", "SMALL/1", p, "NumMembers");
    char two_dirs[9000];
    snprintf(two_dirs, sizeof two_dirs, "%s/nowhere::%s/valid", work_dir, work_dir);
    CHECK(gaps_pdf_load(&pdf, "SMALL", two_dirs, err, sizeof err) == 0, "search path: %s", err);
    gaps_pdf_free(&pdf);
    expect_refusal("set not found", "NOSUCHSET", two_dirs, "not found");
    expect_refusal("empty search path", "SMALL", "", "search path is empty");
    const char *bad_specs[] = {"", "/0", ".hidden", "SMALL/", "SMALL/x", "SMALL/12345", "SMALL/0/1",
                               "a b", "../SMALL", "SMALL/-1"};
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; ++i)
        expect_refusal(bad_specs[i], bad_specs[i], two_dirs, NULL);
    expect_refusal("NULL spec", NULL, two_dirs, NULL);
    printf("refusals: every corrupt, truncated or missing file refused with a one-line message\n");
}

/* Random damage: flipped bytes and spliced lines must load or be refused, never crash (run
 * this under AddressSanitizer to see out-of-bounds reads). */
static void test_damage(void)
{
    static char good[65536], bad[65536];
    synthetic_dat(good, sizeof good, 2);
    const size_t n = strlen(good);
    const char alphabet[] = "0123456789.eE+- \n-#x,]";
    int loaded = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        memcpy(bad, good, n + 1);
        const int flips = 1 + trial % 4;
        for (int f = 0; f < flips; ++f)
            bad[(size_t)(uniform() * n)] = alphabet[(size_t)(uniform() * (sizeof alphabet - 1))];
        const char *p = write_set("damage", "SMALL", syn_info, bad, (long)n);
        gaps_pdf pdf;
        char err[512];
        if (gaps_pdf_load(&pdf, "SMALL", p, err, sizeof err) == 0) {
            ++loaded;
            const double v = gaps_pdf_xfxq2(&pdf, 21, 0.01, 100.0);
            CHECK(isfinite(v), "damaged file loaded with a non-finite value");
            gaps_pdf_free(&pdf);
        } else {
            CHECK(err[0] && !strchr(err, '\n'), "damaged file: bad message");
        }
    }
    printf("damage: 3000 randomly damaged files, %d still valid and loaded, the rest refused\n",
           loaded);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pdf PDFSETS_DIR [WORK_DIR]\n");
        return 2;
    }
    const char *sets = argv[1];
    if (argc > 2) {
        snprintf(work_dir, sizeof work_dir, "%s", argv[2]);
        make_dir(work_dir);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(work_dir, sizeof work_dir, "%s/test_pdf.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(work_dir)) {
            fprintf(stderr, "test_pdf: cannot create %s: %s\n", work_dir, strerror(errno));
            return 1;
        }
    }

    gaps_pdf pdf;
    char err[1024], path[4400];
    if (gaps_pdf_load(&pdf, "CT14lo", sets, err, sizeof err) != 0) {
        printf("FAIL CT14lo: %s\n", err);
        return 1;
    }
    CHECK(pdf.nx == 240 && pdf.nq == 37 && pdf.nfl == 11 && pdf.nsub == 1 && pdf.force_positive == 1
          && pdf.set_index == 13200 && pdf.order_qcd == 0 && pdf.m_bottom == 4.75
          && pdf.m_charm == 1.3 && pdf.alphas_mz == 0.118 && pdf.num_members == 1,
          "CT14lo metadata");
    ref_grid g;
    memset(&g, 0, sizeof g);
    snprintf(path, sizeof path, "%s/CT14lo/CT14lo_0000.dat", sets);
    if (read_reference(path, &g) != 0) {
        printf("FAIL cannot read %s independently\n", path);
        return 1;
    }
    test_knots(&pdf, &g);
    test_continuity(&pdf, &g);
    test_outside(&pdf);
    test_all_equals_single(&pdf);

    /* the same numbers whatever the caller's locale (where another locale is installed) */
    const char *locales[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "ru_RU.UTF-8"};
    for (int i = 0; i < 4; ++i)
        if (setlocale(LC_NUMERIC, locales[i])) {
            gaps_pdf other;
            CHECK(gaps_pdf_load(&other, "CT14lo", sets, err, sizeof err) == 0, "in locale %s: %s",
                  locales[i], err);
            const size_t bytes = sizeof(double) * 4 * 239 * 37 * 11;
            CHECK(other.nx == pdf.nx && memcmp(other.hermite, pdf.hermite, bytes) == 0,
                  "another table in locale %s", locales[i]);
            gaps_pdf_free(&other);
            setlocale(LC_NUMERIC, "C");
            printf("locale: %s gives the same tables\n", locales[i]);
            break;
        }

    /* the device copy (heap memory in a CPU build) evaluates the same */
    gaps_pdf view;
    CHECK(gaps_pdf_to_device(&pdf, &view) == 0, "gaps_pdf_to_device");
    CHECK(same_bits(gaps_pdf_xfxq2(&view, 2, 0.3, 1e4), gaps_pdf_xfxq2(&pdf, 2, 0.3, 1e4)),
          "device view");
    gaps_pdf_device_free(&view);
    gaps_pdf_free(&pdf);

    test_force_positive(sets, &g);
    free(g.xf);
    test_subgrids();
    test_refusals();
    test_damage();

    if (failures) printf("pdf: %d check(s) FAILED\n", failures);
    else printf("pdf: all checks passed\n");
    return failures ? 1 : 0;
}
