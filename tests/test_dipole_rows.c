/* test_dipole_rows.c -- after a hadronic emission the shower recomputes only the dipole rows
 * that the emission changed (gaps_rows_due, src/shower/dipoles.h); the rest keep their rates.
 * That is exact only if every row whose inputs changed is among the recomputed ones.
 *
 * The test runs pp -> Z showers (13 TeV, CT14lo, default physics and --compat gaps21) with the
 * library's veto steps, slot by slot, and after every emission compares, bit for bit, what
 * the splitting left (rates, running sums, totals, the cached s, z- and z+ of every row that
 * can emit) with a recomputation of every row.  It counts the emissions of each dipole type
 * (FF, FI, IF, II), which must all occur.  Negative controls, to prove the comparison's power:
 * from the rates before the emission, recomputing only the rows of the emitter and the emitted
 * parton (the spectator forgotten), and their colour partners', must differ from the full
 * recomputation in some emissions, and so must the emitter's rows alone.
 *
 * Usage: test_dipole_rows [PDFSETS_DIR].  Exit status 0 if every check passes.  The test reads
 * the pool in host memory: the offload build skips it (its GPU runs are compared with the
 * serial build's events instead, tools/gpu-run.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include "gaps/alphas.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/event_pool.h"
#include "gaps/pdf.h"
#include "gaps/process.h"
#include "gaps/shower.h"
#include "gaps_runtime.h"
#include "shower/dipoles.h"
#include "shower/isr_bounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pdf_set.h"

#define N_SLOTS 1000
#define MAX_PARTONS 64
#define MAX_ROWS (2 * MAX_PARTONS)
#define MIN_CHECKED 4000   /* emissions compared per setting, at least */

/* The rows of slot e that a rate update writes. */
typedef struct rows {
    double rate[MAX_ROWS], cum[MAX_ROWS], m2[MAX_ROWS], zm[MAX_ROWS], zp[MAX_ROWS];
    double sum, shift[2];
    int nd;
} rows;

static void rows_get(const gaps_pool *pool, int e, rows *r)
{
    r->nd = 2 * pool->n[e];
    for (int d = 0; d < r->nd; ++d) {
        const long at = gaps_at(pool, d, e);
        r->rate[d] = pool->rate[at];
        r->cum[d] = pool->rate_cum[at];
        r->m2[d] = pool->dip_m2[at];
        r->zm[d] = pool->dip_zm[at];
        r->zp[d] = pool->dip_zp[at];
    }
    r->sum = pool->rate_sum[e];
    r->shift[0] = pool->rate_shift[gaps_at(pool, 0, e)];
    r->shift[1] = pool->rate_shift[gaps_at(pool, 1, e)];
}

static void rows_put(gaps_pool *pool, int e, const rows *r)
{
    for (int d = 0; d < r->nd; ++d) {
        const long at = gaps_at(pool, d, e);
        pool->rate[at] = r->rate[d];
        pool->rate_cum[at] = r->cum[d];
        pool->dip_m2[at] = r->m2[d];
        pool->dip_zm[at] = r->zm[d];
        pool->dip_zp[at] = r->zp[d];
    }
}

/* 1 if a and b agree to the bit: every rate and sum, and the cached variables of every row that
 * can emit (a row of rate 0 keeps whatever it held before). */
static int rows_same(const rows *a, const rows *b)
{
    if (a->nd != b->nd || memcmp(&a->sum, &b->sum, sizeof a->sum) != 0
        || memcmp(a->shift, b->shift, sizeof a->shift) != 0)
        return 0;
    for (int d = 0; d < a->nd; ++d) {
        if (memcmp(&a->rate[d], &b->rate[d], sizeof(double)) != 0
            || memcmp(&a->cum[d], &b->cum[d], sizeof(double)) != 0)
            return 0;
        if (a->rate[d] > 0.0
            && (memcmp(&a->m2[d], &b->m2[d], sizeof(double)) != 0
                || memcmp(&a->zm[d], &b->zm[d], sizeof(double)) != 0
                || memcmp(&a->zp[d], &b->zp[d], sizeof(double)) != 0))
            return 0;
    }
    return 1;
}

