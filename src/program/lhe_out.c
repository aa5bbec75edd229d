/* lhe_out.c -- `--lhe-out FILE`: the run's hard events, again on the host, as a Les Houches
 * Event file (lhe_out.h). */
#define _POSIX_C_SOURCE 200809L
#include "program/lhe_out.h"

#include "gaps/event_pool.h"
#include "gaps/process.h"
#include "gaps/rng.h"
#include "io/c_locale.h"
#include "io/lhe_write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The run's PDF set on the host, found as the generator finds it (cfg->pdf, or the process's
 * default, along gaps_pdf_search_path(--pdf-path)); the run has already loaded and checked
 * it, so a failure here is rare (the file changed meanwhile), and the digest must be the one
 * the run's state records: the hard events must be the run's. */
static int load_pdf(const gaps_config *cfg, uint64_t digest, gaps_pdf *pdf, char *msg,
                    size_t len)
{
    memset(pdf, 0, sizeof *pdf);
    const char *spec = cfg->pdf[0] ? cfg->pdf : gaps_process_table[cfg->process].default_pdf;
    char *path = malloc(GAPS_PDF_SEARCH_PATH_MAX);
    if (!path) return snprintf(msg, len, "--lhe-out: out of memory"), -1;
    int rc = gaps_pdf_search_path(cfg->pdf_path, path, GAPS_PDF_SEARCH_PATH_MAX);
    if (rc != 0) snprintf(msg, len, "--lhe-out: the PDF search path is too long");
    else {
        char why[512];
        const gaps_c_locale saved = gaps_c_locale_enter();
        rc = gaps_pdf_load(pdf, spec ? spec : "", path, why, sizeof why);
        gaps_c_locale_leave(saved);
        if (rc != 0) snprintf(msg, len, "--lhe-out: %s", why);
    }
    free(path);
    if (rc == 0 && pdf->digest != digest) {
        snprintf(msg, len, "--lhe-out: the PDF set %s changed during the run (digest %016llx, "
                 "the run's %016llx)", pdf->file, (unsigned long long)pdf->digest,
                 (unsigned long long)digest);
        gaps_pdf_free(pdf);
        rc = -1;
    }
    return rc;
}

/* The hard event of event number `event`, as gaps_shower_start() makes it; returns the draw
 * index the shower continues from. */
static uint32_t hard_event(const gaps_physics *phys, int64_t event, gaps_hard_event *ev)
{
    gaps_rng rng = gaps_rng_make(phys->seed, (uint64_t)event, 0);
    gaps_process_generate(&phys->proc, &rng, ev);
    return rng.draw;
}

int gaps_lhe_out_write(FILE *f, const gaps_config *cfg, const gaps_run *run, char *msg,
                       size_t len)
{
    const int hadronic = gaps_process_table[cfg->process].hadronic;
    gaps_physics *phys = malloc(sizeof *phys);
    gaps_pdf pdf;
    memset(&pdf, 0, sizeof pdf);
    if (!phys) return snprintf(msg, len, "--lhe-out: out of memory"), -1;
    int rc = hadronic ? load_pdf(cfg, run->state->pdf_digest, &pdf, msg, len) : 0;
    if (rc == 0) {
        char why[512];
        rc = gaps_physics_setup(phys, cfg, hadronic ? &pdf : NULL, why, sizeof why);
        if (rc != 0) snprintf(msg, len, "--lhe-out: %s", why);
    }
    if (rc == 0) {
        phys->proc.pdf = hadronic ? &pdf : NULL;
        /* the same configuration gives the same weight unit (gaps_process_prepare): a check
         * that these are the run's physics, which the reader takes from the file */
        if (memcmp(&phys->proc.w_unit, &run->state->w_unit, sizeof(double)) != 0) {
            snprintf(msg, len, "--lhe-out: the weight unit %.17g pb is not the run's %.17g pb",
                     phys->proc.w_unit, run->state->w_unit);
            rc = -1;
        }
    }
    const int64_t end = cfg->first_event + cfg->events;
    gaps_hard_event ev;
    double vary[GAPS_VARY_HARD_MAX];   /* --vary's factors, which the file does not carry */
    ev.vary = vary;
    ev.vary_stride = 1;
    if (rc == 0) {
        /* first pass: the largest |weight|, for XMAXUP before the events */
        double max_w = 0.0;
        for (int64_t e = cfg->first_event; e < end; ++e) {
            hard_event(phys, e, &ev);
            if (fabs(ev.weight) > max_w) max_w = fabs(ev.weight);
        }
        gaps_lhe_write_run lr;
        memset(&lr, 0, sizeof lr);
        lr.proc = &phys->proc;
        lr.nlo = cfg->nlo;
        lr.seed = cfg->seed;
        lr.first_event = cfg->first_event;
        lr.events = cfg->events;
        lr.sigma = run->sigma;
        lr.sigma_err = run->sigma_err;
        lr.max_weight = max_w;
        /* PDFGUP 0 and PDFSUP the LHAPDF ID (the set's SetIndex plus the member) where the
         * set has one; -1 -1 where it does not; 0 0 for lepton beams (no PDFs) */
        lr.pdf_group = hadronic && pdf.set_index < 0 ? -1 : 0;
        lr.pdf_set = !hadronic ? 0 : pdf.set_index < 0 ? -1 : (int)(pdf.set_index + pdf.member);
        const gaps_c_locale saved = gaps_c_locale_enter();
        int bad = gaps_lhe_write_init(f, &lr);
        /* second pass: the events, in event order */
        for (int64_t e = cfg->first_event; e < end && !bad; ++e) {
            const uint32_t draw = hard_event(phys, e, &ev);
            /* AQCDUP: the run's coupling at the start scale, -1 where it has none (a scale at
             * or below the Landau pole: an NLO event of --compat gaps21 may start there) */
            double as = ev.t_start > 0.0 ? gaps_alphas_value(&phys->as, ev.t_start) : -1.0;
            if (!(isfinite(as) && as > 0.0)) as = -1.0;
            bad = gaps_lhe_write_event(f, &phys->proc, &ev, e, draw, as);
            if (bad == -2)
                snprintf(msg, len, "--lhe-out: event %lld: a hard event of %d rows, %d "
                         "incoming, that no event file can hold (a bug: please report it)",
                         (long long)e, ev.n, ev.n_in);
        }
        if (!bad) bad = gaps_lhe_write_end(f);
        gaps_c_locale_leave(saved);
        if (bad == -1) snprintf(msg, len, "--lhe-out: write error");
        if (bad) rc = -1;
    }
    gaps_pdf_free(&pdf);
    free(phys);
    return rc;
}
