/* Every event of a 10^4-event run must conserve momentum, keep its partons massless and carry a
 * consistent colour flow.  The analysis checks each event with gaps_event_check() and counts
 * the failures; first we show that the check does catch each kind of broken event, then that a
 * real run has none.  A run with a tiny record capacity must report the events that hit it
 * and still produce valid (truncated) events. */
#include "gaps/analysis.h"
#include "gaps/generator.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { printf("FAIL: " __VA_ARGS__); printf("\n"); ++failures; } } while (0)

/* q(1,0) g(2,1) g(3,2) qbar(0,3): a planar four-parton event at sqrt(s) = 100 GeV. */
static void good_event(double p[4][4], int flav[4], int col[4], int acol[4])
{
    static const double mom[4][4] = { { 40, 40, 0, 0 }, { 20, 0, 20, 0 }, { 10, -6, -8, 0 },
                                      { 30, -34, -12, 0 } };
    /* fix the last parton so that the sum is exactly (100, 0, 0, 0) and it is massless */
    memcpy(p, mom, sizeof mom);
    p[3][1] = -(p[0][1] + p[1][1] + p[2][1]);
    p[3][2] = -(p[0][2] + p[1][2] + p[2][2]);
    p[3][3] = 0;
    p[3][0] = sqrt(p[3][1] * p[3][1] + p[3][2] * p[3][2]);
    const int f[4] = { 2, 21, 21, -2 }, c[4] = { 1, 2, 3, 0 }, a[4] = { 0, 1, 2, 3 };
    memcpy(flav, f, sizeof f);
    memcpy(col, c, sizeof c);
    memcpy(acol, a, sizeof a);
}

static int keep_rows(void *ctx, const double *r, const gaps_records *rec, int n)
{
    double *rows = ctx;
    (void)rec;
    for (int i = 0; i < n; ++i) {
        const double *row = r + (long)i * gaps_row_stride(0);   /* a run without --vary */
        const long ev = (long)gaps_row_event(row);
        if (ev < 0 || ev >= 10000 || rows[ev * GAPS_OBS_MAX_COLUMNS + GAPS_OBS_WEIGHT] != -1.0) return -1;   /* twice */
        for (int k = 0; k < gaps_row_stride(0); ++k) rows[ev * GAPS_OBS_MAX_COLUMNS + k] = row[k];
    }
    return 0;
}

