/* yoda.c -- YODA text output (the "V2" object headers, read by YODA 1.x and 2.x). */
#include "gaps/yoda.h"
#include "gaps/generator.h"
#include "gaps/parameters.h"
#include "gaps/process.h"
#include "gaps/analysis.h"
#include "gaps/fpmath.h"
#include "io/c_locale.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef GAPS_GIT_REVISION
#define GAPS_GIT_REVISION "unknown"
#endif

/* %.10e keeps eleven significant digits: far below the statistical errors, and the same text on
 * every platform for the same (order-independent) sums. */
#define NUM "%.10e"

static void write_row(FILE *f, const char *a, const char *b, const gaps_bin_sums *s, double k)
{
    fprintf(f, "%s\t%s\t" NUM "\t" NUM "\t" NUM "\t" NUM "\t%.10e\n", a, b, s->sumw * k,
            s->sumw2 * k * k, s->sumwx * k, s->sumwx2 * k, (double)s->entries);
}

/* Edge i (0 .. nbins) of a histogram.  Equal bins: lo + i (hi - lo)/n; logarithmic bins
 * (GAPS_FILL_LOG_BINS): 10^(log10 lo + i (log10 hi - log10 lo)/n), with the fill's gaps_log10
 * and its inverse from gaps/fpmath.h, so that the file is the same from every build.  An
 * edge within 1e-12 of zero is written as 0 (GAPS 2.1's rule: zphi's middle edge). */
static double bin_edge(const gaps_hist_def *d, int i)
{
    double x;
    if (d->transform == GAPS_FILL_LOG_BINS) {
        if (i == 0 || i == d->nbins) return i == 0 ? d->lo : d->hi;   /* not 0.49999999999999994 */
        const double l0 = gaps_log10(d->lo), l1 = gaps_log10(d->hi);
        x = gaps_exp((l0 + i * ((l1 - l0) / d->nbins)) * 2.30258509299404568402);
    } else {
        x = d->lo + i * ((d->hi - d->lo) / d->nbins);
    }
    return fabs(x) < 1e-12 ? 0.0 : x;
}

/* suffix: "" for the nominal histograms, "[NAME]" for those of variation weight NAME (the
 * Rivet convention for named weights: /ANALYSIS/HIST[NAME]) */
static void write_histo(FILE *f, const gaps_hist_def *d, const gaps_bin_sums *bins, double k,
                        const char *suffix)
{
    gaps_bin_sums total = { 0, 0, 0, 0, 0 };
    for (int b = 0; b < d->nbins + 2; ++b) {
        total.sumw += bins[b].sumw;
        total.sumw2 += bins[b].sumw2;
        total.sumwx += bins[b].sumwx;
        total.sumwx2 += bins[b].sumwx2;
        total.entries += bins[b].entries;
    }
    const double mean = total.sumw != 0.0 ? total.sumwx / total.sumw : 0.0;
    fprintf(f, "BEGIN YODA_HISTO1D_V2 %s%s\n", d->path, suffix);
    fprintf(f, "Path: %s%s\n", d->path, suffix);
    fprintf(f, "ScaledBy: " NUM "\n", k);
    fprintf(f, "Title: %s\n", d->title);
    fprintf(f, "Type: Histo1D\n");
    fprintf(f, "XLabel: %s\n", d->xlabel);
    fprintf(f, "YLabel: %s\n", d->ylabel);
    fprintf(f, "---\n");
    fprintf(f, "# Mean: " NUM "\n", mean);
    fprintf(f, "# Area: " NUM "\n", total.sumw * k);
    fprintf(f, "# ID\t ID\t sumw\t sumw2\t sumwx\t sumwx2\t numEntries\n");
    write_row(f, "Total   ", "Total   ", &total, k);   /* padded as YODA writes it */
    write_row(f, "Underflow", "Underflow", &bins[0], k);
    write_row(f, "Overflow", "Overflow", &bins[d->nbins + 1], k);
    fprintf(f, "# xlow\t xhigh\t sumw\t sumw2\t sumwx\t sumwx2\t numEntries\n");
    for (int b = 1; b <= d->nbins; ++b) {
        const gaps_bin_sums *s = &bins[b];
        fprintf(f, NUM "\t" NUM "\t" NUM "\t" NUM "\t" NUM "\t" NUM "\t%.10e\n",
                bin_edge(d, b - 1), bin_edge(d, b), s->sumw * k, s->sumw2 * k * k,
                s->sumwx * k, s->sumwx2 * k, (double)s->entries);
    }
    fprintf(f, "END YODA_HISTO1D_V2\n\n");
}

/* The settings that made the histograms, as annotations of /_EVTCOUNT: enough to tie a file
 * found later to its run.  All come from the state, so one run and a merge of its parts
 * write the same lines.  The backend alone differs between otherwise identical runs; it has
 * a line of its own (key "Backend") that comparisons of files across backends leave out. */
