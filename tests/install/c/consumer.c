/* A C program that uses the INSTALLED gaps library (tests/install/test_install.sh builds it
 * with find_package(gaps) and with pkg-config): 2000 events, then the run's cross section
 * against the exact one and a histogram read through the public structs.  Exit 0 if all
 * checks pass, 1 otherwise. */
#include <math.h>
#include <stdio.h>

#include "gaps/generator.h"
#include "gaps/histogram.h"
#include "gaps/matrix_element.h"

static int failures = 0;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

int main(void)
{
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    cfg.events = 2000;
    cfg.allow_host = 1;   /* an offload build on a machine without GPU runs on the host */

    gaps_run run;
    char msg[256];
    if (gaps_generate(&cfg, &run, msg, sizeof msg) != 0) {
        fprintf(stderr, "consumer_c: gaps_generate failed: %s\n", msg);
        return 1;
    }
    printf("gaps %s backend on %s: %lld events, sigma = %.2f +- %.2f pb\n", run.backend,
           run.device, (long long)run.events, run.sigma, run.sigma_err);

    gaps_me me;
    gaps_me_init(&me, cfg.ecm);
    const double exact = gaps_me_sigma_exact(&me);
    check(run.events == 2000, "2000 events generated");
    check(run.invalid_events == 0, "no invalid events");
    check(run.sigma > 0.0 && run.sigma_err > 0.0, "cross section and error positive");
    /* 5 standard deviations: a false alarm once in ~2 million runs (and the seed is fixed) */
    check(fabs(run.sigma - exact) < 5.0 * run.sigma_err, "cross section agrees with the exact one");

    /* Every event fills the thrust histogram once (under- and overflow included). */
    const gaps_hist_result *h = run.hist;
    const int nbins = gaps_analysis_table[GAPS_ANALYSIS_LEP].hist[GAPS_LEP_H_TAU].nbins;
    unsigned long long entries = 0;
    for (int b = 0; b <= nbins + 1; ++b) entries += h->bin[GAPS_LEP_H_TAU][b].entries;
    check(h->n_events == 2000 && entries == 2000, "tau histogram holds every event once");
    /* mean parton multiplicity: at least the q qbar pair, at most the record's capacity */
    double sumw = 0.0, sumwx = 0.0;
    const gaps_hist_def *np = &gaps_analysis_table[GAPS_ANALYSIS_LEP].hist[GAPS_LEP_H_NPARTONS];
    for (int b = 0; b <= np->nbins + 1; ++b) {
        sumw += h->bin[GAPS_LEP_H_NPARTONS][b].sumw;
        sumwx += h->bin[GAPS_LEP_H_NPARTONS][b].sumwx;
    }
    const double mean_partons = sumwx / sumw;
    printf("exact sigma %.2f pb, mean number of partons %.2f\n", exact, mean_partons);
    check(mean_partons > 2.0 && mean_partons <= cfg.max_partons, "mean parton multiplicity sane");

    gaps_run_free(&run);
    return failures ? 1 : 0;
}