int main(void)
{
    double p[4][4];
    int flav[4], col[4], acol[4];
    good_event(p, flav, col, acol);
    const double ecm = p[0][0] + p[1][0] + p[2][0] + p[3][0];
    const double beams[4] = { ecm, 0.0, 0.0, 0.0 };
    CHECK(gaps_event_check(0, 4, (const double(*)[4])p, flav, col, acol, beams, ecm) == 0, "good event rejected");

    good_event(p, flav, col, acol);
    p[1][2] += 1e-6;   /* breaks conservation and masslessness */
    CHECK(gaps_event_check(0, 4, (const double(*)[4])p, flav, col, acol, beams, ecm) & GAPS_FLAG_MOMENTUM, "momentum violation missed");
    CHECK(gaps_event_check(0, 4, (const double(*)[4])p, flav, col, acol, beams, ecm) & GAPS_FLAG_MASS, "mass violation missed");
    good_event(p, flav, col, acol);
    acol[2] = 1;       /* anticolour 1 twice, 2 never */
    CHECK(gaps_event_check(0, 4, (const double(*)[4])p, flav, col, acol, beams, ecm) == GAPS_FLAG_COLOUR, "colour violation missed");
    good_event(p, flav, col, acol);
    col[3] = 4;        /* an antiquark with a colour */
    CHECK(gaps_event_check(0, 4, (const double(*)[4])p, flav, col, acol, beams, ecm) & GAPS_FLAG_COLOUR, "antiquark colour missed");
    good_event(p, flav, col, acol);
    p[2][1] = NAN;
    CHECK(gaps_event_check(0, 4, (const double(*)[4])p, flav, col, acol, beams, ecm) & GAPS_FLAG_NONFINITE, "NaN missed");

    /* a record with incoming partons: u (x1) ubar (x2) -> Z g.  The u brings colour 1 in,
     * the ubar anticolour 2; the gluon carries (1, 2) out; the Z is massive and colourless */
    {
        const double E = 6500.0, x1 = 0.02, x2 = 0.01;
        double q[4][4] = { { x1 * E, 0, 0, x1 * E }, { x2 * E, 0, 0, -x2 * E } };
        const double pt = 20.0, pzg = 15.0, Eg = sqrt(pt * pt + pzg * pzg);
        q[3][0] = Eg; q[3][1] = pt; q[3][2] = 0; q[3][3] = pzg;
        for (int m = 0; m < 4; ++m) q[2][m] = q[0][m] + q[1][m] - q[3][m];
        int f[4] = { 2, -2, 23, GAPS_GLUON }, c[4] = { 1, 0, 0, 1 }, a[4] = { 0, 2, 0, 2 };
        const double pp_beams[4] = { 2 * E, 0, 0, 0 };
        CHECK(gaps_event_check(2, 4, (const double(*)[4])q, f, c, a, pp_beams, 2 * E) == 0,
              "good q qbar -> Z g record rejected");
        c[0] = 0; a[0] = 1;   /* an incoming quark with an anticolour */
        CHECK(gaps_event_check(2, 4, (const double(*)[4])q, f, c, a, pp_beams, 2 * E)
              & GAPS_FLAG_COLOUR, "incoming quark with the wrong colour missed");
        c[0] = 1; a[0] = 0;
        q[0][1] = 1e-3;       /* an incoming parton off the beam axis */
        CHECK(gaps_event_check(2, 4, (const double(*)[4])q, f, c, a, pp_beams, 2 * E)
              & GAPS_FLAG_MASS, "incoming parton off the beam axis missed");
        q[0][1] = 0; q[2][3] += 1e-3;   /* momentum not balanced */
        CHECK(gaps_event_check(2, 4, (const double(*)[4])q, f, c, a, pp_beams, 2 * E)
              & GAPS_FLAG_MOMENTUM, "unbalanced momentum with incoming partons missed");
    }

    /* a real run */
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    cfg.events = 10000;
    cfg.seed = 42;
    cfg.keep_rows = 1;
    gaps_run run;
    char msg[256];
    /* rows arrive through the events hook, in any order: each lands at its event number */
    static double rows[10000 * GAPS_OBS_MAX_COLUMNS];
    for (long i = 0; i < 10000L * GAPS_OBS_MAX_COLUMNS; ++i) rows[i] = -1.0;
    gaps_hooks hooks = { rows, keep_rows, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    CHECK(gaps_generate_with(&cfg, &hooks, NULL, NULL, &run, msg, sizeof msg) == 0,
          "run failed: %s", msg);
    CHECK(run.events == 10000, "events %lld", (long long)run.events);
    CHECK(run.invalid_events == 0, "%lld events failed the momentum/mass/colour checks", (long long)run.invalid_events);
    CHECK(run.capacity_hits == 0, "%lld events hit the capacity", (long long)run.capacity_hits);
    long two = 0, maxn = 0;
    for (int i = 0; i < 10000; ++i) {
        const double *r = rows + (long)i * GAPS_OBS_MAX_COLUMNS;
        CHECK(gaps_row_event(r) == i, "row %d holds event %lld", i, (long long)gaps_row_event(r));
        if (r[GAPS_OBS_NPARTONS] == 2) ++two;
        if (r[GAPS_OBS_NPARTONS] > maxn) maxn = (long)r[GAPS_OBS_NPARTONS];
    }
    /* doc/physics.md: about 4.7 % of events end with two partons (binomial error ~0.2 %) */
    printf("10^4 events: %.2f %% with two partons, at most %ld partons, 0 failed checks\n", two / 100.0, maxn);
    CHECK(two > 370 && two < 570, "two-parton fraction %.2f %%", two / 100.0);
    gaps_run_free(&run);

    /* far from the Z pole and with a low cutoff the showers are longer and their softest
     * partons far softer than sqrt(s): the checks must hold there too */
    cfg.keep_rows = 0;
    cfg.ecm = 500.0;
    cfg.t_cut = 0.5;
    CHECK(gaps_generate(&cfg, &run, msg, sizeof msg) == 0, "run failed: %s", msg);
    CHECK(run.invalid_events == 0, "500 GeV: %lld events failed the checks", (long long)run.invalid_events);
    gaps_run_free(&run);
    cfg.ecm = 91.2;
    cfg.t_cut = 1.0;

    /* capacity: 4 partons at most */
    cfg.max_partons = 4;
    cfg.keep_rows = 0;
    CHECK(gaps_generate(&cfg, &run, msg, sizeof msg) == 0, "run failed: %s", msg);
    printf("capacity 4: %lld of 10^4 events hit it\n", (long long)run.capacity_hits);
    CHECK(run.capacity_hits > 1000, "capacity hits not reported (%lld)", (long long)run.capacity_hits);
    CHECK(run.invalid_events == 0, "truncated events invalid");
    CHECK(run.hist->bin[GAPS_LEP_H_NPARTONS][6].entries == 0, "an event with 5 partons at capacity 4");
    gaps_run_free(&run);
    return failures != 0;
}