static void run(const gaps_pdf *host_pdf, int compat)
{
    const double sqrt_s = GAPS_DEFAULT_ECM_PP;
    gaps_physics phys;   /* as generator.c's physics_init, default physics */
    memset(&phys, 0, sizeof phys);
    char why[256];
    if (gaps_process_init(&phys.proc, GAPS_PROCESS_PP_Z, sqrt_s, why, sizeof why) != 0) {
        CHECK(0, "%s", why);
        return;
    }
    gaps_process_prepare(&phys.proc, host_pdf);
    gaps_alphas_init(&phys.as, 2, GAPS_DEFAULT_ALPHAS_MZ);
    phys.t_cut = GAPS_DEFAULT_TCUT;
    phys.a_max = gaps_alphas_value(&phys.as, phys.t_cut);
    phys.seed = 20261127u + (unsigned)compat;
    phys.end_event = N_SLOTS;
    double *table = NULL;
    gaps_pdf view;
    memset(&view, 0, sizeof view);
    if (gaps_isr_init(&phys.isr, host_pdf, &phys.as, compat, phys.t_cut, sqrt_s * sqrt_s,
                      &table) != 0
        || gaps_pdf_to_device(host_pdf, &view) != 0) {
        CHECK(0, "cannot set up the initial-state bounds or the PDF view");
        free(table);
        return;
    }
    phys.isr.bound = table;
    phys.proc.pdf = &view;

    gaps_pool pool;
    if (gaps_pool_create(&pool, N_SLOTS, MAX_PARTONS, NULL) != 0) {
        CHECK(0, "cannot create the pool");
        free(table);
        gaps_pdf_device_free(&view);
        return;
    }
    gaps_shower_launch_refill(&pool, &phys, N_SLOTS, GAPS_LAUNCH_GENERAL, 0);

    static rows before, after, full, wrong;
    long checked = 0, differ = 0, control_differ[2] = { 0, 0 }, by_type[4] = { 0, 0, 0, 0 };
    int showering = 1;
    for (int cycle = 0; showering && cycle < 100000; ++cycle) {
        showering = 0;
        for (int e = 0; e < N_SLOTS; ++e) {
            if (pool.status[e] != GAPS_SLOT_SHOWERING) continue;
            ++showering;
            gaps_veto_select_winner(&pool, &phys, e);
            gaps_veto_check_cutoff(&pool, &phys, e);
            gaps_veto_accept_or_reject(&pool, &phys, e);
            const int kernel = pool.trial_kernel[e];
            const int emission = pool.status[e] == GAPS_SLOT_SHOWERING
                                 && kernel != GAPS_KERNEL_NONE && kernel != GAPS_KERNEL_NEW_BIN
                                 && pool.n[e] < pool.maxp;
            if (!emission) {
                gaps_veto_do_splitting(&pool, &phys, e);
                continue;
            }
            const int d = pool.trial_dipole[e], i = d / 2, n_in = pool.n_in[e];
            const int k = gaps_dipole_spectator_x(&pool, e, i, d % 2, n_in);
            const int type = gaps_dipole_type_of(i < n_in, k < n_in);
            rows_get(&pool, e, &before);
            gaps_veto_do_splitting(&pool, &phys, e);   /* the rows the emission changed */
            rows_get(&pool, e, &after);
            gaps_dipoles_update_hadronic(&pool, &phys, e, gaps_rows_all(0));
            rows_get(&pool, e, &full);
            ++checked;
            ++by_type[type];
            if (!rows_same(&after, &full)) ++differ;
            /* negative controls: without the spectator; the emitter alone */
            const int j = pool.n[e] - 1;
            const gaps_rows_due too_few[2] = { { 0, { i, j, j } }, { 0, { i, i, i } } };
            for (int c = 0; c < 2; ++c) {
                before.nd = full.nd;
                rows_put(&pool, e, &before);
                gaps_dipoles_update_hadronic(&pool, &phys, e, too_few[c]);
                rows_get(&pool, e, &wrong);
                if (!rows_same(&wrong, &full)) ++control_differ[c];
            }
            rows_put(&pool, e, &full);   /* the event goes on from the exact rates */
            pool.rate_sum[e] = full.sum;
            pool.rate_shift[gaps_at(&pool, 0, e)] = full.shift[0];
            pool.rate_shift[gaps_at(&pool, 1, e)] = full.shift[1];
        }
    }
    printf("%s: %ld emissions compared (FF %ld, FI %ld, IF %ld, II %ld), %ld differ; "
           "negative controls differ in %ld (no spectator) and %ld (emitter alone)\n",
           compat ? "--compat gaps21" : "default", checked, by_type[GAPS_DIPOLE_FF],
           by_type[GAPS_DIPOLE_FI], by_type[GAPS_DIPOLE_IF], by_type[GAPS_DIPOLE_II], differ,
           control_differ[0], control_differ[1]);
    CHECK(showering == 0, "%d events still showering", showering);
    CHECK(checked >= MIN_CHECKED, "only %ld emissions compared, want %d", checked, MIN_CHECKED);
    for (int t = 0; t < 4; ++t) CHECK(by_type[t] > 0, "no emission of dipole type %d", t);
    CHECK(differ == 0, "%ld emissions left rows that a recomputation changes", differ);
    for (int c = 0; c < 2; ++c)
        CHECK(control_differ[c] > 0, "negative control %d never differs: the comparison has no "
              "power", c);
    gaps_pool_destroy(&pool);
    gaps_pdf_device_free(&view);
    free(table);
}

int main(int argc, char **argv)
{
    if (strcmp(gaps_runtime_backend_name(), "offload") == 0) {
        printf("dipole_rows: skipped in the offload build (the pool lives on the GPU)\n");
        return 0;
    }
    gaps_pdf pdf;
    if (test_load_default_pdf(argc, argv, &pdf) != 0) return 1;
    run(&pdf, GAPS_COMPAT_NONE);
    run(&pdf, GAPS_COMPAT_GAPS21);
    gaps_pdf_free(&pdf);
    if (!failures) printf("dipole_rows: the rows an emission changed are the rows recomputed\n");
    return failures != 0;
}