static void write_run_annotations(FILE *f, const gaps_state *st, const char *backend)
{
    fprintf(f, "Generator: gaps\nGeneratorVersion: %s\nGitRevision: %s\n", st->version,
            GAPS_GIT_REVISION);
    if (backend) fprintf(f, "Backend: %s\n", backend);
    const int process = st->process >= 0 && st->process < GAPS_N_PROCESSES ? st->process : 0;
    /* the table's title names the leading order; an NLO run says so after it */
    fprintf(f, "Process: %s%s\n", gaps_process_table[process].title,
            st->nlo ? " (--nlo 1: NLO matched with MC@NLO, doc/nlo.md)" : "");
    /* every parameter the state records (gaps/parameters.h), in the list's order; one marked
     * GAPS_PF_OMIT_DEFAULT only when it differs from its default */
    gaps_config def;
    gaps_config_defaults(&def);
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (!p->in_state || !p->yoda) continue;
        if ((p->flags & GAPS_PF_OMIT_DEFAULT)
            && memcmp(gaps_param_in_state(p, st), gaps_param_in_config(p, &def), p->size) == 0)
            continue;
        if ((p->flags & GAPS_PF_OMIT_PROCESS_DEFAULT) && gaps_param_is_process_default(p, st))
            continue;
        char value[200];
        gaps_param_format(p, gaps_param_in_state(p, st), GAPS_STYLE_EXACT, value, sizeof value);
        fprintf(f, "%s: %s\n", p->yoda, value);
    }
    /* which grid the PDF set's name stood for (doc/formats.md); none without hadron beams */
    if (st->pdf_digest) fprintf(f, "PDFDigest: %016" PRIx64 "\n", st->pdf_digest);
    fprintf(f, "Events: %" PRIu64 "\nEventRanges:", st->events);
    for (int i = 0; i < st->n_ranges; ++i)
        fprintf(f, " [%" PRId64 ",%" PRId64 ")", st->range[i].begin, st->range[i].end);
    fputc('\n', f);
}

/* The histograms and /_XSEC of one set of sums (the nominal weights: suffix "") */
static void write_weight_set(FILE *f, const gaps_state *state, const gaps_hist_result *r,
                             double k, const char *suffix)
{
    double sigma, error;
    gaps_histograms_sigma(r, &sigma, &error);
    const gaps_analysis_info *info = &gaps_analysis_table[state->analysis];
    for (int id = 0; id < info->n_hists; ++id)
        write_histo(f, &info->hist[id], r->bin[id], k, suffix);
    fprintf(f, "BEGIN YODA_SCATTER1D_V2 /_XSEC%s\nPath: /_XSEC%s\nTitle: \nType: Scatter1D\n"
               "---\n", suffix, suffix);
    fprintf(f, "# xval\t xerr-\t xerr+\n" NUM "\t" NUM "\t" NUM "\n", sigma, error, error);
    fprintf(f, "END YODA_SCATTER1D_V2\n\n");
}

static int yoda_write(FILE *f, const gaps_state *state, const char *backend, int n_vary,
                      const gaps_variation *vary, const gaps_hist_result *vary_hist)
{
    gaps_hist_result *r = malloc(sizeof *r);
    if (!r) return -1;
    gaps_state_result(state, r);
    /* Filled once per event with the weight, divided by N: integrates to sigma in pb.  The
     * variations' histograms are divided by the same N (the same events, other weights). */
    const double k = r->n_events > 0 ? 1.0 / (double)r->n_events : 0.0;
    write_weight_set(f, state, r, k, "");
    for (int v = 0; v < n_vary; ++v) {
        char suffix[GAPS_VARY_NAME_MAX + 2];
        snprintf(suffix, sizeof suffix, "[%s]", vary[v].name);
        write_weight_set(f, state, &vary_hist[v], k, suffix);
    }

    fprintf(f, "BEGIN YODA_COUNTER_V2 /_EVTCOUNT\nPath: /_EVTCOUNT\nTitle: \nType: Counter\n");
    write_run_annotations(f, state, backend);
    fprintf(f, "---\n# sumW\t sumW2\t numEntries\n" NUM "\t" NUM "\t%.10e\n", r->sum_w,
            r->sum_w2, (double)r->n_events);
    fprintf(f, "END YODA_COUNTER_V2\n");
    for (int v = 0; v < n_vary; ++v)
        fprintf(f, "\nBEGIN YODA_COUNTER_V2 /_EVTCOUNT[%s]\nPath: /_EVTCOUNT[%s]\nTitle: \n"
                   "Type: Counter\n---\n# sumW\t sumW2\t numEntries\n" NUM "\t" NUM "\t%.10e\n"
                   "END YODA_COUNTER_V2\n", vary[v].name, vary[v].name, vary_hist[v].sum_w,
                vary_hist[v].sum_w2, (double)vary_hist[v].n_events);
    free(r);
    return ferror(f) ? -1 : 0;
}

/* The numbers in the C locale's notation, whatever the caller's locale (io/c_locale.h). */
int gaps_yoda_write(FILE *f, const gaps_state *state, const char *backend)
{
    /* --vary: the variations' histograms from the state's sums, as a run writes them */
    gaps_variation vary[GAPS_VARY_MAX];
    const int n_vary = gaps_state_vary_list(state, vary);
    gaps_hist_result *vary_hist = NULL;
    if (n_vary > 0) {
        if (!(vary_hist = malloc((size_t)n_vary * sizeof *vary_hist))) return -1;
        for (int v = 0; v < n_vary; ++v) gaps_state_vary_result(state, v, &vary_hist[v]);
    }
    const gaps_c_locale saved = gaps_c_locale_enter();
    const int r = yoda_write(f, state, backend, n_vary, vary, vary_hist);
    gaps_c_locale_leave(saved);
    free(vary_hist);
    return r;
}

int gaps_yoda_write_varied(FILE *f, const gaps_state *state, const char *backend, int n_vary,
                           const gaps_variation *vary, const gaps_hist_result *vary_hist)
{
    const gaps_c_locale saved = gaps_c_locale_enter();
    const int r = yoda_write(f, state, backend, n_vary, vary, vary_hist);
    gaps_c_locale_leave(saved);
    return r;
}
