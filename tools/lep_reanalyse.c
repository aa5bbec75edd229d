/* lep_reanalyse.c -- validation tool: e+ e- -> q qbar events of any physics (default or
 * --compat gaps21, LO or NLO) through GAPS 2.1's LEP histograms (gaps/analysis_lep_gaps21.h).
 *
 *   lep_reanalyse --events N --seed S [--nlo 0|1] [--compat none|gaps21] [--alphas-mz X]
 *                 [--ablate alphas-herwig|alphas-thresholds] --output FILE.yoda
 *
 * The program `gaps` chooses the analysis from the process and --compat
 * (gaps_process_analysis()): the default physics gets the textbook LEP analysis, whose
 * histograms cannot be compared with GAPS 2.1's files.  This tool runs the library with the
 * chosen physics, takes every finished event (gaps_hooks.events, complete records), computes
 * its GAPS 2.1 row (gaps_analysis_row(), GAPS_ANALYSIS_LEP_GAPS21), fills a histogram table of
 * that analysis with the program's own fill (gaps_histograms_fill_event()) and writes it with
 * the program's YODA writer.  So "default physics, GAPS 2.1's histograms" can be compared with
 * GAPS 2.1's reference files (doc/validation-lep.md).  With --compat gaps21 its file equals
 * that of `gaps --compat gaps21` with the same arguments, apart from the GitRevision line
 * (tests/test_lep_reference.sh checks this).
 * Exit status: 0 done, 1 the run failed, 2 bad arguments.
 */
#include "gaps/analysis.h"
#include "gaps/compat.h"
#include "gaps/generator.h"
#include "gaps/parameters.h"
#include "gaps/histogram.h"
#include "gaps/process.h"
#include "gaps/state.h"
#include "gaps/yoda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx {
    gaps_histograms h;
    int bad;
} ctx;

static int on_events(void *c, const double *rows, const gaps_records *rec, int n)
{
    (void)rows;
    ctx *x = c;
    /* partitions (the threads of the multicore build) call this at the same time, and the
     * fill's updates are atomic only where copies are shared: one partition at a time */
#ifdef _OPENMP
#pragma omp critical(lep_reanalyse_fill)
#endif
    for (int i = 0; i < n; ++i) {
        const long base = (long)i * rec->maxp;
        const int np = rec->n[i];
        int n_in = 0;
        while (n_in < np && rec->status[base + n_in] == GAPS_STATUS_INCOMING) ++n_in;
        double row[GAPS_OBS_MAX_COLUMNS];
        gaps_analysis_row(row, GAPS_ANALYSIS_LEP_GAPS21, rec->event[i], rec->weight[i], n_in,
                          np, (const double(*)[4])(rec->p + 4 * base), rec->flav + base);
        if (gaps_histograms_fill_event(&x->h, 0, row) != 0) x->bad = 1;
    }
    return 0;
}

static int usage(const char *why)
{
    fprintf(stderr, "lep_reanalyse: %s (usage: lep_reanalyse --events N --seed S [--nlo 0|1] "
            "[--compat none|gaps21] [--alphas-mz X] [--ablate NAME[,NAME]] --output FILE.yoda)\n",
            why);
    return 2;
}

int main(int argc, char **argv)
{
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_config_set_process(&cfg, GAPS_PROCESS_EE_QQ);
    const char *out = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (i + 1 >= argc) return usage("an option without its value");
        const char *v = argv[++i];
        char *end = NULL;
        if (strcmp(a, "--events") == 0) cfg.events = strtoll(v, &end, 10);
        else if (strcmp(a, "--seed") == 0) cfg.seed = (uint32_t)strtoul(v, &end, 10);
        else if (strcmp(a, "--nlo") == 0) cfg.nlo = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--alphas-mz") == 0) cfg.alphas_mz = strtod(v, &end);
        else if (strcmp(a, "--output") == 0) out = v, end = (char *)v + strlen(v);
        else if (strcmp(a, "--ablate") == 0) {   /* the coupling's variants (gaps/ablate.h) */
            const char *bad;
            size_t bad_len;
            if (gaps_ablate_parse(v, &cfg.ablate, &bad, &bad_len) != 0)
                return usage("--ablate is none or a list of its names (gaps --help)");
            end = (char *)v + strlen(v);
        } else if (strcmp(a, "--compat") == 0) {
            if (strcmp(v, "none") == 0) cfg.compat = GAPS_COMPAT_NONE;
            else if (strcmp(v, "gaps21") == 0) cfg.compat = GAPS_COMPAT_GAPS21;
            else return usage("--compat is none or gaps21");
            end = (char *)v + strlen(v);
        } else return usage("unknown option");
        if (!end || *end != '\0' || end == v) return usage("a value that is not a number");
    }
    if (!out) return usage("--output is missing");
    char msg[512];
    if (gaps_config_check(&cfg, msg, sizeof msg) != 0) return usage(msg);
    cfg.keep_records = 1;
    cfg.allow_host = 1;   /* an offload build without a GPU runs on the host */

    gaps_process proc;
    if (gaps_process_init(&proc, GAPS_PROCESS_EE_QQ, cfg.ecm, msg, sizeof msg) != 0)
        return usage(msg);
    ctx x;
    memset(&x, 0, sizeof x);
    gaps_histograms_layout(&x.h, 1, proc.w_unit, GAPS_ANALYSIS_LEP_GAPS21);
    x.h.acc = calloc((size_t)gaps_histograms_words(&x.h), sizeof(uint64_t));
    if (!x.h.acc) return fprintf(stderr, "lep_reanalyse: out of memory\n"), 1;

    gaps_hooks hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.ctx = &x;
    hooks.events = on_events;
    gaps_run run;
    if (gaps_generate_with(&cfg, &hooks, NULL, NULL, &run, msg, sizeof msg) != 0) {
        fprintf(stderr, "lep_reanalyse: %s\n", msg);
        return 1;
    }
    if (x.bad) fprintf(stderr, "lep_reanalyse: warning: some weights could not be added\n");

    /* the run's state, with GAPS 2.1's LEP histograms in place of its own */
    gaps_state *st = malloc(sizeof *st);
    if (!st) return fprintf(stderr, "lep_reanalyse: out of memory\n"), 1;
    memcpy(st, run.state, sizeof *st);
    st->analysis = GAPS_ANALYSIS_LEP_GAPS21;
    memset(st->words, 0, sizeof st->words);
    memcpy(st->words, x.h.acc, (size_t)x.h.nbins_total * GAPS_ACC_WORDS * sizeof(uint64_t));
    FILE *f = fopen(out, "w");
    if (!f) return fprintf(stderr, "lep_reanalyse: cannot write '%s'\n", out), 1;
    const int rc = gaps_yoda_write(f, st, run.backend);
    if (fclose(f) != 0 || rc != 0) return fprintf(stderr, "lep_reanalyse: writing '%s' failed\n", out), 1;
    char variant[200] = "";
    if (cfg.ablate) {   /* the shower variant, named as the YODA file names it */
        memcpy(variant, ", --ablate ", 11);
        gaps_param_format(&gaps_params[GAPS_P_ablate], &cfg.ablate, GAPS_STYLE_SHORT,
                          variant + 11, sizeof variant - 11);
    }
    fprintf(stderr, "lep_reanalyse: %lld events (%s physics%s%s), sigma %.6g +- %.3g pb, %lld "
            "invalid, %lld at the record capacity, %lld trials with f > g -> %s\n",
            (long long)run.events, cfg.compat == GAPS_COMPAT_GAPS21 ? "--compat gaps21" : "default",
            cfg.nlo ? ", NLO" : "", variant, run.sigma, run.sigma_err,
            (long long)run.invalid_events, (long long)run.capacity_hits,
            (long long)run.overestimates, out);
    free(st);
    free(x.h.acc);
    gaps_run_free(&run);
    return 0;
}
